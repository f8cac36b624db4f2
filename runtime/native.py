"""What a native build (`rulewright build --native`, which compiles the runtime's engine and every
game's engine with mypyc) needs from the source: `mypyc_attr`, which marks a class that engines
subclass. Interpreted, it is a decorator that changes nothing, so the runtime needs no mypy."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

T = TypeVar("T")

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:
    try:
        from mypy_extensions import mypyc_attr
    except ImportError:  # pragma: no cover - only a native build reads the mark

        def mypyc_attr(*_names: str, **_flags: object) -> Callable[[T], T]:
            return lambda cls: cls
