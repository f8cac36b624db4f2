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


def test_every_written_twilight_struggle_event_has_scenarios() -> None:
    """Each non-scoring card whose event is written has scenarios named after it
    (`<card>_<case>.yaml`); the scoring cards share score_region and its own scenarios."""
    import yaml

    from tests.conftest import ROOT

    spec = ROOT / "specs" / "twilight_struggle"
    if not spec.is_dir():
        pytest.skip("no twilight_struggle")
    cards = yaml.safe_load((spec / "cards.yaml").read_text(encoding="utf-8"))["components"]["card"]
    names = [p.name for p in (spec / "scenarios").glob("*.yaml")]
    missing = [
        c["id"]
        for c in cards
        if c.get("event") and not c.get("scoring") and not any(n.startswith(c["id"] + "_") for n in names)
    ]
    assert not missing, f"cards with an event but no scenario: {missing}"
