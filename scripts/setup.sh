#!/usr/bin/env bash
# Installs every system dependency of the project from Debian packages.
# Idempotent: running it again installs nothing new. Needs root (or sudo).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  # host_sw
  libboost-dev libboost-program-options-dev libcli11-dev nlohmann-json3-dev libfmt-dev
  zlib1g-dev graphviz
  # host_sw: mtree's MILP (algorithms/mtree_milp.cpp) through GLPK's C API
  libglpk-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev
  # systemc/, rtl/, tb/
  libsystemc-dev verilator yosys opensta qflow-tech-osu018
  # plots (noc-sim latency-throughput curves, scripts/sweep figures)
  gnuplot-nox
  # sweeps (scripts/sweep): GNU parallel runs the jobs, GNU time measures each one
  parallel time python3
  # waves: GTKWave to view them, and its vcd2fst for mtsim --trace *.fst
  gtkwave
  # fuzzing (scripts/fuzz.sh, -DMT_FUZZ=ON): clang and its libFuzzer runtime
  clang libclang-rt-14-dev
)

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup.sh: run as root or install sudo" >&2; exit 1; }
  sudo=sudo
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup.sh: all ${#packages[@]} packages already installed"
  exit 0
fi

echo "setup.sh: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
