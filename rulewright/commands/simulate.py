"""`rulewright simulate`: many games played (in worker processes), their win rates, lengths and speed;
with --vary, once per option setting, and with --plot, balance charts."""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rulewright import parallel
from rulewright.commands.arguments import (
    OPTION_NAME,
    game_options,
    html_arguments,
    native_argument,
    parse_options,
    positive_int,
    seed_number,
)
from rulewright.commands.batch import (
    coverage_kinds,
    coverage_kinds_option,
    coverage_plot_file,
    coverage_plot_option,
    game_recipe,
    open_backend,
    parallel_arguments,
    require_matplotlib,
    rule_coverage,
    show_coverage,
    write_coverage_plot,
)
from rulewright.commands.exits import EXIT_OK, UsageError
from rulewright.commands.lookup import NATIVE_ENV, current_workspace, open_game, run_natively
from rulewright.commands.outputs import output_file, output_folder
from rulewright.commands.playing import SEEDS, agent_kinds, ordinal, play_game, seat_agents, write_html
from rulewright.gamelog import SEED_LIMIT, os_reason
from rulewright.parallel import GameRecipe
from rulewright.progress import Progress
from runtime.agents import AGENTS
from runtime.errors import RuleError
from runtime.terminal import QuitGame
from runtime.text import escaped, quoted

if TYPE_CHECKING:
    from rulewright.balance import Setting, Trajectories
    from rulewright.coverage import RuleCoverage
    from rulewright.workspace import Workspace
    from runtime.engine import GameState
    from runtime.game import Game

MAX_SETTINGS = 16  # option settings one `simulate --vary` plays


def arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("game", metavar="GAME|PATH", help="a compiled game or a spec folder")
    sp.add_argument("-n", type=positive_int, default=100, help="number of games (default 100)")
    sp.add_argument("--seed", type=seed_number, default=0, help=f"seed of the first game ({SEEDS})")
    sp.add_argument(
        "--agents",
        default="random",
        help=f"comma-separated, one per player, cycled ({', '.join(AGENTS)}; mcts:N)",
    )
    sp.add_argument(
        "--rotate", action="store_true", help="rotate the agents' seats every game (fair comparisons)"
    )
    sp.add_argument(
        "--vary",
        action="append",
        metavar="NAME=V1,V2,...",
        help="play the games once per value of the game option NAME (repeatable: every combination, "
        f"at most {MAX_SETTINGS}); each setting is reported, and --plot compares them",
    )
    sp.add_argument(
        "--plot",
        metavar="DIR",
        help="write balance charts into DIR, as PNG and SVG: win rates, game lengths, score "
        "trajectories (made if missing; needs pip install 'rulewright[plot]')",
    )
    sp.add_argument("--coverage", action="store_true", help="report how often each spec rule ran")
    coverage_kinds_option(sp)
    sp.add_argument("--coverage-json", metavar="FILE", help="write the rule coverage as JSON to FILE")
    coverage_plot_option(sp, "")
    html_arguments(sp, "one game of the run (the first; --html-game K: the K-th, seed SEED+K-1)")
    sp.add_argument(
        "--html-game",
        type=positive_int,
        metavar="K",
        help="with --html: the run's K-th game (1 to -n; default 1), played again after the run",
    )
    parallel_arguments(sp, "the games")
    native_argument(sp)
    game_options(sp)


def run(args: argparse.Namespace) -> int:
    only = coverage_kinds(args)
    ws = current_workspace(args)
    if (code := run_natively(args, ws)) is not None:
        return code
    settings, varied = option_settings(args.option, args.vary)
    opened = [open_game(args.game, s, ws) for s in settings]
    for a in range(len(opened)):
        for b in range(a):
            if opened[a].options == opened[b].options:
                raise UsageError(
                    f"--vary: {' '.join(settings[a])} is the same setting as {' '.join(settings[b])}"
                )
    kinds = agent_kinds(args.agents)
    if args.seed + args.n > SEED_LIMIT:
        raise UsageError(f"seeds {args.seed}..{args.seed + args.n - 1} go past the largest, {SEED_LIMIT - 1}")
    plot_dir = output_folder(args.plot, "--plot") if args.plot is not None else None
    if plot_dir is not None:
        require_matplotlib("--plot")
    cov_path = output_file(args.coverage_json, "--coverage-json") if args.coverage_json is not None else None
    cov_plot = coverage_plot_file(args.coverage_plot) if args.coverage_plot is not None else None
    covering = args.coverage or cov_path is not None or cov_plot is not None
    cov = rule_coverage(opened[0]) if covering else None
    for game in opened:  # an agent this machine cannot make: a usage error now
        seat_agents(game, args.seed, [kinds[p % len(kinds)] for p in range(game.num_players)])
    if "human" in kinds and args.backend != "local":
        raise UsageError(f"a human agent plays at this terminal, not on --backend {args.backend}")
    html_path = _simulate_html(args, "human" in kinds)
    played = []  # with --plot: each setting's games, for the charts
    for number, (options, game) in enumerate(zip(settings, opened, strict=True)):
        label = ", ".join(f"{k}={option_text(game.options[k])}" for k in varied)
        if number:
            print()
        played.append(_simulate_setting(args, ws, game, options, label, cov, only, plot_dir is not None))
    if cov is not None:
        show_coverage(cov, only, args.coverage, cov_path)
        if cov_plot is not None:
            write_coverage_plot(cov, only, cov_plot, _simulate_source(args, args.n))
    if plot_dir is not None:
        from rulewright.plots import write_simulation_charts

        try:
            written = write_simulation_charts(
                plot_dir, opened[0].title, _agents_text(args), [s for s in played if s is not None]
            )
        except OSError as exc:
            raise UsageError(f"--plot {plot_dir}: cannot write the charts ({os_reason(exc)})") from None
        print(f"charts written to {plot_dir}: {', '.join(p.name for p in written)}")
    if html_path is not None:
        # game K of the first setting again, here: its seed and seats follow from K alone, so it is
        # the game the run played
        game, k = opened[0], args.html_game - 1
        seats = tuple(kinds[p % len(kinds)] for p in range(game.num_players))
        job = SimulateJob(game_recipe(args.game, settings[0], ws), args.seed, seats, args.rotate, False)
        state = play_game(game, args.seed + k, job.order(k))
        print(f"game {args.html_game} (seed {args.seed + k}, agents {','.join(job.order(k))}):", end=" ")
        write_html(html_path, game, args.seed + k, state.history, args.html_steps)
    return EXIT_OK


def _simulate_setting(
    args: argparse.Namespace,
    ws: Workspace | None,
    game: Game,
    options: list[str],
    label: str,
    cov: RuleCoverage | None,
    only: frozenset[str] | None,
    plot: bool,
) -> Setting | None:
    """Play and print the games of one option setting (its counts go into `cov`); with `plot`, the
    games as the charts need them."""
    kinds = agent_kinds(args.agents)
    seats = tuple(kinds[p % len(kinds)] for p in range(game.num_players))
    human = "human" in seats  # who answers at this terminal: every game is played here
    job = SimulateJob(
        game_recipe(args.game, options, ws), args.seed, seats, args.rotate, cov is not None, plot
    )
    parallel.preload(job.recipe, game)
    tally = SimulationTally([0] * game.num_players, {k: 0 for k in seats})
    setting: Setting | None = None
    if plot:
        from rulewright.balance import Setting

        setting = Setting(
            dict(game.options),
            game.info.player_names[: game.num_players],
            ranked=game.info.returns is not None,
        )
    start = time.perf_counter()
    try:
        with (
            open_backend(args, 1 if human else None) as backend,
            Progress(args.n, "games", shown=not human) as bar,
        ):
            for chunk in backend.run(job, backend.chunked(range(args.n)), bar.update):
                if chunk.error is not None:
                    raise RuleError(chunk.error)
                tally.add(job, chunk.outcomes, chunk.finishes)
                if cov is not None and chunk.coverage is not None:
                    cov.add(chunk.coverage)
                if setting is not None:
                    setting.add(chunk.outcomes, chunk.trajectories, chunk.finishes)
    except (KeyboardInterrupt, EOFError, QuitGame) as exc:
        if tally.games:  # the games finished before Ctrl-C, as a run of that many games
            _print_simulation(args, game, label, tally, time.perf_counter() - start, interrupted=True)
            if cov is not None:
                show_coverage(cov, only, args.coverage, None)
        if isinstance(exc, EOFError):  # a human player's input ended
            raise UsageError(
                "input ended (Ctrl-D or the end of piped input) at a human player's decision"
            ) from None
        if isinstance(exc, QuitGame):  # a human player typed q
            raise UsageError(str(exc)) from None
        raise
    _print_simulation(args, game, label, tally, time.perf_counter() - start)
    return setting


def _agents_text(args: argparse.Namespace) -> str:
    return f"agents {args.agents}" + (", seats rotated every game" if args.rotate else "")


def _simulate_source(args: argparse.Namespace, n: int) -> str:
    """What a simulate run played, for a chart's subtitle."""
    return f"simulate: {n:,} games per setting, seeds {args.seed}..{args.seed + n - 1}, {_agents_text(args)}"


def _simulate_html(args: argparse.Namespace, human: bool) -> Path | None:
    """Where simulate's --html goes, checked before any game is played (None: no --html)."""
    if args.html is None:
        if args.html_game is not None:
            raise UsageError("--html-game: name the page with --html FILE")
        return None
    if human:
        raise UsageError("--html: a human player's game is not played again; use `rulewright play --html`")
    if args.html_game is None:
        args.html_game = 1
    if args.html_game > args.n:
        raise UsageError(f"--html-game {args.html_game}: the run plays {args.n} game(s)")
    return output_file(args.html, "--html")


def _print_simulation(
    args: argparse.Namespace,
    game: Game,
    label: str,
    tally: SimulationTally,
    seconds: float,
    interrupted: bool = False,
) -> None:
    names = [escaped(name) for name in game.info.player_names]
    n = tally.games
    played = f"{n} of {args.n} games (interrupted)" if interrupted else f"{n} games"
    native = ", native engines" if os.environ.get(NATIVE_ENV) else ""
    setting = f" ({label})" if label else ""
    print(
        f"{escaped(game.title)}{setting}: {played}, seeds {args.seed}..{args.seed + n - 1}, {_agents_text(args)}{native}"
    )
    width = max(10, *(len(names[p]) for p in range(game.num_players)))
    if game.info.returns is not None and game.info.utility == "identical" and tally.team:
        _print_team(tally, width)  # a cooperative game: one score for everyone, no winner
    else:
        for p in range(game.num_players):
            print(f"  {names[p]:<{width}} wins {tally.wins[p]:>6}  ({100 * tally.wins[p] / n:5.1f}%)")
        print(f"  {'draws':<{width}}      {tally.draws:>6}  ({100 * tally.draws / n:5.1f}%)")
        if tally.shared:
            print(f"  {'shared':<{width}} wins {tally.shared:>6}  ({100 * tally.shared / n:5.1f}%)")
        if (game.info.returns is not None or tally.shared) and tally.returns:
            _print_returns(names[: game.num_players], tally, width)
    if len(tally.by_agent) > 1:
        for kind, won in tally.by_agent.items():
            print(f"  agent {kind:<10} wins {won:>6}  ({100 * won / n:5.1f}%)")
    print(f"  mean length {tally.lengths / n:.1f} decisions")
    secs = max(seconds, 1e-9)
    rate = n / secs
    print(
        f"  {rate:,.{0 if rate >= 10 else 2}f} games/s, {tally.lengths / secs:,.0f} decisions/s ({secs:.2f} s)"
    )


def _print_returns(names: Sequence[str], tally: SimulationTally, width: int) -> None:
    """Each seat's mean return and how often it finished 1st, 2nd, ... (ties share a place)."""
    n = tally.games
    seats = len(names)
    places = "".join(f"  {ordinal(k + 1):>6}" for k in range(seats))
    print(f"  {'seat':<{width}} mean return{places}")
    for p in range(seats):
        shares = "".join(f"  {100 * tally.places[p][k] / n:5.1f}%" for k in range(seats))
        print(f"  {names[p]:<{width}} {tally.returns[p] / n:>+11.2f}{shares}")


def _print_team(tally: SimulationTally, width: int) -> None:
    """A cooperative game's (results kind `identical`) score, which every player gets: its mean,
    its range and quartiles, and the share of games at the highest score seen."""
    scores = sorted(tally.team.elements())
    n = len(scores)

    def at(q: float) -> str:
        return f"{scores[min(n - 1, int(q * n))]:g}"

    best = scores[-1]
    quartiles = f"{at(0.25)} / {at(0.5)} / {at(0.75)}"
    print(f"  {'team score':<{width}}  mean {sum(scores) / n:.2f}, every player's return")
    print(f"  {'':<{width}}  lowest {scores[0]:g}, quartiles {quartiles}, highest {best:g}")
    print(f"  {'':<{width}}  {tally.team[best]} game(s) ({100 * tally.team[best] / n:.1f}%) reach {best:g}")


@dataclass
class Simulated:
    """A chunk of simulated games: each game's length and winner (-1 for a draw, -2 for a win
    several players share) in order, and each game's ranks and returns by seat; the rule error
    that stopped the chunk (if one did), its rule coverage counts (if asked for), and with --plot
    how the games' public numbers went (rulewright/balance.py)."""

    outcomes: list[tuple[int, int]]
    finishes: list[tuple[tuple[int, ...], tuple[float, ...]]] = field(default_factory=list)
    error: str | None = None
    coverage: list[int] | None = None
    trajectories: Trajectories | None = None


@dataclass(frozen=True)
class SimulateJob:
    """The games of a simulate run, played in whichever process runs them (rulewright/parallel.py).
    An item is a game's number: its seed, seats and agents' seeds follow from it alone, so a game
    is the same in any process."""

    recipe: GameRecipe
    seed: int
    seats: tuple[str, ...]
    rotate: bool
    coverage: bool
    plot: bool = False  # sample each game's public numbers for the charts

    def order(self, i: int) -> list[str]:
        """The agents of game `i`, seat by seat."""
        k = i % len(self.seats) if self.rotate else 0
        return [*self.seats[k:], *self.seats[:k]]

    def __call__(self, chunk: Sequence[int], tick: Callable[[int], None]) -> Simulated:
        game = parallel.game(self.recipe)
        cov = parallel.coverage(self.recipe) if self.coverage else None
        if cov is not None:
            cov.reset()
        out = Simulated([])
        if self.plot:  # only then: without --plot, rulewright.balance is never imported
            from rulewright.balance import Sampler, Trajectories

            out.trajectories = Trajectories()
        try:
            for i in chunk:
                sampler = Sampler() if self.plot else None
                # with coverage on, the sampling runs untraced: the counts are those of play alone
                observe = sampler if sampler is None or cov is None else _untraced(sampler, cov)
                with cov if cov is not None else contextlib.nullcontext():
                    state = play_game(game, self.seed + i, self.order(i), observe=observe)
                if sampler is not None and out.trajectories is not None:
                    sampler.finish(state)
                    out.trajectories.add_game(sampler)
                winners = state.winners()
                won = winners[0] if len(winners) == 1 else -2 if winners else -1
                out.outcomes.append((len(state.history), won))
                out.finishes.append((tuple(state.ranking()), tuple(state.returns())))
                tick(len(out.outcomes))
        except RuleError as exc:  # raised again where the results are merged, in game order
            out.error = str(exc)
        out.coverage = cov.counts() if cov is not None else None
        return out


def _untraced(observe: Callable[[GameState], None], cov: RuleCoverage) -> Callable[[GameState], None]:
    """`observe`, run with rule coverage paused."""

    def run(state: GameState) -> None:
        cov.stop()
        try:
            observe(state)
        finally:
            cov.start()

    return run


@dataclass
class SimulationTally:
    """The results of a simulate run so far, added up game by game in game order."""

    wins: list[int]
    by_agent: dict[str, int]
    games: int = 0
    draws: int = 0
    shared: int = 0  # games won by several players together
    lengths: int = 0
    returns: list[float] = field(default_factory=list)  # each seat's returns, added up
    places: list[list[int]] = field(default_factory=list)  # [seat][rank - 1]: how many games
    team: Counter[float] = field(default_factory=Counter)  # a cooperative game's scores: how many games each

    def add(
        self,
        job: SimulateJob,
        outcomes: Sequence[tuple[int, int]],
        finishes: Sequence[tuple[Sequence[int], Sequence[float]]] = (),
    ) -> None:
        for length, winner in outcomes:
            self.lengths += length
            if winner >= 0:
                self.wins[winner] += 1
                self.by_agent[job.order(self.games)[winner]] += 1
            elif winner == -2:
                self.shared += 1
            else:
                self.draws += 1
            self.games += 1
        n = len(self.wins)
        if finishes and not self.returns:
            self.returns = [0.0] * n
            self.places = [[0] * n for _ in range(n)]
        for ranks, returns in finishes:
            for p in range(n):
                self.returns[p] += returns[p]
                self.places[p][ranks[p] - 1] += 1
            if len(set(returns)) == 1:
                self.team[returns[0]] += 1


def option_settings(
    fixed: Sequence[str] | None, vary: Sequence[str] | None
) -> tuple[list[list[str]], list[str]]:
    """The option settings simulate plays, each as -o's KEY=VALUE texts: the -o options and every
    combination of the values the --vary options list, in the order given (just the -o options
    without --vary); and the names of the options varied."""
    given = parse_options(fixed)
    settings: list[list[str]] = [list(fixed or ())]
    names: list[str] = []
    for text in vary or ():
        name, sep, values = text.partition("=")
        name = name.strip()
        if not sep or not OPTION_NAME.fullmatch(name):
            raise UsageError(f"--vary takes NAME=V1,V2,... (an option and its values), not {quoted(text)}")
        if name in given:
            raise UsageError(f"--vary {name}: also set by -o; give its values in one place")
        if name in names:
            raise UsageError(f"--vary {name} is given twice; list all its values in one --vary")
        names.append(name)
        if values.count(",") + 1 > MAX_SETTINGS:
            raise UsageError(f"--vary {name}: more than {MAX_SETTINGS} values")
        listed = [v.strip() for v in values.split(",")]
        if any(not v or len(v) > 100 for v in listed):
            raise UsageError(f"--vary {quoted(text)}: a value is empty or too long")
        if len(set(listed)) < len(listed):
            raise UsageError(f"--vary {quoted(text)}: a value is listed twice")
        if len(settings) * len(listed) > MAX_SETTINGS:
            raise UsageError(
                f"--vary: more than {MAX_SETTINGS} option settings to play; vary fewer options or values"
            )
        settings = [[*s, f"{name}={v}"] for s in settings for v in listed]
    return settings, names


def option_text(value: int | bool | str) -> str:
    """An option's value as -o takes it."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)
