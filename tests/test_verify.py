"""`rulewright verify`: it passes on every landed game, and it finds a planted bug.

tests/verify/planted_bug is a tiny game whose `take` procedure breaks the token count when a
player takes 3 right after the opponent did. Verify must find it, shrink it to the two actions
that show it, and write a scenario that fails until the rule is fixed and passes after.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import pytest

import runtime
import runtime.scenarios
from compiler.diagnostics import render_all
from compiler.driver import compile_spec
from runtime.contract import Violation, check_observations
from runtime.game import Game
from runtime.verify import describe, verify, write_reproducer
from tests.conftest import ROOT

PLANTED = ROOT / "tests" / "verify" / "planted_bug"


def compiled(folder: Path, tmp: Path) -> Game:
    result = compile_spec(folder)
    assert result.ok, render_all(result.diagnostics)
    path = tmp / f"{folder.name}_{abs(hash(result.files['engine.py']))}.py"
    path.write_text(result.files["engine.py"], encoding="utf-8")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module: ModuleType = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return Game(module.State, module.SCENARIOS)


@pytest.mark.parametrize("name", runtime.available_games())
def test_verify_passes_on_every_landed_game(name: str) -> None:
    report = verify(runtime.load_game(name), examples=10, seed=1)
    assert report.ok, describe(report, 0, True)
    assert report.examples >= 10 and report.decisions > 0


def test_verify_finds_the_planted_bug_and_writes_a_short_reproducer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = tmp_path / "planted_bug"
    shutil.copytree(PLANTED, spec)
    game = compiled(spec, tmp_path)
    report = verify(game, examples=200, seed=0)
    f = report.failure
    assert f is not None, "verify missed the planted bug"
    assert (f.kind, f.name) == ("invariant", "tokens_conserved")
    assert f.actions == ["3", "3"], f"not minimal: {f.actions}"
    text = describe(report, 2, True)
    assert "invariant tokens_conserved broke after 2 action(s)" in text
    assert "south chooses 3 (tokens to take)" in text

    path = write_reproducer(f, spec / "scenarios", "planted_bug")
    assert path.name == "verify_tokens_conserved.yaml"

    def run(g: Game) -> runtime.scenarios.ScenarioResult:
        monkeypatch.setattr(
            runtime.scenarios, "load_game", lambda name, options=None: Game(g.state_cls, g.scenarios, options)
        )
        (sc,) = g.scenarios
        return runtime.scenarios.run_scenario("planted_bug", sc)

    result = run(compiled(spec, tmp_path))  # the scenario compiles, and fails while the bug is there
    assert not result.ok and "invariant tokens_conserved" in result.message

    game_yaml = spec / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("store[p] += 4", "store[p] += n"))
    fixed = compiled(spec, tmp_path)
    assert run(fixed).ok  # and passes once the rule is fixed
    assert verify(fixed, examples=50, seed=0).ok


def test_the_observation_check_catches_a_leak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    features = compiled(ROOT / "tests" / "specs" / "features", tmp_path)
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


def test_verify_rejects_unknown_strategies() -> None:
    game = runtime.load_game(runtime.available_games()[0])
    with pytest.raises(ValueError, match="unknown strategy"):
        verify(game, strategies=["cleverest"])
    with pytest.raises(ValueError, match="needs a pattern"):
        verify(game, strategies=["prefer"])
