"""Research algorithms through the OpenSpiel adapter, with explicit chance: CFR reaches Kuhn poker's
known game value, ISMCTS plays games to the end with the adapter's own resampler, and MCCFR's deep
recursion leaves the rules room.

Slower checks run only with RULEWRIGHT_SLOW=1 (their figures are in docs/adapters.md):
ISMCTS on every bundled game, and Leduc poker's exploitability after 30 CFR iterations against
OpenSpiel's own `leduc_poker`."""

from __future__ import annotations

import os

import pytest

import runtime

pyspiel = pytest.importorskip("pyspiel", reason="install the rl extra: pip install -e '.[rl]'")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import cfr, expected_game_score, exploitability, ismcts, mcts  # noqa: E402

from runtime.adapters import openspiel  # noqa: E402

GAMES = runtime.available_games()
SLOW = os.environ.get("RULEWRIGHT_SLOW") == "1"
KUHN_VALUE = -1 / 18  # the first player's value of Kuhn poker


def needs(*names: str) -> None:
    for name in names:
        if name not in GAMES:
            pytest.skip(f"{name} is not built")


def test_cfr_reaches_kuhn_pokers_value() -> None:
    """OpenSpiel's CFR+ on our Kuhn poker: the first player's value within 0.002 of -1/18 and an
    exploitability under 0.005 after 60 iterations (vanilla CFR needs about 200; the figures of
    both are in docs/adapters.md)."""
    needs("kuhn_poker")
    game = pyspiel.load_game(openspiel.register("kuhn_poker"))
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    solver = cfr.CFRPlusSolver(game)
    for _ in range(60):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    value = expected_game_score.policy_value(game.new_initial_state(), [policy] * 2)[0]
    assert abs(value - KUHN_VALUE) < 0.002
    assert exploitability.exploitability(game, policy) < 0.005


def ismcts_game(name: str, seed: int, simulations: int = 2, **options: object) -> pyspiel.State:
    """One game of `name` between ISMCTS bots (the adapter's resampler), to the end. A game with
    simultaneous choices asks them in turn: ISMCTS searches sequential games."""
    params = dict(options, simultaneous="in_turn") if runtime.load_game(name).info.simultaneous else options
    game = pyspiel.load_game(openspiel.register(name), params)
    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=rs)
        for _ in range(game.num_players())
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rs.choice(outcomes, p=probabilities))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


@pytest.mark.parametrize(
    ("name", "options"),
    [("kuhn_poker", {}), ("leduc_poker", {}), ("liars_dice", {"dice": 2}), ("goofspiel", {"cards": 5})],
)
def test_ismcts_plays_to_the_end_with_the_adapters_resampler(name: str, options: dict[str, object]) -> None:
    needs(name)
    for seed in range(3):
        state = ismcts_game(name, seed, **options)
        assert state.is_terminal() and len(state.returns()) == state.get_game().num_players()


@pytest.mark.skipif(not SLOW, reason="slow: RULEWRIGHT_SLOW=1")
@pytest.mark.parametrize("name", GAMES)
def test_ismcts_plays_every_game_to_the_end(name: str) -> None:
    assert ismcts_game(name, 1).is_terminal()


@pytest.mark.skipif(not SLOW, reason="slow: RULEWRIGHT_SLOW=1")
def test_leduc_pokers_exploitability_after_30_cfr_iterations_is_openspiels() -> None:
    needs("leduc_poker")
    found = []
    for name in (openspiel.register("leduc_poker"), "leduc_poker"):
        game = pyspiel.load_game(name)
        solver = cfr.CFRSolver(game)
        for _ in range(30):
            solver.evaluate_and_update_policy()
        found.append(exploitability.exploitability(game, solver.average_policy()))
    ours, theirs = found
    print(f"Leduc poker, 30 CFR iterations: exploitability {ours:.6f} (ours), {theirs:.6f} (OpenSpiel's)")
    assert abs(ours - theirs) <= 0.01 * theirs, found


def test_a_history_taken_again_is_the_same_state_and_a_state_moved_by_its_engine_is_not_mistaken() -> None:
    """The adapter numbers the histories it sees and keeps what it made of them (information
    strings, the states reached by moves taken twice): a state reached again equals the first, and
    a state moved on by its engine directly is not taken for its old history."""
    needs("kuhn_poker")
    game = pyspiel.load_game(openspiel.register("kuhn_poker"))
    root = game.new_initial_state()
    root.apply_action(0)
    root.apply_action(2)
    a = root.legal_actions()[1]
    first, second, third = root.child(a), root.child(a), root.child(a)  # the third is a kept copy
    assert first.engine.to_json() == second.engine.to_json() == third.engine.to_json()
    assert third.information_state_string(1) == first.information_state_string(1)
    fresh = game.new_initial_state()
    for action in third.history():
        fresh.apply_action(action)
    assert fresh.engine.to_json() == third.engine.to_json()
    told = third.information_state_string(0)
    third.engine.apply_action(third.legal_actions()[0])  # behind the adapter's back
    assert third.information_state_string(0) != told


def test_bench_compares_a_cfr_iteration_with_openspiels_own_game() -> None:
    import json
    import subprocess
    import sys

    needs("kuhn_poker")
    command = [sys.executable, "-m", "rulewright", "bench", "kuhn_poker", "--cfr", "python_kuhn_poker"]
    done = subprocess.run(
        [*command, "--rounds", "2", "--iterations", "2", "--json"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["other"] == "python_kuhn_poker" and len(figures["ratios"]) == 2
    refused = subprocess.run(
        [*command[:4], "no_such_game", "--cfr", "kuhn_poker"], capture_output=True, text=True
    )
    assert refused.returncode == 1 and "no compiled game 'no_such_game'" in refused.stderr
