"""The wheel's `discloser` command is the Rust binary: same bytes, same exit codes."""

from __future__ import annotations

import pytest

from conftest import ROOT, corpus_files, run

EXAMPLE_COMMANDS = [
    ["--version"],
    ["render"],
    ["render", "--profile", "filling_form"],
    ["render", "--profile", "nope"],
    ["render", "--style", "markdown"],
    ["check"],
    ["lint"],
    ["lint", "--format", "json"],
    ["cost"],
    ["cost", "--format", "json", "--by-tool"],
    ["search", "我想写商业计划书"],
    ["search", "zzzz-nothing"],
    ["tools"],
    ["export", "--provider", "anthropic"],
    ["trace", "--classify", "tests/fixtures/trace/bilingual.jsonl"],
    ["no-such-command"],
    ["render", "no/such/file.yaml"],
]


@pytest.mark.parametrize("args", EXAMPLE_COMMANDS, ids=lambda a: " ".join(a))
def test_example_commands_match_the_rust_binary(binaries, args):
    rust, wheel = binaries
    assert run([wheel, *args]) == run([rust, *args])


def test_every_corpus_file_renders_alike(binaries, corpora):
    rust, wheel = binaries
    files = corpus_files(corpora)
    assert len(files) > 200
    differ = []
    for path in files:
        args = ["render", str(path.relative_to(corpora))]
        if run([wheel, *args], cwd=corpora) != run([rust, *args], cwd=corpora):
            differ.append(args[1])
    assert differ == []


def test_python_dash_m_is_the_command(binaries):
    import sys

    rust, _ = binaries
    assert run([sys.executable, "-m", "discloser", "render"]) == run([rust, "render"])


def test_render_of_the_wheel_is_the_snapshot(binaries):
    _, wheel = binaries
    code, out, _ = run([wheel, "render"])
    assert code == 0
    assert out == (ROOT / "snapshots/default/index.txt").read_bytes()
