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
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from types import FunctionType
from typing import Any, ClassVar, Final, NoReturn, Self, SupportsIndex

from runtime.chance import BEGIN, Chance, ChanceNode, NeedChance, draw_node, pick_node, picked, roll_node
from runtime.errors import GameEnded as GameEnded
from runtime.errors import IllegalActionError as IllegalActionError
from runtime.errors import RuleError as RuleError
from runtime.native import mypyc_attr
from runtime.rng import Rng
from runtime.text import clipped, escaped

TERMINAL: Final = -4  # current_player() of a finished game (OpenSpiel's kTerminalPlayerId)
CHANCE: Final = -1  # current_player() at a chance node of explicit chance (OpenSpiel's kChancePlayerId)
PASS: Final = 0  # the action id of "pass" in an optional choice
# GameState.observation's views: one player's; what every player sees; everything
PLAYER_VIEW, PUBLIC_VIEW, FULL_VIEW = "player", "public", "full"
VIEWS = (PLAYER_VIEW, PUBLIC_VIEW, FULL_VIEW)

# A line of the log is a tuple: the index of one of the rules' texts (GameInfo.texts) and the
# values of its holes, or one of the engine's own lines below, each (code, values...).
Line = Sequence[Any]
CHOSE: Final = -1  # (CHOSE, player, action, prompt): "<player> chooses <action> (<prompt>)"
CHOSE_SECRETLY: Final = -2  # the same, seen only by that player (a secret choice)
ROLLED: Final = -3  # (ROLLED, value, faces): "(rolled <value> on d<faces>)"
GAME_OVER: Final = -4  # (GAME_OVER, winner or -1, reason): "Game over: <winner> wins (<reason>)"
# (HAS_CHOSEN, player, prompt): "<player> has chosen (<prompt>)", a simultaneous answer
HAS_CHOSEN: Final = -5
REVEALED: Final = -6  # (REVEALED, prompt, players, actions): "Revealed (<prompt>): <player>: <action>, ..."
# ... and, after a shared win or in a game with results (GameInfo.returns), the winners (a list of
# players: none for a draw) and, with results, each player's return (ints):
# (GAME_OVER, the sole winner or -1, reason, winners[, returns]): "Game over: A and B share the win"
UTILITY_KINDS = ("zero_sum", "constant_sum", "identical", "general_sum")  # GameInfo.utility


# ---- static game description (generated) ------------------------------------------------------


@dataclass(frozen=True)
class ZoneInfo:
    """One zone instance: a zone, or one player's copy of a per-player zone."""

    name: str
    type_index: int
    kind: str  # "pile" or "grid"
    owner: int  # -1 for shared zones
    visibility: str  # "public", "owner", "others" (every player but the owner), "hidden"
    label: str = ""  # an instance of a zone with indices besides a player: `expedition[red,Alice]`

    def key(self, player_names: Sequence[str]) -> str:
        """The instance's name in observations and views: `deck`, `hand[Alice]`, `expedition[red,Alice]`."""
        if self.label:
            return self.label
        return self.name if self.owner < 0 else f"{self.name}[{player_names[self.owner]}]"

    def seen_by(self, player: int) -> bool:
        """Does `player` see what is in this zone (and not only how many)?"""
        vis = self.visibility
        if vis == "public":
            return True
        if vis == "owner":
            return self.owner == player
        return vis == "others" and self.owner != player


@dataclass(frozen=True)
class Domain:
    """A range of action ids for one kind of choosable value."""

    name: str
    offset: int
    labels: tuple[str, ...]


@dataclass(frozen=True)
class OptionInfo:
    """A declared game parameter: an int, a bool, or a value of an enum (type `enum:E`), which is
    set and saved by its name (one of `values`) and read by the rules as its index."""

    name: str
    type: str
    default: int | bool | str
    choices: tuple[int | str, ...]
    doc: str
    values: tuple[str, ...] = ()  # an enum option's: the enum's value names

    def allowed(self) -> tuple[int | str, ...]:
        """The values it may take, when they are listed: its choices, or an enum's values."""
        return self.choices or self.values


@dataclass(frozen=True)
class Text:
    """A text of the spec with holes: a log line or a decision's prompt.

    The rules store a text's index and the values of its holes; the words are made only when
    someone reads them, so play formats nothing and a saved log holds numbers, not prose. `form`
    is a `str.format` string with one `{}` per hole, `kinds` the holes' value types (the names of
    runtime/saved.py: int, bool, str, player, entity:T, enum:E, cell, list[...]). A private text
    is a line only one player sees: its first value is that player, and is not shown."""

    form: str
    kinds: tuple[str, ...] = ()
    private: bool = False


# The rules may take at most this many steps (a frame's step, a pass of a loop) between two
# decisions, and procedures may nest this deep; beyond, they would never stop (docs/limits.md).
DEFAULT_STEP_BUDGET: Final = 1_000_000
MAX_CALL_DEPTH: Final = 500
MAX_RULE_DEPTH: Final = 200  # how deep a rule that calls itself may nest (`enter`); Python's stack holds it
# the Python frames the rules may need below a caller: the adapters make this room before they
# run the rules, and a RecursionError with fewer frames of the rules blames the caller, not a rule
RULES_ROOM: Final = 500
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
    die_faces: int = 6  # the most faces of a die the rules roll (a bound of explicit chance's outcomes)
    secret_choices: bool = False  # the rules ask `secretly choose`
    windows: tuple[str, ...] = ()  # the response windows (`windows:`), by name
    simultaneous: bool = False  # the rules ask `simultaneously ... by each` (Simultaneous)
    var_indices: dict[str, tuple[int, ...]] = field(
        default_factory=dict
    )  # per-indexed variable -> type indices
    var_values: dict[str, int] = field(
        default_factory=dict
    )  # variable holding an entity (or a list of them) -> its type index, for readable views
    # variable -> (what it holds, the domains it is indexed by), in runtime/saved.py's value types
    var_types: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    # bounded int variable -> the lowest and highest value it can hold (None: unbounded that side)
    var_ranges: dict[str, tuple[int | None, int | None]] = field(default_factory=dict)
    # the component types whose every component is in a zone whenever the game waits on a decision
    placed_types: tuple[int, ...] = ()
    modifier_params: tuple[tuple[str, ...], ...] = ()  # each modifier's argument types, the same way
    frames: dict[str, type[Frame]] = field(default_factory=dict)
    invariants: tuple[tuple[str, str, Any, str], ...] = ()  # name, why, check function, its text
    # invariant -> the names it reads whose values its failure shows, each (kind, name, value): kind
    # "state", "zone", "option", "const" (value: the constant's) or "function" (of no parameters;
    # value: the function)
    invariant_reads: dict[str, tuple[tuple[str, str, Any], ...]] = field(default_factory=dict)
    evaluate: Callable[[Any, int], int] | None = None  # the spec's evaluation: (state, player) -> score
    # the spec's `results`: each player's return once the game is over, (state, player) -> int.
    # None: +1 to each winner, and the losers share the loss (GameState.returns)
    returns: Callable[[Any, int], int] | None = None
    utility: str = "zero_sum"  # results.kind, one of UTILITY_KINDS
    # results.min and results.max: no return lies beyond them (without results: -1 and 1, or
    # -(n-1) and 1 when a shared win of all but one of n players can happen)
    utility_range: tuple[int, int] = (-1, 1)
    utility_sum: int = 0  # what the returns add up to, for zero_sum and constant_sum
    coverage_points: tuple[tuple[str, str, str], ...] = ()  # (kind, what, file:line), rulewright/coverage.py
    step_budget: int = DEFAULT_STEP_BUDGET  # the spec's `limits.steps` (docs/limits.md)
    # each cached function, in the order of the state's caches: its name, its parameters' names,
    # and the generated function (the contract recomputes kept values with it)
    cached: tuple[tuple[str, tuple[str, ...], Callable[..., Any]], ...] = ()
    texts: tuple[Text, ...] = ()  # the log lines and prompts of the rules, by index (Text)
    # each component type's row (kind) of each component, for a type with rows of `copies: N`
    # (their copies are one action each); () for a type without, and () when no type has copies
    type_kinds: tuple[tuple[int, ...], ...] = ()
    # a saved log's lines from an index on, every number an integer, tested by the engine's own
    # code: (lines, index, players) -> the first not seen at once to be right (runtime/saved.py)
    saved_lines: Callable[[list[Any], int, int], int] | None = None
    # each frame's test of its slots' values in a saved state (as many as its slots), by its name:
    # whether each is of its type, as far as a quick test sees (runtime/saved.py), likewise
    saved_frames: dict[str, Callable[[list[Any]], bool]] = field(default_factory=dict)
    # a saved state's variables, (values, players) -> whether each is there and right, likewise
    saved_variables: Callable[[dict[str, Any], int], bool] | None = None
    around: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    labels: tuple[str, ...] = field(init=False, repr=False)
    domain_labels: dict[str, tuple[str, ...]] = field(init=False, repr=False)  # by domain name
    bool_domain: int = field(init=False, repr=False)  # the index of the no/yes domain
    grids: bool = field(init=False, repr=False)  # some zone is a grid
    spans: tuple[tuple[int, int], ...] = field(init=False, repr=False)  # each domain's offset and size
    # what other modules derive from these facts once per game (runtime/saved.py's tests)
    memo: dict[str, Any] = field(init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.labels = tuple(label for d in self.domains for label in d.labels)
        self.domain_labels = {d.name: d.labels for d in self.domains}
        for name, labels, kinds in zip(self.type_names, self.type_labels, self.type_kinds, strict=False):
            if kinds:  # the values of a type with copies are its components; its actions, its kinds
                self.domain_labels[f"entity:{name}"] = labels
        self.bool_domain = next((i for i, d in enumerate(self.domains) if d.name == "bool"), -1)
        self.grids = any(z.kind == "grid" for z in self.zones)
        self.spans = tuple((d.offset, len(d.labels)) for d in self.domains)
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
    def max_chance_outcomes(self) -> int:
        """With explicit chance, no outcome id reaches this: the most faces of a die, components of
        a type (a draw), or values of a pick (runtime/chance.py); 0 for rules without chance."""
        if not self.chance:
            return 0
        return max([self.die_faces, 2, len(self.player_names), *(len(ids) for ids in self.type_ids)])

    @property
    def num_distinct_actions(self) -> int:
        last = self.domains[-1]
        return last.offset + len(last.labels)

    def action_label(self, action: int) -> str:
        return self.labels[action] if 0 <= action < len(self.labels) else f"<no action {action}>"

    def index_size(self, index: str, players: int) -> int:
        """How many values an index of a variable takes: one per player, or per component or
        value of an enum and one more (what `none` reads)."""
        if index == "player":
            return players
        size = len(self.domain_labels[index])
        return size + 1 if index.startswith(("entity:", "enum:")) else size

    # -- reading log lines and prompts (stored as a text's index and its values) ---------------
    def shown(self, kind: str, value: Any) -> str:
        """A value as the rules' texts show it: a component, player or cell by its label."""
        if kind == "int" or kind == "str":
            return str(value)
        if kind == "bool":
            return "yes" if value else "no"
        if kind == "cell":
            return "none" if value < 0 else self.domain_labels["cell"][value]
        if kind.startswith("list["):
            inner = kind[5:-1]
            if self.type_kinds and inner in self.copied_types():
                return counted([self.shown(inner, v) for v in value])
            return ", ".join(self.shown(inner, v) for v in value)
        labels = self.domain_labels[kind]
        index: int = value
        return "none" if index < 0 else labels[index]

    def copied_types(self) -> frozenset[str]:
        """The value kinds (`entity:T`) of the component types with copies."""
        types: frozenset[str] | None = self.memo.get("copied")
        if types is None:
            types = self.memo["copied"] = frozenset(
                f"entity:{n}" for n, kinds in zip(self.type_names, self.type_kinds, strict=False) if kinds
            )
        return types

    def kinds_of(self, t: int) -> tuple[int, ...]:
        """Each component's kind (row) of type `t`; () when its rows have no copies."""
        return self.type_kinds[t] if t < len(self.type_kinds) else ()

    def text(self, values: Sequence[Any]) -> str:
        """A stored text (a prompt, or a line of the rules): its index, then its holes' values."""
        t = self.texts[values[0]]
        shown = [self.shown(k, v) for k, v in zip(t.kinds, values[1:], strict=True)]
        text: str = t.form.format(*shown[1:] if t.private else shown)
        return text

    def line(self, line: Line) -> tuple[int, str]:
        """A log line as (the player who alone sees it, or -1 for everyone; its text)."""
        code = line[0]
        if code >= 0:
            return line[1] if self.texts[code].private else -1, self.text(line)
        if code == CHOSE or code == CHOSE_SECRETLY:
            _, player, action, prompt = line
            asked = self.text(prompt)
            text = f"{self.player_names[player]} chooses {self.labels[action]}" + (
                f" ({asked})" if asked else ""
            )
            return player if code == CHOSE_SECRETLY else -1, text
        if code == ROLLED:
            return -1, f"(rolled {line[1]} on d{line[2]})"
        if code == HAS_CHOSEN:
            asked = self.text(line[2])
            return -1, f"{self.player_names[line[1]]} has chosen" + (f" ({asked})" if asked else "")
        if code == REVEALED:
            asked = self.text(line[1])
            answers = ", ".join(
                f"{self.player_names[p]}: {self.labels[a]}" for p, a in zip(line[2], line[3], strict=True)
            )
            return -1, "Revealed" + (f" ({asked})" if asked else "") + f": {answers}"
        if len(line) == 3:  # GAME_OVER
            _, winner, reason = line
            result = "a draw" if winner < 0 else f"{self.player_names[winner]} wins"
            return -1, f"Game over: {result}" + (f" ({reason})" if reason else "")
        return -1, self.outcome_text(line[3], line[2], line[4] if len(line) > 4 else None)

    def result(self, winners: Sequence[int]) -> str:
        """An outcome in words: "A wins", "A and B share the win" or "a draw"."""
        names = [self.player_names[p] for p in winners]
        if len(names) > 1:
            return f"{', '.join(names[:-1])} and {names[-1]} share the win"
        return f"{names[0]} wins" if names else "a draw"

    def outcome_text(self, winners: Sequence[int], reason: str, returns: Sequence[int] | None) -> str:
        """The GAME_OVER line of a shared win, or of a game with results (with the returns). A game
        whose players all get the same return (results kind `identical`: a team) says so, rather than
        calling it a draw."""
        if returns is not None and self.utility == "identical" and len(set(returns)) == 1:
            return f"Game over: every player scores {returns[0]}" + (f" ({reason})" if reason else "")
        text = f"Game over: {self.result(winners)}" + (f" ({reason})" if reason else "")
        if returns is not None:
            text += "; returns: " + ", ".join(f"{self.player_names[p]} {v}" for p, v in enumerate(returns))
        return text


def counted(labels: Sequence[str]) -> str:
    """Labels with the repeated ones counted, in the order of their first appearance:
    `Copper x3, Estate x2, Gold` (how a list of components with identical copies is shown)."""
    counts: dict[str, int] = {}
    for label in labels:
        counts[label] = counts.get(label, 0) + 1
    return ", ".join(label if n == 1 else f"{label} x{n}" for label, n in counts.items())


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
    return clipped(repr(value))  # a class's own repr may return anything


def number_labels(up_to: int) -> tuple[str, ...]:
    """The labels of the number actions 0..up_to."""
    return tuple(str(i) for i in range(up_to + 1))


def named(namespace: dict[str, Any], names: tuple[str | None, ...]) -> tuple[Any, ...]:
    """The values of `names` in `namespace` (an engine's globals()), None for None: the functions of
    an engine's dispatch tables and its frame classes, read by name at import. (Written out as one
    tuple of a hundred names, natively that is one expression whose error paths, each releasing
    every value read before it, grow with the square of its length: megabytes of C and of memory.)"""
    return tuple(None if name is None else namespace[name] for name in names)


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
    """A variable per component or enum value without the trailing slot that `none` reads (an
    engine detail). `components` is the players' type index: the component types' are below it,
    the enums' above."""
    if not indices or not isinstance(value, list):
        return value
    items = value[:-1] if indices[0] != components else value
    rest = indices[1:]
    if not rest:  # the last index: its entries are the values, in a list of their own
        return items if items is not value else value[:]
    if len(rest) == 1:  # (two indices, the common case: without a call per entry)
        cut = rest[0] != components
        return [(v[:-1] if cut else v[:]) if isinstance(v, list) else v for v in items]
    return [_without_none_slots(v, rest, components) for v in items]


def _first_copies(kinds: Sequence[int]) -> dict[int, int]:
    """Each kind's first copy (the lowest component index of it), for a type with copies."""
    first: dict[int, int] = {}
    for e, k in enumerate(kinds):
        first.setdefault(k, e)
    return first


def _copies_in(named: list[int], items: Sequence[int], kinds: Sequence[int]) -> list[int]:
    """Components named by kind (any copy of it) -> copies of those kinds among `items`, each taken
    once, in their order there; a kind with no copy left keeps the component named (and the
    forced order fails, saying it does not hold the shuffled components)."""
    free: dict[int, list[int]] = {}
    for e in items:
        if 0 <= e < len(kinds):
            free.setdefault(kinds[e], []).append(e)
    out = []
    for e in named:
        left = free.get(kinds[e]) if 0 <= e < len(kinds) else None
        out.append(left.pop(0) if left else e)
    return out


def distinct_ascending(values: Sequence[int]) -> list[int]:
    """The distinct values of `values`, ascending: `sorted(set(values))`. Compiled by mypyc, a sort
    and one pass over it, which for the few dozen small integers of a decision's options costs half
    of building a set and sorting it; interpreted, the set (its loops run in C)."""
    if not COMPILED:
        return sorted(set(values))
    out = sorted(values)
    n = len(out)
    k = 1
    while k < n and out[k] != out[k - 1]:
        k += 1
    if k < n:  # out[k] repeats out[k - 1]: keep each value once, in place
        kept = k
        for i in range(k + 1, n):
            v = out[i]
            if v != out[kept - 1]:
                out[kept] = v
                kept += 1
        del out[kept:]
    return out


# Whether this module runs compiled (a native build): mypyc makes its functions builtins
COMPILED: Final = not isinstance(distinct_ascending, FunctionType)
# a slotted instance without its __init__ (`decide`, interpreted: every field set right after)
_allocate: Final = object.__new__


def listed(values: list[int], v: int) -> bool:
    """`v in values`, compiled: a loop over machine integers, where mypyc's `in` compares each item
    as a Python object (interpreted, `in` is quicker: the engine asks this only compiled)."""
    for x in values:
        if x == v:
            return True
    return False


# ---- frames and decisions ---------------------------------------------------------------------


@mypyc_attr(allow_interpreted_subclasses=True)
class Frame:
    """One activation of a procedure that may stop for a decision: its position and its locals."""

    __slots__ = ("pc",)
    NAME: ClassVar[str] = ""
    ORIGIN: ClassVar[str] = ""  # the spec entry and file:line, for error messages
    SLOTS: ClassVar[tuple[str, ...]] = ()
    PARAMS: ClassVar[int] = 0  # the constructor's arguments: the first PARAMS slots, in order
    SLOT_TYPES: ClassVar[tuple[str, ...]] = ()  # each slot's value type in a saved state (runtime/saved.py)
    BLOCKS: ClassVar[int] = 0  # how many blocks `step` has: a program counter is below this

    def __init__(self) -> None:
        self.pc = 0

    def step(self, s: Any) -> None:  # pragma: no cover - generated subclasses implement it
        raise NotImplementedError

    def copy(self) -> Frame:  # pragma: no cover - generated subclasses write it out
        """A frame with the same position and locals (lists shared: a frame replaces a list, never
        changes it). Every clone of a state copies its frames: written out by name it is about four
        times as fast as a loop over SLOTS with getattr and setattr."""
        raise NotImplementedError

    def to_data(self) -> list[object]:  # pragma: no cover - generated subclasses write it out
        """[NAME, pc, the values of SLOTS]: how a saved state holds the frame. Every `to_json`
        writes each frame: written out by name it takes half the time of operator.attrgetter over
        SLOTS, a quarter of a loop with getattr (a state's to_json 9% and 11% dearer)."""
        raise NotImplementedError

    # loading, which is rare: by the names in SLOTS
    @classmethod
    def from_data(cls, pc: int, values: list[Any]) -> Frame:
        """The frame to_data wrote (runtime/saved.py has checked `values` against SLOT_TYPES). Made by
        its constructor, as `copy` makes one: a natively compiled frame has no other way."""
        f = cls(*values[: cls.PARAMS])
        f.pc = pc
        for i in range(cls.PARAMS, len(cls.SLOTS)):
            setattr(f, cls.SLOTS[i], values[i])
        return f


class Decision:
    """A question the game is waiting on: who answers, from which action ids, into which local.

    `options` are ascending and distinct; `prompt` is a stored text (GameInfo.text reads it).

    A choice among components of a type with copies offers each kind (row) once: its options are
    kind actions, and `copies` holds, for each option, the components of that kind that were
    offered, in the order the rules listed them; an answer takes the first not yet taken. Such a
    decision always has `need`: the number to choose, or -1 for a single choice (its value one
    component, not a list).

    A plain class with its own `__init__`, not a dataclass: one is made at every decision, and
    compiled by mypyc a dataclass's `__init__` (which the dataclass module writes at run time)
    stays interpreted (6% of a native game's time). Equal when every field but `_legal` is."""

    __slots__ = (
        "player",
        "options",
        "slot",
        "prompt",
        "optional",
        "need",
        "picked",
        "domain",
        "secret",
        "copies",
        "window",
        "_legal",
    )
    player: int
    options: list[int]
    slot: str
    prompt: Sequence[Any]
    optional: bool
    need: int  # > 0: choose this many distinct options, one action each
    picked: list[int]
    domain: int
    secret: bool
    copies: tuple[tuple[int, ...], ...]
    window: str  # the response window this question belongs to ("": none)
    _legal: list[int] | None  # legal(), once asked

    def __init__(
        self,
        player: int,
        options: list[int],
        slot: str,
        prompt: Sequence[Any],
        optional: bool = False,
        need: int = 0,
        picked: list[int] | None = None,
        domain: int = 0,
        secret: bool = False,
        copies: tuple[tuple[int, ...], ...] = (),
        window: str = "",
        _legal: list[int] | None = None,
    ) -> None:
        self.player = player
        self.options = options
        self.slot = slot
        self.prompt = prompt
        self.optional = optional
        self.need = need
        self.picked = [] if picked is None else picked
        self.domain = domain
        self.secret = secret
        self.copies = copies
        self.window = window
        self._legal = _legal

    def fields(self) -> tuple[tuple[str, object], ...]:
        """(name, value) of every field but `_legal`, in order: what == compares and repr shows."""
        return (
            ("player", self.player),
            ("options", self.options),
            ("slot", self.slot),
            ("prompt", self.prompt),
            ("optional", self.optional),
            ("need", self.need),
            ("picked", self.picked),
            ("domain", self.domain),
            ("secret", self.secret),
            ("copies", self.copies),
            ("window", self.window),
        )

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.fields() == other.fields()

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in self.fields())
        return f"{type(self).__name__}({shown})"

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
            self.copies,
            self.window,
        )
        d._legal = self._legal
        return d

    def taken(self) -> int | list[int]:
        """The components the picked kinds stand for: for each pick, the next copy of its kind."""
        out: list[int] = []
        seen: dict[int, int] = {}
        for a in self.picked:
            n = seen.get(a, 0)
            seen[a] = n + 1
            out.append(self.copies[self.options.index(a)][n])
        return out[0] if self.need < 0 else out

    def legal(self) -> list[int]:
        """Ascending action ids (cached: the options of a decision never change while it waits).
        Pass, when the choice is optional, is action 0, below every option."""
        legal = self._legal
        if legal is None:
            picked = self.picked
            if picked and self.copies:  # a kind stays while copies of it remain untaken
                copies = self.copies
                legal = [a for i, a in enumerate(self.options) if picked.count(a) < len(copies[i])]
            else:
                legal = [a for a in self.options if a not in picked] if picked else self.options
            if self.optional:
                legal = [PASS, *legal]
            self._legal = legal
        return legal


EACH: Final = -2  # Decision.need of a simultaneous decision (Simultaneous)


class Simultaneous(Decision):
    """A simultaneous decision (`simultaneously ... by each p in xs`): every player of `players`
    answers from their own options (`choices`, action ids fixed when the decision began) under
    their own prompt (`prompts`); `answers` holds each one's action, -1 until they answer (an
    optional choice with no option is answered with pass at once).

    The sequential API asks the players in the order of xs: `player`, `options` and `prompt` are
    those of the first who has not answered. Each answer is logged to its player alone; when the
    last has answered, one public line reveals them all. Never changed in place (clones share it)."""

    __slots__ = ("players", "choices", "prompts", "answers")
    players: list[int]
    choices: list[list[int]]
    prompts: list[Sequence[Any]]
    answers: list[int]

    def __init__(
        self,
        player: int,
        options: list[int],
        slot: str,
        prompt: Sequence[Any],
        optional: bool,
        need: int,
        picked: list[int] | None,
        domain: int,
        secret: bool,
        copies: tuple[tuple[int, ...], ...],
        window: str,
        _legal: list[int] | None,
        players: list[int],
        choices: list[list[int]],
        prompts: list[Sequence[Any]],
        answers: list[int],
    ) -> None:
        super().__init__(
            player, options, slot, prompt, optional, need, picked, domain, secret, copies, window, _legal
        )
        self.players = players
        self.choices = choices
        self.prompts = prompts
        self.answers = answers

    def fields(self) -> tuple[tuple[str, object], ...]:
        return (
            *super().fields(),
            ("players", self.players),
            ("choices", self.choices),
            ("prompts", self.prompts),
            ("answers", self.answers),
        )

    @classmethod
    def waiting_on(
        cls,
        players: list[int],
        choices: list[list[int]],
        prompts: list[Sequence[Any]],
        answers: list[int],
        slot: str,
        optional: bool,
        domain: int,
    ) -> Simultaneous:
        """The decision asking the first player of `players` whose answer is still -1."""
        i = answers.index(-1)
        return cls(
            players[i], choices[i], slot, prompts[i], optional, EACH, [], domain, True, (), "", None,
            players, choices, prompts, answers,
        )  # fmt: skip

    def waiting(self) -> list[int]:
        """The players who have not answered yet, in the order of xs."""
        return [p for p, a in zip(self.players, self.answers, strict=True) if a < 0]

    def guessed(self, player: int, pick: Callable[[list[int]], int]) -> Simultaneous:
        """The decision with the answers other players gave replaced by `pick` of their options:
        what `player` may think they were (for the observation check, and agents that must not peek)."""
        answers = [
            a if q == player or a < 0 or not options else pick(options)
            for q, options, a in zip(self.players, self.choices, self.answers, strict=True)
        ]
        return Simultaneous.waiting_on(
            self.players, self.choices, self.prompts, answers, self.slot, self.optional, self.domain
        )

    def data(self) -> dict[str, object]:
        """What a saved state keeps besides the fields of every decision (runtime/saved.py)."""
        return {
            "players": self.players,
            "options": self.choices,
            "prompts": self.prompts,
            "answers": self.answers,
        }


# ---- zones ------------------------------------------------------------------------------------


class Zones:
    """Where every component is: pile contents (bottom..top), grid cells, and a where-index."""

    __slots__ = ("piles", "cells", "where", "pos")

    def __init__(
        self,
        piles: list[list[int]],
        cells: list[dict[int, int]],
        where: list[list[int]],
        pos: list[list[int]],
    ) -> None:
        self.piles = piles
        self.cells = cells
        self.where = where
        self.pos = pos

    @classmethod
    def empty(cls, zones: Sequence[ZoneInfo], type_sizes: Sequence[int]) -> Zones:
        """Every zone empty, every component nowhere."""
        return cls(
            [[] for _ in zones],
            [{} for _ in zones],
            [[-1] * n for n in type_sizes],
            [[-1] * n for n in type_sizes],
        )

    def copy(self, grids: bool) -> Zones:
        """A copy; without `grids` (a game with no grid zone) cells and positions never change,
        and are shared."""
        piles, where = list(map(list.copy, self.piles)), list(map(list.copy, self.where))
        if grids:
            return Zones(piles, list(map(dict.copy, self.cells)), where, list(map(list.copy, self.pos)))
        return Zones(piles, self.cells, where, self.pos)

    def cell_data(self) -> list[tuple[int, int, int]]:
        """The occupied cells of every grid as (zone, cell, component), by zone and cell."""
        return [(zi, c, e) for zi, cells in enumerate(self.cells) if cells for c, e in sorted(cells.items())]

    @classmethod
    def from_data(
        cls,
        piles: list[list[int]],
        cells: list[list[int]],
        zones: Sequence[ZoneInfo],
        type_sizes: Sequence[int],
    ) -> Zones:
        """The zones a saved state wrote; the where- and position-indexes are rebuilt from them."""
        z = cls.empty(zones, type_sizes)
        z.piles = [list(p) for p in piles]
        for zi, pile in enumerate(z.piles):
            where = z.where[zones[zi].type_index]
            for e in pile:
                where[e] = zi
        for zi, c, e in cells:
            z.cells[zi][c] = e
            z.pos[zones[zi].type_index][e] = c
        return z


# ---- the log ----------------------------------------------------------------------------------

SAVED_FORMAT: Final = 2  # the layout of to_json's object; runtime/saved.py refuses any other

# what a saved state is written with: compact, and without the check for cycles (a state holds
# none: lists of numbers, texts and tuples, built by the engine)
JSON = json.JSONEncoder(separators=(",", ":"), check_circular=False)


def _fast_dumps() -> Callable[[object], bytes] | None:
    """orjson's encoder, which writes a saved state's integers about ten times as fast as the
    standard library's, set to refuse what the standard library would refuse too; None without it."""
    try:
        import orjson
    except ImportError:  # pragma: no cover - a dependency; without it the same text, more slowly
        return None
    options = (
        orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS
    )

    def dumps(value: object) -> bytes:
        return orjson.dumps(value, option=options)

    return dumps


_DUMPS = _fast_dumps()


def json_text(value: object) -> str:
    """`value` as compact JSON, exactly the text `JSON.encode` writes. orjson writes it when it can:
    its text is the standard library's whenever it is plain ASCII without DEL (the standard library
    escapes every other character); for anything else (such a character, an integer beyond 64
    bits, a type orjson would write and the standard library refuse) the standard library does."""
    if _DUMPS is not None:
        try:
            data = _DUMPS(value)
        except TypeError:  # orjson.JSONEncodeError
            pass
        else:
            if data.isascii() and b"\x7f" not in data:
                return data.decode("ascii")
    return JSON.encode(value)


class _Chunk:
    """LOG_CHUNK lines that no state will change again, their JSON once it has been written and
    their texts once they have been read."""

    __slots__ = ("lines", "json", "entries")

    def __init__(self, lines: tuple[Line, ...]) -> None:
        self.lines = lines
        self.json: str | None = None  # the lines as JSON items (the list without its brackets)
        self.entries: list[tuple[int, str]] | None = None  # GameInfo.line of each, once read

    def written(self) -> str:
        if self.json is None:
            self.json = json_text(self.lines)[1:-1]
        return self.json


LOG_CHUNK: Final = 16


class Log:
    """The lines of a game's log: append-only, so a state shares it with its clones.

    Lines are kept in frozen chunks of LOG_CHUNK lines and an open tail: a clone shares the chunks
    and copies only the tail, so cloning costs the same at the start of a game and at its end.
    A chunk keeps its JSON once written, for every state that shares it, and the tail the JSON of
    the lines written so far: saving a state writes only the lines added since it (or a state it
    shares them with) was last saved."""

    __slots__ = ("chunks", "tail", "tail_json")

    def __init__(
        self,
        chunks: tuple[_Chunk, ...] = (),
        tail: list[Line] | None = None,
        tail_json: tuple[int, str] = (0, ""),
    ) -> None:
        self.chunks = chunks
        self.tail: list[Line] = [] if tail is None else tail
        self.tail_json = tail_json  # how many lines of the tail have been written, and their JSON

    @classmethod
    def of(cls, lines: Sequence[Line]) -> Log:
        n = len(lines) - len(lines) % LOG_CHUNK
        chunks = tuple([_Chunk(tuple(lines[i : i + LOG_CHUNK])) for i in range(0, n, LOG_CHUNK)])
        return cls(chunks, list(lines[n:]))

    def add(self, line: Line) -> None:
        tail = self.tail
        tail.append(line)
        if len(tail) == LOG_CHUNK:
            self.seal()

    def seal(self) -> None:
        """The tail, full, becomes a chunk."""
        self.chunks = (*self.chunks, _Chunk(tuple(self.tail)))
        self.tail = []
        self.tail_json = (0, "")

    def copy(self) -> Log:
        return Log(self.chunks, self.tail[:], self.tail_json)

    def __len__(self) -> int:
        return len(self.chunks) * LOG_CHUNK + len(self.tail)

    def last(self) -> Line | None:
        """The last line (None for an empty log)."""
        if self.tail:
            return self.tail[-1]
        return self.chunks[-1].lines[-1] if self.chunks else None

    def lines(self, first: int = 0) -> list[Line]:
        """The lines from the `first` on."""
        skip = max(0, first) // LOG_CHUNK
        out = [line for chunk in self.chunks[skip:] for line in chunk.lines]
        out += self.tail
        return out[max(0, first) - skip * LOG_CHUNK :]

    def json(self) -> str:
        items = [chunk.written() for chunk in self.chunks]
        tail = self.tail
        if tail:
            n, text = self.tail_json
            if n < len(tail):
                more = json_text(tail[n:])[1:-1]
                text = f"{text},{more}" if n else more
                self.tail_json = (len(tail), text)
            items.append(text)
        return "[" + ",".join(items) + "]"


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


def _too_deep(exc: RecursionError) -> str:
    """What a RecursionError in the rules means: a rule that calls itself, or, when the rules had
    few frames of their own (fewer than RULES_ROOM), a caller that was itself recursing deep."""
    frames = 0
    tb = exc.__traceback__
    while tb is not None:
        frames += 1
        tb = tb.tb_next
    if frames >= RULES_ROOM:
        return (
            f"the rules nest calls deeper than Python allows: '{_recurring(exc)}' calls itself without end?"
        )
    limit = sys.getrecursionlimit()
    return (
        f"the rules ran out of Python's stack after {frames} nested calls of their own: their caller "
        f"was already about {limit - frames} calls deep (the recursion limit is {limit}); a program "
        f"that recurses deeply (a search) must leave them room: sys.setrecursionlimit({limit + RULES_ROOM})"
    )


# ---- the state --------------------------------------------------------------------------------


@mypyc_attr(allow_interpreted_subclasses=True)
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
        "mods",
        "active_mods",
        "mod_kinds",
        "z",
        "num_players",
        "options",
        "seed",
        "setup_hook",
        "start_at",
        "skips",
        "steps_left",
        "budget",
        "depth",
        "caches",
        "ret_",
        "chance",
    )
    INFO: ClassVar[GameInfo]
    stack: list[Frame]
    pending: Decision | None
    rng: Rng
    over: bool
    winner: int
    reason: str
    lines: Log
    mods: list[tuple[int, tuple[int, ...], int]]  # (modifier, arguments, the phase that ends it or -1)
    active_mods: frozenset[tuple[int, ...]]  # (modifier, *arguments) of each in `mods`: what `active` tests
    mod_kinds: int  # bit m set while any `mods` is of modifier m: what `active` tests first
    z: Zones
    num_players: int
    options: dict[str, int | bool | str]
    seed: int
    setup_hook: Callable[[Any], None] | None
    start_at: str  # the phase or step where a scenario's setup runs ("": right after the game's setup)
    skips: list[str]  # phases whose next pass a scenario skips (empty in play)
    steps_left: int  # of the step budget, until the next decision (set as the rules start to run)
    budget: int  # the step budget: the spec's, or the environment's override when the game began
    # one dict per cached function (GameInfo.cached): its arguments -> its value. Not saved, not
    # cloned: a value is kept only until state it was computed from changes (`forget`)
    caches: list[dict[Any, Any]]
    # the value a procedure frame with `returns:` gives as it pops, read by its caller's frame in
    # the very next step (so never live at a decision: not saved, not cloned, unset until then)
    ret_: Any
    # explicit chance (runtime/chance.py): the unsettled piles and the move in flight; None when
    # the game draws its chance from `rng` (sampled, the default)
    chance: Chance | None

    # -- the engine API (OpenSpiel naming) ------------------------------------------------------
    def current_player(self) -> int:
        """The player to act, CHANCE at a chance node, or TERMINAL once the game is over."""
        d = self.pending
        if self.over or d is None:
            return CHANCE if self.is_chance_node() else TERMINAL
        return d.player

    def legal_actions(self) -> list[int]:
        """Stable integer ids, ascending (at a chance node, its outcomes); empty when the game is over."""
        d = self.pending
        if d is None or self.over:
            c = self.chance
            return list(c.node.outcomes) if c is not None and c.node is not None else []
        legal = d._legal  # (legal() inline: the decision keeps its answer)
        return (legal if legal is not None else d.legal())[:]

    def action_to_string(self, action: object) -> str:
        """The label of an action id; IllegalActionError for anything that is not one."""
        a = integer_id(action)
        c = self.chance
        if c is not None and c.node is not None and a in c.node.outcomes:
            return self.chance_label(c.node, a)
        n = self.INFO.num_distinct_actions
        if a is None or not 0 <= a < n:
            raise IllegalActionError(
                f"no action {shown_value(action)}: action ids are integers from 0 to {n - 1}"
            )
        return self.INFO.labels[a]

    def string_to_action(self, text: object) -> int:
        """The legal action whose label is `text` (what scenarios and logs use)."""
        if not isinstance(text, str):
            raise IllegalActionError(
                f"an action label is a string, not {shown_value(text)} ({type(text).__name__})"
            )
        for a in self.legal_actions():
            if self.action_to_string(a) == text:
                return a
        raise IllegalActionError(
            f"no legal action '{escaped(text)}' ({self._whose()}); legal: {self._legal_text()}"
        )

    def apply_action(self, action: object) -> None:
        """Answer the pending decision; raises IllegalActionError (state unchanged) if not legal.

        An action is an int (or a numpy integer, stored as an int); a bool, float, str or
        anything else is refused before the state is touched."""
        a = action if type(action) is int else integer_id(action)
        if a is None:
            raise IllegalActionError(
                f"action {shown_value(action)} is a {type(action).__name__}, not an action id (an integer)"
            )
        c = self.chance
        if c is not None and not c.replaying:
            self._apply_explicit(a)
            return
        d = self.pending
        if COMPILED:  # (a loop over machine integers)
            if self.over or d is None or not listed(d.legal(), a):
                self._refuse(a)
        elif self.over or d is None or a not in (d._legal or d.legal()):  # (legal() inline)
            self._refuse(a)
        tail = self.lines.tail  # Log.add, inline
        tail.append((CHOSE_SECRETLY if d.secret else CHOSE, d.player, a, d.prompt))
        if len(tail) == LOG_CHUNK:
            self.lines.seal()
        info = self.INFO
        offset = info.spans[d.domain][0]
        value: int | bool | list[int]
        if d.need:
            if d.need == EACH:
                assert isinstance(d, Simultaneous)
                self._answer_each(d, a)
                return
            if a == PASS and d.optional:  # (a single choice among kinds with copies, passed)
                value = -1
            else:
                d = self.pending = d.copy()  # a clone may share the decision: it is replaced, not changed
                d.picked.append(a)
                d._legal = None
                if len(d.picked) < d.need:
                    return
                value = d.taken() if d.copies else [p - offset for p in d.picked]
        elif a == PASS and d.optional:
            value = -1
        elif d.domain == info.bool_domain:
            value = a != offset
        else:
            value = a - offset
        setattr(self.stack[-1], d.slot, value)
        self.pending = None
        self._run()

    def simultaneous(self) -> Simultaneous | None:
        """The simultaneous decision the game waits on, or None (also at every other decision)."""
        d = self.pending
        return d if type(d) is Simultaneous and not self.over else None

    def legal_actions_of(self, player: int) -> list[int]:
        """What `player` may do now, for adapters where everyone acts at once: at a simultaneous
        decision, the options of a player still to answer, and only pass (0) for every other
        player; elsewhere the legal actions of the player to act, and none for the others."""
        d = self.simultaneous()
        if d is None:
            return self.legal_actions() if player == self.current_player() else []
        for p, options, answer in zip(d.players, d.choices, d.answers, strict=True):
            if p == player and answer < 0:
                return [PASS, *options] if d.optional else options[:]
        return [PASS]

    def apply_joint(self, actions: Sequence[object]) -> None:
        """Answer a simultaneous decision all at once: one action per player (pass, 0, for a player
        not asked), applied in the order of the decision's players. Every action is checked
        before any is applied, so a refused joint action leaves the state unchanged."""
        d = self.simultaneous()
        if d is None:
            raise IllegalActionError("a joint action answers a simultaneous decision; the game waits on none")
        n = self.num_players
        if len(actions) != n:
            raise IllegalActionError(f"a joint action has one action per player ({n}), not {len(actions)}")
        chosen: list[int] = []
        for p, action in enumerate(actions):
            a = integer_id(action)
            legal = self.legal_actions_of(p)
            if a is None or a not in legal:
                raise IllegalActionError(
                    f"illegal action {shown_value(action)} for {self.INFO.player_names[p]} at "
                    f"'{self.INFO.text(d.prompts[0])}'; legal: {legal}"
                )
            chosen.append(a)
        for p in d.waiting():
            self.apply_action(chosen[p])

    def _answer_each(self, d: Simultaneous, a: int) -> None:
        """One answer to a simultaneous decision (its player's private line is logged already):
        the next player is asked, or, after the last, all answers are revealed and the frame goes on."""
        self.lines.add((HAS_CHOSEN, d.player, d.prompt))
        answers = d.answers[:]
        answers[d.players.index(d.player)] = a
        if -1 in answers:
            self.pending = Simultaneous.waiting_on(
                d.players, d.choices, d.prompts, answers, d.slot, d.optional, d.domain
            )
            return
        self.lines.add((REVEALED, d.prompts[0], d.players, answers))
        info = self.INFO
        offset = info.spans[d.domain][0]
        values: list[int] | list[bool]
        if d.domain == info.bool_domain:
            values = [x != offset for x in answers]
        else:
            values = [-1 if x == PASS and d.optional else x - offset for x in answers]
        setattr(self.stack[-1], d.slot, values)
        self.pending = None
        self._run()

    def _refuse(self, action: int) -> NoReturn:
        """The error for an action that is not legal now; nothing has changed."""
        if self.over:
            label = escaped(self.INFO.action_label(action))
            raise IllegalActionError(f"action {action} ({label}): the game is over")
        if self.pending is None:
            raise IllegalActionError(f"action {action}: the game is not waiting on a decision")
        raise IllegalActionError(
            f"illegal action {action} ({escaped(self.INFO.action_label(action))}) for {self._whose()}; "
            f"legal: {self._legal_text()}"
        )

    def is_terminal(self) -> bool:
        """Whether the game has ended: then it takes no action, and `returns()` are final."""
        return self.over

    def is_chance_node(self) -> bool:
        """Whether chance moves next (only with explicit chance): pick from `chance_outcomes()`."""
        c = self.chance
        return c is not None and c.node is not None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node, each outcome id and its probability (ascending ids); else []."""
        c = self.chance
        return c.node.probabilities() if c is not None and c.node is not None else []

    def chance_label(self, node: ChanceNode, outcome: int) -> str:
        """What a chance outcome is: "Roll 3", "Draw <component>", "Pick <value>"."""
        if node.kind == "roll":
            return f"Roll {outcome + 1}"
        if node.kind == "draw":
            assert isinstance(node.what, int)
            return f"Draw {self.INFO.type_labels[node.what][outcome]}"
        value = picked(node, outcome)
        return f"Pick {self.INFO.type_labels[node.type][value] if node.type >= 0 else value}"

    # -- explicit chance (runtime/chance.py) ----------------------------------------------------
    def _apply_explicit(self, a: int) -> None:
        """apply_action of a game with explicit chance: a chance outcome at a chance node, else a
        player's action; either way the move is played (again, with the outcomes given so far),
        and this state waits on the next chance node if it needs another (see `_play`)."""
        c = self.chance
        assert c is not None
        node = c.node
        if node is not None:
            if a not in node.outcomes:
                shown = ", ".join(map(str, node.outcomes[:12])) + (", ..." if len(node.outcomes) > 12 else "")
                raise IllegalActionError(f"chance outcome {a} is not one of this chance node's: {shown}")
            decision = c.decision
            assert c.action is not None and (decision is None or isinstance(decision, Decision))
            self._play(c.action, decision, [*c.given, a])
            return
        d = self.pending
        if self.over or d is None or a not in d.legal():
            self._refuse(a)
        self._play(a, d, [])

    def _play(self, action: int, decision: Decision | None, given: list[int]) -> None:
        """Play the move `action` (BEGIN: the setup) that answers `decision`, with the chance
        outcomes `given`: this state becomes the state after it, or waits on the chance node of
        the next outcome it needs. A rule error leaves this state as it was."""
        c = self.chance
        assert c is not None
        twin = c.twin
        c.twin = None
        # what this state goes back to unless the move completes: an untouched twin (copied only
        # if it is needed), or a copy made now
        before: GameState
        if isinstance(twin, GameState) and twin.chance is not None and twin.chance.moves == c.twin_moves:
            before, spare = twin, True
        else:
            before, spare = self.clone(), False
        c.moves += 1
        c.action, c.decision, c.given, c.node, c.used, c.replaying = None, None, given, None, 0, True
        try:
            if action == BEGIN:
                self._begin()
            else:
                assert decision is not None
                self.pending = decision
                self.apply_action(action)  # (checked again: a saved move in flight is replayed too)
        except NeedChance as need:
            self._become(before.clone() if spare else before)
            c = self.chance
            assert c is not None
            c.moves += 1
            c.action, c.decision, c.given, c.node = action, decision, given, need.node
            self.pending = None
            return
        except BaseException:
            self._become(before.clone() if spare else before)
            raise
        c.given, c.used, c.replaying = [], 0, False

    def _become(self, other: GameState) -> None:
        """Take over every field of `other` (a copy of this state from before a move)."""
        self.stack, self.pending, self.rng, self.chance = other.stack, other.pending, other.rng, other.chance
        self.over, self.winner, self.reason = other.over, other.winner, other.reason
        self.lines, self.mods, self.active_mods, self.z = other.lines, other.mods, other.active_mods, other.z
        self.mod_kinds = other.mod_kinds
        self.skips, self.depth, self.caches = other.skips, 0, other.caches
        other._copy_vars(self)

    def _chance(self, node: ChanceNode) -> int:
        c = self.chance
        assert c is not None
        try:
            return c.outcome(node)
        except ValueError as exc:
            raise RuleError(str(exc)) from None

    def _pick_node(self, values: Sequence[int], t: int) -> ChanceNode:
        bound = self.INFO.max_chance_outcomes
        node = pick_node(values, bound, t)
        if node.outcomes[-1] >= bound:
            raise RuleError(
                f"random() of {len(node.outcomes)} different values: explicit chance offers at most "
                f"{bound} outcomes at a chance node"
            )
        return node

    def _settle(self, zone: int, n: int) -> None:
        """Decide the components that lie in the top `n` places of a pile with an unsettled part,
        one chance outcome each, from the top down."""
        c = self.chance
        assert c is not None
        pile = self.z.piles[zone]
        u = c.unsettled.get(zone, 0)
        info = self.INFO
        t = info.zones[zone].type_index
        kinds = info.kinds_of(t)
        first = _first_copies(kinds)
        while u > 1 and len(pile) - u < n:  # (one component left unsettled is settled)
            region = pile[:u]
            node = draw_node(t, region, kinds, first)
            o = self._chance(node)
            e = o if not kinds else next(x for x in region if first[kinds[x]] == o)
            region.remove(e)
            pile[:u] = [*region, e]
            u -= 1
        if u > 1:
            c.unsettled[zone] = u
        else:
            c.unsettled.pop(zone, None)

    def returns(self) -> list[float]:
        """Each player's return once the game is over; zeros for an unfinished game. With the
        spec's `results`, its returns (as floats); else +1 to the winner and -1/(n-1) to each other
        player, +1 to each of k players sharing the win and -k/(n-k) to each other, zeros for a draw."""
        n = self.num_players
        if not self.over:
            return [0.0] * n
        if self.winner >= 0 and self.INFO.returns is None:
            lose = -1.0 / (n - 1) if n > 1 else 0.0
            return [1.0 if p == self.winner else lose for p in range(n)]
        line = self.lines.last()  # the GAME_OVER line (runtime/saved.py checks that it is)
        if line is None or len(line) < 4:
            return [0.0] * n
        if len(line) > 4:
            return [float(v) for v in line[4]]
        winners = line[3]
        k = len(winners)
        if k >= n:
            return [0.0] * n
        lose = -k / (n - k)
        return [1.0 if p in winners else lose for p in range(n)]

    def winners(self) -> list[int]:
        """The players who won: one, several who share the win, or none (a draw, or not over)."""
        if not self.over:
            return []
        if self.winner >= 0:
            return [self.winner]
        line = self.lines.last()
        return [] if line is None or len(line) < 4 else list(line[3])

    def ranking(self) -> list[int]:
        """Each player's place once the game is over, from the returns: 1 for the best, and players
        who tie share a place (the next is skipped: 1, 1, 3). All 1 while the game is not over."""
        r = self.returns()
        return [1 + sum(1 for v in r if v > mine) for mine in r]

    def log_entries(self, first: int = 0) -> list[tuple[int, str]]:
        """The log from line `first` on, as (the player who alone saw a line or -1, its text).
        Each frozen chunk of the log is put in words once, for every state that shares it."""
        line = self.INFO.line
        log = self.lines
        first = max(0, first)
        skip = first // LOG_CHUNK
        out: list[tuple[int, str]] = []
        for chunk in log.chunks[skip:]:
            entries = chunk.entries
            if entries is None:
                entries = chunk.entries = [line(x) for x in chunk.lines]
            out += entries
        if log.tail:
            # the open tail's lines, each put in words once for every state that shares it (by
            # identity: a line is never changed, and the kept line keeps its id from being reused)
            said: dict[int, tuple[Line, tuple[int, str]]] = self.INFO.memo.setdefault("said", {})
            if len(said) > 4096:
                said.clear()
            for x in log.tail:
                known = said.get(id(x))
                if known is None or known[0] is not x:
                    known = said[id(x)] = (x, line(x))
                out.append(known[1])
        return out[first - skip * LOG_CHUNK :]

    def log(self, first: int = 0) -> list[str]:
        """The game log from line `first` on (private lines marked with the player who saw them)."""
        names = self.INFO.player_names
        return [text if who < 0 else f"[{names[who]} only] {text}" for who, text in self.log_entries(first)]

    def player_log(self, player: object, first: int = 0) -> list[str]:
        """The log lines `player` saw: the public ones and their own private ones (among the log's
        lines from line `first` on, as for `log`: a replay reads each step's new lines alone)."""
        p = self.player_id(player)
        return [text for who, text in self.log_entries(first) if who < 0 or who == p]

    @property
    def history(self) -> list[int]:
        """The actions taken so far, in order (each is a line of the log)."""
        return [line[2] for line in self.lines.lines() if line[0] == CHOSE or line[0] == CHOSE_SECRETLY]

    def prompt(self) -> str:
        """The prompt of the decision the game waits on ('' when it waits on none)."""
        d = self.pending
        return "" if d is None or self.over else self.INFO.text(d.prompt)

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
        """An independent copy. What is never changed in place is shared: the log's frozen chunks,
        the lasting effects, the pending decision, the options."""
        n = type(self)()
        n.stack = [f.copy() for f in self.stack]
        n.pending = self.pending  # shared: a pick replaces it (apply_action), nothing changes it
        if self.chance is None:
            n.rng, n.chance = self.rng.copy(), None
        else:  # explicit chance never draws from the generator: it is shared (and never changed)
            n.rng, n.chance = self.rng, self.chance.copy()
        n.over, n.winner, n.reason = self.over, self.winner, self.reason
        n.lines = self.lines.copy()
        n.mods, n.active_mods, n.mod_kinds = self.mods, self.active_mods, self.mod_kinds
        n.z = self.z.copy(self.INFO.grids)
        n.num_players, n.options, n.seed = self.num_players, self.options, self.seed
        n.setup_hook = None
        n.start_at = ""
        n.skips = self.skips[:]
        n.budget = self.budget
        n.depth = 0
        n.caches = [{} for _ in self.caches]
        self._copy_vars(n)
        return n

    def to_json(self) -> str:
        """The state as compact JSON (runtime/saved.py reads it back, checking every field)."""
        info = self.INFO
        d = self.pending
        c = self.chance
        if c is not None and c.action is not None:  # at a chance node: the move in flight answers
            d = c.decision if isinstance(c.decision, Decision) else None
        data: dict[str, object] = {
            "format": SAVED_FORMAT,
            "game": info.name,
            "version": info.version,
            "digest": info.digest,
            "seed": self.seed,
            "options": self.options,  # in the order of the game's declaration (Game, _restore)
            "num_players": self.num_players,
            "rng": self.rng.to_data(),
            "over": self.over,
            "winner": self.winner,
            "reason": self.reason,
            "stack": [f.to_data() for f in self.stack],
            "pending": None
            if d is None
            else [d.player, d.options, d.slot, d.prompt, d.optional, d.need, d.picked, d.domain, d.secret]
            + ([d.copies] if d.copies else [])
            + ([d.data()] if isinstance(d, Simultaneous) else []),
            "mods": self.mods,
            "piles": self.z.piles,
            "cells": self.z.cell_data(),
            "vars": self._dump_vars(),
        }
        if self.skips:
            data["skip"] = self.skips
        if c is not None:
            data["chance"] = c.to_data()
        if d is not None and d.window:
            data["window"] = d.window  # the response window the pending question belongs to
        # the log last, spliced in: its frozen chunks are written once, for every state sharing them
        return json_text(data)[:-1] + ',"log":' + self.lines.json() + "}"

    @classmethod
    def _restore(cls, d: dict[str, Any], rng: Rng | None = None) -> Self:
        """The state whose saved fields `d` runtime/saved.py has checked against this engine: only
        `load_state` (Game.state_from_json) calls it, never with unchecked data; `rng`, the
        generator of `d["rng"]`, if it has read it already."""
        info = cls.INFO
        s = cls()
        s.seed, s.num_players = d["seed"], d["num_players"]
        s.options = {o.name: d["options"][o.name] for o in info.options}
        s.setup_hook = None
        s.start_at = ""
        s.skips = d.get("skip", [])
        s.budget = step_budget(info)
        s.depth = 0
        s.rng = Rng.from_data(d["rng"]) if rng is None else rng
        s.over, s.winner, s.reason = d["over"], d["winner"], d["reason"]
        s.stack = []
        for name, pc, values in d["stack"]:
            frame_cls = info.frames[name]
            s.stack.append(frame_cls.from_data(pc, values))
        p = d["pending"]
        if p is None:
            s.pending = None
        elif p[5] == EACH:  # a simultaneous decision: its tenth item holds the answers so far
            e = p[9]
            s.pending = Simultaneous.waiting_on(
                e["players"], e["options"], e["prompts"], e["answers"], p[2], p[4], p[7]
            )
        else:  # (a choice among kinds with copies has a tenth item: the copies of each option)
            player, options, slot, prompt, optional, need, picked, domain, secret, *copies = p
            s.pending = Decision(
                player,
                options,
                slot,
                prompt,
                optional,
                need,
                picked,
                domain,
                secret,
                tuple(tuple(c) for c in copies[0]) if copies else (),
                d.get("window", ""),
            )
        s.lines = Log.of(d["log"])  # lists, where the engine makes tuples: neither ever changes
        s._set_mods([(m, tuple(a), u) for m, a, u in d["mods"]])
        s.z = Zones.from_data(d["piles"], d["cells"], info.zones, [len(t) for t in info.type_ids])
        s.caches = [{} for _ in info.cached]
        s._load_vars(d["vars"])
        s.chance = None
        if "chance" in d:
            s._restore_chance(d["chance"])
        return s

    def _restore_chance(self, data: dict[str, Any]) -> None:
        """Explicit chance, back: the unsettled piles, and the move in flight replayed with its
        outcomes to find the chance node it waits on (ValueError if they do not fit it)."""
        c = self.chance = Chance()
        c.unsettled = {z: n for z, n in data["unsettled"]}
        move = data.get("move")
        if move is None:
            return
        action, given = move
        decision = self.pending
        if action != BEGIN and decision is None:
            raise ValueError("'chance.move': a move in flight answers a decision, and 'pending' is null")
        self.pending = None
        try:
            self._play(action, decision, list(given))
        except (IllegalActionError, RuleError) as exc:
            raise ValueError(f"'chance.move' does not replay: {exc}") from None
        if not self.is_chance_node():
            raise ValueError("'chance.move': its outcomes complete the move, so it is not in flight")

    def observation(self, player: object, view: str = PLAYER_VIEW) -> dict[str, object]:
        """What `player` may see: public variables and zones, own hidden things, counts of the rest.

        `view` PUBLIC_VIEW: what every player sees (a spectator's view: no one's hidden things,
        no decision's options); FULL_VIEW: everything (every zone's contents, every private
        variable, every pending decision and the answers given to a simultaneous one)."""
        player = self.player_id(player)
        if view not in VIEWS:
            raise ValueError(f"no view {shown_value(view)}: the views are {', '.join(VIEWS)}")
        info = self.INFO
        zones: dict[str, object] = {}
        memo = info.memo
        keys = memo.get("zone keys")
        if keys is None:
            keys = memo["zone keys"] = [z.key(info.player_names) for z in info.zones]
            memo["zone labels"] = [info.type_labels[z.type_index] for z in info.zones]
        shown = memo.get(f"shown {view} {player}")  # which zones' contents this view shows
        if shown is None:
            shown = memo[f"shown {view} {player}"] = [
                z.seen_by(player) if view == PLAYER_VIEW else view == FULL_VIEW or z.visibility == "public"
                for z in info.zones
            ]
        for zi, (zinfo, pile, key, labels, seen) in enumerate(
            zip(info.zones, self.z.piles, keys, memo["zone labels"], shown, strict=True)
        ):
            if not seen:
                zones[key] = {"count": len(pile)}
            elif zinfo.kind == "grid" and info.type_kinds and info.kinds_of(zinfo.type_index):
                # copies share a label: each kind's cells, in cell order
                cells: dict[str, list[list[int]]] = {}
                for c, e in sorted(self.z.cells[zi].items()):
                    cells.setdefault(labels[e], []).append(list(cell_xy(c, info.radius)))
                zones[key] = cells
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
        for name in info.owner_vars if view != FULL_VIEW else ():
            values = variables[name]
            assert isinstance(values, list)
            variables[name] = [
                v if p == player and view == PLAYER_VIEW else None for p, v in enumerate(values)
            ]
        obs: dict[str, object] = {
            "player": info.player_names[player] if view == PLAYER_VIEW else None,
            "current_player": self.current_player(),
            "terminal": self.over,
            "returns": self.returns(),
            "variables": variables,
            "zones": zones,
            "modifiers": [[info.modifiers[m], list(a)] for m, a, _ in self.mods],
        }
        d = self.pending
        if view != PLAYER_VIEW:
            return self._shared_view(obs, view)
        if d is not None and d.player == player and not self.over:
            obs["decision"] = {
                "prompt": info.text(d.prompt),
                "legal": [self.action_to_string(a) for a in d.legal()],
            }
        if d is not None and d.window and not self.over:  # every player sees who may respond, to what
            obs["window"] = self.window_status()
        if type(d) is Simultaneous and not self.over:  # who is still to answer, never what others chose
            names = info.player_names
            obs["simultaneous"] = {
                "prompt": info.text(d.prompts[0]),
                "players": [names[p] for p in d.players],
                "waiting": [names[p] for p in d.waiting()],
            }
            if player != d.player and player in d.waiting():  # asked too, at the same time
                obs["decision"] = {
                    "prompt": info.text(d.prompts[d.players.index(player)]),
                    "legal": [self.action_to_string(a) for a in self.legal_actions_of(player)],
                }
        return obs

    def _shared_view(self, obs: dict[str, object], view: str) -> dict[str, object]:
        """The rest of a public or full observation (see `observation`): the window and the
        simultaneous decision the game waits on, and in the full view every decision's options."""
        obs["view"] = view
        d = self.pending
        if d is None or self.over:
            return obs
        info = self.INFO
        names = info.player_names
        if d.window:
            obs["window"] = self.window_status()
        sim = self.simultaneous()
        if sim is not None:
            obs["simultaneous"] = {
                "prompt": info.text(sim.prompts[0]),
                "players": [names[p] for p in sim.players],
                "waiting": [names[p] for p in sim.waiting()],
            }
        if view == FULL_VIEW:
            asked = sim.waiting() if sim is not None else [d.player] if d.player >= 0 else []
            obs["decisions"] = {
                names[p]: {
                    "prompt": info.text(sim.prompts[sim.players.index(p)] if sim is not None else d.prompt),
                    "legal": [self.action_to_string(a) for a in self.legal_actions_of(p)],
                }
                for p in asked
            }
            if sim is not None:
                obs["answers"] = {
                    names[p]: info.labels[a] for p, a in zip(sim.players, sim.answers, strict=True) if a >= 0
                }
        return obs

    def window_status(self) -> dict[str, str]:
        """The response window the game waits in: its name, the responder, what is responded to
        and the whole sentence ("waiting for X to respond to Y"); {} when it waits in none."""
        d = self.pending
        if d is None or not d.window or self.over:
            return {}
        to = self.INFO.text(d.prompt).removeprefix("respond to ").removesuffix("?")
        who = self.INFO.player_names[d.player]
        return {
            "window": d.window,
            "responder": who,
            "to": to,
            "text": f"waiting for {who} to respond to {to}",
        }

    def observation_string(self, player: object) -> str:
        """`observation(player)` as JSON text with sorted keys: equal views give equal strings."""
        return json.dumps(self.observation(player), sort_keys=True)

    def __str__(self) -> str:
        tail = self.log(len(self.lines) - 5)
        status = f"over: {escaped(self.reason)}" if self.over else f"{self._whose()} to act"
        d = self.pending
        if d is not None and d.window and not self.over:
            status = escaped(self.window_status()["text"])
        return "\n".join([f"{escaped(self.INFO.title)} ({status})", *map(escaped, tail)])

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
    def _start(self, seed: int, options: dict[str, int | bool | str], num_players: int) -> None:
        info = self.INFO
        self.seed = seed
        self.options = options
        self.num_players = num_players
        self.rng = Rng(seed)
        self.chance = None
        self.skips = []
        self.start_at = ""
        self.budget = step_budget(info)
        self.depth = 0
        self.over, self.winner, self.reason = False, -1, ""
        self.stack = []
        self.pending = None
        self.lines = Log()
        self._set_mods([])
        self.z = Zones.empty(info.zones, [len(t) for t in info.type_ids])
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
                if len(stack) > MAX_CALL_DEPTH:  # (a step pushes at most one frame, then returns)
                    self._stack_too_deep()
        except GameEnded:
            pass
        except RecursionError as exc:
            raise RuleError(_too_deep(exc) + self._where(exc)) from None
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

    def _stack_too_deep(self) -> NoReturn:
        """The error for a stack deeper than MAX_CALL_DEPTH frames, blamed on the newest (generated
        code pushes a frame by appending it to `stack`; `_run` looks at the depth after each step)."""
        frame = self.stack.pop()
        raise RuleError(
            f"procedures are nested {MAX_CALL_DEPTH} deep, in {frame.ORIGIN}: "
            "a procedure or trigger that calls itself needs a condition that stops it"
        )

    def enter(self, origin: str) -> None:
        """One level deeper into a rule that may call itself (a generated guard; its `finally`
        steps back out)."""
        self.depth += 1
        if self.depth > MAX_RULE_DEPTH:
            self.depth -= 1
            raise RuleError(
                f"the rules nest calls {MAX_RULE_DEPTH} deep: a rule that calls itself without end? (in {origin})"
            )

    def decide(
        self,
        player: int,
        values: Sequence[int],
        domain: int,
        slot: str,
        prompt: Sequence[Any],
        at: str = "",
        order: int = 0,
        ids: bool = False,
        optional: bool = False,
        need: int = 0,
        secret: bool = False,
        window: str = "",
    ) -> bool:
        """Stop for a decision. Returns False (and asks nothing) when an optional choice has no options.

        Generated code passes the first eight by position (`at`, `order` and `ids` too: a call with
        keywords costs the interpreter a third more than one without), the rare rest by keyword.
        `ids`: the list's values are action ids already, the domain's first id added where the rules
        listed them (compiler/lower/frames.py); they are checked to lie within the domain all the same.

        `values` are ids of the domain, in any order, perhaps repeated (a range or a list the rules
        built); the options are those distinct values, ascending. `prompt` is a stored text. `at` is
        the decision's place in the spec (file:line), named by any rule error raised here. `order`
        is what the compiler knows of a list (compiler/lower/order.py): 1, its values are distinct;
        2, they are ascending too; so the engine sorts only what it must.
        """
        if not 0 <= player < self.num_players:
            self._bad_decision(prompt, at, f"the deciding player ({player}) is not in the game")
        off, size = self.INFO.spans[domain]
        options: list[int]  # the action ids
        if type(values) is range:  # ascending and distinct already
            self._options(values, domain, prompt, at)  # (checks that it lies within the domain)
            options = list(range(off + values.start, off + values.stop, values.step))
        else:  # `_options` written out for the common case, a list the rules built
            # (read as a list, not a sequence: compiled, without Python's protocols)
            items: list[int] = values if type(values) is list else list(values)
            if order == 2:
                choices = items
            elif order == 1:
                choices = sorted(items)
            elif COMPILED:
                choices = distinct_ascending(items)
            else:  # (the set written out: no call on the interpreter's path)
                choices = sorted(set(items))
            base = off if ids else 0  # (the first id the values may hold)
            if choices:  # (ascending: its ends; a list the rules keep, which a loaded state may
                # have given any ids in any order, by its least and greatest)
                kept = order == 2 and not ids
                low, high = (min(choices), max(choices)) if kept else (choices[0], choices[-1])
                if low < base or high >= base + size:
                    self._options([v - base for v in items], domain, prompt, at)  # (raises the error)
            if ids:
                options = choices  # (a list the generated code made for this decision alone)
            elif off:
                options = []  # (a loop, not a comprehension: in CPython 3.11 a comprehension is
                for v in choices:  # a call, dearer than the loop for all but long lists)
                    options.append(off + v)
            elif choices is values:
                options = choices[:]  # (the rules' own list, copied: the decision keeps its options)
            else:
                options = choices  # (a list made here)
        if len(options) < need:
            self._bad_decision(prompt, at, f"must choose {need} but only {len(options)} options")
        if not options:
            if optional:
                return False
            self._bad_decision(
                prompt, at, f"{self.INFO.player_names[player]} must choose but there is no option"
            )
        # A single option is still asked: a game's action sequence never depends on option counts.
        legal = [PASS, *options] if optional else options  # (what legal() answers: nothing picked yet)
        if COMPILED:
            self.pending = Decision(
                player, options, slot, prompt, optional, need, [], domain, secret, (), window, legal
            )
            return True
        # interpreted, the class's call written out: without type.__call__ and __init__'s frame,
        # a fifth of what the engine itself spends on a decision
        d = _allocate(Decision)
        d.player = player
        d.options = options
        d.slot = slot
        d.prompt = prompt
        d.optional = optional
        d.need = need
        d.picked = []
        d.domain = domain
        d.secret = secret
        d.copies = ()
        d.window = window
        d._legal = legal
        self.pending = d
        return True

    def decide_each(
        self,
        players: Sequence[int],
        values: Sequence[Sequence[int]],
        prompts: Sequence[Sequence[Any]],
        domain: int,
        slot: str,
        optional: bool = False,
        at: str = "",
    ) -> bool:
        """Stop for a simultaneous decision: each player of `players` answers from their own
        `values` (ids of the domain, as for `decide`), all computed now, before anyone answers.
        Returns False, with the answers in `slot` already, when no one is to be asked (no players,
        or only optional choosers without an option, who pass)."""
        n = self.num_players
        names = self.INFO.player_names
        seen: set[int] = set()
        for p in players:
            if not 0 <= p < n:
                who = "none" if p < 0 else str(p)
                self._bad_decision(prompts[0], at, f"a player of `by each` ({who}) is not in the game")
            if p in seen:
                self._bad_decision(prompts[0], at, f"{names[p]} is listed twice in `by each`")
            seen.add(p)
        off = self.INFO.spans[domain][0]
        choices: list[list[int]] = []
        answers: list[int] = []
        for p, vs, prompt in zip(players, values, prompts, strict=True):
            distinct = self._options(vs, domain, prompt, at)
            if not distinct and not optional:
                self._bad_decision(prompt, at, f"{names[p]} must choose but there is no option")
            choices.append([off + v for v in distinct])
            answers.append(-1 if distinct else PASS)
        if -1 not in answers:
            setattr(self.stack[-1], slot, [-1] * len(answers))
            return False
        self.pending = Simultaneous.waiting_on(
            list(players), choices, [list(x) for x in prompts], answers, slot, optional, domain
        )
        return True

    def _options(self, values: Sequence[int], domain: int, prompt: Sequence[Any], at: str) -> Sequence[int]:
        """A decision's options: the distinct ids of `values` (a range, or a list the rules built),
        ascending, each checked to lie within `domain`."""
        size = self.INFO.spans[domain][1]
        if type(values) is range:  # ascending and distinct already
            if values and (values[0] < 0 or values[-1] >= size):
                # a `choose number from a to b` range beyond the domain, refused before it is listed
                self._bad_decision(
                    prompt,
                    at,
                    f"the numbers {values[0]} to {values[-1]} go beyond 0 to {size - 1} (raise actions.max_number?)",
                )
            return values
        choices = sorted(set(values))
        if choices and (choices[0] < 0 or choices[-1] >= size):
            name = self.INFO.domains[domain].name
            self._bad_decision(prompt, at, f"a {name} option is out of range (raise actions.max_number?)")
        return choices

    def decide_kinds(
        self,
        player: int,
        values: Sequence[int],
        kinds: Sequence[int],
        domain: int,
        slot: str,
        prompt: Sequence[Any],
        optional: bool = False,
        need: int = 0,
        secret: bool = False,
        at: str = "",
        window: str = "",
    ) -> bool:
        """`decide` for components of a type with copies (`kinds`: each one's row): one option per
        kind offered, each answer taking the next copy of its kind in the order of `values`. A
        plain choice is asked as one of need -1 (Decision)."""
        if not 0 <= player < self.num_players:
            self._bad_decision(prompt, at, f"the deciding player ({player}) is not in the game")
        off = self.INFO.spans[domain][0]
        offered: dict[int, list[int]] = {}
        seen: set[int] = set()
        for v in values:
            if v in seen:
                continue
            if v < 0 or v >= len(kinds):
                name = self.INFO.domains[domain].name
                self._bad_decision(prompt, at, f"a {name} option is out of range")
            seen.add(v)
            offered.setdefault(kinds[v], []).append(v)
        count = len(seen)
        if count < need:
            self._bad_decision(prompt, at, f"must choose {need} but only {count} options")
        if not offered:
            if optional:
                return False
            self._bad_decision(
                prompt, at, f"{self.INFO.player_names[player]} must choose but there is no option"
            )
        order = sorted(offered)
        self.pending = Decision(
            player,
            [off + k for k in order],
            slot,
            prompt,
            optional,
            need or -1,
            [],
            domain,
            secret,
            tuple(tuple(offered[k]) for k in order),
            window,
        )
        return True

    def shuffle_kinds(self, zone: int, kinds: Sequence[int]) -> None:
        """`shuffle` of a pile of a type with copies: a scenario's forced order names each kind
        once per copy, and takes the pile's own copies of it, in their order in the pile."""
        rng, pile = self.rng, self.z.piles[zone]
        if self.chance is not None:
            self.shuffle(zone)
            return
        forced = rng.forced_shuffles or rng.forced_draws
        if forced:
            forced[0] = _copies_in(forced[0], pile, kinds)
        rng.shuffle(pile)

    def pick_kinds(self, items: Sequence[int], kinds: Sequence[int], t: int = -1) -> int:
        """`random(xs)` of components of a type with copies: a scenario's forced pick names a kind,
        and takes the first copy of it among `items`."""
        if self.chance is not None and items:  # one outcome per kind, weighing its copies
            first = _first_copies(kinds)
            node = self._pick_node([first[kinds[e]] for e in items], t)
            k = picked(node, self._chance(node))
            return next(e for e in items if first[kinds[e]] == k)
        forced = self.rng.forced_picks
        if forced and items:
            forced[0] = _copies_in(forced[:1], items, kinds)[0]
        return self.pick(items)

    def _bad_decision(self, prompt: Sequence[Any], at: str, message: str) -> NoReturn:
        raise RuleError(f"'{self.INFO.text(prompt)}': {message}" + (f" (the decision at {at})" if at else ""))

    def end_game(self, winner: int, reason: str) -> NoReturn:
        self._finish(winner, reason)

    def end_game_shared(self, winners: Sequence[int], reason: str) -> NoReturn:
        """`end game winners XS`: the players of XS share the win (one: that player wins alone;
        none: a draw). The order of XS and repeats do not matter."""
        n = self.num_players
        for p in winners:
            if not 0 <= p < n:
                raise RuleError(
                    f"`end game winners`: the winners must be players, not {'none' if p < 0 else p}"
                )
        chosen = sorted(set(winners))
        if len(chosen) < 2 and self.INFO.returns is None:
            self._finish(chosen[0] if chosen else -1, reason)  # the line of `end game winner`/`draw`
        self._conclude(chosen, reason, False)

    def end_game_by_returns(self, reason: str) -> NoReturn:
        """`end game "why"`: the players with the highest return share the win (one of them: that
        player wins; all of two or more: a draw)."""
        self._conclude([], reason, True)

    def _conclude(self, winners: list[int], reason: str, by_returns: bool) -> NoReturn:
        """The end of a game with results, or of a shared win: its GAME_OVER line carries the
        winners and, with results, the returns, computed here once (before anything changes: a
        rule error in them leaves the game as it was)."""
        returns_of = self.INFO.returns
        n = self.num_players
        scores: list[int] | None = None
        if returns_of is not None:
            scores = [int(returns_of(self, p)) for p in range(n)]
            if by_returns:
                top = max(scores)
                winners = [p for p in range(n) if scores[p] == top]
                if len(winners) == n > 1:
                    winners = []
        sole = winners[0] if len(winners) == 1 else -1
        line = (
            (GAME_OVER, sole, reason, winners)
            if scores is None
            else (GAME_OVER, sole, reason, winners, scores)
        )
        self._close(sole, reason or ("" if winners else "draw"), line)

    def _finish(self, winner: int, reason: str) -> NoReturn:
        if self.INFO.returns is not None:
            self._conclude([winner] if winner >= 0 else [], reason, False)
        self._close(winner, reason or ("draw" if winner < 0 else ""), (GAME_OVER, winner, reason))

    def _close(self, winner: int, reason: str, line: Line) -> NoReturn:
        """The game is over: its sole winner (or -1), the reason it keeps, its GAME_OVER line."""
        self.over = True
        self.winner = winner
        self.reason = reason
        self.pending = None
        self.stack.clear()
        self.lines.add(line)
        raise GameEnded

    # -- helpers the generated code calls -------------------------------------------------------
    def say(self, *line: Any) -> None:
        """A line of the log: one of the rules' texts (its index) and the values of its holes,
        formatted only when the log is read. A private text's first value is the one player who
        sees the line."""
        tail = self.lines.tail  # Log.add, inline: the rules log a line at almost every step
        tail.append(line)
        if len(tail) == LOG_CHUNK:
            self.lines.seal()

    def roll(self, faces: int) -> int:
        if self.chance is not None:
            bound = self.INFO.max_chance_outcomes
            if not 1 <= faces <= bound:
                raise RuleError(
                    f"roll({faces}): explicit chance rolls dice of 1 to {bound} faces (the most the rules write)"
                )
            v = 1 + self._chance(roll_node(faces))
        else:
            v = self.rng.roll(faces)
        self.lines.add((ROLLED, v, faces))
        return v

    def pick(self, items: Sequence[int], t: int = -1) -> int:
        """`random(xs)`: one of `items` (components or players of the type `t`, or numbers: -1)."""
        if not items:
            raise RuleError("random pick from an empty collection")
        if self.chance is not None:
            node = self._pick_node(items, t)
            return picked(node, self._chance(node))
        return self.rng.pick(list(items)) if self.rng.forced_picks else items[self.rng.below(len(items))]

    def shuffle(self, zone: int) -> None:
        c = self.chance
        if c is not None:  # lazily: the order is decided as components leave from the top
            pile = self.z.piles[zone]
            pile.sort()
            if len(pile) > 1:
                c.unsettled[zone] = len(pile)
            else:
                c.unsettled.pop(zone, None)
            return
        self.rng.shuffle(self.z.piles[zone])

    def top(self, zone: int) -> int:
        pile = self.z.piles[zone]
        if self.chance is not None and zone in self.chance.unsettled:
            self._settle(zone, 1)
        return pile[-1] if pile else -1

    def top_n(self, zone: int, n: int) -> list[int]:
        """Up to n components from the top of a pile, topmost first."""
        pile = self.z.piles[zone]
        if self.chance is not None and zone in self.chance.unsettled:
            self._settle(zone, n)
        return pile[::-1][: max(0, n)]

    def pile(self, zone: int) -> list[int]:
        """The contents of a zone held as a value (its instance); `none` (-1) reads as empty."""
        return self.z.piles[zone] if zone >= 0 else []

    def zone(self, zone: int, what: str) -> int:
        """A zone value used where a zone is changed or read from the top: never `none`."""
        if zone < 0:
            raise RuleError(f"{what} is none: no zone to use there")
        return zone

    def nth(self, pile: Sequence[int], i: int) -> int:
        """`z[i]`: the i-th component of a zone from the bottom (its top is the last)."""
        if not 0 <= i < len(pile):
            raise RuleError(f"position {i} of a zone of {len(pile)} component(s) is out of range")
        return pile[i]

    def ref(self, index: int) -> int:
        """A component, player or enum value used as an index for a write: never `none`."""
        if index < 0:
            raise RuleError(
                "'none' used where a component, player or enum value is needed (a variable or zone of none)"
            )
        return index

    def opponent(self, p: int) -> int:
        if self.num_players != 2:
            raise RuleError("opponent() needs a two-player game")
        return 1 - p

    # Seats: players sit in the order of `players.names` (the seated ones), clockwise, so the
    # player on your left is the next one. A `none` (or a value that is no seat) is a rule error
    # naming the builtin, never a seat taken by wrapping around.
    def _seated(self, p: int, builtin: str) -> int:
        if not 0 <= p < self.num_players:
            names = self.INFO.player_names
            got = "none" if p < 0 else f"{names[p]}, who is not seated" if p < len(names) else str(p)
            raise RuleError(f"{builtin}() needs a seated player, got {got}")
        return p

    def next_player(self, p: int) -> int:
        return (self._seated(p, "next_player") + 1) % self.num_players

    def previous_player(self, p: int) -> int:
        return (self._seated(p, "previous_player") - 1) % self.num_players

    def left_of(self, p: int) -> int:
        return (self._seated(p, "left_of") + 1) % self.num_players

    def right_of(self, p: int) -> int:
        return (self._seated(p, "right_of") - 1) % self.num_players

    def next_in(self, p: int, xs: Iterable[int]) -> int:
        """The first player of `xs` after p clockwise (p itself last), or none (-1)."""
        return self._first_in(self._seated(p, "next_in"), xs, 1)

    def previous_in(self, p: int, xs: Iterable[int]) -> int:
        """The first player of `xs` before p, going anticlockwise (p itself last), or none (-1)."""
        return self._first_in(self._seated(p, "previous_in"), xs, -1)

    def _first_in(self, p: int, xs: Iterable[int], step: int) -> int:
        held = set(xs)
        n = self.num_players
        for k in range(1, n + 1):
            q = (p + step * k) % n
            if q in held:
                return q
        return -1

    def seat_distance(self, a: int, b: int) -> int:
        """How many seats clockwise from a to b: 0 to num_players - 1."""
        return (self._seated(b, "seat_distance") - self._seated(a, "seat_distance")) % self.num_players

    def players_from(self, p: int, xs: Iterable[int] | None = None) -> list[int]:
        """The seated players clockwise from p (p first); with `xs`, only those in it."""
        n = self.num_players
        order = [(self._seated(p, "players_from") + k) % n for k in range(n)]
        if xs is None:
            return order
        held = set(xs)
        return [q for q in order if q in held]

    def _detach(self, t: int, e: int) -> None:
        z = self.z
        where = z.where[t][e]
        if where < 0:
            return
        ch = self.chance
        if ch is not None and where in ch.unsettled:  # the unsettled part of a pile keeps its order
            if z.piles[where].index(e) < ch.unsettled[where]:
                ch.unsettled[where] -= 1
                if ch.unsettled[where] < 2:
                    del ch.unsettled[where]
        pile = z.piles[where]
        if pile[-1] == e:  # the top (a deal, a draw): no search (a component lies in a pile once)
            pile.pop()
        else:
            pile.remove(e)
        c = z.pos[t][e]
        if c >= 0:
            del z.cells[where][c]
            z.pos[t][e] = -1
        z.where[t][e] = -1

    def holds(self, zone: int, t: int, e: int) -> bool:
        """Whether the component `e` of type `t` is in `zone`: `e in zone` of the rules, read from
        the where-index rather than by scanning the pile (`none` is in no zone)."""
        return e >= 0 and self.z.where[t][e] == zone

    def holds_value(self, zone: int, t: int, e: int) -> bool:
        """`e in z` for a zone value `z`, which may be none (-1): in no zone, as is a component
        that is nowhere."""
        return zone >= 0 and e >= 0 and self.z.where[t][e] == zone

    def move(self, t: int, e: int, zone: int, top: bool = True) -> None:
        if e < 0:
            raise RuleError("cannot move 'none'")
        self._detach(t, e)
        if top:
            self.z.piles[zone].append(e)
        else:
            if self.chance is not None and zone in self.chance.unsettled:
                self._settle(zone, len(self.z.piles[zone]))  # what lies above it is decided first
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
        if self.chance is not None and src in self.chance.unsettled:
            self._settle(src, n)
        for _ in range(min(n, len(pile))):
            self.move(t, pile[-1], dst)

    # ---- moves that triggers on zones watch: generated code calls these only for a component
    # type with such a trigger, so other moves pay nothing. `moved(state, e, left, entered)` runs
    # the triggers after each component has arrived; a component that stays in its instance fires none.
    def move_watched(
        self, t: int, e: int, zone: int, top: bool, moved: Callable[[Any, int, int, int], None]
    ) -> None:
        left = self.z.where[t][e] if e >= 0 else -1
        self.move(t, e, zone, top)
        if left != zone:
            moved(self, e, left, zone)

    def move_all_watched(
        self, t: int, items: Sequence[int], zone: int, top: bool, moved: Callable[[Any, int, int, int], None]
    ) -> None:
        for e in list(items) if top else list(items)[::-1]:
            self.move_watched(t, e, zone, top, moved)

    def place_watched(
        self, t: int, e: int, zone: int, cell: int, moved: Callable[[Any, int, int, int], None]
    ) -> None:
        left = self.z.where[t][e] if e >= 0 else -1
        self.place(t, e, zone, cell)
        if left != zone:
            moved(self, e, left, zone)

    def deal_watched(
        self, t: int, n: int, src: int, dst: int, moved: Callable[[Any, int, int, int], None]
    ) -> None:
        pile = self.z.piles[src]
        if self.chance is not None and src in self.chance.unsettled:
            self._settle(src, n)
        for _ in range(min(n, len(pile))):
            self.move_watched(t, pile[-1], dst, True, moved)

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
        out = []  # (a loop: cheaper than a comprehension's call for a few cells)
        for n in self.INFO.around[c]:
            if n in cells:
                out.append(cells[n])
        return out

    def adjacent(self, t: int, a: int, b: int) -> bool:
        ca, cb = self.z.pos[t][a], self.z.pos[t][b]
        return ca >= 0 and cb >= 0 and self.z.where[t][a] == self.z.where[t][b] and cb in self.INFO.around[ca]

    def open_cells_around(self, t: int, items: Sequence[int]) -> list[int]:
        around = self.INFO.around
        pos, where, cells_of = self.z.pos[t], self.z.where[t], self.z.cells
        near: dict[int, set[int]] = {}  # zone -> the cells around its items (most lie in one zone)
        for e in items:
            c = pos[e]
            if c >= 0:
                z = where[e]
                cells = near.get(z)
                if cells is None:
                    cells = near[z] = set()
                cells.update(around[c])
        if len(near) == 1:
            ((z, out),) = near.items()
            out -= cells_of[z].keys()
            return sorted(out)
        return sorted({n for z, cells in near.items() for n in cells if n not in cells_of[z]})

    def forget(self, caches: tuple[int, ...]) -> None:
        """State that these cached functions read has changed: their kept values are dropped, to be
        computed afresh when next asked for (the generated code calls it after each such write)."""
        kept = self.caches
        for c in caches:
            kept[c].clear()

    # Lasting effects: `mods` in the order they were added, and `active_mods` (the set of their
    # modifier and arguments) for `active name(args)`, which the rules test as `(M_name, *args) in
    # s.active_mods`. Both are replaced, never changed in place, so clones share them. `mod_kinds`
    # has bit m set while any effect of modifier m is in force: the rules test it first, which
    # answers most tests without building the tuple (compiler/lower/expressions.py).
    def _set_mods(self, mods: list[tuple[int, tuple[int, ...], int]]) -> None:
        self.mods = mods
        self.active_mods = frozenset((m, *a) for m, a, _ in mods)
        kinds = 0
        for m, _, _ in mods:
            kinds |= 1 << m
        self.mod_kinds = kinds

    def add_mod(self, mod: int, args: tuple[int, ...], until: int) -> None:
        self.mods = [*self.mods, (mod, args, until)]
        self.active_mods = self.active_mods | {(mod, *args)}
        self.mod_kinds |= 1 << mod

    def cancel_mod(self, mod: int, args: tuple[int, ...]) -> None:
        if (mod, *args) in self.active_mods:
            self._set_mods([m for m in self.mods if not (m[0] == mod and m[1] == args)])

    def cancel_one_mod(self, mod: int, args: tuple[int, ...]) -> None:
        """`cancel one m(args)`: the earliest added of these instances goes, the others stay."""
        if (mod, *args) in self.active_mods:
            mods = self.mods
            first = next(i for i, m in enumerate(mods) if m[0] == mod and m[1] == args)
            self._set_mods([*mods[:first], *mods[first + 1 :]])

    def count_mod(self, mod: int, args: tuple[int, ...]) -> int:
        """`count active m(args)`: how many instances of these are in force."""
        if (mod, *args) not in self.active_mods:
            return 0
        return sum(1 for m in self.mods if m[0] == mod and m[1] == args)

    def expire(self, phase: int) -> None:
        if any(m[2] == phase for m in self.mods):
            self._set_mods([m for m in self.mods if m[2] != phase])

    def label(self, t: int, e: int) -> str:
        return "none" if e < 0 else self.INFO.type_labels[t][e]

    def enum_label(self, labels: tuple[str, ...], v: int) -> str:
        """An enum value's label (the rules' own table of its enum), or `none`."""
        return "none" if v < 0 else labels[v]

    def player_label(self, p: int) -> str:
        return "none" if p < 0 else self.INFO.player_names[p]

    def _whose(self) -> str:
        if self.over:
            return "nobody (the game is over)"
        d = self.pending
        c = self.chance
        if c is not None and c.node is not None:
            return f"chance (a {c.node.kind})"
        assert d is not None
        prompt = self.INFO.text(d.prompt)
        return escaped(f"{self.INFO.player_names[d.player]}" + (f", {prompt}" if prompt else ""))

    def _legal_text(self) -> str:
        acts = self.legal_actions()
        shown = ", ".join(f"{a} ({self.action_to_string(a)})" for a in acts[:12])
        return escaped(shown) + (f", ... ({len(acts)} in all)" if len(acts) > 12 else "")
