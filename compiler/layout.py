"""Layout: the text of a generated Python module -> the same module laid out to read, no formatter run.

The input is what the templates and the lowering write: each statement on one physical line (some
template parts already span lines inside brackets). The output differs from it in three ways only,
none of which changes the module's AST:

- a logical line longer than the width is wrapped inside brackets, the way black and ruff do it:
  the right-hand split (break inside the last bracket pair, body four spaces deeper, closing
  bracket on its own line), then, when the body is still too long, one item per line at its
  top-level commas (with a trailing comma where that is legal) or a break before each top-level
  operator of the lowest precedence present; a statement's expression with no brackets of its own
  gets parentheses to break inside (`return (` ... `)`);
- redundant parentheses around the whole expression of `return`, `if`, `elif`, `while`, `assert`
  and an assignment's right-hand side are dropped;
- plain strings take double quotes when that needs no more escapes (see `py_literal`).

Lines already spanning several physical lines keep their breaks (only a physical line of theirs
that is too long is wrapped), so a second pass changes nothing. A line that cannot be broken (one
long string, a comment) is left long. A statement with a trailing comment is not wrapped: the
comment could be a `# type: ignore` that must stay on its line.
"""

from __future__ import annotations

import functools
import keyword
import math
import re
from collections.abc import Callable
from typing import NamedTuple

WIDTH = 110
INDENT = "    "


class Token(NamedTuple):
    """One token of a physical line, with the whitespace written before it."""

    kind: str  # "name", "number", "string", "op", "comment", "open" (a string that goes on), "cont", "other"
    text: str
    space: str


# ---- tokens -------------------------------------------------------------------------------------

_PREFIX = r"(?:[rRbBuUfF]{1,2})?"
_STRING = (
    r"'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'(?:[^'\\\n]|\\.)*'"
    r'|"(?:[^"\\\n]|\\.)*"'
)
_NUMBER = (
    r"0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+"
    r"|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?[jJ]?"
)
_OP = (
    r"\*\*=|//=|>>=|<<=|\.\.\.|->|:=|==|!=|<=|>=|\*\*|//|<<|>>|[-+*/%&|^@]="
    r"|[-+*/%&|^~<>()\[\]{},:;.=@!]"
)
_TOKEN = re.compile(
    r"([ \t\f]*)(?:"
    r"(?P<comment>#.*)"
    rf"|(?P<string>{_PREFIX}(?:{_STRING}))"
    rf"|(?P<open>{_PREFIX}(?:'''|\"\"\"|'|\"))"
    rf"|(?P<number>{_NUMBER})"
    r"|(?P<name>[^\W\d]\w*)"
    rf"|(?P<op>{_OP})"
    r"|(?P<cont>\\$)"
    r"|(?P<other>\S)"
    r")",
    re.DOTALL,
)
# What ends a string left open at the end of a line, from the start of the next one.
_STRING_END = {
    "'''": re.compile(r"(?:[^'\\]|\\.|'(?!''))*'''", re.DOTALL),
    '"""': re.compile(r'(?:[^"\\]|\\.|"(?!""))*"""', re.DOTALL),
    "'": re.compile(r"(?:[^'\\\n]|\\.)*'", re.DOTALL),
    '"': re.compile(r'(?:[^"\\\n]|\\.)*"', re.DOTALL),
}
# A line with none of these needs no tokens to find its brackets (no string, comment or `\`).
_NEEDS_TOKENS = re.compile(r"['\"#\\]")
# The strings (with any prefix) and the comment of a line: blanked out, what is left is code whose
# brackets can be counted; matched, the plain single-quoted strings can be given double quotes.
_STRINGS_AND_COMMENT = re.compile(rf"(\w*)({_STRING})|#.*", re.DOTALL)
# A line that may hold parentheses to drop (the tokens decide).
_PAREN_CANDIDATE = re.compile(r"^\s*(?:return|if|elif|while|assert)\b\s*\(|=\s*\(")

_OPEN = frozenset("([{")
_CLOSE = frozenset(")]}")
_KEYWORDS = frozenset(keyword.kwlist)
# Keywords that end an operand (`None + x` is binary `+`).
_VALUE_KEYWORDS = frozenset({"None", "True", "False"})
_ASSIGN = frozenset({"=", "+=", "-=", "*=", "/=", "//=", "%=", "@=", "&=", "|=", "^=", ">>=", "<<=", "**="})


def _tokens(line: str, pos: int = 0) -> list[Token]:
    """The tokens of one physical line from `pos`; a string that does not end on the line comes
    out as one "open" token (its opening quotes, and nothing after it), a trailing backslash as
    "cont"."""
    # every character is either whitespace before a token or in one (`other` takes the rest)
    toks = [
        Token(m.lastgroup or "", m[m.lastindex or 0], m[1])
        for m in _TOKEN.finditer(line, pos, len(line.rstrip()))
    ]
    for i, t in enumerate(toks):
        if t.kind == "open":
            return toks[: i + 1]
    return toks


def _render(indent: str, toks: list[Token]) -> str:
    """`toks` as one physical line at `indent` (the whitespace before its first token dropped)."""
    if not toks:
        return indent.rstrip()
    return indent + toks[0].text + "".join([t.space + t.text for t in toks[1:]])


_UNMATCHED = -2  # in `_pairs`: a bracket whose partner is not in the line


def _pairs(toks: list[Token]) -> list[int]:
    """For each bracket of `toks`, the index of its partner, or _UNMATCHED when that lies outside
    `toks`; -1 for every other token. `toks` balances when _UNMATCHED is not in the list."""
    match = [-1] * len(toks)
    stack: list[int] = []
    for i, t in enumerate(toks):
        if t.kind != "op":
            continue
        if t.text in _OPEN:
            stack.append(i)
        elif t.text in _CLOSE:
            if stack:
                o = stack.pop()
                match[o], match[i] = i, o
            else:
                match[i] = _UNMATCHED
    for o in stack:
        match[o] = _UNMATCHED
    return match


def _top_pairs(toks: list[Token], match: list[int]) -> list[tuple[int, int]]:
    """The closed, non-empty bracket pairs of `toks` that no other closed pair holds, in order."""
    pairs: list[tuple[int, int]] = []
    i, n = 0, len(toks)
    while i < n:
        c = match[i]
        if c > i:
            if c > i + 1:
                pairs.append((i, c))
            i = c + 1
        else:
            i += 1
    return pairs


def _bracket_kind(toks: list[Token], o: int) -> str:
    """What the bracket at `o` opens: "call", "subscript", "paren", "list" or "dict"."""
    prev = toks[o - 1] if o > 0 else None
    after_value = prev is not None and (
        prev.kind in ("number", "string")
        or (prev.kind == "name" and (prev.text not in _KEYWORDS or prev.text in _VALUE_KEYWORDS))
        or prev.text in _CLOSE
    )
    text = toks[o].text
    if text == "(":
        return "call" if after_value else "paren"
    if text == "[":
        return "subscript" if after_value else "list"
    return "dict"


# ---- delimiters ---------------------------------------------------------------------------------

_COMPREHENSION = 20
_COMMA = 18
_TERNARY = 16
_OR = 15
_AND = 14
_STRING_JOIN = 12
_COMPARISON = 10
# binary operators by precedence, the loosest first (`**` binds too tightly to be worth a break)
_ARITHMETIC = {
    op: priority
    for priority, ops in ((9, "|"), (8, "^"), (7, "&"), (6, "<< >>"), (5, "+ -"), (4, "* / // % @"))
    for op in ops.split()
}
_COMPARISON_OPS = frozenset({"<", ">", "==", "!=", "<=", ">=", "<>"})


def _ends_operand(t: Token | None) -> bool:
    if t is None:
        return False
    if t.kind in ("number", "string"):
        return True
    if t.kind == "name":
        return t.text not in _KEYWORDS or t.text in _VALUE_KEYWORDS
    return t.text in _CLOSE or t.text == "..."


def _delimiters(toks: list[Token], match: list[int], start: int = 0, end: int = -1) -> list[tuple[int, int]]:
    """(priority, index) of each place `toks[start:end]`, a balanced stretch whose bracket partners
    are `match`, may be split at its top level: the new line starts at `index`. Commas split after
    themselves, operators before; a lambda's parameters and a comprehension's target (`for a, b
    in`) are not the top level."""
    end = len(toks) if end < 0 else end
    found: list[tuple[int, int]] = []
    lambdas = 0  # lambdas whose `:` is still to come
    in_target = False  # between a comprehension's `for` and its `in`
    seen_for = False  # an `if` after a `for` is the comprehension's, before it a conditional's
    prev: Token | None = None
    i = start
    while i < end:
        t = toks[i]
        c = match[i]
        if c > i:  # what a bracket pair holds is not the top level
            prev = toks[c]
            i = c + 1
            continue
        text = t.text
        if t.kind == "name":
            if text == "lambda":
                lambdas += 1
            elif lambdas:
                pass
            elif text == "for":
                found.append((_COMPREHENSION, i - 1 if prev is not None and prev.text == "async" else i))
                in_target = seen_for = True
            elif in_target:
                in_target = text != "in"
            elif text == "if":
                found.append((_COMPREHENSION if seen_for else _TERNARY, i))
            elif text == "else":
                found.append((_TERNARY, i))
            elif text == "or":
                found.append((_OR, i))
            elif text == "and":
                found.append((_AND, i))
            elif text == "not":
                if i + 1 < end and toks[i + 1].text == "in":
                    found.append((_COMPARISON, i))
            elif text == "in":
                if prev is None or prev.text != "not":
                    found.append((_COMPARISON, i))
            elif text == "is":
                found.append((_COMPARISON, i))
        elif t.kind == "op":
            if text == ":" and lambdas:
                lambdas -= 1
            elif lambdas or in_target:
                pass
            elif text == ",":
                found.append((_COMMA, i + 1))
            elif text in _COMPARISON_OPS:
                found.append((_COMPARISON, i))
            elif text in _ARITHMETIC and _ends_operand(prev):
                found.append((_ARITHMETIC[text], i))
        elif t.kind == "string" and prev is not None and prev.kind == "string":
            found.append((_STRING_JOIN, i))
        prev = t
        i += 1
    return [(p, i) for p, i in found if start < i < end]


def _splittable(toks: list[Token]) -> bool:
    """Whether a balanced line has anywhere to break: a top-level delimiter or a bracket pair."""
    match = _pairs(toks)
    return bool(_delimiters(toks, match)) or bool(_top_pairs(toks, match))


# Bracket bodies that take a trailing comma when laid out one item per line; a subscript does not
# (`a[i, j,]` reads as a mistake), and a parenthesised body is split at commas only when it is a
# tuple, so its comma keeps it one.
_TRAILING_COMMA = frozenset({"call", "def", "paren", "list", "dict"})


# The bodies of displays: once broken they hold one item a line even where they would fit on one
# (ruff's and black's rule for a tuple, list, set or dict), unlike a call's arguments.
_DISPLAYS = frozenset({"paren", "list", "dict"})


def _delimiter_split(
    toks: list[Token], match: list[int], body_of: str | None, explode_only: bool = False
) -> list[list[Token]] | None:
    """A balanced `toks` cut at its top-level delimiters of the lowest precedence, or None when it
    has none (with `explode_only`, when they are not commas)."""
    found = _delimiters(toks, match)
    if not found:
        return None
    top = max(p for p, _ in found)
    if explode_only and top != _COMMA:
        return None
    cuts = [i for p, i in found if p == top]
    parts = [toks[a:b] for a, b in zip([0, *cuts], [*cuts, len(toks)], strict=True)]
    last = parts[-1]
    if (
        top == _COMMA
        and body_of in _TRAILING_COMMA
        and last[-1].text != ","
        and last[0].text not in ("*", "**", "/")  # never after *args, **kw or a bare * or /
    ):
        parts[-1] = [*last, Token("op", ",", "")]
    return parts


# ---- the layout of one line ---------------------------------------------------------------------


class _Layout:
    """Lays out lines at one width, appending the physical lines it makes to `out`."""

    def __init__(self, width: int, out: list[str]) -> None:
        self.width = width
        self.out = out

    def fits(self, indent: str, toks: list[Token]) -> bool:
        return len(_render(indent, toks)) <= self.width

    def fragment(self, toks: list[Token], indent: str, inside: bool, body_of: str | None = None) -> None:
        """Lay out one physical line: `inside` says it starts within brackets; `body_of` names the
        bracket whose whole body it is (for the trailing comma), if it is one."""
        text = _render(indent, toks)
        fits = len(text) <= self.width
        if fits and body_of not in _DISPLAYS:
            self.out.append(text)
            return
        match = _pairs(toks)
        # a break at the top level of a line that does not balance could fall outside brackets
        if inside and _UNMATCHED not in match:
            parts = _delimiter_split(toks, match, body_of, explode_only=fits)
            if parts is not None:
                for part in parts:
                    self.fragment(part, indent, True)
                return
        if fits:
            self.out.append(text)
            return
        chosen = self._right_hand(toks, match, indent)
        if chosen is None:
            self.out.append(text)  # nothing to break inside
            return
        self._split_at(toks, *chosen, indent, inside)

    def statement(self, toks: list[Token], indent: str) -> None:
        """Lay out one statement written on one line (its tokens hold no comment)."""
        if self.fits(indent, toks):
            self.out.append(_render(indent, toks))
            return
        match = _pairs(toks)
        first = toks[0].text
        if first in ("def", "class") or (first == "async" and len(toks) > 1 and toks[1].text == "def"):
            # a signature breaks inside its parameters, never in the return annotation
            pairs = _top_pairs(toks, match)
            if pairs:
                self._split_at(toks, pairs[0][0], pairs[0][1], indent, False, "def")
                return
        span = _expression_span(toks, match, layout=True)
        if span is not None and not (match[span[0]] == span[1] - 1):
            self._expression_statement(toks, match, span[0], span[1], indent)
            return
        self.fragment(toks, indent, False)

    def _expression_statement(
        self, toks: list[Token], match: list[int], e0: int, e1: int, indent: str
    ) -> None:
        """A statement whose expression `toks[e0:e1]` is not one bracket pair: break inside its own
        brackets when black would (and the first line then fits), else inside added parentheses."""
        omitting: list[str] | None = None
        if self._may_omit_parens(toks, match, e0, e1, indent):
            chosen = self._right_hand(toks, match, indent)
            if chosen is not None:
                o, c = chosen
                body = toks[o + 1 : c]
                if self.fits(indent + INDENT, body) or _splittable(body):
                    omitting = self._trial(lambda lay: lay._split_at(toks, o, c, indent, False))
                    if len(omitting[0]) <= self.width:
                        self.out.extend(omitting)
                        return
        body = toks[e0:e1]
        if _splittable(body) or self.fits(indent + INDENT, body):
            head = [*toks[:e0], Token("op", "(", " ")]
            tail = [Token("op", ")", ""), *toks[e1:]]

            def parenthesised(lay: _Layout) -> None:
                lay.fragment(head, indent, False)
                lay.fragment(body, indent + INDENT, True, "paren")
                lay.fragment(tail, indent, False)

            wrapped = self._trial(parenthesised)
            if omitting is None or all(len(line) <= self.width for line in wrapped):
                self.out.extend(wrapped)
                return
        self.out.extend(omitting or [_render(indent, toks)])

    def _trial(self, lay_out: Callable[[_Layout], None]) -> list[str]:
        """The lines `lay_out` makes, without writing them."""
        lines: list[str] = []
        lay_out(_Layout(self.width, lines))
        return lines

    def _right_hand(self, toks: list[Token], match: list[int], indent: str) -> tuple[int, int] | None:
        """The bracket pair to break inside: the last top-level one, or an earlier one when the
        line up to the last one's opening bracket is too long and what follows the earlier one
        fits (`f(x)[0]` breaks inside `f(`, not `[`); the last one when no head fits."""
        pairs = _top_pairs(toks, match)
        if not pairs:
            return None
        for k, (o, c) in enumerate(reversed(pairs)):
            if k > 0 and not self.fits(indent, toks[c:]):
                break
            if self.fits(indent, toks[: o + 1]):
                return o, c
        return pairs[-1]

    def _may_omit_parens(self, toks: list[Token], match: list[int], e0: int, e1: int, indent: str) -> bool:
        """Whether a statement's expression reads better broken inside its own last (or first)
        bracket pair than inside added parentheses: black's rule, simplified. Yes when it has no
        top-level operator or comma; no when the lowest-precedence one occurs twice or more; with
        one, yes when it ends in a bracket pair whose opening line fits (`a and f(` ... `)`)."""
        found = _delimiters(toks, match, e0, e1)
        if not found:
            return True
        top = max(p for p, _ in found)
        if sum(1 for p, _ in found if p == top) > 1:
            return False
        last = e1 - 1
        o = match[last]
        if toks[last].text in _CLOSE and e0 <= o < last - 1:
            if any(t.kind == "op" and t.text in _OPEN for t in toks[e0:o]):
                return True
            if self.fits(indent + INDENT, toks[e0 : o + 1]):
                return True
        c = match[e0]
        if toks[e0].text in _OPEN and c > e0 + 1 and self.fits(indent, toks[c:]):
            return True
        return False

    def _split_at(
        self, toks: list[Token], o: int, c: int, indent: str, inside: bool, kind: str | None = None
    ) -> None:
        head = toks[: o + 1]
        body = toks[o + 1 : c]
        tail = toks[c:]
        self.fragment(head, indent, inside)
        self.fragment(body, indent + INDENT, True, kind or _bracket_kind(toks, o))
        self.fragment(tail, indent, inside)


# ---- statements: the expression, redundant parentheses, quotes ----------------------------------


def _expression_span(toks: list[Token], match: list[int], layout: bool) -> tuple[int, int] | None:
    """Where the expression of a one-line statement lies, `toks[e0:e1]`: after `return`, between
    `if`/`elif`/`while` and the colon, the test of an `assert`, the right-hand side of an
    assignment, and with `layout` the iterable of a `for` and the names of a `from` import (where
    parentheses may be added, not dropped). None for other statements."""
    n = len(toks)
    top = _top_level(toks, match)
    if any(toks[i].text == ";" for i in top):
        return None  # two statements on a line: leave it as written
    first = toks[0].text
    if toks[0].kind == "name" and first in _KEYWORDS:
        if first == "return":
            return (1, n) if n > 1 else None
        if first in ("if", "elif", "while"):
            return (1, n - 1) if n > 2 and toks[-1].text == ":" else None
        if first == "assert":
            e1 = next((i for i in top if toks[i].text == ","), n)
            return (1, e1) if e1 > 1 else None
        if first == "for" and layout and toks[-1].text == ":":
            k = next((i for i in top if toks[i].text == "in"), None)
            return (k + 1, n - 1) if k is not None and k + 1 < n - 1 else None
        if first == "from" and layout:
            k = next((i for i in top if toks[i].text == "import"), None)
            return (k + 1, n) if k is not None and k + 1 < n and toks[k + 1].text != "*" else None
        return None
    last_assign = None
    lambdas = 0
    for i in top:
        t = toks[i]
        if t.text == "lambda" and t.kind == "name":
            lambdas += 1
        elif t.text == ":" and lambdas:
            lambdas -= 1
        elif t.kind == "op" and t.text in _ASSIGN and not lambdas:
            last_assign = i
    if last_assign is None or last_assign + 1 >= n:
        return None
    return last_assign + 1, n


def _top_level(toks: list[Token], match: list[int]) -> list[int]:
    """The indices of the tokens outside every bracket pair (the brackets themselves included)."""
    out: list[int] = []
    i, n = 0, len(toks)
    while i < n:
        out.append(i)
        c = match[i]
        if c > i:
            out.append(c)
            i = c + 1
        else:
            i += 1
    return out


def _holds_parens_to_keep(inner: list[Token]) -> bool:
    """Whether parentheses holding `inner` mean something: a tuple, a generator, a walrus at top
    level, a yield, or nothing (the empty tuple)."""
    if not inner:
        return True
    match = _pairs(inner)
    for i in _top_level(inner, match):
        t = inner[i]
        if t.text in (",", ":=") and t.kind == "op":
            return True
        if t.text in ("for", "yield", "lambda") and t.kind == "name":
            return True  # a lambda's parameters may hold commas; leave it
    return False


def _drop_redundant_parens(toks: list[Token]) -> list[Token]:
    """`return (a > b)` -> `return a > b`, `if (x):` -> `if x:`, `y = ((z))` -> `y = z`."""
    while True:
        match = _pairs(toks)
        span = _expression_span(toks, match, layout=False)
        if span is None:
            return toks
        e0, e1 = span
        if toks[e0].text != "(" or match[e0] != e1 - 1 or _holds_parens_to_keep(toks[e0 + 1 : e1 - 1]):
            return toks
        inner = toks[e0 + 1 : e1 - 1]
        toks = [*toks[:e0], inner[0]._replace(space=toks[e0].space or " "), *inner[1:], *toks[e1:]]


@functools.lru_cache(maxsize=4096)  # generated code repeats its strings (names, file:line places)
def prefer_double_quotes(literal: str) -> str:
    """A plain single-quoted string literal in double quotes when that needs no more escapes
    (ruff's rule: double, unless the string holds more double quotes than single); anything else
    (prefixed, triple-quoted, already double) as it is."""
    if len(literal) < 2 or literal[0] != "'" or literal.startswith("'''"):
        return literal
    body = literal[1:-1]
    if '"' not in body:  # the common case: nothing to escape, any \' unescaped
        return '"' + body.replace("\\'", "'") + '"'
    if body.count('"') > body.count("'"):
        return literal
    # every ' in the body is escaped, so this adds no more escapes (each bare ") than it drops
    out: list[str] = []
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch == "\\" and i + 1 < n:
            pair = body[i : i + 2]
            out.append("'" if pair == "\\'" else pair)
            i += 2
            continue
        out.append('\\"' if ch == '"' else ch)
        i += 1
    return '"' + "".join(out) + '"'


def _quoted(toks: list[Token]) -> list[Token]:
    return [
        Token("string", prefer_double_quotes(t.text), t.space)
        if t.kind == "string" and t.text[0] == "'"
        else t
        for t in toks
    ]


# ---- data as source -----------------------------------------------------------------------------


def py_literal(value: object) -> str:
    """Python source for a str, int, bool, None or finite float, or a (nested) tuple, list, dict
    or set of them: deterministic (a dict keeps its order, a set is sorted by its items' source),
    double quotes preferred, a 1-tuple with its comma, and on one line: a string is its repr, with
    every line break and unprintable character escaped, so spec text given here stays data (see
    compiler/escape.py). Anything else raises (a subclass too: an IntEnum's repr is no literal),
    as does a float with no literal (inf, nan)."""
    if value is None or type(value) is bool or type(value) is int:
        return repr(value)
    if type(value) is str:
        return prefer_double_quotes(repr(value))
    if type(value) is float:
        if not math.isfinite(value):
            raise ValueError(f"no literal for the float {value!r}")
        return repr(value)
    if type(value) is tuple:
        items = [py_literal(v) for v in value]
        return f"({items[0]},)" if len(items) == 1 else "(" + ", ".join(items) + ")"
    if type(value) is list:
        return "[" + ", ".join(py_literal(v) for v in value) + "]"
    if type(value) is dict:
        return "{" + ", ".join(f"{py_literal(k)}: {py_literal(v)}" for k, v in value.items()) + "}"
    if type(value) is set:
        return "{" + ", ".join(sorted(py_literal(v) for v in value)) + "}" if value else "set()"
    raise TypeError(f"no literal for a value of type {type(value).__name__}: {value!r}")


# ---- the module ---------------------------------------------------------------------------------


def _plain_code(code: str) -> bool:
    """Whether a line with its strings and comment blanked out is plain code: no string left open
    and no backslash continuation."""
    return "'" not in code and '"' not in code and not code.rstrip().endswith("\\")


def _quote_fix(m: re.Match[str]) -> str:
    string = m[2]
    if string is None or m[1] or string[0] != "'":
        return m[0]
    return prefer_double_quotes(string)


def _bracket_change(code: str) -> int:
    return sum(map(code.count, "([{")) - sum(map(code.count, ")]}"))


class _Logical(NamedTuple):
    """The physical lines of one logical line: their tokens (None where none were needed), the
    bracket depth each starts at, and whether the line is to be written back as it is (it holds a
    string across lines or a backslash continuation, or does not scan)."""

    first: int
    tokens: list[list[Token] | None]
    depths: list[int]
    verbatim: bool


def _logical_line(lines: list[str], first: int) -> _Logical:
    """The logical line that starts at `lines[first]`."""
    i, n = first, len(lines)
    depth = 0
    state = ""  # the quotes of a string still open, or "\\" after a continuation
    verbatim = False
    tokens: list[list[Token] | None] = []
    depths: list[int] = []
    while i < n:
        line = lines[i]
        depths.append(depth)
        pos = 0
        if state in _STRING_END:
            m = _STRING_END[state].match(line)
            if m is None:  # the whole line is inside the string
                tokens.append(None)
                i += 1
                continue
            pos = m.end()
        state = ""
        toks = None
        if pos == 0 and _NEEDS_TOKENS.search(line) is None:
            depth += _bracket_change(line)
        elif pos == 0 and _plain_code(code := _STRINGS_AND_COMMENT.sub("", line)):
            depth += _bracket_change(code)
        else:
            toks = _tokens(line, pos)
            for t in toks:
                if t.kind == "op":
                    depth += (t.text in _OPEN) - (t.text in _CLOSE)
                elif t.kind == "open":
                    state = t.text.lstrip("rRbBuUfF")
                elif t.kind == "cont":
                    state = "\\"
                elif t.kind == "other":
                    verbatim = True
            if pos or state:
                verbatim = True
        tokens.append(toks)
        i += 1
        if depth <= 0 and not state:
            break
    return _Logical(first, tokens, depths, verbatim or depth != 0 or bool(state))


def format_source(text: str, width: int = WIDTH) -> str:
    """Lay out a whole generated module: long lines wrapped at `width`, redundant parentheses
    dropped, quotes made double. The AST is unchanged and a second pass changes nothing."""
    lines = text.split("\n")
    out: list[str] = []
    layout = _Layout(width, out)
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if (
            len(line) <= width
            and _NEEDS_TOKENS.search(line) is None
            and _PAREN_CANDIDATE.search(line) is None
            and _bracket_change(line) == 0
        ):
            out.append(line)  # most lines: nothing to do, and no tokens needed to know it
            i += 1
            continue
        if len(line) <= width and "'" not in line and "\\" not in line:
            code = _STRINGS_AND_COMMENT.sub("", line)  # double-quoted strings only: none to fix
            if '"' not in code and _PAREN_CANDIDATE.search(code) is None and _bracket_change(code) == 0:
                out.append(line)
                i += 1
                continue
        logical = _logical_line(lines, i)
        count = len(logical.tokens)
        if logical.verbatim:
            out.extend(lines[i : i + count])
        elif count == 1:
            _statement_line(layout, line, logical.tokens[0])
        else:
            for k, toks in enumerate(logical.tokens):
                _continued_line(layout, lines[i + k], toks, logical.depths[k] > 0)
        i += count
    return "\n".join(out)


def _statement_line(layout: _Layout, line: str, toks: list[Token] | None) -> None:
    """A logical line on one physical line: parentheses, quotes, then the layout."""
    candidate = _PAREN_CANDIDATE.search(line) is not None
    if toks is None:
        if len(line) <= layout.width and not candidate:
            layout.out.append(_STRINGS_AND_COMMENT.sub(_quote_fix, line) if "'" in line else line)
            return
        toks = _tokens(line)
    if not toks or toks[0].kind == "comment":
        layout.out.append(line)
        return
    indent = toks[0].space
    comment = toks[-1] if toks[-1].kind == "comment" else None
    code = toks[:-1] if comment is not None else toks
    new = _drop_redundant_parens(code) if candidate else code
    if "'" in line:
        new = _quoted(new)
    if comment is not None:
        layout.out.append(_render(indent, [*new, comment]) if new != code else line)
    elif new == code and len(line) <= layout.width:
        layout.out.append(line)
    else:
        layout.statement(new, indent)


def _continued_line(layout: _Layout, line: str, toks: list[Token] | None, inside: bool) -> None:
    """One physical line of a logical line that spans several: quotes, and the layout of that
    physical line alone if it is too long; its breaks stay where they are."""
    if toks is None:
        if len(line) <= layout.width:
            layout.out.append(_STRINGS_AND_COMMENT.sub(_quote_fix, line) if "'" in line else line)
            return
        toks = _tokens(line)
    if not toks or toks[0].kind == "comment":
        layout.out.append(line)
        return
    indent = toks[0].space
    new = _quoted(toks) if "'" in line else toks
    if toks[-1].kind == "comment" or len(_render(indent, new)) <= layout.width:
        layout.out.append(_render(indent, new) if new != toks else line)
    else:
        layout.fragment(new, indent, inside)


def import_order(name: str) -> tuple[int, list[int | str], str]:
    """The order Python style (isort, ruff's I001) wants in an import list: constants, then
    classes, then the rest; each case-insensitively, numbers by value."""
    kind = 0 if name.isupper() and len(name) > 1 else 1 if name[:1].isupper() else 2
    parts = re.split(r"(\d+)", name.lower())
    return kind, [int(p) if p.isdigit() else p for p in parts], name
