"""A game as one self-contained HTML page: `rulewright replay LOG --html OUT.html` (and `play` and
`simulate` with `--html`).

The page steps through the game (step i is the state after i decisions; step 0 the initial
state) from each perspective: everyone (omniscient, labelled so) and each player. For every step
and perspective it holds what `runtime.board.scene(state, p)` and `runtime.svg.draw` give, and the
log lines that perspective may see (`state.player_log(p)`; everyone: `state.log()`). A player's
perspective is made from those two alone, so it holds nothing that player may not see.

The frames are encoded compactly, as JSON inside a `<script type="application/json">` block:

    strings    every distinct text once: pieces of SVG markup, log lines, prompts, options, effects
    meta       the game, seed, options, players, how many steps, the result
    views      one per perspective: its label, its player (null: everyone), its log (string ids),
               and its frames: frame 0 in full, then for each step only what changed

A frame's keys: `w`/`h` the picture's size, `bg` its background, `o` the groups' ids in drawing
order, `g` {group id: markup} for the groups whose markup changed, `e` the lasting effects (each
only when it changed); at every step `n` how many of the view's log lines are seen, `s` the
status, `a` the player asked (-1: none), `p` the prompt; and where this perspective sees the
options, `x` the options and `c` the chosen one (the index in `x` of the decision taken at this
step; -1: none). Markup is a list of string ids: a group's markup cut into its top-level elements,
so that a group in which one element changed (a panel row, a card) stores only that element anew.

Nothing in a state reaches the page unescaped: SVG markup comes from runtime/svg.py, which escapes
every text, and is checked again here (well-formed, only drawing elements and attributes: no
script, no event handler, no link); every other text is inserted by the page's script as text,
never as markup; the JSON is written so that no `</` or `<!` occurs in it; a Content Security
Policy allows only the page's own script and style (by hash) and nothing from the network.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
import time
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from runtime.board import Scene, scene
from runtime.engine import GameState
from runtime.game import Game
from runtime.svg import Drawing, draw

EVERYONE = "Everyone (omniscient)"  # the banner above the board says what that means

# What SVG markup may hold (runtime/svg.py draws with these): drawing elements and presentation
# attributes. No script, foreignObject, image, use, a, style element or attribute, no on* handler,
# no href, no url(...) in a value: nothing in the picture runs or loads anything. No id either:
# the page's own elements keep theirs.
_ELEMENTS = frozenset(
    {"g", "rect", "circle", "ellipse", "line", "polyline", "polygon", "path", "text", "tspan", "title"}
)
_ATTRIBUTES = frozenset(
    {
        "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "width", "height",
        "points", "d", "dx", "dy", "transform", "fill", "fill-opacity", "fill-rule", "stroke",
        "stroke-width", "stroke-opacity", "stroke-dasharray", "stroke-linecap", "stroke-linejoin",
        "opacity", "font-size", "font-weight", "font-style", "font-family", "text-anchor",
        "dominant-baseline", "letter-spacing",
    }
)  # fmt: skip
_GROUP_ID = re.compile(r"[A-Za-z0-9_-]{1,200}")
_TAG = re.compile(r"<(/?)[A-Za-z][^<>]*?(/?)>")
_ASSETS = ("page.html", "viewer.css", "viewer.js")


class UnsafeMarkup(ValueError):
    """SVG markup the page will not show: not well formed, or an element or attribute that could
    run or load something."""


@dataclass(frozen=True)
class Built:
    """A written replay page: its size, the steps and perspectives it holds, and how long it took."""

    path: Path
    size: int
    steps: int
    perspectives: int
    seconds: float


class _Strings:
    """Every distinct text once; a text is written as its index."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.index: dict[str, int] = {}

    def id(self, text: str) -> int:
        k = self.index.get(text)
        if k is None:
            k = self.index[text] = len(self.texts)
            self.texts.append(text)
        return k


class _Markup:
    """SVG markup as lists of string ids: its top-level elements, each checked once (a piece
    that is well-formed alone, and those only, make well-formed markup)."""

    def __init__(self, strings: _Strings) -> None:
        self.strings = strings
        self.checked: set[str] = set()

    def ids(self, markup: str) -> list[int]:
        out = []
        for piece in split_markup(markup):
            if piece not in self.checked:
                check_markup(piece)
                self.checked.add(piece)
            out.append(self.strings.id(piece))
        return out


def split_markup(markup: str) -> list[str]:
    """`markup` cut after each top-level element; the pieces join back into `markup` exactly."""
    pieces: list[str] = []
    depth = start = 0
    for m in _TAG.finditer(markup):
        if m.group(1):
            depth -= 1
        elif not m.group(2):
            depth += 1
        if depth == 0:
            pieces.append(markup[start : m.end()])
            start = m.end()
    if start < len(markup):
        pieces.append(markup[start:])
    return pieces


def check_markup(markup: str) -> None:
    """UnsafeMarkup unless `markup` is well-formed SVG of drawing elements and attributes only."""
    try:
        root = ET.fromstring(f"<g>{markup}</g>")
    except ET.ParseError as exc:
        raise UnsafeMarkup(f"the drawing is not well-formed SVG ({exc})") from None
    for el in root.iter():
        if el.tag not in _ELEMENTS:
            raise UnsafeMarkup(f"the drawing has an element the replay page does not show: {el.tag!r}")
        for name, value in el.attrib.items():
            if name not in _ATTRIBUTES:
                raise UnsafeMarkup(f"the drawing has an attribute the replay page does not allow: {name!r}")
            if "url(" in value.lower() or "javascript:" in value.lower():
                raise UnsafeMarkup(f"the drawing's attribute {name!r} refers to something: {value[:60]!r}")


class _View:
    """One perspective's frames, recorded step by step."""

    def __init__(self, label: str, player: int | None, strings: _Strings, markup: _Markup) -> None:
        self.label = label
        self.player = player
        self.strings = strings
        self.markup = markup
        self.frames: list[dict[str, Any]] = []
        self.log: list[str] = []  # the lines this perspective has seen so far
        self.read = 0  # how many of the game's log lines they were read from
        self.groups: dict[str, str] = {}
        self.order: list[str] = []
        self.size = (0, 0)
        self.background = ""
        self.effects: tuple[str, ...] | None = None

    def record(self, state: GameState, chosen: str | None) -> None:
        """The frame of `state`; `chosen` is the label of the decision taken from it (None at the
        last step)."""
        seen = scene(state, self.player)
        picture = draw(seen)
        # the log is append-only: each step reads only the lines added since the last
        first = self.read
        self.log += state.log(first) if self.player is None else state.player_log(self.player, first)
        self.read = len(state.lines)
        frame = self._picture(picture)
        frame.update(self._panel(seen, chosen))
        frame["n"] = len(self.log)
        self.frames.append(frame)

    def _picture(self, picture: Drawing) -> dict[str, Any]:
        frame: dict[str, Any] = {}
        if (picture.width, picture.height) != self.size:
            self.size = (picture.width, picture.height)
            frame["w"], frame["h"] = self.size
        if picture.background != self.background:
            self.background = picture.background
            frame["bg"] = self.markup.ids(picture.background)
        order = [gid for gid, _ in picture.groups]
        if order != self.order:
            for gid in order:
                if not _GROUP_ID.fullmatch(gid):
                    raise UnsafeMarkup(
                        f"the drawing has a group id the replay page does not allow: {gid[:60]!r}"
                    )
            if len(set(order)) != len(order):
                raise UnsafeMarkup("the drawing has two groups of the same id")
            self.order = order
            frame["o"] = [self.strings.id(gid) for gid in order]
            kept = set(order)
            self.groups = {gid: m for gid, m in self.groups.items() if gid in kept}
        changed = {gid: self.markup.ids(m) for gid, m in picture.groups if self.groups.get(gid) != m}
        if changed:
            frame["g"] = changed
            self.groups.update((gid, m) for gid, m in picture.groups if gid in changed)
        return frame

    def _panel(self, seen: Scene, chosen: str | None) -> dict[str, Any]:
        s = self.strings
        frame: dict[str, Any] = {"s": s.id(seen.status), "a": seen.to_act, "p": s.id(seen.prompt)}
        if seen.options:
            frame["x"] = [s.id(o) for o in seen.options]
            # the options are shown only to the player asked (or everyone): the chosen one with them
            frame["c"] = seen.options.index(chosen) if chosen in seen.options else -1
        if seen.effects != self.effects:
            self.effects = seen.effects
            frame["e"] = [s.id(e) for e in seen.effects]
        return frame

    def data(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "player": self.player,
            "log": [self.strings.id(line) for line in self.log],
            "frames": self.frames,
        }


def replay_data(
    game: Game,
    seed: int,
    actions: Sequence[int],
    *,
    max_steps: int | None = None,
    perspectives: Sequence[int | None] | None = None,
    unfinished: str | None = None,
) -> dict[str, Any]:
    """The page's data for the game of `seed` played with `actions` (ids), up to `max_steps`
    decisions, from each of `perspectives` (None: everyone; default: everyone, then each player)."""
    state = game.new_initial_state(seed)
    info = game.info
    n = state.num_players
    wanted: list[int | None] = [None, *range(n)] if perspectives is None else list(perspectives)
    strings = _Strings()
    markup = _Markup(strings)
    views = [_View(EVERYONE if p is None else info.player_names[p], p, strings, markup) for p in wanted]
    shown = len(actions) if max_steps is None else min(len(actions), max_steps)
    for i in range(shown + 1):
        chosen = state.action_to_string(actions[i]) if i < shown else None
        for view in views:
            view.record(state, chosen)
        if i < shown:
            state.apply_action(actions[i])
    over = state.is_terminal()
    names = info.player_names
    if over:
        result = info.result(state.winners())
        result += f" ({state.reason})" if state.reason else ""
    elif shown < len(actions):
        result = f"shown up to decision {shown} of {len(actions)}"
    else:
        result = f"unfinished ({unfinished})" if unfinished else "unfinished"
    meta = {
        "game": game.name,
        "title": info.title,
        "seed": seed,
        "options": dict(game.options),
        "players": list(names[:n]),
        "decisions": len(actions),
        "steps": shown,
        "result": result,
    }
    return {"meta": meta, "strings": strings.texts, "views": [v.data() for v in views]}


def script_json(data: object) -> str:
    """`data` as JSON that can sit inside a <script> element: no `</` (which could close it) and
    no `<!` (which could start a comment that changes how the element ends) occurs in it."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # '<' occurs only inside JSON strings, where these escapes read back as the same text
    return text.replace("</", "<\\/").replace("<!", "\\u003c!")


def page(data: dict[str, Any]) -> str:
    """The whole HTML page of a replay's data."""
    template, css, js = (
        resources.files("rulewright").joinpath("viewer", name).read_text("utf-8") for name in _ASSETS
    )
    for name, text in (("viewer.css", css), ("viewer.js", js)):
        if re.search(r"</(script|style)", text, re.IGNORECASE):
            raise ValueError(f"rulewright/viewer/{name} must not hold a closing script or style tag")
    meta = data["meta"]
    parts = {
        "TITLE": html.escape(f"{meta['title']}: replay (seed {meta['seed']})"),
        "CSP": _policy(css, js),
        "CSS": css,
        "JS": js,
        "DATA": script_json(data),
    }
    # one pass, so that nothing inserted is looked at again
    return re.sub(r"\{\{(TITLE|CSP|CSS|JS|DATA)\}\}", lambda m: parts[m.group(1)], template)


def _policy(css: str, js: str) -> str:
    """Only this page's own style and script run, and nothing is fetched from anywhere."""

    def digest(text: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"

    policy = (
        f"default-src 'none'; script-src {digest(js)}; style-src {digest(css)}; img-src data:; "
        "base-uri 'none'; form-action 'none'"
    )
    assert re.fullmatch(r"[A-Za-z0-9 ':;+/=-]+", policy)  # nothing to escape in an attribute
    return policy


def write_replay(
    path: Path,
    game: Game,
    seed: int,
    actions: Sequence[int],
    *,
    max_steps: int | None = None,
    perspectives: Sequence[int | None] | None = None,
    unfinished: str | None = None,
) -> Built:
    """Write the replay page of a game to `path` (OSError if it cannot be written)."""
    start = time.perf_counter()
    data = replay_data(
        game, seed, actions, max_steps=max_steps, perspectives=perspectives, unfinished=unfinished
    )
    text = page(data)
    raw = text.encode("utf-8")
    path.write_bytes(raw)
    return Built(path, len(raw), data["meta"]["steps"], len(data["views"]), time.perf_counter() - start)


__all__ = [
    "EVERYONE",
    "Built",
    "UnsafeMarkup",
    "check_markup",
    "page",
    "replay_data",
    "split_markup",
    "write_replay",
]
