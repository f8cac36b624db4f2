"""The one table of builtins (compiler/builtins.py) and the passes that read it."""

from __future__ import annotations

from compiler import check, secrecy
from compiler.builtins import BUILTINS


def test_every_builtin_has_a_typing_rule_and_every_rule_a_builtin() -> None:
    assert set(check.BUILTIN_RULES) == set(BUILTINS)


def test_secrecy_names_only_builtins_of_the_table() -> None:
    assert secrecy._ELEMENT_BUILTINS <= set(BUILTINS)


def test_chance_builtins_are_the_ones_that_draw_on_the_random_state() -> None:
    assert {b.name for b in BUILTINS.values() if b.chance} == {"roll", "random"}


SEAT_BUILTINS = {
    "next_player",
    "previous_player",
    "left_of",
    "right_of",
    "next_in",
    "previous_in",
    "seat_distance",
    "players_from",
}


def test_seat_builtins_are_in_the_table_and_may_fail() -> None:
    """They raise a rule error on `none` (tests/test_seats.py), so no lowering may run one where
    the rules would not have (lower/reuse.py)."""
    from compiler.lower import reuse

    assert SEAT_BUILTINS <= set(BUILTINS)
    assert not SEAT_BUILTINS & reuse._NEVER_FAIL_BUILTINS
    assert BUILTINS["players_from"].optional == 1  # players_from(p) or players_from(p, xs)
