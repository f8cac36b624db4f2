"""docs/howto-add-a-card.md, run on a copy of Iron Curtain: every edit of the page applied to a
copy of specs/iron_curtain (and of its golden playthroughs), every command run in that copy's
workspace, its output and exit code compared (tests/runnable_docs.py says how a page is read).

The real game is never touched: the card the page adds exists only in the copy.
"""

from __future__ import annotations

import shutil

import pytest

from tests.runnable_docs import ROOT, CommandStep, FileStep, Outcome, Session, parse, rulewright_shim

PAGE = ROOT / "docs" / "howto-add-a-card.md"
STEPS = parse(PAGE)
GAME = "iron_curtain"


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> list[Outcome]:
    folder = tmp_path_factory.mktemp("howto")
    workspace = folder / "workspace"
    shutil.copytree(ROOT / "specs" / GAME, workspace / "specs" / GAME)
    shutil.copytree(ROOT / "tests" / "playthroughs" / GAME, workspace / "tests" / "playthroughs" / GAME)
    return Session(workspace, rulewright_shim(folder / ".bin")).run_all(STEPS)


@pytest.mark.parametrize("index", range(len(STEPS)), ids=[f"L{s.line} {s.title}" for s in STEPS])
def test_howto_step(index: int, outcomes: list[Outcome]) -> None:
    outcome = outcomes[index]
    if outcome.status == "skipped":
        pytest.skip(f"docs/howto-add-a-card.md:{STEPS[index].line}: {outcome.message}")
    assert outcome.status == "passed", f"docs/howto-add-a-card.md:{STEPS[index].line}: {outcome.message}"


def test_the_howto_covers_the_whole_change() -> None:
    """What the page promises: the card written, checked, tested, seen to fire, diffed, re-recorded."""
    commands = " ".join(s.command for s in STEPS if isinstance(s, CommandStep))
    for command in ("check", "build", "scenarios", "verify", "diff", "diff iron_curtain --update"):
        assert f"rulewright {command}" in commands
    assert "--coverage" in commands
    edited = {s.path for s in STEPS if isinstance(s, FileStep)}
    assert f"specs/{GAME}/cards.yaml" in edited and any("/scenarios/" in p for p in edited)


def test_the_real_game_is_left_as_it_is() -> None:
    assert "syria" not in (ROOT / "specs" / GAME / "cards.yaml").read_text(encoding="utf-8")
    assert not (ROOT / "specs" / GAME / "scenarios" / "syria.yaml").exists()
