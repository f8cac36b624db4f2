"""A YAML syntax error (PyYAML's, with its marks) and the file's text -> a message in a designer's
words, located where the mistake most likely is.

PyYAML reports where it could not go on, often a line after the mistake and in the words of its
grammar ("mapping values are not allowed here" on the line after a key without its ':'). The
common mistakes leave recognisable traces: a key without ':', ': ' inside a plain value, a line
indented unlike its neighbours, a quote or a bracket not closed, a tab. Each is recognised from
the error and the text around its marks; anything else is said in PyYAML's words made plainer, at
the place PyYAML saw it, with the place it was reading as a note.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import yaml
from yaml.tokens import ScalarToken

from compiler import messages


@dataclass(frozen=True, slots=True)
class Explained:
    """Where the mistake is (1-based line and columns) and what to say about it."""

    line: int
    col: int
    end_col: int
    message: str
    notes: tuple[str, ...] = ()


_FIRST_WORD = re.compile(r"(\s*)(?:-\s+)?([^\s#]+)")
_PLAIN_WORDS = (
    ("'<block mapping start>'", "a new key"),
    ("'<block sequence start>'", "a list item"),
    ("<block end>", "the end of the indented block"),
    ("'<block end>'", "the end of the indented block"),
    ("'<scalar>'", "a value"),
    ("'<stream end>'", "the end of the file"),
    ("'<document start>'", "'---'"),
    ("block mapping", "mapping"),
    ("block collection", "list or mapping"),
    ("flow mapping", "'{...}'"),
    ("flow sequence", "'[...]'"),
    ("while parsing an", "in the"),
    ("while scanning an", "in the"),
    ("while parsing a", "in the"),
    ("while scanning a", "in the"),
    ("while scanning", "in"),
    ("while parsing", "in"),
)


def explain(text: str, exc: yaml.MarkedYAMLError) -> Explained:
    """The diagnostic for a YAML error of `text`."""
    lines = text.splitlines()
    mark = exc.problem_mark or exc.context_mark
    if mark is None:  # (PyYAML's errors from its scanner and parser always have one)
        return Explained(1, 1, 2, messages.yaml_syntax(exc.problem or exc))
    problem, context = str(exc.problem or ""), str(exc.context or "")
    ctx = exc.context_mark
    found = (
        _character(problem, lines, mark.line, mark.column)
        or _unclosed_quote(context, lines, ctx)
        or _quote_runs_on(text, lines, mark.line)
        or _missing_colon(problem, context, lines, ctx)
        or _word_before_bracket(lines, mark.line)
        or _colon_not_allowed(problem, lines, mark.line, mark.column)
        or _after_quote(problem, lines, mark.line, mark.column)
        or _block_text(problem, lines, mark.line)
        or _indentation(problem, context, lines, mark.line, ctx)
        or _flow(problem, context, lines, mark.line, mark.column, ctx)
    )
    if found is not None:
        return found
    notes: tuple[str, ...] = ()
    if context and ctx is not None and (ctx.line, ctx.column) != (mark.line, mark.column):
        notes = (messages.yaml_context(_plain(context), _where(ctx.line, ctx.column)),)
    message = messages.yaml_syntax(_plain(problem) if problem else exc)
    return Explained(mark.line + 1, mark.column + 1, mark.column + 2, message, notes)


def _where(line: int, col: int) -> str:
    """A 0-based position as diagnostics print it."""
    return f"{line + 1}:{col + 1}"


def _plain(words: str) -> str:
    for theirs, ours in _PLAIN_WORDS:
        words = words.replace(theirs, ours)
    return words


def _line(lines: list[str], i: int) -> str:
    return lines[i] if 0 <= i < len(lines) else ""


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _previous(lines: list[str], i: int) -> int:
    """The line before line i (0-based) that holds more than blanks and a comment, or -1."""
    i -= 1
    while i >= 0 and (not lines[i].strip() or lines[i].lstrip().startswith("#")):
        i -= 1
    return i


def _after_word(line: int, text: str) -> Explained | None:
    """`missing ':' after 'word'` at the end of the first word of a line (0-based), if it is one."""
    m = _FIRST_WORD.match(text)
    if m is None or m.group(2)[0] in "{[\"'&*!|>%@`":
        return None
    word = m.group(2)
    word = re.split(r"[{\[\"']", word, maxsplit=1)[0] or word
    end = m.start(2) + len(word)
    return Explained(
        line + 1, end + 1, end + 2, messages.yaml_missing_colon(word), (messages.YAML_MISSING_COLON_NOTE,)
    )


def _character(problem: str, lines: list[str], line: int, col: int) -> Explained | None:
    """A tab, or a character YAML keeps for itself (`@`, a backquote, `%`) starting a value."""
    m = re.match(r"found character '(.)' that cannot start any token", problem)
    if m is not None and m.group(1) != "\t":
        return Explained(line + 1, col + 1, col + 2, messages.yaml_cannot_start(m.group(1)))
    if "'\\t'" not in problem and "tab character" not in problem:
        return None
    text = _line(lines, line)
    at = text.find("\t", col) if "\t" in text[col:] else text.find("\t")
    at = col if at < 0 else at
    message = messages.YAML_TAB_INDENT if not text[:at].strip() else messages.YAML_TAB
    return Explained(line + 1, at + 1, at + 2, message)


def _unclosed_quote(context: str, lines: list[str], ctx: yaml.Mark | None) -> Explained | None:
    """A quote that nothing closes before the end of the file."""
    if ctx is None or "quoted scalar" not in context:
        return None
    quote = _line(lines, ctx.line)[ctx.column : ctx.column + 1] or '"'
    return Explained(ctx.line + 1, ctx.column + 1, ctx.column + 2, messages.yaml_unclosed_quote(quote))


def _quote_runs_on(text: str, lines: list[str], line: int) -> Explained | None:
    """A quote not closed on its line, whose text runs on to a quote on the line of the error (the
    opening quote of the next text read as its end). YAML allows a quoted text over several lines,
    so this is the cause only when the error follows it at once."""
    last: ScalarToken | None = None
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if token.start_mark.line > line:
                break
            if isinstance(token, ScalarToken) and token.style in ('"', "'"):
                last = token
    except yaml.YAMLError:
        pass
    if last is None:
        return None
    start, end = last.start_mark, last.end_mark
    if start.line == end.line or end.line != line:
        return None
    quote = _line(lines, start.line)[start.column : start.column + 1] or '"'
    return Explained(
        start.line + 1,
        start.column + 1,
        start.column + 2,
        messages.yaml_quote_runs_on(quote, _where(end.line, end.column - 1)),
        (messages.YAML_QUOTE_NOTE,),
    )


def _missing_colon(problem: str, context: str, lines: list[str], ctx: yaml.Mark | None) -> Explained | None:
    """`could not find expected ':'` while reading a key: the key starts at the context mark."""
    if ctx is None or "expected ':'" not in problem or "simple key" not in context:
        return None
    return _after_word(ctx.line, _line(lines, ctx.line))


_WORD_BEFORE_BRACKET = re.compile(r"\s*(?:-\s+)?[A-Za-z_]\w*\s+[\[{]")


def _word_before_bracket(lines: list[str], line: int) -> Explained | None:
    """A line that starts with a name and then a `{` or a `[` (`players {names: [a]}`): a key
    without its ':', whatever PyYAML then stumbled on."""
    text = _line(lines, line)
    return _after_word(line, text) if _WORD_BEFORE_BRACKET.match(text) else None


def _colon_not_allowed(problem: str, lines: list[str], line: int, col: int) -> Explained | None:
    """`mapping values are not allowed here`: a ':' where a key cannot start. Either the line holds
    a word without its ':' (`winner {type: player}`), or a value holds ': ', or this is a
    well-formed key and the mistake is on the line before (a key without ':' whose value then runs
    on to this line, or a line indented deeper than its neighbour)."""
    if "mapping values are not allowed" not in problem:
        return None
    text = _line(lines, line)
    m = _FIRST_WORD.match(text)
    if m is None:
        return None
    word, word_end = m.group(2), m.end(2)
    if word.endswith(":") and word_end - 1 == col:  # this line's own key: look at the line before
        before = _previous(lines, line)
        if before < 0:
            return None
        above = _line(lines, before)
        bm = _FIRST_WORD.match(above)
        if bm is None:
            return None
        if not bm.group(2).endswith(":") and ": " not in above:
            return _after_word(before, above)
        if _indent(text) > _indent(above):
            key = bm.group(2).rstrip(":")
            return Explained(
                line + 1,
                _indent(text) + 1,
                word_end,
                messages.yaml_more_of_value(key, _indent(above)),
                (messages.yaml_indent_keys_alike(key, _indent(above)),),
            )
        return None
    if word.endswith(":"):  # `key: text with: a colon`
        key = word.rstrip(":")
        note = messages.quote_the_value(key, text[word_end:].strip())
        return Explained(line + 1, col + 1, col + 2, messages.yaml_colon_in_value(key), (note,))
    return _after_word(line, text)


_BLOCK_TEXT = re.compile(r"\s*(?:-\s+)?([^\s#:][^:#]*):\s*[|>][-+0-9]*\s*(?:#.*)?$")


def _block_text(problem: str, lines: list[str], line: int) -> Explained | None:
    """A line of a `key: |` text indented less than the text's first line, but more than the key:
    the text ended above it, and YAML cannot read this line as a key."""
    if "expected <block end>" not in problem:
        return None
    spaces = _indent(_line(lines, line))
    first = None  # the indentation of the text's first line
    i = _previous(lines, line)
    while i >= 0:
        text = lines[i]
        m = _BLOCK_TEXT.match(text)
        if m is not None and first is not None and _indent(text) < spaces < first:
            message = messages.yaml_less_than_text(m.group(1).strip(), first)
            return Explained(line + 1, spaces + 1, spaces + 2, message, (messages.YAML_TEXT_INDENT_NOTE,))
        if text.strip():
            if _indent(text) <= spaces:
                return None
            first = _indent(text)
        i -= 1
    return None


def _after_quote(problem: str, lines: list[str], line: int, col: int) -> Explained | None:
    """`key: "text" more`: a value that is quoted, then goes on."""
    text = _line(lines, line)
    if "found '<scalar>'" not in problem or not text[:col].rstrip().endswith(('"', "'")):
        return None
    m = _FIRST_WORD.match(text)
    if m is None or not m.group(2).endswith(":"):
        return None
    message = messages.yaml_text_after_quote(m.group(2).rstrip(":"))
    return Explained(line + 1, col + 1, col + 2, message, (messages.YAML_TEXT_AFTER_QUOTE_NOTE,))


def _indentation(
    problem: str, context: str, lines: list[str], line: int, ctx: yaml.Mark | None
) -> Explained | None:
    """`expected <block end>, but found ...` at the start of a line: a line indented unlike the
    lines it stands among, or a list item among the keys of a mapping."""
    if ctx is None or "expected <block end>" not in problem or "while parsing a block" not in context:
        return None
    text = _line(lines, line)
    spaces = _indent(text)
    if ctx.line == line:
        return None
    if "'-'" in problem and "mapping" in context:
        return Explained(
            line + 1,
            spaces + 1,
            spaces + 2,
            messages.yaml_item_among_keys(_where(ctx.line, ctx.column)),
            (messages.YAML_ITEM_AMONG_KEYS_NOTE,),
        )
    if "start>'" not in problem:
        return None
    before = _indent(_line(lines, _previous(lines, line)))
    if spaces > before:
        message = messages.yaml_indented_more(spaces, before)
    elif spaces < before and spaces > ctx.column:
        what = "mapping" if "mapping" in context else "list"
        message = messages.yaml_indented_between(
            spaces, before, ctx.column, what, _where(ctx.line, ctx.column)
        )
    else:
        return None
    return Explained(line + 1, spaces + 1, spaces + 2, message, (messages.YAML_INDENT_NOTE,))


def _flow(
    problem: str, context: str, lines: list[str], line: int, col: int, ctx: yaml.Mark | None
) -> Explained | None:
    """`expected ',' or ']'` in a `[...]` or `{...}`: not closed (the error is on a later line), or
    two of its entries without a ',' between them."""
    if ctx is None or "while parsing a flow" not in context or "expected ','" not in problem:
        return None
    opened, closing = ("[", "]") if "sequence" in context else ("{", "}")
    where = _where(ctx.line, ctx.column)
    if line == ctx.line:
        text = _line(lines, line)
        if text[col : col + 1] == ":":  # `{a: 1 b: 2}`: the ',' is missing before the key `b`
            start = _word_start(text[:col])
            col = col if start is None else start
        return Explained(line + 1, col + 1, col + 2, messages.yaml_bracket_separator(opened, where, closing))
    before = _previous(lines, line)
    if before < ctx.line:
        before = ctx.line
    end = len(_line(lines, before).rstrip())
    return Explained(before + 1, end + 1, end + 2, messages.yaml_unclosed_bracket(opened, where, closing))


def _word_start(text: str) -> int | None:
    """Where the last word of `text` starts (a word: no blank, ',' or bracket; blanks may follow
    it), or None if `text` does not end in one. Walked back by hand: a regular expression
    searched for it backtracks over every earlier word, which is quadratic on a long line."""
    end = len(text.rstrip())
    start = end
    while start > 0 and text[start - 1] not in ",{}[]" and not text[start - 1].isspace():
        start -= 1
    return start if start < end else None
