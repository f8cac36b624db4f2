"""Order: what the compiler knows of a decision's options before the rules run, so that the engine
sorts only what it must (`s.decide(..., order=N)`).

The engine offers the distinct values of a list, ascending (runtime/engine.py `decide`): it makes
a set and sorts it. Neither is needed where the list is known to be

    DISTINCT (1)   a zone's contents (a component lies in one place, once), or a filter of them;
    ASCENDING (2)  ascending without repeats: every component of a type, `range(a, b)`, a builtin
                   that returns a sorted list, or a filter of one.

A list written out whose items are all components, enum values or numbers named in it is what its
values are.

A spec function's call is what its body is; `if-then-else` the lesser of its branches; a list of
one item, or none, ascending; a local variable the least of every value a `let` or an `=` gives it
anywhere in the spec, and a parameter of a function or a procedure of every argument a call
passes it too (unknown if a loop variable, or a parameter of anything else, anywhere has its
name); a variable met again while its own values are followed adds nothing (it holds only what
the others give it). Anything else (a list the rules built, a concatenation) is UNKNOWN (0) and
sorted as before. The engine still checks every option lies in the decision's domain.
"""

from __future__ import annotations

from collections import Counter

from compiler import ir
from compiler.builtins import BUILTINS
from compiler.lower.context import Context

UNKNOWN, DISTINCT, ASCENDING = 0, 1, 2
# how many locals and function bodies `order` follows from one decision: a longer chain is unknown
# (and the compiler's stack stays shallow)
MAX_FOLLOWED = 40


def order(cx: Context, e: ir.Expr, seen: frozenset[str] = frozenset()) -> int:
    """What `e`, a list of component ids (or numbers), is known to be: UNKNOWN, DISTINCT or ASCENDING."""
    match e:
        case ir.Name():
            b = cx.ann.names.get(id(e))
            if b is None or id(e) in cx.ann.zone_refs:
                return UNKNOWN
            if b.kind == "local":
                values = local_values(cx).get(b.target)
                key = f"local {b.target}"
                if key in seen:
                    return ASCENDING  # (the values followed so far decide)
                if values is None or len(seen) >= MAX_FOLLOWED:
                    return UNKNOWN
                return min(order(cx, v, seen | {key}) for v in values)
            return {"zone": DISTINCT, "all": ASCENDING, "values": ASCENDING, "players": ASCENDING}.get(
                b.kind, UNKNOWN
            )
        case ir.Index():
            b = cx.ann.names.get(id(e.subject))
            zone = b is not None and b.kind == "zone" and cx.ann.type_of(e).kind == "zone"
            return DISTINCT if zone and id(e) not in cx.ann.zone_refs else UNKNOWN
        case ir.Quantifier(kind="filter"):
            return order(cx, e.source, seen)
        case ir.CondExpr():
            return min(order(cx, e.then, seen), order(cx, e.other, seen))
        case ir.ListLit():
            return _constants(cx, e)
        case ir.Call() if e.func in cx.sym.functions:
            f = cx.sym.functions[e.func]
            if e.func in seen or f.body.expr is None or len(seen) >= MAX_FOLLOWED:
                return UNKNOWN
            return order(cx, f.body.expr, seen | {e.func})
        case ir.Call():
            builtin = BUILTINS.get(e.func)
            return ASCENDING if e.func == "range" or (builtin is not None and builtin.ascending) else UNKNOWN
        case _:
            return UNKNOWN


def _constants(cx: Context, e: ir.ListLit) -> int:
    """A list written out: what its values are when they are all known now (components, enum
    values and numbers named in it); a list of at most one item is ascending."""
    values: list[int] = []
    for item in e.items:
        b = cx.ann.names.get(id(item)) if isinstance(item, ir.Name) else None
        if isinstance(item, ir.IntLit):
            values.append(item.value)
        elif b is not None and b.kind == "entity":
            values.append(cx.sym.entities[b.target][1])
        elif b is not None and b.kind == "enum":
            values.append(cx.sym.enum_values[b.target][1])
        else:
            return ASCENDING if len(e.items) <= 1 else UNKNOWN
    if all(a < b for a, b in zip(values, values[1:], strict=False)):
        return ASCENDING
    return DISTINCT if len(set(values)) == len(values) else UNKNOWN


def local_values(cx: Context) -> dict[str, tuple[ir.Expr, ...]]:
    """Every value a local slot is given, by slot name, for the slots that every code unit holding
    one declares with a `let` or as a parameter of a function or procedure (found once per game)."""
    if cx.local_values is None:
        units = Counter(slot for slots in cx.ann.locals.values() for slot in slots)
        given: Counter[str] = Counter()  # the units that declare the slot so
        values: dict[str, list[ir.Expr]] = {}
        callables = {f.name: f.params for f in cx.sym.game.functions}
        callables.update((pr.name, pr.params) for pr in cx.sym.game.procedures)
        for params in callables.values():
            given.update(p.name for p in params)
        unknown: set[str] = set()
        for node in ir.walk(cx.sym.game):
            if isinstance(node, ir.Let):
                slot = cx.ann.slots.get(id(node))
                if slot is not None:
                    given[slot] += 1
                    values.setdefault(slot, []).append(node.value)
            elif isinstance(node, ir.Assign):
                b = cx.ann.names.get(id(node))
                if b is not None and b.kind == "local":
                    values.setdefault(b.target, []).append(node.value)  # (`+=` is for numbers)
            elif isinstance(node, ir.Call | ir.CallStmt) and not node.respond:
                called = callables.get(node.func if isinstance(node, ir.Call) else node.proc)
                if called is None:
                    continue
                if len(called) != len(node.args):
                    unknown.update(p.name for p in called)
                for p, a in zip(called, node.args, strict=False):
                    values.setdefault(p.name, []).append(a)
        cx.local_values = {
            slot: tuple(vs)
            for slot, vs in values.items()
            if given[slot] and given[slot] == units[slot] and slot not in unknown
        }
    return cx.local_values
