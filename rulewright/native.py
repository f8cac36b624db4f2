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
                            (`<game>/engine__mypyc*.so`: the shared library of the game's group)
        *__mypyc*.so        the shared library of the runtime's group
        manifest.json       the SHA-256 of every source file it was compiled from, and of every
                            file of the folder (the compiled modules and their bytecode too), and
                            the digest each group was compiled from (`compiled`)

mypyc compiles one group per game and one for the runtime (rulewright/native_mypyc.py): smaller
C files, compiled by several C compilers at once, in a process started after mypyc's own has
ended and given back its memory. A game's group depends only on the runtime and the game's own
output folder, so a build reuses from the last one (once that folder passes every check below)
the compiled modules of each group made from exactly the same sources, Python, mypyc and C
options: changing one game recompiles that game alone.

The folder is trusted only as this user's alone: made with mode 0o700 (runtime/usercache.py), and
before a process plays from it every file in it is checked against the manifest (a file it does not
name, a link, or one whose bytes differ refuses the whole folder), so nothing planted there is ever
imported. The interpreted modules are compiled to bytecode at build time (hash-based .pyc files,
in the manifest too) and the playing process writes none. Each build compiles in a staging folder
of its own and swaps the finished folder in under a lock, so two builds at once both succeed.

A process plays natively with the folder first on sys.path (so `import runtime` finds the
compiled runtime) and the games loaded from `engines/` (runtime/loading.py imports an output
folder under a private package name, `package_name(folder)`: the engines are compiled under that
name, so that the compiled modules' names are the ones they are imported as). `native_folder`
refuses a folder whose sources have changed since: a stale native engine would play other rules.

A native build needs mypyc (it comes with mypy: `pip install rulewright[native]`), a C compiler
and Python's headers. It takes minutes and, for a large game, gigabytes of memory (see
docs/performance.md); the groups' C is compiled with -O1 (-O3 took twice the compiling, and the
runtime's group at -O3 played no faster than at -O1: most of a game's time is in CPython's own
functions), mypyc's C library once for all groups with -O3, each module's top level (run once, at
import) and the code that only loads, saves or shows a state (ENGINE_COLD, RUNTIME_COLD, a game's
fields' getters and setters) without optimisation, and no debug information, unless
MYPYC_OPT_LEVEL and MYPYC_DEBUG_LEVEL say otherwise (rulewright/native_mypyc.py).
The interpreted engines are what `make test` checks, the native ones are for long simulation runs. Games play identically either way (tests/test_native.py).
"""

from __future__ import annotations

import compileall
import fcntl
import hashlib
import json
import os
import py_compile
import re
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runtime.loading import package_name
from runtime.trust import read_record
from runtime.usercache import private_folder, read_private_file

ENGINES = "engines"
MANIFEST = "manifest.json"
NATIVE = "native"
RUNTIME_MODULES = ("engine.py", "rng.py")  # the runtime's hot modules; the rest stays interpreted
RUNTIME_DIR = Path(__file__).resolve().parents[1] / "runtime"
MAX_MANIFEST_BYTES = 16 * 1024 * 1024
DRIVER = Path(__file__).resolve().with_name("native_mypyc.py")  # run in processes of its own
OPT_LEVEL = "1"  # the C compiler's -O and -g, unless MYPYC_OPT_LEVEL or MYPYC_DEBUG_LEVEL say otherwise
DEBUG_LEVEL = "0"
LIBRT_OPT_LEVEL = "3"  # mypyc's C library: hot in every game, and compiled once for all the groups
# Code that runs only when a state is loaded or saved, a module imported, or an error explained,
# never in play (nor in clone, nor in what the OpenSpiel and PettingZoo adapters show at each
# step), compiled without optimisation (rulewright/native_mypyc.py): a game's frames' and state's
# (de)serialisation and its fields' getters and setters (interpreted code's access; the compiled
# code reads them directly), and these functions of the runtime's compiled modules ("Class.method"
# or "function"), none of which random play, clone or to_json of any bundled game calls.
ENGINE_COLD = ("to_data", "_dump_vars", "_load_vars")
RUNTIME_COLD = (
    "Decision.__repr__",
    "Frame.from_data",
    "GameInfo.__post_init__",
    "GameState.__str__",
    "GameState._bad_decision",
    "GameState._legal_text",
    "GameState._refuse",
    "GameState._restore",
    "GameState._restore_chance",
    "GameState._where",
    "Rng.from_data",
    "Zones.from_data",
    "_recurring",
    "_shown",
    "_too_deep",
    "cell_labels",
    "named",
    "number_labels",
    "shown_value",
)


class NativeError(Exception):
    """A native build that cannot be made or used: what is missing, or what went wrong."""


@dataclass(frozen=True)
class NativeBuild:
    folder: Path
    games: tuple[str, ...]
    cpu_s: float
    wall_s: float


def native_key(workspace_root: Path) -> str:
    return hashlib.sha256(str(workspace_root.resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:16]


def native_root(workspace_root: Path) -> Path:
    """The native folder of a workspace: in this user's cache, never in the workspace, whose
    folders people share (a shared folder must not bring machine code that `--native` would load).
    The cache's folders are checked to be this user's alone (made so where missing)."""
    try:
        return private_folder(NATIVE) / native_key(workspace_root)
    except OSError as exc:
        raise NativeError(f"cannot use the native cache: {exc}") from None


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
    built = _built(output)
    games = [g for g in _games(built) if only is None or g in only]
    if not games:
        raise NativeError(f"{output} holds no compiled game to compile: run `rulewright build` first")
    folder = native_root(workspace_root)
    package = package_name(folder / ENGINES)
    opt_level = os.environ.get("MYPYC_OPT_LEVEL", OPT_LEVEL)
    librt_opt_level = os.environ.get("MYPYC_OPT_LEVEL", LIBRT_OPT_LEVEL)
    debug_level = os.environ.get("MYPYC_DEBUG_LEVEL", DEBUG_LEVEL)
    stage = Path(tempfile.mkdtemp(prefix=f"{folder.name}-stage-", dir=folder.parent))  # mode 0o700
    try:
        _copy_tree(RUNTIME_DIR, stage / "runtime")
        for rel, data in built.items():
            (stage / package / rel).parent.mkdir(parents=True, exist_ok=True)
            (stage / package / rel).write_bytes(data)
        # what is compiled is these copies: the manifest is theirs, whatever changes meanwhile
        sources = _sources(stage / "runtime", built)
        closed = _closed(stage, package, games)
        keys = _compile_keys(sources, games, package, f"{opt_level}/{librt_opt_level}/{closed}", debug_level)
        runtime_reused, reused = _reuse(folder, keys, stage, package)
        fresh = [g for g in games if g not in reused]
        cpu0, wall0 = _children_cpu(), time.perf_counter()
        if fresh or not runtime_reused:
            what = ("the runtime and " if not runtime_reused else "") + f"{len(fresh)} game(s)"
            kept = f"; unchanged, kept: {', '.join(sorted(reused))}" if reused else ""
            say(f"compiling {what} with mypyc ({', '.join(fresh) or 'none'}{kept}); this takes minutes")
            _mypyc(stage, package, fresh, runtime_reused, opt_level, debug_level, librt_opt_level, closed)
        else:
            say(
                f"the runtime and {', '.join(sorted(reused))} are unchanged since the last native build: kept"
            )
        cpu, wall = _children_cpu() - cpu0, time.perf_counter() - wall0
        made = stage / "made"
        made.mkdir(mode=0o700)
        for lib in stage.glob("*__mypyc*"):
            shutil.move(str(lib), made / lib.name)
        shutil.move(str(stage / "runtime"), made / "runtime")
        shutil.move(str(stage / package), made / ENGINES)
        for sub in ("runtime", ENGINES):  # the playing process writes no bytecode: it is made here
            compileall.compile_dir(
                made / sub, quiet=2, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH
            )
        manifest = {
            "python": sys.version,
            "package": package,
            "sources": sources,
            "compiled": keys,
            "files": _files(made),
        }
        (made / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        _swap_in(made, folder)
    except OSError as exc:
        raise NativeError(f"cannot write the native build in {folder} ({exc.strerror or exc})") from None
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return NativeBuild(folder, tuple(games), cpu, wall)


def _swap_in(made: Path, folder: Path) -> None:
    """Put the finished build `made` in place of `folder`, under a lock, so that two builds at once
    each swap in a whole folder and a reader never sees half of one."""
    lock = os.open(folder.with_name(folder.name + ".lock"), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        old = folder.with_name(f"{made.parent.name}-old")
        if os.path.lexists(folder):
            os.rename(folder, old)
        os.rename(made, folder)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        os.close(lock)


def native_folder(output: Path, workspace_root: Path) -> Path:
    """The workspace's native folder, checked before anything in it is imported: this user's
    alone, every file in it the one the manifest names (no other file, no link), and built from the
    current sources."""
    folder = native_root(workspace_root)
    manifest = _trusted_manifest(folder)
    built, now = manifest.get("sources"), _sources(RUNTIME_DIR, _built(output))
    if built != now:
        built = built if isinstance(built, dict) else {}
        changed = sorted(k for k in set(now) | set(built) if built.get(k) != now.get(k))
        raise NativeError(
            f"the native build is out of date ({', '.join(changed[:3])}"
            f"{' ...' if len(changed) > 3 else ''} changed since): run `rulewright build --native`"
        )
    return folder


def _trusted_manifest(folder: Path) -> dict[str, Any]:
    """The manifest of the native folder `folder` once the folder is checked: this user's alone,
    made by this Python in this place, and holding exactly the files the manifest names."""
    if not os.path.lexists(folder):
        raise NativeError("no native build of this workspace: run `rulewright build --native` first")
    try:
        private_folder(NATIVE, folder.name, create=False)
    except OSError as exc:
        raise NativeError(f"the native build cannot be trusted: {exc}") from None
    data = read_private_file(folder / MANIFEST, MAX_MANIFEST_BYTES)
    try:
        manifest = json.loads(data) if data is not None else None
    except ValueError:
        manifest = None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), dict):
        raise NativeError(
            "the native build has no readable manifest (an older or broken build): run `rulewright build --native`"
        )
    if manifest.get("python") != sys.version:
        raise NativeError("the native build was made by another Python: run `rulewright build --native`")
    if manifest.get("package") != package_name(folder / ENGINES):
        raise NativeError("the native build was made in another folder: run `rulewright build --native`")
    try:
        found = _walked(folder, skip=MANIFEST)
    except NativeError as exc:
        raise NativeError(
            f"the native build cannot be trusted: {exc}; run `rulewright build --native`"
        ) from None
    if found != manifest["files"]:
        listed = manifest["files"]
        odd = sorted(k for k in set(found) | set(listed) if found.get(k) != listed.get(k))
        raise NativeError(
            f"the native build's files are not the ones it was built with ({', '.join(odd[:3])}"
            f"{' ...' if len(odd) > 3 else ''}): nothing of it was imported; run `rulewright build --native`"
        )
    return manifest


def _compile_keys(
    sources: dict[str, str], games: Sequence[str], package: str, opt_level: str, debug_level: str
) -> dict[str, Any]:
    """What each compilation group's machine code is made from, as a digest: the runtime's group
    from the whole runtime, this Python, mypyc, the driver and the C options; a game's group from
    that and the game's own output folder (a game's C depends only on the runtime and its own
    engine)."""
    from mypy.version import __version__ as mypy_version

    def digest(*parts: object) -> str:
        return hashlib.sha256(json.dumps(parts, sort_keys=True).encode("utf-8")).hexdigest()

    runtime = digest(
        sys.version,
        mypy_version,
        package,
        opt_level,
        debug_level,
        RUNTIME_MODULES,  # the runtime group's modules name its library
        hashlib.sha256(DRIVER.read_bytes()).hexdigest(),  # what it does to mypyc's C
        [os.environ.get(v, "") for v in ("CC", "CFLAGS", "CPPFLAGS", "LDFLAGS")],
        sorted((k, v) for k, v in sources.items() if k.startswith("runtime/")),
    )
    games_keys = {}
    for game in games:
        own = sorted(
            (k, v)
            for k, v in sources.items()
            if k.startswith(f"{ENGINES}/{game}/") or k.count("/") == 1 and k.startswith(f"{ENGINES}/")
        )
        games_keys[game] = digest(runtime, game, own)
    return {"runtime": runtime, "games": games_keys}


def _reuse(folder: Path, keys: dict[str, Any], stage: Path, package: str) -> tuple[bool, set[str]]:
    """Copy into `stage` the compiled modules of the last native build that are made from exactly
    what this build would compile them from (the same digest in `keys`): whether the runtime's
    were, and the games whose were. Only from a folder that passes every check `--native` makes,
    and each file checked against that manifest as it is read (a build swapped in meanwhile is
    simply not reused)."""
    try:
        manifest = _trusted_manifest(folder)
    except NativeError:
        return False, set()
    old = manifest.get("compiled")
    files = manifest["files"]
    if not isinstance(old, dict) or old.get("runtime") != keys["runtime"]:
        return False, set()

    def copy(rels: list[str], dest_of: Callable[[str], Path]) -> bool:
        if not rels:
            return False
        for rel in rels:
            try:
                with open(folder / rel, "rb", opener=_no_follow) as f:
                    data = f.read()
            except OSError:
                return False
            if hashlib.sha256(data).hexdigest() != files[rel]:
                return False
            dest_of(rel).write_bytes(data)
        return True

    runtime = [r for r in files if _is_compiled(r) and (r.count("/") == 0 or r.startswith("runtime/"))]
    if not copy(runtime, lambda rel: stage / rel):
        return False, set()
    old_games = old.get("games")
    if not isinstance(old_games, dict):
        return True, set()
    reused = set()
    for game, key in keys["games"].items():
        if old_games.get(game) != key:
            continue
        prefix = f"{ENGINES}/{game}/"
        mine = [r for r in files if r.startswith(prefix) and r.count("/") == 2 and _is_compiled(r)]
        if copy(mine, lambda rel: stage / package / rel.removeprefix(f"{ENGINES}/")):
            reused.add(game)
    return True, reused


def _is_compiled(rel: str) -> bool:
    return rel.endswith(tuple(m for m in _extension_suffixes()))


def _extension_suffixes() -> tuple[str, ...]:
    import importlib.machinery

    return tuple(importlib.machinery.EXTENSION_SUFFIXES)


def _mypyc(
    stage: Path,
    package: str,
    games: Sequence[str],
    runtime_reused: bool,
    opt_level: str,
    debug_level: str,
    librt_opt_level: str,
    closed: bool,
) -> None:
    """Compile, in `stage`, the runtime's hot modules (one group) and each game's engine (a group
    each) with mypyc: C generated in one process, compiled in another, groups in parallel. With
    `runtime_reused`, the runtime's compiled modules are already in `stage`: its C is generated
    (the games' groups are compiled against it) but not compiled again."""
    runtime = [f"runtime/{m}" for m in RUNTIME_MODULES]
    engines = [f"{package}/{g}/engine.py" for g in games]
    spec = {
        "modules": runtime + engines,
        "groups": [[runtime, None]] + [[[e], None] for e in engines],
        "opt_level": opt_level,
        "debug_level": debug_level,
        "closed": closed,
    }
    (stage / "mypyc-spec.json").write_text(json.dumps(spec), encoding="utf-8")
    _run_driver(stage, "generate", "mypyc-spec.json", "extensions.json")
    extensions = json.loads((stage / "extensions.json").read_text(encoding="utf-8"))
    runtime_names = {m.removesuffix(".py").replace("/", ".") for m in runtime}

    def of_runtime(e: dict[str, Any]) -> bool:
        # its shims are named for its modules, its shared library for no package (a group of two)
        return e["name"] in runtime_names or ("." not in e["name"] and e["name"].endswith("__mypyc"))

    if runtime_reused:
        extensions = [e for e in extensions if not of_runtime(e)]
    compiling = {
        "extensions": extensions,
        "librt_opt_level": librt_opt_level,
        "cold": cold_functions(package),
        "cold_fields": [f"^{re.escape(package)}___"],
    }
    (stage / "extensions.json").write_text(json.dumps(compiling), encoding="utf-8")
    _run_driver(stage, "compile", "extensions.json", str(_jobs()))


def cold_functions(package: str) -> list[str]:
    """Regular expressions of the C names mypyc gives the cold functions (ENGINE_COLD, RUNTIME_COLD)
    and their Python-call wrappers and glue: `CPyDef_<module>___<Class>___<name>`, dots as `___`."""
    runtime = "|".join(re.escape(name.replace(".", "___")) for name in RUNTIME_COLD)
    engine = "|".join(re.escape(name) for name in ENGINE_COLD)
    return [
        rf"^CPy(?:Def|Py)_runtime___(?:engine|rng)___(?:{runtime})(?:__\w+_glue)?$",
        rf"^CPy(?:Def|Py)_{re.escape(package)}___\w+___engine___\w+___(?:{engine})(?:__\w+_glue)?$",
    ]


_AST_LOCK = threading.Lock()


def _closed(stage: Path, package: str, games: Sequence[str]) -> bool:
    """Whether every class of the games' engines derives only from classes of its own engine or
    from the runtime's classes open to interpreted subclasses (`allow_interpreted_subclasses`, which
    mypyc never takes for final): then no group's class has a subclass in another group, and mypyc
    may optimise each group as if it saw the whole program (rulewright/native_mypyc.py)."""
    import ast

    def classes(path: Path) -> list[ast.ClassDef]:
        with _AST_LOCK:  # (CPython 3.11's ast.parse is not safe in two threads: two builds at once)
            tree = ast.parse(path.read_bytes(), filename=str(path))
        return [node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]

    def opens(node: ast.ClassDef) -> bool:
        return any(
            isinstance(d, ast.Call)
            and any(
                k.arg == "allow_interpreted_subclasses"
                and isinstance(k.value, ast.Constant)
                and k.value.value is True
                for k in d.keywords
            )
            for d in node.decorator_list
        )

    open_bases = {c.name for m in RUNTIME_MODULES for c in classes(stage / "runtime" / m) if opens(c)}
    for game in games:
        own = classes(stage / package / game / "engine.py")
        allowed = open_bases | {c.name for c in own}
        for c in own:
            if c.keywords or not all(isinstance(b, ast.Name) and b.id in allowed for b in c.bases):
                return False
    return True


def _jobs() -> int:
    """C compilers run at once: the cores this process may use (a large engine's C takes about a
    gigabyte to compile, so no more than four)."""
    from rulewright.parallel import usable_cores

    return min(4, usable_cores())


def _run_driver(stage: Path, *argv: str) -> None:
    env = {**os.environ, "MYPY_CACHE_DIR": str(stage / ".mypy_cache")}
    done = subprocess.run(
        [sys.executable, "-P", str(DRIVER), *argv],  # -P: not its own folder first on sys.path
        cwd=stage,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        errors="replace",
    )
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        raise NativeError(f"mypyc failed (exit {done.returncode}):\n{tail}")


def _files(folder: Path, skip: str | None = None) -> dict[str, str]:
    """The sha256 of every file under `folder`, by its path there; NativeError for anything that is
    neither a folder nor a regular file (a link, a FIFO)."""
    out: dict[str, str] = {}
    for here, dirs, files in os.walk(folder):
        for name in [*dirs, *files]:
            path = Path(here) / name
            mode = os.lstat(path).st_mode
            if stat.S_ISDIR(mode):
                continue
            rel = path.relative_to(folder).as_posix()
            if not stat.S_ISREG(mode):
                raise NativeError(f"{rel} is not a regular file")
            if rel != skip:
                out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def _walked(folder: Path, skip: str | None = None) -> dict[str, str]:
    """`_files` of a folder another build may swap away meanwhile: its vanishing is a NativeError."""
    try:
        return _files(folder, skip)
    except OSError as exc:
        raise NativeError(f"{folder} changed while it was read ({exc.strerror or exc})") from None


def _built(output: Path) -> dict[str, bytes]:
    """The files of `output` that this user's build wrote, by their path there, each checked
    against its record (runtime/trust.py): a native build never compiles Python that build did not
    write. A file built once and since removed is left out."""
    record = read_record(output)
    if record is None:
        raise NativeError(f"{output} was not built by you: run `rulewright build` first")
    out: dict[str, bytes] = {}
    for rel, sha256 in sorted(record.files.items()):
        source = output / rel
        try:
            with open(source, "rb", opener=_no_follow) as f:
                data = f.read()
        except OSError:
            continue
        if hashlib.sha256(data).hexdigest() != sha256:
            raise NativeError(
                f"{source} is not the file your `rulewright build` wrote: run `rulewright build`"
            )
        out[rel] = data
    return out


def _no_follow(path: str, flags: int) -> int:
    return os.open(path, flags | os.O_NOFOLLOW)


def _games(built: dict[str, bytes]) -> list[str]:
    return sorted(rel.split("/")[0] for rel in built if rel.endswith("/engine.py") and rel.count("/") == 1)


def _copy_tree(source: Path, dest: Path) -> None:
    shutil.copytree(source, dest, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc"))


def _sources(runtime: Path, engines: dict[str, bytes]) -> dict[str, str]:
    """The hash of every Python file a native build compiles or copies, by its place."""
    out = {
        f"runtime/{p.relative_to(runtime).as_posix()}": hashlib.sha256(p.read_bytes()).hexdigest()
        for p in _python_files(runtime)
    }
    out.update({f"engines/{rel}": hashlib.sha256(data).hexdigest() for rel, data in engines.items()})
    return out


def _python_files(folder: Path) -> Iterator[Path]:
    yield from sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def _children_cpu() -> float:
    t = os.times()
    return t.children_user + t.children_system
