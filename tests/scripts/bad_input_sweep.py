#!/usr/bin/env python3
"""Bad-input and fault sweep of mtc, mtsim and noc-sim.

Runs generated cases (every option of every tool with empty, negative, huge, non-numeric and
otherwise wrong values; bad input files: FIFOs, /dev/zero links, directories, truncated and
corrupted image sets and manifests; outputs that cannot be written; ulimit -f, -v and -t) and
checks each one:

  - no exit 2 (an internal error),
  - no hang (each case has a wall-clock timeout),
  - no fault signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS, SIGTRAP),
  - no orphaned process (every case runs in a session of its own, which must be empty once
    the tool has ended).

Every case runs with a CPU-time limit and an address-space limit, so a case that is valid but
long is ended by the limit (the tool says so, exit 1; or the kernel's SIGKILL/SIGXCPU, counted
as "cpu-limit") rather than taking the machine.

Usage: bad_input_sweep.py --bin BUILD/bin [--quick] [--jobs N] [--verbose]
Prints the counts by outcome; exits 1 when any case failed a check.
"""
import argparse
import collections
import concurrent.futures
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

FAULT_SIGNALS = {signal.SIGSEGV, signal.SIGBUS, signal.SIGFPE, signal.SIGILL, signal.SIGABRT,
                 signal.SIGSYS, signal.SIGTRAP}
CPU_SECONDS = 20          # per case (ulimit -t)
ADDRESS_SPACE = 4 << 30   # per case (ulimit -v): a bad size must not take the machine's memory
WALL_SECONDS = 90         # per case: longer than this is a hang

# Values that are wrong for most options (each option's own wrong values are added to these).
BAD_VALUES = ["", "-1", "0", "-0", "4294967296", "18446744073709551616",
              "99999999999999999999999", "1e400", "nan", "inf", "abc", "0x10", " 5", "5 ",
              "1.5", "+3", "--", "\\x00", "\u00e9"]
BAD_TOPOLOGIES = ["", "torus", "torus:", "torus:0x4", "torus:4x", "torus:x4", "torus:4x4x4",
                  "torus:4294967297x1", "torus:-4x4", "torus:1x1", "torus:4096x4096",
                  "mesh:1x1", "ring:1", "ring:0", "ring:99999999999", "fattree:0x2",
                  "fattree:64x9", "fattree:2x0", "bigraph:0x4", "bigraph:99999x99999",
                  "nosuch:4", "file:", "file:/nonexistent.json", "file:/dev/zero",
                  "file:/dev/null", "file:/", "file:/proc/self/status",
                  "torus:4x4,failed=0-5", "torus:4x4,failed=0-16", "torus:4x4,failed=",
                  "torus:4x4,failed=0-1+1-0", "torus:4x4,failed=0-1-2", "ring:4,failed=0-1+2-3",
                  "torus:4x4,failed=99999999999-1", "fattree:4x2,failed=0-1",
                  "torus:4096x4096,failed=0-1"]
BAD_SIZES = ["", "0", "-4KiB", "1", "3", "4KiB3", "1e3", "4kib", "4 KiB", "16EiB",
             "18446744073709551615", "18446744073709551616", "8GiB", "1TiB", "0x1000", "KiB"]
BAD_ALGORITHMS = ["", "nosuch", "MULTITREE", "ring,", "hdrm", "ring2d:", "multitree:packet"]


class Case:
    def __init__(self, name, argv, shell_prefix=""):
        self.name = name
        self.argv = argv
        self.shell_prefix = shell_prefix  # e.g. "ulimit -f 4" run before the tool


def shell_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


class Files:
    """Bad files and directories, made once in a scratch directory."""

    def __init__(self, bins, root):
        self.root = root
        self.mtc = os.path.join(bins, "mtc")
        self.good_set = self.path("good")
        run([self.mtc, "plan", "-q", "-t", "ring:4", "-a", "ring", "-b", "4KiB", "-o",
             self.good_set])
        self.sets = self.make_bad_sets()
        self.fifo = self.path("fifo")
        os.mkfifo(self.fifo)
        self.zero_link = self.path("zero.json")
        os.symlink("/dev/zero", self.zero_link)
        self.dir = self.path("adir")
        os.mkdir(self.dir)
        self.readonly_dir = self.path("readonly")
        os.mkdir(self.readonly_dir, 0o555)
        self.topologies = self.make_bad_topologies()
        for ext in ["", ".dot", ".json", ".vcd", ".fst", ".png"]:
            with open(self.path("existing" + ext), "w") as f:
                f.write("old\n")

    def path(self, name):
        return os.path.join(self.root, name)

    def copy_set(self, name):
        d = self.path(name)
        shutil.copytree(self.good_set, d)
        return d

    def make_bad_sets(self):
        sets = {}
        for target in ["node_01.bin", "node_02.hex", "node_03.json", "manifest.json"]:
            size = os.path.getsize(os.path.join(self.good_set, target))
            for cut in sorted({0, 1, 7, size // 2, size - 1}):
                d = self.copy_set(f"cut_{target}_{cut}")
                os.truncate(os.path.join(d, target), cut)
                sets[f"{target} truncated to {cut}"] = d
            for offset in sorted({0, 4, 8, 16, 24, size // 2, size - 1}):
                d = self.copy_set(f"flip_{target}_{offset}")
                p = os.path.join(d, target)
                data = bytearray(open(p, "rb").read())
                data[offset] ^= 0x5A
                open(p, "wb").write(bytes(data))
                sets[f"{target} byte {offset} flipped"] = d
            d = self.copy_set(f"missing_{target}")
            os.remove(os.path.join(d, target))
            sets[f"{target} missing"] = d
            d = self.copy_set(f"fifo_{target}")
            os.remove(os.path.join(d, target))
            os.mkfifo(os.path.join(d, target))
            sets[f"{target} a FIFO"] = d
            d = self.copy_set(f"zero_{target}")
            os.remove(os.path.join(d, target))
            os.symlink("/dev/zero", os.path.join(d, target))
            sets[f"{target} linked to /dev/zero"] = d
            d = self.copy_set(f"dir_{target}")
            os.remove(os.path.join(d, target))
            os.mkdir(os.path.join(d, target))
            sets[f"{target} a directory"] = d
        manifest = open(os.path.join(self.good_set, "manifest.json")).read()
        for old, new in [('"ring"', '"nosuch"'), ('"nodes": 4', '"nodes": 5'),
                         ('"nodes": 4', '"nodes": 0'), ('"nodes": 4', '"nodes": -1'),
                         ('"nodes": 4', '"nodes": 4294967296'), ('"bytes": 4096', '"bytes": 1e400'),
                         ('"bytes": 4096', '"bytes": "4096"'), ('"fp32"', '"fp64"'),
                         ('"topology": "ring:4"', '"topology": "torus:4096x4096"'),
                         ('"topology": "ring:4"', '"topology": "file:/dev/zero"'),
                         ('"format_version": 1', '"format_version": 2'), ("{", "[")]:
            if old not in manifest:
                continue
            d = self.copy_set("manifest_" + str(len(sets)))
            open(os.path.join(d, "manifest.json"), "w").write(manifest.replace(old, new, 1))
            sets[f"manifest {old} -> {new}"] = d
        # Every file consistent, the schedule not: nodes 3 to 7 of ring on ring:16 among those
        # of ring on torus:4x4 (the same header fields, another cycle).
        torus, ring = self.path("ring_torus4x4"), self.path("ring_ring16")
        for topo, d in (("torus:4x4", torus), ("ring:16", ring)):
            run([self.mtc, "plan", "-q", "-t", topo, "-a", "ring", "-b", "4KiB", "-o", d])
        for n in range(3, 8):
            for ext in ("bin", "hex", "json"):
                shutil.copy(os.path.join(ring, f"node_{n:02d}.{ext}"), torus)
        sets["a schedule mixed from two plans"] = torus
        sets["nonexistent"] = self.path("nonexistent")
        sets["empty directory"] = self.path("empty_set")
        os.mkdir(sets["empty directory"])
        return sets

    def make_bad_topologies(self):
        texts = {
            "empty": "", "not json": "{", "array": "[]", "no links": '{"nodes":[0,1]}',
            "unknown key": '{"nodes":[0,1],"links":[],"x":1}',
            "self link": '{"nodes":[0,1],"links":[{"a":"n0","b":"n0"}]}',
            "bad id": '{"nodes":[0,5],"links":[]}',
            "huge width": '{"nodes":[0,1],"links":[{"a":"n0","b":"n1","width":1e400}]}',
            "disconnected": '{"nodes":[0,1,2],"links":[{"a":"n0","b":"n1"},{"a":"n1","b":"n0"}]}',
            "lonely switch": '{"nodes":[0,1],"switches":[0,1],"links":[{"a":"n0","b":"s0"},'
                             '{"a":"s0","b":"n0"},{"a":"n1","b":"s0"},{"a":"s0","b":"n1"}]}',
            "star 40": '{"nodes":[%s],"switches":[0],"links":[%s]}' % (
                ",".join(str(n) for n in range(40)),
                ",".join('{"a":"n%d","b":"s0"}' % n for n in range(40))),
        }
        out = {}
        for name, text in texts.items():
            p = self.path("topo_" + name.replace(" ", "_") + ".json")
            open(p, "w").write(text)
            out[name] = "file:" + p
        out["fifo"] = "file:" + self.fifo
        out["/dev/zero link"] = "file:" + self.zero_link
        out["directory"] = "file:" + self.dir
        return out

    def bad_outputs(self, ext):
        """Output paths that must be refused (or written) cleanly."""
        return [self.fifo, self.dir, "/dev/full", "/proc/x" + ext,
                os.path.join(self.readonly_dir, "x" + ext), self.path("nodir/x" + ext),
                self.path("x" * 300 + ext), self.path("y" * 250 + ext), self.zero_link,
                self.path("existing" + ext), ""]


def run(argv):
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def without(base, opt):
    """`base` without option `opt` and its value, so that `opt` is given once."""
    if opt not in base:
        return base
    i = base.index(opt)
    return base[:i] + base[i + 2:]


def option_cases(tool, sub, base, options, values_for):
    cases = []
    name = os.path.basename(tool)
    for opt in options:
        for value in values_for(opt):
            cases.append(Case(f"{name} {sub} {opt} {value!r}".replace("  ", " "),
                              [tool] + sub.split() + without(base, opt) + [opt, value]))
    return cases


def generic_values(opt):
    if opt in ("-t", "--topology"):
        return BAD_TOPOLOGIES
    if opt in ("-b", "--bytes"):
        return BAD_SIZES
    if opt in ("-a", "--algorithm"):
        return BAD_ALGORITHMS
    return BAD_VALUES


def mtc_cases(bins, files):
    mtc = os.path.join(bins, "mtc")
    plan = ["-q", "-t", "ring:4", "-a", "ring", "-b", "4KiB"]
    cases = []
    plan_opts = ["-t", "-a", "-b", "--dtype", "-k", "--base-addr", "--addr-bits", "--size-bits",
                 "--dbtree-chunks", "--time-limit", "-f"]
    cases += option_cases(mtc, "plan", plan, plan_opts, generic_values)
    cases += option_cases(mtc, "dot", plan[1:], ["--flow", "-t", "-a", "-b"], generic_values)
    for topo in files.topologies.values():
        for algorithm in ["ring", "multitree", "dbtree"]:
            cases.append(Case(f"mtc plan -t {topo} -a {algorithm}",
                              [mtc, "plan", "-q", "-t", topo, "-a", algorithm, "-b", "4KiB"]))
    for out in files.bad_outputs(".dot"):
        cases.append(Case(f"mtc dot -o {out!r}", [mtc, "dot"] + plan[1:] + ["-o", out]))
    for out in files.bad_outputs(""):
        cases.append(Case(f"mtc plan -o {out!r}", [mtc, "plan"] + plan + ["-o", out]))
    for name, d in files.sets.items():
        for sub in (["show"], ["verify"], ["show", "-f", "json"], ["verify", "-f", "json"]):
            cases.append(Case(f"mtc {' '.join(sub)} ({name})", [mtc] + sub + [d]))
    for value in BAD_VALUES + BAD_TOPOLOGIES[:12]:
        cases.append(Case(f"mtc verify -t {value!r}", [mtc, "verify", files.good_set, "-t", value]))
    for word in ["", "nosuch", "plan2", "-x", "--help-all", "help"]:
        cases.append(Case(f"mtc {word!r}", [mtc, word]))
    return cases


def mtsim_cases(bins, files):
    mtsim = os.path.join(bins, "mtsim")
    base = ["-q", "-t", "ring:4", "-b", "4KiB"]
    opts = ["-t", "-a", "-b", "--dtype", "--dbtree-chunks", "--config", "--flow-control",
            "--time-limit", "--compare", "--seed", "--data", "--trace-nodes", "-j", "--rtl-nodes",
            "--vcs", "--vc-depth", "--link-latency", "--ni-buffer", "--packet-payload",
            "--mem-bandwidth", "--mem-latency", "--reduce-throughput", "--reduce-latency",
            "--ni-forward-prefix", "--watchdog", "--inject-fault"]
    cases = option_cases(mtsim, "", base, opts, generic_values)
    for name, d in files.sets.items():
        for extra in ([], ["--no-verify"]):
            cases.append(Case(f"mtsim --images ({name}) {' '.join(extra)}",
                              [mtsim, "-q", "--images", d] + extra))
    for topo in files.topologies.values():
        cases.append(Case(f"mtsim -t {topo}", [mtsim, "-q", "-t", topo, "-b", "4KiB", "-a", "ring"]))
    for opt, ext in (("--json", ".json"), ("--trace", ".vcd"), ("--trace", ".fst")):
        for out in files.bad_outputs(ext):
            cases.append(Case(f"mtsim {opt} {out!r}", [mtsim] + base + [opt, out]))
    same = files.path("same.vcd")
    cases.append(Case("mtsim --trace F --json F", [mtsim] + base + ["--trace", same, "--json", same]))
    for fault in ["0:0", "3:1023", "1:1024", "4:0", "x:y"]:  # a wrong sum, or out of range
        cases.append(Case(f"mtsim --inject-fault {fault}", [mtsim] + base + ["--inject-fault", fault]))
    cases.append(Case("mtsim --json on its manifest",
                      [mtsim, "-q", "--images", files.good_set, "--json",
                       os.path.join(files.good_set, "manifest.json")]))
    return cases


def noc_sim_cases(bins, files):
    noc = os.path.join(bins, "noc-sim")
    base = ["-t", "ring:4", "-r", "0.05", "--warmup", "100", "--measure", "200", "-j", "1"]
    opts = ["-t", "-p", "-n", "--seed", "--vcs", "--vc-depth", "--link-latency",
            "--credit-latency", "--local-latency"]
    cases = option_cases(noc, "", base, opts, generic_values)
    cases += option_cases(noc, "", base + ["-p", "hotspot"], ["--hotspot-node", "--hotspot-fraction"],
                          generic_values)
    cases += option_cases(noc, "", base, ["--hotspot-node", "--hotspot-fraction"],
                          lambda opt: ["0", "0.5"])
    short = ["-t", "ring:4", "--warmup", "100", "--measure", "200", "-j", "1"]
    for opt in ["-r", "--rates", "--sweep"]:
        for value in BAD_VALUES + ["0.1:0.05:0.1", "0:1:0", "0.1,,0.2", "1:2:3:4", "0.1:1:1e-9",
                                   "2", "1.0000001"]:
            cases.append(Case(f"noc-sim {opt} {value!r}", [noc] + short + [opt, value]))
    for opt in ["--warmup", "--measure", "--drain-timeout", "-j"]:
        for value in BAD_VALUES:
            cases.append(Case(f"noc-sim {opt} {value!r}",
                              [noc, "-t", "ring:4", "-r", "0.05", opt, value]))
    for topo in files.topologies.values():
        cases.append(Case(f"noc-sim -t {topo}", [noc, "-t", topo, "-r", "0.1", "--warmup", "100",
                                                  "--measure", "200", "-j", "1"]))
    for opt, ext in (("--json", ".json"), ("--plot", ".png")):
        for out in files.bad_outputs(ext):
            cases.append(Case(f"noc-sim {opt} {out!r}", [noc] + base + [opt, out]))
    same = files.path("same.out")
    cases.append(Case("noc-sim --json F --plot F", [noc] + base + ["--json", same, "--plot", same]))
    return cases


def limit_cases(bins, files):
    """The same runs under ulimit -f, -v and -t."""
    mtc, mtsim, noc = (os.path.join(bins, t) for t in ("mtc", "mtsim", "noc-sim"))
    runs = [
        [mtc, "plan", "-q", "-t", "torus:8x8", "-a", "multitree", "-b", "64KiB", "-o",
         files.path("limited_set")],
        [mtc, "dot", "-t", "torus:8x8", "-a", "multitree", "-o", files.path("limited.dot")],
        [mtsim, "-q", "-t", "torus:4x4", "-b", "64KiB", "--json", files.path("limited.json"),
         "--trace", files.path("limited.vcd")],
        [mtsim, "-q", "-t", "torus:4x4", "-b", "64KiB", "--compare", "ring,dbtree", "-j", "2"],
        [noc, "-t", "torus:4x4", "--rates", "0.1,0.3", "--warmup", "200", "--measure", "2000",
         "-j", "2", "--json", files.path("limited_noc.json")],
    ]
    limits = ["ulimit -f 0", "ulimit -f 1", "ulimit -f 8", "ulimit -f 64", "ulimit -v 20000",
              "ulimit -v 60000", "ulimit -v 150000", "ulimit -t 1", "ulimit -St 1"]
    return [Case(f"{limit}; {' '.join(os.path.basename(a) if i == 0 else a for i, a in enumerate(argv))}",
                 argv, limit) for argv in runs for limit in limits]


def session_members(sid):
    pids = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z" and int(fields[3]) == sid:
            pids.append(int(name))
    return pids


def limits():
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def run_case(case, scratch):
    """Runs one case; returns (outcome, failed, output)."""
    cwd = tempfile.mkdtemp(dir=scratch)
    if case.shell_prefix:
        argv = ["bash", "-c", case.shell_prefix + "; exec " + " ".join(shell_quote(a) for a in case.argv)]
    else:
        argv = case.argv
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True, preexec_fn=limits)
    try:
        out, _ = proc.communicate(timeout=WALL_SECONDS)
        hang = False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        hang = True
    text = out.decode(errors="replace")
    deadline = time.time() + 3
    orphans = session_members(proc.pid)
    while orphans and time.time() < deadline:
        time.sleep(0.05)
        orphans = session_members(proc.pid)
    for pid in orphans:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    shutil.rmtree(cwd, ignore_errors=True)
    code = proc.returncode
    if hang:
        return "hang", True, text
    if orphans:
        return "orphaned process", True, text
    if code < 0:
        sig = signal.Signals(-code)
        if sig in FAULT_SIGNALS:
            return f"fault signal {sig.name}", True, text
        if sig in (signal.SIGKILL, signal.SIGXCPU):
            return f"cpu-limit ({sig.name})", False, text
        return f"signal {sig.name}", True, text
    if code == 2:
        return "exit 2", True, text
    if code == 1 and "CPU-time limit" in text:
        return "exit 1 (cpu-time limit)", False, text
    if code in (0, 1, 3):
        return f"exit {code}", False, text
    return f"exit {code}", True, text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True, help="directory holding mtc, mtsim and noc-sim")
    ap.add_argument("--quick", action="store_true", help="about one case in ten (~100)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--verbose", action="store_true", help="print every case and its outcome")
    args = ap.parse_args()
    bins = os.path.abspath(args.bin)
    scratch = tempfile.mkdtemp(prefix="bad_input_sweep_")
    try:
        files = Files(bins, scratch)
        cases = (mtc_cases(bins, files) + mtsim_cases(bins, files) + noc_sim_cases(bins, files) +
                 limit_cases(bins, files))
        if args.quick:
            cases = cases[::10]
        counts = collections.Counter()
        failures = []
        start = time.time()
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = pool.map(lambda c: (c, run_case(c, scratch)), cases)
            for case, (outcome, failed, text) in results:
                counts[outcome] += 1
                if args.verbose:
                    print(f"{outcome:24} {case.name}", flush=True)
                if failed:
                    failures.append((case, outcome, text))
        for case, outcome, text in failures:
            print(f"FAILED ({outcome}): {case.name}\n  " + text.strip().replace("\n", "\n  "))
        print(f"{len(cases)} cases in {time.time() - start:.0f} s:")
        for outcome, n in sorted(counts.items()):
            print(f"  {outcome:28} {n}")
        print(f"  {'failed checks':28} {len(failures)}")
        return 1 if failures else 0
    finally:
        if os.path.isdir(os.path.join(scratch, "readonly")):
            os.chmod(os.path.join(scratch, "readonly"), 0o755)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
