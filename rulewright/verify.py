"""`rulewright verify`: Hypothesis plays the game and checks every invariant and the engine contract.

Each example draws a game seed and a strategy, then plays: at every decision Hypothesis draws
which legal action to take, with the strategy's bias (see STRATEGIES). After every action
`runtime.contract.checked_step` checks the spec's invariants and the engine contract. On a
failure Hypothesis shrinks the choices (fewer, earlier, more canonical actions), and the
minimal case is returned as a `Failure`, which `write_reproducer` turns into a scenario file.

Only the first HYPOTHESIS_STEPS decisions of a game are Hypothesis draws; later ones come from a
generator seeded by a drawn number, so long games never overrun Hypothesis's buffer and every
example stays reproducible.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from rulewright import parallel
from rulewright.parallel import GameRecipe
from runtime.contract import Checker, Violation
from runtime.engine import GameState, RuleError
from runtime.game import Game
from runtime.text import escaped, escaped_lines

STRATEGIES: dict[str, str] = {
    "random": "any legal action, uniformly",
    "first": "mostly the lowest-numbered legal action",
    "last": "mostly the highest-numbered legal action",
    "novel": "mostly the action this game has taken least often so far",
    "prefer": "mostly an action whose label matches --prefer",
}
DEFAULT_STRATEGIES = ("random", "last", "first", "novel")
HYPOTHESIS_STEPS = 400
BIAS = 3  # a biased strategy follows its preference 3 times in 4


@dataclass
class Step:
    """One decision of a played example."""

    player: str
    label: str
    prompt: str
    log_start: int  # index of the first log line this action produced


@dataclass
class Failure:
    """The minimal failing example Hypothesis found."""

    kind: str  # "invariant", "contract" or "rule error"
    name: str
    detail: str
    seed: int
    strategy: str
    options: dict[str, int | bool | str]
    steps: list[Step]
    log: list[str]
    check: str | None = None  # the invariant's expression, when the spec gives it
    values: str = ""  # the values of the names the invariant reads, when it broke

    @property
    def actions(self) -> list[str]:
        return [s.label for s in self.steps]

    def summary(self) -> str:
        what = f"{self.kind} {self.name}" if self.kind != "rule error" else "a rule error"
        return f"{what} broke after {len(self.steps)} action(s): {self.detail}"


@dataclass
class VerifyReport:
    """What a verify run did and found."""

    game: str
    examples: int = 0  # games played to the end, to the step limit or to a failure
    runs: int = 0  # test-function calls, including the ones Hypothesis aborts early
    decisions: int = 0
    finished: int = 0
    cut_off: int = 0
    seconds: float = 0.0
    by_strategy: Counter[str] = field(default_factory=Counter)
    failure: Failure | None = None

    @property
    def ok(self) -> bool:
        return self.failure is None

    def count(self, strategy: str, decisions: int) -> None:
        self.examples += 1
        self.by_strategy[strategy] += 1
        self.decisions += decisions


class _Chooser:
    """Draws each decision: from Hypothesis for the first steps, then from a seeded generator."""

    def __init__(self, data: st.DataObject, tail_seed: int) -> None:
        self.data = data
        # Hypothesis's own integer choice, without the per-draw bookkeeping of data.draw
        # (4x faster); it shrinks the same way. Falls back to the public API if it moves.
        raw = getattr(getattr(data, "conjecture_data", None), "draw_integer", None)
        self.draw_integer: Callable[[int, int], int] = (
            raw if raw is not None else (lambda lo, hi: data.draw(st.integers(lo, hi)))
        )
        self.tail = random.Random(tail_seed)
        self.step = 0

    def below(self, n: int) -> int:
        if n <= 1:
            return 0
        if self.step < HYPOTHESIS_STEPS:
            return self.draw_integer(0, n - 1)
        return self.tail.randrange(n)

    def pick(self, legal: list[int], preferred: list[int]) -> int:
        """A preferred action 3 times in 4 (shrinking leans towards it), else any legal one."""
        if preferred and self.below(BIAS + 1) < BIAS:
            return preferred[self.below(len(preferred))]
        return legal[self.below(len(legal))]


def _preferred(
    strategy: str, state: GameState, legal: list[int], taken: Counter[str], prefer: re.Pattern[str] | None
) -> list[int]:
    if strategy == "first":
        return legal[:1]
    if strategy == "last":
        return legal[-1:]
    if strategy == "novel":
        counts = [taken[state.action_to_string(a)] for a in legal]
        least = min(counts)
        return [a for a, c in zip(legal, counts, strict=True) if c == least]
    if strategy == "prefer" and prefer is not None:
        return [a for a in legal if prefer.search(state.action_to_string(a))]
    return []


def verify(
    game: Game,
    *,
    examples: int = 100,
    seed: int = 0,
    max_steps: int = 2000,
    strategies: Sequence[str] = DEFAULT_STRATEGIES,
    prefer: str | None = None,
    contract: bool = True,
    on_example: Callable[[int], None] | None = None,
) -> VerifyReport:
    """Play `examples` Hypothesis-driven games of `game`; shrink and return the first failure."""
    plan = _plan(game, examples, seed, max_steps, strategies, prefer, contract)
    report = VerifyReport(game.name)
    found: list[Failure] = []
    test = _hypothesis_test(plan, report, found, on_example)
    start = time.perf_counter()
    try:
        with _no_local_constants(), _heap_set_aside():
            test()
    except (Violation, RuleError):
        report.failure = found[-1]  # Hypothesis replays the minimal example last
    report.seconds = time.perf_counter() - start
    return report


@contextlib.contextmanager
def _heap_set_aside() -> Iterator[None]:
    """What the process held before the run (its modules, the engine, Hypothesis) left out of the
    cycle collector's full collections for the time of the run (`gc.freeze`, undone after).

    The contract loads each step's state again from its JSON, a state's worth of objects that
    outlive the young collections, so a full collection comes every few steps, and each walked
    that whole heap again: a third of the CPU of verifying every game (72 s against 49, the same
    examples). The objects made during the run are collected as before. A caller that froze
    objects itself keeps them frozen: nothing is done then."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@contextlib.contextmanager
def _no_local_constants() -> Iterator[None]:
    """Hypothesis without the constants it finds in "local" modules, for the time of a run.

    Hypothesis (since 6.131) sometimes draws a constant found in the source of a module the
    process has imported from outside site-packages. So one seed drew other examples in a process
    that had imported other modules, or had rulewright installed elsewhere: a worker of `-j`, a
    Ray task, a test. verify's draws are positions in a list of legal actions and seeds, which
    such constants say nothing about; without them, a seed draws the same examples in every
    process. Hypothesis has no setting for it, so this replaces a private function (and empties
    the cache built from it); should they move, nothing is replaced, and tests/test_parallel.py
    (the same run with other modules imported) fails.
    """
    providers: Any = importlib.import_module("hypothesis.internal.conjecture.providers")
    local = getattr(providers, "_get_local_constants", None)
    cache = getattr(getattr(providers, "CONSTANTS_CACHE", None), "cache", None)
    if local is None or cache is None or not hasattr(providers, "Constants"):
        yield
        return
    none = providers.Constants()
    providers._get_local_constants = lambda: none
    cache.clear()
    try:
        yield
    finally:
        providers._get_local_constants = local
        cache.clear()


@dataclass(frozen=True)
class _Plan:
    """What every example of one verify run shares."""

    game: Game
    examples: int
    seed: int
    max_steps: int
    strategies: tuple[str, ...]
    prefer: re.Pattern[str] | None
    contract: bool
    checks: dict[str, str]  # invariant name -> its expression

    def failure(
        self, exc: Violation | RuleError, game_seed: int, strategy: str, steps: list[Step], log: list[str]
    ) -> Failure:
        """The failure `exc` raised by the last of `steps`, with the log before it."""
        options = dict(self.game.options)
        if isinstance(exc, Violation):
            name = exc.name
            return Failure(
                exc.kind,
                name,
                exc.detail,
                game_seed,
                strategy,
                options,
                steps,
                log,
                self.checks.get(name),
                exc.values,
            )
        return Failure("rule error", "", str(exc), game_seed, strategy, options, steps, log)


def _plan(
    game: Game,
    examples: int,
    seed: int,
    max_steps: int,
    strategies: Sequence[str],
    prefer: str | None,
    contract: bool,
) -> _Plan:
    """verify's arguments checked (a ValueError says what is wrong) and the --prefer pattern compiled."""
    pattern = check_settings(examples, max_steps, strategies, prefer)
    checks = {inv[0]: inv[3] for inv in game.info.invariants}
    return _Plan(game, examples, seed, max_steps, tuple(strategies), pattern, contract, checks)


def check_settings(
    examples: int, max_steps: int, strategies: Sequence[str], prefer: str | None
) -> re.Pattern[str] | None:
    """Raise a ValueError that says what is wrong with these settings of verify; the --prefer
    pattern, compiled."""
    for s in strategies:
        if s not in STRATEGIES:
            raise ValueError(f"unknown strategy '{s}' (strategies: {', '.join(STRATEGIES)})")
    if "prefer" in strategies and not prefer:
        raise ValueError("the 'prefer' strategy needs a pattern (--prefer REGEX)")
    try:
        pattern = re.compile(prefer) if prefer else None
    except re.error as exc:
        raise ValueError(f"--prefer {prefer!r} is not a regular expression ({exc})") from None
    if examples < 1 or max_steps < 1:
        raise ValueError(f"examples and max_steps must be at least 1, not {examples} and {max_steps}")
    return pattern


def _hypothesis_test(
    plan: _Plan, report: VerifyReport, found: list[Failure], on_example: Callable[[int], None] | None
) -> Callable[[], None]:
    """The Hypothesis test of a run: each example draws a game seed, a strategy and a seed for the
    decisions past HYPOTHESIS_STEPS, then plays one game."""

    @settings(
        max_examples=plan.examples,
        deadline=None,
        database=None,
        verbosity=Verbosity.quiet,
        phases=(Phase.explicit, Phase.generate, Phase.shrink),
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
    )
    @hypothesis_seed(plan.seed)
    @given(data=st.data())
    def example(data: st.DataObject) -> None:
        game_seed = data.draw(st.integers(0, 2**31 - 1), label="game seed")
        strategy = data.draw(st.sampled_from(list(plan.strategies)), label="strategy")
        chooser = _Chooser(data, data.draw(st.integers(0, 2**31 - 1), label="tail seed"))
        report.runs += 1
        if on_example is not None:
            on_example(report.runs)
        _play_example(plan, game_seed, strategy, chooser, report, found)

    return example


def _play_example(
    plan: _Plan, game_seed: int, strategy: str, chooser: _Chooser, report: VerifyReport, found: list[Failure]
) -> None:
    """Play one game, checking every step, and count it in `report`; a failure is added to `found`
    and raised again, for Hypothesis to shrink."""
    state = plan.game.new_initial_state(game_seed)
    checker = Checker(random.Random(game_seed), full=plan.contract)
    steps: list[Step] = []
    taken: Counter[str] = Counter()
    while not state.is_terminal():
        if chooser.step >= plan.max_steps:
            report.cut_off += 1
            report.count(strategy, decisions=chooser.step)
            return
        action = _choose(state, chooser, strategy, taken, plan.prefer)
        steps.append(_step(state, action))
        taken[steps[-1].label] += 1
        chooser.step += 1
        try:
            state = checker.step(state, action)
        except (Violation, RuleError) as exc:
            report.count(strategy, decisions=chooser.step)
            found.append(plan.failure(exc, game_seed, strategy, steps, state.log()))
            raise
    report.finished += 1
    report.count(strategy, decisions=chooser.step)


def _choose(
    state: GameState, chooser: _Chooser, strategy: str, taken: Counter[str], prefer: re.Pattern[str] | None
) -> int:
    """The action to take, with the strategy's bias; -1 when nothing is legal, which
    Checker.step reports as a contract failure."""
    legal = state.legal_actions()
    if not legal:
        return -1
    return chooser.pick(legal, _preferred(strategy, state, legal, taken, prefer))


def _step(state: GameState, action: int) -> Step:
    """The decision `action` about to be taken in `state`, as the failure report shows it."""
    label = state.action_to_string(action) if action >= 0 else "?"
    player = state.current_player()
    prompt = state.prompt()
    return Step(_player(state, player), label, prompt, len(state.lines))


def _player(state: GameState, p: int) -> str:
    names = state.INFO.player_names
    return names[p] if 0 <= p < len(names) else str(p)


# ---- a run in parts, on any number of workers ------------------------------------------------


@dataclass(frozen=True)
class Part:
    """One part of one game's verify run: a Hypothesis run of its own, with its own seed."""

    game: int  # index into VerifyJob.games
    index: int  # 0 for the first part
    examples: int
    seed: int


def parts(game: int, examples: int, seed: int, shards: int) -> list[Part]:
    """A game's examples cut into `shards` parts (fewer if there are fewer examples), the first
    ones one example larger when they do not divide evenly. The first part has the run's seed, so
    one part is exactly the run `verify` makes; the others seeds of their own."""
    n = max(1, min(shards, examples))
    size, extra = divmod(examples, n)
    return [Part(game, i, size + (i < extra), seed + (i << 64)) for i in range(n)]


@dataclass
class PartResult:
    """What one part found, and the rule coverage counts of its games (when asked for)."""

    report: VerifyReport
    coverage: list[int] | None


@dataclass(frozen=True)
class VerifyJob:
    """Parts of a verify run of several games, played in whichever process runs them
    (rulewright/parallel.py): a part is the same in any process, so the run is too."""

    games: tuple[GameRecipe, ...]
    max_steps: int
    strategies: tuple[str, ...]
    prefer: str | None
    contract: bool
    coverage: bool

    def __call__(self, chunk: Sequence[Part], tick: Callable[[int], None]) -> list[PartResult]:
        out = []
        before = 0  # examples of the chunk's parts done
        for part in chunk:
            recipe = self.games[part.game]
            cov = parallel.coverage(recipe) if self.coverage else None
            if cov is not None:
                cov.reset()

            def on_example(runs: int, base: int = before, size: int = part.examples) -> None:
                tick(base + min(runs - 1, size))  # called as run number `runs` starts

            with cov if cov is not None else contextlib.nullcontext():
                report = verify(
                    parallel.game(recipe),
                    examples=part.examples,
                    seed=part.seed,
                    max_steps=self.max_steps,
                    strategies=self.strategies,
                    prefer=self.prefer,
                    contract=self.contract,
                    on_example=on_example,
                )
            out.append(PartResult(report, cov.counts() if cov is not None else None))
            before += part.examples
        return out


def through_first_failure(results: Sequence[PartResult]) -> list[PartResult]:
    """A game's parts, in order, up to the first that failed: what the game's result is made of,
    whichever parts happened to run."""
    out = []
    for r in results:
        out.append(r)
        if not r.report.ok:
            break
    return out


def merge(reports: Sequence[VerifyReport]) -> VerifyReport:
    """A game's part reports, in part order, as one: their counts added up, and the failure of
    the last (see through_first_failure)."""
    merged = VerifyReport(reports[0].game)
    for r in reports:
        merged.examples += r.examples
        merged.runs += r.runs
        merged.decisions += r.decisions
        merged.finished += r.finished
        merged.cut_off += r.cut_off
        merged.seconds += r.seconds
        merged.by_strategy.update(r.by_strategy)
        merged.failure = r.failure
    return merged


# ---- reporting --------------------------------------------------------------------------------


def describe(report: VerifyReport, invariants: int, contract: bool, context: int = 6) -> str:
    """The text `rulewright verify` prints."""
    rate = report.examples / max(report.seconds, 1e-9)
    mix = ", ".join(f"{k} {v}" for k, v in sorted(report.by_strategy.items()))
    what = f"{invariants} invariant(s)" + (" and the engine contract" if contract else "")
    f = report.failure
    if f is None:
        cut = f", {report.cut_off} cut off at the step limit" if report.cut_off else ""
        return (
            f"verify {report.game}: ok. {report.examples} examples ({mix}), {report.decisions:,} decisions, "
            f"{report.finished} games played to the end{cut}; {what} held after every decision.\n"
            f"  {report.seconds:.1f} s, {rate:.1f} examples/s, {report.decisions / max(report.seconds, 1e-9):,.0f} "
            "checked decisions/s"
        )
    lines = [
        f"verify {report.game}: FAILED ({report.examples} examples run, {report.seconds:.1f} s)",
        f"  {f.summary()}",
    ]
    if f.check:
        lines.append(f"  check: {f.check}")
    if f.values:
        lines.append(f"  where {f.values}")
    lines.append(f"  minimal case: seed {f.seed}, strategy {f.strategy}, {len(f.steps)} action(s)")
    lines.append("  last actions:")
    first = max(0, len(f.steps) - context)
    for i, s in enumerate(f.steps[first:], first + 1):
        lines.append(escaped(f"    {i:>4}. {s.player}: {s.label}" + (f"  ({s.prompt})" if s.prompt else "")))
    last = f.steps[-1].log_start if f.steps else 0
    lines.append("  log around the failure (> marks lines of the failing action):")
    for i in range(max(0, last - context), len(f.log)):
        lines.append(f"    {'>' if i >= last else '|'} {escaped(f.log[i])}")
    return escaped_lines("\n".join(lines))  # (a rule error's text may be of several lines)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "failure"


def write_reproducer(failure: Failure, folder: Path, game: str) -> Path:
    """Write the minimal case as a scenario file in `folder`; returns its path."""
    folder.mkdir(parents=True, exist_ok=True)
    base = f"verify_{_slug(failure.name or failure.kind)}"
    path = folder / f"{base}.yaml"
    n = 2
    while path.exists():
        path, n = folder / f"{base}_{n}.yaml", n + 1
    q = json.dumps  # a JSON string is a valid YAML double-quoted scalar
    out = [
        f"# Written by `rulewright verify {game}`: the shortest failing game it found.",
        "# It fails while the bug is there; keep it as a regression test once the rule (or the",
        "# invariant, when the invariant was wrong) is fixed.",
        f"name: {q(f'found by verify: {failure.kind} {failure.name}'.rstrip() + f' after {len(failure.steps)} action(s)')}",
        f"doc: {q(f'{failure.detail}. Strategy {failure.strategy}. Scenarios check the invariants and the engine contract after every action, as verify does.')}",
        f"seed: {failure.seed}",
    ]
    if failure.options:
        out.append(
            "options: {" + ", ".join(f"{k}: {json.dumps(v)}" for k, v in failure.options.items()) + "}"
        )
    out.append("actions:")
    for i, s in enumerate(failure.steps, 1):
        comment = f"{i}. {s.player}" + (f": {s.prompt}" if s.prompt else "")
        out.append(f"  - {q(s.label):<24} # {comment}")
    if failure.kind == "invariant" and failure.name:
        out.append(f"expect_invariants: [{q(failure.name)}]  # its check as the spec says it now")
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path
