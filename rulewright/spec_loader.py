"""A spec folder -> a playable Game, compiled on the fly into a temporary package (not generated/).

For specs that are not built into generated/, such as test specs or a folder given as a path on
the command line, and to run case files kept outside the spec. The runtime loads only engines
that `rulewright build` wrote; compiling is this layer's job, since it may import the compiler.
"""

from __future__ import annotations

import atexit
import importlib
import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

from compiler.diagnostics import render_all
from compiler.driver import compile_spec
from runtime.game import Game, scenarios_of


def import_package(files: dict[str, str], name: str) -> ModuleType:
    """Import a compiled game's files (engine.py, scenarios.py, __init__.py) as a package from a
    temporary folder (kept while the process runs, so that rule coverage can read the engine's
    source; removed when it exits)."""
    folder = Path(tempfile.mkdtemp(prefix="rulewright-"))
    atexit.register(_remove, folder, os.getpid())
    package = f"rulewright_spec_{folder.name.replace('-', '_')}_{name}"
    for file, text in files.items():
        (folder / file).write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(
        package, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[package] = module
    spec.loader.exec_module(module)
    importlib.import_module(f"{package}.scenarios")
    return module


def _remove(folder: Path, owner: int) -> None:
    """Remove a temporary package at exit, in the process that made it only (a forked worker
    that exits through its atexit handlers leaves its parent's folder alone)."""
    if os.getpid() == owner:
        shutil.rmtree(folder, ignore_errors=True)


def load_spec(
    folder: Path,
    options: dict[str, Any] | None = None,
    scenarios: list[Path] | None = None,
    *,
    rules_only: bool = False,
) -> Game:
    """Compile a spec folder on the fly (into a temporary package) and load it, with the case
    files `scenarios` compiled in beside the spec's own; with `rules_only`, without any scenario
    (playing needs none, and a spec's scenarios can take most of its compile time). Raises
    ValueError with the diagnostics if it has errors."""
    result = compile_spec(folder, scenarios=[] if rules_only else scenarios)
    if not result.ok:
        raise ValueError(f"{folder} has errors:\n{render_all(result.diagnostics)}")
    package = import_package(result.files, result.name)
    return Game(package.State, scenarios_of(package), options)
