#!/usr/bin/env bash
# Documents describe the project as it is; its history is in git. Fails, naming file and line,
# when a tracked text file (documents, sources, scripts; not tests/golden, not binary files)
#   - names a commit as a measurement's baseline: a 7- to 40-digit hex word with a letter and a
#     digit right after "at", "against", "before", "after", "build", "baseline", "commit(s)",
#     or right before "->" (a before -> after table), or
#   - describes how the work was organised instead of the project ("this stop", "in this
#     session", "tried and dropped", ...; case-insensitive).
#   tests/scripts/doc_phrases.sh [SOURCE_DIR]     (default: the repository holding this script)
set -euo pipefail
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$src"
self=tests/scripts/doc_phrases.sh
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  list() { git ls-files -z; }
else
  list() { find . -path ./build -prune -o -path ./.git -prune -o -type f -print0 | sed -z 's|^\./||'; }
fi
hex='(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}'
hash_re="\\b(at|against|before|after|build|baseline|commits?)\\s+[(\`]?${hex}\\b|\\b${hex}\`?\\s*->"
phrase_re="tried and dropped|this stop|last stop|a later stop|previous stop|this session|helper's branch"
status=0
files=()
while IFS= read -r -d '' f; do
  case "$f" in "$self"|tests/golden/*) continue ;; esac
  [ -f "$f" ] && files+=("$f")
done < <(list)
# -I skips binary files (images, .bin).
# xargs may split the list: a match is what grep prints, not its exit status.
out=$(printf '%s\0' "${files[@]}" | xargs -0 grep -I -n -i -P -- "$hash_re" || true)
if [ -n "$out" ]; then
  echo "doc_phrases: a commit hash used as a baseline (state the current value, or a ratio to a"
  echo "named configuration; history is in git):"
  echo "$out"
  status=1
fi
out=$(printf '%s\0' "${files[@]}" | xargs -0 grep -I -n -i -E -- "$phrase_re" || true)
if [ -n "$out" ]; then
  echo "doc_phrases: words about how the work was organised (describe the project as it is):"
  echo "$out"
  status=1
fi
[ $status -eq 0 ] && echo "doc_phrases: ${#files[@]} tracked files, none with a commit baseline or a work-history phrase"
exit $status
