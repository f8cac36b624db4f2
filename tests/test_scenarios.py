"""Every scenario of every game (specs/<game>/scenarios/*.yaml) is a test."""

from __future__ import annotations

import pytest

import runtime
from rulewright.scenarios import run_scenario

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


def test_every_twilight_struggle_card_is_written_and_has_scenarios() -> None:
    """All 110 cards are written: the compiler finds no event still to write, no card but the China
    Card (which is not an event card) has an empty event, and each non-scoring card has scenarios
    named after it (`<card>_<case>.yaml`); the scoring cards share score_region and its scenarios."""
    import yaml

    from tests.conftest import ROOT, bundled

    spec = ROOT / "specs" / "twilight_struggle"
    if not spec.is_dir():
        pytest.skip("no twilight_struggle")
    compiled = bundled(spec.name).result  # compiled once for the run (tests/conftest.py)
    unwritten = [d.message for d in compiled.diagnostics if d.code == "missing-event"]
    assert not unwritten, f"events still to write: {unwritten}"
    cards = yaml.safe_load((spec / "cards.yaml").read_text(encoding="utf-8"))["components"]["card"]
    assert len(cards) == 110
    empty = [c["id"] for c in cards if c["id"] != "china_card" and not str(c.get("event") or "").strip()]
    assert not empty, f"cards whose event does nothing: {empty}"
    names = [p.name for p in (spec / "scenarios").glob("*.yaml")]
    missing = [
        c["id"]
        for c in cards
        if not c.get("scoring")
        and c["id"] != "china_card"
        and not any(n.startswith(c["id"] + "_") for n in names)
    ]
    assert not missing, f"cards with no scenario: {missing}"
