#!/usr/bin/env python3
"""Area and timing of the switch aggregation unit's window (rtl/aggregation_window.sv) in the
OSU 0.18 um standard cells, beside the NI's reduction hardware.

The same method as the NI's flow (scripts/area/area.py, docs/area.md): Yosys with the window's
two storage arrays kept as black boxes (reported as SRAM bit cells and as flip-flops), the
fanout pass, OpenSTA on the mapped netlist with the arrays' Liberty model, fmax by bisection.
The critical path is also given in FO4, the delay of an INVX1 driving four INVX1s measured by
OpenSTA on the same library. The unit at FLOWS flows is FLOWS windows (a window per flow,
rtl/aggregation_window.sv); the NI's numbers (--ni-report, a report.json of area.py) are put
beside it when given.

Writes OUT/report.json and OUT/report.md (default build/area_aggregation). Exit codes: 0
report written, 1 bad arguments or missing tools/files, 2 a tool failed (its log is named).
"""
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import area as area_mod  # noqa: E402  (scripts/area/area.py)
import aggregation_report as report_mod  # noqa: E402  (scripts/area/aggregation_report.py)
from cli import ArgumentParser  # noqa: E402  (scripts/area/cli.py)
import fanout as fanout_mod  # noqa: E402  (scripts/area/fanout.py)
import sta as sta_mod  # noqa: E402  (scripts/area/sta.py)
import storage as storage_mod  # noqa: E402  (scripts/area/storage.py)

TOP = "aggregation_window"
# Stages of the FO4 measurement: the difference of two inverter chains of these lengths.
FO4_SHORT, FO4_LONG = 4, 12


def parse_args(argv):
    p = ArgumentParser(description=__doc__.split("\n\n")[0],
                       epilog="Example: scripts/area.sh --aggregation --children 8 --flows 4")
    p.add_argument("--flows", type=int, default=1,
                   help="flows of the switch: windows of the unit (default 1, an `ina` switch)")
    p.add_argument("--children", type=int, default=4,
                   help="children of a flow, 1..64 (default 4: fattree:4x2's switches)")
    p.add_argument("--slots", type=int, default=256,
                   help="window slots, a power of two of at least 2 (default 256, --ina-window)")
    p.add_argument("--seq-w", type=int, default=32, help="sequence number bits (default 32)")
    p.add_argument("--clock-ns", type=float, default=2.5,
                   help="ABC's delay target and the slack reported (default 2.5 ns)")
    p.add_argument("--ni-report", default="",
                   help="a report.json of the NI's flow (scripts/area.sh) to put beside")
    p.add_argument("--liberty", default=area_mod.DEFAULT_LIB,
                   help="standard cells (default: %(default)s)")
    p.add_argument("--include", default=os.path.join(ROOT, "build", "format", "generated"),
                   help="directory of the generated ni_formats.svh")
    p.add_argument("--out", default=os.path.join(ROOT, "build", "area_aggregation"),
                   help="output directory (default build/area_aggregation)")
    p.add_argument("--cache", default="", help="the storage arrays' syntheses (default "
                                               "OUT/storage_cache)")
    p.add_argument("--quiet", action="store_true", help="print only the report's path")
    args = p.parse_args(argv)
    for name in ("include", "out", "liberty") + (("cache",) if args.cache else ()):
        setattr(args, name, os.path.abspath(getattr(args, name)))
    if not 1 <= args.children <= 64:
        p.error(f"--children must be 1..64, not {args.children}")
    if args.slots < 2 or args.slots & (args.slots - 1):
        p.error(f"--slots must be a power of two of at least 2, not {args.slots}")
    if args.seq_w < args.slots.bit_length():
        p.error(f"--seq-w must be at least log2(slots) + 1 = {args.slots.bit_length()}")
    if args.flows < 1:
        p.error("--flows must be at least 1")
    for tool in ("yosys", "sta"):
        if shutil.which(tool) is None:
            p.error(f"{tool} is not installed (scripts/setup.sh installs it)")
    if not os.path.isfile(os.path.join(args.include, "ni_formats.svh")):
        p.error(f"no ni_formats.svh in {args.include}: configure the build first")
    if args.ni_report and not os.path.isfile(args.ni_report):
        p.error(f"no NI report {args.ni_report}")
    return args


def synth_script(args, params):
    """The window synthesized with its storage arrays as black boxes (area.py's method)."""
    lines = area_mod.yosys_read(args, TOP, params)
    lines += ["blackbox $paramod*storage_array*", "design -save elaborated",
              "delete =* =A:blackbox %d", "write_json storage_modules.json",
              "design -load elaborated", f"synth -top {TOP}",
              f"dfflibmap -liberty {args.liberty}", area_mod.abc_command(args, args.out),
              "opt_clean", "tee -q -o stat_hier.json stat -json",
              f"tee -q -o stat_hier.txt stat -liberty {args.liberty}", "setundef -zero",
              "splitnets", "opt_clean -purge",
              "write_verilog -noattr -noexpr -nohex -nodec -simple-lhs netlist_hier.v"]
    return "\n".join(lines) + "\n"


def fo4_ns(args, out):
    """The FO4 delay: two chains of INVX1s between flip-flops, each inverter driving the next
    and three more, timed by OpenSTA; their difference over the stages it has."""
    def chain(n):
        body = [f"module fo4_{n} (clk_i, d_i, q_o);", "  input clk_i, d_i;", "  output q_o;",
                f"  wire [{n}:0] s;", "  DFFPOSX1 u_in (.CLK(clk_i), .D(d_i), .Q(s[0]));"]
        for i in range(n):
            body.append(f"  INVX1 u_{i} (.A(s[{i}]), .Y(s[{i + 1}]));")
            body += [f"  INVX1 u_{i}_load{j} (.A(s[{i + 1}]), .Y());" for j in range(3)]
        body += [f"  DFFPOSX1 u_out (.CLK(clk_i), .D(s[{n}]), .Q(q_o));", "endmodule", ""]
        return "\n".join(body)
    with open(os.path.join(out, "fo4.v"), "w") as f:
        f.write(chain(FO4_SHORT) + chain(FO4_LONG))
    tcl = f"read_liberty {args.liberty}\n"
    for n in (FO4_SHORT, FO4_LONG):
        tcl += (f"read_verilog fo4.v\nlink_design fo4_{n}\n" + sta_mod.sdc_text(sta_mod.LONG_NS, True) +
                "report_checks -path_delay max -digits 4\n")
    path = os.path.join(out, "sta_fo4.tcl")
    with open(path, "w") as f:
        f.write(tcl)
    paths = sta_mod.parse_paths(sta_mod.run_sta(path, os.path.join(out, "sta_fo4.log"), out))
    if len(paths) != 2:
        raise area_mod.FlowError(f"no FO4 chain paths in {out}/sta_fo4.log")
    short, long_ = (sta_mod.LONG_NS - q["slack_ns"] for q in paths)
    return (long_ - short) / (FO4_LONG - FO4_SHORT)


def blocks(stat, areas, arrays, buffers, names, counts):
    """The window's own logic and its adders: cells (with the fanout pass's buffers) times
    instances."""
    own = area_mod.module_areas(stat, areas, set(arrays))
    buf_um2 = areas[fanout_mod.BUFFER[0]]
    rows = {}
    for mod, n in counts.items():
        if mod in arrays:
            continue
        hdl = area_mod.hdl_name(mod)
        cells, area = own[mod]
        flops = sum(k for t, k in stat["modules"][mod]["num_cells_by_type"].items()
                    if t.startswith("DFF"))
        bufs = buffers.get(names[mod], 0)
        r = rows.setdefault(hdl, {"block": hdl, "instances": 0, "cells": 0, "flops": 0,
                                  "area_um2": 0.0})
        r["instances"] += n
        r["cells"] += (cells + bufs) * n
        r["flops"] += flops * n
        r["area_um2"] += (area + bufs * buf_um2) * n
    return sorted(rows.values(), key=lambda r: -r["area_um2"])


def run_flow(args):
    out = args.out
    os.makedirs(out, exist_ok=True)
    params = {"CHILDREN": args.children, "SLOTS": args.slots, "SEQ_W": args.seq_w}
    areas = area_mod.liberty_areas(args.liberty)
    script = os.path.join(out, "synth_hier.ys")
    with open(script, "w") as f:
        f.write(synth_script(args, params))
    area_mod.run_tool(["yosys", "-q", "-l", "yosys_hier.log", script],
                      os.path.join(out, "run_hier.log"), out)
    stat = area_mod.read_stat_json(os.path.join(out, "stat_hier.json"))
    arrays = storage_mod.array_params(os.path.join(out, "storage_modules.json"))
    names = area_mod.clean_names(set(stat["modules"]) | set(arrays))
    area_mod.rename_netlist(os.path.join(out, "netlist_hier.v"),
                            os.path.join(out, "netlist_mapped.v"), names)
    buffers = fanout_mod.repair(os.path.join(out, "netlist_mapped.v"),
                                os.path.join(out, "netlist.v"), args.liberty)
    counts = area_mod.instance_counts(stat, "\\" + TOP, set(arrays))
    insts = storage_mod.instances(os.path.join(out, "netlist_hier.v"), set(arrays))
    arrays_rows = area_mod.storage_rows(area_mod.storage_context(args, out, areas), arrays, insts,
                                        counts, stat["modules"])
    cells = [(names[s["module"]], storage_mod.port_widths(arrays[s["module"]]),
              dict(s["timing"], reads=s["read_ports"])) for s in arrays_rows]
    with open(os.path.join(out, "storage_arrays.lib"), "w") as f:
        f.write(sta_mod.macro_library(cells))
    t = area_mod.whole_timing(args, out, [args.liberty, os.path.join(out, "storage_arrays.lib")],
                              TOP)
    fo4 = fo4_ns(args, out)
    t["fo4_ns"] = fo4
    t["critical_path_fo4"] = t["min_period_ns"] / fo4
    rows = blocks(stat, areas, arrays, buffers, names, counts)
    logic = sum(r["area_um2"] for r in rows)
    window = {"logic_um2": logic, "gate_equivalents": logic / areas[area_mod.GE_CELL],
              "storage_bits": sum(s["bits"] for s in arrays_rows),
              "storage_sram_um2": sum(s["sram_um2"] for s in arrays_rows),
              "storage_flop_um2": sum(s["flop_um2"] for s in arrays_rows)}
    unit = {k: v * args.flows for k, v in window.items()}
    ni = json.load(open(args.ni_report)) if args.ni_report else None
    return {"config": {"flows": args.flows, "children": args.children, "slots": args.slots,
                       "seq_w": args.seq_w, "lanes": 4, "clock_ns": args.clock_ns,
                       "params": params, "liberty": args.liberty},
            "sram_bit_um2": area_mod.SRAM_BIT_UM2, "sram_bit_source": area_mod.SRAM_BIT_SOURCE,
            "ge_um2": areas[area_mod.GE_CELL], "blocks": rows, "storage": arrays_rows,
            "timing": t, "window": window, "unit": unit, "ni": report_mod.ni_side(ni),
            # The headline numbers at the top level, as the NI's report has them.
            "fmax_mhz": t["fmax_mhz"], "critical_path_fo4": t["critical_path_fo4"],
            "logic_um2": unit["logic_um2"], "gate_equivalents": unit["gate_equivalents"],
            "storage_bits": unit["storage_bits"]}


def main(argv):
    args = parse_args(argv)
    try:
        rep = run_flow(args)
    except (area_mod.FlowError, RuntimeError) as e:
        print(f"area: {e}", file=sys.stderr)
        return 2
    report_mod.write(rep, os.path.join(args.out, "report.json"),
                     os.path.join(args.out, "report.md"))
    if args.quiet:
        print(os.path.join(args.out, "report.md"))
    else:
        print(open(os.path.join(args.out, "report.md")).read())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
