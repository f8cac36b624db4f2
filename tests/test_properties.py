"""Engine contract, checked by Hypothesis-driven random play on every compiled game.

After every action (runtime.contract, the checks `rulewright verify` makes): a non-terminal
state has legal actions; a clone is independent of its original; the JSON round-trip is exact;
observations hide what they should; every invariant declared in the spec holds; the game ends
within a bound. The same seed and actions give the same final state in a fresh process.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import runtime
from runtime.contract import Checker, check_returns
from runtime.engine import TERMINAL, GameState
from tests.conftest import LONG_GAMES, ROOT

GAMES = runtime.available_games()
MAX_DECISIONS = 5_000
# Random games per game and test: the contract check costs a few milliseconds per decision, and a
# Twilight Struggle game has ~300 decisions against Iron Curtain's ~80. These draw the options too;
# `make test` also runs `rulewright verify --examples 20` on every game (the whole contract and
# every invariant after each decision, with the default options, under four strategies), so the
# games here are the ones verify does not play: other options, and many more invariant-only games.
# The players choose uniformly (`randoms(use_true_random=True)`, seeded by Hypothesis, so a run
# repeats): Hypothesis's own random leans to the first legal action, often `pass`, and a game of
# players who always pass can run thousands of decisions (Bang!) or never end.
EXAMPLES = {name: (2, 30) for name in LONG_GAMES} | {
    "twilight_struggle": (2, 20),
    # ~450 decisions a round under random play (it draws from the discard piles), 1 to 3 rounds
    "lost_cities": (2, 12),
}  # (full contract, invariants only)
DEFAULT_EXAMPLES = (10, 75)


def allowed_values(o: Any) -> list[Any]:
    """An option's allowed values (a bool's are off and on)."""
    return [False, True] if o.type == "bool" else list(o.choices or (o.default,))


def option_sets(name: str) -> st.SearchStrategy[dict[str, Any]]:
    """Every declared option drawn from its allowed values."""
    info = runtime.load_game(name).info
    return st.fixed_dictionaries({o.name: st.sampled_from(allowed_values(o)) for o in info.options})


def play(game: runtime.Game, seed: int, rnd: object, check_every_step: bool) -> GameState:
    """A random game, checked after every action: the invariants and liveness always, the whole
    engine contract (runtime.contract) with `check_every_step`."""
    import random

    assert isinstance(rnd, random.Random)
    state = game.new_initial_state(seed)
    checker = Checker(random.Random(seed), full=check_every_step)
    steps = 0
    while not state.is_terminal():
        state = checker.step(state, rnd.choice(state.legal_actions()))
        steps += 1
        assert steps <= MAX_DECISIONS, "the game did not end"
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    assert len(state.returns()) == game.num_players
    return state


@pytest.mark.parametrize("name", GAMES)
def test_random_play_keeps_the_contract(name: str) -> None:
    @settings(max_examples=EXAMPLES.get(name, DEFAULT_EXAMPLES)[0], deadline=None)
    @given(seed=st.integers(0, 2**31 - 1), rnd=st.randoms(use_true_random=True), options=option_sets(name))
    def run(seed: int, rnd: object, options: dict[str, Any]) -> None:
        play(runtime.load_game(name, options), seed, rnd, check_every_step=True)

    run()


@pytest.mark.parametrize("name", GAMES)
def test_many_games_end_with_invariants_intact(name: str) -> None:
    @settings(max_examples=EXAMPLES.get(name, DEFAULT_EXAMPLES)[1], deadline=None)
    @given(seed=st.integers(0, 2**31 - 1), rnd=st.randoms(use_true_random=True), options=option_sets(name))
    def run(seed: int, rnd: object, options: dict[str, Any]) -> None:
        state = play(runtime.load_game(name, options), seed, rnd, check_every_step=False)
        check_returns(state)  # within results.min..max, and summing to 0 unless results say otherwise

    run()


def option_values() -> list[tuple[str, str, Any]]:
    """(game, option, value) for every value of every option: each is played on its own below,
    so a value (a player count, say) cannot go untried by chance."""
    out: list[tuple[str, str, Any]] = []
    for name in GAMES:
        for o in runtime.load_game(name).info.options:
            for value in allowed_values(o):
                out.append((name, o.name, value))
    return out


@pytest.mark.parametrize(("name", "option", "value"), option_values())
def test_every_option_value_plays_to_the_end(name: str, option: str, value: Any) -> None:
    import random

    game = runtime.load_game(name, {option: value})
    for seed in (11, 12):
        state = play(game, seed, random.Random(seed), check_every_step=False)
        assert len(state.returns()) == game.num_players


@pytest.mark.parametrize("name", GAMES)
def test_illegal_action_raises_and_changes_nothing(name: str) -> None:
    game = runtime.load_game(name)
    state = game.new_initial_state(7)
    before = state.to_json()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(runtime.IllegalActionError) as err:
        state.apply_action(illegal)
    assert str(illegal) in str(err.value) and "legal:" in str(err.value)
    assert state.to_json() == before


@pytest.mark.parametrize("name", GAMES)
def test_terminal_state_takes_no_action(name: str) -> None:
    import random

    state = play(runtime.load_game(name), 3, random.Random(3), check_every_step=False)
    before = state.to_json()
    with pytest.raises(runtime.IllegalActionError):
        state.apply_action(0)
    assert state.to_json() == before


FRESH = """
import hashlib, json, sys, runtime
name, games = json.loads(sys.argv[1])
for seed, actions in games:
    state = runtime.load_game(name).new_initial_state(seed)
    for a in actions:
        state.apply_action(a)
    print(hashlib.sha256(state.to_json().encode()).hexdigest())
"""


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_and_actions_give_the_same_game_in_a_fresh_process(name: str) -> None:
    import hashlib
    import random

    games, here = [], []
    for seed in (1, 2):
        state = play(runtime.load_game(name), seed, random.Random(seed), check_every_step=False)
        here.append(hashlib.sha256(state.to_json().encode()).hexdigest())
        games.append([seed, state.history])
    # both games replayed by one fresh process (another hash seed than this one's): one start of
    # Python per game rather than per seed
    out = subprocess.run(
        [sys.executable, "-c", FRESH, json.dumps([name, games])],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONHASHSEED": "12", "PATH": ""},
        check=True,
    )
    assert out.stdout.split() == here


@pytest.mark.parametrize("name", GAMES)
def test_observation_hides_what_a_player_may_not_see(name: str) -> None:
    game = runtime.load_game(name)
    state = game.new_initial_state(5)
    info = game.info
    for player in range(game.num_players):
        obs = state.observation(player)
        json.dumps(obs)  # JSON-able
        zones = obs["zones"]
        assert isinstance(zones, dict)
        for z in info.zones:
            key = z.key(info.player_names)
            if not z.seen_by(player):
                assert zones[key] == {"count": len(state.z.piles[info.zones.index(z)])}
        if "decision" in obs:  # the player to act, or one still to answer a simultaneous decision
            sim = obs.get("simultaneous")
            waiting = sim["waiting"] if isinstance(sim, dict) else []
            assert state.current_player() == player or obs["player"] in waiting


def test_rule_errors_name_their_place_in_the_spec() -> None:
    if "iron_curtain" not in GAMES:
        pytest.skip("no iron_curtain")
    state = runtime.load_game("iron_curtain").new_initial_state(1)
    state.z.piles[state.INFO.zones.index(next(z for z in state.INFO.zones if z.name == "hand"))].clear()
    with pytest.raises(
        runtime.RuleError, match=r"no option \(the decision at specs/iron_curtain/game\.yaml:\d+\)"
    ):
        state.apply_action(state.string_to_action("US"))


@pytest.mark.parametrize("name", GAMES)
def test_state_from_another_build_of_the_rules_is_refused(name: str) -> None:
    game = runtime.load_game(name)
    data = json.loads(game.new_initial_state(1).to_json())
    data["digest"] = "0" * 64
    with pytest.raises(ValueError, match="another build of the rules"):
        game.state_from_json(json.dumps(data))


# Rule points random play cannot be relied on to reach, each with the scenario that runs it.
REACHED_BY_SCENARIO = {
    "trigger bury_you_no_card": "we_will_bury_you_trapped_us_plays_no_card.yaml",
}
RANDOM_GAMES = 150  # random games of Twilight Struggle: the Late War comes only to games that last 8 turns


def test_random_twilight_struggle_games_fire_every_event() -> None:
    """Random play reaches every card event, every cancellation and every trigger
    (the Deluxe optional cards included), but for the few points named in REACHED_BY_SCENARIO,
    which a scenario runs instead: seeded, so the set is stable."""
    import random

    from rulewright.coverage import RuleCoverage

    game = runtime.load_game("twilight_struggle", {"optional_cards": True})
    cov = RuleCoverage(game)

    def silent() -> list[str]:
        return [
            p.what
            for p, n in zip(cov.points, cov.counts(), strict=True)
            if n == 0
            and p.kind in ("effect", "trigger")
            and p.what != "card china_card: event"
            and p.what not in REACHED_BY_SCENARIO
        ]

    with cov:
        for seed in range(RANDOM_GAMES):
            rnd = random.Random(seed)
            state = game.new_initial_state(seed)
            while not state.is_terminal():
                state.apply_action(rnd.choice(state.legal_actions()))
            if not silent():  # every point has fired (by game 99 today): the games left change nothing
                break
    assert not silent(), f"never fired in {RANDOM_GAMES} random games: {silent()}"
    files = {sc["file"].split("/")[-1] for sc in game.scenarios}
    assert set(REACHED_BY_SCENARIO.values()) <= files
