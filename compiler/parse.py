"""Parse: a DSL string (with its SourceMap into the YAML file) -> IR statements or an expression.

The grammar is grammar.lark. Lark's LALR tables for it (cached by grammar_cache.py) drive a loop
of our own, `_Automaton`, which lexes and parses as lark does (the same contextual lexer, the same
tree shaping and the positions `propagate_positions` gives) but builds the IR as each rule
reduces, with no parse tree and no second pass: `_Build` has one method per grammar rule, named
after it, that builds the IR node of the same name. Text that does not parse is parsed again by
lark itself, so that the message, the position and the notes of a syntax error are lark's.

Each distinct text is parsed once while a spec loads: scenarios and rules repeat the same
conditions and statements. The IR of a text's first occurrence is kept with the place of each of
its spans relative to the text; a later occurrence gets a copy with the spans relocated through
its own SourceMap. Text that gives a diagnostic is never kept, so errors are found and worded
afresh. An effect of several lines may be read from its lines, each parsed once (see below).

No checks happen here: they are passes over the IR.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import fields, is_dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from compiler import errorcodes as codes
from compiler import grammar_cache, ir, messages
from compiler.diagnostics import Sink
from compiler.limits import MAX_DSL_CHARS, MAX_DSL_DEPTH, MAX_INT_DIGITS
from compiler.sourcemap import Place, SourceMap

if TYPE_CHECKING:  # lark is imported only to report a syntax error (or to make the tables)
    from lark import Lark, Token, Tree
    from lark.exceptions import UnexpectedInput

GRAMMAR = Path(__file__).with_name("grammar.lark")

# Human names for grammar terminals in "expected ..." messages.
TOKEN_NAMES = {
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "DOT": "'.'",
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a string",
    "COMP_OP": "a comparison",
    "ASSIGN_OP": "'='",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*'",
    "SEMICOLON": "';'",
    "$END": "the end of the text",
    "QUANT": "count/any/all/filter",
    "AGG": "sum/min/max",
    "MINUS": "'-'",
    "POSITION": "top/bottom",
    "WINNERS": "'winners'",
    "SECRETLY": "'secretly'",
    "PUBLICLY": "'publicly'",
    "COLON": "':'",
}


@cache
def parser() -> Lark:
    return grammar_cache.load(GRAMMAR.read_text(encoding="utf-8"), _build_parser)


def _build_parser(grammar: str) -> Lark:
    from lark import Lark

    # no `cache=True`: lark keeps that cache as a pickle at a name anyone can guess in the shared
    # temporary folder, where another user could plant one that runs code (see grammar_cache.py)
    return Lark(
        grammar,
        start=["effect", "expression"],
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=True,
    )


def parse_effect(smap: SourceMap, sink: Sink) -> ir.Code | None:
    """Statements: an effect, a procedure body, a phase."""
    body = _parsed(smap, "effect", sink)
    if body is None:
        return None
    return ir.Code(body, None, smap.span(1, 1, len(smap.lines), 1), smap.text)


def parse_expression(smap: SourceMap, sink: Sink) -> ir.Code | None:
    """One expression: a condition, a function body, an invariant, a repeat count."""
    expr = _parsed(smap, "expression", sink)
    if expr is None:
        return None
    return ir.Code((), expr, smap.span(1, 1, len(smap.lines), 1), smap.text)


# ---- each distinct text parsed once --------------------------------------------------------------

# (start rule, text) -> the IR of the text's first occurrence, and the Place of each span in it
# (by the span's id: the entry keeps the IR, and so its spans, alive)
_parsed_texts: dict[tuple[str, str], tuple[Any, dict[int, Place]]] = {}
_kept_chars = 0
# what the kept texts may add up to: the largest real spec holds 0.2 MB of distinct DSL text
MAX_KEPT_CHARS = 2_000_000


_keeping_between_specs = False


def keep_between_specs() -> None:
    """Keep the texts from one reading of a spec to the next (still within MAX_KEPT_CHARS): for a
    process that checks the same spec again after each small edit (an editor's language server),
    where nearly every text is one it has parsed before."""
    global _keeping_between_specs
    _keeping_between_specs = True


def forget() -> None:
    """Forget the texts kept. load.py keeps them while it reads one spec: its texts repeat, but
    rarely those of other specs, and what is kept would otherwise live to the end of the process
    (which then pays to walk it and free it). Unless keep_between_specs() was called."""
    if not _keeping_between_specs:
        _forget()


def _forget() -> None:
    global _kept_chars
    _parsed_texts.clear()
    _parsed_lines.clear()
    _joined_lines.clear()
    _kept_chars = 0


def _parsed(smap: SourceMap, start: str, sink: Sink) -> Any:
    """The statements (a tuple) or the expression `smap.text` holds, or None when it does not
    parse (reported)."""
    key = (start, smap.text)
    kept = _parsed_texts.get(key)
    if kept is not None:
        value, places = kept
        return _Relocate(smap, places).value(value)
    if start == "effect" and "\n" in smap.text and len(smap.text) <= MAX_DSL_CHARS:
        body = _by_lines(smap)
        if body is not None:
            return body
    reported = len(sink.items)
    new_places: dict[int, Place] = {}
    value = _parse(smap, start, sink, new_places, None)
    if value is not None and len(sink.items) == reported:
        _make_room(len(smap.text))
        _parsed_texts[key] = (value, new_places)
    return value


def _make_room(chars: int) -> None:
    """Count `chars` more kept; past MAX_KEPT_CHARS, forget what was kept."""
    global _kept_chars
    if _kept_chars + chars > MAX_KEPT_CHARS:
        _forget()
    _kept_chars += chars


class _Relocate:
    """A copy of IR kept for one occurrence of a text, with each span placed through another
    occurrence's SourceMap."""

    def __init__(self, smap: SourceMap, places: dict[int, Place], line_offset: int = 0) -> None:
        self.smap = smap
        self.places = places
        self.place = smap.placer(line_offset)

    def value(self, x: Any) -> Any:
        kind = type(x)
        if kind is tuple:
            return tuple([self.value(v) for v in x]) if x else x
        copy = _COPIES.get(kind)
        if copy is None:
            if kind not in _RELOCATED:
                return x  # a name, an operator, a number, None
            copy = _COPIES[kind] = _copy(kind)
        return copy(self, x)


# IR class -> how _Relocate copies one of its nodes (made on first use)
_COPIES: dict[type, Callable[[_Relocate, Any], Any]] = {}


def _copy(kind: type) -> Callable[[_Relocate, Any], Any]:
    """A function that copies a node of `kind` for _Relocate: its fields as they are, each span
    placed, each field that holds nodes copied (one call per field, not a loop over them)."""
    args = []
    for name, how in _RELOCATED[kind]:
        if how is _SPAN:
            args.append(f"place(r.places[id(x.{name})])")
        elif how is _NODES:
            args.append(f"r.value(x.{name})")
        else:
            args.append(f"x.{name}")
    env: dict[str, Any] = {"kind": kind}
    # (the text is made of the IR's own field names, never of spec text)
    exec(f"def copy(r, x):\n    place = r.place\n    return kind({', '.join(args)})", env)
    copy: Callable[[_Relocate, Any], Any] = env["copy"]
    return copy


# how _Relocate copies a field of an IR class: as it is, as a span, or through what it holds
_AS_IS, _SPAN, _NODES = "as is", "span", "nodes"
# the annotations of fields that hold neither spans nor nodes
_PLAIN = frozenset(
    ("str", "int", "bool", "str | None", "int | None", "int | bool", "tuple[str, ...]", "tuple[int, ...]")
)


def _how(annotation: object) -> str:
    return _SPAN if annotation == "Span" else _AS_IS if annotation in _PLAIN else _NODES


# the fields of every IR class, in the order its constructor takes them
_RELOCATED: dict[type, tuple[tuple[str, str], ...]] = {
    c: tuple((f.name, _how(f.type)) for f in fields(c))
    for c in vars(ir).values()
    if isinstance(c, type) and is_dataclass(c) and c is not ir.Span
}


# ---- an effect, line by line --------------------------------------------------------------------
#
# Scenario setups repeat the same lines in different orders (`move hand[p] to deck`), and differ
# as wholes. So an effect of several lines is first read as the statements of its lines, each line
# parsed on its own once per spec (_Line). That gives what parsing the whole text gives when
# each line holds whole statements, which is checked at each line's end: the whole text's parser,
# having read the line, would lex the next line's first token as that line's own parse did, and
# reduce as it did at its end, to just the statements so far (see _Automaton.settle). Otherwise,
# or if a line does not parse on its own, the text is parsed whole.


class _Line:
    """One line of an effect, parsed on its own: its statements, the place of their spans (the
    line being line 1), and what joining it to the lines around it must check."""

    __slots__ = ("stmts", "places", "first", "end_states", "end_col", "end_rules", "statements_state")

    def __init__(
        self,
        stmts: tuple[Any, ...],
        places: dict[int, Place],
        first: tuple[str, str, int] | None,
        end_states: tuple[int, ...],
        end_col: int,
        end_rules: list[_Reduce],
        statements_state: int,
    ) -> None:
        self.stmts = stmts
        self.places = places
        self.first = first  # its first token: kind, text, offset (None: a blank or comment line)
        self.end_states = end_states  # the parser's states once its last token is read
        self.end_col = end_col  # the column just past its last token
        self.end_rules = end_rules  # the rules that build, reduced at its end (see settle)
        self.statements_state = statements_state  # the parser's state once they are reduced


_NOT_ALONE: Any = object()  # a line that is not statements on its own (or gives a diagnostic)
_BRACKETS = (("(", ")"), ("[", "]"), ("{", "}"))
# a line's text -> what parsing it on its own gives
_parsed_lines: dict[str, _Line | Any] = {}
# (whether a line is the first with tokens, its text and the next's up to the end of that one,
# whether the text ends there) -> whether the whole text's parser reads that line as it did alone
_joined_lines: dict[tuple[bool, str, bool], bool] = {}


def _by_lines(smap: SourceMap) -> tuple[Any, ...] | None:
    """The statements of a multi-line effect from the statements of its lines (see above), or
    None when they are not the same."""
    automaton = _automaton()
    text = smap.text
    lines = text.split("\n")
    for line in lines:
        if line not in _parsed_lines and any(line.count(a) != line.count(b) for a, b in _BRACKETS):
            return None  # a bracket closed on another line: the text is parsed whole, lines unread
    # the lines with tokens, each with its number less 1 and its offset in the text
    read: list[tuple[int, int, _Line]] = []
    fresh: set[int] = set()  # those parsed now, whose IR was made for this text
    offset = 0
    for number, line in enumerate(lines):
        got = _parsed_lines.get(line)
        if got is None:
            got = _line(smap, line, number)
            _make_room(len(line))
            _parsed_lines[line] = got
            if got is not _NOT_ALONE:
                fresh.add(number)
        if got is _NOT_ALONE:
            return None
        if got.first is not None:
            read.append((number, offset, got))
        offset += len(line) + 1
    for k, (number, offset, entry) in enumerate(read):
        next_offset, after = read[k + 1][1:] if k + 1 < len(read) else (None, None)
        # what joins reads: this line and the text up to the end of the next with tokens
        end = offset + len(lines[number]) if next_offset is None else next_offset + len(lines[read[k + 1][0]])
        key = (k == 0, text[offset:end], next_offset is None)
        joined = _joined_lines.get(key)
        if joined is None:
            joined = automaton.joins(text, offset, entry, next_offset, after, k == 0)
            _make_room(len(key[1]))
            _joined_lines[key] = joined
        if not joined:
            return None
    body: list[Any] = []
    for number, _, entry in read:
        if number in fresh:
            body.extend(entry.stmts)
        else:
            body.extend(_Relocate(smap, entry.places, number).value(entry.stmts))
    return tuple(body)


def _line(smap: SourceMap, line: str, number: int) -> _Line | Any:
    """Line `number` (less 1) of `smap.text` parsed on its own, its IR made for this text."""
    automaton = _automaton()
    places: dict[int, Place] = {}
    found = Sink()
    trace: list[Any] = []
    stmts = automaton.run(line, "effect", _Build(smap, found, places, None, number), trace)
    if stmts is _FAILED or found.items:
        return _NOT_ALONE
    first = automaton.first_token(line, "effect")
    if first is None:
        return _Line((), places, None, (), 0, [], 0)
    end_states, last = trace
    end_rules, left, _ = automaton.settle(list(end_states), "$END", "effect")
    if len(left) != 2:  # pragma: no cover - statements reduce to one list
        return _NOT_ALONE
    return _Line(stmts, places, first, end_states, last[3], end_rules, left[1])


# ---- one text ------------------------------------------------------------------------------------


def _parse(smap: SourceMap, start: str, sink: Sink, places: dict[int, Place], anchor: _Anchor | None) -> Any:
    """Parse `smap.text` from `start`, reporting what is wrong with it to `sink` (None then). Each
    span made is placed in `places` relative to the outermost text (`anchor`: where this text sits
    in it, when it is an interpolation)."""
    if len(smap.text) > MAX_DSL_CHARS:
        sink.error(
            codes.LIMIT_EXCEEDED,
            smap.span(1, 1, 1, 2),
            messages.code_too_long(len(smap.text), MAX_DSL_CHARS),
            messages.CODE_TOO_LONG_NOTE,
        )
        return None
    found = Sink()
    value = _automaton().run(smap.text, start, _Build(smap, found, places, anchor))
    if value is _FAILED:
        # lark says what is wrong; what the builder found in the text before is not reported
        _report(smap, start, sink)
        return None
    sink.items.extend(found.items)
    return value


def _report(smap: SourceMap, start: str, sink: Sink) -> None:
    """Report why `smap.text` does not parse, from lark's own parser and parse tree."""
    from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken

    try:
        tree = parser().parse(smap.text, start=start)
    except UnexpectedInput as exc:
        line, col = getattr(exc, "line", 1), getattr(exc, "column", 1)
        at_end = isinstance(exc, UnexpectedEOF) or (
            isinstance(exc, UnexpectedToken) and exc.token.type == "$END"
        )
        if at_end or line < 1:
            body = smap.text.rstrip()
            lines = body.split("\n")
            line, col = len(lines), len(lines[-1]) + 1
        notes = []
        if at_end:
            opened = _unclosed(smap.text)
            if opened is not None:
                where = smap.span(opened[0], opened[1], opened[0], opened[1] + 1)
                notes.append(messages.never_closed(opened[2], where.line, where.col))
        message, hints = _hint(exc)
        word = exc.token.value if isinstance(exc, UnexpectedToken) else ""
        if (
            message is None
            and isinstance(exc, UnexpectedToken)
            and exc.token.type != "NAME"
            and "NAME" in exc.expected  # a name could stand here: the word was meant as one
            and re.fullmatch(r"[a-z_]+", word)
        ):
            notes.append(messages.reserved_word(word))
        notes.extend(hints)
        span = smap.span(line, col, line, col + 1)
        sink.error(codes.DSL_SYNTAX, span, message or _syntax_message(exc), *notes)
        return
    too_deep = _too_deep(tree)
    if too_deep is None:  # pragma: no cover - _Automaton parses what lark parses
        raise AssertionError(f"lark parses what _Automaton does not: {smap.text!r}")
    line, col = too_deep
    sink.error(
        codes.LIMIT_EXCEEDED,
        smap.span(line, col, line, col + 1),
        messages.code_too_deep(MAX_DSL_DEPTH),
        messages.CODE_TOO_DEEP_NOTE,
    )


def _hint(exc: UnexpectedInput) -> tuple[str | None, list[str]]:
    """What a writer most likely meant where a text does not parse, from the tokens before the
    unexpected one (on lark's parser stack): a message in place of lark's, or None, and notes."""
    from lark import Token
    from lark.exceptions import UnexpectedToken

    state = getattr(exc, "state", None)
    if not isinstance(exc, UnexpectedToken) or state is None:
        return None, []
    before = [(v.type, str(v)) if isinstance(v, Token) else ("", "") for v in state.value_stack[-3:]]
    before = [("", "")] * (3 - len(before)) + before
    got = exc.token.type
    if before[2][0] == "ACTIVE":  # `active {`, `active(m)`, `n = active`: no modifier's name follows
        notes = [messages.ACTIVE_WITHOUT_PARENTHESES] if got == "LPAR" else []
        return messages.ACTIVE_NEEDS_MODIFIER, [*notes, messages.ACTIVE_IS_RESERVED]
    if before[2] == ("NAME", "active") and before[1][0] == "LPAR" and before[0][0] == "QUANT":
        return messages.active_in_comprehension(before[0][1]), []  # `count(active m(x))`
    if before[2] == ("NAME", "active") and before[1][0] == "ADD":
        return messages.ACTIVE_AFTER_ADD, []  # `add active m(x) until ...`
    if (before[1][0], before[2][0]) == ("CANCEL", "ONE") or (before[0][0], before[1][0]) == ("CANCEL", "ONE"):
        return None, [messages.CANCEL_ONE]  # `cancel one` with no modifier after it
    if before[1][0] in ("IF", "ELIF") and set(exc.expected) == {"LBRACE"}:
        return None, [messages.IF_STATEMENT_BLOCK]  # `if c then ...`, `if c n += 1`
    if before[1][0] == "RETURN":  # `return` then, on the next line, `n = 1`: read as `return n`
        return None, [messages.RETURN_TAKES_WHAT_FOLLOWS]
    return None, []


def _too_deep(tree: Tree[Token]) -> tuple[int, int] | None:
    """Where the parse tree first goes deeper than MAX_DSL_DEPTH (the passes after the parser
    recurse once or more per level), or None. A walk with a stack of its own, not recursion."""
    from lark import Tree

    stack: list[tuple[Tree[Token] | Token, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, Tree):
            continue
        if depth > MAX_DSL_DEPTH:
            meta = node.meta
            return (meta.line, meta.column) if not meta.empty else (1, 1)
        stack.extend((child, depth + 1) for child in node.children)
    return None


def _unclosed(text: str) -> tuple[int, int, str] | None:
    """The innermost bracket left open at the end of the text (outside strings and comments)."""
    stack: list[tuple[int, int, str]] = []
    line, col, in_str, in_comment = 1, 0, False, False
    pairs = {"}": "{", ")": "(", "]": "["}
    prev = ""
    for ch in text:
        col += 1
        if ch == "\n":
            line, col, in_comment = line + 1, 0, False
        elif in_comment:
            pass
        elif in_str:
            if ch == '"' and prev != "\\":
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch == "#":
            in_comment = True
        elif ch in "{([":
            stack.append((line, col, ch))
        elif ch in pairs and stack and stack[-1][2] == pairs[ch]:
            stack.pop()
        prev = ch
    return stack[-1] if stack else None


def _syntax_message(exc: UnexpectedInput) -> str:
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        got = messages.END_OF_TEXT if tok.type == "$END" else f"'{tok.value}'"
        names = {TOKEN_NAMES.get(t, f"'{t.lower()}'") for t in exc.expected if not t.startswith("__")}
        # closing brackets and separators first: they are what a writer most often forgot
        first = [n for n in ("'}'", "')'", "']'", "'{'", "','") if n in names]
        expected = first + sorted(names - set(first))
        shown = ", ".join(expected[:8]) + (", ..." if len(expected) > 8 else "")
        return messages.unexpected_token(got, shown)
    if isinstance(exc, UnexpectedCharacters):
        if exc.char == '"':
            return messages.UNCLOSED_STRING
        return messages.unexpected_character(exc.char)
    return messages.UNEXPECTED_END


# ---- the parsing loop ----------------------------------------------------------------------------

# A position in the text: (line, column, end line, end column), 1-based, as lark counts them.
Meta = tuple[int, int, int, int]
# A string token: its text (quotes included) and where it is.
StringToken = tuple[str, Meta]

_FAILED: Any = object()  # what _Automaton.run gives for text that lark would not parse either


class _Reduce:
    """What reducing one grammar rule does: lark's shaping of the parse tree (maybe_placeholders,
    `?rule` inlining, filtered anonymous tokens, `_rule` children spliced into their parent), done
    on the values the rules' builders made rather than on a tree."""

    __slots__ = (
        "size",
        "origin",
        "include",
        "nones_after",
        "inline",
        "unit",
        "splice_first",
        "picks",
        "build",
    )

    def __init__(self, rule: dict[str, Any]) -> None:
        self.size: int = rule["size"]
        self.origin: str = rule["origin"]
        # for each kept symbol: its index, whether it is spliced, how many None go before it
        self.include: list[tuple[int, bool, int]] = [(i, bool(sp), n) for i, sp, n in rule["include"]]
        self.nones_after: int = rule["nones_after"]
        # a `?rule` with one child is that child; a `_rule` (lark's, for `x*`) is a list of children
        self.inline: bool = rule["inline"]
        self.unit = self.inline and self.include == [(0, False, 0)] and not self.nones_after
        self.splice_first = bool(self.include) and self.include[0][1] and self.include[0][2] == 0
        # the children, when they are some of the rule's symbols as they are (no None, no splice)
        plain = not self.nones_after and all(not spliced and not nones for _, spliced, nones in self.include)
        self.picks = tuple(i for i, _, _ in self.include) if plain else None
        name: str = rule["name"]
        self.build: Callable[[_Build, Meta | None, list[Any]], Any] | None = (
            None if self.inline else getattr(_Build, name, None)
        )
        if self.build is None and not self.origin.startswith("_") and not (self.inline and self.picks):
            raise AssertionError(f"grammar rule {name} has no builder in parse.py")  # pragma: no cover
        if self.inline and len(self.include) != 1:  # pragma: no cover - see _Automaton.run
            raise AssertionError(f"grammar rule {name} is a ?rule of more than one child")

    def children(self, values: list[Any]) -> list[Any]:
        """The rule's children as lark's tree would hold them, from the values of its symbols."""
        out: list[Any]
        if self.splice_first:  # a left-recursive list grows in place, as in lark
            out = values[self.include[0][0]]
            rest = self.include[1:]
        else:
            out = []
            rest = self.include
        for i, spliced, nones in rest:
            if nones:
                out.extend([None] * nones)
            if spliced:
                out.extend(values[i])
            else:
                out.append(values[i])
        if self.nones_after:
            out.extend([None] * self.nones_after)
        return out


class _Lexer:
    """The contextual lexer of one parser state: lark's scanner for the terminals that state
    accepts, names that are keywords there retyped, and what it skips."""

    __slots__ = ("match", "ignore", "keywords", "newlines")

    def __init__(self, lexer: dict[str, Any]) -> None:
        self.match = re.compile(lexer["pattern"], lexer["flags"]).match
        self.ignore = frozenset(lexer["ignore"])
        self.newlines = frozenset(lexer["newlines"])
        # a terminal whose text may be a keyword (NAME) -> its texts that are keywords -> their kind
        self.keywords = {name: _keywords(p, flags) for name, (p, flags) in lexer["keywords"].items()}


def _keywords(pattern: str, flags: int) -> dict[str, str]:
    """The keywords a terminal's text may be, from lark's scanner for them: each keyword's text ->
    its kind. The scanner is an alternation of literal keywords (`(?P<IF>if)|...`) matched against
    the whole text, so a text is a keyword exactly when it is one of them."""
    keywords = {text: kind for kind, text in re.findall(r"\(\?P<(\w+)>([a-z_]+)\)", pattern)}
    if "|".join(f"(?P<{kind}>{text})" for text, kind in keywords.items()) != pattern or flags & re.I:
        raise AssertionError(f"a keyword that is not a literal: {pattern}")  # pragma: no cover
    return keywords


@cache
def _automaton() -> _Automaton:
    grammar = GRAMMAR.read_text(encoding="utf-8")
    return _Automaton(grammar_cache.load_data("automaton", grammar, _tables))


def _tables() -> dict[str, Any]:
    """What _Automaton runs on, as JSON data: lark's tables for grammar.lark and its contextual
    lexer, and lark's shaping of the parse tree for each rule."""
    from lark.lexer import UnlessCallback
    from lark.parsers.lalr_analysis import Shift

    lark = parser()
    frontend: Any = lark.parser
    table = frontend.parser._parse_table
    terminals = {t.name for t in lark.terminals} | {"$END"}
    rules: list[dict[str, Any]] = []
    numbers: dict[int, int] = {}  # id of a lark rule -> its index in `rules`
    actions: list[dict[str, int]] = []  # a shift: the state; a reduce: -1 - the rule's index
    gotos: list[dict[str, int]] = []
    if sorted(table.states) != list(range(len(table.states))):  # pragma: no cover - lark numbers them so
        raise AssertionError("lark's parser states are not numbered 0..n-1")
    for state in range(len(table.states)):
        actions.append({})
        gotos.append({})
        for symbol, (action, arg) in table.states[state].items():
            if action is not Shift:
                if id(arg) not in numbers:
                    numbers[id(arg)] = len(rules)
                    rules.append(_rule_shape(arg))
                actions[-1][symbol] = -1 - numbers[id(arg)]
            elif symbol in terminals:
                actions[-1][symbol] = arg
            else:
                gotos[-1][symbol] = arg
    lexers: list[dict[str, Any]] = []
    lexer_numbers: dict[int, int] = {}
    lexer_of: list[int] = []
    for state in range(len(table.states)):
        lexer = frontend.lexer.lexers[state]
        if id(lexer) not in lexer_numbers:
            lexer_numbers[id(lexer)] = len(lexers)
            pattern, flags = _regex(lexer.scanner)  # lark makes the scanner, and its callbacks, on first use
            keywords = {}
            for name, callback in lexer.callback.items():
                assert isinstance(callback, UnlessCallback)
                keywords[name] = _regex(callback.scanner)
            lexers.append(
                {
                    "pattern": pattern,
                    "flags": flags,
                    "ignore": sorted(lexer.ignore_types),
                    "newlines": sorted(lexer.newline_types),
                    "keywords": keywords,
                }
            )
        lexer_of.append(lexer_numbers[id(lexer)])
    return {
        "rules": rules,
        "actions": actions,
        "gotos": gotos,
        "start": dict(table.start_states),
        "end": dict(table.end_states),
        "lexers": lexers,
        "lexer_of": lexer_of,
    }


def _rule_shape(rule: Any) -> dict[str, Any]:
    """How lark shapes the tree node of a rule (see _Reduce), from its Rule."""
    size = len(rule.expansion)
    # before each symbol, and after the last: how many None placeholders (maybe_placeholders)
    empty = rule.options.empty_indices
    before = (
        [len(ones) for ones in "".join(str(int(b)) for b in empty).split("0")] if empty else [0] * (size + 1)
    )
    include = []
    pending = 0
    for i, sym in enumerate(rule.expansion):
        pending += before[i]
        if not (sym.is_term and sym.filter_out):  # anonymous tokens ("let", "{") are left out
            include.append([i, not sym.is_term and sym.name.startswith("_"), pending])
            pending = 0
    return {
        "origin": rule.origin.name,
        "name": rule.alias or rule.origin.name,
        "size": size,
        "include": include,
        "nones_after": pending + before[size],
        "inline": bool(rule.options.expand1) and not rule.alias,
    }


def _regex(scanner: Any) -> tuple[str, int]:
    """The one regular expression of a lark scanner (lark splits one only past 100 terminals)."""
    if len(scanner._mres) != 1:  # pragma: no cover - grammar.lark has 70 terminals
        raise AssertionError("a lark scanner with more than one regular expression")
    pattern: re.Pattern[str] = scanner._mres[0]
    return pattern.pattern, pattern.flags


class _Automaton:
    """Lark's LALR(1) tables for grammar.lark, run by a loop of our own (see the module's doc)."""

    def __init__(self, tables: dict[str, Any]) -> None:
        rules = [_Reduce(rule) for rule in tables["rules"]]
        # state -> terminal -> the state to shift to, or the rule to reduce by
        self.actions: list[dict[str, int | _Reduce]] = [
            {t: a if a >= 0 else rules[-1 - a] for t, a in row.items()} for row in tables["actions"]
        ]
        # state -> rule name -> the state to go to once that rule is reduced
        self.gotos: list[dict[str, int]] = tables["gotos"]
        self.start_states: dict[str, int] = tables["start"]
        self.end_states: dict[str, int] = tables["end"]
        self._lexer_specs: list[dict[str, Any]] = tables["lexers"]
        self._lexer_of: list[int] = tables["lexer_of"]
        self._lexers: dict[int, _Lexer] = {}  # by state, made on first use (a regex takes 0.3 ms)
        self._made: dict[int, _Lexer] = {}  # by lexer
        self.strings = frozenset({"STRING"})  # terminals whose builders need their position
        self._units: dict[tuple[int, int, str], int] = {}  # see run()
        self._joined: dict[tuple[tuple[int, ...], str, bool], bool] = {}  # see joins()

    def lexer(self, state: int) -> _Lexer:
        lexer = self._lexers.get(state)
        if lexer is None:
            number = self._lexer_of[state]
            if number not in self._made:
                self._made[number] = _Lexer(self._lexer_specs[number])
            lexer = self._lexers[state] = self._made[number]
        return lexer

    def run(self, text: str, start: str, build: _Build, trace: list[Any] | None = None) -> Any:
        """The value `text` parses to from `start`, built by `build`, or _FAILED. With `trace`,
        the parser's states at the end of the text, and the place of its last token, go in it."""
        actions, gotos, lexers, strings, units = (
            self.actions,
            self.gotos,
            self._lexers,
            self.strings,
            self._units,
        )
        end_state = self.end_states[start]
        # the parser's stack, one list per part of its entries: the state, the value of the
        # symbol, where it is in the text, and the levels of lark's tree it holds (MAX_DSL_DEPTH
        # bounds them)
        states = [self.start_states[start]]
        values: list[Any] = [None]
        metas: list[Meta | None] = [None]
        heights: list[int] = [0]
        pos, line, line_start, size = 0, 1, 0, len(text)
        while True:
            # the next token, lexed in the state the parser is in
            kind = "$END"
            value: Any = ""
            meta: Meta | None = None
            if pos < size:
                lexer = lexers.get(states[-1]) or self.lexer(states[-1])
                while pos < size:
                    if text[pos] == " ":  # (what lark's lexer skips as WS, in a step of its own)
                        pos += 1
                        continue
                    m = lexer.match(text, pos)
                    if m is None:
                        return _FAILED
                    kind = m.lastgroup or ""
                    value = m.group()
                    first_line, col = line, pos - line_start + 1
                    if kind in lexer.newlines and "\n" in value:
                        line += value.count("\n")
                        line_start = pos + value.rindex("\n") + 1
                    pos += len(value)
                    if kind in lexer.ignore:
                        kind = "$END"
                        continue
                    if kind in lexer.keywords:
                        kind = lexer.keywords[kind].get(value, kind)
                    meta = (first_line, col, line, pos - line_start + 1)
                    if kind in strings:
                        value = (value, meta)
                    break
            if trace is not None and kind == "$END" and not trace:
                trace.extend((tuple(states), metas[-1]))
            # reduce as far as the token lets, then shift it
            while True:
                action = actions[states[-1]].get(kind)
                if action is None:
                    return _FAILED
                if isinstance(action, int):
                    states.append(action)
                    values.append(value)
                    metas.append(meta)
                    heights.append(0)
                    break
                rule = action
                if rule.unit:
                    # `?a: b` changes only the state: the value, its place and its height stay.
                    # Such rules reduce in chains (an expression's precedence levels), and where
                    # a chain ends depends only on the two states on top and the token.
                    key = (states[-2], states[-1], kind)
                    top = units.get(key)
                    if top is None:
                        top = units[key] = self._unit_chain(states[-2], rule, kind)
                    states[-1] = top
                    continue
                # the rule's symbols are replaced by the rule: its entry takes the place of the
                # first, and the others go
                n = rule.size
                if n == 1:
                    got = [values[-1]]
                    place = metas[-1]
                    height = heights[-1]
                elif n:
                    got = values[-n:]
                    raw = metas[-n:]
                    height = max(heights[-n:])
                    del states[1 - n :], values[1 - n :], metas[1 - n :], heights[1 - n :]
                    first, last = raw[0], raw[-1]
                    if first is None or last is None:
                        place = _extent(raw)
                    else:
                        place = (first[0], first[1], last[2], last[3])
                else:  # an empty rule: a new entry
                    got, place, height = [], None, 0
                    states.append(0)
                    values.append(None)
                    metas.append(None)
                    heights.append(0)
                picks = rule.picks
                if picks is None:
                    children = rule.children(got)
                elif len(picks) == n:
                    children = got
                else:
                    children = [got[i] for i in picks]
                if rule.build is None:
                    # a `?rule` with one child is that child; lark's `_rule` (for `x*`) is a list,
                    # spliced into its parent
                    values[-1] = children[0] if rule.inline else children
                else:
                    values[-1] = rule.build(build, place, children)
                    height += 1
                    if height > MAX_DSL_DEPTH:
                        return _FAILED
                metas[-1] = place
                heights[-1] = height
                states[-1] = gotos[states[-2]][rule.origin]
                if kind == "$END" and states[-1] == end_state:
                    return values[-1]

    def first_token(self, text: str, start: str) -> tuple[str, str, int] | None:
        """The first token of `text` parsed from `start`: its kind, text and offset."""
        return self._token(text, 0, self.lexer(self.start_states[start]))

    def _token(self, text: str, pos: int, lexer: _Lexer) -> tuple[str, str, int] | None:
        """The token `lexer` reads at `pos`, past what it skips: kind, text and offset (None at the
        end, or where it reads none)."""
        while pos < len(text):
            m = lexer.match(text, pos)
            if m is None:
                return None
            kind, value = m.lastgroup or "", m.group()
            if kind not in lexer.ignore:
                if kind in lexer.keywords:
                    kind = lexer.keywords[kind].get(value, kind)
                return kind, value, pos
            pos += len(value)
        return None

    def settle(self, states: list[int], kind: str, start: str) -> tuple[list[_Reduce], list[int], Any]:
        """What the parser does with the token `kind` next, with `states` on its stack, before it
        shifts it or reduces the whole text: the rules that build it reduces (not `?a: b` rules,
        nor lark's `_rule` lists, which differ with what came before), the states left, and
        the action it stops at."""
        end_state = self.end_states[start]
        fired: list[_Reduce] = []
        while True:
            action = self.actions[states[-1]].get(kind)
            if not isinstance(action, _Reduce):
                return fired, states, action
            below = states[-1 - action.size] if action.size else states[-1]
            if self.gotos[below][action.origin] == end_state:
                return fired, states, action
            if not action.unit and not action.origin.startswith("_"):
                fired.append(action)
            if action.size:
                del states[-action.size :]
            states.append(self.gotos[states[-1]][action.origin])

    def joins(
        self, text: str, offset: int, line: _Line, next_offset: int | None, after: _Line | None, first: bool
    ) -> bool:
        """Whether the parser of the whole effect `text` reads the end of `line` (at `offset`) as
        it did alone: it lexes the token that starts the next line with tokens, `after` (at
        `next_offset`; None: the text ends), as that line did alone, and reduces the same rules
        before it shifts it (or ends), leaving just the statements so far on its stack."""
        start = self.start_states["effect"]
        kind = "$END"
        if after is not None and after.first is not None and next_offset is not None:
            token = self._token(text, offset + line.end_col - 1, self.lexer(line.end_states[-1]))
            if token != (after.first[0], after.first[1], next_offset + after.first[2]):
                return False
            kind = token[0]
        key = (line.end_states, kind, first)
        if key not in self._joined:
            # the stack: this line's states, on the statements before it (if any: unless this
            # line has whole statements before its last, they are not on its own stack)
            states = list(line.end_states)
            if not first and states[1] != line.statements_state:
                states.insert(1, line.statements_state)
            fired, left, action = self.settle(states, kind, "effect")
            self._joined[key] = (
                fired == line.end_rules
                and len(left) == 2
                and (kind == "$END" or action == self.actions[start].get(kind))
            )
        return self._joined[key]

    def _unit_chain(self, below: int, rule: _Reduce, kind: str) -> int:
        """The state on top after `rule`, a `?a: b` rule, and the unit rules it leads to reduce
        with `kind` next, `below` staying under the top."""
        while True:
            top = self.gotos[below][rule.origin]
            action = self.actions[top].get(kind)
            if not isinstance(action, _Reduce) or not action.unit:
                return top
            rule = action


def _extent(metas: list[Meta | None]) -> Meta | None:
    """From the start of the first child that has a place to the end of the last one."""
    first = last = None
    for m in metas:
        if m is not None:
            if first is None:
                first = m
            last = m
    if first is None or last is None:
        return None
    return (first[0], first[1], last[2], last[3])


# ---- the IR ---------------------------------------------------------------------------------------


class _Anchor:
    """Where an interpolated expression sits in the outermost text: its spans are placed from the
    start of the string that holds it, shifted along the line (as the SourceMap of `{...}` does)."""

    __slots__ = ("line", "col", "shift")

    def __init__(self, line: int, col: int, shift: int) -> None:
        self.line = line
        self.col = col
        self.shift = shift


class _Build:
    """IR from reduced rules: one method per grammar rule, named after it, called with the rule's
    place in the text and its children as lark's tree would hold them."""

    def __init__(
        self,
        smap: SourceMap,
        sink: Sink,
        places: dict[int, Place],
        anchor: _Anchor | None,
        line_offset: int = 0,
    ) -> None:
        self.smap = smap
        self.sink = sink
        self.places = places
        self.anchor = anchor
        self.span = smap.span
        self.line_offset = line_offset  # the text parsed is a line of `smap.text`: which, less 1
        # a text of one line, each character in the column after the last (most conditions): the
        # place of that line, where every span of the text is (see SourceMap.span)
        self.one_line = smap.lines[0] if len(smap.lines) == 1 and not smap.chars else None
        self.file = smap.file

    def s(self, meta: Meta | None) -> ir.Span:
        assert meta is not None
        line, col, end_line, end_col = meta
        one = self.one_line
        if one is not None:
            span = ir.Span(self.file, one[0], one[1] + col - 1, one[0], one[1] + end_col - 1)
        else:
            off = self.line_offset
            span = self.span(line + off, col, end_line + off, end_col)
        a = self.anchor
        if a is None:
            self.places[id(span)] = (line, col, 0, end_line, end_col, 0)
        else:
            self.places[id(span)] = (a.line, a.col, a.shift + col, a.line, a.col, a.shift + end_col)
        return span

    def _where(self, line: int, col: int) -> tuple[int, int, int]:
        """The place of a position of this text in the outermost one: (line, column, shift)."""
        a = self.anchor
        return (line, col, 0) if a is None else (a.line, a.col, a.shift + col)

    # -- entry points and blocks
    def effect(self, meta: Meta | None, c: list[Any]) -> tuple[Any, ...]:
        return tuple(x for x in c if x is not None)

    def expression(self, meta: Meta | None, c: list[Any]) -> Any:
        return c[0]

    def block(self, meta: Meta | None, c: list[Any]) -> tuple[Any, ...]:
        return tuple(x for x in c if x is not None)

    def empty_stmt(self, meta: Meta | None, c: list[Any]) -> None:
        return None

    def args(self, meta: Meta | None, c: list[Any]) -> tuple[Any, ...]:
        return tuple(c)

    # -- statements
    def let_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Let:
        return ir.Let(c[0], c[2], self.s(meta), c[1])

    def type_ann(self, meta: Meta | None, c: list[Any]) -> ir.TypeRef:
        inner = f"[{c[1].text}]" if c[1] is not None else ""
        return ir.TypeRef(f"{c[0]}{inner}", self.s(meta))

    def target(self, meta: Meta | None, c: list[Any]) -> tuple[str, tuple[Any, ...]]:
        return (c[0], c[1] or ())

    def assign_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Assign:
        name, idx = c[0]
        return ir.Assign(name, idx, c[1], c[2], self.s(meta))

    def by_clause(self, meta: Meta | None, c: list[Any]) -> Any:
        return c[0] if c else None

    def disclosure(self, meta: Meta | None, c: list[Any]) -> str:
        return str(c[0])

    def choose(self, meta: Meta | None, c: list[Any]) -> ir.Choose:
        prompt = self._string(c[4]) if c[4] else None
        player, each = _by(c[3])
        return ir.Choose(
            c[1],
            c[2],
            player,
            prompt,
            False,
            c[0] == "secretly",
            self.s(meta),
            public=c[0] == "publicly",
            each=each,
        )

    def choose_optional(self, meta: Meta | None, c: list[Any]) -> ir.Choose:
        prompt = self._string(c[3]) if c[3] else None
        player, each = _by(c[2])
        return ir.Choose(
            None,
            c[1],
            player,
            prompt,
            True,
            c[0] == "secretly",
            self.s(meta),
            public=c[0] == "publicly",
            each=each,
        )

    def choose_number(self, meta: Meta | None, c: list[Any]) -> ir.ChooseNumber:
        player, each = _by(c[2])
        prompt = self._string(c[3]) if c[3] else None
        return ir.ChooseNumber(c[0], c[1], player, prompt, self.s(meta), each=each)

    def ask(self, meta: Meta | None, c: list[Any]) -> ir.Ask:
        player, each = _by(c[1])
        return ir.Ask(self._string(c[0]), player, self.s(meta), each=each)

    def by_each(self, meta: Meta | None, c: list[Any]) -> ir.Each:
        return ir.Each(str(c[1]), c[2], self.s(meta))

    def simultaneous_choose(self, meta: Meta | None, c: list[Any]) -> ir.Choose:
        return replace(self.choose(meta, [None, None, *c[1:]]), simultaneous=True)

    def simultaneous_choose_optional(self, meta: Meta | None, c: list[Any]) -> ir.Choose:
        return replace(self.choose_optional(meta, [None, *c[1:]]), simultaneous=True)

    def simultaneous_choose_number(self, meta: Meta | None, c: list[Any]) -> ir.ChooseNumber:
        return replace(self.choose_number(meta, c[1:]), simultaneous=True)

    def simultaneous_ask(self, meta: Meta | None, c: list[Any]) -> ir.Ask:
        return replace(self.ask(meta, c[1:]), simultaneous=True)

    def if_stmt(self, meta: Meta | None, c: list[Any]) -> ir.If:
        branches = [(c[0], c[1])]
        orelse: tuple[Any, ...] = ()
        for x in c[2:]:
            if isinstance(x, tuple) and len(x) == 3 and x[0] == "elif":
                branches.append((x[1], x[2]))
            elif isinstance(x, tuple) and len(x) == 2 and x[0] == "else":
                orelse = x[1]
        return ir.If(tuple(branches), orelse, self.s(meta))

    def elif_clause(self, meta: Meta | None, c: list[Any]) -> tuple[str, Any, Any]:
        return ("elif", c[0], c[1])

    def else_clause(self, meta: Meta | None, c: list[Any]) -> tuple[str, Any]:
        return ("else", c[0])

    def where_clause(self, meta: Meta | None, c: list[Any]) -> Any:
        return c[0]

    def for_stmt(self, meta: Meta | None, c: list[Any]) -> ir.For:
        return ir.For(c[0], c[1], c[2], c[3], self.s(meta))

    def repeat_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Repeat:
        return ir.Repeat(c[0], c[1], self.s(meta))

    def while_stmt(self, meta: Meta | None, c: list[Any]) -> ir.While:
        return ir.While(c[0], c[1], self.s(meta))

    def move_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Move:
        return ir.Move(c[0], c[2], c[1] or "top", self.s(meta))

    def place_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Place:
        return ir.Place(c[0], c[1], c[2], self.s(meta))

    def shuffle_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Shuffle:
        return ir.Shuffle(c[0], self.s(meta))

    def deal_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Deal:
        return ir.Deal(c[0], c[1], c[2], self.s(meta))

    def reveal_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Reveal:
        return ir.Reveal(c[0], self.s(meta))

    def show_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Show:
        return ir.Show(c[0], c[1], self.s(meta))

    def log_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Log:
        return ir.Log(self._string(c[0]), self.s(meta))

    def end_game_winner(self, meta: Meta | None, c: list[Any]) -> ir.EndGame:
        return ir.EndGame(c[0], self._string(c[1]) if c[1] else None, self.s(meta))

    def end_game_winners(self, meta: Meta | None, c: list[Any]) -> ir.EndGame:
        return ir.EndGame(c[1], self._string(c[2]) if c[2] else None, self.s(meta), "winners")

    def end_game_draw(self, meta: Meta | None, c: list[Any]) -> ir.EndGame:
        return ir.EndGame(None, self._string(c[0]) if c[0] else None, self.s(meta))

    def end_game_by_returns(self, meta: Meta | None, c: list[Any]) -> ir.EndGame:
        return ir.EndGame(None, self._string(c[0]), self.s(meta), "returns")

    def return_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Return:
        return ir.Return(self.s(meta), c[0] if c else None)

    def break_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Break:
        return ir.Break(self.s(meta))

    def continue_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Continue:
        return ir.Continue(self.s(meta))

    def call_stmt(self, meta: Meta | None, c: list[Any]) -> ir.CallStmt:
        return ir.CallStmt(c[0], c[1] or (), self.s(meta))

    def respond_stmt(self, meta: Meta | None, c: list[Any]) -> ir.CallStmt:
        return ir.CallStmt(c[0], c[1] or (), self.s(meta), respond=True)

    def respond_call(self, meta: Meta | None, c: list[Any]) -> ir.Call:
        return ir.Call(c[0], c[1] or (), self.s(meta), respond=True)

    def do_stmt(self, meta: Meta | None, c: list[Any]) -> ir.DoEffect:
        return ir.DoEffect(c[0], c[1], c[2] or (), self.s(meta))

    def add_modifier_stmt(self, meta: Meta | None, c: list[Any]) -> ir.AddModifier:
        return ir.AddModifier(c[0], c[1] or (), c[2], self.s(meta))

    def until_end_of(self, meta: Meta | None, c: list[Any]) -> str:
        return str(c[0])

    def until_cancelled(self, meta: Meta | None, c: list[Any]) -> None:
        return None

    def cancel_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Cancel:
        return ir.Cancel(c[1], c[2] or (), self.s(meta), one=c[0] is not None)

    def emit_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Emit:
        return ir.Emit(c[0], c[1] or (), self.s(meta))

    # -- expressions
    def cond_expr(self, meta: Meta | None, c: list[Any]) -> ir.CondExpr:
        return ir.CondExpr(c[0], c[1], c[2], self.s(meta))

    def or_op(self, meta: Meta | None, c: list[Any]) -> ir.BoolOp:
        return ir.BoolOp("or", c[0], c[1], self.s(meta))

    def and_op(self, meta: Meta | None, c: list[Any]) -> ir.BoolOp:
        return ir.BoolOp("and", c[0], c[1], self.s(meta))

    def not_op(self, meta: Meta | None, c: list[Any]) -> ir.Not:
        return ir.Not(c[0], self.s(meta))

    def compare(self, meta: Meta | None, c: list[Any]) -> ir.Compare:
        return ir.Compare(c[1], c[0], c[2], self.s(meta))

    def member(self, meta: Meta | None, c: list[Any]) -> ir.Compare:
        return ir.Compare("in", c[0], c[1], self.s(meta))

    def not_member(self, meta: Meta | None, c: list[Any]) -> ir.Compare:
        return ir.Compare("not in", c[0], c[1], self.s(meta))

    def binop(self, meta: Meta | None, c: list[Any]) -> ir.BinOp:
        return ir.BinOp(c[1], c[0], c[2], self.s(meta))

    def neg(self, meta: Meta | None, c: list[Any]) -> ir.Neg:
        return ir.Neg(c[0], self.s(meta))

    def field(self, meta: Meta | None, c: list[Any]) -> ir.Field:
        return ir.Field(c[0], c[1], self.s(meta))

    def method_call(self, meta: Meta | None, c: list[Any]) -> ir.MethodCall:
        return ir.MethodCall(c[0], c[1], c[2] or (), self.s(meta))

    def index(self, meta: Meta | None, c: list[Any]) -> ir.Index:
        return ir.Index(c[0], c[1], self.s(meta))

    def int_lit(self, meta: Meta | None, c: list[Any]) -> ir.IntLit:
        if len(c[0]) > MAX_INT_DIGITS:  # Python will not even read an int of more than 4,300 digits
            self.sink.error(
                codes.LIMIT_EXCEEDED,
                self.s(meta),
                messages.number_too_large(MAX_INT_DIGITS),
            )
            return ir.IntLit(0, self.s(meta))
        return ir.IntLit(int(c[0]), self.s(meta))

    def true_lit(self, meta: Meta | None, c: list[Any]) -> ir.BoolLit:
        return ir.BoolLit(True, self.s(meta))

    def false_lit(self, meta: Meta | None, c: list[Any]) -> ir.BoolLit:
        return ir.BoolLit(False, self.s(meta))

    def none_lit(self, meta: Meta | None, c: list[Any]) -> ir.NoneLit:
        return ir.NoneLit(self.s(meta))

    def str_lit(self, meta: Meta | None, c: list[Any]) -> ir.StrLit:
        return self._string(c[0])

    def name(self, meta: Meta | None, c: list[Any]) -> ir.Name:
        return ir.Name(c[0], self.s(meta))

    def call(self, meta: Meta | None, c: list[Any]) -> ir.Call:
        return ir.Call(c[0], c[1] or (), self.s(meta))

    def list_lit(self, meta: Meta | None, c: list[Any]) -> ir.ListLit:
        return ir.ListLit(c[0] or (), self.s(meta))

    def list_comp(self, meta: Meta | None, c: list[Any]) -> ir.ListComp:
        return ir.ListComp(c[0], c[1], c[2], c[3], self.s(meta))

    def quantifier(self, meta: Meta | None, c: list[Any]) -> ir.Quantifier:
        return ir.Quantifier(c[0], c[1], c[2], c[3], self.s(meta))

    def aggregate(self, meta: Meta | None, c: list[Any]) -> ir.Aggregate:
        return ir.Aggregate(c[0], c[1], c[2], c[3], c[4], self.s(meta))

    def active(self, meta: Meta | None, c: list[Any]) -> ir.Active:
        return ir.Active(c[0], c[1] or (), self.s(meta))

    def count_active(self, meta: Meta | None, c: list[Any]) -> ir.CountActive:
        return ir.CountActive(str(c[0]), c[1], c[2] or (), self.s(meta))

    # -- strings with {expr} interpolation
    def _string(self, tok: StringToken) -> ir.StrLit:
        raw = tok[0][1:-1]
        line, col = tok[1][0], tok[1][1]
        span = self.s(tok[1])
        parts: list[str | ir.Expr] = []
        pieces, unclosed = string_pieces(raw, escapes=True)
        for piece, at in pieces:
            if at < 0:
                parts.append(piece)
                continue
            # the inner text's columns count from the string's start, past its quote
            sub = SourceMap(span.file, piece, ((span.line, span.col + 1 + at),))
            at_line, at_col, shift = self._where(line, col)
            expr = _parse(sub, "expression", self.sink, self.places, _Anchor(at_line, at_col, shift + at))
            if expr is not None:
                parts.append(expr)
        if unclosed:
            self.sink.error(codes.DSL_SYNTAX, span, messages.UNCLOSED_INTERPOLATION)
        return ir.StrLit(tuple(parts), span)


def string_pieces(raw: str, escapes: bool) -> tuple[list[tuple[str, int]], bool]:
    """A text with `{expr}` holes, cut into pieces: (text, -1) for plain text, (the expression's
    text, where it starts in `raw`) for a hole; and whether a `{` has no closing `}` (what follows
    it is left out). With `escapes` (a string of the DSL), `\\n`, `\\t` and `\\<char>` are read."""
    pieces: list[tuple[str, int]] = []
    i, text = 0, ""
    while i < len(raw):
        ch = raw[i]
        if escapes and ch == "\\" and i + 1 < len(raw):
            text += {"n": "\n", "t": "\t"}.get(raw[i + 1], raw[i + 1])
            i += 2
            continue
        if ch == "{":
            end = raw.find("}", i)
            if end < 0:
                break
            if text:
                pieces.append((text, -1))
                text = ""
            pieces.append((raw[i + 1 : end], i + 1))
            i = end + 1
            continue
        text += ch
        i += 1
    if text:
        pieces.append((text, -1))
    return pieces, i < len(raw)


def _by(clause: Any) -> tuple[Any, ir.Each | None]:
    """A decision's `by` clause: the deciding player, or `by each p in xs` (no single player)."""
    return (None, clause) if isinstance(clause, ir.Each) else (clause, None)
