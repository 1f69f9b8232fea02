#!/usr/bin/env python3
"""ctest sweep_training: a training sweep end to end through scripts/sweep (the machinery of
the Fig. 11 sweep on a tiny model): a spec's training group expands into mttrain jobs, GNU
parallel runs them, training.csv has the columns and one row per job whose totals add up
(iteration = compute + exposed communication, overlap = all-reduce - exposed), MultiTree's
all-reduces are faster than Ring's, layer-wise overlap hides some communication, a second run
reruns nothing, and bad training groups are refused with a message naming the problem.

  sweep_training_test.py --mttrain build/bin/mttrain [--keep DIR]
"""
import json
import os
import sys

from sweep_harness import check, main, read_csv, sweep

COLUMNS = ["id", "workload", "topology", "nodes", "algorithm", "flow_control", "config",
           "overlap", "options", "layers", "gradient_bytes", "iteration_cycles",
           "compute_cycles", "forward_cycles", "backward_cycles", "exposed_comm_cycles",
           "allreduce_cycles", "allreduce_bound_cycles", "overlap_cycles", "allreduces",
           "sizes_simulated", "simulation_s", "wall_s", "max_rss_mib"]
# Three fully connected layers: 32 KiB, 64 KiB and 8 KiB of gradients.
TINY = {"version": 1, "name": "tiny", "layers": [
    {"name": "fc1", "kind": "fc", "inputs": 64, "outputs": 128},
    {"name": "fc2", "kind": "fc", "inputs": 128, "outputs": 128},
    {"name": "fc3", "kind": "fc", "inputs": 128, "outputs": 16}]}


def write_json(path, value):
    with open(path, "w") as f:
        json.dump(value, f)
    return path


def group(workload, **extra):
    return dict({"topologies": ["torus:4x4"], "workloads": [workload],
                 "algorithms": ["ring", "multitree"], "flow_control": ["packet"],
                 "configs": ["paper"], "overlap": ["none", "layer"]}, **extra)


def check_csv(out):
    rows = read_csv(os.path.join(out, "training.csv"), COLUMNS)
    check(len(rows) == 4, "training.csv has 4 rows")
    check(not os.path.exists(os.path.join(out, "results.csv")),
          "no results.csv for a sweep without all-reduce jobs")
    n = {k: [int(r[k]) for r in rows] for k in COLUMNS if k.endswith("_cycles")}
    check(all(i == c + e for i, c, e in zip(n["iteration_cycles"], n["compute_cycles"],
                                             n["exposed_comm_cycles"])),
          "iteration = compute + exposed communication in every row")
    check(all(o == a - e for o, a, e in zip(n["overlap_cycles"], n["allreduce_cycles"],
                                             n["exposed_comm_cycles"])),
          "overlap = all-reduce - exposed communication in every row")
    check(all(0 < b < a for a, b in zip(n["allreduce_cycles"], n["allreduce_bound_cycles"])),
          "the all-reduces' physical bound is below their cycles (1 GHz accelerator)")
    check(all(int(r["gradient_bytes"]) == 4 * (64 * 128 + 128 * 128 + 128 * 16) and
              r["layers"] == "3" and float(r["max_rss_mib"]) > 0 for r in rows),
          "every row has the model's 3 layers, its gradient bytes and a peak memory")
    by = {(r["algorithm"], r["overlap"]): r for r in rows}
    check(int(by[("multitree", "none")]["allreduce_cycles"]) <
          int(by[("ring", "none")]["allreduce_cycles"]), "MultiTree's all-reduce beats Ring's")
    check(by[("ring", "layer")]["allreduces"] == "3" and
          int(by[("ring", "layer")]["overlap_cycles"]) > 0,
          "layer-wise: three all-reduces, some hidden under back-propagation")


def check_bad(tmp, tiny):
    cases = [(group("resnet"), "'resnet' is not a bundled model"),
             (group(os.path.join(tmp, "missing.json")), "does not exist"),
             (group(tiny, overlap=["layers"]), "overlap has 'layers'"),
             (group(tiny, sizes=["1MiB"]), "a training group (workloads, overlap) has no sizes")]
    for i, (g, message) in enumerate(cases):
        spec = write_json(os.path.join(tmp, f"bad{i}.json"), {"groups": [g]})
        r = sweep("jobs", spec, "--out", os.path.join(tmp, "bad"))
        check(r.returncode == 1 and message in r.stderr, f"a bad training group: {message}")


def run(out, mttrain, tmp):
    tiny = write_json(os.path.join(tmp, "tiny.json"), TINY)
    spec = write_json(os.path.join(tmp, "spec.json"), {"name": "tiny", "groups": [group(tiny)]})
    r = sweep("run", spec, "--out", out, "--mttrain", mttrain, "-j", "2")
    check(r.returncode == 0 and "4 of 4 jobs to run" in r.stdout, "sweep.py run: 4 mttrain jobs")
    check_csv(out)
    r = sweep("run", spec, "--out", out, "--mttrain", mttrain)
    check(r.returncode == 0 and "0 of 4 jobs to run" in r.stdout, "a second run reruns nothing")
    check_bad(tmp, tiny)


if __name__ == "__main__":
    sys.exit(main(__doc__, "mttrain", run))
