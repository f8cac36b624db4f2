"""Block code: what frames.py writes into a frame's numbered blocks -> typed statements.

A block is a tuple of statements. The ones that move control are typed, so dispatch.py reads and
rewrites them as objects (as CPython's flowgraph works on instructions, never on printed code):
a `Jump` to block N (printed `pc = N`, `continue`), a `Resume` at block N (`self.pc = N`, the
block the frame runs when it next steps), a `Return`, a Python loop's `Continue`, and a `Suite`
(`if x:` and its body). The rest is text: a `Line` of code, a `Comment`, a coverage `Marker`.

`BlockWriter` builds a block with the code writer's calls (`line`, `block`, `leave`), so
statements.py writes into either; only the lines it is given as text are told apart by their
first characters: a comment starts with `#`, a coverage marker with `# cov ` (rule coverage needs
every marker). Lines a statement runs before it (loops.py) carry their own indentation below the
first, and stay text: they never jump, resume or return.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from compiler.codewriter import Leave


@dataclass(frozen=True, slots=True)
class Line:
    """A line of code (with the indentation of a loops.py line below the statement's)."""

    text: str


@dataclass(frozen=True, slots=True)
class Comment:
    """A comment, or an empty line (`text` ""): not code."""

    text: str


@dataclass(frozen=True, slots=True)
class Marker:
    """A coverage marker, `# cov N`, `# cov N (name)` or `# cov N (implicit else)` (with the
    indentation of a loops.py line)."""

    text: str


@dataclass(frozen=True, slots=True)
class Jump:
    """Run block `target` next: `pc = target`, then the step loop's `continue`."""

    target: int


@dataclass(frozen=True, slots=True)
class Resume:
    """`self.pc = target`: the block the frame runs when it steps again, after a call or a decision."""

    target: int


@dataclass(frozen=True, slots=True)
class Return:
    """`return`: the step ends (a frame was pushed, a decision asked, or the frame popped)."""


@dataclass(frozen=True, slots=True)
class Continue:
    """A Python loop's `continue` (inside a `for` a statement runs straight through)."""


@dataclass(frozen=True, slots=True)
class Suite:
    """A compound statement's header (`if x:`) and its body, never without a line of code."""

    header: str
    body: tuple[Stmt, ...]


_TYPED = ("return", "continue")

Stmt = Line | Comment | Marker | Jump | Resume | Return | Continue | Suite
Block = tuple[Stmt, ...]


class BlockWriter:
    """Collects one block's statements, with the code writer's calls; `block(header)` nests."""

    def __init__(self) -> None:
        self._open: list[list[Stmt]] = [[]]  # the suites being written, outermost first

    def line(self, text: str = "") -> None:
        """Write one logical line (no line break in it), told apart by its first characters."""
        if "\n" in text or "\r" in text:
            raise ValueError(f"a line must not hold a line break: {text!r}")
        if text in _TYPED:  # (as text, dispatch.py would not see that the suite ends there)
            raise ValueError(f"write {text!r} with leave(), not as a line")
        self._open[-1].append(_text(text))

    @contextmanager
    def block(self, header: str) -> Iterator[None]:
        """Write `header` and, in the `with`, its body; a body without code gets `pass` (CodeWriter)."""
        self._open.append([])
        try:
            yield
        finally:
            body = self._open.pop()
            if not any(is_code(x) for x in body):
                body.append(Line("pass"))
            self._open[-1].append(Suite(header, tuple(body)))

    def leave(self, word: Leave) -> None:
        """`return`, or a Python loop's `continue`: the rest of the suite never runs."""
        self._open[-1].append(Return() if word == "return" else Continue())

    def jump(self, target: int) -> None:
        self._open[-1].append(Jump(target))

    def resume_at(self, target: int) -> None:
        self._open[-1].append(Resume(target))

    def statements(self) -> Block:
        """The block written (every suite closed)."""
        if len(self._open) != 1:
            raise ValueError("a suite of the block is still open")
        return tuple(self._open[0])


def is_code(x: Stmt) -> bool:
    return not isinstance(x, Comment | Marker)


def _text(text: str) -> Line | Comment | Marker:
    stripped = text.lstrip(" ")
    if not stripped.startswith("#"):
        return Line(text) if stripped else Comment(text)
    return Marker(text) if stripped.startswith("# cov ") else Comment(text)
