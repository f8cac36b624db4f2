"""The files and folders a command writes, checked before any work (so that a typo in `--log` never
costs a game), and written with a failure said in one line."""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

from rulewright.commands.exits import UsageError
from rulewright.gamelog import os_reason
from runtime.text import quoted


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
        raise UsageError(f"{option} {quoted(text)}: {exc}") from None
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
        raise UsageError(f"{option} {quoted(text)}: {exc}") from None
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
        fd, spare = tempfile.mkstemp(prefix=f"rulewright-{file_safe(game_name)}-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        raise UsageError(
            f"cannot write the log to {path} ({why}), nor to a temporary file ({os_reason(exc)})"
        ) from None
    raise UsageError(f"cannot write the log to {path} ({why}); it was written to {spare} instead")


def file_safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:60] or "game"
