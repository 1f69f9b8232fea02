"""Fanout repair of the mapped netlist for the area flow (scripts/area/area.py).

Yosys 0.23 has no fanout repair, and ABC's `buffer -p` only buffers nets inside the
combinational logic it maps: a register's output and a module's input reach ABC as primary
inputs and stay single nets. A select register in front of a 2048-bit datapath then drives
thousands of pins from one minimum-size flip-flop, and OpenSTA times that stage at tens of
ns: a number about the flow, not the design. This pass does what a physical flow's repair
step does, in the simplest form: a net that drives more than MAX_FANOUT standard-cell inputs
gets a balanced tree of BUFFER cells, so that no driver (the original one or a buffer) sees
more than MAX_FANOUT of them. The buffers are real cells: the flow adds their area to the
block they are in.

The hierarchy is repaired from the leaves up, and a net's loads are counted through it: a
submodule's input pin weighs as many cell inputs as its port net drives inside the submodule
after that submodule's own repair, and a single-bit connection to it is moved onto a buffer
like a cell input. A signal fanned out to many blocks is then buffered where it is made, as a
flat repair would do. Loads it cannot move stay on the original net and count one input each:
an input of a storage array (a black box here), an `assign` and a bit of a wider connection
that is not a single net.

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

_MODULE = re.compile(r"^module\s+(\S+?)\s*\(")
_INSTANCE = re.compile(r"^  ([A-Za-z_][\w$]*) +(\\\S+ |[A-Za-z_][\w$]*) *\($")
_PIN = re.compile(r"^    \.([\w$]+)\((.*)\)(,?)$")
_DECL = re.compile(r"^  (input|output|inout|wire)\s+(?:\[(\d+):(\d+)\]\s+)?"
                   r"(\\\S+|[A-Za-z_][\w$]*)\s*;")
# Every net named in a connection expression (concatenations and slices included).
_NET = re.compile(r"\\\S+|[A-Za-z_][\w$]*(?:\[\d+\])?")
_SCALAR = re.compile(r"^(\\\S+ ?|[A-Za-z_][\w$]*(\[\d+\])?)$")
# One item of a connection: a constant, or a net with an optional bit or range select.
_ITEM = re.compile(r"\s*(?:(\d+)'[bhdo][0-9a-fA-FxzXZ_]+|(\\\S+ ?|[A-Za-z_][\w$]*)"
                   r"(?:\s*\[(\d+)(?::(\d+))?\])?)\s*(,|$)")


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


class _Module:
    """One module's lines and what its parents need of it: its input ports' bits, MSB first,
    and after its repair the weight each of those bits puts on the net that drives it."""

    def __init__(self, lines):
        self.lines, self.widths, self.inputs, self.weights = lines, {}, {}, {}
        for line in lines:
            m = _DECL.match(line)
            if m:
                name = m.group(4)
                rng = (int(m.group(2)), int(m.group(3))) if m.group(2) else None
                self.widths[name] = rng
                if m.group(1) == "input":
                    self.inputs[name] = _bits(name, rng)

    def children(self):
        return {m.group(1) for m in map(_INSTANCE.match, self.lines) if m}


def _bits(name, rng):
    """The bits of a net declared with range rng (None: a scalar), MSB first."""
    if rng is None:
        return [name]
    hi, lo = rng
    step, sep = (-1 if hi >= lo else 1), (" " if name.startswith("\\") else "")
    return [f"{name}{sep}[{i}]" for i in range(hi, lo + step, step)]


def _items(expr, widths):
    """A connection expression as (braced, [(text, [bit nets or None for a constant bit])]),
    MSB first; None when it is not a form this pass reads."""
    e = expr.strip()
    braced = e.startswith("{") and e.endswith("}")
    body, pos, items = (e[1:-1] if braced else e), 0, []
    while pos < len(body):
        m = _ITEM.match(body, pos)
        if not m or m.end() == pos:
            return None
        pos = m.end()
        text = m.group(0).strip().rstrip(",").strip()
        if m.group(1):
            items.append((text, [None] * int(m.group(1))))
            continue
        name = m.group(2).strip()
        if m.group(3) is None:
            bits = _bits(name, widths.get(name))
        elif m.group(4) is None:
            bits = _bits(name, (int(m.group(3)), int(m.group(3))))
        else:
            bits = _bits(name, (int(m.group(3)), int(m.group(4))))
        items.append((text, bits))
    return braced, items


def _pack(level):
    """level [(sink, weight)] split into consecutive groups of at most MAX_FANOUT weight (one
    heavier sink alone), about equal: as few groups as the total weight allows."""
    total = sum(w for _, w in level)
    target = total / -(-total // MAX_FANOUT)
    groups, cur, load = [], [], 0
    for s, w in level:
        if cur and (load >= target or load + w > MAX_FANOUT):
            groups.append(cur)
            cur, load = [], 0
        cur.append(s)
        load += w
    return groups + [cur]


def _ref(net):
    """A net as a port connection: an escaped identifier ends at a space."""
    return net + " " if net.startswith("\\") else net


def _tree(net, sinks, fixed, new_buffer):
    """Buffers between net and its movable sinks [(sink, weight)] until no driver sees more
    than MAX_FANOUT; returns ({sink: the net it now reads}, the weight left on net)."""
    reads, level = {}, list(sinks)
    while len(level) > 1 and sum(w for _, w in level) + fixed > MAX_FANOUT:
        nxt = []
        for group in _pack(level):
            buf = new_buffer()
            for s in group:
                reads[s] = buf.out
            nxt.append((buf, 1))
        level = nxt
    for s, _ in level:
        reads.setdefault(s, net)
    return reads, sum(w for _, w in level) + fixed


def _sinks(mod, inputs, modules):
    """mod's loads: movable {net: [(sink, weight)]} (a sink is a line index, or a line and
    item index of a child's connection), fixed {net: weight}, and the parsed child
    connections {line index: (braced, items)}."""
    loads, fixed, conns, cell = {}, {}, {}, None

    def fix(net, weight=1):
        fixed[net] = fixed.get(net, 0) + weight

    for i, line in enumerate(mod.lines):
        m = _INSTANCE.match(line)
        if m:
            cell = m.group(1)
            continue
        m = _PIN.match(line)
        if m and cell is not None:
            pin, expr = m.group(1), m.group(2).strip()
            if cell in inputs:
                if pin in inputs[cell] and _SCALAR.match(expr):
                    loads.setdefault(expr, []).append((i, 1))
            elif cell in modules:
                port = modules[cell].inputs.get(pin)
                if port is None:  # the child's output: it drives this net
                    continue
                parsed = _items(expr, mod.widths)
                if parsed is None or sum(len(b) for _, b in parsed[1]) != len(port):
                    for net in _NET.findall(expr):
                        fix(net)
                    continue
                conns[i] = parsed
                k = 0
                for j, (_, bits) in enumerate(parsed[1]):
                    for bit in bits:
                        weight, k = modules[cell].weights.get(port[k], 0), k + 1
                        if bit is None or weight == 0:
                            continue
                        if len(bits) == 1:
                            loads.setdefault(bit, []).append(((i, j), weight))
                        else:
                            fix(bit, weight)
            else:  # a storage array
                for net in _NET.findall(expr):
                    fix(net)
        elif line.startswith("  assign "):
            for net in _NET.findall(line.split("=", 1)[1]):
                fix(net)
    return loads, fixed, conns


def _repair_module(mod, inputs, modules, counter):
    """Repairs one module's lines in place, sets its input ports' weights; returns the
    buffers added."""
    lines = mod.lines
    loads, fixed, conns = _sinks(mod, inputs, modules)
    buffers, left = [], {}

    def new_buffer():
        counter[0] += 1
        buffers.append(_Buffer(f"{PREFIX}{counter[0]}", f"{PREFIX}{counter[0]}_y"))
        return buffers[-1]

    edited = set()
    for net, sinks in loads.items():
        left[net] = sum(w for _, w in sinks) + fixed.get(net, 0)
        if left[net] <= MAX_FANOUT:
            continue
        reads, left[net] = _tree(net, sinks, fixed.get(net, 0), new_buffer)
        for sink, src in reads.items():
            if isinstance(sink, _Buffer):
                sink.src = src
            elif isinstance(sink, tuple):
                i, j = sink
                conns[i][1][j] = (src, conns[i][1][j][1])
                edited.add(i)
            else:
                m = _PIN.match(lines[sink])
                lines[sink] = f"    .{m.group(1)}({_ref(src)}){m.group(3)}"
    for i in edited:
        m = _PIN.match(lines[i])
        braced, items = conns[i]
        expr = ", ".join(_ref(t) for t, _ in items)
        lines[i] = f"    .{m.group(1)}({{ {expr} }}){m.group(3)}" if braced else \
            f"    .{m.group(1)}({_ref(items[0][0])}){m.group(3)}"
    mod.weights = {bit: left.get(bit, fixed.get(bit, 0))
                   for bits in mod.inputs.values() for bit in bits}
    cell, a, y = BUFFER
    decl = [f"  wire {b.out};" for b in buffers]
    body = [f"  {cell} {b.name} (\n    .{a}({_ref(b.src)}),\n    .{y}({b.out})\n  );"
            for b in buffers]
    header_end = next(i for i, ln in enumerate(lines) if ln.rstrip().endswith(");"))
    lines[header_end + 1:header_end + 1] = decl
    lines[-1:-1] = body
    return len(buffers)


def _leaves_first(modules):
    """Module names, every module after the modules it instantiates."""
    order, seen = [], set()

    def visit(name):
        if name in seen:
            return
        seen.add(name)
        for child in sorted(modules[name].children() & set(modules)):
            visit(child)
        order.append(name)

    for name in modules:
        visit(name)
    return order


def repair(src, dst, liberty):
    """Writes src's netlist with fanout trees to dst; returns {module: buffers added}."""
    inputs = liberty_inputs(liberty)
    if BUFFER[0] not in inputs:
        raise RuntimeError(f"{liberty} has no {BUFFER[0]} cell for the fanout trees")
    text = open(src).read()
    if PREFIX in text:
        raise RuntimeError(f"{src} already uses the prefix {PREFIX} of the fanout pass")
    parts, modules, cur = [], {}, None
    for line in text.split("\n"):
        if cur is None and _MODULE.match(line):
            cur = []
        if cur is None:
            parts.append(line)
            continue
        cur.append(line)
        if line.startswith("endmodule"):
            name = _MODULE.match(cur[0]).group(1)
            modules[name] = _Module(cur)
            parts.append(modules[name])
            cur = None
    counter, added = [0], {}
    for name in _leaves_first(modules):
        added[name] = _repair_module(modules[name], inputs, modules, counter)
    out = []
    for part in parts:
        out.extend(part.lines if isinstance(part, _Module) else [part])
    with open(dst, "w") as f:
        f.write("\n".join(out))
    return added
