#!/usr/bin/env python3
"""Fig. 19 of the NetReduce appendix (../shared/seeds/002_cc2f5659e8e87c3f.txt) from its
alpha-beta models: docs/results.md's table and figure.

  fig19.py --mtc build/bin/mtc --csv docs/figures/netreduce_fig19.csv \
      --plots build/figures --figures docs/figures --doc docs/results.md
  fig19.py --csv docs/figures/netreduce_fig19.csv --plots DIR --figures docs/figures \
      --doc docs/results.md --check

Fig. 19 plots the communication time of the flat ring (Eq. (1)) and of hierarchical NetReduce
(Eq. (3)) for n = 8 and B_inter = 12.5 GB/s at several B_intra (15.75 GB/s, 16-lane PCIe 3.0,
to 150 GB/s, NVLink), against (A) the tensor size M, (B) the learners P (32 to 2048) and (C)
the latency per message alpha (0.1 to 100 us). The seed does not say where the other two
stay in each panel; here P = 32 (its testbed), M = 100 MB and alpha = 10 us. With --mtc the
models are evaluated by `mtc model --format json` (host_sw/cost_model/) and written to --csv;
the figure (gnuplot) and the GENERATED block netreduce_fig19 are drawn from that CSV alone.
Exit codes: 0 ok (with --check: everything agrees), 1 bad arguments or input, 4 --check found
a difference.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "area"))
from cli import ArgumentParser  # noqa: E402  (scripts/area/cli.py)
import docgen  # noqa: E402  (scripts/docgen.py)

NAME = "netreduce_fig19"
B_INTRA = [15.75, 25, 50, 100, 150]  # GB/s
BASE = {"P": 32, "M": 100_000_000, "alpha": 10.0}  # what a panel does not vary
PANELS = {
    "A": ("M", [10 ** (6 + k / 4) for k in range(13)]),  # 1 MB to 1 GB
    "B": ("P", [32 * 2 ** k for k in range(7)]),  # 32 to 2048
    "C": ("alpha", [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100]),  # us
}
COLUMNS = ["panel", "P", "bytes", "alpha_us", "b_intra_gbs", "flat_ring_us", "netreduce_us"]


class InputError(Exception):
    pass


def run_model(mtc, P, M, alpha, b_intra):
    cmd = [mtc, "model", "-P", str(P), "-n", "8", "-b", str(int(round(M))), "--b-intra",
           str(b_intra), "--b-inter", "12.5", "--alpha", str(alpha), "--format", "json"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise InputError(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()}")
    m = json.loads(r.stdout)["models"]
    return m["flat_ring"]["microseconds"], m["netreduce"]["microseconds"]


def run_sweep(mtc):
    rows = []
    for panel, (axis, values) in PANELS.items():
        for v in values:
            point = dict(BASE, **{axis: v})
            for b in B_INTRA:
                fr, nh = run_model(mtc, point["P"], point["M"], point["alpha"], b)
                rows.append({"panel": panel, "P": point["P"], "bytes": int(round(point["M"])),
                             "alpha_us": point["alpha"], "b_intra_gbs": b,
                             "flat_ring_us": f"{fr:.6g}", "netreduce_us": f"{nh:.6g}"})
    return rows


def read_csv(path):
    rows = docgen.read_csv(path, COLUMNS)
    out = []
    for i, r in enumerate(rows, 2):
        try:
            out.append({"panel": r["panel"], "P": int(r["P"]), "M": int(r["bytes"]),
                        "alpha": float(r["alpha_us"]), "b": float(r["b_intra_gbs"]),
                        "fr": float(r["flat_ring_us"]), "nh": float(r["netreduce_us"])})
        except ValueError:
            raise InputError(f"{path}:{i}: a value is not a number: {r}")
    for panel, (_, values) in PANELS.items():
        if len([r for r in out if r["panel"] == panel]) != len(values) * len(B_INTRA):
            raise InputError(f"{path}: panel {panel} does not have {len(values)} points for "
                             f"each of {len(B_INTRA)} B_intra")
    return out


def x_of(panel, r):
    return {"A": r["M"] / 1e6, "B": r["P"], "C": r["alpha"]}[panel]


def span(rows, panel, b):
    """(least, greatest) flat ring over NetReduce in `panel` at B_intra `b`."""
    q = [r["fr"] / r["nh"] for r in rows if r["panel"] == panel and r["b"] == b]
    return min(q), max(q)


def table(rows):
    out = ["| B_intra (GB/s) | B_intra / B_inter | NetReduce at P 32, 100 MB, 10 us (ms) | "
           "flat ring / NetReduce there | (A) M 1 MB to 1 GB | (B) P 32 to 2048 | "
           "(C) alpha 0.1 to 100 us |",
           "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for b in B_INTRA:
        base = [r for r in rows if r["panel"] == "B" and r["P"] == 32 and r["b"] == b][0]
        cells = " | ".join("{:.2f} to {:.2f}".format(*span(rows, p, b)) for p in PANELS)
        out.append(f"| {b:g} | {b / 12.5:.2f} | {base['nh'] / 1000:.3f} | "
                   f"{base['fr'] / base['nh']:.3f} | {cells} |")
    fr = [r["fr"] for r in rows if r["panel"] == "B" and r["b"] == B_INTRA[0]]
    out.append("")
    out.append(f"The flat ring, which B_intra does not change: {fr[0] / 1000:.3f} ms at P = 32, "
               f"{fr[-1] / 1000:.3f} ms at P = 2048 (100 MB, 10 us). The last three columns give "
               "the flat ring's time over NetReduce's, least to greatest, along each panel's "
               "axis: above 1 NetReduce is the faster.")
    return "\n".join(out)


def write_panel_data(rows, work, panel):
    """One gnuplot data block per B_intra (x, flat ring ms, NetReduce ms); the file's path."""
    dat = os.path.join(work, f"{NAME}_{panel}.dat")
    with open(dat, "w") as f:
        for b in B_INTRA:
            f.write(f"# B_intra {b:g} GB/s: x flat_ring_ms netreduce_ms\n")
            for r in rows:
                if r["panel"] == panel and r["b"] == b:
                    f.write(f"{x_of(panel, r):.6g} {r['fr'] / 1000:.6g} {r['nh'] / 1000:.6g}\n")
            f.write("\n\n")
    return dat


def panel_plot(dat, title, xlabel):
    lines = [f"'{dat}' index 0 using 1:2 with linespoints lw 2 pt 4 lc rgb '#000000' "
             "title 'flat ring, Eq. (1)'"]
    for i, b in enumerate(B_INTRA):
        lines.append(f"'{dat}' index {i} using 1:3 with linespoints lw 1.5 pt 7 ps 0.6 "
                     f"title 'NetReduce, Eq. (3), B_{{intra}} {b:g}'")
    return (f'set title "{title}"\nset xlabel "{xlabel}"\n'
            f"plot {', '.join(lines)}\n")


def draw(rows, work, figures):
    svg = os.path.join(figures, f"{NAME}.svg")
    dats = {p: write_panel_data(rows, work, p) for p in PANELS}
    docgen.gnuplot(os.path.join(work, f"{NAME}.gp"), docgen.svg_terminal(1500, 520, svg) + f"""
set multiplot layout 1,3 title "Fig. 19 from the models: n = 8, B_{{inter}} 12.5 GB/s, B_{{intra}} in GB/s; the other two of P 32, M 100 MB, alpha 10 us"
set grid
set logscale x
set logscale y
set ylabel "communication time (ms)"
set key top left font ",9"
{panel_plot(dats['A'], '(A) against the tensor size M', 'M (MB)')}
unset logscale y
set yrange [0:*]
set xrange [24:2800]
{panel_plot(dats['B'], '(B) against the learners P', 'P')}
set autoscale x
{panel_plot(dats['C'], '(C) against the latency per message alpha', 'alpha (us)')}
unset multiplot
""")
    return svg


def main():
    p = ArgumentParser(description=__doc__.split("\n\n")[0])
    docgen.publish_arguments(p, "the models' CSV (docs/figures/netreduce_fig19.csv)")
    p.add_argument("--mtc", help="an mtc binary: evaluate the models and rewrite --csv")
    args = docgen.parse_publish_arguments(p)
    return docgen.run_figure("fig19.py", args, COLUMNS,
                             args.mtc and (lambda: run_sweep(args.mtc)), read_csv,
                             lambda rows: {NAME: table(rows)},
                             lambda rows, figures: [draw(rows, args.plots, figures)], [InputError])


if __name__ == "__main__":
    sys.exit(main())
