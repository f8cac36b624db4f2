"""Load: a spec folder's YAML files -> an ir.Game, keeping every position.

YAML positions come from `yaml.compose` node marks; each DSL string is handed to parse.py with a
SourceMap so that errors inside it point at the real line and column of the YAML file.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from compiler import errorcodes as codes
from compiler import ir, messages, parse, yaml_compose, yaml_errors
from compiler.diagnostics import Sink, close_match, did_you_mean
from compiler.ir import Span
from compiler.limits import (
    DEFAULT_STEP_BUDGET,
    MAX_COPIES,
    MAX_FILE_BYTES,
    MAX_GRID_RADIUS,
    MAX_INT_DIGITS,
    MAX_NUMBER,
    MAX_SPEC_BYTES,
    MAX_STEP_BUDGET,
)
from compiler.load_board import read_board
from compiler.resolve import NAME_RE, plain_name
from compiler.source import Folder, SourceError, decode, is_folder, is_link, read_bytes
from compiler.sourcemap import SourceMap

# ---- source maps for DSL strings ---------------------------------------------------------------


def node_span(file: str, node: Node) -> Span:
    s, e = node.start_mark, node.end_mark
    return Span(file, s.line + 1, s.column + 1, e.line + 1, e.column + 1)


def source_map(file: str, node: ScalarNode, raw_lines: list[str]) -> SourceMap:
    """Rebuild the DSL text of a scalar from the raw file so offsets map back exactly."""
    s, e = node.start_mark, node.end_mark
    style = node.style
    if style in ("|", ">"):
        body = raw_lines[s.line + 1 : e.line + 1]
        if e.column == 0 and e.line < len(raw_lines):
            body = raw_lines[s.line + 1 : e.line]
        indent = min((len(x) - len(x.lstrip(" ")) for x in body if x.strip()), default=0)
        lines = [(s.line + 2 + i, indent + 1) for i in range(len(body))]
        text = "\n".join(x[indent:] for x in body)
        return SourceMap(file, text, tuple(lines) or ((s.line + 1, s.column + 1),))
    quote = 1 if style in ('"', "'") else 0
    if quote and s.line == e.line and s.line < len(raw_lines):
        # on one line and without escapes, each character sits one column after the last
        raw = raw_lines[s.line][s.column + 1 : e.column - 1]
        if raw == node.value:
            return SourceMap(file, raw, ((s.line + 1, s.column + 2),))
    if quote:
        chars = _quoted_chars(node, raw_lines)
        if chars is not None:
            starts = [0]
            for part in node.value.split("\n")[:-1]:
                starts.append(starts[-1] + len(part) + 1)
            return SourceMap(file, node.value, ((s.line + 1, s.column + 2),), chars, tuple(starts))
    if s.line == e.line:
        raw = raw_lines[s.line][s.column + quote : e.column - quote] if s.line < len(raw_lines) else ""
        if raw == node.value:
            return SourceMap(file, raw, ((s.line + 1, s.column + 1 + quote),))
        return SourceMap(file, node.value, ((s.line + 1, s.column + 1 + quote),))
    # a multi-line flow scalar: keep the raw line breaks (the DSL treats them as spaces)
    segs: list[str] = []
    lines2: list[tuple[int, int]] = []
    for ln in range(s.line, e.line + 1):
        raw = raw_lines[ln] if ln < len(raw_lines) else ""
        if ln == s.line:
            start = s.column + quote
        else:
            start = len(raw) - len(raw.lstrip())
        end = e.column - quote if ln == e.line else len(raw)
        segs.append(raw[start:end])
        lines2.append((ln + 1, start + 1))
    if quote and "\\" in "".join(segs):
        return SourceMap(file, node.value, ((s.line + 1, s.column + 1 + quote),))
    return SourceMap(file, "\n".join(segs), tuple(lines2))


def _quoted_chars(node: ScalarNode, raw_lines: list[str]) -> tuple[tuple[int, int], ...] | None:
    """Replay YAML's unescaping and line folding of a quoted scalar, keeping each char's position."""
    s, e = node.start_mark, node.end_mark
    double = node.style == '"'
    out: list[str] = []
    pos: list[tuple[int, int]] = []
    line, col = s.line, s.column + 1
    end = (e.line, e.column - 1)
    pending_breaks = 0

    def raw(ln: int, c: int) -> str:
        text = raw_lines[ln] if ln < len(raw_lines) else ""
        return text[c] if c < len(text) else "\n"

    while (line, col) < end:
        ch = raw(line, col)
        if ch == "\n":
            while out and out[-1] in " \t" and pending_breaks == 0 and pos[-1][0] == line + 1:
                out.pop()
                pos.pop()
            pending_breaks += 1
            line, col = line + 1, 0
            text = raw_lines[line] if line < len(raw_lines) else ""
            col = len(text) - len(text.lstrip(" \t"))
            continue
        if pending_breaks:
            folded = " " if pending_breaks == 1 else "\n" * (pending_breaks - 1)
            for fch in folded:
                out.append(fch)
                pos.append((line + 1, col + 1))
            pending_breaks = 0
        if double and ch == "\\":
            nxt = raw(line, col + 1)
            if nxt == "\n":  # an escaped line break joins the lines
                line, col = line + 1, 0
                text = raw_lines[line] if line < len(raw_lines) else ""
                col = len(text) - len(text.lstrip(" \t"))
                continue
            width = {"x": 4, "u": 6, "U": 10}.get(nxt, 2)
            out.append("?")
            pos.append((line + 1, col + 1))
            col += width
            continue
        if not double and ch == "'" and raw(line, col + 1) == "'":
            out.append("'")
            pos.append((line + 1, col + 1))
            col += 2
            continue
        out.append(ch)
        pos.append((line + 1, col + 1))
        col += 1
    if len(out) != len(node.value):
        return None
    return tuple(pos)


# ---- the YAML reader ---------------------------------------------------------------------------

_RESOLVER = yaml.resolver.Resolver()
_CONVERTED_TAGS = frozenset(
    f"tag:yaml.org,2002:{kind}" for kind in ("int", "bool", "null", "float", "timestamp")
)


def _implicit_tag(value: str) -> str:
    """The tag YAML gives `value` written plain."""
    tag: str = _RESOLVER.resolve(ScalarNode, value, (True, False))  # type: ignore[no-untyped-call]
    return tag


class Reader:
    """Typed access to composed YAML nodes, reporting every problem to the sink."""

    def __init__(self, file: str, sink: Sink) -> None:
        self.file = file
        self.sink = sink
        self.raw_lines: list[str] = []
        self.failed = False  # the file could not be read or parsed

    def span(self, node: Node) -> Span:
        s, e = node.start_mark, node.end_mark  # node_span, without a call: a spec has thousands
        return Span(self.file, s.line + 1, s.column + 1, e.line + 1, e.column + 1)

    def mapping(self, node: Node, what: str) -> list[tuple[ScalarNode, Node]]:
        if not isinstance(node, MappingNode):
            self.sink.error(codes.WRONG_VALUE_TYPE, self.span(node), messages.must_be_mapping(what))
            return []
        out: list[tuple[ScalarNode, Node]] = []
        seen: dict[str, ScalarNode] = {}  # (its span is made only for a key written twice)
        for k, v in node.value:
            if not isinstance(k, ScalarNode):
                self.sink.error(codes.WRONG_VALUE_TYPE, self.span(k), messages.keys_must_be_names(what))
                continue
            if k.value in seen:
                self.sink.error(
                    codes.DUPLICATE_ID,
                    self.span(k),
                    messages.duplicate_key(k.value, what),
                    messages.first_defined_at(self.span(seen[k.value])),
                )
                continue
            seen[k.value] = k
            out.append((k, v))
        return out

    def keys(
        self, node: Node, what: str, allowed: tuple[str, ...], required: tuple[str, ...] = ()
    ) -> dict[str, Node]:
        items = self.mapping(node, what)
        written = {k.value for k, _ in items}
        out: dict[str, Node] = {}
        merged = False
        for k, v in items:
            if k.value == "<<":
                self.sink.error(
                    codes.UNKNOWN_KEY,
                    self.span(k),
                    messages.merge_key(what),
                    messages.MERGE_KEY_NOTE,
                )
                merged = True  # so the keys it would merge are not reported missing
                continue
            if k.value not in allowed:
                close = close_match(k.value, allowed)
                self.sink.error(
                    codes.UNKNOWN_KEY,
                    self.span(k),
                    messages.unknown_key(k.value, what, close),
                    messages.allowed_keys(allowed),
                )
                if close is not None and close not in written:
                    # read it as the key it misspells, so that the key is not reported missing
                    # and its value is checked like the rest
                    out[close] = v
                continue
            out[k.value] = v
        if isinstance(node, MappingNode) and not merged:
            for r in required:
                if r not in out:
                    self.sink.error(codes.MISSING_KEY, self.span(node), messages.needs_key(what, r))
        return out

    def seq(self, node: Node, what: str) -> list[Node]:
        if not isinstance(node, SequenceNode):
            self.sink.error(codes.WRONG_VALUE_TYPE, self.span(node), messages.must_be_list(what))
            return []
        return list(node.value)

    def scalar(self, node: Node, what: str) -> ScalarNode | None:
        if not isinstance(node, ScalarNode):
            self.sink.error(codes.WRONG_VALUE_TYPE, self.span(node), messages.must_be_single_value(what))
            return None
        return node

    def text(self, node: Node | None, what: str, default: str = "") -> str:
        if node is None:
            return default
        n = self.scalar(node, what)
        return n.value if n is not None else default

    def integer(self, node: Node | None, what: str, default: int = 0) -> int:
        if node is None:
            return default
        v = self.data(node)
        if isinstance(v, bool) or not isinstance(v, int):
            self.sink.error(codes.WRONG_VALUE_TYPE, self.span(node), messages.must_be_integer(what))
            return default
        return v

    def flag(self, node: Node | None, what: str) -> bool:
        """A yes-or-no key: `true` or `false` (False when it is not written)."""
        if node is None:
            return False
        v = self.data(node)
        if not isinstance(v, bool):
            self.sink.error(codes.WRONG_VALUE_TYPE, self.span(node), messages.must_be_true_or_false(what))
            return False
        return v

    def data(self, node: Node) -> object:
        """A plain YAML value (int, bool, str, None, or lists of them)."""
        if isinstance(node, ScalarNode):
            # Only a value that reads as its tag is converted (an explicit tag may claim anything:
            # `!!bool maybe`, `!!python/object ...`); any other is the text as written.
            if node.tag not in _CONVERTED_TAGS or _implicit_tag(node.value) != node.tag:
                return node.value
            # Python will not even read an int of more than 4,300 digits: look at the length first
            if node.tag == "tag:yaml.org,2002:int" and len(node.value) > 4 * MAX_INT_DIGITS:
                return self._too_large(node)
            try:  # the node's resolved tag (int, bool, null, float, timestamp) decides its value
                value = yaml.constructor.SafeConstructor().construct_object(node, deep=True)
            except (yaml.YAMLError, ValueError, TypeError, OverflowError):  # a date of month 13
                return node.value
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**MAX_INT_DIGITS:
                return self._too_large(node)
            return value
        if isinstance(node, SequenceNode):
            return [self.data(x) for x in node.value]
        if isinstance(node, MappingNode):
            out: dict[object, object] = {}
            for k, v in node.value:
                key = self.data(k)
                out[key if isinstance(key, (str, int, float, bool, type(None))) else str(key)] = self.data(v)
            return out
        return None

    def _too_large(self, node: ScalarNode) -> int:
        self.sink.error(
            codes.LIMIT_EXCEEDED,
            self.span(node),
            messages.number_too_large(MAX_INT_DIGITS),
        )
        return 0

    def strings(self, node: Node, what: str) -> list[str]:
        """A YAML list of plain values, as written (so `yes` stays the string 'yes')."""
        return [x.value if isinstance(x, ScalarNode) else str(self.data(x)) for x in self.seq(node, what)]

    def value(self, node: Node) -> ir.Value:
        return ir.Value(self.data(node), self.span(node))

    def type_ref(self, node: Node, what: str) -> ir.TypeRef:
        """A type as written; "" (which resolve reads as any type) when it is not written."""
        ref = ir.TypeRef(self.text(node, what, "").replace(" ", ""), self.span(node))
        if not ref.text and isinstance(node, ScalarNode):
            self.sink.error(codes.MISSING_KEY, ref.span, messages.needs_a_type(what))
        return ref

    def params(self, node: Node | None, what: str) -> tuple[ir.Param, ...]:
        if node is None:
            return ()
        return tuple(
            ir.Param(k.value, self.type_ref(v, f"type of parameter '{k.value}'"), self.span(k))
            for k, v in self.mapping(node, what)
        )

    def code_or_stub(self, node: Node | None, what: str, *, expr: bool = False) -> ir.Code | None:
        """Like `code`, but code that is written and does not parse (reported) stands as empty code,
        so that nothing is then reported missing."""
        if node is None:
            return None
        return self.code(node, what, expr=expr) or ir.Code((), None, self.span(node))

    def code(self, node: Node | None, what: str, *, expr: bool = False) -> ir.Code | None:
        if node is None:
            return None
        n = self.scalar(node, what)
        if n is None:
            return None
        if n.tag != "tag:yaml.org,2002:str":
            # `repeat: 2` or `check: true`: a literal is a one-token expression
            n = ScalarNode("tag:yaml.org,2002:str", str(n.value), n.start_mark, n.end_mark, n.style)
        smap = source_map(self.file, n, self.raw_lines)
        if expr:
            return parse.parse_expression(smap, self.sink)
        return parse.parse_effect(smap, self.sink)


# ---- the schema --------------------------------------------------------------------------------

# what a step checks after its actions; a scenario without `steps` is one step and may use them
# at its top level
STEP_EXPECT_KEYS = (
    "expect",
    "expect_error",
    "expect_log",
    "expect_no_log",
    "expect_legal",
    "expect_to_act",
    "expect_prompt",
    "expect_winner",
    "expect_winners",
    "expect_seen",
    "expect_unseen",
    "expect_invariants",
)
STEP_KEYS = ("doc", "actions", *STEP_EXPECT_KEYS)
SCENARIO_REQUIRED = ("name",)
SCENARIO_KEYS = (
    "name",
    "doc",
    "seed",
    "options",
    "setup",
    "dice",
    "shuffles",
    "draws",
    "picks",
    "skip",
    "start_at",
    "actions",
    "steps",
    *STEP_EXPECT_KEYS,
)


@dataclass
class _Parts:
    """Sections gathered from every file of a spec before the Game is assembled."""

    scalars: dict[str, tuple[Node, Reader]]
    maps: dict[str, list[tuple[ScalarNode, Node, Reader]]]
    lists: dict[str, list[tuple[Node, Reader]]]


MAP_SECTIONS = (
    "options",
    "constants",
    "enums",
    "types",
    "components",
    "state",
    "zones",
    "functions",
    "procedures",
    "events",
    "modifiers",
    "windows",
)
LIST_SECTIONS = ("triggers", "invariants", "phases")
SCALAR_SECTIONS = (
    "game",
    "title",
    "version",
    "players",
    "actions",
    "limits",
    "setup",
    "evaluation",
    "results",
)
TOP_KEYS = SCALAR_SECTIONS + MAP_SECTIONS + LIST_SECTIONS
BOARD_FILE = "board.yaml"  # holds the `board` section alone: how the game is drawn, not a rule

# The keys of each mapping of a rules file (`*_KEYS`: those it may have, `*_REQUIRED`: those it
# must), and the words some values are one of: what the loader checks, and what compiler/schema.py
# describes to editors, from these same tuples.
PLAYERS_KEYS, PLAYERS_REQUIRED = ("count", "names", "labels"), ("names",)
ACTIONS_KEYS = ("max_number",)
LIMITS_KEYS = ("steps",)
RESULTS_KEYS, RESULTS_REQUIRED = ("returns", "min", "max", "kind", "sum"), ("returns",)
RESULT_KINDS = ("zero_sum", "constant_sum", "identical", "general_sum")
OPTION_KEYS, OPTION_REQUIRED = ("type", "default", "choices", "doc"), ("type", "default")
ENUM_KEYS, ENUM_REQUIRED = ("values", "labels", "doc"), ("values",)
TYPE_KEYS = ("fields", "doc")
FIELD_KEYS, FIELD_REQUIRED = ("type", "params", "code", "optional", "doc"), ("type",)
COMPONENT_KEYS, COMPONENT_REQUIRED = ("id", "name", "copies"), ("id",)  # and the type's fields
STATE_KEYS = ("type", "per", "initial", "min", "max", "visibility", "doc")
STATE_REQUIRED = ("type",)
VARIABLE_VISIBILITIES = ("public", "owner")
ZONE_KEYS, ZONE_REQUIRED = ("of", "per", "kind", "visibility", "radius", "doc"), ("of",)
ZONE_KINDS = ("pile", "grid")
# who sees a zone's contents: everyone, its owner, every player but its owner, nobody
ZONE_VISIBILITIES = ("public", "owner", "others", "hidden")
FUNCTION_KEYS = ("params", "returns", "body", "cached", "doc")
FUNCTION_REQUIRED = ("returns", "body")
PROCEDURE_KEYS, PROCEDURE_REQUIRED = ("params", "returns", "do", "doc", "instead"), ("do",)
INSTEAD_KEYS, INSTEAD_REQUIRED = ("if", "do", "doc"), ("if", "do")
SIGNATURE_KEYS = ("params", "doc")  # of an event or a modifier
WINDOW_KEYS = (
    "params", "doc", "to", "who", "with", "until", "does", "declined", "otherwise", "opens", "disclosure"
)  # fmt: skip
WINDOW_REQUIRED = ("to", "who")
WINDOW_UNTIL = ("first", "all")
WINDOW_DISCLOSURES = ("plain", "secretly", "publicly")
TRIGGER_KEYS, TRIGGER_REQUIRED = ("name", "on", "if", "do", "doc"), ("name", "on", "do")
INVARIANT_KEYS, INVARIANT_REQUIRED = ("name", "check", "why"), ("name", "check")
PHASE_KEYS = ("name", "do", "steps", "repeat", "while", "counter", "doc")
PHASE_REQUIRED = ("name",)


def spec_files(folder: Path) -> tuple[list[Path], list[Path]]:
    """The spec's YAML files and its scenario files, in a stable order. Anything named *.yaml is
    listed, folders and FIFOs too: reading refuses them with a diagnostic rather than skip them."""
    files = [p for p in sorted(folder.glob("*.yaml")) if p.name != BOARD_FILE]
    # a scenarios/ that is a symbolic link is not listed (load_game reports it): nothing is read
    # through a link (source.py)
    scen = sorted((folder / "scenarios").glob("*.yaml")) if is_folder(folder / "scenarios") else []
    return files, scen


def board_file(folder: Path) -> Path | None:
    """The spec's board.yaml (how the game is drawn), if it has one: not a rule file."""
    path = folder / BOARD_FILE
    return path if os.path.lexists(path) else None


def display_path(path: Path) -> str:
    """The path as shown in diagnostics: relative to the current folder when it is inside it.
    Only the folder is resolved, so a file that is a symbolic link (even a loop) keeps its name."""
    try:
        return str((path.parent.resolve() / path.name).relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):
        return str(path)


class _DisplayPaths:
    """display_path for the files of one spec: each folder resolved once (resolving asks the
    system about every folder on the way, and pathlib is slow for thousands of files)."""

    def __init__(self) -> None:
        # a folder as written -> the folder shown (relative to the current one); or None when
        # it is not inside the current one and the current one is not inside it (a file of it is
        # shown as written), or when it cannot be resolved or holds the current folder
        self.folders: dict[str, tuple[str | None, bool]] = {}

    def __call__(self, path: Path) -> str:
        parent, name = path.parent, path.name
        key = str(parent)
        if key not in self.folders:
            self.folders[key] = self._folder(parent)
        folder, apart = self.folders[key]
        if name in ("", ".."):
            return display_path(path)  # not a plain name
        if folder is not None:
            return name if folder == "." else os.path.join(folder, name)
        if apart:  # (what display_path gives, without resolving the folder again for each file)
            return str(path)
        return display_path(path)

    @staticmethod
    def _folder(parent: Path) -> tuple[str | None, bool]:
        """The folder shown, or None; and whether it and the current folder lie apart (neither
        inside the other), so that no file of it is inside the current folder."""
        try:
            resolved = parent.resolve()
            here = Path.cwd().resolve()
        except (OSError, RuntimeError):
            return None, False
        try:
            return str(resolved.relative_to(here)), False
        except ValueError:
            return None, not here.is_relative_to(resolved)


@dataclass
class _Source:
    """One file of a spec as read: its name in diagnostics, and its text (None if unreadable)."""

    path: Path
    name: str
    text: str | None
    data: bytes = b""  # as read, for the digest


def spec_digests(folder: Path, root: Path) -> tuple[str, str, str | None] | None:
    """The digests `load_game` gives the spec in `folder` when run from `root` (file names count):
    of its rules; of its rules and scenarios; of its rules and board.yaml (None without one). None
    when a file cannot be read. What tells whether a compiled engine, its scenarios or its board are stale."""
    files, scen_files = spec_files(folder)
    board = board_file(folder)
    sink = Sink()

    def name_in_root(path: Path) -> str:
        try:
            return str(path.resolve().relative_to(root.resolve()))
        except (ValueError, OSError, RuntimeError):
            return str(path)

    sources = _read_sources(folder, files + scen_files + ([board] if board else []), sink, name_in_root)
    if sink.has_errors:
        return None
    rules = sources[: len(files)]
    scen = sources[len(files) : len(files) + len(scen_files)]
    board_digest = _digest(rules + sources[len(files) + len(scen_files) :]) if board else None
    return _digest(rules), _digest(rules + scen), board_digest


def _read_sources(
    folder: Path,
    paths: list[Path],
    sink: Sink,
    name_of: Callable[[Path], str] | None = None,
    overlay: Mapping[Path, str] | None = None,
) -> list[_Source]:
    """Read every file once, within the bounds of compiler/limits.py (each named by `name_of`, by
    default display_path), and those inside the spec `folder` through no symbolic link. A file
    in `overlay` is read from its text there instead (an editor's unsaved buffer), in the same bounds."""
    name_of = name_of or _DisplayPaths()
    out: list[_Source] = []
    total = 0
    within = Folder(folder)
    try:
        for path in paths:
            name = name_of(path)
            text: str | None = None
            data = b""
            try:
                limit = min(MAX_FILE_BYTES, max(0, MAX_SPEC_BYTES - total))
                if overlay is not None and path in overlay:
                    data = overlay[path].encode("utf-8", errors="replace")
                    if len(data) > limit:
                        raise SourceError(codes.LIMIT_EXCEEDED, messages.file_too_big(len(data), limit))
                else:
                    data = read_bytes(path, limit, within)
                total += len(data)
                text = decode(data)
            except SourceError as exc:
                notes: tuple[str, ...] = ()
                if exc.code == codes.LIMIT_EXCEEDED:
                    if MAX_SPEC_BYTES - total < MAX_FILE_BYTES:
                        exc = SourceError(codes.LIMIT_EXCEEDED, messages.spec_too_big(MAX_SPEC_BYTES))
                        notes = (messages.protects_the_tool("MAX_SPEC_BYTES"),)
                    else:
                        notes = (messages.protects_the_tool("MAX_FILE_BYTES"),)
                span = Span(name, exc.line, exc.col, exc.line, exc.col + 1)
                sink.error(exc.code, span, exc.message, *notes)
            out.append(_Source(path, name, text, data))
    finally:
        within.close()
    return out


def _digest(sources: list[_Source]) -> str:
    """The SHA-256 of files: each one's name and bytes."""
    digest = hashlib.sha256()
    for source in sources:
        digest.update(source.name.encode("utf-8", errors="surrogateescape") + b"\0" + source.data + b"\0")
    return digest.hexdigest()


def compose(source: _Source, sink: Sink) -> tuple[Node | None, Reader]:
    """The YAML tree of a file: None when it is empty, or with `reader.failed` when it could not
    be read (already reported) or does not parse (reported here)."""
    name = source.name
    reader = Reader(name, sink)
    if source.text is None:
        reader.failed = True
        return None, reader
    text = source.text
    reader.raw_lines = text.splitlines()
    try:
        try:
            return yaml_compose.compose(text), reader
        except yaml.MarkedYAMLError:  # parse again in Python for its clearer messages
            if yaml_compose.FAST_LOADER is yaml.SafeLoader:
                raise
            return yaml_compose.compose(text, yaml.SafeLoader), reader
    except yaml_compose.Refused as exc:
        line, col = exc.mark.line + 1, exc.mark.column + 1
        sink.error(exc.code, Span(name, line, col, line, col + 1), exc.message, *exc.notes)
    except yaml.MarkedYAMLError as exc:  # in our words, where the mistake most likely is
        why = yaml_errors.explain(text, exc)
        sink.error(
            codes.YAML_SYNTAX, Span(name, why.line, why.col, why.line, why.end_col), why.message, *why.notes
        )
    except yaml.YAMLError as exc:  # no position (the text was checked for what the reader refuses)
        sink.error(codes.YAML_SYNTAX, Span(name, 1, 1, 1, 2), messages.yaml_syntax(exc))
    reader.failed = True
    return None, reader


def load_game(
    folder: Path, sink: Sink, scenarios: list[Path] | None = None, overlay: Mapping[Path, str] | None = None
) -> ir.Game | None:
    """Read every YAML file of a spec folder into one ir.Game (None if there is nothing to read).
    With `scenarios`, those case files are the game's scenarios instead of its own scenarios/;
    with `overlay`, the files it names are read from its texts (an editor's buffers) instead.

    A file that cannot be read or parsed is reported and skipped, and the others are still read:
    the Game then lacks its declarations, and the names of `sink.unread` files say so."""
    files, scen_files = spec_files(folder)
    if scenarios is not None:
        scen_files = scenarios
    if not files:
        sink.error(codes.MISSING_KEY, Span(display_path(folder), 1, 1, 1, 1), messages.NO_SPEC_FILES)
        return None
    scen_dir = folder / "scenarios"
    if scenarios is None and not is_folder(scen_dir) and os.path.lexists(scen_dir):
        sink.error(
            codes.UNREADABLE_FILE,
            Span(display_path(scen_dir), 1, 1, 1, 1),
            messages.SCENARIOS_IS_A_LINK if is_link(scen_dir) else messages.SCENARIOS_NOT_A_FOLDER,
        )
    board = board_file(folder)
    sources = _read_sources(folder, files + scen_files + ([board] if board else []), sink, overlay=overlay)
    board_source = sources.pop() if board else None
    parts = _Parts({}, {k: [] for k in MAP_SECTIONS}, {k: [] for k in LIST_SECTIONS})
    for source in sources[: len(files)]:
        node, reader = compose(source, sink)
        # a file whose declarations are lost, in part or in whole: see Sink.unread
        if reader.failed or (node is not None and not isinstance(node, MappingNode)):
            sink.unread.append(source.name)
        if node is not None:
            _gather(source.name, node, reader, parts, sink)
    names = [source.name for source in sources[: len(files)]]
    try:
        digests = (_digest(sources[: len(files)]), _digest(sources))
        game = _assemble(folder, parts, names, digests, sources[len(files) :], sink)
        if board_source is None:
            return game
        board_digest = _digest([*sources[: len(files)], board_source])
        return dataclasses.replace(game, board=_board(board_source, board_digest, sink))
    finally:
        parse.forget()  # the texts this spec repeats (see parse.py)


def _board(source: _Source, digest: str, sink: Sink) -> ir.BoardDecl | None:
    """The `board` section of board.yaml, the file's only key (None when it cannot be read)."""
    node, reader = compose(source, sink)
    if node is None:
        return None
    items = reader.mapping(node, "board.yaml")
    for k, _ in items:
        if k.value != "board":
            sink.error(codes.UNKNOWN_KEY, reader.span(k), messages.only_board(k.value))
    for k, v in items:
        if k.value == "board":
            return read_board(v, reader, digest)
    if isinstance(node, MappingNode):
        sink.error(codes.MISSING_KEY, reader.span(node), messages.needs_key("board.yaml", "board"))
    return None


def _gather(file: str, node: Node, reader: Reader, parts: _Parts, sink: Sink) -> None:
    """Add the top-level sections of one spec file to `parts`."""
    items = reader.mapping(node, "a spec file")
    written = {k.value for k, _ in items}
    for k, v in items:
        key = k.value
        if key == "board":
            sink.error(codes.UNKNOWN_KEY, reader.span(k), messages.BOARD_IN_ITS_FILE)
            continue
        if key not in TOP_KEYS:
            close = close_match(key, TOP_KEYS)
            sink.error(codes.UNKNOWN_KEY, reader.span(k), messages.unknown_top_level_key(key, close))
            # read it as the section it misspells (see Reader.keys)
            if close is None or close in written or close in parts.scalars:
                continue
            key = close
        if key in MAP_SECTIONS:
            if not isinstance(v, MappingNode) and file not in sink.unread:
                sink.unread.append(file)
            for kk, vv in reader.mapping(v, f"'{key}'"):
                parts.maps[key].append((kk, vv, reader))
        elif key in LIST_SECTIONS:
            if not isinstance(v, SequenceNode) and file not in sink.unread:
                sink.unread.append(file)
            parts.lists[key].extend((x, reader) for x in reader.seq(v, f"'{key}'"))
        elif key in parts.scalars:
            sink.error(
                codes.DUPLICATE_ID,
                reader.span(k),
                messages.set_in_two_files(key),
                messages.first_set_at(parts.scalars[key][1].span(parts.scalars[key][0])),
            )
        else:
            parts.scalars[key] = (v, reader)


def _assemble(
    folder: Path,
    parts: _Parts,
    files: list[str],
    digests: tuple[str, str],
    scen_files: list[_Source],
    sink: Sink,
) -> ir.Game:
    """The Game from the sections of every file: the header, the declarations, the scenarios."""
    sc, maps, lists = parts.scalars, parts.maps, parts.lists
    # A top-level section may be missing only because it is in a file that could not be read:
    # then its absence is not reported again.
    needs = not sink.unread
    name, game_span = _game_name(folder, sc, files[0], needs, sink)
    player_names, player_labels, player_count = _players(sc, files[0], needs, sink)
    trigger_names: dict[str, Span] = {}
    invariant_names: dict[str, Span] = {}
    windows = [_window(k, v, r) for k, v, r in maps["windows"]]  # each desugared into a procedure
    types, unchecked = _entity_types(parts, sink)
    # (the keywords in the order the sections are read, so diagnostics come in the same order)
    return ir.Game(
        name=name,
        files=tuple(files),
        digest=digests[0],
        scenarios_digest=digests[1],
        player_names=player_names,
        player_labels=player_labels or player_names,
        player_count=player_count,
        max_number=_max_number(sc),
        step_budget=_step_budget(sc),
        options=tuple(_option(k, v, r) for k, v, r in maps["options"]),
        constants=tuple(ir.ConstDecl(k.value, r.value(v), r.span(k)) for k, v, r in maps["constants"]),
        enums=tuple(_enum(k, v, r) for k, v, r in maps["enums"]),
        types=types,
        state=tuple(_state_var(k, v, r) for k, v, r in maps["state"]),
        zones=tuple(_zone(k, v, r) for k, v, r in maps["zones"]),
        functions=tuple(_function(k, v, r) for k, v, r in maps["functions"]),
        procedures=(
            *(_procedure(k, v, r) for k, v, r in maps["procedures"]),
            *(w[1] for w in windows),
        ),
        events=tuple(_signature(k, v, r) for k, v, r in maps["events"]),
        modifiers=tuple(_signature(k, v, r) for k, v, r in maps["modifiers"]),
        triggers=tuple(_trigger(n, r, trigger_names) for n, r in lists["triggers"]),
        invariants=tuple(_invariant(n, r, invariant_names) for n, r in lists["invariants"]),
        phases=tuple(_phase(n, r) for n, r in lists["phases"]),
        setup=sc["setup"][1].code(sc["setup"][0], "setup") if "setup" in sc else None,
        evaluation=(
            sc["evaluation"][1].code(sc["evaluation"][0], "evaluation", expr=True)
            if "evaluation" in sc
            else None
        ),
        results=_results(sc),
        title=sc["title"][1].text(sc["title"][0], "title") if "title" in sc else name,
        version=str(sc["version"][1].data(sc["version"][0])) if "version" in sc else "1",
        scenarios=tuple(s for p in scen_files if (s := _scenario(p, sink)) is not None),
        span=game_span,
        windows=tuple(w[0] for w in windows),
        unchecked=unchecked,
    )


def _game_name(
    folder: Path, sc: dict[str, tuple[Node, Reader]], first_file: str, needs: bool, sink: Sink
) -> tuple[str, Span]:
    """The game's name and where it is written; when it is missing, a stand-in from the folder."""
    name = ""
    span = Span(first_file, 1, 1, 1, 1)
    if "game" in sc:
        gnode, greader = sc["game"]
        name = greader.text(gnode, "game")
        span = greader.span(gnode)
        if not name and isinstance(gnode, ScalarNode):
            sink.error(codes.MISSING_KEY, span, messages.GAME_NAME_EMPTY)
    elif needs:
        sink.error(codes.MISSING_KEY, span, messages.NO_GAME_NAME)
    if not name:  # checking goes on under a stand-in name
        name = re.sub(r"\W", "_", folder.name).lstrip("0123456789") or "spec"
    return name, span


def _players(
    sc: dict[str, tuple[Node, Reader]], first_file: str, needs: bool, sink: Sink
) -> tuple[tuple[str, ...], tuple[str, ...], ir.Value]:
    """The players' names, their labels (or () to use the names) and their count as written."""
    names: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    # without names, no count: "2 players but 0 names" would repeat the missing names
    count = ir.Value(0, Span(first_file, 1, 1, 1, 1))
    if "players" not in sc:
        if needs:
            sink.error(codes.MISSING_KEY, Span(first_file, 1, 1, 1, 1), messages.NO_PLAYERS)
        return names, labels, count
    pnode, pr = sc["players"]
    pk = pr.keys(pnode, "'players'", PLAYERS_KEYS, PLAYERS_REQUIRED)
    if "names" in pk:
        names = tuple(pr.strings(pk["names"], "players.names"))
    if not isinstance(pk.get("names"), SequenceNode):
        # (reported) the players are unknown: what names them is not reported again
        _declarations_lost(pr)
        return names, labels, count
    if "labels" in pk:
        labels = tuple(pr.strings(pk["labels"], "players.labels"))
        if len(labels) != len(names):
            sink.error(codes.WRONG_VALUE_TYPE, pr.span(pk["labels"]), messages.ONE_LABEL_PER_NAME)
            labels = ()
            _declarations_lost(pr)  # what the scenarios call the players is unknown
    if "count" in pk and "names" in pk:
        count = pr.value(pk["count"])
    else:
        count = ir.Value(len(names), pr.span(pnode))
    return names, labels, count


def _max_number(sc: dict[str, tuple[Node, Reader]]) -> int:
    """`actions: {max_number: N}`: the biggest number `choose number` may offer (20 by default)."""
    if "actions" not in sc:
        return 20
    anode, ar = sc["actions"]
    ak = ar.keys(anode, "'actions'", ACTIONS_KEYS)
    max_number = ar.integer(ak.get("max_number"), "actions.max_number", 20)
    if max_number < 0:
        ar.sink.error(codes.WRONG_VALUE_TYPE, ar.span(ak["max_number"]), messages.MAX_NUMBER_NEGATIVE)
        return 20
    if max_number > MAX_NUMBER:
        ar.sink.error(
            codes.LIMIT_EXCEEDED,
            ar.span(ak["max_number"]),
            messages.max_number_too_large(max_number, MAX_NUMBER),
            messages.MAX_NUMBER_NOTE,
        )
        return 20
    return max_number


def _step_budget(sc: dict[str, tuple[Node, Reader]]) -> int:
    """`limits: {steps: N}`: the steps the rules may take between two decisions."""
    if "limits" not in sc:
        return DEFAULT_STEP_BUDGET
    lnode, lr = sc["limits"]
    lk = lr.keys(lnode, "'limits'", LIMITS_KEYS)
    if "steps" not in lk:
        return DEFAULT_STEP_BUDGET
    step_budget = lr.integer(lk["steps"], "limits.steps", DEFAULT_STEP_BUDGET)
    if not 1 <= step_budget <= MAX_STEP_BUDGET:
        lr.sink.error(
            codes.WRONG_VALUE_TYPE, lr.span(lk["steps"]), messages.step_budget_out_of_range(MAX_STEP_BUDGET)
        )
        return DEFAULT_STEP_BUDGET
    return step_budget


def _results(sc: dict[str, tuple[Node, Reader]]) -> ir.Results | None:
    """`results: {returns, min, max, kind, sum}`: each player's return once the game is over."""
    if "results" not in sc:
        return None
    node, r = sc["results"]
    d = r.keys(node, "'results'", RESULTS_KEYS, RESULTS_REQUIRED)
    returns = r.code_or_stub(d.get("returns"), "results.returns", expr=True)
    low = r.integer(d.get("min"), "results.min", -1)
    high = r.integer(d.get("max"), "results.max", 1)
    kind = r.text(d.get("kind"), "results.kind", "")
    if kind not in RESULT_KINDS:
        if isinstance(d.get("kind"), ScalarNode):  # (any other kind of value is reported)
            r.sink.error(
                codes.WRONG_VALUE_TYPE,
                r.span(d["kind"]),
                messages.results_kind(kind, did_you_mean(kind, RESULT_KINDS)),
            )
        if "kind" in d:  # reported: whether a sum belongs with it is not known
            d.pop("sum", None)
        kind = "general_sum"
    if low > high:
        r.sink.error(
            codes.BAD_RESULTS, r.span(d.get("max") or d["min"]), messages.results_min_above_max(low, high)
        )
    total = r.integer(d.get("sum"), "results.sum", 0)
    if "sum" in d and kind != "constant_sum":
        r.sink.error(
            codes.BAD_RESULTS, r.span(d["sum"]), messages.RESULTS_SUM_NOT_CONSTANT, messages.RESULTS_SUM_NOTE
        )
    elif kind == "constant_sum" and "sum" not in d and isinstance(node, MappingNode):
        r.sink.error(
            codes.MISSING_KEY, r.span(node), messages.needs_key("'results' of kind constant_sum", "sum")
        )
    return ir.Results(returns, low, high, kind, total, r.span(node))


def _entity_types(parts: _Parts, sink: Sink) -> tuple[tuple[ir.EntityType, ...], tuple[str, ...]]:
    """Each declared type with the components listed for it (in any file); components of a type
    that is not declared are reported once, and that type's name and their ids are returned as
    names to leave unchecked (see ir.Game.unchecked)."""
    rows: dict[str, list[tuple[Node, Reader]]] = {}
    first_rows: dict[str, Span] = {}  # where the components of each type are first listed
    for k, v, r in parts.maps["components"]:
        first_rows.setdefault(k.value, r.span(k))
        rows.setdefault(k.value, []).extend((x, r) for x in r.seq(v, f"components of '{k.value}'"))
    # a row that is not a mapping is reported and left out: the name it may declare is unchecked
    unchecked = [x.value for trows in rows.values() for x, _ in trows if isinstance(x, ScalarNode)]
    types = tuple(_entity_type(k, v, r, rows.pop(k.value, []), sink) for k, v, r in parts.maps["types"])
    for tname, trows in rows.items():
        sink.error(
            codes.UNKNOWN_TYPE,
            first_rows[tname],
            messages.components_without_type(tname, did_you_mean(tname, [t.name for t in types])),
        )
        unchecked.append(tname)
        for row, _ in trows:
            if isinstance(row, MappingNode):
                unchecked.extend(
                    v.value for k, v in row.value if k.value == "id" and isinstance(v, ScalarNode)
                )
    return types, tuple(unchecked)


def _declarations_lost(r: Reader) -> None:
    """Some declarations of r's file are lost (reported): like those of a file that does not
    parse, they may explain the errors about undeclared names (Sink.unread)."""
    if r.file not in r.sink.unread:
        r.sink.unread.append(r.file)


def _values_lost(node: Node, r: Reader) -> None:
    """An enum's values not written as a list (reported) are unknown."""
    if not isinstance(node, SequenceNode):
        _declarations_lost(r)


def _enum(k: ScalarNode, v: Node, r: Reader) -> ir.EnumDecl:
    """`name: [a, b]`, or `name: {values: [a, b], labels: [A, B]}` with a label per value."""
    if not isinstance(v, MappingNode):
        _values_lost(v, r)
        return ir.EnumDecl(k.value, tuple(r.strings(v, f"enum '{k.value}'")), r.span(k))
    d = r.keys(v, f"enum '{k.value}'", ENUM_KEYS, ENUM_REQUIRED)
    if "values" in d:
        _values_lost(d["values"], r)
    values = tuple(r.strings(d["values"], f"enum '{k.value}'")) if "values" in d else ()
    labels: tuple[str, ...] = ()
    if "labels" in d:
        labels = tuple(r.strings(d["labels"], f"labels of enum '{k.value}'"))
        if "values" in d and isinstance(d["labels"], SequenceNode) and len(labels) != len(values):
            r.sink.error(codes.WRONG_VALUE_TYPE, r.span(d["labels"]), messages.ONE_LABEL_PER_ENUM_VALUE)
            labels = ()
    return ir.EnumDecl(k.value, values, r.span(k), labels, r.span(d["labels"]) if labels else r.span(k))


def _option(k: ScalarNode, v: Node, r: Reader) -> ir.OptionDecl:
    d = r.keys(v, f"option '{k.value}'", OPTION_KEYS, OPTION_REQUIRED)
    typ = r.text(d.get("type"), "option type", "int")
    if typ not in ("int", "bool"):  # an enum's name (resolve checks it, and the values)
        default_node = d.get("default")
        return ir.OptionDecl(
            k.value,
            typ,
            r.text(default_node, "an option's default"),
            tuple(r.strings(d["choices"], "choices")) if "choices" in d else (),
            r.text(d.get("doc"), "doc"),
            r.span(k),
            r.span(d["type"]),
            # (no span: the default is not written, or not a single value, which is reported here)
            r.span(default_node) if isinstance(default_node, ScalarNode) else ir.NO_SPAN,
            r.span(d["choices"]) if "choices" in d else r.span(k),
        )
    choices = (
        tuple(r.integer(x, "a choice") for x in r.seq(d["choices"], "choices")) if "choices" in d else ()
    )
    default = r.data(d["default"]) if "default" in d else 0
    if typ == "bool" and not isinstance(default, bool):
        r.sink.error(codes.WRONG_VALUE_TYPE, r.span(d["default"]), messages.BOOL_OPTION_DEFAULT)
        default = False
    if typ == "int" and (isinstance(default, bool) or not isinstance(default, int)):
        if "default" in d:
            r.sink.error(
                codes.WRONG_VALUE_TYPE,
                r.span(d["default"]),
                messages.INT_OPTION_DEFAULT,
            )
        default = choices[0] if choices else 0  # (one of its choices: nothing more is reported)
    assert isinstance(default, (int, bool))
    return ir.OptionDecl(k.value, typ, default, choices, r.text(d.get("doc"), "doc"), r.span(k))


def _entity_type(
    k: ScalarNode, v: Node, r: Reader, rows: list[tuple[Node, Reader]], sink: Sink
) -> ir.EntityType:
    d = r.keys(v, f"type '{k.value}'", TYPE_KEYS)
    fields: list[ir.FieldDecl] = []
    if "fields" in d:
        for fk, fv in r.mapping(d["fields"], f"fields of '{k.value}'"):
            if isinstance(fv, ScalarNode):
                t = r.type_ref(fv, "field type")
                kind = "effect" if t.text == "effect" else "data"
                fields.append(ir.FieldDecl(fk.value, t, kind, (), False, r.span(fk)))
                continue
            fd = r.keys(fv, f"field '{fk.value}'", FIELD_KEYS, FIELD_REQUIRED)
            t = r.type_ref(fd["type"], "field type") if "type" in fd else ir.TypeRef("", r.span(fk))
            is_code = bool(r.data(fd["code"])) if "code" in fd else False
            kind = "effect" if t.text == "effect" else ("expr" if is_code or "params" in fd else "data")
            fields.append(
                ir.FieldDecl(
                    fk.value,
                    t,
                    kind,
                    r.params(fd.get("params"), f"params of '{fk.value}'"),
                    bool(r.data(fd["optional"])) if "optional" in fd else False,
                    r.span(fk),
                )
            )
    known = {f.name: f for f in fields}
    entities = []
    for node, rr in rows:
        if not isinstance(node, MappingNode):  # reported, and left out (see _entity_types)
            rr.mapping(node, f"a '{k.value}' component")
            continue
        entities.append(_entity(k.value, node, rr, known, sink))
    return ir.EntityType(k.value, tuple(fields), tuple(entities), r.span(k))


def _entity(tname: str, node: Node, r: Reader, known: dict[str, ir.FieldDecl], sink: Sink) -> ir.Entity:
    items = r.mapping(node, f"a '{tname}' component")
    written = {k.value for k, _ in items}
    values: list[tuple[str, ir.Value]] = []
    code: list[tuple[str, ir.Code]] = []
    eid, label, copies = "", "", 1
    unknown = False  # a key read as nothing (reported): it may be the id, misspelt

    def field_value(name: str, v: Node) -> None:
        if known[name].kind == "data":
            values.append((name, r.value(v)))
        else:
            c = r.code_or_stub(v, f"field '{name}'", expr=known[name].kind == "expr")
            if c is not None:
                code.append((name, c))

    for k, v in items:
        key = k.value
        if key not in known and key not in COMPONENT_KEYS:
            close = close_match(key, [*known, *COMPONENT_KEYS])
            sink.error(codes.UNKNOWN_FIELD, r.span(k), messages.unknown_component_field(tname, key, close))
            # a misspelt key is read as the one it misspells, so that one is not reported missing
            if close is None or close in written:
                unknown = True
                continue
            key = close
        if key == "id":
            eid = r.text(v, "id")
        elif key == "name":
            label = r.text(v, "name")
        elif key == "copies":
            copies = _copies(v, r)
        else:
            field_value(key, v)
    if not eid:
        if not unknown:
            sink.error(codes.MISSING_KEY, r.span(node), messages.component_without_id(tname))
        _declarations_lost(r)  # the name it declares
    return ir.Entity(eid, label or eid, tuple(values), tuple(code), r.span(node), copies)


def _copies(node: Node, r: Reader) -> int:
    """`copies: N` of a component row: a whole number from 1 to MAX_COPIES (1 when it is not)."""
    n = r.integer(node, "copies", 1)
    if not 1 <= n <= MAX_COPIES:
        if n > MAX_COPIES:
            r.sink.error(
                codes.LIMIT_EXCEEDED,
                r.span(node),
                messages.copies_out_of_range(n, MAX_COPIES),
                messages.COPIES_NOTE,
            )
        else:
            r.sink.error(codes.WRONG_VALUE_TYPE, r.span(node), messages.copies_out_of_range(n, MAX_COPIES))
        return 1
    return n


def _state_var(k: ScalarNode, v: Node, r: Reader) -> ir.StateVar:
    if isinstance(v, ScalarNode):
        return ir.StateVar(k.value, r.type_ref(v, "type"), (), None, None, None, "public", r.span(k))
    d = r.keys(v, f"state variable '{k.value}'", STATE_KEYS, STATE_REQUIRED)
    per: tuple[ir.TypeRef, ...] = ()
    if "per" in d:
        pn = d["per"]
        per = (
            tuple(r.type_ref(x, "per") for x in r.seq(pn, "per"))
            if isinstance(pn, SequenceNode)
            else (r.type_ref(pn, "per"),)
        )
    low = r.integer(d["min"], "min") if "min" in d else None
    high = r.integer(d["max"], "max") if "max" in d else None
    vis = r.text(d.get("visibility"), "visibility", "public")
    if vis not in VARIABLE_VISIBILITIES:
        r.sink.error(codes.WRONG_VALUE_TYPE, r.span(d["visibility"]), messages.VARIABLE_VISIBILITY)
    return ir.StateVar(
        k.value,
        r.type_ref(d["type"], "type") if "type" in d else ir.TypeRef("", r.span(k)),
        per,
        r.value(d["initial"]) if "initial" in d else None,
        low,
        high,
        vis,
        r.span(k),
    )


def _zone(k: ScalarNode, v: Node, r: Reader) -> ir.ZoneDecl:
    d = r.keys(v, f"zone '{k.value}'", ZONE_KEYS, ZONE_REQUIRED)
    per: tuple[ir.TypeRef, ...] = ()
    if "per" in d:  # index types, resolved (and their number bounded) by resolve.py
        pn = d["per"]
        refs = r.seq(pn, "per") if isinstance(pn, SequenceNode) else [pn]
        per = tuple(r.type_ref(x, "per") for x in refs)
    kind = r.text(d.get("kind"), "kind", "pile")
    if kind not in ZONE_KINDS:
        r.sink.error(codes.WRONG_VALUE_TYPE, r.span(d["kind"]), messages.zone_kind(kind))
    vis = r.text(d.get("visibility"), "visibility", "public")
    if vis not in ZONE_VISIBILITIES:
        r.sink.error(
            codes.WRONG_VALUE_TYPE,
            r.span(d["visibility"]),
            messages.zone_visibility(vis),
        )
    radius = r.integer(d.get("radius"), "radius", 10)
    if "radius" in d and not 1 <= radius <= MAX_GRID_RADIUS:
        r.sink.error(
            codes.LIMIT_EXCEEDED if radius > 0 else codes.WRONG_VALUE_TYPE,
            r.span(d["radius"]),
            messages.grid_radius(MAX_GRID_RADIUS, radius),
            *((messages.GRID_RADIUS_NOTE,) if radius > 0 else ()),
        )
        radius = 10
    return ir.ZoneDecl(
        k.value,
        r.type_ref(d["of"], "of") if "of" in d else ir.TypeRef("", r.span(k)),
        per,
        kind,
        vis,
        radius,
        r.span(k),
    )


def _function(k: ScalarNode, v: Node, r: Reader) -> ir.FunctionDecl:
    d = r.keys(v, f"function '{k.value}'", FUNCTION_KEYS, FUNCTION_REQUIRED)
    # a body that is missing or does not parse stands as an empty one, which check passes over
    body = r.code(d.get("body"), "body", expr=True) or ir.Code((), None, r.span(k))
    return ir.FunctionDecl(
        k.value,
        r.params(d.get("params"), "params"),
        r.type_ref(d["returns"], "returns") if "returns" in d else ir.TypeRef("", r.span(k)),
        body,
        r.span(k),
        r.flag(d.get("cached"), f"'cached' of function '{k.value}'"),
    )


def _procedure(k: ScalarNode, v: Node, r: Reader) -> ir.ProcedureDecl:
    d = r.keys(v, f"procedure '{k.value}'", PROCEDURE_KEYS, PROCEDURE_REQUIRED)
    body = r.code(d.get("do"), "do") or ir.Code((), None, r.span(k))
    if "instead" in d:
        body = _with_replacements(k.value, d["instead"], body, r)
    returns = r.type_ref(d["returns"], "returns") if "returns" in d else None
    return ir.ProcedureDecl(k.value, r.params(d.get("params"), "params"), body, r.span(k), returns=returns)


def _with_replacements(proc: str, node: Node, body: ir.Code, r: Reader) -> ir.Code:
    """A procedure's `instead:` entries ({if, do, doc}) and its `do`, as one body: the `do` of the
    first entry whose `if` holds, else the procedure's own `do`. Desugared into an `if`/`elif`/`else`,
    so every check and pass sees plain statements, and a call of the procedure inside an entry runs
    it again with its replacements."""
    branches: list[tuple[ir.Expr, tuple[ir.Stmt, ...]]] = []
    for entry in r.seq(node, f"'instead' of procedure '{proc}'"):
        e = r.keys(entry, f"an 'instead' entry of procedure '{proc}'", INSTEAD_KEYS, INSTEAD_REQUIRED)
        r.text(e.get("doc"), "doc")
        cond = r.code(e.get("if"), "if", expr=True)
        do = r.code(e.get("do"), "do")
        if cond is not None and cond.expr is not None and do is not None:
            branches.append((cond.expr, do.body))
    if not branches:
        return body
    replaced = ir.If(tuple(branches), body.body, r.span(node))
    # no text: it would be the `do`'s alone, and the passes that skip code by its text (what asks,
    # how deep it may nest) must read the entries too
    return ir.Code((replaced,), None, body.span)


# the window's own local in its desugared body, a name no spec can write (as hoist.py's `$N`): who
# responded so far, the window's value (`until: first`: a player or none; `all`: a list)
_RESPONDED = "$responded"


def _window(k: ScalarNode, v: Node, r: Reader) -> tuple[ir.WindowDecl, ir.ProcedureDecl]:
    """The body of a window as plain statements: for each responder in `who` (while none has
    responded, with `until: first`), an optional choice from `with` (or a yes/no question) marked
    as the window's; on a response, `does`, then the window `opens`; on none (a pass, or no option
    to respond with), `declined`; `otherwise` when nobody did.
    Every node is placed in the window's own fields."""
    name = k.value
    here = r.span(k)
    d = r.keys(v, f"window '{name}'", WINDOW_KEYS, WINDOW_REQUIRED)
    until = r.text(d.get("until"), "until", "first")
    if until not in WINDOW_UNTIL:
        r.sink.error(codes.BAD_WINDOW, r.span(d["until"]), messages.window_until(until))
    # the answer is logged to all (plain), to all although hidden cards are involved (publicly),
    # or to the responder alone (secretly)
    disclosure = r.text(d.get("disclosure"), "disclosure", "plain")
    if disclosure not in WINDOW_DISCLOSURES:
        r.sink.error(codes.BAD_WINDOW, r.span(d["disclosure"]), messages.window_disclosure(disclosure))
    to = _window_text(r, d["to"]) if "to" in d else ir.StrLit((), here)
    who_code = r.code(d.get("who"), "who", expr=True)
    who = who_code.expr if who_code is not None else None
    with_code = r.code(d.get("with"), "with", expr=True)
    options = with_code.expr if with_code is not None else None
    does = r.code(d.get("does"), "does")
    declined = r.code(d.get("declined"), "declined")
    otherwise = r.code(d.get("otherwise"), "otherwise")
    opens_code = r.code(d.get("opens"), "opens")
    opens: ir.CallStmt | None = None
    if opens_code is not None:
        stmts = opens_code.body
        if len(stmts) == 1 and isinstance(stmts[0], ir.CallStmt):
            opens = dataclasses.replace(stmts[0], respond=True)
        else:
            r.sink.error(codes.BAD_WINDOW, r.span(d["opens"]), messages.WINDOW_OPENS)
    does, declined, otherwise = (_no_return(code, r) for code in (does, declined, otherwise))
    if options is None:  # a yes/no question: no `response` to read
        for code in (does, opens_code):
            hit = _first_name(code, "response")
            if hit is not None:
                r.sink.error(
                    codes.BAD_WINDOW,
                    hit,
                    messages.WINDOW_RESPONSE_WITHOUT_WITH,
                    messages.WINDOW_RESPONSE_NOTE,
                )
                break
    decl = ir.WindowDecl(name, who, options, opens, here)
    if who is None:
        return decl, ir.ProcedureDecl(
            name, r.params(d.get("params"), "params"), ir.Code((), None, here), here, window=name
        )
    at = to.span
    if options is not None:
        prompt = ir.StrLit(("respond to ", *to.parts), at)
        ask: ir.Decision = ir.Choose(
            None,
            options,
            ir.Name("responder", who.span),
            prompt,
            True,
            disclosure == "secretly",
            options.span,
            public=disclosure == "publicly",
            window=name,
        )
        answered: ir.Expr = ir.Compare("!=", ir.Name("response", at), ir.NoneLit(at), at)
    else:
        question = ir.StrLit(("respond to ", *to.parts, "?"), at)
        ask = ir.Ask(question, ir.Name("responder", who.span), at, window=name)
        answered = ir.Name("response", at)
    first = until != "all"

    def nobody(at: Span) -> ir.Expr:  # nobody has responded yet
        if first:
            return ir.Compare("==", ir.Name(_RESPONDED, at), ir.NoneLit(at), at)
        return ir.Compare("==", ir.Call("len", (ir.Name(_RESPONDED, at),), at), ir.IntLit(0, at), at)

    if first:
        record: ir.Expr = ir.Name("responder", at)
        start: ir.Expr = ir.NoneLit(here)
    else:
        record = ir.BinOp("+", ir.Name(_RESPONDED, at), ir.ListLit((ir.Name("responder", at),), at), at)
        start = ir.ListLit((), here)
    on_response: list[ir.Stmt] = [ir.Assign(_RESPONDED, (), "=", record, at)]
    if does is not None:
        on_response.extend(does.body)
    if opens is not None:
        on_response.append(opens)
    turn: tuple[ir.Stmt, ...] = (
        ir.Let("response", ask, at),
        ir.If(((answered, tuple(on_response)),), declined.body if declined is not None else (), at),
    )
    if first:
        turn = (ir.If(((nobody(at), turn),), (), at),)
    returns = ir.TypeRef("player" if first else "list[player]", here)
    body: list[ir.Stmt] = [
        ir.Let(_RESPONDED, start, here, returns),
        ir.For("responder", who, None, turn, who.span),
    ]
    if otherwise is not None:
        body.append(ir.If(((nobody(otherwise.span), otherwise.body),), (), otherwise.span))
    body.append(ir.Return(here, ir.Name(_RESPONDED, here)))
    code = ir.Code(tuple(body), None, here)
    params = r.params(d.get("params"), "params")
    return decl, ir.ProcedureDecl(name, params, code, here, returns, window=name)


def _no_return(code: ir.Code | None, r: Reader) -> ir.Code | None:
    """A window's `does`, `declined` or `otherwise`, left out (after an error) if it holds a
    `return`: the desugared body returns who responded, so the value would be wrong twice over."""
    if code is None:
        return None
    hit = next((n.span for n in ir.walk(code) if isinstance(n, ir.Return)), None)
    if hit is None:
        return code
    r.sink.error(codes.BAD_WINDOW, hit, messages.WINDOW_RETURN, messages.WINDOW_RETURN_NOTE)
    return None


def _first_name(code: ir.Code | None, name: str) -> Span | None:
    """Where `code` first reads the name `name`, if it does."""
    if code is None:
        return None
    for node in ir.walk(code):
        if isinstance(node, ir.Name) and node.ident == name:
            return node.span
    return None


def _window_text(r: Reader, node: Node) -> ir.StrLit:
    """A window's `to`: text whose `{expr}` parts are expressions, placed in the YAML file."""
    n = r.scalar(node, "to")
    if n is None:
        return ir.StrLit((), r.span(node))
    smap = source_map(r.file, n, r.raw_lines)
    text = smap.text
    parts: list[str | ir.Expr] = []
    pieces, unclosed = parse.string_pieces(text, escapes=False)
    for inner, at in pieces:
        if at < 0:
            parts.append(inner)
            continue
        if smap.chars:
            first = smap.chars[at] if at < len(smap.chars) else smap.chars[-1]
            sub = SourceMap(r.file, inner, (first,), smap.chars[at : at + len(inner)])
        else:
            line = text.count("\n", 0, at - 1)
            start = text.rfind("\n", 0, at - 1) + 1
            y, c = smap.lines[min(line, len(smap.lines) - 1)]
            sub = SourceMap(r.file, inner, ((y, c + at - start),))
        code = parse.parse_expression(sub, r.sink)
        if code is not None and code.expr is not None:
            parts.append(code.expr)
    if unclosed:
        r.sink.error(codes.DSL_SYNTAX, r.span(node), messages.UNCLOSED_INTERPOLATION)
    return ir.StrLit(tuple(parts), r.span(node))


def _signature(k: ScalarNode, v: Node, r: Reader) -> ir.SignatureDecl:
    if isinstance(v, ScalarNode) and v.value in ("", "null", "~"):
        return ir.SignatureDecl(k.value, (), "", r.span(k))
    d = r.keys(v, f"'{k.value}'", SIGNATURE_KEYS)
    return ir.SignatureDecl(
        k.value, r.params(d.get("params"), "params"), r.text(d.get("doc"), "doc"), r.span(k)
    )


def _entry_name(d: dict[str, Node], r: Reader, kind: str, seen: dict[str, Span] | None = None) -> str:
    """The name of a trigger, invariant or phase, checked where it is written (and, with `seen`,
    against the names of its kind so far)."""
    if "name" not in d:
        return ""
    name = r.text(d["name"], "name")
    span = r.span(d["name"])
    if not name:
        return ""
    if not NAME_RE.fullmatch(name):
        r.sink.error(
            codes.BAD_NAME,
            span,
            messages.not_a_plain_name(f"{kind} name", name, plain_name(name)),
        )
    elif seen is not None and name in seen:
        r.sink.error(
            codes.DUPLICATE_ID,
            span,
            messages.already_defined(kind, name),
            messages.first_defined_at(seen[name]),
        )
    elif seen is not None:
        seen[name] = span
    return name


def _trigger(n: Node, r: Reader, seen: dict[str, Span]) -> ir.TriggerDecl:
    d = r.keys(n, "a trigger", TRIGGER_KEYS, TRIGGER_REQUIRED)
    body = r.code(d.get("do"), "do") or ir.Code((), None, r.span(n))
    name = _entry_name(d, r, "trigger", seen)
    on = r.text(d.get("on"), "on")
    span = r.span(d["on"]) if "on" in d else r.span(n)
    watch = None
    if on and not NAME_RE.fullmatch(on.strip()):
        watch = _zone_watch(on, span)
        if watch is None:
            r.sink.error(codes.BAD_ZONE_TRIGGER, span, messages.bad_zone_pattern(name, on))
    return ir.TriggerDecl(name, on, r.code(d.get("if"), "if", expr=True), body, span, watch)


# `c enters hand[p]`, `c leaves deck`, `c enters expedition[k, q]` (matched on the stripped text:
# no two runs of spaces can match the same spaces, so a long line of them fails in linear time)
ZONE_PATTERN = re.compile(
    r"([A-Za-z_][A-Za-z0-9_]*)\s+(enters|leaves)\s+([A-Za-z_][A-Za-z0-9_]*)"
    r"(?:\s*\[\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:,\s*([A-Za-z_][A-Za-z0-9_]*)\s*)?\])?"
)


def _zone_watch(on: str, span: Span) -> ir.ZoneWatch | None:
    """A trigger's `on` that is a zone pattern, or None if it is not well formed."""
    m = ZONE_PATTERN.fullmatch(on.strip())
    if m is None:
        return None
    item, verb, zone, first, second = m.groups()
    return ir.ZoneWatch(item, verb, zone, tuple(i for i in (first, second) if i is not None), span)


def _invariant(n: Node, r: Reader, seen: dict[str, Span]) -> ir.InvariantDecl:
    d = r.keys(n, "an invariant", INVARIANT_KEYS, INVARIANT_REQUIRED)
    check = r.code(d.get("check"), "check", expr=True) or ir.Code((), ir.BoolLit(True, r.span(n)), r.span(n))
    name = _entry_name(d, r, "invariant", seen)
    return ir.InvariantDecl(name, check, r.text(d.get("why"), "why"), r.span(n))


def _phase(n: Node, r: Reader) -> ir.PhaseDecl:
    d = r.keys(n, "a phase", PHASE_KEYS, PHASE_REQUIRED)
    steps = tuple(_phase(x, r) for x in r.seq(d["steps"], "steps")) if "steps" in d else ()
    return ir.PhaseDecl(
        _entry_name(d, r, "phase"),  # resolve reports a phase defined twice, at this same name
        r.code_or_stub(d.get("do"), "do"),
        steps,
        r.code_or_stub(d.get("repeat"), "repeat", expr=True),
        r.code_or_stub(d.get("while"), "while", expr=True),
        r.text(d["counter"], "counter") if "counter" in d else None,
        r.span(d["name"]) if "name" in d else r.span(n),
    )


def _scenario(source: _Source, sink: Sink) -> ir.ScenarioDecl | None:
    node, r = compose(source, sink)
    if node is None:
        if not r.failed:
            sink.error(codes.MISSING_KEY, Span(r.file, 1, 1, 1, 1), messages.EMPTY_SCENARIO_FILE)
        return None
    d = r.keys(node, "a scenario", SCENARIO_KEYS, SCENARIO_REQUIRED)
    opts = (
        [(k.value, r.value(v)) for k, v in r.mapping(d["options"], "scenario options")]
        if "options" in d
        else []
    )
    dice = r.data(d["dice"]) if "dice" in d else []
    if not isinstance(dice, list) or not all(isinstance(x, int) for x in dice):
        sink.error(codes.WRONG_VALUE_TYPE, r.span(d["dice"]), messages.DICE_NOT_INTEGERS)
        dice = []
    shuffles = [
        tuple(r.value(x) for x in r.seq(s, "a shuffle"))
        for s in (r.seq(d["shuffles"], "shuffles") if "shuffles" in d else [])
    ]
    skip = (
        tuple(ir.Value(x.value, r.span(x)) for x in r.seq(d["skip"], "skip") if isinstance(x, ScalarNode))
        if "skip" in d
        else ()
    )
    draws = [
        tuple(r.value(x) for x in r.seq(s, "a draw"))
        for s in (r.seq(d["draws"], "draws") if "draws" in d else [])
    ]
    picks = tuple(r.value(x) for x in r.seq(d["picks"], "picks")) if "picks" in d else ()
    if "draws" in d and "shuffles" in d:
        sink.error(codes.BAD_SCENARIO, r.span(d["draws"]), messages.SHUFFLES_AND_DRAWS)
    steps = _scenario_steps(node, d, r, sink)
    return ir.ScenarioDecl(
        name=r.text(d.get("name"), "name", source.path.stem),
        doc=r.text(d.get("doc"), "doc"),
        file=r.file,
        seed=r.integer(d.get("seed"), "seed", 1),
        options=tuple(opts),
        setup=r.code(d.get("setup"), "setup"),
        dice=tuple(dice),
        shuffles=tuple(shuffles),
        draws=tuple(draws),
        picks=picks,
        skip=skip,
        start_at=ir.Value(d["start_at"].value, r.span(d["start_at"]))
        if "start_at" in d and isinstance(d["start_at"], ScalarNode)
        else None,
        steps=steps,
        span=r.span(node),
    )


def _scenario_steps(node: Node, d: dict[str, Node], r: Reader, sink: Sink) -> tuple[ir.ScenarioStep, ...]:
    """A scenario's `steps`, or the one step its own `actions` and expectations make."""
    if "steps" in d:
        for k in [k for k in ("actions", *STEP_EXPECT_KEYS) if k in d]:
            sink.error(
                codes.BAD_SCENARIO, r.span(d[k]), messages.key_outside_step(k), messages.KEY_OUTSIDE_STEP_NOTE
            )
        steps = tuple(_step(x, r, sink) for x in r.seq(d["steps"], "steps"))
        if not steps:
            sink.error(codes.BAD_SCENARIO, r.span(d["steps"]), messages.NO_STEPS)
    elif "actions" in d:
        steps = (_step(node, r, sink, d),)
    else:
        sink.error(codes.MISSING_KEY, r.span(node), messages.NO_ACTIONS)
        steps = ()
    for st in steps[:-1]:
        if st.expect_error is not None:
            sink.error(codes.BAD_SCENARIO, st.span, messages.ERROR_BEFORE_LAST_STEP)
    return steps


def _step(node: Node, r: Reader, sink: Sink, keys: dict[str, Node] | None = None) -> ir.ScenarioStep:
    """One step: its actions and expectations (`keys`: a scenario's own, when it has no `steps`)."""
    d = keys if keys is not None else r.keys(node, "a step", STEP_KEYS)
    # labels are read as written: `yes` is the action "yes", not a YAML boolean
    actions = (
        tuple(
            ir.Value(x.value, r.span(x)) if isinstance(x, ScalarNode) else r.value(x)
            for x in r.seq(d["actions"], "actions")
        )
        if "actions" in d
        else ()
    )
    expect = tuple(
        c
        for x in (r.seq(d["expect"], "expect") if "expect" in d else [])
        if (c := r.code(x, "expect", expr=True)) is not None
    )

    def label(key: str) -> ir.Value | None:
        if key not in d:
            return None
        n = r.scalar(d[key], key)
        return ir.Value(n.value, r.span(n)) if n is not None else None

    def views(key: str) -> tuple[tuple[ir.Value, tuple[str, ...]], ...]:
        if key not in d:
            return ()
        return tuple(
            (ir.Value(k.value, r.span(k)), tuple(r.strings(v, f"{key} of {k.value}")))
            for k, v in r.mapping(d[key], key)
        )

    return ir.ScenarioStep(
        actions=actions,
        expect=expect,
        expect_error=r.text(d["expect_error"], "expect_error") if "expect_error" in d else None,
        expect_log=tuple(r.strings(d["expect_log"], "expect_log")) if "expect_log" in d else (),
        expect_no_log=tuple(r.strings(d["expect_no_log"], "expect_no_log")) if "expect_no_log" in d else (),
        expect_legal=tuple(r.strings(d["expect_legal"], "expect_legal")) if "expect_legal" in d else None,
        expect_to_act=label("expect_to_act"),
        expect_prompt=r.text(d["expect_prompt"], "expect_prompt") if "expect_prompt" in d else None,
        expect_winner=label("expect_winner"),
        expect_invariants=tuple(
            ir.Value(n.value, r.span(n))
            for x in r.seq(d["expect_invariants"], "expect_invariants")
            if (n := r.scalar(x, "expect_invariants"))
        )
        if "expect_invariants" in d
        else (),
        expect_seen=views("expect_seen"),
        expect_unseen=views("expect_unseen"),
        span=r.span(node),
        expect_winners=(
            tuple(
                ir.Value(n.value, r.span(n))
                for x in r.seq(d["expect_winners"], "expect_winners")
                if (n := r.scalar(x, "expect_winners"))
            )
            if "expect_winners" in d
            else None
        ),
    )
