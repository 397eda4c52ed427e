"""Python functions as tool definitions: type hints to JSON Schema, docstrings to descriptions.

The schema follows what Pydantic generates for the same hints, so a tool described here and one
described by a Pydantic-based framework give the same index line: ``Literal[...]`` and ``Enum``
become ``enum`` (with ``type`` when the values share one), ``Optional[X]`` is
``anyOf: [X, {type: null}]``, a parameter with a default is not ``required`` and carries its
``default``. Without Pydantic every standard hint works (str, int, float, bool, None, list, set,
tuple, dict, Literal, Enum, Optional, Union, Annotated with a string, dataclasses, TypedDict);
with Pydantic installed, parameters typed with a Pydantic model (or anything else this module
does not know) use ``pydantic.TypeAdapter``'s schema.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import re
import sys
import typing
from typing import Any, Callable, Dict, List, Optional, Tuple

from ._errors import Error

_PRIMITIVES = {
    str: "string",
    int: "integer",
    float: "number",
    bool: "boolean",
    type(None): "null",
    bytes: "string",
}


def function_tool(fn: Callable[..., Any]) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """The native tool definition of ``fn`` and its :func:`discloser.tool` marks."""
    name = getattr(fn, "__name__", None)
    if not isinstance(name, str) or not callable(fn):
        raise Error(f"expected a function, found {type(fn).__name__}")
    doc = inspect.getdoc(fn) or ""
    described = _arg_docs(doc)
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception as e:  # unresolvable forward references
        raise Error(f"cannot read the type hints of `{name}`: {e}") from None
    properties: Dict[str, Any] = {}
    required: List[str] = []
    defs: Dict[str, Any] = {}
    for param in inspect.signature(fn).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD) or param.name in (
            "self",
            "cls",
        ):
            continue
        hint = hints.get(param.name, Any)
        try:
            schema = _schema(hint, defs)
        except _Unsupported as e:
            raise Error(f"parameter `{param.name}` of `{name}`: {e}") from None
        if param.name in described and "description" not in schema:
            schema["description"] = described[param.name]
        if param.default is param.empty:
            required.append(param.name)
        else:
            default = _jsonable(param.default)
            if default is not _NO:
                schema["default"] = default
        properties[param.name] = schema
    parameters: Dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        parameters["required"] = required
    if defs:
        parameters["$defs"] = defs
    definition = {"name": name, "description": doc, "parameters": parameters}
    return definition, dict(getattr(fn, "__discloser__", {}))


class _Unsupported(Exception):
    pass


_NO = object()


def _jsonable(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        value = value.value
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (list, tuple)):
        items = [_jsonable(v) for v in value]
        return _NO if any(i is _NO for i in items) else items
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        out = {k: _jsonable(v) for k, v in value.items()}
        return _NO if any(v is _NO for v in out.values()) else out
    return _NO


def _enum_schema(values: List[Any]) -> Dict[str, Any]:
    schema: Dict[str, Any] = {"enum": values}
    kinds = {_PRIMITIVES.get(type(v)) for v in values}
    if len(kinds) == 1 and None not in kinds:
        schema["type"] = kinds.pop()
    return schema


def _schema(hint: Any, defs: Dict[str, Any]) -> Dict[str, Any]:
    if hint is Any or hint is inspect.Parameter.empty:
        return {}
    if hint in _PRIMITIVES:
        return {"type": _PRIMITIVES[hint]}
    if hint is None:
        return {"type": "null"}
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Annotated:
        schema = _schema(args[0], defs)
        for meta in args[1:]:
            if isinstance(meta, str):
                schema["description"] = meta
            elif getattr(meta, "description", None):
                schema["description"] = meta.description
        return schema
    if origin is typing.Literal:
        return _enum_schema([v.value if isinstance(v, enum.Enum) else v for v in args])
    if origin is typing.Union or _is_union_type(origin):
        members = [_schema(a, defs) for a in args]
        return {"anyOf": members}
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return _enum_schema([m.value for m in hint])
    if origin in (list, set, frozenset) or hint in (list, set, frozenset) or _is_abc(origin, "Sequence", "Set", "Iterable"):
        schema = {"type": "array"}
        if args:
            schema["items"] = _schema(args[0], defs)
        if origin in (set, frozenset) or hint in (set, frozenset):
            schema["uniqueItems"] = True
        return schema
    if origin is tuple or hint is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": _schema(args[0], defs)}
        if args:
            items = [_schema(a, defs) for a in args]
            return {
                "type": "array",
                "prefixItems": items,
                "minItems": len(items),
                "maxItems": len(items),
            }
        return {"type": "array"}
    if origin is dict or hint is dict or _is_abc(origin, "Mapping"):
        schema = {"type": "object"}
        if len(args) == 2 and args[1] is not Any:
            schema["additionalProperties"] = _schema(args[1], defs)
        return schema
    if _is_typed_dict(hint) or dataclasses.is_dataclass(hint):
        adapted = _pydantic_schema(hint, defs)
        if adapted is not None:
            return adapted
        return _object_schema(hint, defs)
    adapted = _pydantic_schema(hint, defs)
    if adapted is not None:
        return adapted
    raise _Unsupported(
        f"type `{getattr(hint, '__name__', hint)}` has no JSON Schema here"
        + ("" if "pydantic" in sys.modules else " (install pydantic for model types)")
    )


def _is_union_type(origin: Any) -> bool:
    union_type = getattr(__import__("types"), "UnionType", None)
    return union_type is not None and origin is union_type


def _is_abc(origin: Any, *names: str) -> bool:
    import collections.abc as abc

    return any(origin is getattr(abc, n) for n in names)


def _is_typed_dict(hint: Any) -> bool:
    return isinstance(hint, type) and issubclass(hint, dict) and hasattr(hint, "__total__")


def _object_schema(hint: Any, defs: Dict[str, Any]) -> Dict[str, Any]:
    hints = typing.get_type_hints(hint, include_extras=True)
    properties = {k: _schema(v, defs) for k, v in hints.items()}
    if dataclasses.is_dataclass(hint):
        required = [
            f.name
            for f in dataclasses.fields(hint)
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        ]
    else:
        required = sorted(getattr(hint, "__required_keys__", hints.keys()))
    schema: Dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


def _pydantic_schema(hint: Any, defs: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    try:
        import pydantic  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    try:
        schema: Dict[str, Any] = pydantic.TypeAdapter(hint).json_schema()
    except Exception:
        return None
    # Pydantic puts nested models under the value's own `$defs`; hoist them to the tool's
    # parameters, where `#/$defs/...` points.
    defs.update(schema.pop("$defs", {}))
    return schema


_SECTION = re.compile(r"^(Args|Arguments|Parameters|Params)\s*:?\s*$")
_NUMPY_RULE = re.compile(r"^-{3,}\s*$")
_GOOGLE_ARG = re.compile(r"^(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")
_NUMPY_ARG = re.compile(r"^(\w+)\s*(?::.*)?$")


def _arg_docs(doc: str) -> Dict[str, str]:
    """Parameter descriptions of a Google (``Args:``) or NumPy (``Parameters\\n----``) section."""
    lines = doc.splitlines()
    out: Dict[str, str] = {}
    i = 0
    while i < len(lines):
        if _SECTION.match(lines[i].strip()):
            numpy = i + 1 < len(lines) and bool(_NUMPY_RULE.match(lines[i + 1].strip()))
            i += 2 if numpy else 1
            current = None
            base = None
            while i < len(lines):
                line = lines[i]
                if not line.strip():
                    i += 1
                    if numpy:
                        continue
                    break
                indent = len(line) - len(line.lstrip())
                if base is None:
                    base = indent
                if indent < base or (numpy and _NUMPY_RULE.match(lines[i + 1].strip() if i + 1 < len(lines) else "")):
                    break
                text = line.strip()
                match = (_NUMPY_ARG if numpy else _GOOGLE_ARG).match(text) if indent == base else None
                if match:
                    current = match.group(1).lstrip("*")
                    out[current] = "" if numpy else match.group(2)
                elif current is not None:
                    out[current] = (out[current] + " " + text).strip()
                i += 1
            continue
        i += 1
    return {k: v for k, v in out.items() if v}
