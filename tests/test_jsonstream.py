"""rulewright/jsonstream.py: a streamed JSON text is accepted or refused as `json.loads` would,
with its message, line and column, whatever the chunk boundaries; its runs and marks."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulewright import jsonstream
from rulewright.jsonstream import END, JsonError, JsonStream, Mark, TooDeep

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**25), max_value=10**25),
    st.floats(allow_nan=False),
    st.text(max_size=8),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=30,
)
EDITS = st.sampled_from(["", ",", "]", "}", '"', "\\", "\n", "1", " x", "[", "\x01", "é"])


def json_verdict(text: str) -> tuple[str, int, int] | str | None:
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return exc.msg, exc.lineno, exc.colno
    except RecursionError:
        return "too deep"
    return None


def stream_verdict(text: str) -> tuple[str, int, int] | str | None:
    stream = JsonStream(io.BytesIO(text.encode()), Mark(0, 0, 0))
    try:
        stream.skip()
        stream.at_end()
    except JsonError as exc:
        return exc.msg, exc.line, exc.col
    except TooDeep:
        return "too deep"
    return None


@settings(max_examples=100)  # derandomized: the same 100 edits each run, about 3 s
@given(
    VALUES,
    st.sampled_from([None, 1]),
    st.booleans(),
    st.integers(min_value=0),
    EDITS,
    st.booleans(),
    st.sampled_from([3, 7, 64, 2**20]),
)
def test_stream_agrees_with_json(
    value: Any, indent: int | None, ascii: bool, at: int, edit: str, replace: bool, chunk: int
) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii)
    at %= len(text) + 1
    if edit or replace:
        text = text[:at] + edit + text[at + replace :]
    old, jsonstream.CHUNK = jsonstream.CHUNK, chunk
    try:
        assert stream_verdict(text) == json_verdict(text), text
    finally:
        jsonstream.CHUNK = old


@pytest.mark.parametrize("chunk", [5, 64, 2**20])
def test_runs_count_and_marks_restart(chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs of plain texts and integers are counted right across chunks, and a stream started
    at a mark reads on from there, its lines and columns those of the file."""
    monkeypatch.setattr(jsonstream, "CHUNK", chunk)
    labels = [f"label {i}, {'x' * (i % 7)}" for i in range(500)] + ["é\n\\u", "plain"]
    text = json.dumps({"a": labels, "b": list(range(-3, 700)), "c": 1}, indent=1, ensure_ascii=False)
    stream = JsonStream(io.BytesIO(text.encode()), Mark(0, 0, 0))
    stream.expect("{", "")
    counted: dict[str, int] = {}
    marks: dict[str, Mark] = {}
    first = True
    while (key := stream.key(first)) is not None and key != "c":
        first = False
        marks[key] = stream.mark()
        assert stream.begin_array()
        n = 0
        while True:
            n += stream.skip_run(ints=key == "b")
            if stream.element(100) is END:
                break
            n += 1
        counted[key] = n
    assert counted == {"a": 502, "b": 703}
    again = JsonStream(io.BytesIO(text.encode()), marks["b"])
    assert again.begin_array()
    assert list(jsonstream.elements(again, 100)) == list(range(-3, 700))
    with pytest.raises(JsonError) as caught:
        again.expect("}", "Expecting '}'")
    want = text.index(',\n "c"')
    line, col = text.count("\n", 0, want) + 1, want - text.rfind("\n", 0, want)
    assert (caught.value.line, caught.value.col) == (line, col)
