"""The `rulewright` command: exit codes, output, and the play -> replay round trip."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulewright.cli import main
from tests.conftest import ROOT


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


def test_help_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    for cmd in (
        [],
        ["init"],
        ["check"],
        ["build"],
        ["games"],
        ["play"],
        ["replay"],
        ["simulate"],
        ["draw"],
        ["scenarios"],
        ["bench"],
        ["demo"],
        ["verify"],
        ["playthrough"],
        ["diff"],
    ):
        with pytest.raises(SystemExit) as exc:
            main([*cmd, "--help"])
        assert exc.value.code == 0
        assert "usage: rulewright" in capsys.readouterr().out


def test_check_clean_spec(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "check", "iron_curtain")
    assert code == 0 and "ok" in out


def test_check_bad_spec_is_exit_1_without_traceback(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "game.yaml").write_text(
        "game: bad\nplayers: {names: [a, b]}\nphases:\n  - name: main\n    do: |\n      let x = 1 + true\n"
        "      end game winner c\n",
        encoding="utf-8",
    )
    code, out = run(capsys, "check", str(tmp_path))
    assert code == 1
    assert "game.yaml:6:19: error:" in out and "[type-mismatch]" in out
    assert "game.yaml:7:23: error: unknown name 'c'" in out
    assert "Traceback" not in out


def test_usage_errors_are_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "simulate", "no_such_game", "-n", "1")
    assert code == 2 and "unknown game 'no_such_game'; the games are: " in out
    code, out = run(capsys, "simulate", "iron_curtain", "-n", "1", "-o", "nonsense=1")
    assert code == 2 and "has no option 'nonsense'" in out
    code, out = run(capsys, "check", "/no/such/folder")
    assert code == 2


def test_simulate_prints_rates(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "simulate", "iron_curtain", "-n", "20", "--seed", "3")
    assert code == 0
    assert "games/s" in out and "wins" in out and "mean length" in out


def test_play_log_and_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    code, out = run(capsys, "play", "iron_curtain", "--seed", "4", "--log", str(log))
    assert code == 0 and "Result:" in out and "Round 1" in out
    data = json.loads(log.read_text(encoding="utf-8"))
    assert data["game"] == "iron_curtain" and data["actions"]
    code, out = run(capsys, "replay", str(log))
    assert code == 0 and "final state matches" in out
    data["final_state_sha256"] = "0" * 16
    log.write_text(json.dumps(data), encoding="utf-8")
    code, out = run(capsys, "replay", str(log))
    assert code == 1 and "differs" in out


def test_human_agent_reads_numbers(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = iter(["x", "1"] + ["1"] * 5000)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code, out = run(capsys, "play", "iron_curtain", "--agents", "human,random", "--seed", "2")
    assert code == 0 and "type a number from 1 to" in out and "Result:" in out


def test_scenarios_and_demo_and_bench(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "scenarios", "iron_curtain")
    assert code == 0 and "0 failed" in out
    code, out = run(capsys, "demo", "--tail", "3")
    assert code == 0 and "Iron Curtain" in out and "Result:" in out
    code, out = run(capsys, "bench", "iron_curtain", "--seconds", "0.2")
    assert code == 0
    for figure in ("games/s", "decisions/s", "clone", "to_json", "from_json", "check spec", "build spec"):
        assert figure in out


def test_view_shows_own_hand_and_hides_the_opponents() -> None:
    import runtime
    from runtime.view import describe

    state = runtime.load_game("iron_curtain").new_initial_state(3)
    lines = describe(state, 0).splitlines()
    assert any(line.startswith("hand[US] (5): ") for line in lines)
    assert "hand[USSR]: 5 face down" in lines and any("Berlin" in line for line in lines)


def test_view_names_entities_and_shows_the_first_one() -> None:
    import runtime
    from runtime.view import describe

    state = runtime.load_game("guerra_fronteriza").new_initial_state(3)
    lines = describe(state, 0).splitlines()
    assert "Turn order: Germany, United States" in lines
    assert any("| East Base" in line for line in lines)  # a tile by its name, not its index
    assert any("| German HQ (life 3)" in line for line in lines)  # player 0 holds it: shown
    assert any("+- Germany -" in line for line in lines)  # and controls its tile


def test_verify_playthrough_and_diff(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out = run(capsys, "verify", "iron_curtain", "--examples", "5", "--no-contract")
    assert code == 0 and "verify iron_curtain: ok. 5 examples" in out
    code, out = run(capsys, "verify", "iron_curtain", "--strategy", "bogus")
    assert code == 2 and "unknown strategy 'bogus'" in out

    code, out = run(capsys, "playthrough", "iron_curtain", "--seed", "5", "-n", "2", "--out", str(tmp_path))
    assert code == 0 and out.count("wrote ") == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rules.json", "seed_5.txt", "seed_6.txt"]
    code, out = run(capsys, "diff", "iron_curtain", "--dir", str(tmp_path))
    assert code == 0
    assert out.splitlines()[-1] == "0 spec entries changed; all 2 playthroughs replay as recorded"

    (tmp_path / "seed_5.txt").write_text(
        (tmp_path / "seed_5.txt").read_text().replace("@3 ", "@3 X", 1), encoding="utf-8"
    )
    code, out = run(capsys, "diff", "iron_curtain", "--dir", str(tmp_path))
    assert code == 1 and "DIVERGES  seed_5 at step 3" in out and "1 of 2 playthroughs diverge" in out

    code, out = run(capsys, "diff", "iron_curtain", "--dir", str(tmp_path / "nothing"))
    assert code == 2 and "no playthroughs" in out


def test_staleness_digest_is_the_compilers(capsys: pytest.CaptureFixture[str]) -> None:
    """`scenarios` finds a stale build by hashing the spec files as the compiler does; were the two
    to drift apart, every game would look stale (or none would)."""
    from compiler.load import spec_digests
    from rulewright.scenarios import _module_digest, _scenarios_digest, staleness
    from runtime.game import available_games, load_game

    for name in available_games():
        game = load_game(name)
        built = (game.info.digest, _scenarios_digest(game), _module_digest(game, "board"))
        assert spec_digests(ROOT / "specs" / name, ROOT) == built, name
        assert staleness(game, ROOT / "specs" / name, ROOT) is None


def test_a_scenario_edit_changes_the_scenarios_not_the_engine(tmp_path: Path) -> None:
    """The engine's digest is of the rule files: editing a rulebook example leaves the engine, and
    so every saved state and log, as they were; only the scenarios module is rebuilt."""
    from compiler.driver import compile_spec

    folder = tmp_path / "iron_curtain"
    shutil.copytree(ROOT / "specs" / "iron_curtain", folder)
    before = compile_spec(folder).files
    case = sorted((folder / "scenarios").glob("*.yaml"))[0]
    case.write_text(case.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    after = compile_spec(folder).files
    assert after["engine.py"] == before["engine.py"]
    assert after["scenarios.py"] != before["scenarios.py"]


def test_playing_a_spec_folder_compiles_its_rules_alone(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Scenarios are off the path to play: a spec folder played from its path is compiled without
    them (a broken rulebook example does not stop a simulation); `scenarios` still reports it."""
    folder = tmp_path / "iron_curtain"
    shutil.copytree(ROOT / "specs" / "iron_curtain", folder)
    case = sorted((folder / "scenarios").glob("*.yaml"))[0]
    case.write_text("name: [unclosed\n", encoding="utf-8")
    code, out = run(capsys, "simulate", str(folder), "-n", "2", "-j", "1")
    assert code == 0 and "Iron Curtain: 2 games" in out
    code, out = run(capsys, "scenarios", str(folder))
    assert code != 0 and case.name in out
