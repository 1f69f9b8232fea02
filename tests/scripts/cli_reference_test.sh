#!/usr/bin/env bash
# docs/cli.md is the tools' --help as built: regenerates it into a temporary file and fails,
# showing the difference and the command that regenerates it, when the two differ.
#   tests/scripts/cli_reference_test.sh BIN_DIR SOURCE_DIR
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
bash "$src/scripts/cli_reference.sh" "$bin" > "$tmp"
if ! diff -u "$src/docs/cli.md" "$tmp"; then
  echo
  echo "cli_reference: docs/cli.md differs from the tools' --help (diff above: - the document,"
  echo "+ the tools). Regenerate it from the source directory with:"
  echo "  scripts/cli_reference.sh build/bin > docs/cli.md"
  exit 1
fi
echo "cli_reference: docs/cli.md is the --help of mtc, its subcommands, mtsim, noc-sim and mttrain"
