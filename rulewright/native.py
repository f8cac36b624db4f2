"""Native engines: `rulewright build --native` compiles the runtime's engine and every game of the
workspace (or the games it builds) with mypyc into a folder of its own, and `--native` (simulate,
bench) plays them there. A game left out runs interpreted there, on the compiled runtime.

The native folder is a copy that stands beside the sources, never in place of them, in this
user's cache (`~/.cache/rulewright/native/<workspace key>/`, or under $XDG_CACHE_HOME), not in the
workspace: people share workspace folders, and a shared folder must not bring machine code that
`--native` would load.

    <native folder>/
        runtime/            the runtime package; engine.py and rng.py also as compiled modules
        engines/            the workspace's output folder, a compiled game's engine.py also compiled
        *__mypyc*.so        the shared library mypyc makes of them all
        manifest.json       the SHA-256 of every source file it was compiled from

A process plays natively with the folder first on sys.path (so `import runtime` finds the
compiled runtime) and the games loaded from `engines/` (runtime/loading.py imports an output
folder under a private package name, `package_name(folder)`: the engines are compiled under that
name, so that the compiled modules' names are the ones they are imported as). `native_folder`
refuses a folder whose sources have changed since: a stale native engine would play other rules.

A native build needs mypyc (it comes with mypy: `pip install rulewright[native]`), a C compiler
and Python's headers. It takes minutes and, for a large game, gigabytes of memory (see
docs/performance.md); the interpreted engines are what `make test` checks, the native ones are
for long simulation runs. Games play identically either way (tests/test_native.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from runtime.loading import package_name

ENGINES = "engines"
MANIFEST = "manifest.json"
RUNTIME_MODULES = ("engine.py", "rng.py")  # the runtime's hot modules; the rest stays interpreted
RUNTIME_DIR = Path(__file__).resolve().parents[1] / "runtime"
CACHE_ENV = "XDG_CACHE_HOME"


class NativeError(Exception):
    """A native build that cannot be made or used: what is missing, or what went wrong."""


@dataclass(frozen=True)
class NativeBuild:
    folder: Path
    games: tuple[str, ...]
    cpu_s: float
    wall_s: float


def native_root(workspace_root: Path) -> Path:
    """The native folder of a workspace: in this user's cache, never in the workspace, whose
    folders people share (a shared folder must not bring machine code that `--native` would load)."""
    cache = os.environ.get(CACHE_ENV) or str(Path.home() / ".cache")
    key = hashlib.sha256(str(workspace_root.resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return Path(cache) / "rulewright" / "native" / key


def missing_tools() -> str | None:
    """Why this machine cannot make a native build, or None when it can."""
    try:
        import mypyc  # noqa: F401
    except ImportError:
        return "mypyc is not installed (it comes with mypy: pip install 'rulewright[native]')"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) on PATH"
    include = sysconfig.get_paths().get("include")
    if not include or not (Path(include) / "Python.h").is_file():
        return "Python's headers (Python.h) are not installed (the python3-dev package)"
    return None


def build_native(
    output: Path,
    workspace_root: Path,
    only: Sequence[str] | None = None,
    *,
    say: Callable[[str], None] = print,
) -> NativeBuild:
    """Compile the runtime and the engines of the output folder `output` (or only the games named
    in `only`) into the native folder. The other games are copied as they are: natively, they run
    interpreted on the compiled runtime."""
    why = missing_tools()
    if why is not None:
        raise NativeError(f"cannot build native engines: {why}")
    games = [g for g in _games(output) if only is None or g in only]
    if not games:
        raise NativeError(f"{output} holds no compiled game to compile: run `rulewright build` first")
    folder = native_root(workspace_root)
    stage = folder.with_name(folder.name + "-stage")
    package = package_name(folder / ENGINES)
    try:
        shutil.rmtree(stage, ignore_errors=True)
        _copy_tree(RUNTIME_DIR, stage / "runtime")
        _copy_tree(output, stage / package)
        # what is compiled is these copies: the manifest is theirs, whatever changes meanwhile
        sources = _sources(stage / "runtime", stage / package)
        modules = [f"runtime/{m}" for m in RUNTIME_MODULES] + [f"{package}/{g}/engine.py" for g in games]
        say(
            f"compiling the runtime and {len(games)} game(s) with mypyc ({', '.join(games)}); this takes minutes"
        )
        cpu0, wall0 = _children_cpu(), time.perf_counter()
        env = {**os.environ, "MYPY_CACHE_DIR": str(stage / ".mypy_cache")}
        done = subprocess.run(
            [sys.executable, "-m", "mypyc", *modules],
            cwd=stage,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
        )
        cpu, wall = _children_cpu() - cpu0, time.perf_counter() - wall0
        if done.returncode != 0:
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
            raise NativeError(f"mypyc failed (exit {done.returncode}):\n{tail}")
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        for lib in stage.glob("*__mypyc*"):
            shutil.move(str(lib), folder / lib.name)
        shutil.move(str(stage / "runtime"), folder / "runtime")
        shutil.move(str(stage / package), folder / ENGINES)
        manifest = {"python": sys.version, "package": package, "sources": sources}
        (folder / MANIFEST).write_text(
            json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8"
        )
    except OSError as exc:
        raise NativeError(f"cannot write the native build in {folder} ({exc.strerror or exc})") from None
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return NativeBuild(folder, tuple(games), cpu, wall)


def native_folder(output: Path, workspace_root: Path) -> Path:
    """The native folder of the workspace, checked to be built from the current sources."""
    folder = native_root(workspace_root)
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise NativeError(
            "no native build of this workspace: run `rulewright build --native` first"
        ) from None
    if not isinstance(manifest, dict) or manifest.get("python") != sys.version:
        raise NativeError("the native build was made by another Python: run `rulewright build --native`")
    if manifest.get("package") != package_name(folder / ENGINES):
        raise NativeError("the native build was made in another folder: run `rulewright build --native`")
    built, now = manifest.get("sources"), _sources(RUNTIME_DIR, output)
    if built != now:
        built = built if isinstance(built, dict) else {}
        changed = sorted(k for k in set(now) | set(built) if built.get(k) != now.get(k))
        raise NativeError(
            f"the native build is out of date ({', '.join(changed[:3])}"
            f"{' ...' if len(changed) > 3 else ''} changed since): run `rulewright build --native`"
        )
    return folder


def _games(output: Path) -> list[str]:
    return sorted(p.parent.name for p in output.glob("*/engine.py") if p.parent.name.isidentifier())


def _copy_tree(source: Path, dest: Path) -> None:
    shutil.copytree(source, dest, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc"))


def _sources(runtime: Path, output: Path) -> dict[str, str]:
    """The hash of every Python file a native build compiles or copies, by its place."""
    out: dict[str, str] = {}
    for where, base in (("runtime", runtime), ("engines", output)):
        for p in _python_files(base):
            out[f"{where}/{p.relative_to(base).as_posix()}"] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def _python_files(folder: Path) -> Iterator[Path]:
    yield from sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def _children_cpu() -> float:
    t = os.times()
    return t.children_user + t.children_system
