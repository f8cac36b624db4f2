"""Static facts: the symbols -> constants, data tables, action domains, state variables and the
facts GameInfo carries (what saved states are checked against). Each label is written once: the
domains and GameInfo name the data tables that hold them, and cell and number labels are computed
by the runtime.
"""

from __future__ import annotations

import itertools

from compiler import ir
from compiler.check import option_type
from compiler.lower.context import Context
from compiler.lower.expressions import python_type, value_type
from compiler.lower.frames import default_value
from compiler.typesys import PLAYER, Type
from compiler.viewmodel import Constant, DataTable, DomainFact, Info, OptionFact, StateVar, ZoneFact


def constants(cx: Context) -> tuple[Constant, ...]:
    sym, names = cx.sym, cx.names
    out = [Constant(names.claim("type", name), i) for name, i in cx.type_index.items()]
    zone = 0
    for zname in sym.zones:
        out.append(Constant(names.claim("zone", zname), zone))
        zone += sym.zone_instances(zname)
    out += [Constant(names.claim("player", p), i) for i, p in enumerate(sym.players)]
    out += [Constant(names.claim("entity", e), i) for e, (_, i) in sym.entities.items()]
    out += [Constant(names.claim("modifier", m), i) for i, m in enumerate(sym.modifiers)]
    out += [Constant(names.claim("phase", p), i) for i, p in enumerate(sym.phases)]
    return tuple(out)


def data_tables(cx: Context) -> tuple[DataTable, ...]:
    """Component ids, labels and data columns, enum values, player labels. A component table has
    one extra entry at the end: what `none` (index -1) reads."""
    sym, names = cx.sym, cx.names
    out = []
    for tname, info in sym.entity_types.items():
        out.append(DataTable(names.claim("ids", tname), "tuple[str, ...]", (*info.ids, "none")))
        out.append(DataTable(names.claim("labels", tname), "tuple[str, ...]", tuple(info.labels)))
        if info.copies:  # rows with copies: each component's row (kind), and the rows' labels
            out.append(DataTable(names.claim("kinds", tname), "tuple[int, ...]", tuple(info.kinds)))
            out.append(
                DataTable(
                    names.claim("kind_labels", tname),
                    "tuple[str, ...]",
                    tuple(e.label for e in info.decl.entities),
                )
            )
        for fname, column in info.data.items():
            t = info.field_types[fname]
            out.append(
                DataTable(
                    names.claim("column", tname, fname),
                    f"tuple[{python_type(t)}, ...]",
                    (*column, default_value(t)),  # what a field of `none` reads
                )
            )
    for ename, values in sym.enums.items():
        # the labels: what actions, logs and views show (the names, unless the spec gives labels)
        out.append(DataTable(names.claim("enum", ename), "tuple[str, ...]", tuple(sym.enum_labels[ename])))
        if enum_ids(cx, ename) != names.claim("enum", ename):
            out.append(DataTable(enum_ids(cx, ename), "tuple[str, ...]", tuple(values)))
    out.append(DataTable("PLAYER_LABELS", "tuple[str, ...]", tuple(sym.game.player_labels)))
    return tuple(out)


def _option(cx: Context, o: ir.OptionDecl) -> OptionFact:
    """What GameInfo says of an option: an enum option's type is `enum:E`, its default and choices
    value names, and it names the table of the enum's names (the values it may take)."""
    if o.type not in cx.sym.enums:
        return OptionFact(o.name, o.type, o.default, tuple(o.choices), o.doc)
    return OptionFact(o.name, f"enum:{o.type}", o.default, o.choices, o.doc, enum_ids(cx, o.type))


def enum_ids(cx: Context, ename: str) -> str:
    """The table of an enum's value names, which options are set by: its labels' table when the
    values are their own labels."""
    if _labelled(cx, ename):
        return cx.names.claim("enum_ids", ename)
    return cx.names.claim("enum", ename)


def _labelled(cx: Context, ename: str) -> bool:
    """The spec gives the enum's values labels of their own."""
    return cx.sym.enum_labels[ename] != cx.sym.enums[ename]


def domains(cx: Context) -> tuple[DomainFact, ...]:
    """The action space: pass, no/yes, numbers, cells, players, then each component type and enum."""
    sym, names = cx.sym, cx.names
    out = [
        DomainFact("pass", 0, labels=("pass",)),
        DomainFact("bool", 0, labels=("no", "yes")),
        DomainFact("number", 0, numbers_up_to=sym.game.max_number),
    ]
    if radius(cx):
        out.append(DomainFact("cell", 0, cells_radius=radius(cx)))
    out.append(DomainFact("player", 0, table="PLAYER_LABELS"))
    # a component type's actions: one per row (kind), so a row's copies are one action
    out += [
        DomainFact(f"entity:{t}", 0, table=names.claim("kind_labels" if info.copies else "labels", t))
        for t, info in sym.entity_types.items()
    ]
    out += [DomainFact(f"enum:{e}", 0, table=names.claim("enum", e)) for e in sym.enums]
    sizes = domain_sizes(cx)
    placed, offset = [], 0
    for i, d in enumerate(out):
        cx.domains[d.name] = i
        cx.domain_offsets.append(offset)
        placed.append(DomainFact(d.name, offset, d.labels, d.table, d.numbers_up_to, d.cells_radius))
        offset += sizes[d.name]
    return tuple(placed)


def domain_sizes(cx: Context) -> dict[str, int]:
    """How many actions each domain has (a component type's: one per row)."""
    sym = cx.sym
    return {
        "pass": 1,
        "bool": 2,
        "number": sym.game.max_number + 1,
        "cell": (2 * radius(cx) + 1) ** 2,
        "player": len(sym.game.player_labels),
        **{f"entity:{t}": len(info.decl.entities) for t, info in sym.entity_types.items()},
        **{f"enum:{e}": len(values) for e, values in sym.enums.items()},
    }


def radius(cx: Context) -> int:
    return max((z.radius for z, _ in cx.sym.zones.values() if z.kind == "grid"), default=0)


def state_vars(cx: Context) -> tuple[StateVar, ...]:
    """The options' values, then the state variables, as attributes of the state."""
    sym = cx.sym
    out = []
    for o in sym.game.options:
        python = "bool" if o.type == "bool" else "int"
        values = enum_ids(cx, o.type) if o.type in sym.enums else ""
        out.append(StateVar(o.name, f"o_{o.name}", python, None, option=python, option_values=values))
    for name, (sv, t, per) in sym.state.items():
        initial = _initial(cx, sv, t)
        python = python_type(t)
        dims: list[int | None] = []
        for pt in per:
            # a component or enum index gets one extra slot at the end: what `none` (-1) reads
            if pt == PLAYER:
                dims.append(None)
            elif pt.kind == "entity":
                dims.append(len(sym.entity_types[pt.name].ids) + 1)
            else:
                dims.append(len(sym.enums[pt.name]) + 1)
            python = f"list[{python}]"
        out.append(StateVar(name, f"v_{name}", python, initial, tuple(dims)))
    return tuple(out)


def _initial(cx: Context, sv: ir.StateVar, t: Type) -> object:
    """A state variable's declared initial value, or its type's: -1 (none) for a reference."""
    return cx.sym.initial_values.get(sv.name, default_value(t))


def _index_labels(cx: Context, per: tuple[Type, ...], index: tuple[int, ...]) -> list[str]:
    """The labels of one zone instance's indices: a player's, a component's, an enum value."""
    sym, out = cx.sym, []
    for t, i in zip(per, index, strict=True):
        if t == PLAYER:
            labels = sym.game.player_labels
            out.append(labels[i] if i < len(labels) else str(i))
        elif t.kind == "entity":
            out.append(sym.entity_types[t.name].labels[i])
        else:
            out.append(sym.enums[t.name][i])
    return out


def info(cx: Context) -> Info:
    sym = cx.sym
    types = list(sym.entity_types)
    zones = []
    for zname, (z, t) in sym.zones.items():
        assert t.elem is not None
        type_index = cx.type_index.get(t.elem.name, 0)
        per = sym.zone_per.get(zname, ())
        owner_at = sym.zone_owner_index(zname)
        for index in itertools.product(*(range(sym.index_size(pt)) for pt in per)):
            owner = index[owner_at] if owner_at is not None else -1
            # a zone per player alone is named by the runtime (`hand[Alice]`); others here
            label = "" if per in ((), (PLAYER,)) else f"{zname}[{','.join(_index_labels(cx, per, index))}]"
            zones.append(ZoneFact(zname, type_index, z.kind, owner, z.visibility, label))
    type_slots = {**cx.type_index, **{e: len(cx.type_index) + i for i, e in enumerate(sym.enums)}}
    held_types: dict[str, int] = {}
    for n, (_, t, _) in sym.state.items():
        held = t.elem if t.kind == "list" and t.elem is not None else t
        if held.kind == "entity" and held.name in cx.type_index:
            held_types[n] = cx.type_index[held.name]
    # what a saved state's variables and modifier arguments may hold (runtime/saved.py checks it)
    var_types: dict[str, tuple[str, tuple[str, ...]]] = {
        o.name: (value_type(option_type(o)), ()) for o in sym.game.options
    }
    for n, (_, t, per) in sym.state.items():
        var_types[n] = (value_type(t), tuple(value_type(pt) for pt in per))
    return Info(
        player_labels="PLAYER_LABELS",
        player_ids=tuple(sym.players),
        player_count=sym.game.player_count.data,
        options=tuple(_option(cx, o) for o in sym.game.options),
        type_names=(*types, "player"),
        id_tables=tuple(cx.names.claim("ids", t) for t in types),
        label_tables=(*(cx.names.claim("labels", t) for t in types), "PLAYER_LABELS"),
        kind_tables=tuple(
            cx.names.claim("kinds", t) if info.copies else "" for t, info in sym.entity_types.items()
        ),
        zones=tuple(zones),
        domains=domains(cx),
        radius=radius(cx),
        phases=tuple(sym.phases),
        modifiers=tuple(sym.modifiers),
        owner_vars=tuple(n for n, (sv, _, _) in sym.state.items() if sv.visibility == "owner"),
        chance=_uses(sym.game, "chance"),
        die_faces=_die_faces(sym.game),
        secret_choices=_uses(sym.game, "secret"),
        var_indices={
            n: tuple(type_slots[pt.name] for pt in per) for n, (_, _, per) in sym.state.items() if per
        },
        var_values=held_types,
        var_types=var_types,
        var_ranges=var_ranges(cx),
        placed_types=placed_types(cx),
        modifier_params=tuple(
            tuple(value_type(sym.type_named(p.type.text) or PLAYER) for p in m.params)
            for m in sym.modifiers.values()
        ),
        windows=tuple(w.name for w in sym.game.windows),
        simultaneous=_uses(sym.game, "simultaneous"),
    )


def var_ranges(cx: Context) -> dict[str, tuple[int | None, int | None]]:
    """Each bounded int variable (a track: `min`, `max`) -> the lowest and highest value it can
    hold (None: no bound that side). Every assignment clamps into the declared range; the variable's
    initial value, which nothing clamps, widens it (a `min: 1` track without `initial` starts at 0).
    A phase's pass counter is left out: the flow counts without clamping."""
    counters = {ph.counter for ph in ir.walk(cx.sym.game) if isinstance(ph, ir.PhaseDecl)}
    out: dict[str, tuple[int | None, int | None]] = {}
    for name, (sv, t, _) in cx.sym.state.items():
        if value_type(t) != "int" or (sv.low is None and sv.high is None) or name in counters:
            continue
        start = _initial(cx, sv, t)
        start = start if type(start) is int else 0
        low = None if sv.low is None else min(sv.low, start, sv.high if sv.high is not None else sv.low)
        high = None if sv.high is None else max(sv.high, start)
        out[name] = (low, high)
    return out


def placed_types(cx: Context) -> tuple[int, ...]:
    """The component types (their indices) all of whose components are in a zone in every state
    that waits on a decision: the setup moves or places each of them, whatever the options, before
    anything that may stop for a decision. Nothing takes a component out of every zone (`move` and
    `place` take it from one zone into another), so they stay in one; a saved state holding one in
    no zone is refused (runtime/saved.py). A type this cannot tell (a move under a condition, a
    loop over some of the type) is left out: its components may be in no zone."""
    g = cx.sym.game
    placed: dict[str, set[int]] = {}
    for s in g.setup.body if g.setup is not None else ():
        if cx.stops.stmt(s, cx.ann):
            break
        for tname, ids in _placing(cx, s):
            placed.setdefault(tname, set()).update(ids)
    zoned = {t.elem.name for _, t in cx.sym.zones.values() if t.elem is not None}
    return tuple(
        cx.type_index[t]
        for t, info in cx.sym.entity_types.items()
        if t in zoned and len(placed.get(t, ())) == len(info.ids)
    )


def _placing(cx: Context, s: ir.Stmt) -> list[tuple[str, range | set[int]]]:
    """The components a statement of the setup surely moves or places into a zone, by type:
    `move K to Z` or `place K on G at C` of a component K; `for x in T { .. move x .. }` over
    every component of a type T (or every one but K: `where x != K`), whose body moves or places
    x whichever way its ifs go."""
    names = cx.ann.names
    match s:
        case ir.Move(item=item) | ir.Place(item=item):
            b = names.get(id(item))
            if b is not None and b.kind == "entity":
                tname, index = cx.sym.entities[b.target]
                return [(tname, {index})]
        case ir.For(source=source, cond=cond, body=body):
            b = names.get(id(source))
            slot = cx.ann.slots.get(id(s))
            if b is None or b.kind != "all" or slot is None or not _places_local(cx, body, slot):
                return []
            every = range(len(cx.sym.entity_types[b.target].ids))
            if cond is None:
                return [(b.target, every)]
            if isinstance(cond, ir.Compare) and cond.op == "!=":
                sides = (names.get(id(cond.left)), names.get(id(cond.right)))
                for mine, other in (sides, sides[::-1]):
                    if mine is not None and mine.kind == "local" and mine.target == slot:
                        if other is not None and other.kind == "entity":
                            tname, index = cx.sym.entities[other.target]
                            if tname == b.target:
                                return [(tname, set(every) - {index})]
    return []


def _places_local(cx: Context, body: tuple[ir.Stmt, ...], slot: str) -> bool:
    """Whether `body` surely moves or places the local `slot` (in each branch of an if that has
    an else)."""
    for s in body:
        match s:
            case ir.Move(item=ir.Name() as item) | ir.Place(item=ir.Name() as item):
                b = cx.ann.names.get(id(item))
                if b is not None and b.kind == "local" and b.target == slot:
                    return True
            case ir.If(branches=branches, orelse=orelse):
                if orelse and _places_local(cx, orelse, slot):
                    if all(_places_local(cx, block, slot) for _, block in branches):
                        return True
    return False


def _die_faces(g: ir.Game) -> int:
    """The most faces of a die the rules roll with a written number (`roll(6)`); 6 without one.
    Explicit chance bounds its outcome ids with it (a die rolled with more faces, counted at run
    time, is a rule error there)."""
    faces = [
        node.args[0].value
        for node in ir.walk(g)
        if isinstance(node, ir.Call)
        and node.func == "roll"
        and node.args
        and isinstance(node.args[0], ir.IntLit)
    ]
    return max(faces, default=6)


def _uses(g: ir.Game, what: str) -> bool:
    """Whether the rules (scenarios aside) roll, pick at random or shuffle (`chance`), or ask
    secret choices (`secret`). Adapters use these to say what kind of game it is."""
    for top in ir.children(g):
        if isinstance(top, ir.ScenarioDecl):
            continue
        for node in ir.walk(top):
            if what == "chance" and (
                isinstance(node, ir.Shuffle)
                or (isinstance(node, ir.Call) and node.func in ("roll", "random"))
            ):
                return True
            if what == "secret" and isinstance(node, ir.Choose) and node.secret:
                return True
            if (
                what == "simultaneous"
                and isinstance(node, ir.Choose | ir.ChooseNumber | ir.Ask)
                and node.simultaneous
            ):
                return True
    return False
