#!/usr/bin/env python3
"""The per-block figure and table of docs/area.md, from an area-flow run (scripts/area/area.py).

  blocks_figure.py --report build/area_test/report.json [--name area_blocks_16]
  blocks_figure.py --check --work DIR [--name area_blocks_16]

Writes the blocks of the report (logic area, cells, flip-flops, each block's own critical
path; storage arrays excluded) to docs/figures/NAME.csv, draws NAME.svg from that CSV
(gnuplot: logic area per block coloured by part, and each block's path against the NI's
critical path) and fills the GENERATED block NAME of docs/area.md with the same rows as a
table. --check reads the committed CSV instead, draws into DIR and compares the figure, byte
for byte, and the document's table with what the CSV gives, naming each difference.
Exit codes: 0 ok (with --check: everything agrees), 1 bad arguments or input, 4 --check
found a difference.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
from cli import ArgumentParser  # noqa: E402  (scripts/area/cli.py)
import docgen  # noqa: E402  (scripts/docgen.py)

FIGURES = os.path.join(ROOT, "docs", "figures")
DOC = os.path.join(ROOT, "docs", "area.md")
COLUMNS = ["block", "part", "category", "instances", "cells", "flops", "area_um2", "path_ns"]
PARTS = (("conventional", "conventional NI"), ("reduction", "NI-side reduction"),
         ("multitree", "MultiTree-specific"))


class InputError(Exception):
    pass


def rows_of_report(path):
    """The report's blocks, largest first. The top's own logic has no path of its own (its
    paths run through the blocks): its path_ns is empty."""
    try:
        blocks = json.load(open(path))["blocks"]
        rows = []
        for b in sorted(blocks, key=lambda b: -b["area_um2"]):
            crit = b.get("critical_path")
            rows.append({"block": b["block"], "part": b["part"], "category": b["category"],
                         "instances": b["instances"], "cells": b["cells"], "flops": b["flops"],
                         "area_um2": round(b["area_um2"]),
                         "path_ns": f"{crit['delay_ns']:.2f}" if crit else ""})
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise InputError(f"{path}: not an area-flow report.json ({e!r})")
    return rows


def write_csv(path, rows):
    try:
        docgen.write_csv(path, COLUMNS, rows)
    except docgen.DocError as e:
        raise InputError(str(e))


def read_csv(path):
    try:
        rows = docgen.read_csv(path, COLUMNS)
    except docgen.DocError as e:
        raise InputError(str(e))
    known = {p for p, _ in PARTS}
    for i, r in enumerate(rows, 2):
        if r["part"] not in known:
            raise InputError(f"{path}:{i}: part {r['part']!r} is none of {sorted(known)}")
        try:
            int(r["instances"]), int(r["cells"]), int(r["flops"])
            float(r["area_um2"]), float(r["path_ns"] or 0)
        except ValueError:
            raise InputError(f"{path}:{i}: a count or a number is not one: {r}")
    return rows


def table(rows):
    out = ["| block | part | instances | cells | flip-flops | logic (mm²) | own path (ns) |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        out.append(f"| `{r['block']}` | {dict(PARTS)[r['part']]} | {r['instances']} | "
                   f"{int(r['cells']):,} | {int(r['flops']):,} | "
                   f"{float(r['area_um2']) / 1e6:.3f} | {r['path_ns'] or '-'} |")
    total = sum(float(r["area_um2"]) for r in rows)
    out.append(f"| **all blocks** | | | {sum(int(r['cells']) for r in rows):,} | "
               f"{sum(int(r['flops']) for r in rows):,} | **{total / 1e6:.3f}** | |")
    return "\n".join(out)


def draw(rows, name, work, figures):
    """Two panels: logic area per block (bars coloured by part) and each block's own path."""
    dat = os.path.join(work, f"{name}.dat")
    with open(dat, "w") as f:
        f.write("# block " + " ".join(p for p, _ in PARTS) + " path_ns\n")
        for r in rows:
            mm2 = float(r["area_um2"]) / 1e6
            cells = " ".join(f"{mm2:.4f}" if r["part"] == p else "0" for p, _ in PARTS)
            f.write(f"{r['block']} {cells} {r['path_ns'] or '?'}\n")
    svg = os.path.join(figures, f"{name}.svg")
    bars = ", ".join(f"'{dat}' using {i + 2}{':xtic(1)' if i == 0 else ''} title '{label}'"
                     for i, (_, label) in enumerate(PARTS))
    docgen.gnuplot(os.path.join(work, f"{name}.gp"), docgen.svg_terminal(1200, 820, svg) + f"""
set datafile missing "?"
set multiplot layout 2,1
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.75
set grid ytics
set xtics rotate by -35 left noenhanced
set bmargin 7
set key top right
set ylabel "logic (mm^2)"
set title "Logic per block (standard cells, storage arrays excluded)"
plot {bars}
set title "Each block's own critical path (the top's own logic has none)"
set ylabel "ns"
plot '{dat}' using 5:xtic(1) lc rgb "#555555" notitle, \
     4 with lines dt 2 lw 2 lc rgb "#c00000" title "4 ns: the 250 MHz target"
unset multiplot
""")
    return svg


def parse_args(argv):
    p = ArgumentParser(description=__doc__.split("\n\n")[0])
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--report", help="an area-flow report.json: rewrite the CSV, figure, table")
    src.add_argument("--check", action="store_true",
                     help="compare the committed figure and table with the committed CSV")
    p.add_argument("--work", help="scratch directory for --check's drawing and gnuplot's input")
    p.add_argument("--name", default="area_blocks_16",
                   help="the figure's name: docs/figures/NAME.csv, .svg, GENERATED NAME")
    args = p.parse_args(argv)
    if args.check and not args.work:
        p.error("--check needs --work: a scratch directory to draw into")
    return args


def main(argv):
    args = parse_args(argv)
    csv_path = os.path.join(FIGURES, f"{args.name}.csv")
    work = args.work or os.path.join(ROOT, "build", "figures")
    try:
        os.makedirs(work, exist_ok=True)
        os.makedirs(FIGURES, exist_ok=True)
        if args.report:
            write_csv(csv_path, rows_of_report(args.report))
        rows = read_csv(csv_path)
        svg = draw(rows, args.name, work, work if args.check else FIGURES)
        changed = docgen.update(DOC, {args.name: table(rows)}, args.check)
    except (InputError, docgen.DocError) as e:
        print(f"blocks_figure.py: {e}", file=sys.stderr)
        return 1
    if args.check:
        return docgen.verdict("blocks_figure.py", [svg], FIGURES, DOC, changed, csv_path, 1)
    print(f"blocks_figure.py: {csv_path}, {svg}, {DOC} ({len(changed)} block changed)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
