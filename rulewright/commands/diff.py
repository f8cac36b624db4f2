"""`rulewright diff`: after a spec change and a build, where each stored playthrough diverges, and why."""

from __future__ import annotations

import argparse
from pathlib import Path

from rulewright.commands.arguments import is_dir
from rulewright.commands.exits import EXIT_OK, EXIT_SPEC, UsageError
from rulewright.commands.lookup import (
    built_place,
    current_workspace,
    open_game,
    spec_ir,
    workspace_playthrough_dir,
)
from rulewright.commands.outputs import output_folder
from rulewright.gamelog import os_reason
from runtime.text import escaped_lines


def arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("game", metavar="GAME", help="a compiled game")
    sp.add_argument("--update", action="store_true", help="then re-record them on the current rules")
    sp.add_argument("--dir", metavar="DIR", help="default tests/playthroughs/GAME")


def run(args: argparse.Namespace) -> int:
    from rulewright.impact import analyse, coverage_tracer, describe, playthrough_files, rerecord
    from rulewright.playthrough import PlaythroughError
    from rulewright.previous import load_previous

    ws = current_workspace(args)
    game = open_game(args.game, None, ws, folders=False)
    if args.dir is not None and not args.dir.strip():
        raise UsageError("--dir: the folder name is empty")
    folder = Path(args.dir) if args.dir else workspace_playthrough_dir(ws, args.game)
    if args.update:
        output_folder(str(folder), "--dir")
    spec = spec_ir(ws, args.game)
    if spec.digest != game.info.digest:
        raise UsageError(
            f"{built_place(ws, args.game)} is older than its spec: run `rulewright build {game.name}` first"
        )
    if not is_dir(folder) or not playthrough_files(folder):
        raise UsageError(
            f"no playthroughs in {folder} (record some with `rulewright playthrough {args.game}`)"
        )
    previous = load_previous(ws.output, game.name) if ws is not None else None
    try:
        impact = analyse(game, spec, folder, tracer=coverage_tracer, previous=previous)
    except PlaythroughError as exc:
        raise UsageError(str(exc)) from None
    print(escaped_lines(describe(impact)))
    if args.update:
        try:
            written = rerecord(game, spec, folder)
        except OSError as exc:
            raise UsageError(f"cannot write the playthroughs in {folder} ({os_reason(exc)})") from None
        moved = [(p, a, b) for p, a, b in written if a != b]
        print(f"re-recorded {len(written)} playthrough(s) in {folder}; {len(moved)} end differently:")
        for p, a, b in moved:
            print(f"  {p.stem}: {a}  ->  {b}")
        return EXIT_OK
    return EXIT_SPEC if any(o.divergence is not None for o in impact.outcomes) else EXIT_OK
