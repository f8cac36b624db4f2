"""`rulewright bench`: CPU and wall figures, and `--against REF` on this repository and on a
designer's workspace in a git repository of its own; bad revisions; the unpacked tree removed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from rulewright import bench
from rulewright.cli import main
from tests.conftest import ROOT

FAST = ("--seconds", "0.05", "--rounds", "1")


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


@pytest.fixture
def temp_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder temporary files go to during the test, to see that bench leaves nothing there."""
    folder = tmp_path / "temp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_one_game_in_cpu_and_wall(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bench", "iron_curtain", "--seconds", "0.1", "--no-check")
    assert code == 0
    games_line = next(line for line in out.splitlines() if "games/s" in line)
    assert " CPU " in games_line and " wall " in games_line
    for figure in ("decisions/s", "clone", "to_json", "from_json", "clone + to_json"):
        assert figure in out
    code, out, _ = run(capsys, "bench", "iron_curtain", "--seconds", "0.1", "--no-check", "--json")
    [figures] = json.loads(out)
    assert figures["game"] == "iron_curtain" and figures["games_per_s_cpu"] > 0
    assert figures["clone_to_json_us"] > 0 and figures["samples"] == 200


def test_against_head_of_this_repository(capsys: pytest.CaptureFixture[str], temp_folder: Path) -> None:
    code, out, err = run(capsys, "bench", "iron_curtain", "--against", "HEAD", *FAST)
    assert code == 0, err
    assert "its own runtime, engines and `rulewright check`" in out
    rows = {line.split("  ")[1].strip(): line for line in out.splitlines() if line.startswith("  ")}
    assert "x faster" in rows["games/s (CPU)"] and "x faster" in rows["games/s (wall)"]
    assert "x cheaper" in rows["clone + to_json"]
    assert "x less CPU" in rows["iron_curtain"]  # the row of `rulewright check`
    assert "1.00x smaller" in rows["JSON size"]  # the same engine saves the same states
    assert list(temp_folder.iterdir()) == []


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        check=True,
        capture_output=True,
    )


def test_against_a_designers_revision(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, temp_folder: Path
) -> None:
    ws = tmp_path / "my_games"
    shutil.copytree(ROOT / "tests" / "workspace" / "high_card", ws / "specs" / "high_card")
    git(ws, "init", "-q")
    git(ws, "add", ".")
    git(ws, "commit", "-qm", "high card")
    code, out, err = run(capsys, "bench", "--workspace", str(ws), "--against", "HEAD", "--json", *FAST)
    assert code == 0, err
    result = json.loads(out)
    assert "built and checked by this rulewright" in result["b"]["label"]
    figures = result["games"]["high_card"]
    assert figures["games_per_s_cpu"]["ratio"] > 0 and len(figures["clone_us"]["a"]) == 1
    assert figures["json_bytes"]["ratio"] == 1.0
    assert result["check"]["high_card"]["ratio"] > 0
    assert list(temp_folder.iterdir()) == []
    assert not (ws / "generated").exists()  # its own output folder is left alone


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        ("no-such-revision", "--against 'no-such-revision': no such commit in"),
        ("HEAD:README.md", "no such commit"),
        ("--output=/tmp/rulewright-bench-x", "a revision does not start with '-'"),
        ("", "the revision is empty"),
    ],
)
def test_bad_revisions_are_usage_errors(
    capsys: pytest.CaptureFixture[str], temp_folder: Path, ref: str, message: str
) -> None:
    code, out, err = run(capsys, "bench", "iron_curtain", f"--against={ref}", *FAST)
    assert code == 2 and message in err and "Traceback" not in err
    assert out == "" and list(temp_folder.iterdir()) == []
    assert not Path("/tmp/rulewright-bench-x").exists()


def test_against_outside_git_is_a_usage_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    shutil.copytree(ROOT / "tests" / "workspace" / "high_card", tmp_path / "specs" / "high_card")
    code, _, err = run(capsys, "bench", "--workspace", str(tmp_path), "--against", "HEAD", *FAST)
    assert code == 2 and "is not in a git repository" in err


def test_an_option_the_game_does_not_take_is_refused_before_measuring(
    capsys: pytest.CaptureFixture[str], temp_folder: Path
) -> None:
    code, out, err = run(capsys, "bench", "iron_curtain", "--against", "HEAD", "-o", "nonsense=1", *FAST)
    assert code == 2 and "has no option 'nonsense'" in err and out == ""
    assert list(temp_folder.iterdir()) == []


def test_interrupted_run_removes_the_tree(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, temp_folder: Path
) -> None:
    def interrupted(*args: object, **kwargs: object) -> dict[str, float]:
        assert any(temp_folder.iterdir())  # REF is unpacked while it runs
        raise KeyboardInterrupt

    monkeypatch.setattr(bench, "play_round", interrupted)
    code, _, err = run(capsys, "bench", "iron_curtain", "--against", "HEAD", "--no-check", *FAST)
    assert code == 130 and "interrupted" in err
    assert list(temp_folder.iterdir()) == []


def test_check_runs_the_trees_own_command_and_a_crash_is_no_figure(tmp_path: Path) -> None:
    # a revision's `rulewright` is the script its pyproject.toml names (older ones had it in
    # another module); a check that crashes (exit 1, as a spec with errors) is refused, not timed
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "pyproject.toml").write_text('[project.scripts]\nrulewright = "old_cli:main"\n')
    (tree / "old_cli.py").write_text(
        "import sys\ndef main():\n    return 0 if sys.argv[1] == 'check' else 2\n"
    )
    assert bench.check_cpu(tree, [tmp_path], tmp_path) >= 0
    (tree / "old_cli.py").write_text("def main():\n    raise ImportError('cannot import name x')\n")
    with pytest.raises(bench.BenchFailed, match="cannot import name x"):
        bench.check_cpu(tree, [tmp_path], tmp_path)


OTHER_PROGRAM = """\
import json, sys
games, decisions = (int(x) if x.isdigit() else x for x in sys.argv[1:3])
cpu = float(sys.argv[3]) if sys.argv[3].replace(".", "").isdigit() else sys.argv[3]
assert sys.argv[4:] == ["--seconds", "0.05"]
print("a line of its own")
print(json.dumps({"games": games, "decisions": decisions, "cpu_s": cpu}) if games != "none" else "done")
"""


def test_versus_another_program_alternates_rounds_and_reads_its_counts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    program = tmp_path / "other.py"
    program.write_text(OTHER_PROGRAM)
    other = f"{sys.executable} {program}"
    code, out, err = run(capsys, "bench", "goofspiel", "--versus", f"{other} 4 100 0.01", *FAST, "--json")
    assert code == 0, err
    figures = json.loads(out)["games"]["goofspiel"]
    assert figures["games_per_s_cpu"]["b"] == [400.0] and figures["us_per_decision"]["b"] == [100.0]
    assert figures["decisions_per_s_cpu"]["a_median"] > 0
    assert json.loads(out)["b"]["label"].startswith("the program")
    for bad, why in (
        (f"{other} none 1 1", "printed no line of JSON"),
        (f"{other} 0 100 0.01", "positive integers games and decisions"),
        (f"{other} 1 1 x", "positive integers games and decisions"),
        (str(tmp_path / "missing"), "cannot run"),
    ):
        code, _, err = run(capsys, "bench", "goofspiel", "--versus", bad, *FAST)
        assert code == 1 and why in err, err
    code, _, err = run(capsys, "bench", "--versus", other, *FAST)
    assert code == 2 and "one game" in err
    code, _, err = run(capsys, "bench", "goofspiel", "--versus", "'unclosed", *FAST)
    assert code == 2 and "--versus" in err
