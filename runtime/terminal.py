"""A human player at the terminal: what they are shown before each decision, and what they may type.

Before each decision the player sees what changed in their view since their last decision
(`changed_lines`; the whole view the first time), the log lines they saw since then, the prompt
and the numbered options. The answer is read by `read_answer`: a number, an option's text (any
case, or the start of it when only one option starts so), or a key: `?`/`help`, `v`/`view`,
`l`/`log`, `q`/`quit`. Anything else is answered with a message, and asked again (up to
`PATIENCE` times in a row: a script that answers the same thing forever stops the game).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from runtime.text import clipped, escaped

if TYPE_CHECKING:
    from runtime.engine import GameState

KEYS = {
    "?": "help",
    "help": "help",
    "v": "view",
    "view": "view",
    "l": "log",
    "log": "log",
    "q": "quit",
    "quit": "quit",
}

HELP = """\
How to answer:
  a number          the option of that number in the list (1 is the first); where the
                    options are numbers themselves (how many, how much: listed as #1, #2,
                    ...), the option that is that number
  #N                the N-th option of the list, always
  an option's text  in any case; the start of it will do when only one option starts so
Keys (a key wins over an option of the same text: choose that option by its number):
  ?  or help        this help
  v  or view        the whole view again
  l  or log         the whole log so far (the lines you may see)
  c NAME            a card's value and text (its name, or the start of it)
  q  or quit        stop the game here; `rulewright play` keeps its log, marked
                    unfinished (as Ctrl-C and Ctrl-D do), and `rulewright replay` re-runs it
The view is what {player} sees, drawn from the game's board: its tracks and counters, its
places (a map, a grid, or a table by group), the zones (one you may not look into as a count of
face-down cards) and the lasting effects. Before each of your decisions you see the whole view
the first time, then only its lines that changed since your last decision, then the log since
then, then the options."""

_NUMBER = re.compile(r"[-+]?[0-9]+")
_CARD = re.compile(r"(?:c|card)\s+(.+)", re.IGNORECASE)  # 'c ace': that card's value and text
_PLACE = re.compile(r"#\s*([0-9]+)")  # '#3': the third option, whatever the options are
_BANNER = re.compile(r"^(?:([-=*~#_])\1+|#+ |\[[^]]*\]$)")  # '--- x ---', '== x ==', '## x', '[x]'
_GONE = "(no longer shown)"
PATIENCE = 100  # answers in a row that are no option before the game stops (keys not counted)
_SHOWN_INPUT = 40  # characters of an answer repeated in a message
_CLOSE_INPUT = 200  # longer answers are not compared for a "did you mean"


class QuitGame(Exception):
    """The player typed `q` at a decision (or gave `PATIENCE` answers in a row that were no
    option): the caller stops the game and keeps what was played."""


# ---- what changed in a view -----------------------------------------------------------------


@dataclass(frozen=True)
class _Line:
    key: tuple[tuple[str, int], ...]  # the keys of its sections, then its own
    text: str
    parent: int  # the index of the line heading its section, -1 for none


_COUNT = re.compile(r"\s*\([0-9]+\)$")  # 'hand[US] (4)': a zone's row, whatever its count


def _label(text: str) -> str | None:
    """The label of a `label: value` line (the text before the first ':', without a count in
    brackets at its end), None for other lines."""
    label, colon, _ = text.partition(":")
    label = _COUNT.sub("", label.strip())
    return label if colon and label else None


def _keyed(lines: Sequence[str]) -> list[_Line]:
    """Each non-blank line with a key that stays the same while the line's text changes.

    A line's section is headed by the nearest line above it that is less indented, or by a
    banner line (`--- x ---`, `== x ==`, `## x`, `[x]`) as indented as it, or by a paragraph's
    first line (after a blank line; a title, not a `label: value` line) when the line below it
    is as indented as it (up to the next blank line). Within its section a line is keyed by its label (the text before its first
    ':'), or else by its place among the unlabelled lines (a banner: among the banners); a
    repeated label by its place among its namesakes.
    """
    out: list[_Line] = []
    stack: list[tuple[int, int, str]] = []  # (indentation, index in out, heads: 'banner', 'paragraph', '')
    counts: dict[tuple[int, str], int] = {}
    paragraph = True  # the next line opens a paragraph
    for n, text in enumerate(lines):
        stripped = text.strip()
        if not stripped:
            paragraph = True
            opened = [i for i, entry in enumerate(stack) if entry[2] == "paragraph"]
            del stack[opened[0] if opened else len(stack) :]
            continue
        indent = len(text) - len(text.lstrip())
        banner = bool(_BANNER.match(stripped))
        while stack and (stack[-1][0] > indent or (stack[-1][0] == indent and (not stack[-1][2] or banner))):
            stack.pop()
        parent = stack[-1][1] if stack else -1
        label = None if banner else _label(stripped)
        kind = "=" if banner else "#" if label is None else ":" + label
        place = counts.get((parent, kind), 0)
        counts[(parent, kind)] = place + 1
        key = (out[parent].key if parent >= 0 else ()) + ((kind, place),)
        titled = label is None or stripped.endswith(":")  # not a `label: value` line
        heads = (
            "banner"
            if banner
            else "paragraph"
            if paragraph and titled and _next_indent(lines, n) == indent
            else ""
        )
        out.append(_Line(key, text.rstrip(), parent))
        stack.append((indent, len(out) - 1, heads))
        paragraph = False
    return out


def _next_indent(lines: Sequence[str], n: int) -> int | None:
    """The indentation of line n + 1 if it is in line n's paragraph (None if blank or none)."""
    if n + 1 >= len(lines) or not lines[n + 1].strip():
        return None
    nxt = lines[n + 1]
    return len(nxt) - len(nxt.lstrip())


def changed_lines(before: Sequence[str], after: Sequence[str]) -> list[str]:
    """The lines of `after` to show someone who saw `before`: those new or changed (a line is
    matched by its key, see `_keyed`, not by its place), each with the lines heading its sections
    for context, and `label: (no longer shown)` for a labelled line that is gone (an unlabelled
    one: `(no longer shown: its text)`). In the order of `after`; [] when nothing changed."""
    old = _keyed(before)
    new = _keyed(after)
    was = {line.key: line.text for line in old}
    now = {line.key: i for i, line in enumerate(new)}
    shown: set[int] = set()

    def with_sections(i: int) -> None:
        while i >= 0 and i not in shown:
            shown.add(i)
            i = new[i].parent

    for i, line in enumerate(new):
        if was.get(line.key) != line.text:
            with_sections(i)
    gone: dict[int, list[str]] = {}  # after which line of `after` (-1: before all) -> lines gone
    anchor = -1
    for line in old:
        if line.key in now:
            anchor = now[line.key]
            continue
        if line.parent >= 0 and old[line.parent].key not in now:
            continue  # its section is gone, and said so
        if line.parent >= 0:
            with_sections(now[old[line.parent].key])
        indent = line.text[: len(line.text) - len(line.text.lstrip())]
        kind = line.key[-1][0]
        said = f"{kind[1:]}: {_GONE}" if kind.startswith(":") else f"{_GONE[:-1]}: {line.text.strip()})"
        gone.setdefault(anchor, []).append(indent + said)
    out = list(gone.get(-1, []))
    for i, line in enumerate(new):
        if i in shown:
            out.append(line.text)
        out += gone.get(i, [])
    return out


# ---- what the player typed ------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """What a typed line means: an option (its place in the list), a key, or a message to show."""

    option: int | None = None
    key: str | None = None
    message: str | None = None
    card: str = ""  # with key "card": the name asked about


def shown_input(text: str) -> str:
    """A typed text as a message quotes it: control characters escaped, and cut short if long."""
    return clipped(text, _SHOWN_INPUT)


def _normal(text: str) -> str:
    return " ".join(text.split()).casefold()


def counted(options: Sequence[str]) -> bool:
    """Whether some options are numbers themselves (how many, how much): then a typed number is
    the option of that number, and `#N` the N-th option (as it always is)."""
    return any(_NUMBER.fullmatch(o.strip()) for o in options)


def read_answer(text: str, options: Sequence[str]) -> Answer:
    """What `text` means as an answer to the numbered `options` (1 is options[0])."""
    typed = " ".join(text.split())
    folded = typed.casefold()
    n = len(options)
    by_value = counted(options)
    mark = "#" if by_value else ""
    if folded in KEYS:
        return Answer(key=KEYS[folded])
    asked = _CARD.fullmatch(typed)
    if asked is not None and not any(_normal(o).startswith(folded) for o in options):
        return Answer(key="card", card=asked.group(1))
    if not typed:
        if by_value:
            return Answer(
                message="type one of the numbers, an option's text, or #N for the N-th (? for help)"
            )
        return Answer(message=f"type a number from 1 to {n} or an option's text (? for help)")
    place = _PLACE.fullmatch(typed)
    if place is not None or (_NUMBER.fullmatch(typed) and not by_value):
        digits = place.group(1) if place is not None else typed
        if len(digits) <= 9 and 1 <= int(digits) <= n:
            return Answer(option=int(digits) - 1)
        only = f"{mark}1 (the only option)" if n == 1 else f"from {mark}1 to {mark}{n}"
        return Answer(message=f"no option {shown_input(typed)}: type a number {only}")
    if by_value and _NUMBER.fullmatch(typed):
        value = int(typed) if len(typed) <= 18 else None
        same = [i for i, o in enumerate(options) if _NUMBER.fullmatch(o.strip()) and int(o) == value]
        if len(same) == 1:
            return Answer(option=same[0])
        numbers = [o.strip() for o in options if _NUMBER.fullmatch(o.strip())]
        listed = ", ".join(numbers[:12]) + (", ..." if len(numbers) > 12 else "")
        return Answer(message=f"no option {shown_input(typed)}: the numbers to choose from are {listed}")
    texts = [_normal(o) for o in options]
    same = [i for i, t in enumerate(texts) if t == folded]
    if len(same) == 1:
        return Answer(option=same[0])
    if same:
        return Answer(
            message=f"options {_places(same, mark)} all read '{shown_input(typed)}': type one's number"
        )
    starting = [i for i, t in enumerate(texts) if t.startswith(folded)]
    if len(starting) == 1:
        return Answer(option=starting[0])
    if starting:
        some = ", ".join(f"'{options[i]}'" for i in starting[:5]) + (", ..." if len(starting) > 5 else "")
        return Answer(
            message=f"'{shown_input(typed)}' starts {len(starting)} options ({some}): type more of one, or its number"
        )
    close = difflib.get_close_matches(folded, texts, n=3, cutoff=0.6) if len(typed) <= _CLOSE_INPUT else []
    if close:
        named = " or ".join(f"'{options[texts.index(t)]}'" for t in close)
        return Answer(message=f"no option '{shown_input(typed)}'; did you mean {named}?")
    if by_value:
        return Answer(
            message=f"no option '{shown_input(typed)}': type one of the numbers, an option's text, or #N for the N-th"
        )
    return Answer(
        message=f"no option '{shown_input(typed)}': type a number from 1 to {n} or an option's text (? for help)"
    )


def _places(indices: Sequence[int], mark: str = "") -> str:
    return ", ".join(f"{mark}{i + 1}" for i in indices)


# ---- the human agent ------------------------------------------------------------------------


def visible_log(state: GameState, players: Collection[int], first: int = 0) -> list[str]:
    """The log from line `first` on as `players` saw it: the public lines and their own private
    ones (marked with who saw them), not the private lines of anyone else."""
    names = state.INFO.player_names
    return [
        escaped(text if who < 0 else f"[{names[who]} only] {text}")
        for who, text in state.log_entries(first)
        if who < 0 or who in players
    ]


class HumanAgent:
    """A player at the terminal: shows what changed since their last decision, reads the answer.
    Every line it writes is escaped (runtime/text.py): a label, a prompt or a log line of the
    spec's cannot move the cursor, retitle the terminal or forge a line."""

    def __init__(
        self, read: Callable[[str], str] | None = None, write: Callable[[str], None] | None = None
    ) -> None:
        self.read = read if read is not None else (lambda prompt: input(prompt))
        self.write: Callable[[str], None] = write if write is not None else print
        self.view: list[str] | None = None  # the view shown at this player's last decision
        self.seen = 0  # the log lines there were at this player's last decision
        self._game: int | None = None  # id() of the state played, to start afresh on another

    def choose(self, state: GameState) -> int:
        from runtime.view import card_text, describe

        if self._game != id(state) or self.seen > len(state.lines):  # another game
            self._game, self.view, self.seen = id(state), None, 0
        player = state.current_player()
        names = state.INFO.player_names
        legal = state.legal_actions()
        options = [state.action_to_string(a) for a in legal]
        view = describe(state, player).splitlines()
        first = self.view is None
        self._say("")
        if self.view is None:
            self._lines(view)
        elif changes := changed_lines(self.view, view):
            self._say("(what changed in your view since your last decision; v shows all of it)")
            self._lines(changes)
        else:
            self._say("(nothing changed in your view since your last decision; v shows it)")
        self.view = view
        news = visible_log(state, {player}, self.seen)
        self.seen = len(state.lines)
        if news:
            self._say("The log so far:" if first else "Since your last decision:")
            self._lines(["  " + line for line in news])
        ask = self._question(names[player], state.prompt() or "choose", options)
        self._lines(ask)
        if first:
            self._say("Type a number or an option's text (? help, v view, l log, c NAME a card, q quit).")
        wrong = 0
        while True:
            # EOFError (Ctrl-D, the end of piped input) and KeyboardInterrupt go to the caller,
            # which keeps the unfinished game's log
            answer = read_answer(self.read("> "), options)
            if answer.option is not None:
                return legal[answer.option]
            wrong = 0 if answer.key is not None else wrong + 1
            if wrong == PATIENCE:  # a script answering the same thing forever, as `yes 1 |` does
                raise QuitGame(f"{names[player]} gave {PATIENCE} answers in a row that were no option")
            if answer.key == "quit":
                raise QuitGame(f"{names[player]} quit (q)")
            if answer.key == "help":
                self._lines(HELP.format(player=escaped(names[player])).split("\n"))
            elif answer.key == "card":  # a card's text may have lines of its own: indented below
                head, *more = card_text(state, player, answer.card).split("\n")
                self._lines(["  " + head, *("    " + line for line in more)])
            elif answer.key == "view":
                self._lines(["", *view, *ask])
            elif answer.key == "log":
                whole = visible_log(state, {player})
                self._lines(
                    ["The log so far:", *("  " + line for line in whole)] if whole else ["(the log is empty)"]
                )
                self._lines(ask)
            elif answer.message is not None:
                self._say("  " + answer.message)

    @staticmethod
    def _question(player: str, prompt: str, options: Sequence[str]) -> list[str]:
        """The prompt and the numbered options (with a note for those that read as a key)."""
        by_value = counted(options)
        mark = "#" if by_value else ""
        lines = ["", f"{player}, {prompt}:"]
        places = [f"{'#' + str(i):>4}" if by_value else f"{i:>3}." for i in range(1, len(options) + 1)]
        lines += [f"  {place} {text}" for place, text in zip(places, options, strict=True)]
        if by_value:
            lines.append("  (type the number you choose, or #N for the N-th line)")
        clashes = [i for i, text in enumerate(options) if _normal(text) in KEYS]
        if clashes:
            which = ", ".join(f"{mark}{i + 1} for '{options[i]}'" for i in clashes)
            lines.append(
                f"  (type {which}: typed as text, {'it is a key' if len(clashes) == 1 else 'they are keys'})"
            )
        return lines

    def _say(self, line: str) -> None:
        self.write(escaped(line))

    def _lines(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.write(escaped(line))
