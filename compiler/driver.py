"""The pipeline: a spec folder -> diagnostics and, when clean, the generated files.

`compile_spec` runs load -> (parse) -> hoist -> bounds -> resolve -> check -> secrecy -> suspension -> reads
-> lower -> render; every diagnostic comes from the passes before lowering. It writes nothing: writing a
workspace's engines is `rulewright build`'s job (rulewright/build.py).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from compiler import ir
from compiler.bounds import bounds, state_size
from compiler.check import Annotations, check
from compiler.diagnostics import Diagnostic, Sink
from compiler.hoist import hoist
from compiler.load import load_game
from compiler.reads import analyse as find_reads
from compiler.resolve import Symbols, resolve
from compiler.secrecy import find_board_leaks, find_leaks
from compiler.suspension import analyse as find_stops


@dataclass
class Result:
    """The outcome of compiling one spec."""

    folder: Path
    name: str
    diagnostics: list[Diagnostic]
    files: dict[str, str] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    game: ir.Game | None = None  # the IR, when the spec loaded
    # the global names and what check learned of the code, when checking got that far (an
    # editor's name index reads them: compiler/index.py)
    symbols: Symbols | None = None
    annotations: Annotations | None = None

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


def compile_spec(
    folder: Path,
    *,
    render: bool = True,
    scenarios: list[Path] | None = None,
    overlay: Mapping[Path, str] | None = None,
    names: bool = False,
) -> Result:
    """Compile one spec folder (with `scenarios`: those case files instead of its scenarios/;
    with `overlay`: these texts in place of the files they name, as an editor's unsaved buffers;
    with `names`: the Result keeps the symbols and annotations, for compiler/index.py)."""
    with _collector_paused():
        result = _compile(folder, render, scenarios, overlay)
    if not names:  # (what they hold is freed at once, as it was before they were kept)
        result.symbols = result.annotations = None
    return result


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector paused: compiling builds a tree of some 100,000 objects, which
    the collector would walk again and again as it grows (a sixth of the time of a check), and
    makes no cycles to collect. What was made meanwhile then joins the oldest generation (as if it
    had lived through the younger collections: freeze and unfreeze move it there without a walk),
    so that the collector does not walk it all at once as soon as it runs again."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        if was_enabled:
            gc.enable()


def _compile(
    folder: Path, render: bool, scenarios: list[Path] | None, overlay: Mapping[Path, str] | None
) -> Result:
    sink = Sink()
    t0 = time.perf_counter()
    game = load_game(folder, sink, scenarios, overlay)
    t1 = time.perf_counter()
    if game is None:
        return Result(folder, folder.name, sink.sorted(), seconds={"check": t1 - t0})
    # Load reports what it finds and repairs the rest (a file that does not parse is left out, a
    # bad entry gets neutral values), so resolve and check go on and report their errors too.
    loaded = len(sink.items)
    # decisions and valued calls lifted out of statements (before bounds, which measures the
    # nesting an `elif` that asks adds)
    game, why = hoist(game)
    bounds(game, sink)  # before any pass that walks trees recursively
    if len(sink.items) > loaded:
        return Result(
            folder, game.name, sink.sorted(), seconds={"check": time.perf_counter() - t0}, game=game
        )
    sym: Symbols | None = None
    ann: Annotations | None = None
    try:
        sym = resolve(game, sink)
        state_size(sym, sink)
        ann = check(sym, sink, why)
        if not sym.clashed:  # (a name declared twice: what its uses read and show is unclear)
            find_leaks(sym, ann, sink)
            find_board_leaks(sym, ann, sink)
        crashed = False
    except Exception:
        if not any(d.severity == "error" for d in sink.items[:loaded]):
            raise
        # they are written for any IR, but a repaired one is the least tried: should they still
        # trip on it, the errors load found are reported alone rather than a traceback
        del sink.items[loaded:]
        crashed = True
    if sink.unread:
        sink.drop_undeclared()
    if crashed or sink.has_errors or sym is None or ann is None:
        return Result(
            folder,
            game.name,
            sink.sorted(),
            seconds={"check": time.perf_counter() - t0},
            game=game,
            symbols=None if crashed else sym,
            annotations=None if crashed else ann,
        )
    stops = find_stops(sym, ann, sink)
    reads = find_reads(sym, ann, sink)
    t2 = time.perf_counter()
    if sink.has_errors or not render:
        return Result(
            folder,
            game.name,
            sink.sorted(),
            seconds={"check": t2 - t0},
            game=game,
            symbols=sym,
            annotations=ann,
        )
    # imported here: checking alone needs neither lowering nor the templates (nor Jinja2)
    from compiler.lower import lower
    from compiler.render import render as render_files

    files = render_files(lower(sym, ann, stops, reads))
    t3 = time.perf_counter()
    return Result(folder, game.name, sink.sorted(), files, {"check": t2 - t0, "build": t3 - t0}, game)


def spec_folders(root: Path) -> list[Path]:
    specs = root / "specs"
    if not specs.is_dir():
        return []
    return sorted(p for p in specs.iterdir() if p.is_dir() and any(p.glob("*.yaml")))
