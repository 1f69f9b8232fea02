#!/usr/bin/env python3
"""The area sweep of docs/area.md: the area flow (scripts/area/area.py) over node count,
children slots K, reduction lanes and NI buffer depth, one parameter at a time from the
64-node NI (K 4, 16 lanes, 318-flit NI buffers).

Each point is a directory OUT/<name>/ with the flow's report (finished points are not rerun
unless --fresh). Then OUT/sweep.csv, OUT/plots/<parameter>.svg (gnuplot: area and fmax
against the parameter) and the tables between the GENERATED markers of docs/area.md. The
flow runs without its flattened synthesis here (--no-flat) but for the base point, under
nice -n 15, one point at a time or --jobs at once. Exit codes: 0 every point ran, 1 bad
arguments, 2 a point failed (the others are kept and reported).

  scripts/area/sweep.py [--out DIR] [--docs FILE] [--fresh] [--no-run] [--axes nodes,k,...]
                        [--jobs N]
"""
import concurrent.futures
import csv
import json
import os
import re
import shutil
import subprocess
import sys

from cli import ArgumentParser  # scripts/area/cli.py

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import docgen  # noqa: E402  (scripts/docgen.py)


HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BASE = {"nodes": 64, "k": 4, "lanes": 16, "buffer_flits": 318}
AXES = {
    "nodes": [16, 64, 256],
    "k": [1, 2, 3, 4],
    "lanes": [8, 16, 32],
    "buffer_flits": [160, 318, 640],
}
LABELS = {"nodes": "nodes", "k": "children slots K", "lanes": "reduction lanes",
          "buffer_flits": "NI buffer (flits per port)"}


def point_name(cfg):
    return "_".join(f"{k}{cfg[k]}" for k in BASE)


def points(axes):
    seen, out = set(), []
    for axis in axes:
        for v in AXES[axis]:
            cfg = dict(BASE, **{axis: v})
            name = point_name(cfg)
            if name not in seen:
                seen.add(name)
                out.append((name, cfg))
    return out


def run_point(args, name, cfg):
    out = os.path.join(args.out, name)
    if os.path.isfile(os.path.join(out, "report.json")) and not args.fresh:
        return True
    flat = [] if cfg == BASE else ["--no-flat"]  # the base point's report goes to the docs
    cmd = [sys.executable, os.path.join(HERE, "area.py"), "--quiet"] + flat + [
        "--include", args.include, "--mtc", args.mtc, "--out", out,
        "--cache", os.path.join(args.out, "storage_cache"),
        "--nodes", str(cfg["nodes"]), "--k", str(cfg["k"]), "--lanes", str(cfg["lanes"]),
        "--buffer-flits", str(cfg["buffer_flits"])]
    print(f"sweep: {name}", flush=True)
    res = subprocess.run(cmd)
    if res.returncode != 0:
        print(f"sweep: {name} failed (exit {res.returncode}), logs in {out}", file=sys.stderr)
    return res.returncode == 0


def load(args, pts):
    rows = []
    for name, cfg in pts:
        path = os.path.join(args.out, name, "report.json")
        if os.path.isfile(path):
            rows.append((name, cfg, json.load(open(path))))
    return rows


def csv_row(cfg, rep):
    s, t = rep["summary"], rep["timing"]
    return dict(cfg, depth=rep["config"]["params"]["DEPTH"],
                node_w=rep["config"]["params"]["NODE_W"],
                control_um2=round(s["control_um2"]), fp32_um2=round(s["fp32_datapath_um2"]),
                logic_um2=round(s["logic_um2"]), table_bits=s["table"]["bits"],
                table_sram_um2=round(s["table"]["sram_um2"]),
                table_flop_um2=round(s["table"]["flop_um2"]), buffer_bits=s["ni_buffers"]["bits"],
                buffer_sram_um2=round(s["ni_buffers"]["sram_um2"]),
                buffer_flop_um2=round(s["ni_buffers"]["flop_um2"]),
                total_sram_um2=round(s["total_sram_um2"]), total_flop_um2=round(s["total_flop_um2"]),
                critical_ns=round(t["critical_path"]["delay_ns"], 3), fmax_mhz=round(t["fmax_mhz"], 1))


def write_csv(path, rows):
    data = [csv_row(cfg, rep) for _, cfg, rep in rows]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(data[0]))
        w.writeheader()
        w.writerows(data)
    return data


def plot(axis, data, plots):
    """gnuplot: area parts (mm^2, log scale) and fmax against one parameter."""
    sel = sorted((d for d in data if all(d[k] == v for k, v in BASE.items() if k != axis)),
                 key=lambda d: d[axis])
    if len(sel) < 2:
        return None
    dat = os.path.join(plots, f"{axis}.dat")
    with open(dat, "w") as f:
        f.write("# x control fp32 table_sram buffers_sram fmax\n")
        for d in sel:
            f.write(f"{d[axis]} {d['control_um2'] / 1e6} {d['fp32_um2'] / 1e6} "
                    f"{d['table_sram_um2'] / 1e6} {d['buffer_sram_um2'] / 1e6} {d['fmax_mhz']}\n")
    svg = os.path.join(plots, f"{axis}.svg")
    lo, hi = sel[0][axis], sel[-1][axis]
    if axis in ("nodes", "lanes", "buffer_flits"):
        logx = f"set logscale x 2\nset xrange [{lo / 1.4}:{hi * 1.4}]\n"
    else:
        logx = f"set xrange [{lo - 0.5}:{hi + 0.5}]\n"
    script = docgen.svg_terminal(1100, 480, svg) + f"""set multiplot layout 1,2 title "NI in OSU 0.18 um against {LABELS[axis]} (others: 64 nodes, K 4, 16 lanes, 318 flits)"
{logx}set xlabel "{LABELS[axis]}"
set xtics ({", ".join(str(d[axis]) for d in sel)})
set ylabel "area (mm^2)"
set logscale y
set key below
set grid
plot '{dat}' u 1:2 w lp t 'control logic', '' u 1:3 w lp t 'fp32/int32 datapath', \\
     '' u 1:4 w lp t 'table (SRAM est.)', '' u 1:5 w lp t 'NI buffers (SRAM est.)'
unset logscale y
set ylabel "fmax (MHz)"
set yrange [0:450]
plot '{dat}' u 1:6 w lp t 'fmax', 400 w l dt 2 t '400 MHz target'
unset multiplot
"""
    docgen.gnuplot(os.path.join(plots, f"{axis}.gp"), script)
    return svg


def sweep_table(data):
    out = ["| nodes | K | lanes | NI buffer (flits) | table depth | id bits | control logic "
           "(mm^2) | fp32/int32 datapath (mm^2) | table, SRAM est. (mm^2) | NI buffers, SRAM est. "
           "(mm^2) | NI total, SRAM (mm^2) | NI total, flip-flops (mm^2) | critical path (ns) | "
           "fmax (MHz) |", "|" + " ---: |" * 14]
    for d in data:
        out.append(
            f"| {d['nodes']} | {d['k']} | {d['lanes']} | {d['buffer_flits']} | {d['depth']} | "
            f"{d['node_w']} | {d['control_um2'] / 1e6:.3f} | {d['fp32_um2'] / 1e6:.3f} | "
            f"{d['table_sram_um2'] / 1e6:.3f} | {d['buffer_sram_um2'] / 1e6:.3f} | "
            f"{d['total_sram_um2'] / 1e6:.2f} | {d['total_flop_um2'] / 1e6:.2f} | "
            f"{d['critical_ns']:.2f} | {d['fmax_mhz']:.1f} |")
    return "\n".join(out)


def bit_width(v):
    return int(v).bit_length()


def paper_table(rep):
    """The 64-node table field by field: the image layout (format/ni_formats.json and its
    width rules, host_sw/image/IMAGE_FORMAT.md), what the RTL stores, the paper's total."""
    formats = json.load(open(os.path.join(ROOT, "format", "ni_formats.json")))
    fmt = formats["image"]
    p, plan = rep["config"]["params"], rep["config"]["plan"]
    n, k, steps = rep["config"]["nodes"], p["K"], plan["steps_per_phase"]
    image = {"op": fmt["op_bits"], "flow": max(1, bit_width(p["FLOWS"] - 1)),
             "parent": bit_width(n), "children": k * bit_width(n), "step": bit_width(2 * steps),
             "start_addr": 32, "size": 32}
    rtl = {"op": 2, "flow": p["NODE_W"], "parent": p["NODE_W"], "children": k * p["NODE_W"],
           "step": p["STEP_W"], "start_addr": 32, "size": 32}
    out = [f"| field | image bits ({n} nodes) | RTL stored bits | rule |", "| --- | ---: | ---: | --- |"]
    rules = {"op": "NOP, Reduce, Gather", "flow": "max(1, bit_width(flows - 1)); RTL: NODE_W",
             "parent": "bit_width(nodes), nil all ones", "children": f"K = {k} slots x bit_width(nodes)",
             "step": f"bit_width(2T), T = {steps}", "start_addr": "addr_bits (writer option, 32)",
             "size": "size_bits (writer option, 32)"}
    for field in fmt["entry_fields"]:
        out.append(f"| {field} | {image[field]} | {rtl[field]} | {rules[field]} |")
    # Not in the image: the loader stores each send slot's route (rtl/schedule_table.sv).
    route_bits = formats["flit"]["port_bits"] + 1
    rtl["routes"] = k * route_bits
    out.append(f"| routes | - | {rtl['routes']} | RTL: K = {k} sends x (first-hop port, neighbour), "
               "stored by the loader |")
    ib, rb = sum(image.values()), sum(rtl.values())
    ops = plan.get("largest_table_ops", {})
    ent = plan["max_entries"]
    out.append(f"| **entry** | **{ib}** | **{rb}** | paper: 200 |")
    out += ["", "| | paper | image | RTL |", "| --- | ---: | ---: | ---: |",
            f"| entries | 128 (2N) | {ent} in the largest table ({', '.join(f'{v} {o}' for o, v in sorted(ops.items()))}) "
            f"| 2 banks x {p['DEPTH']} |",
            f"| bits | 25,600 | {ib * ent:,} | {rb * 2 * p['DEPTH']:,} |",
            f"| bytes | 3,200 | {ib * ent / 8:,.0f} | {rb * 2 * p['DEPTH'] / 8:,.0f} |"]
    return "\n".join(out)


def base_section(rep_md):
    """The 64-node report's sections, headings demoted one level, without its title."""
    body = rep_md.split("\n", 2)[2]
    return re.sub(r"^## ", "### ", body, flags=re.M).strip()


def write_docs(path, data, base_rep, base_md):
    generated = {"sweep": sweep_table(data)}
    if base_rep is not None:
        generated.update(base=base_section(base_md), paper=paper_table(base_rep))
    docgen.update(path, generated, check=False)


def parse_args(argv):
    p = ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=os.path.join(ROOT, "build", "area", "sweep"),
                   help="sweep directory (default build/area/sweep)")
    p.add_argument("--docs", default=os.path.join(ROOT, "docs", "area.md"),
                   help="the document whose GENERATED tables are rewritten (default docs/area.md)")
    p.add_argument("--include", default=os.path.join(ROOT, "build", "format", "generated"),
                   help="directory of the generated ni_formats.svh")
    p.add_argument("--mtc", default=os.path.join(ROOT, "build", "bin", "mtc"), help="the mtc binary")
    p.add_argument("--axes", default=",".join(AXES),
                   help=f"parameters to sweep, comma-separated (default {','.join(AXES)})")
    p.add_argument("--fresh", action="store_true", help="rerun points that have a report")
    p.add_argument("--no-run", action="store_true", help="run nothing: tables and plots only")
    p.add_argument("-j", "--jobs", type=int, default=1,
                   help="points run at once (default 1; a point's Yosys takes up to 4 GB)")
    args = p.parse_args(argv)
    if args.jobs < 1:
        p.error(f"--jobs must be at least 1, not {args.jobs}")
    args.axes = [a for a in args.axes.split(",") if a]
    bad = [a for a in args.axes if a not in AXES]
    if bad:
        p.error(f"unknown axes {bad}; known: {list(AXES)}")
    if shutil.which("gnuplot") is None:
        p.error("gnuplot is not installed")
    return args


def main(argv):
    args = parse_args(argv)
    pts = points(args.axes)
    ok = True
    if not args.no_run:
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            ok = all(list(pool.map(lambda pt: run_point(args, *pt), pts)))
    rows = load(args, pts)
    if not rows:
        print("sweep: no point has a report", file=sys.stderr)
        return 2
    plots = os.path.join(args.out, "plots")
    os.makedirs(plots, exist_ok=True)
    data = write_csv(os.path.join(args.out, "sweep.csv"), rows)
    for axis in args.axes:
        svg = plot(axis, data, plots)
        if svg:
            print(f"sweep: {svg}")
    base_dir = os.path.join(args.out, point_name(BASE))
    base = [rep for name, _, rep in rows if name == point_name(BASE)]
    base_md = open(os.path.join(base_dir, "report.md")).read() if base else None
    write_docs(args.docs, data, base[0] if base else None, base_md)
    print(f"sweep: {len(rows)} of {len(pts)} points; {args.docs} updated")
    return 0 if ok else 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
