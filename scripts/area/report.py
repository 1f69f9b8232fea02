"""report.json and report.md of the area flow (scripts/area/area.py)."""
import json
import os


def _f(v, digits=0):
    return "—" if v is None else f"{v:,.{digits}f}"


def _pct(part, whole):
    return "—" if not whole else f"{100.0 * part / whole:.1f}%"


def _config(rep):
    c, p = rep["config"], rep["config"]["params"]
    plan = c["plan"]
    src = (f"largest table of the MultiTree plan on {plan['topology']}: {plan['max_entries']} "
           f"entries, T = {plan['steps_per_phase']}") if plan["max_entries"] else "given"
    params = ", ".join(f"{k} {v}" for k, v in p.items())
    return [f"# NI area and timing, OSU 0.18 um ({c['nodes']} nodes, K {c['k']}, "
            f"{c['lanes']} lanes, NI buffer {c['buffer_flits']} flits)", "",
            f"Parameters of `network_interface`: {params} (DEPTH and STEP_W: {src}); the rest "
            "at their defaults (rtl/README.md).", ""]


def _blocks(rep):
    s = rep["summary"]
    total = s["logic_um2"]
    out = ["## Logic per block (standard cells, hierarchy kept; storage arrays excluded)", "",
           "| block | instances | cells | flip-flops | area (um^2) | share | critical path (ns) "
           "| of it, high fanout (ns) |", "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for b in rep["blocks"]:
        path = b["critical_path"]
        cp = path["delay_ns"] if path else None
        heavy = path["heavy_ns"] if path else None
        name = b["block"] + (" (own logic)" if b["block"] == "network_interface" else "")
        out.append(f"| {name} | {b['instances']} | {_f(b['cells'])} | {_f(b['flops'])} | "
                   f"{_f(b['area_um2'])} | {_pct(b['area_um2'], total)} | {_f(cp, 2)} | "
                   f"{_f(heavy, 2)} |")
    out.append(f"| **logic total** | | {_f(sum(b['cells'] for b in rep['blocks']))} | "
               f"{_f(sum(b['flops'] for b in rep['blocks']))} | **{_f(total)}** | 100% | | |")
    out += ["", f"Yosys's hierarchical total: {_f(s['logic_yosys_um2'])} um^2, plus "
            f"{_f(s['fanout_buffers'])} buffers of the fanout pass ({_f(s['fanout_buffers_um2'])} "
            "um^2; scripts/area/fanout.py: no driver sees more than "
            f"{rep['fanout_max']} cell inputs); flattened synthesis, without those buffers: "
            f"{_f(s['logic_flat_um2'])} um^2. A block's area counts its own cells "
            "times its instances (sub-blocks have their own rows). A block's critical path is "
            "its longest path linked as the top (inputs at the clock edge, outputs due at the "
            "next, register setup included).", ""]
    return out


def _storage(rep):
    out = ["## Storage (black boxes in synthesis; rtl/storage_array.sv)", "",
           "| array | what | inst. | words x bits | W/R ports | bits | KiB | SRAM est. (um^2) "
           "| as flip-flops (um^2) |", "| --- | --- | ---: | --- | --- | ---: | ---: | ---: | ---: |"]
    for a in rep["storage"]:
        rd = "sync" if a["sync_read"] else "async"
        out.append(f"| {a['array']} | {a['what']} | {a['instances']} | {a['words']} x "
                   f"{a['width']} | {a['write_ports']}/{a['read_ports']} {rd} | {_f(a['bits'])} | "
                   f"{_f(a['bytes'] / 1024, 2)} | {_f(a['sram_um2'])} | {_f(a['flop_um2'])} |")
    s = rep["summary"]
    for key, label in (("table", "table storage"), ("ni_buffers", "NI buffers")):
        t = s[key]
        out.append(f"| **{label}** | | | | | {_f(t['bits'])} | {_f(t['bytes'] / 1024, 2)} | "
                   f"{_f(t['sram_um2'])} | {_f(t['flop_um2'])} |")
    out += ["", f"SRAM estimate: bits x {rep['sram_bit_um2']} um^2 ({rep['sram_bit_source']}). "
            "Flip-flops: the array synthesized as registers by the same flow "
            "(method per array in report.json).", ""]
    return out


def _totals(rep):
    s = rep["summary"]
    st, sb = s["table"], s["ni_buffers"]
    rows = [("logic (control)", s["control_um2"], s["control_um2"]),
            ("logic (fp32 datapath: reduction_unit, fp32_adder)", s["fp32_datapath_um2"],
             s["fp32_datapath_um2"]),
            ("table storage", st["sram_um2"], st["flop_um2"]),
            ("NI buffers", sb["sram_um2"], sb["flop_um2"])]
    out = ["## The whole NI", "", "| part | storage as SRAM (um^2) | share | storage as flip-flops "
           "(um^2) | share |", "| --- | ---: | ---: | ---: | ---: |"]
    for label, a, b in rows:
        out.append(f"| {label} | {_f(a)} | {_pct(a, s['total_sram_um2'])} | {_f(b)} | "
                   f"{_pct(b, s['total_flop_um2'])} |")
    out.append(f"| **total** | **{_f(s['total_sram_um2'])}** | 100% | "
               f"**{_f(s['total_flop_um2'])}** | 100% |")
    return out + [""]


def _timing(rep):
    t = rep["timing"]
    cp = t["critical_path"]
    return ["## Timing (OpenSTA, typical corner, ideal clock, no wire load)", "",
            f"- critical path: {cp['delay_ns']:.3f} ns over {cp['cells']} cells, from "
            f"`{cp['start']}` to `{cp['end']}`; {cp['heavy_ns']:.3f} ns of it in "
            f"{cp['heavy_stages']} stages driving more than 0.5 pF (after the fanout pass)",
            f"- worst slack at {t['clock_ns']} ns ({1000 / t['clock_ns']:.0f} MHz): "
            f"{t['worst_slack_ns']:.3f} ns",
            f"- fmax: **{t['fmax_mhz']:.1f} MHz** (shortest period with no negative slack, "
            f"bisection: {t['min_period_ns']:.3f} ns)",
            "- storage arrays are timed as the register arrays above (write setup, read "
            "delay measured on the narrow synthesis); an SRAM macro's own timing would "
            "replace them", ""]


def _parts(rep):
    s = rep["summary"]
    out = ["## The NI in three parts", "",
           "| part | logic (um^2) | logic (GE) | storage bits | storage as SRAM (um^2) |",
           "| --- | ---: | ---: | ---: | ---: |"]
    labels = {"conventional": "conventional NI (ejection, packetisation, DMA, block slots, NI buffers)",
              "reduction": "NI-side reduction (interlock, reduction sequencer, reduction unit, fp32 adders)",
              "multitree": "MultiTree-specific (table loader and read, counters, decoder, scoreboard)"}
    for part, label in labels.items():
        p = s["parts"][part]
        out.append(f"| {label} | {_f(p['logic_um2'])} | {_f(p['logic_um2'] / s['ge_um2'])} | "
                   f"{_f(p['storage_bits'])} | {_f(p['storage_sram_um2'])} |")
    head = "flattened" if s["logic_flat_um2"] is not None else "hierarchical"
    out += ["", f"Logic, the {head} synthesis: **{_f(s['headline_logic_um2'])} um^2, "
            f"{_f(s['gate_equivalents'])} GE** (1 GE = {s['ge_um2']:g} um^2, the NAND2X1). The "
            "parts are the hierarchical blocks' own cells (the top's own logic counts as "
            "conventional).", ""]
    return out


def _targets(rep):
    g = rep["summary"]["targets"]

    def ok(v):
        return "met" if v else "**not met**"
    mvt = g["multitree_vs_table_sram"]
    return ["## Targets", "",
            "The targets (docs/area.md) are set for 64 nodes at the RTL's queue sizes; here "
            "they are judged on the configuration above.", "",
            f"- fmax at least 250 MHz: {ok(g['closes_250mhz'])} ({g['fmax_mhz']:.1f} MHz; "
            f"400 MHz: {ok(g['closes_400mhz'])})",
            f"- control logic (no storage arrays, no fp32/int32 datapath) at most 5 mm^2: "
            f"{ok(g['control_at_most_5mm2'])} ({_f(rep['summary']['control_um2'] / 1e6, 2)} mm^2)",
            f"- MultiTree-specific logic at most twice the table's SRAM bit cells: "
            f"{ok(g['multitree_at_most_2x_table'])} "
            f"({_f(mvt if mvt is not None else None, 2)} times)",
            f"- no block's critical path more than 25% above the median block's: "
            f"{ok(g['blocks_within_25pct'])} (worst {g['block_worst_ns']:.2f} ns, median "
            f"{g['block_median_ns']:.2f} ns, ratio {_f(g['block_worst_vs_median'], 2)})", ""]


def markdown(rep):
    lines = (_config(rep) + _blocks(rep) + _storage(rep) + _totals(rep) + _parts(rep) +
             _timing(rep) + _targets(rep))
    return "\n".join(lines)


def write_files(rep, md_text, json_path, md_path):
    """A report as JSON and its Markdown text, each file replaced whole."""
    for path, text in ((json_path, json.dumps(rep, indent=1) + "\n"), (md_path, md_text)):
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)


def write(rep, json_path, md_path):
    write_files(rep, markdown(rep), json_path, md_path)
