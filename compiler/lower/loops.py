"""Loops: the comprehensions a statement evaluates, computed by Python loops in lines before it.

In CPython a generator costs a frame and a resumption per element, and a comprehension a call:
`any(True for y in ns if t)` takes about three times as long as a `for` loop that breaks, a `sum`
or a count over a generator about 1.4 times, and a list comprehension of a few items about 1.6
times a loop that appends them (CPython 3.11 makes a function and calls it: some 2,600 machine
instructions; the loop pays some 40 more per item kept, so it costs more only past about 60
items). So where lines may run before a statement (a
function's `return`, a `let`, an assignment, an `if`'s test, a decision's options), each list comprehension,
quantifier (`any`, `all`, `count`, `filter`) and `sum` that the statement surely evaluates is
computed by a loop into a variable, and the expression reads the variable (`Plan.use`):

    v_tokens = s.v_tokens                    # filter(x in board where tokens[x, p] > 0 or
    q1_: list[int] = []                      #        any(n in neighbors(x) where tokens[n, p] > 0))
    for c_x in s.z.piles[Z_board]:
        q2_ = v_tokens[c_x][l_p] > 0
        if not q2_:
            q3_ = False
            for c_n in s.neighbors(T_card, c_x):
                if v_tokens[c_n][l_p] > 0:
                    q3_ = True
                    break
            q2_ = q3_
        if q2_:
            q1_.append(c_x)
    return q1_

A state variable that a loop's body reads is read once, into a local, before the loops, and so
is a slot of the frame in a frame's step (`l_left = self.l_left`): an expression writes nothing,
so it is the same object all along, and a local costs less to read than an attribute. (The same loops compiled natively are C loops, where a generator
would be an object with a method per element.)

What runs, and in what order, is what the expression ran: Python evaluates left to right, so the
operands of an arithmetic operator or a comparison are computed in order, each into a variable
up to the last that holds a loop; the right side of `and`/`or` and the branches of `if-then-else`
run under an `if`, as they ran only sometimes; a comprehension's body is the loop's body; an
`any`/`all` stops at the element that decides. Each test is the same truth test. A value the
expression reuses (reuse.py) is bound where it was, or read; one computed lazily is left as it was.

Not looped, left to Python's own comprehension: one whose variable has the name of a loop around
it (a comprehension may shadow a variable; a loop may not), or of a loop variable of another
type earlier in the function (the generated code is type-checked), and anything inside a
comprehension's iterable, a `min`/`max`, or a builtin's arguments.
"""

from __future__ import annotations

from compiler import ir
from compiler.lower import reuse
from compiler.lower.context import Context
from compiler.lower.expressions import (
    comp_var,
    expr,
    iterable,
    named_zone,
    negation,
    option_id,
    python_type,
    where_reads,
)
from compiler.lower.inline import inlinable, take_marks, wrapped

_LOOPED = (ir.ListComp, ir.Quantifier, ir.Aggregate)


def hoisting(cx: Context, e: ir.Expr, body: bool = False) -> tuple[list[str], str]:
    """Python for `e`, and the lines to run right before the statement it is in: the calls it
    would repeat in every pass of a comprehension, computed there once, or the variables of those
    it computes once lazily (reuse.py); then its comprehensions, as loops. When `e` is the whole
    body of a function (`body`), first the zones of the components in its parameters that it
    tests more than once (expressions.where_reads)."""
    plan = reuse.plan(cx, e, binding=True, hoisting=True)
    plan.where = where_reads(cx, e) if body else {}
    cx.plan = plan
    hoisted = plan.hoisted
    cx.inline_marks = {}
    try:
        loops = _Loops(cx)
        loops.lines_for(e)
        code = expr(cx, e)
        marks = take_marks(cx)  # (of the statement itself: right above it)
    finally:
        cx.plan = None
        cx.state_locals = cx.slot_locals = None
        cx.inline_marks = None
    before = [
        f"{h.temp}: {python_type(cx.ann.type_of(h.node))} | None = None"
        if h.lazy
        else f"{h.temp} = {expr(cx, h.node)}"
        for h in hoisted
    ]
    reads = [f"v_{name} = s.v_{name}" for name in loops.reads]  # (what the loops read, once)
    reads += [f"l_{slot} = self.l_{slot}" for slot in loops.slots]
    zones = [
        f"{temp} = s.z.where[{kind}][{element}] if {element} >= 0 else -1"
        for (kind, element), temp in plan.where.items()
    ]
    return zones + before + reads + loops.lines + marks, code


def negated(code: str) -> str:
    """`not code` for the Python of a test that `hoisting` wrote (bracketed unless it is already)."""
    return f"not {code}" if code.isidentifier() or wrapped(code) else f"not ({code})"


class _Loops:
    """The lines that compute one statement's comprehensions, in the order it evaluates them."""

    def __init__(self, cx: Context) -> None:
        self.cx = cx
        self.lines: list[str] = []
        self.depth = 0  # indentation of the next line, in levels
        self.around: list[str] = []  # the loop variables of the loops being written
        self.reads: dict[str, None] = {}  # the state variables read in loop bodies, in order
        self.slots: dict[str, None] = {}  # and the frame's slots (a frame's locals), in order

    def emit(self, line: str) -> None:
        """Write `line`, with the markers of the functions its Python wrote out (inline.py) above it."""
        pad = "    " * self.depth
        self.lines.extend(pad + mark for mark in take_marks(self.cx))
        self.lines.append(pad + line)

    def temp(self) -> str:
        self.cx.looped += 1
        return f"q{self.cx.looped}_"

    def lines_for(self, e: ir.Expr) -> None:
        """Write the loops of `e` (where it is evaluated) and make `e`'s Python read them."""
        plan = self.cx.plan
        assert plan is not None
        if id(e) in plan.use or id(e) in plan.lazy or not self._loops_inside(e):
            return
        match e:
            case ir.ListComp() | ir.Quantifier() | ir.Aggregate():
                self._loop(e)
            case ir.BoolOp():
                self._short_circuit(e)
            case ir.CondExpr():
                self._branches(e)
            case ir.Not() | ir.Neg():
                self.lines_for(e.operand)
            case ir.BinOp() | ir.Compare():
                self._in_order((e.left, e.right))
            case ir.Index():  # (the list, then the index: `filter(...)[0]`)
                self._in_order((e.subject, *e.args))
            case _:
                pass  # a call, a builtin: its arguments stay in it

    def _loops_inside(self, e: ir.Expr) -> bool:
        """Whether `e` holds, where this module looks, a comprehension it writes as a loop."""
        match e:
            case ir.ListComp() | ir.Quantifier() | ir.Aggregate():
                return self._loopable(e)
            case ir.BoolOp() | ir.BinOp() | ir.Compare():
                return self._loops_inside(e.left) or self._loops_inside(e.right)
            case ir.Not() | ir.Neg():
                return self._loops_inside(e.operand)
            case ir.Index():
                return any(self._loops_inside(x) for x in (e.subject, *e.args))
            case ir.CondExpr():
                return any(self._loops_inside(x) for x in (e.cond, e.then, e.other))
            case ir.Call():  # a function written out needs a statement of its own (inline.py)
                plan = self.cx.plan
                assert plan is not None
                computed = id(e) in plan.use or id(e) in plan.lazy  # (before the statement, or lazily)
                return not computed and e.func in self.cx.sym.functions and inlinable(self.cx, e.func)
            case _:
                return False

    def _loopable(self, e: ir.ListComp | ir.Quantifier | ir.Aggregate) -> bool:
        """A generator with a test (`any`, `all`, a count), a sum, a list comprehension and a filter
        are worth a loop (the module's doc says why); `min`/`max` are left to Python."""
        if isinstance(e, ir.Quantifier) and e.kind in ("any", "all", "count"):
            return e.cond is not None
        if isinstance(e, ir.Aggregate) and e.kind != "sum":
            return False
        return True

    def _result(self, e: ir.Expr, first: str | None) -> str:
        """The variable `e`'s value lands in (the one the plan binds it to, if any), set to `first`
        (None: only declared, for branches to set)."""
        plan = self.cx.plan
        assert plan is not None
        name = plan.bind.pop(id(e), None) or self.temp()
        plan.use[id(e)] = name
        if first is None or first == "[]":  # say the type of what the variable will hold
            value = "" if first is None else f" = {first}"
            self.emit(f"{name}: {python_type(self.cx.ann.type_of(e))}{value}")
        else:
            self.emit(f"{name} = {first}")
        return name

    def _in_order(self, operands: tuple[ir.Expr, ...]) -> None:
        """Strict operands, evaluated left to right: the loops of each, and, so that an operand
        before one with loops is still evaluated before those loops run, its value in a variable
        (unless it can neither fail nor bind a value: then when it runs changes nothing)."""
        plan = self.cx.plan
        assert plan is not None
        last = max((i for i, o in enumerate(operands) if self._loops_inside(o)), default=-1)
        for i, o in enumerate(operands[: last + 1]):
            self.lines_for(o)
            if i == last or id(o) in plan.use or self._movable(o):
                continue
            name = self.temp()
            self.emit(f"{name} = {expr(self.cx, o)}")
            plan.use[id(o)] = name

    def _movable(self, e: ir.Expr) -> bool:
        plan = self.cx.plan
        assert plan is not None
        return reuse.never_fails(self.cx, e) and not any(id(n) in plan.bind for n in ir.walk(e))

    def _short_circuit(self, e: ir.BoolOp) -> None:
        """`a and b`, `a or b`: `b`'s loops run only when `a` does not decide."""
        self.lines_for(e.left)
        if not self._loops_inside(e.right):
            return
        name = self._result(e, expr(self.cx, e.left))
        self.emit(f"if {name}:" if e.op == "and" else f"if not {name}:")
        self.depth += 1
        self.lines_for(e.right)
        self.emit(f"{name} = {expr(self.cx, e.right)}")
        self.depth -= 1

    def _branches(self, e: ir.CondExpr) -> None:
        self.lines_for(e.cond)
        if not (self._loops_inside(e.then) or self._loops_inside(e.other)):
            return
        name = self._result(e, None)
        cond = expr(self.cx, e.cond)
        for header, branch in ((f"if {cond}:", e.then), ("else:", e.other)):
            self.emit(header)
            self.depth += 1
            self.lines_for(branch)
            self.emit(f"{name} = {expr(self.cx, branch)}")
            self.depth -= 1

    def _loop(self, e: ir.ListComp | ir.Quantifier | ir.Aggregate) -> None:
        cx = self.cx
        var = comp_var(cx, e)
        elem = python_type(cx.ann.type_of(e.source).elem or cx.ann.type_of(e.source))
        if not self._loopable(e) or var in self.around or cx.loop_vars.setdefault(var, elem) != elem:
            return  # left to a comprehension (the module's doc says why)
        kind = "list" if isinstance(e, ir.ListComp) else e.kind
        first = {"list": "[]", "filter": "[]", "any": "False", "all": "True", "count": "0", "sum": "0"}[kind]
        name = self._result(e, first)
        source = iterable(cx, e.source)
        kind_const = cx.by_zone.get(id(e))
        if kind_const is not None:  # one component of each zone in use, by_zone says why
            zones = self.temp()
            self.emit(f"{zones} = s.z.where[{kind_const}]")
            source = f"sorted(map({zones}.index, set({zones})))"
        if wrapped(source):  # (a function written out: `for x in (a if c else b):` needs no brackets)
            source = source[1:-1]
        self.emit(f"for {var} in {source}:")
        self.depth += 1
        self.around.append(var)
        outer, outer_slots = cx.state_locals, cx.slot_locals
        cx.state_locals, cx.slot_locals = self.reads, self.slots
        cond = e.cond
        if kind == "all" and cond is not None:
            self.lines_for(cond)
            self.emit(f"if {negation(cx, cond)}:")
            self.emit(f"    {name} = False")
            self.emit("    break")
        else:
            if cond is not None:
                self.lines_for(cond)
                self.emit(f"if {expr(cx, cond)}:")
                self.depth += 1
            if kind == "any":
                self.emit(f"{name} = True")
                self.emit("break")
            elif kind == "count":
                self.emit(f"{name} += 1")
            elif kind == "filter":
                assert isinstance(e, ir.Quantifier)
                self.emit(f"{name}.append({option_id(cx, e, var)})")
            else:
                assert isinstance(e, (ir.ListComp, ir.Aggregate))
                self.lines_for(e.item)
                item = expr(cx, e.item)
                if isinstance(e, ir.ListComp):
                    self.emit(f"{name}.append({option_id(cx, e, item)})")
                else:
                    self.emit(f"{name} += {item}")
            if cond is not None:
                self.depth -= 1
        cx.state_locals, cx.slot_locals = outer, outer_slots
        self.around.pop()
        self.depth -= 1


def by_zone(cx: Context, e: ir.Expr) -> str | None:
    """The type's constant when `e`, an invariant, is `all`/`any` over every component of a type
    with a test that reads the component only as `x in Z` (Z a zone named directly) or passes it
    to functions that do the same: then the test of a component is that of any other in the same
    zone, and the loop tests only the first component of each zone in use (where-index order).
    The component that decides is the same: the first of its zone, as all before it passed. So
    `all(x in T where zones_of(x) == 1)`, `zones_of` adding up `x in Z` tests, evaluates its
    test once per zone in use, not once per component."""
    if not isinstance(e, ir.Quantifier) or e.kind not in ("any", "all") or e.cond is None:
        return None
    b = cx.ann.names.get(id(e.source)) if isinstance(e.source, ir.Name) else None
    if b is None or b.kind != "all" or not _zone_only(cx, e.cond, e.var, 0):
        return None
    return cx.names.claim("type", b.target)


def _zone_only(cx: Context, e: ir.Expr, var: str, depth: int) -> bool:
    """Whether `e` reads the local `var` (a component) only as `var in Z`/`var not in Z`, Z a zone
    named directly, or as the argument of a function whose body does the same (at most 8 deep)."""
    used: set[int] = set()  # the names of `var` seen where they are allowed
    for node in ir.walk(e):
        if isinstance(node, ir.ListComp | ir.Quantifier | ir.Aggregate) and node.var == var:
            return False  # (shadowed: another component)
        if isinstance(node, ir.Compare) and node.op in ("in", "not in") and _is(cx, node.left, var):
            t = cx.ann.type_of(node.right)
            if (
                t.kind == "zone"
                and t.elem is not None
                and t.elem.kind == "entity"
                and named_zone(cx, node.right)
            ):
                used.add(id(node.left))
        elif isinstance(node, ir.Call) and node.func in cx.sym.functions:
            f = cx.sym.functions[node.func]
            body = f.body.expr
            for p, a in zip(f.params, node.args, strict=False):
                if _is(cx, a, var):
                    if depth >= 8 or body is None or not _zone_only(cx, body, p.name, depth + 1):
                        return False
                    used.add(id(a))
        elif isinstance(node, ir.Name) and id(node) not in used and _is(cx, node, var):
            return False
    return True


def _is(cx: Context, e: object, var: str) -> bool:
    b = cx.ann.names.get(id(e)) if isinstance(e, ir.Name) else None
    return b is not None and b.kind in ("local", "comp") and b.target == var
