"""compiler/layout.py: generated Python laid out without a formatter, its AST untouched.

Unit cases (one per split kind, one per "never"), the quotes and `py_literal`, a Hypothesis
property over generated expressions, and the corpus: every bundled engine rendered raw and laid
out must keep its AST, be a fixed point, fit the width save for lines that cannot be broken,
compile, and pass `ruff check` with the project's settings for generated/.
"""

from __future__ import annotations

import ast
import functools
import math
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

import compiler.render
from compiler.driver import compile_spec
from compiler.layout import WIDTH, format_source, prefer_double_quotes, py_literal
from tests.conftest import ROOT, compiled


def laid_out(source: str, width: int = WIDTH) -> str:
    """format_source, checked for what must hold of every input: the same AST, and a fixed point."""
    out = format_source(source, width)
    assert ast.dump(ast.parse(out)) == ast.dump(ast.parse(source)), out
    assert format_source(out, width) == out, f"a second pass changed:\n{out}"
    return out


def block(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


# ---- one case per split kind -------------------------------------------------------------------

# (width, input, expected output)
SPLITS = {
    "right-hand split, body fits": (
        42,
        "def f(aaaaaaaaaaaa: int, bbbbbbbbbbbbb: str) -> None:\n    pass\n",
        """
        def f(
            aaaaaaaaaaaa: int, bbbbbbbbbbbbb: str
        ) -> None:
            pass
        """,
    ),
    "one argument a line, trailing comma": (
        40,
        "result = function(argument_one, argument_two, argument_three)\n",
        """
        result = function(
            argument_one,
            argument_two,
            argument_three,
        )
        """,
    ),
    "a display holds one item a line once broken": (
        40,
        "names = ('alpha', 'beta', 'gamma', 'delta', 'epsilon')\n",
        """
        names = (
            "alpha",
            "beta",
            "gamma",
            "delta",
            "epsilon",
        )
        """,
    ),
    "nested brackets break from the outside in": (
        50,
        "d = {'key': [aaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbbbbbbbbbbbb, ccccccccccc], 'l': 1}\n",
        """
        d = {
            "key": [
                aaaaaaaaaaaaaaaa,
                bbbbbbbbbbbbbbbbbbbbbbbbbb,
                ccccccccccc,
            ],
            "l": 1,
        }
        """,
    ),
    "an earlier bracket when the last one's head is too long; arguments that fit stay together": (
        40,
        "x = function_name(aaaaaaaaaa, bbbbbbbbbbbbbbbbbbbb)[0]\n",
        """
        x = function_name(
            aaaaaaaaaa, bbbbbbbbbbbbbbbbbbbb
        )[0]
        """,
    ),
    "conditional expression, parentheses added": (
        40,
        "return aaaaaaaaaa if bbbbbbbbbbbbbbbbb else ccccccccccccccccc\n",
        """
        return (
            aaaaaaaaaa
            if bbbbbbbbbbbbbbbbb
            else ccccccccccccccccc
        )
        """,
    ),
    "or before and": (
        42,
        "return aaaaaaaaaaaa or bbbbbbbbbbbbbb and cccccccccccccccc\n",
        """
        return (
            aaaaaaaaaaaa
            or bbbbbbbbbbbbbb and cccccccccccccccc
        )
        """,
    ),
    "and when there is no or": (
        40,
        "x = aaaaaaaaaaaaaa and bbbbbbbbbbbbbbbb and not ccccccccccccc\n",
        """
        x = (
            aaaaaaaaaaaaaa
            and bbbbbbbbbbbbbbbb
            and not ccccccccccccc
        )
        """,
    ),
    "comparisons, not in and is not kept whole": (
        40,
        "x = aaaaaaaaaaaaaaa not in bbbbbbbbbbbbbbbb is not cccccccccccc\n",
        """
        x = (
            aaaaaaaaaaaaaaa
            not in bbbbbbbbbbbbbbbb
            is not cccccccccccc
        )
        """,
    ),
    "| before + before *": (
        60,
        "x = aaaaaaaaaaaa * bbbbbbbbbbbbb + ccccccccc * ddddddddd | eeeeee\n",
        """
        x = (
            aaaaaaaaaaaa * bbbbbbbbbbbbb + ccccccccc * ddddddddd
            | eeeeee
        )
        """,
    ),
    "+ and -, a unary minus left alone": (
        40,
        "x = aaaaaaaaaaaaaaa - -bbbbbbbbbbbbbbbbbbbb + cccccccccccccccc\n",
        """
        x = (
            aaaaaaaaaaaaaaa
            - -bbbbbbbbbbbbbbbbbbbb
            + cccccccccccccccc
        )
        """,
    ),
    "* / // %": (
        40,
        "x = (aaaaaaaaaaaaaaa * bbbbbbbbbbbbbbbbb // cccccccccccccc % dddd)\n",
        """
        x = (
            aaaaaaaaaaaaaaa
            * bbbbbbbbbbbbbbbbb
            // cccccccccccccc
            % dddd
        )
        """,
    ),
    "comprehension clauses": (
        40,
        "x = [aaaaaaaaaaaaa for bbbbbbbbbbbbb in ccccccccccccccc if dddd]\n",
        """
        x = [
            aaaaaaaaaaaaa
            for bbbbbbbbbbbbb in ccccccccccccccc
            if dddd
        ]
        """,
    ),
    "a comprehension's target is not split at its comma": (
        50,
        "x = {kkkkkkkkkkkk: vvvvvvvvvvvvvvv for kkkkkkkkkkkk, vvvvvvvvvvvvvvv in items}\n",
        """
        x = {
            kkkkkkkkkkkk: vvvvvvvvvvvvvvv
            for kkkkkkkkkkkk, vvvvvvvvvvvvvvv in items
        }
        """,
    ),
    "one operator and a last bracket: break in the bracket": (
        50,
        "x = sum(aaaaaaaaa for a in bbbbbbbbbbbbbb) + (1 if cccccccc else 0)\n",
        """
        x = sum(aaaaaaaaa for a in bbbbbbbbbbbbbb) + (
            1 if cccccccc else 0
        )
        """,
    ),
    "a head too long breaks again": (
        50,
        "return (aaaaaaaaaaaaaaaaaaaa + bbbbbbbbbbbbbbbbbbbb) + sum(cccccccccc for c in ddddddddd)\n",
        """
        return (
            aaaaaaaaaaaaaaaaaaaa + bbbbbbbbbbbbbbbbbbbb
        ) + sum(cccccccccc for c in ddddddddd)
        """,
    ),
    "the condition of an if": (
        40,
        "if aaaaaaaaaaaaaaa(bbbbbbbbbbbbb, cccccccccccccc, ddddddddddd):\n    pass\n",
        """
        if aaaaaaaaaaaaaaa(
            bbbbbbbbbbbbb,
            cccccccccccccc,
            ddddddddddd,
        ):
            pass
        """,
    ),
    "the iterable of a for": (
        40,
        "for xxxxxxxxxxxx in aaaaaaaaaaaaaaaaaaaaaaaaa + bbbbbbbbbbbbbbbbbbbbb:\n    pass\n",
        """
        for xxxxxxxxxxxx in (
            aaaaaaaaaaaaaaaaaaaaaaaaa
            + bbbbbbbbbbbbbbbbbbbbb
        ):
            pass
        """,
    ),
    "the test of an assert, its message kept": (
        40,
        "assert aaaaaaaaaaaaaaaaaaaaaa == bbbbbbbbbbbbbbbbbbbbbbbbbbbbb, 'message'\n",
        """
        assert (
            aaaaaaaaaaaaaaaaaaaaaa
            == bbbbbbbbbbbbbbbbbbbbbbbbbbbbb
        ), "message"
        """,
    ),
    "implicitly joined strings": (
        40,
        'x = "abcdefghijk" "lmnopqrstuvwxyz" "0123456789012345"\n',
        """
        x = (
            "abcdefghijk"
            "lmnopqrstuvwxyz"
            "0123456789012345"
        )
        """,
    ),
    "an unparenthesised tuple gets parentheses and a trailing comma": (
        30,
        "return aaaaaaaaaaaa, bbbbbbbbbbbbbbbb\n",
        """
        return (
            aaaaaaaaaaaa,
            bbbbbbbbbbbbbbbb,
        )
        """,
    ),
    "the names of a from import": (
        40,
        "from runtime.engine import Domain, Frame, GameInfo, GameState\n",
        """
        from runtime.engine import (
            Domain,
            Frame,
            GameInfo,
            GameState,
        )
        """,
    ),
    "a long physical line inside a template's brackets": (
        60,
        "x = {\n    'steps': [{'line': 1, 'actions': ['aaaaaaa', 'bbbbbbbb']}],\n    'seed': 1,\n}\n",
        """
        x = {
            "steps": [
                {"line": 1, "actions": ["aaaaaaa", "bbbbbbbb"]}
            ],
            "seed": 1,
        }
        """,
    ),
    "and narrower": (
        40,
        "x = {\n    'steps': [{'line': 1, 'actions': ['aaaaaaa', 'bbbbbbbb']}],\n    'seed': 1,\n}\n",
        """
        x = {
            "steps": [
                {
                    "line": 1,
                    "actions": [
                        "aaaaaaa",
                        "bbbbbbbb",
                    ],
                }
            ],
            "seed": 1,
        }
        """,
    ),
    "a line that fits is left alone": (
        110,
        "x = function(a, b)  # a trailing comment\n",
        "x = function(a, b)  # a trailing comment\n",
    ),
}


@pytest.mark.parametrize("case", SPLITS, ids=list(SPLITS))
def test_split(case: str) -> None:
    width, source, expected = SPLITS[case]
    assert laid_out(source, width) == block(expected)


# ---- what it never does ------------------------------------------------------------------------

NEVER = {
    "a trailing comma after a lone generator argument": (
        40,
        "x = sum(aaaaaaaaaaaaaaaaaaaaaa for aaaaaaaaaaaaaaaaaaaaaa in b)\n",
        """
        x = sum(
            aaaaaaaaaaaaaaaaaaaaaa
            for aaaaaaaaaaaaaaaaaaaaaa in b
        )
        """,
    ),
    "a trailing comma inside a subscript": (
        40,
        "x = aaaaaaaaaaaaaaaaaaaa[iiiiiiiiiiiiiiiiiiiiii, jjjjjjjjjjjjjjjjjjjj]\n",
        """
        x = aaaaaaaaaaaaaaaaaaaa[
            iiiiiiiiiiiiiiiiiiiiii,
            jjjjjjjjjjjjjjjjjjjj
        ]
        """,
    ),
    "a trailing comma after *args": (
        40,
        "f(aaaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbbbbbbb, *cccccccccccccccccccc)\n",
        """
        f(
            aaaaaaaaaaaaaaaaa,
            bbbbbbbbbbbbbbbbbbbbb,
            *cccccccccccccccccccc
        )
        """,
    ),
    "a trailing comma after **kw": (
        40,
        "f(aaaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbbbbbbb, **cccccccccccccccccccc)\n",
        """
        f(
            aaaaaaaaaaaaaaaaa,
            bbbbbbbbbbbbbbbbbbbbb,
            **cccccccccccccccccccc
        )
        """,
    ),
    "a 1-tuple without its comma": (
        40,
        "t = (aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa,)\n",
        """
        t = (
            aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa,
        )
        """,
    ),
    "a parenthesised expression turned into a tuple": (
        30,
        "x = f((aaaaaaaaaaaaaaa + bbbbbbbbbbbbbbbbbbbb))\n",
        """
        x = f(
            (
                aaaaaaaaaaaaaaa
                + bbbbbbbbbbbbbbbbbbbb
            )
        )
        """,
    ),
    "a break inside a lambda's parameters": (
        50,
        "x = f(lambda aaaaaaaaaaaaaa, bbbbbbbbbbbbbbb: aaaaaaaaaaaaaa, c)\n",
        """
        x = f(
            lambda aaaaaaaaaaaaaa, bbbbbbbbbbbbbbb: aaaaaaaaaaaaaa,
            c,
        )
        """,
    ),
    "a break in a long string": (
        40,
        "x = 'a very long string that cannot be broken anywhere at all'\n",
        'x = "a very long string that cannot be broken anywhere at all"\n',
    ),
    "parentheses around a star import": (
        20,
        "from runtime.engine import *\n",
        "from runtime.engine import *\n",
    ),
    "parentheses around a lone long string": (
        40,
        "return 'a very long string that cannot be broken anywhere at all'\n",
        'return "a very long string that cannot be broken anywhere at all"\n',
    ),
    "a break in a statement with a trailing comment": (
        40,
        "x = function(aaaaaaaaaaaaaaa, bbbbbbbbbbbbbbb)  # type: ignore[misc]\n",
        "x = function(aaaaaaaaaaaaaaa, bbbbbbbbbbbbbbb)  # type: ignore[misc]\n",
    ),
}


@pytest.mark.parametrize("case", NEVER, ids=list(NEVER))
def test_never(case: str) -> None:
    width, source, expected = NEVER[case]
    assert laid_out(source, width) == block(expected)


# ---- redundant parentheses ---------------------------------------------------------------------

DROPPED = [
    ("return (a > b)", "return a > b"),
    ("if (x):", "if x:"),
    ("elif (x and y):", "elif x and y:"),
    ("while (n < 3):", "while n < 3:"),
    ("assert (x), 'why'", 'assert x, "why"'),
    ("x = (1)", "x = 1"),
    ("x: int = ((2))", "x: int = 2"),
    ("x = y = (z)", "x = y = z"),
    ("x += (a + b)", "x += a + b"),
    ("return ((a) if b else c)", "return (a) if b else c"),
    ("if(x):", "if x:"),
]
KEPT = [
    "return (a, b)",
    "x = (1,)",
    "x = ()",
    "x = (a for a in b)",
    "x = (yield)",
    "x = (yield a)",
    "if (n := 1):",
    "x = (lambda a, b: a)",
    "x = (a) + (b)",
    "return (a)(b)",
    "return (a).b",
    "x = (a)[0]",
    "f((a))",
    "for x in (a):",
    "x = (\n    a\n)",
    "x = 1; y = (1)",
]


def as_module(line: str) -> str:
    """A line that may be a statement header (`if x:`, `elif x:`) made into a module that parses."""
    if line.startswith("elif"):
        return f"if a:\n    pass\n{line}\n    pass\n"
    if line.endswith(":"):
        return f"{line}\n    pass\n"
    if "yield" in line or line.startswith("return"):
        return f"def g():\n    {line}\n"
    return line + "\n"


@pytest.mark.parametrize(("before", "after"), DROPPED, ids=[b for b, _ in DROPPED])
def test_redundant_parentheses_dropped(before: str, after: str) -> None:
    assert laid_out(as_module(before)) == as_module(after)


@pytest.mark.parametrize("line", KEPT)
def test_meaningful_parentheses_kept(line: str) -> None:
    assert laid_out(as_module(line)) == as_module(line)


# ---- quotes ------------------------------------------------------------------------------------

QUOTES = [
    ("'plain'", '"plain"'),
    ("''", '""'),
    ("'it\\'s'", '"it\'s"'),
    ("'say \"hi\"'", "'say \"hi\"'"),  # more double quotes than single: kept
    ("'a\"b\\'c'", '"a\\"b\'c"'),  # as many of each: double, no more escapes than before
    ("'\\\\'", '"\\\\"'),
    ("'a\\\\\\'b'", '"a\\\\\'b"'),
    ("'\\\"'", "'\\\"'"),
    ("'\\n\\t\\x00'", '"\\n\\t\\x00"'),
    ('"already"', '"already"'),
    ("f'{x}'", "f'{x}'"),
    ("r'\\d'", "r'\\d'"),
    ("b'x'", "b'x'"),
    ("'''triple'''", "'''triple'''"),
]


@pytest.mark.parametrize(("before", "after"), QUOTES, ids=[b for b, _ in QUOTES])
def test_quotes(before: str, after: str) -> None:
    assert prefer_double_quotes(before) == after
    assert laid_out(f"x = {before}\n") == f"x = {after}\n"


def test_quotes_in_comments_and_docstrings_untouched() -> None:
    source = block(
        '''
        def f():
            """It's a 'doc' (with a bracket
            over two lines)."""
            # it's 'quoted' here
            return 'a'  # and 'here'
        '''
    )
    assert laid_out(source) == source.replace("return 'a'", 'return "a"')


# ---- what is kept exactly ----------------------------------------------------------------------


def test_comments_blank_lines_and_template_breaks_kept() -> None:
    source = block(
        """
        # a comment line that is far too long to fit in the width but is a comment all the same
        x = [
            # a comment (with a bracket
            1, 2,  # a trailing comment
            3,
        ]


        y = 1  # end
        """
    )
    assert laid_out(source, 40) == source


def test_verbatim_when_a_string_spans_lines_or_a_backslash_continues() -> None:
    source = "x = '''a\n(b\n'''\ny = 1 + \\\n    (2)\nz = ('c')\n"
    assert laid_out(source) == "x = '''a\n(b\n'''\ny = 1 + \\\n    (2)\nz = \"c\"\n"


def test_no_trailing_newline_and_empty_input() -> None:
    assert laid_out("x = (1)") == "x = 1"
    assert laid_out("") == ""


# ---- py_literal --------------------------------------------------------------------------------

LITERALS = [
    (None, "None"),
    (True, "True"),
    (-3, "-3"),
    (1.5, "1.5"),
    ("it's", '"it\'s"'),
    ('say "hi"', "'say \"hi\"'"),
    ("a\"b'c", '"a\\"b\'c"'),
    ((), "()"),
    ((1,), "(1,)"),
    ((1, "a"), '(1, "a")'),
    ([[1], []], "[[1], []]"),
    ({"b": 1, "a": (2,)}, '{"b": 1, "a": (2,)}'),
    ({"b", "a"}, '{"a", "b"}'),
    (set(), "set()"),
]


@pytest.mark.parametrize(("value", "source"), LITERALS, ids=[s for _, s in LITERALS])
def test_py_literal(value: object, source: str) -> None:
    assert py_literal(value) == source
    assert eval(source) == value  # our own literal: the source must give the value back


@pytest.mark.parametrize("value", [object(), frozenset(), math.inf, math.nan, b"x", True.__class__])
def test_py_literal_refuses_what_has_no_literal(value: object) -> None:
    with pytest.raises((TypeError, ValueError)):
        py_literal(value)


def test_py_literal_refuses_a_subclass() -> None:
    import enum

    class Colour(enum.IntEnum):
        RED = 1

    with pytest.raises(TypeError):
        py_literal(Colour.RED)


data = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=4).map(tuple)
        | st.dictionaries(st.text(max_size=5), inner, max_size=4)
        | st.sets(st.integers() | st.text(max_size=5), max_size=4)
    ),
    max_leaves=20,
)


@given(data)
def test_py_literal_round_trips(value: object) -> None:
    source = py_literal(value)
    assert ast.literal_eval(source) == value
    assert format_source(f"x = {source}\n") == f"x = {source}\n" or len(source) > WIDTH - 4


# ---- a property over generated expressions -----------------------------------------------------

names = st.sampled_from(["a", "bb", "c_ccccc", "s.v_x", "None", "True", "F_long_name"])
numbers = st.integers(min_value=0, max_value=10**6).map(str)
strings = st.text(alphabet="ab'\" \\(", max_size=12).map(repr)
atoms = names | numbers | strings
BINARY = ["+", "-", "*", "//", "%", "|", "&", "and", "or", "==", "<", ">=", "in", "not in", "is", "is not"]


def compound(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    def paren(x: str) -> str:
        return f"({x})"

    return st.one_of(
        st.tuples(inner, st.sampled_from(BINARY), inner).map(lambda t: f"{t[0]} {t[1]} {paren(t[2])}"),
        st.tuples(inner, st.sampled_from(BINARY), inner).map(lambda t: f"{paren(t[0])} {t[1]} {paren(t[2])}"),
        st.tuples(inner, inner, inner).map(lambda t: f"{paren(t[0])} if {paren(t[1])} else {t[2]}"),
        st.lists(inner, max_size=4).map(lambda xs: "f(" + ", ".join(xs) + ")"),
        st.lists(inner, max_size=4).map(lambda xs: "g(" + ", ".join([*xs, "k=1"]) + ")"),
        st.lists(inner, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.lists(inner, min_size=1, max_size=3).map(lambda xs: "(" + ", ".join(xs) + ",)"),
        st.lists(st.tuples(inner, inner), max_size=3).map(
            lambda kv: "{" + ", ".join(f"{k}: {v}" for k, v in kv) + "}"
        ),
        st.tuples(inner, inner, inner).map(lambda t: f"[{t[0]} for x in {paren(t[1])} if {paren(t[2])}]"),
        st.tuples(inner, inner).map(lambda t: f"sum({t[0]} for y in {paren(t[1])})"),
        st.tuples(inner, inner).map(lambda t: f"{paren(t[0])}[{t[1]}]"),
        st.tuples(inner, inner).map(lambda t: f"{paren(t[0])}[{t[1]}, {t[1]}]"),
        inner.map(lambda x: f"not {paren(x)}"),
        inner.map(lambda x: f"-{paren(x)}"),
        inner.map(paren),
        st.tuples(strings, strings).map(lambda t: f"{t[0]} {t[1]}"),
        st.tuples(inner, inner).map(lambda t: f"(lambda u, v=1: {t[0]})({t[1]})"),
        inner.map(lambda x: f"(w := {x})"),
        st.tuples(inner, inner).map(lambda t: f"h(*{paren(t[0])}, **{paren(t[1])})"),
        st.tuples(inner, inner).map(lambda t: f"h({t[0]}, *{paren(t[1])})"),
        st.tuples(inner, inner, inner).map(lambda t: f"{paren(t[0])}[{t[1]}:{t[2]}:2]"),
        st.tuples(inner, inner).map(lambda t: f"{{k: {t[0]} for k, v in {paren(t[1])}}}"),
        st.tuples(inner, inner).map(lambda t: f"{{{t[0]}, {t[1]}}}"),
        st.sampled_from(["()", "[]", "{}", "f()", "f'{a!r}'", "b'x\\''", "r'\\d'", "...", "-1.5e-3"]),
    )


expressions = st.recursive(atoms, compound, max_leaves=25)
STATEMENTS = [
    "x = {e}",
    "x: int = ({e})",
    "return {e}",
    "return ({e})",
    "if {e}:\n        pass",
    "while ({e}):\n        pass",
    "for q in {e}:\n        pass",
    "assert {e}, {e}",
    "s.call({e}, {e})",
    "y = [{e}, {e}]",
    "y = (yield {e})",
    "del y[{e}]",
    "z = [\n        {e},\n        {e},\n    ]",
]


@given(expressions, st.sampled_from(STATEMENTS), st.integers(min_value=16, max_value=90))
def test_layout_keeps_the_ast_and_is_a_fixed_point(expression: str, statement: str, width: int) -> None:
    source = "def f():\n    " + statement.format(e=expression) + "\n"
    laid_out(source, width)


# ---- the corpus: every bundled engine, rendered without the layout pass -----------------------------------

CORPUS = ["specs/iron_curtain", "specs/channel_tunnel", "specs/guerra_fronteriza", "specs/twilight_struggle"]
CORPUS += ["tests/golden/tiny"]
STRING_LITERAL = re.compile(r"""[rRbBuUfF]{0,2}(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")""")


@functools.cache
def raw_files(folder: str) -> dict[str, str]:
    """Every file as the templates write it (formatting turned off)."""
    with mock.patch.object(compiler.render, "format_source", lambda text: text):
        result = compile_spec(ROOT / folder)
    assert result.ok
    return dict(result.files)


@functools.cache
def raw_and_laid_out(folder: str) -> tuple[str, str, float]:
    """The engine as the templates write it (formatting turned off) and laid out, and the seconds
    the layout took (CPU)."""
    raw = raw_files(folder)["engine.py"]
    start = time.process_time()
    out = format_source(raw)
    return raw, out, time.process_time() - start


def cannot_be_broken(line: str) -> bool:
    """A comment, or a line too long only because of one string literal in it."""
    if line.lstrip().startswith("#"):
        return True
    longest = max((len(s) for s in STRING_LITERAL.findall(line)), default=0)
    return len(line) - longest + 2 <= WIDTH


@pytest.mark.parametrize("folder", CORPUS, ids=[Path(f).name for f in CORPUS])
def test_corpus(folder: str) -> None:
    raw, out, seconds = raw_and_laid_out(folder)
    assert ast.dump(ast.parse(out)) == ast.dump(ast.parse(raw))
    assert format_source(out) == out
    compile(out, f"{folder}/engine.py", "exec")
    lines = out.splitlines()
    long = [line for line in lines if len(line) > WIDTH]
    assert [line for line in long if not cannot_be_broken(line)] == []
    strings = [line for line in long if not line.lstrip().startswith("#")]
    # long data strings (card texts, scenario docs) are all that may stay long
    assert len(strings) <= 0.05 * len(lines)
    print(f"{folder}: {len(raw.splitlines())} -> {len(lines)} lines, {len(long)} long ", end="")
    print(f"({len(long) - len(strings)} comments, {len(strings)} strings), laid out in {seconds:.2f}s")
    assert seconds < 5  # about 0.5 s for the largest; a blow-up would show here


@pytest.mark.parametrize("folder", CORPUS, ids=[Path(f).name for f in CORPUS])
def test_corpus_passes_ruff_check(folder: str) -> None:
    pytest.importorskip("ruff")
    _, out, _ = raw_and_laid_out(folder)
    name = Path(folder).name
    # as if the file were generated/<game>/engine.py: the per-file ignores of generated/ apply
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--no-cache",
            "--stdin-filename",
            f"generated/{name}/engine.py",
            "-",
        ],
        input=out,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def laid_out_files(folder: str) -> dict[str, str]:
    """The files a build writes for a corpus folder, made from its raw files as compiler/render.py
    makes them (each laid out by format_source), without compiling the spec again."""
    files = raw_files(folder)
    return {
        name: raw_and_laid_out(folder)[1] if name == "engine.py" else format_source(text)
        for name, text in files.items()
    }


def test_laid_out_raw_files_are_what_a_build_writes() -> None:
    """What lets the corpus's big specs be compiled once here: laying out the raw files gives
    exactly the files the compiler returns (checked on the corpus's smallest spec)."""
    result = compile_spec(ROOT / CORPUS[-1])
    assert result.ok and result.files == laid_out_files(CORPUS[-1])


FORMAT_CASES = [
    *CORPUS,
    *(f"tests/lowering/{p.name}" for p in sorted((ROOT / "tests" / "lowering").iterdir()) if p.is_dir()),
]


@functools.cache
def ruff_format_diffs(tmp: Path) -> tuple[dict[str, dict[str, str]], str]:
    """Every file the compiler writes for each of FORMAT_CASES, put through one `ruff format
    --diff` run (one process for the whole corpus, not one per file): the diff ruff gives each file,
    by case and file name (none for a file ruff would leave as it is), and ruff's error output."""
    where: dict[str, tuple[str, str]] = {}  # path given to ruff -> (case, file name)
    for i, folder in enumerate(FORMAT_CASES):
        if folder in CORPUS:
            files = laid_out_files(folder)  # compiled already, for test_corpus
        else:
            result = compiled(folder)  # compiled once for the run: tests/test_lowering.py reads it too
            assert result.ok, folder
            files = result.files
        case = tmp / f"{i:03}"
        case.mkdir()
        for name, text in files.items():
            assert name.endswith(".py"), name
            (case / name).write_text(text, encoding="utf-8")
            where[str(case / name)] = (folder, name)
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--isolated", "--no-cache", "--line-length", str(WIDTH)]
        + ["--diff", *where],
        capture_output=True,
        text=True,
        check=False,
    )
    diffs: dict[str, dict[str, str]] = {folder: {} for folder in FORMAT_CASES}
    for chunk in re.split(r"^(?=--- )", done.stdout, flags=re.M):
        if chunk.strip():
            path = chunk.split("\n", 1)[0].removeprefix("--- ").strip()
            folder, name = where.get(path, ("?", path))
            diffs.setdefault(folder, {})[name] = chunk
    errors = done.stderr if done.returncode not in (0, 1) else ""  # 1: some file would change
    return diffs, errors


@pytest.fixture(scope="module")
def format_diffs(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, dict[str, str]], str]:
    pytest.importorskip("ruff")
    return ruff_format_diffs(tmp_path_factory.mktemp("ruff-format"))


@pytest.mark.parametrize("folder", FORMAT_CASES, ids=[Path(f).name for f in FORMAT_CASES])
def test_generated_files_are_laid_out_as_ruff_formats_them(
    folder: str, format_diffs: tuple[dict[str, dict[str, str]], str]
) -> None:
    """The compiler needs no formatter, and its output reads as formatted code: every file it
    writes is already what `ruff format` (the dev tool) would make of it."""
    diffs, errors = format_diffs
    assert not errors, errors
    assert "?" not in diffs, f"ruff named a file it was not given:\n{diffs['?']}"
    for name, diff in sorted(diffs[folder].items()):
        raise AssertionError(f"{folder} {name}:\n{diff[:3000]}")
