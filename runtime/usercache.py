"""This user's cache folder -> folders in it that only this user can write to, and files written in
them whole or not at all.

The cache is `$XDG_CACHE_HOME/rulewright` (or `~/.cache/rulewright`). What it holds is trusted:
the records of which engines this user built (runtime/trust.py), their compiled bytecode, native
builds (rulewright/native.py). So a folder of it is used only while it is a real folder (not a
link) owned by this user that no other user may write to; a folder made here is made with mode
0o700. A folder another user can write to is refused with what to do, never used.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

CACHE_ENV = "XDG_CACHE_HOME"
CACHE_NAME = "rulewright"


class UntrustedCacheError(OSError):
    """A cache folder that is not this user's alone: a link, another user's, or writable by others."""


def cache_root() -> Path:
    """$XDG_CACHE_HOME/rulewright, or ~/.cache/rulewright (not checked: see private_folder)."""
    base = os.environ.get(CACHE_ENV) or ""
    if not os.path.isabs(base):  # the XDG rule: a relative value is ignored
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / CACHE_NAME


def private_folder(*parts: str, create: bool = True) -> Path:
    """The folder `cache_root()/parts...`, each level of it (from `rulewright` down) checked to be
    this user's alone, and made with mode 0o700 where missing (with `create`). A level that no other
    user can write to but others may read is closed to 0o700. FileNotFoundError when missing and
    not `create`; UntrustedCacheError for a level that is not this user's alone."""
    folder = cache_root()
    if create:
        folder.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    for level in ("", *parts):
        folder = folder / level if level else folder
        if create:
            try:
                folder.mkdir(mode=0o700)
            except FileExistsError:
                pass
        check_private(folder)
    return folder


def check_private(folder: Path) -> None:
    """UntrustedCacheError unless `folder` is a real folder of this user that no one else may write
    to (closing it to 0o700 when others may only read it)."""
    st = os.lstat(folder)
    if not stat.S_ISDIR(st.st_mode):
        raise UntrustedCacheError(f"{folder} is not a folder (a link or a file stands there); remove it")
    if not hasattr(os, "getuid"):
        return  # no owners to check on this system
    if st.st_uid != os.getuid():
        raise UntrustedCacheError(f"{folder} belongs to another user (uid {st.st_uid}); remove it")
    if st.st_mode & 0o022:
        raise UntrustedCacheError(
            f"{folder} can be written by other users (mode {stat.S_IMODE(st.st_mode):o}); "
            "remove it, since what it holds cannot be trusted"
        )
    if st.st_mode & 0o077:
        os.chmod(folder, 0o700, follow_symlinks=False)


def read_private_file(path: Path, max_bytes: int) -> bytes | None:
    """The bytes of a regular file of this user at `path` (never through a link), or None when it
    is missing, is not such a file or is larger than `max_bytes`."""
    return read_regular_file(path, max_bytes, mine=True)


def read_regular_file(path: Path, max_bytes: int, *, mine: bool = False) -> bytes | None:
    """The bytes of a regular file at `path`, opened without following a link and without
    blocking (a FIFO, a device, a link is None), or None when it is missing, is not such a file,
    is larger than `max_bytes` or (with `mine`) belongs to another user."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > max_bytes:
            return None
        if mine and hasattr(os, "getuid") and st.st_uid != os.getuid():
            return None
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(max_bytes + 1)
        return data if len(data) <= max_bytes else None
    except OSError:
        return None
    finally:
        os.close(fd)


def write_file_atomically(path: Path, data: bytes, mode: int = 0o600) -> None:
    """Write `data` to `path` under a temporary name in the same folder, then rename it over `path`:
    a reader sees the old file or the new one, never half of one, and a link standing at `path` is
    replaced, never written through. OSError when it cannot be written (nothing is left behind)."""
    tmp = path.with_name(f".{path.name}.{os.urandom(6).hex()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), mode)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
