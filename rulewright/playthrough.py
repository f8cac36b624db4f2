"""Golden playthroughs: a seeded game written as a readable trace, replayed to find divergences.

A trace holds the game, seed, agents and options, then one entry per decision: who chose what,
the log lines the action produced, and a digest of the game state after it. The digest covers
what the rules decide (zones, variables, lasting effects, whose turn, the legal actions, the
random generator) and not how the engine is built, so only a change of rules moves it.

    # rulewright playthrough: GAME TITLE, seed 3, agents random
    game GAME
    seed 3
    ...
    setup                                                    #5d0c1e2a
        (the log lines of the setup)
    @1 PLAYER > ACTION                                       #1a2b3c4d
        (the log lines this action produced)
    ...
    result (how the game ended) [returns]
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from runtime.agents import check_agent, make_agent
from runtime.engine import GameState, IllegalActionError, RuleError
from runtime.game import Game


class PlaythroughError(ValueError):
    """A trace file that cannot be read."""


def state_digest(state: GameState) -> str:
    """8 hex digits over the rules-visible state (not frames, build digest or log)."""
    info = state.INFO
    zones = []
    for zi, (z, pile) in enumerate(zip(info.zones, state.z.piles, strict=True)):
        labels = info.type_labels[z.type_index]
        if z.kind == "grid":
            zones.append([z.name, z.owner, sorted([c, labels[e]] for c, e in state.z.cells[zi].items())])
        else:
            zones.append([z.name, z.owner, [labels[e] for e in pile]])
    mods = [[info.modifiers[m], list(a), u] for m, a, u in state.mods]
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    data = [zones, state._dump_vars(), mods, state.over, state.winner, state.current_player(), legal]
    data.append(state.rng.state)
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:8]


@dataclass
class Step:
    """One recorded decision."""

    n: int
    player: str
    label: str
    digest: str
    log: list[str]


@dataclass
class Playthrough:
    """A recorded game."""

    game: str
    seed: int
    agents: str
    options: dict[str, int | bool | str]
    spec: str  # the spec digest it was recorded with
    setup_digest: str
    setup_log: list[str]
    steps: list[Step] = field(default_factory=list)
    result: str = ""
    path: Path | None = None

    @property
    def name(self) -> str:
        return self.path.stem if self.path is not None else f"seed {self.seed}"


def result_text(state: GameState) -> str:
    names = state.INFO.player_names
    ret = state.returns()
    score = ", ".join(f"{names[p]} {ret[p]:+.2f}" for p in range(state.num_players))
    return f"{state.reason or 'over'} [{score}]"


def record(game: Game, seed: int, agents: str = "random", max_steps: int = 100_000) -> Playthrough:
    """Play one seeded game with the given agents (comma-separated, cycled) and trace it."""
    kinds = [k.strip() for k in agents.split(",")]
    players = [make_agent(kinds[p % len(kinds)], seed * 1000 + p) for p in range(game.num_players)]
    state = game.new_initial_state(seed)
    names = game.info.player_names
    pt = Playthrough(
        game.name, seed, agents, dict(game.options), game.info.digest, state_digest(state), state.log()
    )
    while not state.is_terminal():
        if len(pt.steps) >= max_steps:
            raise RuleError(f"no end after {max_steps} decisions")
        seen = len(state.lines)
        player = state.current_player()
        action = players[player].choose(state)
        label = state.action_to_string(action)
        state.apply_action(action)
        pt.steps.append(Step(len(pt.steps) + 1, names[player], label, state_digest(state), state.log(seen)))
    pt.result = result_text(state)
    return pt


def to_text(pt: Playthrough, title: str = "") -> str:
    def line(head: str, digest: str) -> str:
        return f"{head:<60} #{digest}"

    out = [
        f"# rulewright playthrough: {title or pt.game}, seed {pt.seed}, agents {pt.agents}",
        "# Replayed by the test suite; `rulewright diff GAME` reports where a rebuilt engine diverges.",
        f"game {pt.game}",
        f"seed {pt.seed}",
        f"agents {pt.agents}",
        f"options {json.dumps(pt.options, sort_keys=True)}",
        f"spec {pt.spec[:16]}",
        line("setup", pt.setup_digest),
    ]
    out += [f"    {x}" for x in pt.setup_log]
    for s in pt.steps:
        out.append(line(f"@{s.n} {s.player} > {s.label}", s.digest))
        out += [f"    {x}" for x in s.log]
    out.append(f"result {pt.result}")
    return "\n".join(out) + "\n"


def parse(text: str, path: Path | None = None) -> Playthrough:
    """A trace read back; a PlaythroughError says what is wrong and on which line."""
    where = str(path) if path else "<playthrough>"
    reader = _TraceReader()
    for i, raw in enumerate(text.splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        try:
            reader.read(raw)
        except _BadLine as exc:
            raise PlaythroughError(f"{where}:{i}: {exc}") from None
    if reader.pt is None:
        raise PlaythroughError(f"{where}: no 'setup' line; is this a playthrough?")
    reader.pt.path = path
    return reader.pt


class _BadLine(Exception):
    """A trace line that cannot be read (parse says where it is)."""


class _TraceReader:
    """Reads a trace line by line: header lines, then setup, steps and the result, each followed
    by its indented log lines."""

    def __init__(self) -> None:
        self.head: dict[str, str] = {}
        self.pt: Playthrough | None = None
        self.log: list[str] | None = None  # where the next log line goes

    def read(self, raw: str) -> None:
        if raw.startswith("    "):
            if self.log is None:
                raise _BadLine("a log line before any step")
            self.log.append(raw[4:])
            return
        body, _, digest = raw.rpartition(" #")
        body = body.rstrip()
        if raw.startswith("setup"):
            self.pt = self.setup(digest)
            self.log = self.pt.setup_log
        elif raw.startswith("@"):
            step = self.step(body, digest)
            self.log = step.log
        elif raw.startswith("result "):
            if self.pt is None:
                raise _BadLine("'result' before 'setup'")
            self.pt.result = raw[len("result ") :]
            self.log = None
        else:
            self.header(raw)

    def header(self, raw: str) -> None:
        key, _, value = raw.partition(" ")
        self.head[key] = value
        check = _HEADER_CHECKS.get(key)
        try:
            if check is not None:
                check(value)
        except (ValueError, RecursionError) as exc:
            raise _BadLine(f"bad header line: {exc}") from None

    def setup(self, digest: str) -> Playthrough:
        head = self.head
        try:
            return Playthrough(
                head["game"],
                _seed(head["seed"]),
                _agents(head["agents"]),
                _options(head["options"]),
                head["spec"],
                digest,
                [],
            )
        except KeyError as exc:
            raise _BadLine(f"incomplete header (no {exc} line)") from None
        except (ValueError, RecursionError) as exc:
            raise _BadLine(f"bad header: {exc}") from None

    def step(self, body: str, digest: str) -> Step:
        if self.pt is None:
            raise _BadLine("a step before 'setup'")
        num, _, rest = body[1:].partition(" ")
        player, sep, label = rest.partition(" > ")
        if not sep or not re.fullmatch(r"[0-9]{1,9}", num) or not digest:
            raise _BadLine("expected '@N PLAYER > ACTION   #DIGEST'")
        self.pt.steps.append(Step(int(num), player, label, digest, []))
        return self.pt.steps[-1]


def _seed(text: str) -> int:
    if not re.fullmatch(r"[0-9]{1,19}", text.strip()) or int(text) >= 2**63:
        raise ValueError(f"seed {text[:40]!r} is not a whole number from 0 to {2**63 - 1}")
    return int(text)


def _agents(text: str) -> str:
    for kind in text.split(","):
        check_agent(kind.strip())  # ValueError for an unknown agent
        if kind.strip() == "human":  # re-recording must never wait for a keyboard
            raise ValueError("a playthrough's agents cannot be 'human'")
    return text


def _options(text: str) -> dict[str, int | bool | str]:
    options = json.loads(text)
    if not isinstance(options, dict) or not all(isinstance(v, int | str) for v in options.values()):
        raise ValueError(f"options {text[:40]!r} are not an object of integers, true/false and names")
    return {str(k): v for k, v in options.items()}


_HEADER_CHECKS: dict[str, Callable[[str], object]] = {"seed": _seed, "agents": _agents, "options": _options}


def load(path: Path) -> Playthrough:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PlaythroughError(f"{path}: cannot read it ({exc})") from None
    return parse(text, path)


@dataclass
class Divergence:
    """Where a replay first differs from its recording."""

    step: int  # 0 for the setup, else the decision number
    what: str
    expected: str = ""
    got: str = ""
    before: GameState | None = None  # the state just before the step that differs
    action: int = -1  # the action of that step, when it was legal
    move: str = ""  # the recorded "PLAYER > ACTION" of that step

    def describe(self) -> str:
        at = f"step {self.step} ({self.move})" if self.move else f"step {self.step}"
        text = f"{at}: {self.what}" if self.step else f"setup: {self.what}"
        if self.expected or self.got:
            text += f"\n      recorded: {self.expected}\n      now:      {self.got}"
        return text


def _first_difference(old: list[str], new: list[str]) -> tuple[str, str]:
    for a, b in zip(old, new, strict=False):
        if a != b:
            return a, b
    if len(old) > len(new):
        return old[len(new)], "(no more lines)"
    return "(no more lines)", new[len(old)]


def replay(game: Game, pt: Playthrough) -> tuple[Divergence | None, GameState]:
    """Replay `pt` on `game`'s engine; the first divergence (None if it matches) and the end state."""
    state = game.new_initial_state(pt.seed)
    if state.log() != pt.setup_log:
        return Divergence(
            0, "the setup logs differently", *_first_difference(pt.setup_log, state.log())
        ), state
    if state_digest(state) != pt.setup_digest:
        return Divergence(0, "the state after setup differs", pt.setup_digest, state_digest(state)), state
    for s in pt.steps:
        if state.is_terminal():
            return Divergence(
                s.n, "the game is already over", f"{s.player} > {s.label}", result_text(state)
            ), state
        before = state.clone()
        move = f"{s.player} > {s.label}"
        names = state.INFO.player_names
        who = names[state.current_player()] if state.current_player() >= 0 else "nobody"
        if who != s.player:
            return Divergence(
                s.n, "another player is to act", move, f"{who} to act", before, move=move
            ), state
        try:
            action = state.string_to_action(s.label)
        except IllegalActionError:
            legal = ", ".join(state.action_to_string(a) for a in state.legal_actions())
            return Divergence(
                s.n,
                f"'{s.label}' is no longer legal",
                f"{s.player} > {s.label}",
                f"{who} may: {legal}",
                before,
            ), state
        seen = len(state.lines)
        try:
            state.apply_action(action)
        except RuleError as exc:
            return Divergence(s.n, f"rule error: {exc}", before=before, action=action, move=move), state
        log = state.log(seen)
        if log != s.log:
            old, new = _first_difference(s.log, log)
            return Divergence(s.n, "the log differs", old, new, before, action, move), state
        if state_digest(state) != s.digest:
            return Divergence(
                s.n, "the state differs (same log)", s.digest, state_digest(state), before, action, move
            ), state
    if not state.is_terminal():
        who = state.INFO.player_names[state.current_player()]
        return Divergence(len(pt.steps) + 1, "the game goes on", pt.result, f"{who} to act"), state
    if result_text(state) != pt.result:
        return Divergence(len(pt.steps), "the result differs", pt.result, result_text(state)), state
    return None, state
