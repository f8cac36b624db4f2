"""Hoist: loaded IR -> the same IR, each decision or valued procedure call nested in a statement
lifted into a `let` of its own just before the statement.

In code that may stop (procedures, triggers, effect fields, the setup, phases) a decision or a call
of a procedure with `returns:` may stand anywhere in a statement's expressions: `gain(p, choose
number from 1 to 2 by p)`, `if ask "x?" by p { ... }`. The rule: the decisions and calls nested in
a statement run first, left to right, inner before outer; then the statement runs with their
answers. So each becomes `let $N = <it>` before the statement, and a name in its place. `$N` is a
name no spec can write (the checker gives it a slot of its own), and the new `let` and the name
keep the span of what they stand for, so diagnostics point at it.

A place evaluated more than once or not always (a `while` condition, a `for ... where` condition,
the right operand of `and` / `or`, the branches of `if ... then ... else`, a comprehension's item
or condition) keeps what it holds, and `why` records the reason for the checker's
`misplaced-decision` (or `misplaced-call`). An `elif` condition is lifted into the `else` branch.
The whole value of a `let` or an assignment stays in place: that is the form the rest of the
compiler lowers. Nothing changes in a spec that writes none of this (the same objects come back).
A scenario's setup is hoisted too: a plain procedure's value may be used there, and a decision
lifted out of it is reported where it stands (a setup cannot ask).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from compiler import ir, messages

DECISIONS = (ir.Choose, ir.ChooseNumber, ir.Ask)


class Hoister:
    """Lifts decisions and valued calls out of the statements of one game."""

    def __init__(self, procedures: frozenset[str]) -> None:
        self.procedures = procedures  # those with `returns:` (a call of another gives no value)
        self.words = ("choose", "ask", *sorted(procedures))  # what a text that asks must hold
        self.count = 0
        self.why: dict[int, str] = {}

    # ---- code units ---------------------------------------------------------------------------
    def code(self, c: ir.Code | None) -> ir.Code | None:
        if c is None or c.expr is not None or (c.text and not any(w in c.text for w in self.words)):
            return c
        body = self.body(c.body)
        return c if body is c.body else replace(c, body=body)

    def body(self, stmts: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        out: list[ir.Stmt] = []
        changed = False
        for s in stmts:
            new = self.stmt(s)
            changed = changed or len(new) != 1 or new[0] is not s
            out.extend(new)
        return tuple(out) if changed else stmts

    # ---- statements ---------------------------------------------------------------------------
    def stmt(self, s: ir.Stmt) -> list[ir.Stmt]:
        pre: list[ir.Stmt] = []
        match s:
            case ir.Let():
                new: ir.Stmt = self.whole_value(s, s.value, pre)
            case ir.Assign():
                indices = tuple(self.lift(i, pre) for i in s.indices)
                new = self.whole_value(s, s.value, pre)
                if any(a is not b for a, b in zip(indices, s.indices, strict=True)):
                    assert isinstance(new, ir.Assign)
                    new = replace(new, indices=indices)
            case ir.If():
                new = self.if_stmt(s, pre)
            case ir.For():
                source = self.lift(s.source, pre)
                if s.cond is not None:
                    self.forbid(s.cond, messages.WHERE_ASKS_EACH_TIME)
                body = self.body(s.body)
                new = s if source is s.source and body is s.body else replace(s, source=source, body=body)
            case ir.Repeat():
                count = self.lift(s.count, pre)
                body = self.body(s.body)
                new = s if count is s.count and body is s.body else replace(s, count=count, body=body)
            case ir.While():
                self.forbid(s.cond, messages.WHILE_ASKS_EACH_TIME)
                body = self.body(s.body)
                new = s if body is s.body else replace(s, body=body)
            case _:
                new = self.fields(s, pre)
        return [*pre, new]

    def whole_value(self, s: ir.Let | ir.Assign, value: ir.Expr, pre: list[ir.Stmt]) -> ir.Stmt:
        """A let's or an assignment's value: a decision or a call stays whole (its parts lifted)."""
        kept = self.asks(value)
        lifted = self.fields(value, pre) if kept else self.lift(value, pre)
        return s if lifted is value else replace(s, value=lifted)

    def if_stmt(self, s: ir.If, pre: list[ir.Stmt]) -> ir.Stmt:
        """The first condition is lifted before the `if`; a later one that asks splits the `if`:
        its `elif` becomes an `else` holding the lifted lets and an `if` of the rest."""
        branches: list[tuple[ir.Expr, tuple[ir.Stmt, ...]]] = []
        changed = False
        for i, (cond, body) in enumerate(s.branches):
            if i > 0 and self.holds(cond):
                rest = replace(s, branches=s.branches[i:], span=cond.span)
                orelse = tuple(self.stmt(rest))
                return replace(s, branches=tuple(branches), orelse=orelse)
            new_cond = self.lift(cond, pre) if i == 0 else cond
            new_body = self.body(body)
            changed = changed or new_cond is not cond or new_body is not body
            branches.append((new_cond, new_body))
        orelse = self.body(s.orelse)
        if not changed and orelse is s.orelse:
            return s
        return replace(s, branches=tuple(branches), orelse=orelse)

    # ---- expressions --------------------------------------------------------------------------
    def asks(self, e: object) -> bool:
        """A decision, or a call of a procedure (which may give a value and ask)."""
        return isinstance(e, DECISIONS) or (isinstance(e, ir.Call) and e.func in self.procedures)

    def holds(self, e: object) -> bool:
        """Whether `e` holds a decision or a procedure call anywhere."""
        return any(self.asks(n) for n in ir.walk(e))

    def lift(self, e: Any, pre: list[ir.Stmt]) -> Any:
        """`e` with what asks lifted into `pre` (inner first, left to right), and names in its place."""
        if isinstance(e, tuple):
            items = tuple(self.lift(x, pre) for x in e)
            return e if all(a is b for a, b in zip(items, e, strict=True)) else items
        if self.asks(e):
            new = self.fields(e, pre)
            self.count += 1
            name = f"${self.count}"
            pre.append(ir.Let(name, new, new.span))
            return ir.Name(name, new.span)
        if not ir.children(e):
            return e
        match e:
            case ir.BoolOp():
                left = self.lift(e.left, pre)
                self.forbid(e.right, messages.not_always_evaluated(e.op))
                return e if left is e.left else replace(e, left=left)
            case ir.CondExpr():
                cond = self.lift(e.cond, pre)
                self.forbid(e.then, messages.ONE_BRANCH_EVALUATED)
                self.forbid(e.other, messages.ONE_BRANCH_EVALUATED)
                return e if cond is e.cond else replace(e, cond=cond)
            case ir.ListComp() | ir.Quantifier() | ir.Aggregate():
                source = self.lift(e.source, pre)
                for part in (getattr(e, "item", None), e.cond):
                    if part is not None:
                        self.forbid(part, messages.EVALUATED_PER_ELEMENT)
                return e if source is e.source else replace(e, source=source)
        return self.fields(e, pre)

    def fields(self, node: Any, pre: list[ir.Stmt]) -> Any:
        """`node` with each of its parts lifted, in the order of its fields."""
        changes: dict[str, Any] = {}
        for f in ir.field_kinds(type(node)):
            if not f.nodes:
                continue  # a name, a number, a type or a span: nothing in it asks
            value = getattr(node, f.name)
            if isinstance(value, tuple) or self.asks(value) or ir.children(value):
                new = self.lift(value, pre)
                if new is not value:
                    changes[f.name] = new
        return replace(node, **changes) if changes else node

    def forbid(self, e: object, why: str) -> None:
        """Leave what asks in `e` in place, with the reason it cannot be asked first there."""
        for n in ir.walk(e):
            if self.asks(n):
                what = "a decision" if isinstance(n, DECISIONS) else "a procedure call"
                self.why.setdefault(id(n), why.replace("{what}", what, 1))


def hoist(game: ir.Game) -> tuple[ir.Game, dict[int, str]]:
    """The game with its decisions and valued calls lifted; why some could not be."""
    h = Hoister(frozenset(p.name for p in game.procedures if p.returns is not None))
    procedures = tuple(_same(p, body=h.code(p.body)) for p in game.procedures)
    triggers = tuple(_same(t, body=h.code(t.body)) for t in game.triggers)
    types = tuple(
        _same(t, entities=tuple(_same(e, code=tuple((n, h.code(c)) for n, c in e.code)) for e in t.entities))
        for t in game.types
    )
    phases = tuple(_phase(h, ph) for ph in game.phases)
    setup = h.code(game.setup)
    scenarios = tuple(_same(sc, setup=h.code(sc.setup)) for sc in game.scenarios)
    if not h.count:  # nothing lifted: the same game (an `elif` split only around what stays)
        return game, h.why
    return (
        replace(
            game,
            procedures=procedures,
            triggers=triggers,
            types=types,
            phases=phases,
            setup=setup,
            scenarios=scenarios,
        ),
        h.why,
    )


def _phase(h: Hoister, ph: ir.PhaseDecl) -> ir.PhaseDecl:
    """A phase, its steps (phases of their own) included."""
    phase: ir.PhaseDecl = _same(ph, body=h.code(ph.body), steps=tuple(_phase(h, st) for st in ph.steps))
    return phase


def _same(node: Any, **parts: Any) -> Any:
    """`node` with `parts`, or `node` itself when each part is the one it holds."""
    if all(_identical(getattr(node, k), v) for k, v in parts.items()):
        return node
    return replace(node, **parts)


def _identical(a: object, b: object) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_identical(x, y) for x, y in zip(a, b, strict=True))
    return a is b
