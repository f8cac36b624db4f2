"""Frames: code that may stop for a decision -> the numbered blocks of a Frame's `step` method.

A frame's locals are slots (`self.l_<name>`), so the state clones and saves at any decision. A
statement that stops ends its block: it sets `self.pc` to the block to resume at, then asks,
pushes a callee's frame, or jumps. Statements that do not stop are written straight
(statements.py) into the current block. A block is typed statements (blockcode.py): its jumps,
resumes and returns are objects, which dispatch.py rewrites before it prints the `step` method.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import assert_never

from compiler import ir
from compiler.layout import py_literal
from compiler.lower import statements
from compiler.lower.blockcode import BlockWriter
from compiler.lower.context import Context
from compiler.lower.dispatch import Step, step_method
from compiler.lower.expressions import (
    Unsupported,
    always_true,
    arg_list,
    copies_table,
    domain_of,
    expr,
    lowered_type,
    negation,
    python_type,
    stored,
    text,
    value_type,
)
from compiler.lower.loops import hoisting, negated
from compiler.lower.order import UNKNOWN, order
from compiler.lower.statements import assign, coverage_arms, fresh_list, loop_place
from compiler.typesys import PLAYER, Type
from compiler.viewmodel import Slot


def default_value(t: Type) -> object:
    """What a local of type `t` holds before it is set."""
    if t.kind == "bool":
        return False
    if t.kind == "str":
        return ""
    if t.kind == "list":
        return []
    if t.is_ref:
        return -1
    return 0


@dataclass
class Blocks:
    """The numbered blocks of one frame's step method, and the slots its control flow needs."""

    writers: list[BlockWriter] = field(default_factory=lambda: [BlockWriter()])
    current: int = 0
    temps: int = 0
    slots: list[Slot] = field(default_factory=list)

    @property
    def w(self) -> BlockWriter:
        return self.writers[self.current]

    def new(self) -> int:
        self.writers.append(BlockWriter())
        return len(self.writers) - 1

    def at(self, block: int) -> None:
        self.current = block

    def line(self, text: str) -> None:
        self.w.line(text)

    def jump(self, block: int) -> None:
        self.w.jump(block)

    def jump_if(self, cond: str, block: int) -> None:
        with self.w.block(f"if {cond}:"):
            self.jump(block)

    def resume_at(self, block: int) -> None:
        """What the frame does next time it steps: the block after a call or a decision."""
        self.w.resume_at(block)

    def ret(self) -> None:
        """The step ends here (the engine steps the frame on top of its stack next)."""
        self.w.leave("return")

    def temp(self, prefix: str, python: str, initial: object, saved_as: str) -> str:
        """A new slot for the frame's own bookkeeping (a loop's list and index, a decision's
        answer): its Python type, first value, and what a saved state may hold there."""
        self.temps += 1
        name = f"{prefix}{self.temps}"
        self.slots.append(Slot(name, python, saved_as, initial))
        return name

    def step(self) -> Step:
        """The frame's `step` method, its blocks optimised (dispatch.py)."""
        return step_method([w.statements() for w in self.writers])


def body(cx: Context, b: Blocks, stmts: tuple[ir.Stmt, ...]) -> None:
    for s in stmts:
        statement(cx, b, s)


def statement(cx: Context, b: Blocks, s: ir.Stmt) -> None:
    if not cx.stops.stmt(s, cx.ann):
        statements.statement(cx, s, b.w, in_frame=True)
        return
    match s:
        case ir.Let() | ir.Assign() if isinstance(s.value, ir.Call):
            _call_statement(cx, b, s, s.value)
        case ir.Let() | ir.Assign():
            _decision_statement(cx, b, s)
        case ir.If():
            _if(cx, b, s)
        case ir.For():
            _for(cx, b, s)
        case ir.Repeat() | ir.While():
            _loop(cx, b, s)
        case ir.CallStmt():
            after = b.new()
            args = ", ".join(stored(cx, a) for a in s.args)
            b.resume_at(after)
            b.line(f"s.stack.append({cx.names.claim('procedure_frame', s.proc)}({args}))")
            b.ret()
            b.at(after)
        case ir.DoEffect():
            _do_effect(cx, b, s)
        case ir.Emit():
            _emit(cx, b, s)
        case _:
            raise Unsupported(f"a {type(s).__name__} statement that stops")


def _call_statement(cx: Context, b: Blocks, s: ir.Let | ir.Assign, call: ir.Call) -> None:
    """`let x = name(args)` of a procedure that may stop: its frame leaves its value in `s.ret_`
    as it pops, and this frame takes it in the block it resumes at (nothing runs in between)."""
    after = b.new()
    args = ", ".join(stored(cx, a) for a in call.args)
    b.resume_at(after)
    b.line(f"s.stack.append({cx.names.claim('procedure_frame', call.func)}({args}))")
    b.ret()
    b.at(after)
    if isinstance(s, ir.Let):
        b.line(f"self.l_{cx.ann.slots[id(s)]} = s.ret_")
    else:
        assign(cx, s, "s.ret_", b.w)


def _decision_statement(cx: Context, b: Blocks, s: ir.Let | ir.Assign) -> None:
    d = s.value
    assert isinstance(d, ir.Decision)
    bound = cx.ann.names.get(id(s)) if isinstance(s, ir.Assign) else None
    if isinstance(s, ir.Let):
        slot = f"l_{cx.ann.slots[id(s)]}"
    elif bound is not None and bound.kind == "local" and s.op == "=":
        slot = f"l_{bound.target}"
    else:  # the answer is kept in a slot of its own, then assigned
        python = _answer_type(d)
        slot = b.temp("d_", python, {"bool": False, "int": -1}.get(python, []), _answer_value_type(cx, d))
    after = b.new()
    decision(cx, b, d, slot, after)
    b.at(after)
    if isinstance(s, ir.Assign) and slot.startswith("d_"):
        assign(cx, s, f"self.{slot}", b.w)


def _if(cx: Context, b: Blocks, s: ir.If) -> None:
    arms = coverage_arms(cx, s)
    join = b.new()
    targets = [b.new() for _ in s.branches]
    orelse = b.new() if s.orelse else join
    for (cond, _), target in zip(s.branches, targets, strict=True):
        before, test = hoisting(cx, cond)  # (run only when the tests before it failed)
        for line in before:
            b.line(line)
        b.jump_if(test, target)
    for mark in arms[-1]:  # the else arm (explicit or not) is the fall-through
        b.line(mark)
    b.jump(orelse)
    for (_, branch), target, marks in zip(s.branches, targets, arms[:-1], strict=True):
        b.at(target)
        for mark in marks:
            b.line(mark)
        body(cx, b, branch)
        b.jump(join)
    if s.orelse:
        b.at(orelse)
        body(cx, b, s.orelse)
        b.jump(join)
    b.at(join)


def _for(cx: Context, b: Blocks, s: ir.For) -> None:
    slot = cx.ann.slots[id(s)]
    elem = cx.ann.type_of(s.source).elem
    items = b.temp(
        "i_",
        f"list[{python_type(elem) if elem else 'int'}]",
        [],
        f"list[{value_type(elem) if elem else 'int'}]",
    )
    index = b.temp("k_", "int", 0, "int")
    b.line(f"self.{items} = {fresh_list(expr(cx, s.source))}")
    b.line(f"self.{index} = 0")
    head, loop_body, done = b.new(), b.new(), b.new()
    b.jump(head)
    b.at(head)
    b.jump_if(f"self.{index} >= len(self.{items})", done)
    b.line(f"self.l_{slot} = self.{items}[self.{index}]")
    b.line(f"self.{index} += 1")
    if s.cond is not None:
        b.jump_if(negation(cx, s.cond), head)
    b.jump(loop_body)
    b.at(loop_body)
    cx.loop_blocks.append((head, done))
    body(cx, b, s.body)
    cx.loop_blocks.pop()
    b.jump(head)
    b.at(done)


def _loop(cx: Context, b: Blocks, s: ir.Repeat | ir.While) -> None:
    head, loop_body, done = b.new(), b.new(), b.new()
    place = py_literal(loop_place("repeat" if isinstance(s, ir.Repeat) else "while", s.span))
    if isinstance(s, ir.Repeat):
        left = b.temp("r_", "int", 0, "int")
        b.line(f"self.{left} = {expr(cx, s.count)}")
        b.jump(head)
        b.at(head)
        b.line(f"s.tick({place})")
        b.jump_if(f"self.{left} <= 0", done)
        b.line(f"self.{left} -= 1")
    else:
        b.jump(head)
        b.at(head)
        b.line(f"s.tick({place})")
        before, test = hoisting(cx, s.cond)  # (run at every pass, before the test)
        for line in before:
            b.line(line)
        if before or not always_true(s.cond):
            b.jump_if(negated(test) if before else negation(cx, s.cond), done)
    b.jump(loop_body)
    b.at(loop_body)
    cx.loop_blocks.append((head, done))
    body(cx, b, s.body)
    cx.loop_blocks.pop()
    b.jump(head)
    b.at(done)


def _do_effect(cx: Context, b: Blocks, s: ir.DoEffect) -> None:
    """A component's effect: a plain one runs at once; one that stops returns its frame to push."""
    t = cx.ann.type_of(s.subject)
    after = b.new()
    args = "".join(f", {stored(cx, a)}" for a in s.args)
    b.line(f"subject_ = {expr(cx, s.subject)}")
    b.line(f"effect = {cx.names.claim('effect_table', t.name, s.field)}[subject_]")
    with b.w.block("if effect is not None:"):
        b.line(f"frame = effect(s, subject_{args})")
        with b.w.block("if frame is not None:"):
            b.resume_at(after)
            b.line("s.stack.append(frame)")
            b.ret()
    b.jump(after)
    b.at(after)


def _emit(cx: Context, b: Blocks, s: ir.Emit) -> None:
    slots = []
    for a in s.args:  # evaluated once, kept on the frame across the triggers' decisions
        t = lowered_type(cx, a)
        slot = b.temp("e_", python_type(t), default_value(t), value_type(t))
        b.line(f"self.{slot} = {stored(cx, a)}")
        slots.append(f"self.{slot}")
    args = ", ".join(slots)
    for tr in cx.stops.triggers_of.get(s.event, ()):
        condition = ""
        if tr.condition is not None:
            condition = f"{cx.names.claim('trigger_condition', tr.name)}(s{', ' + args if args else ''})"
        if not cx.stops.triggers[tr.name]:  # runs at once, and the block goes on
            run = f"{cx.names.claim('trigger', tr.name)}(s{', ' + args if args else ''})"
            if condition:
                with b.w.block(f"if {condition}:"):
                    b.line(run)
            else:
                b.line(run)
            continue
        after = b.new()
        if condition:
            with b.w.block(f"if {condition}:"):
                _push(cx, b, tr, args, after)
            b.jump(after)
        else:
            _push(cx, b, tr, args, after)
        b.at(after)


def _push(cx: Context, b: Blocks, tr: ir.TriggerDecl, args: str, after: int) -> None:
    """Start a trigger that may stop; the frame resumes at `after` when it is done."""
    b.resume_at(after)
    b.line(f"s.stack.append({cx.names.claim('trigger_frame', tr.name)}({args}))")
    b.ret()


def _answer_value_type(cx: Context, d: ir.Decision) -> str:
    """What a decision's answer slot holds in a saved state: an id of its domain (or a list)."""
    if d.each is not None:
        return value_type(cx.ann.type_of(d))
    if isinstance(d, ir.Ask):
        return "bool"
    if isinstance(d, ir.ChooseNumber):
        return "int"
    return value_type(cx.ann.type_of(d))


def _answer_type(d: ir.Decision) -> str:
    if d.each is not None:
        return "list[bool]" if isinstance(d, ir.Ask) else "list[int]"
    if isinstance(d, ir.Ask):
        return "bool"
    if isinstance(d, ir.Choose) and d.count is not None:
        return "list[int]"
    return "int"


def decision(cx: Context, b: Blocks, d: ir.Decision, slot: str, after: int) -> None:
    """Ask the player; the answer lands in `slot` and the frame resumes at block `after`."""
    player = expr(cx, d.player) if d.player is not None else "0"
    question = d.question if isinstance(d, ir.Ask) else d.prompt
    prompt = arg_list(text(cx, question.parts if question is not None else ()))
    place = py_literal(f"{d.span.file}:{d.span.line}")
    window = ""
    if not isinstance(d, ir.ChooseNumber) and d.window:  # a response window's question
        window = f", window={py_literal(d.window)}"
    b.resume_at(after)
    if d.each is not None:
        _each(cx, b, d, d.each, slot, prompt, f", at={place}{window}", after)
        return
    match d:
        case ir.Choose():
            elem = cx.ann.type_of(d.options).elem or PLAYER
            domain = domain_of(cx, elem)
            kinds = copies_table(cx, elem)
            ids = not kinds and _listed(d.options) and cx.domain_offsets[domain] > 0
            if ids:  # the comprehension lists action ids (expressions.option_id)
                cx.option_ids = (id(d.options), cx.domain_offsets[domain])
            try:
                before, options = hoisting(cx, d.options)
            finally:
                cx.option_ids = None
            if kinds:  # a type with copies: one action per kind (row), the engine takes a copy
                call, options, where = "decide_kinds", f"{options}, {kinds}", f", at={place}"
            else:  # the place, what is known of the order and whether the options are action ids
                known = order(cx, d.options)  # (by position: State.decide)
                call, where = "decide", f", {place}"
                if known != UNKNOWN or ids:
                    where += f", {known}"
                if ids:
                    where += ", True"
            extras = (", secret=True" if d.secret else "") + window
            if d.optional:
                for line in before:
                    b.line(line)
                asked = f"s.{call}({player}, {options}, {domain}, {py_literal(slot)}, {prompt}{where}, optional=True{extras})"
                with b.w.block(f"if {asked}:"):
                    b.ret()
                b.line(f"self.{slot} = -1")
                b.jump(after)
                return
            if d.count is not None:  # (how many first: no option is listed when none is to be chosen)
                b.line(f"need_ = {expr(cx, d.count)}")
                with b.w.block("if need_ <= 0:"):
                    b.line(f"self.{slot} = []")
                    b.jump(after)
                extras = ", need=need_" + extras
            for line in before:
                b.line(line)
            b.line(f"s.{call}({player}, {options}, {domain}, {py_literal(slot)}, {prompt}{where}{extras})")
        case ir.ChooseNumber():
            numbers = f"range({expr(cx, d.low)}, {expr(cx, d.high)} + 1)"
            b.line(
                f"s.decide({player}, {numbers}, {cx.domains['number']}, {py_literal(slot)}, {prompt}, {place})"
            )
        case ir.Ask():  # no and yes, as their action ids
            domain = cx.domains["bool"]
            no_yes = f"[{cx.domain_offsets[domain]}, {cx.domain_offsets[domain] + 1}]"
            b.line(
                f"s.decide({player}, {no_yes}, {domain}, {py_literal(slot)}, {prompt}, {place}, 2, True{window})"
            )
        case _:
            assert_never(d)
    b.ret()


def _listed(e: ir.Expr) -> bool:
    """A comprehension or a filter: its items can be written as action ids where it makes them."""
    return isinstance(e, ir.ListComp) or (isinstance(e, ir.Quantifier) and e.kind == "filter")


def _each(
    cx: Context, b: Blocks, d: ir.Decision, each: ir.Each, slot: str, prompt: str, at: str, after: int
) -> None:
    """`simultaneously ... by each p in xs`: every player's options and prompt, computed at once
    (p a comprehension variable); the engine asks each in turn and fills `slot` with the answers."""
    var = f"c_{cx.ann.slots[id(each)]}"
    match d:
        case ir.Choose():
            domain = domain_of(cx, cx.ann.type_of(d.options).elem or PLAYER)
            options = expr(cx, d.options)
        case ir.ChooseNumber():
            domain = cx.domains["number"]
            options = f"range({expr(cx, d.low)}, {expr(cx, d.high)} + 1)"
        case ir.Ask():
            domain = cx.domains["bool"]
            options = "(0, 1)"
        case _:
            assert_never(d)
    optional = ", True" if isinstance(d, ir.Choose) and d.optional else ""
    players = fresh_list(expr(cx, each.players))
    b.line(f"xs_ = {'list[int]()' if players == '[]' else players}")  # (typed, when it is all there is)
    each_options = f"[{options} for {var} in xs_]"
    each_prompt = f"[{prompt} for {var} in xs_]"
    asked = f"s.decide_each(xs_, {each_options}, {each_prompt}, {domain}, {py_literal(slot)}{optional}{at})"
    with b.w.block(f"if {asked}:"):
        b.ret()
    b.jump(after)
