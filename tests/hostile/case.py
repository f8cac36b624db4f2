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
