"""report.json and report.md of the switch aggregation unit's area flow
(scripts/area/aggregation.py), with the NI's reduction hardware beside it when an NI report is
given."""
from report import _f, write_files


def ni_side(ni):
    """What the NI's report (scripts/area/area.py) says of its reduction hardware, or None."""
    if ni is None:
        return None
    blocks = {b["block"]: b for b in ni["blocks"]}
    red = ni["summary"]["parts"]["reduction"]
    adders = blocks.get("fp32_adder", {})
    return {"nodes": ni["config"]["nodes"], "lanes": ni["config"]["lanes"],
            "fmax_mhz": ni["fmax_mhz"], "min_period_ns": ni["timing"]["min_period_ns"],
            "reduction_logic_um2": red["logic_um2"], "reduction_storage_bits": red["storage_bits"],
            "reduction_storage_sram_um2": red["storage_sram_um2"],
            "fp32_adders": adders.get("instances", 0), "fp32_adders_um2": adders.get("area_um2", 0),
            "ge_um2": ni["summary"]["ge_um2"]}


def _config(rep):
    c = rep["config"]
    return [f"# Switch aggregation unit area and timing, OSU 0.18 um ({c['flows']} flow(s), "
            f"{c['children']} children, {c['slots']} window slots, {c['lanes']} lanes)", "",
            f"Parameters of `aggregation_window`: CHILDREN {c['children']}, SLOTS {c['slots']}, "
            f"SEQ_W {c['seq_w']}; one flit ({c['lanes']} elements) taken and added a cycle. The "
            f"unit is a window per flow: {c['flows']} window(s).", ""]


def _logic(rep):
    out = ["## Logic of one window (standard cells; storage arrays excluded)", "",
           "| block | instances | cells | flip-flops | area (um^2) | GE |",
           "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for b in rep["blocks"]:
        out.append(f"| {b['block']} | {b['instances']} | {_f(b['cells'])} | {_f(b['flops'])} | "
                   f"{_f(b['area_um2'])} | {_f(b['area_um2'] / rep['ge_um2'])} |")
    w = rep["window"]
    out += [f"| **window** | | | | **{_f(w['logic_um2'])}** | **{_f(w['gate_equivalents'])}** |",
            "", "A block's area counts its own cells (with the fanout pass's buffers) times its "
            "instances; `aggregation_window` is its own logic besides the four adders.", ""]
    return out


def _storage(rep):
    out = ["## Storage of one window (black boxes; rtl/storage_array.sv)", "",
           "| array | what | words x bits | W/R ports | bits | SRAM est. (um^2) | as flip-flops "
           "(um^2) |", "| --- | --- | --- | --- | ---: | ---: | ---: |"]
    for a in rep["storage"]:
        out.append(f"| {a['array']} | {a['what']} | {a['words']} x {a['width']} | "
                   f"{a['write_ports']}/{a['read_ports']} async | {_f(a['bits'])} | "
                   f"{_f(a['sram_um2'])} | {_f(a['flop_um2'])} |")
    out += ["", f"SRAM estimate: bits x {rep['sram_bit_um2']} um^2 ({rep['sram_bit_source']}).",
            ""]
    return out


def _timing(rep):
    t = rep["timing"]
    cp = t["critical_path"]
    return ["## Timing (OpenSTA, typical corner, ideal clock, no wire load)", "",
            f"- critical path: {cp['delay_ns']:.3f} ns over {cp['cells']} cells, from "
            f"`{cp['start']}` to `{cp['end']}`",
            f"- fmax: **{t['fmax_mhz']:.1f} MHz** ({t['min_period_ns']:.3f} ns, "
            f"**{t['critical_path_fo4']:.1f} FO4**; FO4 = {t['fo4_ns'] * 1000:.1f} ps, an INVX1 "
            "driving four, measured by OpenSTA on the library)",
            "- storage arrays timed as register arrays (write setup, read delay of their "
            "flip-flop synthesis), as in the NI's flow", ""]


def _beside(rep):
    u, n = rep["unit"], rep["ni"]
    c = rep["config"]
    out = ["## The unit beside the NI's reduction hardware", "",
           f"| | switch unit ({c['flows']} window(s)) | NI-side reduction |",
           "| --- | ---: | ---: |"]
    if n is None:
        return out[:2] + ["No NI report given (--ni-report build/area/report.json).", ""]
    t = rep["timing"]
    rows = [("logic (um^2)", _f(u["logic_um2"]), _f(n["reduction_logic_um2"])),
            ("logic (GE)", _f(u["gate_equivalents"]), _f(n["reduction_logic_um2"] / n["ge_um2"])),
            ("storage bits", _f(u["storage_bits"]), _f(n["reduction_storage_bits"])),
            ("storage as SRAM (um^2)", _f(u["storage_sram_um2"]),
             _f(n["reduction_storage_sram_um2"])),
            ("fp32 adders", f"{4 * c['flows']} (combinational)",
             f"{n['fp32_adders']}"),
            ("fmax (MHz)", f"{t['fmax_mhz']:.1f}", f"{n['fmax_mhz']:.1f} (the whole NI)"),
            ("period (FO4)", f"{t['critical_path_fo4']:.1f}",
             f"{n['min_period_ns'] / t['fo4_ns']:.1f}")]
    out += [f"| {a} | {b} | {d} |" for a, b, d in rows]
    return out + ["", f"The NI: {n['nodes']} nodes, {n['lanes']} lanes (its report).", ""]


def markdown(rep):
    return "\n".join(_config(rep) + _logic(rep) + _storage(rep) + _timing(rep) + _beside(rep))


def write(rep, json_path, md_path):
    write_files(rep, markdown(rep), json_path, md_path)
