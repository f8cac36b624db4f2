"""Game logs: what `rulewright play --log` writes and `rulewright replay` re-runs.

A log is one JSON object:

    game, rules_version, spec_digest, options, seed    what was played, with which rules
    actions, action_ids                                 every decision, by label and by id
    result, returns, final_state_sha256, log            how it ended
    unfinished                                          only in the log of a game that did not end:
                                                        why it stopped (Ctrl-C, end of input, ...)

Replay goes by the labels; `action_ids` is a cross-check. A log may come from anyone, so
`read_log` trusts none of it: every field is checked for its type and range, and a LogError
names the file and the field (or, for text that is not JSON, the line and column).
"""

from __future__ import annotations

import hashlib
import json
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runtime.engine import GameState, IllegalActionError, RuleError
from runtime.game import Game
from runtime.text import clipped

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
    """A log as read and checked by `read_log`."""

    path: Path
    game: str
    options: dict[str, int | bool]
    seed: int
    actions: tuple[str, ...]
    action_ids: tuple[int, ...] | None
    spec_digest: str | None
    final_digest: str
    unfinished: str | None  # why the game stopped, for the log of an unfinished game


def read_log(path: Path, max_bytes: int = MAX_LOG_BYTES) -> GameLog:
    """Read and check a log file; a LogError says what is wrong with it and where."""
    data = _load_json(path, max_bytes)

    def bad(field: str, want: str, value: object) -> LogError:
        return LogError(f"{path}: field '{field}' must be {want}, not {_shown(value)}")

    if not isinstance(data, dict):
        raise LogError(
            f"{path}: not a rulewright log (a JSON object with game, seed and actions), "
            f"but a JSON {_json_kind(data)}"
        )
    for key in ("game", "seed", "actions", "final_state_sha256"):
        if key not in data:
            raise LogError(f"{path}: no field '{key}'; is this a log written by `rulewright play --log`?")
    game = data["game"]
    if not isinstance(game, str) or not game:
        raise bad("game", "a game's name", game)
    seed = data["seed"]
    if not _is_int(seed) or not 0 <= seed < SEED_LIMIT:
        raise bad("seed", f"an integer from 0 to {SEED_LIMIT - 1}", seed)
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise bad("options", "an object of option values", options)
    for key, value in options.items():
        if not (isinstance(value, bool) or _is_int(value)):
            raise bad(f"options.{key}", "an integer or true/false", value)
    actions = data["actions"]
    if not isinstance(actions, list):
        raise bad("actions", "a list of action labels", actions)
    for i, label in enumerate(actions):
        if not isinstance(label, str):
            raise bad(f"actions[{i}]", "an action label (a text)", label)
    ids = data.get("action_ids")
    if ids is not None:
        if not isinstance(ids, list) or not all(_is_int(a) for a in ids):
            raise bad("action_ids", "a list of integers", ids)
        if len(ids) != len(actions):
            raise LogError(
                f"{path}: field 'action_ids' has {len(ids)} entries but 'actions' has {len(actions)}"
            )
    digest = data["final_state_sha256"]
    if not isinstance(digest, str):
        raise bad("final_state_sha256", "a text (16 hex digits)", digest)
    spec_digest = data.get("spec_digest")
    if spec_digest is not None and not isinstance(spec_digest, str):
        raise bad("spec_digest", "a text", spec_digest)
    unfinished = data.get("unfinished")
    if unfinished is not None and not isinstance(unfinished, str):
        raise bad("unfinished", "a text (why the game stopped)", unfinished)
    return GameLog(
        path,
        game,
        dict(options),
        seed,
        tuple(actions),
        tuple(ids) if ids is not None else None,
        spec_digest,
        digest,
        unfinished,
    )


def replay_log(game: Game, log: GameLog) -> GameState:
    """Play the log's actions on `game`; ReplayDivergence where the engine does not follow it.
    (The caller compares the final state's digest.)"""
    state = game.new_initial_state(log.seed)
    for i, label in enumerate(log.actions):
        where = f"{log.path}: actions[{i}] (decision {i + 1}, '{_clip(label)}')"
        if state.is_terminal():
            raise ReplayDivergence(
                f"{where}: the game is already over ({state.reason}) after {i} of the log's "
                f"{len(log.actions)} actions"
            )
        try:
            action = state.string_to_action(label)
        except IllegalActionError as exc:
            raise ReplayDivergence(f"replay diverges at {where}: {exc}") from None
        if log.action_ids is not None and log.action_ids[i] != action:
            raise ReplayDivergence(
                f"{log.path}: action_ids[{i}] is {log.action_ids[i]}, but actions[{i}] '{_clip(label)}' "
                f"is action {action}"
            )
        try:
            state.apply_action(action)
        except RuleError as exc:
            raise ReplayDivergence(f"{where}: rule error: {exc}") from None
    return state


def _load_json(path: Path, max_bytes: int) -> Any:
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
    if info.st_size > max_bytes:
        raise LogError(
            f"{path}: {info.st_size:,} bytes, more than a log may hold ({max_bytes:,}; "
            "`replay --max-bytes N` raises it)"
        )
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise LogError(f"{path}: cannot read it ({os_reason(exc)})") from None
    if not raw.strip():
        raise LogError(f"{path}: the file is empty")
    try:
        text = raw.decode("utf-8-sig")  # an editor may have added a byte-order mark
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise LogError(
            f"{path}:{line}: not a log: byte 0x{raw[exc.start]:02x} is not UTF-8 text (at offset {exc.start})"
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise LogError(f"{path}:{exc.lineno}:{exc.colno}: not a JSON log ({exc.msg})") from None
    except RecursionError:
        raise LogError(f"{path}: not a log: its JSON is nested too deeply") from None
    except ValueError as exc:  # an integer of more digits than Python converts
        raise LogError(f"{path}: not a log: {exc}") from None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _json_kind(value: object) -> str:
    if isinstance(value, list):
        return "list"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    return "boolean" if isinstance(value, bool) else "number"


def _clip(text: str, limit: int = 60) -> str:
    return clipped(text, limit)  # escaped too: a label or a reason from a log reaches a terminal


def _shown(value: object) -> str:
    """A field's value for a message: JSON, cut short."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except ValueError:  # a float such as 1e999 read as infinity
        text = repr(value)
    return _clip(text)


def os_reason(exc: BaseException) -> str:
    """Why reading or writing a file failed, in the system's words."""
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
