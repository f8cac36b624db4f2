"""Golden playthroughs (tests/playthroughs/GAME/*.txt) replay exactly on today's engine.

When a rules change moves them on purpose: `rulewright build GAME`, `rulewright diff GAME` to read the
impact, then `rulewright diff GAME --update` to re-record (see docs/verification.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import runtime
from compiler.fingerprint import compare
from rulewright.impact import playthrough_files, stored_entries
from rulewright.playthrough import load, parse, replay, to_text
from tests.conftest import ROOT, bundled

FOLDERS = sorted(p for p in (ROOT / "tests" / "playthroughs").iterdir() if p.is_dir())
FILES = [f for d in FOLDERS for f in playthrough_files(d)]


@pytest.mark.parametrize("path", FILES, ids=[f"{f.parent.name}:{f.stem}" for f in FILES])
def test_playthrough_replays_as_recorded(path: Path) -> None:
    pt = load(path)
    game = runtime.load_game(pt.game, dict(pt.options))
    divergence, _ = replay(game, pt)
    assert divergence is None, (
        f"{path.name} diverges at {divergence.describe()}\n"
        f"If the rules changed on purpose: rulewright diff {pt.game}, then rulewright diff {pt.game} --update"
    )


@pytest.mark.parametrize("folder", FOLDERS, ids=[d.name for d in FOLDERS])
def test_stored_spec_entries_are_current(folder: Path) -> None:
    spec = bundled(folder.name)  # compiled once for the run (tests/conftest.py)
    old = stored_entries(folder)
    assert old is not None, f"{folder} has no rules.json (rulewright playthrough writes it)"
    changes = compare(old, spec.fingerprint)
    assert not changes, (
        f"specs/{folder.name} changed since its playthroughs were recorded ({changes[0].key}, ...): "
        f"run `rulewright diff {folder.name}` and then `rulewright diff {folder.name} --update`"
    )


def test_every_landed_game_has_playthroughs() -> None:
    missing = sorted(set(runtime.available_games()) - {d.name for d in FOLDERS if playthrough_files(d)})
    assert not missing, f"no golden playthroughs for {missing}: rulewright playthrough GAME --seed 1 -n 10"


def test_the_trace_format_round_trips() -> None:
    path = FILES[0]
    pt = load(path)
    assert to_text(parse(to_text(pt)), runtime.load_game(pt.game).title) == path.read_text(encoding="utf-8")
