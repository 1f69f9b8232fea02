#!/usr/bin/env bash
# The training run of a profile-guided build: runs the instrumented mttrain of BUILD_DIR
# (configured with -DMT_PGO=generate) on a small workload (pgo/training.json) on the Fig. 11
# network, writing a new profile into its MT_PGO_DIR; a build configured with -DMT_PGO=use and
# the same MT_PGO_DIR is then compiled with it (docs/performance.md, "The sweeps' build").
#
#   scripts/sweep/pgo_train.sh BUILD_DIR
#
# The profile directory is emptied first, so the profile is this run's alone. The runs are the
# Fig. 11 sweep's command lines (torus:8x8, --config paper, mttrain -j 1, sampled data) for
# Ring, 2D-Ring, DBTree and MultiTree packet-based and MultiTree message-based, each layer-wise
# (the three layers' all-reduces), and the message-based one also non-overlapped (the whole
# model's), without address-space randomisation where the machine allows it. Two runs of the
# same binary write the same counts but for a few in the handling of the simulations' measured
# wall times. About 20 s of one core.
# Exit code: 0 with a profile written; 1 on bad arguments, a build directory that is not an
# instrumented one, or a run that failed or wrote no profile.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "pgo_train.sh: $*" >&2; exit 1; }
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  -*) usage >&2; die "unknown option $1" ;;
esac
[ $# -eq 1 ] || { usage >&2; die "need one argument, the build directory"; }
build=$1
cache="$build/CMakeCache.txt"
[ -f "$cache" ] || die "$build is not a CMake build directory (no CMakeCache.txt)"
value() { sed -n "s/^$1:[A-Z]*=//p" "$cache"; }
[ "$(value MT_PGO)" = generate ] || \
  die "$build is not configured with -DMT_PGO=generate (MT_PGO is '$(value MT_PGO)')"
profile=$(value MT_PGO_DIR)
[ -n "$profile" ] || die "$build has no MT_PGO_DIR"
tool="$build/bin/mttrain"
[ -x "$tool" ] || die "$tool is not built (cmake --build $build --target mttrain)"
workload="$here/pgo/training.json"
[ -f "$workload" ] || die "$workload is missing"

# Without address-space randomisation where the machine allows it, so the heap addresses the
# profile records (for the alignment of memory copies) are the same from run to run.
fixed=(setarch "$(uname -m)" -R)
"${fixed[@]}" true 2>/dev/null || fixed=()

rm -rf "$profile"
mkdir -p "$profile"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() {  # ALGORITHM FLOW_CONTROL OVERLAP
  "${fixed[@]}" "$tool" --workload "$workload" --overlap "$3" -j 1 --topology torus:8x8 \
    --algorithm "$1" --flow-control "$2" --config paper --quiet --json "$out/run.json" \
    >"$out/log" 2>&1 || { cat "$out/log" >&2; die "mttrain $1 $2 --overlap $3 failed"; }
}
for alg in ring ring2d dbtree multitree; do run "$alg" packet layer; done
run multitree message layer
run multitree message none
n=$(find "$profile" -name '*.gcda' | wc -l)
[ "$n" -gt 0 ] || die "the runs wrote no profile into $profile"
echo "pgo_train.sh: $n profile files in $profile"
