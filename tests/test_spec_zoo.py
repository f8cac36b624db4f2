"""Every design-test spec in tests/specs/: it compiles cleanly, random games keep the engine
contract after every action, and its scenarios pass.

These specs are not games users play (they are not under specs/): `features` exercises every DSL
construct; `ts_sketch` shows Twilight Struggle's hardest events written without new Python;
`copies` is a deck of identical copies (`copies: N` rows, played in tests/test_copies.py).
"""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType

import pytest

import rulewright.scenarios
from compiler.diagnostics import render_all
from compiler.driver import compile_spec
from rulewright.spec_loader import import_package
from runtime.game import Game
from tests.conftest import ROOT
from tests.test_properties import play

SPECS = sorted(p for p in (ROOT / "tests" / "specs").iterdir() if p.is_dir())
_CACHE: dict[Path, ModuleType] = {}


def engine(folder: Path, tmp: Path) -> ModuleType:
    if folder not in _CACHE:
        result = compile_spec(folder)
        assert result.ok, render_all(result.diagnostics)
        _CACHE[folder] = import_package(result.files, folder.name)
    return _CACHE[folder]


@pytest.mark.parametrize("folder", SPECS, ids=[p.name for p in SPECS])
def test_random_games_keep_the_contract(folder: Path, tmp_path: Path) -> None:
    m = engine(folder, tmp_path)
    game = Game(m.State, m.scenarios.SCENARIOS)
    for seed in range(30):
        play(game, seed, random.Random(seed), check_every_step=seed < 10)


CASES = [(folder, f) for folder in SPECS for f in sorted((folder / "scenarios").glob("*.yaml"))]


@pytest.mark.parametrize(("folder", "file"), CASES, ids=[f"{d.name}:{f.stem}" for d, f in CASES])
def test_scenario(folder: Path, file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    m = engine(folder, tmp_path)
    monkeypatch.setattr(
        rulewright.scenarios,
        "load_game",
        lambda name, options=None: Game(m.State, m.scenarios.SCENARIOS, options),
    )
    matches = [
        sc for sc in m.scenarios.SCENARIOS if sc["file"].endswith(f"{folder.name}/scenarios/{file.name}")
    ]
    assert len(matches) == 1
    result = rulewright.scenarios.run_scenario(folder.name, matches[0])
    assert result.ok, result.message
