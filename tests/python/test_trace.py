"""TraceWriter writes what `discloser trace` reads, one flushed line per turn, from any thread."""

from __future__ import annotations

import json
import threading

import pytest

import discloser
from conftest import run, rust_binary


def test_trace_lines_read_back_and_summarise_like_the_cli(example, tmp_path):
    path = tmp_path / "trace.jsonl"
    with discloser.TraceWriter(path) as trace:
        first = example.resolve("view_startup_guide", {})
        second = example.resolve("view_startup_guide", {"kind": "business_plan"})
        trace.turn(
            session="s01",
            turn=1,
            model="scripted",
            tools=[first.call(ok=False, error="missing 1 required positional argument: 'kind'"), second.call(ok=True)],
        )
        trace.turn(session="s01", turn=2, tools=[{"name": "view_guide", "arguments": {}}], input_tokens=10)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["tools"][0] == {
        "name": "view_startup_guide",
        "origin": "catalog",
        "arguments": {},
        "ok": False,
        "error": "missing 1 required positional argument: 'kind'",
    }
    assert list(json.loads(lines[1])) == ["session", "turn", "input_tokens", "tools"]
    rust = rust_binary()
    if rust is None:
        pytest.skip("needs the Rust binary")
    for fmt in ("table", "json"):
        for classify in (False, True):
            args = [str(rust), "trace", str(path), "--format", fmt] + (["--classify"] if classify else [])
            code, out, err = run(args)
            assert code == 0, err
            assert example.trace_summary(path, format=fmt, classify=classify).encode() == out


def test_trace_writer_is_safe_from_threads(example, tmp_path):
    path = tmp_path / "trace.jsonl"
    trace = discloser.TraceWriter(path)
    call = example.resolve("check_company_name", {"name": "杭州茶语", "city": "杭州"})

    def work(worker: int) -> None:
        for turn in range(200):
            trace.turn(session=f"s{worker}", turn=turn, tools=[call.call(ok=True)] * 3)

    threads = [threading.Thread(target=work, args=(w,)) for w in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    trace.close()
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1600
    assert sorted((json.loads(l)["session"], json.loads(l)["turn"]) for l in lines) == sorted(
        (f"s{w}", t) for w in range(8) for t in range(200)
    )
    assert "1600" in example.trace_summary(path, format="json").replace(" ", "")
    with pytest.raises(discloser.Error):
        trace.turn(session="s", turn=1)


def test_trace_writer_appends_and_checks_calls(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text('{"session":"old","turn":0}\n', encoding="utf-8")
    with discloser.TraceWriter(path) as trace:
        trace.turn(session="new", turn=1, user="我想写商业计划书")
        with pytest.raises(discloser.Error, match="unknown key `orign`"):
            trace.turn(session="new", turn=2, tools=[{"name": "a", "orign": "bound"}])
        with pytest.raises(discloser.Error, match="unknown origin"):
            trace.turn(session="new", turn=2, tools=[{"name": "a", "origin": "index"}])
        with pytest.raises(discloser.Error):
            trace.turn(session="new", turn=-1)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    assert json.loads(lines[1]) == {"session": "new", "turn": 1, "user": "我想写商业计划书", "tools": []}
