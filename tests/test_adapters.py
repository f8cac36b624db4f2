"""The adapters, tested by the external tools' own suites on every compiled game:
pyspiel.random_sim_test for OpenSpiel, pettingzoo.test.api_test for PettingZoo; and the MCTS
agent through the OpenSpiel adapter."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

import runtime
from runtime.agents import RandomAgent
from runtime.contract import hidden_twin

pyspiel = pytest.importorskip("pyspiel", reason="install the rl extra: pip install -e '.[rl]'")
pytest.importorskip("pettingzoo")

from runtime.adapters import openspiel  # noqa: E402
from runtime.adapters.pettingzoo import env  # noqa: E402
from tests.conftest import LONG_GAMES, SHORT_GAMES  # noqa: E402

GAMES = runtime.available_games()


def a_move(state: pyspiel.State, pick: Callable[[list[int]], int]) -> list[int]:
    """The actions of one move, each picked from its legal actions: one player's, or at a
    simultaneous node a joint action, one per player (pyspiel's Python games take those only
    through apply_actions: their legal_actions() has no flat joint actions)."""
    if state.is_simultaneous_node():
        return [pick(state.legal_actions(p)) for p in range(state.num_players())]
    return [pick(state.legal_actions())]


def play(state: pyspiel.State, move: list[int]) -> None:
    if state.is_simultaneous_node():
        state.apply_actions(move)
    else:
        state.apply_action(move[0])


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_sim_test(name: str) -> None:
    game = pyspiel.load_game(f"rulewright_{name}")
    assert game.get_type().short_name == f"rulewright_{name}"
    assert game.num_distinct_actions() == runtime.load_game(name).num_distinct_actions()
    assert game.get_type().chance_mode in (
        pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        pyspiel.GameType.ChanceMode.DETERMINISTIC,
    )
    # a random game of Lost Cities runs to ~450 decisions, each checked by OpenSpiel: one is enough
    sims = 1 if name in LONG_GAMES else 3  # a long game: one simulation is hundreds of states
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_openspiel_random_sim_test_with_sampled_chance() -> None:
    """serialize=False, as for OpenSpiel's own Python games: with sampled chance, its check needs
    a random generator in the Game object (test_openspiel_seeds_and_serialisation checks our
    serialisation instead)."""
    name = "iron_curtain" if "iron_curtain" in GAMES else GAMES[0]
    game = pyspiel.load_game(f"rulewright_{name}(chance=sampled)")
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert game.max_chance_outcomes() == 0
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_observations_hide_what_the_player_cannot_see(name: str) -> None:
    game = pyspiel.load_game(f"rulewright_{name}(seed=3)")
    state = game.new_initial_state()
    rnd = random.Random(0)
    for _ in range(12):
        if state.is_terminal():
            break
        for p in range(game.num_players()):
            twin = openspiel.RulewrightState(game, hidden_twin(state.engine, p, rnd))
            assert twin.observation_string(p) == state.observation_string(p)
            assert twin.observation_tensor(p) == state.observation_tensor(p)
            assert state.information_state_string(p).startswith(state.observation_string(p))
        play(state, a_move(state, rnd.choice))


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_seeds_and_serialisation(name: str) -> None:
    game = pyspiel.load_game(f"rulewright_{name}(chance=sampled,seed=5)")
    assert [game.new_initial_state().engine.seed for _ in range(2)] == [5, 6]
    state = game.new_initial_state()
    for _ in range(5):
        if state.is_terminal():  # a short game may end first
            break
        play(state, a_move(state, lambda legal: legal[-1]))
    again = game.deserialize_state(state.serialize())
    assert again.engine.to_json() == state.engine.to_json() and again.history() == state.history()


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_test(name: str) -> None:
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        # advice, not failures: dict observations with an action mask, agents named by the spec
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(name), num_cycles=200, verbose_progress=False)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_plays_a_whole_game(name: str) -> None:
    e = env(name)
    e.reset(seed=2)
    e.action_space(e.agents[0]).seed(2)  # the actions sampled too: the same game every run
    steps = 0
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)
        steps += 1
    assert e.unwrapped.state.is_terminal() and steps > (2 if name in SHORT_GAMES else 10)


def test_mcts_agent_plays_legal_moves_and_finishes() -> None:
    name = "iron_curtain" if "iron_curtain" in GAMES else GAMES[0]  # the shortest game
    game = runtime.load_game(name)
    agents = [openspiel.MCTSAgent(seed=1, simulations=8), RandomAgent(1)]
    state = game.new_initial_state(4)
    while not state.is_terminal():
        legal = state.legal_actions()
        action = agents[state.current_player() % 2].choose(state)
        assert action in legal
        state.apply_action(action)
    assert sum(state.returns()) == pytest.approx(0.0)


def test_a_spec_outside_specs_with_three_players() -> None:
    """The design-test spec `features` (2-4 players, secret choices, options) in both tools."""
    from pettingzoo.test import api_test

    from rulewright.spec_loader import load_spec
    from tests.conftest import ROOT

    features = load_spec(ROOT / "tests" / "specs" / "features")
    name = openspiel.register(features)
    game = pyspiel.load_game(name, {"seats": 3})
    assert game.num_players() == 3
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert (game.get_type().min_num_players, game.get_type().max_num_players) == (2, 4)
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(load_spec(ROOT / "tests" / "specs" / "features", {"seats": 4})), num_cycles=200)

    planted = load_spec(ROOT / "tests" / "verify" / "planted_bug")  # no chance, nothing hidden
    t = pyspiel.load_game(openspiel.register(planted)).get_type()
    assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_a_fresh_state_and_its_copies_are_one_game(name: str) -> None:
    """A fresh state's clone, deepcopy, pickle and serialized copy deal the same game (the engine
    used to be made on first use, and a clone made its own from the next seed)."""
    import copy
    import pickle

    game = pyspiel.load_game(f"rulewright_{name}(chance=sampled,seed=7)")
    state = game.new_initial_state()
    copies = [
        state.clone(),
        copy.deepcopy(state),
        pickle.loads(pickle.dumps(state)),
        game.deserialize_state(state.serialize()),
    ]
    assert game.new_initial_state().engine.seed == 8  # a copy takes no fresh seed of its own
    rnd = random.Random(1)
    for _ in range(60):
        if state.is_terminal():
            break
        move = a_move(state, rnd.choice)
        for s in (state, *copies):
            play(s, move)
    for s in copies:
        assert s.history() == state.history()
        assert s.returns() == state.returns()
        assert s.engine.to_json() == state.engine.to_json()


def test_pettingzoo_refuses_a_wrong_action_and_changes_nothing() -> None:
    import numpy as np

    from runtime.adapters.pettingzoo import raw_env
    from runtime.engine import IllegalActionError

    e = raw_env(GAMES[0])
    e.reset(seed=1)
    before = e.state.to_json()
    legal = e.state.legal_actions()[0]
    for wrong in (float(legal), True, str(legal), [legal]):
        with pytest.raises(IllegalActionError, match="not an action id"):
            e.step(wrong)
    with pytest.raises(ValueError, match="step\\(\\) needs an action, not None"):
        e.step(None)
    with pytest.raises(ValueError, match="no agent 'nobody'"):
        e.observe("nobody")
    assert e.state.to_json() == before
    e.step(np.int64(legal))  # a numpy integer, as Discrete.sample gives, is an action
    assert type(e.state.history[-1]) is int


def test_pettingzoo_renders_the_board() -> None:
    """render(): the board as text ('ansi') and as pixels ('rgb_array'); `view_as` hides what that
    player may not see."""
    e = env("iron_curtain", render_mode="ansi", view_as="US")
    e.reset(seed=3)
    for _ in range(6):
        agent = e.agent_selection
        obs, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"]))
    text = e.render()
    assert isinstance(text, str) and "Ideology" in text
    state = e.unwrapped.state
    hand = _zone(state, "hand", 1)
    hidden = state.z.piles[hand]
    labels = state.INFO.type_labels[state.INFO.zones[hand].type_index]
    assert not any(labels[c] in text for c in hidden), "the USSR's hand reached the US's view"
    pytest.importorskip("resvg_py")
    pytest.importorskip("PIL")
    pixels = env("twilight_struggle", render_mode="rgb_array")
    pixels.reset(seed=1)
    picture = pixels.render()
    assert picture.ndim == 3 and picture.shape[2] == 3 and picture.shape[1] > 1000
    assert picture.dtype.name == "uint8" and picture.std() > 10  # a drawn board, not a blank page
    with pytest.raises(ValueError, match="render_mode"):
        env("iron_curtain", render_mode="movie")


def _zone(state: runtime.GameState, name: str, owner: int) -> int:
    return next(i for i, z in enumerate(state.INFO.zones) if z.name == name and z.owner == owner)


def test_a_spec_with_results_reports_its_returns() -> None:
    """Chip Raid (tests/specs/results): OpenSpiel's utility, bounds and returns, and PettingZoo's
    rewards, are the spec's results."""
    from pettingzoo.test import api_test

    from rulewright.spec_loader import load_spec
    from runtime.adapters.openspiel import MCTSAgent
    from tests.conftest import ROOT

    folder = ROOT / "tests" / "specs" / "results"
    game = pyspiel.load_game(openspiel.register(load_spec(folder)), {"seats": 4})
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-6.0, 6.0, 0.0)
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)
    state = game.new_initial_state()
    rnd = random.Random(3)
    while not state.is_terminal():
        state.apply_action(rnd.choice(state.legal_actions()))
    assert state.returns() == state.engine.returns() and len(state.returns()) == 4
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(load_spec(folder, {"seats": 3})), num_cycles=100)
    e = env(load_spec(folder, {"seats": 3}))
    e.reset(seed=5)
    rewards, ranks = {}, {}
    for agent in e.agent_iter():
        _, reward, terminated, truncated, info = e.last()
        if terminated:
            rewards[agent], ranks[agent] = reward, info["rank"]
        label = "2" if agent == "red" else "0"
        e.step(None if terminated or truncated else e.unwrapped.state.string_to_action(label))
    assert [rewards[a] for a in ("red", "blue", "green")] == e.unwrapped.state.returns() == [6.0, -6.0, 0.0]
    assert [ranks[a] for a in ("red", "blue", "green")] == [1, 3, 2]
    s = load_spec(folder, {"seats": 3}).new_initial_state(1)
    bot = MCTSAgent(seed=1, simulations=10)
    while not s.is_terminal():
        s.apply_action(bot.choose(s))
    assert sum(s.returns()) == 0


@pytest.mark.parametrize(
    ("kind", "utility", "total"),
    [
        ("general_sum", "GENERAL_SUM", None),
        ("identical", "IDENTICAL", None),
        ("constant_sum\n  sum: 4", "CONSTANT_SUM", 4.0),
    ],
)
def test_openspiel_utility_follows_the_results_kind(
    tmp_path: Path, kind: str, utility: str, total: float | None
) -> None:
    from compiler.driver import compile_spec
    from rulewright.spec_loader import import_package
    from runtime.game import Game

    name = f"kind_{utility.lower()}"
    (tmp_path / "game.yaml").write_text(
        f"game: {name}\nplayers: {{names: [red, blue]}}\nstate:\n  points: {{type: int, per: player}}\n"
        f"results:\n  returns: 'points[p]'\n  min: -3\n  max: 7\n  kind: {kind}\n"
        "phases:\n  - name: main\n    do: |\n"
        '      points[red] = choose number from 0 to 2 by red "points"\n      end game "done"\n',
        encoding="utf-8",
    )
    result = compile_spec(tmp_path)
    assert result.ok
    module = import_package(result.files, name)
    game = pyspiel.load_game(openspiel.register(Game(module.State, module.scenarios.SCENARIOS, None)))
    assert game.get_type().utility == getattr(pyspiel.GameType.Utility, utility)
    assert (game.min_utility(), game.max_utility()) == (-3.0, 7.0)
    if total is not None:
        assert game.utility_sum() == total
