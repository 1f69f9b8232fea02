#!/bin/bash
# Prints the SHA-256 of what `mtc plan` writes for the cases of
# tests/host_sw/mtc_output_bytes_test.cpp: the text tables, the JSON and the --out image set
# (the hash of `sha256sum` over its files in name order), and `mtc show` of that set as text
# and JSON. Run with an mtc binary:
#   tests/scripts/mtc_output_hashes.sh build/bin/mtc
# Each line: <kind> <hash> <arguments>.
set -euo pipefail
mtc=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
while IFS= read -r args; do
  [ -z "$args" ] && continue
  # shellcheck disable=SC2086
  text=$("$mtc" plan $args | sha256sum | cut -d' ' -f1)
  # shellcheck disable=SC2086
  json=$("$mtc" plan $args -f json | sha256sum | cut -d' ' -f1)
  rm -rf "$dir/s"
  # shellcheck disable=SC2086
  "$mtc" plan $args -o "$dir/s" > /dev/null
  out=$(cd "$dir/s" && LC_ALL=C sha256sum $(LC_ALL=C ls) | sha256sum | cut -d' ' -f1)
  show=$("$mtc" show "$dir/s" | sha256sum | cut -d' ' -f1)
  show_json=$("$mtc" show "$dir/s" -f json | sha256sum | cut -d' ' -f1)
  echo "text $text $args"
  echo "json $json $args"
  echo "out $out $args"
  echo "show $show $args"
  echo "show-json $show_json $args"
done <<'CASES'
-t torus:8x8 -a multitree
-t torus:8x8 -a multitree -b 4KiB --prioritize-height
-t torus:8x8 -a ring
-t torus:8x8 -a ring-bi -b 64KiB
-t torus:8x8 -a ring2d
-t torus:8x8 -a dbtree
-t torus:8x8 -a multitree -k 2 --base-addr 65536 --addr-bits 40 --size-bits 24 --dtype int32
-t mesh:3x3 -a multitree -b 64
-t mesh:2x2 -a multitree
-t ring:5 -a ring-bi -b 4KiB
-t mesh:4x3 -a ring2d -b 4KiB
-t fattree:4x2 -a multitree -b 64KiB
-t bigraph:4x4 -a hdrm -b 64KiB
-t ring:3 -a dbtree -b 4KiB --dbtree-chunks 2
CASES
