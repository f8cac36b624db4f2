"""Our Goofspiel is OpenSpiel's own `goofspiel` (num_cards=N, points_order=random,
returns_type=win_loss, imp_info=false): stepped in lockstep, the two games offer the same bids, show
each player the same information and end with the same returns, for every prize order and every bid
sequence of the 4-card game (a depth-first walk of both trees together) and for a sample of 13-card
games. OpenSpiel turns each prize up at a chance node: it is given the prize our game turned up.

The information compared, for each player at each node, is every field of OpenSpiel's
information_state_string (the prizes turned up so far in order, both hands, who won each turn, the
points) and the current prize of its observation_string, each read back from our observation. Our
observation also lists the cards bid, in order, which OpenSpiel's string leaves out although its
game (perfect information) shows them too.

Then the same through our OpenSpiel adapter (SIMULTANEOUS dynamics, as pyspiel's game), and
PettingZoo's parallel env taking both bids of a turn in one step."""

from __future__ import annotations

import functools
import itertools
import random
from typing import Any

import pytest

from runtime import load_game
from runtime.engine import GameState

pyspiel = pytest.importorskip("pyspiel")

RANKS = {"Ace": 1, "Jack": 11, "Queen": 12, "King": 13} | {str(n): n for n in range(2, 11)}
TIE = -3  # OpenSpiel's winner of a turn of equal bids
DIAMOND_0 = 26  # the Ace of Diamonds' index among the cards (after 13 spades and 13 hearts)


@functools.cache
def number(label: str) -> int:
    """A card's number from its name: "Queen of Hearts" -> 12."""
    return RANKS[label.split(" of ")[0]]


def openspiel_game(cards: int) -> Any:
    return pyspiel.load_game(
        "goofspiel",
        {"num_cards": cards, "points_order": "random", "returns_type": "win_loss", "imp_info": False},
    )


def our_information(state: GameState, player: int) -> dict[str, Any]:
    """What `player` sees of our game, in OpenSpiel's fields."""
    obs = state.observation(player)
    zones: dict[str, Any] = obs["zones"]  # type: ignore[assignment]
    assert zones["prize_deck"] == {"count": len(zones["hand[North]"]) - len(zones["prize"])}, (
        "the deck is hidden"
    )
    bids = [[number(c) for c in zones[f"bids[{p}]"]] for p in ("North", "South")]
    won = [[number(c) for c in zones[f"won[{p}]"]] for p in ("North", "South")]
    discarded = [number(c) for c in zones["discard"]]
    prizes, winners = [], []
    for n, s in zip(*bids, strict=True):  # each turn's prize, from the pile it went to
        w = 0 if n > s else 1 if s > n else TIE
        prizes.append((won[w] if w != TIE else discarded).pop(0))
        winners.append(w)
    assert not won[0] and not won[1] and not discarded
    current = [number(c) for c in zones["prize"]]
    return {
        "sequence": prizes + current,
        "hands": [sorted(number(c) for c in zones[f"hand[{p}]"]) for p in ("North", "South")],
        "winners": winners,
        "points": [sum(number(c) for c in zones[f"won[{p}]"]) for p in ("North", "South")],
        "current": current[0] if current else None,
    }


def their_information(state: Any, player: int) -> dict[str, Any]:
    """What `player` sees of OpenSpiel's game, read from its information state and observation."""
    finished = state.is_terminal() or state.is_chance_node()
    # between turns OpenSpiel's observation keeps showing the last prize; ours has none up
    current = None if finished else state.observation_string(player).split("\n", 1)[0]
    return parsed(state.information_state_string(player), current)


@functools.cache
def parsed(information: str, current: str | None) -> dict[str, Any]:
    lines = dict(line.split(":", 1) for line in information.splitlines())
    numbers = {k: [int(x) for x in v.split()] for k, v in lines.items()}
    return {
        "sequence": numbers["Point card sequence"],
        "hands": [numbers["P0 hand"], numbers["P1 hand"]],
        "winners": numbers["Win sequence"],
        "points": numbers["Points"],
        "current": None if current is None else int(current.split(":")[1]),
    }


def bids(state: GameState) -> dict[int, str]:
    """Our legal bids: OpenSpiel's action (the card's number - 1) -> our action's label."""
    labels = [state.action_to_string(a) for a in state.legal_actions()]
    return {number(label) - 1: label for label in labels}


def check_same(ours: GameState, theirs: Any) -> None:
    """The same information for each player, once OpenSpiel's chance node has turned up the prize
    our game turned up (the same draw: one of the prizes left, each as likely)."""
    seen = [our_information(ours, p) for p in (0, 1)]
    if theirs.is_chance_node():
        prize = seen[0]["current"] - 1
        assert prize in dict(theirs.chance_outcomes())
        theirs.apply_action(prize)
    for p in (0, 1):
        assert seen[p] == their_information(theirs, p), f"player {p}:\n{theirs}"


def bid(ours: GameState, theirs: Any, north: int, south: int, *, watch: bool = False) -> None:
    """Both bid (OpenSpiel's actions). Our engine takes the answers to a simultaneous choice one at
    a time, North's first: with `watch`, check that South learns nothing of it before the reveal."""
    seen = len(ours.player_log(1)) if watch else 0
    ours.apply_action(ours.string_to_action(bids(ours)[north]))
    assert ours.current_player() == 1
    if watch:
        assert our_information(ours, 1) == their_information(theirs, 1), "North's bid shows before the reveal"
        assert not any("Spades" in line for line in ours.player_log(1)[seen:]), ours.player_log(1)[seen:]
    ours.apply_action(ours.string_to_action(bids(ours)[south]))
    theirs.apply_actions([north, south])


def check_node(ours: GameState, theirs: Any) -> bool:
    """Both at the same node: the same information, and the same bids or the same end."""
    check_same(ours, theirs)
    if theirs.is_terminal():
        assert ours.is_terminal()
        assert ours.returns() == theirs.returns()
        return False
    assert not ours.is_terminal() and ours.current_player() == 0
    assert theirs.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    assert sorted(bids(ours)) == theirs.legal_actions(0)
    north_view = ours.clone()  # South's bids are read at South's turn
    north_view.apply_action(north_view.legal_actions()[0])
    assert sorted(bids(north_view)) == theirs.legal_actions(1)
    return True


def walk(ours: GameState, theirs: Any) -> int:
    """Every bid sequence from here, both games together; the number of games played out."""
    if not check_node(ours, theirs):
        return 1
    played = 0
    for north in theirs.legal_actions(0):
        for south in theirs.legal_actions(1):
            o, t = ours.clone(), theirs.clone()
            bid(o, t, north, south)
            played += walk(o, t)
    return played


def test_every_prize_order_and_bid_sequence_of_four_cards() -> None:
    game, theirs = load_game("goofspiel", {"cards": 4}), openspiel_game(4)
    orders = 0
    for order in itertools.permutations(range(4)):
        # the shuffle lists the prize deck bottom to top: the last is turned up first
        ours = game.new_initial_state(0, forced_shuffles=[[DIAMOND_0 + i for i in order]])
        assert our_information(ours, 0)["current"] == order[-1] + 1
        assert walk(ours, theirs.new_initial_state()) == 16 * 9 * 4  # the last bids are forced
        orders += 1
    assert orders == 24


@pytest.mark.parametrize("seed", range(30))
def test_random_thirteen_card_games(seed: int) -> None:
    game, theirs_game = load_game("goofspiel"), openspiel_game(13)
    rng = random.Random(seed)
    ours, theirs = game.new_initial_state(seed), theirs_game.new_initial_state()
    while check_node(ours, theirs):
        bid(
            ours, theirs, rng.choice(theirs.legal_actions(0)), rng.choice(theirs.legal_actions(1)), watch=True
        )
    assert theirs.is_terminal() and ours.is_terminal()


# ---- through our OpenSpiel adapter: a SIMULTANEOUS-dynamics game, as pyspiel's goofspiel is ----


def adapter_game(cards: int) -> Any:
    from runtime.adapters import openspiel

    return pyspiel.load_game(openspiel.register("goofspiel"), {"cards": cards})


def adapter_bids(state: Any, player: int) -> dict[int, int]:
    """The adapter's legal actions of `player`: OpenSpiel's bid action -> the adapter's action."""
    return {number(state.action_to_string(player, a)) - 1: a for a in state.legal_actions(player)}


def adapter_walk(ours: Any, theirs: Any, rng: random.Random | None = None) -> int:
    """Both pyspiel states step together: the same kind of node, the same prizes with the same
    probabilities at each chance node, the same legal actions of each player, the same returns;
    every prize and joint bid from here (or one at random with `rng`)."""
    if theirs.is_chance_node():
        outcomes = theirs.chance_outcomes()
        if len(outcomes) == 1 and not ours.is_chance_node():  # the last prize: ours turns it up unasked
            theirs.apply_action(outcomes[0][0])
            return adapter_walk(ours, theirs, rng)
        assert ours.current_player() == pyspiel.PlayerId.CHANCE
        mine = ours.chance_outcomes()
        assert [o - DIAMOND_0 for o, _ in mine] == [o for o, _ in outcomes]
        assert [p for _, p in mine] == pytest.approx([p for _, p in outcomes])
        played = 0
        for prize, _ in [rng.choice(outcomes)] if rng else outcomes:
            o, t = ours.clone(), theirs.clone()
            o.apply_action(DIAMOND_0 + prize)
            t.apply_action(prize)
            played += adapter_walk(o, t, rng)
        return played
    if theirs.is_terminal():
        assert ours.is_terminal() and ours.returns() == theirs.returns()
        return 1
    assert ours.current_player() == theirs.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    legal = [adapter_bids(ours, p) for p in (0, 1)]
    assert [sorted(legal[p]) for p in (0, 1)] == [theirs.legal_actions(p) for p in (0, 1)]
    pairs = [(n, s) for n in legal[0] for s in legal[1]]
    played = 0
    for n, s in [rng.choice(pairs)] if rng else pairs:
        o, t = ours.clone(), theirs.clone()
        o.apply_actions([legal[0][n], legal[1][s]])
        t.apply_actions([n, s])
        played += adapter_walk(o, t, rng)
    return played


def test_the_adapter_game_is_openspiels_goofspiel() -> None:
    ours, theirs = adapter_game(3), openspiel_game(3)
    assert ours.get_type().dynamics == theirs.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert (
        ours.get_type().chance_mode
        == theirs.get_type().chance_mode
        == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    )
    assert ours.get_type().utility == theirs.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (ours.num_players(), ours.min_utility(), ours.max_utility()) == (2, -1.0, 1.0)
    assert (theirs.num_players(), theirs.min_utility(), theirs.max_utility()) == (2, -1.0, 1.0)
    # every prize order (3!), then every bid: 9 pairs, then 4, the last bids forced
    assert adapter_walk(ours.new_initial_state(), theirs.new_initial_state()) == 6 * 9 * 4
    ours13, theirs13 = adapter_game(13), openspiel_game(13)
    for seed in range(10):
        assert (
            adapter_walk(ours13.new_initial_state(), theirs13.new_initial_state(), random.Random(seed)) == 1
        )


def test_pettingzoo_parallel_env_bids_at_once() -> None:
    """PettingZoo's parallel env: every step is one turn's two bids (12 of 13 cards: the last is
    forced), and the rewards at the end are OpenSpiel's win_loss returns."""
    pytest.importorskip("pettingzoo")
    from runtime.adapters.pettingzoo import parallel_env

    e = parallel_env("goofspiel")
    obs, infos = e.reset(seed=4)
    steps, rewards = 0, {}
    while e.agents:
        assert all(infos[a]["acting"] == ["North", "South"] for a in e.agents)
        obs, rewards, _, _, infos = e.step(
            {a: e.action_space(a).sample(obs[a]["action_mask"]) for a in e.agents}
        )
        steps += 1
    assert steps == 12
    assert sorted(rewards.values()) in ([-1, 1], [0, 0])
