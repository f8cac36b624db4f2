"""`rulewright init`: a folder made a workspace (rulewright.toml and an empty specs/)."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

from rulewright.commands.exits import EXIT_OK, UsageError
from rulewright.gamelog import os_reason
from rulewright.workspace import WorkspaceError, init_workspace


def arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("folder", nargs="?", default=".", metavar="DIR", help="default: this folder")


def run(args: argparse.Namespace) -> int:
    folder = Path(args.folder)
    if not args.folder.strip():
        raise UsageError("the folder name is empty")
    try:
        made = init_workspace(folder)
    except WorkspaceError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot make a workspace in {folder} ({os_reason(exc)})") from None
    for path in made:
        print(f"created {path}{'/' if path.is_dir() else ''}")
    go = "" if args.folder == "." else f"cd {shlex.quote(args.folder)}\n  "
    print(
        "next: write a game in specs/GAME/ (game.yaml; `rulewright docs tutorial` walks through one), then\n"
        f"  {go}rulewright check && rulewright build && rulewright play GAME"
    )
    return EXIT_OK
