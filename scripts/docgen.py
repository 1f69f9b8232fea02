"""Generated parts of the documents, shared by the scripts that write them
(scripts/sweep/report.py, scripts/area/sweep.py, scripts/area/blocks_figure.py).

A Markdown file holds generated text between '<!-- BEGIN GENERATED name -->' and
'<!-- END GENERATED name -->' (the prose around it is written by hand); its figures are SVGs
under docs/figures/, drawn by gnuplot from a CSV committed beside them. Writing and checking
use the same functions: a check draws into a scratch directory and compares.
"""
import csv
import os
import re
import subprocess
import sys

BLOCK = re.compile(r"(<!-- BEGIN GENERATED (\S+) -->\n)(.*?)(<!-- END GENERATED \2 -->)", re.S)


class DocError(Exception):
    """A document or figure cannot be read, written or drawn: the message names it."""


def fill(path, generated):
    """The text of `path` with each block named in `generated` replaced by that text (other
    blocks stay), and the names of the blocks whose text changes. Every name must have a
    block."""
    try:
        text = open(path).read()
    except OSError as e:
        raise DocError(f"{path}: cannot read: {e.strerror}")
    changed, seen = [], set()

    def one(m):
        name = m.group(2)
        if name not in generated:
            return m.group(0)
        seen.add(name)
        body = generated[name].rstrip("\n") + "\n"
        if body != m.group(3):
            changed.append(name)
        return m.group(1) + body + m.group(4)
    new = BLOCK.sub(one, text)
    missing = sorted(set(generated) - seen)
    if missing:
        raise DocError(f"{path}: no GENERATED block for {', '.join(missing)}")
    return new, changed


def update(path, generated, check):
    """Fills the blocks of `path` named in `generated` (with `check`, only compares); the names
    of the blocks whose text differs."""
    text, changed = fill(path, generated)
    if not check:
        write(path, text)
    return changed


def write(path, text):
    tmp = path + ".tmp"
    try:
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        raise DocError(f"{path}: cannot write: {e.strerror}")


def gnuplot(script_path, text):
    """Runs a gnuplot script (kept at `script_path` for whoever wants to rerun it)."""
    with open(script_path, "w") as f:
        f.write(text)
    r = subprocess.run(["gnuplot", script_path], capture_output=True, text=True)
    if r.returncode != 0:
        raise DocError(f"gnuplot {script_path} failed: {r.stderr.strip()}")


def svg_terminal(width, height, path):
    """gnuplot's SVG terminal: same input, same bytes (no timestamps, no file names)."""
    return (f'set terminal svg size {width},{height} dynamic font "sans,11" '
            f'background "white"\nset output "{path}"\n')


def differing_figures(drawn, committed_dir):
    """The drawn figures whose committed copy in `committed_dir` is missing or differs."""
    out = []
    for path in drawn:
        copy = os.path.join(committed_dir, os.path.basename(path))
        if not os.path.isfile(copy):
            out.append(f"{copy} is missing")
        elif open(path, "rb").read() != open(copy, "rb").read():
            out.append(f"{copy} differs from the figure drawn from its CSV ({path})")
    return out


def publish_arguments(p, csv_help):
    """Adds the options publish() reads (--csv, --plots, --figures, --doc, --check) to the
    argparse parser `p`."""
    p.add_argument("--csv", required=True, help=csv_help)
    p.add_argument("--plots", required=True, help="directory for gnuplot scripts, data, tables.md")
    p.add_argument("--figures", help="directory of the SVGs (default: PLOTS)")
    p.add_argument("--doc", help="Markdown file whose GENERATED blocks get the tables")
    p.add_argument("--check", action="store_true",
                   help="compare the figures and the document's tables instead of writing them")


def parse_publish_arguments(p):
    """p.parse_args(), refusing --check without --figures."""
    args = p.parse_args()
    if args.check and not args.figures:
        p.error("--check needs --figures: the directory of the committed figures")
    return args


def publish(tool, args, generated, draw):
    """The common end of a figure script whose arguments are --csv, --plots, --figures, --doc
    and --check: the tables into PLOTS/tables.md, `draw(directory)` (the SVGs it drew; into
    PLOTS with --check, else FIGURES, default PLOTS), the document's GENERATED blocks filled
    (with --check, compared, and every difference named). Returns the exit code."""
    os.makedirs(args.plots, exist_ok=True)
    with open(os.path.join(args.plots, "tables.md"), "w") as f:
        f.writelines(f"## {k}\n\n{v}\n\n" for k, v in generated.items())
    figures = args.figures or args.plots
    if not args.check:
        os.makedirs(figures, exist_ok=True)
    drawn = draw(args.plots if args.check else figures)
    changed = update(args.doc, generated, args.check) if args.doc else []
    if args.check:
        return verdict(tool, drawn, figures, args.doc, changed, args.csv, len(generated))
    for svg in drawn:
        print(f"{tool}: {svg}")
    if args.doc:
        print(f"{tool}: {len(changed)} of the generated blocks in {args.doc} changed")
    return 0


def run_figure(tool, args, columns, sweep, load, tables, draw, errors=()):
    """The body of a figure script's main() after publish_arguments: with `sweep` (a function
    giving the CSV's rows, or None) --csv is rewritten first; then data = load(--csv) and
    publish() with tables(data) and draw(data, directory). An error of DocError or `errors`
    is printed as `tool: message`. Returns the exit code."""
    try:
        if sweep:
            write_csv(args.csv, columns, sweep())
        data = load(args.csv)
        return publish(tool, args, tables(data), lambda figures: draw(data, figures))
    except (DocError,) + tuple(errors) as e:
        print(f"{tool}: {e}", file=sys.stderr)
        return 1


def verdict(tool, drawn, committed_dir, doc, changed, source, tables):
    """A check's outcome: names every figure and generated block that differs from what
    `source` gives, counts them; the exit code (0 all agree, 4 a difference)."""
    diffs = differing_figures(drawn, committed_dir) + [
        f"{doc}: generated block {name!r} differs from what {source} gives" for name in changed]
    for d in diffs:
        print(f"{tool}: {d}", file=sys.stderr)
    print(f"{tool}: {len(drawn)} figures, {tables} tables checked, {len(diffs)} differences")
    return 4 if diffs else 0


def write_csv(path, columns, rows):
    """Writes `rows` (dicts) under the header `columns`, newline-terminated lines."""
    try:
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=columns, lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
    except OSError as e:
        raise DocError(f"{path}: cannot write: {e.strerror}")


def read_csv(path, columns):
    """The rows (dicts) of a CSV whose header must be exactly `columns`; DocError otherwise."""
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            rows = list(reader)
    except OSError as e:
        raise DocError(f"{path}: cannot read: {e.strerror}")
    if reader.fieldnames != columns:
        raise DocError(f"{path}: columns {reader.fieldnames}, expected {columns}")
    return rows
