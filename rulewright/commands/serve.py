"""`rulewright serve`: the games in the browser (rulewright/serve/), offered from the games this run sees."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulewright.commands.arguments import nonnegative_int
from rulewright.commands.exits import EXIT_OK, UsageError
from rulewright.commands.lookup import current_workspace, game_entries, search

if TYPE_CHECKING:
    from rulewright.serve import Catalog
    from rulewright.workspace import Workspace
    from runtime.game import Game


def arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "--host", default="127.0.0.1", help="the address to listen at (default 127.0.0.1: this machine only)"
    )
    sp.add_argument(
        "--port", type=nonnegative_int, default=8000, help="default 8000; 0: any free port (printed)"
    )
    sp.add_argument(
        "--data",
        default="rulewright-matches",
        metavar="DIR",
        help="where the matches are kept (made if missing; default ./rulewright-matches)",
    )
    sp.add_argument(
        "--bot-delay",
        type=float,
        default=0.5,
        metavar="SECONDS",
        help="a bot's pause before each move, so that people can follow it (default 0.5)",
    )


def run(args: argparse.Namespace) -> int:
    """`rulewright serve`: the workspace's and the bundled games in the browser (docs/serve.md)."""
    try:
        import aiohttp  # noqa: F401  (the serve extra)
    except ImportError:
        raise UsageError(
            "the browser server needs the serve extra: pip install -e '.[serve]' (or make serve)"
        ) from None
    from rulewright.serve import free_port, run
    from rulewright.serve.store import StoreError

    if args.bot_delay < 0 or args.bot_delay > 60 or args.bot_delay != args.bot_delay:
        raise UsageError("--bot-delay: seconds from 0 to 60")
    ws = current_workspace(args)
    data = Path(args.data)
    if not args.data.strip():
        raise UsageError("--data: the folder name is empty")
    if args.port > 65535:
        raise UsageError(f"--port {args.port}: ports go from 0 to 65535")
    why = free_port(args.host, args.port)
    if why is not None:
        raise UsageError(why)
    catalog = serve_catalog(ws)
    try:
        run(catalog, data, args.host, args.port, bot_delay=args.bot_delay)
    except StoreError as exc:
        raise UsageError(str(exc)) from None
    return EXIT_OK


def serve_catalog(ws: Workspace | None) -> Catalog:
    """What `rulewright serve` offers: every game this run sees (the workspace's first), with its
    lobby entry and the players' names for each player count, a way to open it, and the bots."""
    from rulewright.serve import Catalog

    entries: list[dict[str, Any]] = []
    for entry, game in game_entries(ws):
        if game is None:  # refused: not offered
            continue
        entry["names"] = _seat_names(game, entry, ws)
        del entry["folder"]
        entries.append(entry)
    entries.sort(key=lambda e: (e["source"] != "workspace", e["title"].lower()))

    def opened(name: str, options: dict[str, Any]) -> Game:
        from runtime.game import load_game

        return load_game(name, options, search=search(ws))

    bots = tuple(k for k in ("random", "greedy", "mcts") if k != "mcts" or _has_openspiel())
    return Catalog(tuple(entries), opened, bots)


def _seat_names(game: Game, entry: dict[str, Any], ws: Workspace | None) -> dict[str, list[str]]:
    """The players' names for each player count the lobby offers."""
    from runtime.game import load_game

    option = entry["players_option"]
    if option is None:
        return {str(game.num_players): list(game.info.player_names[: game.num_players])}
    out = {}
    for count in entry["players"]:
        other = load_game(game.name, {option: count}, search=search(ws))
        out[str(count)] = list(other.info.player_names[: other.num_players])
    return out


def _has_openspiel() -> bool:
    import importlib.util

    return importlib.util.find_spec("pyspiel") is not None
