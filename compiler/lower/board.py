"""The board: how a game is drawn (board.yaml) -> its own module, apart from the engine.

Each expression of the board becomes a function over the state and, for a place or a card, the
component's index (`x`), or for a track with `each: player`, the player (`p`). The rest is data
the runtime's board (runtime/board.py) reads. None of it is a rule: it has no coverage points,
and the engine a game runs does not carry it.
"""

from __future__ import annotations

from compiler import ir
from compiler.lower.context import Context
from compiler.lower.expressions import lowered_type, python_type, value_type
from compiler.lower.units import Units, expression_function
from compiler.viewmodel import BoardCards, BoardModule, BoardPlaces, BoardTrack, Header, Param

X = (Param("l_x", "int"),)
P = (Param("l_p", "int"),)
XP = (*X, *P)


def lower_board(cx: Context, header: Header) -> tuple[Units, BoardModule] | None:
    b = cx.sym.game.board
    if b is None:
        return None
    cx.covering = False  # drawing a state is not a rule
    out = Units()

    def function(name: str, what: str, code: ir.Code | None, ps: tuple[Param, ...]) -> tuple[str, str]:
        """The function computing `code` (and its value's kind), or ("", "") when there is none."""
        if code is None or code.expr is None:
            return "", ""
        t = lowered_type(cx, code.expr)
        out.functions.append(expression_function(cx, name, f"board: {what}", code, ps, python_type(t), []))
        return name, value_type(t)

    places = []
    for i, pl in enumerate(b.places):
        what = f"places of {pl.of.text}"
        if pl.of.text == "player":  # a layer of the players: one place each (a player's board)
            ids = list(cx.sym.game.player_names)
        else:
            ids = cx.sym.entity_types[pl.of.text].ids  # a place per component: per copy of a row
        at: tuple[tuple[int, int] | None, ...] = ()
        if pl.layout == "at":
            where = {ident: (x, y) for ident, x, y, _ in pl.at}
            at = tuple(where.get(ident) for ident in ids)
        coords = None
        if pl.coords is not None:
            first, second = ("q", "r") if pl.layout == "hex" else ("column", "row")
            coords = (
                function(f"b{i}_{first}", f"{what}: {first}", pl.coords[0], X)[0],
                function(f"b{i}_{second}", f"{what}: {second}", pl.coords[1], X)[0],
            )
        group, group_kind = function(f"b{i}_group", f"{what}: group", pl.group, X)
        show = tuple(
            (name, *function(f"b{i}_show{j}", f"{what}: show {name}", code, X))
            for j, (name, code, _) in enumerate(pl.show)
        )
        markers = ("", "")
        if pl.markers is not None:
            markers = (
                function(f"b{i}_marker", f"{what}: markers", pl.markers[0], XP)[0],
                function(f"b{i}_solid", f"{what}: markers solid", pl.markers[1], XP)[0],
            )
        places.append(
            BoardPlaces(
                of=pl.of.text,
                shape=pl.shape,
                size=pl.size,
                layout=pl.layout,
                at=at,
                coords=coords,
                zone=pl.zone,
                origin=pl.origin,
                where=function(f"b{i}_where", f"{what}: where", pl.where, X)[0],
                group=group,
                group_kind=group_kind or "str",
                label=function(f"b{i}_label", f"{what}: label", pl.label, X)[0],
                show=show,
                owner=function(f"b{i}_owner", f"{what}: owner", pl.owner, X)[0],
                marked=function(f"b{i}_marked", f"{what}: marked", pl.marked, X)[0],
                links=function(f"b{i}_links", f"{what}: links", pl.links, X)[0],
                name=pl.name,
                mark=pl.mark,
                markers=markers,
            )
        )
    tracks = []
    for i, tr in enumerate(b.tracks):
        kind = "counter" if tr.counter else "track"
        name, value_kind = function(
            f"b_{kind}{i}", f"{kind} {tr.name}", tr.value, P if tr.each_player else ()
        )
        tracks.append(
            BoardTrack(
                tr.name,
                name,
                value_kind,
                tr.low,
                tr.high,
                tr.each_player,
                tr.counter,
                tr.style,
                tr.start,
                tr.end,
            )
        )
    cards = []
    for i, c in enumerate(b.cards):
        value, value_kind = function(f"b_card{i}_value", f"cards {c.of.text}: value", c.value, X)
        text = function(f"b_card{i}_text", f"cards {c.of.text}: text", c.text, X)[0]
        cards.append(BoardCards(c.of.text, value, value_kind or "int", text))
    colors = dict((name, color) for name, color, _ in b.colors)
    module = BoardModule(
        header=header,
        imports=(),
        functions=tuple(out.functions),
        width=b.width,
        height=b.height,
        colors=tuple(colors.get(p) for p in cx.sym.game.player_names),
        labels=tuple((text, x, y) for text, x, y, _ in b.labels),
        places=tuple(places),
        tracks=tuple(tracks),
        zones=tuple(name for name, _ in b.zones),
        cards=tuple(cards),
        names=tuple(dict((name, text) for name, text, _ in b.names).items()),
    )
    return out, module
