#!/usr/bin/env python3
"""Sweep driver: expands spec files into independent jobs (an mtsim all-reduce, or an mttrain
training iteration), runs them with GNU parallel on the local cores (resuming: a job whose
JSON exists is complete and is not rerun), and collects every job's JSON and /usr/bin/time
record into CSV.

  sweep.py jobs    SPEC... --out DIR     write DIR/jobs.txt (one shell command per line)
  sweep.py run     SPEC... --out DIR     jobs, run what is not done yet (GNU parallel), collect
  sweep.py collect --out DIR             DIR/results.csv (all-reduces) and DIR/training.csv
                                         (training iterations) from DIR/json and DIR/time

The same DIR/jobs.txt runs on a Slurm cluster as a job array: scripts/sweep/sweep.sbatch.
A spec is JSON: {"name": ..., "groups": [{"topologies": [...], "algorithms": [...],
"flow_control": [...], "configs": [...], "sizes": [...] or "bytes_per_node": [...],
"options": [[...], ...]}]}; a training group has "workloads" and "overlap" lists instead of
sizes. Each group is the cross product of its lists (see scripts/sweep/README.md).
Exit codes: 0 ok, 1 bad spec or arguments, 3 some job failed.
"""
import argparse
import csv
import itertools
import json
import os
import re
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
JOB_SH = os.path.join(HERE, "job.sh")
ALGORITHMS = {"multitree", "multitree-opt", "ring", "ring-bi", "ring2d", "ring2d-paper", "dbtree",
              "hdrm"}
FLOWS = {"message", "packet"}
CONFIGS = {"default", "paper"}
OVERLAPS = {"none", "layer"}
WORKLOAD_EXTENSIONS = (".json", ".csv", ".txt")
GROUP_KEYS = {"topologies", "algorithms", "flow_control", "configs", "sizes",
              "bytes_per_node", "workloads", "overlap", "options", "comment"}
UNITS = {"": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
CSV_COLUMNS = [
    "id", "topology", "nodes", "algorithm", "flow_control", "config", "options", "bytes",
    "size", "cycles", "bandwidth_gbps", "bound_cycles", "bound_ratio", "verified",
    "memory_latency", "reduce_latency", "steps_per_phase", "head_overhead", "link_util_mean",
    "wall_s", "max_rss_mib", "forward_peak_bytes"]
TRAINING_COLUMNS = [
    "id", "workload", "topology", "nodes", "algorithm", "flow_control", "config", "overlap",
    "options", "layers", "gradient_bytes", "iteration_cycles", "compute_cycles",
    "forward_cycles", "backward_cycles", "exposed_comm_cycles", "allreduce_cycles",
    "allreduce_bound_cycles", "overlap_cycles", "allreduces", "sizes_simulated", "simulation_s",
    "wall_s", "max_rss_mib"]
BUNDLED_DIR = os.path.join(ROOT, "workload", "models")


class SpecError(Exception):
    pass


def parse_size(text, where):
    m = re.fullmatch(r"\s*(\d+)\s*(B|KiB|MiB|GiB)?\s*", str(text))
    if not m:
        raise SpecError(f"{where}: size {text!r} is not N, NKiB, NMiB or NGiB")
    return int(m.group(1)) * UNITS[m.group(2) or ""]


def human_size(n):
    for unit in ("GiB", "MiB", "KiB"):
        if n % UNITS[unit] == 0:
            return f"{n // UNITS[unit]}{unit}"
    return f"{n}B"


def topology_nodes(topo, where):
    m = re.fullmatch(r"(torus|mesh):(\d+)x(\d+)", topo) or re.fullmatch(r"(ring):(\d+)", topo)
    if not m:
        raise SpecError(f"{where}: topology {topo!r} is not torus:WxH, mesh:WxH or ring:N")
    dims = [int(d) for d in m.groups()[1:]]
    if min(dims) < 1:
        raise SpecError(f"{where}: topology {topo!r} has an empty dimension")
    nodes = 1
    for d in dims:
        nodes *= d
    return nodes


def require_list(group, key, where, allowed=None):
    values = group.get(key)
    if not isinstance(values, list) or not values:
        raise SpecError(f"{where}: '{key}' must be a non-empty list")
    for v in values:
        if allowed is not None and v not in allowed:
            raise SpecError(f"{where}: {key} has {v!r}; allowed: {', '.join(sorted(allowed))}")
    return values


def check_group(group, where):
    if not isinstance(group, dict):
        raise SpecError(f"{where}: a group must be an object")
    unknown = set(group) - GROUP_KEYS
    if unknown:
        raise SpecError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    if "workloads" in group or "overlap" in group:
        if "sizes" in group or "bytes_per_node" in group:
            raise SpecError(f"{where}: a training group (workloads, overlap) has no sizes")
    elif ("sizes" in group) == ("bytes_per_node" in group):
        raise SpecError(f"{where}: give exactly one of 'sizes' and 'bytes_per_node'")
    options = group.get("options", [[]])
    if not isinstance(options, list) or not all(
            isinstance(o, list) and all(isinstance(a, str) for a in o) for o in options):
        raise SpecError(f"{where}: 'options' must be a list of lists of strings")


def check_workload(name, where):
    """A bundled model's name, or a workload file that exists (mttrain --workload)."""
    if name.endswith(WORKLOAD_EXTENSIONS):
        if not os.path.isfile(name):
            raise SpecError(f"{where}: workload file {name!r} does not exist")
        return
    bundled = sorted(f[:-5] for f in os.listdir(BUNDLED_DIR) if f.endswith(".json"))
    if name not in bundled:
        raise SpecError(f"{where}: workload {name!r} is not a bundled model "
                        f"({', '.join(bundled)}) nor a file ending in "
                        f"{', '.join(WORKLOAD_EXTENSIONS)}")


def training_jobs(group, where):
    workloads = require_list(group, "workloads", where)
    for w in workloads:
        check_workload(str(w), where)
    overlaps = require_list(group, "overlap", where, OVERLAPS)
    for topo, w, alg, flow, config, overlap, opts in itertools.product(
            require_list(group, "topologies", where), workloads,
            require_list(group, "algorithms", where, ALGORITHMS),
            require_list(group, "flow_control", where, FLOWS),
            require_list(group, "configs", where, CONFIGS), overlaps,
            group.get("options", [[]])):
        name = os.path.splitext(os.path.basename(w))[0]
        job_id = "_".join(["train", topo.replace(":", ""), name, alg, flow, overlap,
                           config]) + option_tag(opts)
        yield {"id": job_id, "tool": "mttrain", "workload": w, "topology": topo,
               "nodes": topology_nodes(topo, where), "algorithm": alg, "flow_control": flow,
               "config": config, "overlap": overlap, "options": list(opts)}


def group_jobs(group, where):
    check_group(group, where)
    if "workloads" in group or "overlap" in group:
        yield from training_jobs(group, where)
        return
    topos = require_list(group, "topologies", where)
    algs = require_list(group, "algorithms", where, ALGORITHMS)
    flows = require_list(group, "flow_control", where, FLOWS)
    configs = require_list(group, "configs", where, CONFIGS)
    per_node = "bytes_per_node" in group
    sizes = [parse_size(s, where) for s in require_list(
        group, "bytes_per_node" if per_node else "sizes", where)]
    for topo, alg, flow, config, size, opts in itertools.product(
            topos, algs, flows, configs, sizes, group.get("options", [[]])):
        nodes = topology_nodes(topo, where)
        total = size * nodes if per_node else size
        yield make_job(topo, nodes, alg, flow, config, total, opts)


def option_tag(opts):
    """The part of a job id that names its extra options."""
    return "".join("_" + re.sub(r"[^A-Za-z0-9.]+", "", o) for o in opts)


def make_job(topo, nodes, alg, flow, config, total, opts):
    job_id = ("_".join([topo.replace(":", ""), alg, flow, human_size(total), config]) +
              option_tag(opts))
    return {"id": job_id, "tool": "mtsim", "topology": topo, "nodes": nodes, "algorithm": alg,
            "flow_control": flow, "config": config, "bytes": total, "options": list(opts)}


def load_spec(path):
    try:
        with open(path) as f:
            spec = json.load(f)
    except OSError as e:
        raise SpecError(f"{path}: cannot read: {e.strerror}")
    except json.JSONDecodeError as e:
        raise SpecError(f"{path}: not JSON: {e}")
    groups = spec.get("groups") if isinstance(spec, dict) else None
    if not isinstance(groups, list) or not groups:
        raise SpecError(f"{path}: needs a non-empty 'groups' list")
    jobs = []
    for i, group in enumerate(groups):
        jobs.extend(group_jobs(group, f"{path}: group {i}"))
    return jobs


def expand(spec_paths):
    """Every spec's jobs, each id once. All-reduces first, cheapest first (so a partial sweep
    has whole sizes); then training iterations in spec order (a spec lists its largest
    workloads first, so the longest jobs do not run last)."""
    seen = {}
    for path in spec_paths:
        for job in load_spec(path):
            seen.setdefault(job["id"], job)
    order = {job_id: i for i, job_id in enumerate(seen)}
    return sorted(seen.values(), key=lambda j: (
        (0, j["bytes"] * j["nodes"], j["id"]) if j["tool"] == "mtsim" else (1, order[j["id"]], "")))


def command_line(job, out_dir, tools):
    common = ["--topology", job["topology"], "--algorithm", job["algorithm"],
              "--flow-control", job["flow_control"], "--config", job["config"]]
    if job["tool"] == "mttrain":
        # The sweep's runs share one --sim-cache: an all-reduce two models need (the same
        # layer size) is simulated once.
        args = [tools["mttrain"], "--workload", job["workload"], "--overlap", job["overlap"],
                "-j", "1", "--sim-cache", os.path.join(out_dir, "sim-cache")] + common
    else:
        args = [tools["mtsim"], "--bytes", str(job["bytes"])] + common
    args = [JOB_SH, out_dir, job["id"]] + args + job["options"]
    return " ".join(shlex.quote(a) for a in args)


def write_jobs(jobs, out_dir, tools):
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "jobs.txt"), "w") as f:
        for job in jobs:
            f.write(command_line(job, out_dir, tools) + "\n")
    with open(os.path.join(out_dir, "jobs.json"), "w") as f:
        json.dump(jobs, f, indent=1)
    return os.path.join(out_dir, "jobs.txt")


def json_path(out_dir, job_id):
    return os.path.join(out_dir, "json", job_id + ".json")


def complete(out_dir, job_id):
    """A job is done when its JSON parses and holds the result (job.sh keeps the JSON of a
    run that exited 0: every all-reduce verified)."""
    try:
        with open(json_path(out_dir, job_id)) as f:
            result = json.load(f)
            return "cycles" in result or "iteration_cycles" in result
    except (OSError, json.JSONDecodeError):
        return False


class Progress:
    """One line per job as it finishes, from the lines GNU parallel appends to its joblog
    (Seq, Host, Starttime, JobRuntime, Send, Receive, Exitval, Signal, Command; Seq numbers
    the pending jobs from 1)."""

    def __init__(self, ids, joblog):
        self.ids, self.joblog = ids, joblog
        self.offset = os.path.getsize(joblog) if os.path.exists(joblog) else 0
        self.start, self.done, self.partial = time.monotonic(), 0, ""

    def report(self):
        if not os.path.exists(self.joblog):
            return
        with open(self.joblog) as f:
            f.seek(self.offset)
            text = self.partial + f.read()
            self.offset = f.tell()
        *lines, self.partial = text.split("\n")
        for line in lines:
            fields = line.split("\t")
            if len(fields) < 9 or not fields[0].isdigit():
                continue
            self.done += 1
            job_id = self.ids[int(fields[0]) - 1]
            exit_code, runtime = int(fields[6]), float(fields[3])
            outcome = "done" if exit_code == 0 else f"FAILED (exit {exit_code})"
            elapsed = int(time.monotonic() - self.start)
            print(f"sweep.py: [{self.done}/{len(self.ids)}] {job_id} {outcome} in {runtime:.1f} s; "
                  f"{elapsed // 60} min {elapsed % 60} s since the start", flush=True)


def run_parallel(pending, out_dir, jobs_n):
    """Runs the pending (id, command line) jobs, a line printed as each finishes."""
    arg_file = os.path.join(out_dir, "pending.txt")
    with open(arg_file, "w") as f:
        f.writelines(line + "\n" for _, line in pending)
    joblog = os.path.join(out_dir, "joblog.txt")
    progress = Progress([job_id for job_id, _ in pending], joblog)
    proc = subprocess.Popen(["parallel", "--will-cite", "-j", str(jobs_n), "--joblog",
                             "+" + joblog, "--arg-file", arg_file])
    try:
        while True:
            try:
                rc = proc.wait(timeout=2)
                break
            except subprocess.TimeoutExpired:
                progress.report()
    except KeyboardInterrupt:  # parallel has the interrupt too: it ends the running jobs
        proc.wait()
        raise
    progress.report()
    return rc


def parse_time(path):
    """Wall seconds and peak resident MiB from a /usr/bin/time -v record."""
    wall, rss = "", ""
    try:
        text = open(path).read()
    except OSError:
        return wall, rss
    m = re.search(r"Elapsed \(wall clock\) time.*?: (?:(\d+):)?(\d+):([\d.]+)", text)
    if m:
        h, mnt, s = m.groups()
        wall = f"{int(h or 0) * 3600 + int(mnt) * 60 + float(s):.2f}"
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    if m:
        rss = f"{int(m.group(1)) / 1024:.1f}"
    return wall, rss


def job_result(job, out_dir):
    """A finished job's JSON, and its wall seconds and peak MiB from /usr/bin/time."""
    with open(json_path(out_dir, job["id"])) as f:
        result = json.load(f)
    return (result,) + parse_time(os.path.join(out_dir, "time", job["id"] + ".txt"))


def csv_row(job, out_dir):
    result, wall, rss = job_result(job, out_dir)
    row = {k: job[k] for k in ("id", "topology", "nodes", "algorithm", "flow_control",
                               "config", "bytes")}
    row.update(options=" ".join(job["options"]), size=human_size(job["bytes"]),
               wall_s=wall, max_rss_mib=rss)
    for key in ("cycles", "bandwidth_gbps", "bound_cycles", "bound_ratio", "verified",
                "memory_latency", "reduce_latency", "steps_per_phase", "head_overhead",
                "forward_peak_bytes"):
        row[key] = result.get(key, "")
    links = [link["utilisation"] for link in result.get("links", [])]
    row["link_util_mean"] = f"{sum(links) / len(links):.4f}" if links else ""
    return row


def training_row(job, out_dir):
    """One training iteration (mttrain's JSON): its totals, the physical bound of its
    all-reduces (network cycles), the simulator's time."""
    result, wall, rss = job_result(job, out_dir)
    layers = result["layers"]
    bound = {sim["bytes"]: sim["bound_cycles"] for sim in result["simulations"]}
    # The sizes this run simulated (not read from the sweep's --sim-cache).
    simulated = [s for s in result["simulations"] if not s.get("cached", False)]
    row = {k: job[k] for k in ("id", "workload", "topology", "nodes", "algorithm",
                               "flow_control", "config", "overlap")}
    row.update(options=" ".join(job["options"]), layers=len(layers),
               gradient_bytes=sum(layer["gradient_bytes"] for layer in layers),
               forward_cycles=result["forward_cycles"], backward_cycles=result["backward_cycles"],
               allreduces=len(result["allreduces"]), sizes_simulated=len(simulated),
               allreduce_bound_cycles=sum(bound[a["bytes"]] for a in result["allreduces"]),
               simulation_s=f"{sum(s['wall_seconds'] for s in simulated):.2f}",
               wall_s=wall, max_rss_mib=rss)
    for key in ("iteration_cycles", "compute_cycles", "exposed_comm_cycles", "allreduce_cycles",
                "overlap_cycles"):
        row[key] = result[key]
    return row


def write_csv(path, columns, rows):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)


def collect(out_dir):
    """results.csv from the all-reduce jobs, training.csv from the training jobs (each only
    when the sweep has jobs of that kind)."""
    with open(os.path.join(out_dir, "jobs.json")) as f:
        jobs = json.load(f)
    done = [j for j in jobs if complete(out_dir, j["id"])]
    for tool, name, columns, row in (("mtsim", "results.csv", CSV_COLUMNS, csv_row),
                                     ("mttrain", "training.csv", TRAINING_COLUMNS, training_row)):
        if not any(j["tool"] == tool for j in jobs):
            continue
        path = os.path.join(out_dir, name)
        ran = [j for j in done if j["tool"] == tool]
        write_csv(path, columns, [row(j, out_dir) for j in ran])
        total = sum(j["tool"] == tool for j in jobs)
        print(f"sweep.py: {len(ran)} of {total} points in {path}")
    return len(done), len(jobs)


def default_tool(name):
    return os.path.join(ROOT, "build", "bin", name)


def tool_paths(args, jobs, check):
    """The binaries the jobs run; with check, each one a job needs must be executable."""
    tools = {"mtsim": os.path.abspath(args.mtsim), "mttrain": os.path.abspath(args.mttrain)}
    for name in sorted({j["tool"] for j in jobs} if check else ()):
        if not os.access(tools[name], os.X_OK):
            raise SpecError(f"{name} not found at {tools[name]} (build it, or pass --{name})")
    return tools


def cmd_jobs(args):
    jobs = expand(args.specs)
    path = write_jobs(jobs, os.path.abspath(args.out), tool_paths(args, jobs, False))
    print(f"sweep.py: {len(jobs)} jobs in {path}")
    return 0


def cmd_run(args):
    out_dir = os.path.abspath(args.out)
    jobs = expand(args.specs)
    tools = tool_paths(args, jobs, True)
    write_jobs(jobs, out_dir, tools)
    pending = [(j["id"], command_line(j, out_dir, tools)) for j in jobs
               if not complete(out_dir, j["id"])]
    print(f"sweep.py: {len(pending)} of {len(jobs)} jobs to run (the rest are done)", flush=True)
    rc = run_parallel(pending, out_dir, args.jobs) if pending else 0
    done, total = collect(out_dir)
    return 0 if rc == 0 and done == total else 3


def cmd_collect(args):
    out_dir = os.path.abspath(args.out)
    if not os.path.exists(os.path.join(out_dir, "jobs.json")):
        raise SpecError(f"{out_dir}: no jobs.json (run 'sweep.py jobs' or 'run' first)")
    collect(out_dir)
    return 0


def parser():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    for name, fn, specs in (("jobs", cmd_jobs, True), ("run", cmd_run, True),
                            ("collect", cmd_collect, False)):
        s = sub.add_parser(name, help=fn.__doc__ or name)
        if specs:
            s.add_argument("specs", nargs="+", help="spec files (JSON)")
            s.add_argument("--mtsim", default=default_tool("mtsim"), help="mtsim binary")
            s.add_argument("--mttrain", default=default_tool("mttrain"),
                           help="mttrain binary (training groups)")
        s.add_argument("--out", required=True, help="sweep directory")
        if name == "run":
            s.add_argument("-j", "--jobs", type=int, default=2, help="jobs at once (default 2)")
        s.set_defaults(fn=fn)
    return p


def main():
    args = parser().parse_args()
    try:
        return args.fn(args)
    except SpecError as e:
        print(f"sweep.py: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
