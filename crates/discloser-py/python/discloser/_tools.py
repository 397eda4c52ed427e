"""Tools a Python agent holds, as the JSON documents the core's loaders read.

Each tool becomes one document named ``<tools[N]>`` (indented JSON), so the loader that reads
files reads it too and its errors carry that name with a line and a column. The shape of each
tool (OpenAI, Anthropic, MCP, native, ...) is detected by the core, per document.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, List, Tuple

from ._errors import LoadError


def plain(tool: Any) -> Any:
    """A tool as plain JSON data: dicts as they are, SDK/MCP objects through their own dump."""
    if isinstance(tool, dict):
        return tool
    dump = getattr(tool, "model_dump", None)
    if callable(dump):
        # Pydantic models (MCP `Tool`, SDK types): the wire names (`inputSchema`), no nulls.
        return dump(mode="json", by_alias=True, exclude_none=True)
    to_dict = getattr(tool, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    if hasattr(tool, "__dataclass_fields__"):
        import dataclasses

        return dataclasses.asdict(tool)
    return tool


def documents(tools: Iterable[Any]) -> List[Tuple[str, str]]:
    """``(name, JSON text)`` of every tool, in order."""
    if isinstance(tools, (dict, str, bytes)):
        raise LoadError(
            "expected a list of tools, found a single "
            + ("dict: wrap it in a list" if isinstance(tools, dict) else type(tools).__name__),
            path="<tools>",
            kind="shape",
        )
    docs = []
    for i, tool in enumerate(tools):
        name = f"<tools[{i}]>"
        try:
            text = json.dumps(plain(tool), ensure_ascii=False, indent=2, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise LoadError(
                f"the tool is not JSON data ({type(tool).__name__}): {e}",
                path=name,
                kind="shape",
            ) from None
        docs.append((name, text))
    return docs
