#!/usr/bin/env python3
"""ctest area_flow_small (labels rtl, slow): runs the area flow (scripts/area/area.py) on a
small NI and checks its report: both files exist; the blocks' areas add up to the logic
total and to Yosys's own hierarchical total; the storage bits are what the parameters say;
fmax is finite and positive and agrees with the critical path; every block below the top
has a critical path. Exit 0 when every check passes, 1 with the failed checks listed.

  test_area.py --include DIR --mtc PATH --out DIR
"""
import json
import math
import os
import subprocess
import sys

from cli import ArgumentParser  # scripts/area/cli.py


HERE = os.path.dirname(os.path.abspath(__file__))
# The small NI: 16 nodes, two ports, two lanes, a two-burst NI buffer, few slots and queues.
SMALL = ["--nodes", "16", "--k", "2", "--lanes", "2", "--buffer-flits", "32", "--blocks", "4",
         "--reducing", "2", "--requests", "16"]


# The MultiTree-specific blocks (rtl/), written out independently of area.py's PARTS.
MULTITREE_BLOCKS = {"schedule_table", "image_crc32", "timestep_counter", "lockstep_counter",
                    "decoder", "dependency_tracker"}


def expected_bits(p):
    """Storage bits of the NI from its parameters (rtl/*.sv, written out independently)."""
    node_w, k = p["NODE_W"], p["K"]
    # op, flow, parent, children, step, address, size, and a route (port, neighbour) per send
    entry = 2 + node_w * (2 + k) + p["STEP_W"] + 32 + 32 + k * (3 + 1)
    table = 2 * p["DEPTH"] * entry
    block = 256 * 8
    slots = k * p["BLOCKS"]  # BLOCKS is a port's
    slot = max(1, (slots - 1).bit_length())
    place = max(1, (p["BLOCKS"] - 1).bit_length())  # a slot's place among its port's
    msg = max(1, (p.get("MESSAGES", 32) - 1).bit_length())  # a message's record
    # A send: message, next, eject, dest, tree, op, addr, bytes; a burst being read: the send
    # but its address, and the burst's descriptor (has_head, head address, packet bytes and
    # flits, last flit, ends, last bytes, sub-packet phase); a burst in the NI buffer: the same
    # and its data.
    send = 1 + 3 + 3 + 2 * node_w + 2 + 32 + 32
    descriptor = 1 + 32 + (256).bit_length() + (256 // 16 + 1).bit_length() + 4 + 1 + 5 + 4
    # The blocks' data (a bank per port), the local partial sums and the sums (a row per block
    # being reduced).
    bufs = slots * block + 2 * p["REDUCING"] * block
    bufs += k * p["LINES"] * (send - 32 + descriptor + block)
    bufs += k * p["LINES"] * (send - 32 + descriptor)
    # Each ejection port's context per VC (4 VCs): message key, block address, bytes left,
    # message bytes, flits of the block so far (the block's slot, a packet's entry and the
    # message's record are in registers).
    bufs += k * 4 * ((2 + 2 * node_w) + 32 + 2 * 32 + (block // 128).bit_length())
    # The memory queue: each access (write, kind, tag, address, length) in its bank, and all
    # but its write flag again in the FIFO of accesses in flight; a block's tag is its record
    # and slot.
    tag = max(msg + slot, max(1, (k - 1).bit_length()))
    bufs += p["REQUESTS"] * ((1 + 2 + tag + 32 + 9) + (2 + tag + 32 + 9))
    # The free lists (a port's slot places, a record number per record), the reduction queue,
    # and the interlock's queue and successor array of a place per slot number (record, slot,
    # address, length).
    bufs += slots * place + p.get("MESSAGES", 32) * msg
    bufs += (p["REDUCING"] + 2 * (1 << slot)) * (msg + slot + 32 + 9)
    # The dependency scoreboard: a row per (op, flow) of SLOTS node ids (4 unless the flow sets
    # it, rtl/network_interface.sv), and its fill count (0..SLOTS).
    slots = p.get("SLOTS", 4)
    bufs += 2 * p["FLOWS"] * (slots * node_w + slots.bit_length())
    return table, bufs


def close(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))


def contract_checks(rep):
    """The top-level numbers docs/area.md names, and the three parts, add up."""
    fails = []
    keys = ("fmax_mhz", "control_um2", "datapath_um2", "multitree_logic_um2", "table_sram_um2",
            "gate_equivalents")
    missing = [k for k in keys if not isinstance(rep.get(k), (int, float))]
    if missing:
        return [f"report.json lacks the top-level numbers {missing}"]
    s = rep["summary"]
    if not close(rep["control_um2"] + rep["datapath_um2"], s["logic_um2"]):
        fails.append(f"control {rep['control_um2']} + datapath {rep['datapath_um2']} is not the "
                     f"logic {s['logic_um2']}")
    parts = s["parts"]
    if not close(sum(p["logic_um2"] for p in parts.values()), s["logic_um2"]):
        fails.append(f"the three parts' logic does not add up to {s['logic_um2']}")
    mt = sum(b["area_um2"] for b in rep["blocks"] if b["block"] in MULTITREE_BLOCKS)
    if not (mt > 0 and close(rep["multitree_logic_um2"], mt)):
        fails.append(f"MultiTree logic {rep['multitree_logic_um2']}, its blocks add up to {mt}")
    if not close(rep["table_sram_um2"], s["table"]["sram_um2"]) or rep["table_sram_um2"] <= 0:
        fails.append(f"table SRAM {rep['table_sram_um2']}, the storage rows say "
                     f"{s['table']['sram_um2']}")
    headline = s["logic_flat_um2"] if s["logic_flat_um2"] is not None else s["logic_um2"]
    if not close(rep["gate_equivalents"] * 24.0, headline):
        fails.append(f"{rep['gate_equivalents']} GE is not {headline} um^2 / 24 (NAND2X1)")
    if sum(p["storage_bits"] for p in parts.values()) != sum(a["bits"] for a in rep["storage"]):
        fails.append("the three parts' storage does not add up to the storage rows")
    return fails


def checks(rep, out):
    fails = []
    s = rep["summary"]
    if not (os.path.isfile(os.path.join(out, "report.json")) and
            os.path.isfile(os.path.join(out, "report.md"))):
        fails.append("report.json or report.md missing")
    block_sum = sum(b["area_um2"] for b in rep["blocks"])
    if abs(block_sum - s["logic_um2"]) > 1e-6 * max(1.0, block_sum):
        fails.append(f"blocks add up to {block_sum}, the total says {s['logic_um2']}")
    synthesized = block_sum - s["fanout_buffers_um2"]
    if s["logic_yosys_um2"] is None or abs(synthesized - s["logic_yosys_um2"]) > 0.01 * block_sum:
        fails.append(f"blocks add up to {synthesized} without the fanout buffers, Yosys says "
                     f"{s['logic_yosys_um2']}")
    table, bufs = expected_bits(rep["config"]["params"])
    if s["table"]["bits"] != table or s["ni_buffers"]["bits"] != bufs:
        fails.append(f"storage bits {s['table']['bits']}/{s['ni_buffers']['bits']}, "
                     f"parameters say {table}/{bufs}")
    fails += contract_checks(rep)
    t = rep["timing"]
    if not (math.isfinite(t["fmax_mhz"]) and t["fmax_mhz"] > 0):
        fails.append(f"fmax {t['fmax_mhz']} is not finite and positive")
    elif abs(t["min_period_ns"] - t["critical_path"]["delay_ns"]) > 0.01:
        fails.append(f"fmax period {t['min_period_ns']} ns but critical path "
                     f"{t['critical_path']['delay_ns']} ns")
    # Every block but the top's own logic (the top is the whole NI, timed above).
    missing = [b["block"] for b in rep["blocks"]
               if b["critical_path"] is None and b["block"] != "network_interface"]
    if missing:
        fails.append(f"blocks without a critical path: {missing}")
    return fails


def main(argv):
    p = ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--include", required=True, help="directory of ni_formats.svh")
    p.add_argument("--mtc", required=True, help="the mtc binary")
    p.add_argument("--out", required=True, help="output directory")
    args = p.parse_args(argv)
    cmd = [sys.executable, os.path.join(HERE, "area.py"), "--quiet", "--include", args.include,
           "--mtc", args.mtc, "--out", args.out] + SMALL
    res = subprocess.run(cmd)
    if res.returncode != 0:
        print(f"test_area: the flow failed (exit {res.returncode})", file=sys.stderr)
        return 1
    rep = json.load(open(os.path.join(args.out, "report.json")))
    fails = checks(rep, args.out)
    for f in fails:
        print(f"test_area: FAIL {f}", file=sys.stderr)
    if not fails:
        print(f"test_area: ok (logic {rep['summary']['logic_um2']:.0f} um^2, "
              f"fmax {rep['timing']['fmax_mhz']:.1f} MHz)")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
