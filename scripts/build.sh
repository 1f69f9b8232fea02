#!/usr/bin/env bash
# Configures and builds the project into build/ (or $BUILD_DIR). Extra arguments go to cmake.
# Warnings are errors when CI is set (CI runs .ci/run with CI=true).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
werror=OFF
[ -n "${CI:-}" ] && werror=ON
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DMT_WERROR="$werror" "$@"
else
  cmake -S . -B "$build_dir" -DMT_WERROR="$werror" "$@"
fi
cmake --build "$build_dir" -j "$(nproc)"
