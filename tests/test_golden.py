"""The compiled output of tests/golden/<case>/ is committed as engine.py.golden.

A change to the templates or the lowering shows here as a readable diff. After an intended change:
    RULEWRIGHT_UPDATE=1 .venv/bin/pytest tests/test_golden.py
then read the diff of every engine.py.golden before committing.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from compiler.diagnostics import render_all
from compiler.driver import compile_spec
from tests.conftest import ROOT

CASES = sorted(p for p in (ROOT / "tests" / "golden").iterdir() if p.is_dir())


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_generated_engine_matches_golden(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = compile_spec(case.relative_to(ROOT))
    assert result.ok, render_all(result.diagnostics)
    golden = case / "engine.py.golden"
    text = result.files["engine.py"]
    if os.environ.get("RULEWRIGHT_UPDATE") == "1":
        golden.write_text(text, encoding="utf-8")
    assert golden.read_text(encoding="utf-8") == text, "generated code changed; see the module docstring"
