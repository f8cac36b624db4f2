"""A DSL string's SourceMap: positions in the text the parser sees -> positions in the YAML file.

load.py builds one for each DSL string it reads; parse.py maps every node's span through it (and
builds one for an expression inside a string's `{...}`). It lives apart from both so that neither
imports the other.
"""

from __future__ import annotations

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
        y1, c1 = self._at(line, col)
        y2, c2 = self._at(end_line, end_col)
        return Span(self.file, y1, c1, y2, c2)

    def _at(self, line: int, col: int) -> tuple[int, int]:
        if self.chars:
            starts = self.starts
            offset = starts[max(0, min(line, len(starts)) - 1)] + col - 1
            if offset >= len(self.chars):
                yline, ycol = self.chars[-1]
                return yline, ycol + 1 + offset - len(self.chars)
            return self.chars[max(0, offset)]
        line = max(1, min(line, len(self.lines)))
        yline, ycol = self.lines[line - 1]
        return yline, ycol + col - 1

    def place(self, p: Place) -> Span:
        """Map a Place in `text` to the YAML file."""
        y1, c1 = self._at(p[0], p[1])
        y2, c2 = self._at(p[3], p[4])
        return Span(self.file, y1, c1 + p[2], y2, c2 + p[5])
