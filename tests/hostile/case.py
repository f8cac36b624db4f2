"""One built case of the hostile-input corpus (see README.md)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Case:
    """A spec folder written by `build`, and a text `rulewright check` must print for it."""

    name: str
    build: Callable[[Path], None]
    expect: str
    isolate: bool = False  # run `check` in a process of its own (a C library might crash)
    # a text the output must not hold: a secret the case plants where only a followed link
    # could reach it (in a file outside the folder, or in `env`, which /proc/self/environ shows)
    absent: str = ""
    env: tuple[tuple[str, str], ...] = ()  # more environment variables for `check` (isolate=True)
