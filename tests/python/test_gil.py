"""Long native work releases the GIL: another Python thread runs while it is in progress.

Not timed: the switch interval is raised so far that the GIL only changes hands when a thread
gives it up; the main thread then makes progress during the call only if the call released it.
"""

from __future__ import annotations

import sys
import threading
import time

import discloser
from conftest import ROOT


def progress_during(work) -> int:
    started, done = threading.Event(), threading.Event()

    def worker() -> None:
        started.set()
        work()
        done.set()

    old = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        thread = threading.Thread(target=worker)
        thread.start()
        started.wait()
        steps = 0
        while not done.is_set():
            steps += 1
            time.sleep(0)  # gives the GIL back, so the worker can finish
        thread.join()
    finally:
        sys.setswitchinterval(old)
    return steps


TEXT = (ROOT / "README.md").read_text(encoding="utf-8") * 400


def test_counting_releases_the_gil():
    assert progress_during(lambda: discloser.count_tokens(TEXT)) > 0
    assert progress_during(lambda: discloser.count_tokens_batch([TEXT] * 4)) > 0


def test_loading_and_linting_release_the_gil(example):
    tools = [
        {"name": f"tool_{i}", "description": "Do one thing. " * 20, "inputSchema": {"type": "object"}}
        for i in range(3000)
    ]
    catalog = discloser.Catalog.from_tools(tools)
    from discloser._tools import documents

    docs = documents(tools)
    assert progress_during(lambda: discloser._native.Project.from_documents(docs, "{}", "<config>", ".")) > 0
    assert progress_during(lambda: catalog.lint()) > 0
    assert progress_during(lambda: example.cost(by_tool=True)) > 0
