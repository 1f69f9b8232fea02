"""OpenSTA for the area flow (scripts/area/area.py): the SDC, the Tcl scripts, their parsing,
and the Liberty model of the storage arrays that the netlist keeps as black boxes."""
import re
import subprocess

# A period long enough that every path meets it: a path's delay is this minus its slack.
LONG_NS = 1000.0
# A stage driving more than this (pF; 50 flip-flop D pins) is a high-fanout net.
HEAVY_PF = 0.5
# Input pin capacitance of a memory model (pF): a DFFPOSX1 D pin of the OSU 0.18 um cells.
MACRO_PIN_PF = 0.01


def sdc_text(period_ns, has_clock):
    """Constraints: one clock on clk_i (a virtual one for a block without clock), inputs
    arriving at the clock edge, outputs needed at the next one, ideal clock network."""
    src = "[get_ports clk_i]" if has_clock else ""
    ins = "[delete_from_list [all_inputs] [get_ports clk_i]]" if has_clock else "[all_inputs]"
    return (f"create_clock -name clk -period {period_ns:.4f} {src}\n"
            f"set_input_delay 0 -clock clk {ins}\n"
            "set_output_delay 0 -clock clk [all_outputs]\n")


def tcl_load(liberties, netlist, top):
    lines = [f"read_liberty {lib}" for lib in liberties]
    lines += [f"read_verilog {netlist}", f"link_design {top}"]
    return "\n".join(lines) + "\n"


def tcl_bisect(lo_ns, hi_ns, steps, has_clock):
    """Tcl that bisects the shortest period with no negative slack and prints it."""
    sdc = sdc_text(0, has_clock).replace("0.0000", "$p")
    return f"""proc mt_slack {{p}} {{
{sdc}  return [expr {{[sta::worst_slack_cmd max] * 1e9}}]
}}
set lo {lo_ns}
set hi {hi_ns}
for {{set i 0}} {{$i < {steps}}} {{incr i}} {{
  set p [expr {{($lo + $hi) / 2.0}}]
  if {{[mt_slack $p] >= 0}} {{ set hi $p }} else {{ set lo $p }}
}}
puts "MT_FMAX_PERIOD $hi"
"""


def run_sta(script_path, log_path, cwd):
    with open(log_path, "w") as f:
        res = subprocess.run(["nice", "-n", "15", "sta", "-no_init", "-exit", script_path],
                             stdout=f, stderr=subprocess.STDOUT, cwd=cwd)
    text = open(log_path).read()
    if res.returncode != 0 or re.search(r"^Error", text, re.M):
        raise RuntimeError(f"sta failed; see {log_path}")
    return text


def parse_paths(text):
    """Every `report_checks` path in text: start, end, arrival, required, slack (ns)."""
    paths = []
    for block in re.split(r"(?=^Startpoint: )", text, flags=re.M)[1:]:
        start = re.search(r"^Startpoint: (\S+)(.*)$", block, re.M)
        end = re.search(r"^Endpoint: (\S+)(.*)$", block, re.M)
        arrival = re.search(r"^\s*([-\d.]+)\s+data arrival time", block, re.M)
        required = re.search(r"^\s*([-\d.]+)\s+data required time", block, re.M)
        slack = re.search(r"^\s*([-\d.]+)\s+slack \((MET|VIOLATED)\)", block, re.M)
        if not (start and end and arrival and slack):
            continue
        paths.append({
            "start": start.group(1), "start_kind": start.group(2).strip(" ()"),
            "end": end.group(1), "end_kind": end.group(2).strip(" ()"),
            "arrival_ns": float(arrival.group(1)),
            "required_ns": float(required.group(1)) if required else None,
            "slack_ns": float(slack.group(1)),
            "cells": len(re.findall(r"^\s*(?:[\d.]+\s+)?[-\d.]+\s+[-\d.]+ [\^v] \S+/\S+ \(",
                                    block, re.M)),
        })
        paths[-1].update(heavy_stages(block))
    return paths


def heavy_stages(block):
    """Stages of a path (reported with -fields cap) whose driver sees more than HEAVY_PF:
    high-fanout nets the fanout pass could not split (loads it may not move; docs/area.md)."""
    n, ns = 0, 0.0
    for m in re.finditer(r"^\s*([\d.]+)\s+([-\d.]+)\s+[-\d.]+ [\^v] \S+", block, re.M):
        if float(m.group(1)) > HEAVY_PF:
            n += 1
            ns += float(m.group(2))
    return {"heavy_stages": n, "heavy_ns": ns}


def _bus(name, width, direction, body):
    if width == 1:
        return f"    pin ({name}) {{\n      direction : {direction};\n{body}    }}\n"
    return (f"    bus ({name}) {{\n      bus_type : bus{width};\n      direction : {direction};\n"
            f"{body}    }}\n")


def _related(name, width):
    """A related pin: the port, or all its bits (OpenSTA pairs bus arcs bit by bit)."""
    return name if width == 1 else " ".join(f"{name}[{i}]" for i in range(width))


def _arc(related, kind, value):
    if kind in ("setup_rising",):
        tables = (f"        rise_constraint(scalar) {{ values(\"{value:.4f}\"); }}\n"
                  f"        fall_constraint(scalar) {{ values(\"{value:.4f}\"); }}\n")
    else:
        tables = (f"        cell_rise(scalar) {{ values(\"{value:.4f}\"); }}\n"
                  f"        cell_fall(scalar) {{ values(\"{value:.4f}\"); }}\n"
                  "        rise_transition(scalar) { values(\"0.1000\"); }\n"
                  "        fall_transition(scalar) { values(\"0.1000\"); }\n")
    sense = "" if kind != "combinational" else "        timing_sense : non_unate;\n"
    return (f"      timing() {{\n        related_pin : \"{related}\";\n"
            f"        timing_type : {kind};\n{sense}{tables}      }}\n")


def _read_ports(ports, reads, delay):
    """Asynchronous reads: each read port's data bits after that port's address bits only."""
    width, addr = ports["rdata_o"] // reads, ports["raddr_i"] // reads
    if reads == 1:
        return _arc(_related("raddr_i", addr), "combinational", delay)
    groups = []
    for r in range(reads):
        related = " ".join(f"raddr_i[{r * addr + i}]" for i in range(addr))
        groups.append(f"      pin (\"rdata_o[{(r + 1) * width - 1}:{r * width}]\") {{\n"
                      + _arc(related, "combinational", delay) + "      }\n")
    return "".join(groups)


def macro_cell(name, ports, timing):
    """A Liberty cell for one storage array: writes (and a registered read's address) set up
    to clk_i, read data after clk_i (registered read) or after the address (asynchronous)."""
    cap = f"      capacitance : {MACRO_PIN_PF};\n"
    out = [f"  cell ({name}) {{\n    area : 0;\n",
           f"    pin (clk_i) {{\n      direction : input;\n      clock : true;\n{cap}    }}\n"]
    setup = _arc("clk_i", "setup_rising", timing["setup_ns"])
    for port in ("we_i", "waddr_i", "wmask_i", "wdata_i"):
        out.append(_bus(port, ports[port], "input", cap + setup))
    if timing["sync_read"]:
        out.append(_bus("raddr_i", ports["raddr_i"], "input",
                        cap + _arc("clk_i", "setup_rising", timing["read_setup_ns"])))
        out.append(_bus("re_i", ports["re_i"], "input",
                        cap + _arc("clk_i", "setup_rising", timing["read_enable_setup_ns"])))
        out.append(_bus("rdata_o", ports["rdata_o"], "output",
                        _arc("clk_i", "rising_edge", timing["read_ns"])))
    else:  # (an asynchronous read has no use for its read enables)
        out.append(_bus("raddr_i", ports["raddr_i"], "input", cap))
        out.append(_bus("re_i", ports["re_i"], "input", cap))
        out.append(_bus("rdata_o", ports["rdata_o"], "output",
                        _read_ports(ports, timing["reads"], timing["read_ns"])))
    out.append("  }\n")
    return "".join(out)


def macro_library(cells):
    """cells: [(name, ports {port: width}, timing)] -> the text of a Liberty library."""
    widths = sorted({w for _, ports, _ in cells for w in ports.values() if w > 1})
    head = ["library (mt_storage_arrays) {\n", "  delay_model : table_lookup;\n",
            "  time_unit : \"1ns\";\n  voltage_unit : \"1V\";\n  current_unit : \"1uA\";\n",
            "  capacitive_load_unit (1,pf);\n  pulling_resistance_unit : \"1kohm\";\n",
            "  leakage_power_unit : \"1nW\";\n",
            "  nom_process : 1;\n  nom_voltage : 1.8;\n  nom_temperature : 25;\n"]
    for edge in ("rise", "fall"):  # the thresholds of the OSU 0.18 um library
        head.append(f"  input_threshold_pct_{edge} : 50;\n  output_threshold_pct_{edge} : 50;\n"
                    f"  slew_lower_threshold_pct_{edge} : 20;\n"
                    f"  slew_upper_threshold_pct_{edge} : 80;\n")
    for w in widths:
        head.append(f"  type (bus{w}) {{\n    base_type : array;\n    data_type : bit;\n"
                    f"    bit_width : {w};\n    bit_from : {w - 1};\n    bit_to : 0;\n"
                    "    downto : true;\n  }\n")
    body = [macro_cell(n, p, t) for n, p, t in cells]
    return "".join(head + body) + "}\n"
