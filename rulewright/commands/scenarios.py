"""`rulewright scenarios`: the designers' scenario files run, PASS or FAIL each."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from rulewright.commands.arguments import is_dir
from rulewright.commands.exits import EXIT_OK, EXIT_SPEC, UsageError
from rulewright.commands.lookup import current_workspace, games, open_game, spec_folder
from runtime.text import escaped, quoted

if TYPE_CHECKING:
    from rulewright.scenarios import ScenarioResult
    from rulewright.workspace import Workspace


def arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "paths",
        nargs="*",
        metavar="GAME|PATH",
        help="a game or a spec folder (default: all games); with --game, case files or folders of them",
    )
    sp.add_argument(
        "--game",
        metavar="NAME|FOLDER",
        help="the game (name or spec folder) the case files test; they replace its own scenarios",
    )


def run(args: argparse.Namespace) -> int:
    from rulewright.scenarios import run_all, staleness

    ws = current_workspace(args)
    if args.game is not None:
        return _run_cases(ws, args.game, args.paths)
    if len(args.paths) > 1 or any(p.endswith((".yaml", ".yml")) for p in args.paths):
        raise UsageError(
            "to run case files, name the game they test: rulewright scenarios --game NAME FILE..."
        )
    compiled = games(ws)
    names = args.paths or compiled
    opened = [(name, open_game(name, None, ws, scenarios=True)) for name in names]
    # A compiled game's scenarios are compiled into it: after an edit under specs/GAME/ they are
    # stale until `rulewright build`, and running the old ones would pass or fail on old text.
    stale = [
        why
        for name, game in opened
        if ws is not None
        and name in compiled
        and (folder := spec_folder(ws, name)) is not None
        and (why := staleness(game, folder, ws.root, ws.shown(ws.output)))
    ]
    if stale:
        raise UsageError("; ".join(stale))
    failed = total = 0
    for name, game in opened:
        failed, total = _report(name, run_all(game.name, game), failed, total)
    print(f"{total - failed} passed, {failed} failed")
    return EXIT_SPEC if failed else EXIT_OK


def _run_cases(ws: Workspace | None, game: str, paths: list[str]) -> int:
    """Case files (or folders of them) kept outside the spec, compiled with the game's spec."""
    from rulewright.scenarios import run_all
    from rulewright.spec_loader import load_spec

    if not paths:
        raise UsageError("--game needs case files or folders of them to run")
    if not game.strip():
        raise UsageError("--game: the game's name is empty")
    folder = Path(game) if is_dir(Path(game)) else spec_folder(ws, game)
    if folder is None or not (is_dir(folder) and any(folder.glob("*.yaml"))):
        raise UsageError(
            f"no spec folder for {quoted(game)} (a game of the workspace's specs or a folder of spec files)"
        )
    files: list[Path] = []
    for text in paths:
        p = Path(text)
        if is_dir(p):
            files += sorted(f for f in p.glob("*.yaml") if f.is_file())
        elif p.is_file():
            files.append(p)
        elif os.path.lexists(p):
            raise UsageError(f"{p}: not a regular file (a device, a pipe or a socket)")
        else:
            raise UsageError(f"{p}: no such case file or folder")
    if not files:
        raise UsageError(f"no case files (*.yaml) in {', '.join(paths)}")
    try:
        loaded = load_spec(folder, None, files)
    except ValueError as exc:  # the located diagnostics of the spec and its cases
        print(exc)
        return EXIT_SPEC
    failed, total = _report(loaded.name, run_all(loaded.name, loaded), 0, 0)
    print(f"{total - failed} passed, {failed} failed")
    return EXIT_SPEC if failed else EXIT_OK


def _report(name: str, results: list[ScenarioResult], failed: int, total: int) -> tuple[int, int]:
    """Print PASS/FAIL lines (with the tail of the log for a failure); the running counts."""
    for r in results:
        total += 1
        failed += not r.ok
        print(escaped(f"{'PASS' if r.ok else 'FAIL'}  {name}: {r.name}  ({r.file})"))
        if not r.ok:
            for line in r.message.split("\n"):
                print(f"      {escaped(line)}")
            if r.state is not None:
                for line in r.state.log()[-6:]:
                    print(f"      | {escaped(line)}")
    return failed, total
