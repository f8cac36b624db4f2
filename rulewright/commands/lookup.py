"""The workspace of a run and what it sees: the compiled games (the workspace's first, then the
bundled ones, or a native build's), the spec folders a command names, and a game opened by name."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulewright.commands.arguments import is_dir, parse_options
from rulewright.commands.exits import UsageError
from rulewright.workspace import Workspace, WorkspaceError, find_workspace, open_workspace
from runtime.text import quoted

if TYPE_CHECKING:
    from compiler.driver import Result
    from runtime.game import Game
    from runtime.loading import EngineSource


NO_WORKSPACE = (
    "no workspace here: run `rulewright init`, or add a rulewright.toml or a specs/ folder "
    "(or pass --workspace DIR)"
)
NATIVE_ENV = "RULEWRIGHT_NATIVE"  # set in the process `--native` starts: the native folder


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
    folder = native_build_folder(ws)
    code_tree = str(Path(__file__).resolve().parents[2])  # rulewright/commands/ -> the tree
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


def native_build_folder(ws: Workspace | None) -> Path:
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
        return f"{quoted(name)} is neither a compiled game nor a spec folder; the games are: {listed}"
    import difflib

    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return f"unknown game {quoted(name)}; the games are: {listed}{hint}"


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


def target_folders(ws: Workspace | None, targets: Sequence[str]) -> list[Path]:
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
            raise UsageError(
                f"{quoted(t)} is not a spec folder, and there is no workspace here to find it in"
            )
        else:
            where = ", ".join(ws.shown(d) for d in ws.spec_dirs)
            raise UsageError(f"{quoted(t)} is neither a spec folder nor a game in {where} ({ws.root})")
    return out


def compiled_at_root(ws: Workspace | None, folder: Path, *, render: bool = True) -> Result:
    """Compile a spec folder as `build` does: from the workspace's root, so that the spec files'
    names, and so the digest and the generated headers, do not depend on the current folder."""
    from compiler.driver import compile_spec

    with contextlib.chdir(ws.root if ws is not None else Path.cwd()):
        return compile_spec(folder.resolve(), render=render)


def game_entries(ws: Workspace | None) -> list[tuple[dict[str, Any], Game | None]]:
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
        listed.append((game_entry(game, source, own, shadows), game))
    return listed


def game_entry(game: Game, source: EngineSource, own: bool, shadows: bool) -> dict[str, Any]:
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


def spec_ir(ws: Workspace | None, name: str) -> Any:
    """The IR of the workspace's spec of the game `name`."""
    from compiler.diagnostics import render_all

    folder = spec_folder(ws, name)
    if folder is None:
        where = f"in the workspace {ws.root}" if ws is not None else "(no workspace here)"
        raise UsageError(f"no spec folder of {quoted(name)} {where}: recording needs the game's spec")
    r = compiled_at_root(ws, folder, render=False)
    if not r.ok or r.game is None:
        print(render_all(r.diagnostics))
        raise UsageError(f"{folder} has errors; fix them first")
    return r.game


def workspace_playthrough_dir(ws: Workspace | None, name: str) -> Path:
    """Where a game's golden playthroughs are kept: tests/playthroughs/GAME in the workspace."""
    from rulewright.impact import playthrough_dir

    if ws is None:
        raise UsageError(f"no workspace here to keep the playthroughs of {quoted(name)} in: pass --out DIR")
    return playthrough_dir(ws.root, name)


def built_place(ws: Workspace | None, name: str) -> str:
    """Where the engine of `name` was built, as messages name it (e.g. generated/GAME)."""
    return f"{ws.shown(ws.output)}/{name}" if ws is not None else name
