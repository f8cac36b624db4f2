"""Resolve's results that later passes read: what a clean spec's Symbols hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.diagnostics import Sink
from compiler.load import load_game
from compiler.resolve import Symbols, resolve
from tests.conftest import ROOT

SPECS = sorted(p for p in (ROOT / "specs").iterdir() if p.is_dir())


def _symbols(folder: Path) -> Symbols:
    sink = Sink()
    game = load_game(folder, sink)
    assert game is not None
    sym = resolve(game, sink)
    assert not sink.has_errors
    return sym


@pytest.mark.parametrize("folder", SPECS, ids=lambda p: p.name)
def test_every_written_initial_value_is_converted_once(folder: Path) -> None:
    """The lowerer reads a state variable's initial value from Symbols, converted and checked."""
    sym = _symbols(folder)
    written = {name for name, (sv, _, _) in sym.state.items() if sv.initial is not None}
    assert set(sym.initial_values) == written
    for name in written:
        sv, t, _ = sym.state[name]
        assert sv.initial is not None
        value = sym.initial_values[name]
        if t.kind == "entity":  # a player or a component, as its index
            assert isinstance(value, int) and not isinstance(value, bool)
        elif t.kind == "list" and t.elem is not None and t.elem.kind in ("entity", "enum"):
            # each item as its index: the list's values in declaration order of their type
            assert isinstance(value, list) and all(type(v) is int for v in value)
            assert len(value) == len(sv.initial.data)
        elif t.kind == "enum":
            assert type(value) is int
        else:
            assert value == sv.initial.data
