"""The `rulewright` command: init, check, build, games, play, replay, simulate, scenarios, verify, ...

Each command works in a workspace (rulewright/workspace.py): the specs it checks and builds, and
the output folder its engines are written to and loaded from, before the bundled games.

No input ends in a traceback: a bad argument, path, game name or log is a one-line message on
stderr, `rulewright COMMAND: ...`, and an exit code (EXIT_*). Output files and folders are
checked before any game is played, so a typo in `--log` never costs a game.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import math
import os
import re
import shlex
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from compiler import __version__
from rulewright import parallel
from rulewright.gamelog import (
    MAX_LOG_BYTES,
    SEED_LIMIT,
    GameLog,
    LogError,
    Replay,
    ReplayDivergence,
    final_digest,
    log_text,
    os_reason,
    read_log,
    replay_log,
)
from rulewright.parallel import BACKENDS, GameRecipe
from rulewright.progress import Progress
from rulewright.workspace import Workspace, WorkspaceError, find_workspace, init_workspace, open_workspace
from runtime.agents import AGENTS, Agent, check_agent, make_agent
from runtime.errors import RuleError
from runtime.terminal import HumanAgent, QuitGame, visible_log
from runtime.text import clipped, escaped, escaped_lines, quoted

if TYPE_CHECKING:
    from compiler.driver import Result
    from rulewright.balance import Setting, Trajectories
    from rulewright.bench import Side
    from rulewright.build import BuildReport
    from rulewright.coverage import RuleCoverage
    from rulewright.scenarios import ScenarioResult
    from rulewright.serve import Catalog
    from rulewright.verify import Failure, PartResult
    from runtime.engine import GameState
    from runtime.game import Game
    from runtime.loading import EngineSource

# 0 ok; 1 the spec, a rule or a check failed; 2 bad input (arguments, paths, logs), also a game
# abandoned at a human's decision (the input ended, or `q`); 70 a bug of ours (EX_SOFTWARE); 130
# interrupted by Ctrl-C (128 + SIGINT, as shells report it); 128 + N a worker process (-j) killed
# by signal N (137: SIGKILL, from the out-of-memory killer or kill -9), as the shell would report
# the command had it been the one killed.
EXIT_OK, EXIT_SPEC, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 70, 130
EXIT_SIGNALLED = 128  # + the signal that killed a worker
MAX_DECISIONS = 100_000  # a played game that has not ended after this many decisions is a rule error
DEBUG_ENV = "RULEWRIGHT_DEBUG"  # set to 1 for the traceback of an internal error


# what other code imports from here (final_digest lives in rulewright.gamelog)
__all__ = ["EXIT_OK", "EXIT_SPEC", "EXIT_USAGE", "final_digest", "main", "play_game"]


class UsageError(Exception):
    """Bad command-line input: an argument, a path, a game name, a log (exit code 2)."""


class CommandFailed(Exception):
    """What the command checked does not hold, e.g. a replay that diverges (exit code 1)."""


class ArgumentError(Exception):
    """argparse's complaint about the command line, raised instead of exiting."""

    def __init__(self, prog: str, message: str) -> None:
        super().__init__(message)
        self.prog = prog


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line, `rulewright COMMAND: ...`, and main() decides the exit."""

    def error(self, message: str) -> NoReturn:
        raise ArgumentError(self.prog, f"{message} (see `{self.prog} --help`)")


# ---- what the user typed: numbers, options, agents, games, paths ------------------------------


def shown(text: str, limit: int = 60) -> str:
    """A user's text quoted for a message: escapes visible, cut short (a name may be megabytes)."""
    return quoted(text, limit)


def _whole_number(text: str) -> int:
    t = text.strip()
    if not re.fullmatch(r"[+-]?[0-9]+", t):
        raise argparse.ArgumentTypeError(f"expected a whole number, not {shown(text)}")
    if len(t.lstrip("+-")) > 30:  # beyond every bound below; int() would refuse 4,300 digits anyway
        raise argparse.ArgumentTypeError(f"{shown(text)} is far too large")
    return int(t)


def positive_int(text: str) -> int:
    n = _whole_number(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {shown(text)}")
    return n


def nonnegative_int(text: str) -> int:
    n = _whole_number(text)
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 0, not {shown(text)}")
    return n


def seed_number(text: str) -> int:
    n = _whole_number(text)
    if not 0 <= n < SEED_LIMIT:
        raise argparse.ArgumentTypeError(
            f"a seed is a whole number from 0 to {SEED_LIMIT - 1}, not {shown(text)}"
        )
    return n


def positive_seconds(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {shown(text)}") from None
    if not (math.isfinite(x) and x > 0):
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, not {shown(text)}")
    return x


_OPTION_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")


def parse_options(pairs: Sequence[str] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"-o takes KEY=VALUE, not {shown(pair)}")
        if not _OPTION_NAME.fullmatch(key.strip()) or len(value) > 100:
            # no option is named so, or takes such a value: refuse before the game echoes it in full
            raise UsageError(
                f"-o {shown(pair)}: not an option setting (KEY is a name, VALUE a number, true/false or a value's name)"
            )
        out[key.strip()] = value.strip()
    return out


def agent_kinds(text: str) -> list[str]:
    """The comma-separated agents of --agents, each checked (an unknown one is a usage error)."""
    kinds = [k.strip() for k in text.split(",")]
    for k in kinds:
        try:
            check_agent(k)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    return kinds


def is_dir(path: Path) -> bool:
    """Path.is_dir, but False (not OSError) for a name too long for the system."""
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


# ---- the workspace and the games it sees --------------------------------------------------------

NO_WORKSPACE = (
    "no workspace here: run `rulewright init`, or add a rulewright.toml or a specs/ folder "
    "(or pass --workspace DIR)"
)


def current_workspace(args: argparse.Namespace) -> Workspace | None:
    """The workspace of this run: `--workspace DIR`, else the one found from the current folder."""
    given: str | None = getattr(args, "workspace", None)
    try:
        if given is not None:
            if not given.strip():
                raise UsageError("--workspace: the folder name is empty")
            return open_workspace(Path(given))
        return find_workspace(Path.cwd(), note=lambda text: print(f"rulewright: {text}", file=sys.stderr))
    except WorkspaceError as exc:
        raise UsageError(str(exc)) from None
    except (OSError, ValueError) as exc:  # the current folder was deleted, a NUL byte in DIR, ...
        raise UsageError(f"cannot find the workspace ({exc})") from None


def required_workspace(args: argparse.Namespace) -> Workspace:
    ws = current_workspace(args)
    if ws is None:
        raise UsageError(NO_WORKSPACE)
    return ws


def search(ws: Workspace | None) -> tuple[Path, ...]:
    """The output folders a game name is looked up in before the bundled games (natively, the
    native build's copy of the output: rulewright/native.py)."""
    native = os.environ.get(NATIVE_ENV)
    if native:
        from rulewright.native import ENGINES
        from runtime.loading import import_checked_folder

        import_checked_folder(Path(native) / ENGINES)  # checked file by file before this process began
        return (Path(native) / ENGINES,)
    return (ws.output,) if ws is not None else ()


NATIVE_ENV = "RULEWRIGHT_NATIVE"  # set in the process `--native` starts: the native folder


def run_natively(args: argparse.Namespace, ws: Workspace | None) -> int | None:
    """With --native: the command again, in a process that imports the native build of the
    workspace (its exit code); None when this is that process, or without --native."""
    if not getattr(args, "native", False):
        return None
    if getattr(args, "coverage", False) or any(
        getattr(args, option, None) is not None for option in ("coverage_json", "coverage_plot")
    ):
        raise UsageError("--native: rule coverage traces the interpreted engines; leave out --native")
    if os.environ.get(NATIVE_ENV):
        import runtime.engine

        if not runtime.engine.__file__ or runtime.engine.__file__.endswith(".py"):
            raise UsageError(
                f"--native: the runtime imported is not the native one ({runtime.engine.__file__})"
            )
        return None
    folder = _native_folder(ws)
    code_tree = str(Path(__file__).resolve().parents[1])
    path = os.pathsep.join(p for p in (str(folder), code_tree, os.environ.get("PYTHONPATH", "")) if p)
    # its bytecode was made with it: a file the process wrote there would refuse the folder next time
    env = {**os.environ, NATIVE_ENV: str(folder), "PYTHONPATH": path, "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-P", "-m", "rulewright", *args.argv]
    import subprocess

    with subprocess.Popen(command, env=env) as child:
        while True:
            try:
                return child.wait()
            except KeyboardInterrupt:  # the child has Ctrl-C too: it prints what it did, then ends
                continue


def _native_folder(ws: Workspace | None) -> Path:
    """The workspace's native build, checked fresh (rulewright/native.py); a usage error if none."""
    from rulewright.native import NativeError, native_folder

    if ws is None:
        raise UsageError(NO_WORKSPACE)
    try:
        return native_folder(ws.output, ws.root)
    except NativeError as exc:
        raise UsageError(f"--native: {exc}") from None


def game_sources(ws: Workspace | None) -> list[EngineSource]:
    """Every compiled game this run sees, shadowed ones included (runtime/loading.py)."""
    from runtime.loading import EngineLoadError, find_games  # (the engine: not for every command)

    try:
        return find_games(search(ws))
    except EngineLoadError as exc:
        raise UsageError(f"{exc} (run `rulewright build`)") from None


def games(ws: Workspace | None) -> list[str]:
    """The names of the compiled games this run sees: the workspace's, then the bundled ones."""
    return sorted({s.name for s in game_sources(ws)})


def spec_folders_of(ws: Workspace) -> list[Path]:
    try:
        return ws.spec_folders()
    except (WorkspaceError, OSError) as exc:
        raise UsageError(str(exc)) from None


def spec_folder(ws: Workspace | None, name: str) -> Path | None:
    """The workspace's spec folder of the game `name`, if it has one."""
    if ws is None:
        return None
    try:
        return ws.spec_folder(name)
    except (WorkspaceError, OSError) as exc:
        raise UsageError(str(exc)) from None


def unknown_game(name: str, folders: bool, ws: Workspace | None) -> str:
    """The message for a name that is no compiled game (nor, with `folders`, a spec folder)."""
    known = games(ws)
    listed = ", ".join(known) if known else "none built (run `rulewright build`)"
    if not name:
        return f"no game named (an empty name); the games are: {listed}"
    if folders and ("/" in name or name.startswith(".")):
        return f"{shown(name)} is neither a compiled game nor a spec folder; the games are: {listed}"
    import difflib

    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return f"unknown game {shown(name)}; the games are: {listed}{hint}"


def open_game(
    name: str,
    options: Sequence[str] | None,
    ws: Workspace | None,
    *,
    folders: bool = True,
    scenarios: bool = False,
) -> Game:
    """A compiled game by name (the workspace's first, then the bundled ones), or, with `folders`,
    a spec folder given as a path (with a '/' or starting with '.') compiled on the fly: its rules
    alone, unless `scenarios` (only `rulewright scenarios` runs them)."""
    from runtime.game import UnknownGameError, load_game

    try:
        if name in games(ws):
            return load_game(name, parse_options(options), search=search(ws))
        if folders and ("/" in name or name.startswith(".")) and is_dir(Path(name)):
            from rulewright.spec_loader import load_spec

            return load_spec(Path(name), parse_options(options), rules_only=not scenarios)
    except (UnknownGameError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    raise UsageError(unknown_game(name, folders, ws))


def output_file(text: str, option: str) -> Path:
    """The file an output option names, checked before any work: not a folder, and it can be
    created or appended to (tried with a non-blocking open; a file the test created is removed)."""
    if not text.strip():
        raise UsageError(f"{option}: the file name is empty")
    path = Path(text)
    try:
        if path.is_dir():
            raise UsageError(f"{option} {path}: is a folder; name a file")
        existed = os.path.lexists(path)
        # O_NONBLOCK: a FIFO with no reader fails now instead of blocking the command
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o666)
        os.close(fd)
        if not existed:
            path.unlink()
    except OSError as exc:
        raise UsageError(f"{option} {path}: cannot write there ({os_reason(exc)})") from None
    except ValueError as exc:  # a NUL byte in the name
        raise UsageError(f"{option} {shown(text)}: {exc}") from None
    return path


def output_folder(text: str, option: str) -> Path:
    """The folder an output option names, checked before any work: it is (or can be made) a folder
    that takes a new file. Folders made for the test are removed again."""
    if not text.strip():
        raise UsageError(f"{option}: the folder name is empty")
    path = Path(text)
    made: list[Path] = []
    try:
        missing: list[Path] = []
        p = path
        while not os.path.lexists(p) and p.parent != p:
            missing.append(p)
            p = p.parent
        if not p.is_dir():
            raise UsageError(f"{option} {path}: {p} is not a folder")
        for m in reversed(missing):
            m.mkdir()
            made.append(m)
        import tempfile

        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        raise UsageError(f"{option} {path}: cannot write there ({os_reason(exc)})") from None
    except ValueError as exc:  # a NUL byte in the name
        raise UsageError(f"{option} {shown(text)}: {exc}") from None
    finally:
        for m in reversed(made):
            with contextlib.suppress(OSError):
                m.rmdir()
    return path


def write_output(path: Path, text: str, what: str) -> None:
    """Write an output file checked by output_file; a failure now is a message, not a traceback."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {what} to {path} ({os_reason(exc)})") from None


def write_log(path: Path, game_name: str, text: str) -> None:
    """Write a game's log. Should `path` fail now (it was checked before the game), the game is
    kept in a temporary file, and the message says where."""
    try:
        path.write_text(text, encoding="utf-8")
        return
    except OSError as exc:
        why = os_reason(exc)
    import tempfile

    try:
        fd, spare = tempfile.mkstemp(prefix=f"rulewright-{_file_safe(game_name)}-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        raise UsageError(
            f"cannot write the log to {path} ({why}), nor to a temporary file ({os_reason(exc)})"
        ) from None
    raise UsageError(f"cannot write the log to {path} ({why}); it was written to {spare} instead")


def _file_safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:60] or "game"


# ---- compiling --------------------------------------------------------------------------------


def _spec_folders(ws: Workspace | None, targets: Sequence[str]) -> list[Path]:
    """The spec folders the targets name: folders given as paths, or games of the workspace;
    with no target, every spec of the workspace."""
    if not targets:
        if ws is None:
            raise UsageError(NO_WORKSPACE)
        return spec_folders_of(ws)
    out = []
    for t in targets:
        p = Path(t)
        if not t.strip():
            raise UsageError("an empty name is neither a spec folder nor a game")
        if is_dir(p):
            out.append(p)
        elif "/" not in t and (folder := spec_folder(ws, t)) is not None:
            out.append(folder)
        elif ws is None:
            raise UsageError(f"{shown(t)} is not a spec folder, and there is no workspace here to find it in")
        else:
            where = ", ".join(ws.shown(d) for d in ws.spec_dirs)
            raise UsageError(f"{shown(t)} is neither a spec folder nor a game in {where} ({ws.root})")
    return out


def compiled_at_root(ws: Workspace | None, folder: Path, *, render: bool = True) -> Result:
    """Compile a spec folder as `build` does: from the workspace's root, so that the spec files'
    names, and so the digest and the generated headers, do not depend on the current folder."""
    from compiler.driver import compile_spec

    with contextlib.chdir(ws.root if ws is not None else Path.cwd()):
        return compile_spec(folder.resolve(), render=render)


def cmd_check(args: argparse.Namespace) -> int:
    from compiler.diagnostics import render_all
    from compiler.driver import compile_spec

    ws = current_workspace(args)
    folders = _spec_folders(ws, args.targets)
    if not folders and ws is not None:
        where = ", ".join(ws.shown(d) for d in ws.spec_dirs)
        print(f"no spec folders in {where} yet (a game is a folder of YAML files: {where}/GAME/game.yaml)")
    failed = False
    for folder in folders:
        r = compile_spec(folder, render=False)
        if r.diagnostics:
            print(render_all(r.diagnostics))
        errors = sum(d.severity == "error" for d in r.diagnostics)
        warnings = len(r.diagnostics) - errors
        status = "ok" if not errors else f"{errors} error(s)"
        shown_folder = folder if args.targets else Path(ws.shown(folder)) if ws is not None else folder
        print(f"{shown_folder}: {status}" + (f", {warnings} warning(s)" if warnings else ""))
        failed |= errors > 0
    return EXIT_SPEC if failed else EXIT_OK


def cmd_build(args: argparse.Namespace) -> int:
    from compiler.diagnostics import render_all
    from rulewright.build import BuildError, build

    ws = required_workspace(args)
    if args.native and args.check:
        raise UsageError("--native compiles and writes; --check writes nothing (leave out one)")
    folders = [f.resolve() for f in _spec_folders(ws, args.targets)]
    out = ws.shown(ws.output) + "/"
    try:
        with contextlib.chdir(ws.root):  # spec files named from the root: see compiled_at_root
            report = build(
                folders,
                ws.output,
                check_only=args.check,
                prune=not args.targets,
                recorded=_recorded_digest(ws),
            )
    except BuildError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:  # the output is read-only, a file in it is a folder, ...
        raise UsageError(f"cannot write {exc.filename or out} ({os_reason(exc)})") from None
    for r in report.results:
        errors = [d for d in r.diagnostics if d.severity == "error"]
        if errors or (r.diagnostics and args.verbose):
            print(render_all(r.diagnostics))
        elif r.diagnostics:
            print(f"{r.folder}: {len(r.diagnostics)} warning(s) (rulewright check {r.name} shows them)")
    if not report.ok:
        print("build failed: fix the errors above")
        return EXIT_SPEC
    rel = [ws.shown(p) for p in report.changed]
    if args.check:
        if rel:
            print(
                f"{out} is stale; these files would change (run `rulewright build{_stale_games(ws, report)}`):"
            )
            for p in rel:
                print(f"  {p}")
            return EXIT_SPEC
        print(f"{out} is up to date ({len(report.results)} game(s))")
        return EXIT_OK
    if not report.results:
        where = ", ".join(ws.shown(d) for d in ws.spec_dirs)
        print(f"no spec folders in {where} yet (a game is a folder of YAML files: {where}/GAME/game.yaml)")
    for r in report.results:
        print(f"built {r.name} in {1000 * r.seconds.get('build', 0):.0f} ms")
    print(f"{len(rel)} file(s) written" + (": " + ", ".join(rel) if rel else " (already up to date)"))
    if args.native:
        _build_native(ws, [r.name for r in report.results] if args.targets else None)
    return EXIT_OK


def _stale_games(ws: Workspace, report: BuildReport) -> str:
    """The games whose files a build would change, as arguments of `rulewright build` (" g1 g2"),
    or "" when a file outside the games' folders would change too (the whole build is the fix)."""
    built = {r.name for r in report.results}
    names: list[str] = []
    for path in report.changed:
        parts = path.relative_to(ws.output).parts
        if len(parts) < 2 or parts[0] not in built:
            return ""
        if parts[0] not in names:
            names.append(parts[0])
    return "".join(f" {n}" for n in names)


def _recorded_digest(ws: Workspace) -> Callable[[str], str | None]:
    """For a game, the spec digest its stored playthroughs were recorded with (None: none stored)."""
    from rulewright.impact import playthrough_dir
    from rulewright.previous import recorded_digest

    return lambda game: recorded_digest(playthrough_dir(ws.root, game))


def _build_native(ws: Workspace, only: list[str] | None) -> None:
    """`build --native`: the runtime and the output folder's engines (or those of the games built),
    compiled (rulewright/native.py)."""
    from rulewright.native import NativeError, build_native

    try:
        made = build_native(ws.output, ws.root, only, say=lambda text: print(text, flush=True))
    except NativeError as exc:
        raise CommandFailed(str(exc)) from None
    print(
        f"native engines of {', '.join(made.games)} in {made.folder}/ "
        f"({made.cpu_s:.0f} s CPU, {made.wall_s:.0f} s): play them with --native"
    )


def cmd_init(args: argparse.Namespace) -> int:
    folder = Path(args.folder)
    if not args.folder.strip():
        raise UsageError("the folder name is empty")
    try:
        made = init_workspace(folder)
    except WorkspaceError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot make a workspace in {folder} ({os_reason(exc)})") from None
    for path in made:
        print(f"created {path}{'/' if path.is_dir() else ''}")
    go = "" if args.folder == "." else f"cd {shlex.quote(args.folder)}\n  "
    print(
        "next: write a game in specs/GAME/ (game.yaml; `rulewright docs tutorial` walks through one), then\n"
        f"  {go}rulewright check && rulewright build && rulewright play GAME"
    )
    return EXIT_OK


def cmd_docs(args: argparse.Namespace) -> int:
    """`rulewright docs`: the docs' pages, one page, or where the docs and the example specs are."""
    from rulewright import docs

    if args.topic is not None and (args.path or args.specs):
        raise UsageError("give a TOPIC or --path or --specs, not both")
    try:
        if args.path:
            print(docs.docs_folder())
        elif args.specs:
            print(docs.specs_folder())
        elif args.topic is not None:
            sys.stdout.write(docs.text(docs.topic(args.topic)))
        else:
            pages = docs.topics()
            width = max(len(t.name) for t in pages)
            for t in pages:
                print(f"{t.name:<{width}}  {t.title}")
    except docs.DocsError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot read the docs ({os_reason(exc)})") from None
    return EXIT_OK


def cmd_games(args: argparse.Namespace) -> int:
    ws = current_workspace(args)
    listed = [entry for entry, _ in _game_entries(ws)]
    if args.json:
        text = json.dumps(listed, indent=1, ensure_ascii=False)
        if escaped_lines(text) != text:  # a title with a bidi override, say: JSON's own escapes
            text = json.dumps(listed, indent=1)
        print(text)
        return EXIT_OK
    if not listed:
        print("no compiled games (write a spec in specs/GAME/, then `rulewright build`)")
    refusals = sorted({e["refused"] for e in listed if "refused" in e})
    for e in listed:
        if "refused" in e:
            print(f"{e['name']}: not loaded [workspace: not built by you]")
            continue
        counts = e["players"]
        players = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
        by = f", set by option {e['players_option']}" if e["players_option"] else ""
        where = e["source"]
        where += "; shadows the bundled game of that name" if e["shadows_bundled"] else ""
        print(escaped(f"{e['name']}: {e['title']} ({players} players{by}) [{where}]"))
        for o in e["options"]:
            choices = f", one of {', '.join(map(str, o['choices']))}" if o["choices"] else ""
            doc = f": {o['doc']}" if o["doc"] else ""
            default = o["default"] if isinstance(o["default"], str) else json.dumps(o["default"])
            typ = o["type"].removeprefix("enum:")
            print(escaped(f"  -o {o['name']}={default}  ({typ}{choices}){doc}"))
    for why in refusals:
        print(escaped(why))
    return EXIT_OK


def _game_entries(ws: Workspace | None) -> list[tuple[dict[str, Any], Game | None]]:
    """Every compiled game this run sees, the workspace's first, as `games --json` lists it, with
    the game opened (None for one refused: never imported, only its name is known)."""
    listed: list[tuple[dict[str, Any], Game | None]] = []
    seen: set[str] = set()
    sources = game_sources(ws)
    for source in sources:
        if source.name in seen:
            continue
        seen.add(source.name)
        # in a checkout the workspace's output is the bundled package's own folder
        output = ws.output if ws is not None else None
        own = source.folder == output
        shadows = own and any(s.folder != output and s.name == source.name for s in sources)
        if source.refused is not None:
            listed.append(({"name": source.name, "source": "workspace", "refused": source.refused}, None))
            continue
        game = open_game(source.name, None, ws, folders=False)
        listed.append((_game_entry(game, source, own, shadows), game))
    return listed


def _game_entry(game: Game, source: EngineSource, own: bool, shadows: bool) -> dict[str, Any]:
    """What `games` says of one game, as JSON."""
    info = game.info
    option = info.player_count if isinstance(info.player_count, str) else None
    by_option = next((o for o in info.options if o.name == option), None)
    counts = list(by_option.choices) if by_option is not None and by_option.choices else [game.num_players]
    entry: dict[str, Any] = {
        "name": info.name,
        "title": info.title,
        "players": counts,
        "players_option": option,
        "options": [
            {"name": o.name, "type": o.type, "default": o.default, "choices": list(o.allowed()), "doc": o.doc}
            for o in info.options
        ],
        "source": "workspace" if own else "bundled",
        "folder": str(source.folder) if source.folder is not None else None,
        "shadows_bundled": shadows,
    }
    if info.returns is not None:  # the spec's `results` (docs/dsl.md): what its returns can be
        low, high = info.utility_range
        entry["results"] = {"kind": info.utility, "min": low, "max": high, "sum": info.utility_sum}
    return entry


# ---- playing ----------------------------------------------------------------------------------


def seat_agents(game: Game, seed: int, kinds: Sequence[str]) -> list[Agent]:
    """One agent per player, the kinds cycled; each seeded from the game's seed."""
    chosen = [kinds[p % len(kinds)] for p in range(game.num_players)]
    if game.info.simultaneous and any(k.startswith("mcts") for k in chosen):
        raise UsageError(
            f"the mcts agent cannot play {game.info.name}: OpenSpiel's MCTS searches sequential turns, "
            "and this game has simultaneous choices (agents: random, greedy, first, human)"
        )
    try:
        return [make_agent(kind, seed * 1000 + p) for p, kind in enumerate(chosen)]
    except ValueError as exc:  # e.g. mcts without OpenSpiel installed
        raise UsageError(str(exc)) from None


def play_out(
    state: GameState,
    agents: Sequence[Agent],
    echo: Callable[[str], None] | None = None,
    max_steps: int = MAX_DECISIONS,
    played: list[int] | None = None,
    observe: Callable[[GameState], None] | None = None,
) -> None:
    """Let the agents play `state` to the end; each decision, once applied, goes into `played`
    (so that an interrupted game's log holds exactly the decisions that were made), and `observe`
    sees the state before the first decision and after each one."""
    shown_lines = 0
    steps = 0
    if observe is not None:
        observe(state)
    while not state.is_terminal():
        if echo is not None:
            for line in state.log(shown_lines):
                echo(escaped(line))
            shown_lines = len(state.lines)
        action = agents[state.current_player()].choose(state)
        state.apply_action(action)
        if played is not None:
            played.append(action)
        if observe is not None:
            observe(state)
        steps += 1
        if steps > max_steps:
            raise RuleError(f"no end after {max_steps} decisions")
    if echo is not None:
        for line in state.log(shown_lines):
            echo(escaped(line))


def play_game(
    game: Game,
    seed: int,
    agent_kinds: Sequence[str],
    echo: Callable[[str], None] | None = None,
    max_steps: int = MAX_DECISIONS,
    observe: Callable[[GameState], None] | None = None,
) -> GameState:
    agents = seat_agents(game, seed, agent_kinds)
    state = game.new_initial_state(seed)
    play_out(state, agents, echo, max_steps, observe=observe)
    return state


def cmd_play(args: argparse.Namespace) -> int:
    game = open_game(args.game, args.option, current_workspace(args))
    kinds = agent_kinds(args.agents)
    log_path = output_file(args.log, "--log") if args.log is not None else None
    html_path = output_file(args.html, "--html") if args.html is not None else None
    agents = seat_agents(game, args.seed, kinds)
    humans = [a for a in agents if isinstance(a, HumanAgent)]
    interactive = bool(humans)
    state = game.new_initial_state(args.seed)
    played: list[int] = []
    try:
        # a human is shown the log at their decisions, as their player saw it; with none, it is
        # echoed whole as it is written
        play_out(state, agents, echo=None if interactive or args.quiet else print, played=played)
    except KeyboardInterrupt:
        return _stop(game, args.seed, played, "interrupted (Ctrl-C)", log_path, interactive, EXIT_INTERRUPTED)
    except EOFError:
        why = "input ended (Ctrl-D or the end of piped input)"
        return _stop(game, args.seed, played, why, log_path, interactive, EXIT_USAGE)
    except QuitGame as exc:
        return _stop(game, args.seed, played, str(exc), log_path, interactive, EXIT_USAGE)
    except RuleError as exc:
        if log_path is not None:  # the log up to the failing decision reproduces the rule error
            _keep_unfinished(game, args.seed, played, f"rule error: {exc}", log_path)
        raise
    if interactive:  # the log since the last decision at this terminal, as the humans' players saw it
        seats = [p for p, a in enumerate(agents) if isinstance(a, HumanAgent)]
        for line in visible_log(state, seats, max(h.seen for h in humans)):
            print(line)
    print(result_line(game, state))
    if log_path is not None:
        write_log(log_path, game.name, log_text(game, args.seed, state))
        print(f"log written to {log_path} (rulewright replay {log_path})")
    if html_path is not None:
        write_html(html_path, game, args.seed, state.history, args.html_steps)
    return EXIT_OK


def _stop(
    game: Game, seed: int, played: list[int], why: str, log_path: Path | None, interactive: bool, code: int
) -> int:
    """A game that stopped before its end: keep its log (in --log, or for a human player in a new
    file in the current folder) and say where."""
    if interactive:
        print()  # off the line of the prompt
    said = escaped(why)  # `why` may name a player: spec text
    target = log_path
    if target is None and interactive and played:
        target = _spare_log_path(game.name, seed)
    if target is None:
        print(
            f"rulewright play: {said} after {len(played)} decision(s); no log kept (--log FILE keeps one)",
            file=sys.stderr,
        )
        return code
    _keep_unfinished(game, seed, played, why, target)
    print(
        f"rulewright play: {said} after {len(played)} decision(s); the unfinished game's log is in "
        f"{target} (rulewright replay {target})",
        file=sys.stderr,
    )
    return code


def _keep_unfinished(game: Game, seed: int, played: list[int], why: str, path: Path) -> None:
    # The state is rebuilt from the decisions that completed: one stopped in the middle of an
    # action (Ctrl-C, a rule error) may be half applied.
    state = game.new_initial_state(seed)
    for action in played:
        state.apply_action(action)
    write_log(path, game.name, log_text(game, seed, state, unfinished=why))


def _spare_log_path(name: str, seed: int) -> Path:
    base = f"rulewright-{_file_safe(name)}-seed{seed}-unfinished"
    n = 1
    while os.path.lexists(path := Path(f"{base}{'' if n == 1 else f'-{n}'}.json")):
        n += 1
    return path


def result_line(game: Game, state: GameState) -> str:
    names = game.info.player_names
    ret = state.returns()
    if game.info.returns is None:
        score = ", ".join(f"{names[p]} {ret[p]:+.2f}" for p in range(game.num_players))
    else:  # the spec's results: whole numbers, and each player's place
        ranks = state.ranking()
        score = ", ".join(f"{names[p]} {ret[p]:+g} ({_ordinal(ranks[p])})" for p in range(game.num_players))
    return escaped(f"Result: {state.reason or 'over'} [{score}] after {len(state.history)} decisions")


def open_logged_game(path: Path, max_bytes: int, ws: Workspace | None) -> tuple[GameLog, Game]:
    """A log, read and checked, and the game it was played with (its options): usage errors that
    name the file and the field."""
    from runtime.game import UnknownGameError, load_game

    try:
        log = read_log(path, max_bytes)
    except LogError as exc:  # one line, which may quote a field's name or value from the log
        raise UsageError(escaped(str(exc))) from None
    if log.game not in games(ws):
        raise UsageError(f"{log.path}: field 'game': {unknown_game(log.game, False, ws)}")
    try:
        return log, load_game(log.game, log.options, search=search(ws))
    except (UnknownGameError, ValueError) as exc:
        raise UsageError(f"{log.path}: field 'options': {exc}") from None


def replayed(game: Game, log: GameLog, steps: int | None = None) -> Replay:
    """A logged game replayed: a divergence fails the command, a damaged log is a usage error."""
    try:
        return replay_log(game, log, steps)
    except ReplayDivergence as exc:
        raise CommandFailed(str(exc)) from None
    except LogError as exc:
        raise UsageError(str(exc)) from None


def cmd_replay(args: argparse.Namespace) -> int:
    html_path = output_file(args.html, "--html") if args.html is not None else None
    log, game = open_logged_game(Path(args.logfile), args.max_bytes, current_workspace(args))
    if log.spec_digest is not None and log.spec_digest != game.info.digest:
        print("note: the spec has changed since this log was recorded")
    replay = replayed(game, log)
    state, n, unfinished = replay.state, replay.actions, replay.unfinished
    digest = final_digest(state)
    to_act = (
        "" if state.is_terminal() else f"{escaped(game.info.player_names[state.current_player()])} to act"
    )
    if digest != replay.final_digest:
        if to_act and unfinished is None:
            raise CommandFailed(
                f"{log.path}: the game goes on after the log's {n} actions ({to_act}), yet the log "
                "does not say it is unfinished: it was cut short or edited"
            )
        raise CommandFailed(
            f"{log.path}: replay finished but the final state differs from field 'final_state_sha256': "
            f"{digest} != {shown(replay.final_digest, 20)}"
        )
    if unfinished is not None:
        now = to_act or result_line(game, state)
        print(
            f"replayed {n} actions of an unfinished game ({clipped(unfinished, 300)}); state matches "
            f"({digest}); {now}"
        )
    elif to_act:
        raise CommandFailed(
            f"{log.path}: the game had not ended ({to_act}), but the log has no field 'unfinished'"
        )
    else:
        print(f"replayed {n} actions; final state matches ({digest}). {result_line(game, state)}")
    if html_path is not None:  # only a log that replays as recorded is shown
        write_html(html_path, game, log.seed, state.history, args.html_steps, unfinished)
    return EXIT_OK


def write_html(
    path: Path,
    game: Game,
    seed: int,
    actions: Sequence[int],
    max_steps: int | None,
    unfinished: str | None = None,
) -> None:
    """Write the replay page of a game (rulewright/replay_html.py) and say what it holds."""
    from rulewright.replay_html import UnsafeMarkup, write_replay

    try:
        built = write_replay(path, game, seed, actions, max_steps=max_steps, unfinished=unfinished)
    except UnsafeMarkup as exc:
        raise CommandFailed(f"--html {path}: the board cannot be shown safely: {exc}") from None
    except OSError as exc:
        raise UsageError(f"--html {path}: cannot write it ({os_reason(exc)})") from None
    of = f" of {len(actions)}" if built.steps < len(actions) else ""
    print(
        f"replay page written to {path}: steps 0 to {built.steps}{of}, {built.perspectives} perspectives, "
        f"{built.size / 1e6:.2f} MB, {built.seconds:.1f} s (open it in a browser)"
    )


def cmd_draw(args: argparse.Namespace) -> int:
    from rulewright import draw

    ws = current_workspace(args)
    if (args.game is None) == (args.log is None):
        raise UsageError("name a GAME, or a logged game with --log FILE (not both)")
    out = output_file(args.out, "--out") if args.out is not None else None
    try:
        if out is not None:
            draw.check_out(out)
    except draw.DrawError as exc:
        raise UsageError(str(exc)) from None
    if args.log is not None:
        log, game = open_logged_game(Path(args.log), MAX_LOG_BYTES, ws)
        replay = replayed(game, log, args.steps)
        state = replay.state
        done = replay.actions if args.steps is None else min(args.steps, replay.actions)
    else:
        game = open_game(args.game, args.option, ws)
        state = game.new_initial_state(args.seed)
        done = draw.advance(state, seat_agents(game, args.seed, ["random"]), args.steps or 0)
    try:
        text = draw.write(state, draw.perspective(state, args.as_), out)
    except draw.DrawError as exc:
        raise UsageError(str(exc)) from None
    if text:
        print(text)
    else:
        print(escaped(f"{out}: {game.info.title} after {done} decision(s), as {args.as_} sees it"))
    return EXIT_OK


def coverage_kinds_option(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "--coverage-kinds",
        metavar="K[,K...]",
        help="list only rule points of these kinds in the coverage report, e.g. 'effect' for how often "
        "each component's effect ran (kinds: setup, phase, procedure, function, trigger, effect, "
        "expression, modifier, branch)",
    )


def coverage_plot_option(sp: argparse.ArgumentParser, naming: str) -> None:
    sp.add_argument(
        "--coverage-plot",
        metavar="FILE",
        help=f"draw the rule coverage into FILE, .png or .svg{naming}: the share of points run per kind, "
        "and the points that never ran or ran least (needs pip install 'rulewright[plot]')",
    )


def coverage_kinds(args: argparse.Namespace) -> frozenset[str] | None:
    """The kinds named by --coverage-kinds (None: all); an unknown kind is a usage error."""
    from rulewright.coverage import KINDS

    if not args.coverage_kinds:
        return None
    kinds = frozenset(k.strip() for k in args.coverage_kinds.split(",") if k.strip())
    unknown = sorted(kinds - set(KINDS))
    if unknown:
        raise UsageError(f"unknown coverage kind(s) {', '.join(unknown)}: choose from {', '.join(KINDS)}")
    return kinds


def game_recipe(name: str, options: Sequence[str] | None, ws: Workspace | None) -> GameRecipe:
    """How a worker process loads the game `open_game(name, options, ws)` opened: by its name,
    from the same output folders, or from the same spec folder."""
    given = tuple(parse_options(options).items())
    if name in games(ws):
        return GameRecipe(name, given, tuple(os.path.abspath(p) for p in search(ws)))
    return GameRecipe(os.path.abspath(name), given, folder=True)


def open_backend(args: argparse.Namespace, jobs: int | None = None) -> parallel.Backend:
    """Where --backend and -j (or `jobs`) say the work runs (Ray missing is a usage error)."""
    try:
        return parallel.open_backend(args.backend, jobs or args.jobs)
    except parallel.BackendUnavailable as exc:
        raise UsageError(str(exc)) from None


@dataclass
class Simulated:
    """A chunk of simulated games: each game's length and winner (-1 for a draw, -2 for a win
    several players share) in order, and each game's ranks and returns by seat; the rule error
    that stopped the chunk (if one did), its rule coverage counts (if asked for), and with --plot
    how the games' public numbers went (rulewright/balance.py)."""

    outcomes: list[tuple[int, int]]
    finishes: list[tuple[tuple[int, ...], tuple[float, ...]]] = field(default_factory=list)
    error: str | None = None
    coverage: list[int] | None = None
    trajectories: Trajectories | None = None


@dataclass(frozen=True)
class SimulateJob:
    """The games of a simulate run, played in whichever process runs them (rulewright/parallel.py).
    An item is a game's number: its seed, seats and agents' seeds follow from it alone, so a game
    is the same in any process."""

    recipe: GameRecipe
    seed: int
    seats: tuple[str, ...]
    rotate: bool
    coverage: bool
    plot: bool = False  # sample each game's public numbers for the charts

    def order(self, i: int) -> list[str]:
        """The agents of game `i`, seat by seat."""
        k = i % len(self.seats) if self.rotate else 0
        return [*self.seats[k:], *self.seats[:k]]

    def __call__(self, chunk: Sequence[int], tick: Callable[[int], None]) -> Simulated:
        game = parallel.game(self.recipe)
        cov = parallel.coverage(self.recipe) if self.coverage else None
        if cov is not None:
            cov.reset()
        out = Simulated([])
        if self.plot:  # only then: without --plot, rulewright.balance is never imported
            from rulewright.balance import Sampler, Trajectories

            out.trajectories = Trajectories()
        try:
            for i in chunk:
                sampler = Sampler() if self.plot else None
                # with coverage on, the sampling runs untraced: the counts are those of play alone
                observe = sampler if sampler is None or cov is None else _untraced(sampler, cov)
                with cov if cov is not None else contextlib.nullcontext():
                    state = play_game(game, self.seed + i, self.order(i), observe=observe)
                if sampler is not None and out.trajectories is not None:
                    sampler.finish(state)
                    out.trajectories.add_game(sampler)
                winners = state.winners()
                won = winners[0] if len(winners) == 1 else -2 if winners else -1
                out.outcomes.append((len(state.history), won))
                out.finishes.append((tuple(state.ranking()), tuple(state.returns())))
                tick(len(out.outcomes))
        except RuleError as exc:  # raised again where the results are merged, in game order
            out.error = str(exc)
        out.coverage = cov.counts() if cov is not None else None
        return out


def _untraced(observe: Callable[[GameState], None], cov: RuleCoverage) -> Callable[[GameState], None]:
    """`observe`, run with rule coverage paused."""

    def run(state: GameState) -> None:
        cov.stop()
        try:
            observe(state)
        finally:
            cov.start()

    return run


@dataclass
class SimulationTally:
    """The results of a simulate run so far, added up game by game in game order."""

    wins: list[int]
    by_agent: dict[str, int]
    games: int = 0
    draws: int = 0
    shared: int = 0  # games won by several players together
    lengths: int = 0
    returns: list[float] = field(default_factory=list)  # each seat's returns, added up
    places: list[list[int]] = field(default_factory=list)  # [seat][rank - 1]: how many games
    team: Counter[float] = field(default_factory=Counter)  # a cooperative game's scores: how many games each

    def add(
        self,
        job: SimulateJob,
        outcomes: Sequence[tuple[int, int]],
        finishes: Sequence[tuple[Sequence[int], Sequence[float]]] = (),
    ) -> None:
        for length, winner in outcomes:
            self.lengths += length
            if winner >= 0:
                self.wins[winner] += 1
                self.by_agent[job.order(self.games)[winner]] += 1
            elif winner == -2:
                self.shared += 1
            else:
                self.draws += 1
            self.games += 1
        n = len(self.wins)
        if finishes and not self.returns:
            self.returns = [0.0] * n
            self.places = [[0] * n for _ in range(n)]
        for ranks, returns in finishes:
            for p in range(n):
                self.returns[p] += returns[p]
                self.places[p][ranks[p] - 1] += 1
            if len(set(returns)) == 1:
                self.team[returns[0]] += 1


MAX_SETTINGS = 16  # option settings one `simulate --vary` plays


def option_settings(
    fixed: Sequence[str] | None, vary: Sequence[str] | None
) -> tuple[list[list[str]], list[str]]:
    """The option settings simulate plays, each as -o's KEY=VALUE texts: the -o options and every
    combination of the values the --vary options list, in the order given (just the -o options
    without --vary); and the names of the options varied."""
    given = parse_options(fixed)
    settings: list[list[str]] = [list(fixed or ())]
    names: list[str] = []
    for text in vary or ():
        name, sep, values = text.partition("=")
        name = name.strip()
        if not sep or not _OPTION_NAME.fullmatch(name):
            raise UsageError(f"--vary takes NAME=V1,V2,... (an option and its values), not {shown(text)}")
        if name in given:
            raise UsageError(f"--vary {name}: also set by -o; give its values in one place")
        if name in names:
            raise UsageError(f"--vary {name} is given twice; list all its values in one --vary")
        names.append(name)
        if values.count(",") + 1 > MAX_SETTINGS:
            raise UsageError(f"--vary {name}: more than {MAX_SETTINGS} values")
        listed = [v.strip() for v in values.split(",")]
        if any(not v or len(v) > 100 for v in listed):
            raise UsageError(f"--vary {shown(text)}: a value is empty or too long")
        if len(set(listed)) < len(listed):
            raise UsageError(f"--vary {shown(text)}: a value is listed twice")
        if len(settings) * len(listed) > MAX_SETTINGS:
            raise UsageError(
                f"--vary: more than {MAX_SETTINGS} option settings to play; vary fewer options or values"
            )
        settings = [[*s, f"{name}={v}"] for s in settings for v in listed]
    return settings, names


def option_text(value: int | bool | str) -> str:
    """An option's value as -o takes it."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


PLOT_MISSING = "matplotlib is not installed: pip install 'rulewright[plot]'"


def _require_matplotlib(option: str) -> None:
    """Import rulewright.plots, which needs matplotlib; without it, a usage error says how to
    install it. Only a run that draws charts imports matplotlib."""
    try:
        import rulewright.plots  # noqa: F401
    except ImportError as exc:
        missing = (exc.name or "").partition(".")[0]
        if missing in ("rulewright", "compiler", "runtime"):
            raise
        reason = "" if missing == "matplotlib" else f" ({exc})"
        raise UsageError(f"{option}: {PLOT_MISSING}{reason}") from None


def coverage_plot_file(text: str) -> Path:
    """The file --coverage-plot names: a .png or .svg file that can be written (checked now)."""
    if Path(text).suffix.lower() not in (".png", ".svg"):
        raise UsageError(f"--coverage-plot {shown(text)}: name a .png or .svg file")
    path = output_file(text, "--coverage-plot")
    _require_matplotlib("--coverage-plot")
    return path


def cmd_simulate(args: argparse.Namespace) -> int:
    only = coverage_kinds(args)
    ws = current_workspace(args)
    if (code := run_natively(args, ws)) is not None:
        return code
    settings, varied = option_settings(args.option, args.vary)
    opened = [open_game(args.game, s, ws) for s in settings]
    for a in range(len(opened)):
        for b in range(a):
            if opened[a].options == opened[b].options:
                raise UsageError(
                    f"--vary: {' '.join(settings[a])} is the same setting as {' '.join(settings[b])}"
                )
    kinds = agent_kinds(args.agents)
    if args.seed + args.n > SEED_LIMIT:
        raise UsageError(f"seeds {args.seed}..{args.seed + args.n - 1} go past the largest, {SEED_LIMIT - 1}")
    plot_dir = output_folder(args.plot, "--plot") if args.plot is not None else None
    if plot_dir is not None:
        _require_matplotlib("--plot")
    cov_path = output_file(args.coverage_json, "--coverage-json") if args.coverage_json is not None else None
    cov_plot = coverage_plot_file(args.coverage_plot) if args.coverage_plot is not None else None
    covering = args.coverage or cov_path is not None or cov_plot is not None
    cov = _coverage(opened[0]) if covering else None
    for game in opened:  # an agent this machine cannot make: a usage error now
        seat_agents(game, args.seed, [kinds[p % len(kinds)] for p in range(game.num_players)])
    if "human" in kinds and args.backend != "local":
        raise UsageError(f"a human agent plays at this terminal, not on --backend {args.backend}")
    html_path = _simulate_html(args, "human" in kinds)
    played = []  # with --plot: each setting's games, for the charts
    for number, (options, game) in enumerate(zip(settings, opened, strict=True)):
        label = ", ".join(f"{k}={option_text(game.options[k])}" for k in varied)
        if number:
            print()
        played.append(_simulate_setting(args, ws, game, options, label, cov, only, plot_dir is not None))
    if cov is not None:
        _show_coverage(cov, only, args.coverage, cov_path)
        if cov_plot is not None:
            _write_coverage_plot(cov, only, cov_plot, _simulate_source(args, args.n))
    if plot_dir is not None:
        from rulewright.plots import write_simulation_charts

        try:
            written = write_simulation_charts(
                plot_dir, opened[0].title, _agents_text(args), [s for s in played if s is not None]
            )
        except OSError as exc:
            raise UsageError(f"--plot {plot_dir}: cannot write the charts ({os_reason(exc)})") from None
        print(f"charts written to {plot_dir}: {', '.join(p.name for p in written)}")
    if html_path is not None:
        # game K of the first setting again, here: its seed and seats follow from K alone, so it is
        # the game the run played
        game, k = opened[0], args.html_game - 1
        seats = tuple(kinds[p % len(kinds)] for p in range(game.num_players))
        job = SimulateJob(game_recipe(args.game, settings[0], ws), args.seed, seats, args.rotate, False)
        state = play_game(game, args.seed + k, job.order(k))
        print(f"game {args.html_game} (seed {args.seed + k}, agents {','.join(job.order(k))}):", end=" ")
        write_html(html_path, game, args.seed + k, state.history, args.html_steps)
    return EXIT_OK


def _simulate_setting(
    args: argparse.Namespace,
    ws: Workspace | None,
    game: Game,
    options: list[str],
    label: str,
    cov: RuleCoverage | None,
    only: frozenset[str] | None,
    plot: bool,
) -> Setting | None:
    """Play and print the games of one option setting (its counts go into `cov`); with `plot`, the
    games as the charts need them."""
    kinds = agent_kinds(args.agents)
    seats = tuple(kinds[p % len(kinds)] for p in range(game.num_players))
    human = "human" in seats  # who answers at this terminal: every game is played here
    job = SimulateJob(
        game_recipe(args.game, options, ws), args.seed, seats, args.rotate, cov is not None, plot
    )
    parallel.preload(job.recipe, game)
    tally = SimulationTally([0] * game.num_players, {k: 0 for k in seats})
    setting: Setting | None = None
    if plot:
        from rulewright.balance import Setting

        setting = Setting(
            dict(game.options),
            game.info.player_names[: game.num_players],
            ranked=game.info.returns is not None,
        )
    start = time.perf_counter()
    try:
        with (
            open_backend(args, 1 if human else None) as backend,
            Progress(args.n, "games", shown=not human) as bar,
        ):
            for chunk in backend.run(job, backend.chunked(range(args.n)), bar.update):
                if chunk.error is not None:
                    raise RuleError(chunk.error)
                tally.add(job, chunk.outcomes, chunk.finishes)
                if cov is not None and chunk.coverage is not None:
                    cov.add(chunk.coverage)
                if setting is not None:
                    setting.add(chunk.outcomes, chunk.trajectories, chunk.finishes)
    except (KeyboardInterrupt, EOFError, QuitGame) as exc:
        if tally.games:  # the games finished before Ctrl-C, as a run of that many games
            _print_simulation(args, game, label, tally, time.perf_counter() - start, interrupted=True)
            if cov is not None:
                _show_coverage(cov, only, args.coverage, None)
        if isinstance(exc, EOFError):  # a human player's input ended
            raise UsageError(
                "input ended (Ctrl-D or the end of piped input) at a human player's decision"
            ) from None
        if isinstance(exc, QuitGame):  # a human player typed q
            raise UsageError(str(exc)) from None
        raise
    _print_simulation(args, game, label, tally, time.perf_counter() - start)
    return setting


def _agents_text(args: argparse.Namespace) -> str:
    return f"agents {args.agents}" + (", seats rotated every game" if args.rotate else "")


def _simulate_source(args: argparse.Namespace, n: int) -> str:
    """What a simulate run played, for a chart's subtitle."""
    return f"simulate: {n:,} games per setting, seeds {args.seed}..{args.seed + n - 1}, {_agents_text(args)}"


def _simulate_html(args: argparse.Namespace, human: bool) -> Path | None:
    """Where simulate's --html goes, checked before any game is played (None: no --html)."""
    if args.html is None:
        if args.html_game is not None:
            raise UsageError("--html-game: name the page with --html FILE")
        return None
    if human:
        raise UsageError("--html: a human player's game is not played again; use `rulewright play --html`")
    if args.html_game is None:
        args.html_game = 1
    if args.html_game > args.n:
        raise UsageError(f"--html-game {args.html_game}: the run plays {args.n} game(s)")
    return output_file(args.html, "--html")


def _print_simulation(
    args: argparse.Namespace,
    game: Game,
    label: str,
    tally: SimulationTally,
    seconds: float,
    interrupted: bool = False,
) -> None:
    names = [escaped(name) for name in game.info.player_names]
    n = tally.games
    played = f"{n} of {args.n} games (interrupted)" if interrupted else f"{n} games"
    native = ", native engines" if os.environ.get(NATIVE_ENV) else ""
    setting = f" ({label})" if label else ""
    print(
        f"{escaped(game.title)}{setting}: {played}, seeds {args.seed}..{args.seed + n - 1}, {_agents_text(args)}{native}"
    )
    width = max(10, *(len(names[p]) for p in range(game.num_players)))
    if game.info.returns is not None and game.info.utility == "identical" and tally.team:
        _print_team(tally, width)  # a cooperative game: one score for everyone, no winner
    else:
        for p in range(game.num_players):
            print(f"  {names[p]:<{width}} wins {tally.wins[p]:>6}  ({100 * tally.wins[p] / n:5.1f}%)")
        print(f"  {'draws':<{width}}      {tally.draws:>6}  ({100 * tally.draws / n:5.1f}%)")
        if tally.shared:
            print(f"  {'shared':<{width}} wins {tally.shared:>6}  ({100 * tally.shared / n:5.1f}%)")
        if (game.info.returns is not None or tally.shared) and tally.returns:
            _print_returns(names[: game.num_players], tally, width)
    if len(tally.by_agent) > 1:
        for kind, won in tally.by_agent.items():
            print(f"  agent {kind:<10} wins {won:>6}  ({100 * won / n:5.1f}%)")
    print(f"  mean length {tally.lengths / n:.1f} decisions")
    secs = max(seconds, 1e-9)
    rate = n / secs
    print(
        f"  {rate:,.{0 if rate >= 10 else 2}f} games/s, {tally.lengths / secs:,.0f} decisions/s ({secs:.2f} s)"
    )


def _print_returns(names: Sequence[str], tally: SimulationTally, width: int) -> None:
    """Each seat's mean return and how often it finished 1st, 2nd, ... (ties share a place)."""
    n = tally.games
    seats = len(names)
    places = "".join(f"  {_ordinal(k + 1):>6}" for k in range(seats))
    print(f"  {'seat':<{width}} mean return{places}")
    for p in range(seats):
        shares = "".join(f"  {100 * tally.places[p][k] / n:5.1f}%" for k in range(seats))
        print(f"  {names[p]:<{width}} {tally.returns[p] / n:>+11.2f}{shares}")


def _print_team(tally: SimulationTally, width: int) -> None:
    """A cooperative game's (results kind `identical`) score, which every player gets: its mean,
    its range and quartiles, and the share of games at the highest score seen."""
    scores = sorted(tally.team.elements())
    n = len(scores)

    def at(q: float) -> str:
        return f"{scores[min(n - 1, int(q * n))]:g}"

    best = scores[-1]
    quartiles = f"{at(0.25)} / {at(0.5)} / {at(0.75)}"
    print(f"  {'team score':<{width}}  mean {sum(scores) / n:.2f}, every player's return")
    print(f"  {'':<{width}}  lowest {scores[0]:g}, quartiles {quartiles}, highest {best:g}")
    print(f"  {'':<{width}}  {tally.team[best]} game(s) ({100 * tally.team[best] / n:.1f}%) reach {best:g}")


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def cmd_scenarios(args: argparse.Namespace) -> int:
    from rulewright.scenarios import run_all, staleness

    ws = current_workspace(args)
    if args.game is not None:
        return _run_cases(ws, args.game, args.paths)
    if len(args.paths) > 1 or any(p.endswith((".yaml", ".yml")) for p in args.paths):
        raise UsageError(
            "to run case files, name the game they test: rulewright scenarios --game NAME FILE..."
        )
    compiled = games(ws)
    names = args.paths or compiled
    opened = [(name, open_game(name, None, ws, scenarios=True)) for name in names]
    # A compiled game's scenarios are compiled into it: after an edit under specs/GAME/ they are
    # stale until `rulewright build`, and running the old ones would pass or fail on old text.
    stale = [
        why
        for name, game in opened
        if ws is not None
        and name in compiled
        and (folder := spec_folder(ws, name)) is not None
        and (why := staleness(game, folder, ws.root, ws.shown(ws.output)))
    ]
    if stale:
        raise UsageError("; ".join(stale))
    failed = total = 0
    for name, game in opened:
        failed, total = _report(name, run_all(game.name, game), failed, total)
    print(f"{total - failed} passed, {failed} failed")
    return EXIT_SPEC if failed else EXIT_OK


def _run_cases(ws: Workspace | None, game: str, paths: list[str]) -> int:
    """Case files (or folders of them) kept outside the spec, compiled with the game's spec."""
    from rulewright.scenarios import run_all
    from rulewright.spec_loader import load_spec

    if not paths:
        raise UsageError("--game needs case files or folders of them to run")
    if not game.strip():
        raise UsageError("--game: the game's name is empty")
    folder = Path(game) if is_dir(Path(game)) else spec_folder(ws, game)
    if folder is None or not (is_dir(folder) and any(folder.glob("*.yaml"))):
        raise UsageError(
            f"no spec folder for {shown(game)} (a game of the workspace's specs or a folder of spec files)"
        )
    files: list[Path] = []
    for text in paths:
        p = Path(text)
        if is_dir(p):
            files += sorted(f for f in p.glob("*.yaml") if f.is_file())
        elif p.is_file():
            files.append(p)
        elif os.path.lexists(p):
            raise UsageError(f"{p}: not a regular file (a device, a pipe or a socket)")
        else:
            raise UsageError(f"{p}: no such case file or folder")
    if not files:
        raise UsageError(f"no case files (*.yaml) in {', '.join(paths)}")
    try:
        loaded = load_spec(folder, None, files)
    except ValueError as exc:  # the located diagnostics of the spec and its cases
        print(exc)
        return EXIT_SPEC
    failed, total = _report(loaded.name, run_all(loaded.name, loaded), 0, 0)
    print(f"{total - failed} passed, {failed} failed")
    return EXIT_SPEC if failed else EXIT_OK


def _report(name: str, results: list[ScenarioResult], failed: int, total: int) -> tuple[int, int]:
    """Print PASS/FAIL lines (with the tail of the log for a failure); the running counts."""
    for r in results:
        total += 1
        failed += not r.ok
        print(escaped(f"{'PASS' if r.ok else 'FAIL'}  {name}: {r.name}  ({r.file})"))
        if not r.ok:
            for line in r.message.split("\n"):
                print(f"      {escaped(line)}")
            if r.state is not None:
                for line in r.state.log()[-6:]:
                    print(f"      | {escaped(line)}")
    return failed, total


def cmd_verify(args: argparse.Namespace) -> int:
    _require_hypothesis()
    from rulewright.verify import VerifyJob, check_settings, parts

    only = coverage_kinds(args)
    if args.prefer is not None:
        try:
            re.compile(args.prefer)
        except re.error as exc:
            raise UsageError(f"--prefer {shown(args.prefer)} is not a regular expression ({exc})") from None
    strategies = _strategies(args)
    try:
        check_settings(args.examples, args.max_steps, strategies, args.prefer)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    out = output_folder(args.out, "--out") if args.out is not None else None
    # every game and output path is checked before the first game is played
    ws = current_workspace(args)
    compiled = games(ws)
    opened = [(name, open_game(name, args.option, ws)) for name in args.games or compiled]
    coverage_files: dict[str, Path] = {}
    if args.coverage_json is not None:
        for _, game in opened:
            coverage_files[game.name] = output_file(
                args.coverage_json.replace("GAME", game.name), "--coverage-json"
            )
    coverage_plots: dict[str, Path] = {}
    if args.coverage_plot is not None:
        if len(opened) > 1 and "GAME" not in args.coverage_plot:
            raise UsageError(
                f"--coverage-plot {shown(args.coverage_plot)}: {len(opened)} games are verified; put GAME "
                "in the file name, for one chart per game"
            )
        for _, game in opened:
            coverage_plots[game.name] = coverage_plot_file(args.coverage_plot.replace("GAME", game.name))
    covering = args.coverage or args.coverage_json is not None or args.coverage_plot is not None
    covs = [_coverage(game) if covering else None for _, game in opened]
    recipes = tuple(game_recipe(name, args.option, ws) for name, _ in opened)
    for recipe, (_, game) in zip(recipes, opened, strict=True):
        parallel.preload(recipe, game)
    job = VerifyJob(recipes, args.max_steps, tuple(strategies), args.prefer, not args.no_contract, covering)
    todo = [p for g in range(len(opened)) for p in parts(g, args.examples, args.seed, args.shards)]
    last = {p.game: p.index for p in todo}  # each game's last part
    failed = False
    done: list[PartResult] = []  # the parts of the game being collected
    verified = 0  # games

    def show(examples: int) -> None:
        bar.update(examples, f"{verified} of {len(opened)} games done" if len(opened) > 1 else "")

    with open_backend(args) as backend, Progress(sum(p.examples for p in todo), "examples") as bar:
        chunks = backend.chunked(todo, lambda p: p.examples)
        for chunk, results in zip(chunks, backend.run(job, chunks, show), strict=True):
            for part, result in zip(chunk.items, results, strict=True):
                done.append(result)
                if part.index == last[part.game]:
                    bar.clear()
                    name, game = opened[part.game]
                    failure = _verify_result(args, game, done, covs[part.game])
                    if failure is not None:
                        failed = True
                        folder = out or _scenario_dir(ws, name, compiled)
                        _save_reproducer(failure, folder, name, built=name in compiled)
                    cov = covs[part.game]
                    if cov is not None:
                        _show_coverage(cov, only, args.coverage, coverage_files.get(game.name))
                        if game.name in coverage_plots:
                            source = f"verify: {args.examples:,} examples, seed {args.seed}"
                            _write_coverage_plot(cov, only, coverage_plots[game.name], source)
                    done = []
                    verified += 1
    return EXIT_SPEC if failed else EXIT_OK


def _strategies(args: argparse.Namespace) -> list[str]:
    """The strategies --strategy names, else the default ones (and 'prefer' with --prefer)."""
    from rulewright.verify import DEFAULT_STRATEGIES

    if args.strategy:
        return [x.strip() for x in args.strategy.split(",")]
    return [*DEFAULT_STRATEGIES, *(["prefer"] if args.prefer else [])]


def _verify_result(
    args: argparse.Namespace, game: Game, results: Sequence[PartResult], cov: RuleCoverage | None
) -> Failure | None:
    """Print one game's verify report, made of its parts up to the first that failed (their rule
    coverage goes into `cov`); return the minimal failure, if any."""
    from rulewright.verify import describe, merge, through_first_failure

    counted = through_first_failure(results)
    if cov is not None:
        for r in counted:
            if r.coverage is not None:
                cov.add(r.coverage)
    report = merge([r.report for r in counted])
    print(describe(report, len(game.info.invariants), not args.no_contract))
    return report.failure


def _require_hypothesis() -> None:
    """Import rulewright.verify, which needs Hypothesis; without it, a usage error says how to install it."""
    try:
        import rulewright.verify  # noqa: F401
    except ModuleNotFoundError as exc:
        if exc.name is None or exc.name.partition(".")[0] != "hypothesis":
            raise
        raise UsageError("Hypothesis is not installed: pip install 'rulewright[verify]'") from None


def _coverage(game: Game) -> RuleCoverage:
    from rulewright.coverage import RuleCoverage

    try:
        return RuleCoverage(game)
    except (OSError, ValueError) as exc:
        raise UsageError(f"no rule coverage for {game.name}: {exc}") from None


def _show_coverage(cov: RuleCoverage, only: frozenset[str] | None, report: bool, target: Path | None) -> None:
    """Print the rule coverage (--coverage) and write it as JSON to `target` (--coverage-json)."""
    if report:
        print()
        print(escaped_lines(cov.report(only=only)))
    if target is not None:
        write_output(target, json.dumps(cov.to_json(), indent=1) + "\n", "the rule coverage")
        print(f"rule coverage written to {target}")


def _write_coverage_plot(cov: RuleCoverage, only: frozenset[str] | None, target: Path, source: str) -> None:
    """Draw the rule coverage into `target` (--coverage-plot; rulewright/plots.py)."""
    from rulewright.plots import write_coverage_chart

    try:
        write_coverage_chart(target, cov, only, source)
    except OSError as exc:
        raise UsageError(f"cannot write the coverage chart to {target} ({os_reason(exc)})") from None
    print(f"rule coverage chart written to {target}")


def _save_reproducer(failure: Failure, folder: Path, name: str, built: bool) -> None:
    """Write verify's minimal failing case (if `folder` cannot take it, a temporary folder does)
    and say how to run it; a `built` game runs it after a build."""
    import tempfile

    from rulewright.verify import write_reproducer

    try:
        path = write_reproducer(failure, folder, name)
    except OSError as exc:
        spare = Path(tempfile.mkdtemp(prefix="rulewright-verify-"))
        print(f"  cannot write the reproducer in {folder} ({os_reason(exc)}); using {spare}")
        path = write_reproducer(failure, spare, name)
    print(f"  reproducer written to {path}")
    rerun = f"rulewright build && rulewright scenarios {name}" if built else f"rulewright scenarios {name}"
    print(f"  run it: {rerun}")


def _scenario_dir(ws: Workspace | None, name: str, compiled: list[str]) -> Path:
    """Where verify writes a reproducer: the spec's own scenarios/ folder (a temporary folder for
    a game whose spec is not in the workspace)."""
    import tempfile

    if name not in compiled:
        return Path(name) / "scenarios"  # a spec folder given as a path
    folder = spec_folder(ws, name)
    return folder / "scenarios" if folder is not None else Path(tempfile.mkdtemp(prefix="rulewright-verify-"))


def _spec_ir(ws: Workspace | None, name: str) -> Any:
    """The IR of the workspace's spec of the game `name`."""
    from compiler.diagnostics import render_all

    folder = spec_folder(ws, name)
    if folder is None:
        where = f"in the workspace {ws.root}" if ws is not None else "(no workspace here)"
        raise UsageError(f"no spec folder of {shown(name)} {where}: recording needs the game's spec")
    r = compiled_at_root(ws, folder, render=False)
    if not r.ok or r.game is None:
        print(render_all(r.diagnostics))
        raise UsageError(f"{folder} has errors; fix them first")
    return r.game


def _playthrough_dir(ws: Workspace | None, name: str) -> Path:
    """Where a game's golden playthroughs are kept: tests/playthroughs/GAME in the workspace."""
    from rulewright.impact import playthrough_dir

    if ws is None:
        raise UsageError(f"no workspace here to keep the playthroughs of {shown(name)} in: pass --out DIR")
    return playthrough_dir(ws.root, name)


def _built_place(ws: Workspace | None, name: str) -> str:
    """Where the engine of `name` was built, as messages name it (e.g. generated/GAME)."""
    return f"{ws.shown(ws.output)}/{name}" if ws is not None else name


def cmd_playthrough(args: argparse.Namespace) -> int:
    from compiler.fingerprint import fingerprint
    from rulewright.impact import save
    from rulewright.playthrough import record

    ws = current_workspace(args)
    game = open_game(args.game, args.option, ws, folders=False)
    agent_kinds(args.agents)
    if args.seed + args.n > SEED_LIMIT:
        raise UsageError(f"seeds {args.seed}..{args.seed + args.n - 1} go past the largest, {SEED_LIMIT - 1}")
    folder = output_folder(args.out, "--out") if args.out is not None else _playthrough_dir(ws, args.game)
    spec = _spec_ir(ws, args.game)
    if spec.digest != game.info.digest:
        raise UsageError(f"{_built_place(ws, args.game)} is stale: run `rulewright build {game.name}` first")
    entries = fingerprint(spec)
    for seed in range(args.seed, args.seed + args.n):
        try:
            pt = record(game, seed, args.agents)
        except ValueError as exc:  # e.g. mcts without OpenSpiel
            raise UsageError(str(exc)) from None
        try:
            path = save(game, pt, folder, entries)
        except OSError as exc:
            raise UsageError(f"cannot write the playthrough in {folder} ({os_reason(exc)})") from None
        print(f"wrote {path} ({len(pt.steps)} steps; {pt.result})")
    return EXIT_OK


def cmd_diff(args: argparse.Namespace) -> int:
    from rulewright.impact import (
        analyse,
        coverage_tracer,
        describe,
        playthrough_files,
        rerecord,
    )
    from rulewright.playthrough import PlaythroughError
    from rulewright.previous import load_previous

    ws = current_workspace(args)
    game = open_game(args.game, None, ws, folders=False)
    if args.dir is not None and not args.dir.strip():
        raise UsageError("--dir: the folder name is empty")
    folder = Path(args.dir) if args.dir else _playthrough_dir(ws, args.game)
    if args.update:
        output_folder(str(folder), "--dir")
    spec = _spec_ir(ws, args.game)
    if spec.digest != game.info.digest:
        raise UsageError(
            f"{_built_place(ws, args.game)} is older than its spec: run `rulewright build {game.name}` first"
        )
    if not is_dir(folder) or not playthrough_files(folder):
        raise UsageError(
            f"no playthroughs in {folder} (record some with `rulewright playthrough {args.game}`)"
        )
    previous = load_previous(ws.output, game.name) if ws is not None else None
    try:
        impact = analyse(game, spec, folder, tracer=coverage_tracer, previous=previous)
    except PlaythroughError as exc:
        raise UsageError(str(exc)) from None
    print(escaped_lines(describe(impact)))
    if args.update:
        try:
            written = rerecord(game, spec, folder)
        except OSError as exc:
            raise UsageError(f"cannot write the playthroughs in {folder} ({os_reason(exc)})") from None
        moved = [(p, a, b) for p, a, b in written if a != b]
        print(f"re-recorded {len(written)} playthrough(s) in {folder}; {len(moved)} end differently:")
        for p, a, b in moved:
            print(f"  {p.stem}: {a}  ->  {b}")
        return EXIT_OK
    return EXIT_SPEC if any(o.divergence is not None for o in impact.outcomes) else EXIT_OK


def cmd_schema(args: argparse.Namespace) -> int:
    """`rulewright schema`: where the spec files' JSON Schemas are (or, with --out, a copy of
    them in a folder of the user's), and what to tell an editor about them."""
    from compiler import schema
    from runtime.usercache import write_file_atomically

    paths = {kind: schema.SCHEMA_DIR / schema.file_name(kind) for kind in schema.KINDS}
    try:
        texts = {kind: path.read_bytes() for kind, path in paths.items()}
    except OSError as exc:
        raise CommandFailed(
            f"the installed schemas cannot be read ({os_reason(exc)}): reinstall rulewright"
        ) from None
    if args.out is not None:
        folder = output_folder(args.out, "--out")
        folder.mkdir(parents=True, exist_ok=True)
        paths = {kind: folder / schema.file_name(kind) for kind in schema.KINDS}
        for path in paths.values():  # all three refused, or none (each is checked again on writing)
            if os.path.islink(path) or (os.path.lexists(path) and not os.path.isfile(path)):
                raise UsageError(f"--out: {path} is not a plain file (a link, a folder, ...): not written")
        for kind, data in texts.items():  # (a link that appears meanwhile is replaced, not written through)
            try:
                write_file_atomically(paths[kind], data, 0o666)
            except OSError as exc:
                raise UsageError(f"--out: cannot write {paths[kind]} ({os_reason(exc)})") from None
        print(f"wrote {', '.join(schema.file_name(k) for k in schema.KINDS)} to {folder}/")
    paths = {kind: path.absolute() for kind, path in paths.items()}
    width = max(len(w) for w in SCHEMA_KINDS.values())
    for kind in schema.KINDS:
        print(f"{SCHEMA_KINDS[kind]:<{width}}  {paths[kind]}")
    print()
    print(schema.editor_settings(paths), end="")
    return EXIT_OK


# what each schema is for, as `rulewright schema` lists them
SCHEMA_KINDS = {
    "rules": "rules files (specs/GAME/*.yaml but board.yaml):",
    "board": "specs/GAME/board.yaml:",
    "scenario": "scenario files (specs/GAME/scenarios/*.yaml):",
}


def cmd_demo(args: argparse.Namespace) -> int:
    ws = current_workspace(args)
    for name in games(ws):
        game = open_game(name, None, ws, folders=False)
        state = play_game(game, args.seed, ["random"])
        lines = state.log()
        print(
            f"=== {escaped(game.title)}: one game, seed {args.seed}, random agents ({len(lines)} log lines, last {args.tail}) ==="
        )
        for line in lines[len(lines) - min(args.tail, len(lines)) :]:
            print(f"  {escaped(line)}")
        print(f"  {result_line(game, state)}\n")
    print(
        "To look at a game:\n"
        "  rulewright draw GAME --steps 100 --out board.svg   a picture of it after 100 decisions\n"
        "  rulewright play GAME --html game.html             a page to step through it in a browser\n"
        "  rulewright play GAME --agents human,random        play it here\n"
        "  make serve                                        play any game in the browser (docs/serve.md)"
    )
    return EXIT_OK


def cmd_serve(args: argparse.Namespace) -> int:
    """`rulewright serve`: the workspace's and the bundled games in the browser (docs/serve.md)."""
    try:
        import aiohttp  # noqa: F401  (the serve extra)
    except ImportError:
        raise UsageError(
            "the browser server needs the serve extra: pip install -e '.[serve]' (or make serve)"
        ) from None
    from rulewright.serve import free_port, run
    from rulewright.serve.store import StoreError

    if args.bot_delay < 0 or args.bot_delay > 60 or args.bot_delay != args.bot_delay:
        raise UsageError("--bot-delay: seconds from 0 to 60")
    ws = current_workspace(args)
    data = Path(args.data)
    if not args.data.strip():
        raise UsageError("--data: the folder name is empty")
    if args.port > 65535:
        raise UsageError(f"--port {args.port}: ports go from 0 to 65535")
    why = free_port(args.host, args.port)
    if why is not None:
        raise UsageError(why)
    catalog = serve_catalog(ws)
    try:
        run(catalog, data, args.host, args.port, bot_delay=args.bot_delay)
    except StoreError as exc:
        raise UsageError(str(exc)) from None
    return EXIT_OK


def cmd_lsp(args: argparse.Namespace) -> int:
    """`rulewright lsp`: the language server, over stdio (docs/editor.md)."""
    try:
        import pygls  # noqa: F401  (the lsp extra)
    except ImportError:
        raise UsageError("the language server needs the lsp extra: pip install 'rulewright[lsp]'") from None
    from rulewright.lsp.server import main as serve_lsp

    serve_lsp()
    return EXIT_OK


def serve_catalog(ws: Workspace | None) -> Catalog:
    """What `rulewright serve` offers: every game this run sees (the workspace's first), with its
    lobby entry and the players' names for each player count, a way to open it, and the bots."""
    from rulewright.serve import Catalog

    entries: list[dict[str, Any]] = []
    for entry, game in _game_entries(ws):
        if game is None:  # refused: not offered
            continue
        entry["names"] = _seat_names(game, entry, ws)
        del entry["folder"]
        entries.append(entry)
    entries.sort(key=lambda e: (e["source"] != "workspace", e["title"].lower()))

    def opened(name: str, options: dict[str, Any]) -> Game:
        from runtime.game import load_game

        return load_game(name, options, search=search(ws))

    bots = tuple(k for k in ("random", "greedy", "mcts") if k != "mcts" or _has_openspiel())
    return Catalog(tuple(entries), opened, bots)


def _seat_names(game: Game, entry: dict[str, Any], ws: Workspace | None) -> dict[str, list[str]]:
    """The players' names for each player count the lobby offers."""
    from runtime.game import load_game

    option = entry["players_option"]
    if option is None:
        return {str(game.num_players): list(game.info.player_names[: game.num_players])}
    out = {}
    for count in entry["players"]:
        other = load_game(game.name, {option: count}, search=search(ws))
        out[str(count)] = list(other.info.player_names[: other.num_players])
    return out


def _has_openspiel() -> bool:
    import importlib.util

    return importlib.util.find_spec("pyspiel") is not None


def cmd_bench(args: argparse.Namespace) -> int:
    from rulewright.bench import BenchFailed, BenchUsageError

    if args.cfr is not None:
        return _bench_cfr(args)
    ws = current_workspace(args)
    if args.versus is not None:
        return _bench_versus(args, ws)
    if args.against is None and (code := run_natively(args, ws)) is not None:
        return code
    try:
        return _bench_against(args, ws) if args.against is not None else _bench_games(args, ws)
    except BenchUsageError as exc:
        raise UsageError(str(exc)) from None
    except BenchFailed as exc:
        raise CommandFailed(str(exc)) from None


def _bench_cfr(args: argparse.Namespace) -> int:
    """`bench GAME --cfr OTHER`: a CFR iteration on GAME against one on OpenSpiel's OTHER."""
    from rulewright.bench_cfr import CfrUnavailable, compare_cfr

    if args.game is None:
        raise UsageError("--cfr compares one game: rulewright bench GAME --cfr OTHER")
    if args.against is not None or args.native or args.option:
        raise UsageError(
            "--cfr measures the game as built, with its default options: without --against, --native or -o"
        )
    try:
        result = compare_cfr(args.game, args.cfr, args.rounds, args.iterations)
    except CfrUnavailable as exc:
        raise CommandFailed(str(exc)) from None
    print(json.dumps(result.as_json(), indent=2) if args.json else result.report())
    return 0


def _bench_games(args: argparse.Namespace, ws: Workspace | None) -> int:
    """`bench [GAME]`: each game's figures, measured in this process (the check in a new one)."""
    from rulewright.bench import bench_game

    opened = [
        open_game(name, args.option, ws) for name in ([args.game] if args.game is not None else games(ws))
    ]
    results = []
    for game in opened:
        spec = None if args.no_check else _bench_spec(args.game, game.name, ws)
        result = bench_game(game, seconds=args.seconds, spec=spec, cwd=ws.root if ws is not None else None)
        results.append(result)
        if not args.json:
            print(result.report(), flush=True)
    if args.json:
        print(json.dumps([r.as_json() for r in results], indent=2))
    return EXIT_OK


def _bench_spec(given: str | None, name: str, ws: Workspace | None) -> Path | None:
    """The spec folder a benched game comes from: the folder given as a path, else the workspace's."""
    if given is not None and given not in games(ws) and is_dir(Path(given)):
        return Path(given)
    return spec_folder(ws, name)


def _bench_versus(args: argparse.Namespace, ws: Workspace | None) -> int:
    """`bench GAME --versus CMD`: this tree's engine of GAME against another program's, side by side."""
    from rulewright.bench import (
        CODE_TREE,
        BenchFailed,
        BenchUsageError,
        Side,
        compare_versus,
        describe_work_tree,
        repository_root,
    )

    if args.game is None or args.against is not None or args.cfr is not None:
        raise UsageError(
            "--versus compares one game with a program: rulewright bench GAME --versus 'CMD ARGS'"
        )
    if ws is None:
        raise UsageError(NO_WORKSPACE)
    try:
        command = shlex.split(args.versus)
    except ValueError as exc:
        raise UsageError(f"--versus: {exc} in {shown(args.versus)}") from None
    if not command:
        raise UsageError("--versus needs a command: rulewright bench GAME --versus 'CMD ARGS'")
    folder = spec_folder(ws, args.game)
    if folder is None:
        raise UsageError(f"--versus: the workspace has no game {shown(args.game)}")
    options = parse_options(args.option)
    try:
        label = describe_work_tree(repository_root(ws.root))
    except BenchUsageError:  # not in a git repository
        label = str(ws.root)
    a = Side("A", label, CODE_TREE, ws.output, ws.root, {args.game: folder})
    if args.native:
        a = _played_natively(a, _native_folder(ws))
    bar = _RunsBar()
    try:
        result = compare_versus(
            a,
            args.game,
            command,
            seconds=args.seconds,
            rounds=args.rounds,
            options=[f"{key}={value}" for key, value in options.items()],
            tick=bar.tick,
        )
    except BenchFailed as exc:
        raise CommandFailed(str(exc)) from None
    bar.clear()
    print(json.dumps(result.as_json(), indent=2) if args.json else result.report())
    return EXIT_OK


class _RunsBar:
    """The progress bar of a bench's runs, made at the first tick (which tells how many there are)."""

    def __init__(self) -> None:
        self.bar: Progress | None = None

    def tick(self, done: int, total: int) -> None:
        if self.bar is None:
            self.bar = Progress(total, "runs")
        self.bar.update(done)

    def clear(self) -> None:
        if self.bar is not None:
            self.bar.clear()


def _played_natively(a: Side, native: Path) -> Side:
    """Side A playing the native build `native` of this tree's engines."""
    from rulewright.native import ENGINES

    return dataclasses.replace(a, label=f"{a.label}, native", play_tree=native, search=native / ENGINES)


def _bench_against(args: argparse.Namespace, ws: Workspace | None) -> int:
    """`bench --against REF`: this tree's games against REF's, side by side (rulewright/bench.py)."""
    from rulewright.bench import compare, revision_sides

    if ws is None:
        raise UsageError(NO_WORKSPACE)
    specs = {f.name: f for f in spec_folders_of(ws)}
    if args.game is not None:
        if args.game not in specs:
            known = ", ".join(specs) or "none"
            raise UsageError(
                f"--against compares the workspace's games by name, and {shown(args.game)} is none of "
                f"them: {known}"
            )
        specs = {args.game: specs[args.game]}
    if not specs:
        raise UsageError(f"--against: the workspace {ws.root} has no spec to compare")
    options = parse_options(args.option)
    bar = _RunsBar()
    native = _native_folder(ws) if args.native else None
    with revision_sides(ws.root, specs, args.against) as (a, b):
        if native is not None:  # A plays the native build of this tree's engines
            a = _played_natively(a, native)
        from runtime.game import UnknownGameError, load_game

        for name in a.specs:  # a game option it does not take: refused before anything is measured
            try:
                load_game(
                    name,
                    options,
                    search=(a.search,) if a.search is not None and native is None else search(ws),
                )
            except (UnknownGameError, ValueError) as exc:
                raise UsageError(str(exc)) from None
        result = compare(
            a,
            b,
            args.against,
            seconds=args.seconds,
            rounds=args.rounds,
            options=[f"{key}={value}" for key, value in options.items()],
            check=not args.no_check,
            tick=bar.tick,
        )
    bar.clear()
    print(json.dumps(result.as_json(), indent=2) if args.json else result.report())
    return EXIT_OK


# ---- argument parsing -------------------------------------------------------------------------

WORKSPACE_HELP = (
    "the workspace folder (default: the nearest folder up from here with a rulewright.toml, "
    "else this one if it has specs/)"
)
SEEDS = f"0 to {SEED_LIMIT - 1}"  # the range of a seed, as help texts give it


def parser() -> argparse.ArgumentParser:
    """The command line: global options, then one subcommand of COMMANDS with its own arguments."""
    p = ArgumentParser(
        prog="rulewright",
        description="Board-game rules as data, compiled to engines.",
        epilog="exit codes: 0 ok; 1 a spec, rule or check failed; 2 bad input (an argument, path, game "
        "or log; also a game abandoned at a human's decision: the end of input, or q); 70 an internal error (set "
        f"{DEBUG_ENV}=1 for its traceback); 130 interrupted by Ctrl-C; 128+N a worker process (-j) killed by "
        "signal N (137: SIGKILL, out of memory?)",
    )
    p.add_argument("--version", action="version", version=f"rulewright {__version__}")
    p.add_argument("--workspace", metavar="DIR", help=WORKSPACE_HELP)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.add_arguments(command.subparser(sub))
    return p


@dataclass(frozen=True)
class Command:
    """One subcommand: its name, the function that runs it, its help, and its own arguments."""

    name: str
    run: Callable[[argparse.Namespace], int]
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    epilog: str | None = None  # laid out as written (line breaks kept)

    def subparser(self, sub: argparse._SubParsersAction[ArgumentParser]) -> ArgumentParser:
        sp = sub.add_parser(
            self.name,
            help=self.help,
            description=self.help,
            epilog=self.epilog,
            formatter_class=argparse.RawDescriptionHelpFormatter if self.epilog else argparse.HelpFormatter,
        )
        sp.set_defaults(fn=self.run)
        # also after the command; SUPPRESS keeps the subcommand from resetting a global --workspace
        sp.add_argument("--workspace", metavar="DIR", default=argparse.SUPPRESS, help=WORKSPACE_HELP)
        return sp


def _game_options(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "-o",
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="a game option (repeatable): a number, true/false or, for an enum option, a value's name "
        "(`rulewright games` lists each game's options and their choices)",
    )


def _init_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("folder", nargs="?", default=".", metavar="DIR", help="default: this folder")


def _docs_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "topic", nargs="?", metavar="TOPIC", help="a page to print, e.g. tutorial, dsl or games/kuhn_poker"
    )
    where = sp.add_mutually_exclusive_group()
    where.add_argument("--path", action="store_true", help="print the folder of the docs")
    where.add_argument(
        "--specs", action="store_true", help="print the folder of the example specs (one per bundled game)"
    )


def _check_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "targets",
        nargs="*",
        metavar="GAME|PATH",
        help="games of the workspace or spec folders (default: every spec of the workspace)",
    )


def _build_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "targets",
        nargs="*",
        metavar="GAME|PATH",
        help="build only these (games of the workspace or spec folders); default: every spec, and "
        "delete the engines of specs that are gone",
    )
    sp.add_argument("--check", action="store_true", help="write nothing; fail if the output is stale")
    sp.add_argument(
        "--native",
        action="store_true",
        help="also compile the runtime and the engines (with GAMEs: theirs only) with mypyc into this user's "
        "cache, for simulate --native and bench --native (minutes; needs mypyc and a C compiler)",
    )
    sp.add_argument("-v", "--verbose", action="store_true", help="also print warnings")


def _games_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--json", action="store_true", help="as JSON")


def _play_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("game", metavar="GAME|PATH", help="a compiled game or a spec folder")
    sp.add_argument("--seed", type=seed_number, default=1, help=f"{SEEDS} (default 1)")
    sp.add_argument(
        "--agents",
        default="random",
        help=f"comma-separated, one per player, cycled ({', '.join(AGENTS)}; mcts:N = N simulations)",
    )
    sp.add_argument(
        "--log", metavar="FILE", help="write a replayable JSON log (checked before the game starts)"
    )
    sp.add_argument("-q", "--quiet", action="store_true", help="print only the result")
    _html_arguments(sp, "the game")
    _game_options(sp)


def _draw_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("game", nargs="?", metavar="GAME|PATH", help="a compiled game or a spec folder")
    sp.add_argument("--log", metavar="FILE", help="draw a step of this logged game instead")
    sp.add_argument("--seed", type=seed_number, default=1, help=f"{SEEDS} (default 1)")
    sp.add_argument(
        "--steps",
        type=nonnegative_int,
        help="draw the state after this many decisions (random play from the seed, or the log's; "
        "default: the start, or the log's end)",
    )
    sp.add_argument(
        "--as",
        dest="as_",
        default="everyone",
        metavar="PLAYER",
        help="whose view: a player, or everyone (the default: every card face up)",
    )
    sp.add_argument(
        "--out", metavar="FILE", help="an .svg, .png or .txt file (default: the terminal view, printed)"
    )
    _game_options(sp)


def _serve_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "--host", default="127.0.0.1", help="the address to listen at (default 127.0.0.1: this machine only)"
    )
    sp.add_argument(
        "--port", type=nonnegative_int, default=8000, help="default 8000; 0: any free port (printed)"
    )
    sp.add_argument(
        "--data",
        default="rulewright-matches",
        metavar="DIR",
        help="where the matches are kept (made if missing; default ./rulewright-matches)",
    )
    sp.add_argument(
        "--bot-delay",
        type=float,
        default=0.5,
        metavar="SECONDS",
        help="a bot's pause before each move, so that people can follow it (default 0.5)",
    )


def _replay_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("logfile")
    sp.add_argument(
        "--max-bytes",
        type=positive_int,
        default=MAX_LOG_BYTES,
        help=f"refuse a larger log file (default {MAX_LOG_BYTES:,})",
    )
    _html_arguments(sp, "the replayed game (written only if the log replays as recorded)")


def _html_arguments(sp: argparse.ArgumentParser, what: str) -> None:
    sp.add_argument(
        "--html",
        metavar="FILE",
        help=f"write {what} as one self-contained HTML page to step through, from every player's "
        "perspective and everyone's (docs/viewing.md)",
    )
    sp.add_argument(
        "--html-steps",
        type=positive_int,
        metavar="N",
        help="the page shows only the first N decisions (default: all)",
    )


def _simulate_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("game", metavar="GAME|PATH", help="a compiled game or a spec folder")
    sp.add_argument("-n", type=positive_int, default=100, help="number of games (default 100)")
    sp.add_argument("--seed", type=seed_number, default=0, help=f"seed of the first game ({SEEDS})")
    sp.add_argument(
        "--agents",
        default="random",
        help=f"comma-separated, one per player, cycled ({', '.join(AGENTS)}; mcts:N)",
    )
    sp.add_argument(
        "--rotate", action="store_true", help="rotate the agents' seats every game (fair comparisons)"
    )
    sp.add_argument(
        "--vary",
        action="append",
        metavar="NAME=V1,V2,...",
        help="play the games once per value of the game option NAME (repeatable: every combination, "
        f"at most {MAX_SETTINGS}); each setting is reported, and --plot compares them",
    )
    sp.add_argument(
        "--plot",
        metavar="DIR",
        help="write balance charts into DIR, as PNG and SVG: win rates, game lengths, score "
        "trajectories (made if missing; needs pip install 'rulewright[plot]')",
    )
    sp.add_argument("--coverage", action="store_true", help="report how often each spec rule ran")
    coverage_kinds_option(sp)
    sp.add_argument("--coverage-json", metavar="FILE", help="write the rule coverage as JSON to FILE")
    coverage_plot_option(sp, "")
    _html_arguments(sp, "one game of the run (the first; --html-game K: the K-th, seed SEED+K-1)")
    sp.add_argument(
        "--html-game",
        type=positive_int,
        metavar="K",
        help="with --html: the run's K-th game (1 to -n; default 1), played again after the run",
    )
    _parallel_arguments(sp, "the games")
    _native_argument(sp)
    _game_options(sp)


def _parallel_arguments(sp: argparse.ArgumentParser, what: str) -> None:
    sp.add_argument(
        "-j",
        "--jobs",
        type=positive_int,
        metavar="N",
        help=f"play {what} in N worker processes (default: every usable core, {parallel.usable_cores()} "
        "here); the results are the same for any N",
    )
    sp.add_argument(
        "--backend",
        choices=BACKENDS,
        default="local",
        help="where the workers run: local (this machine) or ray (a Ray cluster: the one at RAY_ADDRESS, "
        "else one started for the run; pip install 'rulewright[ray]')",
    )


def _scenarios_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "paths",
        nargs="*",
        metavar="GAME|PATH",
        help="a game or a spec folder (default: all games); with --game, case files or folders of them",
    )
    sp.add_argument(
        "--game",
        metavar="NAME|FOLDER",
        help="the game (name or spec folder) the case files test; they replace its own scenarios",
    )


def _verify_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "games", nargs="*", metavar="GAME|PATH", help="games or spec folders to verify (default: all games)"
    )
    sp.add_argument("--examples", type=positive_int, default=100, help="games per game (default 100)")
    sp.add_argument("--seed", type=seed_number, default=0, help=f"Hypothesis seed ({SEEDS}; default 0)")
    sp.add_argument(
        "--max-steps",
        type=positive_int,
        default=2000,
        help="stop an example after K decisions (default 2000)",
    )
    sp.add_argument(
        "--strategy",
        metavar="S[,S...]",
        help="random, first, last, novel, prefer (default: random,last,first,novel, +prefer with --prefer)",
    )
    sp.add_argument(
        "--prefer",
        metavar="REGEX",
        help="favour actions whose label matches this Python regular expression, e.g. 'event'",
    )
    sp.add_argument("--no-contract", action="store_true", help="check only the invariants (faster)")
    sp.add_argument("--coverage", action="store_true", help="then report how often each rule ran")
    coverage_kinds_option(sp)
    sp.add_argument(
        "--coverage-json", metavar="FILE", help="write rule coverage as JSON (GAME in FILE becomes the name)"
    )
    coverage_plot_option(sp, " (GAME in FILE becomes the name)")
    sp.add_argument(
        "--out", metavar="DIR", help="where to write a failure's scenario (default specs/GAME/scenarios)"
    )
    sp.add_argument(
        "--shards",
        type=positive_int,
        default=1,
        metavar="K",
        help="cut each game's examples into K Hypothesis runs of their own (the first with --seed), "
        "so that one game keeps K workers busy; another K plays other examples (default 1)",
    )
    _parallel_arguments(sp, "the games (and shards)")
    _game_options(sp)


def _playthrough_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("game", metavar="GAME", help="a compiled game")
    sp.add_argument("--seed", type=seed_number, default=1, help="seed of the first game (default 1)")
    sp.add_argument("-n", type=positive_int, default=1, help="how many games, seeds SEED.. (default 1)")
    sp.add_argument("--agents", default="random", help="comma-separated, one per player, cycled")
    sp.add_argument("--out", metavar="DIR", help="default tests/playthroughs/GAME")
    _game_options(sp)


def _diff_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("game", metavar="GAME", help="a compiled game")
    sp.add_argument("--update", action="store_true", help="then re-record them on the current rules")
    sp.add_argument("--dir", metavar="DIR", help="default tests/playthroughs/GAME")


def _bench_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("game", nargs="?", metavar="GAME|PATH", help="default: every compiled game")
    sp.add_argument(
        "--seconds",
        type=positive_seconds,
        default=2.0,
        help="CPU time spent playing per game (with --against: per round and side; default 2)",
    )
    sp.add_argument(
        "--against",
        metavar="REF",
        help="compare with the git revision REF of the repository holding the workspace, side by side",
    )
    sp.add_argument(
        "--rounds",
        type=positive_int,
        default=5,
        help="with --against: rounds per game and side, each in a fresh process; with --cfr: rounds "
        "per side (default 5)",
    )
    sp.add_argument("--no-check", action="store_true", help="play only: leave out checking the specs")
    sp.add_argument(
        "--versus",
        metavar="CMD",
        help="compare GAME with another program that plays it: CMD (quoted, with its arguments) is "
        "run with --seconds S for each round and prints a JSON line with games, decisions and "
        "cpu_s (docs/performance.md)",
    )
    sp.add_argument(
        "--cfr",
        metavar="OTHER",
        help="the CPU cost of an iteration of OpenSpiel's CFR on GAME against its game OTHER "
        "(e.g. python_kuhn_poker), alternating --rounds rounds in this process",
    )
    sp.add_argument(
        "--iterations",
        type=positive_int,
        default=50,
        help="with --cfr: CFR iterations per round (default 50)",
    )
    sp.add_argument("--json", action="store_true", help="print the figures as JSON")
    _native_argument(sp)
    _game_options(sp)


def _native_argument(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "--native",
        action="store_true",
        help="play the engines `rulewright build --native` compiled (refused if they are out of date)",
    )


def _schema_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "--out",
        metavar="DIR",
        help="copy the three schema files into this folder (made if missing), e.g. .vscode/ of "
        "your workspace, so that editor settings survive an upgrade of rulewright",
    )


def _demo_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--seed", type=seed_number, default=1, help=f"{SEEDS} (default 1)")
    sp.add_argument("--tail", type=nonnegative_int, default=15, help="log lines to show per game")


# in the order `rulewright --help` lists them
COMMANDS: tuple[Command, ...] = (
    Command(
        "init",
        cmd_init,
        "make a folder a workspace: a rulewright.toml and an empty specs/",
        _init_arguments,
        epilog="A workspace is where your games live: `rulewright` run in it (or below it) checks and\n"
        "builds its specs/ and writes the engines into its own output folder (generated/), never\n"
        "into the installed package. See `rulewright docs workspace`.",
    ),
    Command(
        "docs",
        cmd_docs,
        "the docs, here in the terminal: list the pages, print one, or say where they are",
        _docs_arguments,
        epilog="examples:\n"
        "  rulewright docs                       every page, with its title\n"
        "  rulewright docs tutorial | less       one page (Markdown)\n"
        "  rulewright docs --path                the folder of the pages and their images\n"
        '  cp -r "$(rulewright docs --specs)/kuhn_poker" specs/   an example spec to start from',
    ),
    Command(
        "check", cmd_check, "check specs and print located diagnostics (exit 1 on errors)", _check_arguments
    ),
    Command(
        "build",
        cmd_build,
        "compile the workspace's specs into its output folder (generated/)",
        _build_arguments,
    ),
    Command(
        "games",
        cmd_games,
        "list the games: the workspace's, then the bundled ones, with their options",
        _games_arguments,
    ),
    Command(
        "schema",
        cmd_schema,
        "the JSON Schemas of the spec files, for YAML editors: where they are, and editor settings",
        _schema_arguments,
        epilog="examples:\n"
        "  rulewright schema                  where the installed schemas are, and the settings\n"
        "  rulewright schema --out .vscode    a copy of them in your workspace, and the settings\n"
        "\n"
        "An editor with the YAML language server (VS Code's YAML extension, Neovim's yamlls) then\n"
        "completes and checks the keys of every spec file, each key's meaning shown on hover.\n"
        "See `rulewright docs editor`.",
    ),
    Command(
        "draw",
        cmd_draw,
        "draw a state of a game: its board as an SVG or PNG picture, or the terminal view",
        _draw_arguments,
        epilog="Examples:\n"
        "  rulewright draw GAME --steps 120 --out board.png                 # everything, face up\n"
        "  rulewright draw GAME --steps 30 --as PLAYER                      # one player's view, as text\n"
        "  rulewright draw --log game.json --steps 40 --as PLAYER --out s.svg  # a logged game's step 40\n"
        "How a game is drawn is declared in its spec's board.yaml (docs/dsl.md).",
    ),
    Command(
        "play",
        cmd_play,
        "play one game in the terminal",
        _play_arguments,
        epilog="A human player answers with an option's number or its text; `?` at the prompt lists the\n"
        "keys (v: the whole view, l: the whole log, q: quit). Before each decision they see what\n"
        "changed in their view since their last one, and the log since then.\n"
        "\n"
        "exit 0: the game ended; 1: a rule error; 2: a bad argument, or the game abandoned at a\n"
        "human's decision, by `q` or by the end of input (Ctrl-D); 130: Ctrl-C. A game stopped by\n"
        "Ctrl-C, Ctrl-D or `q` keeps its log, marked unfinished: in --log FILE, or, with a human\n"
        "player and no --log, in a new file rulewright-GAME-seedN-unfinished.json here.\n"
        "`rulewright replay` re-runs it to where it stopped.",
    ),
    Command(
        "replay",
        cmd_replay,
        "re-run a logged game and verify its recorded final state",
        _replay_arguments,
        epilog="exit 0: the final state matches (also for an unfinished game's log, which replay says it\n"
        "is); 1: the replay diverges or ends elsewhere; 2: the log is damaged or not a log.",
    ),
    Command("simulate", cmd_simulate, "play many games: win rates, mean length, speed", _simulate_arguments),
    Command(
        "scenarios",
        cmd_scenarios,
        "run the designers' scenario files",
        _scenarios_arguments,
        epilog="examples:\n"
        "  rulewright scenarios                             every game's own scenarios\n"
        "  rulewright scenarios GAME                        one game's (or a spec folder's)\n"
        "  rulewright scenarios --game GAME my_case.yaml    one case file, while writing it\n"
        "  rulewright scenarios --game GAME cases/          a folder of cases kept elsewhere\n"
        "\n"
        "A compiled game runs the scenarios compiled into it. If a file under specs/GAME/ changed\n"
        "since the last build, they are stale: scenarios refuses to run them (exit 2) and asks for\n"
        "`rulewright build`. A spec folder given as a path is compiled afresh.",
    ),
    Command(
        "verify",
        cmd_verify,
        "let Hypothesis play; check invariants and the engine contract; shrink and save a failure",
        _verify_arguments,
    ),
    Command(
        "playthrough",
        cmd_playthrough,
        "record golden playthroughs under tests/playthroughs/GAME/ of the workspace",
        _playthrough_arguments,
    ),
    Command(
        "diff",
        cmd_diff,
        "after a spec change and a build: where each stored playthrough diverges, what changed in the state, and why",
        _diff_arguments,
        epilog="examples:\n"
        "  rulewright build GAME && rulewright diff GAME   the impact of an edit of GAME's spec\n"
        "  rulewright diff GAME --update                   then record the playthroughs on the new rules\n"
        "\n"
        "`rulewright build GAME` keeps the engine it replaces in your cache; diff replays the\n"
        "playthroughs on it too and names the first field of the state that differs, with its value\n"
        "in the recorded game and now. See docs/errata.md.",
    ),
    Command(
        "bench",
        cmd_bench,
        "games/s, decisions/s, clone and JSON cost, check and build time; --against another revision",
        _bench_arguments,
        epilog="examples:\n"
        "  rulewright bench GAME                              one game's figures, CPU and wall\n"
        "  rulewright bench --against main --seconds 3        every game, this tree (A) against main (B)\n"
        "  rulewright bench kuhn_poker --cfr python_kuhn_poker  a CFR iteration, ours against OpenSpiel's\n"
        "  rulewright bench twilight_struggle --native --versus ./ts_random  our native engine against another program\n"
        "\n"
        "With --against, A and B alternate round by round, each round in a fresh process, and the\n"
        "table gives each figure's median for A and B and the per-round ratios (median, min-max).\n"
        "Run from a rulewright checkout, B is REF's own runtime, engines and check; in any other\n"
        "workspace, B is REF's specs built by this rulewright. See docs/performance.md.",
    ),
    Command(
        "serve",
        cmd_serve,
        "play every game in the browser: a lobby, live matches with friends, bots and hot-seat",
        _serve_arguments,
        epilog="examples:\n"
        "  rulewright serve                        then open http://127.0.0.1:8000/ and make a match\n"
        "  rulewright serve --port 0 --data DIR    any free port; matches kept in DIR/matches.sqlite3\n"
        "\n"
        "Every match is stored as it is played: a server stopped (even killed) and started again with\n"
        "the same --data resumes every match. See docs/serve.md.",
    ),
    Command(
        "lsp",
        cmd_lsp,
        "the language server for editors (over stdio): diagnostics as you type, hover, go to definition",
        lambda sp: None,
        epilog="examples:\n"
        "  rulewright lsp                          started by the editor, which talks to it on stdin/stdout\n"
        "\n"
        "It checks the spec folder of each YAML file the editor opens, with the unsaved buffers, and\n"
        "answers hover, definition, references, completion and document symbols. Setup for VS Code\n"
        "and Neovim: `rulewright docs editor` (docs/editor.md).",
    ),
    Command(
        "demo", cmd_demo, "play one seeded game of every compiled game and show how it ended", _demo_arguments
    ),
)


def _tolerant_output() -> None:
    """Print what cannot be encoded (a lone surrogate from a spec or an argument) as escapes
    rather than fail on it."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) == "strict":
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    _tolerant_output()
    try:
        args = parser().parse_args(argv)
        args.argv = list(sys.argv[1:] if argv is None else argv)
    except ArgumentError as exc:  # (argparse repeats an unknown argument as typed: escaped here)
        print(escaped(f"{exc.prog}: {exc}"), file=sys.stderr)
        return EXIT_USAGE
    command = f"rulewright {args.command}"
    # An error's message may quote a path, an argument, a log's or a spec's text: each line of
    # it is escaped, whatever the code that raised it did (runtime/text.py).
    try:
        code = int(args.fn(args))
    except UsageError as exc:
        print(f"{command}: {escaped_lines(str(exc))}", file=sys.stderr)
        code = EXIT_USAGE
    except CommandFailed as exc:
        print(f"{command}: {escaped_lines(str(exc))}", file=sys.stderr)
        code = EXIT_SPEC
    except RuleError as exc:
        print(f"{command}: rule error at run time: {escaped_lines(str(exc))}", file=sys.stderr)
        code = EXIT_SPEC
    except KeyboardInterrupt:
        print(f"\n{command}: interrupted (Ctrl-C)", file=sys.stderr)
        code = EXIT_INTERRUPTED
    except parallel.WorkerDied as exc:  # killed from outside (out of memory, kill -9): said as it is
        print(f"{command}: {exc}", file=sys.stderr)
        code = EXIT_SIGNALLED + exc.signal if exc.signal is not None else EXIT_INTERNAL
    except BrokenPipeError:
        code = EXIT_OK
    except Exception as exc:  # a bug of ours: say so in one line, the traceback on request
        if os.environ.get(DEBUG_ENV) == "1":
            raise
        first = (str(exc).splitlines() or [""])[0]
        print(
            f"{command}: internal error: {type(exc).__name__}: {clipped(first, 200)}; please report it "
            f"(set {DEBUG_ENV}=1 to see the traceback)",
            file=sys.stderr,
        )
        code = EXIT_INTERNAL
    # ValueError: stdout already closed, as the language server's transport does on `exit`
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
    return code
