"""Which engines this user built: an output folder -> the sha256 of every file `rulewright build`
wrote into it, kept in this user's cache, never in the folder.

A workspace's output folder is Python, and workspaces are shared (an unpacked archive, a shared
temporary folder, a checkout), so runtime/loading.py imports from it only the bytes this user's
own `build` wrote there, as git's `safe.directory` and direnv's `allow` trust only what their user
allowed. `build` records each file it writes (record_build); loading reads the record of a folder
(read_record) and checks every file against it before a line of it runs. A folder with no record,
or a file that differs from its record, is refused: `rulewright build` compiles the specs again,
never the folder's Python.

A record is `<cache>/trust/<key>.json`, the key made from the folder's real path:
`{"format": ..., "folder": "/real/path", "files": {"game/engine.py": "<sha256>", ...}}`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from runtime.usercache import private_folder, read_private_file, write_file_atomically

FORMAT = "rulewright-trust-1"
TRUST_FOLDER = "trust"
MAX_RECORD_BYTES = 16 * 1024 * 1024  # a record names a few files per game: 100 bytes each


@dataclass(frozen=True)
class Record:
    """The files this user's `build` wrote into one output folder, by path inside it (with '/')."""

    folder: Path
    files: Mapping[str, str]  # relative path -> sha256 hex digest

    def matches(self, name: str, data: bytes) -> bool:
        """Whether `data` is what build wrote as the file `name`."""
        return self.files.get(name) == digest(data)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def record_file(folder: Path) -> Path:
    """Where the record of the output folder `folder` lives (its cache folder checked)."""
    key = hashlib.sha256(str(folder.resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return private_folder(TRUST_FOLDER) / f"{key}.json"


def read_record(folder: Path) -> Record | None:
    """The record of what this user's build wrote into `folder`, or None when there is none (never
    built here, or the cache is not this user's alone)."""
    folder = folder.resolve()
    try:
        data = read_private_file(record_file(folder), MAX_RECORD_BYTES)
    except OSError:
        return None
    if data is None:
        return None
    try:
        table = json.loads(data)
    except ValueError:
        return None
    if not isinstance(table, dict) or table.get("format") != FORMAT or table.get("folder") != str(folder):
        return None
    files = table.get("files")
    if not isinstance(files, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in files.items()
    ):
        return None
    return Record(folder, files)


def record_build(
    folder: Path, written: Mapping[str, bytes], removed: set[str] | frozenset[str] = frozenset()
) -> None:
    """Add to the record of `folder` the files `build` just wrote there (or found already holding
    the bytes it would write), and drop the files it deleted. OSError when the cache cannot be
    written; UntrustedCacheError (an OSError) when it is not this user's alone."""
    folder = folder.resolve()
    old = read_record(folder)
    files = dict(old.files) if old is not None else {}
    for name in removed:
        files.pop(name, None)
    files.update({name: digest(data) for name, data in written.items()})
    text = json.dumps({"format": FORMAT, "folder": str(folder), "files": files}, indent=1, sort_keys=True)
    write_file_atomically(record_file(folder), text.encode("utf-8") + b"\n")
