"""What a native build (`rulewright build --native`, which compiles the runtime's engine and every
game's engine with mypyc) needs from the source: `mypyc_attr`, which marks a class that engines
subclass, and `i64`, mypyc's 64-bit integer (runtime/rng.py). Interpreted, the one is a decorator
that changes nothing and the other is int, so the runtime needs no mypy."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

T = TypeVar("T")

if TYPE_CHECKING:
    from mypy_extensions import i64 as i64
    from mypy_extensions import mypyc_attr as mypyc_attr
else:
    try:
        from mypy_extensions import i64, mypyc_attr
    except ImportError:  # pragma: no cover - only a native build reads the mark and the type
        i64 = int

        def mypyc_attr(*_names: str, **_flags: object) -> Callable[[T], T]:
            return lambda cls: cls
