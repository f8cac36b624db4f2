"""Code units: each function, procedure, component code field, trigger, phase body, the setup,
the invariants and the evaluation -> plain functions, or frame classes for code that may stop.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field

from compiler import ir
from compiler.codewriter import CodeWriter
from compiler.layout import py_literal
from compiler.lower import caching, emptiness, frames, statements
from compiler.lower.context import Context
from compiler.lower.expressions import Unsupported, has_call, python_type, value_type
from compiler.lower.frames import Blocks, default_value
from compiler.lower.loops import by_zone, hoisting, negated
from compiler.resolve import trigger_params
from compiler.typesys import BOOL, PLAYER
from compiler.viewmodel import (
    DispatchTable,
    FrameClass,
    Function,
    Invariant,
    InvariantRead,
    Param,
    Results,
    Slot,
)


def origin(what: str, span: ir.Span) -> str:
    return f"{what} ({span.file}:{span.line})"


@dataclass
class Units:
    """What lowering the rules produces: functions, frame classes and dispatch tables, in order."""

    functions: list[Function] = field(default_factory=list)
    frames: list[FrameClass] = field(default_factory=list)
    tables: list[DispatchTable] = field(default_factory=list)


def params(cx: Context, ps: tuple[ir.Param, ...]) -> tuple[Param, ...]:
    return tuple(Param(f"l_{p.name}", python_type(cx.param_type(p))) for p in ps)


def expression_function(
    cx: Context,
    name: str,
    what: str,
    code: ir.Code,
    ps: tuple[Param, ...],
    returns: str,
    mark: list[str],
    span: ir.Span | None = None,
) -> Function:
    """A function returning one expression (a spec function, a condition, a check); `span` is
    where its origin comment points (default: the expression)."""
    if code.expr is None:
        raise Unsupported(f"{what} has no expression")
    cx.begin_function("")
    where = origin(what, span or code.span)
    before, value = hoisting(cx, code.expr, body=True)
    return Function(name, where, ps, returns, (*mark, *before, f"return {value}"))


def code_unit(
    cx: Context,
    out: Units,
    frame_name: str,
    function_name: str,
    what: str,
    code: ir.Code,
    ps: tuple[Param, ...],
    stops: bool,
    mark: list[str],
    returns: str = "None",
) -> None:
    """Statements as a frame class (if they may stop) or a plain function; `mark` opens them;
    `returns`: the plain function's return type (a procedure's with `returns:`)."""
    if not stops:
        cx.begin_function("")
        w = CodeWriter()
        for m in mark:
            w.line(m)
        statements.body(cx, code.body, w, in_frame=False)
        lines = w.lines()
        if all(ln.lstrip().startswith("#") for ln in lines):
            lines.append("pass")
        out.functions.append(Function(function_name, what, ps, returns, tuple(lines)))
        return
    cx.begin_function("self.")
    b = Blocks()
    for m in mark:
        b.line(m)
    frames.body(cx, b, code.body)
    b.line("s.stack.pop()")
    b.ret()
    types = cx.ann.locals.get(id(code), {})
    slots = [
        Slot(p.name, p.type, value_type(types[p.name[2:]]) if p.name[2:] in types else p.type, None, True)
        for p in ps
    ]
    given = {p.name for p in ps}
    for local, t in types.items():
        if f"l_{local}" not in given:
            slots.append(Slot(f"l_{local}", python_type(t), value_type(t), default_value(t)))
    step = b.step()
    out.frames.append(FrameClass(frame_name, what, ps, (*slots, *b.slots), step.blocks, step.body))


def lower_units(cx: Context) -> Units:
    """Every rule of the game but the flow of phases (flow.py), in the order of the spec."""
    out = Units()
    first = len(cx.coverage)  # each function is one coverage point, in order (inline.py names them)
    cx.function_points = {f.name: first + i for i, f in enumerate(cx.sym.game.functions)}
    for f in cx.sym.game.functions:
        _function(cx, out, f)
    for pr in cx.sym.game.procedures:
        code_unit(
            cx,
            out,
            cx.names.claim("procedure_frame", pr.name),
            cx.names.claim("procedure", pr.name),
            origin(f"procedure {pr.name}", pr.span),
            pr.body,
            params(cx, pr.params),
            cx.stops.procedures[pr.name],
            cx.cover("procedure", f"procedure {pr.name}", pr.span),
            _returns(cx, pr),
        )
    for tname, info in cx.sym.entity_types.items():
        for fname, fd in info.code_fields.items():
            if fd.kind == "effect":
                _effect_field(cx, out, tname, fname, fd)
            else:
                _expression_field(cx, out, tname, fname, fd)
    for tr in cx.sym.game.triggers:
        _trigger(cx, out, tr)
    _zone_watches(cx, out)
    _setup_and_phases(cx, out)
    return out


def _returns(cx: Context, pr: ir.ProcedureDecl) -> str:
    """The Python return type of a procedure's plain function: None, or its `returns:` type's."""
    if pr.returns is None:
        return "None"
    return python_type(cx.sym.type_named(pr.returns.text) or PLAYER)


def _function(cx: Context, out: Units, f: ir.FunctionDecl) -> None:
    """A spec function; a cached one looks its value up first (the coverage marker stays its
    first line, so rule coverage counts every call, kept value or not)."""
    returns = python_type(cx.sym.type_named(f.returns.text) or PLAYER)
    what, name = f"function {f.name}", cx.names.claim("function", f.name)
    mark = cx.cover("function", what, f.span)
    assert not mark or mark == [f"# cov {cx.function_points[f.name]}"], "functions' points out of order"
    ps = params(cx, f.params)
    if f.name not in cx.reads.cached or f.body.expr is None:
        out.functions.append(expression_function(cx, name, what, f.body, ps, returns, mark, f.span))
        return
    cx.begin_function("")
    before, value = hoisting(cx, f.body.expr, body=True)
    body = caching.lookup(cx, f.name, ps, returns, before, value)
    out.functions.append(Function(name, origin(what, f.span), ps, returns, (*mark, *body)))


def has_functions(cx: Context, out: Units) -> None:
    """`has_<function>` for each function whose emptiness some code tests (emptiness.py), and for
    those the tests call in turn."""
    done = 0
    while done < len(cx.emptiness):
        f = cx.sym.functions[cx.emptiness[done]]
        done += 1
        cx.begin_function("")
        w = CodeWriter()
        w.line(f"# cov {cx.function_points[f.name]} ({f.name})")  # (a test counts the function)
        ps = params(cx, f.params)
        if f.name in cx.reads.cached:
            w.line(f"kept_ = s.caches[{caching.cache_constant(cx, f.name)}].get({caching.cache_key(ps)})")
            with w.block("if kept_ is not None:"):
                w.line("return len(kept_) > 0")
        assert f.body.expr is not None  # (emptiness.eligible)
        if not _found(cx, w, f.body.expr):
            w.line("return False")
        lines = w.lines()
        if (
            len(lines) >= 3
            and lines[-3].startswith("if ")
            and lines[-2:] == ["    return True", "return False"]
        ):
            lines[-3:] = [f"return {lines[-3][3:-1]}"]  # (`if x: return True` / `return False`: `return x`)
        what = f"function {f.name}"
        name = cx.names.claim("nonempty", f.name)
        out.functions.append(Function(name, origin(what, f.span), ps, "bool", tuple(lines)))


def _found(cx: Context, w: CodeWriter, e: ir.Expr) -> bool:
    """Write what returns True as soon as list `e` has an item; whether it always returns."""
    match e:
        case ir.ListLit():
            if e.items:
                w.line("return True")
            return bool(e.items)
        case ir.Quantifier(kind="filter") | ir.ListComp() if e.cond is not None:
            found = ir.Quantifier("any", e.var, e.source, e.cond, e.span)  # written as a loop that breaks
            cx.made.append(found)
            cx.ann.types[id(found)] = BOOL
            cx.ann.slots[id(found)] = cx.ann.slots[id(e)]
            _true_if(w, *hoisting(cx, found))
            return False
        case ir.Quantifier(kind="filter") | ir.ListComp():  # (every item of its source)
            before, source = hoisting(cx, e.source)
            _true_if(w, before, f"len({source}) > 0")
            return False
        case ir.BinOp(op="+") if cx.ann.type_of(e).kind == "list":
            return _found(cx, w, e.left) or _found(cx, w, e.right)
        case ir.CondExpr():
            before, test = hoisting(cx, e.cond)
            for line in before:
                w.line(line)
            if _empty(e.then):  # `if c then [] else xs`
                with w.block(f"if {negated(test)}:"):
                    _found(cx, w, e.other)
                return False
            with w.block(f"if {test}:"):
                then = _found(cx, w, e.then)
            if _empty(e.other):  # `if c then xs else []`
                return False
            with w.block("else:"):
                other = _found(cx, w, e.other)
            return then and other
        case _:
            call = emptiness.calls_tested(cx, e)
            if call is not None:
                _true_if(w, [], has_call(cx, call, True))
            else:
                before, code = hoisting(cx, e)
                _true_if(w, before, f"len({code}) > 0")
            return False


def _empty(e: ir.Expr) -> bool:
    return isinstance(e, ir.ListLit) and not e.items


def _true_if(w: CodeWriter, before: list[str], test: str) -> None:
    """The lines `before`, then `if test: return True`."""
    for line in before:
        w.line(line)
    with w.block(f"if {test}:"):
        w.line("return True")


def _trigger(cx: Context, out: Units, tr: ir.TriggerDecl) -> None:
    """A trigger's condition (when it has one) and its body; both take the event's parameters."""
    ps = params(cx, trigger_params(cx.sym, tr))
    if tr.condition is not None and tr.condition.expr is not None:
        name = cx.names.claim("trigger_condition", tr.name)
        what = f"trigger {tr.name}: if"
        out.functions.append(expression_function(cx, name, what, tr.condition, ps, "bool", [], tr.span))
    code_unit(
        cx,
        out,
        cx.names.claim("trigger_frame", tr.name),
        cx.names.claim("trigger", tr.name),
        origin(f"trigger {tr.name}", tr.span),
        tr.body,
        ps,
        cx.stops.triggers[tr.name],
        cx.cover("trigger", f"trigger {tr.name}", tr.span),
    )


def _zone_watches(cx: Context, out: Units) -> None:
    """For each component type with a watched zone, the function a move calls after each of its
    components moves (`item_` from instance `left_` to `entered_`, -1 for none, never the same):
    the triggers on leaving the instance's zone, then those on entering, in spec order."""
    by_type: dict[str, list[ir.TriggerDecl]] = {}
    for tr in cx.sym.game.triggers:
        z = cx.sym.zones.get(tr.watch.zone) if tr.watch is not None else None
        if z is not None:
            by_type.setdefault(z[0].of.text, []).append(tr)
    for type_name, triggers in by_type.items():
        # the move is not over: the cached functions reading these zones forget first, so the
        # triggers read the component where it now is
        body: list[str] = caching.forget(cx, ("zones", type_name))
        ordered = [t for t in triggers if t.watch and t.watch.verb == "leaves"]
        ordered += [t for t in triggers if t.watch and t.watch.verb == "enters"]
        for tr in ordered:
            assert tr.watch is not None
            zone = tr.watch.zone
            per = cx.sym.zone_per.get(zone, ())
            sizes = [cx.sym.index_size(u) for u in per]
            first, instance = (
                cx.names.claim("zone", zone),
                "left_" if tr.watch.verb == "leaves" else "entered_",
            )
            count = math.prod(sizes)
            body.append(
                f"if {instance} == {first}:"
                if count == 1
                else f"if {first} <= {instance} < {first} + {count}:"
            )
            indices = [f"i{n}_" for n in range(len(per))]
            if len(per) == 1:
                body.append(f"    i0_ = {instance} - {first}")
            elif len(per) == 2:
                body.append(f"    i0_, i1_ = divmod({instance} - {first}, {sizes[1]})")
            args = "".join(f", {a}" for a in ("item_", *indices))
            run = f"{cx.names.claim('trigger', tr.name)}(s{args})"
            if tr.condition is not None and tr.condition.expr is not None:
                body.append(f"    if {cx.names.claim('trigger_condition', tr.name)}(s{args}):")
                body.append(f"        {run}")
            else:
                body.append(f"    {run}")
        ps = (Param("item_", "int"), Param("left_", "int"), Param("entered_", "int"))
        name = cx.names.claim("zone_watch", type_name)
        where = origin(f"the triggers on zones of {type_name}", triggers[0].span)  # the first of them
        out.functions.append(Function(name, where, ps, "None", tuple(body)))


def _setup_and_phases(cx: Context, out: Units) -> None:
    """The setup and each phase body (the flow calls them, or pushes those that may stop)."""
    setup = cx.sym.game.setup
    if setup is not None:
        stops = cx.stops.body(setup.body, cx.ann)
        mark = cx.cover("setup", "setup", setup.span)
        code_unit(cx, out, "Setup", "setup", origin("setup", setup.span), setup, (), stops, mark)
    for ph in cx.sym.phases.values():
        if ph.body is not None:
            code_unit(
                cx,
                out,
                cx.names.claim("phase_frame", ph.name),
                cx.names.claim("phase_body", ph.name),
                origin(f"phase {ph.name}", ph.span),
                ph.body,
                (),
                cx.stops.body(ph.body.body, cx.ann),
                [],
            )


def rule_checks(cx: Context, out: Units) -> tuple[list[Invariant], str | None]:
    """The invariants' functions and the evaluation's (not rules: no coverage points)."""
    g, invariants = cx.sym.game, []
    for inv in g.invariants:
        name = cx.names.claim("invariant", inv.name)
        what = f"invariant {inv.name}"
        kind = by_zone(cx, inv.expr.expr) if inv.expr.expr is not None else None
        if kind is not None:
            cx.by_zone[id(inv.expr.expr)] = kind
        out.functions.append(expression_function(cx, name, what, inv.expr, (), "bool", [], inv.span))
        check = " ".join(inv.expr.text.split())
        invariants.append(Invariant(inv.name, inv.why, name, check, global_reads(cx, inv.expr)))
    evaluate = None
    if g.evaluation is not None and g.evaluation.expr is not None:
        # for agents only, not a rule: no coverage point, so play coverage is unchanged
        out.functions.append(
            expression_function(cx, "evaluate", "evaluation", g.evaluation, (Param("l_p", "int"),), "int", [])
        )
        evaluate = "evaluate"
    return invariants, evaluate


def global_reads(cx: Context, code: ir.Code) -> tuple[InvariantRead, ...]:
    """The state variables, zones, options, constants and functions of no parameters that `code`
    names, in the order it first names them: what a failing invariant's report shows the values of."""
    found: dict[tuple[str, str], InvariantRead] = {}
    for node in ir.walk(code):
        match node:
            case ir.Name():
                b = cx.ann.names.get(id(node))
                if b is not None and b.kind in ("state", "zone", "option"):
                    found.setdefault((b.kind, b.target), InvariantRead(b.kind, b.target, None))
                elif b is not None and b.kind == "const":
                    literal = py_literal(cx.sym.constants[b.target][1])
                    found.setdefault((b.kind, b.target), InvariantRead(b.kind, b.target, literal))
            case ir.Call() if node.func in cx.sym.functions and not cx.sym.functions[node.func].params:
                found.setdefault(
                    ("function", node.func),
                    InvariantRead("function", node.func, cx.names.claim("function", node.func)),
                )
    return tuple(found.values())


def results_facts(cx: Context, out: Units) -> Results | None:
    """The spec's `results` (its returns as a function), or, for a game without them whose rules
    may end in a shared win of k of its n players, the range of today's returns: the losers get
    -k/(n-k) each, as low as -(n-1)."""
    g = cx.sym.game
    r = g.results
    if r is None:
        most = len(g.player_names)
        return Results(None, "zero_sum", 1 - most, 1, 0) if cx.shared_wins and most > 2 else None
    returns = None
    if r.returns is not None and r.returns.expr is not None:
        # read once, when the game is over; not a rule: no coverage point
        out.functions.append(
            expression_function(
                cx, "returns_of", "results.returns", r.returns, (Param("l_p", "int"),), "int", []
            )
        )
        returns = "returns_of"
    return Results(returns, r.kind, r.low, r.high, r.total)


def _written(cx: Context, tname: str, fname: str) -> Iterator[tuple[str, ir.Code | None, int]]:
    """Each row of the type, in order: its id, its code for field `fname` (None: none) and how
    many components it stands for (its copies share the code: one function, an entry each)."""
    for ent in cx.sym.entity_types[tname].decl.entities:
        yield ent.id, dict(ent.code).get(fname), ent.copies


def _effect_field(cx: Context, out: Units, tname: str, fname: str, fd: ir.FieldDecl) -> None:
    """Each component's effect: a plain function, or a frame class with a function that starts
    it. A table maps each component id (and `none`, last) to its function or None."""
    ps = (Param("l_self", "int"), *params(cx, fd.params))
    entries: list[str | None] = []
    for ent_id, code, copies in _written(cx, tname, fname):
        if code is None:
            entries += [None] * copies
            continue
        what = f"{tname} {ent_id}: {fname}"
        function = cx.names.claim("effect", tname, fname, ent_id)
        mark = cx.cover("effect", what, code.span)
        if not cx.stops.effect(tname, fname, ent_id):
            code_unit(cx, out, "", function, origin(what, code.span), code, ps, False, mark)
        else:
            frame = cx.names.claim("effect_frame", tname, fname, ent_id)
            code_unit(cx, out, frame, "", origin(what, code.span), code, ps, True, mark)
            args = ", ".join(p.name for p in ps)
            out.functions.append(
                Function(
                    function, origin(f"{what} (starts)", code.span), ps, "Frame", (f"return {frame}({args})",)
                )
            )
        entries += [function] * copies
    returns = "Frame | None" if cx.stops.effect_fields[(tname, fname)] else "None"
    out.tables.append(
        DispatchTable(
            cx.names.claim("effect_table", tname, fname),
            f"tuple[Callable[..., {returns}] | None, ...]",
            (*entries, None),
        )
    )


def _expression_field(cx: Context, out: Units, tname: str, fname: str, fd: ir.FieldDecl) -> None:
    """Each component's expression field; components without one (and `none`) read the default."""
    info = cx.sym.entity_types[tname]
    t = info.field_types[fname]
    ps = (Param("l_self", "int"), *params(cx, fd.params))
    returns = python_type(t)
    entries: list[str | None] = []
    for ent_id, code, copies in _written(cx, tname, fname):
        if code is None:
            entries += [None] * copies
            continue
        what = f"{tname} {ent_id}: {fname}"
        name = cx.names.claim("expression", tname, fname, ent_id)
        mark = cx.cover("expression", what, code.span)
        out.functions.append(expression_function(cx, name, what, code, ps, returns, mark))
        entries += [name] * copies
    default = cx.names.claim("expression_default", tname, fname, "default")
    what = f"default of {tname}.{fname}" if None in entries else f"{tname}.{fname} of none"
    out.functions.append(
        Function(default, origin(what, fd.span), ps, returns, (f"return {py_literal(default_value(t))}",))
    )
    signature = ", ".join(["State", *(p.type for p in ps)])
    out.tables.append(
        DispatchTable(
            cx.names.claim("expression_table", tname, fname),
            f"tuple[Callable[[{signature}], {returns}], ...]",
            (*(e or default for e in entries), default),
        )
    )
