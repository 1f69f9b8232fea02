#!/usr/bin/env python3
"""MTREE on the 12-node network of examples/topologies/gscale12.json and on the 4x4 torus:
docs/results.md's tables and figure.

  mtree_figure.py --mtsim build/bin/mtsim --csv docs/figures/mtree.csv \
      --plots build/figures --figures docs/figures --doc docs/results.md
  mtree_figure.py --csv docs/figures/mtree.csv --plots DIR --figures docs/figures \
      --doc docs/results.md --check

The sweep runs mtsim (--json, default configuration, 1 MiB fp32): mtree on the 12-node network
with every tree's corrected lambda* (--mtree-chunks 0) and with the same fixed chunk count for
every tree (1, not pipelined, to 128), and on torus:4x4 mtree (lambda* and 1) beside multitree.
It writes docs/figures/mtree.csv: the simulated cycles, mtsim's predicted_cycles (MTREE's
Eq. (2)) and the trees, rates and chunks its predicted_model names. The figure (gnuplot) and the
GENERATED blocks mtree and mtree_torus of docs/results.md are drawn from that CSV alone.
Exit codes: 0 ok (with --check: everything agrees), 1 bad arguments or input, 4 --check found
a difference.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "area"))
from cli import ArgumentParser  # noqa: E402  (scripts/area/cli.py)
import docgen  # noqa: E402  (scripts/docgen.py)

NAME = "mtree"
GSCALE = "file:examples/topologies/gscale12.json"
TORUS = "torus:4x4"
FIXED = [1, 2, 4, 8, 16, 32, 64, 128]
RUNS = ([(GSCALE, "mtree", c) for c in [0] + FIXED] +
        [(TORUS, "mtree", 0), (TORUS, "mtree", 1), (TORUS, "multitree", 0)])
COLUMNS = ["network", "algorithm", "chunks", "cycles", "predicted_cycles", "trees", "built",
           "rate", "capacity", "tree_chunks"]
MODEL = re.compile(r"; (\d+) of (\d+) trees, rate ([\d.]+) of ([\d.]+) links, [\d.]+%, chunks ([\d+]+)$")


class InputError(Exception):
    pass


def run_one(mtsim, network, algorithm, chunks, out):
    cmd = [mtsim, "-q", "-t", network, "-a", algorithm, "-b", "1MiB", "--json", out]
    if algorithm == "mtree":
        cmd += ["--mtree-chunks", str(chunks)]
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    if r.returncode != 0:
        raise InputError(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()}")
    j = json.load(open(out))
    if not j["verified"]:
        raise InputError(f"{' '.join(cmd)}: not verified")
    row = {"network": network, "algorithm": algorithm, "chunks": chunks, "cycles": j["cycles"],
           "predicted_cycles": j.get("predicted_cycles", 0), "trees": "", "built": "", "rate": "",
           "capacity": "", "tree_chunks": ""}
    if algorithm == "mtree":
        m = MODEL.search(j["predicted_model"])
        if not m:
            raise InputError(f"{' '.join(cmd)}: predicted_model {j['predicted_model']!r}")
        for key, value in zip(["trees", "built", "rate", "capacity", "tree_chunks"], m.groups()):
            row[key] = value
    return row


def run_sweep(mtsim):
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "run.json")
        return [run_one(mtsim, n, a, c, out) for n, a, c in RUNS]


def read_csv(path):
    rows = docgen.read_csv(path, COLUMNS)
    by = {}
    for i, r in enumerate(rows, 2):
        try:
            by[(r["network"], r["algorithm"], int(r["chunks"]))] = dict(
                r, cycles=int(r["cycles"]), predicted_cycles=int(r["predicted_cycles"]))
        except ValueError:
            raise InputError(f"{path}:{i}: a count is not a whole number: {r}")
    for key in RUNS:
        if key not in by:
            raise InputError(f"{path}: no row for {key}")
    return by


def summary_row(by, network, label):
    star, flat = by[(network, "mtree", 0)], by[(network, "mtree", 1)]
    rate, capacity = float(star["rate"]), float(star["capacity"])
    return (f"| {label} | {star['trees']} ({star['built']}) | {rate:g} of {capacity:.3g} | "
            f"{100 * rate / capacity:.1f}% | {star['tree_chunks']} | {star['cycles']:,} | "
            f"{flat['cycles']:,} | {flat['cycles'] / star['cycles']:.2f}x | "
            f"{100 * star['predicted_cycles'] / star['cycles']:.1f}% |")


def table(by):
    out = ["| network | trees used (built) | rate, links (capacity sum b / (N - 1)) | "
           "fraction of capacity | lambda* per tree | cycles, lambda* | cycles, 1 chunk | "
           "pipelined speedup | Eq. (2) / simulated |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
           summary_row(by, GSCALE, "12-node (`gscale12.json`)"),
           summary_row(by, TORUS, "`torus:4x4`"), "",
           "| chunks per tree (12-node) | " + " | ".join(str(c) for c in FIXED) + " | lambda* |",
           "| --- |" + " ---: |" * (len(FIXED) + 1)]
    best = min(FIXED, key=lambda c: by[(GSCALE, "mtree", c)]["cycles"])
    cells = []
    for c in FIXED + [0]:
        text = f"{by[(GSCALE, 'mtree', c)]['cycles']:,}"
        cells.append(f"**{text}**" if c == best else text)
    out.append("| simulated cycles | " + " | ".join(cells) + " |")
    out.append("| Eq. (2), cycles | " + " | ".join(
        f"{by[(GSCALE, 'mtree', c)]['predicted_cycles']:,}" for c in FIXED + [0]) + " |")
    return "\n".join(out)


def torus_table(by):
    mt, mt1, multi = (by[(TORUS, "mtree", 0)], by[(TORUS, "mtree", 1)],
                      by[(TORUS, "multitree", 0)])
    return "\n".join([
        "| `torus:4x4`, 1 MiB | cycles | against MultiTree |",
        "| --- | ---: | ---: |",
        f"| MultiTree | {multi['cycles']:,} | 1.00x |",
        f"| mtree, lambda* ({mt['tree_chunks']}) | {mt['cycles']:,} | "
        f"{mt['cycles'] / multi['cycles']:.2f}x |",
        f"| mtree, 1 chunk | {mt1['cycles']:,} | {mt1['cycles'] / multi['cycles']:.2f}x |"])


def draw(by, work, figures):
    dat = os.path.join(work, f"{NAME}.dat")
    with open(dat, "w") as f:
        f.write("# chunks simulated model\n")
        for c in FIXED:
            r = by[(GSCALE, "mtree", c)]
            f.write(f"{c} {r['cycles']} {r['predicted_cycles']}\n")
    star = by[(GSCALE, "mtree", 0)]
    svg = os.path.join(figures, f"{NAME}.svg")
    docgen.gnuplot(os.path.join(work, f"{NAME}.gp"), docgen.svg_terminal(900, 480, svg) + f"""
set logscale x 2
set grid
set key top right
set xlabel "chunks per tree (the same for every tree)"
set ylabel "cycles"
set yrange [0:*]
set title "mtree on the 12-node network, 1 MiB fp32: simulated against Eq. (2)"
plot '{dat}' using 1:2 with linespoints pt 7 title "simulated", \\
     '' using 1:3 with linespoints pt 5 dt 2 title "Eq. (2)", \\
     {star['cycles']} with lines lc rgb "#000000" dt 3 title "simulated, each tree's lambda* ({star['tree_chunks']})"
""")
    return svg


def main():
    p = ArgumentParser(description=__doc__.split("\n\n")[0])
    docgen.publish_arguments(p, "the sweep's CSV (docs/figures/mtree.csv)")
    p.add_argument("--mtsim", help="an mtsim binary: run the sweep first and rewrite --csv")
    args = docgen.parse_publish_arguments(p)
    return docgen.run_figure("mtree_figure.py", args, COLUMNS,
                             args.mtsim and (lambda: run_sweep(os.path.abspath(args.mtsim))),
                             read_csv, lambda by: {NAME: table(by), "mtree_torus": torus_table(by)},
                             lambda by, figures: [draw(by, args.plots, figures)], [InputError])


if __name__ == "__main__":
    sys.exit(main())
