"""A game's board: how it is drawn (declared in its spec's board.yaml, compiled into the game's
`board` module), and the scene of a state as one player sees it.

A scene is plain data: places (components at positions, with the values written on them),
tracks, counters, zones as rows of cards, lasting effects, whose turn it is. The SVG picture
(runtime/svg.py), the terminal view (runtime/view.py) and the HTML replay all draw scenes, so
what a player may not see is kept out in one place: the board's expressions read only public
things (the compiler checks it: `board-shows-hidden`), and zones come from the player's own
observation rules (a hidden zone is a count). A game without board.yaml gets a plain board
(`plain_board`): its numbers as counters, every zone as a row, and the components that have
values of their own.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from runtime.engine import GameState, cell_xy

# (state, a component's index or a player) -> a value; counters without `each` take the state alone
Reader = Callable[..., Any]

# the players' colours when board.yaml gives none
PALETTE = ("#2b5ca8", "#b8322a", "#2e8540", "#d08c1c", "#6d3fa0", "#1b8a8f")


@dataclass(frozen=True, slots=True)
class Shown:
    """A named value written on every place of a layer: `show: {name: expression}`."""

    name: str
    value: Reader
    kind: str  # the value's type, as GameInfo.shown reads it


@dataclass(frozen=True, slots=True)
class Places:
    """Components of one type drawn at places, or the players (`of` "player": a board each): a
    `board.places` entry."""

    of: str
    shape: str  # "box", "hex" or "circle"
    size: tuple[int, int]
    layout: str  # "at", "hex", "grid" or "cells"
    at: tuple[tuple[int, int] | None, ...] = ()  # "at": each component's position (None: not drawn)
    coords: tuple[Reader, Reader] | None = None  # "hex" (q, r) or "grid" (column, row)
    zone: str = ""  # "cells": the grid zone whose cells place them
    origin: tuple[int, int] = (0, 0)
    where: Reader | None = None
    group: Reader | None = None
    group_kind: str = "str"
    label: Reader | None = None
    show: tuple[Shown, ...] = ()
    owner: Reader | None = None
    marked: Reader | None = None
    links: Reader | None = None
    name: str = ""  # the layer's heading in the terminal (default: the type's name)
    mark: str = ""  # what `marked` means, in a word or two
    markers: Reader | None = None  # (state, x, p) -> player p's number on x: a badge, none at 0
    solid: Reader | None = None  # (state, x, p) -> the badge is filled (else an outline)


@dataclass(frozen=True, slots=True)
class Track:
    """A numbered track with a marker (one per player with `each_player`), or a counter: a named
    value (`counter`)."""

    name: str
    value: Reader
    kind: str
    low: int = 0
    high: int = 0
    each_player: bool = False
    counter: bool = False
    style: str = ""  # "bore": drawn on the board from `start` to `end`, bored from both ends
    start: tuple[int, int] = (0, 0)
    end: tuple[int, int] = (0, 0)


@dataclass(frozen=True, slots=True)
class Cards:
    """How components of a type are shown in zone rows: a short value and a text."""

    of: str
    value: Reader | None = None
    value_kind: str = "int"
    text: Reader | None = None


@dataclass(frozen=True, slots=True)
class Board:
    """The whole declaration (what a game's `board` module holds as BOARD)."""

    width: int
    height: int
    colors: tuple[str | None, ...] = ()  # by player
    labels: tuple[tuple[str, int, int], ...] = ()  # texts written on the board: text, x, y
    places: tuple[Places, ...] = ()
    tracks: tuple[Track, ...] = ()
    zones: tuple[str, ...] = ()  # the zones shown, in order (empty: every zone)
    cards: tuple[Cards, ...] = ()
    names: tuple[tuple[str, str], ...] = ()  # a zone's or a lasting effect's words (default: readable())
    declared: bool = True  # False: made up for a game without board.yaml


# ---- scenes ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlaceView:
    id: str
    label: str
    x: float
    y: float
    group: str
    values: tuple[tuple[str, str], ...]  # (name, value as shown)
    owner: int  # the player whose colour fills it, or -1
    marked: bool
    links: tuple[str, ...]  # ids of the same layer's places it is joined to
    coords: tuple[int, int] | None = None  # hex (q, r), grid (column, row) or cells (x, y); None: "at"
    markers: tuple[tuple[int, int, bool], ...] = ()  # (player, number, solid), each player's


@dataclass(frozen=True, slots=True)
class LayerView:
    of: str
    shape: str
    size: tuple[int, int]
    places: tuple[PlaceView, ...]
    layout: str = "at"  # "at", "hex", "grid" or "cells"
    name: str = ""  # its heading in the terminal
    mark: str = ""  # what a marked place is
    # "cells": the open cells the pending decision offers, each (the option, x, y), so that a
    # picture can show where a component would go
    spots: tuple[tuple[str, float, float], ...] = ()


@dataclass(frozen=True, slots=True)
class TrackView:
    name: str
    low: int
    high: int
    markers: tuple[tuple[int, int], ...]  # (player or -1, value)
    counter: bool
    text: str  # the value(s) in words
    style: str = ""  # "bore": drawn on the board from `start` to `end`
    start: tuple[int, int] = (0, 0)
    end: tuple[int, int] = (0, 0)


@dataclass(frozen=True, slots=True)
class CardView:
    id: str
    label: str
    value: str
    text: str
    count: int = 1  # identical copies shown as one (`Guard x5`): a type with copies only


@dataclass(frozen=True, slots=True)
class ZoneView:
    key: str  # `name` or `name[player label]`
    name: str
    owner: int  # the player a per-player zone belongs to, or -1
    count: int
    cards: tuple[CardView, ...] | None  # None: face down (only the count is seen)
    label: str = ""  # its heading in words: `Hand (Alice)` for `hand[Alice]`


@dataclass(frozen=True, slots=True)
class Scene:
    """What one player sees of a state (or everyone, `player` None), ready to draw."""

    title: str
    perspective: str
    player: int | None
    width: int
    height: int
    colors: tuple[str, ...]
    players: tuple[str, ...]  # the players' labels
    labels: tuple[tuple[str, int, int], ...]
    layers: tuple[LayerView, ...]
    tracks: tuple[TrackView, ...]
    zones: tuple[ZoneView, ...]
    effects: tuple[str, ...]
    status: str
    to_act: int  # the player asked, or -1
    prompt: str = ""  # the pending decision, when `player` (or everyone) is asked
    options: tuple[str, ...] = field(default=())
    public: bool = False  # what every player sees (a spectator), not everything


def board_of(state: GameState) -> Board:
    """The game's board: its compiled `board` module's BOARD, or a plain one made up."""
    info = state.INFO
    found = info.memo.get("board")
    if isinstance(found, Board):
        return found
    package = type(state).__module__.rpartition(".")[0]
    board: Board | None = None
    try:
        module = importlib.import_module(f"{package}.board")
    except ImportError:
        module = None
    if module is not None:
        declared = getattr(module, "BOARD", None)
        board = declared if isinstance(declared, Board) else None
    if board is None:
        board = plain_board(state)
    info.memo["board"] = board
    return board


def plain_board(state: GameState) -> Board:
    """A board for a game without board.yaml: its numbers and other plain values as counters,
    and for each component type with values of its own (`per: T` or `per: [T, player]`), a
    layer of its components that have one set (a row each in the terminal)."""
    info = state.INFO
    tracks: list[Track] = []
    shown: dict[str, list[Shown]] = {}
    for name, (kind, indices) in info.var_types.items():
        if name in info.owner_vars or name == "over" or not hasattr(state, f"v_{name}"):  # not an option
            continue
        if kind not in ("int", "bool", "player") and not kind.startswith(("entity:", "enum:")):
            continue
        if indices in ((), ("player",)):
            each = indices == ("player",)
            tracks.append(Track(name, _variable(name, each), kind, each_player=each, counter=True))
        elif indices[0].startswith("entity:") and indices[1:] in ((), ("player",)):
            columns = shown.setdefault(indices[0][7:], [])
            if len(indices) == 1:
                columns.append(Shown(name, _of_component(name), kind))
            else:
                for p, label in enumerate(info.player_names):
                    columns.append(Shown(f"{name} {label}", _of_component(name, p), kind))
    places = []
    for of, columns in shown.items():
        count = len(info.type_ids[info.type_names.index(of)])
        at = tuple((70 + 130 * (i % 6), 40 + 60 * (i // 6)) for i in range(count))
        places.append(
            Places(
                of,
                "box",
                (120, 50),
                "at",
                at=at,
                where=_anything_set(tuple(columns)),
                show=tuple(columns),
                name=of,
            )
        )
    height = max([500] + [p.at[-1][1] + 60 for p in places if p.at and p.at[-1] is not None])
    return Board(800, height, places=tuple(places), tracks=tuple(tracks), declared=False)


def _variable(name: str, each: bool) -> Reader:
    if each:
        return lambda s, p: getattr(s, f"v_{name}")[p]
    return lambda s: getattr(s, f"v_{name}")


def _of_component(name: str, player: int = -1) -> Reader:
    if player >= 0:  # a player not seated (a game of fewer) has no value: 0
        return lambda s, i: row[player] if player < len(row := getattr(s, f"v_{name}")[i]) else 0
    return lambda s, i: getattr(s, f"v_{name}")[i]


def _anything_set(columns: tuple[Shown, ...]) -> Reader:
    """Whether a component has some value other than its default: 0, no, none (-1)."""
    return lambda s, i: any(c.value(s, i) not in (0, False, -1) for c in columns)


def scene(state: GameState, player: int | None = None, *, public: bool = False) -> Scene:
    """The scene of `state` as `player` sees it (None: everything, for a designer or a replay; with
    `public`, what every player sees: a spectator's view, no one's hidden cards, no options)."""
    info = state.INFO
    board = board_of(state)
    n = state.num_players
    colors = tuple(
        (board.colors[p] if p < len(board.colors) else None) or PALETTE[p % len(PALETTE)] for p in range(n)
    )
    to_act = -1 if state.over else state.current_player()
    prompt, options = "", tuple[str, ...]()
    d = state.pending
    if d is not None and not state.over and not public and (player is None or d.player == player):
        prompt = info.text(d.prompt)
        options = tuple(state.action_to_string(a) for a in d.legal())
    return Scene(
        title=info.title,
        perspective=info.player_names[player]
        if player is not None
        else "a spectator"
        if public
        else "everyone",
        player=player,
        width=board.width,
        height=board.height,
        colors=colors,
        players=info.player_names[:n],
        labels=board.labels,
        layers=tuple(_layer(state, board, pl, options) for pl in board.places),
        tracks=tuple(_track(state, tr) for tr in board.tracks),
        zones=_zones(state, board, player, public),
        effects=tuple(_effect(state, board, m, args) for m, args, _ in state.mods),
        status=_status(state),
        to_act=to_act if isinstance(to_act, int) else -1,
        prompt=prompt,
        options=options,
        public=public,
    )


def scores(state: GameState) -> dict[str, int]:
    """The board's tracks as named numbers (a marker per player: `name label`): what balance
    plots follow through a game."""
    board = board_of(state)
    out: dict[str, int] = {}
    for tr in board.tracks:
        if tr.counter and tr.kind != "int":
            continue
        if tr.each_player:
            for p in range(state.num_players):
                out[f"{tr.name} {state.INFO.player_names[p]}"] = int(tr.value(state, p))
        else:
            out[tr.name] = int(tr.value(state))
    return out


def _layer(state: GameState, board: Board, pl: Places, options: Sequence[str] = ()) -> LayerView:
    info = state.INFO
    if pl.of == "player":  # the seated players, each by its label
        ids = labels = info.player_names[: state.num_players]
    else:
        t = info.type_names.index(pl.of)
        ids, labels = info.type_ids[t], info.type_labels[t]
    where = _positions(state, pl, len(ids))
    places: list[PlaceView] = []
    for i, xy, coords in where:
        if pl.where is not None and not pl.where(state, i):
            continue
        values = tuple((sh.name, shown(state, sh.kind, sh.value(state, i))) for sh in pl.show)
        markers: tuple[tuple[int, int, bool], ...] = ()
        if pl.markers is not None:
            solid = pl.solid
            markers = tuple(
                (p, int(pl.markers(state, i, p)), bool(solid(state, i, p)) if solid is not None else False)
                for p in range(state.num_players)
            )
        owner = pl.owner(state, i) if pl.owner is not None else -1
        links = tuple(ids[j] for j in pl.links(state, i) if j < len(ids)) if pl.links is not None else ()
        places.append(
            PlaceView(
                id=ids[i],
                label=pl.label(state, i) if pl.label is not None else labels[i],
                x=xy[0],
                y=xy[1],
                group=info.shown(pl.group_kind, pl.group(state, i)) if pl.group is not None else "",
                values=values,
                owner=owner if isinstance(owner, int) and 0 <= owner < state.num_players else -1,
                marked=bool(pl.marked(state, i)) if pl.marked is not None else False,
                links=links,
                coords=coords,
                markers=markers,
            )
        )
    drawn = {p.id for p in places}
    places = [p if set(p.links) <= drawn else _only_links(p, drawn) for p in places]
    spots = _spots(state, pl, options) if pl.layout == "cells" and options else ()
    return LayerView(pl.of, pl.shape, pl.size, tuple(places), pl.layout, pl.name or pl.of, pl.mark, spots)


def _only_links(p: PlaceView, drawn: set[str]) -> PlaceView:
    return PlaceView(
        p.id,
        p.label,
        p.x,
        p.y,
        p.group,
        p.values,
        p.owner,
        p.marked,
        tuple(i for i in p.links if i in drawn),
        p.coords,
        p.markers,
    )


Placed = tuple[int, tuple[float, float], tuple[int, int] | None]


def _cells(
    state: GameState, pl: Places
) -> tuple[list[tuple[int, tuple[int, int]]], Callable[[float, float], tuple[float, float]]]:
    """A "cells" layer's components with their cells, and where a cell's centre is drawn: the
    components laid so far are centred on the origin, however the map has grown."""
    info = state.INFO
    w, h = pl.size
    ox, oy = pl.origin
    zi = next(i for i, z in enumerate(info.zones) if z.name == pl.zone)
    cells = [(e, cell_xy(cell, info.radius)) for cell, e in sorted(state.z.cells[zi].items())]
    xs, ys = [c[0] for _, c in cells] or [0], [c[1] for _, c in cells] or [0]
    mx, my = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2

    def at(cx: float, cy: float) -> tuple[float, float]:
        return ox + (cx - mx) * (w + 8.0), oy - (cy - my) * (h + 8.0)

    return cells, at


_CELL = re.compile(r"\((-?\d+),(-?\d+)\)")


def _spots(state: GameState, pl: Places, options: Sequence[str]) -> tuple[tuple[str, float, float], ...]:
    """The options of a decision that name a cell ("(x,y)") of a "cells" layer, where drawn."""
    cells, at = _cells(state, pl)
    taken = {xy for _, xy in cells}
    out = []
    for text in options:
        m = _CELL.fullmatch(text)
        if m is not None and (xy := (int(m.group(1)), int(m.group(2)))) not in taken:
            out.append((text, *at(*xy)))
    return tuple(out)


def _positions(state: GameState, pl: Places, count: int) -> list[Placed]:
    """Each drawn component's (or player's) index, centre in picture units, and coordinates."""
    w, h = pl.size
    ox, oy = pl.origin
    if pl.layout == "at":
        return [
            (i, (float(xy[0]), float(xy[1])), None) for i, xy in enumerate(pl.at[:count]) if xy is not None
        ]
    if pl.layout == "cells":
        cells, at = _cells(state, pl)
        return [(e, at(cx, cy), (cx, cy)) for e, (cx, cy) in cells]
    assert pl.coords is not None
    first, second = pl.coords
    placed: list[Placed] = []
    for i in range(count):
        a, b = first(state, i), second(state, i)
        if pl.layout == "hex":  # axial (q, r), pointy side up: w is the hexagon's width
            placed.append((i, (ox + w * (a + b / 2), oy + h * 0.75 * b), (a, b)))
        else:
            placed.append((i, (ox + a * (w + 8.0), oy + b * (h + 8.0)), (a, b)))
    return placed


def shown(state: GameState, kind: str, value: Any) -> str:
    """A value as the board writes it: as the rules' texts do, but a list with repeats counted
    (`3 red, 1 blue`), so that a place's pieces read as the pieces on a table do, and a list
    of texts without its empty ones."""
    info = state.INFO
    if kind == "list[str]":  # texts: the empty ones are left out, so a board can write "" for nothing
        value = [v for v in value if v]
    if not kind.startswith("list[") or len(set(value)) == len(value):
        return info.shown(kind, value)
    inner = kind[5:-1]
    counts: dict[Any, int] = {}
    for v in value:
        counts[v] = counts.get(v, 0) + 1
    return ", ".join(f"{n} {info.shown(inner, v)}" for v, n in counts.items())


def _track(state: GameState, tr: Track) -> TrackView:
    info = state.INFO
    if tr.each_player:
        values = [tr.value(state, p) for p in range(state.num_players)]
        text = "  ".join(f"{info.player_names[p]} {shown(state, tr.kind, v)}" for p, v in enumerate(values))
        markers = tuple((p, v) for p, v in enumerate(values) if type(v) is int)
    else:
        v = tr.value(state)
        text = shown(state, tr.kind, v)
        markers = ((-1, v),) if type(v) is int else ()
    return TrackView(tr.name, tr.low, tr.high, markers, tr.counter, text, tr.style, tr.start, tr.end)


def _zones(state: GameState, board: Board, player: int | None, public: bool = False) -> tuple[ZoneView, ...]:
    info = state.INFO
    wanted = board.zones
    order = {name: i for i, name in enumerate(wanted)}
    cards = {c.of: c for c in board.cards}
    names = dict(board.names)
    out: list[tuple[int, int, ZoneView]] = []
    for zi, (z, pile) in enumerate(zip(info.zones, state.z.piles, strict=True)):
        if z.kind == "grid" or (wanted and z.name not in order) or z.owner >= state.num_players:
            continue
        key = z.key(info.player_names)
        seen = z.visibility == "public" if public else player is None or z.seen_by(player)
        shown: tuple[CardView, ...] | None = None
        if seen:
            tname = info.type_names[z.type_index]
            shown = tuple(card_view(state, cards.get(tname), z.type_index, e) for e in pile)
            if info.type_kinds and info.kinds_of(z.type_index):
                shown = counted_cards(shown)
        base, _, args = key.partition("[")  # `expedition[red,Alice]` -> `Expedition (red, Alice)`
        label = names.get(base) or readable(base)
        if args:
            label += f" ({args[:-1].replace(',', ', ')})"
        out.append((order.get(z.name, zi), zi, ZoneView(key, z.name, z.owner, len(pile), shown, label)))
    return tuple(v for _, _, v in sorted(out, key=lambda t: (t[0], t[1])))


def counted_cards(cards: Sequence[CardView]) -> tuple[CardView, ...]:
    """Cards that look the same (copies of one kind, showing the same value and text) and lie next
    to each other in the zone as one card with their count: `Copper x3, Estate x2`. Only neighbours
    are counted, so a zone's order still shows: a hand read by position (`Green 2, Red 1, Green 2`)
    keeps each card in its place."""
    runs: list[tuple[CardView, int]] = []
    for c in cards:
        if runs and runs[-1][0] == c:
            runs[-1] = (c, runs[-1][1] + 1)
        else:
            runs.append((c, 1))
    return tuple(replace(c, count=n) if n > 1 else c for c, n in runs)


def card_view(state: GameState, how: Cards | None, t: int, e: int) -> CardView:
    """Card `e` of type `t` as a zone row shows it: its name, and its value and text as `how` says."""
    info = state.INFO
    value = text = ""
    if how is not None:
        if how.value is not None:
            value = info.shown(how.value_kind, how.value(state, e))
        if how.text is not None:
            written = how.text(state, e)  # a text, or texts (the empty ones left out)
            text = "; ".join(t for t in written if t) if isinstance(written, list) else str(written)
    return CardView(info.type_ids[t][e], info.type_labels[t][e], value, text)


def readable(name: str) -> str:
    """A name from the rules in words: `in_effect` -> `In effect`."""
    words = name.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def _effect(state: GameState, board: Board, m: int, args: Sequence[int]) -> str:
    info = state.INFO
    kinds = info.modifier_params[m] if m < len(info.modifier_params) else ()
    words = [info.shown(k, a) if k else str(a) for k, a in zip(kinds, args, strict=False)]
    name = info.modifiers[m]
    named = next((text for key, text in board.names if key == name), "") or readable(name)
    return named + (f" ({', '.join(words)})" if words else "")


def _status(state: GameState) -> str:
    info = state.INFO
    if state.over:
        result = info.result(state.winners())
        return f"game over: {result}" + (f" ({state.reason})" if state.reason else "")
    d = state.pending
    if d is not None and d.window:  # a response window: who may respond, and to what
        return state.window_status()["text"]
    sim = state.simultaneous()
    if sim is not None:  # who has answered is public; what they answered is not, until the reveal
        asked = info.text(sim.prompts[0])
        waiting = ", ".join(info.player_names[p] for p in sim.waiting())
        return "simultaneous choice" + (f" ({asked})" if asked else "") + f": waiting for {waiting}"
    p = state.current_player()
    return f"{info.player_names[p]} to act" if isinstance(p, int) and p >= 0 else "chance"
