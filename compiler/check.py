"""Check: Symbols + DSL code -> Annotations (a type for every expression, a binding for every name).

Reports unknown names (with "did you mean"), type mismatches, wrong argument counts, decisions
without a deciding player, undefined procedures and phases. Every code unit of the game is
checked here: procedures, functions, phases, component code fields, triggers, invariants, the
evaluation and scenarios.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, assert_never

from compiler import errorcodes as codes
from compiler import ir, messages
from compiler.builtins import BUILTINS
from compiler.diagnostics import Sink, close_match, did_you_mean
from compiler.resolve import EntityInfo, Symbols, trigger_params
from compiler.typesys import ANY, BOOL, CELL, INT, NONE, PLAYER, STR, Type, comparable, compatible, list_of


@dataclass
class Binding:
    """What a Name refers to."""

    kind: str  # local param const option state zone entity enum player all players num_players
    target: str
    type: Type


@dataclass
class Annotations:
    """What check learned, for lower.py: types of expressions, bindings of names, local slots."""

    types: dict[int, Type] = field(default_factory=dict)
    names: dict[int, Binding] = field(default_factory=dict)
    slots: dict[int, str] = field(default_factory=dict)  # Let / For / comprehension node -> slot
    # expressions of a zone type taken as a zone value (the instance: a local, an argument, a
    # result), not read as the list of what the zone holds
    zone_refs: set[int] = field(default_factory=set)
    locals: dict[int, dict[str, Type]] = field(default_factory=dict)  # Code unit -> slot types

    def type_of(self, e: object) -> Type:
        return self.types.get(id(e), ANY)


class Scope:
    """Block-structured local names of one code unit; each `let` gets a unique slot."""

    def __init__(self, unit: dict[str, Type], params: dict[str, Type]) -> None:
        self.unit = unit
        self.frames: list[dict[str, tuple[str, Type, bool]]] = [{p: (p, t, False) for p, t in params.items()}]

    def lookup(self, name: str) -> tuple[str, Type, bool] | None:
        for f in reversed(self.frames):
            if name in f:
                return f[name]
        return None

    def declare(self, name: str, t: Type, comp: bool = False) -> str:
        """A new local; comprehension variables live only inside their Python comprehension."""
        if comp:
            self.frames[-1][name] = (name, t, True)
            return name
        base = name.replace("$", "a_")  # an answer lifted out of a statement (hoist.py): `$1`
        slot = base
        n = 2
        while slot in self.unit:
            slot = f"{base}_{n}"
            n += 1
        self.unit[slot] = t
        self.frames[-1][name] = (slot, t, False)
        return slot

    def push(self) -> None:
        self.frames.append({})

    def pop(self) -> None:
        self.frames.pop()

    def names(self) -> Iterator[str]:
        for f in self.frames:
            yield from f


class Checker:
    """One pass over every code unit of a game."""

    def __init__(self, sym: Symbols, sink: Sink) -> None:
        self.sym = sym
        self.sink = sink
        self.ann = Annotations()
        self.scope = Scope({}, {})
        self.global_bindings: dict[str, Binding] = {}  # a name no local hides -> what it is
        self.in_setup = False
        self.in_code_unit_without_decisions = False
        self.window_whos: set[int] = set()
        # the procedure whose body is checked, if any, and its `returns:` type (None: no value)
        self.procedure: ir.ProcedureDecl | None = None
        self.returns: Type | None = None
        self.loops = 0  # how many loops enclose the statement checked (for `break`, `continue`)
        self.params_unknown = False  # a unit whose parameters are unknown: any name is of any type
        # a decision or procedure call left inside an expression (compiler/hoist.py) -> why it
        # cannot be asked first there
        self.why: Mapping[int, str] = {}

    # ---- units ------------------------------------------------------------------------------
    def params(self, params: tuple[ir.Param, ...]) -> dict[str, Type]:
        out: dict[str, Type] = {}
        for p in params:
            t = self.sym.type_named(p.type.text)
            if t is None:
                self.sink.error(
                    codes.UNKNOWN_TYPE,
                    p.type.span,
                    messages.unknown_type(p.type.text, self.sym.type_hint(p.type.text)),
                )
                t = ANY
            out[p.name] = t
        return out

    def unit(
        self, code: ir.Code | None, params: dict[str, Type], *, want: Type | None = None, setup: bool = False
    ) -> None:
        if code is None:
            return
        slots: dict[str, Type] = dict(params)
        self.ann.locals[id(code)] = slots
        self.scope = Scope(slots, params)
        self.in_setup = setup
        self.in_code_unit_without_decisions = code.expr is not None
        self.loops = 0
        if code.expr is not None:
            t = self.expr(code.expr)
            if want is not None and not compatible(want, t):
                self.sink.error(
                    codes.TYPE_MISMATCH, code.expr.span, messages.expected_type(want, t), *zone_notes(want, t)
                )
            elif want is not None and want.kind == "zone":
                self.ann.zone_refs.add(id(code.expr))
        else:
            self.block(code.body)
        self.in_setup = False

    def run(self) -> Annotations:
        sym, g = self.sym, self.sym.game
        # the `who` of each response window: the list its desugared loop runs over
        self.window_whos.update(id(w.who) for w in g.windows if w.who is not None)
        for f in g.functions:
            ret = sym.type_named(f.returns.text)
            if ret is None:
                self.sink.error(
                    codes.UNKNOWN_TYPE,
                    f.returns.span,
                    messages.unknown_type(f.returns.text, sym.type_hint(f.returns.text)),
                )
            self.unit(f.body, self.params(f.params), want=ret)
        for pr in g.procedures:
            self.procedure_unit(pr)
        for info in sym.entity_types.values():
            for ent in info.decl.entities:
                for fname, code in ent.code:
                    fd = info.code_fields.get(fname)
                    if fd is None:
                        continue
                    ps = {"self": Type("entity", info.decl.name), **self.params(fd.params)}
                    self.unit(code, ps, want=None if fd.kind == "effect" else info.field_types[fname])
                self.unwritten_effects(info, ent)
        for tr in g.triggers:
            ps = self.params(trigger_params(sym, tr))
            # on an undeclared event (reported), the names of its parameters are unknown
            self.params_unknown = tr.watch is None and tr.event not in sym.events
            self.unit(tr.condition, ps, want=BOOL)
            self.unit(tr.body, ps)
            self.params_unknown = False
        for inv in g.invariants:
            self.unit(inv.expr, {}, want=BOOL)
        self.unit(g.evaluation, {"p": PLAYER}, want=INT)
        if g.results is not None:
            self.unit(g.results.returns, {"p": PLAYER}, want=INT)
        if g.board is not None:
            self.board(g.board)
        self.unit(g.setup, {})
        for ph in sym.phases.values():
            self.unit(ph.repeat, {}, want=INT)
            self.unit(ph.while_, {}, want=BOOL)
            self.unit(ph.body, {})
        for sc in g.scenarios:
            self.scenario(sc)
        return self.ann

    def procedure_unit(self, pr: ir.ProcedureDecl) -> None:
        """A procedure's body; one with `returns:` gives a value on every way out."""
        self.procedure, self.returns = pr, None
        if pr.returns is not None:
            self.returns = self.sym.type_named(pr.returns.text)
            if self.returns is None:
                hint = self.sym.type_hint(pr.returns.text)
                self.sink.error(
                    codes.UNKNOWN_TYPE, pr.returns.span, messages.unknown_type(pr.returns.text, hint)
                )
                self.returns = ANY
            if not ends(pr.body.body):
                self.sink.error(codes.MISSING_RETURN, pr.span, messages.missing_return(pr.name))
        self.unit(pr.body, self.params(pr.params))
        self.procedure, self.returns = None, None

    def return_stmt(self, s: ir.Return) -> None:
        """`return` or `return VALUE`: a value exactly in a procedure with `returns:`."""
        pr, want = self.procedure, self.returns
        if s.value is None:
            if pr is not None and pr.returns is not None:
                self.sink.error(
                    codes.RETURN_WITHOUT_VALUE,
                    s.span,
                    messages.return_without_value(pr.name, pr.returns.text),
                )
            return
        got = self.expr(s.value)
        if pr is None or want is None:
            message = (
                messages.RETURN_WITHOUT_RETURNS if pr is not None else messages.RETURN_VALUE_OUTSIDE_PROCEDURE
            )
            self.sink.error(codes.RETURN_WITHOUT_RETURNS, s.value.span, message)
        elif not compatible(want, got):
            self.sink.error(
                codes.TYPE_MISMATCH,
                s.value.span,
                messages.return_value_type(pr.name, want, got),
                *zone_notes(want, got),
            )
        elif want.kind == "zone":
            self.ann.zone_refs.add(id(s.value))

    def procedure_value(self, e: ir.Call) -> Type:
        """`name(args)` of a procedure as the whole value of a let or an assignment."""
        if not self.window_call(e.func, e.respond, e.span):
            self.exprs(e.args)
            return ANY
        pr = self.sym.procedures[e.func]
        what = f"window '{e.func}'" if e.respond else f"procedure '{e.func}'"
        self.args(e.args, self.params(pr.params), what, e.span)
        if self.in_code_unit_without_decisions:
            self.sink.error(codes.MISPLACED_CALL, e.span, messages.procedure_call_misplaced(e.func))
            return ANY
        if pr.returns is None:
            self.sink.error(codes.NO_VALUE, e.span, messages.procedure_as_value(e.func))
            return ANY
        return self.sym.type_named(pr.returns.text) or ANY

    def board(self, b: ir.BoardDecl) -> None:
        """The board's names (types, ids, zones, players) and the types of its expressions."""
        sym = self.sym
        for name, _, span in b.colors:
            if name not in sym.game.player_names and sym.game.player_names:
                close = close_match(name, sym.game.player_names)
                self.sink.error(codes.UNKNOWN_NAME, span, messages.board_not_a_player(name, close))
        for pl in b.places:
            t = PLAYER if pl.of.text == "player" else self.component_type(pl.of)
            x = {"x": t}
            self.unit(pl.where, x, want=BOOL)
            self.unit(pl.marked, x, want=BOOL)
            self.unit(pl.label, x, want=STR)
            self.unit(pl.owner, x, want=PLAYER)
            self.unit(pl.links, x, want=list_of(t))
            self.unit(pl.group, x)
            for _, code, _ in pl.show:
                self.unit(code, x)
            if pl.markers is not None:
                xp = {"x": t, "p": PLAYER}
                self.unit(pl.markers[0], xp, want=INT)
                self.unit(pl.markers[1], xp, want=BOOL)
            for code in pl.coords or ():
                self.unit(code, x, want=INT)
            if pl.layout == "cells":
                self.board_zone(pl.zone, pl.span, grid=True, of=t)
            info = sym.entity_types.get(t.name) if t.kind == "entity" else None
            if (info is not None or t == PLAYER) and pl.layout == "at":
                ids = [e.id for e in info.decl.entities] if info is not None else list(sym.game.player_names)
                for ident, _, _, span in pl.at:
                    if ident not in ids:
                        close = close_match(ident, ids)
                        self.sink.error(
                            codes.UNKNOWN_NAME, span, messages.board_unknown_place(ident, t.name, close)
                        )
                placed = {ident for ident, _, _, _ in pl.at}
                missing = [i for i in ids if i not in placed]
                if missing:
                    self.sink.warning(codes.UNKNOWN_NAME, pl.span, messages.board_unplaced(t.name, missing))
        for tr in b.tracks:
            self.unit(tr.value, {"p": PLAYER} if tr.each_player else {}, want=None if tr.counter else INT)
            if tr.style == "bore" and len(sym.game.player_names) != 2:
                self.sink.error(
                    codes.WRONG_VALUE_TYPE, tr.span, messages.bore_players(len(sym.game.player_names))
                )
        for name, _, span in b.names:
            if name not in sym.zones and name not in sym.modifiers and name not in sym.clashed:
                close = close_match(name, [*sym.zones, *sym.modifiers])
                self.sink.error(codes.UNKNOWN_NAME, span, messages.board_unknown_named(name, close))
        for name, span in b.zones:
            self.board_zone(name, span)
        for c in b.cards:
            t = self.component_type(c.of)
            self.unit(c.value, {"x": t})
            self.unit(c.text, {"x": t})
            if c.text is not None and c.text.expr is not None:  # a text, or texts read as one
                got = self.ann.type_of(c.text.expr)
                if not compatible(STR, got) and not compatible(list_of(STR), got):
                    self.sink.error(codes.TYPE_MISMATCH, c.text.expr.span, messages.board_text(got))

    def component_type(self, ref: ir.TypeRef) -> Type:
        """A component type the board names (anything else is reported, and reads as any type)."""
        info = self.sym.entity_types.get(ref.text)
        if info is None and ref.text in self.sym.unchecked:
            return ANY
        if info is None:
            hint = did_you_mean(ref.text, self.sym.entity_types)
            self.sink.error(codes.UNKNOWN_TYPE, ref.span, messages.unknown_type(ref.text, hint))
            return ANY
        return Type("entity", ref.text)

    def board_zone(self, name: str, span: ir.Span, *, grid: bool = False, of: Type | None = None) -> None:
        found = self.sym.zones.get(name)
        if found is None and name in self.sym.clashed:
            return
        if found is None:
            close = close_match(name, self.sym.zones)
            self.sink.error(codes.UNKNOWN_NAME, span, messages.board_unknown_zone(name, close))
            return
        decl, t = found
        if grid and decl.kind != "grid":
            self.sink.error(codes.TYPE_MISMATCH, span, messages.board_not_a_grid(name))
        if of is not None and of != ANY and t.elem is not None and t.elem != of:
            self.sink.error(
                codes.TYPE_MISMATCH, span, messages.board_zone_holds(name, t.elem.name or "", of.name or "")
            )

    def unwritten_effects(self, info: EntityInfo, ent: ir.Entity) -> None:
        """A warning for each effect a component leaves out: the game runs, and the component does nothing."""
        written = dict(ent.code)
        for fname, fd in info.code_fields.items():
            if fd.kind == "effect" and not fd.optional and fname not in written:
                self.sink.warning(codes.MISSING_EVENT, ent.span, messages.missing_effect(ent.id, fname))

    def scenario(self, sc: ir.ScenarioDecl) -> None:
        sym = self.sym
        self.unit(sc.setup, {}, setup=True)
        for st in sc.steps:
            self.scenario_step(sc, st)
        # (a file that could not be read may declare the options and components named here)
        lost = bool(self.sink.unread)
        for key, value in sc.options:
            o = sym.options.get(key)
            if o is None:
                if lost:
                    continue
                self.sink.error(
                    codes.BAD_SCENARIO,
                    value.span,
                    messages.scenario_unknown_option(sc.name, key, did_you_mean(key, list(sym.options))),
                )
            elif o.type not in ("int", "bool"):
                self.enum_option_value(key, o, value)
            elif (o.type == "bool") != isinstance(value.data, bool) or not isinstance(value.data, int):
                self.sink.error(
                    codes.BAD_SCENARIO, value.span, messages.scenario_option_type(key, o.type, value.data)
                )
        forced = [("a forced shuffle", v) for order in sc.shuffles for v in order]
        forced += [("a forced draw", v) for order in sc.draws for v in order]
        forced += [("a forced pick", v) for v in sc.picks]
        for what, v in forced:
            if str(v.data) not in sym.entities and not lost and str(v.data) not in sym.unchecked:
                self.sink.error(
                    codes.BAD_SCENARIO,
                    v.span,
                    messages.scenario_unknown_component(
                        v.data, what, did_you_mean(str(v.data), list(sym.entities))
                    ),
                )
        # a list names a kind with copies once per copy: no more often than it has copies
        for what, orders in (("a forced shuffle", sc.shuffles), ("a forced draw", sc.draws)):
            for order in orders:
                seen: dict[str, int] = {}
                for v in order:
                    ident = str(v.data)
                    seen[ident] = seen.get(ident, 0) + 1
                    if ident in sym.entities:
                        copies = sym.entity_types[sym.entities[ident][0]].copies.get(ident, 0)
                        if seen[ident] == copies + 1 and copies:
                            self.sink.error(
                                codes.BAD_SCENARIO,
                                v.span,
                                messages.scenario_too_many_copies(ident, copies, what),
                            )
        named = [("skips", v) for v in sc.skip] + ([("starts at", sc.start_at)] if sc.start_at else [])
        for verb, v in named:
            if str(v.data) not in sym.phases:
                self.sink.error(
                    codes.UNDEFINED_PHASE,
                    v.span,
                    messages.scenario_unknown_phase(
                        sc.name, verb, v.data, did_you_mean(str(v.data), list(sym.phases))
                    ),
                )

    def enum_option_value(self, key: str, o: ir.OptionDecl, value: ir.Value) -> None:
        """A scenario's value of an enum option: one of its values (and choices), by name."""
        allowed = [str(c) for c in o.choices] or self.sym.enums.get(o.type, [])
        if o.type in self.sym.enums and str(value.data) not in allowed:
            hint = did_you_mean(str(value.data), allowed)
            self.sink.error(
                codes.BAD_SCENARIO, value.span, messages.scenario_enum_option(key, value.data, allowed, hint)
            )

    def scenario_step(self, sc: ir.ScenarioDecl, st: ir.ScenarioStep) -> None:
        for e in st.expect:
            self.unit(e, {}, want=BOOL)
        invariants = [inv.name for inv in self.sym.game.invariants]
        for inv_name in st.expect_invariants:
            if str(inv_name.data) not in invariants:
                self.sink.error(
                    codes.UNKNOWN_INVARIANT,
                    inv_name.span,
                    messages.unknown_invariant(inv_name.data, did_you_mean(str(inv_name.data), invariants)),
                    messages.invariants_are(invariants),
                )
        for a in st.actions:
            if isinstance(a.data, bool) or not isinstance(a.data, (str, int)):
                self.sink.error(
                    codes.BAD_SCENARIO,
                    a.span,
                    messages.ACTION_NOT_A_LABEL,
                )
        labels = list(self.sym.game.player_labels)
        if not labels or self.sink.unread:  # the players or their labels may be lost (reported)
            return
        named = [(st.expect_to_act, labels), (st.expect_winner, [*labels, "draw"])]
        named += [(who, labels) for who, _ in (*st.expect_seen, *st.expect_unseen)]
        named += [(who, labels) for who in st.expect_winners or ()]
        for v, allowed in named:
            if v is not None and str(v.data) not in allowed:
                self.sink.error(
                    codes.BAD_SCENARIO,
                    v.span,
                    messages.not_a_player(v.data, "draw" in allowed, did_you_mean(str(v.data), allowed)),
                    messages.players_are_labels(labels),
                )

    # ---- statements -------------------------------------------------------------------------
    def block(self, body: tuple[ir.Stmt, ...]) -> None:
        self.scope.push()
        for s in body:
            self.stmt(s)
        self.scope.pop()

    def want(self, e: ir.Expr, t: Type, what: str) -> Type:
        got = self.expr(e)
        if not compatible(t, got):
            self.sink.error(
                codes.TYPE_MISMATCH, e.span, messages.must_be_type(what, t, got), *zone_notes(t, got)
            )
        elif t.kind == "zone":
            self.ann.zone_refs.add(id(e))  # an argument of a zone type: the zone itself, not a copy
        return got

    def rhs(self, r: ir.Rhs) -> Type:
        """The value of a let or an assignment: the one place a decision may stand."""
        match r:
            case ir.Choose() | ir.ChooseNumber() | ir.Ask():
                t = self.decision(r)
                self.ann.types[id(r)] = t
                return t
            case ir.Call() if r.func in self.sym.procedures and r.func not in self.sym.functions or r.respond:
                t = self.procedure_value(r)
                self.ann.types[id(r)] = t
                return t
            case _:
                return self.expr(r)

    def decision(self, d: ir.Decision) -> Type:
        if self.in_setup and not self.in_code_unit_without_decisions:
            self.sink.error(codes.MISPLACED_DECISION, d.span, messages.DECISION_IN_SETUP)
        if d.each is not None:
            return self.simultaneous(d, d.each)
        if d.simultaneous:
            self.sink.error(codes.SIMULTANEOUS_WITHOUT_EACH, d.span, messages.SIMULTANEOUS_WITHOUT_EACH)
        text = d.question if isinstance(d, ir.Ask) else d.prompt
        if text is not None:
            self.expr(text)
        if d.player is None:
            self.sink.error(codes.DECISION_WITHOUT_PLAYER, d.span, messages.DECISION_WITHOUT_PLAYER)
        else:
            self.want(d.player, PLAYER, "the deciding player")
        match d:
            case ir.Choose():
                return self.choose(d)
            case ir.ChooseNumber():
                self.want(d.low, INT, "the lowest number")
                self.want(d.high, INT, "the highest number")
                return INT
            case ir.Ask():
                return BOOL
            case _:
                assert_never(d)

    def simultaneous(self, d: ir.Decision, each: ir.Each) -> Type:
        """`simultaneously ... by each p in xs`: each player of xs answers, `p` naming that player in
        the options and the prompt; the value is the list of answers, in the order of xs."""
        if not d.simultaneous:
            form = {ir.Choose: "choose", ir.ChooseNumber: "choose number", ir.Ask: "ask"}[type(d)]
            if isinstance(d, ir.Choose) and d.optional:
                form = "optionally choose"
            self.sink.error(
                codes.EACH_WITHOUT_SIMULTANEOUSLY, each.span, messages.each_without_simultaneously(form)
            )
        self.want(each.players, list_of(PLAYER), "the players of `by each`")
        if self.scope.lookup(each.var) is not None:
            self.sink.error(codes.SHADOWED_NAME, each.span, messages.shadowed_name(each.var, "a local"))
        elif each.var in self.sym.global_names():
            what = self.sym.declared_kind(each.var) or "a built-in name"
            self.sink.error(codes.SHADOWED_NAME, each.span, messages.shadowed_name(each.var, what))
        self.scope.push()
        self.ann.slots[id(each)] = self.scope.declare(each.var, PLAYER, comp=True)
        text = d.question if isinstance(d, ir.Ask) else d.prompt
        if text is not None:
            self.expr(text)
        match d:
            case ir.Choose():
                answer = self.choose(d)
                kind = self.sym.entity_types.get(answer.name) if answer.kind == "entity" else None
                if kind is not None and kind.copies:
                    self.sink.error(codes.TYPE_MISMATCH, d.options.span, messages.simultaneous_copies(answer))
            case ir.ChooseNumber():
                self.want(d.low, INT, "the lowest number")
                self.want(d.high, INT, "the highest number")
                answer = INT
            case ir.Ask():
                answer = BOOL
            case _:
                assert_never(d)
        self.scope.pop()
        return list_of(answer)

    def choose(self, d: ir.Choose) -> Type:
        """`choose [N] from xs`: one of the options (or a list of N), each an action of the game."""
        src = self.expr(d.options)
        elem = src.iterable_elem
        if elem is None:
            if src != ANY and d.window:
                self.sink.error(codes.TYPE_MISMATCH, d.options.span, messages.window_with(src))
            elif src != ANY:  # (any type: an error reported already, which nothing here repeats)
                self.sink.error(codes.TYPE_MISMATCH, d.options.span, messages.choose_from(src))
            elem = ANY
        elif elem.kind not in ("entity", "enum", "cell", "int", "bool", "any"):
            self.sink.error(codes.TYPE_MISMATCH, d.options.span, messages.cannot_choose_among(elem))
        elif elem.kind == "cell":
            self.grid_needed(d.options.span)
        if d.count is not None:
            self.want(d.count, INT, "the number to choose")
            return list_of(elem)
        return elem

    def stmt(self, s: ir.Stmt) -> None:
        match s:
            case ir.Let() if s.type is not None:
                self.let_declared(s, s.type)
            case ir.Let():
                self.let_inferred(s)
            case ir.Assign():
                self.assign(s)
            case ir.If():
                self.if_stmt(s)
            case ir.For():
                self.for_loop(s)
            case ir.Repeat():
                self.loop(s.count, INT, "a repeat count", s.body)
            case ir.While():
                self.loop(s.cond, BOOL, "a condition", s.body)
            case ir.Move():
                self.move(s)
            case ir.Place():
                self.place(s)
            case ir.Shuffle():
                self.zone(s.zone, "pile")
            case ir.Deal():
                self.deal(s)
            case ir.Reveal():
                self.expr(s.item)
            case ir.Show():
                self.show(s)
            case ir.Log():
                self.expr(s.message)
            case ir.EndGame():
                self.end_game(s)
            case ir.Return():
                self.return_stmt(s)
            case ir.Break() | ir.Continue():
                if not self.loops:
                    word = "break" if isinstance(s, ir.Break) else "continue"
                    self.sink.error(codes.OUTSIDE_LOOP, s.span, messages.OUTSIDE_LOOP.format(word))
            case ir.CallStmt():
                self.call_procedure(s)
            case ir.DoEffect():
                self.do_effect(s)
            case ir.AddModifier() | ir.Cancel():
                self.modifier_stmt(s)
            case ir.Emit():
                self.emit(s)
            case _:
                assert_never(s)

    def let_declared(self, s: ir.Let, written: ir.TypeRef) -> None:
        """`let x: T = value`: the value must fit T, and `[]` and `none` take it."""
        declared = self.sym.type_named(written.text)
        if declared is None:
            hint = self.sym.type_hint(written.text)
            self.sink.error(codes.UNKNOWN_TYPE, written.span, messages.unknown_type(written.text, hint))
            declared = ANY
        got = self.rhs(s.value)
        if not compatible(declared, got):
            self.sink.error(
                codes.TYPE_MISMATCH,
                s.value.span,
                messages.let_declared(s.var, declared, got),
                *zone_notes(declared, got),
            )
        elif declared.kind == "zone":
            self.ann.zone_refs.add(id(s.value))  # the zone itself (or none)
            self.ann.types[id(s.value)] = declared
        elif got.kind != "zone" and not isinstance(s.value, (ir.Choose, ir.ChooseNumber, ir.Ask)):
            self.ann.types[id(s.value)] = declared  # (a zone read into a list stays a zone: it is copied)
        self.ann.slots[id(s)] = self.scope.declare(s.var, declared)

    def let_inferred(self, s: ir.Let) -> None:
        """`let x = value`: x takes the value's type, which `none` and `[]` do not tell."""
        t = self.rhs(s.value)
        if t.kind == "none":
            self.sink.error(codes.TYPE_MISMATCH, s.value.span, messages.LET_NONE)
        elif t.kind == "list" and t.elem == ANY and isinstance(s.value, ir.ListLit):
            self.sink.error(codes.TYPE_MISMATCH, s.value.span, messages.LET_EMPTY_LIST)
        if t.kind == "zone":  # without a declared zone type, a let holds a copy of the zone's contents
            t = list_of(t.elem or ANY)
        self.ann.slots[id(s)] = self.scope.declare(s.var, t)

    def if_stmt(self, s: ir.If) -> None:
        for cond, body in s.branches:
            self.want(cond, BOOL, "a condition")
            self.block(body)
        self.block(s.orelse)

    def for_loop(self, s: ir.For) -> None:
        src = self.expr(s.source)
        elem = src.iterable_elem
        if id(s.source) in self.window_whos and src != ANY and elem not in (PLAYER, ANY):
            self.sink.error(codes.TYPE_MISMATCH, s.source.span, messages.window_who(src))
            elem = PLAYER  # (so that the questions asked of each are not reported too)
        elif elem is None:
            if src != ANY:
                self.sink.error(codes.TYPE_MISMATCH, s.source.span, messages.for_source(src))
            elem = ANY
        self.scope.push()
        self.ann.slots[id(s)] = self.scope.declare(s.var, elem)
        if s.cond is not None:
            self.want(s.cond, BOOL, "a where-condition")
        self.loops += 1
        self.block(s.body)
        self.loops -= 1
        self.scope.pop()

    def loop(self, head: ir.Expr, t: Type, what: str, body: tuple[ir.Stmt, ...]) -> None:
        """`repeat N` or `while C`: a head of type t, then the body."""
        self.want(head, t, what)
        self.loops += 1
        self.block(body)
        self.loops -= 1

    def move(self, s: ir.Move) -> None:
        it = self.expr(s.item)
        dest = self.zone(s.dest, "pile")
        moved = (it.elem or ANY) if it.kind in ("list", "zone") else it
        if dest is not None and not compatible(dest, moved):
            self.sink.error(codes.TYPE_MISMATCH, s.item.span, messages.cannot_move(it, dest))

    def place(self, s: ir.Place) -> None:
        it = self.expr(s.item)
        dest = self.zone(s.grid, "grid")
        if dest is not None and not compatible(dest, it):
            self.sink.error(codes.TYPE_MISMATCH, s.item.span, messages.cannot_place(it, dest))
        self.want(s.cell, CELL, "a grid position")

    def deal(self, s: ir.Deal) -> None:
        self.want(s.count, INT, "a number of components")
        src_t = self.zone(s.source, "pile")
        dst_t = self.zone(s.dest, "pile")
        if src_t is not None and dst_t is not None and src_t != dst_t and ANY not in (src_t, dst_t):
            self.sink.error(codes.TYPE_MISMATCH, s.dest.span, messages.cannot_deal(src_t, dst_t))

    def show(self, s: ir.Show) -> None:
        self.expr(s.item)
        self.want(s.player, PLAYER, "the player to show to")

    def end_game(self, s: ir.EndGame) -> None:
        if s.reason is not None:
            self.expr(s.reason)
        if s.how == "winners" and s.winner is not None:
            self.want(s.winner, list_of(PLAYER), "the winners")
        elif s.winner is not None:
            self.want(s.winner, PLAYER, "the winner")
        if s.how == "returns" and self.sym.game.results is None:
            self.sink.error(
                codes.NO_RESULTS,
                s.span,
                messages.END_GAME_WITHOUT_RESULTS,
                messages.END_GAME_WITHOUT_RESULTS_NOTE,
            )

    def window_call(self, name: str, respond: bool, span: ir.Span) -> bool:
        """`respond W(args)` names a window, and a window is called only so; False: `respond`
        names no window (reported)."""
        pr = self.sym.procedures.get(name)
        if respond and (pr is None or not pr.window):
            windows = [n for n, p in self.sym.procedures.items() if p.window]
            self.sink.error(codes.UNKNOWN_WINDOW, span, messages.no_window(name, did_you_mean(name, windows)))
            return False
        if pr is not None and pr.window and not respond:
            self.sink.error(codes.BAD_WINDOW, span, messages.window_as_procedure(name))
        return True

    def call_procedure(self, s: ir.CallStmt) -> None:
        pr = self.sym.procedures.get(s.proc)
        if not self.window_call(s.proc, s.respond, s.span):
            self.exprs(s.args)
            return
        if pr is None:
            hint = did_you_mean(s.proc, list(self.sym.procedures))
            message = messages.no_procedure(s.proc, hint)
            if s.proc in self.sym.modifiers and not hint:
                message = messages.modifier_as_procedure(s.proc, bool(self.sym.modifiers[s.proc].params))
            self.sink.error(codes.UNDEFINED_PROCEDURE, s.span, message)
            self.exprs(s.args)
        else:
            what = f"window '{s.proc}'" if s.respond else f"procedure '{s.proc}'"
            self.args(s.args, self.params(pr.params), what, s.span)

    def do_effect(self, s: ir.DoEffect) -> None:
        """`do x.effect(args)`: x is a component whose type has that effect field."""
        subj = self.expr(s.subject)
        info = self.sym.entity_types.get(subj.name) if subj.kind == "entity" else None
        fd = info.code_fields.get(s.field) if info else None
        if subj == ANY:
            pass  # its error is reported
        elif info is None:
            self.sink.error(codes.TYPE_MISMATCH, s.subject.span, messages.do_needs_component(subj))
        elif fd is None or fd.kind != "effect":
            effects = [k for k, f in info.code_fields.items() if f.kind == "effect"]
            hint = did_you_mean(s.field, effects)
            self.sink.error(codes.UNKNOWN_FIELD, s.span, messages.no_effect_field(subj.name, s.field, hint))
        else:
            self.args(s.args, self.params(fd.params), f"'{s.field}'", s.span)
            return
        self.exprs(s.args)

    def modifier_stmt(self, s: ir.AddModifier | ir.Cancel) -> None:
        """`add modifier m(args) until end of P`, `cancel m(args)` or `cancel one m(args)`."""
        if isinstance(s, ir.Cancel) and s.name == "active" and "active" not in self.sym.modifiers:
            self.sink.error(codes.UNKNOWN_NAME, s.span, messages.CANCEL_ACTIVE)  # `cancel active m(x)`
            self.exprs(s.args)
            return
        self.modifier(s.name, s.args, s.span)
        if isinstance(s, ir.Cancel) or s.until_phase is None:
            return
        if s.until_phase not in self.sym.phases and s.until_phase != "game":
            hint = did_you_mean(s.until_phase, [*self.sym.phases, "game"])
            self.sink.error(codes.UNDEFINED_PHASE, s.span, messages.no_phase(s.until_phase, hint))

    def emit(self, s: ir.Emit) -> None:
        ev = self.sym.events.get(s.event)
        if ev is None:
            hint = did_you_mean(s.event, list(self.sym.events))
            self.sink.error(codes.UNKNOWN_NAME, s.span, messages.no_event(s.event, hint))
        else:
            self.args(s.args, self.params(ev.params), f"event '{s.event}'", s.span)

    def exprs(self, es: tuple[ir.Expr, ...]) -> None:
        """Check each of `es`, no type expected of it."""
        for e in es:
            self.expr(e)

    def assign(self, s: ir.Assign) -> None:
        t = self.rhs(s.value)
        local = self.scope.lookup(s.target)
        target: Type | None = None
        if local is not None and local[2]:
            self.sink.error(
                codes.TYPE_MISMATCH,
                s.span,
                messages.assign_to_comprehension_variable(s.target),
            )
            return
        if local is not None and not s.indices:
            target = local[1]
            self.ann.names[id(s)] = Binding("local", local[0], target)
        elif s.target in self.sym.state:
            sv, vt, per = self.sym.state[s.target]
            self.ann.names[id(s)] = Binding("state", s.target, vt)
            if len(s.indices) != len(per):
                self.sink.error(
                    codes.WRONG_ARG_COUNT,
                    s.span,
                    messages.index_count(s.target, len(per), len(s.indices)),
                )
            for e, pt in zip(s.indices, per, strict=False):
                self.want(e, pt, "an index")
            target = vt
        else:
            self.sink.error(
                codes.UNKNOWN_NAME,
                s.span,
                messages.cannot_assign_to(
                    s.target, did_you_mean(s.target, [*self.scope.names(), *self.sym.state])
                ),
            )
            return
        if s.op in ("+=", "-=") and target not in (INT, ANY):
            self.sink.error(codes.TYPE_MISMATCH, s.span, messages.update_needs_int(s.op, s.target, target))
        elif not compatible(target, t):
            self.sink.error(
                codes.TYPE_MISMATCH,
                s.value.span,
                messages.cannot_assign(s.target, target, t),
                *zone_notes(target, t),
            )
        elif target.kind == "zone":
            self.ann.zone_refs.add(id(s.value))

    def zone(self, e: ir.Expr, kind: str) -> Type | None:
        """Where a zone is needed (moved into, dealt or drawn from, shuffled): a named zone or a zone
        value (`z: pile[card]`); a list, even one copied from a zone, is no zone."""
        t = self.expr(e)
        if t.kind == "any":
            return None
        if t.kind != "zone":
            notes = (messages.LIST_IS_NO_ZONE_NOTE,) if t.kind == "list" else ()
            self.sink.error(codes.TYPE_MISMATCH, e.span, messages.expected_zone(t), *notes)
            return None
        if t.name != kind:
            self.sink.error(codes.TYPE_MISMATCH, e.span, messages.expected_zone_kind(kind, t, t.name))
        return t.elem

    def modifier(self, name: str, args: tuple[ir.Expr, ...], span: ir.Span) -> None:
        m = self.sym.modifiers.get(name)
        if m is None:
            hint = did_you_mean(name, list(self.sym.modifiers))
            kind = self.kind_of_name(name)
            if kind is not None:
                notes = [messages.not_a_modifier(name, kind)]
            else:
                notes = [] if hint else [messages.modifiers_declared(list(self.sym.modifiers))]
            self.sink.error(codes.UNKNOWN_NAME, span, messages.no_modifier(name, hint), *notes)
            for a in args:
                self.expr(a)
            return
        self.args(args, self.params(m.params), f"modifier '{name}'", span)

    def kind_of_name(self, name: str) -> str | None:
        """What a declared name that is not a modifier is ("a function"), for a note; None if it is
        not declared (or is a local)."""
        sym = self.sym
        if self.scope.lookup(name) is not None:
            return "a local"
        kinds = (
            (sym.functions, "a function"),
            (sym.procedures, "a procedure"),
            (sym.events, "an event"),
            (sym.state, "a state variable"),
            (sym.constants, "a constant"),
            (sym.options, "an option"),
            (sym.zones, "a zone"),
            (sym.entities, "a component"),
            (sym.enum_values, "an enum value"),
            (sym.players, "a player"),
        )
        return next((kind for table, kind in kinds if name in table), None)

    def args(self, args: tuple[ir.Expr, ...], params: dict[str, Type], what: str, span: ir.Span) -> None:
        if len(args) != len(params):
            self.sink.error(
                codes.WRONG_ARG_COUNT, span, messages.argument_count(what, len(params), len(args))
            )
        for a, (pname, pt) in zip(args, params.items(), strict=False):
            self.want(a, pt, f"argument '{pname}'")
        for a in args[len(params) :]:
            self.expr(a)

    # ---- expressions ------------------------------------------------------------------------
    def expr(self, e: ir.Expr) -> Type:
        t = self._expr(e)
        self.ann.types[id(e)] = t
        return t

    def _expr(self, e: ir.Expr) -> Type:
        match e:  # the kinds a spec has most first (a case is an isinstance test)
            case ir.Name():
                return self.name_expr(e)
            case ir.Index():
                return self.index(e)
            case ir.Compare():
                return self.compare(e)
            case ir.IntLit():
                return INT
            case ir.Call():
                return self.call(e)
            case ir.BoolOp():
                return self.boolop(e)
            case ir.BoolLit():
                return BOOL
            case ir.Field():
                return self.field(e)
            case ir.StrLit():
                return self.string(e)
            case ir.Quantifier():
                return self.quantifier(e)
            case ir.BinOp():
                return self.binop(e)
            case ir.NoneLit():
                return NONE
            case ir.MethodCall():
                return self.method_call(e)
            case ir.ListLit():
                return self.list_lit(e)
            case ir.ListComp():
                return self.list_comp(e)
            case ir.Aggregate():
                return self.aggregate(e)
            case ir.Not():
                return self.operand(e.operand, BOOL, "the operand of 'not'")
            case ir.Neg():
                return self.operand(e.operand, INT, "the operand of '-'")
            case ir.CondExpr():
                return self.cond_expr(e)
            case ir.Active():
                return self.active(e)
            case ir.CountActive():
                return self.count_active(e)
            case ir.Choose() | ir.ChooseNumber() | ir.Ask():
                return self.decision_in_expression(e)
            case _:
                assert_never(e)

    def string(self, e: ir.StrLit) -> Type:
        self.exprs(tuple(p for p in e.parts if not isinstance(p, str)))
        return STR

    def name_expr(self, e: ir.Name) -> Type:
        b = self.name(e)
        self.ann.names[id(e)] = b
        return b.type

    def method_call(self, e: ir.MethodCall) -> Type:
        """`x.f(args)`: an expression field of x's component type, with parameters."""
        subj = self.expr(e.subject)
        info = self.sym.entity_types.get(subj.name) if subj.kind == "entity" else None
        fd = info.code_fields.get(e.name) if info else None
        if info is None or fd is None or fd.kind != "expr":
            if subj != ANY:
                self.sink.error(codes.UNKNOWN_FIELD, e.span, messages.no_expression_field(subj, e.name))
            self.exprs(e.args)
            return ANY
        self.args(e.args, self.params(fd.params), f"'{e.name}'", e.span)
        return info.field_types[e.name]

    def list_lit(self, e: ir.ListLit) -> Type:
        """`[a, b]`: the first item's type (after any `none`), which the others must match."""
        elem: Type = ANY
        for it in e.items:
            t = self.expr(it)
            if elem == ANY or elem.kind == "none":
                elem = t
            elif not comparable(elem, t):
                self.sink.error(codes.TYPE_MISMATCH, it.span, messages.list_cannot_hold(elem, t))
        if elem.kind == "zone":  # a list of zones holds the zones themselves
            self.ann.zone_refs.update(id(it) for it in e.items)
        return list_of(elem)

    def comprehension(self, e: ir.ListComp | ir.Quantifier | ir.Aggregate) -> Type:
        """Enter the scope of `x for x in xs where cond`: declare x, check the condition. The
        caller checks what it computes from x, then leaves the scope (scope.pop)."""
        elem = self.source(e.source)
        self.scope.push()
        self.ann.slots[id(e)] = self.scope.declare(e.var, elem, comp=True)
        if e.cond is not None:
            self.want(e.cond, BOOL, "a where-condition")
        return elem

    def list_comp(self, e: ir.ListComp) -> Type:
        self.comprehension(e)
        t = self.expr(e.item)
        if t.kind == "zone":
            self.ann.zone_refs.add(id(e.item))
        self.scope.pop()
        return list_of(t)

    def quantifier(self, e: ir.Quantifier) -> Type:
        """count/any/all ... or filter: a number, a truth, or the elements that pass."""
        elem = self.comprehension(e)
        self.scope.pop()
        return {"count": INT, "any": BOOL, "all": BOOL}.get(e.kind, list_of(elem))

    def aggregate(self, e: ir.Aggregate) -> Type:
        self.comprehension(e)
        self.want(e.item, INT, f"what {e.kind} adds up")
        self.scope.pop()
        return INT

    def binop(self, e: ir.BinOp) -> Type:
        """Arithmetic on ints, or `+` joining two lists (or zones) of one type."""
        lt, rt = self.expr(e.left), self.expr(e.right)
        if e.op == "+" and lt.kind in ("list", "zone") and rt.kind in ("list", "zone"):
            if not comparable(list_of(lt.elem or ANY), list_of(rt.elem or ANY)):
                self.sink.error(codes.TYPE_MISMATCH, e.span, messages.cannot_join(lt, rt))
            return list_of(lt.elem or ANY)
        self.int_operands(e, lt, rt)
        return INT

    def compare(self, e: ir.Compare) -> Type:
        """Membership in a list or zone, equality of comparable types, or order of ints."""
        lt, rt = self.expr(e.left), self.expr(e.right)
        if e.op in ("in", "not in"):
            member = rt.iterable_elem
            if member is None and rt == ANY:
                pass
            elif member is None:
                self.sink.error(codes.TYPE_MISMATCH, e.right.span, messages.membership_needs_list(e.op, rt))
            elif not comparable(member, lt):
                self.sink.error(codes.TYPE_MISMATCH, e.span, messages.never_in(lt, rt))
            elif member.kind == "zone":
                self.ann.zone_refs.add(id(e.left))
        elif e.op in ("==", "!="):
            if not comparable(lt, rt):
                self.sink.error(codes.TYPE_MISMATCH, e.span, messages.cannot_compare(lt, rt))
            elif {lt.kind, rt.kind} <= {"zone", "none"} and "zone" in (lt.kind, rt.kind):
                self.ann.zone_refs.update((id(e.left), id(e.right)))  # the same zone, not the same cards
        else:
            self.int_operands(e, lt, rt)
        return BOOL

    def int_operands(self, e: ir.BinOp | ir.Compare, lt: Type, rt: Type) -> None:
        for side, t in ((e.left, lt), (e.right, rt)):
            if not compatible(INT, t):
                self.sink.error(codes.TYPE_MISMATCH, side.span, messages.needs_int_operands(e.op, t))

    def boolop(self, e: ir.BoolOp) -> Type:
        self.want(e.left, BOOL, f"the left side of '{e.op}'")
        self.want(e.right, BOOL, f"the right side of '{e.op}'")
        return BOOL

    def operand(self, e: ir.Expr, t: Type, what: str) -> Type:
        """The operand of `not` or of `-`, which gives its own type back."""
        self.want(e, t, what)
        return t

    def cond_expr(self, e: ir.CondExpr) -> Type:
        self.want(e.cond, BOOL, "a condition")
        then_t, else_t = self.expr(e.then), self.expr(e.other)
        if not comparable(then_t, else_t):
            self.sink.error(codes.TYPE_MISMATCH, e.span, messages.branches_differ(then_t, else_t))
        return else_t if then_t.kind == "none" else then_t

    def active(self, e: ir.Active) -> Type:
        self.modifier(e.name, e.args, e.span)
        return BOOL

    def count_active(self, e: ir.CountActive) -> Type:
        """`count active m(args)`: how many instances are in force (`any active m` is no form)."""
        self.modifier(e.name, e.args, e.span)
        if e.quant != "count":
            self.sink.error(codes.DSL_SYNTAX, e.span, messages.only_count_active(e.quant))
            return ANY  # what was meant is unclear: no type errors follow from it
        return INT

    def decision_in_expression(self, e: ir.Decision) -> Type:
        """A decision stands only as the whole value of a let or an assignment (see rhs)."""
        if self.in_code_unit_without_decisions:
            self.sink.error(codes.MISPLACED_DECISION, e.span, messages.DECISION_WHERE_NOTHING_WAITS)
        elif self.in_setup and id(e) not in self.why:
            pass  # a scenario's setup: `decision` reports that it cannot ask at all
        else:
            message = self.why.get(id(e), messages.DECISION_INSIDE_EXPRESSION)
            self.sink.error(codes.MISPLACED_DECISION, e.span, message)
        return self.decision(e)

    def source(self, e: ir.Expr) -> Type:
        t = self.expr(e)
        elem = t.iterable_elem
        if elem is None:
            if t != ANY:
                self.sink.error(codes.TYPE_MISMATCH, e.span, messages.expected_list_or_zone(t))
            return ANY
        return elem

    def name(self, e: ir.Name) -> Binding:
        n = e.ident
        local = self.scope.lookup(n)
        if local is not None:
            return Binding("comp" if local[2] else "local", local[0], local[1])
        b = self.global_bindings.get(n)
        if b is None:
            reported = len(self.sink.items)
            b = self.global_name(e)
            if b.kind != "error" and len(self.sink.items) == reported:
                self.global_bindings[n] = b  # the same wherever no local hides it
        return b

    def global_name(self, e: ir.Name) -> Binding:
        sym, n = self.sym, e.ident
        if n in sym.clashed:  # declared twice (reported): which one is meant is unclear
            return Binding("error", n, ANY)
        if n in sym.constants:
            return Binding("const", n, sym.constants[n][0])
        if n in sym.options:
            o = sym.options[n]
            return Binding(
                "option", n, option_type(o) if o.type in ("int", "bool") or o.type in sym.enums else ANY
            )
        if n in sym.state:
            sv, t, per = sym.state[n]
            if per:
                self.sink.error(
                    codes.WRONG_ARG_COUNT,
                    e.span,
                    messages.state_needs_indices(n, ", ".join(map(str, per))),
                )
            return Binding("state", n, t)
        if n in sym.zones:
            z, t = sym.zones[n]
            per = sym.zone_per.get(n, ())
            if per == (PLAYER,):
                self.sink.error(codes.WRONG_ARG_COUNT, e.span, messages.zone_needs_owner(n))
            elif per:
                self.sink.error(
                    codes.WRONG_ARG_COUNT, e.span, messages.zone_index_count(n, [str(pt) for pt in per], 0)
                )
            return Binding("zone", n, t)
        if n in sym.entities:
            tname, _ = sym.entities[n]
            copies = sym.entity_types[tname].copies.get(n)
            if copies is not None:
                self.sink.error(
                    codes.AMBIGUOUS_COPY,
                    e.span,
                    messages.ambiguous_copy(n, copies),
                    messages.ambiguous_copy_note(n),
                )
            return Binding("entity", n, Type("entity", tname))
        if n in sym.enum_values:
            return Binding("enum", n, Type("enum", sym.enum_values[n][0]))
        if n in sym.players:
            return Binding("player", n, PLAYER)
        if n in sym.entity_types:
            return Binding("all", n, list_of(Type("entity", n)))
        if n in sym.enums:
            return Binding("values", n, list_of(Type("enum", n)))
        if n == "players":
            return Binding("players", n, list_of(PLAYER))
        if n == "num_players":
            return Binding("num_players", n, INT)
        m = sym.modifiers.get(n)
        if m is not None:
            self.sink.error(codes.UNKNOWN_NAME, e.span, messages.modifier_as_value(n, bool(m.params)))
            return Binding("error", n, ANY)
        if n in sym.unchecked or self.params_unknown:
            return Binding("error", n, ANY)
        self.sink.error(
            codes.UNKNOWN_NAME,
            e.span,
            messages.unknown_name(n, did_you_mean(n, [*self.scope.names(), *sym.global_names()])),
        )
        return Binding("error", n, ANY)

    def field(self, e: ir.Field) -> Type:
        subj = self.expr(e.subject)
        if subj.kind == "any":
            return ANY
        if subj.kind != "entity" or subj.name == "player":
            self.sink.error(codes.TYPE_MISMATCH, e.subject.span, messages.field_needs_component(e.name, subj))
            return ANY
        info = self.sym.entity_types[subj.name]
        if e.name in ("id", "name"):
            return STR
        if e.name not in info.field_types or e.name in info.code_fields:
            self.sink.error(
                codes.UNKNOWN_FIELD,
                e.span,
                messages.no_field(
                    subj.name,
                    e.name,
                    did_you_mean(e.name, [k for k in info.field_types if k not in info.code_fields]),
                ),
            )
            return ANY
        return info.field_types[e.name]

    def index(self, e: ir.Index) -> Type:
        sym = self.sym
        if (
            isinstance(e.subject, ir.Name)
            and e.subject.ident in sym.state
            and e.subject.ident not in sym.clashed
            and self.scope.lookup(e.subject.ident) is None
        ):
            sv, t, per = sym.state[e.subject.ident]
            self.ann.names[id(e.subject)] = Binding("state", sv.name, t)
            if len(e.args) != len(per):
                self.sink.error(
                    codes.WRONG_ARG_COUNT, e.span, messages.index_count(sv.name, len(per), len(e.args))
                )
            for a, pt in zip(e.args, per, strict=False):
                self.want(a, pt, "an index")
            return t
        if (
            isinstance(e.subject, ir.Name)
            and e.subject.ident in sym.zones
            and e.subject.ident not in sym.clashed
            and self.scope.lookup(e.subject.ident) is None
        ):
            z, t = sym.zones[e.subject.ident]
            self.ann.names[id(e.subject)] = Binding("zone", z.name, t)
            per = sym.zone_per.get(z.name, ())
            if not per and len(e.args) == 1:  # `deck[0]`: a position in a shared zone
                self.want(e.args[0], INT, "a position in a zone")
                return t.elem or ANY
            if len(e.args) != len(per):
                self.sink.error(
                    codes.WRONG_ARG_COUNT,
                    e.span,
                    messages.zone_index_count(z.name, [str(pt) for pt in per], len(e.args)),
                )
            for a, pt in zip(e.args, per, strict=False):
                self.want(a, pt, "the zone's owner" if per == (PLAYER,) else f"an index of zone '{z.name}'")
            for a in e.args[len(per) :]:
                self.expr(a)
            return t
        t = self.expr(e.subject)
        if t.kind in ("list", "zone") and len(e.args) == 1:  # `xs[i]`, `hand[p][i]`, `z[i]`
            self.want(e.args[0], INT, "a position in a zone" if t.kind == "zone" else "a list position")
            return t.elem or ANY
        if t != ANY:
            self.sink.error(codes.TYPE_MISMATCH, e.span, messages.cannot_index(t))
        self.exprs(e.args)
        return ANY

    def call(self, e: ir.Call) -> Type:
        sym = self.sym
        if e.respond and not self.window_call(e.func, True, e.span):
            self.exprs(e.args)
            return ANY
        if e.func in sym.functions:
            f = sym.functions[e.func]
            self.args(e.args, self.params(f.params), f"function '{e.func}'", e.span)
            return sym.type_named(f.returns.text) or ANY
        if e.func in BUILTINS:
            return self.builtin(e)
        if e.func in sym.procedures:
            if self.in_code_unit_without_decisions:
                self.sink.error(codes.MISPLACED_CALL, e.span, messages.procedure_call_misplaced(e.func))
            elif sym.procedures[e.func].returns is None:
                self.sink.error(codes.NO_VALUE, e.span, messages.procedure_as_value(e.func))
            else:  # left inside an expression where it cannot run first (compiler/hoist.py)
                message = self.why.get(id(e), messages.CALL_INSIDE_EXPRESSION)
                self.sink.error(codes.MISPLACED_CALL, e.span, message)
            self.exprs(e.args)
            return ANY
        if e.func in sym.modifiers:
            self.sink.error(codes.UNKNOWN_NAME, e.span, messages.modifier_as_value(e.func, True))
            self.exprs(e.args)
            return ANY
        self.sink.error(
            codes.UNKNOWN_NAME,
            e.span,
            messages.unknown_function(e.func, did_you_mean(e.func, [*sym.functions, *BUILTINS])),
        )
        for a in e.args:
            self.expr(a)
        return ANY

    def builtin(self, e: ir.Call) -> Type:
        """A call of a builtin: where it may stand and its arguments' count from the table, its types
        from its rule in BUILTIN_RULES."""
        spec = BUILTINS[e.func]
        if spec.chance and self.in_code_unit_without_decisions:
            self.sink.error(codes.MISPLACED_CHANCE, e.span, messages.misplaced_chance(e.func))
        if spec.arity is None:
            if len(e.args) < 2:
                self.sink.error(codes.WRONG_ARG_COUNT, e.span, messages.two_or_more_numbers(e.func))
        elif not spec.arity <= len(e.args) <= spec.arity + spec.optional:
            wanted = messages.between(spec.arity, spec.arity + spec.optional)
            self.sink.error(
                codes.WRONG_ARG_COUNT, e.span, messages.argument_count(f"'{e.func}'", wanted, len(e.args))
            )
            for x in e.args:
                self.expr(x)
            return ANY
        return BUILTIN_RULES[e.func](self, e)

    # ---- the typing rules of the builtins, one each (BUILTIN_RULES) ------------------------------
    def builtin_of_a_player(self, e: ir.Call) -> Type:
        self.want(e.args[0], PLAYER, "a player")
        return PLAYER

    def builtin_seat_in(self, e: ir.Call) -> Type:
        """`next_in(p, xs)`, `previous_in(p, xs)`: a player of the list xs, or none."""
        self.want(e.args[0], PLAYER, "a player")
        self.want(e.args[1], list_of(PLAYER), "the players to look among")
        return PLAYER

    def builtin_seat_distance(self, e: ir.Call) -> Type:
        self.want(e.args[0], PLAYER, "the seat counted from")
        self.want(e.args[1], PLAYER, "the seat counted to")
        return INT

    def builtin_players_from(self, e: ir.Call) -> Type:
        self.want(e.args[0], PLAYER, "the first player")
        if len(e.args) > 1:
            self.want(e.args[1], list_of(PLAYER), "the players to keep")
        return list_of(PLAYER)

    def builtin_of_numbers(self, e: ir.Call) -> Type:
        for x in e.args:
            self.want(x, INT, f"an argument of {e.func}")
        return INT

    def builtin_abs(self, e: ir.Call) -> Type:
        self.want(e.args[0], INT, "abs's argument")
        return INT

    def builtin_roll(self, e: ir.Call) -> Type:
        self.want(e.args[0], INT, "the number of die faces")
        return INT

    def builtin_len(self, e: ir.Call) -> Type:
        self.source(e.args[0])
        return INT

    def builtin_random(self, e: ir.Call) -> Type:
        return self.source(e.args[0])

    def builtin_empty(self, e: ir.Call) -> Type:
        t = self.expr(e.args[0])
        if t.kind not in ("zone", "any"):
            self.sink.error(codes.TYPE_MISMATCH, e.args[0].span, messages.empty_needs_zone(t))
        return BOOL

    def builtin_top(self, e: ir.Call) -> Type:
        return self.zone(e.args[0], "pile") or ANY

    def builtin_top_n(self, e: ir.Call) -> Type:
        held = self.zone(e.args[0], "pile") or ANY
        self.want(e.args[1], INT, "how many")
        return list_of(held)

    def builtin_range(self, e: ir.Call) -> Type:
        self.want(e.args[0], INT, "the first number")
        self.want(e.args[1], INT, "the end (excluded)")
        return list_of(INT)

    def builtin_cell(self, e: ir.Call) -> Type:
        self.want(e.args[0], INT, "x")
        self.want(e.args[1], INT, "y")
        self.grid_needed(e.span)
        return CELL

    def builtin_cell_of(self, e: ir.Call) -> Type:
        self.on_grid(e, e.args[0])
        return CELL

    def builtin_neighbors(self, e: ir.Call) -> Type:
        return list_of(self.on_grid(e, e.args[0]))

    def builtin_open_cells_around(self, e: ir.Call) -> Type:
        self.source(e.args[0])
        return list_of(CELL)

    def builtin_adjacent(self, e: ir.Call) -> Type:
        self.on_grid(e, e.args[0])
        self.on_grid(e, e.args[1])
        return BOOL

    def builtin_label(self, e: ir.Call) -> Type:
        self.expr(e.args[0])
        return STR

    def on_grid(self, e: ir.Call, x: ir.Expr) -> Type:
        t = self.expr(x)
        if t.kind not in ("entity", "any") or t.name == "player":
            self.sink.error(codes.TYPE_MISMATCH, x.span, messages.needs_grid_component(e.func, t))
        return t

    def grid_needed(self, span: ir.Span) -> None:
        if not any(z.kind == "grid" for z, _ in self.sym.zones.values()):
            self.sink.error(codes.TYPE_MISMATCH, span, messages.CELLS_NEED_GRID)


# builtin name -> its typing rule, for a call whose argument count is right (compiler/builtins.py
# holds the rest of what a builtin is)
BUILTIN_RULES: Final[Mapping[str, Callable[[Checker, ir.Call], Type]]] = MappingProxyType(
    {
        "opponent": Checker.builtin_of_a_player,
        "next_player": Checker.builtin_of_a_player,
        "previous_player": Checker.builtin_of_a_player,
        "left_of": Checker.builtin_of_a_player,
        "right_of": Checker.builtin_of_a_player,
        "next_in": Checker.builtin_seat_in,
        "previous_in": Checker.builtin_seat_in,
        "seat_distance": Checker.builtin_seat_distance,
        "players_from": Checker.builtin_players_from,
        "len": Checker.builtin_len,
        "abs": Checker.builtin_abs,
        "min": Checker.builtin_of_numbers,
        "max": Checker.builtin_of_numbers,
        "roll": Checker.builtin_roll,
        "random": Checker.builtin_random,
        "empty": Checker.builtin_empty,
        "top": Checker.builtin_top,
        "top_n": Checker.builtin_top_n,
        "range": Checker.builtin_range,
        "cell": Checker.builtin_cell,
        "cell_of": Checker.builtin_cell_of,
        "neighbors": Checker.builtin_neighbors,
        "open_cells_around": Checker.builtin_open_cells_around,
        "adjacent": Checker.builtin_adjacent,
        "label": Checker.builtin_label,
    }
)
if BUILTIN_RULES.keys() != BUILTINS.keys():  # a builtin the checker cannot type, or a rule for none
    raise ImportError(
        f"check.BUILTIN_RULES and builtins.BUILTINS differ: {sorted(BUILTIN_RULES.keys() ^ BUILTINS.keys())}"
    )


def zone_notes(want: Type, got: Type) -> tuple[str, ...]:
    """The note on a list given where a zone value is wanted."""
    return (messages.LIST_IS_NO_ZONE_NOTE,) if want.kind == "zone" and got.kind == "list" else ()


def option_type(o: ir.OptionDecl) -> Type:
    """What an option reads as in code: an int, a bool or a value of its enum."""
    return INT if o.type == "int" else BOOL if o.type == "bool" else Type("enum", o.type)


def ends(body: tuple[ir.Stmt, ...]) -> bool:
    """Whether `body` never runs past its end: its last statement is `return VALUE` or `end game`,
    or an if/elif/else whose every branch ends so (a simple, structural rule)."""
    if not body:
        return False
    last = body[-1]
    match last:
        case ir.Return():
            return last.value is not None
        case ir.EndGame():
            return True
        case ir.If():
            return bool(last.orelse) and ends(last.orelse) and all(ends(b) for _, b in last.branches)
        case _:
            return False


def check(sym: Symbols, sink: Sink, why: Mapping[int, str] | None = None) -> Annotations:
    """Type-check every code unit of the game; `why` tells why a decision or a procedure call was
    left inside an expression (compiler/hoist.py)."""
    checker = Checker(sym, sink)
    if why:
        checker.why = why
    return checker.run()
