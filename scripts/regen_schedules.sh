#!/usr/bin/env bash
# Rewrites the golden image sets in schedules/ (MultiTree, 1 MiB, fp32). Run only when the
# plan, the table compiler or the image format changes on purpose; schedules_test compares
# a fresh build with these files bit for bit.
set -euo pipefail
cd "$(dirname "$0")/.."
mtc=${MTC:-build/bin/mtc}
while read -r name topology; do
  "$mtc" plan --topology "$topology" --algorithm multitree --bytes 1MiB --dtype fp32 \
    --out "schedules/$name" --format json > /dev/null
  echo "schedules/$name: $topology"
done < schedules/sets.txt
