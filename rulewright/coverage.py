"""Rule coverage: how often each spec rule ran in a compiled engine, and which rules never ran.

The compiler writes a comment `# cov N` right above the first statement of every rule point (each
procedure, function, effect and expression field, trigger body, setup, phase pass, modifier `add`
and `cancel`, and every arm of every `if`) and lists the points in `GameInfo.coverage_points` as
(kind, what, spec file:line). Comments cost nothing in normal play.

A RuleCoverage reads the engine's source once and maps each marker to the statement below it. While
it is active, a `sys.settrace` tracer leaves every frame outside the engine module untraced and
counts a point each time a frame enters the lines of its statement from outside them (a loop header
or a multi-line statement gets several line events in one run, all but the first from inside).

An `if` without `else` has no statement for its implicit else to stand above: its marker,
`# cov N (implicit else)`, stands above the `if`, and counts each time the `if`'s last test (the `elif`'s,
in a chain) ran less each time the first statement of that test's arm ran, that is each time the
test was false. A test left by an exception (an error, or a move waiting for a chance outcome,
which runs it again) was neither true nor false: its run is taken back.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any

from runtime.engine import GameState
from runtime.game import Game

# `# cov 19 (in_play)`: a function written out; `# cov 7 (implicit else)`: the else of the `if` below
MARKER = re.compile(r"# cov (\d+)(?: \((\w+|implicit else)\))?")
IMPLICIT_ELSE = "implicit else"  # (two words: no function is named so)
KINDS = ("setup", "phase", "procedure", "function", "trigger", "effect", "expression", "modifier", "branch")
Tracer = Callable[[FrameType, str, Any], Any]


@dataclass(frozen=True)
class Point:
    """One rule point of the spec."""

    index: int
    kind: str
    what: str
    where: str  # spec file:line

    @property
    def file(self) -> str:
        return self.where.rpartition(":")[0]

    @property
    def line(self) -> int:
        return int(self.where.rpartition(":")[2])


@dataclass(frozen=True)
class Marker:
    """A `# cov N` of an engine's source and the lines that count it."""

    n: int
    first: int  # the lines of the statement right below it (of an implicit else: of its last test)
    last: int
    written_out: bool  # `# cov N (function)`: a function the compiler wrote out in that statement
    taken: tuple[int, int] | None = None  # an implicit else: the first statement of its test's arm


def marked_statements(tree: ast.Module, source: str) -> dict[int, tuple[int, int]]:
    """Each `# cov N` of an engine's source -> (first line, last line) of the statement right below it
    (of an implicit else, `# cov N (implicit else)`: of the last test of the `if` below it).

    Raises ValueError for a marker that is not directly above a statement at its own indentation.
    """
    return _primary(_markers(tree, source))


def _primary(markers: list[Marker]) -> dict[int, tuple[int, int]]:
    """The markers of the rule points themselves (not of functions written out), each once."""
    out: dict[int, tuple[int, int]] = {}
    for m in markers:
        if m.written_out:
            continue
        if m.n in out:
            raise ValueError(f"'# cov {m.n}' appears twice")
        out[m.n] = (m.first, m.last)
    return out


def inlined_statements(tree: ast.Module, source: str) -> list[tuple[int, int, int]]:
    """Each `# cov N (function)` of an engine's source, the marker of a function the compiler
    wrote out in a statement (compiler/lower/inline.py): (N, first line, last line) of that statement."""
    return _written_out(_markers(tree, source))


def _written_out(markers: list[Marker]) -> list[tuple[int, int, int]]:
    return [(m.n, m.first, m.last) for m in markers if m.written_out]


def _markers(tree: ast.Module, source: str) -> list[Marker]:
    statements: dict[int, tuple[int, int]] = {}  # first line -> (last line, column), outermost
    ifs: dict[int, ast.If] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            last = node.end_lineno or node.lineno
            if node.lineno not in statements or last > statements[node.lineno][0]:
                statements[node.lineno] = (last, node.col_offset)
            if isinstance(node, ast.If):
                ifs.setdefault(node.lineno, node)
    starts = sorted(statements)
    lines = source.splitlines()
    out: list[Marker] = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        m = MARKER.fullmatch(tok.string) if tok.type == tokenize.COMMENT else None
        if m is None:
            continue
        n, (row, col) = int(m.group(1)), tok.start
        i = bisect_right(starts, row)
        first = starts[i] if i < len(starts) else 0
        between = lines[row : first - 1]
        if not first or statements[first][1] != col or any(x.strip()[:1] not in ("", "#") for x in between):
            raise ValueError(f"'{tok.string}' (line {row}) is not right above a statement")
        if m.group(2) == IMPLICIT_ELSE:
            out.append(_implicit_else(n, ifs.get(first), statements, tok.string, row))
        else:
            out.append(Marker(n, first, statements[first][0], m.group(2) is not None))
    return out


def _implicit_else(
    n: int, node: ast.If | None, statements: dict[int, tuple[int, int]], text: str, row: int
) -> Marker:
    """The marker of the implicit else of the `if` `node`: the lines of its last test (the last
    `elif`'s, in a chain), and the first statement of that test's arm."""
    while node is not None and len(node.orelse) == 1:
        elif_ = node.orelse[0]
        if not isinstance(elif_, ast.If) or elif_.col_offset != node.col_offset:
            break  # (an `else:` holding an `if` alone, not an `elif`)
        node = elif_
    if node is None or node.orelse:
        raise ValueError(f"'{text}' (line {row}) is not right above an `if` without `else`")
    arm = node.body[0].lineno
    return Marker(n, node.lineno, arm - 1, False, (arm, statements[arm][0]))


class RuleCoverage:
    """Counts of every rule point of one compiled game, collected while active.

    `with cov: ...` (or `start()` / `stop()`) traces the engine; `counts()`, `report()` and
    `to_json()` read the result. Bind it to a Game or to an engine's State class.
    """

    def __init__(self, game: Game | type[GameState], every_line: bool = False) -> None:
        """`every_line`: trace every line of every function, even where a call tells (slower; the
        tests check that both ways count the same)."""
        state_cls = game.state_cls if isinstance(game, Game) else game
        self.info = state_cls.INFO
        self.points = [Point(i, *p) for i, p in enumerate(self.info.coverage_points)]
        self.file = state_cls._flow.__code__.co_filename  # the engine module, as its code names it
        source = Path(self.file).read_text(encoding="utf-8")
        tree = ast.parse(source)
        found = _markers(tree, source)
        marks, inlined = _primary(found), _written_out(found)
        if sorted(marks) != list(range(len(self.points))) or any(n not in marks for n, _, _ in inlined):
            raise ValueError(
                f"{self.file}: its '# cov' markers do not match its coverage table (stale build?)"
            )
        taken = {m.n: m.taken for m in found if m.taken is not None}  # the implicit elses
        # engine function (by first line) -> (points counted on the call, whether to trace its lines):
        # a function whose only marked statement is its first one (most are) needs no line tracing;
        # one that also holds a function written out counts its first one on the call too (that
        # statement may be a bare declaration, which runs no line)
        self._functions: dict[int, tuple[tuple[int, ...], bool]] = {}
        on_call: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                inside = [
                    n for n, (first, _) in marks.items() if node.lineno < first <= (node.end_lineno or 0)
                ]
                at_call = tuple(n for n in inside if marks[n][0] == node.body[0].lineno and n not in taken)
                written_out = any(node.lineno < first <= (node.end_lineno or 0) for _, first, _ in inlined)
                if inside or written_out:
                    start = node.decorator_list[0].lineno if node.decorator_list else node.lineno
                    if every_line or len(at_call) < len(inside):
                        self._functions[start] = ((), True)
                    else:
                        self._functions[start] = (at_call, written_out)
                        on_call.update(at_call)
        # every line of a marked statement -> (point, first line, last line, step) of the statements
        # holding it, but for the points counted on the call: each run of an implicit else's test
        # adds one, each run of its arm takes one back
        self._lines: dict[int, tuple[tuple[int, int, int, int], ...]] = {}
        traced = [(n, *lines, 1) for n, lines in sorted(marks.items()) if n not in on_call]
        traced += [(n, first, last, 1) for n, first, last in inlined]
        traced += [(n, *arm, -1) for n, arm in sorted(taken.items())]
        for n, first, last, step in traced:
            for line in range(first, last + 1):
                self._lines[line] = (*self._lines.get(line, ()), (n, first, last, step))
        # every line of an implicit else's test -> its points (a test an exception leaves did not fail)
        self._tests: dict[int, tuple[int, ...]] = {}
        for n in sorted(taken):
            for line in range(marks[n][0], marks[n][1] + 1):
                self._tests[line] = (*self._tests.get(line, ()), n)
        self._counts = [0] * len(self.points)
        self._previous: Callable[..., Any] | None = None  # whatever tracer was in place
        self.active = False

    # -- collecting
    def start(self) -> None:
        """Trace the engine from now on (the tracer in place before is put back by `stop`)."""
        if self.active:
            raise RuntimeError("this RuleCoverage is already collecting")
        self._previous = sys.gettrace()
        self.active = True
        sys.settrace(self._tracer())

    def stop(self) -> None:
        if self.active:
            sys.settrace(self._previous)
            self.active = False
            self._previous = None

    def __enter__(self) -> RuleCoverage:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def _tracer(self) -> Tracer:
        file, lines, counts, functions = self.file, self._lines, self._counts, self._functions
        tests = self._tests

        def on_call(frame: FrameType, event: str, arg: Any) -> Tracer | None:
            code = frame.f_code
            if code.co_filename != file:
                return None
            entry = functions.get(code.co_firstlineno)
            if entry is None or code.co_name[0] == "<":  # comprehensions hold no marker of their own
                return None
            for n in entry[0]:
                counts[n] += 1
            if not entry[1]:
                return None
            last = 0

            def on_line(frame: FrameType, event: str, arg: Any) -> Tracer:
                nonlocal last
                if event == "line":
                    line = frame.f_lineno
                    hits = lines.get(line)
                    if hits is not None:
                        for n, first, end, step in hits:
                            if not first <= last <= end:
                                counts[n] += step
                    last = line
                elif event == "exception":  # (passing through this frame, which it leaves)
                    for n in tests.get(frame.f_lineno, ()):
                        counts[n] -= 1
                return on_line

            return on_line

        return on_call

    def hits_in(self, fn: Callable[[], object]) -> dict[int, int]:
        """Run `fn()` traced; the points that ran during it (index -> times). Counts also add up here."""
        before = self._counts[:]
        if self.active:
            fn()
        else:
            with self:
                fn()
        return {n: c - b for n, (c, b) in enumerate(zip(self._counts, before, strict=True)) if c != b}

    # -- results
    def counts(self) -> list[int]:
        """How many times each point ran, by index into `points`."""
        return self._counts[:]

    def reset(self) -> None:
        self._counts[:] = [0] * len(self._counts)

    def merge(self, other: RuleCoverage) -> None:
        """Add the counts of another RuleCoverage of the same engine."""
        if other.info.digest != self.info.digest:
            raise ValueError("cannot merge the coverage of different engines")
        self.add(other._counts)

    def add(self, counts: Sequence[int]) -> None:
        """Add counts of this engine's points (`counts()` of a RuleCoverage in another process)."""
        if len(counts) != len(self._counts):
            raise ValueError(f"{len(counts)} counts for the {len(self._counts)} points of {self.info.name}")
        for n, c in enumerate(counts):
            self._counts[n] += c

    def never_ran(self) -> list[Point]:
        return sorted((p for p in self.points if not self._counts[p.index]), key=_order)

    def report(self, top: int | None = None, only: frozenset[str] | None = None) -> str:
        """A readable table: the summary, totals per kind, the points by spec file and line with their
        counts (with `top`, only the `top` most run, most first), then every point that never ran.
        With `only` (kinds, e.g. {"effect"}), the lists hold only points of those kinds."""
        c = self._counts
        listed = [p for p in self.points if only is None or p.kind in only]
        total, ran = len(self.points), sum(1 for x in c if x)
        pct = 100 * ran / total if total else 100.0
        out = [f"Rule coverage of {self.info.title}: {ran} of {total} rule points ran ({pct:.1f}%)"]
        kinds = [k for k in KINDS if any(p.kind == k for p in self.points)]
        kinds += sorted({p.kind for p in self.points} - set(KINDS))
        out.append(f"  {'kind':<11}{'ran':>5}{'of':>6}{'runs':>12}")
        for k in kinds:
            of = [p for p in self.points if p.kind == k]
            runs = sum(c[p.index] for p in of)
            out.append(f"  {k:<11}{sum(1 for p in of if c[p.index]):>5}{len(of):>6}{runs:>12,}")
        if top is not None:
            hot = sorted(listed, key=lambda p: (-c[p.index], _order(p)))[: max(0, top)]
            out.append(f"\nMost run ({len(hot)}):")
            out += [f"  {c[p.index]:>10,}  {p.where}  {p.kind:<10} {p.what}" for p in hot]
        else:
            file = ""
            for p in sorted(listed, key=_order):
                if p.file != file:
                    file = p.file
                    out.append(f"\n{file}")
                out.append(f"  {p.line:>5}  {c[p.index]:>10,}  {p.kind:<10} {p.what}")
        never = [p for p in self.never_ran() if only is None or p.kind in only]
        out.append(f"\nNever ran ({len(never)}):")
        out += [f"  {p.where}  {p.kind:<10} {p.what}" for p in never]
        return "\n".join(out)

    def to_json(self) -> dict[str, object]:
        return {
            "game": self.info.name,
            "digest": self.info.digest,
            "ran": sum(1 for x in self._counts if x),
            "total": len(self.points),
            "points": [
                {"kind": p.kind, "what": p.what, "where": p.where, "count": self._counts[p.index]}
                for p in self.points
            ],
        }


def _order(p: Point) -> tuple[str, int, int]:
    return (p.file, p.line, p.index)
