"""The adapters for research tools: OpenSpiel's observers of every kind (public, one player's,
everything; with and without perfect recall; private parts alone), the `players` parameter, the room the adapters
leave the rules below a deep caller, and PettingZoo's max_cycles, state() and its test suites."""

from __future__ import annotations

import json
import random
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

import runtime
from runtime.contract import hidden_twin
from runtime.engine import FULL_VIEW, PUBLIC_VIEW, RuleError

pyspiel = pytest.importorskip("pyspiel", reason="install the rl extra: pip install -e '.[rl]'")
pytest.importorskip("pettingzoo")

from open_spiel.python.observation import make_observation  # noqa: E402

from runtime.adapters import openspiel  # noqa: E402
from runtime.adapters.pettingzoo import env, parallel_env, raw_env  # noqa: E402
from tests.conftest import ROOT  # noqa: E402
from tests.test_adapters import a_move, play  # noqa: E402

GAMES = runtime.available_games()
T = TypeVar("T")
PRIVATE = pyspiel.PrivateInfoType


def _observer(game: Any, private: Any, perfect_recall: bool = False) -> Any:
    return make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=perfect_recall, private_info=private)
    )


def _seen(observer: Any, state: Any, player: int) -> tuple[str, list[float]]:
    observer.set_from(state, player)
    return observer.string_from(state, player), list(observer.tensor)


@pytest.mark.parametrize("name", GAMES)
def test_observers_honour_private_info(name: str) -> None:
    """private_info NONE: what every player sees, so a twin that differs in any player's hidden
    things looks the same; SINGLE_PLAYER: the player's own view, which tells some twin apart (a
    game with hidden things); ALL_PLAYERS: everything."""
    game = pyspiel.load_game(f"rulewright_{name}(seed=2)")
    kinds = {
        (private, recall): _observer(game, private, recall)
        for private in (PRIVATE.NONE, PRIVATE.SINGLE_PLAYER, PRIVATE.ALL_PLAYERS)
        for recall in (False, True)
    }
    private_part = make_observation(game, pyspiel.IIGObservationType(public_info=False, perfect_recall=False))
    sizes = {kind: len(o.tensor) for kind, o in kinds.items()}
    assert sizes[PRIVATE.NONE, True] == game.information_state_tensor_size() > game.observation_tensor_size()
    assert sizes[PRIVATE.ALL_PLAYERS, False] == game.observation_tensor_size()
    hidden = game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    state = game.new_initial_state()
    rnd = random.Random(0)
    told_apart = {PRIVATE.SINGLE_PLAYER: False, PRIVATE.ALL_PLAYERS: False}  # by some twin
    n = game.num_players()
    checked = 0
    for _ in range(500):  # 4 decisions of the players, and the chance nodes on the way
        if state.is_terminal() or checked == 4:
            break
        if state.is_chance_node():
            state.apply_action(rnd.choice(state.legal_actions()))
            continue
        checked += 1
        seen = {(kind, p): _seen(o, state, p) for kind, o in kinds.items() for p in range(n)}
        for q in range(n):
            twin = openspiel.RulewrightState(game, hidden_twin(state.engine, q, rnd))
            for p in range(n):
                for recall in (False, True):
                    public = (PRIVATE.NONE, recall)
                    assert _seen(kinds[public], twin, p) == seen[public, p]
                    mine = (PRIVATE.SINGLE_PLAYER, recall)
                    if p == q:
                        assert _seen(kinds[mine], twin, p) == seen[mine, p]
                        assert private_part.string_from(twin, p) == private_part.string_from(state, p)
                    elif twin.engine.observation(p) != state.engine.observation(p):  # p's own things differ
                        assert _seen(kinds[mine], twin, p) != seen[mine, p]
                        told_apart[PRIVATE.SINGLE_PLAYER] = True
                everything = (PRIVATE.ALL_PLAYERS, False)
                if _seen(kinds[everything], twin, p) != seen[everything, p]:
                    told_apart[PRIVATE.ALL_PLAYERS] = True
        play(state, a_move(state, rnd.choice))
    assert hidden or not told_apart[PRIVATE.ALL_PLAYERS]
    if name in ("lost_cities", "hanabi", "bang"):  # hands held from the start
        assert told_apart[PRIVATE.SINGLE_PLAYER] and told_apart[PRIVATE.ALL_PLAYERS]


def test_the_public_view_hides_every_hand_and_the_full_view_shows_them() -> None:
    state = runtime.load_game("lost_cities").new_initial_state(1)
    public, full, mine = (state.observation(0, view) for view in (PUBLIC_VIEW, FULL_VIEW, "player"))
    assert public["zones"]["hand[North]"] == public["zones"]["hand[South]"] == {"count": 8}  # type: ignore[index]
    assert len(mine["zones"]["hand[North]"]) == 8 and mine["zones"]["hand[South]"] == {"count": 8}  # type: ignore[index,arg-type]
    assert all(isinstance(full["zones"][h], list) for h in ("hand[North]", "hand[South]", "deck"))  # type: ignore[index]
    assert "decision" not in public and public["player"] is None and public["view"] == PUBLIC_VIEW
    assert list(full["decisions"]) == ["North"]  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="no view 'nobody'"):
        state.observation(0, "nobody")
    game = pyspiel.load_game("rulewright_lost_cities(chance=sampled,seed=1)")
    private = make_observation(game, pyspiel.IIGObservationType(public_info=False, perfect_recall=False))
    s = game.new_initial_state()
    assert private.tensor.size == 0  # a string only: OpenSpiel's private observation
    assert json.loads(private.string_from(s, 0)) == {
        "zones": {"hand[North]": mine["zones"]["hand[North]"]},  # type: ignore[index]
        "variables": {},
        "decision": mine["decision"],
    }
    assert json.loads(private.string_from(s, 1)) == {
        "zones": {"hand[South]": state.observation(1)["zones"]["hand[South]"]},  # type: ignore[index]
        "variables": {},
    }


def test_the_information_state_tensor_counts_the_actions_seen() -> None:
    """The information-state tensor: the observation, the observer, and each player's count of
    each action id, as far as the observer was told (another player's secret choice is nothing)."""
    game = pyspiel.load_game("rulewright_lost_cities(chance=sampled)")  # (no chance nodes to step over)
    assert game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    obs_size, actions = game.observation_tensor_size(), game.num_distinct_actions()
    assert game.information_state_tensor_size() == obs_size + 2 * (1 + actions)
    taken = []
    for _ in range(3):
        taken.append((state.current_player(), state.legal_actions()[0]))
        state.apply_action(taken[-1][1])
    for p in range(2):
        tensor = state.information_state_tensor(p)
        assert tensor[:obs_size] == state.observation_tensor(p)
        assert tensor[obs_size : obs_size + 2] == [float(p == 0), float(p == 1)]
        counts = tensor[obs_size + 2 :]
        assert sum(counts) == 3
        assert all(counts[who * actions + a] >= 1 for who, a in taken)


def test_players_names_the_player_count_option() -> None:
    name = "rulewright_guerra_fronteriza"
    option = runtime.load_game("guerra_fronteriza").info.player_count
    assert isinstance(option, str)
    game = pyspiel.load_game(name, {"players": 3})
    assert game.num_players() == 3
    assert game.get_parameters()["players"] == game.get_parameters()[option] == 3
    assert pyspiel.load_game(name, {option: 3}).get_parameters()["players"] == 3
    assert pyspiel.load_game(f"{name}(players=4)").num_players() == 4
    with pytest.raises(ValueError, match="both set the player count, and differ"):
        pyspiel.load_game(name, {"players": 4, option: 3})
    assert "players" not in pyspiel.load_game("rulewright_lost_cities").get_parameters()  # a fixed count


DEEP_RULES = """\
game: deep_rules
players: {names: [ann, bob]}
state:
  total: int
functions:
  steps:
    params: {n: int}
    returns: int
    body: "if n <= 0 then 0 else 1 + steps(n - 1)"
phases:
  - name: play
    do: |
      total = choose number from 0 to 2 by ann "how many"
      total = total + steps(150)
      end game draw
"""


def _at_depth(depth: int, run: Callable[[], T]) -> T:
    """`run()`, called `depth` frames deep (as a recursive search algorithm would)."""
    here, frame = 0, sys._getframe()
    while frame is not None:
        here, frame = here + 1, frame.f_back
    return run() if here >= depth else _at_depth(depth, run)


def test_a_deep_caller_leaves_the_rules_room(tmp_path: Path) -> None:
    """Rules that recurse 150 calls deep, run from a caller already 950 frames deep: the engine
    alone runs out of stack and says the caller left it no room (it does not blame a rule); the
    adapters make room first. A rule that calls itself without end is still blamed on the rule."""
    from compiler.driver import compile_spec
    from rulewright.spec_loader import import_package, load_spec
    from runtime.game import Game

    (tmp_path / "game.yaml").write_text(DEEP_RULES, encoding="utf-8")
    result = compile_spec(tmp_path)
    assert result.ok
    module = import_package(result.files, "deep_rules")
    deep = Game(module.State, module.scenarios.SCENARIOS, None)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        engine = deep.new_initial_state(0)
        with pytest.raises(RuleError, match="their caller was already about .* sys.setrecursionlimit"):
            _at_depth(950, lambda: engine.apply_action(engine.legal_actions()[0]))
        game = pyspiel.load_game(openspiel.register(deep))

        def play_deep() -> list[float]:
            state = game.new_initial_state()
            state.apply_action(state.legal_actions()[0])
            return list(state.returns())

        assert _at_depth(950, play_deep) == [0.0, 0.0]
        e = raw_env(deep)
        sys.setrecursionlimit(1000)
        _at_depth(950, lambda: e.reset(seed=1) or e.step(e.game_state.legal_actions()[0]))
        assert e.game_state.is_terminal()
        endless = load_spec(ROOT / "tests" / "hostile" / "specs" / "bound-function-recursion-never-stops")
        endless_game = pyspiel.load_game(openspiel.register(endless))
        sys.setrecursionlimit(1000)
        with pytest.raises(RuleError, match="calls itself without end"):
            _at_depth(950, endless_game.new_initial_state().current_player)
    finally:
        sys.setrecursionlimit(limit)


def test_pettingzoo_max_cycles_truncates_every_agent() -> None:
    e = env("iron_curtain", max_cycles=3)
    e.reset(seed=1)
    acted = {a: 0 for a in e.possible_agents}
    truncated = set()
    for agent in e.agent_iter():
        obs, _, terminated, truncated_now, _ = e.last()
        assert not terminated
        if truncated_now:
            truncated.add(agent)
            e.step(None)
            continue
        acted[agent] += 1
        e.step(e.action_space(agent).sample(obs["action_mask"]))
    assert sum(acted.values()) == 3 * len(e.possible_agents) and truncated == set(e.possible_agents)
    p = parallel_env("iron_curtain", max_cycles=2)
    obs, _ = p.reset(seed=1)
    steps = 0
    while p.agents:
        actions = {a: p.action_space(a).sample(obs[a]["action_mask"]) for a in p.agents}
        obs, _, terminations, truncations, _ = p.step(actions)
        steps += 1
    assert steps == 2 and all(truncations.values()) and not any(terminations.values())
    with pytest.raises(ValueError, match="max_cycles 0"):
        env("iron_curtain", max_cycles=0)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_state_and_test_suites(name: str) -> None:
    """state() is the full view's tensor, in state_space; PettingZoo's parallel_api_test,
    seed_test and the state-space checks of its state_test pass (api_test runs in
    test_adapters.py, render_test below; state_test's own play samples actions without a mask)."""
    import importlib

    from pettingzoo.test import parallel_api_test, seed_test

    pz_state = importlib.import_module("pettingzoo.test.state_test")  # (its functions are named test_*)
    e = env(name)
    e.reset(seed=3)
    state = e.unwrapped.state()
    assert (
        state in e.unwrapped.state_space
        and state.shape == e.observation_space(e.agents[0])["observation"].shape
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        parallel_api_test(parallel_env(name), num_cycles=30)
        seed_test(lambda: env(name), num_cycles=15)
        pz_state.test_state_space(e.unwrapped)
        pz_state.test_parallel_env(parallel_env(name))


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_render_test(name: str) -> None:
    """PettingZoo's render_test: in the text modes for every game, in every mode for the spec
    `features` (a picture of a large board is slow to draw; test_adapters.py draws one)."""
    from pettingzoo.test import render_test

    from rulewright.spec_loader import load_spec

    def text_modes(render_mode: str | None = None) -> Any:
        e = env(name, render_mode=render_mode)
        e.unwrapped.metadata = dict(e.unwrapped.metadata, render_modes=["ansi", "human"])
        return e

    render_test(text_modes)
    if name == GAMES[0]:
        pytest.importorskip("resvg_py")
        pytest.importorskip("PIL")
        features = load_spec(ROOT / "tests" / "specs" / "features")
        render_test(lambda render_mode=None: env(features, render_mode=render_mode))


def test_pettingzoo_suites_on_a_spec_outside_specs() -> None:
    """The design-test spec `features` (2-4 players, secret choices): parallel_api_test,
    seed_test and state() with four players, and OpenSpiel's `players` for its seat option."""
    from pettingzoo.test import parallel_api_test, seed_test

    from rulewright.spec_loader import load_spec

    features = load_spec(ROOT / "tests" / "specs" / "features", {"seats": 4})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        parallel_api_test(parallel_env(features), num_cycles=30)
        seed_test(lambda: env(features), num_cycles=15)
    e = env(features)
    e.reset(seed=1)
    assert len(e.agents) == 4 and e.unwrapped.state() in e.unwrapped.state_space
    game = pyspiel.load_game(openspiel.register(features), {"players": 3})
    assert game.num_players() == 3 and game.get_parameters()["seats"] == 3
