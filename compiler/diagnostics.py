"""Diagnostics as data: the Diagnostic record, the Sink that collects them, and their rendering.

Every stage appends Diagnostics to a Sink; the driver sorts them by position and prints them once.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from compiler import messages
from compiler.errorcodes import UNDECLARED_CODES, ErrorCode
from compiler.ir import Span
from compiler.limits import MAX_FILE_BYTES
from compiler.source import SourceError, read_bytes


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One located message about a spec."""

    code: str  # the ErrorCode's name, as printed: "unknown-name"
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
    # spec files whose declarations are missing because the file could not be read or parsed
    unread: list[str] = field(default_factory=list)

    def error(self, code: ErrorCode, span: Span, message: str, *notes: str) -> None:
        self.items.append(Diagnostic(code.code, "error", span, message, notes))

    def warning(self, code: ErrorCode, span: Span, message: str, *notes: str) -> None:
        self.items.append(Diagnostic(code.code, "warning", span, message, notes))

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.items)

    def drop_undeclared(self) -> None:
        """Leave out the errors that the declarations of unread files might explain, and say so."""
        undeclared = {c.code for c in UNDECLARED_CODES}
        kept = [d for d in self.items if d.code not in undeclared]
        if len(kept) == len(self.items):
            return
        note = messages.undeclared_not_shown(len(self.items) - len(kept))
        noted: set[str] = set()
        for i, d in enumerate(kept):
            if d.span.file in self.unread and d.span.file not in noted and d.severity == "error":
                kept[i] = Diagnostic(d.code, d.severity, d.span, d.message, (*d.notes, note))
                noted.add(d.span.file)
        self.items = kept

    def sorted(self) -> list[Diagnostic]:
        seen: set[tuple[object, ...]] = set()
        out = []
        for d in sorted(self.items, key=Diagnostic.sort_key):
            key = (d.code, d.span, d.message)
            if key not in seen:
                seen.add(key)
                out.append(d)
        return out


_MANY_CANDIDATES = 300


def close_match(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate `name` is most likely a misspelling of, if one is close."""
    candidates = list(candidates)
    if len(candidates) > _MANY_CANDIDATES:
        # comparing costs microseconds a pair, and a spec may have thousands of names and of
        # misspellings: compare only names of about the same length, starting alike
        first, size = name[:1], len(name)
        candidates = [c for c in candidates if c[:1] == first and size - 3 < len(c) < size + 3]
    candidates = sorted(set(candidates))[:_MANY_CANDIDATES]
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    if close:
        return close[0]
    lowered = {c.lower(): c for c in candidates}
    return lowered.get(name.lower())


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """A ' did you mean ...?' suffix, or '' when nothing is close."""
    return messages.did_you_mean_suffix(close_match(name, candidates))


_LONG_LINE = 160  # longer source lines are cut to this many characters around the caret


def render(diag: Diagnostic, source_cache: dict[str, list[str]] | None = None) -> str:
    """`path:line:col: severity: message [code]`, then the source line and a caret under the span."""
    cache = source_cache if source_cache is not None else {}
    span = diag.span
    head = f"{span.file}:{span.line}:{span.col}: {diag.severity}: {diag.message} [{diag.code}]"
    lines = [_printable(head)]
    text = _source_line(span.file, span.line, cache)
    if text is not None:
        col = span.col
        if len(text) > _LONG_LINE:  # show the part around the caret
            start = max(0, col - 1 - _LONG_LINE // 3)
            end = start + _LONG_LINE
            text = ("..." if start else "") + text[start:end] + ("..." if end < len(text) else "")
            col += -start + (3 if start else 0)
        # one character for one, so that the caret stays under its column
        lines.append("    " + _placeheld(text.rstrip("\n")))
        width = 1
        if span.end_line == span.line and span.end_col > span.col:
            width = span.end_col - span.col
        width = max(1, min(width, max(1, len(text) - col + 1)))
        lines.append("    " + " " * (col - 1) + "^" + "~" * (width - 1))
    for note in diag.notes:
        lines.append(_printable(f"    note: {note}"))
    return "\n".join(lines)


def _printable(text: str) -> str:
    """One line, with the control characters of a spec (a terminal escape sequence or a line break
    in a name, say), its bidi overrides and lone surrogates shown escaped. The rule and the
    notation of runtime/text.py's `escaped` (the compiler does not import the runtime;
    tests/test_hostile_terminal.py checks that the two agree)."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def _placeheld(text: str) -> str:
    """A source line with each character a terminal would act on, or that reorders the line (a
    bidi override), shown as U+FFFD: one character for one, so the caret stays in its column.
    A tab stays (the line is shown as the file holds it)."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == "\t" else "\ufffd" for ch in text)


def _source_line(file: str, line: int, cache: dict[str, list[str]]) -> str | None:
    if line < 1:
        return None
    if file not in cache:
        try:  # the same guards as the loader's: no FIFO, no device, nothing huge, any bytes
            cache[file] = (
                read_bytes(Path(file), MAX_FILE_BYTES).decode("utf-8", errors="replace").splitlines()
            )
        except SourceError:
            cache[file] = []
    src = cache[file]
    return src[line - 1] if line <= len(src) else None


def render_all(diags: Iterable[Diagnostic]) -> str:
    cache: dict[str, list[str]] = {}
    return "\n".join(render(d, cache) for d in diags)
