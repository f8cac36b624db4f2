"""compiler/bounds.py: code whose text is too short to nest too deep is not walked, soundly."""

from __future__ import annotations

import pytest

from compiler import bounds, ir, parse
from compiler.diagnostics import Sink
from compiler.limits import MAX_EXPRESSION_DEPTH
from compiler.sourcemap import SourceMap


def _code(text: str) -> ir.Code:
    code = parse.parse_expression(SourceMap("t.yaml", text, ((1, 1),)), Sink())
    assert code is not None
    return code


@pytest.mark.parametrize(
    "text",
    [
        "-" * (MAX_EXPRESSION_DEPTH - 1) + "1",  # as deep as a text this short can nest
        '"{' + "-" * (MAX_EXPRESSION_DEPTH - 5) + '1}"',  # through an interpolation
        "(" * 30 + "x" + ")" * 30,  # brackets alone add no node
        "- " * (MAX_EXPRESSION_DEPTH - 1) + "1",  # longer, but as few words and signs
        "1or " * (MAX_EXPRESSION_DEPTH - 1) + "1",  # a word of a number and a keyword: two tokens
    ],
)
def test_a_short_text_is_not_walked_and_could_not_nest_too_deep(text: str) -> None:
    code = _code(text)
    assert bounds._too_short_to_nest(code)
    sink = Sink()
    bounds._nesting(code, sink)
    assert sink.items == []


@pytest.mark.parametrize("text", ["-" * MAX_EXPRESSION_DEPTH + "1", "- " * MAX_EXPRESSION_DEPTH + "1"])
def test_one_character_more_is_walked_and_reported(text: str) -> None:
    code = _code(text)
    assert not bounds._too_short_to_nest(code)
    sink = Sink()
    bounds._nesting(code, sink)
    assert [d.code for d in sink.items] == ["too-deep"]
