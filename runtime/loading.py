"""Loading: a game's name and the output folders to search -> its compiled engine package, imported.

`rulewright build` writes an output folder that is itself a package: its `__init__.py` lists the
games in `GAMES`, and each game is a package `<output>/<game>/` whose modules import one another
relatively (`from .engine import ...`). A name resolves in the folders given, in order, then in the
bundled games (the `generated` package installed beside this runtime): the first folder listing
it wins, and only a name a folder lists is ever imported, never a path.

The bundled folder is imported as `generated`, as an installed package is. Any other folder is
someone's workspace, which may have come from anyone: it is imported only as far as this user's
own `build` wrote it (runtime/trust.py). Its modules are served by a finder of their own under a
private package name made from the folder's path, `rulewright_workspace_<hash>`, each module's
bytes read once, checked against the record of what build wrote, and compiled from those bytes
(never from a `__pycache__` of the folder, which anyone could have planted). A folder without a
record, or a file that differs from it, is refused before any of it runs, with what to run. So a
user's `generated/` and the installed `generated` never shadow each other, two workspaces never
meet, and a game rebuilt in the same process (its record changed) is imported afresh.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import marshal
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:  # the trust record is read only for a workspace's folder: not for the bundled games
    from importlib.abc import Loader  # (importlib.abc itself imports importlib.resources: not at run time)

    from runtime.trust import Record

BUNDLED_PACKAGE = "generated"
WORKSPACE_PACKAGE_PREFIX = "rulewright_workspace_"
MAX_MODULE_BYTES = 64 * 1024 * 1024  # the largest generated module holds 2.3 MB
BYTECODE_FOLDER = "bytecode"
MAX_BYTECODE_FILES = 256  # the compiled modules kept in the cache; the oldest go first


class EngineLoadError(ImportError):
    """An output folder or a compiled game in it that cannot be imported (run `rulewright build`)."""


@dataclass(frozen=True)
class EngineSource:
    """Where a compiled game is: the package to import, and the output folder holding it. A game of
    a folder this user's build did not write has `refused`: why it is never imported."""

    name: str
    package: str  # the game's package: generated.NAME, or rulewright_workspace_<hash>.NAME
    folder: Path  # the output folder
    bundled: bool  # one of the games installed with the runtime
    refused: str | None = None


def bundled_folder() -> Path | None:
    """The folder of the bundled games: the `generated` package installed beside this runtime.
    Found from here rather than from sys.path, where a `generated/` of the current folder (under
    `python -m`) would stand first."""
    folder = Path(__file__).resolve().parents[1] / BUNDLED_PACKAGE
    return folder if (folder / "__init__.py").is_file() else None


def import_checked_folder(folder: Path) -> None:
    """Import the output folder `folder` from its files, as the bundled games are: for a folder the
    caller has checked file by file and that only this user can write to (a native build's copy of
    an output folder, whose compiled modules the trust record does not cover: rulewright/native.py)."""
    _CHECKED.add(folder.resolve())


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
        elif resolved in _CHECKED:
            package = _import_by_path(resolved)
            if package is not None:
                out += [EngineSource(n, f"{package.__name__}.{n}", resolved, False) for n in _listed(package)]
        else:
            out += _workspace_games(resolved)
    if bundled is None or bundled not in seen:
        out += _bundled_games(bundled)
    return out


def find_game(name: str, search: Sequence[Path] = ()) -> EngineSource | None:
    """Where the game `name` is compiled (the first folder listing it), or None."""
    return next((s for s in find_games(search) if s.name == name), None)


def import_engine(source: EngineSource) -> ModuleType:
    """The imported package of a compiled game (it exports State and SCENARIOS)."""
    if source.refused is not None:
        raise EngineLoadError(source.refused)
    try:
        return importlib.import_module(source.package)
    except EngineLoadError:
        raise
    except Exception as exc:
        if source.bundled:
            raise
        raise EngineLoadError(
            f"cannot import the compiled game in {source.folder / source.name}: {_reason(exc)}"
        ) from exc


# ---- a workspace's output folder: only what this user's build wrote ----------------------------

# the workspace packages imported, each with the record its modules were checked against
_VERIFIED: dict[str, Record] = {}
# folders imported by path, as the bundled games are (import_checked_folder)
_CHECKED: set[Path] = set()


def _workspace_games(folder: Path) -> list[EngineSource]:
    """The games of a workspace's output folder: imported when this user's build wrote its
    `__init__.py`, else listed from its folders, each refused."""
    init = folder / "__init__.py"
    if not os.path.lexists(init):
        return []  # before its first build
    from runtime.trust import read_record

    name = package_name(folder)
    record = read_record(folder)
    data = _read_module(init)
    if record is None:
        why = "no record of your `rulewright build` writing it"
    elif data is None or not record.matches("__init__.py", data):
        why = "its __init__.py is not the one your `rulewright build` wrote"
    else:
        package = _import_verified(name, folder, record)
        return [EngineSource(n, f"{name}.{n}", folder, False) for n in _listed(package)]
    refused = f"{folder} was not built by you ({why}): {NOT_BUILT_HINT}"
    return [EngineSource(n, f"{name}.{n}", folder, False, refused) for n in _game_folders(folder)]


NOT_BUILT_HINT = "its Python is never imported; run `rulewright build` to compile the engines from the specs"


def _import_verified(name: str, folder: Path, record: Record) -> ModuleType:
    module = sys.modules.get(name)
    old = _VERIFIED.get(name)
    if module is not None and old is not None and old.files == record.files and old.folder == folder:
        return module
    _forget(name)
    _VERIFIED[name] = record
    _install_finder()
    try:
        return importlib.import_module(name)
    except EngineLoadError:
        _forget(name)
        raise
    except Exception as exc:
        _forget(name)
        raise EngineLoadError(f"cannot import the compiled games in {folder}: {_reason(exc)}") from exc


def _game_folders(folder: Path) -> list[str]:
    """The names of the game packages in an output folder, seen without reading a file of it."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return []
    return [
        e.name
        for e in entries
        if e.name.isidentifier()
        and not e.name.startswith("__")
        and e.is_dir(follow_symlinks=False)
        and os.path.lexists(Path(e.path) / "__init__.py")
    ]


class _VerifiedFinder:
    """Finds the modules of the workspace packages in _VERIFIED, and only the files their record
    names: a module the record does not name is not found, whatever the folder holds."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        top, _, rest = fullname.partition(".")
        record = _VERIFIED.get(top)
        if record is None:
            return None
        base = rest.replace(".", "/")
        candidates = (
            [(f"{base}/__init__.py", True), (f"{base}.py", False)] if base else [("__init__.py", True)]
        )
        for relative, is_package in candidates:
            if relative in record.files:
                file = record.folder / relative
                loader = cast("Loader", _VerifiedLoader(file, record.files[relative]))
                return importlib.util.spec_from_file_location(
                    fullname, file, loader=loader, submodule_search_locations=[] if is_package else None
                )
        raise ModuleNotFoundError(f"no module named {fullname!r} among the files build wrote", name=fullname)


class _VerifiedLoader:
    """Runs a module from the bytes of its file, read once and checked against the record."""

    def __init__(self, file: Path, sha256: str) -> None:
        self.file = file
        self.sha256 = sha256

    def _data(self) -> bytes:
        data = _read_module(self.file)
        if data is None or hashlib.sha256(data).hexdigest() != self.sha256:
            raise EngineLoadError(
                f"{self.file} is not the file your `rulewright build` wrote (changed since, or not a "
                f"file): {NOT_BUILT_HINT}"
            )
        return data

    def get_source(self, fullname: str) -> str:
        return self._data().decode("utf-8", "replace")

    def get_code(self, fullname: str) -> CodeType:
        data = self._data()
        return _compiled(data, self.sha256, str(self.file))

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None  # the usual module object

    def exec_module(self, module: ModuleType) -> None:
        exec(self.get_code(module.__name__), module.__dict__)


_finder = _VerifiedFinder()


def _install_finder() -> None:
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)


def _read_module(file: Path) -> bytes | None:
    """A module's bytes: a regular file's, never a link's, a FIFO's or a device's."""
    from runtime.usercache import read_regular_file

    return read_regular_file(file, MAX_MODULE_BYTES)


def _compiled(data: bytes, sha256: str, filename: str) -> CodeType:
    """The code of a module's checked bytes, from this user's bytecode cache when it holds it (a
    large engine takes a third of a second to compile)."""
    from runtime.usercache import private_folder, read_private_file, write_file_atomically

    key = hashlib.sha256(
        b"\0".join((importlib.util.MAGIC_NUMBER, sha256.encode(), os.fsencode(filename)))
    ).hexdigest()
    try:
        folder = private_folder(BYTECODE_FOLDER)
    except (OSError, ValueError):
        folder = None
    if folder is not None:
        cached = read_private_file(folder / f"{key}.bin", 4 * MAX_MODULE_BYTES)
        if cached is not None:
            try:
                code = marshal.loads(cached)
                if isinstance(code, CodeType):
                    return code
            except (ValueError, EOFError, TypeError):
                pass
    code = compile(data, filename, "exec", dont_inherit=True)
    if folder is not None:
        try:
            write_file_atomically(folder / f"{key}.bin", marshal.dumps(code))
            _prune(folder)
        except OSError:
            pass
    return code


def _prune(folder: Path) -> None:
    entries = sorted(folder.glob("*.bin"), key=lambda p: p.stat().st_mtime)
    for old in entries[:-MAX_BYTECODE_FILES]:
        old.unlink(missing_ok=True)


# ---- the bundled games, and folders imported from their files -----------------------------------

# package -> the stamp of its __init__.py when imported; folders imported by path only
_imported: dict[str, tuple[tuple[str, int, int], ...]] = {}


def _bundled_games(folder: Path | None) -> list[EngineSource]:
    """The bundled games: imported as the `generated` package when that name is theirs, else (a
    folder of the same name shadows it on sys.path) from their files."""
    if folder is None:
        return []
    root = (
        importlib.import_module(BUNDLED_PACKAGE) if _is_bundled_package(folder) else _import_by_path(folder)
    )
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
    key = hashlib.sha256(str(folder.resolve()).encode("utf-8", "surrogateescape")).hexdigest()
    return f"{WORKSPACE_PACKAGE_PREFIX}{key[:12]}"


def _import_by_path(folder: Path) -> ModuleType | None:
    """A trusted output folder imported as a package from its files (again when its `__init__.py`
    changed); None when it holds no `__init__.py`."""
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
    _imported.pop(package, None)
    _VERIFIED.pop(package, None)
    importlib.invalidate_caches()


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
