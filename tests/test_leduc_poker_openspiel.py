"""Our Leduc poker is OpenSpiel's own `leduc_poker` (players=2, the default parameters): both games
are stepped in lockstep, ours through our OpenSpiel adapter (`rulewright_leduc_poker`, explicit
chance: its default), theirs through pyspiel. The walk takes every deal of the two
private cards (30), one of the four public cards that may follow each (a pair for 10 of them), and
every betting sequence: 4 first rounds ending in a fold and 5 going on to the public card, then 9
second rounds; 1,470 hands. (The whole tree, four times as many hands past the first round, costs
four times the CPU and finds nothing more.)

At each chance node both are chance nodes offering the same outcomes (a card's id, 0 to 5: Jack,
Jack, Queen, Queen, King, King, spades first) with the same probabilities; at each decision the
same player acts with the same legal actions (mapped by label: Fold, Call, Raise; OpenSpiel's ids
are 0, 1, 2, ours our own); at the end both give the same returns. The information states are
grouped the same way: for each player, two decision nodes have equal information_state_string in
our game exactly when they have in OpenSpiel's (a bijection between the strings seen). Not at the
end, where our showdown shows the cards (docs/games/leduc_poker.md, ruling 4), nor at a chance
node, where our engine shows the state before the move in flight (nobody acts there; see
tests/test_kuhn_poker_openspiel.py). The game's constants (players, utilities, zero-sum) are
compared too."""

from __future__ import annotations

from typing import Any

import pytest

from tests.lockstep import Seen, assert_grouped_alike, choices, ended_alike, play_both, same_chance

pyspiel = pytest.importorskip("pyspiel")


def adapter_game() -> Any:
    from runtime.adapters import openspiel

    return pyspiel.load_game(openspiel.register("leduc_poker"))


def walk(ours: Any, theirs: Any, seen: Seen) -> int:
    """Every action and chance outcome from here (one of the public card's), both games together;
    the number of hands played out. Records, per player, each (our, their) pair of information
    states at the decisions on the way."""
    if ended_alike(ours, theirs):
        return 1
    if theirs.is_chance_node():
        outcomes = same_chance(ours, theirs)
        ids = outcomes
        if len(ids) == 4:  # the public card: one of the four left, depending on the private cards
            first, second = theirs.history()[:2]
            ids = [ids[(first + second) % 4]]
        steps = [(a, a) for a in ids]
    else:
        for p in (0, 1):
            seen[p].add((ours.information_state_string(p), theirs.information_state_string(p)))
        mine, theirs_by_label = choices(ours), choices(theirs)
        assert sorted(mine) == sorted(theirs_by_label), f"{ours}\n{theirs}"
        steps = [(mine[label], action) for label, action in theirs_by_label.items()]
    return play_both(ours, theirs, steps, walk, seen)


def test_every_deal_and_betting_sequence_is_openspiels_leduc_poker() -> None:
    ours_game, theirs_game = adapter_game(), pyspiel.load_game("leduc_poker")
    seen: Seen = {0: set(), 1: set()}
    assert walk(ours_game.new_initial_state(), theirs_game.new_initial_state(), seen) == 6 * 5 * (4 + 5 * 9)
    assert_grouped_alike(seen)


def test_the_game_constants_are_openspiels() -> None:
    ours, theirs = adapter_game(), pyspiel.load_game("leduc_poker")
    assert ours.num_players() == theirs.num_players() == 2
    assert (
        (ours.min_utility(), ours.max_utility()) == (theirs.min_utility(), theirs.max_utility()) == (-13, 13)
    )
    assert ours.get_type().utility == theirs.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert ours.get_type().information == theirs.get_type().information
