#!/usr/bin/env bash
# One sweep job: job.sh OUT_DIR JOB_ID TOOL [arguments...]   (TOOL: mtsim or mttrain)
# Runs the tool under /usr/bin/time -v (wall time, peak memory into OUT_DIR/time/JOB_ID.txt),
# writes its JSON to a temporary file and renames it to OUT_DIR/json/JOB_ID.json only when
# the tool exited 0 (every all-reduce verified), so an existing JSON is a complete one (resume).
# A failed job leaves OUT_DIR/fail/JOB_ID.txt (exit code and the last lines of stderr).
# The tool runs with glibc's huge pages for the heap (GLIBC_TUNABLES glibc.malloc.hugetlb=1,
# added to any tunables already set): the same results, about 5% less time on large runs
# (docs/performance.md).
# The body is one function, read whole before it runs: editing this file during a sweep does
# not change the jobs already running.
set -uo pipefail
usage() { sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; }
main() {
  case "${1:-}" in -h|--help) usage; exit 0 ;; esac
  if [ $# -lt 3 ]; then usage >&2; echo "job.sh: need OUT_DIR JOB_ID TOOL" >&2; exit 1; fi
  local out=$1 id=$2
  shift 2
  local json="$out/json/$id.json"
  [ -s "$json" ] && exit 0   # done by an earlier run (parallel or Slurm)
  mkdir -p "$out/json" "$out/time" "$out/fail" "$out/log"
  local tmp="$json.tmp.$$" rc
  export GLIBC_TUNABLES="${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1"
  /usr/bin/time -v -o "$out/time/$id.txt" "$@" --quiet --json "$tmp" >"$out/log/$id.txt" 2>&1
  rc=$?
  if [ $rc -eq 0 ] && [ -s "$tmp" ]; then
    mv -f "$tmp" "$json"
    rm -f "$out/fail/$id.txt"
    exit 0
  fi
  rm -f "$tmp"
  { echo "exit $rc"; tail -n 20 "$out/log/$id.txt"; } >"$out/fail/$id.txt"
  echo "job.sh: $id failed (exit $rc), see $out/fail/$id.txt" >&2
  exit $rc
}
main "$@"
