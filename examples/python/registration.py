"""The bundled example's tools as Python functions, and the conversation a model would have.

Shared by `openai_agent.py` and `anthropic_agent.py`. The functions stand in for the real
registration back end; what matters is that they are called the way an agent calls them (with
the model's arguments as keyword arguments, so a missing one raises `TypeError`, as in the seed).
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Optional, Tuple


def start_registration(company_type: str, city: str, applicant_name: Optional[str] = None) -> Dict[str, Any]:
    return {"order_id": "R-1001", "company_type": company_type, "city": city}


def check_company_name(name: str, city: str) -> Dict[str, Any]:
    return {"name": name, "city": city, "available": True}


def view_startup_guide(kind: str) -> Dict[str, Any]:
    return {"guide": f"The full {kind} guide: ..."}


def draw_chart(chart_type: str, data: List[Dict[str, Any]], title: Optional[str] = None) -> Dict[str, Any]:
    return {"chart": f"{chart_type} chart of {len(data)} points"}


def book_appointment(office: str, date: str, time_slot: Optional[str] = None) -> Dict[str, Any]:
    return {"booked": True, "office": office, "date": date}


def search_knowledge_base(query: str, city: Optional[str] = None, top_k: int = 5) -> Dict[str, Any]:
    return {"passages": [f"passage about {query}"]}


IMPLEMENTATIONS: Dict[str, Callable[..., Any]] = {
    f.__name__: f
    for f in (start_registration, check_company_name, view_startup_guide, draw_chart, book_appointment, search_knowledge_base)
}


def run_tool(name: str, arguments: Dict[str, Any]) -> Tuple[bool, str]:
    """Runs a tool; `(ok, result text)`. A bad call fails as Python fails it."""
    function = IMPLEMENTATIONS.get(name)
    if function is None:
        return False, f"tool `{name}` is not implemented in this example"
    try:
        return True, json.dumps(function(**arguments), ensure_ascii=False)
    except TypeError as e:
        # "view_startup_guide() missing 1 required positional argument: 'kind'" -> the seed's text
        return False, str(e).split("() ", 1)[-1]


# What the user says, turn by turn, and the tool calls a real model makes for it (from the seed:
# the first call to an unbound tool with a required argument is composed from the index line
# alone, and a model that guesses gets `args={}`). A step is a list of calls, or the final text.
Step = Any
CONVERSATION: List[Tuple[str, List[Step]]] = [
    (
        "你好，我想在杭州开一家奶茶店，注册个有限公司",
        [[("start_registration", {"company_type": "limited_liability", "city": "杭州"})], "好的，已为您创建注册订单 R-1001。"],
    ),
    (
        "我想写商业计划书，有没有指南？",
        [
            [("view_startup_guide", {})],
            [("view_startup_guide", {"kind": "business_plan"})],
            "这是商业计划书指南的要点……",
        ],
    ),
    (
        "帮我画个图表，比较三种套餐的费用",
        [[("draw_chart", {"chart_type": "bar", "data": [{"x": "basic", "y": 800}, {"x": "standard", "y": 1500}, {"x": "premium", "y": 3000}]})], "图表已生成。"],
    ),
    (
        "I need to see someone in person at the office",
        [
            [("search_tools", {"query": "book appointment office in person"})],
            [("book_appointment", {"office": "杭州市民中心", "date": "2026-12-03"})],
            "Your appointment is booked.",
        ],
    ),
    (
        "What taxes will I pay?",
        [[("get_tax_guide", {"topic": "vat"})], [("view_startup_guide", {"kind": "tax_filing"})], "Here is the tax filing guide."],
    ),
]


def extra_tools(user: str) -> List[str]:
    """The seed's growth of the starter set for a turn: the user asked for a chart."""
    return ["draw_chart"] if any(w in user.lower() for w in ("chart", "图表", "画图")) else []


class Script:
    """The stand-in model's memory: which step of which turn comes next."""

    def __init__(self) -> None:
        self.turn = -1
        self.step = 0
        self.calls = 0

    def next_turn(self) -> None:
        self.turn += 1
        self.step = 0

    def next_step(self, system: str, bound: List[str]) -> Step:
        step = CONVERSATION[self.turn][1][self.step]
        self.step += 1
        if not isinstance(step, str):
            for name, _ in step:
                # A real model only calls what it can see: a bound tool or an index line (an
                # invented name is the exception this script includes on purpose).
                assert name in bound or f"- {name}(" in system or name == "get_tax_guide", name
        return step

    def call_id(self) -> str:
        self.calls += 1
        return f"call_{self.calls:03d}"
