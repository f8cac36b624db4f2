"""A DSL string's SourceMap: positions in the text the parser sees -> positions in the YAML file.

load.py builds one for each DSL string it reads; parse.py maps every node's span through it (and
builds one for an expression inside a string's `{...}`). It lives apart from both so that neither
imports the other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from compiler.ir import Span

# Where a span sits in a DSL text, whatever the text's place in the YAML file: the line, column and
# shift of its start, then of its end. A shift moves the mapped column along the mapped line: an
# expression inside a string's `{...}` is placed from the start of that string (see parse.py).
Place = tuple[int, int, int, int, int, int]


@dataclass(frozen=True, slots=True)
class SourceMap:
    """The DSL text as the parser sees it, and where each of its lines sits in the YAML file."""

    file: str
    text: str
    # for each line of `text`: (1-based YAML line, 1-based YAML column of the line's first char)
    lines: tuple[tuple[int, int], ...]
    # for quoted YAML strings with escapes or folded lines: the YAML position of each char of `text`
    chars: tuple[tuple[int, int], ...] = ()
    # with `chars`: the offset in `text` where each of its lines starts
    starts: tuple[int, ...] = (0,)

    def span(self, line: int, col: int, end_line: int, end_col: int) -> Span:
        """Map a 1-based (line, col) range of `text` to the YAML file."""
        if self.chars:
            y1, c1 = self._char_at(line, col)
            y2, c2 = self._char_at(end_line, end_col)
            return Span(self.file, y1, c1, y2, c2)
        # a line of `text` starts where the map says (past the first or last line: as they do)
        lines, last = self.lines, len(self.lines)
        y1, c1 = lines[line - 1] if 0 < line <= last else lines[0 if line < 1 else -1]
        y2, c2 = lines[end_line - 1] if 0 < end_line <= last else lines[0 if end_line < 1 else -1]
        return Span(self.file, y1, c1 + col - 1, y2, c2 + end_col - 1)

    def place(self, p: Place, line_offset: int = 0) -> Span:
        """Map a Place in `text` (in its line `line_offset` + 1, as if that were line 1) to the
        YAML file."""
        line, col, shift, end_line, end_col, end_shift = p
        line += line_offset
        end_line += line_offset
        if self.chars:
            y1, c1 = self._char_at(line, col)
            y2, c2 = self._char_at(end_line, end_col)
            return Span(self.file, y1, c1 + shift, y2, c2 + end_shift)
        lines, last = self.lines, len(self.lines)
        y1, c1 = lines[line - 1] if 0 < line <= last else lines[0 if line < 1 else -1]
        y2, c2 = lines[end_line - 1] if 0 < end_line <= last else lines[0 if end_line < 1 else -1]
        return Span(self.file, y1, c1 + col - 1 + shift, y2, c2 + end_col - 1 + end_shift)

    def placer(self, line_offset: int = 0) -> Callable[[Place], Span]:
        """`place` with this `line_offset`, as one function: parse.py places every span of a copy
        of kept IR with it (most of them on one line of a text without escapes)."""
        if self.chars:
            return lambda p: self.place(p, line_offset)
        lines, last, file = self.lines, len(self.lines), self.file

        def place(p: Place) -> Span:
            first, col, shift, end_line, end_col, end_shift = p
            line = first + line_offset
            y1, c1 = lines[line - 1] if 0 < line <= last else lines[0 if line < 1 else -1]
            if end_line == first:
                y2, c2 = y1, c1
            else:
                end_line += line_offset
                y2, c2 = lines[end_line - 1] if 0 < end_line <= last else lines[0 if end_line < 1 else -1]
            return Span(file, y1, c1 + col - 1 + shift, y2, c2 + end_col - 1 + end_shift)

        return place

    def _char_at(self, line: int, col: int) -> tuple[int, int]:
        """Where a character of `text` is in the YAML file (past the end: beyond its last one)."""
        starts = self.starts
        offset = starts[max(0, min(line, len(starts)) - 1)] + col - 1
        if offset >= len(self.chars):
            yline, ycol = self.chars[-1]
            return yline, ycol + 1 + offset - len(self.chars)
        return self.chars[max(0, offset)]
