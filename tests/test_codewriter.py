"""compiler/codewriter.py: indentation owned by the writer, blocks that always parse."""

from __future__ import annotations

import ast
import doctest

import pytest

import compiler.codewriter
from compiler.codewriter import CodeWriter


def test_lines_at_the_current_indentation() -> None:
    w = CodeWriter()
    w.line("x = 1")
    with w.indent():
        w.line("y = 2")
        with w.indent():
            w.line("z = 3")
        w.line("back = 1")
    w.line("top = 0")
    assert w.lines() == ["x = 1", "    y = 2", "        z = 3", "    back = 1", "top = 0"]
    assert w.text() == "x = 1\n    y = 2\n        z = 3\n    back = 1\ntop = 0\n"


def test_an_empty_line_has_no_trailing_spaces() -> None:
    w = CodeWriter()
    with w.indent():
        w.line("a = 1")
        w.line()
        w.line("")
        w.line("b = 2")
    assert w.lines() == ["    a = 1", "", "", "    b = 2"]


def test_block_writes_the_header_and_indents_its_body() -> None:
    w = CodeWriter()
    with w.block("def f(x: int) -> int:"):
        with w.block("if x > 0:"):
            w.line("return x")
        w.line("return -x")
    assert w.text() == "def f(x: int) -> int:\n    if x > 0:\n        return x\n    return -x\n"
    ast.parse(w.text())


@pytest.mark.parametrize("inside", [[], [""], ["", ""]], ids=["nothing", "one empty line", "two"])
def test_a_block_with_no_code_gets_pass(inside: list[str]) -> None:
    w = CodeWriter()
    with w.block("class Empty:"):
        for text in inside:
            w.line(text)
    assert w.lines()[-1] == "    pass"
    ast.parse(w.text())


def test_a_block_with_code_gets_no_pass() -> None:
    w = CodeWriter()
    with w.block("while True:"):
        w.line("break")
    assert "pass" not in w.text()


def test_the_level_comes_back_after_an_exception() -> None:
    w = CodeWriter()
    with pytest.raises(RuntimeError), w.block("def f() -> None:"):
        w.line("x = 1")
        raise RuntimeError("a lowering bug")
    assert w.level == 0
    w.line("after = 1")
    assert w.lines() == ["def f() -> None:", "    x = 1", "after = 1"]  # no `pass` added


def test_a_writer_can_start_deeper() -> None:
    w = CodeWriter(level=2)
    w.line("x = 1")
    assert w.lines() == ["        x = 1"]
    with pytest.raises(ValueError, match="negative"):
        CodeWriter(level=-1)


@pytest.mark.parametrize("text", ["a = 1\nb = 2", "a = 1\r", "\n"])
def test_a_line_may_not_hold_a_line_break(text: str) -> None:
    with pytest.raises(ValueError, match="line break"):
        CodeWriter().line(text)


def test_lines_returns_a_copy() -> None:
    w = CodeWriter()
    w.line("a = 1")
    w.lines().append("b = 2")
    assert w.lines() == ["a = 1"]
    assert CodeWriter().text() == ""


def test_the_docstring_example_runs() -> None:
    failed, tried = doctest.testmod(compiler.codewriter)
    assert tried > 0 and failed == 0
