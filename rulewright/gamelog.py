"""Game logs: what `rulewright play --log` writes and `rulewright replay` re-runs.

A log is one JSON object:

    game, rules_version, spec_digest, options, seed    what was played, with which rules
    actions, action_ids                                 every decision, by label and by id
    result, returns, final_state_sha256, log            how it ended
    unfinished                                          only in the log of a game that did not end:
                                                        why it stopped (Ctrl-C, end of input, ...)

Replay goes by the labels; `action_ids` is a cross-check. A log may come from anyone, so
`read_log` trusts none of it: every field is checked for its type and range, and a LogError
names the file and the field (or, for text that is not JSON, the line and column). The file is
streamed (rulewright/jsonstream.py): `read_log` reads the fields up to the actions, and
`replay_log` replays each action as it reads it, then reads the fields after them, so memory
does not grow with the log and a divergence is reported where it is met.
"""

from __future__ import annotations

import codecs
import copy
import hashlib
import json
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from rulewright.jsonstream import (
    END,
    BadNumber,
    JsonError,
    JsonStream,
    Mark,
    NotUtf8,
    TooDeep,
    TooLong,
    elements,
)
from rulewright.jsonstream import kind as json_kind
from runtime.errors import IllegalActionError, RuleError
from runtime.text import clipped

if TYPE_CHECKING:
    from runtime.engine import GameState
    from runtime.game import Game

SEED_LIMIT = 2**63  # seeds are 0 .. 2**63 - 1: what every OpenSpiel binding and JSON reader keeps exact
MAX_LOG_BYTES = 256 * 2**20  # far above any real game's log; `replay --max-bytes` raises it


class LogError(ValueError):
    """A log that cannot be read or replayed as written (the message names the file and field)."""


class ReplayDivergence(Exception):
    """A well-formed log whose actions or final state the engine does not reproduce."""


def final_digest(state: GameState) -> str:
    return hashlib.sha256(state.to_json().encode()).hexdigest()[:16]


def log_data(game: Game, seed: int, state: GameState, unfinished: str | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "game": game.name,
        "rules_version": game.info.version,
        "spec_digest": game.info.digest,
        "options": game.options,
        "seed": seed,
        "actions": [game.info.action_label(a) for a in state.history],
        "action_ids": state.history,
        "result": state.reason,
        "returns": state.returns(),
        "final_state_sha256": final_digest(state),
        "log": state.log(),
    }
    if unfinished is not None:
        data["unfinished"] = unfinished
    return data


def log_text(game: Game, seed: int, state: GameState, unfinished: str | None = None) -> str:
    return json.dumps(log_data(game, seed, state, unfinished), indent=1) + "\n"


@dataclass(frozen=True)
class GameLog:
    """A log's header as read and checked by `read_log`; `replay_log` streams its actions."""

    path: Path
    game: str
    options: dict[str, int | bool | str]
    seed: int
    spec_digest: str | None
    fields: _Fields = field(repr=False, compare=False)  # what was read, and where the actions are


@dataclass(frozen=True)
class Replay:
    """A log replayed by `replay_log`: the state after its actions, and the fields read after them."""

    state: GameState
    actions: int  # how many the log holds (more than were replayed when `steps` stopped short)
    final_digest: str
    unfinished: str | None  # why the game stopped, for the log of an unfinished game


# The fields a log's replay needs before its first action; a log that names them all before
# 'actions' (as `play --log` writes it) is replayed while it is read, so a divergence is met at
# once, and the fields after the actions are checked as they come. Any other order of fields is
# read in two passes: the whole file is checked first, then its actions are read again.
HEADER = frozenset({"game", "seed", "options", "spec_digest"})
FIELDS = HEADER | {"actions", "action_ids", "final_state_sha256", "unfinished"}
MAX_FIELD_CHARS = 2**20  # a field or action label taken whole: far above any real one
SHOWN_ELEMENTS = 30  # enough of a list for `_shown`, which cuts at 60 characters


class _Fields:
    """A log's fields as they stream past, each checked when it is met."""

    def __init__(self, path: Path, identity: tuple[int, ...], start: Mark) -> None:
        self.path, self.identity, self.start = path, identity, start
        self.seen: set[str] = set()
        self.game: str | None = None
        self.seed: int | None = None
        self.options: dict[str, int | bool | str] = {}
        self.spec_digest: str | None = None
        self.final_digest: str | None = None
        self.unfinished: str | None = None
        self.actions_at: Mark | None = None  # where the list of actions starts
        self.actions: int | None = None  # how many; None until they are all read
        self.ids_at: Mark | None = None
        self.ids: int | None = None
        self.complete = False  # read to the end of the file and checked

    def copy(self) -> _Fields:
        other = copy.copy(self)
        other.seen = set(self.seen)
        return other

    def bad(self, name: str, want: str, value: object) -> LogError:
        return LogError(f"{self.path}: field '{name}' must be {want}, not {_shown(value)}")

    def meet(self, key: str) -> None:
        if key in FIELDS:
            if key in self.seen:  # `json.loads` would keep the last; which one was meant?
                raise LogError(f"{self.path}: field '{key}' appears twice")
            self.seen.add(key)

    def member(self, key: str, stream: JsonStream) -> None:
        """Read and check the value of the member `key` (not 'actions': the caller reads those)."""
        self.meet(key)
        if key == "action_ids":
            if stream.peek() == "n":  # null: no cross-check, as when the field is absent
                self.take(stream, key)
                return
            self.ids_at = stream.mark()
            self.ids = self.count(stream, key)
            return
        if key not in FIELDS:
            stream.skip()  # rules_version, result, returns, the log's lines: not needed to replay
            return
        value = self.take(stream, key)
        if key == "game":
            if not isinstance(value, str) or not value:
                raise self.bad("game", "a game's name", value)
            self.game = value
        elif key == "seed":
            if not _is_int(value) or not 0 <= value < SEED_LIMIT:
                raise self.bad("seed", f"an integer from 0 to {SEED_LIMIT - 1}", value)
            self.seed = value
        elif key == "options":
            if not isinstance(value, dict):
                raise self.bad("options", "an object of option values", value)
            for name, option in value.items():
                # an enum option's value is its name (the game checks it is one, loading)
                if not (isinstance(option, bool) or _is_int(option) or _is_option_name(option)):
                    raise self.bad(f"options.{name}", "an integer, true/false or a value's name", option)
            self.options = value
        elif key == "final_state_sha256":
            if not isinstance(value, str):
                raise self.bad(key, "a text (16 hex digits)", value)
            self.final_digest = value
        elif key == "spec_digest":
            if value is not None and not isinstance(value, str):
                raise self.bad(key, "a text", value)
            self.spec_digest = value
        elif key == "unfinished":
            if value is not None and not isinstance(value, str):
                raise self.bad(key, "a text (why the game stopped)", value)
            self.unfinished = value

    def take(self, stream: JsonStream, name: str) -> Any:
        return self.bounded(stream.take, name)

    def element(self, stream: JsonStream, name: str) -> Any:
        return self.bounded(stream.element, name)

    def bounded(self, read: Callable[[int], Any], name: str) -> Any:
        """What `read` reads of field `name`, at most MAX_FIELD_CHARS long."""
        try:
            return read(MAX_FIELD_CHARS)
        except TooLong:
            raise LogError(
                f"{self.path}: field '{name}' is longer than {MAX_FIELD_CHARS:,} characters, "
                "far longer than any log's"
            ) from None

    def begin(self, stream: JsonStream, name: str) -> None:
        """Enter the list that field `name` must hold."""
        if not stream.begin_array():
            want = "a list of action labels" if name == "actions" else "a list of integers"
            raise self.bad(name, want, self.take(stream, name))

    def count(self, stream: JsonStream, name: str) -> int:
        """Skip the list of field `name` ('actions' or 'action_ids'), checking each entry; how many."""
        at = stream.mark()
        self.begin(stream, name)
        ints, n = name == "action_ids", 0
        while True:
            n += stream.skip_run(ints)
            value = self.element(stream, f"{name}[{n}]")
            if value is END:
                return n
            if ints and not _is_int(value):
                raise self.bad(name, "a list of integers", self.first_elements(stream, at))
            if not ints and not isinstance(value, str):
                raise self.bad(f"actions[{n}]", "an action label (a text)", value)
            n += 1

    def first_elements(self, stream: JsonStream, at: Mark) -> list[Any]:
        """The list at `at`, or enough of its first elements to show it."""
        again = JsonStream(stream.file, at)
        again.begin_array()
        shown: list[Any] = []
        while len(shown) < SHOWN_ELEMENTS and (value := self.element(again, "action_ids")) is not END:
            shown.append(value)
        return shown

    def check(self) -> None:
        """After the last field: the required ones are there, and the two lists agree."""
        for key in ("game", "seed", "actions", "final_state_sha256"):
            if key not in self.seen:
                raise LogError(
                    f"{self.path}: no field '{key}'; is this a log written by `rulewright play --log`?"
                )
        if self.ids is not None and self.ids != self.actions:
            raise LogError(
                f"{self.path}: field 'action_ids' has {self.ids} entries but 'actions' has {self.actions}"
            )
        self.complete = True


def read_log(path: Path, max_bytes: int = MAX_LOG_BYTES) -> GameLog:
    """Read and check a log's fields up to its actions (all of them, if they are in another order
    than `play --log` writes); a LogError says what is wrong and where. Memory stays bounded
    whatever the file's size: the actions are read by `replay_log`, one at a time."""
    with _open_log(path, max_bytes) as (file, identity), _reading(path):
        bom = file.read(3) == codecs.BOM_UTF8  # an editor may have added a byte-order mark
        fields = _Fields(path, identity, Mark(3 if bom else 0, 0, 0))
        stream = JsonStream(file, fields.start)
        first = stream.peek()
        if not first:
            raise LogError(f"{path}: the file is empty")
        if first != "{":
            stream.skip()
            stream.at_end()
            raise LogError(
                f"{path}: not a rulewright log (a JSON object with game, seed and actions), "
                f"but a JSON {json_kind(first)}"
            )
        stream.expect("{", "Expecting value")
        first_key = True
        while (key := stream.key(first_key)) is not None:
            first_key = False
            if key != "actions":
                fields.member(key, stream)
                continue
            fields.meet(key)
            fields.actions_at = stream.mark()
            if HEADER <= fields.seen:
                return _header(fields)  # replay_log reads on from the actions
            fields.actions = fields.count(stream, "actions")
        stream.at_end()
        fields.check()
        return _header(fields)


def _header(fields: _Fields) -> GameLog:
    assert fields.game is not None and fields.seed is not None
    return GameLog(fields.path, fields.game, dict(fields.options), fields.seed, fields.spec_digest, fields)


def replay_log(game: Game, log: GameLog, steps: int | None = None) -> Replay:
    """Play the log's actions on `game` as they are read (the first `steps` of them; the rest are
    checked and counted), then read and check the fields after them. ReplayDivergence where the
    engine does not follow the log, LogError where the file is not a log. (The caller compares the
    final state's digest.)"""
    fields = log.fields.copy()
    assert fields.actions_at is not None
    state = game.new_initial_state(log.seed)
    with _open_log(log.path, None, fields.identity) as (file, _), _reading(log.path):
        stream = JsonStream(file, fields.actions_at)
        fields.begin(stream, "actions")
        i = 0
        while True:
            if steps is not None and i >= steps:
                i += stream.skip_run(ints=False)
            label = fields.element(stream, f"actions[{i}]")
            if label is END:
                break
            if not isinstance(label, str):
                raise fields.bad(f"actions[{i}]", "an action label (a text)", label)
            if steps is None or i < steps:
                _replay_one(state, label, i, log.path)
            i += 1
        fields.actions = i
        if not fields.complete:
            while (key := stream.key(False)) is not None:
                fields.member(key, stream)
            stream.at_end()
            fields.check()
        if fields.ids_at is not None:
            _check_ids(game, state, JsonStream(file, fields.ids_at), log.path)
    assert fields.final_digest is not None
    return Replay(state, i, fields.final_digest, fields.unfinished)


def _replay_one(state: GameState, label: str, i: int, path: Path) -> None:
    where = f"{path}: actions[{i}] (decision {i + 1}, '{clipped(label)}')"
    if state.is_terminal():
        raise ReplayDivergence(f"{where}: the game is already over ({state.reason}) after {i} actions")
    try:
        action = state.string_to_action(label)
    except IllegalActionError as exc:
        raise ReplayDivergence(f"replay diverges at {where}: {exc}") from None
    try:
        state.apply_action(action)
    except RuleError as exc:
        raise ReplayDivergence(f"{where}: rule error: {exc}") from None


def _check_ids(game: Game, state: GameState, stream: JsonStream, path: Path) -> None:
    """The cross-check: each replayed action's id is the one field 'action_ids' records."""
    stream.begin_array()
    replayed = state.history
    for i, logged in enumerate(elements(stream, MAX_FIELD_CHARS)):
        if i >= len(replayed):
            return
        if logged != replayed[i]:
            label = game.info.action_label(replayed[i])
            raise ReplayDivergence(
                f"{path}: action_ids[{i}] is {logged}, but actions[{i}] '{clipped(label)}' is action {replayed[i]}"
            )


@contextmanager
def _open_log(
    path: Path, max_bytes: int | None, identity: tuple[int, ...] | None = None
) -> Iterator[tuple[BinaryIO, tuple[int, ...]]]:
    """The log file, open for reading, and what identifies it (to open the same file again)."""
    try:
        info = path.stat()
    except FileNotFoundError:
        raise LogError(f"{path}: no such file") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise LogError(f"{path}: cannot read it ({os_reason(exc)})") from None
    if stat.S_ISDIR(info.st_mode):
        raise LogError(f"{path}: is a folder, not a log file")
    if not stat.S_ISREG(info.st_mode):
        # a FIFO would block, /dev/zero would never end
        raise LogError(f"{path}: not a regular file (a device, a pipe or a socket)")
    if max_bytes is not None and info.st_size > max_bytes:
        raise LogError(
            f"{path}: {info.st_size:,} bytes, more than a log may hold ({max_bytes:,}; "
            "`replay --max-bytes N` raises it)"
        )
    try:
        # non-blocking: a FIFO put in the file's place since stat() must not hang the open
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise LogError(f"{path}: cannot read it ({os_reason(exc)})") from None
    with os.fdopen(fd, "rb") as file:
        opened = os.fstat(fd)
        now = (opened.st_dev, opened.st_ino, opened.st_size, opened.st_mtime_ns)
        if (identity or (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)) != now:
            raise LogError(f"{path}: the file changed while it was read")
        yield file, now


@contextmanager
def _reading(path: Path) -> Iterator[None]:
    """What the stream finds wrong with the file, as a LogError naming its place."""
    try:
        yield
    except JsonError as exc:
        raise LogError(f"{path}:{exc.line}:{exc.col}: not a JSON log ({exc.msg})") from None
    except NotUtf8 as exc:
        raise LogError(
            f"{path}:{exc.line}: not a log: byte 0x{exc.byte:02x} is not UTF-8 text (at offset {exc.offset})"
        ) from None
    except TooDeep:
        raise LogError(f"{path}: not a log: its JSON is nested too deeply") from None
    except BadNumber as exc:  # an integer of more digits than Python converts
        raise LogError(f"{path}: not a log: {exc}") from None
    except OSError as exc:
        raise LogError(f"{path}: cannot read it ({os_reason(exc)})") from None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_option_name(value: object) -> bool:
    """An enum option's value as a log holds it: a plain name (what a spec's values are)."""
    return isinstance(value, str) and len(value) <= 100 and value.isidentifier()


def _shown(value: object) -> str:
    """A field's value for a message: JSON, cut short."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except ValueError:  # a float such as 1e999 read as infinity
        text = repr(value)
    return clipped(text)


def os_reason(exc: BaseException) -> str:
    """Why reading or writing a file failed, in the system's words."""
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
