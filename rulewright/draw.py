"""`rulewright draw`: a picture of one state of a game, as a player sees it or as a whole.

The state is the one after some seeded random decisions, or a step of a logged game. The picture
is an SVG, a PNG (rasterised by resvg, an optional dependency), or the terminal view as text.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from runtime.agents import Agent
from runtime.board import scene
from runtime.engine import GameState
from runtime.svg import RasterUnavailable, png, svg
from runtime.view import describe

FORMATS = (".svg", ".png", ".txt")


class DrawError(ValueError):
    """A perspective or a file name that cannot be drawn (a usage error)."""


def perspective(state: GameState, text: str) -> int | None:
    """The player a perspective names (a label or a code name, any case), or None for `everyone`."""
    if text.lower() in ("everyone", "all", "omniscient"):
        return None
    info = state.INFO
    names = [n.lower() for n in info.player_names[: state.num_players]]
    if text.lower() in names:
        return names.index(text.lower())
    raise DrawError(f"--as {text!r}: not a player of this game; choose everyone or one of {', '.join(names)}")


def advance(state: GameState, agents: Sequence[Agent], steps: int) -> int:
    """Let the agents make up to `steps` decisions; how many they made (fewer if the game ended)."""
    done = 0
    while done < steps and not state.is_terminal():
        p = state.current_player()
        state.apply_action(agents[p].choose(state))
        done += 1
    return done


def check_out(out: Path) -> None:
    """Refuse a file to draw into whose kind is not known (before any game is played)."""
    if out.suffix.lower() not in FORMATS:
        raise DrawError(f"--out {out}: write an .svg, .png or .txt file")


def write(state: GameState, player: int | None, out: Path | None) -> str:
    """Draw `state` for `player` into `out` (by its suffix), or return the terminal view (no `out`)."""
    if out is None:
        return describe(state, player)
    check_out(out)
    suffix = out.suffix.lower()
    if suffix == ".txt":
        out.write_text(describe(state, player) + "\n", encoding="utf-8")
        return ""
    picture = svg(scene(state, player))
    if suffix == ".svg":
        out.write_text(picture, encoding="utf-8")
        return ""
    try:
        out.write_bytes(png(picture))
    except RasterUnavailable as exc:
        raise DrawError(str(exc)) from None
    return ""
