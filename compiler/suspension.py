"""Suspension: checked IR -> which code can stop for a decision (`Stops`), and misplaced decisions.

A decision can arise anywhere inside an effect (the third of four placements), so code that may
stop becomes a resumable frame and the rest plain Python. What may stop is a fixpoint over calls:
a procedure stops if its body asks or calls something that stops, and likewise a trigger (through
`emit`) and a component's effect (through `do`). An effect field is decided per component, so a
card whose event never asks is a plain function even when another card's event does.

A scenario's setup runs as plain code before play: a statement in it that may stop is reported
here (`misplaced-decision`), the last diagnostic before lowering. The driver runs this pass only on
a spec without errors (a decision written in a setup is the checker's to report).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from compiler import ir
from compiler.check import Annotations
from compiler.diagnostics import Sink
from compiler.errorcodes import MISPLACED_DECISION
from compiler.messages import STOPS_WHERE_IT_CANNOT, ZONE_TRIGGER_ASKS
from compiler.resolve import Symbols


@dataclass
class Stops:
    """What may stop for a decision: procedures, triggers, and component effects."""

    procedures: dict[str, bool] = field(default_factory=dict)
    triggers: dict[str, bool] = field(default_factory=dict)
    # (component type, effect field, component id) -> whether that component's effect may stop
    effects: dict[tuple[str, str, str], bool] = field(default_factory=dict)
    # (component type, effect field) -> whether any component's effect of that field may stop
    effect_fields: dict[tuple[str, str], bool] = field(default_factory=dict)
    triggers_of: dict[str, tuple[ir.TriggerDecl, ...]] = field(default_factory=dict)  # event -> triggers

    def stmt(self, s: ir.Stmt, ann: Annotations) -> bool:
        """Whether statement `s` may stop for a decision."""
        match s:
            case ir.Let() | ir.Assign():
                v = s.value
                return isinstance(v, ir.Decision) or (
                    isinstance(v, ir.Call) and self.procedures.get(v.func, False)
                )
            case ir.CallStmt():
                return self.procedures.get(s.proc, False)
            case ir.DoEffect():
                return self.effect_fields.get((ann.type_of(s.subject).name, s.field), True)
            case ir.Emit():
                return any(self.triggers[t.name] for t in self.triggers_of.get(s.event, ()))
            case ir.If():
                return any(self.body(b, ann) for _, b in s.branches) or self.body(s.orelse, ann)
            case ir.For() | ir.Repeat() | ir.While():
                return self.body(s.body, ann)
            case _:
                return False

    def body(self, stmts: tuple[ir.Stmt, ...], ann: Annotations) -> bool:
        return any(self.stmt(s, ann) for s in stmts)

    def effect(self, type_name: str, field_name: str, entity: str) -> bool:
        return self.effects[(type_name, field_name, entity)]


def analyse(sym: Symbols, ann: Annotations, sink: Sink) -> Stops:
    """Find what may stop (a fixpoint over calls); report scenario setups that would stop."""
    g = sym.game
    stops = Stops()
    for tr in g.triggers:
        stops.triggers_of[tr.event] = (*stops.triggers_of.get(tr.event, ()), tr)
        stops.triggers[tr.name] = False
    for pr in g.procedures:
        stops.procedures[pr.name] = False
    effects: dict[tuple[str, str, str], ir.Code] = {}
    for tname, info in sym.entity_types.items():
        for fname, fd in info.code_fields.items():
            if fd.kind != "effect":
                continue
            stops.effect_fields[(tname, fname)] = False
            for ent in info.decl.entities:
                code = dict(ent.code).get(fname)
                if code is not None:
                    effects[(tname, fname, ent.id)] = code
                stops.effects[(tname, fname, ent.id)] = False
    changed = True
    while changed:
        changed = False
        for key, code in effects.items():
            if not stops.effects[key] and stops.body(code.body, ann):
                stops.effects[key] = stops.effect_fields[key[:2]] = changed = True
        for pr in g.procedures:
            if not stops.procedures[pr.name] and stops.body(pr.body.body, ann):
                stops.procedures[pr.name] = changed = True
        for tr in g.triggers:
            if not stops.triggers[tr.name] and stops.body(tr.body.body, ann):
                stops.triggers[tr.name] = changed = True
    for sc in g.scenarios:
        if sc.setup is not None:
            _report_stops(sc.setup.body, stops, ann, sink)
    for tr in g.triggers:
        if tr.watch is not None and stops.triggers[tr.name]:
            _report_stops(tr.body.body, stops, ann, sink, ZONE_TRIGGER_ASKS)
    return stops


def _report_stops(
    body: tuple[ir.Stmt, ...],
    stops: Stops,
    ann: Annotations,
    sink: Sink,
    message: str = STOPS_WHERE_IT_CANNOT,
) -> None:
    """`misplaced-decision` at each statement of plain code that may stop."""
    for s in body:
        if stops.stmt(s, ann):
            sink.error(MISPLACED_DECISION, s.span, message)
