"""OpenSpiel's own `games_sim_test` checks (open_spiel/python/tests/games_sim_test.py, its
`sim_game`, and `pyspiel.random_sim_test` with serialisation at each player count: pickling the game, its type and states, pyspiel's serialisation of game and state,
clones applying the same actions, chance outcomes summing to one, returns within the utility
bounds) on every bundled game with explicit chance, at every player count its `players`
parameter allows, and a game with simultaneous choices also as turn-based, as that suite runs
OpenSpiel's own games."""

from __future__ import annotations

import pytest

import runtime

pyspiel = pytest.importorskip("pyspiel", reason="install the rl extra: pip install -e '.[rl]'")
np = pytest.importorskip("numpy")

from open_spiel.python.tests import games_sim_test  # noqa: E402  (the module: its class is not ours to collect)

from runtime.adapters import openspiel  # noqa: E402

GAMES = runtime.available_games()


def setups() -> list[tuple[str, int | None, bool]]:
    """Each game, and each player count of a game whose players are an option; and whether it is
    the game's default setup."""
    out: list[tuple[str, int | None, bool]] = []
    for name in GAMES:
        game = runtime.load_game(name)
        count = game.info.player_count
        if isinstance(count, int):
            out.append((name, None, True))
            continue
        option = next(o for o in game.info.options if o.name == count)
        out += [(name, int(n), n == option.default) for n in option.choices]
    return out


@pytest.fixture(scope="module")
def suite() -> games_sim_test.GamesSimTest:
    return games_sim_test.GamesSimTest("test_breakthrough")  # (any of its tests: sim_game is what is used)


@pytest.mark.parametrize(("name", "players", "default"), setups())
def test_games_sim_test(
    suite: games_sim_test.GamesSimTest, name: str, players: int | None, default: bool
) -> None:
    np.random.seed(7)  # sim_game draws its actions from numpy's global generator
    params = {} if players is None else {"players": players}
    game = pyspiel.load_game(openspiel.register(name), params)
    if players is not None:
        assert game.num_players() == players
    assert game.get_type().chance_mode != pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    suite.sim_game(game)
    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        suite.sim_game(pyspiel.convert_to_turn_based(game))
    if not default:  # (each game's default setup: tests/test_adapters.py)
        pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_a_history_replayed_on_any_fresh_state_is_the_same_game(name: str) -> None:
    """Explicit chance: every fresh state is the same game, so a history (chance outcomes
    included) replayed on a fresh state of another Game object reaches the same state. (A game
    with simultaneous choices asks them in turn here: its history is then one action a step.)"""
    import random

    params = {"simultaneous": "in_turn"} if runtime.load_game(name).info.simultaneous else {}
    game = pyspiel.load_game(openspiel.register(name), params)
    state = game.new_initial_state()
    rnd = random.Random(11)
    for _ in range(80):
        if state.is_terminal():
            break
        state.apply_action(rnd.choice(state.legal_actions()))
    again = pyspiel.load_game(openspiel.register(name), params).new_initial_state()
    for action in state.history():
        again.apply_action(action)
    assert again.serialize() == state.serialize()
