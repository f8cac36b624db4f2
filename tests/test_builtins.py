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
