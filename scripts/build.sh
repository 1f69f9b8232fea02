#!/usr/bin/env bash
# Configures and builds the project into build/ (or $BUILD_DIR). Extra arguments go to cmake.
# Warnings are errors when CI is set (CI runs .ci/run with CI=true).
#
# Builds every target unless targets are named, with --target NAME (repeatable) or the
# space-separated BUILD_TARGETS: `scripts/build.sh --target mtsim` builds mtsim and what it
# needs, nothing else (no test, benchmark or RTL test bench).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
read -r -a targets <<<"${BUILD_TARGETS:-}"
cmake_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --target) [ $# -ge 2 ] || { echo "build.sh: --target needs a name" >&2; exit 1; }
              targets+=("$2"); shift 2 ;;
    --target=*) targets+=("${1#--target=}"); shift ;;
    *) cmake_args+=("$1"); shift ;;
  esac
done
werror=OFF
[ -n "${CI:-}" ] && werror=ON
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DMT_WERROR="$werror" \
    ${cmake_args[@]+"${cmake_args[@]}"}
else
  cmake -S . -B "$build_dir" -DMT_WERROR="$werror" ${cmake_args[@]+"${cmake_args[@]}"}
fi
target_args=()
for t in ${targets[@]+"${targets[@]}"}; do target_args+=(--target "$t"); done
cmake --build "$build_dir" -j "$(nproc)" ${target_args[@]+"${target_args[@]}"}
