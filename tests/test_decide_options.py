"""A decision's options as the engine lists them (runtime/engine.py `distinct_ascending`): the
distinct values, ascending, by the loop a native build runs as by the set the interpreter uses."""

from __future__ import annotations

import random

import pytest

import runtime.engine as engine
from runtime.engine import distinct_ascending


@pytest.mark.parametrize("compiled", [False, True])
def test_distinct_ascending_is_sorted_set(compiled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "COMPILED", compiled)  # (interpreted, both paths run here)
    rng = random.Random(37)
    cases: list[list[int]] = [[], [3], [3, 3], [1, 2, 3], [3, 2, 1], [2, 2, 1, 1, 0, 0], [5, 1, 5, 1]]
    cases += [[rng.randrange(12) for _ in range(rng.randrange(40))] for _ in range(300)]
    for values in cases:
        given = values[:]
        assert distinct_ascending(values) == sorted(set(values)), values
        assert values == given  # the rules' list is not changed
    assert distinct_ascending((4, 0, 4)) == [0, 4]  # any sequence


def test_the_interpreter_uses_the_set() -> None:
    assert engine.COMPILED is False  # (tests/test_native.py plays the compiled path)
