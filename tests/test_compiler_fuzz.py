"""Bad spec input never gives a traceback: Hypothesis mutates the real specs (characters, tokens,
lines) and the compiler must always return diagnostics, never raise."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.driver import compile_spec, spec_folders
from tests.conftest import ROOT

FILES = [(folder, f) for folder in spec_folders(ROOT) for f in sorted(folder.glob("*.yaml"))]
TOKENS = [
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ":",
    ",",
    "-",
    '"',
    "'",
    "|",
    "#",
    "let",
    "if",
    "choose",
    "by",
    "none",
    "true",
    "1",
    "x",
    "cubes",
    "map",
    "usa",
    "card",
    "  ",
    "\n",
    "\t",
    "for",
    "in",
    "where",
    "do",
    "end game",
    "emit",
    "add",
    "until end of",
    "secretly",
    "->",
    "==",
    "+",
    "//",
]


@st.composite
def mutation(draw: st.DrawFn) -> tuple[int, str, int, int, str]:
    index = draw(st.integers(0, len(FILES) - 1))
    kind = draw(st.sampled_from(["delete", "insert", "replace_word", "drop_line", "dup_line"]))
    pos = draw(st.integers(0, 10**6))
    length = draw(st.integers(1, 12))
    token = draw(st.sampled_from(TOKENS))
    return index, kind, pos, length, token


def mutate(text: str, kind: str, pos: int, length: int, token: str) -> str:
    pos %= max(1, len(text))
    if kind == "delete":
        return text[:pos] + text[pos + length :]
    if kind == "insert":
        return text[:pos] + token + text[pos:]
    if kind == "replace_word":
        words = list(re.finditer(r"[a-z_]+", text))
        if not words:
            return text
        w = words[pos % len(words)]
        return text[: w.start()] + token + text[w.end() :]
    lines = text.split("\n")
    i = pos % len(lines)
    if kind == "drop_line":
        return "\n".join(lines[:i] + lines[i + 1 :])
    return "\n".join(lines[: i + 1] + lines[i:])


@pytest.mark.skipif(not FILES, reason="no specs")
@settings(max_examples=60)
@given(muts=st.lists(mutation(), min_size=1, max_size=3))
def test_mutated_specs_give_diagnostics_not_tracebacks(
    muts: list[tuple[int, str, int, int, str]], tmp_path_factory: pytest.TempPathFactory
) -> None:
    work = tmp_path_factory.mktemp("fuzz")
    folder = FILES[muts[0][0]][0]
    # without its scenarios: they are not mutated, and compiling them is most of a big spec's time
    shutil.copytree(folder, work / folder.name, ignore=shutil.ignore_patterns("scenarios"))
    target = work / folder.name
    for index, kind, pos, length, token in muts:
        path = target / FILES[index][1].name if FILES[index][0] == folder else target / FILES[0][1].name
        if path.exists():
            path.write_text(
                mutate(path.read_text(encoding="utf-8"), kind, pos, length, token), encoding="utf-8"
            )
    result = compile_spec(Path(target))  # must not raise
    for d in result.diagnostics:
        assert d.span.line >= 1 and d.span.col >= 1, d
    if result.ok:  # a spec that checks clean compiles to valid Python
        compile(result.files["engine.py"], "engine.py", "exec")
