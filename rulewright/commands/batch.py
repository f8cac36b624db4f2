"""What simulate and verify share: their games played in worker processes (-j, --backend;
rulewright/parallel.py), and the rule coverage they report (--coverage, --coverage-json,
--coverage-plot; rulewright/coverage.py)."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rulewright import parallel
from rulewright.commands.arguments import parse_options, positive_int
from rulewright.commands.exits import UsageError
from rulewright.commands.lookup import games, search
from rulewright.commands.outputs import output_file, write_output
from rulewright.gamelog import os_reason
from rulewright.parallel import BACKENDS, GameRecipe
from runtime.text import escaped_lines, quoted

if TYPE_CHECKING:
    from rulewright.coverage import RuleCoverage
    from rulewright.workspace import Workspace
    from runtime.game import Game


def game_recipe(name: str, options: Sequence[str] | None, ws: Workspace | None) -> GameRecipe:
    """How a worker process loads the game `open_game(name, options, ws)` opened: by its name,
    from the same output folders, or from the same spec folder."""
    given = tuple(parse_options(options).items())
    if name in games(ws):
        return GameRecipe(name, given, tuple(os.path.abspath(p) for p in search(ws)))
    return GameRecipe(os.path.abspath(name), given, folder=True)


def open_backend(args: argparse.Namespace, jobs: int | None = None) -> parallel.Backend:
    """Where --backend and -j (or `jobs`) say the work runs (Ray missing is a usage error)."""
    try:
        return parallel.open_backend(args.backend, jobs or args.jobs)
    except parallel.BackendUnavailable as exc:
        raise UsageError(str(exc)) from None


def parallel_arguments(sp: argparse.ArgumentParser, what: str) -> None:
    sp.add_argument(
        "-j",
        "--jobs",
        type=positive_int,
        metavar="N",
        help=f"play {what} in N worker processes (default: every usable core, {parallel.usable_cores()} "
        "here); the results are the same for any N",
    )
    sp.add_argument(
        "--backend",
        choices=BACKENDS,
        default="local",
        help="where the workers run: local (this machine) or ray (a Ray cluster: the one at RAY_ADDRESS, "
        "else one started for the run; pip install 'rulewright[ray]')",
    )


def coverage_kinds_option(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "--coverage-kinds",
        metavar="K[,K...]",
        help="list only rule points of these kinds in the coverage report, e.g. 'effect' for how often "
        "each component's effect ran (kinds: setup, phase, procedure, function, trigger, effect, "
        "expression, modifier, branch)",
    )


def coverage_plot_option(sp: argparse.ArgumentParser, naming: str) -> None:
    sp.add_argument(
        "--coverage-plot",
        metavar="FILE",
        help=f"draw the rule coverage into FILE, .png or .svg{naming}: the share of points run per kind, "
        "and the points that never ran or ran least (needs pip install 'rulewright[plot]')",
    )


def coverage_kinds(args: argparse.Namespace) -> frozenset[str] | None:
    """The kinds named by --coverage-kinds (None: all); an unknown kind is a usage error."""
    from rulewright.coverage import KINDS

    if not args.coverage_kinds:
        return None
    kinds = frozenset(k.strip() for k in args.coverage_kinds.split(",") if k.strip())
    unknown = sorted(kinds - set(KINDS))
    if unknown:
        raise UsageError(f"unknown coverage kind(s) {', '.join(unknown)}: choose from {', '.join(KINDS)}")
    return kinds


PLOT_MISSING = "matplotlib is not installed: pip install 'rulewright[plot]'"


def require_matplotlib(option: str) -> None:
    """Import rulewright.plots, which needs matplotlib; without it, a usage error says how to
    install it. Only a run that draws charts imports matplotlib."""
    try:
        import rulewright.plots  # noqa: F401
    except ImportError as exc:
        missing = (exc.name or "").partition(".")[0]
        if missing in ("rulewright", "compiler", "runtime"):
            raise
        reason = "" if missing == "matplotlib" else f" ({exc})"
        raise UsageError(f"{option}: {PLOT_MISSING}{reason}") from None


def coverage_plot_file(text: str) -> Path:
    """The file --coverage-plot names: a .png or .svg file that can be written (checked now)."""
    if Path(text).suffix.lower() not in (".png", ".svg"):
        raise UsageError(f"--coverage-plot {quoted(text)}: name a .png or .svg file")
    path = output_file(text, "--coverage-plot")
    require_matplotlib("--coverage-plot")
    return path


def rule_coverage(game: Game) -> RuleCoverage:
    from rulewright.coverage import RuleCoverage

    try:
        return RuleCoverage(game)
    except (OSError, ValueError) as exc:
        raise UsageError(f"no rule coverage for {game.name}: {exc}") from None


def show_coverage(cov: RuleCoverage, only: frozenset[str] | None, report: bool, target: Path | None) -> None:
    """Print the rule coverage (--coverage) and write it as JSON to `target` (--coverage-json)."""
    if report:
        print()
        print(escaped_lines(cov.report(only=only)))
    if target is not None:
        write_output(target, json.dumps(cov.to_json(), indent=1) + "\n", "the rule coverage")
        print(f"rule coverage written to {target}")


def write_coverage_plot(cov: RuleCoverage, only: frozenset[str] | None, target: Path, source: str) -> None:
    """Draw the rule coverage into `target` (--coverage-plot; rulewright/plots.py)."""
    from rulewright.plots import write_coverage_chart

    try:
        write_coverage_chart(target, cov, only, source)
    except OSError as exc:
        raise UsageError(f"cannot write the coverage chart to {target} ({os_reason(exc)})") from None
    print(f"rule coverage chart written to {target}")
