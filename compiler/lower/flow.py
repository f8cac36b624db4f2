"""The flow: the setup, then the phases in order, each repeated as declared -> the `Flow` frame.

The hooks scenarios use (skipping a pass, starting at a phase) are written only at the phases a
scenario of the spec names, so a game without scenarios pays nothing for them.
"""

from __future__ import annotations

from compiler import ir
from compiler.escape import comment_text
from compiler.layout import py_literal
from compiler.lower.caching import forget
from compiler.lower.context import Context
from compiler.lower.expressions import always_true, expr, negation
from compiler.lower.frames import Blocks
from compiler.lower.scenarios import scenario_skips
from compiler.lower.statements import loop_place
from compiler.lower.units import origin
from compiler.viewmodel import FrameClass


def lower_flow(cx: Context) -> FrameClass:
    g = cx.sym.game
    cx.begin_function("self.")
    b = Blocks()
    if g.setup is not None and cx.stops.body(g.setup.body, cx.ann):
        after = b.new()
        b.resume_at(after)
        b.line("s.stack.append(Setup())")
        b.ret()
        b.at(after)
    elif g.setup is not None:
        b.line("setup(s)")
    b.line("s.after_setup()")
    skippable = {name for sc in g.scenarios for name in scenario_skips(g, sc)}
    startable = {str(sc.start_at.data) for sc in g.scenarios if sc.start_at is not None}
    for ph in g.phases:
        _phase(cx, b, ph, skippable, startable)
    b.line("s.stack.pop()")
    b.ret()
    step = b.step()
    where = origin("the game's flow (phases)", g.span)
    return FrameClass("Flow", where, (), tuple(b.slots), step.blocks, step.body)


def _phase(cx: Context, b: Blocks, ph: ir.PhaseDecl, skippable: set[str], startable: set[str]) -> None:
    head = done = -1
    # a pass that pushes the phase's frame goes back to the engine, which counts it as a step of
    # the budget: only a loop whose passes run to their end without returning needs `s.tick`
    pushed = ph.body is not None and cx.stops.body(ph.body.body, cx.ann)
    if ph.repeat is not None and ph.repeat.expr is not None:
        left = b.temp("r_", "int", 0, "int")
        b.line(f"self.{left} = {expr(cx, ph.repeat.expr)}")
        if ph.counter:
            _count(cx, b, ph, "= 0")
        head, loop_body, done = b.new(), b.new(), b.new()
        b.jump(head)
        b.at(head)
        if not pushed:
            b.line(f"s.tick({py_literal(loop_place('repeat', ph.span, ph.name))})")
        b.jump_if(f"self.{left} <= 0", done)
        b.line(f"self.{left} -= 1")
        if ph.counter:
            _count(cx, b, ph, "+= 1")
        b.jump(loop_body)
        b.at(loop_body)
    elif ph.while_ is not None and ph.while_.expr is not None:
        head, loop_body, done = b.new(), b.new(), b.new()
        if ph.counter:
            _count(cx, b, ph, "= 0")
        b.jump(head)
        b.at(head)
        if not pushed:
            b.line(f"s.tick({py_literal(loop_place('while', ph.span, ph.name))})")
        if not always_true(ph.while_.expr):
            b.jump_if(negation(cx, ph.while_.expr), done)
        if ph.counter:
            _count(cx, b, ph, "+= 1")
        b.jump(loop_body)
        b.at(loop_body)
    b.line(f"# phase {ph.name} ({comment_text(ph.span.file)}:{ph.span.line})")
    if head >= 0 and f"*{ph.name}" in skippable:  # a scenario starts after this loop: no pass runs
        b.jump_if(f"s.skips and s.skip_pass({py_literal('*' + ph.name)})", done)
    end_pass = b.new() if ph.name in skippable else -1
    if end_pass >= 0:  # a scenario skips a pass of this phase
        b.jump_if(f"s.skips and s.skip_pass({py_literal(ph.name)})", end_pass)
    if ph.name in startable:  # a scenario's setup runs here
        with b.w.block("if s.start_at:"):
            b.line(f"s.starting({py_literal(ph.name)})")
    for mark in cx.cover("phase", f"phase {ph.name}", ph.span):  # each pass
        b.line(mark)
    if ph.body is not None:
        if pushed:
            after = b.new()
            b.resume_at(after)
            b.line(f"s.stack.append({cx.names.claim('phase_frame', ph.name)}())")
            b.ret()
            b.at(after)
        else:
            b.line(f"{cx.names.claim('phase_body', ph.name)}(s)")
    for step in ph.steps:
        _phase(cx, b, step, skippable, startable)
    if end_pass >= 0:
        b.jump(end_pass)
        b.at(end_pass)
    if ph.name in cx.reads.expire_at:  # (no lasting effect ends at a phase no `add` names)
        b.line(f"s.expire({cx.names.claim('phase', ph.name)})")
    for mod in cx.reads.expiring.get(ph.name, ()):
        for line in forget(cx, ("mod", mod)):
            b.line(line)
    if head >= 0:
        b.jump(head)
        b.at(done)


def _count(cx: Context, b: Blocks, ph: ir.PhaseDecl, update: str) -> None:
    """`= 0` or `+= 1` to a phase's pass counter; cached functions that read it forget their values."""
    b.line(f"s.v_{ph.counter} {update}")
    for line in forget(cx, ("var", ph.counter or "")):
        b.line(line)
