"""Resolve: an ir.Game -> its global Symbols, checking every declaration-level name and value.

Checks here: duplicate ids, unknown types, component data against their columns, references to
phases, events and options. Names inside DSL code are resolved with their scopes in check.py.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass, field

from compiler import errorcodes as codes
from compiler import ir, messages
from compiler.diagnostics import Sink, did_you_mean
from compiler.typesys import ANY, BOOL, CELL, INT, PLAYER, STR, Type, list_of

SCALAR_TYPES = {"int": INT, "bool": BOOL, "str": STR, "cell": CELL}
NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
GAME_NAME_RE = re.compile(r"[a-z][a-z0-9_]*")  # a package in generated/


_MAX_SUGGESTED_FROM = 1000


def plain_name(name: str) -> str:
    """A plain name close to `name`, to suggest in place of it."""
    plain = re.sub(r"[^A-Za-z0-9_]+", "_", name).strip("_").lower() or "x"
    return "_" + plain if plain[0].isdigit() else plain


@dataclass
class EntityInfo:
    """An entity type with its rows: ids in declaration order, field types and data."""

    decl: ir.EntityType
    ids: list[str]
    labels: list[str]
    position: dict[str, int] = field(default_factory=dict)  # id -> its index in `ids`
    field_types: dict[str, Type] = field(default_factory=dict)
    # data field -> one value per entity (ints for int/bool/entity/enum refs, -1 for none)
    data: dict[str, list[object]] = field(default_factory=dict)
    code_fields: dict[str, ir.FieldDecl] = field(default_factory=dict)


@dataclass
class Symbols:
    """Every global name of a game, with its type."""

    game: ir.Game
    players: list[str]
    max_players: int
    entity_types: dict[str, EntityInfo] = field(default_factory=dict)
    entities: dict[str, tuple[str, int]] = field(default_factory=dict)
    enums: dict[str, list[str]] = field(default_factory=dict)
    enum_values: dict[str, tuple[str, int]] = field(default_factory=dict)
    constants: dict[str, tuple[Type, object]] = field(default_factory=dict)
    options: dict[str, ir.OptionDecl] = field(default_factory=dict)
    state: dict[str, tuple[ir.StateVar, Type, tuple[Type, ...]]] = field(default_factory=dict)
    # state variable -> its written initial value as the engine holds it (a component as its index)
    initial_values: dict[str, object] = field(default_factory=dict)
    zones: dict[str, tuple[ir.ZoneDecl, Type]] = field(default_factory=dict)
    functions: dict[str, ir.FunctionDecl] = field(default_factory=dict)
    procedures: dict[str, ir.ProcedureDecl] = field(default_factory=dict)
    events: dict[str, ir.SignatureDecl] = field(default_factory=dict)
    modifiers: dict[str, ir.SignatureDecl] = field(default_factory=dict)
    phases: dict[str, ir.PhaseDecl] = field(default_factory=dict)

    def type_named(self, name: str) -> Type | None:
        if not name:  # a type left out, already reported by load: any type, so nothing follows from it
            return ANY
        if name in SCALAR_TYPES:
            return SCALAR_TYPES[name]
        if name == "player":
            return PLAYER
        if name in self.entity_types:
            return Type("entity", name)
        if name in self.enums:
            return Type("enum", name)
        if name.startswith("list[") and name.endswith("]"):
            inner = self.type_named(name[5:-1])
            return list_of(inner) if inner else None
        return None

    def known_type_names(self) -> list[str]:
        return [*SCALAR_TYPES, "player", *self.entity_types, *self.enums]

    def global_names(self) -> list[str]:
        return [
            *self.constants,
            *self.options,
            *self.state,
            *self.zones,
            *self.entities,
            *self.enum_values,
            *self.players,
            *self.entity_types,
            "players",
            "num_players",
        ]


def resolve(game: ir.Game, sink: Sink) -> Symbols:
    names = list(game.player_names)
    count = game.player_count.data
    max_players = len(names)
    if isinstance(count, int) and not isinstance(count, bool):
        max_players = count
        if count < 1 and names:
            sink.error(codes.WRONG_VALUE_TYPE, game.player_count.span, messages.PLAYER_COUNT_BELOW_ONE)
        elif count > len(names):
            sink.error(
                codes.WRONG_VALUE_TYPE,
                game.player_count.span,
                messages.more_players_than_names(count, len(names)),
            )
    elif isinstance(count, str):
        opt = next((o for o in game.options if o.name == count), None)
        if opt is None:
            sink.error(
                codes.UNKNOWN_NAME,
                game.player_count.span,
                messages.player_count_not_an_option(
                    count, did_you_mean(count, [o.name for o in game.options])
                ),
            )
        elif opt.type != "int" or not opt.choices:
            sink.error(
                codes.TYPE_MISMATCH,
                opt.span,
                messages.player_count_option_kind(count),
            )
        elif max(opt.choices) > len(names) or min(opt.choices) < 1 or opt.default not in opt.choices:
            sink.error(
                codes.WRONG_VALUE_TYPE,
                opt.span,
                messages.player_count_choices(count, list(opt.choices), opt.default, len(names)),
            )
    else:
        sink.error(codes.WRONG_VALUE_TYPE, game.player_count.span, messages.PLAYER_COUNT_KIND)
    sym = Symbols(game, names, max_players)
    del count
    taken: dict[str, ir.Span] = {}

    def claim(name: str, span: ir.Span, what: str) -> bool:
        if not NAME_RE.fullmatch(name):
            sink.error(
                codes.BAD_NAME,
                span,
                messages.not_a_plain_name(f"{what} id", name, plain_name(name)),
            )
            return False
        if name in taken:
            sink.error(
                codes.DUPLICATE_ID,
                span,
                messages.already_defined(what, name),
                messages.first_defined_at(taken[name]),
            )
            return False
        taken[name] = span
        return True

    for pname in names:
        claim(pname, game.player_count.span, "player")
    for o in game.options:
        if claim(o.name, o.span, "option"):
            sym.options[o.name] = o
    for en in game.enums:
        if claim(en.name, en.span, "enum"):
            sym.enums[en.name] = list(en.values)
            for i, v in enumerate(en.values):
                if claim(v, en.span, "enum value"):
                    sym.enum_values[v] = (en.name, i)
    for et in game.types:
        if et.name in ("player", *SCALAR_TYPES) or not claim(et.name, et.span, "type"):
            if et.name in ("player", *SCALAR_TYPES):
                sink.error(codes.DUPLICATE_ID, et.span, messages.built_in_type(et.name))
            continue
        info = EntityInfo(et, [e.id for e in et.entities], [e.label for e in et.entities])
        for i, ent in enumerate(et.entities):
            info.position.setdefault(ent.id, i)
        sym.entity_types[et.name] = info
        labelled: dict[str, ir.Span] = {}
        for ent in et.entities:  # a name is an action label: two alike would make actions ambiguous
            if ent.label in labelled and ent.label != ent.id:
                sink.error(
                    codes.DUPLICATE_ID,
                    ent.span,
                    messages.same_component_label(et.name, ent.label),
                    messages.the_other_is_at(labelled[ent.label]),
                )
            labelled.setdefault(ent.label, ent.span)
        for i, ent in enumerate(et.entities):
            if ent.id and claim(ent.id, ent.span, "component"):
                sym.entities[ent.id] = (et.name, i)
    for c in game.constants:
        cv = c.value.data
        t: Type
        if isinstance(cv, bool):
            t = BOOL
        elif isinstance(cv, int):
            t = INT
        else:
            sink.error(codes.WRONG_VALUE_TYPE, c.value.span, messages.CONSTANT_KIND)
            continue
        if claim(c.name, c.span, "constant"):
            sym.constants[c.name] = (t, cv)
    for sv in game.state:
        t = _type(sym, sv.type, sink)
        per = tuple(_type(sym, p, sink) for p in sv.per)
        for pref, pt in zip(sv.per, per, strict=True):
            if pt.kind not in ("entity", "enum"):
                sink.error(
                    codes.TYPE_MISMATCH,
                    pref.span,
                    messages.bad_variable_index(pt),
                )
        if sv.visibility == "owner" and (not per or per[0] != PLAYER):
            sink.error(codes.TYPE_MISMATCH, sv.span, messages.OWNER_VARIABLE_NOT_PER_PLAYER)
        if (
            sv.initial is not None
            and isinstance(sv.initial.data, int)
            and not isinstance(sv.initial.data, bool)
        ):
            if (sv.low is not None and sv.initial.data < sv.low) or (
                sv.high is not None and sv.initial.data > sv.high
            ):
                sink.error(
                    codes.WRONG_VALUE_TYPE,
                    sv.initial.span,
                    messages.initial_out_of_range(
                        sv.initial.data,
                        sv.low if sv.low is not None else "-inf",
                        sv.high if sv.high is not None else "inf",
                    ),
                )
        if claim(sv.name, sv.span, "state variable"):
            sym.state[sv.name] = (sv, t, per)
            # (an unknown type is reported already: nothing more follows from the value)
            if sv.initial is not None and sym.type_named(sv.type.text) is not None:
                sym.initial_values[sv.name] = convert_value(sym, sv.initial, t, sink)
    for z in game.zones:
        held = _type(sym, z.of, sink)
        if held.kind not in ("entity", "any"):
            sink.error(codes.TYPE_MISMATCH, z.of.span, messages.zone_holds(held))
        if z.visibility == "owner" and not z.per_player:
            sink.error(codes.TYPE_MISMATCH, z.span, messages.OWNER_ZONE_NOT_PER_PLAYER)
        if claim(z.name, z.span, "zone"):
            sym.zones[z.name] = (z, Type("zone", z.kind, held))
    for f in game.functions:
        if claim(f.name, f.span, "function"):
            sym.functions[f.name] = f
    for pr in game.procedures:
        if claim(pr.name, pr.span, "procedure"):
            sym.procedures[pr.name] = pr
    for ev in game.events:
        if claim(ev.name, ev.span, "event"):
            sym.events[ev.name] = ev
    for m in game.modifiers:
        if claim(m.name, m.span, "modifier"):
            sym.modifiers[m.name] = m
    # the names of phases, triggers and invariants are checked by load, where they are written
    _phases(sym, game.phases, sink)
    if not GAME_NAME_RE.fullmatch(game.name) or keyword.iskeyword(game.name):
        sink.error(
            codes.BAD_NAME,
            game.span,
            messages.bad_game_name(game.name),
        )
    for ph in sym.phases.values():
        if ph.counter is not None and (
            ph.counter not in sym.state or sym.state[ph.counter][1] != INT or sym.state[ph.counter][2]
        ):
            sink.error(
                codes.UNKNOWN_NAME,
                ph.span,
                messages.bad_phase_counter(ph.counter, ph.name, did_you_mean(ph.counter, list(sym.state))),
            )
    for tr in game.triggers:
        if tr.event and tr.event not in sym.events:
            sink.error(
                codes.UNKNOWN_NAME,
                tr.span,
                messages.trigger_on_unknown_event(
                    tr.name, tr.event, did_you_mean(tr.event, list(sym.events))
                ),
            )
    for info in sym.entity_types.values():
        _entity_data(sym, info, sink)
    if not game.phases and not sink.unread:  # (they may be in a file that could not be read)
        sink.error(codes.MISSING_KEY, game.span, messages.NO_PHASES)
    return sym


def _phases(sym: Symbols, phases: tuple[ir.PhaseDecl, ...], sink: Sink) -> None:
    for ph in phases:
        if ph.repeat is not None and ph.while_ is not None:
            sink.error(
                codes.WRONG_VALUE_TYPE,
                ph.span,
                messages.repeat_and_while(ph.name),
            )
        if ph.counter is not None and ph.repeat is None and ph.while_ is None:
            sink.error(
                codes.MISSING_KEY,
                ph.span,
                messages.counter_without_loop(ph.name),
            )
        if ph.body is None and not ph.steps:
            sink.error(codes.MISSING_KEY, ph.span, messages.phase_without_body(ph.name))
        if not ph.name:  # already reported; kept under a key no code can name, so its body is checked
            sym.phases[f"(the phase at {ph.span})"] = ph
        elif ph.name in sym.phases:
            sink.error(
                codes.DUPLICATE_ID,
                ph.span,
                messages.already_defined("phase", ph.name),
                messages.first_defined_at(sym.phases[ph.name].span),
            )
        else:
            sym.phases[ph.name] = ph
        _phases(sym, ph.steps, sink)


def _type(sym: Symbols, ref: ir.TypeRef, sink: Sink) -> Type:
    t = sym.type_named(ref.text)
    if t is None:
        sink.error(
            codes.UNKNOWN_TYPE,
            ref.span,
            messages.unknown_type(ref.text, did_you_mean(ref.text, sym.known_type_names())),
        )
        return INT
    return t


def field_type(sym: Symbols, fd: ir.FieldDecl, sink: Sink) -> Type:
    if fd.type.text == "effect":
        return Type("any")
    return _type(sym, fd.type, sink)


def _entity_data(sym: Symbols, info: EntityInfo, sink: Sink) -> None:
    for fd in info.decl.fields:
        t = field_type(sym, fd, sink)
        info.field_types[fd.name] = t
        if fd.kind != "data":
            info.code_fields[fd.name] = fd
            continue
        column: list[object] = []
        for ent in info.decl.entities:
            vals = dict(ent.values)
            if fd.name not in vals:
                if not fd.optional:
                    sink.error(
                        codes.MISSING_KEY,
                        ent.span,
                        messages.component_lacks(ent.id, fd.name),
                        messages.OPTIONAL_DATA_NOTE,
                    )
                column.append(_default(t))
                continue
            column.append(convert_value(sym, vals[fd.name], t, sink))
        info.data[fd.name] = column
    for ent in info.decl.entities:
        written = dict(ent.code)
        for fname, code in ent.code:
            if fname not in info.code_fields:
                sink.error(codes.UNKNOWN_FIELD, code.span, messages.not_a_code_field(fname))
        for fname, fd in info.code_fields.items():
            if fd.kind == "expr" and not fd.optional and fname not in written:
                sink.error(
                    codes.MISSING_KEY,
                    ent.span,
                    messages.component_lacks(ent.id, fname),
                    messages.OPTIONAL_CODE_NOTE,
                )


def _default(t: Type) -> object:
    if t.kind == "list":
        return []
    if t.is_ref:
        return -1
    if t.kind == "str":
        return ""
    return 0 if t.kind != "bool" else False


def convert_value(sym: Symbols, v: ir.Value, t: Type, sink: Sink) -> object:
    """A YAML value -> its runtime representation for type t (entity refs become indices)."""
    d = v.data
    if t.kind == "any":  # the column's type is missing, and that is reported already
        return d
    if t.kind == "int":
        if isinstance(d, bool) or not isinstance(d, int):
            sink.error(codes.WRONG_VALUE_TYPE, v.span, messages.expected_integer(d))
            return 0
        return d
    if t.kind == "bool":
        if not isinstance(d, bool):
            sink.error(codes.WRONG_VALUE_TYPE, v.span, messages.expected_bool(d))
            return False
        return d
    if t.kind == "str":
        return "" if d is None else str(d)
    if t.kind == "list":
        assert t.elem is not None
        if not isinstance(d, list):
            sink.error(codes.WRONG_VALUE_TYPE, v.span, messages.expected_list(d))
            return []
        return [convert_value(sym, ir.Value(x, v.span), t.elem, sink) for x in d]
    if t.kind == "entity":
        if d is None or d == "none":
            return -1
        if t.name == "player":
            if d in sym.players:
                return sym.players.index(str(d))
            sink.error(
                codes.UNKNOWN_NAME,
                v.span,
                messages.unknown_value("player", d, did_you_mean(str(d), sym.players)),
            )
            return -1
        info = sym.entity_types[t.name]
        if isinstance(d, str) and d in info.position:
            return info.position[d]
        # (no suggestion from thousands of ids: a misspelt value in each of thousands of rows
        # would take minutes to compare)
        hint = did_you_mean(str(d), info.ids) if len(info.ids) <= _MAX_SUGGESTED_FROM else ""
        sink.error(codes.UNKNOWN_NAME, v.span, messages.unknown_value(t.name, d, hint))
        return -1
    if t.kind == "enum":
        vals = sym.enums[t.name]
        if d in vals:
            return vals.index(str(d))
        sink.error(codes.UNKNOWN_NAME, v.span, messages.unknown_value(t.name, d, did_you_mean(str(d), vals)))
        return 0
    sink.error(codes.WRONG_VALUE_TYPE, v.span, messages.not_writable_in_yaml(t))
    return 0
