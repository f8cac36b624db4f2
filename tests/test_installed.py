"""The package installed, not run from this checkout: a fresh venv outside the repository, a game
made in an empty folder with `rulewright init`, and every command a designer runs on it, with the
bundled games still there and nothing written into the venv's site-packages.

Offline and quick: the venv, made without pip, reaches the test interpreter's own packages (pip,
setuptools, lark, jinja2, yaml, ruff, hypothesis) through a .pth file, and the package is installed
from a copy of its files with `pip install --no-deps --no-build-isolation`: a real, non-editable
install, built into a wheel by the setuptools of requirements-dev.lock. 5-30 s; run by
`make test`, skipped with `pytest -m 'not installed'`.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.installed

PACKAGE_FILES = (
    "pyproject.toml", "setup.py", "README.md", "LICENSE", "compiler", "runtime", "rulewright", "generated", "docs", "specs"
)  # fmt: skip
HIGH_CARD = ROOT / "tests" / "workspace" / "high_card"


def run(argv: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    return subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


def listing(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def builds_wheels() -> bool:
    """Whether the test interpreter's setuptools can build a wheel without build isolation (from
    70.1 on it does by itself; before, only with the `wheel` package)."""
    try:
        from importlib.metadata import version

        major, minor = (int(x) for x in version("setuptools").split(".")[:2])
    except (ImportError, ValueError):
        return False
    return (major, minor) >= (70, 1) or importlib.util.find_spec("wheel") is not None


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh venv with the package installed from a copy of this checkout's files."""
    if not builds_wheels():
        pytest.skip(
            "the dev tools are older than requirements-dev.lock: pip install -r requirements-dev.lock"
        )
    base = tmp_path_factory.mktemp("installed")
    source = base / "source"
    for name in PACKAGE_FILES:
        item = ROOT / name
        if item.is_dir():
            shutil.copytree(item, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(item, source / name)
    env_dir = base / "venv"
    made = run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], base)
    assert made.returncode == 0, made.stderr
    python = env_dir / "bin" / "python"
    site = Path(
        run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], base
        ).stdout.strip()
    )
    # the test interpreter's packages, after the venv's own (none but this one, rulewright, later)
    (site / "rulewright_test_dependencies.pth").write_text(
        sysconfig.get_path("purelib") + "\n", encoding="utf-8"
    )
    installed = run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", str(source)],
        base,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    yield env_dir


def test_a_designers_game_in_an_installed_package(venv: Path, tmp_path: Path) -> None:
    rulewright = str(venv / "bin" / "rulewright")
    site = next((venv / "lib").glob("python*/site-packages"))
    before = listing(site)
    assert (site / "generated" / "iron_curtain" / "engine.py").is_file()
    assert all((site / p / "py.typed").is_file() for p in ("compiler", "runtime", "rulewright", "generated"))

    def ok(*argv: str, cwd: Path, expect: str = "") -> str:
        done = run([rulewright, *argv], cwd)
        text = done.stdout + done.stderr
        assert done.returncode == 0, f"rulewright {' '.join(argv)}:\n{text}"
        assert expect in text, f"rulewright {' '.join(argv)}:\n{text}"
        assert "Traceback" not in text
        return text

    version = ok("--version", cwd=tmp_path)
    assert version.startswith("rulewright ") and version.split()[1][0].isdigit()

    # the docs and the example specs come with the package, and `rulewright docs` reads them there
    pages = ok("docs", cwd=tmp_path, expect="tutorial")
    assert all(f"\n{name} " in pages for name in ("dsl", "cli", "api", "glossary", "games/kuhn_poker"))
    assert ok("docs", "dsl", cwd=tmp_path).startswith("# The Rulewright language reference\n")
    docs = Path(ok("docs", "--path", cwd=tmp_path).strip())
    assert docs == site / "rulewright" / "bundle" / "docs"
    assert (docs / "images" / "serve-match.png").is_file() and (docs / "games" / "kuhn_poker.md").is_file()
    examples = Path(ok("docs", "--specs", cwd=tmp_path).strip())
    assert examples == site / "rulewright" / "bundle" / "specs"
    assert (examples / "kuhn_poker" / "game.yaml").is_file()
    ok("check", str(examples / "kuhn_poker"), cwd=tmp_path, expect="kuhn_poker: ok")

    # no workspace yet: check and build refuse, and nothing is built anywhere
    for argv in (["check"], ["build"]):
        done = run([rulewright, *argv], tmp_path)
        assert done.returncode == 2 and "no workspace here: run `rulewright init`" in done.stderr

    home = tmp_path / "my_games"
    ok("init", str(home), cwd=tmp_path, expect="`rulewright docs tutorial`")
    shutil.copytree(HIGH_CARD, home / "specs" / "high_card")
    ok("check", cwd=home, expect="specs/high_card: ok")
    ok("build", cwd=home, expect="generated/high_card/engine.py")
    ok("build", "--check", cwd=home / "specs", expect="generated/ is up to date (1 game(s))")
    games = ok("games", cwd=home)
    assert "high_card: High Card (2 players) [workspace]" in games
    assert "iron_curtain: Iron Curtain (2 players) [bundled]" in games
    ok("play", "high_card", "--agents", "random,random", "--seed", "1", cwd=home, expect="Result:")
    page = tmp_path / "high_card.html"  # the replay page, from the installed package's viewer files
    ok("play", "high_card", "-q", "--html", str(page), cwd=home, expect=f"replay page written to {page}")
    assert "<!DOCTYPE html>" in page.read_text(encoding="utf-8")
    ok("simulate", "high_card", "-n", "20", cwd=home, expect="High Card: 20 games")
    ok("verify", "high_card", "--examples", "5", cwd=home, expect="verify high_card: ok.")
    ok("scenarios", "high_card", cwd=home, expect="1 passed, 0 failed")
    ok("play", "iron_curtain", "--agents", "random,random", "--seed", "1", cwd=home, expect="Result:")
    # the spec files' JSON Schemas are package data: copied out for an editor's settings
    ok("schema", "--out", ".vscode", cwd=home, expect='"yaml.schemas"')
    assert json.loads((home / ".vscode" / "board.schema.json").read_text(encoding="utf-8"))["title"]

    assert listing(site) == before, "the commands wrote into the venv's site-packages"
    assert sorted(p.name for p in (home / "generated").iterdir() if p.name != "__pycache__") == [
        "__init__.py",
        "high_card",
    ]
