"""Lower: checked IR + annotations + what may stop + what cached functions read -> the view-model
the templates render.

Code that may stop for a decision becomes a Frame class whose `step` method is a small state
machine of numbered blocks (locals live on the frame, so the state clones and saves at any
decision); the rest becomes plain functions. Lowering reports nothing: every diagnostic comes from
the passes before it, and what it cannot lower raises `Unsupported`.

    names.py        the scheme of generated names
    context.py      what the modules below share
    expressions.py  expressions -> Python expressions
    reuse.py        which pure calls an expression computes once (repeats, loop invariants)
    inline.py       small functions written out where a statement surely calls them
    loops.py        comprehensions a statement evaluates -> Python loops before it
    order.py        what is known of a decision's options (distinct, ascending)
    emptiness.py    `len(f(...)) > 0` -> a test that stops at the first item (`has_<f>`)
    statements.py   statements that run straight through -> lines
    blockcode.py    a frame's blocks as typed statements (jumps, resumes, returns, suites)
    frames.py       statements that may stop -> numbered blocks
    dispatch.py     a frame's blocks -> its step method (fewer blocks, found by binary search)
    units.py        functions, procedures, code fields, triggers, phase bodies, setup, checks
    recursion.py    depth guards for the functions that may call themselves
    flow.py         the phases -> the Flow frame
    facts.py        constants, data tables, action domains, state variables, GameInfo facts
    caching.py      cached functions' lookups, and what each write makes them forget
    scenarios.py    the rulebook examples -> their own module
    saved.py        the quick tests of a saved state's log, variables and frames' slots
    board.py        how the game is drawn (board.yaml) -> its own module
"""

from __future__ import annotations

import dataclasses

from compiler.check import Annotations
from compiler.layout import import_order
from compiler.lower import facts
from compiler.lower.board import lower_board
from compiler.lower.caching import cache_facts
from compiler.lower.context import Context
from compiler.lower.expressions import Unsupported
from compiler.lower.flow import lower_flow
from compiler.lower.recursion import NAMES_OUTSIDE_STRINGS, guard_recursion
from compiler.lower.saved import saved_checks
from compiler.lower.scenarios import lower_scenarios
from compiler.lower.units import has_functions, lower_units, results_facts, rule_checks
from compiler.reads import Reads
from compiler.resolve import Symbols
from compiler.suspension import Stops
from compiler.viewmodel import EngineModule, Function, Header, Module, ScenarioModule

__all__ = ["Unsupported", "lower"]


def lower(sym: Symbols, ann: Annotations, stops: Stops, reads: Reads) -> Module:
    """The view-model of a checked game (the engine module and the scenario module)."""
    cx = Context(sym, ann, stops, reads)
    g = sym.game
    header = Header(g.name, g.title, g.version, g.digest, tuple(g.files), g.step_budget)
    constants = facts.constants(cx)
    data = facts.data_tables(cx)
    info = facts.info(cx)
    state_vars = facts.state_vars(cx)
    units = lower_units(cx)
    flow = lower_flow(cx)
    invariants, evaluate = rule_checks(cx, units)
    results = results_facts(cx, units)
    has_functions(cx, units)
    guard_recursion(units)
    cached, readers = cache_facts(cx)
    scenario_units, scenarios = lower_scenarios(cx)
    # (the texts are all known by now: the scenarios' too)
    saved = saved_checks(cx, info, (*units.frames, flow))
    functions = tuple(scenario_units.functions)
    engine = EngineModule(
        header=header,
        constants=constants,
        data=data,
        state_vars=state_vars,
        functions=tuple(units.functions),
        frames=(*units.frames, flow),
        tables=tuple(units.tables),
        invariants=tuple(invariants),
        evaluate=evaluate,
        coverage=tuple(cx.coverage),
        info=info,
        texts=tuple(cx.texts.values()),  # the scenarios' too: a line their setup logs is the game's
        cached=cached,
        readers=readers,
        results=results,
        saved=saved,
    )
    # the scenarios module is stale when a scenario file changes; the engine is not (its digest is
    # of the rule files alone, so a saved state or a log outlives an edit of a rulebook example)
    scenario_files = len({sc.file for sc in g.scenarios})
    scenario_header = dataclasses.replace(
        header,
        digest=g.scenarios_digest,
        files=(*g.files, f"{scenario_files} scenario file{'s' if scenario_files != 1 else ''}"),
    )
    # the board module, like the scenarios, has its own digest: of the rules and board.yaml
    board = None
    board_header = header
    if g.board is not None:
        board_header = dataclasses.replace(header, digest=g.board.digest, files=(*g.files, g.board.span.file))
    lowered = lower_board(cx, board_header)
    if lowered is not None:
        board_units, board = lowered
        board = dataclasses.replace(board, imports=_used_names(engine, tuple(board_units.functions)))
    return Module(
        engine, ScenarioModule(scenario_header, _used_names(engine, functions), functions, scenarios), board
    )


def _used_names(engine: EngineModule, functions: tuple[Function, ...]) -> tuple[str, ...]:
    """The engine's module-level names the scenario functions use: what their module imports."""
    defined = {c.name for c in engine.constants}
    defined.update(d.name for d in engine.data)
    defined.update(f.name for f in engine.functions)
    defined.update(t.name for t in engine.tables)
    defined.update(t.name for t in engine.texts)
    defined.update(r.name for r in engine.readers)
    used: set[str] = set()
    for f in functions:
        used.update(m for m in NAMES_OUTSIDE_STRINGS.findall("\n".join(f.body)) if m in defined)
    return tuple(sorted(used | {"State"}, key=import_order))
