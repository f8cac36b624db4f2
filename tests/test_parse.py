"""compiler/parse.py: each distinct text parsed once, its IR placed again at each occurrence; an
effect read from its lines only when that gives what parsing it whole gives; checking without
lark or Jinja2."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from compiler import ir, lalr, parse
from compiler.diagnostics import Sink, render_all
from compiler.driver import compile_spec
from compiler.ir import Span
from compiler.sourcemap import SourceMap

REPO_ROOT = Path(__file__).resolve().parent.parent

SPEC = """\
game: t
players: {names: [alice, bob]}
functions:
  a: {returns: bool, body: "alise == alice"}
  b:
    returns: bool
    body: "alise == alice"
  c: {returns: bool, body: "alice =="}
  d: {returns: bool, body:   "alice =="}
  e: {returns: bool, body: "DEEP"}
  f: {returns: bool, body: "DEEP"}
phases:
  - name: main
    do: |
      let x = 1
          if alise == alice { end game draw }
      end game draw
  - name: deep
    do: |
      let x = 1
      x = DEEP_INT
      end game draw
"""

DEEP = "not " * 150 + "true"  # 150 levels of the parse tree: more than MAX_DSL_DEPTH
DEEP_INT = "-" * 150 + "1"


@pytest.fixture
def spec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "t"
    folder.mkdir()
    text = SPEC.replace("DEEP_INT", DEEP_INT).replace("DEEP", DEEP)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return Path("t")


def _places(text: str, needle: str) -> list[tuple[int, int]]:
    """Where `needle` starts in `text`, each time: (line, column)."""
    return [
        (n, line.index(needle) + 1) for n, line in enumerate(text.splitlines(), start=1) if needle in line
    ]


def test_a_text_written_at_several_places_is_placed_at_each(spec: Path) -> None:
    parse._parsed_texts.clear()  # so that the spec's own occurrences are the first and the next
    result = compile_spec(spec, render=False)
    text = (spec / "game.yaml").read_text(encoding="utf-8")
    unknown = [d for d in result.diagnostics if d.code == "unknown-name"]
    assert [(d.span.line, d.span.col) for d in unknown] == _places(text, "alise ==")
    assert len(unknown) == 3
    assert all(d.span.end_col - d.span.col == len("alise") for d in unknown)
    assert "    if alise == alice { end game draw }\n" in render_all(unknown)


def test_an_error_is_found_at_each_place_a_text_is(spec: Path) -> None:
    result = compile_spec(spec, render=False)
    text = (spec / "game.yaml").read_text(encoding="utf-8")
    syntax = [d for d in result.diagnostics if d.code == "dsl-syntax"]
    # each at the end of its text, where an expression is missing
    ends = [(line, col + len("alice ==")) for line, col in _places(text, 'alice =="')]
    assert [(d.span.line, d.span.col) for d in syntax] == ends
    assert len(syntax) == 2


def test_a_text_nested_too_deep_is_located_at_each_place_and_never_recurses(spec: Path) -> None:
    result = compile_spec(spec, render=False)
    deep = [d for d in result.diagnostics if d.code == "limit-exceeded"]
    text = (spec / "game.yaml").read_text(encoding="utf-8")
    # where the text first goes too deep: in both functions, and in a line of the deep phase
    lines = [line for line, _ in _places(text, "not not") + _places(text, "---")]
    assert [d.span.line for d in deep] == lines
    assert deep[0].span.col == deep[1].span.col > len("  e: {returns: bool, body: ")
    assert all("nests more than 100 levels deep" in d.message for d in deep)


def test_each_occurrence_gets_its_own_nodes() -> None:
    text = "count(c in hand where c.ops > 2) >= 1"
    first = parse.parse_expression(SourceMap("a.yaml", text, ((3, 7),)), Sink())
    second = parse.parse_expression(SourceMap("b.yaml", text, ((9, 1),)), Sink())
    assert first is not None and second is not None
    assert first.expr is not second.expr  # the checker annotates nodes by their identity
    assert first.expr is not None and first.expr.span == Span("a.yaml", 3, 7, 3, 7 + len(text))
    assert second.expr is not None and second.expr.span == Span("b.yaml", 9, 1, 9, 1 + len(text))
    # what was kept and placed again is what parsing the text afresh gives
    parse._parsed_texts.clear()
    assert parse.parse_expression(SourceMap("b.yaml", text, ((9, 1),)), Sink()) == second


def test_an_interpolation_is_placed_from_its_string() -> None:
    text = 'log "{a} and {b + 1}"'
    # a quoted YAML string with an escape: each character has its own place
    chars = tuple((5, 10 + i + (2 if i >= 3 else 0)) for i in range(len(text)))
    smap = SourceMap("s.yaml", text, ((5, 10),), chars)
    spans = []
    for _ in range(2):  # parsed, then placed again from what was kept
        code = parse.parse_effect(smap, Sink())
        assert code is not None
        (log,) = code.body
        assert isinstance(log, ir.Log)
        spans.append([part.span for part in log.message.parts if not isinstance(part, str)])
    assert spans[0] == spans[1]
    assert [(s.line, s.col) for s in spans[0]] == [(5, 18), (5, 26)]


# ---- an effect read line by line ------------------------------------------------------------------

LINES = [
    "move hand[ussr] to deck",
    "influence[west_germany, usa] = 3",
    "x = a",
    "- b",
    "(c)",
    "  let n = count(c in hand where c.ops > 2)",
    "n += 1; n -= 2",
    'if n > 1 { log "{n} left" }',
    "if n > 1 {",
    "} else {",
    "}",
    "else { x = 1 }",
    "move x to",
    "top of deck",
    "move x to top of deck",
    "choose c from hand by ussr",
    '"a prompt"',
    "emit scored",
    "(usa)",
    "add blockade until",
    "end of turn",
    "# a comment",
    "",
    "   ",
    "count = 3",
    "end game draw",
    'end game draw "why"',
    "return",
    ";",
    "shuffle deck # and a comment",
    'log "{a}"',
    "a.b.c = 1",
    "f(x)",
    "do card.event(usa)",
    "let s: list[card] = [c for c in hand where c.ops > 1]",
    "cancel one",
    "cancel one blockade",
    "blockade",
    "n = count active blockade",
    "count active",
    "x = count(c in hand where active blockade) + count active blockade(usa)",
]


def _whole(smap: SourceMap) -> object:
    return parse._parse(smap, "effect", Sink(), {}, None)


@pytest.mark.parametrize("seed", range(4))
def test_an_effect_read_by_lines_is_what_reading_it_whole_gives(seed: int) -> None:
    rng = random.Random(seed)
    read = declined = 0
    for _ in range(300):
        lines = [rng.choice(LINES) for _ in range(rng.randint(2, 6))]
        text = "\n".join(lines)
        smap = SourceMap("e.yaml", text, tuple((7 + i, 5 + rng.randint(0, 3)) for i in range(len(lines))))
        if rng.random() < 0.5:
            parse._parsed_lines.clear()
        by_lines = parse._by_lines(smap)
        whole = _whole(smap)
        if by_lines is None:
            declined += 1
            continue
        read += 1
        assert whole is not lalr.FAILED
        assert repr(by_lines) == repr(whole), text
    assert read > 20 and declined > 20


def test_a_line_that_does_not_parse_alone_sends_the_text_to_the_whole_parser() -> None:
    text = "x = a\n- b"  # one statement: x = a - b
    smap = SourceMap("e.yaml", text, ((1, 1), (2, 1)))
    assert parse._by_lines(smap) is None
    code = parse.parse_effect(smap, Sink())
    assert code is not None and len(code.body) == 1


# ---- checking needs neither lark nor Jinja2, nor the engine ----------------------------------------


def test_checking_a_spec_imports_neither_lark_nor_jinja2(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from rulewright.cli import main\n"
        "code = main(['check', 'specs/iron_curtain'])\n"
        "assert 'runtime.engine' not in sys.modules and 'runtime.game' not in sys.modules\n"
        "print(code, 'lark' in sys.modules, 'jinja2' in sys.modules)\n"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    runs = [
        subprocess.run(
            [sys.executable, "-c", script],
            cwd=REPO_ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        ).stdout.splitlines()[-1]
        for _ in range(2)
    ]
    # the first run makes the parser's tables with lark (and caches them); the next needs no lark
    assert runs == ["0 True False", "0 False False"]
