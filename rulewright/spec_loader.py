"""A spec folder -> a playable Game, compiled on the fly into a temporary module (not generated/).

For specs that are not built into generated/, such as test specs or a folder given as a path on
the command line, and to run case files kept outside the spec. The runtime loads only engines
that `rulewright build` wrote; compiling is this layer's job, since it may import the compiler.
"""

from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

from compiler.diagnostics import render_all
from compiler.driver import compile_spec
from runtime.game import Game


def import_engine(source: str, name: str) -> ModuleType:
    """Import a compiled engine's source as a module from a temporary file (kept, so that rule
    coverage can read it)."""
    path = Path(tempfile.mkdtemp(prefix="rulewright-")) / f"{name}_engine.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(f"rulewright_spec_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_spec(
    folder: Path, options: dict[str, Any] | None = None, scenarios: list[Path] | None = None
) -> Game:
    """Compile a spec folder on the fly (into a temporary module) and load it, with the case files
    `scenarios` compiled in beside the spec's own. Raises ValueError with the diagnostics if it
    has errors."""
    result = compile_spec(folder, scenarios=scenarios)
    if not result.ok:
        raise ValueError(f"{folder} has errors:\n{render_all(result.diagnostics)}")
    module = import_engine(result.files["engine.py"], result.name)
    return Game(module.State, module.SCENARIOS, options)
