"""Our Kuhn poker is OpenSpiel's own `kuhn_poker` (players=2): both games are stepped in lockstep
over the whole tree, every deal and every betting sequence: ours through our OpenSpiel adapter
(`rulewright_kuhn_poker`, explicit chance: its default), theirs through pyspiel.

At each chance node both are chance nodes offering the same outcomes (a card's id: Jack 0, Queen 1,
King 2, the first card to player 0, the second to player 1) with the same probabilities; at each
decision the same player acts with the same legal actions (mapped by label: Pass, Bet); at the end
both give the same returns. The information states are grouped the same way: for each player, two
nodes have equal information_state_string in our game exactly when they have in OpenSpiel's (a
bijection between the strings seen), at every decision. Not at the end, where our showdown shows
the cards (docs/games/kuhn_poker.md, ruling 3), nor at a chance node: there our engine shows the
state before the move in flight (the whole deal is one move of the setup), so at the second card's
node player 0 does not see the first card yet, where OpenSpiel's string already shows it; nobody
acts at a chance node, so no algorithm reads an information state there. The game's constants
(players, utilities, zero-sum) are compared too."""

from __future__ import annotations

from typing import Any

import pytest

from tests.lockstep import Seen, assert_grouped_alike, choices, ended_alike, play_both, same_chance

pyspiel = pytest.importorskip("pyspiel")


def adapter_game() -> Any:
    from runtime.adapters import openspiel

    return pyspiel.load_game(openspiel.register("kuhn_poker"))


def walk(ours: Any, theirs: Any, seen: Seen) -> int:
    """Every chance outcome and every action from here, both games together; the number of hands
    played out. Records, per player, each (our, their) pair of information states on the way."""
    if ended_alike(ours, theirs):
        return 1
    if theirs.is_chance_node():
        outcomes = same_chance(ours, theirs)
        steps = [(a, a) for a in outcomes]
    else:
        for p in (0, 1):
            seen[p].add((ours.information_state_string(p), theirs.information_state_string(p)))
        mine, theirs_by_label = choices(ours), choices(theirs)
        assert sorted(mine) == sorted(theirs_by_label) == ["Bet", "Pass"]
        steps = [(mine[label], action) for label, action in theirs_by_label.items()]
    return play_both(ours, theirs, steps, walk, seen)


def test_the_whole_tree_is_openspiels_kuhn_poker() -> None:
    ours_game, theirs_game = adapter_game(), pyspiel.load_game("kuhn_poker")
    seen: Seen = {0: set(), 1: set()}
    assert walk(ours_game.new_initial_state(), theirs_game.new_initial_state(), seen) == 6 * 5
    # (6 deals, 5 betting sequences each: pp, pbp, pbb, bp, bb)
    assert_grouped_alike(seen)
    # player 0 holds one of 3 cards, and someone acts after '', 'p', 'b' or 'pb'
    assert len(seen[0]) == 3 * 4


def test_the_game_constants_are_openspiels() -> None:
    ours, theirs = adapter_game(), pyspiel.load_game("kuhn_poker")
    assert ours.num_players() == theirs.num_players() == 2
    assert (ours.min_utility(), ours.max_utility()) == (theirs.min_utility(), theirs.max_utility()) == (-2, 2)
    assert ours.get_type().utility == theirs.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert ours.get_type().information == theirs.get_type().information
