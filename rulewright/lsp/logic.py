"""What the language server knows, apart from the protocol: which spec a file belongs to,
positions (LSP's UTF-16 columns) <-> spans (1-based characters), and the text of hovers and
completions. Pure functions, tested without a server (tests/test_lsp.py)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from compiler.builtins import BUILTINS
from compiler.grammar_tables import GRAMMAR
from compiler.index import Declaration, NameIndex
from compiler.limits import MAX_FILE_BYTES
from compiler.load import display_path
from compiler.source import SourceError, is_link, read_bytes

_GAME_KEY = re.compile(r"^game\s*:", re.MULTILINE)
_WORD_BEFORE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
_WORD_AFTER = re.compile(r"^[A-Za-z0-9_]*")
# a `key:` line: what follows it on the line (or in the block under it) is taken for DSL code
_CODE_KEY = re.compile(r"^\s*(?:-\s+)?[a-z_]+\s*:\s*[|>\"']?")
MAX_SPEC_FILES = 200  # yaml files looked at when telling whether a folder is a spec


def read_text(path: Path) -> str | None:
    """A file's text as the compiler would read it (bounded, and not through a symbolic link),
    or None."""
    if is_link(path):
        return None
    try:
        return read_bytes(path, MAX_FILE_BYTES).decode("utf-8", errors="replace")
    except (SourceError, OSError, ValueError):
        return None


def spec_folder(path: Path, open_texts: Mapping[Path, str]) -> Path | None:
    """The spec folder a YAML file belongs to: its own folder (or, for a scenario, the folder
    above its scenarios/) when a .yaml there declares `game:`; None otherwise."""
    if path.suffix != ".yaml":
        return None
    folder = path.parent
    if folder.name == "scenarios":
        folder = folder.parent
    try:
        candidates = sorted(folder.glob("*.yaml"))[:MAX_SPEC_FILES]
    except OSError:
        return None
    for file in candidates:
        text = open_texts.get(file)
        if text is None:
            text = read_text(file)
        if text is not None and _GAME_KEY.search(text):
            return folder
    return None


def span_file(path: Path) -> str:
    """A file's name as the compiler's spans give it (compiler/load.py)."""
    return display_path(path)


def span_path(name: str) -> Path:
    """The file a span names (relative to the current folder, or absolute)."""
    p = Path(name)
    return p if p.is_absolute() else Path.cwd().resolve() / p


# ---- positions ---------------------------------------------------------------------------------


def utf16_col(line: str, col: int) -> int:
    """The LSP character offset (UTF-16 code units, 0-based) of 1-based character column `col`."""
    before = line[: max(0, col - 1)]
    return len(before) + sum(1 for ch in before if ord(ch) > 0xFFFF)


def char_col(line: str, character: int) -> int:
    """The 1-based character column of an LSP character offset (UTF-16 code units)."""
    units = 0
    for i, ch in enumerate(line):
        if units >= character:
            return i + 1
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(line) + 1


def line_of(lines: list[str], line: int) -> str:
    """Line `line` (1-based) of a text, or "" past its end."""
    return lines[line - 1] if 1 <= line <= len(lines) else ""


def word_at(line: str, col: int) -> tuple[str, int]:
    """The identifier under 1-based column `col` (or just before it) and its first column."""
    before = _WORD_BEFORE.search(line[: col - 1])
    after = _WORD_AFTER.match(line[col - 1 :])
    start = before.start() + 1 if before else col
    return (before.group() if before else "") + (after.group() if after else ""), start


def prefix_at(line: str, col: int) -> str:
    """The part of an identifier before 1-based column `col` (what completion completes)."""
    m = _WORD_BEFORE.search(line[: col - 1])
    return m.group() if m else ""


def in_code(index: NameIndex | None, file: str, lines: list[str], line: int, col: int) -> bool:
    """Whether a position is in a DSL string: inside code the last check found, or on a line of
    a value or a block (not a YAML key being written)."""
    if index is not None and index.in_code(file, line, col):
        return True
    text = line_of(lines, line)
    m = _CODE_KEY.match(text)
    if m is not None:
        return col - 1 >= m.end()
    # a line of a block scalar: indented, and not a `key:` of its own
    return bool(text[: col - 1].strip()) and not re.match(
        r"^\s*(?:-\s+)?[A-Za-z_][A-Za-z0-9_]*\s*:(\s|$)", text
    )


# ---- hover and completion ----------------------------------------------------------------------


def hover_text(decl: Declaration) -> str:
    """Markdown: the declaration's kind, name and type, its doc, and where it is declared."""
    head = f"({decl.kind}) {decl.name}" + (
        f": {decl.type}" if decl.type and not decl.type.startswith("(") else decl.type
    )
    parts = [f"```\n{head}\n```"]
    if decl.doc:
        parts.append(decl.doc)
    parts.append(f"declared at {decl.span}")
    return "\n\n".join(parts)


def builtin_hover(name: str) -> str | None:
    b = BUILTINS.get(name)
    if b is None:
        return None
    return f"```\n(builtin) {b.signature}\n```\n\n{b.doc}"


@cache
def keywords() -> tuple[str, ...]:
    """The keywords of the rules language: the words its grammar writes as literal strings, and
    those of its word terminals (`AGG.2: /(sum|min|max)\\b/`)."""
    text = GRAMMAR.read_text(encoding="utf-8")
    words = set(re.findall(r'"([a-z_]+)"', text))
    for alternatives in re.findall(r"^[A-Z_]+(?:\.\d+)?:\s*/\(?([a-z_|]+)\)?\\b/", text, re.MULTILINE):
        words.update(alternatives.split("|"))
    return tuple(sorted(words))


# the completion kinds (CompletionItemKind numbers of the LSP) of the kinds of declarations
COMPLETION_KINDS = {
    "state variable": 6,  # Variable
    "zone": 6,
    "function": 3,  # Function
    "procedure": 3,
    "window": 3,
    "event": 23,  # Event
    "modifier": 3,
    "phase": 9,  # Module
    "trigger": 23,
    "component type": 7,  # Class
    "component": 20,  # EnumMember
    "enum": 13,  # Enum
    "enum value": 20,
    "constant": 21,  # Constant
    "option": 21,
    "player": 20,
    "parameter": 6,
    "local": 6,
    "invariant": 21,
}


def completions(
    index: NameIndex | None, prefix: str, in_scope: list[Declaration]
) -> list[tuple[str, int, str, str]]:
    """Names to offer for `prefix` in DSL code: (label, CompletionItemKind, detail, doc), the
    parameters and locals in scope first, then the spec's global names, the builtins and the keywords."""
    out: list[tuple[str, int, str, str]] = []
    seen: set[str] = set()

    def offer(label: str, kind: int, detail: str, doc: str) -> None:
        if label.startswith(prefix) and label not in seen:
            seen.add(label)
            out.append((label, kind, detail, doc))

    for p in reversed(in_scope):  # (the local declared last hides one of the same name)
        offer(p.name, 6, f"{p.kind}: {p.type}", p.doc)
    if index is not None:
        for d in index.declarations.values():
            if d.kind not in ("parameter", "local", "trigger", "invariant") and not d.key.startswith(
                "phase:"
            ):
                offer(
                    d.name,
                    COMPLETION_KINDS.get(d.kind, 6),
                    f"{d.kind}: {d.type}" if d.type else d.kind,
                    d.doc,
                )
        for name in ("players", "num_players"):
            offer(name, 6, "list[player]" if name == "players" else "int", "")
    for b in BUILTINS.values():
        offer(b.name, 3, b.signature, b.doc)
    for k in keywords():
        offer(k, 14, "keyword", "")
    return out
