"""The hostile-input corpus for `rulewright check` (tests/hostile/README.md).

Every case must end in located diagnostics (exit 1) or ok (exit 0) within 10 s: never a
traceback, a hang or a signal. Cases with a play.txt must then play to the end or to a located
rule error.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulewright import cli
from rulewright.spec_loader import load_spec
from runtime.agents import RandomAgent
from runtime.engine import RuleError
from tests.hostile.case import Case

REPO_ROOT = Path(__file__).resolve().parent.parent
CORPUS_REL = Path("tests") / "hostile"
SPECS_REL = CORPUS_REL / "specs"
UPDATE = os.environ.get("RULEWRIGHT_UPDATE") == "1"
SECONDS = 10.0

FOLDERS = sorted(p.name for p in (REPO_ROOT / SPECS_REL).iterdir() if p.is_dir())


def _built() -> list[Case]:
    cases: list[Case] = []
    for path in sorted((REPO_ROOT / CORPUS_REL).glob("build_*.py")):
        module = importlib.import_module(f"tests.hostile.{path.stem}")
        cases.extend(module.CASES)
    return cases


BUILT = _built()


def check(target: str) -> tuple[int, str, float]:
    """`rulewright check target` in this process: exit code, stdout+stderr, seconds."""
    out = io.StringIO()
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = cli.main(["check", target])
    return code, out.getvalue(), time.perf_counter() - t0


def check_isolated(target: str) -> tuple[int, str, float]:
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "rulewright", "check", target],
        capture_output=True,
        text=True,
        timeout=SECONDS * 3,
        cwd=REPO_ROOT,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
        check=False,
    )
    return done.returncode, done.stdout + done.stderr, time.perf_counter() - t0


def _sound(code: int, output: str, seconds: float) -> None:
    assert "Traceback" not in output, output
    assert code in (0, 1), f"exit {code}: {output}"
    assert seconds < SECONDS, f"took {seconds:.1f} s"


def test_the_corpus_is_large() -> None:
    from tests.test_hostile_cli import CASE_COUNT as cli_cases
    from tests.test_hostile_runtime import CASE_COUNT as runtime_cases

    assert len(FOLDERS) + len(BUILT) + cli_cases + runtime_cases >= 100


@pytest.mark.parametrize("case", FOLDERS)
def test_check_folder(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO_ROOT)
    code, output, seconds = check(str(SPECS_REL / case))
    _sound(code, output, seconds)
    expected_file = REPO_ROOT / SPECS_REL / case / "expected.txt"
    if UPDATE:
        expected_file.write_text(output, encoding="utf-8")
    assert output == expected_file.read_text(encoding="utf-8")
    play_file = REPO_ROOT / SPECS_REL / case / "play.txt"
    if play_file.exists():
        assert code == 0, "a case with play.txt must pass check"
        want = play_file.read_text(encoding="utf-8").strip()
        got = _play(REPO_ROOT / SPECS_REL / case)
        if UPDATE:
            play_file.write_text(got + "\n", encoding="utf-8")
        assert got == want


def _play(folder: Path) -> str:
    game = load_spec(folder)
    agent = RandomAgent(1)
    try:
        state = game.new_initial_state(seed=1)
        for _ in range(10_000):
            if state.is_terminal():
                return "over"
            state.apply_action(agent.choose(state))
    except RuleError as exc:
        return str(exc)
    return "still playing after 10,000 decisions"


@pytest.mark.parametrize("case", BUILT, ids=[c.name for c in BUILT])
def test_check_built(case: Case, tmp_path: Path) -> None:
    folder = tmp_path / case.name
    folder.mkdir()
    case.build(folder)
    code, output, seconds = (check_isolated if case.isolate else check)(str(folder))
    _sound(code, output, seconds)
    assert case.expect in output
