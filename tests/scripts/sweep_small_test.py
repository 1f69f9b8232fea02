#!/usr/bin/env python3
"""ctest sweep_small: the small sweep (torus 4x4, three sizes, MultiTreeMsg and Ring) end to end
through scripts/sweep: one job through the Slurm array script, the rest through GNU parallel
(same jobs.txt) with a progress line per job, the CSV's columns and rows, MultiTreeMsg faster
than Ring at every size, a second run that reruns nothing, and a bad spec rejected with a
message.

  sweep_small_test.py --mtsim build/bin/mtsim [--keep DIR]
"""
import os
import re
import subprocess
import sys

from sweep_harness import SWEEP, check, main, read_csv, sweep

SPEC = os.path.join(SWEEP, "specs", "small.json")
COLUMNS = ["id", "topology", "nodes", "algorithm", "flow_control", "config", "options",
           "bytes", "size", "cycles", "bandwidth_gbps", "bound_cycles", "bound_ratio",
           "verified", "memory_latency", "reduce_latency", "steps_per_phase", "head_overhead",
           "link_util_mean", "wall_s", "max_rss_mib", "forward_peak_bytes"]


def slurm_task(out, task):
    env = dict(os.environ, SLURM_ARRAY_TASK_ID=str(task))
    return subprocess.run(["bash", os.path.join(SWEEP, "sweep.sbatch"), out], env=env).returncode


def json_mtimes(out):
    d = os.path.join(out, "json")
    return {f: os.stat(os.path.join(d, f)).st_mtime_ns for f in os.listdir(d)}


def check_csv(out):
    rows = read_csv(os.path.join(out, "results.csv"), COLUMNS)
    check(len(rows) == 6, "CSV has 6 rows")
    check(all(r["verified"] == "True" and float(r["wall_s"]) >= 0 and float(r["max_rss_mib"]) > 0
              and 0 < float(r["bound_ratio"]) <= 1 for r in rows),
          "every row verified, with wall time, peak memory and a bound ratio in (0, 1]")
    by = {(r["algorithm"], int(r["bytes"])): float(r["bandwidth_gbps"]) for r in rows}
    for size in (32 << 10, 64 << 10, 128 << 10):
        check(by[("multitree", size)] > by[("ring", size)], f"MultiTreeMsg beats Ring at {size} B")


def check_bad_spec(tmp):
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w") as f:
        f.write('{"groups": [{"topologies": ["torus:4x4"], "algorithms": ["rings"], '
                '"flow_control": ["packet"], "configs": ["default"], "sizes": ["32KiB"]}]}')
    r = sweep("jobs", bad, "--out", os.path.join(tmp, "bad"))
    check(r.returncode == 1 and "rings" in r.stderr, "a bad spec exits 1 naming the problem")


def run(out, mtsim, tmp):
    r = sweep("jobs", SPEC, "--out", out, "--mtsim", mtsim)
    check(r.returncode == 0, "sweep.py jobs")
    check(slurm_task(out, 0) == 0, "the Slurm array script runs job 0 of jobs.txt")
    r = sweep("run", SPEC, "--out", out, "--mtsim", mtsim, "-j", "2")
    check(r.returncode == 0 and "5 of 6 jobs to run" in r.stdout,
          "parallel runs the same jobs.txt: the Slurm task's job is done, 5 remain")
    finished = re.findall(r"^sweep\.py: \[(\d+)/5\] (\S+) done in [\d.]+ s; \d+ min \d+ s since",
                          r.stdout, re.M)
    check(sorted(int(k) for k, _ in finished) == [1, 2, 3, 4, 5]
          and len({job_id for _, job_id in finished}) == 5
          and all(os.path.exists(os.path.join(out, "json", job_id + ".json"))
                  for _, job_id in finished),
          "a progress line for each of the 5 jobs as it finishes, naming a job that is done")
    check_csv(out)
    before = json_mtimes(out)
    r = sweep("run", SPEC, "--out", out, "--mtsim", mtsim)
    check(r.returncode == 0 and "0 of 6 jobs to run" in r.stdout, "a second run reruns nothing")
    check(json_mtimes(out) == before, "no JSON rewritten")
    check_bad_spec(tmp)


if __name__ == "__main__":
    sys.exit(main(__doc__, "mtsim", run))
