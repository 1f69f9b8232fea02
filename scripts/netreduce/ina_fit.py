#!/usr/bin/env python3
"""In-network aggregation (ina) against the endpoint all-reduces on mtsim, and the NetReduce
appendix's alpha-beta models (../shared/seeds/002_cc2f5659e8e87c3f.txt) fitted to the runs:
docs/results.md, "In-network aggregation".

  ina_fit.py --mtsim build/bin/mtsim --mtc build/bin/mtc \
      [--networks fattree:4x2,fattree:8x2] [--sizes 64KiB,256KiB,1MiB,4MiB]

For each network and size it runs ina, multitree, ring and ps (message-based flow control,
the default configuration; ina with the --ina-width its first switches need to keep up, as
printed). Per network it fits one alpha and one link bandwidth B to the ina and ring runs
together, by least squares on the models' forms: the in-network aggregation of App. A,
T = alpha + M / B, and the flat ring of Eq. (1), T = 2 (P - 1) alpha + 2 (P - 1) M / (P B),
with P the nodes; then `mtc model` evaluates both with the fitted values beside each run.
Prints Markdown tables. Exit codes: 0 ok, 2 bad arguments or a run that failed.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ALGORITHMS = ["ina", "multitree", "ring", "ps"]


def die(message):
    print(f"ina_fit.py: {message}", file=sys.stderr)
    sys.exit(2)


def size_bytes(text):
    units = {"KiB": 1 << 10, "MiB": 1 << 20}
    for suffix, scale in units.items():
        if text.endswith(suffix):
            return int(text[: -len(suffix)]) * scale
    return int(text)


def run_mtsim(mtsim, network, algorithm, size, extra):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "run.json")
        args = [mtsim, "-q", "-t", network, "-a", algorithm, "-b", size, "--json", path] + extra
        done = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0 or not os.path.exists(path):
            die(f"{' '.join(args)} failed: {done.stderr.strip()}")
        with open(path) as f:
            run = json.load(f)
    if not run["verified"]:
        die(f"{network} {algorithm} {size} did not verify")
    return run


def ina_width(network):
    """Adder elements a cycle a first switch of the fat-tree needs: 4 per child."""
    kind, shape = network.split(":")
    children = int(shape.split("x")[0]) if kind == "fattree" else 4
    return max(16, 4 * children)


def fit(rows, p):
    """Least squares for (alpha, beta) over [(kind, M, T)]: T = a_k alpha + b_k M beta."""
    sxx = sxy = syy = sxt = syt = 0.0
    for kind, m, t in rows:
        x, y = (1.0, m) if kind == "ina" else (2.0 * (p - 1), 2.0 * (p - 1) * m / p)
        sxx, sxy, syy = sxx + x * x, sxy + x * y, syy + y * y
        sxt, syt = sxt + x * t, syt + y * t
    det = sxx * syy - sxy * sxy
    alpha = (sxt * syy - syt * sxy) / det
    beta = (sxx * syt - sxy * sxt) / det
    return alpha, beta


def model(mtc, p, m, alpha_us, b_gbs):
    args = [mtc, "model", "-P", str(p), "-n", "1", "-b", str(m), "--b-inter", f"{b_gbs:.6f}",
            "--alpha", f"{alpha_us:.6f}", "--format", "json"]
    out = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if out.returncode != 0:
        die(f"{' '.join(args)} failed: {out.stderr.strip()}")
    models = json.loads(out.stdout)["models"]
    return {"ina": models["ina"]["microseconds"], "ring": models["flat_ring"]["microseconds"]}


def network_table(args, network, sizes):
    runs = {}
    for size in sizes:
        for algorithm in ALGORITHMS:
            extra = ["--ina-width", str(ina_width(network))] if algorithm == "ina" else []
            runs[(algorithm, size)] = run_mtsim(args.mtsim, network, algorithm, size, extra)
    p = runs[("ina", sizes[0])]["nodes"]
    rows = [(a, size_bytes(s), runs[(a, s)]["cycles"] / 1000.0)  # 1 GHz: microseconds
            for a in ("ina", "ring") for s in sizes]
    alpha_us, beta = fit(rows, p)
    b_gbs = 1e-3 / beta  # beta in microseconds per byte
    print(f"\n{network}: P = {p}; fitted to its ina and ring runs: alpha = {alpha_us:.3f} us, "
          f"B = {b_gbs:.2f} GB/s; ina with --ina-width {ina_width(network)}\n")
    print("| size | algorithm | cycles | GB/s | of M/b | model (us) | mtsim (us) | model error |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for size in sizes:
        m = size_bytes(size)
        predicted = model(args.mtc, p, m, alpha_us, b_gbs)
        for algorithm in ALGORITHMS:
            run = runs[(algorithm, size)]
            us = run["cycles"] / 1000.0
            of_mb = run["cut_bound_cycles"] / run["cycles"]
            pred = predicted.get(algorithm)
            model_text = f"{pred:.1f}" if pred is not None else "-"
            error = f"{100.0 * (pred - us) / us:+.1f}%" if pred is not None else "-"
            print(f"| {size} | {algorithm} | {run['cycles']} | {run['bandwidth_gbps']:.2f} | "
                  f"{100.0 * of_mb:.1f}% | {model_text} | {us:.1f} | {error} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mtsim", required=True)
    parser.add_argument("--mtc", required=True)
    parser.add_argument("--networks", default="fattree:4x2,fattree:8x2")
    parser.add_argument("--sizes", default="64KiB,256KiB,1MiB,4MiB")
    args = parser.parse_args()
    for network in args.networks.split(","):
        network_table(args, network, args.sizes.split(","))


if __name__ == "__main__":
    main()
