"""Parse: a DSL string (with its SourceMap into the YAML file) -> IR statements or an expression.

The grammar is grammar.lark; each Transformer method is named after its grammar rule and builds
the IR node of the same name. No checks happen here: they are passes over the IR.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from compiler import errorcodes as codes
from compiler import grammar_cache, ir, messages
from compiler.diagnostics import Sink
from compiler.limits import MAX_DSL_CHARS, MAX_DSL_DEPTH, MAX_INT_DIGITS
from compiler.sourcemap import SourceMap

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
    "SECRETLY": "'secretly'",
    "PUBLICLY": "'publicly'",
    "COLON": "':'",
}


@cache
def parser() -> Lark:
    return grammar_cache.load(GRAMMAR.read_text(encoding="utf-8"), _build_parser)


def _build_parser(grammar: str) -> Lark:
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
    tree = _parse(smap, "effect", sink)
    if tree is None:
        return None
    body = _Build(smap, sink).transform(tree)
    return ir.Code(tuple(body), None, smap.span(1, 1, len(smap.lines), 1), smap.text)


def parse_expression(smap: SourceMap, sink: Sink) -> ir.Code | None:
    """One expression: a condition, a function body, an invariant, a repeat count."""
    tree = _parse(smap, "expression", sink)
    if tree is None:
        return None
    expr = _Build(smap, sink).transform(tree)
    return ir.Code((), expr, smap.span(1, 1, len(smap.lines), 1), smap.text)


def _parse(smap: SourceMap, start: str, sink: Sink) -> Any:
    if len(smap.text) > MAX_DSL_CHARS:
        sink.error(
            codes.LIMIT_EXCEEDED,
            smap.span(1, 1, 1, 2),
            messages.code_too_long(len(smap.text), MAX_DSL_CHARS),
            messages.CODE_TOO_LONG_NOTE,
        )
        return None
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
        word = exc.token.value if isinstance(exc, UnexpectedToken) else ""
        if isinstance(exc, UnexpectedToken) and exc.token.type != "NAME" and re.fullmatch(r"[a-z_]+", word):
            notes.append(messages.reserved_word(word))
        sink.error(codes.DSL_SYNTAX, smap.span(line, col, line, col + 1), _syntax_message(exc), *notes)
        return None
    too_deep = _too_deep(tree)
    if too_deep is not None:
        line, col = too_deep
        sink.error(
            codes.LIMIT_EXCEEDED,
            smap.span(line, col, line, col + 1),
            messages.code_too_deep(MAX_DSL_DEPTH),
            messages.CODE_TOO_DEEP_NOTE,
        )
        return None
    return tree


def _too_deep(tree: Tree[Token]) -> tuple[int, int] | None:
    """Where the parse tree first goes deeper than MAX_DSL_DEPTH (the passes after the parser
    recurse once or more per level), or None. A walk with a stack of its own, not recursion."""
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


def _span_of(smap: SourceMap, obj: Any) -> ir.Span:
    if isinstance(obj, Token):
        return smap.span(
            obj.line or 1,
            obj.column or 1,
            obj.end_line or obj.line or 1,
            obj.end_column or (obj.column or 1) + len(obj),
        )
    return smap.span(obj.line, obj.column, obj.end_line, obj.end_column)


@v_args(meta=True)
class _Build(Transformer[Token, Any]):
    """Tree -> IR. One method per grammar rule, named after it."""

    def __init__(self, smap: SourceMap, sink: Sink) -> None:
        super().__init__()
        self.smap = smap
        self.sink = sink

    def transform(self, tree: Any) -> Any:
        try:
            return super().transform(tree)
        except VisitError as exc:  # pragma: no cover - a bug in this module, not in a spec
            raise exc.orig_exc from None

    def s(self, meta: Any) -> ir.Span:
        return _span_of(self.smap, meta)

    # -- entry points and blocks
    def effect(self, meta: Any, c: list[Any]) -> list[Any]:
        return [x for x in c if x is not None]

    def expression(self, meta: Any, c: list[Any]) -> Any:
        return c[0]

    def block(self, meta: Any, c: list[Any]) -> tuple[Any, ...]:
        return tuple(x for x in c if x is not None)

    def empty_stmt(self, meta: Any, c: list[Any]) -> None:
        return None

    def args(self, meta: Any, c: list[Any]) -> tuple[Any, ...]:
        return tuple(c)

    # -- statements
    def let_stmt(self, meta: Any, c: list[Any]) -> ir.Let:
        return ir.Let(str(c[0]), c[2], self.s(meta), c[1])

    def type_ann(self, meta: Any, c: list[Any]) -> ir.TypeRef:
        inner = f"[{c[1].text}]" if c[1] is not None else ""
        return ir.TypeRef(f"{c[0]}{inner}", self.s(meta))

    def target(self, meta: Any, c: list[Any]) -> tuple[str, tuple[Any, ...], ir.Span]:
        return (str(c[0]), c[1] or (), self.s(meta))

    def assign_stmt(self, meta: Any, c: list[Any]) -> ir.Assign:
        name, idx, _ = c[0]
        return ir.Assign(name, idx, str(c[1]), c[2], self.s(meta))

    def by_clause(self, meta: Any, c: list[Any]) -> Any:
        return c[0] if c else None

    def disclosure(self, meta: Any, c: list[Any]) -> str:
        return str(c[0])

    def choose(self, meta: Any, c: list[Any]) -> ir.Choose:
        prompt = self._string(c[4]) if c[4] else None
        return ir.Choose(
            c[1], c[2], c[3], prompt, False, c[0] == "secretly", self.s(meta), public=c[0] == "publicly"
        )

    def choose_optional(self, meta: Any, c: list[Any]) -> ir.Choose:
        prompt = self._string(c[3]) if c[3] else None
        return ir.Choose(
            None, c[1], c[2], prompt, True, c[0] == "secretly", self.s(meta), public=c[0] == "publicly"
        )

    def choose_number(self, meta: Any, c: list[Any]) -> ir.ChooseNumber:
        return ir.ChooseNumber(c[0], c[1], c[2], self._string(c[3]) if c[3] else None, self.s(meta))

    def ask(self, meta: Any, c: list[Any]) -> ir.Ask:
        return ir.Ask(self._string(c[0]), c[1], self.s(meta))

    def if_stmt(self, meta: Any, c: list[Any]) -> ir.If:
        branches = [(c[0], c[1])]
        orelse: tuple[Any, ...] = ()
        for x in c[2:]:
            if isinstance(x, tuple) and len(x) == 3 and x[0] == "elif":
                branches.append((x[1], x[2]))
            elif isinstance(x, tuple) and len(x) == 2 and x[0] == "else":
                orelse = x[1]
        return ir.If(tuple(branches), orelse, self.s(meta))

    def elif_clause(self, meta: Any, c: list[Any]) -> tuple[str, Any, Any]:
        return ("elif", c[0], c[1])

    def else_clause(self, meta: Any, c: list[Any]) -> tuple[str, Any]:
        return ("else", c[0])

    def where_clause(self, meta: Any, c: list[Any]) -> Any:
        return c[0]

    def for_stmt(self, meta: Any, c: list[Any]) -> ir.For:
        return ir.For(str(c[0]), c[1], c[2], c[3], self.s(meta))

    def repeat_stmt(self, meta: Any, c: list[Any]) -> ir.Repeat:
        return ir.Repeat(c[0], c[1], self.s(meta))

    def while_stmt(self, meta: Any, c: list[Any]) -> ir.While:
        return ir.While(c[0], c[1], self.s(meta))

    def move_stmt(self, meta: Any, c: list[Any]) -> ir.Move:
        return ir.Move(c[0], c[2], str(c[1]) if c[1] else "top", self.s(meta))

    def place_stmt(self, meta: Any, c: list[Any]) -> ir.Place:
        return ir.Place(c[0], c[1], c[2], self.s(meta))

    def shuffle_stmt(self, meta: Any, c: list[Any]) -> ir.Shuffle:
        return ir.Shuffle(c[0], self.s(meta))

    def deal_stmt(self, meta: Any, c: list[Any]) -> ir.Deal:
        return ir.Deal(c[0], c[1], c[2], self.s(meta))

    def reveal_stmt(self, meta: Any, c: list[Any]) -> ir.Reveal:
        return ir.Reveal(c[0], self.s(meta))

    def show_stmt(self, meta: Any, c: list[Any]) -> ir.Show:
        return ir.Show(c[0], c[1], self.s(meta))

    def log_stmt(self, meta: Any, c: list[Any]) -> ir.Log:
        return ir.Log(self._string(c[0]), self.s(meta))

    def end_game_winner(self, meta: Any, c: list[Any]) -> ir.EndGame:
        return ir.EndGame(c[0], self._string(c[1]) if c[1] else None, self.s(meta))

    def end_game_draw(self, meta: Any, c: list[Any]) -> ir.EndGame:
        return ir.EndGame(None, self._string(c[0]) if c[0] else None, self.s(meta))

    def return_stmt(self, meta: Any, c: list[Any]) -> ir.Return:
        return ir.Return(self.s(meta))

    def call_stmt(self, meta: Any, c: list[Any]) -> ir.CallStmt:
        return ir.CallStmt(str(c[0]), c[1] or (), self.s(meta))

    def do_stmt(self, meta: Any, c: list[Any]) -> ir.DoEffect:
        return ir.DoEffect(c[0], str(c[1]), c[2] or (), self.s(meta))

    def add_modifier_stmt(self, meta: Any, c: list[Any]) -> ir.AddModifier:
        return ir.AddModifier(str(c[0]), c[1] or (), c[2], self.s(meta))

    def until_end_of(self, meta: Any, c: list[Any]) -> str:
        return str(c[0])

    def until_cancelled(self, meta: Any, c: list[Any]) -> None:
        return None

    def cancel_stmt(self, meta: Any, c: list[Any]) -> ir.Cancel:
        return ir.Cancel(str(c[0]), c[1] or (), self.s(meta))

    def emit_stmt(self, meta: Any, c: list[Any]) -> ir.Emit:
        return ir.Emit(str(c[0]), c[1] or (), self.s(meta))

    # -- expressions
    def cond_expr(self, meta: Any, c: list[Any]) -> ir.CondExpr:
        return ir.CondExpr(c[0], c[1], c[2], self.s(meta))

    def or_op(self, meta: Any, c: list[Any]) -> ir.BoolOp:
        return ir.BoolOp("or", c[0], c[1], self.s(meta))

    def and_op(self, meta: Any, c: list[Any]) -> ir.BoolOp:
        return ir.BoolOp("and", c[0], c[1], self.s(meta))

    def not_op(self, meta: Any, c: list[Any]) -> ir.Not:
        return ir.Not(c[0], self.s(meta))

    def compare(self, meta: Any, c: list[Any]) -> ir.Compare:
        return ir.Compare(str(c[1]), c[0], c[2], self.s(meta))

    def member(self, meta: Any, c: list[Any]) -> ir.Compare:
        return ir.Compare("in", c[0], c[1], self.s(meta))

    def not_member(self, meta: Any, c: list[Any]) -> ir.Compare:
        return ir.Compare("not in", c[0], c[1], self.s(meta))

    def binop(self, meta: Any, c: list[Any]) -> ir.BinOp:
        return ir.BinOp(str(c[1]), c[0], c[2], self.s(meta))

    def neg(self, meta: Any, c: list[Any]) -> ir.Neg:
        return ir.Neg(c[0], self.s(meta))

    def field(self, meta: Any, c: list[Any]) -> ir.Field:
        return ir.Field(c[0], str(c[1]), self.s(meta))

    def method_call(self, meta: Any, c: list[Any]) -> ir.MethodCall:
        return ir.MethodCall(c[0], str(c[1]), c[2] or (), self.s(meta))

    def index(self, meta: Any, c: list[Any]) -> ir.Index:
        return ir.Index(c[0], c[1], self.s(meta))

    def int_lit(self, meta: Any, c: list[Any]) -> ir.IntLit:
        if len(c[0]) > MAX_INT_DIGITS:  # Python will not even read an int of more than 4,300 digits
            self.sink.error(
                codes.LIMIT_EXCEEDED,
                self.s(meta),
                messages.number_too_large(MAX_INT_DIGITS),
            )
            return ir.IntLit(0, self.s(meta))
        return ir.IntLit(int(c[0]), self.s(meta))

    def true_lit(self, meta: Any, c: list[Any]) -> ir.BoolLit:
        return ir.BoolLit(True, self.s(meta))

    def false_lit(self, meta: Any, c: list[Any]) -> ir.BoolLit:
        return ir.BoolLit(False, self.s(meta))

    def none_lit(self, meta: Any, c: list[Any]) -> ir.NoneLit:
        return ir.NoneLit(self.s(meta))

    def str_lit(self, meta: Any, c: list[Any]) -> ir.StrLit:
        return self._string(c[0])

    def name(self, meta: Any, c: list[Any]) -> ir.Name:
        return ir.Name(str(c[0]), self.s(meta))

    def call(self, meta: Any, c: list[Any]) -> ir.Call:
        return ir.Call(str(c[0]), c[1] or (), self.s(meta))

    def list_lit(self, meta: Any, c: list[Any]) -> ir.ListLit:
        return ir.ListLit(c[0] or (), self.s(meta))

    def list_comp(self, meta: Any, c: list[Any]) -> ir.ListComp:
        return ir.ListComp(c[0], str(c[1]), c[2], c[3], self.s(meta))

    def quantifier(self, meta: Any, c: list[Any]) -> ir.Quantifier:
        return ir.Quantifier(str(c[0]), str(c[1]), c[2], c[3], self.s(meta))

    def aggregate(self, meta: Any, c: list[Any]) -> ir.Aggregate:
        return ir.Aggregate(str(c[0]), c[1], str(c[2]), c[3], c[4], self.s(meta))

    def active(self, meta: Any, c: list[Any]) -> ir.Active:
        return ir.Active(str(c[0]), c[1] or (), self.s(meta))

    # -- strings with {expr} interpolation
    def _string(self, tok: Token) -> ir.StrLit:
        raw = str(tok)[1:-1]
        span = _span_of(self.smap, tok)
        parts: list[str | ir.Expr] = []
        i, text = 0, ""
        while i < len(raw):
            ch = raw[i]
            if ch == "\\" and i + 1 < len(raw):
                text += {"n": "\n", "t": "\t"}.get(raw[i + 1], raw[i + 1])
                i += 2
                continue
            if ch == "{":
                end = raw.find("}", i)
                if end < 0:
                    self.sink.error(codes.DSL_SYNTAX, span, messages.UNCLOSED_INTERPOLATION)
                    break
                if text:
                    parts.append(text)
                    text = ""
                inner = raw[i + 1 : end]
                col = span.col + 1 + i + 1
                sub = SourceMap(span.file, inner, ((span.line, col),))
                code = parse_expression(sub, self.sink)
                if code is not None and code.expr is not None:
                    parts.append(code.expr)
                i = end + 1
                continue
            text += ch
            i += 1
        if text:
            parts.append(text)
        return ir.StrLit(tuple(parts), span)
