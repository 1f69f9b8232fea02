#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan, -DMT_FUZZ=ON, into build-fuzz/) and runs
# each for SECONDS (default 60) at low priority, then prints its executions and findings.
#   scripts/fuzz.sh [SECONDS] [TARGET...]      targets: image manifest topology plan
# New corpus entries go to build-fuzz/corpus/TARGET (the checked-in seeds in fuzz/corpus stay
# as they are); a finding is written to build-fuzz/findings/TARGET/ and makes the exit code 1:
# copy it to fuzz/crashes/TARGET/ with the fix, so fuzz_replay runs it on every ctest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${MT_FUZZ_BUILD:-$root/build-fuzz}"
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(image manifest topology plan)

nice -n 15 cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMT_FUZZ=ON \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
nice -n 15 cmake --build "$build" -j2 --target "${targets[@]/#/fuzz_}" >/dev/null

status=0
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t" findings="$build/findings/$t"
  mkdir -p "$corpus" "$findings"
  dict=()
  [ -f "$root/fuzz/dict/$t.dict" ] && dict=(-dict="$root/fuzz/dict/$t.dict")
  log="$build/fuzz_$t.log"
  # -timeout 10: an input taking longer is a finding (a hang), as is a crash or a leak.
  nice -n 15 "$build/bin/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$findings/" "${dict[@]}" \
    "$corpus" "$root/fuzz/corpus/$t" >"$log" 2>&1 || true
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  found=$(find "$findings" -type f | wc -l)
  if [ "$found" -eq 0 ]; then
    echo "fuzz $t: ${execs:-0} executions in ${seconds} s, no finding"
  else
    echo "fuzz $t: ${execs:-0} executions in ${seconds} s, $found finding(s) in $findings (log $log)"
    status=1
  fi
done
exit $status
