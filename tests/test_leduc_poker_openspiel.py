"""Our Leduc poker is OpenSpiel's own `leduc_poker` (players=2, the default parameters): both games
are stepped in lockstep, ours through our OpenSpiel adapter (`rulewright_leduc_poker`) around an
engine state with explicit chance, theirs through pyspiel. The walk takes every deal of the two
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

from runtime import load_game

pyspiel = pytest.importorskip("pyspiel")


def adapter_game() -> Any:
    from runtime.adapters import openspiel

    return pyspiel.load_game(openspiel.register("leduc_poker"))


def explicit_start(game: Any) -> Any:
    """A state of our adapter game around an engine state with explicit chance."""
    from runtime.adapters.openspiel import RulewrightState

    return RulewrightState(game, load_game("leduc_poker").new_initial_state(0, chance="explicit"))


def choices(state: Any) -> dict[str, int]:
    """A decision's legal actions by label (our ids are our own)."""
    return {state.action_to_string(state.current_player(), a): a for a in state.legal_actions()}


def walk(ours: Any, theirs: Any, seen: dict[int, set[tuple[str, str]]]) -> int:
    """Every action and chance outcome from here (one of the public card's), both games together;
    the number of hands played out. Records, per player, each (our, their) pair of information
    states at the decisions on the way."""
    if theirs.is_terminal():
        assert ours.is_terminal()
        assert ours.returns() == theirs.returns(), f"{ours}\n{theirs}"
        return 1
    assert not ours.is_terminal()
    assert ours.current_player() == theirs.current_player()
    if theirs.is_chance_node():
        outcomes = ours.engine.chance_outcomes()
        assert outcomes == [(a, pytest.approx(w)) for a, w in theirs.chance_outcomes()]
        ids = [a for a, _ in outcomes]
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
    played = 0
    for mine_action, their_action in steps:
        o, t = ours.clone(), theirs.clone()
        o.apply_action(mine_action)
        t.apply_action(their_action)
        played += walk(o, t, seen)
    return played


def test_every_deal_and_betting_sequence_is_openspiels_leduc_poker() -> None:
    ours_game, theirs_game = adapter_game(), pyspiel.load_game("leduc_poker")
    seen: dict[int, set[tuple[str, str]]] = {0: set(), 1: set()}
    assert walk(explicit_start(ours_game), theirs_game.new_initial_state(), seen) == 6 * 5 * (4 + 5 * 9)
    for p in (0, 1):
        ours_strings = {o for o, _ in seen[p]}
        their_strings = {t for _, t in seen[p]}
        # a bijection: each of our strings goes with one of theirs, and each of theirs with one of ours
        assert len(seen[p]) == len(ours_strings) == len(their_strings), f"player {p}"


def test_the_game_constants_are_openspiels() -> None:
    ours, theirs = adapter_game(), pyspiel.load_game("leduc_poker")
    assert ours.num_players() == theirs.num_players() == 2
    assert (
        (ours.min_utility(), ours.max_utility()) == (theirs.min_utility(), theirs.max_utility()) == (-13, 13)
    )
    assert ours.get_type().utility == theirs.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert ours.get_type().information == theirs.get_type().information
