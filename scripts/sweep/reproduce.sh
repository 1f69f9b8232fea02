#!/usr/bin/env bash
# The evaluation in one command: build mtsim, run the Fig. 9, message-vs-packet, Fig. 10 and
# forwarding sweeps (resuming: finished points are not rerun), collect the CSV, copy it to
# docs/figures/results.csv, draw the figures from it (docs/figures/*.svg) and regenerate the
# tables in docs/results.md.
#
#   scripts/sweep/reproduce.sh [--out DIR] [-j N] [--fresh] [--no-build] [--no-run]
#
#   --out DIR    sweep directory (default results/): jobs.txt, json/, time/, results.csv, plots/
#                (the figures' gnuplot scripts and data)
#   -j N         simulations at once (default 2)
#   --fresh      delete DIR first, so everything reruns from scratch
#   --no-build   use the mtsim already in build/bin
#   --no-run     run no simulation: collect what DIR has, then plots and tables
# Simulations run under nice -n 15. Exit code: 0 when every point ran, 3 when some failed
# (the CSV, figures and tables then hold the points that ran), 1 on bad arguments.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out="$root/results" jobs=2 fresh=0 build=1 run=1
usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --out) out=$(realpath -m "$2"); shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    --fresh) fresh=1; shift ;;
    --no-build) build=0; shift ;;
    --no-run) run=0 build=0; shift ;;
    *) usage >&2; echo "reproduce.sh: unknown argument $1" >&2; exit 1 ;;
  esac
done
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "reproduce.sh: -j needs a positive number, not $jobs" >&2; exit 1; }
if [ $build -eq 1 ]; then
  nice -n 10 cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  nice -n 10 cmake --build "$root/build" -j "$jobs" --target mtsim
fi
[ $fresh -eq 1 ] && rm -rf "$out"
specs="$root/scripts/sweep/specs"
rc=0
if [ $run -eq 1 ]; then
  nice -n 15 "$root/scripts/sweep/sweep.py" run "$specs/fig9.json" "$specs/msg_vs_packet.json" \
    "$specs/fig10.json" "$specs/forwarding.json" --out "$out" -j "$jobs" || rc=$?
else
  "$root/scripts/sweep/sweep.py" jobs "$specs/fig9.json" "$specs/msg_vs_packet.json" \
    "$specs/fig10.json" "$specs/forwarding.json" --out "$out" >/dev/null || rc=$?
  [ $rc -eq 0 ] && { "$root/scripts/sweep/sweep.py" collect --out "$out" || rc=$?; }
fi
[ $rc -eq 0 ] || [ $rc -eq 3 ] || exit $rc
figures="$root/docs/figures"
mkdir -p "$figures"
cp "$out/results.csv" "$figures/results.csv"
"$root/scripts/sweep/report.py" --csv "$figures/results.csv" --plots "$out/plots" \
  --figures "$figures" --doc "$root/docs/results.md"
exit $rc
