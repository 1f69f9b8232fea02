#!/usr/bin/env python3
"""The paper's Fig. 11 and its tables from a training sweep's CSV (sweep.py collect).

  training_report.py --csv docs/figures/training.csv --plots DIR [--figures docs/figures]
                     [--doc docs/results.md] [--check]

One training iteration per model, network and algorithm (mttrain; scripts/sweep/specs/
fig11.json). Draws fig11.svg in the layout of the paper's Fig. 11: per model, one bar per
algorithm, its iteration stacked as compute and exposed communication and normalised to
Ring's iteration, with each algorithm's all-reduce speedup over Ring (Ring's all-reduce
cycles over the algorithm's) on the right axis; panel (a) without overlap, panel (b) with
layer-wise all-reduce. Tabulates both modes, the speedups and the paper's claims beside
ours. The gnuplot script, its data and the tables (tables.md) go to PLOTS, the SVG to
FIGURES (default PLOTS). With --doc, the blocks '<!-- BEGIN GENERATED fig11_... -->' of that
file get the tables. --check draws into PLOTS and compares the figure and the blocks with
the committed ones instead of writing them. A point that did not run shows as '-'.
Exit codes: 0 ok (with --check: everything agrees), 1 bad arguments or input, 4 --check
found a difference.
"""
import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import docgen  # noqa: E402  (scripts/docgen.py)
from report import fmt, md_table, ratio  # noqa: E402  (scripts/sweep/report.py)

TOPOLOGY, CONFIG = "torus:8x8", "paper"
MODELS = (("alexnet", "AlexNet"), ("alphagozero", "AlphaGoZero"), ("fasterrcnn", "FasterRCNN"),
          ("googlenet", "GoogLeNet"), ("ncf", "NCF"), ("resnet50", "ResNet50"),
          ("transformer", "Transformer"))
CNNS = ("alexnet", "alphagozero", "fasterrcnn", "googlenet", "resnet50")
OTHERS = ("ncf", "transformer")
ALGS = (("ring", "packet", "Ring"), ("ring2d", "packet", "2D-Ring"),
        ("dbtree", "packet", "DBTree"), ("multitree", "packet", "MultiTree"),
        ("multitree", "message", "MultiTreeMsg"))
MODES = (("none", "a", "no overlap"), ("layer", "b", "layer-wise all-reduce"))
COLUMNS = ("workload", "topology", "algorithm", "flow_control", "config", "overlap", "options",
           "gradient_bytes", "iteration_cycles", "compute_cycles", "exposed_comm_cycles",
           "allreduce_cycles", "allreduce_bound_cycles", "sizes_simulated", "simulation_s",
           "wall_s", "max_rss_mib")
TITLE = ("Fig. 11: one training iteration on the 8x8 torus, --config paper\\nbars in the order "
         "of the key: compute (grey) and exposed communication (colour)")
COLORS = ("#4e79a7", "#f28e2b", "#e15759", "#59a14f", "#b07aa1")


class InputError(Exception):
    pass


def load(path):
    """The CSV's rows on the Fig. 11 network, by (workload, algorithm, flow control, overlap)."""
    try:
        with open(path) as f:
            reader = csv.DictReader(f)
            rows = list(reader)
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}")
    missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise InputError(f"{path}: not a training sweep's CSV (no column {', '.join(missing)})")
    index = {}
    for r in rows:
        if r["topology"] == TOPOLOGY and r["config"] == CONFIG and r["options"] == "":
            index[(r["workload"], r["algorithm"], r["flow_control"], r["overlap"])] = r
    return index


def value(index, model, alg, flow, mode, field):
    r = index.get((model, alg, flow, mode))
    return float(r[field]) if r else None


def training_speedup(index, model, mode, alg, base):
    """Iteration time of `base` over that of `alg` (the paper's "training performance")."""
    return ratio(value(index, model, *base[:2], mode, "iteration_cycles"),
                 value(index, model, *alg[:2], mode, "iteration_cycles"))


def allreduce_speedup(index, model, mode, alg, base):
    return ratio(value(index, model, *base[:2], mode, "allreduce_cycles"),
                 value(index, model, *alg[:2], mode, "allreduce_cycles"))


# ---- tables ---------------------------------------------------------------------------------

def gradients(index, model, mode):
    """The model's gradient MiB, from its Ring run."""
    ring = index.get((model, "ring", "packet", mode))
    return f"{int(ring['gradient_bytes']) / 2**20:.1f} MiB" if ring else "-"


def mode_table(index, mode):
    header = ["model", "gradients", "compute Mcycles", "Ring Mcycles", "Ring comm share"] + [
        f"{lab} / Ring" for _, _, lab in ALGS[1:]]
    rows = []
    for model, name in MODELS:
        grad = gradients(index, model, mode)
        compute = value(index, model, "ring", "packet", mode, "compute_cycles")
        it = value(index, model, "ring", "packet", mode, "iteration_cycles")
        share = ratio(value(index, model, "ring", "packet", mode, "exposed_comm_cycles"), it)
        rows.append([name, grad, fmt(compute and compute / 1e6), fmt(it and it / 1e6),
                     fmt(share and 100 * share, "{:.1f}%")] +
                    [fmt(ratio(value(index, model, a, f, mode, "iteration_cycles"), it), "{:.3f}")
                     for a, f, _ in ALGS[1:]])
    return md_table(header, rows)


def allreduce_table(index):
    """The whole-model all-reduce (no overlap) of each model: GB/s (bytes per ns at 1 GHz) and
    the share of the physical bound reached, per algorithm."""
    header = ["model", "size"] + [f"{lab} GB/s / of bound" for _, _, lab in ALGS]
    rows = []
    for model, name in MODELS:
        cells = []
        for a, f, _ in ALGS:
            r = index.get((model, a, f, "none"))
            cycles = r and int(r["allreduce_cycles"])
            cells.append(f"{int(r['gradient_bytes']) / cycles:.2f} / "
                         f"{100 * int(r['allreduce_bound_cycles']) / cycles:.1f}%" if r else "-")
        rows.append([name, gradients(index, model, "none")] + cells)
    return md_table(header, rows)


def speedup_table(index):
    ring, ring2d, mt, msg = ALGS[0], ALGS[1], ALGS[3], ALGS[4]
    header = ["model", "overlap", "MTMsg training over Ring", "time vs Ring",
              "MTMsg training over 2D-Ring", "all-reduce MT / Ring", "all-reduce MTMsg / Ring",
              "all-reduce MT / 2D-Ring", "all-reduce MTMsg / 2D-Ring"]
    rows = []
    for mode, _, _ in MODES:
        for model, name in MODELS:
            s = training_speedup(index, model, mode, msg, ring)
            rows.append([name, mode, fmt(s, "{:.3f}x"), fmt(s and 100 * (1 / s - 1), "{:+.1f}%"),
                         fmt(training_speedup(index, model, mode, msg, ring2d), "{:.3f}x")] +
                        [fmt(allreduce_speedup(index, model, mode, a, b), "{:.2f}x")
                         for a, b in ((mt, ring), (msg, ring), (mt, ring2d), (msg, ring2d))])
    return md_table(header, rows)


def readings(s):
    """A training speedup both ways the paper words it: performance gained, time saved."""
    return f"{100 * (s - 1):+.1f}% (time {100 * (1 / s - 1):+.1f}%)"


def best(index, models, mode, alg, base):
    """The largest training speedup over `base` among `models`, and its model."""
    found = [(training_speedup(index, m, mode, alg, base), m) for m in models]
    found = [(s, m) for s, m in found if s is not None]
    if not found:
        return "-"
    s, m = max(found)
    return f"{readings(s)}, {dict(MODELS)[m]}"


def mean_allreduce(index, alg, base):
    found = [allreduce_speedup(index, m, "none", alg, base) for m, _ in MODELS]
    found = [s for s in found if s is not None]
    return f"{sum(found) / len(found):.2f}x ({len(found)} models)" if found else "-"


def ring_share(index):
    shares = [ratio(value(index, m, "ring", "packet", "none", "exposed_comm_cycles"),
                    value(index, m, "ring", "packet", "none", "iteration_cycles"))
              for m, _ in MODELS]
    shares = [s for s in shares if s is not None]
    return f"{100 * min(shares):.0f}–{100 * max(shares):.0f}%" if shares else "-"


def dbtree_worst(index):
    worst = total = 0
    for m, _ in MODELS:
        its = {a: value(index, m, a, f, "none", "iteration_cycles") for a, f, _ in ALGS}
        if None not in its.values():
            total += 1
            worst += max(its, key=its.get) == "dbtree"
    return f"worst for {worst} of {total} models" if total else "-"


def claims_table(index):
    ring, ring2d, mt, msg = ALGS[0], ALGS[1], ALGS[3], ALGS[4]
    rows = [
        ["Ring's communication share, no overlap", "30–88%", ring_share(index)],
        ["MultiTreeMsg over Ring, CNNs, no overlap", "up to 34%",
         best(index, CNNS, "none", msg, ring)],
        ["MultiTreeMsg over 2D-Ring, CNNs, no overlap", "up to 15%",
         best(index, CNNS, "none", msg, ring2d)],
        ["MultiTreeMsg over Ring, NCF and Transformer, no overlap", "up to 81%",
         best(index, OTHERS, "none", msg, ring)],
        ["MultiTreeMsg over 2D-Ring, NCF and Transformer, no overlap", "up to 30%",
         best(index, OTHERS, "none", msg, ring2d)],
        ["mean all-reduce speedup, MultiTree over Ring", "2.2x", mean_allreduce(index, mt, ring)],
        ["mean all-reduce speedup, MultiTree over 2D-Ring", "1.51x",
         mean_allreduce(index, mt, ring2d)],
        ["mean all-reduce speedup, MultiTreeMsg over Ring", "2.3x",
         mean_allreduce(index, msg, ring)],
        ["mean all-reduce speedup, MultiTreeMsg over 2D-Ring", "1.56x",
         mean_allreduce(index, msg, ring2d)],
        ["DBTree worst, no overlap", "yes", dbtree_worst(index)],
        ["MultiTreeMsg over Ring, CNNs, layer-wise", "up to 10%",
         best(index, CNNS, "layer", msg, ring)],
        ["MultiTreeMsg over Ring, NCF and Transformer, layer-wise", "up to 2x (+100%)",
         best(index, OTHERS, "layer", msg, ring)],
        ["MultiTreeMsg over 2D-Ring, NCF and Transformer, layer-wise", "up to 1.37x (+37%)",
         best(index, OTHERS, "layer", msg, ring2d)],
    ]
    return md_table(["claim (8x8 torus)", "paper", "ours"], rows)


def walltime_table(index):
    header = ["overlap", "runs", "simulations", "simulated (s)", "longest run (s)", "max peak MiB"]
    rows = []
    for mode, _, _ in MODES:
        rs = [r for k, r in index.items() if k[3] == mode]
        if rs:
            rows.append([mode, str(len(rs)), str(sum(int(r["sizes_simulated"]) for r in rs)),
                         f"{sum(float(r['simulation_s']) for r in rs):.0f}",
                         f"{max(float(r['wall_s']) for r in rs):.0f}",
                         f"{max(float(r['max_rss_mib']) for r in rs):.0f}"])
    return md_table(header, rows)


def tables(index):
    out = {f"fig11_{mode}": mode_table(index, mode) for mode, _, _ in MODES}
    out.update(fig11_allreduce=allreduce_table(index), fig11_speedups=speedup_table(index),
               fig11_claims=claims_table(index),
               fig11_walltime=walltime_table(index))
    return out


# ---- the figure -----------------------------------------------------------------------------

def write_panel_data(index, mode, path):
    """Per algorithm (a gnuplot index): x, compute and iteration normalised to Ring's
    iteration, all-reduce speedup over Ring."""
    with open(path, "w") as f:
        for i, (alg, flow, lab) in enumerate(ALGS):
            f.write(f"# {lab}: x compute/Ring iteration/Ring allreduce_speedup\n")
            for m, (model, _) in enumerate(MODELS):
                ring = value(index, model, "ring", "packet", mode, "iteration_cycles")
                comp = ratio(value(index, model, alg, flow, mode, "compute_cycles"), ring)
                it = ratio(value(index, model, alg, flow, mode, "iteration_cycles"), ring)
                sp = allreduce_speedup(index, model, mode, (alg, flow), ALGS[0])
                cells = ["?" if v is None else f"{v:.6f}" for v in (comp, it, sp)]
                f.write(f"{m * (len(ALGS) + 1) + i} " + " ".join(cells) + "\n")
            f.write("\n\n")


def panel(dat, letter, title, first):
    def box(i, using, fill, color, label):
        named = f'title "{label}"' if label else "notitle"
        return (f'"{dat}" index {i} using {using} with boxxyerror fs solid {fill} '
                f'fc rgb "{color}" {named}')
    comm = [box(i, "1:(($2+$3)/2):($1-0.45):($1+0.45):2:3", 0.85, c, lab)
            for i, (c, (_, _, lab)) in enumerate(zip(COLORS, ALGS))]
    compute = [box(i, "1:($2/2):($1-0.45):($1+0.45):(0):2", 0.6, "#bbbbbb",
                   "compute" if i == 0 else None) for i in range(len(ALGS))]
    speedup = 'title "all-reduce speedup"'
    points = [f'"{dat}" index {i} using 1:4 axes x1y2 with points pt 7 ps 0.7 lc rgb "black" '
              f'{speedup if i == 0 else "notitle"}' for i in range(len(ALGS))]
    key = "set key outside right top vertical" if first else "unset key"
    plots = ", ".join(comm + compute + points)
    return f'set title "({letter}) {title}"\n{key}\nplot {plots}\n'


def figure(index, plots, figs):
    xtics = ", ".join(f'"{name}" {m * (len(ALGS) + 1) + (len(ALGS) - 1) / 2}'
                      for m, (_, name) in enumerate(MODELS))
    panels = []
    for n, (mode, letter, title) in enumerate(MODES):
        dat = os.path.join(plots, f"fig11_{mode}.dat")
        write_panel_data(index, mode, dat)
        panels.append(panel(dat, letter, title, n == 0))
    svg = os.path.join(figs, "fig11.svg")
    width = len(MODELS) * (len(ALGS) + 1) - 1
    speedups = [allreduce_speedup(index, m, mode, (a, f), ALGS[0])
                for m, _ in MODELS for mode, _, _ in MODES for a, f, _ in ALGS]
    y2max = int(max([s for s in speedups if s is not None] + [1])) + 1
    docgen.gnuplot(os.path.join(plots, "fig11.gp"), docgen.svg_terminal(1300, 900, svg) + f"""
set datafile missing "?"
set grid ytics
set multiplot layout 2,1 title "{TITLE}"
set xrange [-1:{width}]
set xtics ({xtics}) scale 0
set ylabel "iteration, normalised to Ring"
set yrange [0:*]
set y2label "all-reduce speedup over Ring (dots)"
set y2range [0:{y2max}]
set y2tics
set ytics nomirror
set rmargin 34
""" + "".join(panels) + "unset multiplot\n")
    return svg


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    docgen.publish_arguments(p, "the training sweep's training.csv")
    args = docgen.parse_publish_arguments(p)
    try:
        index = load(args.csv)
        if not index:
            raise InputError(f"{args.csv}: no run on {TOPOLOGY} with --config {CONFIG}")
        return docgen.publish("training_report.py", args, tables(index),
                              lambda figs: [figure(index, args.plots, figs)])
    except (InputError, docgen.DocError) as e:
        print(f"training_report.py: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
