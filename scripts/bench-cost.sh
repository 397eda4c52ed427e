#!/usr/bin/env bash
# Whole-process timings of `discloser cost` (and, for comparison, OpenAI's Python tiktoken
# counting the same text), with hyperfine. Not part of CI: timings are never asserted in tests.
#
#   scripts/bench-cost.sh            # discloser only
#   WITH_PYTHON=1 scripts/bench-cost.sh   # also Python tiktoken (pip-installs it into .bench/venv)
#
# Needs: hyperfine (`apt-get install hyperfine`). Python tiktoken runs offline: its vocabulary
# files are taken from the tiktoken-rs crate in the cargo registry (a build dependency of
# discloser) and placed in TIKTOKEN_CACHE_DIR under the names tiktoken looks for; tiktoken
# verifies their sha256 itself.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "install hyperfine first (apt-get install hyperfine)" >&2; exit 2; }
cargo build --release --quiet
bin=target/release/discloser
mkdir -p .bench
# The text a profile pays for: every tool definition plus the index, as `cost` counts it.
{ for f in tools/*.yaml; do cat "$f"; done; $bin render; } > .bench/sample.txt
cmds=("$bin cost" "$bin cost --tokenizer cl100k" "$bin cost --tokenizer chars" "$bin render")
if [ -n "${WITH_PYTHON:-}" ]; then
  [ -x .bench/venv/bin/python ] || { python3 -m venv .bench/venv && .bench/venv/bin/pip install -q tiktoken; }
  assets=$(ls -d ~/.cargo/registry/src/*/tiktoken-rs-*/assets | tail -1)
  mkdir -p .bench/tiktoken_cache
  cp "$assets/o200k_base.tiktoken" .bench/tiktoken_cache/fb374d419588a4632f3f557e76b4b70aebbca790
  cp "$assets/cl100k_base.tiktoken" .bench/tiktoken_cache/9b5ad71b2ce5302211f9c61530b329a4922fc6a4
  export TIKTOKEN_CACHE_DIR=$PWD/.bench/tiktoken_cache
  cmds+=(".bench/venv/bin/python -c 'import sys,tiktoken; print(len(tiktoken.get_encoding(\"o200k_base\").encode(open(sys.argv[1]).read(), disallowed_special=())))' .bench/sample.txt")
fi
hyperfine -N --warmup 3 --runs "${RUNS:-30}" --export-markdown .bench/cost.md "${cmds[@]}"
cat .bench/cost.md
