"""Streamed JSON: a UTF-8 file read a chunk at a time -> its values, one member or element at a
time, in memory bounded by a chunk and by the values the caller takes whole (never by the file).

What `json.loads` would reject is rejected here too, with its message and its line and column;
scalars and small values are parsed by `json`'s own C scanner, so they come out as `json.loads`
makes them. Where a value starts is a byte offset, so a second stream can read it again.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO, NamedTuple

CHUNK = 2**18  # bytes read at a time
MAX_DEPTH = 1000  # about where `json.loads` gives up (its C scanner recurses)
_WS = " \t\n\r"
# runs of array elements the caller need not see one by one: texts without escapes, integers
# (possessive: nothing to backtrack into, which makes the match about three times faster)
_STRING_RUN = re.compile(r'(?:"[^"\\\x00-\x1f]*+"[ \t\n\r]*+,[ \t\n\r]*+)++')
_INT_RUN = re.compile(r"(?:-?+(?:0|[1-9][0-9]{0,17}+)[ \t\n\r]*+,[ \t\n\r]*+)++")
# json's C scanner, as `json.loads` uses it (typeshed does not declare the attribute)
_SCAN: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
END = object()  # what `element` returns at the end of an array


class StreamError(ValueError):
    """What a stream found wrong with its file (each kind below says what)."""


class JsonError(StreamError):
    """The text is not JSON: `msg` in `json`'s words, at a 1-based line and column."""

    def __init__(self, msg: str, line: int, col: int) -> None:
        super().__init__(f"{msg}: line {line} column {col}")
        self.msg, self.line, self.col = msg, line, col


class NotUtf8(StreamError):
    """A byte that is not UTF-8 text, at `offset` in the file, on 1-based `line`."""

    def __init__(self, byte: int, offset: int, line: int) -> None:
        super().__init__(f"byte 0x{byte:02x} at offset {offset} is not UTF-8")
        self.byte, self.offset, self.line = byte, offset, line


class TooDeep(StreamError):
    """Arrays and objects nested deeper than MAX_DEPTH."""


class TooLong(StreamError):
    """A value taken whole that is longer than the caller allowed."""


class BadNumber(StreamError):
    """A number `int` refuses to convert (more digits than Python's limit): its words."""


class Mark(NamedTuple):
    """A place in the file: its byte offset, the newlines before it, the characters after the last."""

    offset: int
    lines: int
    col: int


class JsonStream:
    """A reader of a JSON text from a place in its file, where a value or a member starts."""

    def __init__(self, file: BinaryIO, at: Mark) -> None:
        file.seek(at.offset)
        self.file = file
        self._decoder = codecs.getincrementaldecoder("utf-8")()
        self._buf = ""  # decoded text from file offset `_base`
        self._pos = 0
        self._base = at.offset  # byte offset of _buf[0]
        self._read_to = at.offset  # byte offset of the end of what was read
        self._lines_read = at.lines  # newlines in the file up to _read_to
        self._lines = at.lines  # newlines before _buf[0]
        self._col = at.col  # characters between the last newline and _buf[0]
        self._eof = False
        self._first = True  # no element of the current array read yet

    # -- the buffer ----------------------------------------------------------------------------
    def _more(self) -> bool:
        """Read another chunk (dropping what was consumed); False at the end of the file."""
        if self._eof:
            return False
        done = self._buf[: self._pos]
        if done:
            self._base += len(done.encode())
            newline = done.rfind("\n")
            self._lines += done.count("\n")
            self._col = len(done) - newline - 1 if newline >= 0 else self._col + len(done)
            self._buf, self._pos = self._buf[self._pos :], 0
        raw = self.file.read(CHUNK)
        self._eof = not raw
        pending = len(self._decoder.getstate()[0])
        try:
            text = self._decoder.decode(raw, final=self._eof)
        except UnicodeDecodeError as exc:
            data = exc.object
            line = self._lines_read + data.count(b"\n", 0, exc.start) + 1
            raise NotUtf8(data[exc.start], self._read_to - pending + exc.start, line) from None
        self._read_to += len(raw)
        self._lines_read += raw.count(b"\n")
        self._buf += text
        return not self._eof or bool(text)

    def _skip_ws(self) -> str:
        """The next character that is not white space ('' at the end of the file)."""
        while True:
            buf, pos = self._buf, self._pos
            while pos < len(buf) and buf[pos] in _WS:
                pos += 1
            self._pos = pos
            if pos < len(buf):
                return buf[pos]
            if not self._more():
                return ""

    def error(self, msg: str, pos: int | None = None) -> JsonError:
        pos = self._pos if pos is None else pos
        newline = self._buf.rfind("\n", 0, pos)
        col = pos - newline if newline >= 0 else self._col + pos + 1
        return JsonError(msg, self._lines + self._buf.count("\n", 0, pos) + 1, col)

    def mark(self) -> Mark:
        """Where the next character not yet read is, for a stream to start there later."""
        pos = self._pos
        newline = self._buf.rfind("\n", 0, pos)
        col = pos - newline - 1 if newline >= 0 else self._col + pos
        offset = self._base + len(self._buf[:pos].encode())
        return Mark(offset, self._lines + self._buf.count("\n", 0, pos), col)

    # -- values ---------------------------------------------------------------------------------
    def peek(self) -> str:
        """The first character of what comes next, after white space ('' at the end)."""
        return self._skip_ws()

    def at_end(self) -> None:
        """Only white space may follow (`json`'s 'Extra data' otherwise)."""
        if self._skip_ws():
            raise self.error("Extra data")

    def expect(self, char: str, msg: str) -> None:
        if self._skip_ws() != char:
            raise self.error(msg)
        self._pos += 1

    def take(self, limit: int) -> Any:
        """The value that starts here, parsed whole; TooLong past `limit` characters."""
        if not self._skip_ws():
            raise self.error("Expecting value")
        while True:
            start, buf = self._pos, self._buf
            try:
                value, end = _SCAN(buf, start)
            except StopIteration:
                if self._grow(start, limit, start + 8):
                    continue
                raise self.error("Expecting value") from None
            except json.JSONDecodeError as exc:
                near = exc.pos + 8 if not exc.msg.startswith("Unterminated") else len(buf)
                if self._grow(start, limit, near):
                    continue
                raise self.error(exc.msg, exc.pos) from None
            except RecursionError:
                raise TooDeep() from None
            except ValueError as exc:  # an integer of more digits than Python converts
                raise BadNumber(str(exc)) from None
            if len(buf) - end < 4 and self._grow(start, limit, len(buf)):
                continue  # a number may go on in the next chunk ("1" then ".5e+3")
            self._pos = end
            return value

    def _grow(self, start: int, limit: int, near: int) -> bool:
        """Read more for a value from `start` cut short at `near`; False when more cannot help."""
        if near < len(self._buf) or self._eof:
            return False
        if len(self._buf) - start > limit:
            raise TooLong()
        self._pos = start
        self._more()
        return True

    def key(self, first: bool) -> str | None:
        """The next member's name in an object (its ':' read), or None at the object's end."""
        char = self._skip_ws()
        if char == "}":
            self._pos += 1
            return None
        if not first:
            if char != ",":
                raise self.error("Expecting ',' delimiter")
            self._pos += 1
            char = self._skip_ws()
        if char != '"':
            raise self.error("Expecting property name enclosed in double quotes")
        name = self.take(2**16)
        self.expect(":", "Expecting ':' delimiter")
        assert isinstance(name, str)
        return name

    def begin_array(self) -> bool:
        """Enter the array that starts here (False if what starts here is no array)."""
        if self._skip_ws() != "[":
            return False
        self._pos += 1
        self._first = True
        return True

    def element(self, limit: int) -> Any:
        """The next element of the array entered by `begin_array`, taken whole; END after it."""
        char = self._skip_ws()
        if char == "]":
            self._pos += 1
            return END
        if not self._first:
            if char != ",":
                raise self.error("Expecting ',' delimiter")
            self._pos += 1
        self._first = False
        return self.take(limit)

    def skip_run(self, ints: bool) -> int:
        """At the comma after an array's element: skip the next elements while they are plain
        texts (or integers), at C speed; how many. The comma before the element after them is
        left for `element` (or `skip`)."""
        count = 0
        run = _INT_RUN if ints else _STRING_RUN
        self._skip_ws()
        while True:
            buf, pos = self._buf, self._pos
            if pos < len(buf) and buf[pos] == ",":
                pos += 1
                while pos < len(buf) and buf[pos] in _WS:
                    pos += 1
            else:
                return count
            found = run.match(buf, pos)
            if found is None:
                return count
            end = found.end()
            # back up to the comma before the last element matched, which `element` then reads
            last = buf.rfind(",", pos, end)
            count += buf.count(",", pos, last) + 1 if ints else buf.count('"', pos, last) // 2
            self._pos = last
            if end < len(buf) - 64 or not self._more():
                return count  # the run stopped at something else, or at the end of the file

    def skip(self) -> None:
        """Skip the value that starts here, however large, keeping only a stack of its depth."""
        closers: list[str] = []
        while True:
            char = self._skip_ws()
            if char in ("[", "{"):
                self._pos += 1
                closers.append("]" if char == "[" else "}")
                if len(closers) > MAX_DEPTH:
                    raise TooDeep()
                if self._skip_ws() == closers[-1]:
                    self._pos += 1
                    closers.pop()
                elif char == "{":
                    self._member_name()
                    continue
                else:
                    continue
            else:
                self._scalar()
            while closers:  # after a value: a comma or the end of its array or object
                char = self._skip_ws()
                if char == closers[-1]:
                    self._pos += 1
                    closers.pop()
                elif char != ",":
                    raise self.error("Expecting ',' delimiter")
                elif closers[-1] == "}":
                    self._pos += 1
                    self._member_name()
                    break
                else:
                    self.skip_run(ints=False)
                    self._pos += 1  # the comma before the next element
                    break
            if not closers:
                return

    def _member_name(self) -> None:
        if self._skip_ws() != '"':
            raise self.error("Expecting property name enclosed in double quotes")
        self._scalar()
        self.expect(":", "Expecting ':' delimiter")

    def _scalar(self) -> None:
        if self._skip_ws() in ("[", "{"):  # pragma: no cover - callers handle arrays and objects
            raise AssertionError("not a scalar")
        self.take(2**62)  # a text or a number: its length is the file's to bound


def kind(first: str) -> str:
    """The kind of JSON value that starts with `first`, as a message names it."""
    return {"{": "object", "[": "list", '"': "string", "n": "null", "t": "boolean", "f": "boolean"}.get(
        first, "number"
    )


def elements(stream: JsonStream, limit: int) -> Iterator[Any]:
    """The elements of the array entered by `stream.begin_array()`, each taken whole."""
    while (value := stream.element(limit)) is not END:
        yield value
