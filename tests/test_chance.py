"""Explicit chance (runtime/chance.py): every roll, random pick and draw from a shuffled pile as a
chance node with exact probabilities; lazy shuffles; states that save, load, clone and replay
as one game; resampling an information state (runtime/resample.py)."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

import runtime
from rulewright.spec_loader import load_spec
from runtime.contract import hidden_twin
from runtime.engine import CHANCE, GameState, IllegalActionError
from runtime.game import Game
from runtime.resample import Plan, resample, told
from runtime.saved import SavedStateError
from tests.conftest import LONG_GAMES

ROOT = Path(__file__).resolve().parent.parent
GAMES = runtime.available_games()


@pytest.fixture(scope="module")
def sampler() -> Game:
    return load_spec(ROOT / "tests" / "specs" / "chance")


def random_history(game: Game, seed: int, most: int) -> tuple[GameState, list[int]]:
    rnd = random.Random(seed)
    s = game.new_initial_state(chance="explicit")
    history: list[int] = []
    while not s.is_terminal() and len(history) < most:
        a = rnd.choice(s.legal_actions())
        s.apply_action(a)
        history.append(a)
    return s, history


@pytest.mark.parametrize("name", GAMES)
def test_explicit_chance_saves_clones_and_replays_as_one_game(name: str) -> None:
    """A random game with explicit chance: at every tenth step the state saves and loads to the
    same JSON and the same node, a clone that moves on leaves it untouched, and each player's view
    and log are those of a twin that differs in what the player cannot see; at the end its
    history replayed on a fresh initial state is the same game, byte for byte."""
    game = runtime.load_game(name)
    rnd = random.Random(3)
    s = game.new_initial_state(chance="explicit")
    history: list[int] = []
    chance_nodes = 0
    while not s.is_terminal() and len(history) < (150 if name in LONG_GAMES else 400):
        legal = s.legal_actions()
        if s.is_chance_node():
            chance_nodes += 1
            assert s.current_player() == CHANCE
            outcomes = s.chance_outcomes()
            assert [o for o, _ in outcomes] == legal and abs(sum(p for _, p in outcomes) - 1) < 1e-12
            assert all(0 <= o < game.info.max_chance_outcomes for o in legal)
        a = rnd.choice(legal)
        if len(history) % 10 == 0:
            text = s.to_json()
            back = game.state_from_json(text)
            assert back.to_json() == text and back.legal_actions() == legal
            other = s.clone()
            other.apply_action(a)
            assert s.to_json() == text
            for p in range(s.num_players):  # what a player cannot see stays out of their view
                twin = hidden_twin(s, p, rnd)
                assert twin.observation_string(p) == s.observation_string(p)
                assert twin.player_log(p) == s.player_log(p)
        s.apply_action(a)
        history.append(a)
    assert chance_nodes > 0 or not game.info.chance
    again = game.new_initial_state(chance="explicit")
    for a in history:
        again.apply_action(a)
    assert again.to_json() == s.to_json()


def test_a_lazy_shuffle_draws_each_kind_by_its_copies(sampler: Game) -> None:
    s = sampler.new_initial_state(chance="explicit")
    assert s.is_chance_node() and s.current_player() == CHANCE
    # two copies of "two" (ids 0 and 1: the outcome is the kind's first copy), one three, one five
    assert s.chance_outcomes() == [(0, 0.5), (2, 0.25), (3, 0.25)]
    assert [s.action_to_string(a) for a in s.legal_actions()] == ["Draw two", "Draw three", "Draw five"]
    assert "chance (a draw) to act" in str(s)
    assert sampler.info.max_chance_outcomes == 4


def exact(game: Game, policy: str) -> dict[int, Fraction]:
    """The distribution of Alice's return when she plays `policy`, over the explicit tree."""
    answers = {"roll": [False], "draw": [True, False], "under": [True, True]}[policy]
    out: Counter[int] = Counter()

    def walk(s: GameState, p: Fraction, asked: int) -> None:
        if s.is_terminal():
            out[int(s.returns()[0])] += p  # type: ignore[assignment]
            return
        if s.is_chance_node():
            c = s.chance
            assert c is not None and c.node is not None
            for o, w in c.node.exact():
                t = s.clone()
                t.apply_action(o)
                walk(t, p * w, asked)
            return
        t = s.clone()
        t.apply_action(t.string_to_action("yes" if answers[asked] else "no"))
        walk(t, p, asked + 1)

    walk(sampler_state(game), Fraction(1), 0)
    return dict(out)


def sampler_state(game: Game) -> GameState:
    return game.new_initial_state(chance="explicit")


def oracle(policy: str) -> dict[int, Fraction]:
    """The same distribution counted by hand: every order of the four cards (two alike), every
    face of the die and every pick."""
    out: Counter[int] = Counter()
    orders = list(itertools.permutations([2, 2, 3, 5]))  # top first
    for order in orders:
        for face in (1, 2, 3):
            for pick in (1, 4, 4):
                if policy == "roll":
                    total = order[0] + face + pick
                elif policy == "draw":
                    total = order[0] + order[1] + pick
                else:  # the first card goes under the deck: the next one is drawn
                    total = order[1] + pick
                out[total] += Fraction(1, len(orders) * 3 * 3)  # type: ignore[assignment]
    return dict(out)


@pytest.mark.parametrize("policy", ["roll", "draw", "under"])
def test_the_chance_tree_has_the_exact_probabilities(sampler: Game, policy: str) -> None:
    assert exact(sampler, policy) == oracle(policy)


def test_a_chance_outcome_not_offered_is_refused_and_changes_nothing(sampler: Game) -> None:
    s = sampler.new_initial_state(chance="explicit")
    before = s.to_json()
    for bad in (1, 4, -1, 99):
        with pytest.raises(IllegalActionError, match=f"chance outcome {bad} is not one of"):
            s.apply_action(bad)
        assert s.to_json() == before


def test_sampled_chance_is_the_default_and_forced_chance_stays_sampled(sampler: Game) -> None:
    assert sampler.new_initial_state(4).chance is None
    with pytest.raises(ValueError, match="chance must be one of sampled, explicit"):
        sampler.new_initial_state(chance="both")
    with pytest.raises(ValueError, match="play with sampled chance"):
        sampler.new_initial_state(chance="explicit", forced_rolls=[1])


@pytest.mark.parametrize(
    ("outcomes", "edit", "message"),
    [
        ([0], lambda c: c.update(extra=1), "'chance.extra' is not a field"),
        (
            [0],
            lambda c: c.update(unsettled=[[0, 99]]),
            r"'chance.unsettled\[0\]\[1\]' must be an integer from 2 to 3",
        ),
        ([0], lambda c: c.update(unsettled=[[999, 2]]), r"'chance.unsettled\[0\]\[0\]'"),
        ([0], lambda c: c.update(unsettled="x"), "'chance.unsettled' must be a list"),
        ([0], lambda c: c.update(move=[-1, []]), r"'chance.move\[0\]' is -1 \(the setup\) exactly when"),
        ([], lambda c: c.update(move=[-1, [7]]), "does not replay"),
        ([], lambda c: c.update(move=[-1, ["a"]]), r"'chance.move\[1\]\[0\]' must be an integer"),
        ([], lambda c: c.update(move=[-1, [0, 0]]), "it is not in flight"),
    ],
)
def test_a_tampered_chance_field_is_refused(
    sampler: Game, outcomes: list[int], edit: object, message: str
) -> None:
    s = sampler.new_initial_state(chance="explicit")
    for o in outcomes:
        s.apply_action(o)
    data = json.loads(s.to_json())
    expected = {"unsettled": [[0, 3]]} if outcomes else {"unsettled": [], "move": [-1, []]}
    assert data["chance"] == expected
    edit(data["chance"])  # type: ignore[operator]
    with pytest.raises(SavedStateError, match=message):
        sampler.state_from_json(json.dumps(data))


def resampled(name: str, outcomes: list[int], player: int, samples: int) -> Counter[str]:
    """What another player holds in `samples` resamplings of `player`'s information state after
    the chance outcomes `outcomes` of the setup; each sample tells `player` what the game did."""
    game = runtime.load_game(name)
    initial = game.new_initial_state(chance="explicit")
    real = initial.clone()
    for o in outcomes:
        real.apply_action(o)
    history = [(CHANCE, o) for o in outcomes]
    plan = Plan.of(initial, history, player)
    rnd = random.Random(5)
    other: Counter[str] = Counter()
    for _ in range(samples):
        r = resample(initial, history, player, rnd, plan)
        assert r is not None and told(r, player, 0) == told(real, player, 0)
        obs = r.observation(1 - player, "full")
        other[json.dumps([obs["zones"], obs["variables"]])] += 1
    return other


def test_resampling_keeps_what_the_player_saw_and_redraws_the_rest() -> None:
    """Kuhn poker after the deal, from Alice's view: her Jack stays, Bob holds the Queen or the
    King, each about half the time. Liar's Dice after the roll: Alice's die stays, Bob's (an
    owner-only variable set by a random pick) takes each of the six faces."""
    for name in ("kuhn_poker", "liars_dice"):
        if name not in GAMES:
            pytest.skip(f"{name} is not built")
    bobs = resampled("kuhn_poker", [0, 2], 0, 120)
    assert len(bobs) == 2 and min(bobs.values()) > 35
    dice = resampled("liars_dice", [3, 1], 0, 120)
    assert len(dice) == 6
