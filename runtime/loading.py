"""Loading: a game's name and the output folders to search -> its compiled engine package, imported.

`rulewright build` writes an output folder that is itself a package: its `__init__.py` lists the
games in `GAMES`, and each game is a package `<output>/<game>/` whose modules import one another
relatively (`from .engine import ...`). A name resolves in the folders given, in order, then in the
bundled games (the `generated` package installed beside this runtime): the first folder listing
it wins, and only a name a folder lists is ever imported, never a path.

The bundled folder is imported as `generated`, as an installed package is. Any other folder is
imported from its files under a private package name made from its path,
`rulewright_workspace_<hash>`: a user's `generated/` and the installed `generated` never shadow
each other, and two workspaces never meet. A game whose files changed since it was imported
(rebuilt in the same process) is imported afresh.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

BUNDLED_PACKAGE = "generated"
WORKSPACE_PACKAGE_PREFIX = "rulewright_workspace_"


class EngineLoadError(ImportError):
    """An output folder or a compiled game in it that cannot be imported (run `rulewright build`)."""


@dataclass(frozen=True)
class EngineSource:
    """Where a compiled game is: the package to import, and the output folder holding it."""

    name: str
    package: str  # the game's package: generated.NAME, or rulewright_workspace_<hash>.NAME
    folder: Path  # the output folder
    bundled: bool  # one of the games installed with the runtime


def bundled_folder() -> Path | None:
    """The folder of the bundled games: the `generated` package installed beside this runtime.
    Found from here rather than from sys.path, where a `generated/` of the current folder (under
    `python -m`) would stand first."""
    folder = Path(__file__).resolve().parents[1] / BUNDLED_PACKAGE
    return folder if (folder / "__init__.py").is_file() else None


def find_games(search: Sequence[Path] = ()) -> list[EngineSource]:
    """Every compiled game in the folders `search` and then the bundled ones, in that order; a name
    may come more than once (the first one shadows the others)."""
    out: list[EngineSource] = []
    bundled = bundled_folder()
    seen: set[Path] = set()
    for folder in search:
        resolved = folder.resolve()
        if resolved in seen:
            continue
        seen.add(resolved)
        if resolved == bundled:
            out += _bundled_games(bundled)
            continue
        package = _import_output(resolved)
        if package is not None:
            out += [EngineSource(n, f"{package.__name__}.{n}", resolved, False) for n in _listed(package)]
    if bundled is None or bundled not in seen:
        out += _bundled_games(bundled)
    return out


def find_game(name: str, search: Sequence[Path] = ()) -> EngineSource | None:
    """Where the game `name` is compiled (the first folder listing it), or None."""
    return next((s for s in find_games(search) if s.name == name), None)


def import_engine(source: EngineSource) -> ModuleType:
    """The imported package of a compiled game (it exports State and SCENARIOS)."""
    if source.package.startswith(BUNDLED_PACKAGE + "."):
        return importlib.import_module(source.package)
    files = source.folder / source.name
    stamp = _stamp(files)
    if _imported.get(source.package) != stamp:
        _forget(source.package)  # rebuilt since it was imported
        importlib.invalidate_caches()
    try:
        module = importlib.import_module(source.package)
    except Exception as exc:
        _forget(source.package)
        raise EngineLoadError(f"cannot import the compiled game in {files}: {_reason(exc)}") from exc
    _imported[source.package] = stamp
    return module


# ---- the private packages of output folders --------------------------------------------------

# game package -> the stamp of its files when imported; workspace packages only
_imported: dict[str, tuple[tuple[str, int, int], ...]] = {}


def _bundled_games(folder: Path | None) -> list[EngineSource]:
    """The bundled games: imported as the `generated` package when that name is theirs, else (a
    folder of the same name shadows it on sys.path) from their files, as a workspace's are."""
    if folder is None:
        return []
    root = importlib.import_module(BUNDLED_PACKAGE) if _is_bundled_package(folder) else _import_output(folder)
    if root is None:
        return []
    return [EngineSource(n, f"{root.__name__}.{n}", folder, True) for n in _listed(root)]


def _is_bundled_package(folder: Path) -> bool:
    """Whether `import generated` imports the bundled folder (found without importing it)."""
    try:
        spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    except (ImportError, ValueError):
        return False
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    return bool(locations) and Path(locations[0]).resolve() == folder


def _listed(package: ModuleType) -> list[str]:
    """The names in a package's GAMES; only identifiers, so that a name is never a path."""
    games = getattr(package, "GAMES", ())
    if not isinstance(games, tuple | list):
        return []
    return [g for g in games if isinstance(g, str) and g.isidentifier() and not g.startswith("__")]


def package_name(folder: Path) -> str:
    """The private package name an output folder (other than the bundled one) is imported under."""
    digest = hashlib.sha256(str(folder.resolve()).encode("utf-8", "surrogateescape")).hexdigest()
    return f"{WORKSPACE_PACKAGE_PREFIX}{digest[:12]}"


def _import_output(folder: Path) -> ModuleType | None:
    """The output folder imported as a package (again when its `__init__.py` changed); None when
    it holds no `__init__.py`, as before its first build."""
    init = folder / "__init__.py"
    if not init.is_file():
        return None
    name = package_name(folder)
    stamp = _stamp_of([init])
    module = sys.modules.get(name)
    if module is not None and _imported.get(name) == stamp:
        return module
    _forget(name)
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(folder)])
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        _forget(name)
        raise EngineLoadError(f"cannot import the compiled games in {folder}: {_reason(exc)}") from exc
    _imported[name] = stamp
    return module


def _forget(package: str) -> None:
    """Drop a package and its modules from the import cache, so the next import reads the files."""
    for key in [k for k in sys.modules if k == package or k.startswith(package + ".")]:
        del sys.modules[key]
    for key in [k for k in _imported if k == package or k.startswith(package + ".")]:
        del _imported[key]


def _stamp(folder: Path) -> tuple[tuple[str, int, int], ...]:
    try:
        files = sorted(folder.glob("*.py"))
    except OSError:
        files = []
    return _stamp_of(files)


def _stamp_of(files: Sequence[Path]) -> tuple[tuple[str, int, int], ...]:
    out = []
    for f in files:
        try:
            st = f.stat()
        except OSError:
            continue
        out.append((f.name, st.st_mtime_ns, st.st_size))
    return tuple(out)


def _reason(exc: BaseException) -> str:
    first = (str(exc).splitlines() or [""])[0]
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__
