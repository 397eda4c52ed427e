#!/usr/bin/env bash
# Whole-process scale benchmark: wall time (hyperfine) and peak memory (GNU time's maximum
# resident set) of `tools` (load), `render`, `lint` and `cost` on synthetic catalogs of 1,000,
# 10,000, 50,000 and 100,000 tools (examples/gen_catalog.rs) and on the shared corpora concatenated
# (every `../shared/corpora/*/tools.json`, first tool of each name: ~3,400 tools), plus
# `render` followed by `lint` on the corpora (goal: under 300 ms). Not part of CI: timings are
# never asserted in tests. The in-process, per-phase numbers come from `cargo bench -p
# discloser-bench`.
#
#   scripts/bench-scale.sh                      # every size, 5 runs each
#   SIZES="corpora 1000" RUNS=10 scripts/bench-scale.sh
#   BIN=/path/to/other/discloser scripts/bench-scale.sh   # another build
#   BASE=/path/to/old/discloser scripts/bench-scale.sh    # paired: the old build beside BIN, in
#                                                         # the same hyperfine runs (before/after)
#
# Needs hyperfine, GNU time and python3 (`apt-get install hyperfine time`). Catalogs are generated once
# into .bench/scale/; the table goes to .bench/scale.md and standard output.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "install hyperfine first (apt-get install hyperfine)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "install GNU time first (apt-get install time)" >&2; exit 2; }
SIZES=${SIZES:-"corpora 1000 10000 50000 100000"}
RUNS=${RUNS:-5}
cargo build --release --quiet --bin discloser --example gen_catalog
bin=${BIN:-$PWD/target/release/discloser}
gen=$PWD/target/release/examples/gen_catalog
out=.bench/scale
mkdir -p "$out"
table=${TABLE:-.bench/scale.md}
base=${BASE:-}
{
  if [ -n "$base" ]; then
    echo "| command | tools | before (mean ± σ, $RUNS runs) | after | after / before | peak memory before | after |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
  else
    echo "| command | tools | wall time (mean ± σ, $RUNS runs) | peak memory |"
    echo "|---|---:|---:|---:|"
  fi
} > "$table"
# GNU time prints the maximum resident set (KB) as the last line of standard error.
peak_of() { ( /usr/bin/time -f '%M' "$1" --config "$2" "$3" 2>&1 >/dev/null || true ) | tail -1; }
for size in $SIZES; do
  dir=$out/$size
  if [ ! -f "$dir/discloser.yaml" ]; then
    if [ "$size" = corpora ]; then "$gen" corpora "$dir"; else "$gen" "$size" "$dir"; fi
  fi
  config=$dir/discloser.yaml
  for cmd in tools render lint cost; do
    if [ -n "$base" ]; then
      hyperfine -N -i --warmup 1 --runs "$RUNS" --export-json "$dir/bench-$cmd-paired.json" \
        "$base --config $config $cmd" "$bin --config $config $cmd" > /dev/null
      times=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results']; f=lambda x: f\"{x['mean']*1000:,.0f} ± {x['stddev']*1000:,.0f} ms\"; print(f'{f(r[0])} | {f(r[1])} | {r[1][\"mean\"]/r[0][\"mean\"]:.2f}')" "$dir/bench-$cmd-paired.json")
      echo "| \`$cmd\` | $size | $times | $(( $(peak_of "$base" "$config" "$cmd") / 1024 )) MB | $(( $(peak_of "$bin" "$config" "$cmd") / 1024 )) MB |" >> "$table"
      continue
    fi
    # `lint` exits 1 when it finds something: that is a result, not a failure (-i).
    hyperfine -N -i --warmup 1 --runs "$RUNS" --export-json "$dir/bench-$cmd.json" \
      "$bin --config $config $cmd" > /dev/null
    mean=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print(f\"{r['mean']*1000:,.0f} ± {r['stddev']*1000:,.0f} ms\")" "$dir/bench-$cmd.json")
    peak=$(peak_of "$bin" "$config" "$cmd")
    echo "| \`$cmd\` | $size | $mean | $((peak / 1024)) MB |" >> "$table"
  done
  if [ "$size" = corpora ] && [ -z "$base" ]; then
    hyperfine -i --warmup 1 --runs "$RUNS" --export-json "$dir/bench-render-lint.json" \
      "$bin --config $config render > /dev/null; $bin --config $config lint > /dev/null" > /dev/null
    mean=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print(f\"{r['mean']*1000:,.0f} ± {r['stddev']*1000:,.0f} ms\")" "$dir/bench-render-lint.json")
    echo "| \`render\` then \`lint\` | $size | $mean | |" >> "$table"
  fi
done
cat "$table"
