"""Scenarios: designers' test cases (specs/<game>/scenarios/*.yaml), compiled into each engine.

A scenario starts a seeded game with forced dice and shuffles, lets its `setup` arrange the table
after the game's own setup, plays actions by their labels, then checks its expectations. As in
`rulewright verify`, every action is checked against the spec's invariants and the engine
contract (runtime.contract), so a reproducer that verify wrote fails until the rule is fixed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from runtime.contract import Checker, Violation
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


def run_scenario(game_name: str, sc: dict[str, Any], base: Game | None = None) -> ScenarioResult:
    """Run one compiled scenario of the game `game_name` (or of `base`, an already loaded Game)."""

    def fail(msg: str, state: GameState | None = None) -> ScenarioResult:
        return ScenarioResult(game_name, sc["name"], sc["file"], False, msg, state)

    try:
        game = (
            load_game(game_name, sc["options"])
            if base is None
            else Game(base.state_cls, base.scenarios, sc["options"])
        )
        state = game.new_initial_state(
            sc["seed"],
            forced_rolls=sc["dice"],
            forced_shuffles=sc["shuffles"],
            after_setup=sc["setup"],
            skip=sc.get("skip", ()),
        )
    except (ValueError, RuleError) as exc:
        return fail(f"could not start: {exc}")
    actions: list[str] = sc["actions"]
    checker = Checker(random.Random(sc["seed"]))
    for i, label in enumerate(actions, 1):
        if state.is_terminal():
            return fail(f"action {i} '{label}': the game is already over ({state.reason})", state)
        try:
            action = state.string_to_action(label)
        except IllegalActionError as exc:
            if sc["expect_error"] is not None and i == len(actions):
                if sc["expect_error"] in str(exc):
                    return ScenarioResult(
                        game_name, sc["name"], sc["file"], True, "ok (illegal as expected)", state
                    )
                return fail(
                    f"action {i}: expected an error containing '{sc['expect_error']}', got: {exc}", state
                )
            return fail(f"action {i}: {exc}", state)
        try:
            state = checker.step(state, action)
        except Violation as exc:
            return fail(f"action {i} '{label}': {exc}", state)
        except RuleError as exc:
            return fail(f"action {i} '{label}': rule error: {exc}", state)
    if sc["expect_error"] is not None:
        return fail(
            f"expected the last action to be illegal ('{sc['expect_error']}'), but it was accepted", state
        )
    problems: list[str] = []
    for text, line, check in sc["expect"]:
        if not check(state):
            problems.append(f"{sc['file']}:{line}: expected {text}")
    for needle in sc["expect_log"]:
        if not any(needle in line for line in state.log()):
            problems.append(f"no log line contains '{needle}'")
    if sc["expect_legal"] is not None:
        legal = sorted(state.action_to_string(a) for a in state.legal_actions())
        if legal != sc["expect_legal"]:
            problems.append(f"legal actions are {legal}, expected {sc['expect_legal']}")
    if problems:
        return fail("; ".join(problems), state)
    return ScenarioResult(game_name, sc["name"], sc["file"], True, "ok", state)


def run_all(game_name: str, base: Game | None = None) -> list[ScenarioResult]:
    game = load_game(game_name) if base is None else base
    return [run_scenario(game_name, sc, base) for sc in game.scenarios]
