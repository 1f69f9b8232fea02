#!/usr/bin/env bash
# The main job, from a fresh Debian machine: install dependencies, build, and simulate a 1 MiB
# all-reduce on a 4x4 torus with MultiTree on the cycle-accurate SystemC NI and router mesh,
# verified, side by side with packet-based MultiTree and ring on the same network.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
build/bin/mtsim --topology torus:4x4 --algorithm multitree --bytes 1MiB \
  --compare multitree:packet,ring:packet --json build/mtsim_torus4x4.json
