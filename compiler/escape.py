"""Escape: spec text -> the only forms in which it may appear in generated Python.

Spec text (titles, labels, prompts, log texts, file names) is untrusted. It reaches generated code
as a `repr` literal (data), inside a `#` comment through `comment_text`, or inside a docstring
through `docstring_text`; never spliced raw, so no spec can add a line of code.
"""

from __future__ import annotations


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def comment_text(text: str) -> str:
    """Spec text for a `#` comment: anything that could end the line (or the file) escaped."""
    if text.isprintable():  # the common case, at C speed
        return text
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in text)


def docstring_text(text: str) -> str:
    """Spec text for the inside of a triple-quoted docstring: quotes and backslashes escaped, and
    anything unprintable shown as its escape (`\\x0a`), so nothing can close the docstring and it
    holds no control character or lone surrogate (a class docstring with one fails to load)."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch.isprintable():
            out.append(ch)
        else:
            out.append("\\" + _escape(ch))
    return "".join(out)
