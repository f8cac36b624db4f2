"""The terminal's view of a state as one player sees it: what `rulewright play` prints.

Drawn from the scene of the board (runtime/board.py) for that player alone, so it never shows
what the player may not see: the board's expressions read only public things, and zones come
from the player's own observation rules (a hidden zone is a count).

The view is a list of lines in sections (a header line `-- Name --` each), and each line starts
with the words that say what it is (`Score`, `hand[North]`, `Harbour`), so a loop that prints only the
lines that changed since a player's last decision can print them alone:

    tracks       `Score         -20 ··········●·········· 20  (-3)`, or `Round: 3` for a counter
    places       by layer and group, a row each, the values in aligned columns, control in words
                 (`-` for no one), `*` before a marked place; a grid as a grid map above its
                 table; a hex layer as an ASCII map of staggered cells instead (a block of lines
                 known by its section); a layer of the players with a column per player
    zones        `hand[North] (3): Ace (2), Deuce (1), ...`, a hidden one as `hand[South]: 8 face down`
    effects      the lasting effects, a line each

Cards are listed by name and value; `card_text` gives one card's text on request.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from runtime.board import (
    Board,
    CardView,
    LayerView,
    PlaceView,
    Scene,
    TrackView,
    ZoneView,
    board_of,
    card_view,
    scene,
)
from runtime.engine import GameState
from runtime.text import clipped, escaped, escaped_lines

WIDTH = 100  # the columns a view keeps within, where it can (a long value is not cut)
BAR = 41  # the most cells a track's bar is drawn with
MARK = "*"
MAP_CELLS = 60  # a layer spread over more cells across or down than this is listed, not mapped


def describe(state: GameState, player: int | None) -> str:
    """The view of `state` as `player` sees it (None: everything), as lines of text."""
    return "\n".join(view_lines(scene(state, player)))


def view_lines(sc: Scene) -> list[str]:
    """The lines of the view of a scene, each printable as it is: a text of the spec or of the
    state holding a control, a line break or a bidi override (runtime/text.py) is shown escaped,
    before the columns are measured."""
    sc = _markers_as_values(sc)
    lines = _view_lines(sc)
    if all(map(str.isprintable, lines)):  # the common case: one C call a line
        return lines
    return [escaped(line) for line in _view_lines(_escaped_scene(sc))]


def _markers_as_values(sc: Scene) -> Scene:
    """Each player's marker on a place as a value named by the player (a column each)."""
    if not any(p.markers for ly in sc.layers for p in ly.places):
        return sc

    def place(p: PlaceView) -> PlaceView:
        named = tuple((sc.players[q], str(n)) for q, n, _ in p.markers if q < len(sc.players))
        return replace(p, values=p.values + named)

    return replace(sc, layers=tuple(replace(ly, places=tuple(map(place, ly.places))) for ly in sc.layers))


def _escaped_scene(sc: Scene) -> Scene:
    """The scene with each of its texts escaped."""

    def place(p: PlaceView) -> PlaceView:
        return replace(
            p,
            label=escaped(p.label),
            group=escaped(p.group),
            values=tuple((escaped(k), escaped(v)) for k, v in p.values),
        )

    def card(c: CardView) -> CardView:
        return replace(c, label=escaped(c.label), value=escaped(c.value), text=escaped_lines(c.text))

    return replace(
        sc,
        title=escaped(sc.title),
        perspective=escaped(sc.perspective),
        players=tuple(map(escaped, sc.players)),
        layers=tuple(
            replace(ly, name=escaped(ly.name), mark=escaped(ly.mark), places=tuple(map(place, ly.places)))
            for ly in sc.layers
        ),
        tracks=tuple(replace(tr, name=escaped(tr.name), text=escaped(tr.text)) for tr in sc.tracks),
        zones=tuple(
            replace(
                z,
                key=escaped(z.key),
                name=escaped(z.name),
                cards=None if z.cards is None else tuple(map(card, z.cards)),
            )
            for z in sc.zones
        ),
        effects=tuple(map(escaped, sc.effects)),
        status=escaped(sc.status),
        prompt=escaped(sc.prompt),
        options=tuple(map(escaped, sc.options)),
    )


def _view_lines(sc: Scene) -> list[str]:
    lines = [f"=== {sc.title}: what {sc.perspective} sees ===", f"Status: {sc.status}"]
    if sc.tracks:
        kinds = {tr.counter for tr in sc.tracks}
        head = "Tracks and counters" if len(kinds) == 2 else "Counters" if True in kinds else "Tracks"
        lines += ["", f"-- {head} --", *_tracks(sc)]
    for layer in sc.layers:
        if layer.places:
            lines += ["", *_layer(sc, layer)]
    if sc.zones:
        lines += ["", "-- Zones --", *_zones(sc.zones)]
    if sc.effects:
        lines += ["", "-- Lasting effects --", *sc.effects]
    return lines


def card_text(state: GameState, player: int, name: str) -> str:
    """The text of the card named `name` (its label or id, in any case; a unique beginning is
    enough), with its value, as the board shows it: what a player asks for at the prompt.
    A card's text and value read only public things (the compiler checks it), so any card of
    the game may be asked for by name, wherever it lies."""
    board = board_of(state)
    wanted = " ".join(name.split()).casefold()
    if not wanted:
        return "which card? Type its name."
    found = _cards_named(state, board, wanted)
    if not found:
        return f"no card named '{clipped(name.strip(), 40)}'"
    labels = sorted({c.label for c in found})
    if len(labels) > 1:
        shown = ", ".join(labels[:12]) + (f" and {len(labels) - 12} more" if len(labels) > 12 else "")
        return f"which one? {escaped(shown)}"
    card = found[0]
    head = escaped(card.label + (f" ({card.value})" if card.value else ""))
    return f"{head}: {escaped_lines(card.text)}" if card.text else head


def _cards_named(state: GameState, board: Board, wanted: str) -> list[CardView]:
    """The cards whose label or id is `wanted`, failing that those they begin with: of the
    types the board says how to show, else of any component type (then by name alone)."""
    info = state.INFO
    declared = {how.of: how for how in board.cards if how.of in info.type_names}
    for kinds in (list(declared), [t for t in info.type_names if t not in declared and t != "player"]):
        exact: list[CardView] = []
        begins: list[CardView] = []
        for of in kinds:
            t = info.type_names.index(of)
            for e, (ident, label) in enumerate(zip(info.type_ids[t], info.type_labels[t], strict=True)):
                names = (label.casefold(), ident.casefold())
                if wanted in names:
                    exact.append(card_view(state, declared.get(of), t, e))
                elif any(n.startswith(wanted) for n in names):
                    begins.append(card_view(state, declared.get(of), t, e))
        if exact or begins:
            return exact or begins
    return []


# ---- tracks ------------------------------------------------------------------------------------


def _tracks(sc: Scene) -> list[str]:
    rows: list[tuple[str, TrackView, int, int]] = []  # (name, track, player or -1, value)
    for tr in sc.tracks:
        if tr.counter or not tr.markers:  # (a track without a number is written as a counter)
            continue
        if len(tr.markers) == 1 and tr.markers[0][0] < 0:
            rows.append((tr.name, tr, -1, tr.markers[0][1]))
        else:
            rows += [(f"{tr.name} {sc.players[p]}", tr, p, v) for p, v in tr.markers]
    width = max((len(name) for name, _, _, _ in rows), default=0)
    ends = max((len(str(tr.low)) for _, tr, _, _ in rows), default=1)
    lines = [f"{name:<{width}}  {tr.low:>{ends}} {_bar(tr, v)} {tr.high}  ({v})" for name, tr, _, v in rows]
    lines += [f"{tr.name}: {tr.text}" for tr in sc.tracks if tr.counter or not tr.markers]
    return lines


def _bar(tr: TrackView, value: int) -> str:
    """`····●····`: a cell per step (at most BAR of them), the marker at the value."""
    steps = tr.high - tr.low + 1
    cells = min(steps, BAR)
    at = min(max(value, tr.low), tr.high) - tr.low
    k = round(at * (cells - 1) / (steps - 1)) if steps > 1 else 0
    return "·" * k + "●" + "·" * (cells - 1 - k)


# ---- places ------------------------------------------------------------------------------------


def _layer(sc: Scene, layer: LayerView) -> list[str]:
    title = layer.name[:1].upper() + layer.name[1:]
    legend = f"  ({MARK} {layer.mark})" if layer.mark and any(p.marked for p in layer.places) else ""
    lines = [f"-- {title} --{legend}"]
    if layer.of == "player":
        return lines + _players(sc, layer)
    mappable = _spread(layer) <= MAP_CELLS  # coordinates come from the rules: any numbers at all
    if layer.layout == "hex" and mappable:
        return lines + _hex_map(sc, layer)  # the map shows every value
    if layer.layout in ("grid", "cells") and mappable:
        lines += _grid_map(sc, layer)
    groups: dict[str, list[PlaceView]] = {}
    for p in layer.places:
        groups.setdefault(p.group, []).append(p)
    head, rows = _table(sc, layer.places, [f"{g}:" for g in groups if g])
    for group, places in groups.items():
        lines.append(head(f"{group}:" if group else ""))
        lines += [rows[p.id] for p in places]
    return lines


def _spread(layer: LayerView) -> int:
    """How many cells across or down the layer's places lie (the larger)."""
    coords = [p.coords for p in layer.places if p.coords is not None]
    if not coords:
        return 0
    xs, ys = [x for x, _ in coords], [y for _, y in coords]
    return max(max(xs) - min(xs), max(ys) - min(ys)) + 1


def _owner(sc: Scene, p: PlaceView) -> str:
    return sc.players[p.owner] if 0 <= p.owner < len(sc.players) else "-"


def _table(
    sc: Scene, places: Sequence[PlaceView], heads: Sequence[str]
) -> tuple[Callable[[str], str], dict[str, str]]:
    """The places as a table: a function writing a header line (a group's name, then the
    values' names), and each place's row: its name (MARK first when marked), its values in
    columns (numbers to the right), and who controls it, if anyone controls any."""
    names = [k for k, _ in places[0].values]
    owners = any(p.owner >= 0 for p in places)
    marks = any(p.marked for p in places)  # a column of its own for MARK
    label_w = max([len(p.label) + (2 if marks else 0) for p in places] + [len(h) for h in heads])
    values = [[_cell(p.values[i][1]) if i < len(p.values) else "" for i in range(len(names))] for p in places]
    cols = [max([len(n)] + [len(v[i]) for v in values]) for i, n in enumerate(names)]
    right = [all(_number(v[i]) for v in values) for i in range(len(names))]
    if owners:
        names.append("control")
        cols.append(max([len("control")] + [len(_owner(sc, p)) for p in places]))
        right.append(False)
        values = [[*v, _owner(sc, p)] for v, p in zip(values, places, strict=True)]

    def row(label: str, cells: Sequence[str]) -> str:
        written = [f"{c:>{w}}" if r else f"{c:<{w}}" for c, w, r in zip(cells, cols, right, strict=True)]
        return f"  {label:<{label_w}}  {'  '.join(written)}".rstrip()

    def head(label: str) -> str:
        return row(label, names)

    rows = {
        p.id: row((MARK + " " if p.marked else "  " if marks else "") + p.label, v)
        for p, v in zip(places, values, strict=True)
    }
    return head, rows


def _cell(value: str) -> str:
    """A value in a table: `-` for none."""
    return "-" if value == "none" else value


def _number(text: str) -> bool:
    return text.lstrip("-").isdigit()


def _players(sc: Scene, layer: LayerView) -> list[str]:
    """A layer of the players: a row per value, a column per player."""
    places = layer.places
    names = [k for k, _ in places[0].values]
    name_w = max(len(n) for n in names) + 2 if names else 2
    room = max(12, (WIDTH - 2 - name_w - 2 * (len(places) - 1)) // len(places))
    cols = [min(room, max([len(p.label)] + [len(v) for _, v in p.values])) for p in places]
    lines = [
        "  " + " " * name_w + "  ".join(f"{p.label:<{w}}" for p, w in zip(places, cols, strict=True)).rstrip()
    ]
    for i, name in enumerate(names):
        written = [_cell(p.values[i][1]) if i < len(p.values) else "" for p in places]
        if not any(written):
            continue  # nothing to say for anyone (the board writes "" for that)
        cells = [_wrap(v, w) for v, w in zip(written, cols, strict=True)]
        for k in range(max(len(c) for c in cells)):
            head = name if k == 0 else ""
            row = "  ".join(f"{c[k] if k < len(c) else '':<{w}}" for c, w in zip(cells, cols, strict=True))
            lines.append(f"  {head:<{name_w}}{row}".rstrip())
    return lines


def _wrap(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` columns: broken after a comma or before a bracket
    where it can, else at a space, and a word longer than a line cut."""
    chunks: list[str] = []
    for part in text.replace(" (", "\0(").split("\0"):
        chunks += [c + "," for c in part.split(", ")[:-1]] + [part.split(", ")[-1]]
    lines: list[str] = []
    for chunk in chunks:
        if lines and len(lines[-1]) + 1 + len(chunk) <= width:
            lines[-1] += " " + chunk
            continue
        words = chunk.split(" ")
        lines.append("")
        for word in words:
            while len(word) > width:
                if lines[-1]:
                    lines.append("")
                lines[-1] = word[: width - 1] + "-"
                lines.append("")
                word = word[width - 1 :]
            if not lines[-1]:
                lines[-1] = word
            elif len(lines[-1]) + 1 + len(word) <= width:
                lines[-1] += " " + word
            else:
                lines.append(word)
    return [line for line in lines if line] or [""]


def _hex_map(sc: Scene, layer: LayerView) -> list[str]:
    """Staggered rows of cells, as the hexagons lie (axial q, r, pointy side up: a row is half
    a cell to the right of the one above it), each with its place's name and values, who
    controls it at the top, and MARK for a marked place."""
    placed = [(p, p.coords) for p in layer.places if p.coords is not None]
    if not placed:
        return []
    halves = {p.id: 2 * q + r for p, (q, r) in placed}  # columns in half cells
    low, high = min(halves.values()), max(halves.values())
    across = (high - low) / 2 + 1
    w = max(12, min(26, int((WIDTH + 2) / across)))  # ~WIDTH columns in all
    w -= w % 2
    rows: dict[int, list[PlaceView]] = {}
    for p, (_, r) in placed:
        rows.setdefault(r, []).append(p)
    canvas: list[list[str]] = []

    def put(y: int, x: int, text: str, *, over: bool = False) -> None:
        while len(canvas) <= y:
            canvas.append([])
        line = canvas[y]
        if len(line) < x + len(text):
            line.extend(" " * (x + len(text) - len(line)))
        for i, ch in enumerate(text):
            if over or line[x + i] != "+" or ch == "+":
                line[x + i] = ch

    y = 0
    tops: list[tuple[int, int, str]] = []
    for r in sorted(rows):
        cells = sorted(rows[r], key=lambda p: halves[p.id])
        texts = {p.id: _hex_cell(p, w - 3) for p in cells}
        height = max(len(t) for t in texts.values())
        for p in cells:
            x = (halves[p.id] - low) * w // 2
            put(y, x, "+" + "-" * (w - 1) + "+")
            put(y + height + 1, x, "+" + "-" * (w - 1) + "+")
            for k in range(height):
                text = texts[p.id][k] if k < len(texts[p.id]) else ""
                put(y + 1 + k, x, "|" + f" {text:<{w - 2}}" + "|")
            if p.owner >= 0:
                tops.append((y, x + 2, f" {_owner(sc, p)} "))
        y += height + 1
    for ty, tx, text in tops:
        put(ty, tx, text[: w - 3], over=True)
    return ["".join(line).rstrip() for line in canvas]


def _hex_cell(p: PlaceView, width: int) -> list[str]:
    """A cell's lines: the name (MARK first when marked), then each value that says something."""
    name = (MARK if p.marked else "") + p.label
    lines = [name if len(name) <= width else name[: width - 1] + "."]
    for k, v in p.values:
        if v in ("", "0", "no", "none"):
            continue
        text = v if v == "yes" and not k else (k if v == "yes" else f"{k} {v}" if k else v)
        lines += _wrap(text, width)
    return lines


def _grid_map(sc: Scene, layer: LayerView) -> list[str]:
    """The places at their cells (x to the right; y up for a grid zone's cells, down for a
    grid layout's rows), each by its name, MARK first when marked."""
    at = {p.coords: p for p in layer.places if p.coords is not None}
    if not at:
        return []
    xs = [x for x, _ in at]
    ys = [y for _, y in at]
    width = max(9, min(15, max(len(p.label) for p in at.values()) + 2))
    cols = range(min(xs), max(xs) + 1)
    head = "  " + " " * 5 + "".join(f"{x:^{width}}" for x in cols)
    lines = [head.rstrip()]
    order = range(max(ys), min(ys) - 1, -1) if layer.layout == "cells" else range(min(ys), max(ys) + 1)
    for y in order:
        row = ""
        for x in cols:
            p = at.get((x, y))
            name = "." if p is None else (MARK if p.marked else "") + p.label
            row += f"{name[: width - 1]:^{width}}"
        lines.append(f"  {y:>4} {row}".rstrip())
    return lines


# ---- zones -------------------------------------------------------------------------------------


def _zones(zones: Sequence[ZoneView]) -> list[str]:
    lines: list[str] = []
    for z in zones:
        if z.cards is None:
            lines.append(f"{z.key}: {z.count} face down")
        elif not z.cards:
            lines.append(f"{z.key}: empty")
        else:
            names = [
                c.label + (f" x{c.count}" if c.count > 1 else "") + (f" ({c.value})" if c.value else "")
                for c in z.cards
            ]
            lines += _listed(f"{z.key} ({z.count}): ", f"{z.key} ...: ", names)
    return lines


def _listed(head: str, more: str, items: Sequence[str]) -> list[str]:
    """`head` and the items, comma-separated, in lines of about WIDTH columns (a line that goes
    on starts with `more`)."""
    lines = [head]
    for i, item in enumerate(items):
        text = item + ("," if i < len(items) - 1 else "")
        line = lines[-1]
        if len(line) + len(text) > WIDTH and line not in (head, more):
            lines.append(more + text)
        else:
            lines[-1] = line + ("" if line in (head, more) else " ") + text
    return lines


__all__ = ["card_text", "describe", "view_lines"]
