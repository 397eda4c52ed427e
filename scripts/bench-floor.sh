#!/usr/bin/env bash
# `render` against the JSON parse floor: the whole `discloser render` process beside the least a
# process reading the same catalog can do, `examples/parse_floor.rs` (read every `.json` file,
# `serde_json::from_slice::<serde_json::Value>` it, on one thread, exit). Both run in one
# hyperfine session (paired, interleaved warm-ups), on:
# - `corpora`: the shared corpora united into one file (examples/gen_catalog.rs `corpora`);
# - N tools: the synthetic catalog written all-JSON (`gen_catalog --json N`), the same files for
#   both; and `render` on the scale table's mixed catalog (a third YAML) beside the same floor.
# Reports medians, the ratio render / floor (goal: at most 2) and render's peak resident memory
# per tool (GNU time). Not part of CI: timings are never asserted in tests.
#
#   scripts/bench-floor.sh                         # corpora, 10,000 and 100,000 tools, 10 runs
#   SIZES="corpora 1000" RUNS=20 scripts/bench-floor.sh
#   BIN=/path/to/other/discloser scripts/bench-floor.sh
#
# Needs hyperfine, GNU time and python3. Catalogs are generated once into .bench/.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "install hyperfine first (apt-get install hyperfine)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "install GNU time first (apt-get install time)" >&2; exit 2; }
SIZES=${SIZES:-"corpora 10000 100000"}
RUNS=${RUNS:-10}
cargo build --release --quiet --bin discloser --example gen_catalog --example parse_floor
bin=${BIN:-$PWD/target/release/discloser}
gen=$PWD/target/release/examples/gen_catalog
floor=$PWD/target/release/examples/parse_floor
table=${TABLE:-.bench/floor.md}
median() {
  python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results']; print(' '.join(str(x['median']) for x in r))" "$1"
}
mkdir -p "$(dirname "$table")"
{
  echo "| catalog | tools | floor (median) | \`render\` (median) | render / floor | render peak memory |"
  echo "|---|---:|---:|---:|---:|---:|"
} > "$table"
row() { # label, tools, json export, config
  read -r f r < <(median "$3")
  peak=$( (/usr/bin/time -f '%M' "$bin" --config "$4" render 2>&1 >/dev/null || true) | tail -1 )
  python3 - "$1" "$2" "$f" "$r" "$peak" >> "$table" <<'PY'
import sys
label, tools, f, r, peak = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
print(f"| {label} | {tools:,} | {f*1000:,.0f} ms | {r*1000:,.0f} ms | {r/f:.2f} | {peak/1024:,.0f} MB ({peak/tools:.2f} KB per tool) |")
PY
}
for size in $SIZES; do
  if [ "$size" = corpora ]; then
    dir=.bench/scale/corpora
    [ -f "$dir/discloser.yaml" ] || "$gen" corpora "$dir"
    n=$(python3 -c "import json; print(len(json.load(open('$dir/tools.json'))))")
    hyperfine -N -i --warmup 2 --runs "$RUNS" --export-json "$dir/bench-floor.json" \
      "$floor $dir/tools.json" "$bin --config $dir/discloser.yaml render" > /dev/null
    row "shared corpora (one file)" "$n" "$dir/bench-floor.json" "$dir/discloser.yaml"
    continue
  fi
  json=.bench/floor/$size-json
  mixed=.bench/scale/$size
  [ -f "$json/discloser.yaml" ] || "$gen" --json "$size" "$json"
  [ -f "$mixed/discloser.yaml" ] || "$gen" "$size" "$mixed"
  hyperfine -N -i --warmup 2 --runs "$RUNS" --export-json "$json/bench-floor.json" \
    "$floor $json/tools" "$bin --config $json/discloser.yaml render" > /dev/null
  row "synthetic, all JSON" "$size" "$json/bench-floor.json" "$json/discloser.yaml"
  hyperfine -N -i --warmup 2 --runs "$RUNS" --export-json "$mixed/bench-floor.json" \
    "$floor $json/tools" "$bin --config $mixed/discloser.yaml render" > /dev/null
  row "synthetic, a third YAML (vs the all-JSON floor)" "$size" "$mixed/bench-floor.json" "$mixed/discloser.yaml"
done
cat "$table"
