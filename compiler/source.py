"""Reading a spec's files: only regular files, never more than a bound, always UTF-8 text.

A name ending in .yaml may be a folder, a FIFO (opening it for reading blocks until someone
writes), a device (/dev/zero never ends), a symbolic link, a file too big to read, or bytes that
are not text. Each is refused with a reason instead of hanging or raising.

No symbolic link is followed: a link in a shared spec folder may point anywhere (at
/proc/self/environ, say), and a diagnostic would quote the target's text. `open_regular` is the one
place that opens a spec file: the file itself is opened with O_NOFOLLOW, and within a `Folder` (the
spec folder) every folder below that one too, each relative to the one above it, so no link on the
way is followed either, even one made after the folder was listed.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path

from compiler import errorcodes as codes
from compiler import messages
from compiler.errorcodes import ErrorCode

# the characters YAML refuses in a stream (PyYAML's Reader.NON_PRINTABLE: all but tab, line feed,
# carriage return, 0x20-0x7e, 0x85, 0xa0-0xd7ff, 0xe000-0xfffd and 0x10000 up), written as the
# ranges refused (the same set: compiling the negated class took 10 ms or more at every start)
NOT_PRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")


class SourceError(Exception):
    """Why a file cannot be read as spec text: the diagnostic code, the message, and where (1-based)."""

    def __init__(self, code: ErrorCode, message: str, line: int = 1, col: int = 1) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.line = line
        self.col = col


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (a named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _unreadable(exc: OSError) -> SourceError:
    if exc.errno == errno.ELOOP:
        why = "a loop of symbolic links"
    elif isinstance(exc, FileNotFoundError):
        why = "it does not exist"
    elif isinstance(exc, PermissionError):
        why = "permission denied"
    else:
        why = exc.strerror or str(exc)
    return SourceError(codes.UNREADABLE_FILE, messages.cannot_read(why))


def _too_big(size: int, limit: int) -> SourceError:
    return SourceError(codes.LIMIT_EXCEEDED, messages.file_too_big(size, limit))


def is_link(path: Path) -> bool:
    """Whether `path` itself is a symbolic link (never followed)."""
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except (OSError, ValueError):
        return False


def is_folder(path: Path) -> bool:
    """Whether `path` itself is a folder: a symbolic link to one is not."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except (OSError, ValueError):
        return False


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
# O_NONBLOCK: should a path have become a FIFO since it was checked, opening it must not block
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


class Folder:
    """A folder that files are read from through no symbolic link below it (the spec folder): each
    folder under it is opened once, relative to the one above and not through a link, and kept
    open for the files it holds until `close`. The folder itself, named by the user, may be a link."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fds: dict[tuple[str, ...], int] = {}

    def holds(self, path: Path) -> bool:
        return path.is_relative_to(self.path) and path != self.path

    def fd(self, parts: tuple[str, ...]) -> int:
        """A descriptor of the folder `parts` below this one (OSError ENOTDIR or ELOOP: one is a link)."""
        if parts not in self._fds:
            if not parts:
                self._fds[parts] = os.open(self.path, os.O_RDONLY | _DIRECTORY)
            else:
                above = self.fd(parts[:-1])
                flags = os.O_RDONLY | _DIRECTORY | _NOFOLLOW
                self._fds[parts] = os.open(parts[-1], flags, dir_fd=above)
        return self._fds[parts]

    def close(self) -> None:
        for fd in self._fds.values():
            os.close(fd)
        self._fds.clear()


def open_regular(path: Path, within: Folder | None = None) -> int:
    """A descriptor open for reading on the regular file `path`, else SourceError. No symbolic
    link is followed: not `path` itself, and when `within` holds it, no folder between the two."""
    try:
        st = os.lstat(path)
    except OSError as exc:
        raise _unreadable(exc) from None
    if stat.S_ISLNK(st.st_mode):
        raise SourceError(codes.UNREADABLE_FILE, messages.IS_A_LINK)
    if not stat.S_ISREG(st.st_mode):
        raise SourceError(codes.UNREADABLE_FILE, messages.not_a_file(_kind(st.st_mode)))
    flags = os.O_RDONLY | _NOFOLLOW | _NONBLOCK
    try:
        if within is not None and within.holds(path):
            parts = path.relative_to(within.path).parts
            fd = os.open(parts[-1], flags, dir_fd=within.fd(parts[:-1]))
        else:
            fd = os.open(path, flags)
    except OSError as exc:
        # it became a link since the lstat, or a folder on the way is one (O_DIRECTORY | O_NOFOLLOW
        # on a link to a folder: "not a folder")
        if exc.errno in (errno.ELOOP, errno.ENOTDIR) and any(map(is_link, (path, *path.parents))):
            raise SourceError(codes.UNREADABLE_FILE, messages.LINK_ON_THE_WAY) from None
        raise _unreadable(exc) from None
    try:
        st = os.fstat(fd)
    except OSError as exc:
        os.close(fd)
        raise _unreadable(exc) from None
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise SourceError(codes.UNREADABLE_FILE, messages.not_a_file(_kind(st.st_mode)))
    return fd


def read_bytes(path: Path, limit: int, within: Folder | None = None) -> bytes:
    """The bytes of the regular file `path` (see open_regular) of at most `limit` bytes, else
    SourceError."""
    fd = open_regular(path, within)
    try:
        size = os.fstat(fd).st_size
        if size > limit:
            raise _too_big(size, limit)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:  # it grew since the stat
            raise _too_big(size, limit)
        return b"".join(chunks)
    except OSError as exc:
        raise _unreadable(exc) from None
    finally:
        os.close(fd)


def decode(data: bytes) -> str:
    """UTF-8 text without the control characters YAML refuses, else SourceError at the first bad one."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _position(data[: exc.start].decode("utf-8", errors="replace"))
        raise SourceError(
            codes.NOT_TEXT,
            messages.not_utf8(data[exc.start]),
            line,
            col,
        ) from None
    bad = NOT_PRINTABLE.search(text)
    if bad is not None:
        line, col = _position(text[: bad.start()])
        char = bad.group()
        what = "a NUL byte" if char == "\0" else f"the control character U+{ord(char):04X}"
        raise SourceError(codes.NOT_TEXT, messages.control_character(what), line, col)
    return text


def _position(before: str) -> tuple[int, int]:
    """The 1-based line and column just after `before`."""
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


def read_text(path: Path, limit: int, within: Folder | None = None) -> str:
    """A file's text (see read_bytes and decode)."""
    return decode(read_bytes(path, limit, within))
