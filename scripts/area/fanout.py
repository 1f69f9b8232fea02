"""Fanout repair of the mapped netlist for the area flow (scripts/area/area.py).

Yosys 0.23 has no fanout repair, and ABC's `buffer -p` only buffers nets inside the
combinational logic it maps: a register's output and a module's input reach ABC as primary
inputs and stay single nets. A select register in front of a 2048-bit datapath then drives
thousands of pins from one minimum-size flip-flop, and OpenSTA times that stage at tens of
ns: a number about the flow, not the design. This pass does what a physical flow's repair
step does, in the simplest form: in every module, a net that drives more than MAX_FANOUT
standard-cell inputs gets a balanced tree of BUFFER cells, so that no driver (the original
one or a buffer) sees more than MAX_FANOUT of them. The buffers are real cells: the flow adds
their area to the block they are in.

Loads it cannot move stay on the original net: an input of a submodule or a storage array
(the submodule repairs its own input nets), an `assign` and an output port.

The netlist is Yosys's `write_verilog -noattr -noexpr` output: one instance pin per line.
"""
import re

# Largest number of inputs one driver may see after the repair. 16 BUFX4 inputs (14 fF each)
# are 0.22 pF: one stage of a few hundred ps in these cells.
MAX_FANOUT = 16
# The buffer of the trees: the strongest non-clock buffer of the OSU 0.18 um cells.
BUFFER = ("BUFX4", "A", "Y")
# Prefix of the nets and cells the pass adds (checked to be unused in the netlist).
PREFIX = "mt_fo_"

_INSTANCE = re.compile(r"^  ([A-Za-z_][\w$]*) +(\\\S+ |[A-Za-z_][\w$]*) *\($")
_PIN = re.compile(r"^    \.([\w$]+)\((.*)\)(,?)$")
# Every net named in a connection expression (concatenations and slices included).
_NET = re.compile(r"\\\S+|[A-Za-z_][\w$]*(?:\[\d+\])?")
_SCALAR = re.compile(r"^(\\\S+ ?|[A-Za-z_][\w$]*(\[\d+\])?)$")


def liberty_inputs(path):
    """Cell name -> set of its input pins, from a Liberty file."""
    cells = {}
    for chunk in re.split(r"\bcell\s*\(", open(path).read())[1:]:
        name = re.match(r"\s*\"?([\w$]+)\"?\s*\)", chunk)
        if name:
            cells[name.group(1)] = {
                m.group(1) for m in re.finditer(
                    r"\bpin\s*\(\s*\"?([\w$]+)\"?\s*\)\s*\{[^{}]*?direction\s*:\s*input", chunk)}
    return cells


class _Buffer:
    def __init__(self, name, out):
        self.name, self.out, self.src = name, out, None


def _balanced(items, groups):
    """items split into `groups` consecutive runs whose sizes differ by at most one."""
    q, r = divmod(len(items), groups)
    out, i = [], 0
    for g in range(groups):
        n = q + (1 if g < r else 0)
        out.append(items[i:i + n])
        i += n
    return out


def _ref(net):
    """A net as a port connection: an escaped identifier ends at a space."""
    return net + " " if net.startswith("\\") else net


def _tree(net, sinks, fixed, new_buffer):
    """Buffers between net and its movable sinks until no driver sees more than MAX_FANOUT.
    A sink is a netlist line index or a _Buffer; returns {sink: the net it now reads}."""
    reads, level = {}, list(sinks)
    while len(level) > 1 and len(level) + fixed > MAX_FANOUT:
        nxt = []
        for group in _balanced(level, -(-len(level) // MAX_FANOUT)):
            buf = new_buffer()
            for s in group:
                reads[s] = buf.out
            nxt.append(buf)
        level = nxt
    for s in level:
        reads.setdefault(s, net)
    return reads


def _repair_module(lines, inputs, counter):
    """Repairs one module's lines (header to endmodule) in place; returns the buffers added."""
    loads, fixed, cell = {}, {}, None
    for i, line in enumerate(lines):
        m = _INSTANCE.match(line)
        if m:
            cell = m.group(1)
            continue
        m = _PIN.match(line)
        if m and cell is not None:
            expr = m.group(2).strip()
            if cell in inputs and m.group(1) in inputs[cell] and _SCALAR.match(expr):
                loads.setdefault(expr, []).append(i)
            elif cell not in inputs:  # a submodule or storage array: its pins stay
                for net in _NET.findall(expr):
                    fixed[net] = fixed.get(net, 0) + 1
        elif line.startswith("  assign "):
            for net in _NET.findall(line.split("=", 1)[1]):
                fixed[net] = fixed.get(net, 0) + 1
    buffers = []

    def new_buffer():
        counter[0] += 1
        buffers.append(_Buffer(f"{PREFIX}{counter[0]}", f"{PREFIX}{counter[0]}_y"))
        return buffers[-1]

    for net, sinks in loads.items():
        if len(sinks) + fixed.get(net, 0) <= MAX_FANOUT:
            continue
        for sink, src in _tree(net, sinks, fixed.get(net, 0), new_buffer).items():
            if isinstance(sink, _Buffer):
                sink.src = src
            else:
                m = _PIN.match(lines[sink])
                lines[sink] = f"    .{m.group(1)}({_ref(src)}){m.group(3)}"
    cell, a, y = BUFFER
    decl = [f"  wire {b.out};" for b in buffers]
    body = [f"  {cell} {b.name} (\n    .{a}({_ref(b.src)}),\n    .{y}({b.out})\n  );" for b in buffers]
    header_end = next(i for i, ln in enumerate(lines) if ln.rstrip().endswith(");"))
    lines[header_end + 1:header_end + 1] = decl
    lines[-1:-1] = body
    return len(buffers)


def repair(src, dst, liberty):
    """Writes src's netlist with fanout trees to dst; returns {module: buffers added}."""
    inputs = liberty_inputs(liberty)
    if BUFFER[0] not in inputs:
        raise RuntimeError(f"{liberty} has no {BUFFER[0]} cell for the fanout trees")
    text = open(src).read()
    if PREFIX in text:
        raise RuntimeError(f"{src} already uses the prefix {PREFIX} of the fanout pass")
    added, counter, out, module = {}, [0], [], None
    for line in text.split("\n"):
        m = re.match(r"^module\s+(\S+?)\s*\(", line)
        if m:
            module, lines = m.group(1), []
        if module is None:
            out.append(line)
            continue
        lines.append(line)
        if line.startswith("endmodule"):
            added[module] = _repair_module(lines, inputs, counter)
            out.extend(lines)
            module = None
    with open(dst, "w") as f:
        f.write("\n".join(out))
    return added
