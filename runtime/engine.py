"""The shared engine: state, frames, decisions, zones, lasting effects, log and errors.

Generated game modules subclass GameState and Frame. The base classes own every rule that all
games share: an illegal action raises and changes nothing; a terminal state takes no action;
decisions can arise anywhere inside an effect because the program's call stack is part of the
state (a list of Frames), so every decision point clones and JSON-round-trips exactly.
"""

from __future__ import annotations

import json
import operator
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NoReturn, Self, SupportsIndex

from runtime.rng import Rng

TERMINAL = -4  # current_player() of a finished game (OpenSpiel's kTerminalPlayerId)
PASS = 0  # the action id of "pass" in an optional choice


class IllegalActionError(ValueError):
    """An action that is not legal in this state; the state is unchanged."""


class RuleError(RuntimeError):
    """A spec that asks for something impossible at run time (e.g. a choice with no options)."""


class GameEnded(Exception):
    """Unwinds the running effect when the game ends (caught by the engine loop)."""


# ---- static game description (generated) ------------------------------------------------------


@dataclass(frozen=True)
class ZoneInfo:
    """One zone instance: a zone, or one player's copy of a per-player zone."""

    name: str
    type_index: int
    kind: str  # "pile" or "grid"
    owner: int  # -1 for shared zones
    visibility: str  # "public", "owner", "hidden"


@dataclass(frozen=True)
class Domain:
    """A range of action ids for one kind of choosable value."""

    name: str
    offset: int
    labels: tuple[str, ...]


@dataclass(frozen=True)
class OptionInfo:
    """A declared game parameter."""

    name: str
    type: str
    default: int | bool
    choices: tuple[int, ...]
    doc: str


# The rules may take at most this many steps (a frame's step, a pass of a loop) between two
# decisions, and procedures may nest this deep; beyond, they would never stop (docs/limits.md).
DEFAULT_STEP_BUDGET = 1_000_000
MAX_CALL_DEPTH = 500
STEP_BUDGET_VARIABLE = "RULEWRIGHT_STEP_BUDGET"  # overrides every game's budget when set


def step_budget(info: GameInfo) -> int:
    """The step budget of a game: the environment's override, or the spec's."""
    text = os.environ.get(STEP_BUDGET_VARIABLE, "")
    if text:
        try:
            value = int(text)
        except ValueError:
            value = 0
        if value < 1:
            raise RuleError(
                f"{STEP_BUDGET_VARIABLE}={text!r}: the step budget must be a positive whole number"
            )
        return value
    return info.step_budget


@dataclass
class GameInfo:
    """Everything static about a compiled game that the runtime needs."""

    name: str
    title: str
    version: str
    digest: str
    player_names: tuple[str, ...]
    player_count: int | str  # a number, or the name of the option that sets it
    options: tuple[OptionInfo, ...]
    type_names: tuple[str, ...]
    type_labels: tuple[tuple[str, ...], ...]
    type_ids: tuple[tuple[str, ...], ...]
    zones: tuple[ZoneInfo, ...]
    domains: tuple[Domain, ...]
    radius: int
    phases: tuple[str, ...]
    modifiers: tuple[str, ...]
    owner_vars: tuple[str, ...]
    chance: bool = True  # the rules roll, pick at random or shuffle
    secret_choices: bool = False  # the rules ask `secretly choose`
    var_indices: dict[str, tuple[int, ...]] = field(
        default_factory=dict
    )  # per-indexed variable -> type indices
    var_values: dict[str, int] = field(
        default_factory=dict
    )  # variable holding an entity (or a list of them) -> its type index, for readable views
    # variable -> (what it holds, the domains it is indexed by), in runtime/saved.py's value types
    var_types: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    modifier_params: tuple[tuple[str, ...], ...] = ()  # each modifier's argument types, the same way
    frames: dict[str, type[Frame]] = field(default_factory=dict)
    invariants: tuple[tuple[str, str, Any, str], ...] = ()  # name, why, check function, its text
    evaluate: Callable[[Any, int], int] | None = None  # the spec's evaluation: (state, player) -> score
    coverage_points: tuple[tuple[str, str, str], ...] = ()  # (kind, what, file:line), rulewright/coverage.py
    step_budget: int = DEFAULT_STEP_BUDGET  # the spec's `limits.steps` (docs/limits.md)
    # each cached function, in the order of the state's caches: its name, its parameters' names,
    # and the generated function (the contract recomputes kept values with it)
    cached: tuple[tuple[str, tuple[str, ...], Callable[..., Any]], ...] = ()
    around: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    labels: tuple[str, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.labels = tuple(label for d in self.domains for label in d.labels)
        # each grid cell's orthogonal neighbours, computed once per game
        r = self.radius
        w = 2 * r + 1
        self.around = (
            tuple(
                tuple(
                    cell_code(a, b, r)
                    for a, b in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
                    if -r <= a <= r and -r <= b <= r
                )
                for x, y in (cell_xy(c, r) for c in range(w * w))
            )
            if r
            else ()
        )

    @property
    def num_distinct_actions(self) -> int:
        last = self.domains[-1]
        return last.offset + len(last.labels)

    def action_label(self, action: int) -> str:
        return self.labels[action] if 0 <= action < len(self.labels) else f"<no action {action}>"


def integer_id(value: object) -> int | None:
    """`value` as a plain int if it is an integer (numpy's too, through __index__), else None.
    A bool is not: True is not action 1."""
    if type(value) is int:
        return value
    if isinstance(value, bool) or not isinstance(value, SupportsIndex):
        return None
    try:
        return int(operator.index(value))
    except TypeError:  # numpy's bool has __index__ only to refuse
        return None


def shown_value(value: object) -> str:
    """A value handed in from Python, for an error message (never the whole of a huge one)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def number_labels(up_to: int) -> tuple[str, ...]:
    """The labels of the number actions 0..up_to."""
    return tuple(str(i) for i in range(up_to + 1))


def cell_labels(radius: int) -> tuple[str, ...]:
    """The labels of the cells of a grid of this radius, in cell-code order: `(x,y)`."""
    w = 2 * radius + 1
    return tuple(f"({c // w - radius},{c % w - radius})" for c in range(w * w))


def cell_code(x: int, y: int, radius: int) -> int:
    if not (-radius <= x <= radius and -radius <= y <= radius):
        raise RuleError(f"position ({x},{y}) is off the grid (radius {radius})")
    w = 2 * radius + 1
    return (x + radius) * w + (y + radius)


def cell_xy(c: int, radius: int) -> tuple[int, int]:
    w = 2 * radius + 1
    return c // w - radius, c % w - radius


def _without_none_slots(value: object, indices: tuple[int, ...], components: int) -> object:
    """A per-component variable without the trailing slot that `none` reads (an engine detail)."""
    if not indices or not isinstance(value, list):
        return value
    items = value[:-1] if indices[0] < components else value
    return [_without_none_slots(v, indices[1:], components) for v in items]


# ---- frames and decisions ---------------------------------------------------------------------


class Frame:
    """One activation of a procedure that may stop for a decision: its position and its locals."""

    __slots__ = ("pc",)
    NAME: ClassVar[str] = ""
    ORIGIN: ClassVar[str] = ""  # the spec entry and file:line, for error messages
    SLOTS: ClassVar[tuple[str, ...]] = ()
    SLOT_TYPES: ClassVar[tuple[str, ...]] = ()  # each slot's value type in a saved state (runtime/saved.py)
    BLOCKS: ClassVar[int] = 0  # how many blocks `step` has: a program counter is below this

    def __init__(self) -> None:
        self.pc = 0

    def step(self, s: Any) -> None:  # pragma: no cover - generated subclasses implement it
        raise NotImplementedError

    def copy(self) -> Frame:
        f = object.__new__(type(self))
        f.pc = self.pc
        for name in self.SLOTS:
            setattr(f, name, getattr(self, name))
        return f

    def to_data(self) -> list[object]:
        return [self.NAME, self.pc, [getattr(self, n) for n in self.SLOTS]]


@dataclass(slots=True)
class Decision:
    """A question the game is waiting on: who answers, from which action ids, into which local."""

    player: int
    options: list[int]
    slot: str
    prompt: str
    optional: bool = False
    need: int = 0  # > 0: choose this many distinct options, one action each
    picked: list[int] = field(default_factory=list)
    domain: int = 0
    secret: bool = False
    _legal: list[int] | None = field(default=None, repr=False, compare=False)

    def copy(self) -> Decision:
        d = Decision(
            self.player,
            self.options,
            self.slot,
            self.prompt,
            self.optional,
            self.need,
            self.picked[:],
            self.domain,
            self.secret,
        )
        d._legal = self._legal
        return d

    def legal(self) -> list[int]:
        """Ascending action ids (cached: the options of a decision never change while it waits)."""
        if self._legal is None:
            acts = [a for a in self.options if a not in self.picked] if self.picked else list(self.options)
            if self.optional:
                acts.append(PASS)
            self._legal = sorted(set(acts))
        return self._legal


# ---- zones ------------------------------------------------------------------------------------


class Zones:
    """Where every component is: pile contents (bottom..top), grid cells, and a where-index."""

    __slots__ = ("piles", "cells", "where", "pos")

    def __init__(self, zones: Sequence[ZoneInfo], type_sizes: Sequence[int]) -> None:
        self.piles: list[list[int]] = [[] for _ in zones]
        self.cells: list[dict[int, int]] = [{} for _ in zones]
        self.where: list[list[int]] = [[-1] * n for n in type_sizes]
        self.pos: list[list[int]] = [[-1] * n for n in type_sizes]

    def copy(self) -> Zones:
        z = Zones.__new__(Zones)
        z.piles = [p[:] for p in self.piles]
        z.cells = [dict(c) if c else {} for c in self.cells]
        z.where = [w[:] for w in self.where]
        z.pos = [p[:] for p in self.pos]
        return z

    def to_data(self) -> dict[str, object]:
        return {
            "piles": self.piles,
            "cells": [sorted(c.items()) for c in self.cells],
            "where": self.where,
            "pos": self.pos,
        }

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> Zones:
        z = cls.__new__(cls)
        z.piles = [list(p) for p in d["piles"]]
        z.cells = [{int(k): int(v) for k, v in c} for c in d["cells"]]
        z.where = [list(w) for w in d["where"]]
        z.pos = [list(p) for p in d["pos"]]
        return z


def _recurring(exc: BaseException) -> str:
    """The rule (function or procedure) that recurred most in a RecursionError's traceback."""
    names: dict[str, int] = {}
    tb = exc.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_name
        names[name] = names.get(name, 0) + 1
        tb = tb.tb_next
    top = max(names, key=lambda n: names[n]) if names else "?"
    # generated rules are named <kind>_<spec name> (f_ for functions, p_ for procedures, ...)
    return top.split("_", 1)[1] if "_" in top else top


# ---- the state --------------------------------------------------------------------------------


class GameState:
    """A game in progress. Generated subclasses add the game's variables and its flow."""

    __slots__ = (
        "stack",
        "pending",
        "rng",
        "over",
        "winner",
        "reason",
        "lines",
        "history",
        "mods",
        "z",
        "num_players",
        "options",
        "seed",
        "setup_hook",
        "start_at",
        "skips",
        "steps_left",
        "budget",
        "caches",
    )
    INFO: ClassVar[GameInfo]
    stack: list[Frame]
    pending: Decision | None
    rng: Rng
    over: bool
    winner: int
    reason: str
    lines: list[tuple[int, str]]
    history: list[int]
    mods: list[tuple[int, tuple[int, ...], int]]
    z: Zones
    num_players: int
    options: dict[str, int | bool]
    seed: int
    setup_hook: Callable[[Any], None] | None
    start_at: str  # the phase or step where a scenario's setup runs ("": right after the game's setup)
    skips: list[str]  # phases whose next pass a scenario skips (empty in play)
    steps_left: int  # of the step budget, until the next decision (set as the rules start to run)
    budget: int  # the step budget: the spec's, or the environment's override when the game began
    # one dict per cached function (GameInfo.cached): its arguments -> its value. Not saved, not
    # cloned: a value is kept only until state it was computed from changes (`forget`)
    caches: list[dict[Any, Any]]

    # -- the engine API (OpenSpiel naming) ------------------------------------------------------
    def current_player(self) -> int:
        """The player to act, or TERMINAL once the game is over."""
        if self.over or self.pending is None:
            return TERMINAL
        return self.pending.player

    def legal_actions(self) -> list[int]:
        """Stable integer ids, ascending; empty when the game is over."""
        if self.over or self.pending is None:
            return []
        return self.pending.legal()[:]

    def action_to_string(self, action: int) -> str:
        """The label of an action id; IllegalActionError for anything that is not one."""
        a = integer_id(action)
        n = self.INFO.num_distinct_actions
        if a is None or not 0 <= a < n:
            raise IllegalActionError(
                f"no action {shown_value(action)}: action ids are integers from 0 to {n - 1}"
            )
        return self.INFO.labels[a]

    def string_to_action(self, text: str) -> int:
        """The legal action whose label is `text` (what scenarios and logs use)."""
        if not isinstance(text, str):
            raise IllegalActionError(
                f"an action label is a string, not {shown_value(text)} ({type(text).__name__})"
            )
        for a in self.legal_actions():
            if self.action_to_string(a) == text:
                return a
        raise IllegalActionError(f"no legal action '{text}' ({self._whose()}); legal: {self._legal_text()}")

    def apply_action(self, action: int) -> None:
        """Answer the pending decision; raises IllegalActionError (state unchanged) if not legal.

        An action is an int (or a numpy integer, stored as an int); a bool, float, str or
        anything else is refused before the state is touched."""
        given = action
        a = integer_id(given)
        if a is None:
            raise IllegalActionError(
                f"action {shown_value(given)} is a {type(given).__name__}, not an action id (an integer)"
            )
        action = a
        if self.over:
            raise IllegalActionError(f"action {action} ({self.INFO.action_label(action)}): the game is over")
        d = self.pending
        if d is None:
            raise IllegalActionError(f"action {action}: the game is not waiting on a decision")
        if action not in d.legal():
            raise IllegalActionError(
                f"illegal action {action} ({self.INFO.action_label(action)}) for {self._whose()}; "
                f"legal: {self._legal_text()}"
            )
        self.history.append(action)
        who = self.INFO.player_names[d.player]
        label = self.INFO.labels[action]  # a legal action: its id is in range
        self.lines.append(
            (d.player if d.secret else -1, f"{who} chooses {label}" + (f" ({d.prompt})" if d.prompt else ""))
        )
        frame = self.stack[-1]
        if d.need:
            d.picked.append(action)
            d._legal = None
            if len(d.picked) < d.need:
                return
            setattr(frame, d.slot, [a - self.INFO.domains[d.domain].offset for a in d.picked])
        elif action == PASS and d.optional:
            setattr(frame, d.slot, -1)
        else:
            value = action - self.INFO.domains[d.domain].offset
            setattr(frame, d.slot, bool(value) if self.INFO.domains[d.domain].name == "bool" else value)
        self.pending = None
        self._run()

    def is_terminal(self) -> bool:
        return self.over

    def is_chance_node(self) -> bool:
        return False

    def returns(self) -> list[float]:
        """+1 to the winner and -1/(n-1) to each other player; zeros for a draw or an unfinished game."""
        n = self.num_players
        if not self.over or self.winner < 0:
            return [0.0] * n
        lose = -1.0 / (n - 1) if n > 1 else 0.0
        return [1.0 if p == self.winner else lose for p in range(n)]

    def log(self) -> list[str]:
        """The whole game log (private lines marked with the player who saw them)."""
        names = self.INFO.player_names
        return [text if who < 0 else f"[{names[who]} only] {text}" for who, text in self.lines]

    def player_log(self, player: int) -> list[str]:
        """The log lines `player` saw: the public ones and their own private ones."""
        p = self.player_id(player)
        return [text for who, text in self.lines if who < 0 or who == p]

    def player_id(self, player: object) -> int:
        """`player` as a player number of this game; ValueError for anything else."""
        p = integer_id(player)
        n = self.num_players
        if p is None or not 0 <= p < n:
            raise ValueError(
                f"no player {shown_value(player)} in this {n}-player game (players are numbered 0 to {n - 1})"
            )
        return p

    def clone(self) -> GameState:
        n = object.__new__(type(self))
        n.stack = [f.copy() for f in self.stack]
        n.pending = self.pending.copy() if self.pending is not None else None
        n.rng = self.rng.copy()
        n.over, n.winner, n.reason = self.over, self.winner, self.reason
        n.lines = self.lines[:]
        n.history = self.history[:]
        n.mods = self.mods[:]
        n.z = self.z.copy()
        n.num_players, n.options, n.seed = self.num_players, self.options, self.seed
        n.setup_hook = None
        n.start_at = ""
        n.skips = self.skips[:]
        n.budget = self.budget
        n.caches = [{} for _ in self.caches]
        self._copy_vars(n)
        return n

    def to_json(self) -> str:
        d = self.pending
        data = {
            "game": self.INFO.name,
            "version": self.INFO.version,
            "digest": self.INFO.digest,
            "seed": self.seed,
            "options": self.options,
            "num_players": self.num_players,
            "rng": self.rng.to_data(),
            "over": self.over,
            "winner": self.winner,
            "reason": self.reason,
            "stack": [f.to_data() for f in self.stack],
            "pending": None
            if d is None
            else [d.player, d.options, d.slot, d.prompt, d.optional, d.need, d.picked, d.domain, d.secret],
            "log": self.lines,
            "history": self.history,
            "mods": self.mods,
            "zones": self.z.to_data(),
            "vars": self._dump_vars(),
        }
        if self.skips:
            data["skip"] = self.skips
        return json.dumps(data, separators=(",", ":"), sort_keys=True)

    @classmethod
    def _restore(cls, d: dict[str, Any]) -> Self:
        """The state whose saved fields `d` runtime/saved.py has checked against this engine: only
        `load_state` (Game.state_from_json) calls it, never with unchecked data."""
        s = object.__new__(cls)
        s.seed, s.options, s.num_players = d["seed"], d["options"], d["num_players"]
        s.setup_hook = None
        s.start_at = ""
        s.skips = d.get("skip", [])
        s.budget = step_budget(cls.INFO)
        s.rng = Rng.from_data(d["rng"])
        s.over, s.winner, s.reason = d["over"], d["winner"], d["reason"]
        s.stack = []
        for name, pc, values in d["stack"]:
            frame_cls = cls.INFO.frames[name]
            f = object.__new__(frame_cls)
            f.pc = pc
            for slot, v in zip(frame_cls.SLOTS, values, strict=True):
                setattr(f, slot, v)
            s.stack.append(f)
        p = d["pending"]
        s.pending = None if p is None else Decision(*p)
        s.lines = [(w, t) for w, t in d["log"]]
        s.history = d["history"]
        s.mods = [(m, tuple(a), u) for m, a, u in d["mods"]]
        s.z = Zones.from_data(d["zones"])
        s.caches = [{} for _ in cls.INFO.cached]
        s._load_vars(d["vars"])
        return s

    def observation(self, player: int) -> dict[str, object]:
        """What `player` may see: public variables and zones, own hidden things, counts of the rest."""
        player = self.player_id(player)
        info = self.INFO
        zones: dict[str, object] = {}
        for zi, (zinfo, pile) in enumerate(zip(info.zones, self.z.piles, strict=True)):
            labels = info.type_labels[zinfo.type_index]
            key = zinfo.name if zinfo.owner < 0 else f"{zinfo.name}[{info.player_names[zinfo.owner]}]"
            visible = zinfo.visibility == "public" or (zinfo.visibility == "owner" and zinfo.owner == player)
            if not visible:
                zones[key] = {"count": len(pile)}
            elif zinfo.kind == "grid":
                zones[key] = {
                    labels[e]: list(cell_xy(c, info.radius)) for c, e in sorted(self.z.cells[zi].items())
                }
            else:
                zones[key] = [labels[e] for e in pile]
        variables = self._dump_vars()
        components = len(info.type_names) - 1  # type indices below this are component types
        for name, indices in info.var_indices.items():
            variables[name] = _without_none_slots(variables[name], indices, components)
        for name in info.owner_vars:
            values = variables[name]
            assert isinstance(values, list)
            variables[name] = [v if p == player else None for p, v in enumerate(values)]
        obs: dict[str, object] = {
            "player": info.player_names[player],
            "current_player": self.current_player(),
            "terminal": self.over,
            "returns": self.returns(),
            "variables": variables,
            "zones": zones,
            "modifiers": [[info.modifiers[m], list(a)] for m, a, _ in self.mods],
        }
        d = self.pending
        if d is not None and d.player == player and not self.over:
            obs["decision"] = {"prompt": d.prompt, "legal": [self.action_to_string(a) for a in d.legal()]}
        return obs

    def observation_string(self, player: int) -> str:
        return json.dumps(self.observation(player), sort_keys=True)

    def __str__(self) -> str:
        tail = self.log()[-5:]
        status = f"over: {self.reason}" if self.over else f"{self._whose()} to act"
        return "\n".join([f"{self.INFO.title} ({status})", *tail])

    # -- hooks the generated subclass fills in --------------------------------------------------
    def _init_vars(self) -> None:  # pragma: no cover
        raise NotImplementedError

    def _copy_vars(self, other: Any) -> None:  # pragma: no cover
        raise NotImplementedError

    def _dump_vars(self) -> dict[str, object]:  # pragma: no cover
        raise NotImplementedError

    def _load_vars(self, d: dict[str, Any]) -> None:  # pragma: no cover
        raise NotImplementedError

    def _flow(self) -> Frame:  # pragma: no cover
        raise NotImplementedError

    # -- the machine ----------------------------------------------------------------------------
    def _start(self, seed: int, options: dict[str, int | bool], num_players: int) -> None:
        info = self.INFO
        self.seed = seed
        self.options = options
        self.num_players = num_players
        self.rng = Rng(seed)
        self.skips = []
        self.start_at = ""
        self.budget = step_budget(info)
        self.over, self.winner, self.reason = False, -1, ""
        self.stack = []
        self.pending = None
        self.lines = []
        self.history = []
        self.mods = []
        self.z = Zones(info.zones, [len(t) for t in info.type_ids])
        self.caches = [{} for _ in info.cached]
        self._init_vars()
        self.stack.append(self._flow())

    def _begin(self) -> None:
        self._run()

    def _run(self) -> None:
        stack = self.stack
        self.steps_left = self.budget
        try:
            while self.pending is None:
                if not stack:
                    self._finish(-1, "the flow ended with no winner")
                self.steps_left -= 1
                if self.steps_left < 0:
                    self.out_of_steps(stack[-1].ORIGIN)
                stack[-1].step(self)
        except GameEnded:
            pass
        except RecursionError as exc:
            raise RuleError(
                f"the rules nest calls deeper than Python allows: '{_recurring(exc)}' calls itself "
                f"without end?{self._where(exc)}"
            ) from None
        except RuleError as exc:
            if stack and "(the decision at" not in str(exc) and " (in " not in str(exc):
                raise RuleError(f"{exc}{self._where(exc)}") from None
            raise
        except (IndexError, ArithmeticError) as exc:
            # what a spec can get wrong that `check` cannot see: `xs[0]` of an empty list, ...
            what = "an index beyond the end of a list" if isinstance(exc, IndexError) else "arithmetic"
            raise RuleError(f"the rules failed at run time, {what}: {exc}{self._where(exc)}") from None

    def _where(self, exc: BaseException | None = None) -> str:
        """` (in <the running rule's spec entry and file:line>)`, for a rule error; '' if none runs.

        The rule is the innermost generated function or frame the error passed through: a
        generated module maps each function's name to its origin (ORIGINS), a frame has its own.
        """
        origin = ""
        tb = exc.__traceback__ if exc is not None else None
        while tb is not None:
            frame = tb.tb_frame
            origins = frame.f_globals.get("ORIGINS")
            if isinstance(origins, dict):
                name = frame.f_code.co_name
                owner = frame.f_locals.get("self")
                if name in origins:
                    origin = origins[name]
                elif name == "step" and isinstance(owner, Frame):
                    origin = owner.ORIGIN
            tb = tb.tb_next
        if not origin and self.stack:
            origin = self.stack[-1].ORIGIN
        return f" (in {origin})" if origin else ""

    def tick(self, where: str) -> None:
        """One pass of a loop that never stops for a decision: spends one step of the budget."""
        self.steps_left -= 1
        if self.steps_left < 0:
            self.out_of_steps(where)

    def out_of_steps(self, where: str) -> NoReturn:
        budget = self.budget
        raise RuleError(
            f"the rules ran {budget:,} steps without a decision or the end of the game: a loop that "
            f"never ends? (in {where}; to allow more, set `limits: {{steps: N}}` in the spec or "
            f"{STEP_BUDGET_VARIABLE}=N)"
        )

    def div(self, a: int, b: int) -> int:
        """`a // b` of the rules: floor division; dividing by zero is a rule error."""
        if b == 0:
            raise RuleError(f"division by zero ({a} // 0)")
        return a // b

    def mod(self, a: int, b: int) -> int:
        """`a % b` of the rules; the remainder of a division by zero is a rule error."""
        if b == 0:
            raise RuleError(f"remainder of a division by zero ({a} % 0)")
        return a % b

    def after_setup(self) -> None:
        """Called by the flow between setup and the first phase (scenarios arrange the table here,
        unless they start at a named phase or step: then `starting` runs their setup there)."""
        if not self.start_at:
            self.run_setup_hook()

    def starting(self, phase: str) -> None:
        """Called at the start of each pass of a phase or step a scenario may start at."""
        if self.start_at == phase:
            self.start_at = ""
            self.run_setup_hook()

    def run_setup_hook(self) -> None:
        hook = self.setup_hook
        self.setup_hook = None
        if hook is not None:
            hook(self)

    def skip_pass(self, phase: str) -> bool:
        """True once for each pending skip of `phase` (scenarios start mid-flow this way)."""
        if phase in self.skips:
            self.skips.remove(phase)
            return True
        return False

    def push(self, frame: Frame) -> None:
        if len(self.stack) >= MAX_CALL_DEPTH:
            raise RuleError(
                f"procedures are nested {MAX_CALL_DEPTH} deep, in {frame.ORIGIN}: "
                "a procedure or trigger that calls itself needs a condition that stops it"
            )
        self.stack.append(frame)

    def pop(self) -> None:
        self.stack.pop()

    def decide(
        self,
        player: int,
        values: Sequence[int],
        domain: int,
        slot: str,
        prompt: str,
        optional: bool = False,
        need: int = 0,
        secret: bool = False,
        at: str = "",
    ) -> bool:
        """Stop for a decision. Returns False (and asks nothing) when an optional choice has no options.

        `at` is the decision's place in the spec (file:line), named by any rule error raised here.
        """

        def fail(message: str) -> NoReturn:
            raise RuleError(f"'{prompt}': {message}" + (f" (the decision at {at})" if at else ""))

        if not 0 <= player < self.num_players:
            fail(f"the deciding player ({player}) is not in the game")
        dom = self.INFO.domains[domain]
        off, size = dom.offset, len(dom.labels)
        if isinstance(values, range) and values and (values[0] < 0 or values[-1] >= size):
            # a `choose number from a to b` range beyond the domain, refused before it is listed
            fail(
                f"the numbers {values[0]} to {values[-1]} go beyond 0 to {size - 1} (raise actions.max_number?)"
            )
        unique = dict.fromkeys(values)
        opts = [off + v for v in unique if 0 <= v < size]
        if len(opts) != len(unique):
            fail(f"a {dom.name} option is out of range (raise actions.max_number?)")
        if need and len(opts) < need:
            fail(f"must choose {need} but only {len(opts)} options")
        if not opts:
            if optional:
                return False
            fail(f"{self.INFO.player_names[player]} must choose but there is no option")
        # A single option is still asked: a game's action sequence never depends on option counts.
        self.pending = Decision(player, opts, slot, prompt, optional, need, [], domain, secret)
        return True

    def end_game(self, winner: int, reason: str) -> NoReturn:
        self._finish(winner, reason)

    def _finish(self, winner: int, reason: str) -> NoReturn:
        self.over = True
        self.winner = winner
        self.reason = reason or ("draw" if winner < 0 else "")
        self.pending = None
        self.stack.clear()
        result = "a draw" if winner < 0 else f"{self.INFO.player_names[winner]} wins"
        self.lines.append((-1, f"Game over: {result}" + (f" ({reason})" if reason else "")))
        raise GameEnded

    # -- helpers the generated code calls -------------------------------------------------------
    def say(self, text: str) -> None:
        self.lines.append((-1, text))

    def say_to(self, player: int, text: str) -> None:
        self.lines.append((player, text))

    def roll(self, faces: int) -> int:
        v = self.rng.roll(faces)
        self.lines.append((-1, f"(rolled {v} on d{faces})"))
        return v

    def pick(self, items: Sequence[int]) -> int:
        if not items:
            raise RuleError("random pick from an empty collection")
        return self.rng.pick(list(items)) if self.rng.forced_picks else items[self.rng.below(len(items))]

    def shuffle(self, zone: int) -> None:
        self.rng.shuffle(self.z.piles[zone])

    def top(self, zone: int) -> int:
        pile = self.z.piles[zone]
        return pile[-1] if pile else -1

    def top_n(self, zone: int, n: int) -> list[int]:
        """Up to n components from the top of a pile, topmost first."""
        pile = self.z.piles[zone]
        return pile[::-1][: max(0, n)]

    def ref(self, index: int) -> int:
        """A component or player used as an index for a write: never `none`."""
        if index < 0:
            raise RuleError("'none' used where a component or player is needed (a variable or zone of none)")
        return index

    def opponent(self, p: int) -> int:
        if self.num_players != 2:
            raise RuleError("opponent() needs a two-player game")
        return 1 - p

    def _detach(self, t: int, e: int) -> None:
        z = self.z
        where = z.where[t][e]
        if where < 0:
            return
        z.piles[where].remove(e)
        c = z.pos[t][e]
        if c >= 0:
            del z.cells[where][c]
            z.pos[t][e] = -1
        z.where[t][e] = -1

    def move(self, t: int, e: int, zone: int, top: bool = True) -> None:
        if e < 0:
            raise RuleError("cannot move 'none'")
        self._detach(t, e)
        if top:
            self.z.piles[zone].append(e)
        else:
            self.z.piles[zone].insert(0, e)
        self.z.where[t][e] = zone

    def move_all(self, t: int, items: Sequence[int], zone: int, top: bool = True) -> None:
        """Each in turn onto the top; to the bottom they keep their order (the first ends lowest)."""
        for e in list(items) if top else list(items)[::-1]:
            self.move(t, e, zone, top)

    def place(self, t: int, e: int, zone: int, cell: int) -> None:
        cells = self.z.cells[zone]
        if cell in cells:
            raise RuleError(f"position {self.cell_label(cell)} is already taken")
        self._detach(t, e)
        cells[cell] = e
        self.z.piles[zone].append(e)
        self.z.where[t][e] = zone
        self.z.pos[t][e] = cell

    def deal(self, t: int, n: int, src: int, dst: int) -> None:
        pile = self.z.piles[src]
        for _ in range(min(n, len(pile))):
            self.move(t, pile[-1], dst)

    def cell(self, x: int, y: int) -> int:
        return cell_code(x, y, self.INFO.radius)

    def cell_label(self, c: int) -> str:
        if c < 0:
            return "none"
        x, y = cell_xy(c, self.INFO.radius)
        return f"({x},{y})"

    def neighbors(self, t: int, e: int) -> list[int]:
        c = self.z.pos[t][e]
        if c < 0:
            return []
        cells = self.z.cells[self.z.where[t][e]]
        return [cells[n] for n in self.INFO.around[c] if n in cells]

    def adjacent(self, t: int, a: int, b: int) -> bool:
        ca, cb = self.z.pos[t][a], self.z.pos[t][b]
        return ca >= 0 and cb >= 0 and self.z.where[t][a] == self.z.where[t][b] and cb in self.INFO.around[ca]

    def open_cells_around(self, t: int, items: Sequence[int]) -> list[int]:
        around = self.INFO.around
        pos, where, cells_of = self.z.pos[t], self.z.where[t], self.z.cells
        out: set[int] = set()
        for e in items:
            c = pos[e]
            if c >= 0:
                cells = cells_of[where[e]]
                out.update(n for n in around[c] if n not in cells)
        return sorted(out)

    def forget(self, caches: tuple[int, ...]) -> None:
        """State that these cached functions read has changed: their kept values are dropped, to be
        computed afresh when next asked for (the generated code calls it after each such write)."""
        kept = self.caches
        for c in caches:
            kept[c].clear()

    def add_mod(self, mod: int, args: tuple[int, ...], until: int) -> None:
        self.mods.append((mod, args, until))

    def cancel_mod(self, mod: int, args: tuple[int, ...]) -> None:
        self.mods = [m for m in self.mods if not (m[0] == mod and m[1] == args)]

    def active(self, mod: int, args: tuple[int, ...]) -> bool:
        for m, a, _ in self.mods:
            if m == mod and a == args:
                return True
        return False

    def expire(self, phase: int) -> None:
        if self.mods:
            self.mods = [m for m in self.mods if m[2] != phase]

    def label(self, t: int, e: int) -> str:
        return "none" if e < 0 else self.INFO.type_labels[t][e]

    def player_label(self, p: int) -> str:
        return "none" if p < 0 else self.INFO.player_names[p]

    def _whose(self) -> str:
        if self.over:
            return "nobody (the game is over)"
        d = self.pending
        assert d is not None
        return f"{self.INFO.player_names[d.player]}" + (f", {d.prompt}" if d.prompt else "")

    def _legal_text(self) -> str:
        acts = self.legal_actions()
        shown = ", ".join(f"{a} ({self.action_to_string(a)})" for a in acts[:12])
        return shown + (f", ... ({len(acts)} in all)" if len(acts) > 12 else "")
