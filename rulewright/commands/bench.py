"""`rulewright bench`: a game's figures (games/s, decisions/s, clone and JSON cost, check and build
time); --against another revision, --versus another program, --cfr OpenSpiel's CFR."""

from __future__ import annotations

import argparse
import dataclasses
import json
import shlex
from pathlib import Path
from typing import TYPE_CHECKING

from rulewright.commands.arguments import (
    game_options,
    is_dir,
    native_argument,
    parse_options,
    positive_int,
    positive_seconds,
)
from rulewright.commands.exits import EXIT_OK, CommandFailed, UsageError
from rulewright.commands.lookup import (
    NO_WORKSPACE,
    current_workspace,
    games,
    native_build_folder,
    open_game,
    run_natively,
    search,
    spec_folder,
    spec_folders_of,
)
from rulewright.progress import Progress
from runtime.text import quoted

if TYPE_CHECKING:
    from rulewright.bench import Side
    from rulewright.workspace import Workspace


def arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("game", nargs="?", metavar="GAME|PATH", help="default: every compiled game")
    sp.add_argument(
        "--seconds",
        type=positive_seconds,
        default=2.0,
        help="CPU time spent playing per game (with --against: per round and side; default 2)",
    )
    sp.add_argument(
        "--against",
        metavar="REF",
        help="compare with the git revision REF of the repository holding the workspace, side by side",
    )
    sp.add_argument(
        "--rounds",
        type=positive_int,
        default=5,
        help="with --against: rounds per game and side, each in a fresh process; with --cfr: rounds "
        "per side (default 5)",
    )
    sp.add_argument("--no-check", action="store_true", help="play only: leave out checking the specs")
    sp.add_argument(
        "--versus",
        metavar="CMD",
        help="compare GAME with another program that plays it: CMD (quoted, with its arguments) is "
        "run with --seconds S for each round and prints a JSON line with games, decisions and "
        "cpu_s (docs/performance.md)",
    )
    sp.add_argument(
        "--cfr",
        metavar="OTHER",
        help="the CPU cost of an iteration of OpenSpiel's CFR on GAME against its game OTHER "
        "(e.g. python_kuhn_poker), alternating --rounds rounds in this process",
    )
    sp.add_argument(
        "--iterations",
        type=positive_int,
        default=50,
        help="with --cfr: CFR iterations per round (default 50)",
    )
    sp.add_argument("--json", action="store_true", help="print the figures as JSON")
    native_argument(sp)
    game_options(sp)


def run(args: argparse.Namespace) -> int:
    from rulewright.bench import BenchFailed, BenchUsageError

    if args.cfr is not None:
        return _bench_cfr(args)
    ws = current_workspace(args)
    if args.versus is not None:
        return _bench_versus(args, ws)
    if args.against is None and (code := run_natively(args, ws)) is not None:
        return code
    try:
        return _bench_against(args, ws) if args.against is not None else _bench_games(args, ws)
    except BenchUsageError as exc:
        raise UsageError(str(exc)) from None
    except BenchFailed as exc:
        raise CommandFailed(str(exc)) from None


def _bench_cfr(args: argparse.Namespace) -> int:
    """`bench GAME --cfr OTHER`: a CFR iteration on GAME against one on OpenSpiel's OTHER."""
    from rulewright.bench_cfr import CfrUnavailable, compare_cfr

    if args.game is None:
        raise UsageError("--cfr compares one game: rulewright bench GAME --cfr OTHER")
    if args.against is not None or args.native or args.option:
        raise UsageError(
            "--cfr measures the game as built, with its default options: without --against, --native or -o"
        )
    try:
        result = compare_cfr(args.game, args.cfr, args.rounds, args.iterations)
    except CfrUnavailable as exc:
        raise CommandFailed(str(exc)) from None
    print(json.dumps(result.as_json(), indent=2) if args.json else result.report())
    return 0


def _bench_games(args: argparse.Namespace, ws: Workspace | None) -> int:
    """`bench [GAME]`: each game's figures, measured in this process (the check in a new one)."""
    from rulewright.bench import bench_game

    opened = [
        open_game(name, args.option, ws) for name in ([args.game] if args.game is not None else games(ws))
    ]
    results = []
    for game in opened:
        spec = None if args.no_check else _bench_spec(args.game, game.name, ws)
        result = bench_game(game, seconds=args.seconds, spec=spec, cwd=ws.root if ws is not None else None)
        results.append(result)
        if not args.json:
            print(result.report(), flush=True)
    if args.json:
        print(json.dumps([r.as_json() for r in results], indent=2))
    return EXIT_OK


def _bench_spec(given: str | None, name: str, ws: Workspace | None) -> Path | None:
    """The spec folder a benched game comes from: the folder given as a path, else the workspace's."""
    if given is not None and given not in games(ws) and is_dir(Path(given)):
        return Path(given)
    return spec_folder(ws, name)


def _bench_versus(args: argparse.Namespace, ws: Workspace | None) -> int:
    """`bench GAME --versus CMD`: this tree's engine of GAME against another program's, side by side."""
    from rulewright.bench import (
        CODE_TREE,
        BenchFailed,
        BenchUsageError,
        Side,
        compare_versus,
        describe_work_tree,
        repository_root,
    )

    if args.game is None or args.against is not None or args.cfr is not None:
        raise UsageError(
            "--versus compares one game with a program: rulewright bench GAME --versus 'CMD ARGS'"
        )
    if ws is None:
        raise UsageError(NO_WORKSPACE)
    try:
        command = shlex.split(args.versus)
    except ValueError as exc:
        raise UsageError(f"--versus: {exc} in {quoted(args.versus)}") from None
    if not command:
        raise UsageError("--versus needs a command: rulewright bench GAME --versus 'CMD ARGS'")
    folder = spec_folder(ws, args.game)
    if folder is None:
        raise UsageError(f"--versus: the workspace has no game {quoted(args.game)}")
    options = parse_options(args.option)
    try:
        label = describe_work_tree(repository_root(ws.root))
    except BenchUsageError:  # not in a git repository
        label = str(ws.root)
    a = Side("A", label, CODE_TREE, ws.output, ws.root, {args.game: folder})
    if args.native:
        a = _played_natively(a, native_build_folder(ws))
    bar = _RunsBar()
    try:
        result = compare_versus(
            a,
            args.game,
            command,
            seconds=args.seconds,
            rounds=args.rounds,
            options=[f"{key}={value}" for key, value in options.items()],
            tick=bar.tick,
        )
    except BenchFailed as exc:
        raise CommandFailed(str(exc)) from None
    bar.clear()
    print(json.dumps(result.as_json(), indent=2) if args.json else result.report())
    return EXIT_OK


class _RunsBar:
    """The progress bar of a bench's runs, made at the first tick (which tells how many there are)."""

    def __init__(self) -> None:
        self.bar: Progress | None = None

    def tick(self, done: int, total: int) -> None:
        if self.bar is None:
            self.bar = Progress(total, "runs")
        self.bar.update(done)

    def clear(self) -> None:
        if self.bar is not None:
            self.bar.clear()


def _played_natively(a: Side, native: Path) -> Side:
    """Side A playing the native build `native` of this tree's engines."""
    from rulewright.native import ENGINES

    return dataclasses.replace(a, label=f"{a.label}, native", play_tree=native, search=native / ENGINES)


def _bench_against(args: argparse.Namespace, ws: Workspace | None) -> int:
    """`bench --against REF`: this tree's games against REF's, side by side (rulewright/bench.py)."""
    from rulewright.bench import compare, revision_sides

    if ws is None:
        raise UsageError(NO_WORKSPACE)
    specs = {f.name: f for f in spec_folders_of(ws)}
    if args.game is not None:
        if args.game not in specs:
            known = ", ".join(specs) or "none"
            raise UsageError(
                f"--against compares the workspace's games by name, and {quoted(args.game)} is none of "
                f"them: {known}"
            )
        specs = {args.game: specs[args.game]}
    if not specs:
        raise UsageError(f"--against: the workspace {ws.root} has no spec to compare")
    options = parse_options(args.option)
    bar = _RunsBar()
    native = native_build_folder(ws) if args.native else None
    with revision_sides(ws.root, specs, args.against) as (a, b):
        if native is not None:  # A plays the native build of this tree's engines
            a = _played_natively(a, native)
        from runtime.game import UnknownGameError, load_game

        for name in a.specs:  # a game option it does not take: refused before anything is measured
            try:
                load_game(
                    name,
                    options,
                    search=(a.search,) if a.search is not None and native is None else search(ws),
                )
            except (UnknownGameError, ValueError) as exc:
                raise UsageError(str(exc)) from None
        result = compare(
            a,
            b,
            args.against,
            seconds=args.seconds,
            rounds=args.rounds,
            options=[f"{key}={value}" for key, value in options.items()],
            check=not args.no_check,
            tick=bar.tick,
        )
    bar.clear()
    print(json.dumps(result.as_json(), indent=2) if args.json else result.report())
    return EXIT_OK
