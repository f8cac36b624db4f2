"""`rulewright verify`: it passes on every landed game, and it finds a planted bug.

tests/verify/planted_bug is a tiny game whose `take` procedure breaks the token count when a
player takes 3 right after the opponent did. Verify must find it, shrink it to the two actions
that show it, and write a scenario that fails until the rule is fixed and passes after.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import runtime
from rulewright.cli import main
from rulewright.spec_loader import load_spec
from rulewright.verify import describe, verify
from runtime.contract import Violation, check_observations
from tests.conftest import LONG_GAMES, ROOT

PLANTED = ROOT / "tests" / "verify" / "planted_bug"


# the long games are verified by `make test`'s own `rulewright verify` step, 20 examples each: here
# only the short ones, as a test of verify itself
@pytest.mark.parametrize("name", [g for g in runtime.available_games() if g not in LONG_GAMES])
def test_verify_passes_on_every_landed_game(name: str) -> None:
    examples = 10
    report = verify(runtime.load_game(name), examples=examples, seed=1)
    assert report.ok, describe(report, 0, True)
    assert report.examples >= examples and report.decisions > 0


def test_verify_finds_the_planted_bug_and_writes_a_short_reproducer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "planted_bug"
    shutil.copytree(PLANTED, spec)
    report = verify(load_spec(spec), examples=200, seed=0)
    f = report.failure
    assert f is not None, "verify missed the planted bug"
    assert (f.kind, f.name) == ("invariant", "tokens_conserved")
    assert f.actions == ["3", "3"], f"not minimal: {f.actions}"

    # the same through the command line, as a designer would run it
    assert main(["verify", str(spec)]) == 1
    out = capsys.readouterr().out
    assert "invariant tokens_conserved broke after 2 action(s)" in out
    assert "check: pile + sum(store[p] for p in players) == 15" in out
    assert "\n  where pile = 9, store = {north: 3, south: 4}\n" in out  # the values that broke it
    assert "> south chooses 3 (tokens to take)" in out
    reproducer = spec / "scenarios" / "verify_tokens_conserved.yaml"
    assert f"reproducer written to {reproducer}" in out
    text = reproducer.read_text(encoding="utf-8")
    assert 'expect_invariants: ["tokens_conserved"]' in text and "== 15" not in text  # by name
    assert main(["scenarios", str(spec)]) == 1  # the scenario fails while the bug is there
    out = capsys.readouterr().out
    assert "FAIL" in out and "where pile = 9, store = {north: 3, south: 4}" in out

    # it reads the invariant's check from the spec: correcting the invariant instead passes it too
    other = tmp_path / "invariant_fixed"
    shutil.copytree(spec, other)
    other_yaml = other / "game.yaml"
    other_yaml.write_text(other_yaml.read_text().replace("== 15", ">= 15"))
    assert main(["scenarios", str(other)]) == 0
    capsys.readouterr()

    game_yaml = spec / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("store[p] += 4", "store[p] += n"))
    assert main(["scenarios", str(spec)]) == 0  # and passes once the rule is fixed
    assert main(["verify", str(spec), "--examples", "50"]) == 0
    assert "verify planted_bug: ok" in capsys.readouterr().out


def test_the_observation_check_catches_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    features = load_spec(ROOT / "tests" / "specs" / "features")
    state = features.new_initial_state(3)
    check_observations(state, random.Random(0))  # the engine's observation hides what it should
    hidden = [i for i, z in enumerate(state.INFO.zones) if z.visibility == "hidden"]
    assert hidden and len(state.z.piles[hidden[0]]) > 1
    original = type(state).observation

    def leaky(self: runtime.GameState, player: int) -> dict[str, object]:
        obs = original(self, player)
        obs["deck order"] = list(self.z.piles[hidden[0]])  # a bug: shows a hidden pile's order
        return obs

    monkeypatch.setattr(type(state), "observation", leaky)
    with pytest.raises(Violation, match="observation depends on what they cannot see"):
        check_observations(state, random.Random(0))


def test_the_round_trip_checks_only_new_log_lines_and_only_after_an_equal_prefix(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The contract loads a state after every step; the log lines an earlier load accepted are
    not checked again, but only when the new log begins with them byte for byte."""
    import json
    import random

    import runtime.contract as contract
    from runtime.saved import SavedStateError, load_state

    game = runtime.load_game("iron_curtain")
    checker = contract.Checker(random.Random(1))
    state = game.new_initial_state(5)
    known: list[int] = []
    real = contract.load_state

    def spy(
        cls: type[runtime.GameState],
        text: str,
        invariants: bool = True,
        known_lines: int = 0,
        own_text: bool = False,
    ) -> runtime.GameState:
        assert own_text  # the text to_json has just written
        known.append(known_lines)
        return real(cls, text, invariants=invariants, known_lines=known_lines, own_text=own_text)

    monkeypatch.setattr(contract, "load_state", spy)
    for _ in range(6):
        state = checker.step(state, state.legal_actions()[0])
    # the first load checks every line; each later one all but those the one before it loaded
    # (this game logs nothing before its first decision: [0, 0, 2, 3, ...])
    assert known[0] == 0 and known[-1] > 0 and known == sorted(known)
    # a log whose old lines differ from what was loaded before is checked from its first line
    data = json.loads(state.to_json())
    data["log"][0] = [10**9]
    edited = json.dumps(data, separators=(",", ":"))
    assert checker._known(edited) == 0
    with pytest.raises(SavedStateError, match=r"'log\[0\]"):
        load_state(type(state), edited, known_lines=checker._known(edited))


def test_verify_rejects_unknown_strategies() -> None:
    game = runtime.load_game(runtime.available_games()[0])
    with pytest.raises(ValueError, match="unknown strategy"):
        verify(game, strategies=["cleverest"])
    with pytest.raises(ValueError, match="needs a pattern"):
        verify(game, strategies=["prefer"])


def test_the_engines_own_text_reads_as_the_strict_parse_does() -> None:
    """The contract's round trip parses the text to_json has just written without the strict
    parse's hooks (own_text): the same data, for a state with a long log and hidden cards."""
    import random

    from runtime.saved import parse_saved_state

    game = runtime.load_game("lost_cities")
    state = game.new_initial_state(3)
    rnd = random.Random(3)
    for _ in range(60):
        state.apply_action(rnd.choice(state.legal_actions()))
    text = state.to_json()
    assert parse_saved_state(text, own_text=True) == parse_saved_state(text)


def test_a_step_expects_an_invariant_by_name_and_shows_its_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "planted_bug"
    shutil.copytree(PLANTED, spec)
    (spec / "scenarios").mkdir()
    (spec / "scenarios" / "broken.yaml").write_text(
        'name: a table that breaks the count\nsetup: "pile = 20"\nactions: []\n'
        "expect_invariants: [pile_not_negative, tokens_conserved]\n",
        encoding="utf-8",
    )
    assert main(["scenarios", str(spec)]) == 1
    out = capsys.readouterr().out
    assert (
        "broken.yaml:1: expected the invariant tokens_conserved to hold: "
        "pile + sum(store[p] for p in players) == 15, where pile = 20, store = {north: 0, south: 0}"
    ) in out
    assert "pile_not_negative" not in out  # it holds


def test_verify_leaves_the_cycle_collector_as_it_found_it() -> None:
    """verify sets the heap it finds aside from full collections for its run (gc.freeze), and
    undoes that after; what a caller froze itself stays frozen."""
    import gc

    game = runtime.load_game("kuhn_poker" if "kuhn_poker" in runtime.available_games() else "iron_curtain")
    assert gc.get_freeze_count() == 0
    during: list[int] = []
    assert verify(game, examples=2, seed=1, on_example=lambda _: during.append(gc.get_freeze_count())).ok
    assert during and all(during) and gc.get_freeze_count() == 0
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert verify(game, examples=2, seed=1).ok
        # still frozen (less what the run freed), and the run's own objects not added to it
        assert 0.9 * frozen < gc.get_freeze_count() <= frozen
    finally:
        gc.unfreeze()
