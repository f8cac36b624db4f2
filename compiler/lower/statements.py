"""Statements that run straight through: checked IR statements -> Python lines, via the code writer.

Used for code that never stops for a decision (plain functions), and inside a frame for each
statement that does not stop (there locals are the frame's slots, `self.l_<name>`).
"""

from __future__ import annotations

from typing import assert_never

from compiler import ir
from compiler.codewriter import Writer
from compiler.layout import py_literal
from compiler.lower.blockcode import BlockWriter
from compiler.lower.caching import forget
from compiler.lower.context import Context
from compiler.lower.expressions import (
    Unsupported,
    arg_tuple,
    copies_table,
    expr,
    iterable,
    lowered_type,
    negation,
    python_type,
    stored,
    string,
    sure,
    text,
    zone_id,
)
from compiler.lower.loops import hoisting, negated
from compiler.reads import held_type


def fresh_list(code: str) -> str:
    """A copy of a collection to iterate while the body may change it (no copy of a new list)."""
    if code.startswith(("list(", "[")) and code.endswith(("]", ")")):
        return code
    return f"list({code})"


def loop_source(code: str) -> str:
    """What a loop that never stops iterates: a range as it is (nothing can change it), else a
    fresh list."""
    return code if code.startswith("range(") and code.endswith(")") else fresh_list(code)


def loop_place(kind: str, span: ir.Span, phase: str = "") -> str:
    """Where a loop is, for the rule error of a loop that never ends."""
    what = f"the {kind} of phase '{phase}'" if phase else f"the {kind} loop"
    return f"{what} at {span.file}:{span.line}:{span.col}"


def body(cx: Context, stmts: tuple[ir.Stmt, ...], w: Writer, in_frame: bool) -> None:
    for s in stmts:
        statement(cx, s, w, in_frame)


def statement(cx: Context, s: ir.Stmt, w: Writer, in_frame: bool) -> None:
    """Write statement `s`, which does not stop (the suspension pass has made sure)."""
    match s:
        case ir.Let():
            _let(cx, s, w, in_frame)
        case ir.Assign():
            if isinstance(s.value, ir.Decision):
                raise Unsupported("a decision in code that cannot stop")
            indices = _bounded_indices(cx, s, w)  # (first, as Python would: before the value)
            before, value = hoisting(cx, s.value)
            for line in before:
                w.line(line)
            assign(cx, s, stored(cx, s.value, value), w, indices)
        case ir.If():
            _if(cx, s, w, in_frame)
        case ir.For():
            _for(cx, s, w, in_frame)
        case ir.Repeat() | ir.While():
            _loop(cx, s, w, in_frame)
        case ir.Move() | ir.Place() | ir.Shuffle() | ir.Deal():
            w.line(_zone_change(cx, s))
            for line in _forget_zones(cx, s):
                w.line(line)
        case ir.Reveal():
            w.line(f"s.say({', '.join(text(cx, ('Revealed: ', s.item)))})")
        case ir.Show():
            w.line(f"s.say({', '.join(text(cx, ('You see: ', s.item), viewer=s.player))})")
        case ir.Log():
            w.line(f"s.say({', '.join(text(cx, s.message.parts))})")
        case ir.EndGame():
            reason = string(cx, s.reason) if s.reason is not None else '""'
            if s.how == "winners" and s.winner is not None:
                cx.shared_wins = True
                w.line(f"s.end_game_shared({expr(cx, s.winner)}, {reason})")
            elif s.how == "returns":
                w.line(f"s.end_game_by_returns({reason})")
            else:
                winner = expr(cx, s.winner) if s.winner is not None else "-1"
                w.line(f"s.end_game({winner}, {reason})")
        case ir.Return() if s.value is not None:
            before, value = hoisting(cx, s.value)
            for line in before:
                w.line(line)
            if in_frame:  # the caller's frame reads it right after the pop (frames.py)
                w.line(f"s.ret_ = {stored(cx, s.value, value)}")
                w.line("s.stack.pop()")
                w.leave("return")
            else:
                w.line(f"return {stored(cx, s.value, value)}")
        case ir.Return():
            if in_frame:
                w.line("s.stack.pop()")
            w.leave("return")
        case ir.Break() | ir.Continue():
            _loop_jump(cx, s, w)
        case ir.CallStmt():
            args = "".join(f", {stored(cx, a)}" for a in s.args)
            w.line(f"{cx.names.claim('procedure', s.proc)}(s{args})")
        case ir.DoEffect():
            _do_effect(cx, s, w)
        case ir.AddModifier() | ir.Cancel():
            _modifier(cx, s, w)
        case ir.Emit():
            _emit(cx, s, w)
        case _:
            assert_never(s)


def _loop_jump(cx: Context, s: ir.Break | ir.Continue, w: Writer) -> None:
    """`break` or `continue`: Python's in a Python loop, a jump to a frame loop's block."""
    blocks = cx.loop_blocks[-1] if cx.loop_blocks else None
    if blocks is None:
        if isinstance(s, ir.Break):
            w.line("break")
        else:
            w.leave("continue")
        return
    assert isinstance(w, BlockWriter), "a frame's loop outside its blocks"
    w.jump(blocks[1] if isinstance(s, ir.Break) else blocks[0])


def _let(cx: Context, s: ir.Let, w: Writer, in_frame: bool) -> None:
    if isinstance(s.value, ir.Decision):
        raise Unsupported("a decision in code that cannot stop")
    annotation = "" if in_frame else f": {python_type(lowered_type(cx, s.value))}"
    before, value = hoisting(cx, s.value)
    for line in before:
        w.line(line)
    w.line(f"{cx.local(cx.ann.slots[id(s)])}{annotation} = {stored(cx, s.value, value)}")


def _for(cx: Context, s: ir.For, w: Writer, in_frame: bool) -> None:
    """A loop over a copy of its list; in a frame the variable is a slot, set from `x_`."""
    slot = cx.ann.slots[id(s)]
    local = cx.local(slot)
    source = loop_source(iterable(cx, s.source))
    sure = slot not in cx.sure_slots and sure_items(cx, s.source) and not _assigns(cx, s.body, slot)
    with w.block(f"for x_ in {source}:" if in_frame else f"for {local} in {source}:"):
        if in_frame:
            w.line(f"{local} = x_")
        if s.cond is not None:
            with w.block(f"if {negation(cx, s.cond)}:"):
                w.leave("continue")
        cx.loop_blocks.append(None)
        if sure:  # (its value indexes a write or a zone without `s.ref`'s test)
            cx.sure_slots.add(slot)
        try:
            body(cx, s.body, w, in_frame)
        finally:
            if sure:
                cx.sure_slots.discard(slot)
        cx.loop_blocks.pop()


def sure_items(cx: Context, e: ir.Expr) -> bool:
    """Whether every item of the list `e` surely is a component, a player or an enum value, never
    `none`: a zone's contents, every component of a type, the players, an enum's values, a filter
    of one of them."""
    match e:
        case ir.Quantifier(kind="filter"):
            return sure_items(cx, e.source)
        case ir.Name() | ir.Index():
            b = cx.ann.names.get(id(e.subject if isinstance(e, ir.Index) else e))
            return b is not None and (
                b.kind in ("all", "players", "values")
                or (b.kind == "zone" and cx.ann.type_of(e).kind == "zone")
            )
        case _:
            return False


def _assigns(cx: Context, stmts: tuple[ir.Stmt, ...], slot: str) -> bool:
    """Whether any of `stmts` (at any depth) assigns the local `slot`."""
    for node in (n for st in stmts for n in ir.walk(st)):
        if isinstance(node, ir.Assign):
            b = cx.ann.names.get(id(node))
            if b is None or (b.kind == "local" and b.target == slot):
                return True
    return False


def _loop(cx: Context, s: ir.Repeat | ir.While, w: Writer, in_frame: bool) -> None:
    """`repeat n` or `while`; each pass spends a step of the budget, naming the loop."""
    before: list[str] = []
    if isinstance(s, ir.Repeat):
        header, place = f"for _ in range({expr(cx, s.count)}):", loop_place("repeat", s.span)
    else:
        before, test = hoisting(cx, s.cond)
        header, place = ("while True:" if before else f"while {test}:"), loop_place("while", s.span)
    with w.block(header):
        if before:  # the test's loops run at every pass, before it
            for line in before:
                w.line(line)
            with w.block(f"if {negated(test)}:"):
                w.line("break")
        w.line(f"s.tick({py_literal(place)})")
        cx.loop_blocks.append(None)
        body(cx, s.body, w, in_frame)
        cx.loop_blocks.pop()


def _zone_change(cx: Context, s: ir.Move | ir.Place | ir.Shuffle | ir.Deal) -> str:
    match s:
        case ir.Move():
            t = cx.ann.type_of(s.item)
            top = "True" if s.position == "top" else "False"
            fn = "move_all" if t.kind in ("list", "zone") else "move"
            args = f"{cx.type_constant(t)}, {expr(cx, s.item)}, {zone_id(cx, s.dest, True)}, {top}"
            watch = cx.zone_watch(held_type(t), s.dest)
            if watch:  # a trigger may watch this move: the move calls it for each component
                return f"s.{fn}_watched({args}, {watch})"
            return f"s.{fn}({args})"
        case ir.Place():
            t = cx.ann.type_of(s.item)
            item, grid, cell = expr(cx, s.item), zone_id(cx, s.grid, True), expr(cx, s.cell)
            watch = cx.zone_watch(held_type(t), s.grid)
            if watch:
                return f"s.place_watched({cx.type_constant(t)}, {item}, {grid}, {cell}, {watch})"
            return f"s.place({cx.type_constant(t)}, {item}, {grid}, {cell})"
        case ir.Shuffle():
            kinds = copies_table(cx, cx.ann.type_of(s.zone))
            if kinds:  # a scenario's forced order names kinds: the engine takes the pile's copies
                return f"s.shuffle_kinds({zone_id(cx, s.zone, True)}, {kinds})"
            return f"s.shuffle({zone_id(cx, s.zone, True)})"
        case ir.Deal():
            t = cx.ann.type_of(s.source)
            count, source, dest = expr(cx, s.count), zone_id(cx, s.source, True), zone_id(cx, s.dest, True)
            watch = cx.zone_watch(held_type(t), s.dest, s.source)
            if watch:
                return f"s.deal_watched({cx.type_constant(t)}, {count}, {source}, {dest}, {watch})"
            return f"s.deal({cx.type_constant(t)}, {count}, {source}, {dest})"
        case _:
            assert_never(s)


def _forget_zones(cx: Context, s: ir.Move | ir.Place | ir.Shuffle | ir.Deal) -> list[str]:
    """After a zone change: the zones of the moved components' type changed (whichever zones
    they left), so cached functions reading those zones forget their values."""
    moved = s.zone if isinstance(s, ir.Shuffle) else s.source if isinstance(s, ir.Deal) else s.item
    held = held_type(cx.ann.type_of(moved))
    return forget(cx, ("zones", held)) if held is not None else []


def _do_effect(cx: Context, s: ir.DoEffect, w: Writer) -> None:
    """A component's effect of a field whose effects never stop: a plain function, or none."""
    t = cx.ann.type_of(s.subject)
    args = "".join(f", {stored(cx, a)}" for a in s.args)
    w.line(f"subject_ = {expr(cx, s.subject)}")
    w.line(f"effect = {cx.names.claim('effect_table', t.name, s.field)}[subject_]")
    with w.block("if effect is not None:"):
        w.line(f"effect(s, subject_{args})")


def _modifier(cx: Context, s: ir.AddModifier | ir.Cancel, w: Writer) -> None:
    verb = "add" if isinstance(s, ir.AddModifier) else "cancel one" if s.one else "cancel"
    for mark in cx.cover("modifier", f"{verb} {s.name}", s.span):
        w.line(mark)
    modifier, args = cx.names.claim("modifier", s.name), arg_tuple(cx, s.args)
    if isinstance(s, ir.AddModifier):
        # until a phase ends, or (no phase, or `until game`) for the rest of the game
        until = cx.names.claim("phase", s.until_phase) if s.until_phase in cx.sym.phases else "-1"
        w.line(f"s.add_mod({modifier}, {args}, {until})")
    elif s.one:
        w.line(f"s.cancel_one_mod({modifier}, {args})")
    else:
        w.line(f"s.cancel_mod({modifier}, {args})")
    for line in forget(cx, ("mod", s.name)):
        w.line(line)


def _emit(cx: Context, s: ir.Emit, w: Writer) -> None:
    """Every trigger on the event, in spec order, each if its condition holds; the arguments are
    evaluated once."""
    names = [f"arg{i}_" for i in range(len(s.args))]
    for n, a in zip(names, s.args, strict=True):
        w.line(f"{n} = {stored(cx, a)}")
    args = "".join(", " + n for n in names)
    for tr in cx.stops.triggers_of.get(s.event, ()):
        run = f"{cx.names.claim('trigger', tr.name)}(s{args})"
        if tr.condition is None:
            w.line(run)
            continue
        with w.block(f"if {cx.names.claim('trigger_condition', tr.name)}(s{args}):"):
            w.line(run)


def coverage_arms(cx: Context, s: ir.If) -> list[list[str]]:
    """The coverage markers of each arm of an `if`: then, each elif, else (implicit when absent)."""
    head = f"if at line {s.span.line}"
    out = [cx.cover("branch", f"{head}: then", s.span)]
    for i, (cond, _) in enumerate(s.branches[1:], 1):
        out.append(cx.cover("branch", f"{head}: elif {i}", cond.span))
    if s.orelse:
        out.append(cx.cover("branch", f"{head}: else", s.orelse[0].span))
    else:
        out.append(cx.cover("branch", f"{head}: else (implicit)", s.span))
    return out


def implicit_else(marks: list[str]) -> list[str]:
    """The markers of an `if`'s implicit else, which has no statement to stand above: written above
    the `if` itself, `# cov N (implicit else)`, they count each time its last test is false (rule coverage
    counts that test's runs less those of the first statement of its arm)."""
    return [f"{mark} (implicit else)" for mark in marks]


def _if(cx: Context, s: ir.If, w: Writer, in_frame: bool) -> None:
    arms = coverage_arms(cx, s)
    for i, (cond, branch) in enumerate(s.branches):
        if i == 0:  # (an `elif`'s test runs only when those before it fail: it has no lines before)
            before, test = hoisting(cx, cond)
            for line in before:
                w.line(line)
            for mark in [] if s.orelse else implicit_else(arms[-1]):
                w.line(mark)
        else:
            test = expr(cx, cond)
        with w.block(f"{'if' if i == 0 else 'elif'} {test}:"):
            for mark in arms[i]:
                w.line(mark)
            body(cx, branch, w, in_frame)
    if s.orelse:
        with w.block("else:"):
            for mark in arms[-1]:
                w.line(mark)
            body(cx, s.orelse, w, in_frame)


def assign_target(cx: Context, s: ir.Assign, indices: list[str] | None = None) -> str:
    b = cx.ann.names.get(id(s))
    if b is None:
        return "_"
    if b.kind == "local":
        return cx.local(b.target)
    return f"s.v_{s.target}" + "".join(
        f"[{i}]" for i in (indices if indices is not None else _indices(cx, s))
    )


def _indices(cx: Context, s: ir.Assign) -> list[str]:
    """Index expressions of a write; component, player and enum indices are checked (never `none`)."""
    out = []
    for i in s.indices:
        code = expr(cx, i)
        t = cx.ann.type_of(i)
        named = code.startswith(("E_", "P_")) or code.isdigit()  # a component, player or enum value
        out.append(f"s.ref({code})" if t.nullable and not named and not sure(cx, i) else code)
    return out


def assign(cx: Context, s: ir.Assign, value: str, w: Writer, indices: list[str] | None = None) -> None:
    """`target op value`; a bounded track clamps, with its indices evaluated once (or already, in
    `indices`: `_bounded_indices`). A state variable that cached functions read makes them forget
    their values."""
    _store(cx, s, value, w, indices)
    b = cx.ann.names.get(id(s))
    if b is not None and b.kind == "state":
        for line in forget(cx, ("var", s.target)):
            w.line(line)


def _bounded(cx: Context, s: ir.Assign) -> ir.StateVar | None:
    """The state variable `s` writes, if it is a bounded track (its writes clamp)."""
    b = cx.ann.names.get(id(s))
    sv = cx.sym.state[s.target][0] if b is not None and b.kind == "state" else None
    return None if sv is None or (sv.low is None and sv.high is None) else sv


def _bounded_indices(cx: Context, s: ir.Assign, w: Writer) -> list[str] | None:
    """The indices of a write of a bounded track, each evaluated once, into variables where it is
    more than a name (None for another write): the clamp reads and writes the same entry."""
    if _bounded(cx, s) is None:
        return None
    idx = _indices(cx, s)
    if any(not i.isidentifier() and not i.isdigit() for i in idx):
        names = [f"i{n}_" for n in range(len(idx))]
        for name, index in zip(names, idx, strict=True):  # (left to right, one a line)
            w.line(f"{name} = {index}")
        idx = names
    return idx


def _store(cx: Context, s: ir.Assign, value: str, w: Writer, indices: list[str] | None) -> None:
    sv = _bounded(cx, s)
    if sv is None:
        w.line(f"{assign_target(cx, s)} {s.op} {value}")
        return
    idx = indices if indices is not None else _bounded_indices(cx, s, w)
    assert idx is not None
    target = assign_target(cx, s, idx)
    new = value if s.op == "=" else f"{target} {s.op[0]} {value}"
    if sv.low is not None and sv.high is not None:
        w.line(f"{target} = min({sv.high}, max({sv.low}, {new}))")
    elif sv.low is not None:
        w.line(f"{target} = max({sv.low}, {new})")
    else:
        w.line(f"{target} = min({sv.high}, {new})")
