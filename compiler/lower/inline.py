"""Inline: a call of a small spec function is written as its body, where that is what the call did.

In CPython a call of a one-line function costs more than its body: `in_play(t)`, a table read and a
comparison, runs about twice as fast written out. So where a statement surely evaluates a call
(its test, its value, a loop's test: not the right side of `and`/`or`, a branch of
`if-then-else`, the body of a comprehension, nor a builtin's argument), a spec function is written
as its body with its parameters replaced by the arguments, when

  - its body is small and holds no comprehension, text, method or cached lookup, and can raise
    nothing in any state (reuse.never_fails): so no error is reported from another place; and it
    is written out in at most four others (a longer chain of calls stays calls);
  - each argument is a name or a constant, or is used at most once in the body and can raise
    nothing (so evaluating it there, or not at all, changes nothing seen).

Rule coverage still counts the function each time its body runs. The statement that holds the
body gets the function's marker, with its name: `# cov 19 (in_play)` above it counts point 19
each time that statement runs, as the call did (rulewright/coverage.py). loops.py writes the
right side of an `and`/`or` holding such a call, and a comprehension whose test holds one, as
statements of their own, so that the call is surely evaluated there.
"""

from __future__ import annotations

import io
import keyword
import tokenize
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from compiler import ir
from compiler.builtins import BUILTINS
from compiler.check import Binding
from compiler.lower import reuse
from compiler.lower.context import Context, Plan

# the most nodes a function's body may have to be written out where it is called, and how many
# functions may be written out inside one another (a longer chain of calls stays calls)
INLINE_SIZE = 24
INLINE_DEPTH = 4
# expressions whose operands Python evaluates whenever it evaluates them (an `and`'s left side, an
# `if-then-else`'s test: expressions.py keeps their other operands from inlining)
STRICT = (
    ir.IntLit,
    ir.BoolLit,
    ir.NoneLit,
    ir.Name,
    ir.BinOp,
    ir.Compare,
    ir.BoolOp,
    ir.CondExpr,
    ir.Not,
    ir.Neg,
    ir.Call,
    ir.Field,
    ir.Index,
)
_NOT_INLINED = (ir.ListComp, ir.Quantifier, ir.Aggregate, ir.StrLit, ir.MethodCall, ir.CountActive)
# names whose Python is cheap and cannot fail: what an argument may be, to be written more than once
_ATOMS = frozenset(("local", "comp", "const", "option", "player", "enum", "entity", "num_players", "state"))

Lower = Callable[[Context, ir.Expr], str]


@contextmanager
def only_sometimes(cx: Context) -> Iterator[None]:
    """Lower an operand that runs only sometimes: no call in it is inlined."""
    marks = cx.inline_marks
    cx.inline_marks = None
    try:
        yield
    finally:
        cx.inline_marks = marks


def inlinable(cx: Context, name: str) -> bool:
    """Whether spec function `name` may be written as its body (this module's doc says when)."""
    known = cx.inlinable.get(name)
    if known is None:
        body = cx.sym.functions[name].body.expr
        nodes = list(ir.walk(body)) if body is not None else []
        known = (
            body is not None
            and name not in cx.reads.cached
            and len(nodes) <= INLINE_SIZE
            and not any(isinstance(n, _NOT_INLINED) for n in nodes)
            and reuse.function_never_fails(cx, name)
        )
        cx.inlinable[name] = known
    return known


def inline_call(cx: Context, e: ir.Call, args: list[str], marked: list[bool], lower: Lower) -> str | None:
    """The Python of call `e` of a spec function written as its body, given the Python of its
    arguments and whether each inlined a call itself (`lower` lowers the body); its coverage
    marker is noted for the statement. None if the call is not inlined here (nor in code that
    no rule coverage counts, scenarios and boards: there the call counts the function)."""
    marks = cx.inline_marks
    written_out = [name for name, _ in cx.inline_stack]
    if marks is None or not cx.covering or e.func in written_out or len(written_out) >= INLINE_DEPTH:
        return None
    if not inlinable(cx, e.func):
        return None
    f = cx.sym.functions[e.func]
    body = f.body.expr
    assert body is not None
    uses = Counter(b.target for b in _param_reads(cx, body))
    values: dict[str, str] = {}
    atoms: set[str] = set()
    plan = cx.plan
    assert plan is not None
    for p, a, code, inlined in zip(f.params, e.args, args, marked, strict=True):
        if _atom(cx, a):
            values[p.name] = code
            atoms.add(p.name)
            continue
        # an argument the body may not evaluate, or only sometimes: only one whose evaluation
        # changes nothing seen (it binds nothing, calls no rule that coverage counts, cannot fail)
        nodes = list(ir.walk(a))
        binds = any(id(n) in plan.bind for n in nodes)
        calls = any(isinstance(n, ir.Call) and n.func not in BUILTINS for n in nodes)
        if uses[p.name] > 1 or inlined or binds or calls or not reuse.never_fails(cx, a):
            return None
        values[p.name] = code if _bare(code) else f"({code})"
    outer = cx.inline_args, cx.inline_atoms
    cx.plan, cx.inline_args, cx.inline_atoms = Plan(), values, frozenset(atoms)
    cx.inline_stack.append((e.func, id(e)))
    try:
        code = lower(cx, body)
    finally:
        cx.plan, (cx.inline_args, cx.inline_atoms) = plan, outer
        cx.inline_stack.pop()
    # (a call inside a body written out twice in a statement is one node: the path tells them apart)
    marks[(*(at for _, at in cx.inline_stack), id(e))] = f"# cov {cx.function_points[e.func]} ({e.func})"
    return code if _bare(code) else f"({code})"


def _bare(code: str) -> bool:
    """Whether `code` needs no brackets around it as an operand: a name, a constant, an
    attribute, an item, a call, or bracketed already. (Read from its tokens: the compiler may run
    in several threads at once, and CPython 3.11's `ast.parse` is not safe there.)"""
    if code.isidentifier() or wrapped(code):
        return True
    tokens = _tokens(code)
    if len(tokens) == 1 and tokens[0].type in (tokenize.NUMBER, tokenize.STRING):
        return True
    first = tokens[0] if tokens else None
    if first is None or first.type != tokenize.NAME:
        return False
    if keyword.iskeyword(first.string) and first.string not in ("True", "False", "None"):
        return False
    k = 1  # then attributes, items and calls only
    while k < len(tokens):
        if tokens[k].string == "." and k + 1 < len(tokens) and tokens[k + 1].type == tokenize.NAME:
            k += 2
        elif tokens[k].string in ("(", "["):
            end = _closing(tokens, k)
            if end is None:
                return False
            k = end + 1
        else:
            return False
    return True


def wrapped(code: str) -> bool:
    """Whether `code` is one bracketed expression, `(...)`, whose brackets make no tuple or
    generator (and so may be dropped where an expression stands alone)."""
    if not code.startswith("("):
        return False
    tokens = _tokens(code)
    if _closing(tokens, 0) != len(tokens) - 1:
        return False
    depth = 0  # a ',' or a `for` right inside the brackets makes a tuple or a generator
    for t in tokens[1:-1]:
        if t.type == tokenize.OP and t.string in ("(", "[", "{"):
            depth += 1
        elif t.type == tokenize.OP and t.string in (")", "]", "}"):
            depth -= 1
        elif depth == 0 and (t.string == "," or (t.type == tokenize.NAME and t.string == "for")):
            return False
    return True


def _tokens(code: str) -> list[tokenize.TokenInfo]:
    skip = (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.INDENT, tokenize.DEDENT)
    return [t for t in tokenize.generate_tokens(io.StringIO(code).readline) if t.type not in skip]


def _closing(tokens: list[tokenize.TokenInfo], k: int) -> int | None:
    """The index of the bracket that closes the one at `k`, None if none does."""
    depth = 0
    for i in range(k, len(tokens)):
        t = tokens[i]
        if t.type == tokenize.OP and t.string in ("(", "[", "{"):
            depth += 1
        elif t.type == tokenize.OP and t.string in (")", "]", "}"):
            depth -= 1
            if depth == 0:
                return i
    return None


def _param_reads(cx: Context, body: ir.Expr) -> Iterator[Binding]:
    for n in ir.walk(body):
        if isinstance(n, ir.Name):
            b = cx.ann.names.get(id(n))
            if b is not None and b.kind == "local":
                yield b


def _atom(cx: Context, a: ir.Expr) -> bool:
    """A constant, or a name whose Python is cheap and cannot fail (a parameter of a function
    being written out is one only if its argument was)."""
    if isinstance(a, (ir.IntLit, ir.BoolLit, ir.NoneLit)):
        return True
    if not isinstance(a, ir.Name) or id(a) in cx.ann.zone_refs:
        return False
    b = cx.ann.names.get(id(a))
    if b is None or b.kind not in _ATOMS or cx.ann.type_of(a).kind == "zone":
        return False
    return b.kind != "local" or cx.inline_args is None or b.target in cx.inline_atoms


def take_marks(cx: Context) -> list[str]:
    """The markers of the functions inlined in the line about to be written, to go right above it."""
    marks = cx.inline_marks
    if not marks:
        return []
    out = list(marks.values())
    marks.clear()
    return out
