#!/usr/bin/env bash
# The main job, from a fresh Debian machine: install dependencies, build, and compile the
# MultiTree plan of a 4x4 torus, printing its verified schedule tables.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
build/bin/mtc plan --topology torus:4x4 --algorithm multitree --out build/schedules/torus4x4
