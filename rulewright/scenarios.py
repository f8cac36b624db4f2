"""Scenarios: designers' test cases (specs/<game>/scenarios/*.yaml), compiled into each engine.

A scenario starts a seeded game with forced dice and shuffles, lets its `setup` arrange the table
after the game's own setup, plays actions by their labels, then checks its expectations. As in
`rulewright verify`, every action is checked against the spec's invariants and the engine
contract (runtime.contract), so a reproducer that verify wrote fails until the rule is fixed.
"""

from __future__ import annotations

import importlib
import inspect
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runtime.contract import Checker, Violation, broken_invariant, invariant_failures
from runtime.engine import GameState, IllegalActionError, RuleError
from runtime.game import Game, load_game


@dataclass(frozen=True)
class ScenarioResult:
    """The outcome of one scenario."""

    game: str
    name: str
    file: str
    ok: bool
    message: str
    state: GameState | None = None


# What a compiled scenario or step that leaves a key out means by it (the compiler writes only the
# keys that say something).
SCENARIO_DEFAULTS: dict[str, Any] = {
    "options": {},
    "dice": [],
    "shuffles": [],
    "draws": [],
    "picks": [],
    "skip": [],
    "start_at": "",
    "setup": None,
    "doc": "",
}
STEP_DEFAULTS: dict[str, Any] = {
    "actions": [],
    "expect": [],
    "error": None,
    "log": [],
    "no_log": [],
    "legal": None,
    "to_act": None,
    "prompt": None,
    "winner": None,
    "winners": None,
    "seen": {},
    "unseen": {},
    "invariants": [],
}


def run_scenario(game_name: str, compiled: dict[str, Any], base: Game | None = None) -> ScenarioResult:
    """Run one compiled scenario of the game `game_name` (or of `base`, an already loaded Game)."""
    sc = {**SCENARIO_DEFAULTS, **compiled}
    sc["steps"] = [{**STEP_DEFAULTS, **step} for step in compiled["steps"]]
    try:
        state = _start(game_name, sc, base)
    except (ValueError, RuleError) as exc:
        return ScenarioResult(game_name, sc["name"], sc["file"], False, f"could not start: {exc}")
    run = _ScenarioRun(game_name, sc, Checker(random.Random(sc["seed"])), state)
    steps: list[dict[str, Any]] = sc["steps"]
    done = 0  # actions played so far, over all steps
    for k, step in enumerate(steps, 1):
        where = f"step {k} (line {step['line']}): " if len(steps) > 1 else ""
        ended = run.play(step, where, done, last_step=k == len(steps))
        if ended is not None:
            return ended
        done += len(step["actions"])
        if step["error"] is not None:
            return run.fail(
                f"{where}expected the last action to be illegal ('{step['error']}'), but it was accepted"
            )
        problems = check_step(sc, step, run.state)
        if problems:
            return run.fail(where + "; ".join(problems))
    return run.result(True, "ok")


def _start(game_name: str, sc: dict[str, Any], base: Game | None) -> GameState:
    """The scenario's game, set up with its options, seed, forced chance and table arrangement."""
    game = (
        load_game(game_name, sc["options"])
        if base is None
        else Game(base.state_cls, base.scenarios, sc["options"])
    )
    return game.new_initial_state(
        sc["seed"],
        forced_rolls=sc["dice"],
        forced_shuffles=sc["shuffles"],
        forced_draws=sc["draws"],
        forced_picks=sc["picks"],
        after_setup=sc["setup"],
        skip=sc["skip"],
        start_at=sc["start_at"],
    )


class _ScenarioRun:
    """A scenario being played: the game so far, every action checked by `checker`."""

    def __init__(self, game_name: str, sc: dict[str, Any], checker: Checker, state: GameState) -> None:
        self.game_name = game_name
        self.sc = sc
        self.checker = checker
        self.state = state

    def result(self, ok: bool, message: str) -> ScenarioResult:
        return ScenarioResult(self.game_name, self.sc["name"], self.sc["file"], ok, message, self.state)

    def fail(self, message: str) -> ScenarioResult:
        return self.result(False, message)

    def play(self, step: dict[str, Any], where: str, done: int, last_step: bool) -> ScenarioResult | None:
        """Play one step's actions (`done` played before them); the result if the scenario ends there."""
        actions: list[str] = step["actions"]
        for j, label in enumerate(actions, 1):
            i = done + j
            if self.state.is_terminal():
                return self.fail(
                    f"{where}action {i} '{label}': the game is already over ({self.state.reason})"
                )
            try:
                action = self.state.string_to_action(label)
            except IllegalActionError as exc:
                expected = step["error"] if last_step and j == len(actions) else None
                return self.refused(exc, expected, f"{where}action {i}")
            try:
                self.state = self.checker.step(self.state, action)
            except Violation as exc:
                return self.fail(f"{where}action {i} '{label}': {exc}")
            except RuleError as exc:
                return self.fail(f"{where}action {i} '{label}': rule error: {exc}")
            except ValueError as exc:  # forced chance that cannot be used (a pick not offered, a bad roll)
                return self.fail(f"{where}action {i} '{label}': {exc}")
        return None

    def refused(self, exc: IllegalActionError, expected: str | None, at: str) -> ScenarioResult:
        """An illegal action: the scenario's end if it expects that error there, else its failure."""
        if expected is None:
            return self.fail(f"{at}: {exc}")
        if expected in str(exc):
            return self.result(True, "ok (illegal as expected)")
        return self.fail(f"{at}: expected an error containing '{expected}', got: {exc}")


def check_step(sc: dict[str, Any], step: dict[str, Any], state: GameState) -> list[str]:
    """What does not hold of a step's expectations in `state` (empty: all hold)."""
    problems: list[str] = []
    names = list(state.INFO.player_names)
    for text, line, check in step["expect"]:
        if not check(state):
            problems.append(f"{sc['file']}:{line}: expected {text}")
    failed = invariant_failures(state) if step["invariants"] else []
    for name in step["invariants"]:  # as the spec says it now, not as it was when the step was written
        if name in failed:
            broke = broken_invariant(state, name)
            where = f", where {broke.values}" if broke.values else ""
            problems.append(
                f"{sc['file']}:{step['line']}: expected the invariant {name} to hold: {broke.check}{where}"
            )
    log = state.log()
    for needle in step["log"]:
        if not any(needle in line for line in log):
            problems.append(f"no log line contains '{needle}'")
    for needle in step["no_log"]:
        found = [line for line in log if needle in line]
        if found:
            problems.append(f"a log line contains '{needle}': {found[0]!r}")
    if step["legal"] is not None:
        legal = sorted(state.action_to_string(a) for a in state.legal_actions())
        if legal != step["legal"]:
            problems.append(f"legal actions are {legal}, expected {step['legal']}")
    pending = None if state.is_terminal() else state.pending
    if step["to_act"] is not None:
        if pending is None:
            problems.append(f"expected {step['to_act']} to act, but the game is over ({state.reason})")
        elif names[pending.player] != step["to_act"]:
            problems.append(f"{names[pending.player]} is to act, expected {step['to_act']}")
    if step["prompt"] is not None:
        if pending is None:
            problems.append(f"expected a decision '{step['prompt']}', but the game is over ({state.reason})")
        elif step["prompt"] not in state.prompt():
            problems.append(f"the pending decision is '{state.prompt()}', expected '{step['prompt']}'")
    if step["winner"] is not None:
        want = step["winner"]
        if not state.is_terminal():
            problems.append(
                f"expected the game over ({'a draw' if want == 'draw' else want + ' wins'}), but it goes on"
            )
        else:
            winners = state.winners()
            got = names[winners[0]] if len(winners) == 1 else "draw" if not winners else ""
            if got != want:
                ended = (
                    state.INFO.result(winners)
                    if got == ""
                    else "a draw"
                    if got == "draw"
                    else got + " winning"
                )
                ended = ended.replace(" share the win", " sharing the win")
                problems.append(
                    f"the game ended with {ended} ({state.reason}), expected {'a draw' if want == 'draw' else want + ' to win'}"
                )
    if step["winners"] is not None:
        want_all = sorted(set(step["winners"]), key=names.index)
        wanted = state.INFO.result([names.index(w) for w in want_all])
        if not state.is_terminal():
            problems.append(f"expected the game over ({wanted}), but it goes on")
        elif [names[p] for p in state.winners()] != want_all:
            problems.append(
                f"the game ended: {state.INFO.result(state.winners())} ({state.reason}); expected: {wanted}"
            )
    for who, needles in step["seen"].items():
        view = player_view(state, names.index(who))
        for needle in needles:
            if needle not in view:
                problems.append(f"{who} does not see '{needle}' (in its observation or log)")
    for who, needles in step["unseen"].items():
        view = player_view(state, names.index(who))
        for needle in needles:
            if needle in view:
                problems.append(f"{who} sees '{needle}', which it should not (in its observation or log)")
    return problems


def player_view(state: GameState, player: int) -> str:
    """Everything `player` may see, as text: its observation (JSON) and its log."""
    obs = json.dumps(state.observation(player), ensure_ascii=False, sort_keys=True)
    return obs + "\n" + "\n".join(state.player_log(player))


def run_all(game_name: str, base: Game | None = None) -> list[ScenarioResult]:
    game = load_game(game_name) if base is None else base
    return [run_scenario(game_name, sc, base) for sc in game.scenarios]


def _scenarios_digest(game: Game) -> str | None:
    """The digest the game's scenarios module was compiled from (rules and scenarios)."""
    return _module_digest(game, "scenarios")


def _module_digest(game: Game, name: str) -> str | None:
    """The digest a module of the game's package (`scenarios`, `board`) was compiled from, or None
    when it has none."""
    package = game.state_cls.__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.{name}")
    except ImportError:
        return None
    digest = getattr(module, "DIGEST", None)
    return digest if isinstance(digest, str) else None


def staleness(game: Game, folder: Path, root: Path, output: str = "generated") -> str | None:
    """Why the compiled `game` is older than its spec `folder` in the workspace at `root`, whose
    engines are built into `output` (None when it is not)."""
    from compiler.load import spec_digests

    digests = spec_digests(folder, root)
    if digests is None or digests == (
        game.info.digest,
        _scenarios_digest(game),
        _module_digest(game, "board"),
    ):
        return None  # None: a spec file cannot be read, which `rulewright build` reports
    # Name the files edited after the engine was written; when every file is newer (a fresh copy
    # or clone), their times say nothing and the folder is named instead.
    from compiler.load import board_file, spec_files

    files, scenario_files = spec_files(folder)
    board = board_file(folder)
    scenario_files += [board] if board else []
    try:
        built = Path(inspect.getfile(game.state_cls)).stat().st_mtime
        newer = [p for p in files + scenario_files if p.stat().st_mtime > built]
    except (OSError, TypeError):
        newer = []
    if len(newer) == len(files + scenario_files):
        newer = []
    shown = [str(p.relative_to(root)) if p.is_relative_to(root) else str(p) for p in newer[:3]]
    what = ", ".join(shown) + (f" and {len(newer) - 3} more" if len(newer) > 3 else "")
    spec = str(folder.relative_to(root)) if folder.is_relative_to(root) else str(folder)
    return (
        f"{output}/{game.name} is stale ({what or f'{spec}/'} changed since the last build): "
        f"run `rulewright build {game.name}`"
    )
