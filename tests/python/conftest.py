"""Shared paths and the two commands compared: the Rust binary and the wheel's `discloser`."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import List, Optional, Tuple

import pytest

ROOT = Path(__file__).resolve().parents[2]
IN_CI = bool(os.environ.get("CI"))


def shared_corpora() -> Optional[Path]:
    """`../shared/corpora` beside the checkout (CI provides it), or DISCLOSER_SHARED/corpora."""
    base = os.environ.get("DISCLOSER_SHARED")
    path = Path(base) / "corpora" if base else ROOT.parent / "shared" / "corpora"
    return path if path.is_dir() else None


def rust_binary() -> Optional[Path]:
    """The Rust binary: DISCLOSER_TEST_BIN, else target/release, else target/debug."""
    given = os.environ.get("DISCLOSER_TEST_BIN")
    if given:
        return Path(given)
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    for profile in ("release", "debug"):
        candidate = target / profile / "discloser"
        if candidate.is_file():
            return candidate
    return None


def wheel_command() -> Optional[str]:
    return shutil.which("discloser")


def run(cmd: List[str], cwd: Path = ROOT) -> Tuple[int, bytes, bytes]:
    env = dict(os.environ, NO_COLOR="1")
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, env=env)
    return done.returncode, done.stdout, done.stderr


@pytest.fixture(scope="session")
def example():
    import discloser

    return discloser.Catalog.from_config(ROOT / "discloser.yaml")


@pytest.fixture(scope="session")
def binaries() -> Tuple[str, str]:
    rust, wheel = rust_binary(), wheel_command()
    if rust is None or wheel is None:
        reason = "needs the Rust binary (cargo build; or DISCLOSER_TEST_BIN) and the wheel's `discloser` on PATH"
        if IN_CI:
            pytest.fail(reason)
        pytest.skip(reason)
    return str(rust), wheel


@pytest.fixture(scope="session")
def corpora() -> Path:
    path = shared_corpora()
    if path is None:
        reason = f"the shared corpora are not beside the checkout ({ROOT.parent / 'shared'}); CI provides them"
        if IN_CI:
            pytest.fail(reason)
        pytest.skip(reason)
    return path


def corpus_files(corpora: Path) -> List[Path]:
    """Every tool file of the corpora (as tests/it/corpora.rs lists them), sorted."""
    out = []
    for path in corpora.rglob("*"):
        if (
            path.is_file()
            and path.suffix in (".json", ".snap", ".yaml", ".yml")
            and path.name not in ("analysis.json", "servers_meta.json")
        ):
            out.append(path)
    return sorted(out)
