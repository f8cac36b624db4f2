"""Emptiness: `len(f(...)) > 0` (or `== 0`) of a spec function that builds its list, answered by
a function that stops at the first item the list would hold.

Rules ask whether a list is empty more often than they read it: whether a player has a legal
target, whether an action is open anywhere. For a spec function whose list is a filter, a
comprehension, a concatenation, an `if-then-else` of those, a list written out or a call of such
a function, the test calls `has_<function>(s, ...)` instead, which the compiler writes from the
same body (units.py `has_function`):

    filter(x in xs where t)      for c_x in xs: if t: return True
    a + b                        a's test, then b's (b only when a is empty)
    if c then a else b           if c: a's test, else b's
    [e, ...]  /  []              True / nothing (the items are not computed)
    g(...) of such a function    if has_g(s, ...): return True
    anything else                if len(it) > 0: return True

A cached function's kept list answers at once; its test keeps nothing. Like `any`, the test stops
at the first item: what the list would hold after it is not computed, and so a rule error there
is not raised by the test (the game's result is the same whenever the rules raise nothing). Rule
coverage counts the function once per test (its marker, with its name, heads `has_<function>`),
and the calls inside it as they run.

Not used where the call's value is reused elsewhere in the expression (reuse.py binds it), nor in
scenario or board code.
"""

from __future__ import annotations

from compiler import ir
from compiler.lower.context import Context

# (operator, number) of `len(xs) <op> <number>` -> whether it tests that xs is not empty
_TESTS = {
    (">", 0): True,
    (">=", 1): True,
    ("!=", 0): True,
    ("==", 0): False,
    ("<", 1): False,
    ("<=", 0): False,
}
# how many function bodies `eligible` follows from one test (a longer chain is not eligible)
MAX_FOLLOWED = 40


def emptiness_test(cx: Context, e: ir.Compare) -> tuple[ir.Call, bool] | None:
    """The call of comparison `e` and whether `e` asks that its list is not empty, when `e` is
    an emptiness test that a `has_` function answers; None otherwise."""
    if not cx.covering or not isinstance(e.right, ir.IntLit):
        return None
    wants = _TESTS.get((e.op, e.right.value))
    left = e.left
    if wants is None or not (isinstance(left, ir.Call) and left.func == "len" and len(left.args) == 1):
        return None
    if left.func in cx.sym.functions:  # (a spec function named `len`)
        return None
    call = left.args[0]
    if not isinstance(call, ir.Call) or not eligible(cx, call.func):
        return None
    plan = cx.plan
    if plan is not None and (
        id(call) in plan.bind
        or id(call) in plan.use
        or id(call) in plan.lazy
        or any(h.node is call for h in plan.hoisted)
    ):
        return None  # (its value is kept for another use)
    if call.func not in cx.emptiness:
        cx.emptiness.append(call.func)
    return call, wants


def eligible(cx: Context, name: str, seen: frozenset[str] = frozenset()) -> bool:
    """Whether spec function `name` builds its list in a way its test can stop early."""
    known = cx.has_function.get(name)
    if known is None:
        f = cx.sym.functions.get(name)
        if f is None or f.body.expr is None or name in seen or len(seen) >= MAX_FOLLOWED:
            return False  # (not kept: from a shorter chain it may be known)
        known = cx.has_function[name] = _stops_early(cx, f.body.expr, seen | {name})
    return known


def calls_tested(cx: Context, e: ir.Expr) -> ir.Call | None:
    """`e` as a call whose test is a `has_` function's, or None."""
    if isinstance(e, ir.Call) and e.func in cx.sym.functions and eligible(cx, e.func):
        if e.func not in cx.emptiness:
            cx.emptiness.append(e.func)
        return e
    return None


def _stops_early(cx: Context, e: ir.Expr, seen: frozenset[str]) -> bool:
    match e:
        case ir.Quantifier(kind="filter") | ir.ListComp() | ir.ListLit():
            return True
        case ir.BinOp(op="+"):
            return cx.ann.type_of(e).kind == "list"
        case ir.CondExpr():
            return _stops_early(cx, e.then, seen) or _stops_early(cx, e.other, seen)
        case ir.Call() if e.func in cx.sym.functions:
            return eligible(cx, e.func, seen)
    return False
