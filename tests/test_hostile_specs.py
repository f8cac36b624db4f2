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


def check_isolated(target: str, env: tuple[tuple[str, str], ...] = ()) -> tuple[int, str, float]:
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "rulewright", "check", target],
        capture_output=True,
        text=True,
        timeout=SECONDS * 3,
        cwd=REPO_ROOT,
        # the case's variables first: the first line of /proc/self/environ holds them
        env={**dict(env), **os.environ, "PYTHONPATH": str(REPO_ROOT)},
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
    assert case.isolate or not case.env, "a case's environment needs a process of its own"
    code, output, seconds = check_isolated(str(folder), case.env) if case.isolate else check(str(folder))
    _sound(code, output, seconds)
    assert case.expect in output
    assert not case.absent or case.absent not in output, output


def test_no_link_is_opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`check` opens no symbolic link of a spec folder, not even to refuse what it points at: a
    path that is a link is opened only not to follow it (O_NOFOLLOW), if at all, and nothing
    outside the folder is opened."""
    from tests.hostile import build_load

    folder = tmp_path / "spec"
    (folder / "scenarios").mkdir(parents=True)
    (folder / "game.yaml").write_text(build_load.GAME, encoding="utf-8")
    outside = tmp_path / "outside"
    (outside / "cases").mkdir(parents=True)
    (outside / "x.yaml").write_text("constantz: {}\n", encoding="utf-8")
    (outside / "cases" / "s.yaml").write_text("name: s\nactions: []\n", encoding="utf-8")
    (folder / "x.yaml").symlink_to(outside / "x.yaml")
    (folder / "env.yaml").symlink_to("/proc/self/environ")
    (folder / "board.yaml").symlink_to(outside / "x.yaml")
    (folder / "scenarios" / "s.yaml").symlink_to(outside / "cases" / "s.yaml")
    other = tmp_path / "other"
    other.mkdir()
    (other / "game.yaml").write_text(build_load.GAME, encoding="utf-8")
    (other / "scenarios").symlink_to(outside / "cases", target_is_directory=True)
    opened: list[tuple[str, int]] = []
    real_open = os.open

    def spy(path: str | Path, flags: int, mode: int = 0o777, *, dir_fd: int | None = None) -> int:
        base = os.readlink(f"/proc/self/fd/{dir_fd}") if dir_fd is not None else ""
        opened.append((os.path.join(base, path), flags))
        return real_open(path, flags, mode, dir_fd=dir_fd)

    monkeypatch.setattr(os, "open", spy)
    for spec in (folder, other):
        code, output, seconds = check(str(spec))
        _sound(code, output, seconds)
        assert code == 1 and "symbolic link" in output, output
    monkeypatch.undo()
    assert any(p.endswith("game.yaml") for p, _ in opened), "the spy saw nothing"
    for path, flags in opened:
        assert not os.path.islink(path) or flags & os.O_NOFOLLOW, f"{path} opened through its link"
        assert not Path(path).resolve().is_relative_to(outside), f"{path} is outside the folder"
        assert Path(path).resolve() != Path("/proc/self/environ").resolve()


def test_a_folder_that_became_a_link_after_the_listing_is_not_followed(tmp_path: Path) -> None:
    """A file listed in scenarios/ is read through no link even if scenarios/ is swapped for a
    link to a folder elsewhere between the listing and the reading."""
    from compiler.source import Folder, SourceError, read_bytes

    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "s.yaml").write_text("secret\n", encoding="utf-8")
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "scenarios").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    within = Folder(tmp_path / "spec")
    try:
        with pytest.raises(SourceError, match="became a symbolic link"):
            read_bytes(tmp_path / "spec" / "scenarios" / "s.yaml", 100, within)
    finally:
        within.close()
