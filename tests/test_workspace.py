"""The workspace: discovery, rulewright.toml, what is refused, where `build` writes, and which
engine a game's name loads (rulewright/workspace.py, rulewright/build.py, runtime/loading.py)."""

from __future__ import annotations

import json
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulewright import cli
from rulewright.commands.lookup import NO_WORKSPACE
from rulewright.workspace import CONFIG_FILE, WorkspaceError, find_workspace, open_workspace
from runtime.game import available_games, load_game
from tests.conftest import ROOT

HIGH_CARD = ROOT / "tests" / "workspace" / "high_card"

# A spec that takes a bundled game's name: in its workspace, it is the one `iron_curtain` loads.
IMPOSTOR = """\
game: iron_curtain
title: Not the Iron Curtain
players: {names: [ann, bob]}
state:
  score: int
phases:
  - name: play
    do: |
      score += choose number from 0 to 1 by ann "points"
"""


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


def rulewright(capsys: pytest.CaptureFixture[str], *argv: str) -> Run:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    return Run(code, captured.out, captured.err)


def workspace(folder: Path, toml: str | None = "", games: tuple[str, ...] = ("high_card",)) -> Path:
    """A workspace in `folder`: a rulewright.toml (None: none, only specs/) and the named games."""
    folder.mkdir(parents=True, exist_ok=True)
    if toml is not None:
        (folder / CONFIG_FILE).write_text(toml, encoding="utf-8")
    (folder / "specs").mkdir(exist_ok=True)
    for g in games:
        shutil.copytree(HIGH_CARD if g == "high_card" else ROOT / "specs" / g, folder / "specs" / g)
    return folder


# ---- discovery --------------------------------------------------------------------------------


def test_a_toml_is_found_from_below(tmp_path: Path) -> None:
    root = workspace(tmp_path / "game", '[workspace]\noutput = "engines"\n')
    below = root / "specs" / "high_card" / "scenarios"
    ws = find_workspace(below)
    assert ws is not None and ws.root == root.resolve() and ws.config == root / CONFIG_FILE
    assert ws.output == root.resolve() / "engines"
    assert ws.spec_folders() == [root.resolve() / "specs" / "high_card"]


def test_a_specs_folder_makes_the_current_folder_a_workspace_but_not_its_subfolders(tmp_path: Path) -> None:
    root = workspace(tmp_path / "game", None)
    ws = find_workspace(root)
    assert ws is not None and ws.config is None and ws.output == root.resolve() / "generated"
    assert find_workspace(root / "specs") is None  # specs/specs does not exist; no toml above


def test_no_workspace(tmp_path: Path) -> None:
    assert find_workspace(tmp_path) is None


def test_spec_dirs_may_be_spec_folders_themselves(tmp_path: Path) -> None:
    root = workspace(tmp_path, '[workspace]\nspecs = ["specs/high_card", "more"]\n')
    shutil.copytree(ROOT / "specs" / "iron_curtain", root / "more" / "iron_curtain")
    ws = open_workspace(root)
    assert [f.name for f in ws.spec_folders()] == ["high_card", "iron_curtain"]


def test_a_folder_of_linked_yaml_is_listed_and_its_links_refused_unread(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A spec folder whose only *.yaml is a symbolic link is still a spec of the workspace (not
    skipped in silence), and `check` refuses the link without reading or even looking at what it
    points at (a FIFO here: opening it would block)."""
    root = workspace(tmp_path / "ws", games=())
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (root / "specs" / "linked").mkdir()
    (root / "specs" / "linked" / "game.yaml").symlink_to(fifo)
    (root / "specs" / "empty").mkdir()
    (root / "specs" / "empty" / "notes.txt").write_text("not a spec\n", encoding="utf-8")
    assert [f.name for f in open_workspace(root).spec_folders()] == ["linked"]
    monkeypatch.chdir(root)
    run = rulewright(capsys, "check")
    assert run.code == cli.EXIT_SPEC
    assert "specs/linked/game.yaml:1:1: error: this is a symbolic link, which is not followed" in run.out


@pytest.mark.parametrize(
    ("toml", "expect"),
    [
        ("[workspace\n", "not valid TOML"),
        ("[other]\n", "unknown key 'other'"),
        ("title = 'x'\n", "unknown key 'title'"),
        ("workspace = 3\n", "workspace: must be a table"),
        ("[workspace]\nout = 'x'\n", "unknown key 'workspace.out' (keys: specs, output)"),
        ("[workspace]\nspecs = 'specs'\n", "workspace.specs: must be a list of folder names"),
        ("[workspace]\nspecs = [1]\n", "workspace.specs: must be a list of folder names"),
        ("[workspace]\nspecs = []\n", "workspace.specs: names no folder"),
        ("[workspace]\noutput = 3\n", "workspace.output: must be a folder name, not a number"),
        ("[workspace]\noutput = ''\n", "workspace.output: must be a folder name, not an empty text"),
        ("[workspace]\noutput = '../elsewhere'\n", "workspace.output: '../elsewhere' leaves the workspace"),
        ("[workspace]\noutput = '/tmp'\n", "workspace.output: '/tmp' leaves the workspace"),
        ("[workspace]\noutput = '.'\n", "must be a folder inside the workspace, not its root"),
        ("[workspace]\noutput = 'specs/out'\n", "overlaps the spec folder specs"),
        ("[workspace]\nspecs = ['../x']\n", "workspace.specs: '../x' leaves the workspace"),
        pytest.param(
            "[workspace]\nspecs = " + "[" * 20_000 + "]" * 20_000 + "\n",
            "nested too deeply",
            id="deep-nesting",
        ),
    ],
)
def test_a_bad_toml_names_the_file_and_the_key(tmp_path: Path, toml: str, expect: str) -> None:
    root = workspace(tmp_path, toml, games=())
    with pytest.raises(WorkspaceError) as err:
        find_workspace(root)
    assert str(err.value).startswith(str(root / CONFIG_FILE) + ": ")
    assert expect in str(err.value)


def test_a_bad_toml_is_a_usage_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = workspace(tmp_path, "[workspace]\noutput = 3\n", games=())
    run = rulewright(capsys, "--workspace", str(root), "build")
    assert run.code == cli.EXIT_USAGE and "workspace.output: must be a folder name" in run.err


def test_an_output_in_site_packages_is_refused(tmp_path: Path) -> None:
    root = workspace(tmp_path / "lib" / "site-packages" / "game", "", games=())
    with pytest.raises(WorkspaceError, match="inside a site-packages folder; engines are never written"):
        find_workspace(root)


# ---- the commands with no workspace -----------------------------------------------------------


@pytest.mark.parametrize("argv", [["check"], ["build"], ["build", "--check"]])
def test_check_and_build_refuse_without_a_workspace(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, argv: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    run = rulewright(capsys, *argv)
    assert run.code == cli.EXIT_USAGE
    assert run.err.strip() == f"rulewright {argv[0]}: {NO_WORKSPACE}"
    assert list(tmp_path.iterdir()) == []


def test_check_a_folder_and_play_a_bundled_game_without_a_workspace(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    assert rulewright(capsys, "check", str(HIGH_CARD)).code == 0
    run = rulewright(capsys, "play", "channel_tunnel", "-q", "--seed", "1")
    assert run.code == 0 and "Result:" in run.out
    assert list(tmp_path.iterdir()) == []


# ---- building and loading ---------------------------------------------------------------------


def files_under(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*") if "__pycache__" not in p.parts}


def test_build_writes_only_into_the_output_and_loads_from_there(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    root = workspace(tmp_path / "game", "")
    before = files_under(root)
    monkeypatch.chdir(root / "specs")  # below the root: the same build
    run = rulewright(capsys, "build")
    assert run.code == 0, run.out + run.err
    written = files_under(root) - before
    out = root / "generated"
    assert written == {out, out / "__init__.py", out / "high_card", *(out / "high_card").iterdir()}
    assert "generated/high_card/engine.py" in run.out
    assert rulewright(capsys, "build", "--check").out.strip() == "generated/ is up to date (1 game(s))"

    game = load_game("high_card", search=(out,))
    assert game.title == "High Card" and game.state_cls.__module__.startswith("rulewright_workspace_")
    assert "high_card" not in available_games()  # the bundled games alone
    run = rulewright(capsys, "play", "high_card", "--agents", "random,random", "--seed", "1", "-q")
    assert run.code == 0 and "Result:" in run.out
    run = rulewright(capsys, "scenarios", "high_card")
    assert run.code == 0 and "1 passed, 0 failed" in run.out


def test_a_workspace_game_shadows_a_bundled_one_of_its_name(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    root = workspace(tmp_path, "")
    (root / "specs" / "iron_curtain").mkdir()
    (root / "specs" / "iron_curtain" / "game.yaml").write_text(IMPOSTOR, encoding="utf-8")
    monkeypatch.chdir(root)
    assert rulewright(capsys, "build").code == 0
    out = root / "generated"
    assert load_game("iron_curtain", search=(out,)).title == "Not the Iron Curtain"
    assert load_game("iron_curtain").title == "Iron Curtain"  # the bundled one, by its own name
    assert load_game("channel_tunnel", search=(out,)).title == "1987 Channel Tunnel"  # not shadowed

    listed = {g["name"]: g for g in json.loads(rulewright(capsys, "games", "--json").out)}
    assert set(listed) == {"high_card", *available_games()}
    assert listed["iron_curtain"]["title"] == "Not the Iron Curtain"
    assert listed["iron_curtain"]["source"] == "workspace" and listed["iron_curtain"]["shadows_bundled"]
    assert listed["high_card"] == {
        "name": "high_card",
        "title": "High Card",
        "players": [2],
        "players_option": None,
        "options": [],
        "source": "workspace",
        "folder": str(out.resolve()),
        "shadows_bundled": False,
    }
    assert listed["guerra_fronteriza"]["source"] == "bundled"
    assert listed["guerra_fronteriza"]["players"] == [2, 3, 4]
    assert listed["guerra_fronteriza"]["players_option"] == "operation"
    (operation,) = listed["guerra_fronteriza"]["options"]
    assert operation["type"] == "int" and operation["default"] == 2 and operation["choices"] == [2, 3, 4]

    text = rulewright(capsys, "games").out
    assert "iron_curtain: Not the Iron Curtain (2 players) [workspace; shadows the bundled game" in text
    assert "guerra_fronteriza: Guerra Fronteriza (2-4 players, set by option operation) [bundled]" in text
    assert "  -o operation=2  (int, one of 2, 3, 4): " in text


def test_a_rebuild_in_the_same_process_is_loaded_afresh(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    root = workspace(tmp_path, "")
    monkeypatch.chdir(root)
    assert rulewright(capsys, "build").code == 0
    out = (root / "generated",)
    assert load_game("high_card", search=out).title == "High Card"
    spec = root / "specs" / "high_card" / "game.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("title: High Card", "title: Higher"), "utf-8")
    assert rulewright(capsys, "build").code == 0
    assert load_game("high_card", search=out).title == "Higher"


def test_build_deletes_only_generated_files_of_gone_specs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    root = workspace(tmp_path, "", games=("high_card", "iron_curtain"))
    monkeypatch.chdir(root)
    assert rulewright(capsys, "build").code == 0
    out = root / "generated"
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    (out / "helpers").mkdir()
    (out / "helpers" / "__init__.py").write_text("# mine\n", encoding="utf-8")
    (out / "iron_curtain" / "mine.py").write_text("# mine\n", encoding="utf-8")

    # a partial build keeps the other games, still listed
    assert rulewright(capsys, "build", "high_card").code == 0
    assert sorted(available_games(search=(out,))) == sorted({"high_card", *available_games()})
    assert load_game("iron_curtain", search=(out,)).state_cls.__module__.startswith("rulewright_workspace_")

    shutil.rmtree(root / "specs" / "iron_curtain")
    run = rulewright(capsys, "build", "--check")
    assert run.code == 1 and "generated/iron_curtain/engine.py" in run.out
    assert (out / "iron_curtain" / "engine.py").exists()  # --check writes and deletes nothing
    assert rulewright(capsys, "build").code == 0
    assert (
        not (out / "iron_curtain" / "engine.py").exists()
        and not (out / "iron_curtain" / "__init__.py").exists()
    )
    assert (out / "iron_curtain" / "mine.py").exists() and (out / "notes.txt").exists()
    assert (out / "helpers" / "__init__.py").exists()
    assert "iron_curtain" not in (out / "__init__.py").read_text(encoding="utf-8")


def test_two_specs_of_one_name_are_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    root = workspace(tmp_path, '[workspace]\nspecs = ["specs", "more"]\n')
    shutil.copytree(HIGH_CARD, root / "more" / "high_card")
    monkeypatch.chdir(root)
    run = rulewright(capsys, "build")
    assert run.code == cli.EXIT_USAGE and "two spec folders are named 'high_card'" in run.err


def test_workspace_option_overrides_discovery(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    root = workspace(tmp_path / "game", None)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert rulewright(capsys, "build", "--workspace", str(root)).code == 0
    run = rulewright(capsys, "--workspace", str(root), "check")
    assert run.code == 0 and "specs/high_card: ok" in run.out
    assert list(elsewhere.iterdir()) == []
    assert rulewright(capsys, "--workspace", str(root / "nowhere"), "games").code == cli.EXIT_USAGE


# ---- init -------------------------------------------------------------------------------------


def test_init_makes_a_workspace_and_refuses_to_overwrite_one(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    run = rulewright(capsys, "init", "mygame")
    assert run.code == 0 and "cd mygame" in run.out and "rulewright build" in run.out
    root = tmp_path / "mygame"
    assert sorted(p.name for p in root.iterdir()) == [CONFIG_FILE, "specs"]
    ws = find_workspace(root)
    assert ws is not None and ws.config == root / CONFIG_FILE
    assert ws.spec_dirs == (root.resolve() / "specs",) and ws.output == root.resolve() / "generated"
    monkeypatch.chdir(root)
    run = rulewright(capsys, "check")
    assert run.code == 0 and "no spec folders in specs yet" in run.out
    run = rulewright(capsys, "init")
    assert run.code == cli.EXIT_USAGE and "rulewright.toml already exists" in run.err


def test_verify_without_hypothesis_says_how_to_install_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delitem(sys.modules, "rulewright.verify", raising=False)
    monkeypatch.setitem(sys.modules, "hypothesis", None)  # as if not installed
    run = rulewright(capsys, "verify", "iron_curtain", "--examples", "1")
    assert run.code == cli.EXIT_USAGE
    assert (
        run.err.strip() == "rulewright verify: Hypothesis is not installed: pip install 'rulewright[verify]'"
    )


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from compiler import __version__

    with pytest.raises(SystemExit) as exc:
        cli.main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out == f"rulewright {__version__}\n"
