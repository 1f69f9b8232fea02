#!/usr/bin/env python3
"""Per tree edge, how long a transfer took in two runs of the same plan (docs/results.md,
"Why DBTree gains more than the head flits"): the cycles from the sender's table entry
issuing to the receiver's entry that waits for it issuing, from each run's VCD of every NI
(mtsim --trace FILE.vcd --trace-nodes 0,1,...), then run B minus run A, by kind of edge.

  edge_times.py --plan PLAN.json A.vcd B.vcd [--width W] [--top N]

PLAN.json is `mtc plan ... --format json` of the plan both runs ran (torus W x W, dimension-
order routes for the hop count). Prints, per (op, one hop or more), the number of edges and
the median and mean of B - A, then the N edges B slowed most. Exit codes: 0 ok, 1 bad input.
"""
import argparse
import json
import statistics
import sys
from collections import defaultdict


def issue_cycles(vcd_path):
    """(node, entry index) -> cycle the entry issued, from the table_head signal of ni_N."""
    code_node, node, cycle = {}, None, 0
    issued = {}
    with open(vcd_path) as f:
        for line in f:
            if line.startswith("$scope module ni_"):
                node = int(line.split()[2][3:])
            elif line.startswith("$var") and " table_head " in line:
                code_node[line.split()[3]] = node
            elif line.startswith("#"):
                cycle = int(line[1:])
            elif line.startswith("b"):
                value, code = line[1:].split()
                if code in code_node:  # the head moved to `value`: every entry before issued
                    n = code_node[code]
                    for i in range(int(value, 2)):
                        issued.setdefault((n, i), cycle)
    return issued


def hops(a, b, w):
    dx, dy = abs(a % w - b % w), abs(a // w - b // w)
    return min(dx, w - dx) + min(dy, w - dy)


def edges(plan):
    """(op, sender, sender's entry, receiver, receiver's waiting entry) of every transfer
    some entry waits for."""
    tables = {t["node"]: t["entries"] for t in plan["tables"]}
    index = {(n, e["op"], e["flow"]): i for n, es in tables.items() for i, e in enumerate(es)}
    for n, es in tables.items():
        for i, e in enumerate(es):
            if e["op"] == "reduce" and e["parent"] is not None:
                p = e["parent"]
                j = index.get((p, "reduce", e["flow"]), index.get((p, "gather", e["flow"])))
                yield "reduce", n, i, p, j
            elif e["op"] == "gather":
                for c in e["children"]:
                    j = index.get((c, "gather", e["flow"]))
                    if j is not None:  # a leaf's last Gather is awaited by no entry
                        yield "gather", n, i, c, j


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plan", required=True)
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--width", type=int, default=8)
    ap.add_argument("--top", type=int, default=5)
    args = ap.parse_args()
    try:
        plan = json.load(open(args.plan))
        ta, tb = issue_cycles(args.a), issue_cycles(args.b)
        rows = [(op, s, d, (tb[(d, j)] - tb[(s, i)]) - (ta[(d, j)] - ta[(s, i)]),
                 ta[(d, j)] - ta[(s, i)], tb[(d, j)] - tb[(s, i)])
                for op, s, i, d, j in edges(plan)]
    except (OSError, ValueError, KeyError) as e:
        print(f"edge_times.py: {e}", file=sys.stderr)
        return 1
    groups = defaultdict(list)
    for op, s, d, diff, _, _ in rows:
        groups[(op, "one hop" if hops(s, d, args.width) == 1 else "multi-hop")].append(diff)
    print("| edges | count | B - A median | B - A mean |\n| --- | ---: | ---: | ---: |")
    for (op, kind), v in sorted(groups.items()):
        print(f"| {op}, {kind} | {len(v)} | {statistics.median(v):+.0f} | "
              f"{statistics.mean(v):+.0f} |")
    print("\nslowed most by B: op, sender -> receiver (hops): A, B cycles")
    for op, s, d, diff, a, b in sorted(rows, key=lambda r: -r[3])[:args.top]:
        print(f"  {op} {s} -> {d} ({hops(s, d, args.width)}): {a}, {b}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
