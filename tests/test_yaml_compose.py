"""compiler/yaml_compose.py: libyaml's own composer, for text it may compose, builds what ours does."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from yaml.nodes import CollectionNode, Node, ScalarNode

from compiler import yaml_compose

REPO_ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(
    p
    for folder in ("specs", "tests")
    for p in (REPO_ROOT / folder).rglob("*.yaml")
    if p.is_file() and not p.is_symlink()
)


def _shape(node: Node | None) -> list[object]:
    """Every node of a tree, in order, with its tag, marks, value or style."""
    out: list[object] = []
    stack: list[Node | None] = [node]
    while stack:
        n = stack.pop()
        if n is None:
            out.append(None)
            continue
        marks = (
            n.start_mark.index,
            n.start_mark.line,
            n.start_mark.column,
            n.end_mark.index,
            n.end_mark.line,
        )
        if isinstance(n, ScalarNode):
            out.append((type(n).__name__, n.tag, marks, n.value, n.style))
            continue
        assert isinstance(n, CollectionNode)
        out.append((type(n).__name__, n.tag, marks, n.flow_style, len(n.value)))
        for item in reversed(n.value):
            stack.extend(reversed(item) if isinstance(item, tuple) else [item])
    return out


def test_libyaml_composes_the_plain_files_as_we_do() -> None:
    plain = 0
    for path in FILES:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if not yaml_compose._plain(text):
            continue
        plain += 1
        try:
            parser = yaml.CSafeLoader(text)
            ours = _shape(yaml_compose._Composer(parser.get_event).single_document())  # type: ignore[arg-type]
        except yaml.YAMLError as exc:  # libyaml's parser fails the same way under both composers
            with pytest.raises(type(exc)):
                yaml_compose.compose(text)
            continue
        assert _shape(yaml_compose.compose(text)) == ours, path
    assert plain > 500  # most scenario files


@pytest.mark.parametrize(
    "text",
    [
        "a: &x [1]\nb: *x\n",  # an alias: ours bounds what it stands for
        'a: "\\x07"\n',  # an escape may make a control character
        "a: 1\n---\nb: 2\n",  # a second document
        "a: " + "[" * 120 + "]" * 120 + "\n",  # deeper than MAX_YAML_DEPTH
        "a: 1\r\nb: 2\r\n",
    ],
)
def test_what_ours_must_see_is_not_plain(text: str) -> None:
    assert not yaml_compose._plain(text)


def test_libyaml_composes_the_larger_files_as_we_do() -> None:
    """A file with too many `:`, `-`, `[` to be plain is composed by libyaml, then measured."""
    larger = 0
    for path in FILES:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if yaml_compose._shallow(text) or not yaml_compose._one_plain_document(text):
            continue
        larger += 1
        try:
            parser = yaml.CSafeLoader(text)
            ours = _shape(yaml_compose._Composer(parser.get_event).single_document())  # type: ignore[arg-type]
        except (yaml.YAMLError, yaml_compose.Refused) as exc:
            with pytest.raises(type(exc)):
                yaml_compose.compose(text)
            continue
        assert _shape(yaml_compose.compose(text)) == ours, path
    assert larger > 20  # the rule files of the larger games


@pytest.mark.parametrize(
    "text",
    [
        "".join(" " * i + "-\n" for i in range(0, 240, 2)),  # block lists, each inside the last
        "a: " + "[" * 120 + "]" * 120 + "\n",
        "".join(" " * i + f"k{i}:\n" for i in range(0, 240, 2)) + " " * 240 + "v\n",
    ],
)
def test_too_deep_is_refused_where_ours_refuses_it(text: str) -> None:
    parser = yaml.CSafeLoader(text)
    with pytest.raises(yaml_compose.Refused) as ours:
        yaml_compose._Composer(parser.get_event).single_document()  # type: ignore[arg-type]
    with pytest.raises(yaml_compose.Refused) as got:
        yaml_compose.compose(text)
    assert (got.value.mark.line, got.value.mark.column, got.value.message) == (
        ours.value.mark.line,
        ours.value.mark.column,
        ours.value.message,
    )


@pytest.mark.parametrize(
    ("text", "one_plain"),
    [
        ("a: 2 * b\n", True),  # a product in the rules' language
        ("a: from 000_*.txt\n", True),
        ("a: x ... y --- z\n", True),  # no document's end or start: those begin a line
        ("a: 50%\n", True),
        ("a: [*x]\n", False),
        ("a: {b: 1,*x: 2}\n", False),
        ("- !!str &x y\n", False),
        ("a: 1\n...\n", False),
        ("%YAML 1.1\n---\na: 1\n", False),
        ("a: 1\u2028---\u2028b: 2\n", False),  # libyaml breaks lines at LS
    ],
)
def test_one_plain_document(text: str, one_plain: bool) -> None:
    assert yaml_compose._one_plain_document(text) is one_plain
