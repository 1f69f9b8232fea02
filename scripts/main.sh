#!/usr/bin/env bash
# The main job, from a fresh Debian machine: install dependencies, build mtsim (and only what it
# needs), and simulate a 1 MiB all-reduce on a 4x4 torus with MultiTree on the cycle-accurate
# SystemC NI and router mesh, verified, side by side with packet-based MultiTree and ring on the
# same network.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# A new build directory is configured without the tests, RTL test benches and benchmarks
# (MT_TESTS=OFF) and without the RTL NI in mtsim (MT_COSIM=OFF: nothing is Verilated);
# scripts/test.sh turns both on.
options=()
[ -f "${BUILD_DIR:-build}/CMakeCache.txt" ] || options=(-DMT_TESTS=OFF -DMT_COSIM=OFF)
bash scripts/build.sh --target mtsim ${options[@]+"${options[@]}"}
"${BUILD_DIR:-build}"/bin/mtsim --topology torus:4x4 --algorithm multitree --bytes 1MiB \
  --compare multitree:packet,ring:packet --json "${BUILD_DIR:-build}"/mtsim_torus4x4.json
