"""`rulewright playthrough`: golden playthroughs recorded under tests/playthroughs/GAME/ of the workspace."""

from __future__ import annotations

import argparse

from rulewright.commands.arguments import game_options, positive_int, seed_number
from rulewright.commands.exits import EXIT_OK, UsageError
from rulewright.commands.lookup import (
    built_place,
    current_workspace,
    open_game,
    spec_ir,
    workspace_playthrough_dir,
)
from rulewright.commands.outputs import output_folder
from rulewright.commands.playing import agent_kinds
from rulewright.gamelog import SEED_LIMIT, os_reason


def arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("game", metavar="GAME", help="a compiled game")
    sp.add_argument("--seed", type=seed_number, default=1, help="seed of the first game (default 1)")
    sp.add_argument("-n", type=positive_int, default=1, help="how many games, seeds SEED.. (default 1)")
    sp.add_argument("--agents", default="random", help="comma-separated, one per player, cycled")
    sp.add_argument("--out", metavar="DIR", help="default tests/playthroughs/GAME")
    game_options(sp)


def run(args: argparse.Namespace) -> int:
    from compiler.fingerprint import fingerprint
    from rulewright.impact import save
    from rulewright.playthrough import record

    ws = current_workspace(args)
    game = open_game(args.game, args.option, ws, folders=False)
    agent_kinds(args.agents)
    if args.seed + args.n > SEED_LIMIT:
        raise UsageError(f"seeds {args.seed}..{args.seed + args.n - 1} go past the largest, {SEED_LIMIT - 1}")
    folder = (
        output_folder(args.out, "--out") if args.out is not None else workspace_playthrough_dir(ws, args.game)
    )
    spec = spec_ir(ws, args.game)
    if spec.digest != game.info.digest:
        raise UsageError(f"{built_place(ws, args.game)} is stale: run `rulewright build {game.name}` first")
    entries = fingerprint(spec)
    for seed in range(args.seed, args.seed + args.n):
        try:
            pt = record(game, seed, args.agents)
        except ValueError as exc:  # e.g. mcts without OpenSpiel
            raise UsageError(str(exc)) from None
        try:
            path = save(game, pt, folder, entries)
        except OSError as exc:
            raise UsageError(f"cannot write the playthrough in {folder} ({os_reason(exc)})") from None
        print(f"wrote {path} ({len(pt.steps)} steps; {pt.result})")
    return EXIT_OK
