#!/usr/bin/env python3
"""Tests of the area flow's fanout pass (scripts/area/fanout.py) on small netlists: after the
pass no driver sees more than MAX_FANOUT cell inputs, counted through the hierarchy, every
load still reads its original net through buffers only, loads it may not move stay, and
OpenSTA links the result.

  scripts/area/test_fanout.py [--liberty LIB]     (exit 0 all pass, 1 a failure)
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fanout  # noqa: E402

LIBERTY = "/usr/share/qflow/tech/osu018/osu018_stdcells.lib"


def netlist(loads, extra=""):
    """A module `top` whose register output q drives `loads` inverters and a submodule pin."""
    body = ["module sub(a);", "  input a;", "  wire a;", "endmodule",
            "module top(clk_i, d_i, y_o);", "  input clk_i;", "  wire clk_i;", "  input d_i;",
            "  wire d_i;", f"  output [{loads - 1}:0] y_o;", f"  wire [{loads - 1}:0] y_o;",
            "  wire \\q.r[0] ;", "  DFFPOSX1 _r_ (", "    .CLK(clk_i),", "    .D(d_i),",
            "    .Q(\\q.r[0] )", "  );", "  sub u_sub (", "    .a(\\q.r[0] )", "  );"]
    for i in range(loads):
        body += [f"  INVX1 _i{i}_ (", "    .A(\\q.r[0] ),", f"    .Y(y_o[{i}])", "  );"]
    return "\n".join(body + [extra, "endmodule", ""])


def hier_netlist(children, loads):
    """A module `top` whose register output q drives `children` instances of `sub` (each
    input drives `loads` inverters inside) and bit 1 of `pair`'s input (20 inverters)."""
    body = ["module sub(a, y_o);", "  input a;", "  wire a;", f"  output [{loads - 1}:0] y_o;",
            f"  wire [{loads - 1}:0] y_o;"]
    for i in range(loads):
        body += [f"  INVX1 _i{i}_ (", "    .A(a),", f"    .Y(y_o[{i}])", "  );"]
    body += ["endmodule", "module pair(b, z_o);", "  input [1:0] b;", "  wire [1:0] b;",
             "  output [19:0] z_o;", "  wire [19:0] z_o;"]
    for i in range(20):
        body += [f"  INVX1 _p{i}_ (", "    .A(b[1]),", f"    .Y(z_o[{i}])", "  );"]
    body += ["endmodule", "module top(clk_i, d_i);", "  input clk_i;", "  wire clk_i;",
             "  input d_i;", "  wire d_i;", "  wire \\q.r[0] ;", "  DFFPOSX1 _r_ (",
             "    .CLK(clk_i),", "    .D(d_i),", "    .Q(\\q.r[0] )", "  );"]
    for c in range(children):
        body += [f"  sub u_sub{c} (", "    .a(\\q.r[0] )", "  );"]
    body += ["  pair u_pair (", "    .b({ \\q.r[0] , 1'b0 })", "  );", "endmodule", ""]
    return "\n".join(body)


def graph(text):
    """Instance -> (cell, {pin: net}) of every cell in the module top."""
    top = text[text.index("module top"):]
    cells = {}
    for m in re.finditer(r"^  (\w+) (\\\S+ |\w+) \(\n((?:    \..*\n)+)  \);", top, re.M):
        pins = dict(re.findall(r"\.(\w+)\((.*?)\),?$", m.group(3), re.M))
        cells[m.group(2).strip()] = (m.group(1), {k: v.strip() for k, v in pins.items()})
    return cells


class FanoutTest(unittest.TestCase):
    def repair(self, text):
        with tempfile.TemporaryDirectory() as d:
            src, dst = os.path.join(d, "in.v"), os.path.join(d, "out.v")
            with open(src, "w") as f:
                f.write(text)
            added = fanout.repair(src, dst, LIBERTY)
            out = open(dst).read()
            link = subprocess.run(
                ["sta", "-no_init", "-exit", "/dev/stdin"], cwd=d, capture_output=True,
                text=True, input=f"read_liberty {LIBERTY}\nread_verilog out.v\nlink_design top\n"
                                 "report_checks\n")
            self.assertEqual(link.returncode, 0, link.stdout + link.stderr)
            self.assertNotRegex(link.stdout + link.stderr, r"(?m)^(Error|Warning)")
        return added, out

    def check_tree(self, loads):
        added, out = self.repair(netlist(loads))
        cells = graph(out)
        drives = {}
        for inst, (cell, pins) in cells.items():
            for pin, net in pins.items():
                if pin in ("A", "D", "CLK"):
                    drives[net] = drives.get(net, 0) + 1
        self.assertLessEqual(max(drives.values()), fanout.MAX_FANOUT)
        # Each inverter reads q through a chain of buffers only.
        source = {pins["Y"]: pins["A"] for cell, pins in cells.values() if cell == "BUFX4"}
        for i in range(loads):
            net = cells[f"_i{i}_"][1]["A"]
            while net in source:
                net = source[net]
            self.assertEqual(net, "\\q.r[0]")
        self.assertEqual(sum(1 for c, _ in cells.values() if c == "BUFX4"), added["top"])
        self.assertIn(".a(\\q.r[0] )", out)  # the submodule pin stays on q
        return added["top"]

    def test_small_net_is_left_alone(self):
        added, out = self.repair(netlist(fanout.MAX_FANOUT - 1))
        self.assertEqual(added, {"sub": 0, "top": 0})
        self.assertNotIn("BUFX4", out)

    def test_one_level(self):
        # 40 loads: three buffers of 13-14, the register drives them and the submodule.
        self.assertEqual(self.check_tree(40), 3)

    def test_two_levels(self):
        # 300 loads: 19 buffers, which need 2 more above them.
        self.assertEqual(self.check_tree(300), 21)

    def test_submodule_loads_count_through_the_hierarchy(self):
        # q drives 6 x 10 inverters inside `sub` and 2 buffers inside `pair` (its 20 loads):
        # one buffer per sub pin, the pair's bit beside the last, and q drives the 6.
        added, out = self.repair(hier_netlist(6, 10))
        self.assertEqual(added, {"sub": 0, "pair": 2, "top": 6})
        top = out[out.index("module top"):]
        source = {y.strip(): a.strip() for a, y in re.findall(
            r"BUFX4 \w+ \(\n    \.A\((.*?)\),\n    \.Y\((.*?)\)", top)}
        pins = re.findall(r"\.a\((.*?)\)\n", top) + re.findall(r"\.b\(\{ (\S+) ?, 1'b0 \}\)", top)
        self.assertEqual(len(pins), 7)
        for net in pins:
            net = net.strip()
            self.assertNotEqual(net, "\\q.r[0]")
            while net in source:
                net = source[net]
            self.assertEqual(net, "\\q.r[0]")
        self.assertEqual(len(set(source.values())), 1)  # q drives the 6 buffers alone

    def test_few_submodule_loads_stay(self):
        added, out = self.repair(hier_netlist(1, 10))
        self.assertEqual(added["top"], 0)
        self.assertIn(".a(\\q.r[0] )", out)

    def test_prefix_in_use_is_refused(self):
        with tempfile.NamedTemporaryFile("w", suffix=".v") as f:
            f.write(netlist(2, "  wire mt_fo_1_y;"))
            f.flush()
            with self.assertRaisesRegex(RuntimeError, "prefix"):
                fanout.repair(f.name, f.name + ".out", LIBERTY)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--liberty", default=LIBERTY)
    args, rest = ap.parse_known_args()
    LIBERTY = args.liberty
    unittest.main(argv=[sys.argv[0]] + rest)
