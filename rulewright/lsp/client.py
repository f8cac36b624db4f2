"""A small LSP client session over stdio with `rulewright lsp`, for the tests and latency.py:
start the server, open documents, change them, and wait for what it publishes."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

from lsprotocol import types
from pygls import uris
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parents[2]  # the checkout: the server imports this code


class Session:
    """A running server and what it has published, by URI (the latest diagnostics of each)."""

    def __init__(self) -> None:
        self.client = LanguageClient("rulewright-test", "1")
        self.diagnostics: dict[str, list[types.Diagnostic]] = {}
        self.published = asyncio.Condition()
        self.versions: dict[str, int] = {}
        self.arrivals: list[tuple[float, str]] = []  # when diagnostics of each URI arrived

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)  # type: ignore[untyped-decorator]
        async def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
            async with self.published:
                self.arrivals.append((time.perf_counter(), params.uri))
                self.diagnostics[params.uri] = list(params.diagnostics)
                self.published.notify_all()

    async def start(self, cwd: Path) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
        await self.client.start_io(sys.executable, "-m", "rulewright", "lsp", cwd=str(cwd), env=env)
        await self.client.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(), root_uri=uris.from_fs_path(str(cwd))
            )
        )
        self.client.initialized(types.InitializedParams())

    async def stop(self) -> int | None:
        """Shut the server down as an editor does; its exit code."""
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()  # type: ignore[no-untyped-call]
        server = self.client._server  # pygls keeps the process here
        return server.returncode if server is not None else None

    def open(self, path: Path, text: str | None = None) -> str:
        uri = uris.from_fs_path(str(path.resolve())) or ""
        self.versions[uri] = 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri,
                    language_id="yaml",
                    version=1,
                    text=path.read_text(encoding="utf-8") if text is None else text,
                )
            )
        )
        return uri

    def change(self, uri: str, text: str) -> None:
        """Replace the whole text of an open document."""
        self.versions[uri] += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    def edit(self, uri: str, line: int, character: int, text: str) -> None:
        """Insert `text` at a position (0-based, UTF-16), as a keystroke does."""
        self.versions[uri] += 1
        at = types.Position(line, character)
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[
                    types.TextDocumentContentChangePartial(range=types.Range(start=at, end=at), text=text)
                ],
            )
        )

    async def wait_for(
        self, uri: str, have_errors: bool, timeout: float = 30.0, *, code: str = ""
    ) -> list[types.Diagnostic]:
        """The next diagnostics of `uri` published with errors (with `code`: one of that code),
        or with none."""

        def arrived() -> bool:
            got = self.diagnostics.get(uri)
            if got is None or bool(got) != have_errors:
                return False
            return not code or any(d.code == code for d in got)

        async with self.published:
            self.diagnostics.pop(uri, None)
            await asyncio.wait_for(self.published.wait_for(arrived), timeout)
            return self.diagnostics[uri]
