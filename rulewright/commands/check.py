"""`rulewright check`: spec folders checked, their located diagnostics printed (exit 1 on errors)."""

from __future__ import annotations

import argparse
from pathlib import Path

from rulewright.commands.exits import EXIT_OK, EXIT_SPEC
from rulewright.commands.lookup import current_workspace, target_folders


def arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "targets",
        nargs="*",
        metavar="GAME|PATH",
        help="games of the workspace or spec folders (default: every spec of the workspace)",
    )


def run(args: argparse.Namespace) -> int:
    from compiler.diagnostics import render_all
    from compiler.driver import compile_spec

    ws = current_workspace(args)
    folders = target_folders(ws, args.targets)
    if not folders and ws is not None:
        where = ", ".join(ws.shown(d) for d in ws.spec_dirs)
        print(f"no spec folders in {where} yet (a game is a folder of YAML files: {where}/GAME/game.yaml)")
    failed = False
    for folder in folders:
        r = compile_spec(folder, render=False)
        if r.diagnostics:
            print(render_all(r.diagnostics))
        errors = sum(d.severity == "error" for d in r.diagnostics)
        warnings = len(r.diagnostics) - errors
        status = "ok" if not errors else f"{errors} error(s)"
        shown_folder = folder if args.targets else Path(ws.shown(folder)) if ws is not None else folder
        print(f"{shown_folder}: {status}" + (f", {warnings} warning(s)" if warnings else ""))
        failed |= errors > 0
    return EXIT_SPEC if failed else EXIT_OK
