#!/usr/bin/env bash
# The installed package from outside the source tree: installs the build (as built: run it
# after the build, as scripts/test.sh does) into a temporary prefix, configures and builds
# the examples against that prefix alone, with warnings as errors, and runs them.
# FLAGS are added to the example's compile and link flags (the sanitizers of the build).
#   tests/scripts/install_example.sh BUILD_DIR SOURCE_DIR [FLAGS]
set -euo pipefail
[ $# -eq 2 ] || [ $# -eq 3 ] ||
  { echo "usage: install_example.sh BUILD_DIR SOURCE_DIR [FLAGS]" >&2; exit 2; }
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
flags=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" > "$tmp/install.log" ||
  { cat "$tmp/install.log"; echo "install_example: cmake --install $build failed (is everything built?)" >&2; exit 1; }
for tool in mtc mtsim noc-sim mttrain; do
  "$prefix/bin/$tool" --help > /dev/null ||
    { echo "install_example: the installed $tool does not run" >&2; exit 1; }
done
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
# Builds examples/$1 against the prefix alone, runs it and checks that it says PASS.
example() {
  cmake -S "$src/examples/$1" -B "$tmp/$1" "${generator[@]}" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_FLAGS="-Werror $flags" \
    -DCMAKE_EXE_LINKER_FLAGS="$flags" \
    > "$tmp/configure.log" ||
    { cat "$tmp/configure.log"; echo "install_example: configuring $1 failed" >&2; exit 1; }
  cmake --build "$tmp/$1" ||
    { echo "install_example: building $1 against $prefix failed" >&2; exit 1; }
  local status=0
  SC_COPYRIGHT_MESSAGE=DISABLE "$tmp/$1/$1" > "$tmp/out.txt" || status=$?
  cat "$tmp/out.txt"
  if [ "$status" -ne 0 ] || ! grep -qx PASS "$tmp/out.txt"; then
    echo "install_example: $1 exited $status without PASS" >&2
    exit 1
  fi
}
example systemc_loopback
# The RTL NI's example when the package has it (a build with MT_COSIM=ON).
if [ -f "$prefix/include/multitree_ni/Vcosim_ni.h" ]; then example verilated_ni; fi
echo "install_example: installed, built the examples against the package and ran them"
