"""Lex: a DSL text -> its tokens, as lark's contextual lexer for grammar.lark reads them.

The lexer is contextual: each parser state has a scanner for just the terminals it accepts (so a
word that is a keyword in one place is a name in another), so it reads each token in the state
the parser is in when it asks for it. The scanners are lark's own regular expressions
(grammar_tables.py); the loop that runs them is ours, so that checking a spec needs no lark.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

# A position in the text: (line, column, end line, end column), 1-based, as lark counts them.
Meta = tuple[int, int, int, int]
# A token: its kind (a terminal's name), its text, where it is. A string's text comes with its
# place, (text, meta): its builder parses the `{...}` in it from there.
Token = tuple[str, Any, Meta | None]
StringToken = tuple[str, Meta]

END = "$END"  # the kind of the token past the last, as lark names it
# the kind of what no terminal of the state matches: no parser state takes it, so parsing fails
NO_TOKEN = "<no token>"
_STRINGS = frozenset({"STRING"})  # terminals whose builders need their position


class Scanner:
    """The scanner of one parser state: lark's regular expression for the terminals that state
    accepts, the kinds it skips (whitespace, comments), and names that are keywords there."""

    __slots__ = ("match", "ignore", "keywords", "newlines")

    def __init__(self, spec: dict[str, Any]) -> None:
        self.match = re.compile(spec["pattern"], spec["flags"]).match
        self.ignore = frozenset(spec["ignore"])
        self.newlines = frozenset(spec["newlines"])
        # a terminal whose text may be a keyword (NAME) -> its texts that are keywords -> their kind
        self.keywords = {name: _keywords(p, flags) for name, (p, flags) in spec["keywords"].items()}


def _keywords(pattern: str, flags: int) -> dict[str, str]:
    """The keywords a terminal's text may be, from lark's scanner for them: each keyword's text ->
    its kind. The scanner is an alternation of literal keywords (`(?P<IF>if)|...`) matched against
    the whole text, so a text is a keyword exactly when it is one of them."""
    keywords = {text: kind for kind, text in re.findall(r"\(\?P<(\w+)>([a-z_]+)\)", pattern)}
    if "|".join(f"(?P<{kind}>{text})" for text, kind in keywords.items()) != pattern or flags & re.I:
        raise AssertionError(f"a keyword that is not a literal: {pattern}")  # pragma: no cover
    return keywords


class Lexer:
    """The contextual lexer: a scanner for each parser state (grammar_tables.py's `lexers` and
    `lexer_of`), each made on first use (compiling one takes 0.3 ms)."""

    def __init__(self, specs: list[dict[str, Any]], scanner_of: list[int]) -> None:
        self._specs = specs
        self._scanner_of = scanner_of  # state -> the index of its scanner in `specs`
        self._scanners: dict[int, Scanner] = {}  # by state
        self._made: dict[int, Scanner] = {}  # by index in `specs`

    def scanner(self, state: int) -> Scanner:
        scanner = self._scanners.get(state)
        if scanner is None:
            number = self._scanner_of[state]
            if number not in self._made:
                self._made[number] = Scanner(self._specs[number])
            scanner = self._scanners[state] = self._made[number]
        return scanner

    def tokens(self, text: str, states: list[int]) -> Iterator[Token]:
        """The tokens of `text`, then END; each is read by the scanner of the state on top of
        `states` (the parser's stack, which the parser moves on between tokens). Where that
        scanner matches nothing, a NO_TOKEN, and no more."""
        scanners, strings = self._scanners, _STRINGS
        pos, line, line_start, size = 0, 1, 0, len(text)
        while pos < size:
            if text[pos] == " ":  # (what lark's lexer skips as WS, in a step of its own)
                pos += 1
                continue
            scanner = scanners.get(states[-1]) or self.scanner(states[-1])
            m = scanner.match(text, pos)
            if m is None:
                yield NO_TOKEN, "", None
                return
            kind = m.lastgroup or ""
            value = m.group()
            first_line, col = line, pos - line_start + 1
            if kind in scanner.newlines and "\n" in value:
                line += value.count("\n")
                line_start = pos + value.rindex("\n") + 1
            pos += len(value)
            if kind in scanner.ignore:
                continue
            if kind in scanner.keywords:
                kind = scanner.keywords[kind].get(value, kind)
            meta = (first_line, col, line, pos - line_start + 1)
            yield kind, (value, meta) if kind in strings else value, meta
        yield END, "", None

    def token_at(self, text: str, pos: int, state: int) -> tuple[str, str, int] | None:
        """The token the scanner of `state` reads at `pos`, past what it skips: its kind, text and
        offset (None at the end, or where it reads none)."""
        scanner = self.scanner(state)
        while pos < len(text):
            m = scanner.match(text, pos)
            if m is None:
                return None
            kind, value = m.lastgroup or "", m.group()
            if kind not in scanner.ignore:
                if kind in scanner.keywords:
                    kind = scanner.keywords[kind].get(value, kind)
                return kind, value, pos
            pos += len(value)
        return None
