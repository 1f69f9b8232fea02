#!/usr/bin/env python3
"""FlexReduce, BlueConnect and the ring on hierarchies of machines: docs/results.md's table and
figure.

  flexreduce_figure.py --mtsim build/bin/mtsim --csv docs/figures/flexreduce.csv \
      --plots build/figures --figures docs/figures --doc docs/results.md
  flexreduce_figure.py --csv docs/figures/flexreduce.csv --plots DIR --figures docs/figures \
      --doc docs/results.md --check

The sweep runs mtsim (--json, default configuration, 1 MiB fp32) for every algorithm on the
two- and three-machine hierarchies of the FlexReduce paper's evaluation (4 to 12 learners, at
most one learner of difference between machines) and writes docs/figures/flexreduce.csv: the
simulated cycles and mtsim's predicted_cycles (the algorithm's cost model). The figure (gnuplot)
and the GENERATED block flexreduce of docs/results.md are drawn from that CSV alone.
Exit codes: 0 ok (with --check: everything agrees), 1 bad arguments or input, 4 --check found
a difference.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "area"))
from cli import ArgumentParser  # noqa: E402  (scripts/area/cli.py)
import docgen  # noqa: E402  (scripts/docgen.py)

NAME = "flexreduce"
CONFIGS = ["2+2", "2+3", "3+3", "3+4", "4+4", "3+3+3", "3+3+4", "3+4+4", "4+4+4"]
ALGORITHMS = ["ring", "blueconnect", "flexreduce"]
COLUMNS = ["machines", "algorithm", "cycles", "predicted_cycles"]


class InputError(Exception):
    pass


def run_sweep(mtsim):
    rows = []
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "run.json")
        for config in CONFIGS:
            for algorithm in ALGORITHMS:
                cmd = [mtsim, "-q", "-t", f"hier:{config}", "-a", algorithm, "-b", "1MiB",
                       "--json", out]
                r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                if r.returncode != 0:
                    raise InputError(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()}")
                j = json.load(open(out))
                if not j["verified"]:
                    raise InputError(f"{' '.join(cmd)}: not verified")
                rows.append({"machines": config, "algorithm": algorithm, "cycles": j["cycles"],
                             "predicted_cycles": j["predicted_cycles"]})
    return rows


def read_csv(path):
    rows = docgen.read_csv(path, COLUMNS)
    by = {}
    for i, r in enumerate(rows, 2):
        try:
            by[(r["machines"], r["algorithm"])] = (int(r["cycles"]), int(r["predicted_cycles"]))
        except ValueError:
            raise InputError(f"{path}:{i}: a count is not a whole number: {r}")
    for c in CONFIGS:
        for a in ALGORITHMS:
            if (c, a) not in by:
                raise InputError(f"{path}: no row for hier:{c} {a}")
    return by


def symmetric(config):
    return len(set(config.split("+"))) == 1


def table(by):
    out = ["| hierarchy | ring | BlueConnect | FlexReduce | FlexReduce's saving over the ring | "
           "FlexReduce: Eq. (6) / simulated | BlueConnect / FlexReduce |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for c in CONFIGS:
        ring, blc, fr = (by[(c, a)][0] for a in ALGORITHMS)
        model = by[(c, "flexreduce")][1]
        saving = 100.0 * (ring - fr) / ring
        blc_fr = f"{blc / fr:.3f}" if symmetric(c) else "(ring)"
        out.append(f"| `hier:{c}` | {ring:,} | {blc:,} | {fr:,} | {saving:+.1f}% | "
                   f"{100.0 * model / fr:.1f}% | {blc_fr} |")
    return "\n".join(out)


def draw(by, work, figures):
    dat = os.path.join(work, f"{NAME}.dat")
    with open(dat, "w") as f:
        f.write("# machines ring blueconnect flexreduce flexreduce_model ring_model\n")
        for c in CONFIGS:
            cells = " ".join(str(by[(c, a)][0]) for a in ALGORITHMS)
            f.write(f"{c} {cells} {by[(c, 'flexreduce')][1]} {by[(c, 'ring')][1]}\n")
    svg = os.path.join(figures, f"{NAME}.svg")
    docgen.gnuplot(os.path.join(work, f"{NAME}.gp"), docgen.svg_terminal(1000, 520, svg) + f"""
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set grid ytics
set key top left
set xlabel "learners per machine (hier:A+B+..., learner links 4 wide, 1 MiB fp32)"
set ylabel "cycles (simulated)"
set yrange [0:*]
set title "All-reduce on hierarchies of machines: simulated, and the cost models"
plot '{dat}' using 2:xtic(1) title "ring", '' using 3 title "BlueConnect", \\
     '' using 4 title "FlexReduce", \\
     '' using ($0 + 0.27):5 with points pt 7 ps 1.2 lc rgb "#000000" title "FlexReduce, Eq. (6)", \\
     '' using ($0 - 0.27):6 with points pt 5 ps 1.0 lc rgb "#555555" title "ring, Eq. (2) doubled"
""")
    return svg


def main():
    p = ArgumentParser(description=__doc__.split("\n\n")[0])
    docgen.publish_arguments(p, "the sweep's CSV (docs/figures/flexreduce.csv)")
    p.add_argument("--mtsim", help="an mtsim binary: run the sweep first and rewrite --csv")
    args = docgen.parse_publish_arguments(p)
    return docgen.run_figure("flexreduce_figure.py", args, COLUMNS,
                             args.mtsim and (lambda: run_sweep(args.mtsim)), read_csv,
                             lambda by: {NAME: table(by)},
                             lambda by, figures: [draw(by, args.plots, figures)], [InputError])


if __name__ == "__main__":
    sys.exit(main())
