"""A `$ref` into another file leaves the Python API bundled, as it leaves `discloser export`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator, List

import pytest

import discloser
from conftest import run, rust_binary

PROVIDERS = ["openai", "openai-responses", "anthropic", "mcp", "gemini"]

# The example of docs/formats.md: `common.yaml#/$defs/Kind`, relative to the referring file.
FILES = {
    "discloser.yaml": "sources: [tools/guide.yaml]\nprofiles:\n  default:\n    starter: [view_guide]\n",
    "tools/guide.yaml": (
        "name: view_guide\ndescription: Show a guide.\ntriggers: [guide]\nparameters:\n"
        "  type: object\n  properties:\n    kind: {$ref: 'common.yaml#/$defs/Kind'}\n  required: [kind]\n"
    ),
    "tools/common.yaml": "$defs:\n  Kind: {type: string, enum: [short, long]}\n",
}


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    for name, text in FILES.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def refs(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        if isinstance(value.get("$ref"), str):
            yield value["$ref"]
        for child in value.values():
            yield from refs(child)
    elif isinstance(value, list):
        for child in value:
            yield from refs(child)


def local_refs(value: Any) -> List[str]:
    found = list(refs(value))
    assert found, "expected references"
    assert all(r.startswith("#") for r in found), found
    return found


@pytest.mark.parametrize("provider", PROVIDERS)
def test_bound_has_no_external_ref(project, provider):
    catalog = discloser.Catalog.from_config(project / "discloser.yaml")
    bound = catalog.bound(provider=provider)
    assert local_refs(bound) == ["#/$defs/Kind"]
    assert '"$defs": {"Kind": {"type": "string", "enum": ["short", "long"]}}' in json.dumps(bound)
    definition = catalog.definition("view_guide", provider=provider)
    assert local_refs(definition) == ["#/$defs/Kind"]


def test_bound_is_what_export_prints_with_a_file_ref(project):
    rust = rust_binary()
    if rust is None:
        pytest.skip("needs the Rust binary")
    catalog = discloser.Catalog.from_config(project / "discloser.yaml")
    for provider in PROVIDERS:
        code, out, err = run([str(rust), "export", "--provider", provider], cwd=project)
        assert code == 0, err
        assert catalog.bound(provider=provider) == json.loads(out)
