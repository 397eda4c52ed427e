"""The ``discloser`` command of the wheel: the Rust command line, run in this process."""

from __future__ import annotations

import sys

from . import _native


def main() -> None:
    """Runs ``discloser`` with ``sys.argv`` and exits with its code (0, 1 or 2)."""
    argv = ["discloser", *sys.argv[1:]]
    sys.exit(_native.run_cli(argv))
