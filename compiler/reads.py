"""Reads: checked IR -> what each cached function reads of the game state (`Reads`), and the
cached functions that cannot be cached (`uncacheable`).

A function marked `cached: true` keeps its values in the state, keyed by its arguments, and the
engine forgets them when state they were computed from changes. For that the compiler must know
each cached function's read set, which this pass finds, transitively through the functions and
component expression fields it calls. A read set is made of sources:

    ("var", name)      a state variable (any of its entries)
    ("zones", type)    the zones holding components of a type: their contents, order, positions
    ("mod", name)      a lasting effect (`active name(...)`, with any arguments)

Options and the player count are fixed when a game starts, and component data never changes, so
they are no sources. Nothing else of the state is readable from an expression, and no function
can draw randomness (check.py reports `misplaced-chance`), so every function's value depends on
its arguments and its read set alone: any function can be cached whose arguments can key a cache.
A list cannot (`uncacheable`, at the parameter).

Lowering makes every write of a source that a cached function reads forget those functions'
values (`readers`): an assignment to the variable, a move, placement, deal or shuffle of
components of the type, adding or cancelling the effect, and the end of a phase that effects
last until (`expiring`). The driver runs this pass after suspension, on a spec without errors.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from compiler import ir
from compiler.builtins import BUILTINS
from compiler.check import Annotations
from compiler.diagnostics import Sink
from compiler.errorcodes import UNCACHEABLE
from compiler.messages import cached_list_parameter
from compiler.resolve import Symbols
from compiler.typesys import Type

Source = tuple[str, str]  # ("var", name), ("zones", component type) or ("mod", modifier)
Unit = tuple[str, ...]  # ("function", name) or ("field", component type, expression field)


@dataclass
class Reads:
    """The cached functions, what each reads, and what writes must make them forget."""

    cached: dict[str, frozenset[Source]] = field(default_factory=dict)  # in the spec's order
    readers: dict[Source, tuple[str, ...]] = field(default_factory=dict)  # source -> cached functions
    expiring: dict[str, tuple[str, ...]] = field(default_factory=dict)  # phase -> effects lasting until it
    # the phases some `add ... until` of the rules or a scenario names: the others expire nothing
    expire_at: frozenset[str] = frozenset()

    def readers_of(self, source: Source) -> tuple[str, ...]:
        """The cached functions whose values a change of `source` makes stale."""
        return self.readers.get(source, ())


def held_type(t: Type) -> str | None:
    """The component type whose zones a value of type `t` lives in (a list's or zone's items)."""
    if t.kind in ("list", "zone") and t.elem is not None:
        t = t.elem
    return t.name if t.kind == "entity" and t.name != "player" else None


def analyse(sym: Symbols, ann: Annotations, sink: Sink) -> Reads:
    """The read set of every cached function (a fixpoint over calls); report those that cannot be
    cached."""
    g = sym.game
    direct: dict[Unit, set[Source]] = {}
    calls: dict[Unit, set[Unit]] = {}
    for f in g.functions:
        _scan(sym, ann, ("function", f.name), f.body, direct, calls)
    for tname, info in sym.entity_types.items():
        for fname, fd in info.code_fields.items():
            if fd.kind != "effect":
                unit = ("field", tname, fname)
                direct.setdefault(unit, set())
                calls.setdefault(unit, set())
                for ent in info.decl.entities:
                    code = dict(ent.code).get(fname)
                    if code is not None:
                        _scan(sym, ann, unit, code, direct, calls)
    total = _closure(direct, calls)
    reads = Reads()
    for f in g.functions:
        if f.cached and _cacheable(sym, f, sink):
            reads.cached[f.name] = frozenset(total[("function", f.name)])
    for name, sources in reads.cached.items():
        for source in sorted(sources):
            reads.readers[source] = (*reads.readers_of(source), name)
    additions = list(_additions(g))
    reads.expire_at = frozenset(add.until_phase for add in additions if add.until_phase is not None)
    if any(kind == "mod" for kind, _ in reads.readers):
        for add in additions:
            if add.until_phase is not None:
                lasting = reads.expiring.get(add.until_phase, ())
                if add.name not in lasting:
                    reads.expiring[add.until_phase] = (*lasting, add.name)
    return reads


def _additions(g: ir.Game) -> Iterator[ir.AddModifier]:
    """Every `add` of a lasting effect in the rules and the scenarios' setups (only statements
    are searched: an effect is added by a statement, never inside an expression)."""
    bodies = [pr.body for pr in g.procedures] + [tr.body for tr in g.triggers]
    bodies += [code for t in g.types for ent in t.entities for _, code in ent.code]
    bodies += [c for c in (g.setup, *(sc.setup for sc in g.scenarios)) if c is not None]
    phases = list(g.phases)
    while phases:
        ph = phases.pop()
        phases.extend(ph.steps)
        if ph.body is not None:
            bodies.append(ph.body)
    stack: list[ir.Stmt] = [s for code in bodies for s in code.body]
    while stack:
        s = stack.pop()
        match s:
            case ir.AddModifier():
                yield s
            case ir.If():
                stack.extend(st for _, branch in s.branches for st in branch)
                stack.extend(s.orelse)
            case ir.For() | ir.Repeat() | ir.While():
                stack.extend(s.body)


def _cacheable(sym: Symbols, f: ir.FunctionDecl, sink: Sink) -> bool:
    """Whether a cached function's arguments can key its cache: single values, not lists."""
    for p in f.params:
        t = sym.type_named(p.type.text)
        if t is not None and t.kind == "list":
            sink.error(UNCACHEABLE, p.span, cached_list_parameter(f.name, p.name))
            return False
    return True


def _scan(
    sym: Symbols,
    ann: Annotations,
    unit: Unit,
    code: ir.Code,
    direct: dict[Unit, set[Source]],
    calls: dict[Unit, set[Unit]],
) -> None:
    """Add what `code` reads directly, and the functions and fields it calls, to `unit`'s sets."""
    reads = direct.setdefault(unit, set())
    called = calls.setdefault(unit, set())
    for node in ir.walk(code):
        match node:
            case ir.Name():
                b = ann.names.get(id(node))
                if b is not None and b.kind == "state":
                    reads.add(("var", b.target))
                elif b is not None and b.kind == "zone":
                    held = held_type(sym.zones[b.target][1])
                    if held is not None:
                        reads.add(("zones", held))
                elif b is not None and b.type.kind == "zone":  # a zone value: the zones of its type
                    held = held_type(b.type)
                    if held is not None:
                        reads.add(("zones", held))
            case ir.Call() if node.func in sym.functions:
                called.add(("function", node.func))
            case ir.Call() if node.func in BUILTINS and BUILTINS[node.func].reads_zones and node.args:
                held = held_type(ann.type_of(node.args[0]))
                if held is not None:
                    reads.add(("zones", held))
            case ir.MethodCall():
                called.add(("field", ann.type_of(node.subject).name, node.name))
            case ir.Active() | ir.CountActive():
                reads.add(("mod", node.name))


def _closure(direct: dict[Unit, set[Source]], calls: dict[Unit, set[Unit]]) -> dict[Unit, set[Source]]:
    """Each unit's reads with those of everything it calls, however deep (calls may recur)."""
    total = {unit: set(sources) for unit, sources in direct.items()}
    changed = True
    while changed:
        changed = False
        for unit, callees in calls.items():
            mine = total[unit]
            before = len(mine)
            for callee in callees:
                mine |= total.get(callee, set())
            changed = changed or len(mine) != before
    return total
