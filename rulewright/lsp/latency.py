"""How long a keystroke takes to be checked: `python -m rulewright.lsp.latency FILE [--edits N]`.

Starts `rulewright lsp`, opens FILE (a YAML file of a spec folder), and makes N edits of one
character in its DSL code, each one misspelling a name (so the check finds an error) or undoing
that (so it clears it). For each it times didChange -> the first publishDiagnostics of FILE
(the check of the rule files, debounce included) and -> the second (with the scenarios), then
prints the median and the worst. Nothing is written to disk: the edits are in the buffer.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from pathlib import Path

from compiler.driver import compile_spec
from compiler.index import build_index
from rulewright.lsp import logic
from rulewright.lsp.client import Session


def _edit_points(path: Path, count: int) -> list[tuple[int, int, str]]:
    """Up to `count` uses of global names in the file, spread through it: (line, col, name)."""
    folder = logic.spec_folder(path, {})
    if folder is None:
        raise SystemExit(f"{path}: not a file of a spec folder")
    result = compile_spec(folder, render=False, scenarios=[], names=True)
    if result.symbols is None or result.annotations is None or not result.ok:
        raise SystemExit(f"{folder}: the spec does not check cleanly")

    def text_of(name: str) -> list[str] | None:
        text = logic.read_text(logic.span_path(name))
        return None if text is None else text.split("\n")

    index = build_index(result.symbols, result.annotations, text_of)
    name = logic.span_file(path)
    uses = [
        u
        for u in index.uses
        if u.span.file == name
        and u.key in index.declarations
        and index.declarations[u.key].kind in ("state variable", "zone", "function", "procedure")
    ]
    if not uses:
        raise SystemExit(f"{path}: no name of the spec is used in its code")
    step = max(1, len(uses) // count)
    picked = uses[::step][:count]
    return [(u.span.line, u.span.end_col, index.declarations[u.key].name) for u in picked]


async def _measure(path: Path, edits: int) -> tuple[list[float], list[float]]:
    points = _edit_points(path, (edits + 1) // 2)
    s = Session()
    await s.start(Path.cwd())
    rules: list[float] = []
    full: list[float] = []
    try:
        text = path.read_text(encoding="utf-8")
        uri = s.open(path, text)
        await asyncio.sleep(0.5)
        # the first check: wait until a hover answers (the index is there)
        from lsprotocol import types

        line, col, _ = points[0]
        line_text = text.split("\n")[line - 1]
        for _ in range(600):
            got = await s.client.text_document_hover_async(
                types.HoverParams(
                    text_document=types.TextDocumentIdentifier(uri),
                    position=types.Position(line - 1, logic.utf16_col(line_text, col - 1)),
                )
            )
            if got is not None:
                break
            await asyncio.sleep(0.1)
        lines = text.split("\n")
        for k in range(edits):
            line, col, _ = points[(k // 2) % len(points)]
            at = logic.utf16_col(lines[line - 1], col)
            if k % 2 == 0:  # misspell: `name` -> `namex`
                lines[line - 1] = lines[line - 1][: col - 1] + "x" + lines[line - 1][col - 1 :]
            else:
                lines[line - 1] = lines[line - 1][: col - 1] + lines[line - 1][col:]
            t0 = time.perf_counter()
            if k % 2 == 0:
                s.edit(uri, line - 1, at, "x")
            else:
                s.change(uri, "\n".join(lines))
            # the first publication after the change: the rule files; then, for an error, the
            # same error found again by the check with the scenarios
            times = await _arrivals(s, uri, t0, 2 if k % 2 == 0 else 1)
            rules.append(times[0] - t0)
            if len(times) > 1:
                full.append(times[1] - t0)
    finally:
        await s.stop()
    return rules, full


async def _arrivals(s: Session, uri: str, since: float, count: int, timeout: float = 60.0) -> list[float]:
    """When the first `count` diagnostics of `uri` published after `since` arrived."""

    def arrived() -> list[float]:
        return [t for t, u in s.arrivals if u == uri and t >= since]

    async with s.published:
        await asyncio.wait_for(s.published.wait_for(lambda: len(arrived()) >= count), timeout)
    return arrived()[:count]


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m rulewright.lsp.latency", description=__doc__.split("\n")[0])
    p.add_argument("file", type=Path, help="a YAML file of a spec folder")
    p.add_argument("--edits", type=int, default=20, help="how many edits (default 20)")
    args = p.parse_args()
    rules, full = asyncio.run(_measure(args.file.resolve(), max(2, args.edits)))
    for what, times in (("rules checked", rules), ("with scenarios", full)):
        ms = sorted(t * 1000 for t in times)
        print(f"{what:>15}: median {statistics.median(ms):.0f} ms, worst {ms[-1]:.0f} ms ({len(ms)} edits)")


if __name__ == "__main__":
    main()
