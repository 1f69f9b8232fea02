#!/usr/bin/env python3
"""The sign of Eq. (5) of the NetReduce appendix (../shared/seeds/002_cc2f5659e8e87c3f.txt),
T_fr - T_nh, checked by simulation: docs/results.md, "The sign of Eq. (5) on mtsim".

  sign_check.py --mtsim build/bin/mtsim --mtc build/bin/mtc [--machines 2] [--per-machine 4]
      [--latencies 150,300,600,1272] [--size 1MiB] [--doc docs/results.md]

The network: machines of n learners, each learner one link to its machine's switch (latency
150 cycles, the default), each machine's switch one link to a root switch, that uplink of the
latency given. A learner's NI has one port pair (16 bytes a cycle, B_intra) on every such
network; what slows an uplink below it is its credit loop: one message (one VC) over a link
of latency L moves at most vc_depth flits per round trip of about 2 L cycles. So B_inter, the
rate one message gets across the machines, and alpha, its latency, are fitted per uplink
latency from `ina` on two machines of one learner (T = alpha + M / B_inter, at M and M / 4).
Then the flat ring and hierarchical NetReduce (netreduce) run on the machines at M, and
`mtc model` evaluates Eq. (5) with P, n, M, B_intra = 16, the fitted B_inter and alpha.
Prints a Markdown table; --doc replaces the generated block netreduce_sign in that file.
Exit codes: 0 ok, 2 bad arguments or a run that failed.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

B_INTRA = 16.0  # bytes a cycle: a learner's NI port pair


def die(message):
    print(f"sign_check.py: {message}", file=sys.stderr)
    sys.exit(2)


def size_bytes(text):
    for suffix, scale in {"KiB": 1 << 10, "MiB": 1 << 20}.items():
        if text.endswith(suffix):
            return int(text[: -len(suffix)]) * scale
    return int(text)


def machines_file(directory, machines, per_machine, latency):
    """machines x per_machine learners; uplinks of `latency` cycles to a root switch."""
    nodes = machines * per_machine
    links = [{"a": f"n{i}", "b": f"s{i // per_machine}"} for i in range(nodes)]
    links += [{"a": f"s{k}", "b": f"s{machines}", "latency": latency} for k in range(machines)]
    path = os.path.join(directory, f"m{machines}x{per_machine}_up{latency}.json")
    with open(path, "w") as f:
        json.dump({"nodes": list(range(nodes)), "switches": list(range(machines + 1)),
                   "links": links}, f)
    return path


def cycles(mtsim, path, algorithm, size):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        args = [mtsim, "-q", "-t", f"file:{path}", "-a", algorithm, "-b", str(size), "--json", out]
        done = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0 or not os.path.exists(out):
            die(f"{' '.join(args)} failed: {done.stderr.strip()}")
        with open(out) as f:
            run = json.load(f)
    if not run["verified"]:
        die(f"{path} {algorithm} {size} did not verify")
    return run["cycles"]


def eq5_cycles(mtc, p, n, m, b_inter, alpha):
    """Eq. (5) in cycles: at 1 GHz a byte a cycle is 1 GB/s and a microsecond 1000 cycles."""
    args = [mtc, "model", "-P", str(p), "-n", str(n), "-b", str(m), "--b-intra", f"{B_INTRA:g}",
            "--b-inter", f"{b_inter:.6g}", "--alpha", f"{alpha / 1000:.6g}", "-f", "json"]
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        die(f"{' '.join(args)} failed: {done.stdout.strip()} {done.stderr.strip()}")
    eq6 = json.loads(done.stdout)["eq6"]
    return eq6["eq5_microseconds"] * 1000, eq6["eq6_ratio"], eq6["eq5_exact_ratio"]


def rows(args, directory):
    m = size_bytes(args.size)
    p = args.machines * args.per_machine
    out = []
    for latency in args.latencies:
        pair = machines_file(directory, 2, 1, latency)
        big, small = cycles(args.mtsim, pair, "ina", m), cycles(args.mtsim, pair, "ina", m // 4)
        b_inter = (m - m // 4) / (big - small)
        alpha = big - m / b_inter
        path = machines_file(directory, args.machines, args.per_machine, latency)
        ring = cycles(args.mtsim, path, "ring", m)
        nr = cycles(args.mtsim, path, "netreduce", m)
        eq5, eq6_ratio, exact = eq5_cycles(args.mtc, p, args.per_machine, m, b_inter, alpha)
        out.append({"latency": latency, "b_inter": b_inter, "alpha": alpha,
                    "ratio": B_INTRA / b_inter, "ring": ring, "netreduce": nr, "eq5": eq5,
                    "eq6_ratio": eq6_ratio, "exact": exact})
    return out


def table(args, data):
    p = args.machines * args.per_machine
    lines = [f"{args.machines} machines of {args.per_machine} learners (P = {p}), {args.size} fp32; "
             f"2P/(P-2) = {data[0]['eq6_ratio']:.3g}, Eq. (5)'s exact ratio "
             f"2(n-1)P/(n(P-2)) = {data[0]['exact']:.3g}.", "",
             "| uplink latency (cycles) | B_inter fitted (bytes/cycle) | alpha fitted (cycles) "
             "| B_intra / B_inter | Eq. (5), T_fr - T_nh (cycles) | Eq. (5) says | flat ring "
             "(cycles) | netreduce (cycles) | simulated T_fr - T_nh | faster on mtsim |",
             "| ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- |"]
    for r in data:
        says = "netreduce" if r["eq5"] > 0 else "flat ring"
        faster = "netreduce" if r["netreduce"] < r["ring"] else "flat ring"
        lines.append(f"| {r['latency']} | {r['b_inter']:.2f} | {r['alpha']:,.0f} | "
                     f"{r['ratio']:.2f} | {r['eq5']:,.0f} | {says} | {r['ring']:,} | "
                     f"{r['netreduce']:,} | {r['ring'] - r['netreduce']:,} | {faster} |")
    return "\n".join(lines)


def write_doc(path, text):
    with open(path) as f:
        doc = f.read()
    begin, end = "<!-- BEGIN GENERATED netreduce_sign -->", "<!-- END GENERATED netreduce_sign -->"
    pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.S)
    if not pattern.search(doc):
        die(f"{path}: no block {begin} ... {end}")
    doc = pattern.sub(lambda _: f"{begin}\n{text}\n{end}", doc)
    with open(path, "w") as f:
        f.write(doc)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mtsim", required=True)
    ap.add_argument("--mtc", required=True)
    ap.add_argument("--machines", type=int, default=2)
    ap.add_argument("--per-machine", type=int, default=4)
    ap.add_argument("--latencies", default="150,300,600,1272")
    ap.add_argument("--size", default="1MiB")
    ap.add_argument("--doc")
    args = ap.parse_args()
    try:
        args.latencies = [int(x) for x in args.latencies.split(",")]
    except ValueError:
        die(f"--latencies {args.latencies}: a comma-separated list of cycles")
    if args.machines < 2 or args.per_machine < 1:
        die("--machines at least 2, --per-machine at least 1")
    with tempfile.TemporaryDirectory() as directory:
        text = table(args, rows(args, directory))
    print(text)
    if args.doc:
        write_doc(args.doc, text)


if __name__ == "__main__":
    main()
