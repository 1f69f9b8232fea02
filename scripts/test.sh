#!/usr/bin/env bash
# The whole default test suite, from a fresh Debian machine: install dependencies, build, run
# every ctest test except those labelled slow. Pass -L slow (or any ctest option) to choose.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh -DMT_TESTS=ON -DMT_COSIM=ON
if [ $# -eq 0 ]; then set -- -LE slow; fi
ctest --test-dir build --output-on-failure -j "$(nproc)" "$@"
