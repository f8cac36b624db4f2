"""Reading a spec's files: only regular files, never more than a bound, always UTF-8 text.

A name ending in .yaml may be a folder, a FIFO (opening it for reading blocks until someone
writes), a device (/dev/zero never ends), a symlink loop, a file too big to read, or bytes that
are not text. Each is refused with a reason instead of hanging or raising.
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

# the characters YAML refuses in a stream (PyYAML's Reader.NON_PRINTABLE)
NOT_PRINTABLE = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


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
        why = "it does not exist (a broken symbolic link?)"
    elif isinstance(exc, PermissionError):
        why = "permission denied"
    else:
        why = exc.strerror or str(exc)
    return SourceError(codes.UNREADABLE_FILE, messages.cannot_read(why))


def _too_big(size: int, limit: int) -> SourceError:
    return SourceError(codes.LIMIT_EXCEEDED, messages.file_too_big(size, limit))


def read_bytes(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (symlinks followed), else SourceError."""
    try:
        st = os.stat(path)
    except OSError as exc:
        raise _unreadable(exc) from None
    if not stat.S_ISREG(st.st_mode):
        raise SourceError(codes.UNREADABLE_FILE, messages.not_a_file(_kind(st.st_mode)))
    if st.st_size > limit:
        raise _too_big(st.st_size, limit)
    try:
        # O_NONBLOCK: should the path have become a FIFO since the stat, opening it must not block
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise _unreadable(exc) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise SourceError(codes.UNREADABLE_FILE, messages.not_a_file(_kind(st.st_mode)))
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


def read_text(path: Path, limit: int) -> str:
    """A file's text (see read_bytes and decode)."""
    return decode(read_bytes(path, limit))
