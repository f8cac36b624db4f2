"""compiler/parse.py against lark's own parser: every DSL text of every bundled spec, of the specs
the tests use and of the hostile corpus, parsed by our automaton (as a spec loads: each distinct
text once, an effect from its lines where it can be) and by lark's LALR parser built from
compiler/grammar.lark, whose tree the same builders turn into IR. The IR must be equal, spans
included, and the diagnostics too: a text that one does not parse, the other does not either.

One case per spec folder: a spec's texts are those load.py hands to parse.py while it loads.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from compiler import grammar_tables, ir, lalr, parse
from compiler.diagnostics import Diagnostic, Sink
from compiler.load import load_game
from compiler.sourcemap import SourceMap

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = sorted(
    p.relative_to(ROOT).as_posix()
    for parent in ("specs", "tests/specs", "tests/hostile/specs")
    for p in (ROOT / parent).iterdir()
    if p.is_dir() and any(p.glob("*.yaml"))
)


@pytest.fixture(scope="module")
def lark_parser() -> Lark:
    """Lark's parser for grammar.lark, built afresh (not read from the cache the compiler keeps)."""
    return grammar_tables.build_lark_parser(grammar_tables.GRAMMAR.read_text(encoding="utf-8"))


class _LarkAutomaton:
    """Stands for parse.py's automaton: lark parses the text, and the builders are called on its
    tree, bottom up and left to right as the automaton calls them while it reduces."""

    def __init__(self, lark: Lark) -> None:
        self.lark = lark
        # (start, text) -> lark's tree (None: it does not parse); lark takes most of the test's time
        self.trees: dict[tuple[str, str], Tree[Token] | None] = {}

    def run(self, text: str, start: str, build: Any, trace: list[Any] | None = None) -> Any:
        assert trace is None, "only parse.py's own automaton reads an effect line by line"
        key = (start, text)
        if key not in self.trees:
            try:
                tree = self.lark.parse(text, start=start)
                self.trees[key] = None if parse._too_deep(tree) is not None else tree
            except UnexpectedInput:
                self.trees[key] = None
        parsed = self.trees[key]
        return lalr.FAILED if parsed is None else _built(parsed, build)


def _built(tree: Tree[Token], build: Any) -> Any:
    """The IR of lark's tree, made by the builders (with a stack, not recursion: the hostile
    corpus nests deeper than Python recurses)."""
    made: dict[int, Any] = {}
    stack: list[tuple[Tree[Token], bool]] = [(tree, False)]
    while stack:
        node, ready = stack.pop()
        if not ready:
            stack.append((node, True))
            stack.extend((c, False) for c in reversed(node.children) if isinstance(c, Tree))
            continue
        children = [made.pop(id(c)) if isinstance(c, Tree) else _token(c) for c in node.children]
        meta = None if node.meta.empty else _place(node.meta)
        made[id(node)] = getattr(build, str(node.data))(meta, children)
    return made[id(tree)]


def _place(at: Any) -> tuple[int, int, int, int]:
    return (at.line, at.column, at.end_line, at.end_column)


def _token(token: Token | None) -> Any:
    """A token as the automaton hands it to a builder: its text (a plain str), with its place
    for a string (whose `{...}` are parsed from there)."""
    if token is None:
        return None
    if token.type == "STRING":
        return (str(token), _place(token))
    return str(token)


# a DSL text handed to parse.py: its start rule and SourceMap, and what parse.py gave (the Code or
# None, and the diagnostics)
Parsed = tuple[str, SourceMap, Any, list[Diagnostic]]


def _ours(folder: Path, monkeypatch: pytest.MonkeyPatch) -> list[Parsed]:
    """The DSL texts load.py hands to parse.py while it loads the spec in `folder`, in order, each
    with what parse.py gave for it there (each distinct text parsed once, then placed again)."""
    parsed: list[Parsed] = []
    with monkeypatch.context() as m:
        for start in ("effect", "expression"):
            real = getattr(parse, f"parse_{start}")

            def record(smap: SourceMap, sink: Sink, start: str = start, real: Any = real) -> Any:
                found = Sink()
                code = real(smap, found)
                parsed.append((start, smap, code, found.items))
                sink.items.extend(found.items)
                return code

            m.setattr(parse, f"parse_{start}", record)
        load_game(folder, Sink())
    return parsed


def _theirs(texts: list[Parsed], lark: Lark) -> Iterator[tuple[Any, list[Diagnostic]]]:
    """Each text parsed whole by lark (each distinct one once), its IR built for each time."""
    with pytest.MonkeyPatch.context() as m:
        automaton = _LarkAutomaton(lark)
        m.setattr(parse, "_automaton", lambda: automaton)
        for start, smap, _, _ in texts:
            sink = Sink()
            value = parse._parse(smap, start, sink, {}, None)
            code = None
            if value is not None:
                whole = smap.span(1, 1, len(smap.lines), 1)
                body, expr = (value, None) if start == "effect" else ((), value)
                code = ir.Code(body, expr, whole, smap.text)
            yield code, sink.items


@pytest.mark.parametrize("folder", FOLDERS)
def test_our_parser_builds_what_lark_parses(
    folder: str, lark_parser: Lark, monkeypatch: pytest.MonkeyPatch
) -> None:
    ours = _ours(ROOT / folder, monkeypatch)
    assert ours or folder.startswith("tests/hostile/"), "a spec with no DSL text"
    # lark's parser stands in for ours only once the spec has loaded
    for (start, smap, code, diagnostics), theirs in zip(ours, list(_theirs(ours, lark_parser)), strict=True):
        where = f"{smap.file}:{smap.lines[0][0]}: {start} {smap.text[:200]!r}"
        assert (code, diagnostics) == theirs, where
