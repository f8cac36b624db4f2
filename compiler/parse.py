"""Parse: a DSL string (with its SourceMap into the YAML file) -> IR statements or an expression.

The grammar is grammar.lark; three modules read a text as lark would, without lark or a parse
tree: grammar_tables.py takes lark's LALR tables and contextual lexer for it (cached by
grammar_cache.py), lex.py reads the tokens, and lalr.py's automaton shifts and reduces them,
calling, as each rule reduces, the method of `_Build` (below) named after it, which builds the IR
node of the same name. Text that does not parse is parsed again by lark itself, so that the
message, the position and the notes of a syntax error are lark's.

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
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, Any

from compiler import errorcodes as codes
from compiler import grammar_tables, ir, lalr, messages
from compiler.diagnostics import Sink
from compiler.lalr import FAILED
from compiler.lex import Meta, StringToken
from compiler.limits import MAX_DSL_CHARS, MAX_DSL_DEPTH, MAX_INT_DIGITS
from compiler.sourcemap import Place, SourceMap

if TYPE_CHECKING:  # lark is imported only to report a syntax error (or to make the tables)
    from lark import Token, Tree
    from lark.exceptions import UnexpectedInput

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
            copy = _COPIES[kind] = _copy(kind)
        return x if copy is _as_is else copy(self, x)


# the class of a value -> how _Relocate copies it (made on first use)
_COPIES: dict[type, Callable[[_Relocate, Any], Any]] = {}


def _as_is(r: _Relocate, x: Any) -> Any:
    return x  # a name, an operator, a number, None


def _copy(kind: type) -> Callable[[_Relocate, Any], Any]:
    """How _Relocate copies a value of `kind`: a node, with its fields as they are, each span
    placed, each field that may hold spans copied (one call per field, not a loop over them);
    anything else, as it is."""
    if kind is ir.Span or not hasattr(kind, "__dataclass_fields__"):
        return _as_is
    args = []
    for f in ir.field_kinds(kind):
        if f.span:
            args.append(f"place(r.places[id(x.{f.name})])")
        elif f.spans:
            args.append(f"r.value(x.{f.name})")
        else:
            args.append(f"x.{f.name}")
    env: dict[str, Any] = {"kind": kind}
    # (the text is made of the IR's own field names, never of spec text)
    exec(f"def copy(r, x):\n    place = r.place\n    return kind({', '.join(args)})", env)
    copy: Callable[[_Relocate, Any], Any] = env["copy"]
    return copy


# ---- an effect, line by line --------------------------------------------------------------------
#
# Scenario setups repeat the same lines in different orders (`move hand[p] to deck`), and differ
# as wholes. So an effect of several lines is first read as the statements of its lines, each line
# parsed on its own once per spec (_Line). That gives what parsing the whole text gives when
# each line holds whole statements, which is checked at each line's end: the whole text's parser,
# having read the line, would lex the next line's first token as that line's own parse did, and
# reduce as it did at its end, to just the statements so far (see lalr.Automaton.settle). Otherwise,
# or if a line does not parse on its own, the text is parsed whole.


class _Line:
    """One line of an effect, parsed on its own: its statements, the place of their spans (the
    line being line 1), and where its parser ended, which joining it to the lines around it
    checks."""

    __slots__ = ("stmts", "places", "end")

    def __init__(self, stmts: tuple[Any, ...], places: dict[int, Place], end: lalr.LineEnd) -> None:
        self.stmts = stmts
        self.places = places
        self.end = end


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
        if got.end.first is not None:
            read.append((number, offset, got))
        offset += len(line) + 1
    for k, (number, offset, entry) in enumerate(read):
        next_offset, after = read[k + 1][1:] if k + 1 < len(read) else (None, None)
        # what joins reads: this line and the text up to the end of the next with tokens
        end = offset + len(lines[number]) if next_offset is None else next_offset + len(lines[read[k + 1][0]])
        key = (k == 0, text[offset:end], next_offset is None)
        joined = _joined_lines.get(key)
        if joined is None:
            joined = automaton.joins(
                text, offset, entry.end, next_offset, None if after is None else after.end, k == 0
            )
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
    if stmts is FAILED or found.items:
        return _NOT_ALONE
    end = automaton.line_end(line, trace)
    return _NOT_ALONE if end is None else _Line(stmts, places, end)


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
    if value is FAILED:
        # lark says what is wrong; what the builder found in the text before is not reported
        _report(smap, start, sink)
        return None
    sink.items.extend(found.items)
    return value


def _report(smap: SourceMap, start: str, sink: Sink) -> None:
    """Report why `smap.text` does not parse, from lark's own parser and parse tree."""
    from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken

    try:
        tree = grammar_tables.lark_parser().parse(smap.text, start=start)
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
    if too_deep is None:  # pragma: no cover - our automaton parses what lark parses
        raise AssertionError(f"lark parses what our automaton does not: {smap.text!r}")
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


# ---- the automaton ---------------------------------------------------------------------------------


@cache
def _automaton() -> lalr.Automaton:
    return lalr.Automaton(grammar_tables.load(), _Build)


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
    """IR from reduced rules: one method per grammar rule (or per `-> name` alternative), named
    after it, called by lalr.py with the rule's place in the text and its children as lark's tree
    would hold them: a token as its text (a STRING as its text and place), a rule as what its
    builder made."""

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

    # Each builder below is headed by its rule in grammar.lark (an alternative's `-> name`, and
    # the `?rule` it stands in), and names the rule's children in order: the parts in quotes are
    # left out, and an optional part in [...] is None when absent.

    # -- entry points and blocks

    # effect: stmt*
    def effect(self, meta: Meta | None, stmts: list[Any]) -> tuple[Any, ...]:
        return tuple(s for s in stmts if s is not None)  # (an empty statement, `;`, is None)

    # expression: expr
    def expression(self, meta: Meta | None, c: list[Any]) -> Any:
        (expr,) = c
        return expr

    # block: "{" stmt* "}"
    def block(self, meta: Meta | None, stmts: list[Any]) -> tuple[Any, ...]:
        return tuple(s for s in stmts if s is not None)

    # stmt: ";" -> empty_stmt
    def empty_stmt(self, meta: Meta | None, c: list[Any]) -> None:
        return None

    # args: expr ("," expr)*
    def args(self, meta: Meta | None, exprs: list[Any]) -> tuple[Any, ...]:
        return tuple(exprs)

    # -- statements

    # let_stmt: "let" NAME [":" type_ann] "=" expr
    def let_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Let:
        name, type_ann, value = c
        return ir.Let(name, value, self.s(meta), type_ann)

    # type_ann: NAME ["[" type_ann "]"]
    def type_ann(self, meta: Meta | None, c: list[Any]) -> ir.TypeRef:
        name, inner = c
        return ir.TypeRef(f"{name}[{inner.text}]" if inner is not None else name, self.s(meta))

    # target: NAME ["[" args "]"]
    def target(self, meta: Meta | None, c: list[Any]) -> tuple[str, tuple[Any, ...]]:
        name, indices = c
        return (name, indices or ())

    # assign_stmt: target ASSIGN_OP expr
    def assign_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Assign:
        (name, indices), op, value = c
        return ir.Assign(name, indices, op, value, self.s(meta))

    # by_clause: ("by" expr)?
    def by_clause(self, meta: Meta | None, c: list[Any]) -> Any:
        return c[0] if c else None  # the deciding player, or none named

    # by_clause: "by" EACH NAME "in" expr -> by_each
    def by_each(self, meta: Meta | None, c: list[Any]) -> ir.Each:
        _each, name, players = c
        return ir.Each(str(name), players, self.s(meta))

    # disclosure: SECRETLY | PUBLICLY
    def disclosure(self, meta: Meta | None, c: list[Any]) -> str:
        (word,) = c
        return str(word)

    # decision: [disclosure] "choose" [expr] "from" expr by_clause [STRING] -> choose
    def choose(self, meta: Meta | None, c: list[Any]) -> ir.Choose:
        disclosure, count, options, by, prompt = c
        return self._choose(meta, disclosure, count, options, by, prompt, optional=False)

    # decision: [disclosure] "optionally" "choose" "from" expr by_clause [STRING] -> choose_optional
    def choose_optional(self, meta: Meta | None, c: list[Any]) -> ir.Choose:
        disclosure, options, by, prompt = c
        return self._choose(meta, disclosure, None, options, by, prompt, optional=True)

    # decision: "choose" "number" "from" expr "to" expr by_clause [STRING] -> choose_number
    def choose_number(self, meta: Meta | None, c: list[Any]) -> ir.ChooseNumber:
        low, high, by, prompt = c
        return self._choose_number(meta, low, high, by, prompt, simultaneous=False)

    # decision: "ask" STRING by_clause -> ask
    def ask(self, meta: Meta | None, c: list[Any]) -> ir.Ask:
        question, by = c
        return self._ask(meta, question, by, simultaneous=False)

    # decision: SIMULTANEOUSLY "choose" "from" expr by_clause [STRING] -> simultaneous_choose
    def simultaneous_choose(self, meta: Meta | None, c: list[Any]) -> ir.Choose:
        _simultaneously, options, by, prompt = c
        return self._choose(meta, None, None, options, by, prompt, optional=False, simultaneous=True)

    # decision: SIMULTANEOUSLY "optionally" "choose" "from" expr by_clause [STRING]
    #     -> simultaneous_choose_optional
    def simultaneous_choose_optional(self, meta: Meta | None, c: list[Any]) -> ir.Choose:
        _simultaneously, options, by, prompt = c
        return self._choose(meta, None, None, options, by, prompt, optional=True, simultaneous=True)

    # decision: SIMULTANEOUSLY "choose" "number" "from" expr "to" expr by_clause [STRING]
    #     -> simultaneous_choose_number
    def simultaneous_choose_number(self, meta: Meta | None, c: list[Any]) -> ir.ChooseNumber:
        _simultaneously, low, high, by, prompt = c
        return self._choose_number(meta, low, high, by, prompt, simultaneous=True)

    # decision: SIMULTANEOUSLY "ask" STRING by_clause -> simultaneous_ask
    def simultaneous_ask(self, meta: Meta | None, c: list[Any]) -> ir.Ask:
        _simultaneously, question, by = c
        return self._ask(meta, question, by, simultaneous=True)

    def _choose(
        self,
        meta: Meta | None,
        disclosure: str | None,
        count: Any,
        options: Any,
        by: Any,
        prompt: StringToken | None,
        optional: bool,
        simultaneous: bool = False,
    ) -> ir.Choose:
        text = self._string(prompt) if prompt else None
        player, each = _by(by)
        secret, public = disclosure == "secretly", disclosure == "publicly"
        span = self.s(meta)
        choose = ir.Choose(count, options, player, text, optional, secret, span, public=public, each=each)
        return replace(choose, simultaneous=True) if simultaneous else choose

    def _choose_number(
        self, meta: Meta | None, low: Any, high: Any, by: Any, prompt: StringToken | None, simultaneous: bool
    ) -> ir.ChooseNumber:
        player, each = _by(by)
        text = self._string(prompt) if prompt else None
        choose = ir.ChooseNumber(low, high, player, text, self.s(meta), each=each)
        return replace(choose, simultaneous=True) if simultaneous else choose

    def _ask(self, meta: Meta | None, question: StringToken, by: Any, simultaneous: bool) -> ir.Ask:
        player, each = _by(by)
        ask = ir.Ask(self._string(question), player, self.s(meta), each=each)
        return replace(ask, simultaneous=True) if simultaneous else ask

    # if_stmt: "if" expr block elif_clause* [else_clause]
    def if_stmt(self, meta: Meta | None, c: list[Any]) -> ir.If:
        cond, body, *elifs, orelse = c
        return ir.If(((cond, body), *elifs), orelse or (), self.s(meta))

    # elif_clause: "elif" expr block
    def elif_clause(self, meta: Meta | None, c: list[Any]) -> tuple[Any, tuple[Any, ...]]:
        cond, body = c
        return (cond, body)

    # else_clause: "else" block
    def else_clause(self, meta: Meta | None, c: list[Any]) -> Any:
        (body,) = c
        return body

    # where_clause: "where" expr
    def where_clause(self, meta: Meta | None, c: list[Any]) -> Any:
        (cond,) = c
        return cond

    # for_stmt: "for" NAME "in" expr [where_clause] block
    def for_stmt(self, meta: Meta | None, c: list[Any]) -> ir.For:
        name, source, where, body = c
        return ir.For(name, source, where, body, self.s(meta))

    # repeat_stmt: "repeat" expr block
    def repeat_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Repeat:
        count, body = c
        return ir.Repeat(count, body, self.s(meta))

    # while_stmt: "while" expr block
    def while_stmt(self, meta: Meta | None, c: list[Any]) -> ir.While:
        cond, body = c
        return ir.While(cond, body, self.s(meta))

    # move_stmt: "move" expr "to" [POSITION "of"] expr
    def move_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Move:
        item, position, dest = c
        return ir.Move(item, dest, position or "top", self.s(meta))

    # place_stmt: "place" expr "on" expr "at" expr
    def place_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Place:
        item, grid, cell = c
        return ir.Place(item, grid, cell, self.s(meta))

    # shuffle_stmt: "shuffle" expr
    def shuffle_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Shuffle:
        (zone,) = c
        return ir.Shuffle(zone, self.s(meta))

    # deal_stmt: "deal" expr "from" expr "to" expr
    def deal_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Deal:
        count, source, dest = c
        return ir.Deal(count, source, dest, self.s(meta))

    # reveal_stmt: "reveal" expr
    def reveal_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Reveal:
        (item,) = c
        return ir.Reveal(item, self.s(meta))

    # show_stmt: "show" expr "to" expr
    def show_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Show:
        item, player = c
        return ir.Show(item, player, self.s(meta))

    # log_stmt: "log" STRING
    def log_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Log:
        (message,) = c
        return ir.Log(self._string(message), self.s(meta))

    # end_game_stmt: "end" "game" "winner" expr [STRING] -> end_game_winner
    def end_game_winner(self, meta: Meta | None, c: list[Any]) -> ir.EndGame:
        winner, reason = c
        return ir.EndGame(winner, self._string(reason) if reason else None, self.s(meta))

    # end_game_stmt: "end" "game" WINNERS expr [STRING] -> end_game_winners
    def end_game_winners(self, meta: Meta | None, c: list[Any]) -> ir.EndGame:
        _winners, winners, reason = c
        return ir.EndGame(winners, self._string(reason) if reason else None, self.s(meta), "winners")

    # end_game_stmt: "end" "game" "draw" [STRING] -> end_game_draw
    def end_game_draw(self, meta: Meta | None, c: list[Any]) -> ir.EndGame:
        (reason,) = c
        return ir.EndGame(None, self._string(reason) if reason else None, self.s(meta))

    # end_game_stmt: "end" "game" STRING -> end_game_by_returns
    def end_game_by_returns(self, meta: Meta | None, c: list[Any]) -> ir.EndGame:
        (reason,) = c
        return ir.EndGame(None, self._string(reason), self.s(meta), "returns")

    # return_stmt: "return" [expr]
    def return_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Return:
        (value,) = c
        return ir.Return(self.s(meta), value)

    # break_stmt: "break"
    def break_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Break:
        return ir.Break(self.s(meta))

    # continue_stmt: "continue"
    def continue_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Continue:
        return ir.Continue(self.s(meta))

    # call_stmt: NAME "(" [args] ")"
    def call_stmt(self, meta: Meta | None, c: list[Any]) -> ir.CallStmt:
        proc, args = c
        return ir.CallStmt(proc, args or (), self.s(meta))

    # respond_stmt: "respond" NAME "(" [args] ")"
    def respond_stmt(self, meta: Meta | None, c: list[Any]) -> ir.CallStmt:
        proc, args = c
        return ir.CallStmt(proc, args or (), self.s(meta), respond=True)

    # atom: "respond" NAME "(" [args] ")" -> respond_call
    def respond_call(self, meta: Meta | None, c: list[Any]) -> ir.Call:
        func, args = c
        return ir.Call(func, args or (), self.s(meta), respond=True)

    # do_stmt: "do" postfix "." NAME "(" [args] ")"
    def do_stmt(self, meta: Meta | None, c: list[Any]) -> ir.DoEffect:
        subject, field, args = c
        return ir.DoEffect(subject, field, args or (), self.s(meta))

    # add_modifier_stmt: "add" NAME ["(" [args] ")"] "until" duration
    def add_modifier_stmt(self, meta: Meta | None, c: list[Any]) -> ir.AddModifier:
        name, args, until_phase = c
        return ir.AddModifier(name, args or (), until_phase, self.s(meta))

    # duration: "end" "of" NAME -> until_end_of
    def until_end_of(self, meta: Meta | None, c: list[Any]) -> str:
        (phase,) = c
        return str(phase)

    # duration: "cancelled" -> until_cancelled
    def until_cancelled(self, meta: Meta | None, c: list[Any]) -> None:
        return None

    # cancel_stmt: "cancel" [ONE] NAME ["(" [args] ")"]
    def cancel_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Cancel:
        one, name, args = c
        return ir.Cancel(name, args or (), self.s(meta), one=one is not None)

    # emit_stmt: "emit" NAME ["(" [args] ")"]
    def emit_stmt(self, meta: Meta | None, c: list[Any]) -> ir.Emit:
        event, args = c
        return ir.Emit(event, args or (), self.s(meta))

    # -- expressions

    # expr: "if" expr "then" expr "else" expr -> cond_expr
    def cond_expr(self, meta: Meta | None, c: list[Any]) -> ir.CondExpr:
        cond, then, other = c
        return ir.CondExpr(cond, then, other, self.s(meta))

    # or_expr: or_expr "or" and_expr -> or_op
    def or_op(self, meta: Meta | None, c: list[Any]) -> ir.BoolOp:
        left, right = c
        return ir.BoolOp("or", left, right, self.s(meta))

    # and_expr: and_expr "and" not_expr -> and_op
    def and_op(self, meta: Meta | None, c: list[Any]) -> ir.BoolOp:
        left, right = c
        return ir.BoolOp("and", left, right, self.s(meta))

    # not_expr: "not" not_expr -> not_op
    def not_op(self, meta: Meta | None, c: list[Any]) -> ir.Not:
        (operand,) = c
        return ir.Not(operand, self.s(meta))

    # comparison: sum COMP_OP sum -> compare
    def compare(self, meta: Meta | None, c: list[Any]) -> ir.Compare:
        left, op, right = c
        return ir.Compare(op, left, right, self.s(meta))

    # comparison: sum "in" sum -> member
    def member(self, meta: Meta | None, c: list[Any]) -> ir.Compare:
        left, right = c
        return ir.Compare("in", left, right, self.s(meta))

    # comparison: sum "not" "in" sum -> not_member
    def not_member(self, meta: Meta | None, c: list[Any]) -> ir.Compare:
        left, right = c
        return ir.Compare("not in", left, right, self.s(meta))

    # sum: sum ADD_OP product -> binop
    # product: product MUL_OP unary -> binop
    def binop(self, meta: Meta | None, c: list[Any]) -> ir.BinOp:
        left, op, right = c
        return ir.BinOp(op, left, right, self.s(meta))

    # unary: "-" unary -> neg
    def neg(self, meta: Meta | None, c: list[Any]) -> ir.Neg:
        (operand,) = c
        return ir.Neg(operand, self.s(meta))

    # postfix: postfix "." NAME -> field
    def field(self, meta: Meta | None, c: list[Any]) -> ir.Field:
        subject, name = c
        return ir.Field(subject, name, self.s(meta))

    # postfix: postfix "." NAME "(" [args] ")" -> method_call
    def method_call(self, meta: Meta | None, c: list[Any]) -> ir.MethodCall:
        subject, name, args = c
        return ir.MethodCall(subject, name, args or (), self.s(meta))

    # postfix: postfix "[" args "]" -> index
    def index(self, meta: Meta | None, c: list[Any]) -> ir.Index:
        subject, args = c
        return ir.Index(subject, args, self.s(meta))

    # atom: INT -> int_lit
    def int_lit(self, meta: Meta | None, c: list[Any]) -> ir.IntLit:
        (digits,) = c
        if len(digits) > MAX_INT_DIGITS:  # Python will not even read an int of more than 4,300 digits
            self.sink.error(
                codes.LIMIT_EXCEEDED,
                self.s(meta),
                messages.number_too_large(MAX_INT_DIGITS),
            )
            return ir.IntLit(0, self.s(meta))
        return ir.IntLit(int(digits), self.s(meta))

    # atom: "true" -> true_lit
    def true_lit(self, meta: Meta | None, c: list[Any]) -> ir.BoolLit:
        return ir.BoolLit(True, self.s(meta))

    # atom: "false" -> false_lit
    def false_lit(self, meta: Meta | None, c: list[Any]) -> ir.BoolLit:
        return ir.BoolLit(False, self.s(meta))

    # atom: "none" -> none_lit
    def none_lit(self, meta: Meta | None, c: list[Any]) -> ir.NoneLit:
        return ir.NoneLit(self.s(meta))

    # atom: STRING -> str_lit
    def str_lit(self, meta: Meta | None, c: list[Any]) -> ir.StrLit:
        (string,) = c
        return self._string(string)

    # atom: NAME -> name
    def name(self, meta: Meta | None, c: list[Any]) -> ir.Name:
        (name,) = c
        return ir.Name(name, self.s(meta))

    # atom: NAME "(" [args] ")" -> call
    #     | AGG "(" [args] ")" -> call
    def call(self, meta: Meta | None, c: list[Any]) -> ir.Call:
        func, args = c
        return ir.Call(func, args or (), self.s(meta))

    # atom: "[" [args] "]" -> list_lit
    def list_lit(self, meta: Meta | None, c: list[Any]) -> ir.ListLit:
        (items,) = c
        return ir.ListLit(items or (), self.s(meta))

    # atom: "[" expr "for" NAME "in" expr [where_clause] "]" -> list_comp
    def list_comp(self, meta: Meta | None, c: list[Any]) -> ir.ListComp:
        item, var, source, where = c
        return ir.ListComp(item, var, source, where, self.s(meta))

    # atom: QUANT "(" NAME "in" expr [where_clause] ")" -> quantifier
    def quantifier(self, meta: Meta | None, c: list[Any]) -> ir.Quantifier:
        kind, var, source, where = c
        return ir.Quantifier(kind, var, source, where, self.s(meta))

    # atom: AGG "(" expr "for" NAME "in" expr [where_clause] ")" -> aggregate
    def aggregate(self, meta: Meta | None, c: list[Any]) -> ir.Aggregate:
        kind, item, var, source, where = c
        return ir.Aggregate(kind, item, var, source, where, self.s(meta))

    # atom: "active" NAME ["(" [args] ")"] -> active
    def active(self, meta: Meta | None, c: list[Any]) -> ir.Active:
        name, args = c
        return ir.Active(name, args or (), self.s(meta))

    # atom: QUANT "active" NAME ["(" [args] ")"] -> count_active
    def count_active(self, meta: Meta | None, c: list[Any]) -> ir.CountActive:
        quant, name, args = c
        return ir.CountActive(str(quant), name, args or (), self.s(meta))

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
