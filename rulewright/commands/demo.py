"""`rulewright demo`: one seeded game of every compiled game, each with the end of its log."""

from __future__ import annotations

import argparse

from rulewright.commands.arguments import nonnegative_int, seed_number
from rulewright.commands.exits import EXIT_OK
from rulewright.commands.lookup import current_workspace, games, open_game
from rulewright.commands.playing import SEEDS, play_game, result_line
from runtime.text import escaped


def arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--seed", type=seed_number, default=1, help=f"{SEEDS} (default 1)")
    sp.add_argument("--tail", type=nonnegative_int, default=15, help="log lines to show per game")


def run(args: argparse.Namespace) -> int:
    ws = current_workspace(args)
    for name in games(ws):
        game = open_game(name, None, ws, folders=False)
        state = play_game(game, args.seed, ["random"])
        lines = state.log()
        print(
            f"=== {escaped(game.title)}: one game, seed {args.seed}, random agents ({len(lines)} log lines, last {args.tail}) ==="
        )
        for line in lines[len(lines) - min(args.tail, len(lines)) :]:
            print(f"  {escaped(line)}")
        print(f"  {result_line(game, state)}\n")
    print(
        "To look at a game:\n"
        "  rulewright draw GAME --steps 100 --out board.svg   a picture of it after 100 decisions\n"
        "  rulewright play GAME --html game.html             a page to step through it in a browser\n"
        "  rulewright play GAME --agents human,random        play it here\n"
        "  make serve                                        play any game in the browser (docs/serve.md)"
    )
    return EXIT_OK
