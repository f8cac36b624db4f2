"""Our Kuhn poker is OpenSpiel's own `kuhn_poker` (players=2): both games are stepped in lockstep,
ours through our OpenSpiel adapter (`rulewright_kuhn_poker`), theirs through pyspiel, over the
whole tree: every deal and every betting sequence.

At each chance node both offer the same outcomes (a card's id: Jack 0, Queen 1, King 2) with the
same probabilities; at each decision the same player acts with the same legal actions (mapped by
label: Pass, Bet); at the end both give the same returns. The information states are grouped the
same way: for each player, two nodes have equal information_state_string in our game exactly when
they have in OpenSpiel's (a bijection between the strings seen), at every node but the last,
where our showdown shows the cards (docs/games/kuhn_poker.md, ruling 3). The game's constants
(players, utilities, zero-sum) are compared too."""

from __future__ import annotations

from typing import Any

import pytest

from runtime import load_game

pyspiel = pytest.importorskip("pyspiel")

def adapter_game() -> Any:
    from runtime.adapters import openspiel

    return pyspiel.load_game(openspiel.register("kuhn_poker"))


def dealt(ours_game: Any, theirs: Any, cards: tuple[int, int]) -> Any:
    """Our adapter's state once `cards` are dealt (player 0's first); OpenSpiel's chance nodes
    are given the same cards, after checking that they offer them as ours would: each card left,
    each as likely."""
    from runtime.adapters.openspiel import RulewrightState

    engine = load_game("kuhn_poker").new_initial_state(0, forced_draws=[list(cards)])
    left = [0, 1, 2]
    for card in cards:
        assert theirs.is_chance_node()
        assert theirs.chance_outcomes() == [(c, pytest.approx(1 / len(left))) for c in left]
        theirs.apply_action(card)
        left.remove(card)
    return RulewrightState(ours_game, engine)


def labels(state: Any) -> dict[str, int]:
    return {state.action_to_string(state.current_player(), a): a for a in state.legal_actions()}


def walk(ours: Any, theirs: Any, seen: dict[int, set[tuple[str, str]]]) -> int:
    """Every betting sequence from here, both games together; the number of hands played out.
    Records, per player, each (our, their) pair of information states met on the way."""
    if theirs.is_terminal():
        assert ours.is_terminal()
        assert ours.returns() == theirs.returns()
        return 1
    assert not ours.is_terminal()
    for p in (0, 1):
        seen[p].add((ours.information_state_string(p), theirs.information_state_string(p)))
    assert ours.current_player() == theirs.current_player()
    mine, theirs_labels = labels(ours), labels(theirs)
    assert sorted(mine) == sorted(theirs_labels) == ["Bet", "Pass"]
    played = 0
    for label, action in theirs_labels.items():
        o, t = ours.clone(), theirs.clone()
        o.apply_action(mine[label])
        t.apply_action(action)
        played += walk(o, t, seen)
    return played


def test_the_whole_tree_is_openspiels_kuhn_poker() -> None:
    ours_game, theirs_game = adapter_game(), pyspiel.load_game("kuhn_poker")
    seen: dict[int, set[tuple[str, str]]] = {0: set(), 1: set()}
    hands = 0
    for first in range(3):
        for second in range(3):
            if first != second:
                theirs = theirs_game.new_initial_state()
                hands += walk(dealt(ours_game, theirs, (first, second)), theirs, seen)
    assert hands == 6 * 5  # 6 deals, 5 betting sequences each: pp, pbp, pbb, bp, bb
    for p in (0, 1):
        ours_strings = {o for o, _ in seen[p]}
        their_strings = {t for _, t in seen[p]}
        # a bijection: each of our strings goes with one of theirs, and each of theirs with one of ours
        assert len(seen[p]) == len(ours_strings) == len(their_strings), f"player {p}"
    # player 0 holds one of 3 cards, and the hand is unfinished after '', 'p', 'b' or 'pb'
    assert len(seen[0]) == 3 * 4


def test_the_game_constants_are_openspiels() -> None:
    ours, theirs = adapter_game(), pyspiel.load_game("kuhn_poker")
    assert ours.num_players() == theirs.num_players() == 2
    assert (ours.min_utility(), ours.max_utility()) == (theirs.min_utility(), theirs.max_utility()) == (-2, 2)
    assert ours.get_type().utility == theirs.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert ours.get_type().information == theirs.get_type().information


def test_the_cards_are_listed_in_openspiels_order() -> None:
    game = load_game("kuhn_poker")
    state = game.new_initial_state(0, forced_draws=[[2, 0]])
    assert state.observation(0)["zones"]["hand[Alice]"] == ["King"]  # type: ignore[index]
    assert state.observation(1)["zones"]["hand[Bob]"] == ["Jack"]  # type: ignore[index]
