#!/usr/bin/env python3
"""Area and timing of the RTL NI (rtl/network_interface.sv) in the OSU 0.18 um standard cells.

Synthesizes the NI with Yosys at the parameters of an N-node network (hierarchy kept, for the
per-block table; again flattened, for the total), keeps every storage array
(rtl/storage_array.sv: the table banks and the NI buffers) as a black box and reports it two
ways: as flip-flops (the array synthesized as registers, at two narrow widths, linear in its
width) and as an SRAM estimate (bits x a published 0.18 um 6T bit-cell area). OpenSTA then
times the mapped netlist: the critical path with its start and end points, the worst slack
at the target clock, fmax by bisection, and each block's own critical path.

Writes OUT/report.json and OUT/report.md (and every tool input and log beside them: the
Yosys scripts, the SDC, the memories' Liberty model, the netlists, the STA reports). Exit
codes: 0 report written, 1 bad arguments or missing tools/files, 2 a tool failed (its log
is named).
"""
import hashlib
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys


HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from cli import ArgumentParser  # noqa: E402  (scripts/area/cli.py)
import fanout as fanout_mod  # noqa: E402  (scripts/area/fanout.py)
import report as report_mod  # noqa: E402  (scripts/area/report.py)
import sta as sta_mod  # noqa: E402  (scripts/area/sta.py)
import storage as storage_mod  # noqa: E402  (scripts/area/storage.py)

DEFAULT_LIB = "/usr/share/qflow/tech/osu018/osu018_stdcells.lib"
# Area of one 6T SRAM bit cell in a 0.18 um logic process: 5.59 um^2, Intel's 180 nm
# generation (S. Yang et al., "A High Performance 180 nm Generation Logic Technology",
# IEDM 1998). The bit cell alone: decoders, sense amplifiers and I/O of a macro come on top,
# so the estimate is a lower bound of a macro's area (docs/area.md).
SRAM_BIT_UM2 = 5.59
SRAM_BIT_SOURCE = ("6T bit cell of Intel's 180 nm logic process, 5.59 um^2 (S. Yang et al., "
                   "IEDM 1998); bit cells only, no periphery")
# Payload flits of one DMA burst (BURST_BYTES = 256, 16 bytes a flit): the NI buffer's line.
BURST_FLITS = 16


class FlowError(Exception):
    """A tool failed: the message names its log."""


def parse_args(argv):
    p = ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Example: scripts/area.sh --nodes 64 --k 4 --lanes 16 --buffer-flits 318")
    p.add_argument("--nodes", type=int, default=64,
                   help="network nodes N (a square torus): node/flow id width bit_width(N), "
                        "FLOWS = N, table DEPTH and STEP_W from the MultiTree plan (default 64)")
    p.add_argument("--k", type=int, default=4, help="children slots = NI ports, 1..4 (default 4)")
    p.add_argument("--lanes", type=int, default=16, help="reduction lanes (default 16)")
    p.add_argument("--buffer-flits", type=int, default=318,
                   help="one port's NI buffer in flits; LINES = ceil(flits / 16) bursts "
                        "(default 318, NiConfig::buffer_flits)")
    # The RTL's queue sizes by default (rtl/README.md, Parameters); smaller ones make a quicker
    # run, and every report says which it used.
    p.add_argument("--blocks", type=int, default=64,
                   help="received block slots of a port, a power of two of at least 4 (default "
                        "64, the RTL's)")
    p.add_argument("--reducing", type=int, default=64,
                   help="Reduce blocks between read and write-back, a power of two (default 64, "
                        "the RTL's)")
    p.add_argument("--requests", type=int, default=256,
                   help="memory accesses queued, a power of two of at least two rows of the "
                        "memory queue's banks (default 256, the RTL's)")
    p.add_argument("--depth", type=int, default=0,
                   help="table entries per bank (default 0: the next power of two of the largest "
                        "table of the MultiTree plan for N nodes and K)")
    p.add_argument("--step-w", type=int, default=0,
                   help="step width (default 0: bit_width(2T) of that plan)")
    p.add_argument("--clock-ns", type=float, default=2.5,
                   help="target clock period: ABC's delay target and the slack reported "
                        "(default 2.5 ns, the 400 MHz target of docs/area.md)")
    p.add_argument("--no-flat", action="store_true",
                   help="skip the flattened synthesis (the total is then the hierarchical one)")
    p.add_argument("--liberty", default=DEFAULT_LIB, help="standard cells (default: %(default)s)")
    p.add_argument("--include", default=os.path.join(ROOT, "build", "format", "generated"),
                   help="directory of the generated ni_formats.svh (default build/format/generated)")
    p.add_argument("--mtc", default=os.path.join(ROOT, "build", "bin", "mtc"),
                   help="the mtc binary, for the plan's table depth (default build/bin/mtc)")
    p.add_argument("--out", default=os.path.join(ROOT, "build", "area"),
                   help="output directory (default build/area)")
    p.add_argument("--cache", default="",
                   help="where the storage arrays' syntheses are kept and reused "
                        "(default OUT/storage_cache; a sweep shares one)")
    p.add_argument("--quiet", action="store_true", help="print only the report's path")
    args = p.parse_args(argv)
    for name in ("include", "mtc", "out", "liberty") + (("cache",) if args.cache else ()):
        setattr(args, name, os.path.abspath(getattr(args, name)))
    check_args(p, args)
    return args


def check_args(p, args):
    if args.nodes < 2 or args.nodes > 65535:
        p.error(f"--nodes must be 2..65535, not {args.nodes}")
    if not 1 <= args.k <= 4:
        p.error(f"--k must be 1..4 (the NI has at most four direction ports), not {args.k}")
    for name in ("lanes", "buffer_flits", "blocks", "reducing", "requests"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.reducing & (args.reducing - 1):
        p.error(f"--reducing must be a power of two, not {args.reducing}")
    if args.blocks & (args.blocks - 1) or args.blocks < 4:
        p.error(f"--blocks must be a power of two of at least 4 (two rows of a port's free "
                f"slots' two banks), not {args.blocks}")
    banks = 1 << (2 * args.k + 1).bit_length()  # the memory queue's: 2K + 2 push lanes
    if args.requests & (args.requests - 1) or args.requests < 2 * banks:
        p.error(f"--requests must be a power of two of at least {2 * banks} (two rows of the "
                f"memory queue's {banks} banks at --k {args.k}), not {args.requests}")
    if args.buffer_flits < BURST_FLITS:
        p.error(f"--buffer-flits must hold one burst ({BURST_FLITS} flits)")
    if args.clock_ns <= 0 or not math.isfinite(args.clock_ns):
        p.error("--clock-ns must be a positive number")
    for tool in ("yosys", "sta"):
        if shutil.which(tool) is None:
            p.error(f"{tool} is not installed (scripts/setup.sh installs it)")
    if not os.path.isfile(args.liberty):
        p.error(f"no Liberty file {args.liberty} (package qflow-tech-osu018)")
    if not os.path.isfile(os.path.join(args.include, "ni_formats.svh")):
        p.error(f"no ni_formats.svh in {args.include}: configure the build first (scripts/build.sh)")
    if (args.depth == 0 or args.step_w == 0) and not os.access(args.mtc, os.X_OK):
        p.error(f"no mtc at {args.mtc}: build it, or give --depth and --step-w")


def bit_width(v):
    return int(v).bit_length()


def torus_of(n):
    """The squarest W x H torus of n nodes."""
    w = int(math.isqrt(n))
    while n % w:
        w -= 1
    return f"{n // w}x{w}"


def plan_shape(args):
    """Largest table and steps per phase of the MultiTree plan for N nodes and K."""
    cmd = [args.mtc, "plan", "--topology", f"torus:{torus_of(args.nodes)}",
           "--algorithm", "multitree", "--children", str(args.k), "--format", "json"]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise FlowError(f"{' '.join(cmd)} failed: {res.stderr.strip()}")
    plan = json.loads(res.stdout)
    largest = max(plan["tables"], key=lambda t: len(t["entries"]))
    ops = {}
    for e in largest["entries"]:
        ops[e["op"]] = ops.get(e["op"], 0) + 1
    return len(largest["entries"]), plan["steps_per_phase"], ops


def ni_params(args):
    """The NI's parameters for this configuration, and how they were derived."""
    entries, steps, ops = (0, 0, {})
    if args.depth == 0 or args.step_w == 0:
        entries, steps, ops = plan_shape(args)
    depth = args.depth or 1 << max(1, (entries - 1).bit_length())
    step_w = args.step_w or bit_width(2 * steps)
    params = {
        "NODE_W": bit_width(args.nodes), "K": args.k, "STEP_W": step_w, "DEPTH": depth,
        "FLOWS": args.nodes, "LANES": args.lanes, "BUFFER_FLITS": args.buffer_flits,
        "LINES": -(-args.buffer_flits // BURST_FLITS), "BLOCKS": args.blocks,
        "REDUCING": args.reducing, "REQUESTS": args.requests,
    }
    shape = {"topology": f"torus:{torus_of(args.nodes)}", "max_entries": entries,
             "steps_per_phase": steps, "largest_table_ops": ops}
    return params, shape


def run_tool(cmd, log, cwd):
    """Runs a tool at low priority (the machine is shared), its output into log."""
    with open(log, "w") as f:
        res = subprocess.run(["nice", "-n", "15"] + cmd, stdout=f, stderr=subprocess.STDOUT,
                             cwd=cwd)
    if res.returncode != 0:
        raise FlowError(f"{cmd[0]} failed (exit {res.returncode}); see {log}")


def liberty_areas(path):
    """Cell name -> area (um^2) from a Liberty file."""
    text = open(path).read()
    areas = {}
    cells = re.split(r"\bcell\s*\(", text)[1:]
    for chunk in cells:
        name = re.match(r"\s*\"?([\w$\\]+)\"?\s*\)", chunk)
        area = re.search(r"^\s*area\s*:\s*([\d.]+)", chunk, re.M)
        if name and area:
            areas[name.group(1)] = float(area.group(1))
    if not areas:
        raise FlowError(f"no cell areas in {path}")
    return areas


def rtl_files(args):
    """The files a synthesis reads: the format package first (port lists name its constants,
    format/CMakeLists.txt), then every module of rtl/."""
    modules = sorted(os.path.join(ROOT, "rtl", f) for f in os.listdir(os.path.join(ROOT, "rtl"))
                     if f.endswith(".sv"))
    return [os.path.join(args.include, "ni_formats_pkg.sv")] + modules


def files_digest(paths):
    """A digest of the files' names and contents (not where they are): a synthesis is reused
    only for the same sources, from any checkout."""
    h = hashlib.sha256()
    for path in paths:
        h.update(os.path.basename(path).encode() + b"\0" + open(path, "rb").read() + b"\0")
    return h.hexdigest()[:16]


def yosys_read(args, top, params):
    files = " ".join(rtl_files(args))
    sets = " ".join(f"-set {k} {v}" for k, v in params.items())
    lines = [f"read_verilog -defer -sv -I{args.include} {files}"]
    if sets:
        lines.append(f"chparam {sets} {top}")
    lines.append(f"hierarchy -check -top {top}")
    return lines


def abc_script(clock_ns):
    """ABC's delay-oriented mapping (Yosys's `abc -D` script without its `dc2` rewriting)
    followed by fanout buffering and gate sizing toward the target clock: without them a select
    that drives a whole 2048-bit datapath is one gate with thousands of loads, hundreds of ns in
    STA. `dc2` rewrites the parallel-prefix (Brent-Kung) carry trees Yosys builds for adders and
    comparators into ripple chains: a registered 32-bit add maps to 4.6 ns with it and 1.9 ns
    without it (OSU 0.18 um); `&dch`'s structural choices still let `&nf` recover area where the
    clock allows."""
    d = int(round(clock_ns * 1000))
    return ("strash\n&get -n\n&fraig -x\n&put\nscorr\ndretime\nstrash\n&get -n\n"
            f"&dch -f\n&nf -D {d}\n&put\nbuffer -p\nupsize -D {d}\ndnsize -D {d}\nstime -p\n")


def abc_digest(clock_ns):
    """A digest of the ABC script: a synthesis is reused only with the same script."""
    return hashlib.sha256(abc_script(clock_ns).encode()).hexdigest()[:16]


def abc_command(args, out):
    path = os.path.join(out, "abc.script")
    with open(path, "w") as f:
        f.write(abc_script(args.clock_ns))
    return f"abc -D {int(round(args.clock_ns * 1000))} -script {path} -liberty {args.liberty}"


def synth_script(args, params, flat):
    """The Yosys script of the NI: storage arrays kept as black boxes."""
    lib = args.liberty
    lines = yosys_read(args, "network_interface", params)
    lines += ["blackbox $paramod*storage_array*"]
    if not flat:
        lines += ["design -save elaborated", "delete =* =A:blackbox %d",
                  "write_json storage_modules.json", "design -load elaborated"]
    tag = "flat" if flat else "hier"
    lines += [f"synth {'-flatten ' if flat else ''}-top network_interface",
              f"dfflibmap -liberty {lib}", abc_command(args, args.out), "opt_clean",
              f"tee -q -o stat_{tag}.json stat -json",
              f"tee -q -o stat_{tag}.txt stat -liberty {lib}"]
    if not flat:
        # The netlist for OpenSTA: no undefined bits, no multi-bit assignments.
        lines += ["setundef -zero", "splitnets", "opt_clean -purge",
                  "write_verilog -noattr -noexpr -nohex -nodec -simple-lhs netlist_hier.v"]
    return "\n".join(lines) + "\n"


def hdl_name(module):
    """rtl/ module name of a Yosys module ("\\x", "$paramod$<hash>\\x", "$paramod\\x\\P=v")."""
    parts = module.split("\\")
    return parts[1] if len(parts) > 1 else module


def cell_types(mods, mod):
    """A module's cells by type, sub-module types named as `mods` names them (`stat -json`
    writes a public module's name without its backslash in the cell list)."""
    out = {}
    for typ, n in mods[mod].get("num_cells_by_type", {}).items():
        if typ not in mods and "\\" + typ in mods:
            typ = "\\" + typ
        out[typ] = out.get(typ, 0) + n
    return out


def instance_counts(stat, top, blackboxes):
    """Module -> instances under top, from `stat -json`'s cells by type (black boxes too)."""
    mods = stat["modules"]
    counts = {top: 1}
    for mod in topological(mods, top):  # parents before children
        for typ, n in cell_types(mods, mod).items():
            if typ in mods or typ in blackboxes:
                counts[typ] = counts.get(typ, 0) + counts.get(mod, 0) * n
    return counts


def topological(mods, top):
    seen, out = set(), []

    def visit(m):
        seen.add(m)
        for typ in cell_types(mods, m):
            if typ in mods and typ not in seen:
                visit(typ)
        out.append(m)
    visit(top)
    return list(reversed(out))


def module_areas(stat, areas, blackboxes):
    """Module -> (standard cells, area um^2) of its own cells (sub-modules not included)."""
    own = {}
    for mod, data in stat["modules"].items():
        cells, area = 0, 0.0
        for typ, n in cell_types(stat["modules"], mod).items():
            if typ in areas:
                cells += n
                area += n * areas[typ]
            elif typ not in stat["modules"] and typ not in blackboxes:
                raise FlowError(f"cell type {typ} of {mod} is neither a Liberty cell nor a module")
        own[mod] = (cells, area)
    return own


def yosys_chip_area(stat_txt, top):
    """The hierarchical chip area Yosys prints for the top (the check of the block sum)."""
    text = open(stat_txt).read()
    m = re.search(r"Chip area for top module '\\?%s':\s*([\d.]+)" % re.escape(top), text)
    if m is None:
        m = re.search(r"Chip area for module '\\?%s':\s*([\d.]+)" % re.escape(top), text)
    return float(m.group(1)) if m else None


def clean_names(modules):
    """Yosys module name -> a plain identifier for the netlist STA reads (rtl/ name, numbered
    when one module has several parameter sets)."""
    by_hdl = {}
    for name in sorted(modules):
        by_hdl.setdefault(hdl_name(name), []).append(name)
    names = {}
    for hdl, variants in by_hdl.items():
        for i, name in enumerate(variants):
            names[name] = hdl if len(variants) == 1 else f"{hdl}_{i}"
    return names


def rename_netlist(src, dst, names):
    text = open(src).read()
    for name, clean in names.items():
        if name.startswith("\\"):
            continue  # a public name: written plainly already
        text = text.replace("\\" + name + " ", clean + " ")
    with open(dst, "w") as f:
        f.write(text)


def read_stat_json(path):
    """`stat -json` output; Yosys 0.23 prints the design hierarchy as text into it, so lines
    that cannot be JSON are dropped first."""
    lines = [ln for ln in open(path) if re.match(r"^\s*($|[\"{}\[\]])", ln)]
    return json.loads("".join(lines))


def synthesize(args, params, out, flat):
    """Runs the Yosys script; a run with the same script, the same sources and the same ABC
    script whose outputs are all there is reused (a sweep or a rerun resumes)."""
    tag = "flat" if flat else "hier"
    script = os.path.join(out, f"synth_{tag}.ys")
    text = (synth_script(args, params, flat) + f"# sources {files_digest(rtl_files(args))}\n"
            f"# abc script {abc_digest(args.clock_ns)}\n")
    outputs = [f"stat_{tag}.json", f"stat_{tag}.txt"] + ([] if flat else
                                                         ["netlist_hier.v", "storage_modules.json"])
    done = os.path.join(out, f"synth_{tag}.done")
    if not (os.path.exists(done) and open(done).read() == text and
            all(os.path.exists(os.path.join(out, o)) for o in outputs)):
        with open(script, "w") as f:
            f.write(text)
        run_tool(["yosys", "-q", "-l", f"yosys_{tag}.log", script],
                 os.path.join(out, f"run_{tag}.log"), out)
        with open(done, "w") as f:
            f.write(text)
    return read_stat_json(os.path.join(out, f"stat_{tag}.json"))


def storage_context(args, out, areas):
    def read(p):
        return yosys_read(args, "storage_array", p)
    return {"read": read, "run": run_tool, "stat": read_stat_json, "liberty": args.liberty, "areas": areas,
            "abc": abc_command(args, out),
            "abc_tag": f"{args.clock_ns:g}ns_{abc_digest(args.clock_ns)}",
            "sources": files_digest([os.path.join(ROOT, "rtl", "storage_array.sv")]),
            "cache": args.cache or os.path.join(out, "storage_cache")}


def storage_rows(ctx, arrays, insts, counts, modules):
    """One row per storage array instance type: bits, SRAM estimate, flip-flops."""
    rows = []
    for parent, inst, module in insts:
        parent = parent if parent in modules else "\\" + parent
        p = arrays[module]
        n = counts.get(parent, 0)
        kind, what, part = storage_mod.classify(hdl_name(parent), inst)
        model = storage_mod.flop_model(ctx, p)
        bits = p["WIDTH"] * p["DEPTH"] * n
        rows.append({
            "array": f"{hdl_name(parent)}/{inst}", "kind": kind, "what": what, "part": part,
            "instances": n, "words": p["DEPTH"], "width": p["WIDTH"], "write_ports": p["WRITES"],
            "read_ports": p["READS"], "sync_read": bool(p["SYNC_READ"]), "bits": bits,
            "bytes": bits / 8, "sram_um2": bits * SRAM_BIT_UM2,
            "flop_cells": model["flop_cells"] * n, "flop_um2": model["flop_area_um2"] * n,
            "flop_method": model["flop_method"], "timing": model["timing"],
            "timing_width": model["timing_width"], "module": module,
        })
    return rows


def netlist_modules(netlist):
    """Module name -> whether it has a clk_i port, from a Verilog netlist."""
    mods, cur = {}, None
    for line in open(netlist):
        m = re.match(r"^module\s+(\S+?)\s*\(", line)
        if m:
            cur = m.group(1)
            mods[cur] = False
        elif cur and re.match(r"^\s*input\s+(\[[^]]*\]\s*)?clk_i;", line):
            mods[cur] = True
    return mods


def whole_timing(args, out, libs, top="network_interface"):
    """`top` (the NI) at the target clock: critical path and worst slack; fmax by bisection."""
    with open(os.path.join(out, "constraints.sdc"), "w") as f:
        f.write(sta_mod.sdc_text(args.clock_ns, True))
    tcl = sta_mod.tcl_load(libs, "netlist.v", top)
    tcl += "read_sdc constraints.sdc\nreport_checks -path_delay max -digits 3 -fields {cap}\n"
    tcl += 'puts "MT_WNS [expr {[sta::worst_slack_cmd max] * 1e9}]"\n'
    tcl += sta_mod.tcl_bisect(0.01, 4 * sta_mod.LONG_NS, 40, True)
    path = os.path.join(out, "sta_whole.tcl")
    with open(path, "w") as f:
        f.write(tcl)
    text = sta_mod.run_sta(path, os.path.join(out, "sta_whole.log"), out)
    paths = sta_mod.parse_paths(text)
    wns = re.search(r"^MT_WNS (\S+)", text, re.M)
    period = re.search(r"^MT_FMAX_PERIOD (\S+)", text, re.M)
    if not paths or not wns or not period:
        raise FlowError(f"no critical path or slack in {out}/sta_whole.log")
    crit = paths[0]
    crit["delay_ns"] = args.clock_ns - crit["slack_ns"]
    p = float(period.group(1))
    return {"clock_ns": args.clock_ns, "worst_slack_ns": float(wns.group(1)),
            "critical_path": crit, "min_period_ns": p, "fmax_mhz": 1000.0 / p}


def block_timing(out, libs, modules):
    """Each block's own critical path: the block linked as the top, inputs at the clock
    edge, outputs due at the next (register setup included)."""
    tcl = "".join(f"read_liberty {lib}\n" for lib in libs)
    for mod, has_clock in sorted(modules.items()):
        # A link consumes the Verilog read before it: read again for each block.
        tcl += f'puts "MT_BLOCK {mod}"\nread_verilog netlist.v\nlink_design {mod}\n'
        tcl += sta_mod.sdc_text(sta_mod.LONG_NS, has_clock)
        tcl += "report_checks -path_delay max -digits 3 -fields {cap}\n"
    path = os.path.join(out, "sta_blocks.tcl")
    with open(path, "w") as f:
        f.write(tcl)
    text = sta_mod.run_sta(path, os.path.join(out, "sta_blocks.log"), out)
    result = {}
    for chunk in re.split(r"^MT_BLOCK ", text, flags=re.M)[1:]:
        mod = chunk.split("\n", 1)[0].strip()
        paths = sta_mod.parse_paths(chunk)
        if paths:
            crit = paths[0]
            crit["delay_ns"] = sta_mod.LONG_NS - crit["slack_ns"]
            result[mod] = crit
    return result


FP32_BLOCKS = ("reduction_unit", "fp32_adder")
# The NI in three parts (docs/area.md): the MultiTree-specific logic (the table's loader and
# read, the timestep and lockstep counters, the decoder, the dependency scoreboard), the
# NI-side reduction the paper leaves to the accelerator (the interlock, the reduction sequencer,
# the reduction unit and its adders), and the conventional NI every DMA network interface has (ejection,
# packetisation, DMA, block slots, NI buffers): every other block.
PARTS = {
    "multitree": ("schedule_table", "image_crc32", "timestep_counter", "lockstep_counter",
                  "decoder", "dependency_tracker"),
    "reduction": ("interlock", "reduction_sequencer", "reduction_unit", "fp32_adder"),
}
# One gate equivalent: the library's two-input NAND (NAND2X1, 24 um^2 in OSU 0.18 um).
GE_CELL = "NAND2X1"
# The control logic (no storage arrays, no fp32/int32 datapath) an NI may take (docs/area.md).
TARGET_CONTROL_UM2 = 5e6


def part_of(hdl):
    return next((part for part, mods in PARTS.items() if hdl in mods), "conventional")


def block_rows(stat, areas, arrays, names, crit, buffers):
    """One row per rtl/ module: its own cells (with the fanout pass's buffers) times its
    instances, and its critical path."""
    mods = stat["modules"]
    buf_um2 = areas[fanout_mod.BUFFER[0]]
    counts = instance_counts(stat, "\\network_interface", set(arrays))
    own = module_areas(stat, areas, set(arrays))
    blocks = {}
    for mod, n in counts.items():
        if mod in arrays:
            continue
        hdl = hdl_name(mod)
        cells, area = own[mod]
        flops = sum(k for t, k in mods[mod]["num_cells_by_type"].items() if t.startswith("DFF"))
        b = blocks.setdefault(hdl, {"block": hdl, "instances": 0, "cells": 0, "flops": 0,
                                    "area_um2": 0.0, "fanout_buffers": 0,
                                    "fanout_buffers_um2": 0.0, "critical_path": None,
                                    "category": "fp32_datapath" if hdl in FP32_BLOCKS else "control",
                                    "part": part_of(hdl)})
        b["instances"] += n
        b["cells"] += cells * n
        b["flops"] += flops * n
        bufs = buffers.get(names[mod], 0)
        b["cells"] += bufs * n
        b["area_um2"] += (area + bufs * buf_um2) * n
        b["fanout_buffers"] += bufs * n
        b["fanout_buffers_um2"] += bufs * buf_um2 * n
        path = crit.get(names[mod])
        if path and (b["critical_path"] is None or path["delay_ns"] > b["critical_path"]["delay_ns"]):
            b["critical_path"] = path
    return sorted(blocks.values(), key=lambda b: -b["area_um2"]), counts


def summarize(blocks, storage, timing, flat_stat, areas, yosys_total):
    logic = sum(b["area_um2"] for b in blocks)
    control = sum(b["area_um2"] for b in blocks if b["category"] == "control")
    fp32 = logic - control
    table = [s for s in storage if s["kind"] == "table"]
    bufs = [s for s in storage if s["kind"] == "ni_buffers"]
    sums = {k: sum(s[k] for s in rows) for rows, k in
            [(table, "bits"), (table, "sram_um2"), (table, "flop_um2")]}
    bsum = {k: sum(s[k] for s in bufs) for k in ("bits", "sram_um2", "flop_um2")}
    timed = [b["critical_path"]["delay_ns"] for b in blocks
             if b["critical_path"] and b["block"] != "network_interface"]
    median = statistics.median(timed) if timed else 0.0
    worst = max(timed) if timed else 0.0
    flat = None
    if flat_stat is not None:
        flat = sum(n * areas[t] for t, n in flat_stat["design"]["num_cells_by_type"].items()
                   if t in areas)
    parts = {}
    for part in ("conventional", "reduction", "multitree"):
        rows = [s for s in storage if s["part"] == part]
        parts[part] = {"logic_um2": sum(b["area_um2"] for b in blocks if b["part"] == part),
                       "storage_bits": sum(s["bits"] for s in rows),
                       "storage_sram_um2": sum(s["sram_um2"] for s in rows)}
    headline = flat if flat is not None else logic
    if GE_CELL not in areas:
        raise FlowError(f"the library has no {GE_CELL}, the cell of a gate equivalent")
    return {
        "logic_um2": logic, "logic_yosys_um2": yosys_total, "logic_flat_um2": flat,
        "headline_logic_um2": headline, "gate_equivalents": headline / areas[GE_CELL],
        "ge_um2": areas[GE_CELL], "parts": parts,
        "fanout_buffers": sum(b["fanout_buffers"] for b in blocks),
        "fanout_buffers_um2": sum(b["fanout_buffers_um2"] for b in blocks),
        "control_um2": control, "fp32_datapath_um2": fp32,
        "table": {"bits": sums["bits"], "bytes": sums["bits"] / 8, "sram_um2": sums["sram_um2"],
                  "flop_um2": sums["flop_um2"]},
        "ni_buffers": {"bits": bsum["bits"], "bytes": bsum["bits"] / 8,
                       "sram_um2": bsum["sram_um2"], "flop_um2": bsum["flop_um2"]},
        "total_sram_um2": logic + sums["sram_um2"] + bsum["sram_um2"],
        "total_flop_um2": logic + sums["flop_um2"] + bsum["flop_um2"],
        "targets": {
            "control_vs_table_sram": control / sums["sram_um2"] if sums["sram_um2"] else None,
            "control_vs_table_flop": control / sums["flop_um2"] if sums["flop_um2"] else None,
            "control_at_most_5mm2": control <= TARGET_CONTROL_UM2,
            "multitree_vs_table_sram": (parts["multitree"]["logic_um2"] / sums["sram_um2"]
                                        if sums["sram_um2"] else None),
            "multitree_at_most_2x_table": bool(sums["sram_um2"]) and
                                          parts["multitree"]["logic_um2"] <= 2 * sums["sram_um2"],
            "fmax_mhz": timing["fmax_mhz"], "closes_250mhz": timing["fmax_mhz"] >= 250.0,
            "closes_400mhz": timing["fmax_mhz"] >= 400.0,
            "block_median_ns": median, "block_worst_ns": worst,
            "block_worst_vs_median": worst / median if median else None,
            "blocks_within_25pct": bool(median) and worst <= 1.25 * median,
        },
    }


def run_flow(args):
    params, shape = ni_params(args)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    areas = liberty_areas(args.liberty)
    stat = synthesize(args, params, out, flat=False)
    arrays = storage_mod.array_params(os.path.join(out, "storage_modules.json"))
    names = clean_names(set(stat["modules"]) | set(arrays))
    rename_netlist(os.path.join(out, "netlist_hier.v"), os.path.join(out, "netlist_mapped.v"),
                   names)
    buffers = fanout_mod.repair(os.path.join(out, "netlist_mapped.v"),
                                os.path.join(out, "netlist.v"), args.liberty)
    ctx = storage_context(args, out, areas)
    insts = storage_mod.instances(os.path.join(out, "netlist_hier.v"), set(arrays))
    counts = instance_counts(stat, "\\network_interface", set(arrays))
    storage = storage_rows(ctx, arrays, insts, counts, stat["modules"])
    cells = [(names[s["module"]], storage_mod.port_widths(arrays[s["module"]]),
              dict(s["timing"], reads=s["read_ports"]))
             for s in {s["module"]: s for s in storage}.values()]
    with open(os.path.join(out, "storage_arrays.lib"), "w") as f:
        f.write(sta_mod.macro_library(cells))
    libs = [args.liberty, os.path.join(out, "storage_arrays.lib")]
    timing = whole_timing(args, out, libs)
    modules = netlist_modules(os.path.join(out, "netlist.v"))
    modules.pop("network_interface", None)
    crit = block_timing(out, libs, modules)
    blocks, _ = block_rows(stat, areas, arrays, names, crit, buffers)
    flat = None if args.no_flat else synthesize(args, params, out, flat=True)
    yosys_total = yosys_chip_area(os.path.join(out, "stat_hier.txt"), "network_interface")
    summary = summarize(blocks, storage, timing, flat, areas, yosys_total)
    return {
        "config": {"nodes": args.nodes, "k": args.k, "lanes": args.lanes,
                   "buffer_flits": args.buffer_flits, "clock_ns": args.clock_ns,
                   "params": params, "plan": shape, "liberty": args.liberty},
        "sram_bit_um2": SRAM_BIT_UM2, "sram_bit_source": SRAM_BIT_SOURCE,
        "fanout_max": fanout_mod.MAX_FANOUT,
        "blocks": blocks, "storage": storage, "timing": timing, "summary": summary,
        # The contract of docs/area.md: the headline numbers at the top level.
        "fmax_mhz": timing["fmax_mhz"],
        "control_um2": summary["control_um2"],
        "datapath_um2": summary["fp32_datapath_um2"],
        "multitree_logic_um2": summary["parts"]["multitree"]["logic_um2"],
        "table_sram_um2": summary["table"]["sram_um2"],
        "gate_equivalents": summary["gate_equivalents"],
    }


def main(argv):
    args = parse_args(argv)
    try:
        rep = run_flow(args)
    except (FlowError, RuntimeError) as e:
        print(f"area: {e}", file=sys.stderr)
        return 2
    out = os.path.abspath(args.out)
    report_mod.write(rep, os.path.join(out, "report.json"), os.path.join(out, "report.md"))
    if args.quiet:
        print(os.path.join(out, "report.md"))
    else:
        print(open(os.path.join(out, "report.md")).read())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
