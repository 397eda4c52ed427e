#!/usr/bin/env bash
# Output bytes unchanged: runs a base build and this build of discloser side by side and compares
# standard output, standard error and exit code of every command, byte for byte, on
# - every tool file under ../shared/corpora (`.json` and `.snap`), each on its own;
# - the bundled example (`discloser.yaml` at the root);
# - a synthetic mixed catalog (YAML, native JSON and MCP JSON; examples/gen_catalog.rs) of
#   $SYNTH tools, and the same catalog all JSON.
# Commands: `render`, `tools`, `tools --format json`, `cost`, `lint`, `lint --format json`.
# Prints every difference and exits 1 when there is one; 0 when every output is the same.
#
#   BASE=/tmp/perf4-base/discloser scripts/bytediff.sh
#   BASE=... BIN=target/release/discloser SYNTH=2000 scripts/bytediff.sh
#   COMMANDS='render|tools|cost' BASE=... scripts/bytediff.sh
#
# Not part of CI: it needs a second build to compare against.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${BASE:-/tmp/perf4-base/discloser}
bin=${BIN:-$PWD/target/release/discloser}
synth=${SYNTH:-3000}
[ -x "$base" ] || { echo "no base binary at \`$base\` (set BASE)" >&2; exit 2; }
[ -x "$bin" ] || { echo "no binary at \`$bin\` (set BIN)" >&2; exit 2; }
gen=$PWD/target/release/examples/gen_catalog
[ -x "$gen" ] || cargo build --release --quiet --example gen_catalog
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$gen" "$synth" "$work/mixed" >/dev/null
"$gen" --json "$synth" "$work/json" >/dev/null

# One case per line: a label, then the arguments after the binary.
cases=$work/cases
# COMMANDS="render|tools|cost" compares only those (when lint's findings changed on purpose).
IFS='|' read -r -a commands <<< "${COMMANDS:-render|tools|tools --format json|cost|lint|lint --format json}"
{
  for c in "${commands[@]}"; do
    echo "example|--config $PWD/discloser.yaml $c"
    echo "mixed-$synth|--config $work/mixed/discloser.yaml $c"
    echo "json-$synth|--config $work/json/discloser.yaml $c"
  done
  find ../shared/corpora -type f \( -name '*.json' -o -name '*.snap' \) | sort | while read -r f; do
    for c in "${commands[@]}"; do
      # The command first, the file after: `discloser render FILE`.
      echo "$f|$c $PWD/$f"
    done
  done
} > "$cases"

compare() { # label|args
  local label=${1%%|*} args=${1#*|} d
  d=$(mktemp -d -p "$work")
  # shellcheck disable=SC2086
  (cd "$d" && "$base" $args >"$d/base.out" 2>"$d/base.err"; echo $? >"$d/base.rc")
  # shellcheck disable=SC2086
  (cd "$d" && "$bin" $args >"$d/new.out" 2>"$d/new.err"; echo $? >"$d/new.rc")
  for part in out err rc; do
    if ! cmp -s "$d/base.$part" "$d/new.$part"; then
      echo "DIFF ($part) $label: discloser $args"
    fi
  done
  rm -rf "$d"
}
export -f compare
export base bin work
total=$(wc -l <"$cases")
diffs=$(tr '\n' '\0' <"$cases" | xargs -0 -P "${JOBS:-2}" -I{} bash -c 'compare "$1"' _ {})
if [ -n "$diffs" ]; then
  echo "$diffs"
  echo "bytediff: $(echo "$diffs" | wc -l) difference(s) in $total runs" >&2
  exit 1
fi
echo "bytediff: $total runs, stdout, stderr and exit code identical"
