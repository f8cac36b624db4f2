"""The language server (`rulewright lsp`), driven over stdio by pygls's own client, on a copy of a
small spec; and its pure logic (rulewright/lsp/logic.py) without a server."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types  # noqa: E402

from compiler.builtins import BUILTINS  # noqa: E402
from rulewright.lsp import logic  # noqa: E402
from rulewright.lsp.client import Session  # noqa: E402

SPEC = Path(__file__).resolve().parents[1] / "specs" / "kuhn_poker"


def _line_of(text: str, needle: str) -> int:
    """The 0-based number of the first line holding `needle`."""
    return next(i for i, line in enumerate(text.split("\n")) if needle in line)


def _at(text: str, needle: str, offset: int = 0) -> types.Position:
    """The position of `needle` (plus `offset` characters) in `text` (ASCII lines)."""
    n = _line_of(text, needle)
    return types.Position(n, text.split("\n")[n].index(needle) + offset)


async def _hover(s: Session, uri: str, at: types.Position) -> str | None:
    h = await s.client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri), position=at)
    )
    if h is None:
        return None
    assert isinstance(h.contents, types.MarkupContent)
    return h.contents.value


async def _session(folder: Path) -> None:
    s = Session()
    await s.start(folder.parent)
    try:
        game = folder / "game.yaml"
        text = game.read_text(encoding="utf-8")
        uri = s.open(game)
        doc = types.TextDocumentIdentifier(uri)

        # hover on a state variable in a DSL string: its type and doc (polled: the first check runs)
        at = _at(text, 'body: "first_bettor', len('body: "') + 2)
        shown = None
        for _ in range(200):
            shown = await _hover(s, uri, at)
            if shown is not None:
                break
            await asyncio.sleep(0.05)
        assert shown is not None and "(state variable) first_bettor: player" in shown
        assert "who bet first" in shown
        # hover on a builtin: its signature and doc
        shown = await _hover(s, uri, _at(text, "empty(hand[p])", 1))
        assert shown is not None and "empty(z: zone) -> bool" in shown and "holds nothing" in shown

        # definition of a use jumps to the declaration
        use = _at(text, "or put_in[p] == 2", 3)
        found = await s.client.text_document_definition_async(
            types.DefinitionParams(text_document=doc, position=use)
        )
        assert isinstance(found, types.Location) and found.uri == uri
        assert found.range.start == _at(text, "put_in: {type: int")

        # a local's use jumps to its `let`; a state variable's references include its assignments
        found = await s.client.text_document_definition_async(
            types.DefinitionParams(text_document=doc, position=_at(text, "if len(still_in)", 8))
        )
        assert isinstance(found, types.Location) and found.range.start == _at(text, "still_in = filter")
        refs = await s.client.text_document_references_async(
            types.ReferenceParams(
                text_document=doc,
                position=_at(text, "winner: {type: player"),
                context=types.ReferenceContext(include_declaration=False),
            )
        )
        assert refs is not None and _at(text, "winner = still_in[0]") in [r.range.start for r in refs]

        # references of a function: its uses in a procedure's log lines
        refs = await s.client.text_document_references_async(
            types.ReferenceParams(
                text_document=doc,
                position=_at(text, "  pot:", 2),
                context=types.ReferenceContext(include_declaration=True),
            )
        )
        assert refs is not None
        mine = [r for r in refs if r.uri == uri]  # (board.yaml uses it too)
        lines = sorted(r.range.start.line for r in mine)
        assert lines[0] == _line_of(text, "  pot:") and len(lines) >= 3
        assert all(
            text.split("\n")[r.range.start.line][r.range.start.character :].startswith("pot") for r in mine
        )

        # completion inside a DSL string: a state variable and a builtin; nothing on a YAML key
        line = _line_of(text, 'body: "first_bettor')
        col = text.split("\n")[line].index("first_bettor") + len("first_b")
        got = await s.client.text_document_completion_async(
            types.CompletionParams(text_document=doc, position=types.Position(line, col))
        )
        assert isinstance(got, types.CompletionList)
        assert "first_bettor" in [i.label for i in got.items]
        col = text.split("\n")[line].index("first_bettor")
        got = await s.client.text_document_completion_async(
            types.CompletionParams(text_document=doc, position=types.Position(line, col))
        )
        assert isinstance(got, types.CompletionList)
        labels = [i.label for i in got.items]
        assert {"first_bettor", "empty", "choose", "hand"} <= set(labels)
        # a local in scope: `still_in` on the lines after its `let`
        got = await s.client.text_document_completion_async(
            types.CompletionParams(text_document=doc, position=_at(text, "if len(still_in)", 9))
        )
        assert isinstance(got, types.CompletionList)
        assert [i.label for i in got.items][:1] == ["still_in"]
        got = await s.client.text_document_completion_async(
            types.CompletionParams(text_document=doc, position=types.Position(_line_of(text, "  winner:"), 3))
        )
        assert isinstance(got, types.CompletionList) and not got.items

        # document symbols
        symbols = await s.client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=doc)
        )
        assert symbols is not None
        names = {sym.name for sym in symbols}
        assert {"put_in", "deck", "hand", "pot", "act", "betting", "move", "pass"} <= names

        # a misspelt name: the error at its range; fixed: cleared
        broken = text.replace('body: "first_bettor == none', 'body: "first_bettr == none')
        s.change(uri, broken)
        diags = await s.wait_for(uri, True, code="unknown-name")
        assert [d.code for d in diags] == ["unknown-name"]
        start = _at(broken, "first_bettr == none")
        assert diags[0].range.start == start
        assert diags[0].range.end == types.Position(start.line, start.character + len("first_bettr"))
        assert diags[0].severity == types.DiagnosticSeverity.Error
        assert "first_bettor" in diags[0].message  # did you mean
        # while the buffer has errors, the last good index still finds declarations
        shown = await _hover(s, uri, _at(broken, "or put_in[p] == 2", 3))
        assert shown is not None and "put_in" in shown
        s.change(uri, text)
        assert await s.wait_for(uri, False) == []

        # a non-ASCII character before a name on the same line: UTF-16 columns
        odd = text.replace(
            'body: "first_bettor == none', 'body: \'"é𝄞" == "" or bogus_name or first_bettor == none'
        )
        odd = odd.replace('or put_in[p] == 2"', "or put_in[p] == 2'")
        s.change(uri, odd)
        diags = await s.wait_for(uri, True, code="unknown-name")
        line_text = odd.split("\n")[_line_of(odd, "bogus_name")]
        assert [d.code for d in diags] == ["unknown-name"]
        assert diags[0].range.start.character == line_text.index("bogus_name") + 1  # 𝄞 is two units

        # garbage and oversized buffers: clear errors, and the server still answers
        s.change(uri, "\x00\x01 {{{ : : :\n\t- [")
        diags = await s.wait_for(uri, True)
        assert diags and all(d.severity == types.DiagnosticSeverity.Error for d in diags)
        s.change(uri, "# " + "x" * (1024 * 1024 + 10) + "\n")
        diags = await s.wait_for(uri, True, code="limit-exceeded")
        assert "the limit is 1,048,576" in diags[0].message
        assert await _hover(s, uri, types.Position(0, 0)) is None
        s.change(uri, text)
        assert await s.wait_for(uri, False) == []
    finally:
        code = await s.stop()
    assert code == 0  # a shutdown then an exit, as editors do: no traceback, no "quit with code 1"


def test_the_server_over_stdio(tmp_path: Path) -> None:
    folder = tmp_path / "kuhn_poker"
    shutil.copytree(SPEC, folder)
    asyncio.run(asyncio.wait_for(_session(folder), 120))


# ---- the pure logic ----------------------------------------------------------------------------


def test_columns_count_utf16_units() -> None:
    line = 'log "é𝄞 {pot}"'
    col = line.index("pot") + 1  # 1-based, in characters
    assert logic.utf16_col(line, col) == col - 1 + 1  # é is one unit, 𝄞 two
    assert logic.char_col(line, logic.utf16_col(line, col)) == col
    assert logic.utf16_col("abc", 1) == 0 and logic.char_col("abc", 99) == 4


def test_words_and_prefixes() -> None:
    assert logic.word_at("x = put_in[p]", 7) == ("put_in", 5)
    assert logic.prefix_at("x = put_in[p]", 8) == "put"
    assert logic.prefix_at("x = ", 5) == ""


def test_a_file_belongs_to_the_folder_that_declares_game(tmp_path: Path) -> None:
    spec = tmp_path / "g"
    (spec / "scenarios").mkdir(parents=True)
    (spec / "game.yaml").write_text("game: g\n")
    (spec / "more.yaml").write_text("state: {}\n")
    (spec / "scenarios" / "s.yaml").write_text("name: s\n")
    (tmp_path / "loose.yaml").write_text("a: 1\n")
    assert logic.spec_folder(spec / "more.yaml", {}) == spec
    assert logic.spec_folder(spec / "scenarios" / "s.yaml", {}) == spec
    assert logic.spec_folder(tmp_path / "loose.yaml", {}) is None
    assert logic.spec_folder(tmp_path / "loose.yaml", {tmp_path / "loose.yaml": "game: x\n"}) == tmp_path
    assert logic.spec_folder(spec / "notes.txt", {}) is None


def test_keywords_come_from_the_grammar() -> None:
    words = logic.keywords()
    assert {"choose", "move", "let", "count", "sum", "simultaneously", "top"} <= set(words)
    assert all(w.isidentifier() for w in words)


def test_every_builtin_has_a_signature_and_a_doc() -> None:
    for name, b in BUILTINS.items():
        assert b.signature.startswith(name + "(") and b.doc, name
        assert logic.builtin_hover(name) is not None


def test_dsl_positions_are_told_from_yaml_keys() -> None:
    lines = ["state:", "  winner: {type: player}", '  body: "x + y"', "  do: |", "    move a to b"]
    assert not logic.in_code(None, "f", lines, 2, 4)
    assert logic.in_code(None, "f", lines, 3, 11)
    assert logic.in_code(None, "f", lines, 5, 7)


def test_the_command_points_to_its_docs_and_needs_the_extra(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulewright.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["lsp", "--help"])
    assert exc.value.code == 0 and "docs/editor.md" in capsys.readouterr().out
    monkeypatch.setitem(sys.modules, "pygls", None)  # as if it were not installed
    assert main(["lsp"]) == 2
    assert "pip install 'rulewright[lsp]'" in capsys.readouterr().err


def test_a_link_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "secret.yaml"
    outside.write_text("game: s\n")
    spec = tmp_path / "spec"
    spec.mkdir()
    (spec / "rules.yaml").symlink_to(outside)
    assert logic.read_text(spec / "rules.yaml") is None
    assert logic.spec_folder(spec / "rules.yaml", {}) is None


def test_the_name_index_of_a_spec() -> None:
    from compiler.driver import compile_spec
    from compiler.index import build_index

    result = compile_spec(SPEC, render=False, scenarios=[], names=True)
    assert result.symbols is not None and result.annotations is not None

    def text_of(name: str) -> list[str] | None:
        text = logic.read_text(logic.span_path(name))
        return None if text is None else text.split("\n")

    index = build_index(result.symbols, result.annotations, text_of)
    kinds = {d.kind for d in index.declarations.values()}
    assert {"state variable", "zone", "function", "procedure", "phase", "enum", "enum value"} <= kinds
    assert {"component type", "component", "player", "parameter", "local", "invariant"} <= kinds
    hand = index.declarations["hand"]
    assert (hand.type, hand.doc) == (
        "pile of card per player, owner",
        "a player's card, seen by that player alone",
    )
    # every span covers its name alone, where the text has it
    for d in index.declarations.values():
        line = (text_of(d.span.file) or [""])[d.span.line - 1]
        assert line[d.span.col - 1 : d.span.end_col - 1] == d.name, d
    for u in index.uses:
        line = (text_of(u.span.file) or [""])[u.span.line - 1]
        name = (
            u.key.removeprefix("builtin:") if u.key.startswith("builtin:") else index.declarations[u.key].name
        )
        assert line[u.span.col - 1 : u.span.end_col - 1] == name, u
    # `of: card` in the zones is a use of the component type
    assert len([u for u in index.uses_of("card") if u.span.file.endswith("game.yaml")]) >= 3
