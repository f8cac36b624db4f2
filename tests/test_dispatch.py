"""compiler/lower/dispatch.py on typed blocks (compiler/lower/blockcode.py): the passes move jumps as
objects, and only the printed `step` body is text."""

from __future__ import annotations

import ast
from collections.abc import Iterator

import pytest

from compiler.lower.blockcode import Block, BlockWriter, Comment, Jump, Line, Marker, Resume, Return, Suite
from compiler.lower.dispatch import step_method


def _block(write: str) -> Block:
    """A block from a tiny script: `j N` jumps, `r N` resumes, `ret` returns, `if X` opens a
    suite up to `end`, anything else is a line."""
    w = BlockWriter()
    _write(w, iter(write.split(";")))
    return w.statements()


def _write(w: BlockWriter, words: Iterator[str]) -> None:
    for word in (x.strip() for x in words):
        if word == "end":
            return
        if word.startswith("if "):
            with w.block(word + ":"):
                _write(w, words)
        elif word.startswith(("j ", "r ")):
            (w.jump if word[0] == "j" else w.resume_at)(int(word[2:]))
        elif word == "ret":
            w.leave("return")
        else:
            w.line(word)


def test_the_writer_types_what_moves_control() -> None:
    w = BlockWriter()
    w.line("# cov 3")
    w.line("# a comment")
    with w.block("if x:"):
        w.jump(2)
    with w.block("if y:"):
        w.line("# cov 4")
    w.resume_at(1)
    w.leave("return")
    assert w.statements() == (
        Marker("# cov 3"),
        Comment("# a comment"),
        Suite("if x:", (Jump(2),)),
        Suite("if y:", (Marker("# cov 4"), Line("pass"))),
        Resume(1),
        Return(),
    )


@pytest.mark.parametrize("text", ["return", "continue"])
def test_the_writer_refuses_a_return_written_as_text(text: str) -> None:
    with pytest.raises(ValueError, match="leave"):
        BlockWriter().line(text)


def test_a_jump_through_a_jump_only_block_and_single_use_blocks() -> None:
    blocks = [
        _block("a(); r 3; push(); ret"),
        _block("j 3"),  # nothing but a jump: a jump to it goes to 3
        _block("b(); j 3"),  # reached by one jump: written in its place
        _block("if c; j 2; end; if d; j 1; end; e(); j 3"),
    ]
    step = step_method(blocks)
    assert step.blocks == 2
    assert step.body == (
        "pc = self.pc",
        "while True:",
        "    if pc == 0:",
        "        a()",
        "        self.pc = 1",
        "        push()",
        "        return",
        "    else:  # pc == 1",
        "        if c:",
        "            b()",
        "            pc = 1",
        "            continue",
        "        if d:",
        "            pc = 1",
        "            continue",
        "        e()",
        "        pc = 1",
        "        continue",
    )


def test_dead_code_goes_unless_it_holds_a_marker() -> None:
    step = step_method([_block("if a; ret; x(); end; if b; ret; # cov 7; y(); end; z(); ret")])
    assert step.body == ("if a:", "    return", "if b:", "    return", "    # cov 7", "    y()", "z()")


def test_a_short_end_is_copied_and_many_blocks_are_searched() -> None:
    blocks = [_block(f"r {k + 1}; ask({k}); ret") for k in range(9)] + [_block("if a; j 10; end; j 10")]
    blocks.append(_block("s.stack.pop(); ret"))
    step = step_method(blocks)
    assert step.blocks == 10  # (the end, copied in place of both jumps, is no block of its own)
    assert [x.strip() for x in step.body].count("s.stack.pop()") == 2
    assert [x.strip() for x in step.body if x.lstrip().startswith(("if pc", "elif pc"))][:2] == [
        "if pc < 5:",
        "if pc < 2:",
    ]
    ast.parse("def step(self, s):\n" + "".join(f"    {x}\n" for x in step.body))
