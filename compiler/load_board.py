"""Load, for board.yaml: the `board` section (how a game is drawn) -> ir.BoardDecl.

Only the shape of the section is checked here: keys, numbers, colours, which layout a place
uses. Names (component types, ids, zones, players) are resolved by resolve.py, and the
expressions are typed by check.py like any other code of the spec.
"""

from __future__ import annotations

import re
from typing import Protocol

from yaml.nodes import Node, ScalarNode

from compiler import errorcodes as codes
from compiler import ir, messages
from compiler.diagnostics import Sink
from compiler.limits import MAX_BOARD_SIZE, MAX_TRACK_STEPS


class Reader(Protocol):
    """What this module asks of load.py's Reader (named here, so that load.py, which calls
    read_board, is not imported back: no cycle of imports)."""

    sink: Sink

    def span(self, node: Node) -> ir.Span: ...
    def keys(
        self, node: Node, what: str, allowed: tuple[str, ...], required: tuple[str, ...] = ()
    ) -> dict[str, Node]: ...
    def mapping(self, node: Node, what: str) -> list[tuple[ScalarNode, Node]]: ...
    def seq(self, node: Node, what: str) -> list[Node]: ...
    def scalar(self, node: Node, what: str) -> ScalarNode | None: ...
    def text(self, node: Node | None, what: str, default: str = "") -> str: ...
    def integer(self, node: Node | None, what: str, default: int = 0) -> int: ...
    def type_ref(self, node: Node, what: str) -> ir.TypeRef: ...
    def code_or_stub(self, node: Node | None, what: str, *, expr: bool = False) -> ir.Code | None: ...


# The keys of each mapping of board.yaml's `board` (`*_KEYS`: those it may have, `*_REQUIRED`:
# those it must), and the words some values are one of: what read_board checks, and what
# compiler/schema.py describes to editors
BOARD_KEYS = ("size", "colors", "labels", "places", "tracks", "counters", "zones", "cards", "names")
BOARD_REQUIRED = ("size",)
PLACE_KEYS = (
    "of",
    "name",
    "shape",
    "size",
    "at",
    "hex",
    "grid",
    "cells",
    "where",
    "group",
    "label",
    "show",
    "owner",
    "marked",
    "mark",
    "links",
    "markers",
)
PLACE_REQUIRED = ("of",)
MARKER_KEYS, MARKER_REQUIRED = ("value", "solid"), ("value",)
LAYOUTS = ("at", "hex", "grid", "cells")
# the keys of the hex, grid and cells layouts (`at` maps ids to positions)
LAYOUT_REQUIRED = {"hex": ("q", "r"), "grid": ("column", "row"), "cells": ("zone",)}
LAYOUT_KEYS = {k: (*names, "origin") for k, names in LAYOUT_REQUIRED.items()}
SHAPES = ("box", "hex", "circle")
TRACK_KEYS = ("name", "value", "min", "max", "each", "style", "from", "to")
TRACK_REQUIRED = ("name", "value", "min", "max")
TRACK_STYLES = ("steps", "bore")  # a row of numbered boxes along the top; a bore drawn on the board
MAX_NAME = 60  # the words a `names` entry gives a zone or a lasting effect
COUNTER_KEYS, COUNTER_REQUIRED = ("name", "value", "each"), ("name", "value")
EACH = ("player",)  # a track or counter `each: player` has one marker per player
CARD_KEYS = ("value", "text")
# a colour as SVG and CSS read it, and nothing else can reach a picture through it
COLOR = re.compile(r"#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}|[a-z]{3,20}")


def read_board(node: Node, r: Reader, digest: str) -> ir.BoardDecl:
    d = r.keys(node, "the board", BOARD_KEYS, BOARD_REQUIRED)
    width, height = _pair(d.get("size"), r, "the board's size", (800, 600), low=100)
    colors = tuple(
        (k.value, _color(v, r, f"the colour of '{k.value}'"), r.span(k))
        for k, v in (r.mapping(d["colors"], "the board's colours") if "colors" in d else [])
    )
    labels = tuple(
        (k.value, *_pair(v, r, f"the position of the label '{k.value}'", (0, 0)), r.span(k))
        for k, v in (r.mapping(d["labels"], "the board's labels") if "labels" in d else [])
    )
    places = tuple(_places(n, r) for n in (r.seq(d["places"], "places") if "places" in d else []))
    tracks = [_track(n, r, counter=False) for n in (r.seq(d["tracks"], "tracks") if "tracks" in d else [])]
    tracks += [
        _track(n, r, counter=True) for n in (r.seq(d["counters"], "counters") if "counters" in d else [])
    ]
    zones = tuple(
        (z.value, r.span(z))
        for n in (r.seq(d["zones"], "the board's zones") if "zones" in d else [])
        if (z := r.scalar(n, "a zone of the board")) is not None
    )
    cards = tuple(
        _cards(k, v, r) for k, v in (r.mapping(d["cards"], "the board's cards") if "cards" in d else [])
    )
    names = tuple(
        (k.value, _name(v, r, k.value), r.span(k))
        for k, v in (r.mapping(d["names"], "the board's names") if "names" in d else [])
    )
    return ir.BoardDecl(
        width, height, colors, labels, places, tuple(tracks), zones, cards, digest, r.span(node), names
    )


def _name(node: Node, r: Reader, key: str) -> str:
    """The words shown for zone or lasting effect `key`: a short text on one line."""
    text = r.text(node, f"the name of '{key}'")
    if not text.strip() or len(text) > MAX_NAME or not text.isprintable():
        r.sink.error(codes.WRONG_VALUE_TYPE, r.span(node), messages.board_name(key, MAX_NAME))
        return key
    return text


def _pair(node: Node | None, r: Reader, what: str, default: tuple[int, int], low: int = 0) -> tuple[int, int]:
    """Two integers `[a, b]`, each from `low` to MAX_BOARD_SIZE."""
    if node is None:
        return default
    items = r.seq(node, what)
    if len(items) != 2:
        if items:
            r.sink.error(codes.WRONG_VALUE_TYPE, r.span(node), messages.must_be_pair(what))
        return default
    a, b = (r.integer(x, what, -1) for x in items)
    for value, x in ((a, items[0]), (b, items[1])):
        if not low <= value <= MAX_BOARD_SIZE:
            r.sink.error(codes.WRONG_VALUE_TYPE, r.span(x), messages.board_number(what, low, MAX_BOARD_SIZE))
            return default
    return a, b


def _color(node: Node, r: Reader, what: str) -> str:
    text = r.text(node, what)
    if not COLOR.fullmatch(text):
        r.sink.error(codes.WRONG_VALUE_TYPE, r.span(node), messages.bad_color(what, text))
        return "gray"
    return text


def _one_of(
    d: dict[str, Node], key: str, r: Reader, allowed: tuple[str, ...], what: str, default: str
) -> str:
    """The text of `key` in `d`, one of `allowed` (`what` names them); `default` if it is missing,
    or, after a located error, if it is none of them."""
    text = r.text(d.get(key), key, default)
    if text not in allowed:
        r.sink.error(
            codes.WRONG_VALUE_TYPE,
            r.span(d[key]),
            messages.unknown_key(text, what, None),
            messages.allowed_keys(allowed),
        )
        return default
    return text


def _places(node: Node, r: Reader) -> ir.BoardPlaces:
    d = r.keys(node, "a place of the board", PLACE_KEYS, PLACE_REQUIRED)
    of = r.type_ref(d["of"], "of") if "of" in d else ir.TypeRef("", r.span(node))
    shape = _one_of(d, "shape", r, SHAPES, "the shapes", "box")
    size = _pair(d.get("size"), r, "a place's size", (90, 40), low=4)
    layouts = [k for k in LAYOUTS if k in d]
    if len(layouts) != 1:
        r.sink.error(codes.MISSING_KEY, r.span(node), messages.one_layout(LAYOUTS, layouts))
    layout = layouts[0] if layouts else "at"
    at: list[tuple[str, int, int, ir.Span]] = []
    coords: tuple[ir.Code, ir.Code] | None = None
    zone = ""
    origin = (0, 0)
    if layout == "at" and "at" in d:
        for k, v in r.mapping(d["at"], "the places' positions"):
            x, y = _pair(v, r, f"the position of '{k.value}'", (-1, -1))
            if x >= 0:
                at.append((k.value, x, y, r.span(k)))
    elif layout in ("hex", "grid"):
        names = LAYOUT_REQUIRED[layout]
        dd = r.keys(d[layout], f"the '{layout}' layout", LAYOUT_KEYS[layout], names)
        first, second = (r.code_or_stub(dd.get(n), n, expr=True) for n in names)
        stub = ir.Code((), ir.IntLit(0, r.span(d[layout])), r.span(d[layout]))
        coords = (first or stub, second or stub)
        origin = _pair(dd.get("origin"), r, "the origin", (0, 0))
    elif layout == "cells":
        dd = r.keys(d["cells"], "the 'cells' layout", LAYOUT_KEYS["cells"], LAYOUT_REQUIRED["cells"])
        zone = r.text(dd.get("zone"), "zone")
        origin = _pair(dd.get("origin"), r, "the origin", (0, 0))
    show = tuple(
        (k.value, r.code_or_stub(v, k.value, expr=True) or ir.Code((), None, r.span(v)), r.span(k))
        for k, v in (r.mapping(d["show"], "the values shown on a place") if "show" in d else [])
    )

    def code(key: str) -> ir.Code | None:
        return r.code_or_stub(d.get(key), key, expr=True)

    markers: tuple[ir.Code, ir.Code | None] | None = None
    if "markers" in d:
        dm = r.keys(d["markers"], "a place's markers", MARKER_KEYS, MARKER_REQUIRED)
        value = r.code_or_stub(dm.get("value"), "value", expr=True)
        stub = ir.Code((), ir.IntLit(0, r.span(d["markers"])), r.span(d["markers"]))
        markers = (value or stub, r.code_or_stub(dm.get("solid"), "solid", expr=True))

    return ir.BoardPlaces(
        of=of,
        shape=shape,
        size=size,
        layout=layout,
        at=tuple(at),
        coords=coords,
        zone=zone,
        origin=origin,
        where=code("where"),
        group=code("group"),
        label=code("label"),
        show=show,
        owner=code("owner"),
        marked=code("marked"),
        links=code("links"),
        span=r.span(node),
        name=r.text(d.get("name"), "name", ""),
        mark=r.text(d.get("mark"), "mark", ""),
        markers=markers,
    )


def _track(node: Node, r: Reader, *, counter: bool) -> ir.BoardTrack:
    what = "a counter" if counter else "a track"
    keys = COUNTER_KEYS if counter else TRACK_KEYS
    d = r.keys(node, what, keys, COUNTER_REQUIRED if counter else TRACK_REQUIRED)
    each = r.text(d.get("each"), "each", "")
    if each not in ("", *EACH):
        r.sink.error(codes.WRONG_VALUE_TYPE, r.span(d["each"]), messages.each_player(each))
        each = ""
    low, high = r.integer(d.get("min"), "min"), r.integer(d.get("max"), "max")
    if not counter and high <= low and "min" in d and "max" in d:
        r.sink.error(codes.WRONG_VALUE_TYPE, r.span(d["max"]), messages.track_range(low, high))
        high = low + 1
    if not counter and high - low + 1 > MAX_TRACK_STEPS:
        r.sink.error(
            codes.LIMIT_EXCEEDED,
            r.span(d["max"]),
            messages.track_too_long(high - low + 1, MAX_TRACK_STEPS),
            messages.protects_the_tool("MAX_TRACK_STEPS"),
        )
        high = low + 1
    value = r.code_or_stub(d.get("value"), "value", expr=True) or ir.Code(
        (), ir.IntLit(0, r.span(node)), r.span(node)
    )
    style = _one_of(d, "style", r, TRACK_STYLES, "the track styles", "steps")
    ends = ((0, 0), (0, 0))
    if style == "bore":
        if each != "player":
            r.sink.error(codes.MISSING_KEY, r.span(d["style"]), messages.bore_each_player())
        missing = [k for k in ("from", "to") if k not in d]
        if missing:
            r.sink.error(codes.MISSING_KEY, r.span(d["style"]), messages.bore_ends(missing))
        ends = (
            _pair(d.get("from"), r, "where a bore starts", (0, 0)),
            _pair(d.get("to"), r, "where a bore ends", (0, 0)),
        )
    else:
        for k in ("from", "to"):
            if k in d:
                r.sink.error(codes.UNKNOWN_KEY, r.span(d[k]), messages.bore_only(k))
    return ir.BoardTrack(
        r.text(d.get("name"), "name"),
        value,
        low,
        high,
        each == "player",
        counter,
        r.span(node),
        "" if style == "steps" else style,
        *ends,
    )


def _cards(k: ScalarNode, v: Node, r: Reader) -> ir.BoardCards:
    d = r.keys(v, f"how '{k.value}' is shown", CARD_KEYS)
    return ir.BoardCards(
        ir.TypeRef(k.value, r.span(k)),
        r.code_or_stub(d.get("value"), "value", expr=True),
        r.code_or_stub(d.get("text"), "text", expr=True),
        r.span(k),
    )
