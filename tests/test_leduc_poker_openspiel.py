"""Our Leduc poker is OpenSpiel's own `leduc_poker` (players=2, the default parameters): both games
are stepped in lockstep, ours through our OpenSpiel adapter (`rulewright_leduc_poker`), theirs
through pyspiel, over half the tree: every deal of the two private cards, two of the four public
cards that may follow each (half of the 120 deals, pairs and high cards alike), and every betting
sequence of each (49). The whole tree takes twice as long and finds nothing more.

At each chance node both offer the same outcomes (a card's id, 0 to 5: Jack, Jack, Queen, Queen,
King, King, spades first) with the same probabilities; at each decision the same player acts with
the same legal actions (mapped by label: Fold, Call, Raise; OpenSpiel's ids are 0, 1, 2, ours our
own); at the end both give the same returns. The information states are grouped the same way: for
each player, two nodes have equal information_state_string in our game exactly when they have in
OpenSpiel's (a bijection between the strings seen), at every node but the last, where our showdown
shows the cards (docs/games/leduc_poker.md, ruling 4). The game's constants (players, utilities,
zero-sum) are compared too."""

from __future__ import annotations

from typing import Any

import pytest

from runtime import load_game

pyspiel = pytest.importorskip("pyspiel")


def adapter_game() -> Any:
    from runtime.adapters import openspiel

    return pyspiel.load_game(openspiel.register("leduc_poker"))


def deal(theirs: Any, card: int, left: list[int]) -> None:
    """OpenSpiel's chance node, given `card` after checking that it offers every card left (ours
    draws from the same cards, each as likely)."""
    assert theirs.is_chance_node()
    assert theirs.chance_outcomes() == [(c, pytest.approx(1 / len(left))) for c in left]
    theirs.apply_action(card)
    left.remove(card)


def labels(state: Any) -> dict[str, int]:
    return {state.action_to_string(state.current_player(), a): a for a in state.legal_actions()}


def walk(ours: Any, theirs: Any, public: int, left: list[int], seen: dict[int, set[tuple[str, str]]]) -> int:
    """Every betting sequence from here, both games together; the number of hands played out.
    Records, per player, each (our, their) pair of information states met on the way."""
    if theirs.is_chance_node():  # the public card, which our deal drew third
        deal(theirs, public, left := list(left))
    if theirs.is_terminal():
        assert ours.is_terminal()
        assert ours.returns() == theirs.returns(), f"{ours}\n{theirs}"
        return 1
    assert not ours.is_terminal()
    for p in (0, 1):
        seen[p].add((ours.information_state_string(p), theirs.information_state_string(p)))
    assert ours.current_player() == theirs.current_player()
    mine, their_labels = labels(ours), labels(theirs)
    assert sorted(mine) == sorted(their_labels), f"{ours}\n{theirs}"
    played = 0
    for label, action in their_labels.items():
        o, t = ours.clone(), theirs.clone()
        o.apply_action(mine[label])
        t.apply_action(action)
        played += walk(o, t, public, left, seen)
    return played


def test_half_the_tree_is_openspiels_leduc_poker() -> None:
    from runtime.adapters.openspiel import RulewrightState

    ours_game, theirs_game, engine = adapter_game(), pyspiel.load_game("leduc_poker"), load_game("leduc_poker")
    seen: dict[int, set[tuple[str, str]]] = {0: set(), 1: set()}
    hands = deals = 0
    for first in range(6):
        for second in range(6):
            if first == second:
                continue
            rest = [c for c in range(6) if c not in (first, second)]
            for public in (rest[(first + second) % 4], rest[(first + second + 2) % 4]):
                ours = RulewrightState(ours_game, engine.new_initial_state(0, forced_draws=[[first, second, public]]))
                theirs, left = theirs_game.new_initial_state(), list(range(6))
                deal(theirs, first, left)
                deal(theirs, second, left)
                hands += walk(ours, theirs, public, left, seen)
                deals += 1
    assert (deals, hands) == (60, 60 * 49)
    for p in (0, 1):
        ours_strings = {o for o, _ in seen[p]}
        their_strings = {t for _, t in seen[p]}
        # a bijection: each of our strings goes with one of theirs, and each of theirs with one of ours
        assert len(seen[p]) == len(ours_strings) == len(their_strings), f"player {p}"


def test_the_game_constants_are_openspiels() -> None:
    ours, theirs = adapter_game(), pyspiel.load_game("leduc_poker")
    assert ours.num_players() == theirs.num_players() == 2
    assert (ours.min_utility(), ours.max_utility()) == (theirs.min_utility(), theirs.max_utility()) == (-13, 13)
    assert ours.get_type().utility == theirs.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert ours.get_type().information == theirs.get_type().information
