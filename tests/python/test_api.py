"""The Python API returns the CLI's bytes and values on the bundled example and the corpora."""

from __future__ import annotations

import enum
import json
from typing import List, Literal, Optional

import pytest

import discloser
from conftest import ROOT, corpus_files, run, rust_binary

SNAPSHOTS = ROOT / "snapshots"


@pytest.mark.parametrize("profile", ["default", "filling_form", "chart_requested"])
def test_index_is_the_snapshot_bytes(example, profile):
    assert example.index(profile) == (SNAPSHOTS / profile / "index.txt").read_text(encoding="utf-8")


def test_extra_grows_the_profile_for_a_turn(example):
    # The seed: "when the user explicitly asks for a chart, we add the chart tool".
    assert example.index("default", extra=["draw_chart"]) == example.index("chart_requested")
    assert example.index(extra=["fill_form_field", "submit_form"]) == example.index("filling_form")
    assert "draw_chart" in example.bound_names(extra="draw_chart")
    with pytest.raises(discloser.LoadError) as err:
        example.index(extra=["draw_chrat"])
    assert err.value.help == "did you mean `draw_chart`?"


@pytest.mark.parametrize("style", ["text", "markdown", "json"])
def test_index_styles_match_the_cli(example, style):
    rust = rust_binary()
    if rust is None:
        pytest.skip("needs the Rust binary")
    code, out, _ = run([str(rust), "render", "--style", style])
    assert code == 0
    assert example.index(style=style).encode() == out


def test_bound_is_what_export_prints(example):
    rust = rust_binary()
    if rust is None:
        pytest.skip("needs the Rust binary")
    for provider in ["openai", "openai-responses", "anthropic", "mcp", "gemini"]:
        code, out, _ = run([str(rust), "export", "--provider", provider])
        assert code == 0
        assert example.bound(provider=provider) == json.loads(out)


def test_resolve_the_seed_first_call(example):
    call = example.resolve("view_startup_guide", {})
    assert call.origin == "catalog"
    assert call.valid is False
    assert [str(e) for e in call.errors] == ["missing required property `kind`"]
    assert call.definition["function"]["name"] == "view_startup_guide"
    again = example.resolve("view_startup_guide", '{"kind": "self_register"}')
    assert (again.origin, again.valid, again.errors) == ("catalog", True, [])
    assert example.resolve("start_registration", {"company_type": "limited_liability", "city": "杭州"}).origin == "bound"


def test_resolve_an_invented_name(example):
    call = example.resolve("view_startup_guides", {"kind": "tax_filing"})
    assert call.origin == "unknown"
    assert call.definition is None
    assert call.nearest[0].name == "view_startup_guide"


def test_resolve_rejects_bad_arguments_without_panicking(example):
    with pytest.raises(discloser.Error):
        example.resolve("view_startup_guide", "{not json")
    call = example.resolve("view_startup_guide", "[1, 2]")
    assert call.valid is False


def test_search_ranks_like_the_cli(example):
    rust = rust_binary()
    if rust is None:
        pytest.skip("needs the Rust binary")
    for query in ["我想写商业计划书", "how much does it cost", "draw a chart of fees", "BP"]:
        code, out, _ = run([str(rust), "search", query, "--format", "json", "--limit", "5"])
        cli = [(h["rank"], h["name"], h["score"], h["matched"]) for h in json.loads(out)["hits"]]
        ours = [(h.rank, h.name, h.score, h.matched) for h in example.search(query, limit=5)]
        assert ours == cli


def test_search_tool_definition(example):
    tool = example.search_tool(provider="anthropic")
    assert tool["name"] == "search_tools"
    assert "input_schema" in tool


def test_lint_and_cost_match_the_cli(example):
    rust = rust_binary()
    if rust is None:
        pytest.skip("needs the Rust binary")
    _, out, _ = run([str(rust), "lint", "--format", "json"])
    assert example.lint(format="json").text.encode() == out
    _, out, _ = run([str(rust), "cost", "--format", "json"])
    assert example.cost() == json.loads(out)


def test_count_tokens_matches_tiktoken_fixtures():
    cases = json.loads((ROOT / "tests/fixtures/tiktoken_counts.json").read_text(encoding="utf-8"))["cases"]
    for encoding in discloser.ENCODINGS:
        texts = [c["text"] for c in cases]
        expected = [c[encoding] for c in cases]
        assert [discloser.count_tokens(t, encoding) for t in texts] == expected
        assert discloser.count_tokens_batch(texts, encoding) == expected
    assert discloser.count_tokens("Hello, world!") == 4
    with pytest.raises(discloser.Error, match="unknown encoding"):
        discloser.count_tokens("x", "p50k_base")


def test_load_errors_carry_a_position(tmp_path):
    (tmp_path / "discloser.yaml").write_text("sources: [tools.yaml]\nindexx: {}\n", encoding="utf-8")
    (tmp_path / "tools.yaml").write_text("- name: a\n  description: A.\n", encoding="utf-8")
    with pytest.raises(discloser.LoadError) as err:
        discloser.Catalog.from_config(tmp_path / "discloser.yaml")
    e = err.value
    assert (e.line, e.column, e.kind) == (2, 1, "shape")
    assert e.path.endswith("discloser.yaml")
    assert "indexx" in e.message
    assert str(e).startswith(f"{e.path}:2:1: ")
    assert isinstance(e, discloser.Error)
    with pytest.raises(discloser.LoadError) as err:
        discloser.Catalog.from_config(tmp_path / "missing.yaml")
    assert err.value.kind == "io" and err.value.line is None


def test_every_corpus_file_loads_in_python_as_in_the_cli(corpora):
    rust = rust_binary()
    if rust is None:
        pytest.skip("needs the Rust binary")
    for path in corpus_files(corpora):
        rel = str(path.relative_to(corpora))
        code, out, err = run([str(rust), "render", rel], cwd=corpora)
        try:
            ours = discloser.Catalog.from_files(rel, cwd=corpora).index()
        except discloser.LoadError as e:
            assert code == 2, rel
            assert e.path in err.decode() and e.message in err.decode(), rel
        else:
            assert (code, out) == (0, ours.encode()), rel


# -- in-memory tools -------------------------------------------------------------------------

SCHEMA = {
    "type": "object",
    "properties": {"kind": {"type": "string", "enum": ["self_register", "tax_filing"]}},
    "required": ["kind"],
}
SHAPES = {
    "openai": {"type": "function", "function": {"name": "guide", "description": "Read a guide.", "parameters": SCHEMA}},
    "openai-responses": {"type": "function", "name": "guide", "description": "Read a guide.", "parameters": SCHEMA},
    "anthropic": {"name": "guide", "description": "Read a guide.", "input_schema": SCHEMA},
    "mcp": {"name": "guide", "description": "Read a guide.", "inputSchema": SCHEMA},
    "native": {"name": "guide", "description": "Read a guide.", "parameters": SCHEMA, "triggers": ["BP"]},
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_from_tools_reads_every_provider_shape(shape):
    catalog = discloser.Catalog.from_tools(
        [SHAPES[shape], {"name": "ask", "description": "Ask.", "inputSchema": {"type": "object"}}],
        triggers={"guide": ["BP", "商业计划书"]},
        core=["ask"],
    )
    assert catalog.names == ["ask", "guide"]
    assert catalog.bound_names() == ["ask"]
    assert "- guide(kind: self_register|tax_filing) [BP / 商业计划书] Read a guide." in catalog.index()
    assert catalog.resolve("guide", {}).origin == "catalog"


def test_from_tools_takes_objects_with_model_dump():
    class McpTool:  # the MCP SDK's `Tool` is a Pydantic model: model_dump gives the wire names
        def model_dump(self, **kwargs):
            assert kwargs["by_alias"] is True
            return {"name": "guide", "description": "Read a guide.", "inputSchema": SCHEMA}

    assert discloser.Catalog.from_tools([McpTool()]).names == ["guide"]


def test_from_tools_errors_name_the_tool_and_position():
    with pytest.raises(discloser.LoadError) as err:
        discloser.Catalog.from_tools([SHAPES["mcp"], {"name": "x", "inputSchema": {}, "input_schema": {}}])
    assert err.value.path == "<tools[1]>"
    assert err.value.line is not None and err.value.column is not None
    with pytest.raises(discloser.LoadError) as err:
        discloser.Catalog.from_tools([SHAPES["mcp"], SHAPES["anthropic"]])
    assert err.value.kind == "duplicate"
    with pytest.raises(discloser.LoadError) as err:
        discloser.Catalog.from_tools([{"name": object()}])
    assert err.value.path == "<tools[0]>"
    with pytest.raises(discloser.LoadError) as err:
        discloser.Catalog.from_tools([SHAPES["mcp"]], triggers={"gide": ["BP"]})
    assert err.value.path == "<config>" and err.value.help == "did you mean `guide`?"
    with pytest.raises(discloser.LoadError):
        discloser.Catalog.from_tools(SHAPES["mcp"])


def test_from_tools_profiles():
    catalog = discloser.Catalog.from_tools(
        [SHAPES["mcp"], {"name": "ask", "description": "Ask.", "inputSchema": {"type": "object"}}],
        profiles={"default": ["ask"], "reading": {"extends": "default", "add": ["guide"]}},
    )
    assert catalog.profiles == ["default", "reading"]
    assert catalog.bound_names("reading") == ["ask", "guide"]
    assert catalog.bound("reading", provider="anthropic")[1]["name"] == "guide"


def test_hostile_input_raises_errors_not_panics():
    deep: dict = {"type": "object"}
    for _ in range(5000):
        deep = {"type": "object", "properties": {"a": deep}}
    for tools in ([{"name": "", "inputSchema": {}}], [{"name": "a" * 100000, "inputSchema": deep}], [[]], [None], [1e308]):
        try:
            discloser.Catalog.from_tools(tools).index()
        except discloser.Error:
            pass
        except RecursionError:
            pass  # json.dumps of the deep schema, before discloser is reached
    for bad in (
        lambda c: c.index(style="xml"),
        lambda c: c.bound(provider="cohere"),
        lambda c: c.search("x", limit=0),
        lambda c: c.lint(format="html"),
        lambda c: c.cost(tokenizer="gpt2"),
        lambda c: c.trace_summary("no/such/trace.jsonl"),
    ):
        with pytest.raises(discloser.Error):
            bad(discloser.Catalog.from_tools([SHAPES["mcp"]]))


# -- functions -------------------------------------------------------------------------------

class Chart(enum.Enum):
    BAR = "bar"
    LINE = "line"
    PIE = "pie"


@discloser.tool(triggers={"BP", "商业计划书", "business plan"})
def view_startup_guide(kind: Literal["self_register", "tax_filing", "business_plan"]) -> str:
    """Return the full text of a built-in startup guide and answer from the whole guide.

    Use it when the user asks how to register a company, file taxes or write a business plan.

    Args:
        kind: Which guide to read.
    """
    return kind


def draw_chart(chart: Chart, values: List[float], title: Optional[str] = None, stacked: bool = False) -> str:
    """Draw a chart of the given values.

    Parameters
    ----------
    chart
        The kind of chart.
    values
        The numbers to plot.
    """
    return chart.value


def test_from_functions_schema_like_pydantic():
    catalog = discloser.Catalog.from_functions([view_startup_guide, draw_chart])
    guide = catalog.definition("view_startup_guide", provider="anthropic")
    assert guide["input_schema"] == {
        "type": "object",
        "properties": {
            "kind": {
                "enum": ["self_register", "tax_filing", "business_plan"],
                "type": "string",
                "description": "Which guide to read.",
            }
        },
        "required": ["kind"],
    }
    chart = catalog.definition("draw_chart", provider="mcp")["inputSchema"]
    assert chart["properties"]["chart"] == {"enum": ["bar", "line", "pie"], "type": "string", "description": "The kind of chart."}
    assert chart["properties"]["title"] == {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}
    assert chart["properties"]["values"] == {"type": "array", "items": {"type": "number"}, "description": "The numbers to plot."}
    assert chart["required"] == ["chart", "values"]
    index = catalog.index()
    # The enum values and the triggers are in the index line; the Args section is not.
    assert "- view_startup_guide(kind: self_register|tax_filing|business_plan) [BP / 商业计划书 / business plan]" in index
    assert "- draw_chart(chart: bar|line|pie, values: number[], …)" in index
    assert "Args" not in index and "Parameters" not in index
    assert catalog.functions["draw_chart"] is draw_chart


try:
    import pydantic as _pydantic
except ImportError:
    _pydantic = None

if _pydantic is not None:

    class Address(_pydantic.BaseModel):
        city: str
        street: Optional[str] = None

    def register(address: Address, kind: Literal["llc", "sole"] = "llc") -> None:
        """Register a company at an address."""


def test_from_functions_with_pydantic_models():
    if _pydantic is None:
        pytest.skip("pydantic is not installed (an optional extra)")
    schema = discloser.Catalog.from_functions([register]).definition("register", provider="mcp")["inputSchema"]
    # Pydantic's own schema of the model, inline (nested models would go to `$defs`).
    address = schema["properties"]["address"]
    assert address["type"] == "object" and address["required"] == ["city"]
    assert address["properties"]["street"]["anyOf"] == [{"type": "string"}, {"type": "null"}]
    assert schema["properties"]["kind"] == {"enum": ["llc", "sole"], "type": "string", "default": "llc"}


class Opaque:
    pass


def test_from_functions_unsupported_type_is_an_error():
    def f(x: Opaque) -> None:
        """F."""

    try:
        import pydantic  # noqa: F401
    except ImportError:
        with pytest.raises(discloser.Error, match="parameter `x` of `f`"):
            discloser.Catalog.from_functions([f])
