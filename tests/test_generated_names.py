"""Generated names never collide: tests/names/<case>/ holds specs whose ids are chosen so that a
naive scheme would give two things one name (compiler/lower/names.py says how names are made).

Each case must compile, define every module-level name once, pass `mypy --strict`, and play.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.diagnostics import render_all
from compiler.driver import compile_spec
from compiler.lower.names import PREFIXES
from rulewright.spec_loader import import_package
from runtime.agents import RandomAgent
from runtime.game import Game

CASES = sorted(p for p in (Path(__file__).parent / "names").iterdir() if p.is_dir())


def _defined(text: str) -> list[str]:
    """Every name a module's top-level statements bind (engine.py's Final copies of its tables'
    names, `F_x: Final = tables_.F_x`, are the names tables.py binds, not new ones)."""
    names: list[str] = []
    for node in ast.parse(text).body:
        match node:
            case ast.AnnAssign(
                target=ast.Name(id=name), value=ast.Attribute(value=ast.Name(id="tables_"), attr=attr)
            ) if name == attr:
                pass
            case ast.FunctionDef() | ast.ClassDef():
                names.append(node.name)
            case ast.AnnAssign(target=ast.Name()):
                names.append(node.target.id)
            case ast.Assign():
                names += [t.id for t in node.targets if isinstance(t, ast.Name)]
    return names


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_generated_name_is_defined_once(case: Path) -> None:
    result = compile_spec(case)
    assert result.ok, render_all(result.diagnostics)
    for files in (("engine.py", "tables.py"), ("scenarios.py",)):  # the engine imports its tables
        names = [n for file in files for n in _defined(result.files[file])]
        twice = sorted({n for n in names if names.count(n) > 1})
        assert not twice, f"{' and '.join(files)} define {twice} more than once"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_engine_passes_mypy_and_plays(case: Path, tmp_path: Path) -> None:
    result = compile_spec(case)
    assert result.ok, render_all(result.diagnostics)
    package = tmp_path / result.name
    package.mkdir()
    for file, text in result.files.items():
        (package / file).write_text(text, encoding="utf-8")
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "-p", result.name],
        cwd=tmp_path,
        env={"PYTHONPATH": f"{tmp_path}:{root}", "MYPYPATH": str(root), "PATH": ""},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    loaded = import_package(result.files, result.name)
    state = Game(loaded.State).new_initial_state(seed=1)
    agent = RandomAgent(seed=1)
    while not state.is_terminal():
        state.apply_action(agent.choose(state))


def test_prefixes_are_letters_and_leave_locals_alone() -> None:
    for prefix in PREFIXES.values():
        assert prefix.isalpha(), prefix
        assert prefix not in ("l", "c"), prefix
