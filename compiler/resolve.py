"""Resolve: an ir.Game -> its global Symbols, checking every declaration-level name and value.

Checks here: duplicate ids, unknown types, component data against their columns, state initial
values (converted once, for the lowerer to read), references to phases, events and options.
Names inside DSL code are resolved with their scopes in check.py.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass, field

from compiler import errorcodes as codes
from compiler import ir, messages
from compiler.diagnostics import Sink, did_you_mean
from compiler.limits import MAX_COMPONENTS, MAX_ZONE_INDICES, MAX_ZONE_INSTANCES
from compiler.typesys import ANY, BOOL, CELL, INT, PLAYER, STR, Type, list_of

SCALAR_TYPES = {"int": INT, "bool": BOOL, "str": STR, "cell": CELL}
ZONE_KINDS = ("pile", "grid")
NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
GAME_NAME_RE = re.compile(r"[a-z][a-z0-9_]*")  # a package in generated/


_MAX_SUGGESTED_FROM = 1000


def plain_name(name: str) -> str:
    """A plain name close to `name`, to suggest in place of it."""
    plain = re.sub(r"[^A-Za-z0-9_]+", "_", name).strip("_").lower() or "x"
    return "_" + plain if plain[0].isdigit() else plain


@dataclass
class EntityInfo:
    """An entity type with its rows: ids in declaration order, field types and data.

    A row with `copies: N` stands for N components (entities) at consecutive indices, sharing its
    id, label and data: `ids`, `labels` and the data columns have an entry per component, and
    `kinds` says which row (kind) each component is of."""

    decl: ir.EntityType
    ids: list[str]
    labels: list[str]
    position: dict[str, int] = field(default_factory=dict)  # id -> its (first) index in `ids`
    kinds: list[int] = field(default_factory=list)  # each component's row
    copies: dict[str, int] = field(default_factory=dict)  # id -> copies, for rows of more than one
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
    enum_labels: dict[str, list[str]] = field(default_factory=dict)  # enum -> its values' labels
    constants: dict[str, tuple[Type, object]] = field(default_factory=dict)
    options: dict[str, ir.OptionDecl] = field(default_factory=dict)
    state: dict[str, tuple[ir.StateVar, Type, tuple[Type, ...]]] = field(default_factory=dict)
    # state variable -> its written initial value as the engine holds it (a component as its index)
    initial_values: dict[str, object] = field(default_factory=dict)
    zones: dict[str, tuple[ir.ZoneDecl, Type]] = field(default_factory=dict)
    zone_per: dict[str, tuple[Type, ...]] = field(default_factory=dict)  # zone -> its index types
    functions: dict[str, ir.FunctionDecl] = field(default_factory=dict)
    procedures: dict[str, ir.ProcedureDecl] = field(default_factory=dict)
    events: dict[str, ir.SignatureDecl] = field(default_factory=dict)
    modifiers: dict[str, ir.SignatureDecl] = field(default_factory=dict)
    phases: dict[str, ir.PhaseDecl] = field(default_factory=dict)
    unchecked: frozenset[str] = frozenset()  # see ir.Game.unchecked: any type, reported already
    # names declared twice (reported): which one a use meant is unclear, so a use reads as any type
    clashed: frozenset[str] = frozenset()

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
        for kind in ZONE_KINDS:  # a zone value: `pile[card]` holds one instance of a pile of cards
            if name.startswith(kind + "[") and name.endswith("]"):
                held = name[len(kind) + 1 : -1]
                if held in self.entity_types:
                    return Type("zone", kind, Type("entity", held))
                return Type("zone", kind, ANY) if held in self.unchecked else None
        return ANY if name in self.unchecked else None

    def type_hint(self, name: str) -> str:
        """A "did you mean" for a type name that is not known, looked for inside `list[...]`,
        `pile[...]` and `grid[...]`."""
        inner = name
        while inner.endswith("]") and "[" in inner:
            inner = inner[inner.index("[") + 1 : -1]
        if inner == name:
            return did_you_mean(name, self.known_type_names())
        if inner in self.known_type_names():
            return ""  # known: a zone of something that is not a component, reported as unknown
        return did_you_mean(inner, self.known_type_names())

    def zone_instances(self, name: str) -> int:
        """How many instances a declared zone has: the product of its index sizes."""
        count = 1
        for t in self.zone_per.get(name, ()):
            count *= self.index_size(t)
        return count

    def index_size(self, t: Type) -> int:
        """The instances one index of a zone spans: every seat, component or enum value."""
        if t == PLAYER:
            return self.max_players
        if t.kind == "entity" and t.name in self.entity_types:
            return len(self.entity_types[t.name].ids)
        if t.kind == "enum" and t.name in self.enums:
            return len(self.enums[t.name])
        return 1

    def zone_owner_index(self, name: str) -> int | None:
        """The position of the player index of a zone (its owner), or None."""
        per = self.zone_per.get(name, ())
        return per.index(PLAYER) if PLAYER in per else None

    def known_type_names(self) -> list[str]:
        return [*SCALAR_TYPES, "player", *self.entity_types, *self.enums]

    def declared_kind(self, name: str) -> str:
        """What the spec declares `name` to be ("a constant", "a player", ...); "" if nothing."""
        kinds = (
            (self.constants, "a constant"),
            (self.options, "an option"),
            (self.state, "a state variable"),
            (self.zones, "a zone"),
            (self.entities, "a component"),
            (self.enum_values, "an enum value"),
            (self.players, "a player"),
            (self.entity_types, "a component type"),
            (self.enums, "an enum"),
            (self.functions, "a function"),
        )
        return next((what for names, what in kinds if name in names), "")

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
    """Declare every global name of `game` in one namespace, checking each declaration."""
    sym = Symbols(game, list(game.player_names), _player_count(game, sink))
    sym.unchecked = frozenset(game.unchecked)
    names = _Names(sink)
    _declare_players(sym, names)
    _declare_options(sym, names)
    _declare_enums(sym, names, sink)
    _enum_options(sym, sink)
    _declare_types(sym, names, sink)
    _declare_constants(sym, names, sink)
    _declare_state(sym, names, sink)
    _declare_zones(sym, names, sink)
    _declare_code_units(sym, names)
    # the names of phases, triggers and invariants are checked by load, where they are written
    _phases(sym, game.phases, sink)
    _game_name(game, sink)
    _phase_counters(sym, sink)
    _trigger_events(sym, sink)
    for info in sym.entity_types.values():
        _entity_data(sym, info, sink)
    if not game.phases and not sink.unread:  # (they may be in a file that could not be read)
        sink.error(codes.MISSING_KEY, game.span, messages.NO_PHASES)
    sym.clashed = frozenset(names.clashed)
    return sym


@dataclass
class _Names:
    """The global names declared so far: players, options, enums and their values, types,
    components, constants, state, zones and code units share one namespace."""

    sink: Sink
    taken: dict[str, ir.Span] = field(default_factory=dict)
    clashed: set[str] = field(default_factory=set)  # names declared twice (see Symbols.clashed)

    def claim(self, name: str, span: ir.Span, what: str) -> bool:
        """Take `name` for a declaration of `what`; False (reported) if it is not a plain name or taken."""
        if not NAME_RE.fullmatch(name):
            self.sink.error(
                codes.BAD_NAME, span, messages.not_a_plain_name(f"{what} id", name, plain_name(name))
            )
            return False
        if name in self.taken:
            self.sink.error(
                codes.DUPLICATE_ID,
                span,
                messages.already_defined(what, name),
                messages.first_defined_at(self.taken[name]),
            )
            self.clashed.add(name)
            return False
        self.taken[name] = span
        return True


def _player_count(game: ir.Game, sink: Sink) -> int:
    """The most players the game seats: `players.count`, a number or an int option with choices."""
    names, count = game.player_names, game.player_count.data
    if isinstance(count, int) and not isinstance(count, bool):
        if count < 1 and names:
            sink.error(codes.WRONG_VALUE_TYPE, game.player_count.span, messages.PLAYER_COUNT_BELOW_ONE)
        elif count > len(names):
            sink.error(
                codes.WRONG_VALUE_TYPE,
                game.player_count.span,
                messages.more_players_than_names(count, len(names)),
            )
        return count
    if isinstance(count, str):
        _player_count_option(game, count, sink)
    else:
        sink.error(codes.WRONG_VALUE_TYPE, game.player_count.span, messages.PLAYER_COUNT_KIND)
    return len(names)


def _player_count_option(game: ir.Game, name: str, sink: Sink) -> None:
    """The option that sets the player count: an int option whose choices the names can seat."""
    seats = len(game.player_names)
    opt = next((o for o in game.options if o.name == name), None)
    if opt is None:
        hint = did_you_mean(name, [o.name for o in game.options])
        sink.error(
            codes.UNKNOWN_NAME, game.player_count.span, messages.player_count_not_an_option(name, hint)
        )
    elif opt.type not in ("int", "bool") and all(en.name != opt.type for en in game.enums):
        pass  # an unknown type, reported (_enum_options)
    elif opt.type != "int" or not opt.choices:
        sink.error(codes.TYPE_MISMATCH, opt.span, messages.player_count_option_kind(name))
    else:
        choices = [c for c in opt.choices if isinstance(c, int)]  # (an int option's are ints)
        if max(choices) > seats or min(choices) < 1 or opt.default not in choices:
            sink.error(
                codes.WRONG_VALUE_TYPE,
                opt.span,
                messages.player_count_choices(name, choices, opt.default, seats),
            )


def _declare_players(sym: Symbols, names: _Names) -> None:
    for pname in sym.players:
        names.claim(pname, sym.game.player_count.span, "player")


def _declare_options(sym: Symbols, names: _Names) -> None:
    for o in sym.game.options:
        if names.claim(o.name, o.span, "option"):
            sym.options[o.name] = o


def _declare_enums(sym: Symbols, names: _Names, sink: Sink) -> None:
    for en in sym.game.enums:
        if names.claim(en.name, en.span, "enum"):
            sym.enums[en.name] = list(en.values)
            sym.enum_labels[en.name] = list(en.labels or en.values)
            for i, v in enumerate(en.values):
                if names.claim(v, en.span, "enum value"):
                    sym.enum_values[v] = (en.name, i)
            if en.labels:
                _enum_labels(en, sink)


def _enum_labels(en: ir.EnumDecl, sink: Sink) -> None:
    """A value's label is an action's label, as a component's name is: two alike are ambiguous."""
    seen: set[str] = set()
    for label in en.labels:
        if label in seen:
            sink.error(codes.DUPLICATE_ID, en.labels_span, messages.same_enum_label(en.name, label))
            return
        seen.add(label)


def _enum_options(sym: Symbols, sink: Sink) -> None:
    """An option typed by an enum: a declared enum, its default and choices values of it."""
    for o in sym.options.values():
        if o.type in ("int", "bool"):
            continue
        values = sym.enums.get(o.type)
        if values is None:
            hint = did_you_mean(o.type, list(sym.enums)) if o.type != "enum" else ""
            note = [messages.name_the_enum(o.type, list(sym.enums))] if o.type == "enum" else []
            sink.error(codes.UNKNOWN_TYPE, o.type_span, messages.option_type(o.type, hint), *note)
            continue
        for choice in o.choices:
            if choice not in values:
                hint = did_you_mean(str(choice), values)
                sink.error(codes.UNKNOWN_NAME, o.choices_span, messages.unknown_value(o.type, choice, hint))
        if o.default_span == ir.NO_SPAN:
            pass  # not written, or not a single value: reported by load
        elif o.default not in values:
            hint = did_you_mean(str(o.default), values)
            sink.error(codes.UNKNOWN_NAME, o.default_span, messages.unknown_value(o.type, o.default, hint))
        elif o.choices and o.default not in o.choices:
            sink.error(codes.WRONG_VALUE_TYPE, o.default_span, messages.default_not_a_choice(o.name))


def _declare_types(sym: Symbols, names: _Names, sink: Sink) -> None:
    """Component types and their components (whose data is checked later, in _entity_data)."""
    counted = 0  # the components of the types so far, copies counted
    for et in sym.game.types:
        if et.name == "player" or et.name in SCALAR_TYPES:
            sink.error(codes.DUPLICATE_ID, et.span, messages.built_in_type(et.name))
            continue
        if not names.claim(et.name, et.span, "type"):
            continue
        info = _entity_info(et, sink, counted)
        counted += len(info.ids)
        sym.entity_types[et.name] = info
        _component_labels(et, sink)
        for ent in et.entities:
            if ent.id and names.claim(ent.id, ent.span, "component"):
                sym.entities[ent.id] = (et.name, info.position[ent.id])


def _entity_info(et: ir.EntityType, sink: Sink, before: int) -> EntityInfo:
    """A type's components: one per row, or `copies` of it at consecutive indices (`before`: the
    components of the types declared before it; all together they are bounded when copies expand
    them, and the rows from the one that goes over count one copy each)."""
    info = EntityInfo(et, [], [])
    total = before
    for row, ent in enumerate(et.entities):
        n = ent.copies
        if n > 1 and total + n > MAX_COMPONENTS:
            if total <= MAX_COMPONENTS:
                sink.error(
                    codes.LIMIT_EXCEEDED,
                    ent.span,
                    messages.components_too_many(MAX_COMPONENTS),
                    messages.COMPONENTS_NOTE,
                )
                total = MAX_COMPONENTS + 1
            n = 1
        info.position.setdefault(ent.id, len(info.ids))
        if n > 1:
            info.copies.setdefault(ent.id, n)
        info.ids += [ent.id] * n
        info.labels += [ent.label] * n
        info.kinds += [row] * n
        total += n
    return info


def _component_labels(et: ir.EntityType, sink: Sink) -> None:
    """A name is an action label: two alike would make actions ambiguous."""
    labelled: dict[str, ir.Span] = {}
    for ent in et.entities:
        if ent.label in labelled and ent.label != ent.id:
            sink.error(
                codes.DUPLICATE_ID,
                ent.span,
                messages.same_component_label(et.name, ent.label),
                messages.the_other_is_at(labelled[ent.label]),
            )
        labelled.setdefault(ent.label, ent.span)


def _declare_constants(sym: Symbols, names: _Names, sink: Sink) -> None:
    for c in sym.game.constants:
        cv = c.value.data
        if not isinstance(cv, int):  # (a bool is an int too)
            sink.error(codes.WRONG_VALUE_TYPE, c.value.span, messages.CONSTANT_KIND)
            # declared of any type, so that nothing more is reported (a clash, once it is right)
            if c.name not in names.taken and names.claim(c.name, c.span, "constant"):
                sym.constants[c.name] = (ANY, 0)
        elif names.claim(c.name, c.span, "constant"):
            sym.constants[c.name] = (BOOL if isinstance(cv, bool) else INT, cv)


def _declare_state(sym: Symbols, names: _Names, sink: Sink) -> None:
    """State variables, their indices and their initial values, converted once here."""
    for sv in sym.game.state:
        t = _type(sym, sv.type, sink)
        if _holds_zone(t):
            sink.error(codes.TYPE_MISMATCH, sv.type.span, messages.zone_value_stored("a state variable", t))
        per = tuple(_type(sym, p, sink) for p in sv.per)
        for pref, pt in zip(sv.per, per, strict=True):
            if pt.kind not in ("entity", "enum", "any"):
                sink.error(codes.TYPE_MISMATCH, pref.span, messages.bad_variable_index(pt))
        if sv.visibility == "owner" and (not per or per[0] not in (PLAYER, ANY)):
            sink.error(codes.TYPE_MISMATCH, sv.span, messages.OWNER_VARIABLE_NOT_PER_PLAYER)
        _initial_in_range(sv, sink)
        if names.claim(sv.name, sv.span, "state variable"):
            sym.state[sv.name] = (sv, t, per)
            # (an unknown type is reported already: nothing more follows from the value)
            if sv.initial is not None and sym.type_named(sv.type.text) is not None:
                sym.initial_values[sv.name] = convert_value(sym, sv.initial, t, sink)


def _initial_in_range(sv: ir.StateVar, sink: Sink) -> None:
    if sv.initial is None or isinstance(sv.initial.data, bool) or not isinstance(sv.initial.data, int):
        return
    value = sv.initial.data
    if (sv.low is not None and value < sv.low) or (sv.high is not None and value > sv.high):
        low = sv.low if sv.low is not None else "-inf"
        high = sv.high if sv.high is not None else "inf"
        sink.error(codes.WRONG_VALUE_TYPE, sv.initial.span, messages.initial_out_of_range(value, low, high))


def _declare_zones(sym: Symbols, names: _Names, sink: Sink) -> None:
    for z in sym.game.zones:
        held = _type(sym, z.of, sink)
        if held.kind not in ("entity", "any") or held == PLAYER:
            sink.error(codes.TYPE_MISMATCH, z.of.span, messages.zone_holds(held))
        per = _zone_per(sym, z, sink)
        if z.visibility in ("owner", "others") and PLAYER not in per and ANY not in per:
            sink.error(codes.TYPE_MISMATCH, z.span, messages.zone_not_per_player(z.visibility))
        if names.claim(z.name, z.span, "zone"):
            sym.zones[z.name] = (z, Type("zone", z.kind, held))
            sym.zone_per[z.name] = per
            instances = sym.zone_instances(z.name)
            if instances > MAX_ZONE_INSTANCES:
                sink.error(
                    codes.LIMIT_EXCEEDED,
                    z.span,
                    messages.zone_instances_too_many(z.name, instances, MAX_ZONE_INSTANCES),
                    messages.protects_the_tool("MAX_ZONE_INSTANCES"),
                )
                sym.zone_per[z.name] = ()


def _zone_per(sym: Symbols, z: ir.ZoneDecl, sink: Sink) -> tuple[Type, ...]:
    """A zone's index types: at most two, each a player, a component type or an enum. An index
    that is not one (reported) is of any type: the zone keeps its count of indices, and what
    indexes it is not reported again."""
    if len(z.per) > MAX_ZONE_INDICES:
        sink.error(codes.WRONG_VALUE_TYPE, z.per[MAX_ZONE_INDICES].span, messages.zone_per_count(len(z.per)))
        return ()
    per: list[Type] = []
    for ref in z.per:
        t = sym.type_named(ref.text)  # (any type when not a type name: load reported it)
        if t is None:
            sink.error(codes.UNKNOWN_TYPE, ref.span, messages.unknown_type(ref.text, sym.type_hint(ref.text)))
            t = ANY
        elif t.kind not in ("entity", "enum", "any"):
            sink.error(codes.TYPE_MISMATCH, ref.span, messages.bad_zone_index(t))
            t = ANY
        per.append(t)
    return tuple(per)


def _declare_code_units(sym: Symbols, names: _Names) -> None:
    """Functions, procedures, events and modifiers: their bodies are checked in check.py."""
    game = sym.game
    for f in game.functions:
        if names.claim(f.name, f.span, "function"):
            sym.functions[f.name] = f
    for pr in game.procedures:
        if names.claim(pr.name, pr.span, "window" if pr.window else "procedure"):
            sym.procedures[pr.name] = pr
    for ev in game.events:
        if names.claim(ev.name, ev.span, "event"):
            sym.events[ev.name] = ev
    for m in game.modifiers:
        if names.claim(m.name, m.span, "modifier"):
            sym.modifiers[m.name] = m


def _game_name(game: ir.Game, sink: Sink) -> None:
    if not GAME_NAME_RE.fullmatch(game.name) or keyword.iskeyword(game.name):
        sink.error(codes.BAD_NAME, game.span, messages.bad_game_name(game.name))


def _phase_counters(sym: Symbols, sink: Sink) -> None:
    """A phase's counter is a declared int state variable without indices."""
    for ph in sym.phases.values():
        if ph.counter is None:
            continue
        declared = sym.state.get(ph.counter)
        if declared is None or declared[1] not in (INT, ANY) or declared[2]:
            hint = did_you_mean(ph.counter, list(sym.state))
            sink.error(codes.UNKNOWN_NAME, ph.span, messages.bad_phase_counter(ph.counter, ph.name, hint))


def _trigger_events(sym: Symbols, sink: Sink) -> None:
    for tr in sym.game.triggers:
        if tr.watch is not None:
            _zone_watch(sym, tr.watch, sink)
        elif tr.event and tr.event not in sym.events and NAME_RE.fullmatch(tr.event.strip()):
            hint = did_you_mean(tr.event, list(sym.events))
            sink.error(
                codes.UNKNOWN_NAME, tr.span, messages.trigger_on_unknown_event(tr.name, tr.event, hint)
            )


def _zone_watch(sym: Symbols, w: ir.ZoneWatch, sink: Sink) -> None:
    """A zone pattern names a declared zone, binds one name per index, and hides no declared name."""
    if w.zone not in sym.zones:
        hint = did_you_mean(w.zone, list(sym.zones))
        sink.error(codes.UNKNOWN_NAME, w.span, messages.zone_pattern_unknown_zone(w.zone, hint))
    elif len(w.indices) != len(sym.zones[w.zone][0].per):
        per = len(sym.zones[w.zone][0].per)
        sink.error(codes.WRONG_ARG_COUNT, w.span, messages.zone_pattern_indices(w.zone, per, len(w.indices)))
    bound: set[str] = set()
    for name in (w.item, *w.indices):
        hidden = _declared_as(sym, name) or ("a name the pattern binds already" if name in bound else "")
        if hidden:
            sink.error(codes.BAD_ZONE_TRIGGER, w.span, messages.zone_pattern_shadows(name, hidden))
        bound.add(name)


def _declared_as(sym: Symbols, name: str) -> str:
    """What a global name is (empty if none): a local of that name would hide it."""
    if name in sym.players or name in ("players", "num_players"):
        return f"the player name '{name}'"
    kind = sym.declared_kind(name)
    return f"{kind} '{name}'" if kind else ""


def trigger_params(sym: Symbols, tr: ir.TriggerDecl) -> tuple[ir.Param, ...]:
    """The locals of a trigger's `if` and `do`: its event's parameters, or the component and the
    index names of its zone pattern (typed by the zone's `of` and `per`)."""
    w = tr.watch
    if w is None:
        ev = sym.events.get(tr.event)
        return ev.params if ev else ()
    z = sym.zones.get(w.zone)
    if z is None:  # (reported) the names the pattern binds are of any type
        return tuple(ir.Param(n, ir.TypeRef("", w.span), w.span) for n in (w.item, *w.indices))
    decl = z[0]
    # a type the zone's declaration got wrong is reported there: here it reads as any type
    types = [t.text if sym.type_named(t.text) is not None else "" for t in (decl.of, *decl.per)]
    return tuple(
        ir.Param(n, ir.TypeRef(t, w.span), w.span) for n, t in zip((w.item, *w.indices), types, strict=False)
    )


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
        sink.error(codes.UNKNOWN_TYPE, ref.span, messages.unknown_type(ref.text, sym.type_hint(ref.text)))
        return ANY  # reported: any type, so that nothing built on it is reported again
    return t


def _holds_zone(t: Type) -> bool:
    """A zone value, or a list of them: no YAML value writes one, and no state keeps one."""
    while t.kind == "list" and t.elem is not None:
        t = t.elem
    return t.kind == "zone"


def field_type(sym: Symbols, fd: ir.FieldDecl, sink: Sink) -> Type:
    if fd.type.text == "effect":
        return Type("any")
    return _type(sym, fd.type, sink)


def _entity_data(sym: Symbols, info: EntityInfo, sink: Sink) -> None:
    for fd in info.decl.fields:
        t = field_type(sym, fd, sink)
        if fd.kind == "data" and _holds_zone(t):
            sink.error(codes.TYPE_MISMATCH, fd.type.span, messages.zone_value_stored("a data field", t))
            t = ANY
        info.field_types[fd.name] = t
        if fd.kind != "data":
            info.code_fields[fd.name] = fd
            continue
        row_values: list[object] = []
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
                row_values.append(_default(t))
                continue
            row_values.append(convert_value(sym, vals[fd.name], t, sink))
        # a copy has its row's values
        info.data[fd.name] = [row_values[k] for k in info.kinds] if info.copies else row_values
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
        return _convert_entity(sym, v, t, sink)
    if t.kind == "enum":
        vals = sym.enums[t.name]
        if d in vals:
            return vals.index(str(d))
        sink.error(codes.UNKNOWN_NAME, v.span, messages.unknown_value(t.name, d, did_you_mean(str(d), vals)))
        return 0
    sink.error(codes.WRONG_VALUE_TYPE, v.span, messages.not_writable_in_yaml(t))
    return 0


def _convert_entity(sym: Symbols, v: ir.Value, t: Type, sink: Sink) -> int:
    """A player or a component named in YAML -> its index (-1 for none)."""
    d = v.data
    if d is None or d == "none":
        return -1
    if t.name == "player":
        if d in sym.players:
            return sym.players.index(str(d))
        sink.error(
            codes.UNKNOWN_NAME, v.span, messages.unknown_value("player", d, did_you_mean(str(d), sym.players))
        )
        return -1
    info = sym.entity_types[t.name]
    if isinstance(d, str) and d in info.position:
        if d in info.copies:  # which of the copies? (the first is read, to check on)
            sink.error(
                codes.AMBIGUOUS_COPY,
                v.span,
                messages.ambiguous_copy(d, info.copies[d]),
                messages.AMBIGUOUS_COPY_IN_DATA_NOTE,
            )
        return info.position[d]
    # (no suggestion from thousands of ids: a misspelt value in each of thousands of rows
    # would take minutes to compare)
    hint = did_you_mean(str(d), info.ids) if len(info.ids) <= _MAX_SUGGESTED_FROM else ""
    sink.error(codes.UNKNOWN_NAME, v.span, messages.unknown_value(t.name, d, hint))
    return -1
