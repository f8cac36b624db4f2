"""A progress line for long runs: done of total, the rate, and the time left at that rate.

Drawn only on a terminal, on stderr, so what a command prints to a pipe, a file or a CI log is
the same with or without it. It redraws at most every REDRAW seconds, so a caller may report
after every game.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import TextIO

REDRAW = 0.1  # seconds
WIDTH = 30  # characters of the bar


def duration(seconds: float) -> str:
    """A time left, as a clock shows it: 0:07, 12:30, 2:05:00."""
    s = max(0, round(seconds))
    h, m = divmod(s // 60, 60)
    return f"{h}:{m:02d}:{s % 60:02d}" if h else f"{m}:{s % 60:02d}"


class Progress:
    """`update(done)` as the work goes; `clear()` before printing a result line; leaving the
    `with` block erases the line."""

    def __init__(self, total: int, unit: str, out: TextIO | None = None, shown: bool = True) -> None:
        """`shown=False` keeps the line off a terminal that something else uses (a human's prompts)."""
        self.total = max(1, total)
        self.unit = unit
        self.out = out if out is not None else sys.stderr
        self.shown = shown and _is_terminal(self.out)
        self.start = time.perf_counter()
        self.drawn = 0.0  # when the line was last drawn (0: it is not on the screen)

    def update(self, done: int, note: str = "") -> None:
        if not self.shown:
            return
        now = time.perf_counter()
        if now - self.drawn < REDRAW:
            return
        self.drawn = now
        self.out.write("\r" + self.line(done, now - self.start, note) + "\x1b[K")
        self.out.flush()

    def line(self, done: int, elapsed: float, note: str = "") -> str:
        """The progress line after `elapsed` seconds with `done` units done."""
        done = min(max(done, 0), self.total)
        filled = WIDTH * done // self.total
        rate = done / max(elapsed, 1e-9)
        left = duration((self.total - done) / rate) if done else "?"
        shown_rate = f"{rate:,.{0 if rate >= 10 else 2}f}"
        text = f"[{'#' * filled}{'.' * (WIDTH - filled)}] {done:,}/{self.total:,} {self.unit}"
        text += f"  {shown_rate}/s  ETA {left}"
        return text + (f"  {note}" if note else "")

    def clear(self) -> None:
        """Erase the line (the next update draws it again)."""
        if self.drawn:
            self.out.write("\r\x1b[K")
            self.out.flush()
            self.drawn = 0.0

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.clear()


def _is_terminal(out: TextIO) -> bool:
    try:
        return out.isatty()
    except (OSError, ValueError):  # a closed or detached stream
        return False
