"""The storage arrays of the NI (rtl/storage_array.sv instances) for the area flow: their
parameters, where they sit, and their cost as flip-flops (the array synthesized as registers)
and as SRAM (bits x a bit-cell area). Used by scripts/area/area.py."""
import fcntl
import json
import os
import re
import subprocess

import fanout as fanout_mod
import sta as sta_mod

# Arrays up to this many bits are synthesized as flip-flops at their full width; wider ones
# at two narrow widths (one and two units) and taken linear in the width, since every column
# of a register array is the same logic beside a shared address decode.
EXACT_BITS = 16384
# Width unit of a narrow synthesis of an array written whole (one lane).
UNIT_BITS = 8
# What each array is, by the block that holds it and its instance name: its kind, what it
# holds, and the part of the NI it belongs to (area.py PARTS).
ROLES = {
    ("schedule_table", "u_banks"): ("table", "table banks (2 x DEPTH entries)", "multitree"),
    ("network_interface", "u_block_data"): ("ni_buffers", "block slots: one port's bank of "
                                            "received data", "conventional"),
    ("network_interface", "u_block_acc"): ("ni_buffers", "blocks being reduced: local partial "
                                           "sums", "reduction"),
    ("network_interface", "u_block_sums"): ("ni_buffers", "blocks being reduced: sums, until "
                                            "written back", "reduction"),
    ("reduction_sequencer", "u_queue"): ("ni_buffers", "reduction queue: blocks read, "
                                         "not yet reduced", "reduction"),
    ("interlock", "u_queue"): ("ni_buffers", "interlock queue: one bank of the Reduce blocks "
                               "decoded, not yet taken", "reduction"),
    ("interlock", "u_successor"): ("ni_buffers", "interlock: the next waiting Reduce block "
                                   "of each block's line, per block slot", "reduction"),
    ("free_list", "u_bank"): ("ni_buffers", "block slots: one bank of a free list (the free "
                              "slots, the free message records)", "conventional"),
    ("endpoint", "u_meta"): ("ni_buffers", "send NI buffer: burst lines' fields",
                             "conventional"),
    ("endpoint", "u_data"): ("ni_buffers", "send NI buffer: burst lines' payload",
                             "conventional"),
    ("send_channel", "u_bursts"): ("ni_buffers", "send channel: the bursts being read",
                                   "conventional"),
    ("ejection_decoder", "u_contexts"): ("ni_buffers", "ejection: each VC's message and place",
                                         "conventional"),
    ("dma_requester", "u_rows"): ("ni_buffers", "memory queue: one bank of requests",
                                  "conventional"),
    ("dma_requester", "u_done"): ("ni_buffers", "memory queue: each access in flight",
                                  "conventional"),
    ("dependency_tracker", "u_senders"): ("ni_buffers", "dependency scoreboard: the senders of "
                                          "each (op, flow) row", "multitree"),
    ("aggregation_window", "u_bitmaps"): ("aggregation", "switch aggregation window: each "
                                          "slot's arrival bitmap and lap", "aggregation"),
    ("aggregation_window", "u_sums"): ("aggregation", "switch aggregation window: each slot's "
                                       "partial sum", "aggregation"),
    ("dependency_tracker", "u_counts"): ("ni_buffers", "dependency scoreboard: the senders "
                                         "each (op, flow) row holds", "multitree"),
}


def param_value(v):
    if isinstance(v, int):
        return v
    return int(v, 2) if re.fullmatch(r"[01]+", v) else int(v)


def array_params(storage_json):
    """Black-box module name -> its storage_array parameters."""
    mods = json.load(open(storage_json))["modules"]
    return {name: {k: param_value(v) for k, v in m["parameter_default_values"].items()}
            for name, m in mods.items()}


def port_widths(p):
    addr = max(1, (p["DEPTH"] - 1).bit_length())
    lanes = p["WIDTH"] // p["LANE_W"]
    return {"we_i": p["WRITES"], "waddr_i": p["WRITES"] * addr, "wmask_i": p["WRITES"] * lanes,
            "wdata_i": p["WRITES"] * p["WIDTH"], "raddr_i": p["READS"] * addr,
            "re_i": p["READS"], "rdata_o": p["READS"] * p["WIDTH"]}


def instances(netlist, blackboxes):
    """(parent module, instance, black-box module) of every storage array in the netlist."""
    found, parent = [], None
    for line in open(netlist):
        m = re.match(r"^module\s+\\?(\S+?)\s*\(", line)
        if m:
            parent = m.group(1)
            continue
        m = re.match(r"^\s+\\?(\S+)\s+\\?(\S+)\s*\($", line)
        if m and m.group(1) in blackboxes:
            found.append((parent, m.group(2), m.group(1)))
    return found


def narrow_widths(p):
    """The widths the array is synthesized at, and its lane width at each."""
    if p["WIDTH"] * p["DEPTH"] <= EXACT_BITS:
        return [(p["WIDTH"], p["LANE_W"])]
    if p["WIDTH"] > p["LANE_W"]:
        return [(p["LANE_W"], p["LANE_W"]), (2 * p["LANE_W"], p["LANE_W"])]
    return [(UNIT_BITS, UNIT_BITS), (2 * UNIT_BITS, 2 * UNIT_BITS)]


def synth_array(ctx, p, width, lane_w, work):
    """Synthesizes storage_array as flip-flops, with the fanout pass the NI's netlist gets
    (scripts/area/fanout.py: without it one write-enable or address bit drives every row's
    flip-flops, and a read's select every column); returns (std cells with the pass's buffers,
    their area, netlist path)."""
    params = dict(p, WIDTH=width, LANE_W=lane_w)
    lines = ctx["read"](params)
    lines += ["synth -top storage_array", f"dfflibmap -liberty {ctx['liberty']}",
              ctx["abc"], "opt_clean",
              "tee -q -o stat.json stat -json", "setundef -zero", "splitnets", "opt_clean -purge",
              "write_verilog -noattr -noexpr -nohex -nodec netlist.v"]
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "synth.ys"), "w") as f:
        f.write("\n".join(lines) + "\n")
    ctx["run"](["yosys", "-q", "-l", "yosys.log", "synth.ys"], os.path.join(work, "run.log"), work)
    stat = ctx["stat"](os.path.join(work, "stat.json"))
    cells, area = 0, 0.0
    for typ, n in stat["design"]["num_cells_by_type"].items():
        cells += n
        area += n * ctx["areas"][typ]
    netlist = os.path.join(work, "netlist_fanout.v")
    buffers = sum(fanout_mod.repair(os.path.join(work, "netlist.v"), netlist,
                                    ctx["liberty"]).values())
    return cells + buffers, area + buffers * ctx["areas"][fanout_mod.BUFFER[0]], netlist


def array_timing(ctx, p, netlist, work):
    """Write setup, read delay (and a registered read's address and read-enable setup) of
    the array (ns)."""
    writes = "[get_ports {we_i* waddr_i* wmask_i* wdata_i*}]"
    tcl = sta_mod.tcl_load([ctx["liberty"]], netlist, "storage_array")
    tcl += sta_mod.sdc_text(sta_mod.LONG_NS, True)
    tcl += f"report_checks -from {writes} -to [all_registers -data_pins] -digits 4\n"
    if p["SYNC_READ"]:
        tcl += "report_checks -from [get_ports raddr_i*] -to [all_registers -data_pins] -digits 4\n"
        tcl += "report_checks -from [get_ports re_i*] -to [all_registers -data_pins] -digits 4\n"
        tcl += "report_checks -from [all_registers -clock_pins] -to [all_outputs] -digits 4\n"
    else:
        tcl += "report_checks -from [get_ports raddr_i*] -to [all_outputs] -digits 4\n"
        if p.get("WRITE_REG"):
            # The bypass of a registered write: from the write registers to the read data.
            tcl += "report_checks -from [all_registers -clock_pins] -to [all_outputs] -digits 4\n"
    path = os.path.join(work, "timing.tcl")
    with open(path, "w") as f:
        f.write(tcl)
    paths = sta_mod.parse_paths(sta_mod.run_sta(path, os.path.join(work, "timing.log"), work))
    delays = [sta_mod.LONG_NS - q["slack_ns"] for q in paths]
    expected = 4 if p["SYNC_READ"] else 3 if p.get("WRITE_REG") else 2
    if len(delays) != expected:
        raise RuntimeError(f"storage timing: expected paths missing in {work}/timing.log")
    # An asynchronous read's delay is its slower arc (from the address, or from the write
    # registers through the bypass).
    read_ns = delays[-1] if p["SYNC_READ"] else max(delays[1:])
    timing = {"sync_read": bool(p["SYNC_READ"]), "setup_ns": delays[0], "read_ns": read_ns}
    if p["SYNC_READ"]:
        timing["read_setup_ns"] = delays[1]
        timing["read_enable_setup_ns"] = delays[2]
    return timing


def flop_model(ctx, p):
    """Area of the array as flip-flops (linear in width past EXACT_BITS) and its timing.
    Cached by parameters and sources under ctx['cache'] (a sweep meets the same arrays
    again)."""
    key = ("storage_" + "_".join(f"{k}{p[k]}" for k in sorted(p)) + f"_abc{ctx['abc_tag']}" +
           f"_fo{fanout_mod.MAX_FANOUT}_src{ctx['sources']}")
    cache = os.path.join(ctx["cache"], key + ".json")
    os.makedirs(ctx["cache"], exist_ok=True)
    with open(cache + ".lock", "w") as lock:
        # Sweep points running at once meet the same arrays: one synthesizes, the rest wait.
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(cache):
            model = _synth_flop_model(ctx, p, key)
            with open(cache + ".tmp", "w") as f:
                json.dump(model, f, indent=1)
            os.replace(cache + ".tmp", cache)
    return json.load(open(cache))


def _synth_flop_model(ctx, p, key):
    points, timing = [], None
    for width, lane_w in narrow_widths(p):
        work = os.path.join(ctx["cache"], key, f"w{width}")
        cells, area, netlist = synth_array(ctx, p, width, lane_w, work)
        points.append((width, cells, area))
        timing = array_timing(ctx, p, netlist, work)
    if len(points) == 1:
        cells, area, method = points[0][1], points[0][2], "synthesized at full width"
    else:
        (w1, c1, a1), (w2, c2, a2) = points
        scale = (p["WIDTH"] - w1) / (w2 - w1)
        cells = round(c1 + (c2 - c1) * scale)
        area = a1 + (a2 - a1) * scale
        method = f"synthesized at widths {w1} and {w2}, linear in width"
    model = {"flop_cells": cells, "flop_area_um2": area, "flop_method": method,
             "timing": timing, "timing_width": points[-1][0]}
    return model


def classify(parent_hdl, inst):
    # An instance in a generate block is named after it (g_bank[3].u_rows): the role is the
    # instance's own name.
    return ROLES.get((parent_hdl, inst.split(".")[-1]),
                     ("ni_buffers", f"{parent_hdl}/{inst}", "conventional"))
