"""docs/tutorial.md, run from top to bottom in an empty folder: every file written, every command
run and its output and exit code compared (tests/runnable_docs.py says how a page is read).

`rulewright` is this checkout's CLI (`python -m rulewright`); `pip install` lines are skipped.
The workspace commands (`rulewright init`, `games`, `--version`) are skipped, each with its
reason, where this checkout does not have them yet; `init` is then stood in for by making the
folder and its specs/, so that the steps after it still run.
"""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest

from tests.runnable_docs import (
    ROOT,
    CommandStep,
    Outcome,
    Session,
    parse,
    rulewright_shim,
)

PAGE = ROOT / "docs" / "tutorial.md"
STEPS = parse(PAGE)
WORKSPACE_COMMANDS = (("init",), ("games",), ("--version",))


def has_workspace_commands(env: dict[str, str], cwd: Path) -> bool:
    done = subprocess.run(["rulewright", "init", "--help"], env=env, cwd=cwd, capture_output=True)
    return done.returncode == 0


def stand_in_for_workspace(step: CommandStep, cwd: Path) -> str | None:
    """The reason to skip a workspace command this checkout lacks (None for other commands)."""
    words = shlex.split(step.command)
    if words[0] != "rulewright" or tuple(words[1:2]) not in WORKSPACE_COMMANDS:
        return None
    if words[1] == "init":
        (cwd / (words[2] if len(words) > 2 else ".") / "specs").mkdir(parents=True)
    return (
        f"`{step.command}` needs the workspace commands (`rulewright init --help` fails on this "
        "checkout)" + ("; stood in for by making the folder and its specs/" if words[1] == "init" else "")
    )


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> list[Outcome]:
    folder = tmp_path_factory.mktemp("tutorial")
    env = rulewright_shim(folder / ".bin")
    reader = folder / "reader"  # the reader's empty folder, where the tutorial starts
    reader.mkdir()
    skip = None if has_workspace_commands(env, reader) else stand_in_for_workspace
    return Session(reader, env, skip).run_all(STEPS)


@pytest.mark.parametrize("index", range(len(STEPS)), ids=[f"L{s.line} {s.title}" for s in STEPS])
def test_tutorial_step(index: int, outcomes: list[Outcome]) -> None:
    outcome = outcomes[index]
    if outcome.status == "skipped":
        pytest.skip(f"docs/tutorial.md:{STEPS[index].line}: {outcome.message}")
    assert outcome.status == "passed", f"docs/tutorial.md:{STEPS[index].line}: {outcome.message}"


def test_the_tutorial_uses_every_part_of_a_game() -> None:
    """What the tutorial promises to show: the commands, and the constructs in its YAML."""
    commands = " ".join(s.command for s in STEPS if isinstance(s, CommandStep))
    for command in ("init", "check", "build", "games", "play", "simulate", "scenarios", "verify"):
        assert f"rulewright {command}" in commands
    assert any(s.exit_code == 1 for s in STEPS if isinstance(s, CommandStep)), "a deliberate mistake"
    text = PAGE.read_text(encoding="utf-8")
    for construct in ("shuffle deck", "choose from", "until end of round", "active scared", "invariants:"):
        assert construct in text
