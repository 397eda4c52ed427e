"""A complete agent loop over the OpenAI Python SDK with index-based progressive disclosure.

    python examples/python/openai_agent.py [TRACE.jsonl]

The system prompt carries discloser's index of the unbound tools; only the starter set (and
the search tool) is bound; a call to an unbound tool is resolved by the reachability fallback,
which binds it and runs it; every turn is recorded in a trace, summarised at the end.

Offline by default: a scripted stand-in for the model returns real
`openai.types.chat.ChatCompletion` values, built locally. With `--live` (and OPENAI_API_KEY) it
talks to the API instead.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from typing import Any, Dict, List

from openai.types.chat import ChatCompletion

import discloser
from registration import CONVERSATION, Script, extra_tools, run_tool

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
BASE_PROMPT = "You are a company-registration assistant. Answer in the user's language."
MODEL = "gpt-4o-mini"


class ScriptedOpenAI:
    """Stands in for `openai.OpenAI()`: `client.chat.completions.create(...)` -> ChatCompletion."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.chat = self
        self.completions = self

    def create(self, *, model: str, messages: List[Dict[str, Any]], tools: List[Dict[str, Any]]) -> ChatCompletion:
        bound = [t["function"]["name"] for t in tools]
        step = self.script.next_step(messages[0]["content"], bound)
        prompt = json.dumps(messages, ensure_ascii=False) + json.dumps(tools, ensure_ascii=False)
        message: Dict[str, Any] = {"role": "assistant", "content": None}
        if isinstance(step, str):
            message["content"] = step
        else:
            message["tool_calls"] = [
                {
                    "id": self.script.call_id(),
                    "type": "function",
                    "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)},
                }
                for name, args in step
            ]
        return ChatCompletion.model_validate(
            {
                "id": f"chatcmpl-{self.script.calls}",
                "object": "chat.completion",
                "created": 0,
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop" if isinstance(step, str) else "tool_calls",
                        "message": message,
                    }
                ],
                "usage": {
                    "prompt_tokens": discloser.count_tokens(prompt),
                    "completion_tokens": 20,
                    "total_tokens": discloser.count_tokens(prompt) + 20,
                },
            }
        )


def agent(client: Any, catalog: discloser.Catalog, trace: discloser.TraceWriter, script: Script) -> None:
    search_name = catalog.search_tool()["function"]["name"]
    for number, (user, _) in enumerate(CONVERSATION, start=1):
        script.next_turn()
        print(f"[user] {user}")
        profile, extra = "default", extra_tools(user)
        # The index is a prompt prefix: the same profile gives the same bytes, so it caches.
        system = BASE_PROMPT + "\n\n" + catalog.index(profile, extra=extra)
        tools = catalog.bound(profile, provider="openai", extra=extra) + [catalog.search_tool()]
        bound = {t["function"]["name"] for t in tools}
        found_by_search: set = set()
        messages: List[Dict[str, Any]] = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        calls: List[Dict[str, Any]] = []
        input_tokens = 0
        while True:
            response = client.chat.completions.create(model=MODEL, messages=messages, tools=tools)
            input_tokens += response.usage.prompt_tokens if response.usage else 0
            message = response.choices[0].message
            if not message.tool_calls:
                print(f"[AI] {message.content}")
                break
            messages.append(message.model_dump(exclude_none=True))
            for tool_call in message.tool_calls:
                name, arguments = tool_call.function.name, tool_call.function.arguments
                print(f"[AI] {name} args={arguments}")
                if name == search_name:
                    query = json.loads(arguments)["query"]
                    hits = catalog.search(query, limit=3)
                    for hit in hits:  # bound for the next round
                        if hit.name not in bound:
                            tools.append(catalog.definition(hit.name))
                            bound.add(hit.name)
                            found_by_search.add(hit.name)
                    ok, result = True, json.dumps([h.name for h in hits])
                    calls.append({"name": name, "origin": "bound", "arguments": json.loads(arguments), "ok": True})
                else:
                    call = catalog.resolve(name, arguments, profile=profile, extra=extra)
                    origin = "search" if name in found_by_search else call.origin
                    if call.origin == "unknown":
                        near = ", ".join(n.name for n in call.nearest)
                        ok, result = False, f"no tool `{name}`; did you mean: {near}"
                    else:
                        if name not in bound:  # the reachability fallback: bind it and run it
                            tools.append(call.definition)
                            bound.add(name)
                        ok, result = run_tool(name, call.arguments or {})
                    entry = call.call(ok=ok, error=None if ok else result)
                    entry["origin"] = origin
                    calls.append(entry)
                print(f"[TOOL] {result}")
                messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": result})
        trace.turn(session="demo", turn=number, model=MODEL, profile=profile, input_tokens=input_tokens, tools=calls)


def main() -> None:
    trace_path = next((a for a in sys.argv[1:] if not a.startswith("--")), None) or os.path.join(
        tempfile.mkdtemp(), "trace.jsonl"
    )
    catalog = discloser.Catalog.from_config(os.path.join(ROOT, "discloser.yaml"))
    script = Script()
    if "--live" in sys.argv:
        import openai

        client: Any = openai.OpenAI()
    else:
        client = ScriptedOpenAI(script)
    with discloser.TraceWriter(trace_path) as trace:
        agent(client, catalog, trace, script)
    print()
    print(catalog.trace_summary(trace_path), end="")


if __name__ == "__main__":
    main()
