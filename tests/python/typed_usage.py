"""Checked by mypy in CI (not run by pytest): the public API's types as an agent uses them."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import discloser


def turn(catalog: discloser.Catalog, trace: discloser.TraceWriter) -> str:
    system: str = catalog.index("default", extra=["draw_chart"], style="text")
    tools: List[Dict[str, Any]] = catalog.bound("default", provider="openai")
    tools.append(catalog.search_tool(provider="openai"))
    call: discloser.Resolution = catalog.resolve("view_startup_guide", {}, profile="default")
    origin: str = call.origin
    valid: Optional[bool] = call.valid
    errors: List[str] = [e.message for e in call.errors]
    nearest: List[str] = [n.name for n in call.nearest]
    definition: Optional[Dict[str, Any]] = call.definition
    hits: List[discloser.SearchHit] = catalog.search("商业计划书", limit=3)
    trace.turn(session="s", turn=1, tools=[call.call(ok=False, error="x"), call], model="m")
    report: discloser.LintReport = catalog.lint(format="concise")
    cost: Dict[str, Any] = catalog.cost(by_tool=True)
    n: int = discloser.count_tokens(system, "o200k_base")
    counts: List[int] = discloser.count_tokens_batch([system], encoding="cl100k_base")
    summary: str = catalog.trace_summary(trace.path, classify=True)
    del origin, valid, errors, nearest, definition, hits, report, cost, n, counts, tools
    return summary


def load() -> discloser.Catalog:
    try:
        return discloser.Catalog.from_config("discloser.yaml")
    except discloser.LoadError as e:
        where: str = f"{e.path}:{e.line}:{e.column}"
        raise SystemExit(f"{where}: {e.message}") from e


def functions() -> discloser.Catalog:
    @discloser.tool(triggers=["BP"])
    def guide(kind: str) -> str:
        """Read a guide."""
        return kind

    return discloser.Catalog.from_functions([guide], core=["guide"])
