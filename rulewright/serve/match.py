"""A match being played on the server: its game state, who holds each seat, and what each seat may
see. Nothing here knows of the network: rulewright/serve/app.py carries messages to and from it.

The engine is the only judge: a move is the label (or id) of one of the legal actions of the seat
it is for, in the state the client saw (`version`: how many decisions had been made), and
anything else is refused with the state untouched. Each seat's view is made from that seat's own
scene (runtime/board.py) and log (`player_log`), a spectator's from the public scene and the
public log lines, so hidden things never leave the server for a connection that may not see them.

At a simultaneous decision every waiting seat may answer at once: an answer from a seat that the
engine does not ask yet (it asks them in turn) is checked against that seat's options and kept
until its turn comes, which is the same game.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from dataclasses import dataclass, field
from typing import Any

from rulewright.gamelog import final_digest
from rulewright.serve.protocol import ILLEGAL, NOT_YOUR_TURN, OVER, STALE, Refusal
from rulewright.serve.store import Seat, Stored
from runtime.agents import make_agent
from runtime.board import Scene, ZoneView, scene
from runtime.engine import GameState, IllegalActionError, RuleError
from runtime.game import Game
from runtime.svg import svg

SPECTATOR = "spectator"


class Diverged(Exception):
    """A stored match that this engine does not replay to the stored digest (the spec changed)."""


@dataclass(frozen=True, slots=True)
class Applied:
    """One decision made: its number, id, label and the digest of the state after it."""

    n: int
    action: int
    label: str
    digest: str
    result: str | None  # the result, when it ended the game


@dataclass
class Match:
    id: str
    game: Game
    seed: int
    seats: tuple[Seat, ...]
    state: GameState
    created: float = 0.0
    touched: float = field(default_factory=time.monotonic)  # the last join or move (a monotonic clock)
    queued: dict[int, int] = field(default_factory=dict)  # early answers to a simultaneous decision

    @classmethod
    def resume(cls, stored: Stored, game: Game) -> Match:
        """The match as stored, its moves replayed from the seed and the last digest checked."""
        state = game.new_initial_state(stored.seed)
        if len(stored.seats) != state.num_players:
            raise Diverged(
                f"match {stored.id}: {len(stored.seats)} seats stored for {state.num_players} players"
            )
        try:
            for a in stored.actions:
                state.apply_action(a)
        except IllegalActionError as exc:
            raise Diverged(f"match {stored.id}: a stored move is not legal any more ({exc})") from None
        except RuleError as exc:
            raise Diverged(f"match {stored.id}: its moves fail under these rules ({exc})") from None
        if stored.last_digest is not None and final_digest(state) != stored.last_digest:
            raise Diverged(
                f"match {stored.id}: its state differs from the stored one (were its rules changed?)"
            )
        return cls(stored.id, game, stored.seed, stored.seats, state, stored.created)

    # -- who is who ------------------------------------------------------------------------------

    @property
    def version(self) -> int:
        return len(self.state.history)

    @property
    def names(self) -> list[str]:
        return list(self.game.info.player_names[: self.state.num_players])

    def seat_of(self, token: str) -> int | None:
        """The seat a token holds (compared in constant time), or None."""
        found = None
        for p, s in enumerate(self.seats):
            if s.human and hmac.compare_digest(s.token.encode(), token.encode()):
                found = p
        return found

    def asked(self) -> list[int]:
        """The seats that may answer now: the player to act, or every seat a simultaneous decision
        still waits on (those who have answered early included: they may not change it)."""
        st = self.state
        if st.is_terminal():
            return []
        sim = st.simultaneous()
        if sim is not None:
            return [p for p in sim.waiting() if p not in self.queued]
        p = st.current_player()
        return [p] if p >= 0 else []

    def bot_to_move(self) -> int | None:
        """The seat of the bot to act now, if a bot is to act (a bot answers a simultaneous
        decision when the engine asks it, never early)."""
        st = self.state
        p = st.current_player() if not st.is_terminal() else -1
        return p if p >= 0 and not self.seats[p].human else None

    # -- moves -----------------------------------------------------------------------------------

    def move(self, seat: int, version: int, action: str | int) -> list[Applied]:
        """Seat `seat`'s answer in the state after `version` decisions: the decisions it made (none
        for an early simultaneous answer, several when it releases queued ones). Refused
        (Refusal, state unchanged) unless it is a legal action of that seat now."""
        st = self.state
        if st.is_terminal():
            raise Refusal(OVER)
        if not self.decision() <= version <= self.version:
            raise Refusal(STALE, f"you saw decision {version}, the match is at {self.version}")
        if seat not in self.asked():
            raise Refusal(NOT_YOUR_TURN, f"{self.names[seat]} is not asked anything now")
        legal = st.legal_actions_of(seat)
        a = self._action(legal, action)
        if st.current_player() != seat:  # an early answer to a simultaneous decision
            self.queued[seat] = a
            return []
        done = [self._apply(a)]
        while not self.state.is_terminal() and self.state.current_player() in self.queued:
            done.append(self._apply(self.queued.pop(self.state.current_player())))
        if self.state.simultaneous() is None:
            self.queued.clear()
        return done

    def decision(self) -> int:
        """The version at which the pending decision began: the current one, except during a
        simultaneous decision, which began before the answers given to it. A seat still to answer
        saw nothing new since (the answers are hidden), so an answer to any version from there on
        is not stale: two seats answering the same state at once are both taken."""
        sim = self.state.simultaneous()
        if sim is None:
            return self.version
        given = sum(1 for options, a in zip(sim.choices, sim.answers, strict=True) if options and a >= 0)
        return self.version - given

    def _action(self, legal: list[int], action: str | int) -> int:
        st = self.state
        if isinstance(action, int):
            if action in legal:
                return action
            raise Refusal(ILLEGAL, f"action id {action}")
        for a in legal:
            if st.action_to_string(a) == action:
                return a
        raise Refusal(ILLEGAL, repr(action[:80]))

    def _apply(self, a: int) -> Applied:
        st = self.state
        label = st.action_to_string(a)
        st.apply_action(a)
        return Applied(len(st.history) - 1, a, label, final_digest(st), self.result())

    def bot_move(self, seat: int) -> list[Applied]:
        """The bot of `seat` chooses and moves."""
        return self.move(seat, self.version, self.bot_choice(seat, self.state))

    def bot_choice(self, seat: int, state: GameState) -> int:
        """What the bot of `seat` chooses in `state` (this match's, or a copy of it); seeded by the
        match's seed, the seat and the decision number, so that a match resumed after a restart
        plays on as it would have."""
        seed = int.from_bytes(
            hashlib.sha256(f"{self.seed}/{seat}/{len(state.history)}".encode()).digest()[:8], "big"
        )
        return make_agent(self.seats[seat].kind, seed).choose(state)

    # -- views ---------------------------------------------------------------------------------

    def result(self) -> str | None:
        st = self.state
        if not st.is_terminal():
            return None
        return self.game.info.result(st.winners()) + (f" ({st.reason})" if st.reason else "")

    def seat_name(self, p: int) -> str:
        """A seat as others read it: its player's name, and the bot's kind for a bot."""
        kind = self.seats[p].kind
        return self.names[p] + ("" if kind == "human" else f" ({kind} bot)")

    def waiting(self, seat: int | None) -> str:
        """The "waiting for ..." line as `seat` reads it."""
        if self.state.is_terminal():
            return ""
        asked = self.asked()
        if not asked:
            return ""
        others = [self.seat_name(p) for p in asked if p != seat]
        if seat in asked:
            return "Your decision" + (f" (also waiting for {', '.join(others)})" if others else "")
        return "Waiting for " + ", ".join(others)

    def log_lines(self, seat: int | None, first: int) -> list[str]:
        """The log lines `seat` saw (a spectator: the public ones) from line `first` on."""
        if seat is not None:
            return self.state.player_log(seat, first)
        return [text for w, text in self.state.log_entries(first) if w < 0]

    def log_end(self) -> int:
        """Where the next log line will be: `first` for the next `log_lines`."""
        return len(self.state.lines)

    def view(self, seat: int | None, board: bool) -> dict[str, Any]:
        """What `seat` (None: a spectator) sees now: its picture (unless not `board`), its status,
        and, when it is asked, the options with the places of the board each one names. Its log
        lines come from `log_lines`."""
        st = self.state
        sc = scene(st, seat, public=seat is None)
        asked = seat is not None and seat in self.asked()
        options: list[str] = []
        prompt = ""
        if asked:
            assert seat is not None
            options = [st.action_to_string(a) for a in st.legal_actions_of(seat)]
            prompt = sc.prompt
            if not prompt:  # an early simultaneous answer: the decision's own prompt
                sim = st.simultaneous()
                prompt = self.game.info.text(sim.prompts[0]) if sim is not None else ""
        view: dict[str, Any] = {
            "seat": seat,
            "title": self.game.info.title,
            "name": SPECTATOR if seat is None else self.names[seat],
            "status": sc.status,
            "waiting": self.waiting(seat),
            "asked": asked,
            "decision": self.decision(),
            "queued": seat is not None and seat in self.queued,
            "prompt": prompt,
            "options": options,
            "places": option_places(sc, options) if board and options else [],
            "effects": list(sc.effects),
            "counters": [[tr.name, tr.text] for tr in sc.tracks if tr.counter],
            "zones": [zone_data(z) for z in sc.zones],
            "over": st.is_terminal(),
            "result": self.result(),
        }
        if board:
            view["svg"] = svg(sc, panel=False)
        return view


def zone_data(z: ZoneView) -> dict[str, Any]:
    """A zone as the page lists it: its heading in words, whose it is, how many, and its cards if
    seen."""
    cards = None if z.cards is None else [[c.label, c.value, c.text, c.count] for c in z.cards]
    return {"title": z.label or z.key, "owner": z.owner, "count": z.count, "cards": cards}


def option_places(sc: Scene, options: list[str]) -> list[list[str]]:
    """For each option, the labels of the board's places it names (as whole words), so that the
    page can let a click on a place choose it."""
    labels = sorted({p.label for layer in sc.layers for p in layer.places if len(p.label) >= 2})
    words = [(label, re.compile(rf"(?<!\w){re.escape(label)}(?!\w)")) for label in labels]
    return [[label for label, word in words if word.search(text)] for text in options]
