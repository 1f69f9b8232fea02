#!/usr/bin/env bash
# Area and timing of the RTL NI in the OSU 0.18 um standard cells, in one command: Yosys
# synthesis (hierarchy kept per block, and flattened), the storage arrays as SRAM and as
# flip-flops, OpenSTA timing (critical path, slack, fmax). Writes build/area/report.json and
# build/area/report.md (or --out DIR). The same as `cmake --build build --target area`.
#
#   scripts/area.sh [--nodes N] [--k K] [--lanes L] [--buffer-flits F] [--out DIR] [...]
#   scripts/area.sh --aggregation [--flows F] [--children C] [--slots S] [--ni-report JSON]
#
# --aggregation: the switch aggregation unit's window instead (scripts/area/aggregation.py,
# build/area_aggregation/report.md; seconds).
#
# Every option and its default: scripts/area.sh --help (scripts/area/area.py). Uses the
# build in build/ (or $BUILD_DIR) for the generated format include and mtc, configuring and
# building mtc first if they are missing. Tools run under nice -n 15. Exit codes: 0 report
# written, 1 bad arguments, 2 a tool failed (its log is named).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
case "${1:-}" in
  -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; echo
             exec python3 "$root/scripts/area/area.py" --help ;;
esac
if [ "${1:-}" = "--aggregation" ]; then
  shift
  if [ ! -f "$build/format/generated/ni_formats.svh" ]; then
    BUILD_DIR=$build "$root/scripts/build.sh" >/dev/null
  fi
  exec python3 "$root/scripts/area/aggregation.py" --include "$build/format/generated" \
    --out "$build/area_aggregation" "$@"
fi
if [ ! -x "$build/bin/mtc" ] || [ ! -f "$build/format/generated/ni_formats.svh" ]; then
  [ -f "$build/CMakeCache.txt" ] || BUILD_DIR=$build "$root/scripts/build.sh" >/dev/null
  nice -n 15 cmake --build "$build" --target mtc -j 2 >/dev/null
fi
exec python3 "$root/scripts/area/area.py" --include "$build/format/generated" \
  --mtc "$build/bin/mtc" --out "$build/area" "$@"
