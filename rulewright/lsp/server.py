"""`rulewright lsp`: a language server over stdio (pygls) for spec folders (docs/editor.md).

Each YAML document opened belongs to its spec folder (rulewright/lsp/logic.py); after a change
(debounced) the folder is checked with the open buffers in place of the files, in one worker
thread, and the diagnostics of each of its files are published. A check of the rule files
alone comes first and its diagnostics are published at once; one with the scenarios follows
once the user has paused (a newer change makes both give way). Hover, definition, references, completion and document
symbols read the name index (compiler/index.py) of the last check that found no error (or the
last one, until one does).
"""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types
from pygls import uris
from pygls.lsp.server import LanguageServer

from compiler import __version__, parse
from compiler.builtins import BUILTINS
from compiler.diagnostics import Diagnostic
from compiler.driver import Result, compile_spec
from compiler.index import Declaration, NameIndex, build_index
from compiler.ir import Span
from compiler.load import spec_files
from rulewright.lsp import logic

DEBOUNCE_SECONDS = 0.2  # after the last change, the rule files are checked
SCENARIOS_DELAY_SECONDS = 0.6  # and after this much more without a change, the scenarios too


@dataclass
class _Checked:
    """One check of a folder: its result, and the texts it read (the index's spans point there)."""

    result: Result
    texts: dict[Path, str]
    index: NameIndex | None = None


@dataclass
class _Folder:
    """What the server holds for one spec folder."""

    path: Path
    generation: int = 0  # bumped by each change: a check of an older one is not published
    pending: asyncio.Task[None] | None = None
    published: set[str] = field(default_factory=set)  # URIs with diagnostics shown
    good: _Checked | None = None  # the last check without errors
    last: _Checked | None = None  # the last check that got as far as the names


class RulewrightServer(LanguageServer):
    """The language server: one per editor session."""

    def __init__(self) -> None:
        super().__init__("rulewright", __version__)
        self.folders: dict[Path, _Folder] = {}
        # one thread checks, one folder at a time (the parser's cache is shared)
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rulewright-check")

    # ---- documents and folders ------------------------------------------------------------------
    def open_texts(self) -> dict[Path, str]:
        out: dict[Path, str] = {}
        for doc in list(self.workspace.text_documents.values()):
            path = _path_of(doc.uri)
            if path is not None and path.suffix == ".yaml":
                out[path] = doc.source
        return out

    def folder_of(self, uri: str) -> _Folder | None:
        path = _path_of(uri)
        if path is None:
            return None
        for known in (path.parent, path.parent.parent):
            if known in self.folders and _inside(path, known):
                return self.folders[known]  # still, while its `game:` is being edited
        folder = logic.spec_folder(path, self.open_texts())
        if folder is None:
            return None
        if folder not in self.folders:
            self.folders[folder] = _Folder(folder)
        return self.folders[folder]

    def lines_of(self, path: Path, texts: dict[Path, str] | None = None) -> list[str]:
        text = (texts or {}).get(path)
        if text is None:
            text = self.open_texts().get(path)
        if text is None:
            text = logic.read_text(path) or ""
        return text.split("\n")

    # ---- checking -------------------------------------------------------------------------------
    def changed(self, uri: str, delay: float = DEBOUNCE_SECONDS) -> None:
        folder = self.folder_of(uri)
        if folder is None:
            return
        folder.generation += 1
        if folder.pending is not None and not folder.pending.done():
            folder.pending.cancel()
        path = _path_of(uri)
        in_scenarios = path is not None and path.parent.name == "scenarios"
        folder.pending = asyncio.get_running_loop().create_task(
            self.check(folder, folder.generation, delay, rules_first=not in_scenarios)
        )

    async def check(self, folder: _Folder, generation: int, delay: float, *, rules_first: bool) -> None:
        try:
            await self._check(folder, generation, delay, rules_first=rules_first)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # an internal error: said, and the next change checks again
            message = f"rulewright: checking {folder.path} failed: {type(exc).__name__}: {exc}"
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=message))

    async def _check(self, folder: _Folder, generation: int, delay: float, *, rules_first: bool) -> None:
        await asyncio.sleep(delay)
        loop = asyncio.get_running_loop()
        texts = {p: t for p, t in self.open_texts().items() if _inside(p, folder.path)}
        has_scenarios = bool(spec_files(folder.path)[1])
        if rules_first and has_scenarios:
            result = await loop.run_in_executor(self.worker, _check, folder.path, texts, [])
            if generation != folder.generation:
                return
            self.publish(folder, _Checked(result, texts), scenarios_too=False)
            await asyncio.sleep(SCENARIOS_DELAY_SECONDS)  # not while the user is typing
            if generation != folder.generation:
                return
        result = await loop.run_in_executor(self.worker, _check, folder.path, texts, None)
        if generation != folder.generation:
            return
        self.publish(folder, _Checked(result, texts), scenarios_too=True)

    def publish(self, folder: _Folder, checked: _Checked, *, scenarios_too: bool) -> None:
        result = checked.result
        if result.symbols is not None and result.annotations is not None:
            folder.last = checked
            if result.ok:
                folder.good = checked
        by_uri: dict[str, list[types.Diagnostic]] = {}
        lines: dict[Path, list[str]] = {}
        for d in result.diagnostics:
            path = logic.span_path(d.span.file)
            if path not in lines:
                lines[path] = self.lines_of(path, checked.texts)
            by_uri.setdefault(uris.from_fs_path(str(path)) or str(path), []).append(
                _diagnostic(d, lines[path])
            )
        for uri in sorted(folder.published - set(by_uri)):
            where = _path_of(uri)
            if scenarios_too or where is None or where.parent.name != "scenarios":
                by_uri[uri] = []  # (a check of the rules alone says nothing of the scenarios)
        for uri, diagnostics in by_uri.items():
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics)
            )
            if diagnostics:
                folder.published.add(uri)
            else:
                folder.published.discard(uri)

    # ---- names ----------------------------------------------------------------------------------
    def index_for(self, uri: str) -> tuple[_Folder, _Checked, NameIndex] | None:
        folder = self.folder_of(uri)
        if folder is None:
            return None
        checked = folder.good or folder.last
        if checked is None:
            return None
        if checked.index is None:
            sym, ann = checked.result.symbols, checked.result.annotations
            assert sym is not None and ann is not None
            texts = checked.texts

            def text_of(name: str) -> list[str] | None:
                path = logic.span_path(name)
                text = texts.get(path)
                if text is None:
                    text = logic.read_text(path)
                return None if text is None else text.split("\n")

            checked.index = build_index(sym, ann, text_of)
        return folder, checked, checked.index

    def name_at(self, uri: str, position: types.Position) -> tuple[NameIndex, str, types.Range] | None:
        """The declaration key of the name at a position, and its range. Where the line has
        changed since the index was made, by the word there alone (a global name or a builtin)."""
        found = self.index_for(uri)
        path = _path_of(uri)
        if found is None or path is None:
            return None
        _, checked, index = found
        lines = self.lines_of(path)
        text = logic.line_of(lines, position.line + 1)
        col = logic.char_col(text, position.character)
        if text == logic.line_of(self.lines_of(path, checked.texts), position.line + 1):
            hit = index.at(logic.span_file(path), position.line + 1, col)
            if hit is not None:
                return index, hit[0], _range(hit[1], lines)
            return None
        word, start = logic.word_at(text, col)
        key = word if word in index.declarations else "builtin:" + word if word in BUILTINS else ""
        if not key:
            return None
        span = Span(logic.span_file(path), position.line + 1, start, position.line + 1, start + len(word))
        return index, key, _range(span, lines)


def _check(folder: Path, texts: dict[Path, str], scenarios: list[Path] | None) -> Result:
    return compile_spec(folder, render=False, scenarios=scenarios, overlay=texts, names=True)


def _path_of(uri: str) -> Path | None:
    if not uri.startswith("file:"):
        return None
    fs = uris.to_fs_path(uri)
    if fs is None:
        return None
    try:
        return Path(os.path.realpath(fs))
    except (OSError, ValueError):
        return None


def _inside(path: Path, folder: Path) -> bool:
    return path.parent == folder or (path.parent.name == "scenarios" and path.parent.parent == folder)


def _range(span: Span, lines: list[str]) -> types.Range:
    start_line = max(0, span.line - 1)
    end_line, end_col = (span.end_line, span.end_col)
    if (end_line, end_col) <= (span.line, span.col):
        end_line, end_col = span.line, span.col + 1
    start = types.Position(start_line, logic.utf16_col(logic.line_of(lines, span.line), span.col))
    end = types.Position(max(0, end_line - 1), logic.utf16_col(logic.line_of(lines, end_line), end_col))
    return types.Range(start, end)


def _diagnostic(d: Diagnostic, lines: list[str]) -> types.Diagnostic:
    message = d.message if not d.notes else d.message + "\n" + "\n".join(f"note: {n}" for n in d.notes)
    severity = types.DiagnosticSeverity.Error if d.severity == "error" else types.DiagnosticSeverity.Warning
    return types.Diagnostic(
        range=_range(d.span, lines), message=message, severity=severity, code=str(d.code), source="rulewright"
    )


def _location(span: Span, server: RulewrightServer, checked: _Checked) -> types.Location:
    path = logic.span_path(span.file)
    return types.Location(
        uri=uris.from_fs_path(str(path)) or str(path),
        range=_range(span, server.lines_of(path, checked.texts)),
    )


_SYMBOL_KINDS = {
    "state variable": types.SymbolKind.Variable,
    "zone": types.SymbolKind.Array,
    "function": types.SymbolKind.Function,
    "procedure": types.SymbolKind.Method,
    "window": types.SymbolKind.Method,
    "event": types.SymbolKind.Event,
    "modifier": types.SymbolKind.Operator,
    "phase": types.SymbolKind.Module,
    "trigger": types.SymbolKind.Event,
    "component type": types.SymbolKind.Class,
    "component": types.SymbolKind.Object,
    "enum": types.SymbolKind.Enum,
    "enum value": types.SymbolKind.EnumMember,
    "constant": types.SymbolKind.Constant,
    "option": types.SymbolKind.Property,
    "player": types.SymbolKind.Object,
    "parameter": types.SymbolKind.TypeParameter,
    "local": types.SymbolKind.Variable,
    "invariant": types.SymbolKind.Boolean,
}


def make_server() -> RulewrightServer:
    """A server with every feature registered."""
    server = RulewrightServer()
    parse.keep_between_specs()  # the same texts are parsed again after each keystroke

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RulewrightServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.changed(params.text_document.uri, delay=0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RulewrightServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.changed(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: RulewrightServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.changed(params.text_document.uri, delay=0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulewrightServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.changed(params.text_document.uri, delay=0)  # checked as it is on disk

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: RulewrightServer, params: types.HoverParams) -> types.Hover | None:
        found = ls.name_at(params.text_document.uri, params.position)
        if found is None:
            return None
        index, key, where = found
        if key.startswith("builtin:"):
            text = logic.builtin_hover(key[len("builtin:") :])
        else:
            decl = index.declarations.get(key)
            text = logic.hover_text(decl) if decl is not None else None
        if text is None:
            return None
        return types.Hover(
            contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text), range=where
        )

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: RulewrightServer, params: types.DefinitionParams) -> types.Location | None:
        found = ls.name_at(params.text_document.uri, params.position)
        checked = ls.index_for(params.text_document.uri)
        if found is None or checked is None:
            return None
        index, key, _ = found
        decl = index.declarations.get(key)
        return _location(decl.span, ls, checked[1]) if decl is not None else None

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    def references(ls: RulewrightServer, params: types.ReferenceParams) -> list[types.Location] | None:
        found = ls.name_at(params.text_document.uri, params.position)
        checked = ls.index_for(params.text_document.uri)
        if found is None or checked is None:
            return None
        index, key, _ = found
        spans = [u.span for u in index.uses_of(key)]
        decl = index.declarations.get(key)
        if decl is not None and params.context.include_declaration:
            spans.insert(0, decl.span)
        return [_location(s, ls, checked[1]) for s in spans]

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbols(
        ls: RulewrightServer, params: types.DocumentSymbolParams
    ) -> list[types.DocumentSymbol]:
        path = _path_of(params.text_document.uri)
        found = ls.index_for(params.text_document.uri)
        if found is None or path is None:
            return []
        _, checked, index = found
        lines = ls.lines_of(path, checked.texts)
        out = []
        for decl in index.in_file(logic.span_file(path)):
            if decl.kind in ("parameter", "local"):
                continue
            where = _range(decl.span, lines)
            out.append(
                types.DocumentSymbol(
                    name=decl.name,
                    kind=_SYMBOL_KINDS.get(decl.kind, types.SymbolKind.Variable),
                    range=where,
                    selection_range=where,
                    detail=f"{decl.kind}: {decl.type}" if decl.type else decl.kind,
                )
            )
        return out

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=["(", "[", " "])
    )
    def completion(ls: RulewrightServer, params: types.CompletionParams) -> types.CompletionList:
        empty = types.CompletionList(is_incomplete=False, items=[])
        path = _path_of(params.text_document.uri)
        if path is None or ls.folder_of(params.text_document.uri) is None:
            return empty
        found = ls.index_for(params.text_document.uri)
        index = found[2] if found is not None else None
        lines = ls.lines_of(path)
        text = logic.line_of(lines, params.position.line + 1)
        col = logic.char_col(text, params.position.character)
        if not logic.in_code(index, logic.span_file(path), lines, params.position.line + 1, col):
            return empty
        params_in_scope = _in_scope(index, logic.span_file(path), params.position.line + 1, col)
        items = [
            types.CompletionItem(
                label=label,
                kind=types.CompletionItemKind(kind),
                detail=detail,
                documentation=doc or None,
            )
            for label, kind, detail, doc in logic.completions(
                index, logic.prefix_at(text, col), params_in_scope
            )
        ]
        return types.CompletionList(is_incomplete=False, items=items)

    return server


def _in_scope(index: NameIndex | None, file: str, line: int, col: int) -> list[Declaration]:
    """The parameters of the entry declared last above `line` and the locals declared before the
    position in its DSL string (a cheap guess at the scope, from the last check)."""
    if index is None:
        return []
    decls = index.in_file(file)
    above = [d for d in decls if d.span.line <= line and d.kind not in ("parameter", "local")]
    out = []
    if above:
        unit = above[-1].name
        out = [d for d in index.declarations.values() if d.key.startswith(f"param:{unit}:")]
    code = next(
        (
            s
            for s in index.code
            if s.file == file and (s.line, s.col) <= (line, col) <= (s.end_line, s.end_col)
        ),
        None,
    )
    if code is not None:
        out += [
            d
            for d in decls
            if d.kind == "local" and (code.line, code.col) <= (d.span.line, d.span.col) < (line, col)
        ]
    return out


def main() -> None:
    make_server().start_io()
