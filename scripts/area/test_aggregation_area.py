#!/usr/bin/env python3
"""ctest area_aggregation_flow (label rtl): runs the switch aggregation unit's area flow
(scripts/area/aggregation.py) on a small window and checks its report: both files exist; the
storage bits are what the parameters say; the window's logic is its own cells and four fp32
adders; the FO4 delay is that of a 0.18 um library; fmax agrees with the critical path and
the period in FO4; the unit of several flows is that many windows; an NI report given is put
beside it (a stand-in report of the fields the flow reads). Exit 0 when every check passes,
1 with the failed checks listed.

  test_aggregation_area.py --include DIR --out DIR
"""
import json
import math
import os
import subprocess
import sys

from cli import ArgumentParser  # scripts/area/cli.py

HERE = os.path.dirname(os.path.abspath(__file__))
# A small window of a switch of two flows: 5 children, 16 slots.
FLOWS, CHILDREN, SLOTS = 2, 5, 16
FLIT_BITS = 128  # format/ni_formats.json flit.data_bits, written out independently


# A stand-in for the NI flow's report.json (scripts/area/area.py): the fields the aggregation
# report reads, with values no real run has.
NI_STANDIN = {
    "config": {"nodes": 12, "lanes": 3}, "fmax_mhz": 123.0, "timing": {"min_period_ns": 8.13},
    "summary": {"ge_um2": 24.0, "parts": {"reduction": {
        "logic_um2": 4321.0, "storage_bits": 777, "storage_sram_um2": 4343.43}}},
    "blocks": [{"block": "fp32_adder", "instances": 3, "area_um2": 999.0}],
}


def ni_checks(rep, md):
    failed = []
    ni = rep.get("ni") or {}
    want = {"nodes": 12, "lanes": 3, "fmax_mhz": 123.0, "reduction_logic_um2": 4321.0,
            "reduction_storage_bits": 777, "fp32_adders": 3}
    for k, v in want.items():
        if ni.get(k) != v:
            failed.append(f"NI side {k}: {ni.get(k)}, the NI report has {v}")
    for text in ("NI-side reduction", "| storage bits | " + f"{rep['storage_bits']:,} | 777 |",
                 "123.0 (the whole NI)"):
        if text not in md:
            failed.append(f"report.md lacks {text!r}")
    return failed


def checks(rep):
    failed = []

    def check(ok, what):
        if not ok:
            failed.append(what)
    bits = SLOTS * (1 + CHILDREN) + SLOTS * FLIT_BITS  # bitmaps with their lap, partial sums
    check(rep["window"]["storage_bits"] == bits,
          f"window storage {rep['window']['storage_bits']} bits, expected {bits}")
    check(rep["storage_bits"] == FLOWS * bits, "the unit's storage is not FLOWS windows'")
    blocks = {b["block"]: b for b in rep["blocks"]}
    check(blocks.get("fp32_adder", {}).get("instances") == FLIT_BITS // 32,
          "not one fp32 adder per element of a flit")
    logic = sum(b["area_um2"] for b in rep["blocks"])
    check(logic > 0 and math.isclose(rep["window"]["logic_um2"], logic),
          "window logic is not the sum of its blocks")
    check(math.isclose(rep["logic_um2"], FLOWS * logic), "the unit's logic is not FLOWS windows'")
    check(math.isclose(rep["gate_equivalents"], rep["logic_um2"] / rep["ge_um2"]),
          "gate equivalents are not the logic over a NAND2X1")
    t = rep["timing"]
    check(0.05 < t["fo4_ns"] < 0.2, f"FO4 of {t['fo4_ns']} ns is not a 0.18 um library's")
    check(math.isfinite(t["fmax_mhz"]) and t["fmax_mhz"] > 0, "fmax not positive")
    check(abs(t["min_period_ns"] - t["critical_path"]["delay_ns"]) < 0.01,
          "fmax's period is not the critical path's delay")
    check(math.isclose(rep["critical_path_fo4"], t["min_period_ns"] / t["fo4_ns"]),
          "the period in FO4 is not the period over FO4")
    for a in rep["storage"]:
        check(a["write_ports"] == 1 and a["read_ports"] <= 2,
              f"{a['array']}: {a['write_ports']} write and {a['read_ports']} read ports")
    return failed


def main(argv):
    p = ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--include", required=True)
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    ni_report = os.path.join(args.out, "ni_standin.json")
    with open(ni_report, "w") as f:
        json.dump(NI_STANDIN, f)
    cmd = [sys.executable, os.path.join(HERE, "aggregation.py"), "--include", args.include,
           "--out", args.out, "--flows", str(FLOWS), "--children", str(CHILDREN), "--slots",
           str(SLOTS), "--ni-report", ni_report, "--quiet"]
    if subprocess.run(cmd).returncode != 0:
        print("test_aggregation_area: the flow failed", file=sys.stderr)
        return 1
    md = os.path.join(args.out, "report.md")
    if not os.path.isfile(md):
        print(f"test_aggregation_area: no {md}", file=sys.stderr)
        return 1
    rep = json.load(open(os.path.join(args.out, "report.json")))
    failed = checks(rep) + ni_checks(rep, open(md).read())
    for f in failed:
        print(f"test_aggregation_area: {f}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
