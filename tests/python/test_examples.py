"""The two agent examples run offline and print the trace summary `discloser trace` prints."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT, run, rust_binary

EXAMPLES = {"openai_agent": "openai", "anthropic_agent": "anthropic"}


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_example_runs_offline_and_summarises_its_trace(example, tmp_path):
    pytest.importorskip(EXAMPLES[example])
    trace = tmp_path / "trace.jsonl"
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples/python" / f"{example}.py"), str(trace)],
        capture_output=True,
        cwd=tmp_path,
        check=True,
    )
    out = done.stdout.decode()
    # The seed's first call: composed from the index line alone, it fails, then is corrected.
    assert "[AI] view_startup_guide args={}\n[TOOL] missing 1 required positional argument: 'kind'\n" in out
    turns = [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()]
    assert [t["turn"] for t in turns] == [1, 2, 3, 4, 5]
    origins = [c["origin"] for t in turns for c in t["tools"]]
    assert origins == ["bound", "catalog", "catalog", "bound", "bound", "search", "unknown", "catalog"]
    summary = out[out.index("turns: 5") :]
    rust = rust_binary()
    if rust is not None:
        code, cli, _ = run([str(rust), "trace", str(trace)])
        assert code == 0
        assert summary.encode() == cli
