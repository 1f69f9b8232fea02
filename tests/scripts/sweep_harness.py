"""What the sweep tests (sweep_small_test.py, sweep_training_test.py) share: a named check
that stops the test on failure, sweep.py as a child process, a CSV read with its columns
checked, and the command line (the tool's
binary, and --keep DIR to sweep into DIR and keep it)."""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SWEEP = os.path.join(ROOT, "scripts", "sweep")


def check(cond, what):
    if not cond:
        print(f"FAIL: {what}")
        sys.exit(1)
    print(f"ok: {what}")


def sweep(*args):
    r = subprocess.run([sys.executable, os.path.join(SWEEP, "sweep.py"), *args],
                       capture_output=True, text=True)
    print(r.stdout + r.stderr, end="")
    return r


def read_csv(path, columns):
    """The rows of the CSV at `path`, after checking its header is `columns`."""
    with open(path) as f:
        reader = csv.DictReader(f)
        rows = list(reader)
    check(reader.fieldnames == columns, f"{os.path.basename(path)} columns")
    return rows


def main(doc, tool, run):
    """Parses --TOOL (the binary) and --keep, then run(sweep dir, binary, scratch dir)."""
    p = argparse.ArgumentParser(description=doc,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(f"--{tool}", required=True, help=f"the {tool} binary")
    p.add_argument("--keep", help="sweep into this directory and keep it")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run(args.keep or os.path.join(tmp, "sweep"), os.path.abspath(getattr(args, tool)), tmp)
    return 0
