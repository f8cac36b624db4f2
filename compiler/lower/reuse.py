"""Reuse: an expression that computes the same pure call twice computes it once, and one that
computes it in every pass of a loop computes it before the loop.

For each expression it lowers from the top, expressions.py asks for a plan: which subexpressions
repeat one evaluated earlier in the same expression, so that the first is written `(v1_ := ...)`
and the later ones `v1_`. Nothing is written while an expression is evaluated, so a repeat gives
the same value, provided that it is pure and that the first was surely evaluated before it:

- Worth reusing: a call of a spec function, of a component's expression field, a test or a count
  of a lasting effect (`active`, `count active`), a builtin the table marks `reuse`, a list
  comprehension, quantifier or aggregate. Never a call that draws on the random state (`roll`,
  `random`), nor anything holding one: two rolls are two rolls. (Functions, fields and conditions
  cannot call those: check.py's `misplaced-chance`.)
- Surely evaluated: Python evaluates left to right; the right side of `and`/`or`, the branches of
  `if-then-else` and the body of a comprehension run only sometimes, so what they compute is not
  reused after them (a body's values are reused inside the same pass of the body only; in
  `a or b or c`, `c` runs only after `b`, so it reuses what `b` computed). A guarded
  call is therefore never moved out of its guard: the first evaluation stays where it was, and
  only its repeats, which ran after it before, read the value.
- A comprehension's variable may shadow one of the same name around it: a value computed from
  the outer variable is not reused inside.
- Python forbids `:=` in a comprehension's iterable, so nothing there is bound for reuse (a value
  bound before it may still be read there). An expression whose value is a list may be iterated
  by the code around it (a label joins its items): `unbound` lowers those without bindings.

Loop-invariant calls. Where the code around an expression can run lines before it (a function's
`return`, a `let` or an assignment: `hoisting=True`), a call worth reusing inside a comprehension
that reads none of the comprehension's variables is computed once, not in every pass:

- before the statement (`v1_ = f(s)`), when that cannot change what happens: the call cannot fail
  (`never_fails`: no division by a value that may be zero, no index that may be out of range, no
  `none` where a component is needed, no recursion, no builtin that may raise), and the loop is a
  comprehension the statement surely evaluates, or one in the body of such a comprehension. It
  then runs at most once more than before (when the loop makes no pass), and never where a guard
  of the statement itself skipped it;
- else lazily, where it was first evaluated before, in its guard: `v1_` is set to None before the
  statement, and each pass reads `(v1_ if v1_ is not None else (v1_ := f(s)))`. The call runs
  when and where it ran first before, so it fails as it did; later passes read its value (no
  value of the rules is None: `none` is -1).

Bindings are local variables of the generated function the expression is in (`v1_`, `v2_`, ...,
numbered per function), so a rule error still names that function's rule.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass

from compiler import ir
from compiler.builtins import BUILTINS
from compiler.lower.context import Context, Hoisted, Plan

Key = Hashable


@dataclass(frozen=True, slots=True)
class _Seen:
    """A value evaluated earlier: the node that computed it, and the comprehension variables it reads."""

    node: int
    free: frozenset[str]


def plan(cx: Context, e: ir.Expr, binding: bool = True, hoisting: bool = False) -> Plan:
    """The plan for `e`, lowered from the top (`binding=False`: it may be a comprehension's
    iterable; `hoisting=True`: lines may run before it)."""
    walk = _Walk(cx, hoisting)
    walk.visit(e, {}, binding)
    return walk.plan


_COMPREHENSIONS = (ir.ListComp, ir.Quantifier, ir.Aggregate)
_PLACES = re.compile(r"\{(\w*)\}")


def _in_order(template: str, arity: int) -> bool:
    """A builtin's Python evaluates each argument once, in order: `{args}`, or `{0}`, `{1}`, ...
    (a component type's constant, `{type0}`, is no argument's code)."""
    places = [p for p in _PLACES.findall(template) if p != "type0"]
    return bool(template) and (places == ["args"] or places == [str(i) for i in range(arity)])


class _Walk:
    """One pass over an expression in the order Python evaluates it."""

    def __init__(self, cx: Context, hoisting: bool) -> None:
        self.cx = cx
        self.plan = Plan()
        self.hoisting = hoisting
        self.sure = True  # the statement surely evaluates what is visited now
        self.body = False  # what is visited now is in a comprehension's body (and hoisting is on)
        self.loop = False  # ... of a comprehension the statement surely evaluates, or nested in one
        self.hoisted: dict[Key, Hoisted] = {}
        self.keys: dict[int, tuple[Key, frozenset[str]]] = {}
        self.pure: dict[int, bool] = {}

    def visit(self, e: ir.Expr, seen: dict[Key, _Seen], binding: bool) -> None:
        """Evaluate `e` after what `seen` holds; add to `seen` what `e` surely evaluates."""
        if not self._worth(e):
            self._children(e, seen, binding)
            return
        key, free = self._key(e)
        earlier = seen.get(key)
        if earlier is not None:
            self.plan.use[id(e)] = self._temp(earlier.node)
            return
        hoisted = self.hoisted.get(key)
        if hoisted is None and self.body and not free:  # the same in every pass of the loop
            eager = self.loop and never_fails(self.cx, e)
            if eager or binding:  # a lazy one binds where it is first needed
                self.cx.reused += 1
                hoisted = self.hoisted[key] = Hoisted(f"v{self.cx.reused}_", e, not eager)
                self.plan.hoisted.append(hoisted)
        if hoisted is not None and (binding or not hoisted.lazy):
            (self.plan.lazy if hoisted.lazy else self.plan.use)[id(e)] = hoisted.temp
            return
        self._children(e, seen, binding)
        if binding:
            seen[key] = _Seen(id(e), free)

    def _temp(self, node: int) -> str:
        """The variable the value of `node` is bound to (a new one on its first reuse)."""
        temp = self.plan.bind.get(node)
        if temp is None:
            self.cx.reused += 1
            temp = self.plan.bind[node] = f"v{self.cx.reused}_"
        return temp

    def _children(self, e: ir.Expr, seen: dict[Key, _Seen], binding: bool) -> None:
        match e:
            case ir.BoolOp():
                self._sometimes(e.right, self._continuing(e.left, e.op, seen, binding), binding)
            case ir.CondExpr():
                self.visit(e.cond, seen, binding)
                self._sometimes(e.then, seen, binding)
                self._sometimes(e.other, seen, binding)
            case ir.ListComp() | ir.Quantifier() | ir.Aggregate():
                self.visit(e.source, seen, False)  # Python allows no `:=` in the iterable
                if isinstance(e, ir.Quantifier) and e.kind == "count" and e.cond is None:
                    return  # `len(source)`: no body
                var = self.cx.ann.slots[id(e)]
                body = {k: v for k, v in seen.items() if var not in v.free}  # `var` shadows these
                sure, inside, loop = self.sure, self.body, self.loop
                self.sure, self.body, self.loop = False, self.hoisting, self.hoisting and (sure or loop)
                if e.cond is not None:  # the filter runs before the item, in each pass
                    self.visit(e.cond, body, binding)
                if not isinstance(e, ir.Quantifier):
                    self.visit(e.item, body, binding)
                self.sure, self.body, self.loop = sure, inside, loop
            case ir.Call() if e.func not in self.cx.sym.functions:
                if _in_order(self._template(e.func), len(e.args)):
                    for a in e.args:
                        self.visit(a, seen, binding)
                else:  # each on its own, binding nothing
                    for a in e.args:
                        self._sometimes(a, seen, False)
            case ir.StrLit():
                for p in e.parts:  # a label may iterate a part: nothing is bound there
                    if not isinstance(p, str):
                        self._sometimes(p, seen, False)
            case _:
                for child in _operands(e):
                    self.visit(child, seen, binding)

    def _sometimes(self, e: ir.Expr, seen: dict[Key, _Seen], binding: bool) -> dict[Key, _Seen]:
        """Visit `e`, which may not run: what it evaluates is not reused after it (only in the
        copy of `seen` returned, for what runs only after it)."""
        sure, self.sure = self.sure, False
        inside = dict(seen)
        self.visit(e, inside, binding)
        self.sure = sure
        return inside

    def _continuing(self, e: ir.Expr, op: str, seen: dict[Key, _Seen], binding: bool) -> dict[Key, _Seen]:
        """Visit `e`, the left side of an `op` (`and`, `or`); return what surely ran when the right
        side runs: in `a or b or c`, `c` runs only once `a` and `b` were false, so after both."""
        if isinstance(e, ir.BoolOp) and e.op == op:
            return self._sometimes(e.right, self._continuing(e.left, op, seen, binding), binding)
        self.visit(e, seen, binding)
        return dict(seen)

    def _template(self, func: str) -> str:
        """How expressions.py writes a call of builtin `func` in this game ("" if no builtin)."""
        builtin = BUILTINS.get(func)
        if builtin is None:
            return ""
        if builtin.python_two_players is not None and self.cx.two_players:
            return builtin.python_two_players
        return builtin.python

    def _worth(self, e: ir.Expr) -> bool:
        if self.cx.ann.type_of(e).kind == "zone":
            return False  # a zone value is lowered as its instance or as its contents, by where it stands
        match e:
            case ir.Call() if e.func in self.cx.sym.functions:
                return self._pure(e)
            case ir.Call():
                builtin = BUILTINS.get(e.func)
                return builtin is not None and builtin.reuse and self._pure(e)
            case (
                ir.MethodCall()
                | ir.Active()
                | ir.CountActive()
                | ir.ListComp()
                | ir.Quantifier()
                | ir.Aggregate()
            ):
                return self._pure(e)
        return False

    def _pure(self, e: ir.Expr) -> bool:
        """`e` draws nothing from the random state (the calls it makes cannot: misplaced-chance)."""
        known = self.pure.get(id(e))
        if known is None:
            builtin = BUILTINS.get(e.func) if isinstance(e, ir.Call) else None
            chance = isinstance(e, ir.Call) and e.func not in self.cx.sym.functions
            chance = chance and (builtin is None or builtin.chance)
            known = self.pure[id(e)] = not chance and all(self._pure(c) for c in _operands(e))
        return known

    def _key(self, e: ir.Expr) -> tuple[Key, frozenset[str]]:
        """What `e` computes, the same for every expression that computes the same (spans aside,
        names by what they are bound to), and the comprehension variables it reads."""
        known = self.keys.get(id(e))
        if known is not None:
            return known
        parts: list[Key] = [type(e).__name__]
        free: set[str] = set()
        if isinstance(e, ir.Name):
            b = self.cx.ann.names[id(e)]
            parts += [b.kind, b.target]
            if b.kind == "comp":
                free.add(b.target)
        for f in ir.field_kinds(type(e)):
            if f.name == "span" or isinstance(e, ir.Name):
                continue
            value = getattr(e, f.name)
            items = value if isinstance(value, tuple) else (value,)
            for v in items:
                if isinstance(v, ir.Expr):
                    k, inner = self._key(v)
                    if isinstance(e, _COMPREHENSIONS) and f.name != "source":
                        inner = inner - {self.cx.ann.slots[id(e)]}
                    parts.append((f.name, k))
                    free |= inner
                else:
                    parts.append((f.name, v))
        if isinstance(e, _COMPREHENSIONS):
            parts.append(("var", self.cx.ann.slots[id(e)]))
        out = (tuple(parts), frozenset(free))
        self.keys[id(e)] = out
        return out


def _operands(e: ir.Expr) -> list[ir.Expr]:
    """The subexpressions of `e`, in the order Python evaluates them."""
    match e:
        case ir.IntLit() | ir.BoolLit() | ir.NoneLit() | ir.Name():
            return []
        case ir.StrLit():
            return [p for p in e.parts if not isinstance(p, str)]
        case ir.Field():
            return [e.subject]
        case ir.MethodCall() | ir.Index():
            return [e.subject, *e.args]
        case ir.Call() | ir.Active() | ir.CountActive():
            return list(e.args)
        case ir.ListLit():
            return list(e.items)
        case ir.ListComp() | ir.Aggregate():
            return [e.source, *([e.cond] if e.cond is not None else []), e.item]
        case ir.Quantifier():
            return [e.source, *([e.cond] if e.cond is not None else [])]
        case ir.BinOp() | ir.Compare() | ir.BoolOp():
            return [e.left, e.right]
        case ir.Not() | ir.Neg():
            return [e.operand]
        case ir.CondExpr():
            return [e.cond, e.then, e.other]
        case ir.Choose() | ir.ChooseNumber() | ir.Ask():
            return []
    return []


# builtins that raise nothing for arguments of their types (top and top_n may need `none` as a
# zone's owner; min and max of one list may have an empty list; opponent needs two players)
# (the seat builtins raise on `none`)
_NEVER_FAIL_BUILTINS = frozenset({"len", "abs", "range", "cell_of", "neighbors", "adjacent"})


def never_fails(cx: Context, e: ir.Expr) -> bool:
    """`e` raises nothing in any state: run where it would not have run, it changes nothing seen."""
    match e:
        case ir.IntLit() | ir.BoolLit() | ir.NoneLit() | ir.Name():
            return True
        case ir.StrLit():
            return False  # a label may index a table by any value
        case ir.Field():  # a component column has an entry for `none`
            return _in_range(cx, e.subject) and never_fails(cx, e.subject)
        case ir.Index():
            b = cx.ann.names.get(id(e.subject))
            if b is None or b.kind != "state":
                return False  # a list's item, a zone of an owner that may be `none`
            return all(_in_range(cx, i) and never_fails(cx, i) for i in e.args)
        case ir.Call() if e.func in cx.sym.functions:
            return function_never_fails(cx, e.func) and all(never_fails(cx, a) for a in e.args)
        case ir.Call():
            builtin = e.func in _NEVER_FAIL_BUILTINS or (e.func == "opponent" and cx.two_players)
            builtin = builtin or (e.func in ("min", "max") and len(e.args) > 1)
            return builtin and all(never_fails(cx, a) for a in e.args)
        case ir.MethodCall():
            t = cx.ann.type_of(e.subject)
            return _field_never_fails(cx, t.name, e.name) and all(
                never_fails(cx, a) for a in (e.subject, *e.args)
            )
        case ir.BinOp() if e.op in ("//", "%"):
            divisor = isinstance(e.right, ir.IntLit) and e.right.value != 0
            return divisor and never_fails(cx, e.left)
        case ir.Choose() | ir.ChooseNumber() | ir.Ask():
            return False
    return all(never_fails(cx, c) for c in _operands(e))


def _in_range(cx: Context, index: ir.Expr) -> bool:
    """An index of a state variable or a column within its size, or `none` (which reads the last
    entry): a component or enum value, or a player named by the spec (a player value may be out of
    range: `opponent(none)` is 2, and a variable may hold it)."""
    t = cx.ann.type_of(index)
    if t.kind == "entity" and t.name == "player":
        b = cx.ann.names.get(id(index)) if isinstance(index, ir.Name) else None
        return b is not None and b.kind == "player"
    return t.kind in ("entity", "enum")


# how deep `never_fails` follows calls into functions' bodies: a longer chain of calls is taken to
# fail (nothing is moved or written out for it), and the compiler's own stack stays shallow
MAX_CALL_CHAIN = 40


def function_never_fails(cx: Context, name: str) -> bool:
    known = cx.never_fails.get(name)
    if known is None:
        if cx.call_chain >= MAX_CALL_CHAIN:
            return False  # (not kept: from a shallower call it may be known)
        cx.never_fails[name] = False  # a call of itself may recurse without end
        body = cx.sym.functions[name].body.expr
        cx.call_chain += 1
        try:
            known = cx.never_fails[name] = body is not None and never_fails(cx, body)
        finally:
            cx.call_chain -= 1
    return known


def _field_never_fails(cx: Context, tname: str, fname: str) -> bool:
    """Every component's code for expression field `fname` never fails (a missing one reads a default)."""
    key = f"{tname}.{fname}"
    known = cx.never_fails.get(key)
    if known is None:
        cx.never_fails[key] = False
        info = cx.sym.entity_types.get(tname)
        codes = [dict(ent.code).get(fname) for ent in info.decl.entities] if info is not None else [None]
        known = info is not None and all(
            c is None or (c.expr is not None and never_fails(cx, c.expr)) for c in codes
        )
        cx.never_fails[key] = known
    return known
