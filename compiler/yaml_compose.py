"""YAML text -> a tree of yaml.nodes, like `yaml.compose`, but bounded and without recursion.

PyYAML's composers recurse once per level of nesting (5,000 levels raise RecursionError and
50,000 crash libyaml's C composer) and share the node an alias names, so a tiny file of nested
aliases stands for billions of nodes that any walk of the tree then visits ("billion laughs"),
and an alias inside the node it names makes a cycle. This composer builds the same nodes from
the parser's event stream with an explicit stack, and refuses nesting deeper than MAX_YAML_DEPTH,
aliases standing for more than MAX_ALIAS_NODES nodes in all, and recursive aliases.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import yaml
from yaml.composer import ComposerError
from yaml.error import Mark
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import Resolver

from compiler import errorcodes as codes
from compiler import messages
from compiler.errorcodes import ErrorCode
from compiler.limits import MAX_ALIAS_NODES, MAX_YAML_DEPTH

# What a YAML escape ("\\e", "\\x00", "\\ud800") can put in a string but spec text may not hold:
# control characters other than tab and line feed (a terminal runs them: spec text is shown in
# terminals and logs) and lone surrogates (no file or terminal can encode them).
_UNSHOWABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")

# libyaml's parser when PyYAML has it (much faster); both give the same events and marks.
FAST_LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
if FAST_LOADER is not yaml.SafeLoader:

    class _CachedTagsLoader(FAST_LOADER):  # type: ignore[misc]
        """libyaml's loader, the tag of each plain scalar resolved once (see _plain_tags): its
        composer asks the resolver, in Python, for every scalar it reads."""

        def resolve(self, kind: type[Node], value: str | None, implicit: tuple[bool, bool]) -> str:
            if kind is ScalarNode:
                if not implicit[0]:  # quoted, or a block: a string
                    return _STR
                tag = _plain_tags.get(value)  # type: ignore[arg-type]
                if tag is None:
                    tag = _plain_tag(self, value)  # type: ignore[arg-type]
                return tag
            resolved: str = super().resolve(kind, value, implicit)
            return resolved

    FAST_LOADER = _CachedTagsLoader


class Refused(Exception):
    """YAML that parses but is refused: the diagnostic code, where, the message and notes."""

    def __init__(self, code: ErrorCode, mark: Mark, message: str, *notes: str) -> None:
        super().__init__(message)
        self.code = code
        self.mark = mark
        self.message = message
        self.notes = notes


@dataclass(slots=True)
class _Open:
    """A list or mapping whose end has not been read yet."""

    node: SequenceNode | MappingNode
    anchor: str | None
    size: int = 1  # nodes it stands for so far, aliases counted in full
    height: int = 1  # levels of nesting below and including it
    key: Node | None = None  # a mapping's key waiting for its value


@dataclass(frozen=True)
class _Anchored:
    node: Node
    size: int
    height: int


def compose(text: str, loader: type = FAST_LOADER) -> Node | None:
    """The single document of `text` (None when empty). Raises yaml.YAMLError or Refused."""
    if loader is not yaml.SafeLoader and _one_plain_document(text):
        node: Node | None
        if _shallow(text):
            node = yaml.compose(text, Loader=loader)
            return node
        if _within_libyaml(text):
            node = yaml.compose(text, Loader=loader)
            if node is None or _depth(node) <= MAX_YAML_DEPTH:
                return node
            # too deep: this composer refuses it, at the place it goes too deep
    parser = loader(text)
    try:  # the parser's events read one by one, as yaml.parse does but without its generator
        return _Composer(parser.get_event).single_document()
    finally:
        parser.dispose()


def _plain(text: str) -> bool:
    """Whether libyaml's own composer (in C, twice as fast) may compose `text` as it is: it then
    builds the same nodes as this one, and there is nothing this one would refuse (see
    _one_plain_document), and with fewer characters that open a level (`:`, `-`, `?`, `[`, `{`)
    than MAX_YAML_DEPTH, nothing nests that deep."""
    return _one_plain_document(text) and _shallow(text)


def _one_plain_document(text: str) -> bool:
    """Whether libyaml's composer builds the same nodes from `text` as this one, and this one
    refuses nothing but perhaps nesting too deep. Without `&` or `*` where a node may start
    (an anchor or an alias is a token of its own: after a space, a line's start, a flow
    indicator or `:`, and followed by its name), there is no anchor or alias; without a
    backslash (an escape), a carriage return or a NEL, no scalar holds what _UNSHOWABLE finds
    (the file's text was checked for the rest: source.py); without a byte order mark or a line
    that starts with `%`, `---` or `...` (a directive, a document's start or end are written only
    there), there is one document."""
    if any(c in text for c in _NOT_PLAIN) or text.startswith(("---", "...", "%")):
        return False
    if "\n---" in text or "\n..." in text or "\n%" in text:
        return False
    return ("&" not in text and "*" not in text) or _PROPERTY.search(text) is None


_NOT_PLAIN = "\\\r\x85\u2028\u2029\ufeff"  # (libyaml breaks lines at NEL, LS and PS too)
_PROPERTY = re.compile(r"(?:^|[\s\[\]{},:?-])[&*][^\s\[\]{},]", re.MULTILINE)  # an anchor or an alias


def _shallow(text: str) -> bool:
    """Fewer characters that open a level (`:`, `-`, `?`, `[`, `{`) than MAX_YAML_DEPTH."""
    return sum(text.count(c) for c in ":-?[{") < MAX_YAML_DEPTH


# how deep libyaml's composer may be let nest (it recurses in C once per level, and 50,000
# levels crash it); _depth then measures what it built against MAX_YAML_DEPTH
_LIBYAML_DEPTH = 1_000


def _within_libyaml(text: str) -> bool:
    """Whether `text` surely nests less than _LIBYAML_DEPTH deep: a block collection inside
    another starts further right, but for a list that is a mapping's value, so block
    collections nest at most twice as deep as lines are long; inside them, each flow collection
    opens with its own `[` or `{`."""
    longest = max(map(len, text.split("\n")))
    return 2 * (longest + 1) + text.count("[") + text.count("{") < _LIBYAML_DEPTH


def _depth(root: Node) -> int:
    """How deep lists and mappings nest in a tree without aliases (0: a scalar)."""
    depth = 0
    level = [] if type(root) is ScalarNode else [root]
    while level:
        depth += 1
        inside: list[Node] = []
        for node in level:
            if type(node) is MappingNode:
                for key, value in node.value:
                    if type(key) is not ScalarNode:
                        inside.append(key)
                    if type(value) is not ScalarNode:
                        inside.append(value)
            else:
                inside.extend(item for item in node.value if type(item) is not ScalarNode)
        level = inside
    return depth


def _mark(mark: object) -> Mark:
    """An event's mark. libyaml's are yaml._yaml.Mark, with the same line and column."""
    return cast(Mark, mark)


def _where(mark: Mark) -> str:
    return f"{mark.line + 1}:{mark.column + 1}"


# the tag of a scalar that is quoted or a block (SafeLoader resolves no tag by a node's path)
_STR = Resolver.DEFAULT_SCALAR_TAG
# a plain scalar -> the tag YAML resolves it to (ids, numbers and names repeat in every file)
_plain_tags: dict[str, str] = {}
_MAX_PLAIN_TAGS = 100_000


def _plain_tag(resolver: Resolver, value: str) -> str:
    """The tag of a plain scalar, kept in _plain_tags."""
    if len(_plain_tags) >= _MAX_PLAIN_TAGS:
        _plain_tags.clear()
    tag: str = Resolver.resolve(resolver, ScalarNode, value, (True, False))  # type: ignore[no-untyped-call]
    _plain_tags[value] = tag
    return tag


class _Composer:
    def __init__(self, next_event: Callable[[], Event]) -> None:
        # what libyaml gives: its events, with its own marks (the same line and column as Mark's)
        self.next_event: Callable[[], Any] = next_event
        self.resolver = Resolver()
        self.anchors: dict[str, _Anchored] = {}
        self.open_anchors: dict[str, Mark] = {}
        self.alias_nodes = 0

    def single_document(self) -> Node | None:
        self.next_event()  # the stream's start
        event = self.next_event()
        if isinstance(event, StreamEndEvent):
            return None
        root = self.node()
        self.next_event()  # the document's end
        event = self.next_event()
        if isinstance(event, DocumentStartEvent):
            raise ComposerError(None, None, messages.SECOND_DOCUMENT, _mark(event.start_mark))
        return root

    def node(self) -> Node:
        """Read the events of one node (the document's root) and return it."""
        stack: list[_Open] = []
        next_event, unshowable = self.next_event, _UNSHOWABLE.search
        while True:
            event = next_event()
            start: Mark = event.start_mark
            kind = type(event)
            node: Node
            if kind is ScalarEvent:
                tag = event.tag
                if tag is None or tag == "!":
                    tag = _plain_tags.get(event.value) if event.implicit[0] else None
                    if tag is None:
                        tag = self.scalar_tag(event.value, event.implicit)
                bad = unshowable(event.value)
                if bad is not None:
                    ch = bad.group()
                    what = "a lone surrogate" if "\ud800" <= ch <= "\udfff" else "a control character"
                    raise Refused(
                        codes.NOT_TEXT,
                        start,
                        messages.unshowable_text(what, ascii(ch)[1:-1]),
                        messages.UNSHOWABLE_TEXT_NOTE,
                    )
                node = ScalarNode(tag, event.value, start, event.end_mark, style=event.style)
                size, height = 1, 1
                if event.anchor is not None:
                    self.anchor(event.anchor, node, start, open_=False)
            elif kind is AliasEvent:
                node, size, height = self.alias(event, len(stack))
            elif kind is SequenceStartEvent or kind is MappingStartEvent:
                if len(stack) >= MAX_YAML_DEPTH:
                    raise Refused(
                        codes.LIMIT_EXCEEDED,
                        start,
                        messages.yaml_too_deep(MAX_YAML_DEPTH),
                        messages.protects_the_tool("MAX_YAML_DEPTH"),
                    )
                opens = SequenceNode if kind is SequenceStartEvent else MappingNode
                tag = event.tag
                if tag is None or tag == "!":
                    tag = self.resolver.resolve(opens, None, event.implicit)  # type: ignore[no-untyped-call]
                opened = opens(tag, [], start, None, flow_style=event.flow_style)
                if event.anchor is not None:
                    self.anchor(event.anchor, opened, start, open_=True)
                stack.append(_Open(opened, event.anchor))
                continue
            elif kind is SequenceEndEvent or kind is MappingEndEvent:
                done = stack.pop()
                done.node.end_mark = event.end_mark
                node, size, height = done.node, done.size, done.height
                if done.anchor is not None:
                    self.anchors[done.anchor] = _Anchored(node, size, height)
                    del self.open_anchors[done.anchor]
            else:  # pragma: no cover - the parser gives no other event inside a document
                raise ComposerError(None, None, messages.unexpected_event(type(event).__name__), start)
            if not stack:
                return node
            parent = stack[-1]
            parent.size += size
            if height >= parent.height:
                parent.height = height + 1
            if isinstance(parent.node, SequenceNode):
                parent.node.value.append(node)
            elif parent.key is None:
                parent.key = node
            else:
                parent.node.value.append((parent.key, node))
                parent.key = None

    def scalar_tag(self, value: str, implicit: tuple[bool, bool]) -> str:
        """The tag YAML gives a scalar written without one."""
        if not implicit[0]:  # quoted or a block: a string
            tag: str = self.resolver.resolve(ScalarNode, value, implicit)  # type: ignore[no-untyped-call]
            return tag
        tag_ = _plain_tags.get(value)
        if tag_ is None:
            tag_ = _plain_tag(self.resolver, value)
        return tag_

    def anchor(self, name: str, node: Node, mark: Mark, *, open_: bool) -> None:
        first = self.open_anchors.get(name) or (
            self.anchors[name].node.start_mark if name in self.anchors else None
        )
        if first is not None:
            raise ComposerError(
                messages.anchor_first_defined(name),
                first,
                messages.anchor_defined_twice(name),
                mark,
            )
        if open_:
            self.open_anchors[name] = mark
        self.anchors[name] = _Anchored(node, 1, 1)

    def alias(self, event: AliasEvent, depth: int) -> tuple[Node, int, int]:
        name = event.anchor
        if name in self.open_anchors:
            raise Refused(
                codes.YAML_SYNTAX,
                _mark(event.start_mark),
                messages.alias_inside_itself(name),
                messages.anchor_is_at(name, _where(self.open_anchors[name])),
            )
        if name not in self.anchors:
            raise ComposerError(None, None, messages.alias_without_anchor(name), _mark(event.start_mark))
        target = self.anchors[name]
        self.alias_nodes += target.size
        if self.alias_nodes > MAX_ALIAS_NODES:
            raise Refused(
                codes.LIMIT_EXCEEDED,
                _mark(event.start_mark),
                messages.aliases_too_many(MAX_ALIAS_NODES),
                messages.ALIASES_TOO_MANY_NOTE,
            )
        if depth + target.height > MAX_YAML_DEPTH:
            raise Refused(
                codes.LIMIT_EXCEEDED,
                _mark(event.start_mark),
                messages.alias_too_deep(name, MAX_YAML_DEPTH),
                messages.protects_the_tool("MAX_YAML_DEPTH"),
            )
        return target.node, target.size, target.height
