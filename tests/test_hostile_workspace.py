"""The hostile-input corpus: shared workspaces, output folders and caches (tests/hostile/README.md).

A workspace can come from anyone (an unpacked archive, a shared temporary folder, a checkout): its
`generated/` is Python, its files may be links, and the rulewright.toml found above the current
folder may be someone else's. Each case lays such a tree out in a temporary folder, runs
`rulewright` in a folder below it, and checks that nothing of the tree ran (the planted code would
write a marker file), that nothing outside it was written, and that the refusal is one clear line.
"""

from __future__ import annotations

import json
import os
import py_compile
import shutil
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulewright import cli
from runtime.loading import package_name
from tests.conftest import ROOT
from tests.test_hostile_cli import Run, rulewright, sound

TINY = ROOT / "tests" / "golden" / "tiny"


def planted(marker: Path, games: tuple[str, ...] = ()) -> str:
    """Python that leaves `marker` behind if it ever runs."""
    return f"import pathlib\npathlib.Path({str(marker)!r}).write_text('ran')\nGAMES = {games!r}\n"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache of the test's own: what builds record there is this test's alone."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder


@pytest.fixture
def shared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cache: Path) -> Iterator[Path]:
    """A workspace someone else made: a rulewright.toml, and a generated/ whose Python leaves a
    marker when it runs, one of its games named like a bundled one. The current folder is two
    levels below it."""
    ws = tmp_path / "shared"
    below = ws / "notes" / "today"
    below.mkdir(parents=True)
    (ws / "rulewright.toml").write_text('[workspace]\nspecs = ["specs"]\n', encoding="utf-8")
    (ws / "specs").mkdir()
    marker = tmp_path / "RAN"
    for folder in ("", "evil", "iron_curtain"):
        (ws / "generated" / folder).mkdir(parents=True, exist_ok=True)
        (ws / "generated" / folder / "__init__.py").write_text(
            planted(marker, ("evil", "iron_curtain")), encoding="utf-8"
        )
    monkeypatch.chdir(below)
    yield ws
    assert not marker.exists(), "the workspace's Python ran"


@pytest.fixture
def built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cache: Path) -> Path:
    """A workspace of this user's, with the tiny game built in it; the current folder."""
    ws = tmp_path / "mine"
    shutil.copytree(TINY, ws / "specs" / "tiny", ignore=shutil.ignore_patterns("*.golden"))
    monkeypatch.chdir(ws)
    assert cli.main(["build"]) == 0
    return ws


def refused(run: Run, expect: str = "was not built by you") -> None:
    sound(run, cli.EXIT_USAGE, expect)
    assert "rulewright build" in run.err, run.err


# ---- a workspace's generated/ never runs unless this user's build wrote it ---------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "iron_curtain", "--agents", "random", "--seed", "1"],
        ["play", "evil", "--agents", "random"],
        ["draw", "iron_curtain", "--steps", "3"],
        ["simulate", "iron_curtain", "-n", "1", "-j", "1"],
        ["verify", "iron_curtain", "--examples", "1"],
        ["demo"],
        ["replay", str(ROOT / "tests" / "hostile" / "README.md")],
    ],
    ids=lambda argv: argv[0] + ("-" + argv[1] if argv[1:] and not argv[1].startswith("/") else ""),
)
def test_a_shared_output_folder_is_refused_before_import(
    shared: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    run = rulewright(capsys, *argv)
    if argv[0] == "replay":  # not a log: refused for that, before any game is looked up
        assert run.code == cli.EXIT_USAGE and "Traceback" not in run.text
        return
    refused(run)
    assert str(shared / "generated") in run.err


def test_games_lists_a_shared_output_folder_without_running_it(
    shared: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = rulewright(capsys, "games")
    sound(run, cli.EXIT_OK, "evil: not loaded [workspace: not built by you]")
    assert "run `rulewright build`" in run.out
    assert "twilight_struggle: Twilight Struggle" in run.out  # the bundled games still list
    listed = json.loads(rulewright(capsys, "games", "--json").out)
    assert {e["name"]: "refused" in e for e in listed}["evil"]


def test_a_bundled_game_not_in_the_shared_folder_plays_without_importing_it(
    shared: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.rmtree(shared / "generated" / "iron_curtain")
    run = rulewright(capsys, "play", "iron_curtain", "--agents", "random", "--seed", "1")
    sound(run, cli.EXIT_OK, "")


def test_build_compiles_the_specs_and_the_folder_is_trusted_after(
    shared: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(TINY, shared / "specs" / "tiny", ignore=shutil.ignore_patterns("*.golden"))
    run = rulewright(capsys, "build")
    sound(run, cli.EXIT_OK, "built tiny")
    # the planted game folders are not build's (no generated header): left alone, and not listed
    run = rulewright(capsys, "play", "tiny", "--agents", "random", "--seed", "1")
    sound(run, cli.EXIT_OK, "")
    run = rulewright(capsys, "play", "evil")
    sound(run, cli.EXIT_USAGE, "unknown game 'evil'")


def test_a_file_changed_after_the_build_is_refused(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    marker = built.parent / "RAN"
    engine = built / "generated" / "tiny" / "engine.py"
    engine.write_text(engine.read_text(encoding="utf-8") + planted(marker), encoding="utf-8")
    refused(rulewright(capsys, "play", "tiny", "--agents", "random"), "engine.py is not the file your")
    assert not marker.exists()
    init = built / "generated" / "__init__.py"
    init.write_text(planted(marker, ("tiny",)), encoding="utf-8")
    refused(
        rulewright(capsys, "play", "tiny"), "its __init__.py is not the one your `rulewright build` wrote"
    )
    assert not marker.exists()
    sound(rulewright(capsys, "build"), cli.EXIT_OK, "2 file(s) written")
    sound(rulewright(capsys, "play", "tiny", "--agents", "random"), cli.EXIT_OK, "")


def test_planted_bytecode_is_never_run(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    marker = built.parent / "RAN"
    evil = built.parent / "evil.py"
    evil.write_text(planted(marker), encoding="utf-8")
    for module in ("__init__", "engine"):
        tag = sys.implementation.cache_tag
        pyc = built / "generated" / "tiny" / "__pycache__" / f"{module}.{tag}.pyc"
        py_compile.compile(
            str(evil), str(pyc), invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH
        )
    sound(rulewright(capsys, "play", "tiny", "--agents", "random", "--seed", "2"), cli.EXIT_OK, "")
    assert not marker.exists()


def test_a_module_the_build_did_not_write_is_not_found(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import runtime

    marker = built.parent / "RAN"
    (built / "generated" / "tiny" / "extra.py").write_text(planted(marker), encoding="utf-8")
    game = runtime.load_game("tiny", search=(built / "generated",))
    with pytest.raises(ModuleNotFoundError, match="among the files build wrote"):
        __import__(f"{package_name(built / 'generated')}.tiny.extra")
    assert game.num_players >= 1 and not marker.exists()


# ---- the rulewright.toml above the current folder --------------------------------------------


def test_a_toml_in_a_folder_everyone_may_write_is_not_used(
    shared: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shared.chmod(0o777)
    run = rulewright(capsys, "play", "iron_curtain", "--agents", "random", "--seed", "1")
    assert run.code == cli.EXIT_OK, run.text
    assert f"ignoring {shared / 'rulewright.toml'}: {shared} can be written by every user" in run.err
    assert f"pass --workspace {shared} to use it" in run.err
    # named, it is used: and then its generated/ is refused as any other
    refused(rulewright(capsys, "--workspace", str(shared), "play", "iron_curtain"))


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to give a file away")
def test_a_toml_of_another_user_is_not_used(shared: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.chown(shared / "rulewright.toml", 4242, 4242)
    run = rulewright(capsys, "play", "iron_curtain", "--agents", "random", "--seed", "1")
    assert run.code == cli.EXIT_OK, run.text
    assert "it belongs to another user (uid 4242)" in run.err


# ---- build never writes through a link --------------------------------------------------------


def test_build_refuses_an_output_file_that_is_a_link(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    victim = built.parent / "victim.txt"
    victim.write_text("mine\n", encoding="utf-8")
    board = built / "generated" / "tiny" / "engine.py"
    board.unlink()
    board.symlink_to(victim)
    run = rulewright(capsys, "build")
    sound(run, cli.EXIT_USAGE, f"refusing to write {board}: it is a symbolic link")
    assert victim.read_text(encoding="utf-8") == "mine\n"


def test_build_refuses_a_game_folder_that_is_a_link(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    elsewhere = built.parent / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "engine.py").write_text("# @generated by rulewright, once\n", encoding="utf-8")
    shutil.rmtree(built / "generated" / "tiny")
    (built / "generated" / "tiny").symlink_to(elsewhere, target_is_directory=True)
    run = rulewright(capsys, "build")
    sound(run, cli.EXIT_USAGE, "tiny is a symbolic link (build never writes through a link)")
    assert [p.name for p in elsewhere.iterdir()] == ["engine.py"]
    assert (elsewhere / "engine.py").read_text(encoding="utf-8") == "# @generated by rulewright, once\n"


def test_build_writes_whole_files_by_renaming(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    engine = built / "generated" / "tiny" / "engine.py"
    hard = built.parent / "hard-link-to-engine.py"
    os.link(engine, hard)  # a rename leaves another name of the old file as it was
    before = hard.read_bytes()
    engine.write_text("# changed\n", encoding="utf-8")
    sound(rulewright(capsys, "build"), cli.EXIT_OK, "1 file(s) written")
    assert hard.read_text(encoding="utf-8") == "# changed\n"
    assert engine.read_bytes() == before
    assert not list(engine.parent.glob(".*.tmp"))


# ---- the native cache -------------------------------------------------------------------------


def _native_folder(ws: Path) -> Path:
    from rulewright.native import ENGINES, native_root

    folder = native_root(ws)
    (folder / "runtime").mkdir(parents=True)
    manifest = {"python": sys.version, "package": package_name(folder / ENGINES), "sources": {}, "files": {}}
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


def test_a_file_planted_in_the_native_cache_is_refused_before_import(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = built.parent / "RAN"
    folder = _native_folder(built)
    (folder / "runtime" / "__init__.py").write_text(planted(marker), encoding="utf-8")
    run = rulewright(capsys, "simulate", "tiny", "-n", "1", "--native")
    sound(
        run,
        cli.EXIT_USAGE,
        "the native build's files are not the ones it was built with (runtime/__init__.py)",
    )
    assert not marker.exists()


def test_a_native_cache_others_may_write_is_refused(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _native_folder(built)
    folder.chmod(0o777)
    run = rulewright(capsys, "simulate", "tiny", "-n", "1", "--native")
    sound(run, cli.EXIT_USAGE, "can be written by other users")


def test_two_native_builds_at_once_each_use_a_staging_folder_of_their_own(
    built: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mypyc stood in for (what it makes: a shared library beside the sources), two builds run
    together, and the folder left is one whole build that native_folder accepts."""
    import subprocess

    from rulewright import native

    def fake_mypyc(command: list[str], cwd: Path, **_: object) -> subprocess.CompletedProcess[str]:
        # the build's driver (native_mypyc.py): `generate SPEC OUT` writes the extensions to
        # compile, `compile EXTENSIONS JOBS` the shared libraries
        if "generate" in command:
            (Path(cwd) / command[-1]).write_text("[]", encoding="utf-8")
        else:
            # one library, as mypyc's group writes it (over one reused from the last build), made
            # by this thread
            (Path(cwd) / "fake__mypyc.so").write_bytes(str(threading.get_ident()).encode())
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(native, "missing_tools", lambda: None)
    monkeypatch.setattr(native.subprocess, "run", fake_mypyc)
    errors: list[BaseException] = []

    def one() -> None:
        try:
            native.build_native(built / "generated", built, say=lambda _: None)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=one) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    folder = native.native_folder(built / "generated", built)
    assert len(list(folder.glob("*__mypyc.so"))) == 1
    assert sorted(p.name for p in folder.parent.iterdir()) == [folder.name, folder.name + ".lock"]
    assert (folder.stat().st_mode & 0o777) == 0o700


def test_a_spec_folder_linked_out_of_the_workspace_is_refused_unread(
    shared: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = shared.parent / "private"
    secret.mkdir()
    (secret / "notes.yaml").write_text("password: hunter2\n", encoding="utf-8")
    (shared / "specs" / "notes").symlink_to(secret, target_is_directory=True)
    for argv in (["check"], ["build"]):
        run = rulewright(capsys, *argv)
        sound(run, cli.EXIT_USAGE, "specs/notes is a symbolic link that leads out of the workspace")
        assert "hunter2" not in run.text
