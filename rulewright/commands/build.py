"""`rulewright build`: the workspace's specs compiled into its output folder (`--native`: also with mypyc)."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from rulewright.commands.exits import EXIT_OK, EXIT_SPEC, CommandFailed, UsageError
from rulewright.commands.lookup import required_workspace, target_folders
from rulewright.gamelog import os_reason

if TYPE_CHECKING:
    from rulewright.build import BuildReport
    from rulewright.workspace import Workspace


def arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "targets",
        nargs="*",
        metavar="GAME|PATH",
        help="build only these (games of the workspace or spec folders); default: every spec, and "
        "delete the engines of specs that are gone",
    )
    sp.add_argument("--check", action="store_true", help="write nothing; fail if the output is stale")
    sp.add_argument(
        "--native",
        action="store_true",
        help="also compile the runtime and the engines (with GAMEs: theirs only) with mypyc into this user's "
        "cache, for simulate --native and bench --native (minutes; needs mypyc and a C compiler)",
    )
    sp.add_argument("-v", "--verbose", action="store_true", help="also print warnings")


def run(args: argparse.Namespace) -> int:
    from compiler.diagnostics import render_all
    from rulewright.build import BuildError, build

    ws = required_workspace(args)
    if args.native and args.check:
        raise UsageError("--native compiles and writes; --check writes nothing (leave out one)")
    folders = [f.resolve() for f in target_folders(ws, args.targets)]
    out = ws.shown(ws.output) + "/"
    try:
        with contextlib.chdir(ws.root):  # spec files named from the root: see compiled_at_root
            report = build(
                folders,
                ws.output,
                check_only=args.check,
                prune=not args.targets,
                recorded=_recorded_digest(ws),
            )
    except BuildError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:  # the output is read-only, a file in it is a folder, ...
        raise UsageError(f"cannot write {exc.filename or out} ({os_reason(exc)})") from None
    for r in report.results:
        errors = [d for d in r.diagnostics if d.severity == "error"]
        if errors or (r.diagnostics and args.verbose):
            print(render_all(r.diagnostics))
        elif r.diagnostics:
            print(f"{r.folder}: {len(r.diagnostics)} warning(s) (rulewright check {r.name} shows them)")
    if not report.ok:
        print("build failed: fix the errors above")
        return EXIT_SPEC
    rel = [ws.shown(p) for p in report.changed]
    if args.check:
        if rel:
            print(
                f"{out} is stale; these files would change (run `rulewright build{_stale_games(ws, report)}`):"
            )
            for p in rel:
                print(f"  {p}")
            return EXIT_SPEC
        print(f"{out} is up to date ({len(report.results)} game(s))")
        return EXIT_OK
    if not report.results:
        where = ", ".join(ws.shown(d) for d in ws.spec_dirs)
        print(f"no spec folders in {where} yet (a game is a folder of YAML files: {where}/GAME/game.yaml)")
    for r in report.results:
        print(f"built {r.name} in {1000 * r.seconds.get('build', 0):.0f} ms")
    print(f"{len(rel)} file(s) written" + (": " + ", ".join(rel) if rel else " (already up to date)"))
    if args.native:
        _build_native(ws, [r.name for r in report.results] if args.targets else None)
    return EXIT_OK


def _stale_games(ws: Workspace, report: BuildReport) -> str:
    """The games whose files a build would change, as arguments of `rulewright build` (" g1 g2"),
    or "" when a file outside the games' folders would change too (the whole build is the fix)."""
    built = {r.name for r in report.results}
    names: list[str] = []
    for path in report.changed:
        parts = path.relative_to(ws.output).parts
        if len(parts) < 2 or parts[0] not in built:
            return ""
        if parts[0] not in names:
            names.append(parts[0])
    return "".join(f" {n}" for n in names)


def _recorded_digest(ws: Workspace) -> Callable[[str], str | None]:
    """For a game, the spec digest its stored playthroughs were recorded with (None: none stored)."""
    from rulewright.impact import playthrough_dir
    from rulewright.previous import recorded_digest

    return lambda game: recorded_digest(playthrough_dir(ws.root, game))


def _build_native(ws: Workspace, only: list[str] | None) -> None:
    """`build --native`: the runtime and the output folder's engines (or those of the games built),
    compiled (rulewright/native.py)."""
    from rulewright.native import NativeError, build_native

    try:
        made = build_native(ws.output, ws.root, only, say=lambda text: print(text, flush=True))
    except NativeError as exc:
        raise CommandFailed(str(exc)) from None
    print(
        f"native engines of {', '.join(made.games)} in {made.folder}/ "
        f"({made.cpu_s:.0f} s CPU, {made.wall_s:.0f} s): play them with --native"
    )
