"""discloser: index-based progressive disclosure for LLM agent tools, in-process.

An agent binds a small starter set of tools and puts an index of every other tool in its
system prompt; when the model calls an unbound tool by name, the runtime binds it and runs it.
This package gives a Python agent the same index, resolution, search, lint, cost and trace as
the ``discloser`` command, from the same Rust code (so the bytes are the same)::

    import discloser

    catalog = discloser.Catalog.from_config("discloser.yaml")
    system = BASE_PROMPT + "\\n\\n" + catalog.index("default")
    tools = catalog.bound("default", provider="openai")
    call = catalog.resolve("view_startup_guide", {}, profile="default")
    call.origin   # 'catalog': unbound, found by the fallback; bind call.definition and run it

Every error is a :class:`discloser.Error`; load errors are :class:`discloser.LoadError` with
``path``, ``line``, ``column`` and ``message``.
"""

from __future__ import annotations

import os as _os
from _thread import allocate_lock as _allocate_lock

from . import _native
from ._errors import Error, LoadError

# `typing` and `json` cost milliseconds of start-up (json pulls in `re`): annotations are strings
# here (postponed evaluation), so `typing` is only read by type checkers, and json is imported
# where it is used.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from os import PathLike
    from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Union

    StrPath = Union[str, "PathLike[str]"]

__all__ = [
    "ArgumentError",
    "Catalog",
    "Error",
    "LintReport",
    "LoadError",
    "Nearest",
    "Resolution",
    "SearchHit",
    "TraceWriter",
    "ENCODINGS",
    "__version__",
    "count_tokens",
    "count_tokens_batch",
    "tool",
]

__version__: str = _native.__version__

ENCODINGS = ("o200k_base", "cl100k_base")


def count_tokens(text: str, encoding: str = "o200k_base") -> int:
    """The exact number of tokens tiktoken's ``encode_ordinary`` gives ``text``.

    ``encoding`` is ``"o200k_base"`` (GPT-4o, GPT-4.1, o-series) or ``"cl100k_base"``. The
    vocabularies are compiled in: nothing is downloaded. Long texts are counted in parallel,
    with the GIL released.
    """
    return _native.count_tokens(text, encoding)


def count_tokens_batch(texts: Iterable[str], encoding: str = "o200k_base") -> List[int]:
    """:func:`count_tokens` of every text, in order, counted in parallel without the GIL."""
    return _native.count_tokens_batch(list(texts), encoding)


class ArgumentError:
    """One reason arguments do not match a tool's schema."""

    __slots__ = ("message", "pointer")

    def __init__(self, pointer: str, message: str) -> None:
        #: JSON pointer into the arguments (``""`` for the arguments object itself).
        self.pointer = pointer
        #: What is wrong, e.g. ``missing required property `kind```.
        self.message = message

    def __str__(self) -> str:
        return self.message if not self.pointer else f"`{self.pointer}`: {self.message}"

    def __repr__(self) -> str:
        return f"ArgumentError(pointer={self.pointer!r}, message={self.message!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ArgumentError) and (self.pointer, self.message) == (
            other.pointer,
            other.message,
        )

    __hash__ = None  # type: ignore[assignment]


class Nearest:
    """A real tool close to an invented name."""

    __slots__ = ("distance", "name", "shared_words")

    def __init__(self, name: str, distance: int, shared_words: List[str]) -> None:
        self.name = name
        #: Damerau-Levenshtein distance between the two names.
        self.distance = distance
        #: Parts of the invented name found in the tool's triggers or name.
        self.shared_words = shared_words

    def __repr__(self) -> str:
        return (
            f"Nearest(name={self.name!r}, distance={self.distance}, "
            f"shared_words={self.shared_words!r})"
        )


class Resolution:
    """Where a tool call lands, whether its arguments are valid, and what to bind.

    ``origin`` is ``"bound"`` (in the turn's starter set), ``"catalog"`` (unbound, found by the
    reachability fallback: bind ``definition`` and run the tool) or ``"unknown"`` (not in the
    catalog: the model invented the name; ``nearest`` lists the closest real tools).
    ``valid`` is ``True``/``False`` when the arguments were checked against the schema, ``None``
    when they were not (``unchecked`` says why).
    """

    __slots__ = (
        "arguments",
        "definition",
        "errors",
        "name",
        "nearest",
        "origin",
        "unchecked",
        "valid",
    )

    def __init__(
        self,
        raw: Dict[str, Any],
        arguments: Optional[Any],
        definition: Optional[Dict[str, Any]],
    ) -> None:
        self.name: str = raw["name"]
        self.origin: str = raw["origin"]
        self.valid: Optional[bool] = raw["valid"]
        self.errors: List[ArgumentError] = [
            ArgumentError(e["pointer"], e["message"]) for e in raw["errors"]
        ]
        self.unchecked: Optional[str] = raw.get("unchecked")
        self.nearest: List[Nearest] = [
            Nearest(n["name"], n["distance"], n["shared_words"]) for n in raw["nearest"]
        ]
        #: The arguments as given.
        self.arguments = arguments
        #: The tool's definition in the provider's shape (``None`` for an unknown name).
        self.definition = definition

    @property
    def is_unbound(self) -> bool:
        """Whether the tool was not bound when the model composed the call."""
        return self.origin in ("catalog", "search")

    def call(
        self, *, ok: Optional[bool] = None, error: Optional[str] = None
    ) -> Dict[str, Any]:
        """This call as one entry of a trace turn's ``tools`` (see :class:`TraceWriter`)."""
        entry: Dict[str, Any] = {"name": self.name, "origin": self.origin}
        if self.arguments is not None:
            entry["arguments"] = self.arguments
        if ok is not None:
            entry["ok"] = ok
        if error is not None:
            entry["error"] = error
        return entry

    def as_dict(self) -> Dict[str, Any]:
        """The fields ``discloser``'s JSON reports use."""
        out: Dict[str, Any] = {
            "name": self.name,
            "origin": self.origin,
            "valid": self.valid,
            "errors": [{"pointer": e.pointer, "message": e.message} for e in self.errors],
        }
        if self.unchecked is not None:
            out["unchecked"] = self.unchecked
        out["nearest"] = [
            {"name": n.name, "distance": n.distance, "shared_words": n.shared_words}
            for n in self.nearest
        ]
        return out

    def __repr__(self) -> str:
        return (
            f"Resolution(name={self.name!r}, origin={self.origin!r}, valid={self.valid!r}, "
            f"errors={self.errors!r}, nearest={[n.name for n in self.nearest]!r})"
        )


class SearchHit:
    """One ranked tool of :meth:`Catalog.search`."""

    __slots__ = ("matched", "name", "rank", "score")

    def __init__(self, raw: Dict[str, Any]) -> None:
        #: 1-based rank.
        self.rank: int = raw["rank"]
        self.name: str = raw["name"]
        self.score: int = raw["score"]
        #: What matched: ``triggers``, ``trigger_words``, ``name_parts``, ``description_words``.
        self.matched: Dict[str, List[str]] = raw["matched"]

    def __repr__(self) -> str:
        return f"SearchHit(rank={self.rank}, name={self.name!r}, score={self.score})"


class LintReport:
    """Lint findings, rendered by one of the CLI's reporters."""

    __slots__ = ("count", "text")

    def __init__(self, text: str, count: int) -> None:
        #: The report, exactly as ``discloser lint --format FORMAT`` prints it.
        self.text = text
        #: How many findings.
        self.count = count

    def __bool__(self) -> bool:
        return self.count > 0

    def __str__(self) -> str:
        return self.text


def _names(extra: Union[str, Iterable[str]]) -> List[str]:
    return [extra] if isinstance(extra, str) else list(extra)


class Catalog:
    """Every tool of an agent, its profiles (starter sets) and the index of the unbound ones.

    Build one with :meth:`from_config`, :meth:`from_files`, :meth:`from_tools` or
    :meth:`from_functions`; it is immutable and safe to share between threads.
    """

    __slots__ = ("_functions", "_project")

    def __init__(self, project: _native.Project, functions: Optional[Dict[str, Callable[..., Any]]] = None) -> None:
        self._project = project
        self._functions: Dict[str, Callable[..., Any]] = functions or {}

    # -- loading ---------------------------------------------------------------------------

    @classmethod
    def from_config(cls, path: StrPath = "discloser.yaml") -> Catalog:
        """Loads a ``discloser.yaml`` and the tool files its ``sources`` name (as the CLI does)."""
        return cls(_native.Project.from_config(_os.fspath(path)))

    @classmethod
    def from_files(cls, paths: Union[StrPath, Sequence[StrPath]], *, cwd: Optional[StrPath] = None) -> Catalog:
        """Loads tool files, directories or globs without a config (``discloser render FILE``)."""
        if isinstance(paths, (str, _os.PathLike)):
            paths = [paths]
        return cls(
            _native.Project.from_files(
                [_os.fspath(p) for p in paths], _os.fspath(cwd) if cwd is not None else _os.getcwd()
            )
        )

    @classmethod
    def from_tools(
        cls,
        tools: Iterable[Any],
        *,
        triggers: Optional[Mapping[str, Iterable[str]]] = None,
        core: Iterable[str] = (),
        profiles: Optional[Mapping[str, Any]] = None,
        index: Optional[Mapping[str, Any]] = None,
        search_tool: Union[bool, Mapping[str, Any]] = False,
        root: Optional[StrPath] = None,
    ) -> Catalog:
        """A catalog from the tool definitions a Python agent already holds.

        Each tool is a dict (or an object with ``model_dump()``, such as an MCP ``Tool``) in any
        shape discloser reads: OpenAI Chat Completions (``{"type": "function", "function":
        {...}}``), OpenAI Responses, Anthropic (``input_schema``), MCP (``inputSchema``), Gemini
        or discloser's native shape. Each is loaded as a document named ``<tools[N]>``, so a
        load error says which tool and where (``<tools[3]>:5:7: unknown key ...``).

        ``triggers`` maps tool names to the words users say when they need the tool; ``core``
        names tools bound in every profile; ``profiles`` maps profile names to a starter list or
        to a profile as ``discloser.yaml`` writes it (``{"extends": "default", "add": [...]}``);
        ``index`` holds index settings (``header``, ``summary_budget``, ``max_enum_values``);
        ``search_tool=True`` declares the built-in search tool. Without profiles, ``default``
        binds the core tools only.
        """
        from ._tools import documents

        docs = documents(tools)
        config = _config(triggers, core, profiles, index, search_tool)
        root_dir = _os.fspath(root) if root is not None else _os.getcwd()
        return cls(_native.Project.from_documents(docs, config, "<config>", root_dir))

    @classmethod
    def from_functions(
        cls,
        functions: Iterable[Callable[..., Any]],
        *,
        triggers: Optional[Mapping[str, Iterable[str]]] = None,
        core: Iterable[str] = (),
        profiles: Optional[Mapping[str, Any]] = None,
        index: Optional[Mapping[str, Any]] = None,
        search_tool: Union[bool, Mapping[str, Any]] = False,
    ) -> Catalog:
        """A catalog from Python functions: type hints become JSON Schema, docstrings descriptions.

        ``Literal[...]`` and ``Enum`` become ``enum`` (so the index line shows the closed values),
        ``Optional[X]`` stays nullable, a parameter with a default is optional, and the
        docstring's Google/NumPy ``Args:`` section describes the parameters (the index's summary
        packer cuts the sections out of the one-line summary). Parameters typed with a Pydantic
        model, dataclass or ``TypedDict`` use Pydantic's schema when Pydantic is installed.
        Triggers and core flags may also come from the :func:`tool` decorator.
        """
        from ._schema import function_tool

        functions = list(functions)
        tools = []
        trig: Dict[str, List[str]] = {k: list(v) for k, v in (triggers or {}).items()}
        core_names = list(core)
        by_name: Dict[str, Callable[..., Any]] = {}
        for fn in functions:
            definition, meta = function_tool(fn)
            tools.append(definition)
            by_name[definition["name"]] = fn
            if meta.get("triggers") and definition["name"] not in trig:
                trig[definition["name"]] = list(meta["triggers"])
            if meta.get("core") and definition["name"] not in core_names:
                core_names.append(definition["name"])
        catalog = cls.from_tools(
            tools,
            triggers=trig,
            core=core_names,
            profiles=profiles,
            index=index,
            search_tool=search_tool,
        )
        catalog._functions = by_name
        return catalog

    # -- what is in it -----------------------------------------------------------------------

    @property
    def names(self) -> List[str]:
        """Every tool name, sorted."""
        return self._project.tool_names()

    @property
    def profiles(self) -> List[str]:
        """Profile names in the config's order (``["default"]`` without profiles)."""
        return self._project.profile_names()

    @property
    def functions(self) -> Dict[str, Callable[..., Any]]:
        """For :meth:`from_functions`: the callable of each tool name (empty otherwise)."""
        return dict(self._functions)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self._project.tool_names()

    def __len__(self) -> int:
        return len(self._project.tool_names())

    def __repr__(self) -> str:
        return f"<discloser.Catalog of {len(self)} tools, profiles {self.profiles!r}>"

    # -- the prompt and the bound tools -------------------------------------------------------

    def index(
        self,
        profile: str = "default",
        *,
        style: str = "text",
        extra: Union[str, Iterable[str]] = (),
    ) -> str:
        """The index of the profile's unbound tools: exactly the bytes ``discloser render`` prints.

        ``style`` is ``"text"`` (for a system prompt), ``"markdown"`` or ``"json"``. ``extra``
        grows the starter set for this turn (the seed's open form or requested chart): those
        tools are bound, so they leave the index.
        """
        return self._project.index(profile, style, _names(extra))

    def warnings(self, profile: str = "default", *, extra: Union[str, Iterable[str]] = ()) -> List[str]:
        """The index's warnings (e.g. a first sentence over the budget), as the CLI prints them."""
        return [
            f"warning: tool `{tool}`: {message}"
            for tool, message in self._project.warnings(profile, _names(extra))
        ]

    def bound_names(self, profile: str = "default", *, extra: Union[str, Iterable[str]] = ()) -> List[str]:
        """The names of the tools bound in the profile (grown by ``extra``), sorted."""
        return self._project.bound_names(profile, _names(extra))

    def bound(
        self,
        profile: str = "default",
        *,
        provider: str = "openai",
        extra: Union[str, Iterable[str]] = (),
    ) -> Any:
        """The bound tools' definitions, ready to pass as the API's ``tools``.

        ``provider`` is ``"openai"`` (Chat Completions), ``"openai-responses"``, ``"anthropic"``,
        ``"gemini"`` or ``"mcp"`` (a ``tools/list`` result); the value is what ``discloser
        export --provider PROVIDER`` prints. A ``$ref`` into another file of the project is
        bundled into the tool's ``$defs``, so every ``$ref`` in the value is local (``#/...``).
        """
        return self._project.bound(profile, provider, _names(extra))

    def definition(self, name: str, *, provider: str = "openai") -> Optional[Dict[str, Any]]:
        """One tool's definition in the provider's shape (``None`` for an unknown name)."""
        return self._project.definition(name, provider)

    def search_tool(self, *, provider: str = "openai") -> Dict[str, Any]:
        """The search tool's definition (the config's, or the built-in ``search_tools``)."""
        return self._project.search_tool(provider)

    # -- the runtime ---------------------------------------------------------------------------

    def resolve(
        self,
        name: str,
        arguments: Union[None, str, Mapping[str, Any]] = None,
        *,
        profile: str = "default",
        extra: Union[str, Iterable[str]] = (),
        provider: str = "openai",
    ) -> Resolution:
        """Resolves a tool call the model made: the reachability fallback.

        ``arguments`` is the dict the model sent, or its JSON text (as OpenAI returns it), or
        ``None`` when not known. The result says whether the name was bound, found in the catalog
        or unknown, the schema errors of the arguments and, to bind, the tool's definition in
        ``provider``'s shape.
        """
        if arguments is None:
            text = None
            value: Any = None
        elif isinstance(arguments, str):
            text = arguments
            import json as _json

            try:
                value = _json.loads(arguments)
            except ValueError as e:
                raise Error(f"the arguments are not JSON: {e}") from None
        else:
            import json as _json

            value = dict(arguments)
            text = _json.dumps(value, ensure_ascii=False)
        raw = self._project.resolve(name, text, profile, _names(extra))
        definition = self._project.definition(name, provider) if raw["origin"] != "unknown" else None
        return Resolution(raw, value, definition)

    def search(self, query: str, *, limit: int = 5) -> List[SearchHit]:
        """The tools ranked for what the user said, as ``discloser search`` ranks them."""
        if limit < 1:
            raise Error("`limit` must be at least 1")
        return [SearchHit(h) for h in self._project.search(query, limit)]

    def lint(self, *, format: str = "concise") -> LintReport:
        """Lint findings rendered as ``discloser lint --format FORMAT`` renders them.

        ``format`` is ``"full"``, ``"concise"``, ``"json"``, ``"github"`` or ``"sarif"``.
        """
        text, count = self._project.lint(format)
        return LintReport(text, count)

    def cost(
        self,
        *,
        provider: str = "raw",
        tokenizer: str = "o200k",
        profiles: Iterable[str] = (),
        by_tool: bool = False,
        turns: Optional[int] = None,
        cache_read_discount: float = 1.0,
    ) -> Dict[str, Any]:
        """What the tools cost per turn, bound and indexed: ``discloser cost --format json``'s data.

        The defaults are the CLI's: ``provider="raw"``, ``tokenizer="o200k"``, every profile,
        ``cache_read_discount=1.0`` (no discount).
        """
        return self._project.cost(
            provider, tokenizer, list(profiles), by_tool, turns, cache_read_discount
        )

    def trace_summary(
        self,
        paths: Union[StrPath, Sequence[StrPath]],
        *,
        profile: str = "default",
        classify: bool = False,
        format: str = "table",
    ) -> str:
        """The summary of trace files: exactly what ``discloser trace`` prints."""
        if isinstance(paths, (str, _os.PathLike)):
            paths = [paths]
        return self._project.trace_summary(
            [_os.fspath(p) for p in paths], profile, classify, format
        )


def _config(
    triggers: Optional[Mapping[str, Iterable[str]]],
    core: Iterable[str],
    profiles: Optional[Mapping[str, Any]],
    index: Optional[Mapping[str, Any]],
    search_tool: Union[bool, Mapping[str, Any]],
) -> str:
    overrides: Dict[str, Dict[str, Any]] = {}
    for name, words in (triggers or {}).items():
        if isinstance(words, str):
            raise Error(f"triggers of `{name}` must be a list of words, not a string")
        overrides.setdefault(name, {})["triggers"] = sorted(words) if isinstance(words, (set, frozenset)) else list(words)
    for name in [core] if isinstance(core, str) else core:
        overrides.setdefault(name, {})["core"] = True
    config: Dict[str, Any] = {"sources": []}
    if index:
        config["index"] = dict(index)
    if profiles:
        config["profiles"] = {
            name: ({"starter": list(p)} if isinstance(p, (list, tuple)) else p)
            for name, p in profiles.items()
        }
    if overrides:
        config["overrides"] = overrides
    if search_tool is True:
        config["search_tool"] = "builtin"
    elif search_tool:
        config["search_tool"] = dict(search_tool)
    import json as _json

    try:
        return _json.dumps(config, ensure_ascii=False, indent=2)
    except (TypeError, ValueError) as e:
        raise Error(f"the catalog's settings are not JSON-serialisable: {e}") from None


def tool(
    *, triggers: Iterable[str] = (), core: bool = False
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Marks a function for :meth:`Catalog.from_functions` with its trigger words and core flag.

    >>> @discloser.tool(triggers={"BP", "商业计划书", "business plan"})
    ... def view_startup_guide(kind: Literal["self_register", "tax_filing", "business_plan"]) -> str:
    ...     '''Return the full text of a built-in guide.'''
    """
    words = sorted(triggers) if isinstance(triggers, (set, frozenset)) else list(triggers)

    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.__discloser__ = {"triggers": words, "core": core}  # type: ignore[attr-defined]
        return fn

    return mark


class TraceWriter:
    """Appends one JSON line per turn to ``path``, in the format ``discloser trace`` reads.

    Each :meth:`turn` is written and flushed whole, under a lock, so several threads may share a
    writer and a crash never leaves half a line. The file is opened in append mode: existing
    turns are kept.

    >>> with discloser.TraceWriter("trace.jsonl") as trace:
    ...     trace.turn(session="s01", turn=1, tools=[call.call(ok=True)], model="gpt-4o-mini")
    """

    _CALL_KEYS = ("name", "origin", "arguments", "ok", "error")

    def __init__(self, path: StrPath) -> None:
        self.path = _os.fspath(path)
        self._lock = _allocate_lock()
        self._file = open(self.path, "a", encoding="utf-8", newline="\n")

    def turn(
        self,
        *,
        session: str,
        turn: int,
        tools: Iterable[Union[Mapping[str, Any], Resolution]] = (),
        model: Optional[str] = None,
        profile: Optional[str] = None,
        input_tokens: Optional[int] = None,
        latency_ms: Optional[int] = None,
        user: Optional[str] = None,
    ) -> None:
        """Records one turn: its tool calls in order (dicts with ``name``, ``origin``,
        ``arguments``, ``ok``, ``error``, or :class:`Resolution` values) and the turn's facts.
        ``user`` (what the user said) is written only when given."""
        if not isinstance(session, str):
            raise Error("`session` must be a string")
        if not isinstance(turn, int) or isinstance(turn, bool) or turn < 0:
            raise Error("`turn` must be a non-negative integer")
        record: Dict[str, Any] = {"session": session, "turn": turn}
        for key, value in (
            ("model", model),
            ("profile", profile),
            ("input_tokens", input_tokens),
            ("latency_ms", latency_ms),
            ("user", user),
        ):
            if value is not None:
                record[key] = value
        record["tools"] = [self._call(c) for c in tools]
        import json as _json

        try:
            line = _json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        except (TypeError, ValueError) as e:
            raise Error(f"the turn is not JSON-serialisable: {e}") from None
        with self._lock:
            if self._file.closed:
                raise Error(f"the trace `{self.path}` is closed")
            self._file.write(line + "\n")
            self._file.flush()

    def _call(self, call: Union[Mapping[str, Any], Resolution]) -> Dict[str, Any]:
        entry = call.call() if isinstance(call, Resolution) else dict(call)
        unknown = [k for k in entry if k not in self._CALL_KEYS]
        if unknown:
            raise Error(
                f"unknown key `{unknown[0]}` in a traced call: expected "
                + ", ".join(f"`{k}`" for k in self._CALL_KEYS)
            )
        if not isinstance(entry.get("name"), str):
            raise Error("a traced call needs a `name` string")
        origin = entry.get("origin")
        if origin is not None and origin not in ("bound", "catalog", "search", "unknown"):
            raise Error(
                f"unknown origin `{origin}`: expected `bound`, `catalog`, `search` or `unknown`"
            )
        return {k: entry[k] for k in self._CALL_KEYS if entry.get(k) is not None}

    def close(self) -> None:
        """Closes the file (further turns raise :class:`Error`)."""
        with self._lock:
            self._file.close()

    def __enter__(self) -> TraceWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
