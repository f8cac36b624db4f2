"""The websocket protocol of `rulewright serve`: what a client may send, checked field by field, and
every refusal the server can answer with (codes and messages in one place).

A client sends JSON objects, one per message:

    {"type": "hello", "match": ID, "tokens": [TOKEN, ...], "board": true}
        join a match: one token per seat held (none: a spectator, who sees the public view);
        "board": false leaves the SVG out of the views (a bot or a load test needs no picture)
    {"type": "move", "seat": N, "version": V, "action": LABEL or ID}
        answer seat N's decision in the state after V decisions (the version the client saw)

The server answers with:

    {"type": "state", "version": V, "views": {SEAT: VIEW, ...}}   after hello, and after every change
    {"type": "error", "code": CODE, "message": TEXT}              a refusal: nothing has changed

`SEAT` is the seat's number as text, or "spectator". A view holds what that seat may see and
nothing else (rulewright/serve/match.py: `Match.view`). Its "decision" is the version at which the
pending decision began: a simultaneous decision keeps it while the other seats answer, so a
client that has answered it knows that a state asking it again is still the same decision.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

MAX_MESSAGE_BYTES: Final = 16 * 1024  # a move is under 200 bytes; the largest hello, a few hundred
MAX_TOKENS: Final = 16  # seats one connection may hold (hot-seat): more than any game has
MAX_LABEL: Final = 500  # an action label is a line of text
RATE: Final = 20.0  # messages per second a connection may keep sending ...
BURST: Final = 40.0  # ... after a burst of this many
CLOSE_AFTER: Final = 50  # refusals for flooding before the connection is closed


# ---- refusals: every code the server answers with, and what it means ----------------------------

BAD_JSON: Final = "bad-json"
BAD_MESSAGE: Final = "bad-message"
TOO_BIG: Final = "too-big"
FLOOD: Final = "flood"
NO_MATCH: Final = "no-match"
BAD_TOKEN: Final = "bad-token"
NOT_JOINED: Final = "not-joined"
NOT_YOUR_SEAT: Final = "not-your-seat"
STALE: Final = "stale"
NOT_YOUR_TURN: Final = "not-your-turn"
ILLEGAL: Final = "illegal"
OVER: Final = "over"
BROKEN: Final = "broken"

MEANING: Final = {
    BAD_JSON: "the message is not a JSON object",
    BAD_MESSAGE: "the message's fields are not what its type needs",
    TOO_BIG: f"the message is over {MAX_MESSAGE_BYTES} bytes",
    FLOOD: f"too many messages (more than {RATE:.0f} a second)",
    NO_MATCH: "no such match",
    BAD_TOKEN: "a token that holds no seat of this match",
    NOT_JOINED: "join a match (hello) first",
    NOT_YOUR_SEAT: "this connection does not hold that seat",
    STALE: "the move answers an older state",
    NOT_YOUR_TURN: "that seat is not asked anything now",
    ILLEGAL: "not a legal action",
    OVER: "the match is over",
    BROKEN: "the match cannot go on",
}


class Refusal(Exception):
    """A message the server will not act on: a code from MEANING and a message for the user."""

    def __init__(self, code: str, detail: str = "") -> None:
        if code not in MEANING:
            raise ValueError(f"unknown refusal code {code!r}")
        self.code = code
        self.message = MEANING[code] + (f": {detail}" if detail else "")
        super().__init__(self.message)

    def data(self) -> dict[str, str]:
        return {"type": "error", "code": self.code, "message": self.message}


# ---- messages ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    match: str
    tokens: tuple[str, ...]
    board: bool


@dataclass(frozen=True, slots=True)
class Move:
    seat: int
    version: int
    action: str | int


Message = Hello | Move


def parse(text: str | bytes) -> Message:
    """One client message, checked; a Refusal says what is wrong with it."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise Refusal(TOO_BIG)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise Refusal(BAD_JSON) from None
    if not isinstance(data, dict):
        raise Refusal(BAD_JSON)
    kind = data.get("type")
    if kind == "hello":
        return _hello(data)
    if kind == "move":
        return _move(data)
    raise Refusal(BAD_MESSAGE, 'its "type" is "hello" or "move"')


def _hello(data: dict[str, Any]) -> Hello:
    _only(data, {"type", "match", "tokens", "board"})
    match = data.get("match")
    if not isinstance(match, str) or not 0 < len(match) <= 64:
        raise Refusal(BAD_MESSAGE, '"match" is a match id')
    tokens = data.get("tokens", [])
    if (
        not isinstance(tokens, list)
        or len(tokens) > MAX_TOKENS
        or not all(isinstance(t, str) and 0 < len(t) <= 128 for t in tokens)
    ):
        raise Refusal(BAD_MESSAGE, f'"tokens" is a list of at most {MAX_TOKENS} seat tokens')
    board = data.get("board", True)
    if not isinstance(board, bool):
        raise Refusal(BAD_MESSAGE, '"board" is true or false')
    return Hello(match, tuple(tokens), board)


def _move(data: dict[str, Any]) -> Move:
    _only(data, {"type", "seat", "version", "action"})
    seat, version, action = data.get("seat"), data.get("version"), data.get("action")
    if type(seat) is not int or not 0 <= seat < 64:
        raise Refusal(BAD_MESSAGE, '"seat" is a seat number')
    if type(version) is not int or not 0 <= version < 2**31:
        raise Refusal(BAD_MESSAGE, '"version" is the number of decisions the client has seen')
    if not (
        (isinstance(action, str) and 0 < len(action) <= MAX_LABEL)
        or (type(action) is int and 0 <= action < 2**31)
    ):
        raise Refusal(BAD_MESSAGE, '"action" is an action label or id')
    return Move(seat, version, action)


def _only(data: dict[str, Any], allowed: set[str]) -> None:
    extra = sorted(k for k in data if k not in allowed)
    if extra:
        raise Refusal(BAD_MESSAGE, f"unknown field {json.dumps(extra[0][:40])}")


class Bucket:
    """A token bucket: `take()` is False once a connection sends faster than RATE after BURST."""

    def __init__(self, now: float, rate: float = RATE, burst: float = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.level = burst
        self.at = now

    def take(self, now: float) -> bool:
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True
