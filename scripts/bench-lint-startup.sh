#!/usr/bin/env bash
# Whole-process start-up cost of `lint` on the bundled example (this repository's own project),
# against `render` on it and `--version` (goal: `lint` within 1.5x of `render`). The bundled
# example is small: what this measures is the fixed cost of a run (start-up, loading and, for
# `lint`, compiling its patterns), which is what pre-commit pays on every commit. Not part of
# CI: timings are never asserted in tests.
#
#   scripts/bench-lint-startup.sh                  # 100 runs of each, interleaved
#   RUNS=300 scripts/bench-lint-startup.sh
#   BIN=/path/to/other/discloser scripts/bench-lint-startup.sh   # another build (before/after)
#
# The three commands run in turn, round after round, so a noisy machine slows them alike;
# medians are reported. Needs python3.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-100}
if [ -z "${BIN:-}" ]; then
  cargo build --release --quiet --bin discloser
fi
bin=${BIN:-$PWD/target/release/discloser}
python3 - "$bin" "$RUNS" <<'PY'
import statistics, subprocess, sys, time

bin, runs = sys.argv[1], int(sys.argv[2])
commands = {"--version": [bin, "--version"], "render": [bin, "render"], "lint": [bin, "lint"]}
times = {name: [] for name in commands}
for _ in range(5):
    for argv in commands.values():
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
for _ in range(runs):
    for name, argv in commands.items():
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times[name].append((time.perf_counter() - start) * 1000)
median = {name: statistics.median(t) for name, t in times.items()}
ratios = sorted(l / r for l, r in zip(times["lint"], times["render"]))
print(f"| {bin} | median of {runs} interleaved runs |")
print("|---|---:|")
for name in commands:
    print(f"| `{name}` | {median[name]:.1f} ms |")
print(f"| `lint` / `render` | {median['lint'] / median['render']:.2f} (median of paired ratios {statistics.median(ratios):.2f}) |")
PY
