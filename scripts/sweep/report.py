#!/usr/bin/env python3
"""Figures and report tables from a sweep's CSV (sweep.py collect).

  report.py --csv docs/figures/results.csv --plots DIR [--figures docs/figures]
            [--doc docs/results.md] [--check]

Draws the SVGs (gnuplot) in the layout of the paper's figures: Fig. 9 bandwidth against
size, one panel per topology (fig9_<config>.svg); Fig. 10 weak scaling normalised to Ring on
16 nodes (fig10_<config>.svg); message- against packet-based flow control for every
algorithm (msg_vs_packet_<config>.svg). Also tabulates the cycles forwarding reduced data
saves (mtsim --ni-forward, the forwarding spec). The gnuplot scripts, their data and every
table as Markdown (tables.md) go to PLOTS, the SVGs to FIGURES (default PLOTS). With --doc,
each block between '<!-- BEGIN GENERATED name -->' and '<!-- END GENERATED name -->' in that
file is replaced by the table of that name (the prose around the blocks is written by hand).
A point that did not run shows as '-'. Beside the paper's algorithms the figures and tables
show the optimal-step planner (multitree-opt: MultiTreeOpt, MultiTreeOptMsg message-based),
which plans tori only. A figure's point is a run without extra mtsim options or with
--data sampled only (the same cycles; the tables say which points sampled their data).

--check writes nothing outside PLOTS: it draws the figures into PLOTS and compares each,
byte for byte, with its copy in FIGURES, and compares the document's generated blocks with
the tables, naming every figure and block that differs.
Exit codes: 0 ok (with --check: everything agrees), 1 bad arguments or input, 4 --check
found a difference.
"""
import argparse
import csv
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import docgen  # noqa: E402  (scripts/docgen.py)

CONFIGS = ("default", "paper")
TOPOS = ("torus:4x4", "torus:8x8", "mesh:4x4", "mesh:8x8")
# MultiTreeOpt is the optimal-step planner (mtsim -a multitree-opt), MultiTreeOptMsg the same
# with message-based flow control; it plans tori and rings only, so its mesh cells are '-'.
# 2D-Ring (paper) is ring2d-paper, the paper's 2D-Ring (a whole ring all-reduce per
# dimension), run on the tori only.
VARIANTS = (("ring", "packet", "Ring"), ("ring-bi", "packet", "Ring-bi"),
            ("ring2d", "packet", "2D-Ring"), ("ring2d-paper", "packet", "2D-Ring (paper)"),
            ("dbtree", "packet", "DBTree"),
            ("multitree", "packet", "MultiTree"), ("multitree", "message", "MultiTreeMsg"),
            ("multitree-opt", "message", "MultiTreeOptMsg"))
FIG10 = (("ring", "packet", "Ring"), ("ring2d", "packet", "2D-Ring"),
         ("multitree", "message", "MultiTreeMsg"),
         ("multitree-opt", "message", "MultiTreeOptMsg"))
MVP_ALGS = (("ring", "Ring"), ("ring-bi", "Ring-bi"), ("ring2d", "2D-Ring"),
            ("dbtree", "DBTree"), ("multitree", "MultiTree"), ("multitree-opt", "MultiTreeOpt"))
# The options a figure's point may run with: none, or sampled node data (mtsim --data
# sampled: the same cycles, for the points too big for memory with every node's data).
POINT_OPTIONS = ("", "--data sampled")
SAMPLED = "--data sampled"
FIG10_TOPOS = ("torus:4x4", "torus:8x8", "torus:12x12", "torus:16x16")


class InputError(Exception):
    pass


def load(path, options=POINT_OPTIONS):
    """The rows run with exactly one of these mtsim option strings (default: the figures'
    points), by (topology, algorithm, flow control, config, bytes). A point that ran both with
    full and with sampled data is the full-data row."""
    try:
        with open(path) as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}")
    index = {}
    for r in rows:
        if r.get("options", "") not in options:
            continue
        key = (r["topology"], r["algorithm"], r["flow_control"], r["config"], int(r["bytes"]))
        if key not in index or r.get("options", "") == "":
            index[key] = r
    return index


def data_mode(rows):
    """'sampled' when any of these rows ran with sampled node data, else 'full'."""
    return "sampled" if any(r and r.get("options", "") == SAMPLED for r in rows) else "full"


def size_label(n):
    for unit, shift in (("MiB", 20), ("KiB", 10)):
        if n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n} B"


def get(index, topo, alg, flow, config, size, field="bandwidth_gbps"):
    r = index.get((topo, alg, flow, config, size))
    return float(r[field]) if r and r[field] != "" else None


def fmt(x, spec="{:.2f}"):
    return "-" if x is None else spec.format(x)


def ratio(a, b):
    return a / b if a is not None and b else None


def md_table(header, rows):
    lines = ["| " + " | ".join(header) + " |",
             "| --- |" + " ---: |" * (len(header) - 1)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


# ---- tables ---------------------------------------------------------------------------------

def fig9_table(index, config, sizes):
    """Bandwidth per variant, then MultiTreeMsg's and MultiTreeOptMsg's share of the bound and
    their ratios to the baselines."""
    header = ["topology", "size"] + [v[2] for v in VARIANTS] + [
        "MultiTreeMsg of bound", "MTMsg / Ring", "MTMsg / 2D-Ring", "MTMsg / 2D-Ring (paper)",
        "MultiTreeOptMsg of bound", "MTOptMsg / MTMsg", "MTOptMsg / 2D-Ring",
        "MTOptMsg / 2D-Ring (paper)"]
    rows = []
    for topo in TOPOS:
        for size in sizes:
            bw = {lab: get(index, topo, a, f, config, size) for a, f, lab in VARIANTS}
            if all(b is None for b in bw.values()):
                continue
            bound = {a: get(index, topo, a, "message", config, size, "bound_ratio")
                     for a in ("multitree", "multitree-opt")}
            mt, opt = bw["MultiTreeMsg"], bw["MultiTreeOptMsg"]
            rows.append([topo, size_label(size)] + [fmt(b) for b in bw.values()] + [
                fmt(bound["multitree"] and 100 * bound["multitree"], "{:.1f}%"),
                fmt(ratio(mt, bw["Ring"]), "{:.2f}x"), fmt(ratio(mt, bw["2D-Ring"]), "{:.2f}x"),
                fmt(ratio(mt, bw["2D-Ring (paper)"]), "{:.2f}x"),
                fmt(bound["multitree-opt"] and 100 * bound["multitree-opt"], "{:.1f}%"),
                fmt(ratio(opt, mt), "{:.2f}x"), fmt(ratio(opt, bw["2D-Ring"]), "{:.2f}x"),
                fmt(ratio(opt, bw["2D-Ring (paper)"]), "{:.2f}x")])
    return md_table(header, rows)


def fig10_points(index, config, per_node_sizes):
    """(bytes per node, nodes, topology, [(label, row or None)]) for every Fig. 10 point."""
    for b in per_node_sizes:
        for topo in FIG10_TOPOS:
            nodes = nodes_of(topo)
            cells = [(lab, index.get((topo, a, f, config, b * nodes))) for a, f, lab in FIG10]
            if any(r for _, r in cells):
                yield b, nodes, topo, cells


def spec_sizes(spec_path, key):
    """The sizes listed under key ('sizes' or 'bytes_per_node') in a spec, in bytes."""
    try:
        with open(spec_path) as f:
            spec = json.load(f)
        sizes = {s for g in spec["groups"] for s in g.get(key, [])}
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise InputError(f"{spec_path}: cannot read its {key}: {e}")
    units = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
    return sorted(int(m.group(1)) * units.get(m.group(2), 1)
                  for m in (re.fullmatch(r"(\d+)(KiB|MiB|GiB)?", s) for s in sizes) if m)


def nodes_of(topo):
    w, h = re.fullmatch(r"\w+:(\d+)x(\d+)", topo).groups()
    return int(w) * int(h)


def fig10_base(index, config, per_node):
    return get(index, "torus:4x4", "ring", "packet", config, per_node * 16)


def fig10_table(index, config, per_node_sizes):
    """Per point: bandwidth normalised to Ring on 16 nodes, and each run's wall time."""
    header = ["bytes/node", "nodes", "all-reduce size", "node data"] + [
        f"{lab} (norm.)" for _, _, lab in FIG10] + [f"{lab} wall s" for _, _, lab in FIG10]
    rows = []
    for b, nodes, topo, cells in fig10_points(index, config, per_node_sizes):
        base = fig10_base(index, config, b)
        norm = [ratio(r and float(r["bandwidth_gbps"]), base) for _, r in cells]
        wall = [r and float(r["wall_s"]) for _, r in cells]
        rows.append([size_label(b), str(nodes), size_label(b * nodes),
                     data_mode([r for _, r in cells])] +
                    [fmt(x) for x in norm] + [fmt(w, "{:.1f}") for w in wall])
    return md_table(header, rows)


def mvp_table(index, config, sizes):
    header = ["topology", "size"] + [lab for _, lab in MVP_ALGS]
    rows = []
    for topo in ("torus:4x4", "torus:8x8"):
        for size in sizes:
            gains = [ratio(get(index, topo, a, "message", config, size),
                           get(index, topo, a, "packet", config, size)) for a, _ in MVP_ALGS]
            if any(g is not None for g in gains):
                rows.append([topo, size_label(size)] +
                            [fmt(g and 100 * (g - 1), "{:+.1f}%") for g in gains])
    return md_table(header, rows)


def forwarding_table(index, variants, sizes):
    """MultiTree's cycles without and with each forwarding variant (default configuration):
    cycles saved and the most reduced data one NI held. variants: [(mtsim options, index)]."""
    header = ["torus", "size", "variant", "cycles"]
    for opts, _ in variants:
        header += [f"`{opts}`: saved", "held per NI"]
    rows = []
    for topo in ("torus:4x4", "torus:8x8"):
        for size in sizes:
            for flow, lab in (("message", "MultiTreeMsg"), ("packet", "MultiTree")):
                off = get(index, topo, "multitree", flow, "default", size, "cycles")
                if off is None:
                    continue
                row = [topo[6:], size_label(size), lab, fmt(off, "{:,.0f}")]
                for _, fwd in variants:
                    on = get(fwd, topo, "multitree", flow, "default", size, "cycles")
                    held = get(fwd, topo, "multitree", flow, "default", size,
                               "forward_peak_bytes")
                    saved = off - on if on is not None else None
                    row += ["-" if saved is None else f"{saved:,.0f} ({100 * saved / off:.1f}%)",
                            fmt(held and held / 1024, "{:.1f} KiB")]
                rows.append(row)
    return md_table(header, rows)


def spec_options(spec_path):
    """The mtsim option variants a spec lists, as the CSV writes them."""
    try:
        with open(spec_path) as f:
            spec = json.load(f)
        return [" ".join(o) for g in spec["groups"] for o in g.get("options", []) if o]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise InputError(f"{spec_path}: cannot read its options: {e}")


def link_step_bound(alg, row):
    """Share of a torus's link-steps a lockstep plan of N(N-1) equal transfers per phase
    (MultiTree, MultiTreeOpt, Ring) can fill: N(N-1) / (steps * 4N); None for other algorithms."""
    if alg not in ("multitree", "multitree-opt", "ring"):
        return None
    n, steps = int(row["nodes"]), int(row["steps_per_phase"])
    return 100 * n * (n - 1) / (steps * 4 * n)


def causes_table(index, sizes):
    """Per variant on both tori at the largest size all ran: where the time goes."""
    header = ["torus, size, config", "algorithm", "steps/phase", "plan's link-step bound",
              "of bound", "mean link utilisation", "head flits"]
    rows = []
    for topo in ("torus:4x4", "torus:8x8"):
        for c in CONFIGS:
            size = largest_common(index, topo, c, [(a, f) for a, f, _ in VARIANTS], sizes)
            for a, f, lab in VARIANTS if size else ():
                r = index[(topo, a, f, c, size)]
                rows.append([f"{topo[6:]}, {size_label(size)}, {c}", lab, r["steps_per_phase"],
                             fmt(link_step_bound(a, r), "{:.1f}%"), fmt(100 * float(r["bound_ratio"]), "{:.1f}%"),
                             fmt(100 * float(r["link_util_mean"]), "{:.1f}%"),
                             fmt(100 * float(r["head_overhead"]), "{:.2f}%")])
    return md_table(header, rows)


def walltime_table(index):
    """Per topology, size and node data (full or sampled): the points' wall time and memory."""
    header = ["topology", "size", "node data", "points", "mean wall s", "max wall s",
              "max peak MiB"]
    groups = {}
    for (topo, _, _, _, size), r in index.items():
        groups.setdefault((nodes_of(topo), topo, size, data_mode([r])), []).append(r)
    rows = []
    for (_, topo, size, data), rs in sorted(groups.items()):
        wall = [float(r["wall_s"]) for r in rs]
        rss = max(float(r["max_rss_mib"]) for r in rs)
        rows.append([topo, size_label(size), data, str(len(rs)),
                     f"{sum(wall) / len(wall):.1f}", f"{max(wall):.1f}", f"{rss:.0f}"])
    return md_table(header, rows)


# ---- the paper's claims ---------------------------------------------------------------------

def largest_common(index, topo, config, variants, sizes):
    done = [s for s in sizes if all(get(index, topo, a, f, config, s) for a, f in variants)]
    return max(done) if done else None


def speedups(index, topo, config, size, alg="multitree"):
    """A message-based MultiTree plan (alg: multitree or multitree-opt) over Ring and over
    2D-Ring (packet-based) at one point."""
    mt = get(index, topo, alg, "message", config, size)
    return (ratio(mt, get(index, topo, "ring", "packet", config, size)),
            ratio(mt, get(index, topo, "ring2d", "packet", config, size)))


def claim_torus(index, topo, config, sizes, alg):
    """alg over Ring and over 2D-Ring on one torus at the largest size all three ran."""
    need = [(alg, "message"), ("ring", "packet"), ("ring2d", "packet")]
    size = largest_common(index, topo, config, need, sizes)
    if size is None:
        return "-", "-"
    r, r2 = speedups(index, topo, config, size, alg)
    return (f"{r:.2f}x at {size_label(size)}", f"{r2:.2f}x at {size_label(size)}")


def claim_paper_ring2d(index, topo, config, sizes, alg):
    """alg over the paper's 2D-Ring (ring2d-paper, packet-based) on one torus at the largest
    size both ran."""
    need = [(alg, "message"), ("ring2d-paper", "packet")]
    size = largest_common(index, topo, config, need, sizes)
    if size is None:
        return "-"
    r = ratio(get(index, topo, alg, "message", config, size),
              get(index, topo, "ring2d-paper", "packet", config, size))
    return f"{r:.2f}x at {size_label(size)}"


def claim_256(index, config, per_node_sizes, alg):
    """alg over Ring and 2D-Ring on the largest torus of Fig. 10 that ran (the paper: 256
    nodes), for every bytes-per-node size."""
    out_r, out_r2 = [], []
    for b in per_node_sizes:
        for topo in reversed(FIG10_TOPOS):
            r, r2 = speedups(index, topo, config, b * nodes_of(topo), alg)
            if r and r2:
                out_r.append(f"{r:.2f}x ({size_label(b)}/node, {nodes_of(topo)} nodes)")
                out_r2.append(f"{r2:.2f}x ({size_label(b)}/node, {nodes_of(topo)} nodes)")
                break
    return "; ".join(out_r) or "-", "; ".join(out_r2) or "-"


def claim_bound(index, config, sizes, alg):
    """alg's (message-based) share of the physical bound on both tori at its largest size."""
    parts = []
    for topo in ("torus:4x4", "torus:8x8"):
        size = largest_common(index, topo, config, [(alg, "message")], sizes)
        if size:
            b = get(index, topo, alg, "message", config, size, "bound_ratio")
            parts.append(f"{100 * b:.1f}% ({topo[6:]}, {size_label(size)})")
    return "; ".join(parts) or "-"


def claim_message(index, config, sizes):
    parts = []
    for topo in ("torus:4x4", "torus:8x8"):
        size = largest_common(index, topo, config, [("multitree", "message"),
                                                    ("multitree", "packet")], sizes)
        if size:
            g = ratio(get(index, topo, "multitree", "message", config, size),
                      get(index, topo, "multitree", "packet", config, size))
            parts.append(f"{100 * (g - 1):+.1f}% ({topo[6:]}, {size_label(size)})")
    return "; ".join(parts) or "-"


def claim_dbtree(index, config, sizes):
    """Torus points where DBTree is the slowest of the paper's algorithms."""
    worst = total = 0
    for topo in ("torus:4x4", "torus:8x8"):
        for size in sizes:
            bw = {lab: get(index, topo, a, f, config, size) for a, f, lab in VARIANTS
                  if a != "multitree-opt"}
            if all(v is not None for v in bw.values()):
                total += 1
                worst += min(bw, key=bw.get) == "DBTree"
    return f"worst at {worst} of {total} torus points" if total else "-"


# The plans the MultiTree claims are stated for: Algorithm 1 (the paper's) and the
# optimal-step planner (beyond the paper; its paper cell is the paper's MultiTree number).
PLANS = (("multitree", "MultiTreeMsg"), ("multitree-opt", "MultiTreeOptMsg"))


def plan_claims(index, alg, sizes9, per_node):
    """One plan's claims: [(claim, the paper's number, {config: ours})]."""
    t8, t4, n, b = ({c: f(c) for c in CONFIGS} for f in (
        lambda c: claim_torus(index, "torus:8x8", c, sizes9, alg),
        lambda c: claim_torus(index, "torus:4x4", c, sizes9, alg),
        lambda c: claim_256(index, c, per_node, alg),
        lambda c: claim_bound(index, c, sizes9, alg)))
    pick = (lambda d, i: {c: d[c][i] for c in CONFIGS})
    paper2d = {t: {c: claim_paper_ring2d(index, t, c, sizes9, alg) for c in CONFIGS}
               for t in ("torus:8x8", "torus:4x4")}
    return [("over Ring, 8x8 torus", "2.3x", pick(t8, 0)),
            ("over 2D-Ring, 8x8 torus", "1.56x", pick(t8, 1)),
            ("over 2D-Ring, 4x4 torus", "-", pick(t4, 1)),
            ("over the paper's 2D-Ring, 8x8 torus", "1.56x", paper2d["torus:8x8"]),
            ("over the paper's 2D-Ring, 4x4 torus", "-", paper2d["torus:4x4"]),
            ("over Ring, 256 nodes (ours: largest N run)", "3x", pick(n, 0)),
            ("over 2D-Ring, 256 nodes (ours: largest N run)", "1.4x", pick(n, 1)),
            ("of the physical bound, both tori", "-", b)]


def claims_table(index, sizes9, per_node):
    """The paper's claims beside ours; each MultiTree claim once per plan (PLANS)."""
    per_plan = [(lab, plan_claims(index, alg, sizes9, per_node)) for alg, lab in PLANS]
    rows = []
    for i in range(len(per_plan[0][1])):
        for lab, claims in per_plan:
            claim, paper, ours = claims[i]
            rows.append([f"{lab} {claim}", paper] + [ours[c] for c in CONFIGS])
    other = {c: (claim_message(index, c, sizes9), claim_dbtree(index, c, sizes9))
             for c in CONFIGS}
    rows += [["message-based flow control (MultiTree)", "+6%"] + [other[c][0] for c in CONFIGS],
             ["DBTree worst on the 2D torus", "yes"] + [other[c][1] for c in CONFIGS]]
    return md_table(["claim", "paper", "ours, default", "ours, --config paper"], rows)


# ---- plots (gnuplot) ------------------------------------------------------------------------

def write_rows(path, header, rows):
    with open(path, "w") as f:
        f.write("# " + " ".join(header) + "\n")
        for r in rows:
            f.write(" ".join("?" if v is None else str(v) for v in r) + "\n")


PREAMBLE = """set datafile missing "?"
set grid ytics
"""


def preamble(w, h, svg):
    return docgen.svg_terminal(w, h, svg) + PREAMBLE


def fig9_plot(index, config, sizes, out, figs):
    panels = []
    for i, topo in enumerate(TOPOS):
        dat = os.path.join(out, f"fig9_{config}_{topo.replace(':', '')}.dat")
        write_rows(dat, ["bytes"] + [v[2] for v in VARIANTS],
                   [[s] + [get(index, topo, a, f, config, s) for a, f, _ in VARIANTS]
                    for s in sizes])
        # the variants that ran on this topology (MultiTreeOptMsg: tori only), each in its
        # own line type and point in every panel
        ran = [c for c, (a, f, _) in enumerate(VARIANTS)
               if any(get(index, topo, a, f, config, s) is not None for s in sizes)]
        plots = ", ".join(f'"{dat}" using 1:{c + 2} with linespoints lt {c + 1} lw 2 '
                          f'pt {c + 4} title "{VARIANTS[c][2]}"'
                          for c in ran or range(len(VARIANTS)))
        key = "set key top left" if i == 0 else "unset key"
        panels.append(f'set title "{topo.replace(":", " ")}"\n{key}\nplot {plots}\n')
    xtics = ", ".join(f'"{size_label(s)}" {s}' for s in sizes)
    svg = os.path.join(figs, f"fig9_{config}.svg")
    docgen.gnuplot(os.path.join(out, f"fig9_{config}.gp"), preamble(1200, 900, svg) + f"""
set multiplot layout 2,2 title "Fig. 9: all-reduce bandwidth, --config {config}"
set logscale x 2
set xrange [{sizes[0] / 1.4}:{sizes[-1] * 1.4}]
set xtics ({xtics})
set xlabel "all-reduce size"
set ylabel "bandwidth (GB/s)"
set yrange [0:*]
""" + "".join(panels) + "unset multiplot\n")
    return svg


def fig10_plot(index, config, per_node, out, figs):
    panels = []
    for b in per_node:
        base = fig10_base(index, config, b)
        rows = [[nodes] + [ratio(r and float(r["bandwidth_gbps"]), base) for _, r in cells]
                for bb, nodes, _, cells in fig10_points(index, config, [b])]
        if not rows:
            continue
        dat = os.path.join(out, f"fig10_{config}_{b}.dat")
        write_rows(dat, ["nodes"] + [lab for _, _, lab in FIG10], rows)
        plots = ", ".join(f'"{dat}" using {c + 2}:xtic(1) title "{lab}"'
                          for c, (_, _, lab) in enumerate(FIG10))
        panels.append(f'set title "{size_label(b)} x N, normalised to Ring on 16 nodes"\n'
                      f"plot {plots}\n")
    svg = os.path.join(figs, f"fig10_{config}.svg")
    docgen.gnuplot(os.path.join(out, f"fig10_{config}.gp"), preamble(1200, 500, svg) + f"""
set multiplot layout 1,{max(len(panels), 1)} title "Fig. 10: weak scaling, --config {config}"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xlabel "nodes (N x N torus)"
set ylabel "bandwidth / Ring's on 16 nodes"
set yrange [0:*]
set key below horizontal spacing 1.5
set bmargin 6
""" + "".join(panels) + "unset multiplot\n")
    return svg


def mvp_plot(index, config, sizes, out, figs):
    panels = []
    for topo in ("torus:4x4", "torus:8x8"):
        rows = []
        for a, lab in MVP_ALGS:
            gains = [ratio(get(index, topo, a, "message", config, s),
                           get(index, topo, a, "packet", config, s)) for s in sizes]
            rows.append([lab] + [g and round(100 * (g - 1), 3) for g in gains])
        dat = os.path.join(out, f"mvp_{config}_{topo.replace(':', '')}.dat")
        write_rows(dat, ["algorithm"] + [str(s) for s in sizes], rows)
        plots = ", ".join(f'"{dat}" using {c + 2}:xtic(1) title "{size_label(s)}"'
                          for c, s in enumerate(sizes))
        panels.append(f'set title "{topo.replace(":", " ")}"\nplot {plots}\n')
    svg = os.path.join(figs, f"msg_vs_packet_{config}.svg")
    docgen.gnuplot(os.path.join(out, f"mvp_{config}.gp"), preamble(1200, 450, svg) + f"""
set multiplot layout 1,2 title "Message- vs packet-based flow control, --config {config}"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "bandwidth gain of message-based (%)"
set key below horizontal
""" + "".join(panels) + "unset multiplot\n")
    return svg


# ---- main -----------------------------------------------------------------------------------

def tables(index, csv_path, specs):
    sizes9 = spec_sizes(os.path.join(specs, "fig9.json"), "sizes")
    sizes_fwd = spec_sizes(os.path.join(specs, "forwarding.json"), "sizes")
    sizes_mvp = spec_sizes(os.path.join(specs, "msg_vs_packet.json"), "sizes")
    per_node = spec_sizes(os.path.join(specs, "fig10.json"), "bytes_per_node")
    out = {"claims": claims_table(index, sizes9, per_node), "walltime": walltime_table(index),
           "causes": causes_table(index, sizes9),
           "forwarding": forwarding_table(
               index, [(o, load(csv_path, (o,)))
                       for o in spec_options(os.path.join(specs, "forwarding.json"))],
               sizes_fwd)}
    for c in CONFIGS:
        out[f"fig9_{c}"] = fig9_table(index, c, sizes9)
        out[f"fig10_{c}"] = fig10_table(index, c, per_node)
        out[f"mvp_{c}"] = mvp_table(index, c, sizes_mvp)
    return out, (sizes9, sizes_mvp, per_node)


def plots(index, sizes, out, figs):
    sizes9, sizes_mvp, per_node = sizes
    svgs = []
    for c in CONFIGS:
        svgs += [fig9_plot(index, c, sizes9, out, figs), fig10_plot(index, c, per_node, out, figs),
                 mvp_plot(index, c, sizes_mvp, out, figs)]
    return svgs


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    docgen.publish_arguments(p, "the sweep's results.csv")
    p.add_argument("--specs", default=os.path.join(here, "specs"), help="the spec directory")
    args = docgen.parse_publish_arguments(p)
    try:
        index = load(args.csv)
        generated, sizes = tables(index, args.csv, args.specs)
        return docgen.publish("report.py", args, generated,
                              lambda figs: plots(index, sizes, args.plots, figs))
    except (InputError, docgen.DocError) as e:
        print(f"report.py: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
