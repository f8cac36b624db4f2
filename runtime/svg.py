"""A scene (runtime/board.py) -> an SVG picture: the tracks along the top, the board's places
below them (a bore among them), and a panel on the right with the counters, the zones as rows of
cards (a hidden zone as a count), the lasting effects and whose turn it is. No text is smaller
than SMALLEST, and none is a name from the rules: the scene gives each zone and effect in words.

The picture is made of a fixed background and named groups (`<g id=...>`), each drawn from one
part of the scene, so a replay can store a game as the first picture and, for each later state,
only the groups that changed (rulewright/replay_html.py). Every text from a spec or a state is
escaped here, and only checked colours reach an attribute.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from xml.sax.saxutils import escape

from runtime.board import LayerView, PlaceView, Scene, TrackView, ZoneView, readable

PANEL = 390  # the width of the panel on the right
TRACK_ROW = 30  # the height of a track's row
MARGIN = 12
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
_COLOR = re.compile(r"#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}|[a-z]{3,20}")
_CARDS_SHOWN = 14  # cards drawn in a zone's row; the rest are counted
SMALLEST = 11  # the smallest font size written: readable at the browser's scale 1
BADGE = 18  # the height of a player's marker on a place


@dataclass(frozen=True, slots=True)
class Drawing:
    """A picture: its size, its background, and its named groups in drawing order."""

    width: int
    height: int
    background: str
    groups: tuple[tuple[str, str], ...]  # (id, the group's inner markup)

    def svg(self) -> str:
        body = "".join(f'<g id="{gid}">{inner}</g>' for gid, inner in self.groups)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
            f'viewBox="0 0 {self.width} {self.height}" font-family="{FONT}">'
            f"{self.background}{body}</svg>\n"
        )


def svg(scene: Scene, *, panel: bool = True) -> str:
    """The scene as a standalone SVG document (without `panel`, the board alone: a page that shows
    the zones, counters and effects itself)."""
    return draw(scene, panel=panel).svg()


def draw(scene: Scene, *, panel: bool = True) -> Drawing:
    rows = [t for t in scene.tracks if not t.counter and t.style != "bore"]
    top = MARGIN + TRACK_ROW * len(rows) + (MARGIN if scene.tracks else 0)
    width = scene.width + (PANEL if panel else 0)
    side, panel_height = _panel(scene, scene.width + MARGIN) if panel else ("", 0.0)
    height = round(max(top + scene.height, panel_height + MARGIN))
    background = (
        f'<rect width="{width}" height="{height}" fill="#f7f5ef"/>'
        + (
            f'<rect x="{scene.width}" y="0" width="{PANEL}" height="{height}" fill="#ecebe4"/>'
            if panel
            else ""
        )
        + "".join(
            f'<text x="{x}" y="{y + top}" font-size="15" font-weight="bold" fill="#8a8577" text-anchor="middle" '
            f'letter-spacing="1">{escape(text)}</text>'
            for text, x, y in scene.labels
        )
    )
    groups: list[tuple[str, str]] = []
    y = MARGIN
    bores: list[tuple[str, str]] = []
    for i, tr in enumerate(t for t in scene.tracks if not t.counter):
        if tr.style == "bore":
            bores.append((f"track{i}", _bore(scene, tr, top)))
            continue
        groups.append((f"track{i}", _track(scene, tr, y, width)))
        y += TRACK_ROW
    groups += bores
    for li, layer in enumerate(scene.layers):
        groups.append((f"links{li}", _links(layer, top)))
    for li, layer in enumerate(scene.layers):
        for place in layer.places:
            groups.append((f"place{li}-{_ident(place.id)}", _place(scene, layer, place, top)))
        for k, spot in enumerate(layer.spots):
            groups.append((f"spot{li}-{k}", _spot(layer, spot, top)))
    if panel:
        groups.append(("panel", side))
    return Drawing(width, height, background, tuple(groups))


def _spot(layer: LayerView, spot: tuple[str, float, float], top: float) -> str:
    """An open cell that an option of the pending decision names: a dashed outline, titled with
    the option (a page that shows the options can let a click on it choose that one)."""
    label, x, y = spot
    w, h = layer.size
    return (
        f"<g><title>{escape(label)}</title>"
        f'<rect x="{x - w / 2:.0f}" y="{y + top - h / 2:.0f}" width="{w}" height="{h}" rx="4" fill="#fff3d6" '
        f'fill-opacity="0.7" stroke="#d08c1c" stroke-width="1.5" stroke-dasharray="6 4"/>'
        f"{_text(x, y + top + 4, label, 11, anchor='middle')}</g>"
    )


def _ident(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "_", text)


def color(scene: Scene, player: int, *, light: bool = False) -> str:
    return _color(scene.colors, player, light=light)


def _color(colors: tuple[str, ...], player: int, *, light: bool = False) -> str:
    if not 0 <= player < len(colors):
        return "#ffffff" if light else "#555555"
    c = colors[player]
    c = c if _COLOR.fullmatch(c) else "gray"
    return _tint(c) if light else c


def _tint(c: str) -> str:
    """A light tint of a `#rrggbb` colour, for a filled place whose text must stay readable."""
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", c):
        return c
    r, g, b = (int(c[i : i + 2], 16) for i in (1, 3, 5))
    mix = [round(v + (255 - v) * 0.62) for v in (r, g, b)]
    return "#" + "".join(f"{v:02x}" for v in mix)


def _text(x: float, y: float, text: str, size: int = 11, *, anchor: str = "start", weight: str = "") -> str:
    bold = ' font-weight="bold"' if weight else ""
    return (
        f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" text-anchor="{anchor}"{bold}>{escape(text)}</text>'
    )


def _clip(text: str, room: float, size: int) -> str:
    """`text` cut to fit `room` units at font size `size` (a rough width per character)."""
    most = max(1, int(room / (size * 0.62)))
    return text if len(text) <= most else text[: max(1, most - 1)] + "…"


def _wrap(text: str, room: float, size: int) -> list[str]:
    """`text` in lines that fit `room` units at font size `size`, broken between words."""
    most = max(8, int(room / (size * 0.62)))
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= most:
            lines[-1] += " " + word
        else:
            lines.append(_clip(word, room, size))
    return lines or [""]


def _track(scene: Scene, tr: TrackView, y: float, width: int) -> str:
    steps = tr.high - tr.low + 1
    left = MARGIN + 130
    room = width - left - MARGIN  # the picture's width, with its panel or without
    cell = min(34.0, room / max(steps, 1))
    out = [_text(MARGIN, y + 18, _clip(readable(tr.name), 125, 12), 12, weight="bold")]
    for k in range(steps):
        x = left + k * cell
        out.append(
            f'<rect x="{x:.1f}" y="{y + 3}" width="{cell - 2:.1f}" height="22" rx="3" fill="#ffffff" stroke="#b9b6a8"/>'
        )
        number = str(tr.low + k)
        if cell >= 7 * len(number) + 4 or (tr.low + k) % 5 == 0:
            out.append(_text(x + (cell - 2) / 2, y + 18, number, SMALLEST, anchor="middle"))
    spread = min(12.0, 16 / max(1, len(tr.markers) - 1))  # each player's marker a little aside
    for n, (player, value) in enumerate(tr.markers):
        k = min(max(value, tr.low), tr.high) - tr.low
        x = left + k * cell + (cell - 2) / 2 + (n - (len(tr.markers) - 1) / 2) * spread
        fill = color(scene, player) if player >= 0 else "#222222"
        who = f"{scene.players[player]} " if 0 <= player < len(scene.players) else ""
        out.append(
            f"<g><title>{escape(tr.name)}: {escape(who)}{value}</title>"
            f'<circle cx="{x:.1f}" cy="{y + 14}" r="11" fill="{fill}" stroke="#ffffff" stroke-width="1.5"/>'
            f'<text x="{x:.1f}" y="{y + 18}" font-size="{SMALLEST}" text-anchor="middle" fill="#ffffff" '
            f'font-weight="bold">{value}</text></g>'
        )
    return "".join(out)


def _bore(scene: Scene, tr: TrackView, top: float) -> str:
    """A bore from `start` to `end`: its spaces as segments, the first player's boring from the
    start and the second's from the end, each bored part shaded in its player's colour, each
    machine drawn at its front, and the centre where they meet."""
    x0, x1 = float(tr.start[0]), float(tr.end[0])
    y0, y1 = tr.start[1] + top, tr.end[1] + top
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length  # along the bore
    nx, ny = -uy, ux  # across it
    side = max(1, tr.high - tr.low)  # spaces on each side of the centre
    seg = length / (2 * side)
    bored = {who: min(max(value, tr.low), tr.high) - tr.low for who, value in tr.markers}

    def at(d: float, across: float = 0.0) -> tuple[float, float]:
        return x0 + ux * d + nx * across, y0 + uy * d + ny * across

    def line(a: float, b: float, width: float, colour: str, extra: str = "") -> str:
        (ax, ay), (bx, by) = at(a), at(b)
        return (
            f'<line x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}" stroke="{colour}" '
            f'stroke-width="{width}"{extra}/>'
        )

    out = [line(-4, length + 4, 34, "#6f6b5e")]  # the rock around it
    for k in range(2 * side):
        if k < bored.get(0, 0):
            fill = color(scene, 0, light=True)
        elif 2 * side - k <= bored.get(1, 0):
            fill = color(scene, 1, light=True)
        else:
            fill = "#cdbf9c"  # not bored yet
        out.append(line(k * seg + 1, (k + 1) * seg - 1, 26, fill))
    cx, cy = at(length / 2)
    (tx, ty), (bx, by) = at(length / 2, -22), at(length / 2, 22)
    out.append(
        f'<line x1="{tx:.1f}" y1="{ty:.1f}" x2="{bx:.1f}" y2="{by:.1f}" stroke="#222222" '
        'stroke-width="2" stroke-dasharray="4 3"/>'
    )
    out.append(_text(cx, cy - 26, f"{readable(tr.name)}: centre", SMALLEST, anchor="middle", weight="bold"))
    for who, value in tr.markers[:2]:
        name = scene.players[who] if 0 <= who < len(scene.players) else ""
        end = 0.0 if who == 0 else length
        lx, ly = at(end, 30)
        out.append(_text(lx, ly + 4, _clip(name, length / 2 - 20, SMALLEST), SMALLEST, anchor="middle"))
        out.append(
            _machine(
                scene, tr.name, who, value, name, at, bored.get(who, 0) * seg, 1 if who == 0 else -1, length
            )
        )
    return "".join(out)


def _machine(
    scene: Scene,
    track: str,
    who: int,
    value: int,
    name: str,
    at: Callable[[float, float], tuple[float, float]],
    front: float,
    heading: int,
    length: float,
) -> str:
    """A bore's borer: its body behind the front of the bored part, its cutting head at the front."""
    d = front if heading > 0 else length - front
    head_x, head_y = at(d - heading * 9, 0.0)
    body = [
        at(d - heading * 18, -9.0),
        at(d - heading * 46, -9.0),
        at(d - heading * 46, 9.0),
        at(d - heading * 18, 9.0),
    ]
    points = " ".join(f"{px:.1f},{py:.1f}" for px, py in body)
    fill = color(scene, who)
    spokes = "".join(
        f'<line x1="{head_x:.1f}" y1="{head_y:.1f}" x2="{head_x + 9 * math.cos(a):.1f}" '
        f'y2="{head_y + 9 * math.sin(a):.1f}" stroke="#ffffff" stroke-width="1.5"/>'
        for a in (math.pi * k / 3 for k in range(6))
    )
    bx, by = at(d - heading * 32, 0.0)
    return (
        f"<g><title>{escape(track)}: {escape(name)} {value}</title>"
        f'<polygon points="{points}" fill="{fill}" stroke="#ffffff" stroke-width="1.5"/>'
        f'<circle cx="{head_x:.1f}" cy="{head_y:.1f}" r="11" fill="{fill}" stroke="#222222" stroke-width="1.5"/>'
        f"{spokes}"
        f'<text x="{bx:.1f}" y="{by + 4:.1f}" font-size="{SMALLEST}" text-anchor="middle" fill="#ffffff" '
        f'font-weight="bold">{value}</text></g>'
    )


def _links(layer: LayerView, top: float) -> str:
    at = {p.id: p for p in layer.places}
    out = []
    for p in layer.places:
        for other in p.links:
            q = at.get(other)
            if q is not None and p.id < q.id:
                out.append(
                    f'<line x1="{p.x:.0f}" y1="{p.y + top:.0f}" x2="{q.x:.0f}" y2="{q.y + top:.0f}" '
                    'stroke="#9c9886" stroke-width="1.2"/>'
                )
    return "".join(out)


@dataclass(frozen=True, slots=True)
class _Form:
    """What drawing a place needs of its layer (not its places: a cheap key for the cache)."""

    of: str
    shape: str
    size: tuple[int, int]


def _place(scene: Scene, layer: LayerView, p: PlaceView, top: float) -> str:
    return _place_markup(scene.colors, scene.players, _Form(layer.of, layer.shape, layer.size), p, top)


# A replay draws every place at every step and most do not change: each drawn once.
@functools.lru_cache(maxsize=4096)
def _place_markup(
    colors: tuple[str, ...], players: tuple[str, ...], layer: _Form, p: PlaceView, top: float
) -> str:
    shape = layer.shape
    w, h = layer.size
    x, y = p.x, p.y + top
    fill = _color(colors, p.owner, light=True)
    stroke = _color(colors, p.owner) if p.owner >= 0 else "#6f6b5e"
    width = 3 if p.marked else 1.2
    named = [*(f"{k} {v}" for k, v in p.values), *(f"{_who(players, q)} {n}" for q, n, _ in p.markers)]
    tip = escape(" · ".join([p.label, *named]))
    style = f'fill="{fill}" stroke="{stroke}" stroke-width="{width}"'
    if shape == "hex":
        r = w / math.sqrt(3)
        corners = " ".join(
            f"{x + r * math.cos(math.radians(60 * k - 30)):.1f},{y + r * math.sin(math.radians(60 * k - 30)):.1f}"
            for k in range(6)
        )
        outline = f'<polygon points="{corners}" {style}/>'
    elif shape == "circle":
        outline = f'<ellipse cx="{x:.0f}" cy="{y:.0f}" rx="{w / 2:.0f}" ry="{h / 2:.0f}" {style}/>'
    else:
        outline = f'<rect x="{x - w / 2:.0f}" y="{y - h / 2:.0f}" width="{w}" height="{h}" rx="4" {style}/>'
    size = SMALLEST
    step = size + 2
    pairs = _written(layer, p)
    half = (h if layer.shape != "hex" else 2 * w / math.sqrt(3)) / 2
    badges = [(q, n, solid) for q, n, solid in p.markers if n]  # a player's marker: none at 0
    strip = BADGE + 4 if p.markers else 0  # the markers' row along the bottom
    most = max(0 if strip else 1, int((2 * half - 21 - strip) // step))  # value rows below the label
    across = sum(_badge_width(n) + 3 for _, n, _ in badges) - 3  # how wide the markers are
    if strip and not most:  # no row between: the values go left of the markers, on one line
        text = "  ".join(k if v == "yes" and k else f"{k} {v}" if k else v for k, v in pairs)
        room = _room(layer, -half + 5, -half + 16)
        return (
            f"<g><title>{tip}</title>{outline}"
            + _text(x, y - half + 14, _clip(p.label, room, size), size, anchor="middle", weight="bold")
            + (_text(x - w / 2 + 6, y + half - 8, _clip(text, w - 16 - across, size), size) if text else "")
            + _badges(colors, badges, x + w / 2 - 5, y + half - strip + 2)
            + "</g>"
        )
    markup = _badges(colors, badges, x + across / 2, y + half - strip + 2)
    # a box is written from its top; a hexagon or a circle around its centre, where it is widest
    rows = min(most, len(pairs))
    first = y - half + 14 if layer.shape == "box" else y - (rows * step + 4) / 2 + 9
    room = _room(layer, first - 9 - y, first + 2 - y)
    lines = [_text(x, first, _clip(p.label, room, 11), 11, anchor="middle", weight="bold")]
    big = h >= 90 and w >= 180  # a big box (a player's board): a table of names and values
    if big and layer.shape == "box" and len(pairs) <= most:
        left = x - w / 2 + 10
        gap = min(w * 0.6, 14 + max((len(k) for k, _ in pairs), default=0) * size * 0.62)
        room = w - 20 - gap
        k = 0
        for n, (name, value) in enumerate(pairs):
            k += 1
            ty = first + 4 + step * k
            lines.append(
                f'<text x="{left:.0f}" y="{ty:.0f}" font-size="{size}" fill="#5c5849">{escape(_clip(name, gap - 6, size))}</text>'
            )
            spare = most - k - (len(pairs) - n - 1)  # rows left for a long value to go on in
            parts = _split(value, room, size) if spare > 0 else [value]
            for i, part in enumerate(parts[: spare + 1]):
                k += 1 if i else 0
                lines.append(_text(left + gap, first + 4 + step * k, _clip(part, room, size), size))
        return f"<g><title>{tip}</title>{outline}{''.join(lines)}{markup}</g>"
    # a value "yes" is written as its name alone ("closed", not "closed yes")
    values = [k if v == "yes" and k else f"{k} {v}" if k else v for k, v in pairs]
    if len(values) > most:  # too many for a row each: several to a row
        packed: list[str] = []
        for v in values:
            if packed and len(packed[-1]) + len(v) + 2 <= (w - 10) / (size * 0.62):
                packed[-1] += f"  {v}"
            else:
                packed.append(v)
        values = packed
    else:  # a row each, and a long one goes on in the next if there is room for it
        wrapped = [part for v in values for part in _split(v, _room(layer, -size, 2), size)]
        values = wrapped if len(wrapped) <= most else values
    for k, text in enumerate(values[:most]):
        ty = first + 4 + step * (k + 1)
        room = _room(layer, ty - size - y, ty + 2 - y)
        lines.append(_text(x, ty, _clip(text, room, size), size, anchor="middle"))
    return f"<g><title>{tip}</title>{outline}{''.join(lines)}{markup}</g>"


def _written(layer: _Form, p: PlaceView) -> list[tuple[str, str]]:
    """The values a place writes: on a map, nothing is not written (a count of 0, an absent
    piece); on a player's board, every value is."""
    empty = ("",) if layer.of == "player" else ("", "0", "no", "none")
    return [(k.replace("_", " "), v) for k, v in p.values if v not in empty]  # a name in words


def _who(players: tuple[str, ...], player: int) -> str:
    return players[player] if 0 <= player < len(players) else ""


def _badge_width(n: int) -> int:
    return 10 + 7 * len(str(n))


def _badges(colors: tuple[str, ...], badges: list[tuple[int, int, bool]], right: float, top: float) -> str:
    """Each player's marker, right to left from `right`: a rounded square in the player's colour
    with the number in it, filled when solid, an outline otherwise."""
    out = []
    for q, n, solid in reversed(badges):
        bw = _badge_width(n)
        right -= bw
        c = _color(colors, q)
        fill, ink = (c, "#ffffff") if solid else ("#ffffff", c)
        out.append(
            f'<rect x="{right:.0f}" y="{top:.0f}" width="{bw}" height="{BADGE}" rx="4" fill="{fill}" '
            f'stroke="{c}" stroke-width="2"/>'
            f'<text x="{right + bw / 2:.0f}" y="{top + 13:.0f}" font-size="{SMALLEST}" text-anchor="middle" '
            f'font-weight="bold" fill="{ink}">{n}</text>'
        )
        right -= 3
    return "".join(out)


def _split(text: str, room: float, size: int) -> list[str]:
    """`text` in lines that fit `room` at font size `size`, broken after commas or at spaces."""
    most = max(1, int(room / (size * 0.62)))
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= most:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _room(layer: _Form, dy_top: float, dy_bottom: float) -> float:
    """How wide a line of text may be, between these heights from a place's centre."""
    w, h = layer.size
    dy = max(abs(dy_top), abs(dy_bottom))
    if layer.shape == "hex":  # pointy side up: full width within r/2 of the centre, then narrower
        r = w / math.sqrt(3)
        return max(0.0, min(w, 2 * math.sqrt(3) * (r - dy))) - 8
    if layer.shape == "circle":
        return w * math.sqrt(max(0.0, 1 - (2 * dy / h) ** 2)) - 8
    return w - 8


def _panel(scene: Scene, left: float) -> tuple[str, float]:
    """The panel's markup and how far down it reaches."""
    out: list[str] = []
    y: float = MARGIN + 14
    out.append(_text(left, y, _clip(scene.title, PANEL - 24, 16), 16, weight="bold"))
    y += 20
    seen = (
        "everything (no hidden information)"
        if scene.player is None and not scene.public
        else f"what {scene.perspective} sees"
    )
    out.append(_text(left, y, _clip(seen, PANEL - 24, 11), 11))
    y += 18
    for line in _wrap(scene.status, PANEL - 24, 12)[:3]:
        out.append(_text(left, y, line, 12, weight="bold"))
        y += 15
    y -= 5
    counters = [t for t in scene.tracks if t.counter]
    if counters:
        y += 10
        for t in counters:
            y += 15
            out.append(_text(left, y, _clip(f"{readable(t.name)}: {t.text}", PANEL - 24, 11), 11))
    for z in scene.zones:
        y += 22
        z_out, y = _zone(scene, z, left, y)
        out.append(z_out)
    if scene.effects:
        y += 24
        out.append(_text(left, y, "Lasting effects", 12, weight="bold"))
        for e in scene.effects:
            y += 15
            out.append(_text(left + 8, y, _clip(e, PANEL - 32, SMALLEST), SMALLEST))
    return "".join(out), y


def _zone(scene: Scene, z: ZoneView, left: float, y: float) -> tuple[str, float]:
    owner_mark = ""
    if z.owner >= 0:
        owner_mark = f'<rect x="{left}" y="{y - 10}" width="6" height="12" fill="{color(scene, z.owner)}"/>'
    head = f"{z.label} ({z.count})" if z.cards is not None else f"{z.label}: {z.count} face down"
    out = [
        owner_mark,
        _text(left + (10 if owner_mark else 0), y, _clip(head, PANEL - 30, 11), 11, weight="bold"),
    ]
    if not z.cards:
        return "".join(out), y
    per_row, cw, ch = 2, (PANEL - 30) / 2, 21
    shown = z.cards[:_CARDS_SHOWN]
    for k, card in enumerate(shown):
        cx = left + (k % per_row) * cw
        cy = y + 6 + (k // per_row) * (ch + 3)
        label = card.label + (f" x{card.count}" if card.count > 1 else "")  # identical copies, counted
        tip = escape(
            label + (f" ({card.value})" if card.value else "") + (f": {card.text}" if card.text else "")
        )
        badge = ""  # the card's value, in a corner of its own
        if card.value:
            bw = 8 + 7 * len(card.value)
            badge = (
                f'<rect x="{cx + cw - 5 - bw:.0f}" y="{cy + 3:.0f}" width="{bw}" height="{ch - 6}" rx="2" fill="#e4dfcc"/>'
                + _text(cx + cw - 5 - bw / 2, cy + 15, card.value, SMALLEST, anchor="middle", weight="bold")
            )
        room = cw - 10 - (bw + 4 if card.value else 0)
        out.append(
            f'<g><title>{tip}</title><rect x="{cx:.0f}" y="{cy:.0f}" width="{cw - 4:.0f}" height="{ch}" rx="3" '
            f'fill="#fffdf6" stroke="#a9a48f"/>{_text(cx + 4, cy + 15, _clip(label, room, SMALLEST), SMALLEST)}{badge}</g>'
        )
    rows = (len(shown) + per_row - 1) // per_row
    y += 6 + rows * (ch + 3)
    if len(z.cards) > len(shown):
        y += 12
        out.append(_text(left + 4, y, f"and {len(z.cards) - len(shown)} more", SMALLEST))
    return "".join(out), y


__all__ = ["Drawing", "RasterUnavailable", "color", "draw", "png", "svg"]


class RasterUnavailable(RuntimeError):
    """Turning SVG into pixels needs the optional package resvg-py (`pip install 'rulewright[view]'`)."""


def png(svg_text: str) -> bytes:
    """The picture as PNG bytes, drawn by resvg (an optional dependency: RasterUnavailable without it)."""
    try:
        import resvg_py
    except ImportError:
        raise RasterUnavailable(
            "a PNG needs the package resvg-py: pip install 'rulewright[view]' (or write an .svg)"
        ) from None
    return bytes(resvg_py.svg_to_bytes(svg_string=svg_text))
