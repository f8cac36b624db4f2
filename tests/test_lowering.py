"""Per-construct lowering goldens: what each construct of the language compiles to.

Each folder tests/lowering/<construct>/ holds a tiny spec that exercises one construct, and
expected.py, the golden: for every generated module of the case (in name order, `__init__.py`
aside), a `# ---- <module>` line, then each top-level statement of the module with the comment
lines directly above it, in file order. Imports, the module docstring, `class State`, the
`INFO` assignments and the scenarios' `DIGEST` are left out: they are the same boilerplate in every case (tests/test_golden.py
keeps one whole engine), and so are the tests of a saved log's lines (`sv_`, `SV_`: a few per
kind of text, compiler/lower/saved.py; the whole engine shows them). So a change to the lowering shows as a readable diff per construct.

After an intended change:
    RULEWRIGHT_UPDATE=1 .venv/bin/pytest tests/test_lowering.py
then read the diff of every expected.py before committing.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from compiler.diagnostics import render_all
from tests.conftest import ROOT, compiled

LOWERING = ROOT / "tests" / "lowering"
CASES = sorted(p for p in LOWERING.iterdir() if p.is_dir() and any(p.glob("*.yaml")))
GOLDEN = "expected.py"


def _is_boilerplate(node: ast.stmt, index: int) -> bool:
    """True for the statements every engine has alike: imports (and the tables engine.py binds as
    its own Final names, `F_x: Final = tables_.F_x`), the docstring, State, INFO, DIGEST, the
    saved log's tests."""
    match node:
        case ast.Import() | ast.ImportFrom():
            return True
        case ast.AnnAssign(
            target=ast.Name(id=name), value=ast.Attribute(value=ast.Name(id="tables_"), attr=attr)
        ):
            return name == attr
        case ast.Expr(value=ast.Constant(value=str())) if index == 0:
            return True
        case ast.ClassDef(name="State"):
            return True
        case ast.FunctionDef(name=name) if name.startswith("sv_"):
            return True
        case ast.Assign(targets=[target]) | ast.AnnAssign(target=target):
            name = ast.unparse(target)
            return name in ("INFO", "State.INFO", "DIGEST") or name.startswith("SV_")
        case _:
            return False


def _comments_above(lines: list[str], first: int) -> int:
    """The 1-based line where the run of comment lines directly above line `first` starts."""
    start = first
    while start > 1 and lines[start - 2].lstrip().startswith("#"):
        start -= 1
    return start


def module_statements(text: str) -> str:
    """The module's statements that are not boilerplate, each with its comments, in file order.

    Two statements keep the blank lines that stood between them (at most two), so the golden
    reads like the module itself.
    """
    lines = text.splitlines()
    parts: list[str] = []
    last_end = 0
    for index, node in enumerate(ast.parse(text).body):
        if _is_boilerplate(node, index):
            continue
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
        start = _comments_above(lines, first)
        assert node.end_lineno is not None
        if parts:
            gap = sum(1 for line in lines[last_end : start - 1] if not line.strip())
            parts.append("\n" * min(gap, 2))
        parts.append("\n".join(lines[start - 1 : node.end_lineno]) + "\n")
        last_end = node.end_lineno
    return "".join(parts)


def lowering_golden(files: dict[str, str]) -> str:
    """The golden text of a case: every generated module but `__init__.py`, by name."""
    sections = [
        f"# ---- {name}\n" + module_statements(files[name])
        for name in sorted(files)
        if name.endswith(".py") and name != "__init__.py"
    ]
    return "\n\n".join(sections)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_lowering_matches_golden(case: Path) -> None:
    # compiled from the root, so that origin comments name tests/lowering/<case>/... on any
    # machine; once for the run (tests/test_layout.py formats the same files)
    result = compiled(case.relative_to(ROOT).as_posix())
    assert not result.diagnostics, render_all(result.diagnostics)
    for name, text in result.files.items():
        compile(text, name, "exec")  # every generated module is valid Python
    text = lowering_golden(result.files)
    golden = case / GOLDEN
    if os.environ.get("RULEWRIGHT_UPDATE") == "1":
        golden.write_text(text, encoding="utf-8")
    assert golden.exists(), f"{golden.relative_to(ROOT)} is missing; see the module docstring"
    assert golden.read_text(encoding="utf-8") == text, "the lowering changed; see the module docstring"


def test_every_folder_is_a_case_with_a_golden() -> None:
    """A folder without a spec or a golden, or a golden left behind by a removed case, fails."""
    folders = [p for p in LOWERING.iterdir() if p.is_dir() and not p.name.startswith((".", "__"))]
    without_spec = sorted(p.name for p in folders if p not in CASES)
    assert not without_spec, f"folders without a spec (*.yaml): {without_spec}"
    missing = [c.name for c in CASES if not (c / GOLDEN).is_file()]
    assert not missing, f"cases without {GOLDEN}: {missing}"
    orphans = sorted(
        str(p.relative_to(LOWERING))
        for p in LOWERING.rglob("*.py")
        if p.parent not in CASES or p.name != GOLDEN
    )
    assert not orphans, f"goldens without a case: {orphans}"
