#!/usr/bin/env bash
# The Python package in CI: build the wheel once (release), install it into fresh virtual
# environments and check it from there: the command (`--version`, the README's render), the
# type stubs (mypy), the pytest suite (parity with the Rust binary on the example and the shared
# corpora, errors, threads, the GIL), the two agent examples offline, and the suite's API tests
# again without Pydantic (what works without the optional extra).
#
#   bash .ci/python.sh [SCRATCH [TOOLS_VENV]]
#
# SCRATCH: a directory for wheels and environments (default: a new temporary one);
# TOOLS_VENV: a virtual environment holding maturin (default: one made in SCRATCH, maturin
# pinned as in .ci/run). Versions of everything installed from PyPI are pinned here.
set -euo pipefail
cd "$(dirname "$0")/.."
export CI="${CI:-true}"
export CARGO_TERM_COLOR=never

MATURIN=1.16.0
PYTEST=9.2.0
MYPY=2.4.1
OPENAI=3.57.0
ANTHROPIC=2.15.0
PIP=(--quiet --disable-pip-version-check)

if [ $# -ge 1 ]; then
  SCRATCH="$1"
else
  SCRATCH="$(mktemp -d)"
  trap 'rm -rf "$SCRATCH"' EXIT
fi
TOOLS="${2:-$SCRATCH/tools}"
if [ ! -x "$TOOLS/bin/maturin" ]; then
  python3 -m venv "$TOOLS"
  "$TOOLS/bin/pip" install "${PIP[@]}" "maturin==$MATURIN"
fi
TARGET="${CARGO_TARGET_DIR:-$PWD/target}"

echo "== python: the Rust binary the parity tests compare against"
cargo build --release --locked --bin discloser
export DISCLOSER_TEST_BIN="$TARGET/release/discloser"

echo "== python: build the wheel (abi3, release)"
started=$SECONDS
rm -rf "$SCRATCH/wheels"
"$TOOLS/bin/maturin" build --release --locked --out "$SCRATCH/wheels"
wheel="$(ls "$SCRATCH"/wheels/discloser-*.whl)"
echo "wheel: $(basename "$wheel"), $(du -k "$wheel" | cut -f1) KiB"

echo "== python: install it into a fresh virtual environment with the pinned test tools"
rm -rf "$SCRATCH/venv"
python3 -m venv "$SCRATCH/venv"
VENV="$SCRATCH/venv"
"$VENV/bin/pip" install "${PIP[@]}" --no-index "$wheel"
"$VENV/bin/pip" install "${PIP[@]}" "pytest==$PYTEST" "mypy==$MYPY" "openai==$OPENAI" "anthropic==$ANTHROPIC"
version="$(cargo metadata --no-deps --format-version 1 --locked \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["packages"][0]["version"])')"
(
  export PATH="$VENV/bin:$PATH"
  echo "== python: the command from the environment"
  test "$(command -v discloser)" = "$VENV/bin/discloser"
  test "$(discloser --version)" = "discloser $version"
  discloser --version
  discloser render | cmp - snapshots/default/index.txt
  python -c 'import discloser, sys; assert discloser.__version__ == sys.argv[1]' "$version"

  echo "== python: type stubs and a typed usage file (mypy --strict)"
  mypy --strict --no-incremental crates/discloser-py/python/discloser tests/python/typed_usage.py

  echo "== python: pytest against the installed wheel"
  # From another directory, so `import discloser` is the installed package, not the source.
  (cd "$SCRATCH" && python -m pytest -q -p no:cacheprovider "$OLDPWD/tests/python")

  echo "== python: the agent examples, offline (a scripted stand-in for the model)"
  for example in openai_agent anthropic_agent; do
    rm -f "$SCRATCH/$example.jsonl"
    python "examples/python/$example.py" "$SCRATCH/$example.jsonl" > "$SCRATCH/$example.out"
    grep -q '^turns: 5 in 1 session' "$SCRATCH/$example.out"
    grep -q '^tool calls: 8: bound 3, catalog 3, search 1, unknown 1$' "$SCRATCH/$example.out"
    tail -n +1 "$SCRATCH/$example.out" | sed -n '/^turns:/,$p'
  done
)

echo "== python: without Pydantic (only pytest beside the wheel)"
rm -rf "$SCRATCH/bare"
python3 -m venv "$SCRATCH/bare"
"$SCRATCH/bare/bin/pip" install "${PIP[@]}" --no-index "$wheel"
"$SCRATCH/bare/bin/pip" install "${PIP[@]}" "pytest==$PYTEST"
"$SCRATCH/bare/bin/python" -c 'import importlib.util as u; assert u.find_spec("pydantic") is None'
(cd "$SCRATCH" && "$SCRATCH/bare/bin/python" -m pytest -q -p no:cacheprovider "$OLDPWD/tests/python/test_api.py")

echo "python step: $((SECONDS - started)) s"
