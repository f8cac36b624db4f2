"""`rulewright verify`: Hypothesis plays each game, checking its invariants and the engine
contract; a failure is shrunk and saved as a scenario."""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rulewright import parallel
from rulewright.commands.arguments import game_options, positive_int, seed_number
from rulewright.commands.batch import (
    coverage_kinds,
    coverage_kinds_option,
    coverage_plot_file,
    coverage_plot_option,
    game_recipe,
    open_backend,
    parallel_arguments,
    rule_coverage,
    show_coverage,
    write_coverage_plot,
)
from rulewright.commands.exits import EXIT_OK, EXIT_SPEC, UsageError
from rulewright.commands.lookup import current_workspace, games, open_game, spec_folder
from rulewright.commands.outputs import output_file, output_folder
from rulewright.commands.playing import SEEDS
from rulewright.gamelog import os_reason
from rulewright.progress import Progress
from runtime.text import quoted

if TYPE_CHECKING:
    from rulewright.coverage import RuleCoverage
    from rulewright.verify import Failure, PartResult
    from rulewright.workspace import Workspace
    from runtime.game import Game


def arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "games", nargs="*", metavar="GAME|PATH", help="games or spec folders to verify (default: all games)"
    )
    sp.add_argument("--examples", type=positive_int, default=100, help="games per game (default 100)")
    sp.add_argument("--seed", type=seed_number, default=0, help=f"Hypothesis seed ({SEEDS}; default 0)")
    sp.add_argument(
        "--max-steps",
        type=positive_int,
        default=2000,
        help="stop an example after K decisions (default 2000)",
    )
    sp.add_argument(
        "--strategy",
        metavar="S[,S...]",
        help="random, first, last, novel, prefer (default: random,last,first,novel, +prefer with --prefer)",
    )
    sp.add_argument(
        "--prefer",
        metavar="REGEX",
        help="favour actions whose label matches this Python regular expression, e.g. 'event'",
    )
    sp.add_argument("--no-contract", action="store_true", help="check only the invariants (faster)")
    sp.add_argument("--coverage", action="store_true", help="then report how often each rule ran")
    coverage_kinds_option(sp)
    sp.add_argument(
        "--coverage-json", metavar="FILE", help="write rule coverage as JSON (GAME in FILE becomes the name)"
    )
    coverage_plot_option(sp, " (GAME in FILE becomes the name)")
    sp.add_argument(
        "--out", metavar="DIR", help="where to write a failure's scenario (default specs/GAME/scenarios)"
    )
    sp.add_argument(
        "--shards",
        type=positive_int,
        default=1,
        metavar="K",
        help="cut each game's examples into K Hypothesis runs of their own (the first with --seed), "
        "so that one game keeps K workers busy; another K plays other examples (default 1)",
    )
    parallel_arguments(sp, "the games (and shards)")
    game_options(sp)


def run(args: argparse.Namespace) -> int:
    _require_hypothesis()
    from rulewright.verify import VerifyJob, check_settings, parts

    only = coverage_kinds(args)
    if args.prefer is not None:
        try:
            re.compile(args.prefer)
        except re.error as exc:
            raise UsageError(f"--prefer {quoted(args.prefer)} is not a regular expression ({exc})") from None
    strategies = _strategies(args)
    try:
        check_settings(args.examples, args.max_steps, strategies, args.prefer)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    out = output_folder(args.out, "--out") if args.out is not None else None
    # every game and output path is checked before the first game is played
    ws = current_workspace(args)
    compiled = games(ws)
    opened = [(name, open_game(name, args.option, ws)) for name in args.games or compiled]
    coverage_files: dict[str, Path] = {}
    if args.coverage_json is not None:
        for _, game in opened:
            coverage_files[game.name] = output_file(
                args.coverage_json.replace("GAME", game.name), "--coverage-json"
            )
    coverage_plots: dict[str, Path] = {}
    if args.coverage_plot is not None:
        if len(opened) > 1 and "GAME" not in args.coverage_plot:
            raise UsageError(
                f"--coverage-plot {quoted(args.coverage_plot)}: {len(opened)} games are verified; put GAME "
                "in the file name, for one chart per game"
            )
        for _, game in opened:
            coverage_plots[game.name] = coverage_plot_file(args.coverage_plot.replace("GAME", game.name))
    covering = args.coverage or args.coverage_json is not None or args.coverage_plot is not None
    covs = [rule_coverage(game) if covering else None for _, game in opened]
    recipes = tuple(game_recipe(name, args.option, ws) for name, _ in opened)
    for recipe, (_, game) in zip(recipes, opened, strict=True):
        parallel.preload(recipe, game)
    job = VerifyJob(recipes, args.max_steps, tuple(strategies), args.prefer, not args.no_contract, covering)
    todo = [p for g in range(len(opened)) for p in parts(g, args.examples, args.seed, args.shards)]
    last = {p.game: p.index for p in todo}  # each game's last part
    failed = False
    done: list[PartResult] = []  # the parts of the game being collected
    verified = 0  # games

    def show(examples: int) -> None:
        bar.update(examples, f"{verified} of {len(opened)} games done" if len(opened) > 1 else "")

    with open_backend(args) as backend, Progress(sum(p.examples for p in todo), "examples") as bar:
        chunks = backend.chunked(todo, lambda p: p.examples)
        for chunk, results in zip(chunks, backend.run(job, chunks, show), strict=True):
            for part, result in zip(chunk.items, results, strict=True):
                done.append(result)
                if part.index == last[part.game]:
                    bar.clear()
                    name, game = opened[part.game]
                    failure = _verify_result(args, game, done, covs[part.game])
                    if failure is not None:
                        failed = True
                        folder = out or _scenario_dir(ws, name, compiled)
                        _save_reproducer(failure, folder, name, built=name in compiled)
                    cov = covs[part.game]
                    if cov is not None:
                        show_coverage(cov, only, args.coverage, coverage_files.get(game.name))
                        if game.name in coverage_plots:
                            source = f"verify: {args.examples:,} examples, seed {args.seed}"
                            write_coverage_plot(cov, only, coverage_plots[game.name], source)
                    done = []
                    verified += 1
    return EXIT_SPEC if failed else EXIT_OK


def _strategies(args: argparse.Namespace) -> list[str]:
    """The strategies --strategy names, else the default ones (and 'prefer' with --prefer)."""
    from rulewright.verify import DEFAULT_STRATEGIES

    if args.strategy:
        return [x.strip() for x in args.strategy.split(",")]
    return [*DEFAULT_STRATEGIES, *(["prefer"] if args.prefer else [])]


def _verify_result(
    args: argparse.Namespace, game: Game, results: Sequence[PartResult], cov: RuleCoverage | None
) -> Failure | None:
    """Print one game's verify report, made of its parts up to the first that failed (their rule
    coverage goes into `cov`); return the minimal failure, if any."""
    from rulewright.verify import describe, merge, through_first_failure

    counted = through_first_failure(results)
    if cov is not None:
        for r in counted:
            if r.coverage is not None:
                cov.add(r.coverage)
    report = merge([r.report for r in counted])
    print(describe(report, len(game.info.invariants), not args.no_contract))
    return report.failure


def _require_hypothesis() -> None:
    """Import rulewright.verify, which needs Hypothesis; without it, a usage error says how to install it."""
    try:
        import rulewright.verify  # noqa: F401
    except ModuleNotFoundError as exc:
        if exc.name is None or exc.name.partition(".")[0] != "hypothesis":
            raise
        raise UsageError("Hypothesis is not installed: pip install 'rulewright[verify]'") from None


def _save_reproducer(failure: Failure, folder: Path, name: str, built: bool) -> None:
    """Write verify's minimal failing case (if `folder` cannot take it, a temporary folder does)
    and say how to run it; a `built` game runs it after a build."""
    import tempfile

    from rulewright.verify import write_reproducer

    try:
        path = write_reproducer(failure, folder, name)
    except OSError as exc:
        spare = Path(tempfile.mkdtemp(prefix="rulewright-verify-"))
        print(f"  cannot write the reproducer in {folder} ({os_reason(exc)}); using {spare}")
        path = write_reproducer(failure, spare, name)
    print(f"  reproducer written to {path}")
    rerun = f"rulewright build && rulewright scenarios {name}" if built else f"rulewright scenarios {name}"
    print(f"  run it: {rerun}")


def _scenario_dir(ws: Workspace | None, name: str, compiled: list[str]) -> Path:
    """Where verify writes a reproducer: the spec's own scenarios/ folder (a temporary folder for
    a game whose spec is not in the workspace)."""
    import tempfile

    if name not in compiled:
        return Path(name) / "scenarios"  # a spec folder given as a path
    folder = spec_folder(ws, name)
    return folder / "scenarios" if folder is not None else Path(tempfile.mkdtemp(prefix="rulewright-verify-"))
