"""Text for a terminal: a text from a spec, a log, a saved state or the command line, as it may be
printed.

Such text is untrusted. Printed raw, an escape sequence (ESC ...) retitles or clears the
terminal, a CR or LF forges a line of output, and a bidi override (U+202E, U+2066 to U+2069)
reorders what follows it on the line. So every text shown on a terminal goes through `escaped`
(or `escaped_lines`, which keeps the line breaks of a text of several lines): each character
Python's repr would escape (`str.isprintable` is false: the C0 and C1 controls, DEL, line and
paragraph separators, format characters such as the bidi controls, unassigned code points,
lone surrogates) is written as repr writes it, `\\x1b`, `\\r`, `\\n`, `\\u202e`. Backslashes and
quotes stay as they are, so text without such characters is shown unchanged, and costs one call
of `str.isprintable`.
"""

from __future__ import annotations

__all__ = ["clipped", "cut", "escaped", "escaped_lines", "quoted"]


def _escape(ch: str) -> str:
    return repr(ch)[1:-1]  # '\x1b', '\n', '\u202e', '\U000e0001': never a quote or a backslash


def escaped(text: str) -> str:
    """A text for one line of a terminal: every character a terminal would act on or that
    changes how the line reads (a control, a line break, a bidi override) written as an escape."""
    if text.isprintable():  # the common case, at C speed
        return text
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in text)


def escaped_lines(text: str) -> str:
    """A text of several lines (a card's text) for a terminal: its LFs kept, each line escaped
    (a CR, a lone line separator and every other control shown as an escape)."""
    if text.isprintable():
        return text
    return "\n".join(escaped(line) for line in text.split("\n"))


def cut(text: str, limit: int = 60, ellipsis: str = "...") -> str:
    """A text of at most `limit` characters: cut short, with an ellipsis, if it is longer (a value
    named in a message may be megabytes). Not escaped: for a text that is escaped later, or never
    reaches a terminal as it is."""
    return text if len(text) <= limit else text[: limit - len(ellipsis)] + ellipsis


def clipped(text: str, limit: int = 60) -> str:
    """A text as a message repeats it: escaped, and cut short if it is long (a name may be
    megabytes). The cut is made before escaping, so it never splits an escape."""
    return escaped(cut(text, limit))


def quoted(text: str, limit: int = 60) -> str:
    """`clipped`, in quotes: a user's text named in a message."""
    return f"'{clipped(text, limit)}'"
