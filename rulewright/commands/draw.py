"""`rulewright draw`: a state of a game (after random play, or a logged game's step) as a picture or text."""

from __future__ import annotations

import argparse
from pathlib import Path

from rulewright.commands.arguments import game_options, nonnegative_int, seed_number
from rulewright.commands.exits import EXIT_OK, UsageError
from rulewright.commands.lookup import current_workspace, open_game
from rulewright.commands.outputs import output_file
from rulewright.commands.playing import SEEDS, open_logged_game, replayed, seat_agents
from rulewright.gamelog import MAX_LOG_BYTES
from runtime.text import escaped


def arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("game", nargs="?", metavar="GAME|PATH", help="a compiled game or a spec folder")
    sp.add_argument("--log", metavar="FILE", help="draw a step of this logged game instead")
    sp.add_argument("--seed", type=seed_number, default=1, help=f"{SEEDS} (default 1)")
    sp.add_argument(
        "--steps",
        type=nonnegative_int,
        help="draw the state after this many decisions (random play from the seed, or the log's; "
        "default: the start, or the log's end)",
    )
    sp.add_argument(
        "--as",
        dest="as_",
        default="everyone",
        metavar="PLAYER",
        help="whose view: a player, or everyone (the default: every card face up)",
    )
    sp.add_argument(
        "--out", metavar="FILE", help="an .svg, .png or .txt file (default: the terminal view, printed)"
    )
    game_options(sp)


def run(args: argparse.Namespace) -> int:
    from rulewright import draw

    ws = current_workspace(args)
    if (args.game is None) == (args.log is None):
        raise UsageError("name a GAME, or a logged game with --log FILE (not both)")
    out = output_file(args.out, "--out") if args.out is not None else None
    try:
        if out is not None:
            draw.check_out(out)
    except draw.DrawError as exc:
        raise UsageError(str(exc)) from None
    if args.log is not None:
        log, game = open_logged_game(Path(args.log), MAX_LOG_BYTES, ws)
        replay = replayed(game, log, args.steps)
        state = replay.state
        done = replay.actions if args.steps is None else min(args.steps, replay.actions)
    else:
        game = open_game(args.game, args.option, ws)
        state = game.new_initial_state(args.seed)
        done = draw.advance(state, seat_agents(game, args.seed, ["random"]), args.steps or 0)
    try:
        text = draw.write(state, draw.perspective(state, args.as_), out)
    except draw.DrawError as exc:
        raise UsageError(str(exc)) from None
    if text:
        print(text)
    else:
        print(escaped(f"{out}: {game.info.title} after {done} decision(s), as {args.as_} sees it"))
    return EXIT_OK
