#!/bin/bash
# Prints the SHA-256 of mtsim's --json for the runs of
# tests/systemc/mtsim_output_exact_test.cpp, canonical (keys sorted, compact) and without the
# fields that measure the host rather than the model: wall_seconds (wall-clock time) and
# router_cycles (router evaluations, simulation effort: fewer when idle work is skipped).
# Every other field stays: cycles, the per-step timeline (steps), every link's load (links),
# the flit counts, and verified (every node's buffer equals the exact sum). Run with an mtsim:
#   tests/scripts/mtsim_output_hashes.sh build/bin/mtsim
# Each line: <hash> <arguments>. With a recorded file as the second argument, prints only the
# runs whose hash differs from it and exits 1 if any does:
#   tests/scripts/mtsim_output_hashes.sh build/bin/mtsim tests/golden/mtsim_output_hashes.txt
set -euo pipefail
mtsim=$1
golden=${2:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
canonical='import json, sys
d = json.load(open(sys.argv[1]))
for k in ("wall_seconds", "router_cycles"):
    d.pop(k)
sys.stdout.write(json.dumps(d, sort_keys=True, separators=(",", ":")))'
differ=0
check() {
  # mtsim's standard error is shown only if the run fails (a sanitizer build's notes on
  # SystemC's thread stacks are not part of the output; its errors stop the run).
  # shellcheck disable=SC2086
  if ! "$mtsim" -q $1 --json "$dir/run.json" > /dev/null 2> "$dir/stderr"; then
    cat "$dir/stderr" >&2
    echo "mtsim failed: $1" >&2
    exit 2
  fi
  local line
  line="$(python3 -c "$canonical" "$dir/run.json" | sha256sum | cut -d' ' -f1) $1"
  if [ -z "$golden" ]; then
    echo "$line"
  elif ! grep -qxF -- "$line" "$golden"; then
    echo "differs: $1"
    differ=1
  fi
}
# Every algorithm on the issue's three networks at two sizes: 4 KiB (a few flits per message,
# so heads, dependencies and the start of each step dominate) and 64 KiB (long messages, so
# links saturate and the routers' VC and switch allocation see contention); the whole set
# runs in about 10 s on one core.
for topology in torus:4x4 mesh:3x3 torus:8x8; do
  for run in "multitree" "multitree --flow-control packet" "ring" "ring-bi" "ring2d" "dbtree"; do
    for bytes in 4KiB 64KiB; do
      check "-t $topology -a $run -b $bytes"
    done
  done
done
# The options that change the NI's or the network's timing paths.
check "-t torus:4x4 -a multitree -b 64KiB --config paper"
check "-t torus:4x4 -a multitree -b 64KiB --dtype int32"
check "-t torus:4x4 -a multitree -b 64KiB --vcs 2 --vc-depth 16 --link-latency 3"
check "-t torus:4x4 -a multitree -b 64KiB --ni-forward"
check "-t mesh:3x3 -a ring2d -b 64KiB --flow-control packet --packet-payload 64"
exit $differ
