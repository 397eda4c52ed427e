"""A complete agent loop over Anthropic's Python SDK with index-based progressive disclosure.

    python examples/python/anthropic_agent.py [TRACE.jsonl]

The same loop as `openai_agent.py` in the Messages API's shapes: the index in `system`, the
bound tools as `tools` (`input_schema`), `tool_use` blocks answered with `tool_result` blocks,
the reachability fallback binding an unbound tool on its first call, the search tool, the trace.

Offline by default: a scripted stand-in for the model returns real `anthropic.types.Message`
values, built locally. With `--live` (and ANTHROPIC_API_KEY) it talks to the API instead.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from typing import Any, Dict, List

from anthropic.types import Message

import discloser
from registration import CONVERSATION, Script, extra_tools, run_tool

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
BASE_PROMPT = "You are a company-registration assistant. Answer in the user's language."
MODEL = "claude-haiku-4-5"


class ScriptedAnthropic:
    """Stands in for `anthropic.Anthropic()`: `client.messages.create(...)` -> Message."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.messages = self

    def create(
        self, *, model: str, max_tokens: int, system: str, messages: List[Dict[str, Any]], tools: List[Dict[str, Any]]
    ) -> Message:
        step = self.script.next_step(system, [t["name"] for t in tools])
        prompt = system + json.dumps(messages, ensure_ascii=False) + json.dumps(tools, ensure_ascii=False)
        if isinstance(step, str):
            content: List[Dict[str, Any]] = [{"type": "text", "text": step}]
        else:
            content = [
                {"type": "tool_use", "id": "toolu_" + self.script.call_id(), "name": name, "input": args}
                for name, args in step
            ]
        return Message.model_validate(
            {
                "id": f"msg_{self.script.calls:03d}",
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": content,
                "stop_reason": "end_turn" if isinstance(step, str) else "tool_use",
                "stop_sequence": None,
                "usage": {"input_tokens": discloser.count_tokens(prompt), "output_tokens": 20},
            }
        )


def agent(client: Any, catalog: discloser.Catalog, trace: discloser.TraceWriter, script: Script) -> None:
    search_tool = catalog.search_tool(provider="anthropic")
    for number, (user, _) in enumerate(CONVERSATION, start=1):
        script.next_turn()
        print(f"[user] {user}")
        profile, extra = "default", extra_tools(user)
        system = BASE_PROMPT + "\n\n" + catalog.index(profile, extra=extra)
        tools = catalog.bound(profile, provider="anthropic", extra=extra) + [search_tool]
        bound = {t["name"] for t in tools}
        found_by_search: set = set()
        messages: List[Dict[str, Any]] = [{"role": "user", "content": user}]
        calls: List[Dict[str, Any]] = []
        input_tokens = 0
        while True:
            response = client.messages.create(model=MODEL, max_tokens=1024, system=system, messages=messages, tools=tools)
            input_tokens += response.usage.input_tokens
            uses = [block for block in response.content if block.type == "tool_use"]
            if not uses:
                print("[AI] " + "".join(b.text for b in response.content if b.type == "text"))
                break
            messages.append({"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in response.content]})
            results = []
            for use in uses:
                arguments = dict(use.input) if isinstance(use.input, dict) else {}
                print(f"[AI] {use.name} args={json.dumps(arguments, ensure_ascii=False)}")
                if use.name == search_tool["name"]:
                    hits = catalog.search(arguments["query"], limit=3)
                    for hit in hits:  # bound for the next round
                        if hit.name not in bound:
                            tools.append(catalog.definition(hit.name, provider="anthropic"))
                            bound.add(hit.name)
                            found_by_search.add(hit.name)
                    ok, result = True, json.dumps([h.name for h in hits])
                    calls.append({"name": use.name, "origin": "bound", "arguments": arguments, "ok": True})
                else:
                    call = catalog.resolve(use.name, arguments, profile=profile, extra=extra, provider="anthropic")
                    if call.origin == "unknown":
                        near = ", ".join(n.name for n in call.nearest)
                        ok, result = False, f"no tool `{use.name}`; did you mean: {near}"
                    else:
                        if use.name not in bound:  # the reachability fallback: bind it and run it
                            tools.append(call.definition)
                            bound.add(use.name)
                        ok, result = run_tool(use.name, arguments)
                    entry = call.call(ok=ok, error=None if ok else result)
                    if use.name in found_by_search:
                        entry["origin"] = "search"
                    calls.append(entry)
                print(f"[TOOL] {result}")
                results.append({"type": "tool_result", "tool_use_id": use.id, "content": result, "is_error": not ok})
            messages.append({"role": "user", "content": results})
        trace.turn(session="demo", turn=number, model=MODEL, profile=profile, input_tokens=input_tokens, tools=calls)


def main() -> None:
    trace_path = next((a for a in sys.argv[1:] if not a.startswith("--")), None) or os.path.join(
        tempfile.mkdtemp(), "trace.jsonl"
    )
    catalog = discloser.Catalog.from_config(os.path.join(ROOT, "discloser.yaml"))
    script = Script()
    if "--live" in sys.argv:
        import anthropic

        client: Any = anthropic.Anthropic()
    else:
        client = ScriptedAnthropic(script)
    with discloser.TraceWriter(trace_path) as trace:
        agent(client, catalog, trace, script)
    print()
    print(catalog.trace_summary(trace_path), end="")


if __name__ == "__main__":
    main()
