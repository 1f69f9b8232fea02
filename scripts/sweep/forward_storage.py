#!/usr/bin/env python3
"""What a forwarding buffer (mtsim --ni-forward, systemc/ni/README.md) must hold, derived from
the plan's schedule tables: the sends that carry data the node itself reduced (a Reduce entry
with children, which sends the partial sum to its parent, and a root's Gather entry, which
sends the final sum to its children). Their whole chunk is reduced before the send starts,
so an NI must hold at least the largest of them, and all of one step's at once if their
sums are complete when the step starts.

  forward_storage.py [--mtc build/bin/mtc] [--algorithm multitree] TOPOLOGY:SIZE...
  e.g. forward_storage.py torus:4x4:32KiB torus:8x8:2MiB

Prints a Markdown table: per plan, the largest reduced send and the most reduced-send bytes
one node has in one step (over all nodes). Exit codes: 0 ok, 1 bad arguments or mtc failed.
"""
import argparse
import json
import os
import subprocess
import sys
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def reduced_sends(table):
    """(step, bytes) of every entry of one node's table that sends data it reduced."""
    for e in table["entries"]:
        if not e["children"]:
            continue
        if (e["op"] == "reduce" and e["parent"] is not None) or (
                e["op"] == "gather" and e["parent"] is None):
            yield e["step"], e["size"]


def storage(plan):
    largest = per_step = 0
    for table in plan["tables"]:
        steps = defaultdict(int)
        for step, size in reduced_sends(table):
            largest = max(largest, size)
            steps[step] += size
        per_step = max([per_step] + list(steps.values()))
    return largest, per_step


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mtc", default=os.path.join(ROOT, "build", "bin", "mtc"))
    p.add_argument("--algorithm", default="multitree")
    p.add_argument("points", nargs="+", help="TOPOLOGY:SIZE, e.g. torus:8x8:2MiB")
    args = p.parse_args()
    print("| plan | largest reduced send | most in one step, one node |")
    print("| --- | ---: | ---: |")
    for point in args.points:
        topo, _, size = point.rpartition(":")
        if not topo:
            print(f"forward_storage.py: {point!r} is not TOPOLOGY:SIZE", file=sys.stderr)
            return 1
        r = subprocess.run([args.mtc, "plan", "-t", topo, "-a", args.algorithm, "-b", size,
                            "--format", "json"], capture_output=True, text=True)
        if r.returncode != 0:
            print(f"forward_storage.py: mtc failed for {point}: {r.stderr.strip()}",
                  file=sys.stderr)
            return 1
        largest, per_step = storage(json.loads(r.stdout))
        print(f"| {args.algorithm} {topo} {size} | {largest / 1024:g} KiB | "
              f"{per_step / 1024:g} KiB |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
