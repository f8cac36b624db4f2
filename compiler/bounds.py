"""Bounds: a loaded ir.Game -> diagnostics for rules that could never end or that would break
the interpreter: endless recursion, nesting deeper than generated Python may go, and calls of
functions nested deeper than the compiler follows them; and, once the names are resolved, a state
too big to hold (`state_size`).

`bounds` runs before resolve, so nothing later walks a tree too deep for it. What runs for too long
at run time is the engine's step budget (docs/limits.md); this pass rejects only what it can see.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from compiler import errorcodes as codes
from compiler import ir, messages
from compiler.diagnostics import Sink
from compiler.limits import (
    MAX_BLOCK_DEPTH,
    MAX_CALL_DEPTH,
    MAX_EXPRESSION_DEPTH,
    MAX_LOOP_DEPTH,
    MAX_STATE_ENTRIES,
    MAX_STATE_TABLE,
)
from compiler.typesys import PLAYER, Type

if TYPE_CHECKING:
    from compiler.resolve import Symbols

_LOOPS = (ir.For, ir.Repeat, ir.While)


def bounds(game: ir.Game, sink: Sink) -> None:
    """Report endless recursion and too-deep nesting in every code unit of `game`, and calls of
    functions nested too deep."""
    for code in _codes(game):
        if not _too_short_to_nest(code):
            _nesting(code, sink)
    _recursion(game, sink)
    _call_depth(game, sink)


def _codes(game: ir.Game) -> Iterator[ir.Code]:
    """Every DSL body of the game: declarations, component fields, phases, scenarios."""
    stack: list[object] = [game]
    while stack:
        node = stack.pop()
        if isinstance(node, ir.Code):
            yield node
        elif type(node) is not ir.Value:  # (a value from YAML holds plain data: most nodes here)
            stack.extend(reversed(ir.children(node)))


# ---- nesting ----------------------------------------------------------------------------------


def _too_short_to_nest(code: ir.Code) -> bool:
    """Whether the text of `code` is too short to nest beyond any bound (most texts are): an
    expression inside another spans fewer of the text's words and signs (an operator, a bracket or
    a name more: a span starts and ends with a whole token), and a block or loop holds a `{`. (Code
    not parsed from its text has none.)"""
    text = code.text
    if not text or text.count("{") > min(MAX_BLOCK_DEPTH, MAX_LOOP_DEPTH):
        return False
    if len(text) <= MAX_EXPRESSION_DEPTH:
        return True
    return len(text) <= _WORD_LEN * MAX_EXPRESSION_DEPTH and len(_WORDS.findall(text)) <= MAX_EXPRESSION_DEPTH


# a word (a name, a keyword, a number) or another character that is not a space, and how long a
# text may be for counting them to be worth it
_WORDS = re.compile(r"\w+|[^\w\s]")
_WORD_LEN = 8


def _nesting(code: ir.Code, sink: Sink) -> None:
    """Depth of blocks, loops and expressions, walked without recursion (a tree may be deep)."""
    roots: list[object] = list(code.body) + ([code.expr] if code.expr is not None else [])
    # (node, block depth, loop depth, expression depth)
    stack: list[tuple[object, int, int, int]] = [(n, 0, 0, 0) for n in reversed(roots)]
    reported: set[str] = set()
    pop, push, children = stack.pop, stack.append, ir.children
    while stack:
        node, blocks, loops, exprs = pop()
        try:
            levels = _LEVELS[type(node)]
        except KeyError:
            levels = _levels(type(node))
        if levels is None:
            continue
        blocks += levels[0]
        loops += levels[1]
        exprs = exprs + 1 if levels[2] else 0
        if blocks > MAX_BLOCK_DEPTH or loops > MAX_LOOP_DEPTH or exprs > MAX_EXPRESSION_DEPTH:
            _too_deep(node, code, blocks, loops, exprs, reported, sink)
            if len(reported) == 3:
                return
        for child in reversed(children(node)):
            push((child, blocks, loops, exprs))


# Each kind of nesting: its name, its bound, its message and the message's note.
_NESTINGS = (
    ("block", MAX_BLOCK_DEPTH, messages.blocks_too_deep, messages.BLOCKS_TOO_DEEP_NOTE),
    ("loop", MAX_LOOP_DEPTH, messages.loops_too_deep, messages.LOOPS_TOO_DEEP_NOTE),
    ("expression", MAX_EXPRESSION_DEPTH, messages.expression_too_deep, messages.EXPRESSION_TOO_DEEP_NOTE),
)


def _too_deep(
    node: object, code: ir.Code, blocks: int, loops: int, exprs: int, reported: set[str], sink: Sink
) -> None:
    """Report the first kind of nesting, not reported yet, that goes too deep at this node."""
    for (kind, limit, message, note), depth in zip(_NESTINGS, (blocks, loops, exprs), strict=True):
        if depth > limit and kind not in reported:
            reported.add(kind)
            span: ir.Span = getattr(node, "span", code.span)
            sink.error(codes.TOO_DEEP, span, message(depth, limit), note)
            return


def _levels(kind: type) -> tuple[int, int, bool] | None:
    """What a node of this class adds: a block level, a loop level, whether it is an expression
    (None: a Code, which is walked on its own)."""
    if kind not in _LEVELS:
        if issubclass(kind, ir.Code):
            _LEVELS[kind] = None
        else:
            is_loop = issubclass(kind, _LOOPS)
            is_block = is_loop or issubclass(kind, ir.If)
            is_expr = not issubclass(kind, ir.Stmt) and not issubclass(kind, ir.Param)
            _LEVELS[kind] = (int(is_block), int(is_loop), is_expr)
    return _LEVELS[kind]


_LEVELS: dict[type, tuple[int, int, bool] | None] = {}


# ---- recursion --------------------------------------------------------------------------------

Unit = tuple[str, str]  # ("function" | "procedure" | "event", name)


def _recursion(game: ir.Game, sink: Sink) -> None:
    """A function, procedure or trigger that calls itself again on every path never ends."""
    functions = {f.name for f in game.functions}
    procedures = {p.name for p in game.procedures}
    edges: dict[Unit, list[tuple[Unit, ir.Span]]] = {}
    for f in game.functions:
        roots: list[object] = [f.body.expr] if f.body.expr is not None else []
        edges[("function", f.name)] = list(_always_calls(roots, functions, procedures))
    for p in game.procedures:
        edges[("procedure", p.name)] = list(_always_calls(list(p.body.body), functions, procedures))
    for t in game.triggers:
        if t.condition is None:  # a trigger with a condition may stop the chain
            calls = _always_calls(list(t.body.body), functions, procedures)
            edges.setdefault(("event", t.event), []).extend(calls)
    done: set[Unit] = set()
    for start in sorted(edges):
        if start in done:
            continue
        cycle = _cycle_from(start, edges)
        done.add(start)
        if cycle is None:
            continue
        done.update(u for u, _ in cycle)
        kind, name = cycle[0][0]
        chain = " -> ".join(u[1] for u, _ in cycle) + f" -> {name}"
        if kind == "event":
            message = messages.trigger_loop(name, chain)
        else:
            message = messages.calls_itself(kind, name, chain)
        sink.error(
            codes.ENDLESS_RECURSION,
            cycle[-1][1],
            message,
            messages.ENDLESS_RECURSION_NOTE,
        )


def _cycle_from(
    start: Unit, edges: dict[Unit, list[tuple[Unit, ir.Span]]]
) -> list[tuple[Unit, ir.Span]] | None:
    """A path start -> ... -> start of unconditional calls: [(unit, span of its call onward)]."""
    # depth-first, iterative; each unit is expanded once
    seen: set[Unit] = {start}
    stack: list[tuple[Unit, list[tuple[Unit, ir.Span]]]] = [(start, [])]
    while stack:
        unit, path = stack.pop()
        for callee, span in edges.get(unit, []):
            step = [*path, (unit, span)]
            if callee == start:
                return step
            if callee not in seen:
                seen.add(callee)
                stack.append((callee, step))
    return None


def _always_calls(
    roots: list[object], functions: set[str], procedures: set[str]
) -> Iterator[tuple[Unit, ir.Span]]:
    """The calls that run on every path through `roots` (statements in order, or one expression)."""
    stack: list[object] = list(reversed(roots))
    while stack:
        node = stack.pop()
        match node:
            case ir.Call() if node.func in functions:
                yield ("function", node.func), node.span
            case ir.CallStmt() if node.proc in procedures:
                yield ("procedure", node.proc), node.span
            case ir.Call() if node.func in procedures:  # a procedure's value (`let x = p()`)
                yield ("procedure", node.func), node.span
            case ir.Emit():
                yield ("event", node.event), node.span
        if isinstance(node, (ir.Return, ir.EndGame)):
            stack.clear()  # what follows in this sequence never runs
            continue
        parts = _parts_always_run(node)
        stack.extend(reversed(parts if parts is not None else ir.children(node)))


def _parts_always_run(node: object) -> list[object] | None:
    """The parts of `node` that run whenever it does, when some others may not (None: all run)."""
    match node:
        case ir.If():
            return [node.branches[0][0]]  # only the first condition always runs
        case ir.For() | ir.ListComp() | ir.Quantifier() | ir.Aggregate():
            return [node.source]
        case ir.While() | ir.CondExpr():
            return [node.cond]
        case ir.Repeat():
            return [node.count]
        case ir.BoolOp():
            return [node.left]
    return None


# ---- calls nested through functions ------------------------------------------------------------

# (callee, levels: 1 for the call and 1 for each node around it in its body, the call's span); a
# callee is a function's name, or an expression field's name after a dot (`.strength`)
_Site = tuple[str, int, ir.Span]


def _call_depth(game: ir.Game, sink: Sink) -> None:
    """Passes that follow a call into what it calls recurse through the body of the function or
    expression field called (compiler/secrecy.py), so a long chain of them, each calling the next,
    would overflow Python's stack: report, once, the deepest chain nested more than MAX_CALL_DEPTH
    levels. (A field `x.f(...)` is taken to be any component's expression field `f`.)"""
    bodies: dict[str, list[ir.Code]] = {f.name: [f.body] for f in game.functions}
    spans = {f.name: f.span for f in game.functions}
    for t in game.types:
        for fd in t.fields:
            if fd.kind == "expr":
                key = "." + fd.name
                spans.setdefault(key, fd.span)
                bodies.setdefault(key, []).extend(
                    c for ent in t.entities for n, c in ent.code if n == fd.name
                )
    if not bodies:
        return
    sites = {key: [s for body in code for s in _call_sites(body, bodies)] for key, code in bodies.items()}
    depth = _depths(sites)
    top = max(bodies, key=lambda key: depth[key])
    if depth[top] <= MAX_CALL_DEPTH:
        return
    # down the deepest path from the top, to the call past the limit
    chain, levels, at, seen = [top], 1, spans[top], {top}
    while levels <= MAX_CALL_DEPTH:
        onward = [s for s in sites[chain[-1]] if s[0] not in seen]
        if not onward:
            break
        callee, step, at = max(onward, key=lambda s: s[1] + depth[s[0]])
        chain.append(callee)
        seen.add(callee)
        levels += step
    shown = chain if len(chain) <= 6 else [*chain[:3], "...", *chain[-2:]]
    what = "expression field" if top.startswith(".") else "function"
    sink.error(
        codes.LIMIT_EXCEEDED,
        at,
        messages.calls_too_deep(what, top.lstrip("."), depth[top], " -> ".join(shown), MAX_CALL_DEPTH),
        messages.CALLS_TOO_DEEP_NOTE,
        messages.protects_the_tool("MAX_CALL_DEPTH"),
    )


def _call_sites(body: ir.Code, callees: dict[str, list[ir.Code]]) -> list[_Site]:
    """The calls in `body` of functions and expression fields, each with the levels it adds (it,
    and the nodes around it)."""
    out: list[_Site] = []
    roots: list[object] = list(body.body) + ([body.expr] if body.expr is not None else [])
    stack: list[tuple[object, int]] = [(n, 1) for n in reversed(roots)]
    pop, push, children = stack.pop, stack.append, ir.children
    while stack:
        node, level = pop()
        if isinstance(node, ir.Call) and node.func in callees:
            out.append((node.func, level, node.span))
        elif isinstance(node, ir.MethodCall) and "." + node.name in callees:
            out.append(("." + node.name, level, node.span))
        for child in reversed(children(node)):
            push((child, level + 1))
    return out


def _depths(sites: dict[str, list[_Site]]) -> dict[str, int]:
    """How many levels each function's body nests through the functions it calls (1: it calls
    none; a function that calls one that calls none, from the top of its body, 2). In a cycle of calls a pass stops where it began, so a path through a cycle's functions
    takes each of them at most once: a cycle counts the deepest call of each of its functions."""
    depth: dict[str, int] = {}
    for group in _cycles_callees_first(sites):
        members = set(group)
        within = sum(max((lv for c, lv, _ in sites[n] if c in members), default=0) for n in group)
        onward = max((lv + depth[c] for n in group for c, lv, _ in sites[n] if c not in members), default=0)
        for name in group:
            depth[name] = max(1, within + onward)
    return depth


def _cycles_callees_first(sites: dict[str, list[_Site]]) -> list[list[str]]:
    """The strongly connected groups of the call graph, each after those it calls (Tarjan's
    algorithm, without recursion: a chain of calls may be long)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []
    for root in sites:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter([c for c, _, _ in sites[root]]))]
        while work:
            name, callees = work[-1]
            callee = next(callees, None)
            if callee is not None:
                if callee not in index:
                    index[callee] = low[callee] = len(index)
                    stack.append(callee)
                    on_stack.add(callee)
                    work.append((callee, iter([c for c, _, _ in sites[callee]])))
                elif callee in on_stack:
                    low[name] = min(low[name], index[callee])
                continue
            work.pop()
            if work:
                caller = work[-1][0]
                low[caller] = min(low[caller], low[name])
            if low[name] == index[name]:
                group: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == name:
                        break
                groups.append(group)
    return groups


# ---- the size of a state ----------------------------------------------------------------------


def state_size(sym: Symbols, sink: Sink) -> None:
    """Report a state variable with more entries than MAX_STATE_TABLE, and else a state with more
    than MAX_STATE_ENTRIES in all: the engine allocates them in every state and copies them at
    every step (lower/facts.py lays them out; runtime/engine.py's Zones holds the components)."""
    players = max(1, min(sym.max_players, len(sym.players)))
    tables: list[tuple[int, ir.StateVar]] = []
    too_big = False
    for sv, _, per in sym.state.values():
        sizes = [_index_size(sym, pt, players) for pt in per]
        entries = math.prod(size for size, _ in sizes)
        tables.append((entries, sv))
        if entries > MAX_STATE_TABLE:
            too_big = True
            sink.error(
                codes.LIMIT_EXCEEDED,
                sv.span,
                messages.state_table_too_big(sv.name, entries, [n for n, _ in sizes], MAX_STATE_TABLE),
                messages.state_table_indices(
                    [(str(pt), what) for pt, (_, what) in zip(per, sizes, strict=True)]
                ),
                messages.protects_the_tool("MAX_STATE_TABLE"),
            )
    if too_big:
        return  # the total is over too, and says nothing more
    components = sum(len(info.ids) for info in sym.entity_types.values())
    grids = any(z.kind == "grid" for z, _ in sym.zones.values())
    piles = sum(sym.zone_instances(name) for name in sym.zones)
    in_zones = components * (3 if grids else 2) + piles
    in_tables = sum(entries for entries, _ in tables)
    if in_tables + in_zones <= MAX_STATE_ENTRIES:
        return
    biggest = sorted((t for t in tables if t[0] > 1), key=lambda t: -t[0])[:3]
    # at the biggest part: the biggest state variable, or the type that has the most components
    at = sym.game.span
    if tables and max(entries for entries, _ in tables) * 2 >= in_zones:
        at = max(tables, key=lambda t: t[0])[1].span
    elif sym.entity_types:
        at = max(sym.entity_types.values(), key=lambda i: len(i.ids)).decl.span
    sink.error(
        codes.LIMIT_EXCEEDED,
        at,
        messages.state_too_big(
            in_tables + in_zones, in_tables, in_zones, components, piles, MAX_STATE_ENTRIES
        ),
        *([messages.biggest_tables([(sv.name, n) for n, sv in biggest])] if biggest else []),
        messages.STATE_COPIED_NOTE,
        messages.protects_the_tool("MAX_STATE_ENTRIES"),
    )


def _index_size(sym: Symbols, t: Type, players: int) -> tuple[int, str]:
    """The entries one index of a state variable takes, and what they are (an index of an unknown
    type, reported already, takes one)."""
    if t == PLAYER:
        return players, f"{players:,} players"
    if t.kind == "entity" and t.name in sym.entity_types:
        count = len(sym.entity_types[t.name].ids)
        return count + 1, f"{count:,} components and none"
    if t.kind == "enum" and t.name in sym.enums:
        count = len(sym.enums[t.name])
        return count + 1, f"{count:,} values and none"
    return 1, "unknown"
