"""The exceptions of discloser: every one subclasses :class:`Error`.

The native module raises these classes (it imports this module), so they are ordinary Python
classes: pickling, ``except discloser.LoadError`` and attribute access work as usual.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Optional


class Error(Exception):
    """Anything discloser could not do: bad arguments, an unknown profile or format."""

    message: str

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class LoadError(Error):
    """Input that could not be loaded, with the place that caused it.

    ``path`` is the file as shown in messages, or for in-memory tools the document's name
    (``<tools[3]>``); ``line`` and ``column`` are 1-based and ``None`` when the error concerns the
    whole document; ``kind`` is one of ``io``, ``syntax``, ``shape``, ``duplicate``, ``ref``,
    ``config``; ``help`` is the CLI's ``help:`` line (a "did you mean"), if any.
    ``str(error)`` is ``path:line:col: message``, the CLI's one-line form.
    """

    path: str
    line: Optional[int]
    column: Optional[int]
    kind: str
    help: Optional[str]

    def __init__(
        self,
        message: str,
        *,
        path: str,
        line: Optional[int] = None,
        column: Optional[int] = None,
        kind: str = "shape",
        help: Optional[str] = None,
        location: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.path = path
        self.line = line
        self.column = column
        self.kind = kind
        self.help = help
        self._location = location or _location(path, line, column)

    def __str__(self) -> str:
        return f"{self._location}: {self.message}"

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (
            _rebuild,
            (self.message, self.path, self.line, self.column, self.kind, self.help),
        )


def _location(path: str, line: Optional[int], column: Optional[int]) -> str:
    if line is None:
        return path
    return f"{path}:{line}:{column}"


def _rebuild(
    message: str,
    path: str,
    line: Optional[int],
    column: Optional[int],
    kind: str,
    help: Optional[str],
) -> LoadError:
    return LoadError(message, path=path, line=line, column=column, kind=kind, help=help)
