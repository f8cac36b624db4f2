"""Stepping one of our games and OpenSpiel's own version of it together (the lockstep tests of
Kuhn poker, Leduc poker and Liar's Dice): a decision's actions matched by label, both states
stepped alike, and information states grouped the same way."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest

Seen = dict[int, set[tuple[str, str]]]  # player -> (our information state, theirs) met together


def choices(state: Any) -> dict[str, int]:
    """A decision's legal actions by label (our ids are our own)."""
    return {state.action_to_string(state.current_player(), a): a for a in state.legal_actions()}


def ended_alike(ours: Any, theirs: Any) -> bool:
    """Both games are over with the same returns (True), or neither is and the same player acts."""
    if theirs.is_terminal():
        assert ours.is_terminal() and ours.returns() == theirs.returns(), f"{ours}\n{theirs}"
        return True
    assert not ours.is_terminal() and ours.current_player() == theirs.current_player()
    return False


def same_chance(ours: Any, theirs: Any) -> list[int]:
    """At a chance node of both: the same outcomes with the same probabilities; their ids."""
    outcomes = ours.chance_outcomes()
    assert outcomes == [(a, pytest.approx(w)) for a, w in theirs.chance_outcomes()]
    return [a for a, _ in outcomes]


def play_both(
    ours: Any,
    theirs: Any,
    steps: Iterable[tuple[int, int]],
    walk: Callable[[Any, Any, Seen], int],
    seen: Seen,
) -> int:
    """Each (our action, their action) of `steps` applied to copies of both states, and the walk
    carried on from there; the number of games it ends."""
    played = 0
    for mine, their in steps:
        o, t = ours.clone(), theirs.clone()
        o.apply_action(mine)
        t.apply_action(their)
        played += walk(o, t, seen)
    return played


def assert_grouped_alike(seen: Seen) -> None:
    """Our information states and OpenSpiel's group the histories alike: for each player, each of
    our strings went with exactly one of theirs, and each of theirs with one of ours."""
    for p, pairs in seen.items():
        ours = {o for o, _ in pairs}
        theirs = {t for _, t in pairs}
        assert len(pairs) == len(ours) == len(theirs), f"player {p}"
