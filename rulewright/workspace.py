"""The workspace: a folder (and its rulewright.toml) -> the spec folders it holds and the one output
folder its engines are written to and loaded from (docs/workspace.md).

Discovery walks up from the current folder to the first one holding a rulewright.toml; failing
that, the current folder is a workspace if it holds specs/. The toml is read with every key
checked, and an output that would leave the workspace or land in an installed Python (a
site-packages, dist-packages or the interpreter's prefix) is refused, so that `build` can never
overwrite or delete installed engines.
"""

from __future__ import annotations

import os
import sys
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CONFIG_FILE = "rulewright.toml"
DEFAULT_SPECS = ("specs",)
DEFAULT_OUTPUT = "generated"
MAX_CONFIG_BYTES = 1 << 20  # a rulewright.toml is a few lines; a bigger one is not ours

CONFIG_TEXT = """\
# A Rulewright workspace: `rulewright` run in this folder (or below it) checks and builds the specs
# listed here, writes their engines into `output` and loads them from there (docs/workspace.md).
[workspace]
specs = ["specs"]      # folders of spec folders, or spec folders themselves
output = "generated"   # where `rulewright build` writes the engines, inside this folder
"""


class WorkspaceError(Exception):
    """A rulewright.toml that is not valid, or a workspace that would write where it must not."""


@dataclass(frozen=True)
class Workspace:
    """A folder of games: its spec folders (or folders of them) and its output folder."""

    root: Path
    spec_dirs: tuple[Path, ...]
    output: Path
    config: Path | None  # the rulewright.toml, or None for a bare specs/ folder

    def shown(self, path: Path) -> str:
        """A path as messages show it: relative to the workspace's root when inside it."""
        try:
            return str(path.resolve().relative_to(self.root))
        except (ValueError, OSError, RuntimeError):
            return str(path)

    def spec_folders(self) -> list[Path]:
        """Every spec folder of the workspace (a folder holding *.yaml), sorted by game name."""
        found: dict[str, Path] = {}
        for d in self.spec_dirs:
            if not d.is_dir():
                where = f"{self.config}: workspace.specs" if self.config else "the workspace"
                raise WorkspaceError(f"{where}: {self.shown(d)} is not a folder (create it, or list another)")
            folders = [d] if _holds_spec(d) else sorted(p for p in d.iterdir() if _holds_spec(p))
            for f in folders:
                if f.is_symlink() and not f.resolve().is_relative_to(self.root):
                    # a shared workspace must not have `check` read (and quote) another folder's files
                    raise WorkspaceError(
                        f"{self.shown(f)} is a symbolic link that leads out of the workspace ({self.root}); "
                        "a workspace's spec folders are inside it (copy the spec in, or pass its folder to check)"
                    )
                if f.name in found and found[f.name] != f:
                    raise WorkspaceError(
                        f"two spec folders are named {f.name!r}: {self.shown(found[f.name])} and "
                        f"{self.shown(f)}; a game's name is its folder's"
                    )
                found[f.name] = f
        return [found[name] for name in sorted(found)]

    def spec_folder(self, game: str) -> Path | None:
        """The spec folder of the game `game` (the folder of that name), or None."""
        return next((f for f in self.spec_folders() if f.name == game), None)


def _holds_spec(path: Path) -> bool:
    """Whether `path` is a folder holding a *.yaml file. A symbolic link named *.yaml counts, but
    is not followed (so its target is never even looked at): `check` reports it (compiler/source.py)."""
    try:
        if not path.is_dir():
            return False
        with os.scandir(path) as entries:
            return any(
                e.name.endswith(".yaml") and (e.is_symlink() or e.is_file(follow_symlinks=False))
                for e in entries
            )
    except OSError:
        return False


def find_workspace(start: Path, note: Callable[[str], None] | None = None) -> Workspace | None:
    """The workspace `start` is in: the nearest folder at or above it holding a rulewright.toml
    that this user may trust (see untrusted_config), else `start` itself if it holds specs/; None
    when there is neither. A rulewright.toml passed over is told to `note`."""
    here = start.resolve()
    for folder in (here, *here.parents):
        if (folder / CONFIG_FILE).is_file():
            why = untrusted_config(folder / CONFIG_FILE)
            if why is None:
                return open_workspace(folder)
            if note is not None:
                note(f"ignoring {folder / CONFIG_FILE}: {why} (pass --workspace {folder} to use it)")
    if (here / "specs").is_dir():
        return open_workspace(here)
    return None


def untrusted_config(config: Path) -> str | None:
    """Why a rulewright.toml found above the current folder is not used unless named with
    --workspace (as git's safe.directory): it belongs to another user, or anyone may put files in
    its folder (a shared temporary folder). None when it is this user's."""
    if not hasattr(os, "getuid"):
        return None
    try:
        st, folder = config.stat(), config.parent.stat()
    except OSError as exc:
        return f"cannot read it ({exc.strerror or exc})"
    if st.st_uid != os.getuid():
        return f"it belongs to another user (uid {st.st_uid})"
    if folder.st_mode & 0o002:
        return f"{config.parent} can be written by every user"
    return None


def open_workspace(root: Path) -> Workspace:
    """The workspace rooted at `root` (`--workspace DIR`): its rulewright.toml when it has one,
    the defaults when not."""
    if not root.is_dir():
        raise WorkspaceError(f"{root}: not a folder")
    root = root.resolve()
    config = root / CONFIG_FILE
    if not config.is_file():
        return _checked(root, DEFAULT_SPECS, DEFAULT_OUTPUT, None)
    specs, output = read_config(config)
    return _checked(root, specs, output, config)


def read_config(path: Path) -> tuple[list[str], str]:
    """The `specs` and `output` of a rulewright.toml; WorkspaceError naming the file and the key."""
    try:
        with path.open("rb") as f:
            data = f.read(MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        raise WorkspaceError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    if len(data) > MAX_CONFIG_BYTES:
        raise WorkspaceError(f"{path}: larger than {MAX_CONFIG_BYTES:,} bytes")
    try:
        table = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise WorkspaceError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise WorkspaceError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:  # tomllib reads nested arrays and tables recursively
        raise WorkspaceError(f"{path}: nested too deeply to be a rulewright.toml") from None
    for key in table:
        if key != "workspace":
            raise WorkspaceError(
                f"{path}: unknown key {key!r} (a rulewright.toml has one table, [workspace])"
            )
    ws = table.get("workspace", {})
    if not isinstance(ws, dict):
        raise WorkspaceError(f"{path}: workspace: must be a table ([workspace]), not {_kind(ws)}")
    for key in ws:
        if key not in ("specs", "output"):
            raise WorkspaceError(f"{path}: unknown key 'workspace.{key}' (keys: specs, output)")
    specs = ws.get("specs", list(DEFAULT_SPECS))
    if not isinstance(specs, list) or not all(isinstance(s, str) and s.strip() for s in specs):
        raise WorkspaceError(f"{path}: workspace.specs: must be a list of folder names, not {_kind(specs)}")
    if not specs:
        raise WorkspaceError(f"{path}: workspace.specs: names no folder")
    output = ws.get("output", DEFAULT_OUTPUT)
    if not isinstance(output, str) or not output.strip():
        raise WorkspaceError(f"{path}: workspace.output: must be a folder name, not {_kind(output)}")
    return specs, output


def _kind(value: Any) -> str:
    if isinstance(value, str):
        return "an empty text" if not value.strip() else f"the text {value!r}"
    if isinstance(value, list):
        text = repr(value)
        return f"the list {text if len(text) <= 60 else text[:57] + '...'}"
    return {bool: "a boolean", int: "a number", float: "a number", dict: "a table"}.get(
        type(value), type(value).__name__
    )


def _checked(root: Path, specs: Sequence[str], output: str, config: Path | None) -> Workspace:
    """The workspace, once its paths are known to stay inside the root and out of any installed
    Python."""
    where = f"{config}: " if config is not None else f"{root}: "
    dirs = [_inside(root, s, f"{where}workspace.specs") for s in specs]
    out = _inside(root, output, f"{where}workspace.output")
    if out == root:
        raise WorkspaceError(f"{where}workspace.output: must be a folder inside the workspace, not its root")
    for d in dirs:
        if out.is_relative_to(d) or d.is_relative_to(out):
            raise WorkspaceError(
                f"{where}workspace.output: {output!r} overlaps the spec folder {d.relative_to(root)}"
            )
    installed = installed_python(out)
    if installed is not None:
        raise WorkspaceError(
            f"{where}workspace.output: {out} is inside {installed}; engines are never written into an "
            "installed Python"
        )
    return Workspace(root, tuple(dirs), out, config)


def _inside(root: Path, text: str, key: str) -> Path:
    path = (root / text).resolve()
    if not path.is_relative_to(root):
        raise WorkspaceError(f"{key}: {text!r} leaves the workspace ({root})")
    return path


def installed_python(path: Path) -> str | None:
    """What installed Python `path` lies in (a site-packages, a dist-packages, the interpreter's
    prefix), or None."""
    for part in path.parts:
        if part in ("site-packages", "dist-packages"):
            return f"a {part} folder"
    for prefix in {sys.prefix, sys.base_prefix, sys.exec_prefix}:
        p = Path(prefix).resolve()
        if p != Path(p.anchor) and path.is_relative_to(p):
            return f"the Python installation {p}"
    return None


def init_workspace(folder: Path) -> list[Path]:
    """Make `folder` a workspace: a rulewright.toml and an empty specs/ (the files made, in order).
    Refuses a folder that already has a rulewright.toml."""
    config = folder / CONFIG_FILE
    if config.exists():
        raise WorkspaceError(f"{config} already exists; this folder is a workspace")
    made = []
    if not folder.exists():
        folder.mkdir(parents=True)
        made.append(folder)
    config.write_text(CONFIG_TEXT, encoding="utf-8")
    made.append(config)
    specs = folder / DEFAULT_SPECS[0]
    if not specs.exists():
        specs.mkdir()
        made.append(specs)
    return made
