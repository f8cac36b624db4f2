"""Diagnostics as data: the registry of error codes, the Diagnostic record, and its rendering.

Every stage appends Diagnostics to a Sink; the driver sorts them by position and prints them once.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from compiler.ir import Span

# code -> what it means. docs/diagnostics.md and the golden tests are checked against this table.
CODES: dict[str, str] = {
    "yaml-syntax": "the YAML file does not parse",
    "unknown-key": "a mapping has a key the spec format does not know",
    "missing-key": "a required key is absent",
    "wrong-value-type": "a YAML value has the wrong kind (e.g. a list where a mapping belongs)",
    "duplicate-id": "two declarations share a name",
    "bad-name": "an id that is not a plain name (a letter or _, then letters, digits or _)",
    "dsl-syntax": "a DSL string does not parse",
    "unknown-name": "a name that is not declared anywhere in scope",
    "unknown-type": "a type that is neither built in nor declared",
    "unknown-field": "a component has no such field",
    "type-mismatch": "a value of one type where another is needed",
    "wrong-arg-count": "a call with too many or too few arguments",
    "decision-without-player": "a decision that does not say which player makes it",
    "undefined-procedure": "a call to a procedure that is not defined",
    "undefined-phase": "a reference to a phase that is not defined",
    "misplaced-chance": "a die roll or random pick where nothing may change (a function, condition, invariant or expectation)",
    "misplaced-decision": "a decision where the game cannot stop and ask (inside a function, condition or invariant)",
    "leaky-decision": "a decision whose answer, logged for every player, names or steers cards hidden from some of them (write `secretly` or `publicly`)",
    "bad-scenario": "a scenario that cannot be run as written",
    "missing-event": "a component whose effect is not written yet (a warning)",
    "endless-recursion": "a function, procedure or trigger that calls itself again on every path",
    "too-deep": "blocks, loops or an expression nested deeper than generated Python may go",
}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One located message about a spec."""

    code: str
    severity: str  # "error" or "warning"
    span: Span
    message: str
    notes: tuple[str, ...] = ()

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.span.file, self.span.line, self.span.col, self.message)


@dataclass
class Sink:
    """Collects every diagnostic of a run."""

    items: list[Diagnostic] = field(default_factory=list)

    def error(self, code: str, span: Span, message: str, *notes: str) -> None:
        assert code in CODES, code
        self.items.append(Diagnostic(code, "error", span, message, notes))

    def warning(self, code: str, span: Span, message: str, *notes: str) -> None:
        assert code in CODES, code
        self.items.append(Diagnostic(code, "warning", span, message, notes))

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.items)

    def sorted(self) -> list[Diagnostic]:
        seen: set[tuple[object, ...]] = set()
        out = []
        for d in sorted(self.items, key=Diagnostic.sort_key):
            key = (d.code, d.span, d.message)
            if key not in seen:
                seen.add(key)
                out.append(d)
        return out


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """A ' did you mean ...?' suffix, or '' when nothing is close."""
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in candidates}
        if name.lower() in lowered:
            close = [lowered[name.lower()]]
    return f"; did you mean '{close[0]}'?" if close else ""


def render(diag: Diagnostic, source_cache: dict[str, list[str]] | None = None) -> str:
    """`path:line:col: severity: message [code]`, then the source line and a caret under the span."""
    cache = source_cache if source_cache is not None else {}
    span = diag.span
    head = f"{span.file}:{span.line}:{span.col}: {diag.severity}: {diag.message} [{diag.code}]"
    lines = [head]
    text = _source_line(span.file, span.line, cache)
    if text is not None:
        lines.append("    " + text.rstrip("\n"))
        width = 1
        if span.end_line == span.line and span.end_col > span.col:
            width = span.end_col - span.col
        width = max(1, min(width, max(1, len(text) - span.col + 1)))
        lines.append("    " + " " * (span.col - 1) + "^" + "~" * (width - 1))
    for note in diag.notes:
        lines.append(f"    note: {note}")
    return "\n".join(lines)


def _source_line(file: str, line: int, cache: dict[str, list[str]]) -> str | None:
    if line < 1:
        return None
    if file not in cache:
        try:
            cache[file] = Path(file).read_text(encoding="utf-8").splitlines()
        except OSError:
            cache[file] = []
    src = cache[file]
    return src[line - 1] if line <= len(src) else None


def render_all(diags: Iterable[Diagnostic]) -> str:
    cache: dict[str, list[str]] = {}
    return "\n".join(render(d, cache) for d in diags)
