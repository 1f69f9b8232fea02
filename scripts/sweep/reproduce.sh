#!/usr/bin/env bash
# The evaluation in one command: build mtsim, run the Fig. 9, message-vs-packet, Fig. 10 and
# forwarding sweeps (resuming: finished points are not rerun), collect the CSV, copy it to
# docs/figures/results.csv, draw the figures from it (docs/figures/*.svg) and regenerate the
# tables in docs/results.md. With --training, the same for Fig. 11 instead: build mttrain,
# run the training sweep (specs/fig11.json), docs/figures/training.csv, fig11.svg and the
# Fig. 11 tables.
#
#   scripts/sweep/reproduce.sh [--training] [--out DIR] [-j N] [--fresh] [--no-build] [--no-run]
#                              [--pgo]
#
#   --training   the Fig. 11 training sweep (default directory results-training/)
#   --out DIR    sweep directory (default results/): jobs.txt, json/, time/, results.csv
#                (training.csv), plots/ (the figures' gnuplot scripts and data)
#   -j N         simulations at once (default 2)
#   --fresh      delete DIR first, so everything reruns from scratch
#   --no-build   use the mtsim (mttrain) already in build-sweep/bin
#   --no-run     run no simulation: collect what DIR has, then plots and tables
#   --pgo        build the tool with profile-guided optimisation as well (gcc): an instrumented
#                mttrain in build-sweep-pgo/, its training run (pgo_train.sh, about 20 s) and
#                build-sweep/ compiled with the profile it wrote (the same cycles; 2% to 9%
#                less time on Fig. 11 runs, docs/performance.md); without it, build-sweep/ is
#                built without a profile
# The tool is built in build-sweep/ with link-time optimisation (-DMT_LTO=ON: the same cycles,
# about 5% less time) and without the tests, so build/ keeps its own configuration; each job runs
# with glibc's huge pages for the heap (job.sh). Simulations run under nice -n 15.
# Exit code: 0 when every point ran, 3 when some failed (the CSV, figures and tables then hold
# the points that ran), 1 on bad arguments or when no point ran (nothing is copied or drawn).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out="" jobs=2 fresh=0 build=1 run=1 training=0 pgo=0
usage() { sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --training) training=1; shift ;;
    --out) out=$(realpath -m "$2"); shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    --fresh) fresh=1; shift ;;
    --no-build) build=0; shift ;;
    --no-run) run=0 build=0; shift ;;
    --pgo) pgo=1; shift ;;
    *) usage >&2; echo "reproduce.sh: unknown argument $1" >&2; exit 1 ;;
  esac
done
[ $pgo -eq 1 ] && [ $build -eq 0 ] && {
  echo "reproduce.sh: --pgo builds the tool; it cannot go with --no-build or --no-run" >&2; exit 1; }
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "reproduce.sh: -j needs a positive number, not $jobs" >&2; exit 1; }
specs="$root/scripts/sweep/specs"
figures="$root/docs/figures"
if [ $training -eq 1 ]; then
  tool=mttrain csv=training.csv spec_files=("$specs/fig11.json")
  out=${out:-$root/results-training}
  report=$root/scripts/sweep/training_report.py
else
  tool=mtsim csv=results.csv spec_files=("$specs/fig9.json" "$specs/msg_vs_packet.json"
    "$specs/fig10.json" "$specs/forwarding.json")
  out=${out:-$root/results}
  report=$root/scripts/sweep/report.py
fi
bin="$root/build-sweep/bin"
if [ $build -eq 1 ]; then
  config=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMT_LTO=ON -DMT_TESTS=OFF -DMT_COSIM=OFF)
  pgo_config=(-DMT_PGO=)
  if [ $pgo -eq 1 ]; then
    # The instrumented mttrain and its training run write the profile (a new one at every build);
    # the profile's engine is mtsim's too.
    instrumented="$root/build-sweep-pgo"
    nice -n 10 cmake -S "$root" -B "$instrumented" "${config[@]}" -DMT_PGO=generate \
      "-DMT_PGO_DIR=$instrumented/profile" >/dev/null
    nice -n 10 cmake --build "$instrumented" -j "$jobs" --target mttrain
    nice -n 10 "$root/scripts/sweep/pgo_train.sh" "$instrumented"
    pgo_config=(-DMT_PGO=use "-DMT_PGO_DIR=$instrumented/profile")
  fi
  nice -n 10 cmake -S "$root" -B "$root/build-sweep" "${config[@]}" "${pgo_config[@]}" >/dev/null
  nice -n 10 cmake --build "$root/build-sweep" -j "$jobs" --target "$tool"
fi
[ $fresh -eq 1 ] && rm -rf "$out"
rc=0
if [ $run -eq 1 ]; then
  nice -n 15 "$root/scripts/sweep/sweep.py" run "${spec_files[@]}" --out "$out" -j "$jobs" \
    "--$tool" "$bin/$tool" || rc=$?
else
  "$root/scripts/sweep/sweep.py" jobs "${spec_files[@]}" --out "$out" "--$tool" "$bin/$tool" \
    >/dev/null || rc=$?
  [ $rc -eq 0 ] && { "$root/scripts/sweep/sweep.py" collect --out "$out" || rc=$?; }
fi
[ $rc -eq 0 ] || [ $rc -eq 3 ] || exit $rc
if [ "$(wc -l < "$out/$csv")" -lt 2 ]; then
  echo "reproduce.sh: $out has no finished run; $figures/$csv and the figures are left as they are" >&2
  exit 1
fi
mkdir -p "$figures"
cp "$out/$csv" "$figures/$csv"
"$report" --csv "$figures/$csv" --plots "$out/plots" --figures "$figures" \
  --doc "$root/docs/results.md"
exit $rc
