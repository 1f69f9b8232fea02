#!/usr/bin/env bash
# ctest figures: every figure the documents show is redrawn from its committed CSV and must
# equal the committed SVG byte for byte, the documents' generated tables must agree with the
# same CSV, and every SVG under docs/figures/ is shown by a document (and every figure a
# document shows exists).
#
#   figures_test.sh SOURCE_DIR
set -euo pipefail
root=${1:?usage: figures_test.sh SOURCE_DIR}
figures="$root/docs/figures"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

"$root/scripts/sweep/report.py" --csv "$figures/results.csv" --plots "$work/results" \
  --figures "$figures" --doc "$root/docs/results.md" --check || fail=1
"$root/scripts/sweep/training_report.py" --csv "$figures/training.csv" --plots "$work/training" \
  --figures "$figures" --doc "$root/docs/results.md" --check || fail=1
python3 "$root/scripts/area/blocks_figure.py" --check --work "$work/area" || fail=1
python3 "$root/scripts/hier/flexreduce_figure.py" --csv "$figures/flexreduce.csv" \
  --plots "$work/hier" --figures "$figures" --doc "$root/docs/results.md" --check || fail=1
python3 "$root/scripts/mtree/mtree_figure.py" --csv "$figures/mtree.csv" \
  --plots "$work/mtree" --figures "$figures" --doc "$root/docs/results.md" --check || fail=1
python3 "$root/scripts/netreduce/fig19.py" --csv "$figures/netreduce_fig19.csv" \
  --plots "$work/netreduce" --figures "$figures" --doc "$root/docs/results.md" --check || fail=1

for svg in "$figures"/*.svg; do
  name=$(basename "$svg")
  if ! grep -q "](figures/$name)" "$root"/docs/*.md; then
    echo "FAIL: docs/figures/$name is shown by no document in docs/" >&2
    fail=1
  fi
done
while read -r name; do
  if [ ! -f "$figures/$name" ]; then
    echo "FAIL: a document shows figures/$name, which is not committed" >&2
    fail=1
  fi
done < <(grep -oh '](figures/[^)]*)' "$root"/docs/*.md | sed 's/^](figures\///; s/)$//' | sort -u)

[ $fail -eq 0 ] && echo "figures: every figure and generated table agrees with its CSV"
exit $fail
