"""Code writer: lines of Python, written one at a time -> the text of a block, indented for you.

Indentation is owned by the writer, as in pegen's `ParserGenerator.indent()` with its `print()`:
code that emits a nested block says so with `with w.block("if x:"):` instead of threading an
indent string through every call.

    >>> w = CodeWriter()
    >>> with w.block("def f(x: int) -> int:"):
    ...     with w.block("if x > 0:"):
    ...         w.line("return x")
    ...     w.line("return -x")
    >>> print(w.text(), end="")
    def f(x: int) -> int:
        if x > 0:
            return x
        return -x
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Literal, Protocol

INDENT = "    "

Leave = Literal["return", "continue"]  # (in a frame, what follows either in its suite is dropped)


class Writer(Protocol):
    """What statements are written to: a CodeWriter, or a frame's block (compiler.lower.blockcode),
    which keeps jumps, resumes and returns as typed statements."""

    def line(self, text: str = "") -> None: ...

    def block(self, header: str) -> AbstractContextManager[None]: ...

    def leave(self, word: Leave) -> None: ...


class CodeWriter:
    """Collects lines of code at a current indentation, four spaces a level."""

    def __init__(self, level: int = 0) -> None:
        if level < 0:
            raise ValueError(f"indentation level must not be negative, not {level}")
        self._level = level
        self._lines: list[str] = []

    @property
    def level(self) -> int:
        """How many levels in the next line is written."""
        return self._level

    def line(self, text: str = "") -> None:
        """Write one logical line at the current indentation; "" writes an empty line.

        `text` must not hold a newline: a line of several physical lines would escape the writer's
        indentation (lay out long lines with compiler.layout instead)."""
        if "\n" in text or "\r" in text:
            raise ValueError(f"a line must not hold a line break: {text!r}")
        self._lines.append(INDENT * self._level + text if text else "")

    @contextmanager
    def indent(self) -> Iterator[None]:
        """Inside the `with`, lines are written one level (four spaces) deeper."""
        self._level += 1
        try:
            yield
        finally:
            self._level -= 1

    @contextmanager
    def block(self, header: str) -> Iterator[None]:
        """Write `header` (`if x:`, `def f() -> None:`, ...) and indent its body; a body with no
        line of code (only blank or comment lines, such as a coverage marker) gets `pass`, so the
        block always parses."""
        self.line(header)
        before = len(self._lines)
        with self.indent():
            yield
            if not any(_is_code(line) for line in self._lines[before:]):
                self.line("pass")

    def leave(self, word: Leave) -> None:
        """Write `return` or a loop's `continue`."""
        self.line(word)

    def lines(self) -> list[str]:
        """The lines written so far, without line ends (a copy)."""
        return list(self._lines)

    def text(self) -> str:
        """The lines written so far, each ended by a newline ("" when none was written)."""
        return "".join(line + "\n" for line in self._lines)


def _is_code(line: str) -> bool:
    text = line.strip()
    return bool(text) and not text.startswith("#")
