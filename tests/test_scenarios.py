"""Every scenario of every game (specs/<game>/scenarios/*.yaml) is a test."""

from __future__ import annotations

import pytest

import runtime
from runtime.scenarios import run_scenario

CASES = [(name, sc) for name in runtime.available_games() for sc in runtime.load_game(name).scenarios]


@pytest.mark.parametrize(
    ("name", "scenario"), CASES, ids=[f"{n}:{sc['file'].split('/')[-1]}" for n, sc in CASES]
)
def test_scenario(name: str, scenario: dict[str, object]) -> None:
    result = run_scenario(name, scenario)
    assert result.ok, f"{scenario['file']}: {result.message}"


def test_every_game_has_scenarios() -> None:
    for name in runtime.available_games():
        assert runtime.load_game(name).scenarios, f"{name} has no scenarios"
