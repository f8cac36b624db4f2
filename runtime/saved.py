"""Saved states: the checks a state's JSON passes before the engine builds a state from it.

A saved state can come from anyone, and most of its fields are positions inside the compiled
rules: frames and their program counters, action ids, component ids, zone and domain indices.
`read_saved_state` checks every field against the engine's static facts (its GameInfo and the
frame classes' slots, slot types and block counts) and refuses the first wrong one with a
SavedStateError that names the field. A state that loads holds only values this engine can
hold: its legal actions, observations, clone and JSON work, and it saves back to the same JSON.
What the spec says of the values is checked too: a bounded variable within its range (the
compiler's GameInfo.var_ranges), a component in one zone at most, and in one when its type is
always in a zone (GameInfo.placed_types), and, on the state built, every invariant of the spec.
Whether the values make sense together beyond that (that a card a variable names is where the
rules would have put it) is not checked: the rules may still stumble on such a state later.

Speed: a state is read by orjson (`quick_parse`, where it reads what the strict parse reads), and
its bulky fields (the log, the variables, the piles, the frames, the lasting effects) are tested
a whole at a time by QuickTests, made once per game, or by the engine's own tests of the log, the
variables and the frames' slots where the compiler wrote them (compiler/lower/saved.py; the log's
when `integer_log` sees that its numbers are all integers); only a field they do not pass is
checked item by item, for the message naming the first wrong item, and a state refused is read
and checked again the strict way, so every refusal has the message it had without the quick path.

Bound: a saved state is at most MAX_SAVED_STATE_CHARS characters (real states are far smaller:
a whole game of the largest real spec saves in under 20 KB); `Game.state_from_json(text,
max_chars=...)` (`load_state`) loads a larger one.
"""

from __future__ import annotations

import gc
import json
import math
import operator
import sys
from collections.abc import Callable
from itertools import chain
from typing import Any, NoReturn, TypeVar

from runtime.chance import BEGIN
from runtime.engine import (
    CHOSE,
    CHOSE_SECRETLY,
    EACH,
    GAME_OVER,
    HAS_CHOSEN,
    PASS,
    REVEALED,
    ROLLED,
    SAVED_FORMAT,
    Frame,
    GameInfo,
    GameState,
    RuleError,
)
from runtime.rng import Rng
from runtime.text import clipped

MAX_SAVED_STATE_CHARS = 16_000_000

# the fields GameState.to_json writes; "skip" only while a scenario has phases left to skip
FIELDS = frozenset(
    (
        "format",
        "game",
        "version",
        "digest",
        "seed",
        "options",
        "num_players",
        "rng",
        "over",
        "winner",
        "reason",
        "stack",
        "pending",
        "mods",
        "piles",
        "cells",
        "vars",
        "log",
    )
)
MAX_CHANCE_OUTCOMES = 100_000  # outcomes of one move in flight (a move draws a whole deck at most)
OPTIONAL_FIELDS = frozenset(("skip", "window", "chance"))
KNOWN_FIELDS = FIELDS | OPTIONAL_FIELDS
PENDING_FIELDS = ("player", "options", "slot", "prompt", "optional", "need", "picked", "domain", "secret")


class SavedStateError(ValueError):
    """A saved state this engine will not load; the message names the field and what is wrong."""


def shown(value: object) -> str:
    """A short JSON-like rendering of a value for a message (never the whole of a huge one)."""
    if isinstance(value, str):
        text = json.dumps(value[:40])
        return text[:-1] + '..."' if len(value) > 40 else text
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list) and len(value) > 8:
        return f"a list of {len(value)} items"
    if isinstance(value, float):
        return repr(value)
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):  # not JSON, or nested past what dumps takes
        text = f"a {type(value).__name__}"
    return clipped(text)


def _no_constant(name: str) -> NoReturn:
    raise SavedStateError(f"saved state: {name} is not a number JSON can hold")


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise SavedStateError(f"saved state: the key {shown(key)} appears twice in one object")
        out[key] = value
    return out


def _orjson_loads() -> Callable[[str], Any] | None:
    """orjson's decoder, answering None for a text it refuses; None where orjson is not installed."""
    try:
        import orjson
    except ImportError:  # pragma: no cover - a dependency; without it, the strict parse alone
        return None

    def loads(text: str) -> Any:
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            return None

    return loads


def _orjson_dumps() -> Callable[[object], bytes] | None:
    """orjson's encoder, refusing (with a TypeError) anything but the plain values a JSON parse
    gives; None where orjson is not installed."""
    try:
        import orjson
    except ImportError:  # pragma: no cover - a dependency
        return None
    options = (
        orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS
    )

    def dumps(value: object) -> bytes:
        return orjson.dumps(value, option=options)

    return dumps


def _fast_loads() -> Callable[[str], Any]:
    """orjson's decoder where it is installed (a dependency), falling back on the standard
    library's for what orjson refuses (an integer beyond 64 bits): for the engine's own text only."""
    quick = _orjson_loads()
    if quick is None:  # pragma: no cover - a dependency; without it the same values, more slowly
        return json.loads

    def loads(text: str) -> Any:
        value = quick(text)  # (None: refused, or the text `null`, which the standard library reads alike)
        return json.loads(text) if value is None else value

    return loads


_own_loads = _fast_loads()


def parse_saved_state(
    text: object, max_chars: int = MAX_SAVED_STATE_CHARS, own_text: bool = False
) -> dict[str, Any]:
    """The JSON object of a saved state: strict JSON (no NaN or Infinity, no repeated keys),
    of bounded size and nesting. `own_text` only for text `GameState.to_json` has just written
    (see load_state), which holds neither: it is parsed without the hooks that look for them,
    several times faster."""
    if not isinstance(text, str):
        raise SavedStateError(f"saved state: expected JSON text (a str), not {type(text).__name__}")
    if len(text) > max_chars:
        raise SavedStateError(
            f"saved state: {len(text):,} characters, more than the {max_chars:,} a saved state may have "
            "(pass max_chars= to load a larger one)"
        )
    try:
        if own_text:
            data = _own_loads(text)
        else:
            data = json.loads(text, parse_constant=_no_constant, object_pairs_hook=_no_duplicate_keys)
    except RecursionError:
        raise SavedStateError("saved state: nested too deeply to be a saved state") from None
    except json.JSONDecodeError as exc:
        raise SavedStateError(
            f"saved state: not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
        ) from None
    except SavedStateError:
        raise
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise SavedStateError(f"saved state: not readable JSON ({exc})") from None
    if not isinstance(data, dict):
        raise SavedStateError(f"saved state: must be a JSON object, not {shown(data)}")
    return data


State = TypeVar("State", bound=GameState)


def load_state(
    state_cls: type[State],
    text: object,
    max_chars: int = MAX_SAVED_STATE_CHARS,
    invariants: bool = True,
    known_lines: int = 0,
    own_text: bool = False,
) -> State:
    """A state `GameState.to_json` saved, as a state of the engine `state_cls`. Every field is
    checked against that engine first, then the spec's invariants against the state: a
    SavedStateError, a ValueError, names the first wrong one (and no state is returned).
    `invariants=False` only for the JSON of a state whose invariants were just checked, and
    `known_lines` only when the first that many lines of the log are, byte for byte, lines an
    earlier load of this game accepted: both for the contract's round trip (runtime/contract.py),
    which loads a game's state after every step, so that a step costs what it adds, not what the
    game has logged so far. `own_text` likewise only for the text `to_json` has just written: no
    JSON hook looks for repeated keys or NaN, which it cannot hold (every field is still checked).

    The cyclic garbage collector waits while a state loads: the thousands of lists read would set
    off several collections of young objects, and they all live on in the state (or are freed at
    once) whatever a collection finds; one collection later looks at what lives on."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        data, rng = _read_saved_state(text, state_cls.INFO, max_chars, known_lines, own_text)
        try:
            state = state_cls._restore(data, rng)
        except ValueError as exc:  # explicit chance: the move in flight does not replay
            raise SavedStateError(f"saved state: {exc}") from None
        c = state.chance
        if invariants and not (c is not None and c.action == BEGIN):  # (they hold once the setup is done)
            refuse_broken_invariants(state)
        return state
    finally:
        if collecting:
            gc.enable()


def refuse_broken_invariants(state: GameState) -> None:
    """Every invariant of the spec holds in a loaded state (the rules keep them after each action,
    so a saved state that breaks one was edited). Evaluated untraced (a load is not play: rule
    coverage does not count it), and what they leave in the state's caches is dropped."""
    invariants = state.INFO.invariants
    if not invariants:
        return
    tracer = sys.gettrace()
    sys.settrace(None)
    try:
        for name, why, holds, _ in invariants:
            try:
                ok = holds(state)
            except (RuleError, IndexError, ArithmeticError) as exc:
                raise SavedStateError(
                    f"saved state: the invariant '{name}' cannot be evaluated on it ({exc})"
                ) from None
            if not ok:
                raise SavedStateError(
                    f"saved state: the invariant '{name}' does not hold" + (f" ({why})" if why else "")
                )
    finally:
        sys.settrace(tracer)
    for kept in state.caches:
        kept.clear()


def read_saved_state(
    text: object,
    info: GameInfo,
    max_chars: int = MAX_SAVED_STATE_CHARS,
    known_lines: int = 0,
    own_text: bool = False,
) -> dict[str, Any]:
    """The fields of a saved state of the game `info` describes, every one checked (but the first
    `known_lines` lines of the log: see load_state); raises SavedStateError for the first wrong one.

    The text is read first by orjson, several times faster than the standard library's decoder;
    what orjson reads is what the strict parse reads (below: `quick_parse`), and a state it gives
    that the checks refuse is read and checked again the strict way, so that a refused state gets
    the message it always got (a repeated key, a NaN or an integer beyond 64 bits named as such)."""
    return _read_saved_state(text, info, max_chars, known_lines, own_text)[0]


def _read_saved_state(
    text: object, info: GameInfo, max_chars: int, known_lines: int, own_text: bool
) -> tuple[dict[str, Any], Rng | None]:
    """`read_saved_state`, and the random generator the state holds (read once, for the state)."""
    integers = type(text) is str and len(text) <= max_chars and integer_log(text)
    if not own_text and type(text) is str and len(text) <= max_chars:
        quick = quick_parse(text)
        if quick is not None:
            check = SavedStateCheck(info, known_lines, integers)
            try:
                check.check(quick)
            except SavedStateError:
                pass  # refused: the strict parse below says why
            else:
                return quick, check.rng
    data = parse_saved_state(text, max_chars, own_text)
    check = SavedStateCheck(info, known_lines, integers)
    check.check(data)
    return data, check.rng


# what a log of integers is written with, but the one '}' after it (`integer_log`)
_INTEGER_LOG_BYTES = b"-0123456789,[] \t\n\r"


def integer_log(text: str) -> bool:
    """Whether the saved state `text` ends with its log, every number of which is an integer (so
    the engine's own tests of its lines, GameInfo.saved_lines, need test no value's type).

    The text is one a JSON parse has read as an object without a repeated key (the caller's). Its
    last `"log":` follows a ',' (or the '{'), so its quote is no string's closing one, nor inside
    a string (it would be escaped): it opens the key `log`. What follows it holds no quote (so no
    key or string) and no letter or '.' (so no true, false, null, fraction or exponent): only
    integers, lists of them, and one '}', which closes the object of that key and, being the only
    one, the whole text's object. So that key is the state's log, and its numbers are integers
    (one beyond 64 bits, which orjson reads as a float, fails every range the tests ask for, and
    is tested for its type where there is none)."""
    k = text.rfind('"log":')
    return (
        k > 0
        and text[k - 1] in ",{"
        and text[k + 6 :].encode("utf-8", "replace").translate(None, _INTEGER_LOG_BYTES) == b"}"
    )


_quick_loads = _orjson_loads()
_quick_dumps = _orjson_dumps()


def quick_parse(text: str) -> dict[str, Any] | None:
    """The object of a saved state as orjson reads it, or None where that may not be what
    `parse_saved_state` reads (which then decides). orjson refuses NaN, Infinity, lone surrogates
    and nesting deeper than 1024, and reads an integer beyond 64 bits as a float (which no field of
    a saved state takes: the checks refuse it); but it keeps the last of a repeated key, which the
    strict parse refuses. So the object is taken only when the text's ':' are as many as its keys:
    at once when they are as many as the keys of the objects a saved state has (the state, its
    options, variables, explicit chance and simultaneous answers), else (a ':' inside a string, as
    in a reason `nuclear war: ...`, or an object elsewhere) when they and the escapes `\\u003a`
    are as many as the ':' of the object written again by orjson (`_no_repeated_key`)."""
    data = None if _quick_loads is None else _quick_loads(text)
    if type(data) is not dict:
        return None
    keys = len(data)
    for field in ("options", "vars", "chance"):
        inner = data.get(field)
        if type(inner) is dict:
            keys += len(inner)
    pending = data.get("pending")
    if type(pending) is list and len(pending) == len(PENDING_FIELDS) + 1 and type(pending[-1]) is dict:
        keys += len(pending[-1])
    colons = text.count(":")
    return data if colons == keys or _no_repeated_key(text, colons, data) else None


def _no_repeated_key(text: str, colons: int, data: dict[str, Any]) -> bool:
    """Whether no object of `text` (of `colons` ':') repeats a key, `data` being orjson's reading
    of it. Every ':' orjson writes is a key's or one inside a string of `data`; each of those came
    from a ':' or an escape `\\u003a` of the text, where every key written has its ':' too. So the
    text's ':' and escapes outnumber the written ':' whenever a key the text repeats was dropped,
    and are as many only when none was (or more, and the text is read the strict way, when it
    holds a `\\u003a` that is no ':', a backslash escaped before `u003a`)."""
    if _quick_dumps is None:  # pragma: no cover - a dependency
        return False
    try:
        written = _quick_dumps(data).count(b":")
    except TypeError:  # orjson.JSONEncodeError: nested deeper than orjson writes
        return False
    return colons + text.count("\\u003a") + text.count("\\u003A") == written


# A value check returns None when the value fits, else (where inside it, what is wrong, the value
# or ... when the message is better without it).
Problem = tuple[str, str, object]
Spans = tuple[tuple[float, float], ...]  # the lowest and highest value of each of a text's values
VariableTests = tuple[tuple[tuple[str, float, float], ...], tuple["Tables", ...]]
_LIST: frozenset[type] = frozenset((list,))
_INT: frozenset[type] = frozenset((int,))
_BOOL: frozenset[type] = frozenset((bool,))


def id_range(info: GameInfo, vtype: str) -> tuple[int, int] | None:
    """The lowest and highest value of a domain's ids (-1 is `none`), or None for an int."""
    if vtype == "player":  # any of the spec's players: one not in this game can still be named
        return -1, len(info.player_names) - 1
    if vtype == "zone":  # a zone held as a value: one of the game's zone instances, or none
        return -1, len(info.zones) - 1
    labels = info.domain_labels.get(vtype)
    if labels is None:
        return (-1, -1) if vtype == "cell" else None  # no grid: a cell can only be none
    # -1 is `none` for an enum too: an optional choice of one, answered with pass, holds it
    return -1, len(labels) - 1


class QuickTests:
    """Yes-or-no tests of the values of one game's saved states, made once per game (kept in its
    GameInfo.memo). A state holds thousands of values: they are tested quickly, and only one that
    fails is checked again, slowly, by SavedStateCheck, for the message that names what is wrong."""

    def __init__(self, info: GameInfo) -> None:
        self.info = info
        self.types: dict[str, Callable[[object], bool]] = {}
        # each of the rules' texts by index: how many items its line has, its values' tests, private
        self.texts = [(1 + len(t.kinds), tuple(map(self.of, t.kinds)), t.private) for t in info.texts]
        self.actions = info.num_distinct_actions
        self.modifiers = [tuple(map(self.of, params)) for params in info.modifier_params]
        # by the number of players: the tests of the variables, and of the texts' values (bounds)
        self.variable_tests: dict[int, VariableTests] = {}
        self.text_bounds: dict[int, tuple[Spans | None, ...]] = {}
        self.grids = [z.type_index if z.kind == "grid" else -1 for z in info.zones]  # a grid's type
        domains = {d.name: d for d in info.domains}
        self.cell_count = len(domains["cell"].labels) if "cell" in domains else 0  # a grid's cells
        self.zones_of_type = [
            tuple(zi for zi, z in enumerate(info.zones) if z.type_index == t)
            for t in range(len(info.type_ids))
        ]

    def of(self, vtype: str) -> Callable[[object], bool]:
        """The test of a value of `vtype` (`SavedStateCheck.problem` says what is wrong)."""
        test = self.types.get(vtype)
        if test is None:
            test = self.types[vtype] = self._test(vtype)
        return test

    def _test(self, vtype: str) -> Callable[[object], bool]:
        if vtype.startswith("list["):
            inner = self.of(vtype[5:-1])
            return lambda v: type(v) is list and all(map(inner, v))
        if vtype == "bool":
            return lambda v: type(v) is bool
        if vtype == "str":
            return lambda v: text_problem(v) is None
        bounds = id_range(self.info, vtype)
        if bounds is None:
            return lambda v: type(v) is int
        low, high = bounds
        return lambda v: type(v) is int and low <= v <= high

    def text(self, v: object, players: int, prompt: bool = False) -> bool:
        """One of the rules' texts as stored: [its index, its values]; a prompt's is never private,
        a private line's first value is one of the `players`."""
        if type(v) is not list or not v or type(v[0]) is not int or not 0 <= v[0] < len(self.texts):
            return False
        n, tests, private = self.texts[v[0]]
        if len(v) != n or not all(map(operator.call, tests, v[1:])):
            return False
        return not private or (not prompt and 0 <= v[1] < players)

    def frame(self, entry: object) -> type[Frame] | None:
        """The class of a frame of the stack, [its name, its block, its slots' values], if right."""
        if type(entry) is not list or len(entry) != 3:
            return None
        name, pc, values = entry
        frame = self.info.frames.get(name) if type(name) is str else None
        if (
            frame is None
            or type(pc) is not int
            or not 0 <= pc < frame.BLOCKS
            or type(values) is not list
            or len(values) != len(frame.SLOTS)
        ):
            return None
        compiled = self.info.saved_frames.get(name)
        return frame if compiled is not None and compiled(values) else None

    def modifier(self, value: object) -> bool:
        """A lasting effect in force: [its modifier, its arguments, the phase it lasts until]."""
        params = self.modifiers
        if type(value) is not list or len(value) != 3:
            return False
        index, args, until = value
        return (
            type(index) is int
            and 0 <= index < len(params)
            and type(args) is list
            and len(args) == len(params[index])
            and type(until) is int
            and -1 <= until < len(self.info.phases)
            and all(map(operator.call, params[index], args))
        )

    def span(
        self, vtype: str, bounded: tuple[int | None, int | None] | None = None
    ) -> tuple[float, float] | None:
        """The lowest and highest value of an integer kind (within a variable's range, if it has
        one), or None for a bool, a string or a list."""
        if vtype in ("bool", "str") or vtype.startswith("list["):
            return None
        low, high = id_range(self.info, vtype) or (-math.inf, math.inf)
        if bounded is not None:
            low = low if bounded[0] is None else max(low, bounded[0])
            high = high if bounded[1] is None else min(high, bounded[1])
        return low, high

    def variables(self, value: dict[str, Any], players: int) -> bool:
        """Every variable there, nothing else, each of its type and within its range."""
        compiled = self.info.saved_variables  # the engine's own, where it has one
        if compiled is not None:
            return compiled(value, players)
        return self.tables_fit(value, players)

    def tables_fit(self, value: dict[str, Any], players: int) -> bool:
        """`variables` by the tables made here (an engine without its own test, or a test of it)."""
        tests = self.variable_tests.get(players)
        if tests is None:
            tests = self.variable_tests[players] = self._variable_tests(players)
        scalars, tables = tests
        if value.keys() != self.info.var_types.keys():
            return False
        for name, low, high in scalars:
            x = value[name]
            if type(x) is not int or not low <= x <= high:
                return False
        return all(table.fits(value) for table in tables)

    def _variable_tests(self, players: int) -> VariableTests:
        """The integer variables without indices, each with its range, and the others in groups
        of the same depth of indices and the same test of their values (Tables)."""
        scalars: list[tuple[str, float, float]] = []
        groups: dict[tuple[int, str, tuple[float, float] | None], Tables] = {}
        for name, (vtype, indices) in self.info.var_types.items():
            span = self.span(vtype, self.info.var_ranges.get(name))
            if not indices and span is not None:
                scalars.append((name, span[0], span[1]))
                continue
            leaf = "int" if span is not None else vtype
            group = groups.setdefault(
                (len(indices), leaf, span), Tables(self.of(vtype), span, vtype == "bool")
            )
            group.add(name, tuple(self.info.index_size(index, players) for index in indices))
        return tuple(scalars), tuple(groups.values())

    def piles(self, piles: object, setup_in_flight: bool) -> bool:
        """Every zone's pile a list of distinct components of its type, no component in two, every
        one of a type that is always in a zone in one (SavedStateCheck.zones says which is not)."""
        zones = self.info.zones
        if type(piles) is not list or len(piles) != len(zones) or not set(map(type, piles)) <= _LIST:
            return False
        placed = () if setup_in_flight else self.info.placed_types
        for t, ids in enumerate(self.info.type_ids):
            held = list(chain.from_iterable(piles[zi] for zi in self.zones_of_type[t]))
            if not held:
                if t in placed and ids:
                    return False
                continue
            if not set(map(type, held)) <= _INT or min(held) < 0 or max(held) >= len(ids):
                return False
            if len(set(held)) != len(held) or (t in placed and len(held) != len(ids)):
                return False
        return True

    def cells(self, cells: object, holder: list[list[int]], count: int) -> bool:
        """The occupied cells of the grids, [zone, cell, component] by zone and cell, each holding
        a component of the zone's pile (`holder`: the zone of each component), on one cell."""
        if type(cells) is not list:
            return False
        grids = self.grids
        previous = (-1, -1)
        seen: set[tuple[int, int]] = set()
        for entry in cells:
            if type(entry) is not list or len(entry) != 3:
                return False
            zi, c, e = entry
            if type(zi) is not int or type(c) is not int or type(e) is not int or not 0 <= zi < len(grids):
                return False
            t = grids[zi]
            if (
                t < 0
                or not previous < (zi, c)
                or not 0 <= c < count
                or not 0 <= e < len(holder[t])
                or holder[t][e] != zi
                or (t, e) in seen
            ):
                return False
            previous = (zi, c)
            seen.add((t, e))
        return True

    def bounds(self, players: int) -> tuple[Spans | None, ...]:
        """Each text's values as ranges of integers (a private text's first value one of the
        `players`), or None for a text with a value of another kind (a bool, a string, a list)."""
        found = self.text_bounds.get(players)
        if found is None:
            found = self.text_bounds[players] = tuple(
                self._bounds(t.kinds, t.private, players) for t in self.info.texts
            )
        return found

    def _bounds(self, kinds: tuple[str, ...], private: bool, players: int) -> Spans | None:
        out: list[tuple[float, float]] = []
        for kind in kinds:
            if kind == "int":
                out.append((-math.inf, math.inf))
                continue
            span = None if kind in ("bool", "str") or kind.startswith("list[") else id_range(self.info, kind)
            if span is None:
                return None
            out.append(span)
        if private:
            out[0] = (0, players - 1)
        return tuple(out)

    def lines(self, lines: list[Any], start: int, players: int) -> int:
        """The index of the first of `lines` from `start` that is not quickly seen to be right
        (len(lines) when none): most lines are choices and texts of integer values, tested here
        inline, and so are rolls of a die; any other is tested by `line`."""
        bounds = self.bounds(players)
        count, actions, line = len(bounds), self.actions, self.line
        for i in range(start, len(lines)):
            v = lines[i]
            if type(v) is not list or not v:
                return i
            code = v[0]
            if type(code) is not int:
                return i
            if code == CHOSE or code == CHOSE_SECRETLY:
                if len(v) != 4:
                    return i
                who, action, v = v[1], v[2], v[3]
                if (
                    type(who) is not int
                    or not 0 <= who < players
                    or type(action) is not int
                    or not 0 <= action < actions
                    or type(v) is not list
                    or not v
                ):
                    return i
                code = v[0]
                if type(code) is not int or not 0 <= code < count or self.texts[code][2]:  # (never private)
                    return i
            elif code == ROLLED:
                if len(v) != 3 or type(v[1]) is not int or type(v[2]) is not int or not 1 <= v[1] <= v[2]:
                    return i
                continue
            elif not 0 <= code < count:
                if not line(v, players):
                    return i
                continue
            spans = bounds[code]
            if spans is None:
                if not line(v, players):
                    return i
                continue
            if len(v) != len(spans) + 1:
                return i
            k = 1
            for low, high in spans:
                x = v[k]
                if type(x) is not int or not low <= x <= high:
                    return i
                k += 1
        return len(lines)

    def line(self, v: object, players: int) -> bool:
        """A line of the log: a text of the rules, a choice or a roll (runtime/engine.py)."""
        if type(v) is not list or not v or type(v[0]) is not int:
            return False
        code = v[0]
        if code >= 0:  # `text`, inline: most lines are texts of the rules
            if code >= len(self.texts):
                return False
            n, tests, private = self.texts[code]
            return (
                len(v) == n and all(map(operator.call, tests, v[1:])) and (not private or 0 <= v[1] < players)
            )
        if code == CHOSE or code == CHOSE_SECRETLY:
            return (
                len(v) == 4
                and type(v[1]) is int
                and 0 <= v[1] < players
                and type(v[2]) is int
                and 0 <= v[2] < self.actions
                and self.text(v[3], players, prompt=True)
            )
        if code == ROLLED:
            return len(v) == 3 and type(v[1]) is int and type(v[2]) is int and 1 <= v[1] <= v[2]
        if code == HAS_CHOSEN and self.info.simultaneous:
            return (
                len(v) == 3 and type(v[1]) is int and 0 <= v[1] < players and self.text(v[2], players, True)
            )
        return False  # the end of the game, once: checked item by item


class Tables:
    """Variables whose values are tested alike: nested lists as deep (a level per index: players,
    components or enum values), the values at the bottom of one kind. They are tested together, a
    level at a time, each level's lists' lengths against the sizes of its index."""

    def __init__(
        self, fits: Callable[[object], bool], span: tuple[float, float] | None, boolean: bool
    ) -> None:
        self.names: list[str] = []
        self.lengths: list[list[int]] = []  # at each level, every list's length, in order
        self.test = fits
        self.span = span
        self.boolean = boolean

    def add(self, name: str, sizes: tuple[int, ...]) -> None:
        self.names.append(name)
        count = 1  # how many lists this variable has at this level
        for depth, size in enumerate(sizes):
            if depth == len(self.lengths):
                self.lengths.append([])
            self.lengths[depth] += [size] * count
            count *= size

    def fits(self, value: dict[str, Any]) -> bool:
        level: list[Any] = list(map(value.__getitem__, self.names))
        for lengths in self.lengths:
            if not set(map(type, level)) <= _LIST or list(map(len, level)) != lengths:
                return False
            level = list(chain.from_iterable(level))
        if self.span is None:
            return set(map(type, level)) <= _BOOL if self.boolean else all(map(self.test, level))
        low, high = self.span
        return not level or (set(map(type, level)) <= _INT and low <= min(level) and max(level) <= high)


class SavedStateCheck:
    """Checks the fields of one saved state in order: each check may rely on the fields checked
    before it (the player count, the stack)."""

    def __init__(self, info: GameInfo, known_lines: int = 0, integer_log: bool = False) -> None:
        self.info = info
        self.known_lines = known_lines  # the log's first lines, accepted by an earlier load
        # every number of the log an integer (`integer_log`): the engine's own tests take its lines
        self.integer_log = integer_log
        self.players = 0  # the number of players, once checked
        self.setup_in_flight = False  # explicit chance: the setup waits on a chance node (no decision yet)
        self.rng: Rng | None = None  # the generator the state holds, once checked (the state takes it)
        self.ends: list[int] = []  # where the log holds game-over lines
        self.quick: QuickTests = info.memo.get("saved state tests") or QuickTests(info)
        info.memo["saved state tests"] = self.quick

    # -- reporting ------------------------------------------------------------------------------
    @staticmethod
    def fail(field: str, what: str, value: object = ...) -> NoReturn:
        tail = "" if value is ... else f", not {shown(value)}"
        raise SavedStateError(f"saved state: '{field}' {what}{tail}")

    def expect(self, field: str, value: object, vtype: str) -> None:
        problem = None if self.fits(vtype)(value) else self.problem(value, vtype)
        if problem is not None:
            where, what, bad = problem
            self.fail(field + where, what, bad)

    def fits(self, vtype: str) -> Callable[[object], bool]:
        return self.quick.of(vtype)

    # -- values: int, bool, str, a domain's ids (none is -1 for a reference) or list[...] ------------
    def id_range(self, vtype: str) -> tuple[int, int] | None:
        return id_range(self.info, vtype)

    def problem(self, value: object, vtype: str) -> Problem | None:
        if vtype.startswith("list["):
            if type(value) is not list:
                return "", "must be a list", value
            inner = vtype[5:-1]
            for i, item in enumerate(value):
                problem = self.problem(item, inner)
                if problem is not None:
                    return f"[{i}]{problem[0]}", problem[1], problem[2]
            return None
        if vtype == "bool":
            return None if type(value) is bool else ("", "must be true or false", value)
        if vtype == "str":
            return text_problem(value)
        if type(value) is not int:
            return "", "must be an integer", value
        bounds = self.id_range(vtype)
        if bounds is not None and not bounds[0] <= value <= bounds[1]:
            name = vtype.split(":")[-1]
            return "", f"must be an id of {name}, from {bounds[0]} to {bounds[1]}", value
        return None

    def integer(
        self, field: str, value: object, lowest: int | None = None, highest: int | None = None
    ) -> int:
        if type(value) is not int:
            self.fail(field, "must be an integer", value)
        if (lowest is not None and value < lowest) or (highest is not None and value > highest):
            low = "" if lowest is None else f" from {lowest}"
            high = "" if highest is None else f" to {highest}"
            self.fail(field, f"must be an integer{low}{high}", value)
        return value

    def boolean(self, field: str, value: object) -> bool:
        if type(value) is not bool:
            self.fail(field, "must be true or false", value)
        return value

    def text(self, field: str, value: object) -> str:
        problem = text_problem(value)
        if problem is not None:
            self.fail(field, problem[1], problem[2])
        return str(value)

    def items(self, field: str, value: object, length: int | None = None) -> list[Any]:
        if type(value) is not list:
            self.fail(field, "must be a list", value)
        if length is not None and len(value) != length:
            self.fail(field, f"must be a list of {length} item{'' if length == 1 else 's'}, not {len(value)}")
        return value

    def each(self, field: str, value: object, check: Callable[[str, Any], object]) -> None:
        for i, item in enumerate(self.items(field, value)):
            check(f"{field}[{i}]", item)

    # -- the state --------------------------------------------------------------------------------
    def check(self, d: dict[str, Any]) -> None:
        info = self.info
        if type(d.get("format")) is not int or d["format"] != SAVED_FORMAT:
            # an older layout (no "format" before format 2): its fields are not these
            written = d.get("format", 1)
            raise SavedStateError(
                f"saved state: written in format {shown(written)} of saved states; this engine reads "
                f"only format {SAVED_FORMAT} (replay the game's actions instead: `rulewright replay`)"
            )
        if not FIELDS <= d.keys() <= KNOWN_FIELDS:
            for key in sorted(d):
                if key not in KNOWN_FIELDS:
                    self.fail(key[:40], "is not a field of a saved state")
            for key in sorted(FIELDS):
                if key not in d:
                    self.fail(key, "is missing")
        if d["game"] != info.name:
            raise SavedStateError(f"this is a saved {shown(d['game'])} game, not '{info.name}'")
        if d["digest"] != info.digest:
            # a saved state holds positions inside the compiled rules; replay the actions instead
            raise SavedStateError(
                f"this {info.name} state was saved by another build of the rules "
                f"(spec {str(d['digest'])[:12]}, this engine {info.digest[:12]}); "
                "replay its actions (`rulewright replay`) instead"
            )
        if d["version"] != info.version:
            self.fail(
                "version", f"must be the rules version of this engine, {shown(info.version)}", d["version"]
            )
        self.integer("seed", d["seed"])
        self.options(d["options"])
        self.player_count(d["num_players"], d["options"])
        try:
            self.rng = Rng.from_data(d["rng"])
        except ValueError as exc:
            raise SavedStateError(f"saved state: {exc}") from None
        over = self.boolean("over", d["over"])
        self.integer("winner", d["winner"], -1, len(info.player_names) - 1)
        self.text("reason", d["reason"])
        if not over and (d["winner"] != -1 or d["reason"] != ""):
            self.fail("winner", "must be -1 (and 'reason' empty) while the game is not over", d["winner"])
        top = self.stack(d["stack"], over)
        move = d.get("chance", {}).get("move") if type(d.get("chance")) is dict else None
        self.setup_in_flight = type(move) is list and len(move) == 2 and move[0] == -1
        self.pending(d["pending"], over, top)
        if "window" in d:  # the response window the pending question belongs to
            window = self.text("window", d["window"])
            if window not in info.windows:
                self.fail("window", "must name a response window of this engine", window)
            if d["pending"] is None:
                self.fail(
                    "window", "is written only while a question of a response window is pending", window
                )
        mods = d["mods"]
        if type(mods) is not list or not all(map(self.quick.modifier, mods)):
            self.each("mods", mods, self.modifier)
        self.zones(d["piles"], d["cells"])
        self.variables(d["vars"], d["options"])
        self.log(d["log"])
        self.outcome(over, d["winner"], d["log"])
        if "skip" in d:
            if not self.items("skip", d["skip"]):
                self.fail("skip", "is written only while a scenario has phases to skip", d["skip"])
            self.each("skip", d["skip"], self.text)
        if "chance" in d:
            self.chance(d["chance"], d["piles"], d["pending"], over)

    def chance(self, value: object, piles: list[list[int]], pending: object, over: bool) -> None:
        """Explicit chance (runtime/chance.py): {"unsettled": [[zone, n], ...], "move": [action,
        [outcome, ...]] while a move waits on a chance node}. The engine replays the move when it
        loads the state, and refuses outcomes that do not fit."""
        if type(value) is not dict:
            self.fail("chance", "must be an object (unsettled piles, the move in flight)", value)
        for key in value:
            if key not in ("unsettled", "move"):
                self.fail(f"chance.{clipped(str(key))}", "is not a field of explicit chance")
        seen: set[int] = set()
        for i, item in enumerate(self.items("chance.unsettled", value.get("unsettled"))):
            zone, n = self.items(f"chance.unsettled[{i}]", item, 2)
            z = self.integer(f"chance.unsettled[{i}][0]", zone, 0, len(piles) - 1)
            if z in seen or self.info.zones[z].kind != "pile":
                self.fail(f"chance.unsettled[{i}][0]", "must be a pile, named once", z)
            seen.add(z)
            self.integer(f"chance.unsettled[{i}][1]", n, 2, len(piles[z]))
        if "move" in value:
            if over:
                self.fail("chance.move", "is written only while the game goes on", value["move"])
            action, given = self.items("chance.move", value["move"], 2)
            self.integer("chance.move[0]", action, -1, self.info.num_distinct_actions - 1)
            if (action == -1) != (pending is None):
                self.fail("chance.move[0]", "is -1 (the setup) exactly when no decision is pending", action)
            if len(self.items("chance.move[1]", given)) > MAX_CHANCE_OUTCOMES:
                self.fail("chance.move[1]", f"holds at most {MAX_CHANCE_OUTCOMES} outcomes", len(given))
            for i, o in enumerate(given):
                self.integer(f"chance.move[1][{i}]", o, 0)

    def options(self, value: object) -> None:
        if type(value) is not dict:
            self.fail("options", "must be an object of the game's options", value)
        known = {o.name: o for o in self.info.options}
        for name in value:
            if name not in known:
                self.fail(f"options.{name}", f"is not an option of {self.info.name}")
        for name, o in known.items():
            if name not in value:
                self.fail(f"options.{name}", "is missing")
            v = value[name]
            if o.values:  # an enum's value, by name
                if type(v) is not str or v not in o.allowed():
                    self.fail(f"options.{name}", f"must be one of {list(o.allowed())}", v)
            elif o.type == "bool":
                self.boolean(f"options.{name}", v)
            else:
                self.integer(f"options.{name}", v)
            if o.choices and v not in o.choices:
                self.fail(f"options.{name}", f"must be one of {list(o.choices)}", v)

    def player_count(self, value: object, options: dict[str, Any]) -> None:
        count = self.info.player_count
        most = len(self.info.player_names)
        n = self.integer("num_players", value, 1, most)
        if isinstance(count, str) and n != options[count]:
            self.fail("num_players", f"must be the option '{count}' ({options[count]})", n)
        if isinstance(count, int) and n != count:
            self.fail("num_players", f"must be {count}", n)
        self.players = n

    def stack(self, value: object, over: bool) -> type[Frame] | None:
        """Checks the frames; returns the class of the top one (None for an empty stack)."""
        frames = self.items("stack", value)
        if over and frames:
            self.fail("stack", "must be empty once the game is over", frames)
        if not over and not frames:
            self.fail("stack", "must hold the running frames while the game is not over", frames)
        top: type[Frame] | None = None
        quick = self.quick.frame
        for i, entry in enumerate(frames):
            top = quick(entry)
            if top is not None:
                continue
            field = f"stack[{i}]"
            name, pc, values = self.items(field, entry, 3)
            top = self.info.frames.get(name) if isinstance(name, str) else None
            if top is None:
                self.fail(f"{field}[0]", "must name a frame of this engine", name)
            self.integer(f"{field}[1]", pc, 0, top.BLOCKS - 1)
            self.items(f"{field}[2]", values, len(top.SLOTS))
            for slot, vtype, v in zip(top.SLOTS, top.SLOT_TYPES, values, strict=True):
                self.expect(f"{field}.{slot}", v, vtype)
        return top

    def pending(self, value: object, over: bool, top: type[Frame] | None) -> None:
        if over:
            if value is not None:
                self.fail("pending", "must be null once the game is over", value)
            return
        if value is None:
            if self.setup_in_flight:  # explicit chance, waiting on a chance node of the setup
                return
            self.fail("pending", "must be the decision the game waits on while it is not over", value)
        items = self.items("pending", value)
        n = len(PENDING_FIELDS)
        if len(items) == n + 1 and items[5] == EACH and self.info.simultaneous:
            self.simultaneous_pending(dict(zip(PENDING_FIELDS, items[:n], strict=True)), items[n], top)
            return
        saved_copies = items[n] if len(items) == n + 1 else None  # a choice among kinds with copies
        fields = dict(
            zip(
                PENDING_FIELDS,
                self.items("pending", items if saved_copies is None else items[:n], n),
                strict=True,
            )
        )
        domain = self.integer("pending.domain", fields["domain"], 0, len(self.info.domains) - 1)
        dom = self.info.domains[domain]
        kinds = self.domain_kinds(dom.name)
        if kinds:
            if saved_copies is None:
                self.fail(
                    "pending", f"must have {n + 1} items: a choice of {dom.name} lists its copies", value
                )
            self.copies_pending(fields, saved_copies, kinds, dom.offset, top)
            return
        if saved_copies is not None:
            self.fail("pending", f"must be a list of {n} items, not {n + 1}", value)
        first, last = dom.offset, dom.offset + len(dom.labels) - 1
        options = self.offered(fields, first, last, f"an action of the domain {dom.name}")
        slot, top = self.asked(fields, top)
        need = self.integer("pending.need", fields["need"], 0, len(options))
        picked = self.items("pending.picked", fields["picked"])
        if need == 0 and picked:
            self.fail("pending.picked", "must be empty when 'need' is 0", picked)
        if need and len(picked) >= need:
            self.fail("pending.picked", f"must hold fewer than the {need} actions needed", picked)
        for i, a in enumerate(picked):
            if type(a) is not int or a not in options:  # (1.0 and true equal 1)
                self.fail(f"pending.picked[{i}]", "must be one of the decision's options", a)
        if len(set(picked)) != len(picked):
            self.fail("pending.picked", "must not repeat an action", picked)
        slot_type = top.SLOT_TYPES[top.SLOTS.index(slot)]
        if (slot_type.startswith("list[")) != bool(need):
            kind = "a list" if need else "a single value"
            self.fail("pending.slot", f"must be a slot of {kind} (it is {slot_type})", slot)

    def simultaneous_pending(self, fields: dict[str, object], saved: object, top: type[Frame] | None) -> None:
        """A simultaneous decision (runtime/engine.py Simultaneous): its tenth item holds every
        player's options, prompt and answer (-1 until given); its first nine are those of the
        first player who has not answered."""
        domain = self.integer("pending.domain", fields["domain"], 0, len(self.info.domains) - 1)
        dom = self.info.domains[domain]
        if self.domain_kinds(dom.name):
            self.fail("pending", f"cannot be a simultaneous choice of {dom.name} (it has copies)")
        first, last = dom.offset, dom.offset + len(dom.labels) - 1
        options = self.offered(fields, first, last, f"an action of the domain {dom.name}")
        slot, top = self.asked(fields, top)
        optional = fields["optional"]
        if self.items("pending.picked", fields["picked"]):
            self.fail("pending.picked", "must be empty in a simultaneous decision", fields["picked"])
        if fields["secret"] is not True:
            self.fail("pending.secret", "must be true in a simultaneous decision", fields["secret"])
        if type(saved) is not dict or sorted(saved) != ["answers", "options", "players", "prompts"]:
            self.fail("pending[9]", "must be an object of players, options, prompts and answers", saved)
        players = self.items("pending[9].players", saved["players"])
        count = len(players)
        if not players:
            self.fail("pending[9].players", "must name at least one player", players)
        for i, p in enumerate(players):
            self.integer(f"pending[9].players[{i}]", p, 0, self.players - 1)
        if len(set(players)) != count:
            self.fail("pending[9].players", "must not repeat a player", players)
        choices = self.items("pending[9].options", saved["options"], count)
        prompts = self.items("pending[9].prompts", saved["prompts"], count)
        answers = self.items("pending[9].answers", saved["answers"], count)
        for i, (offered, prompt, answer) in enumerate(zip(choices, prompts, answers, strict=True)):
            field = f"pending[9].options[{i}]"
            for j, a in enumerate(self.items(field, offered)):
                if type(a) is not int or not first <= a <= last:
                    self.fail(
                        f"{field}[{j}]", f"must be an action of the domain {dom.name} ({first} to {last})", a
                    )
                if j and a <= offered[j - 1]:
                    self.fail(field, "must be ascending, without repeats", offered)
            self.stored_text(f"pending[9].prompts[{i}]", prompt, prompt=True)
            allowed = [-1, *offered] if offered else [PASS] if optional else []
            if optional and offered:
                allowed.append(PASS)
            if answer not in allowed or type(answer) is not int:
                self.fail(
                    f"pending[9].answers[{i}]",
                    "must be -1 (not yet answered) or one of the player's options",
                    answer,
                )
        if -1 not in answers:
            self.fail("pending[9].answers", "must hold -1 for a player who has not answered yet", answers)
        i = answers.index(-1)
        if [fields["player"], options, fields["prompt"]] != [players[i], choices[i], prompts[i]]:
            self.fail(
                "pending", "must ask the first player who has not answered, with their options and prompt"
            )
        slot_type = top.SLOT_TYPES[top.SLOTS.index(slot)]
        if not slot_type.startswith("list["):
            self.fail("pending.slot", f"must be a slot of a list (it is {slot_type})", slot)

    def offered(self, fields: dict[str, object], first: int, last: int, what: str) -> list[Any]:
        """A pending decision's player, and its options: actions from `first` to `last`, ascending."""
        self.integer("pending.player", fields["player"], 0, self.players - 1)
        options = self.items("pending.options", fields["options"])
        if (  # the usual case, tested at once: integers in range, ascending
            options
            and set(map(type, options)) <= _INT
            and first <= options[0]
            and options[-1] <= last
            and all(map(operator.lt, options, options[1:]))
        ):
            return options
        if not options:
            self.fail("pending.options", "must name at least one action", options)
        for i, a in enumerate(options):
            if type(a) is not int or not first <= a <= last:
                self.fail(f"pending.options[{i}]", f"must be {what} ({first} to {last})", a)
            if i and a <= options[i - 1]:
                self.fail("pending.options", "must be ascending, without repeats", options)
        return options

    def asked(self, fields: dict[str, object], top: type[Frame] | None) -> tuple[str, type[Frame]]:
        """A pending decision's slot (a slot of the top frame), prompt and flags."""
        slot = self.text("pending.slot", fields["slot"])
        assert top is not None  # a live game has a stack (checked before)
        if slot not in top.SLOTS:
            self.fail("pending.slot", f"must be a slot of the top frame ({top.NAME})", slot)
        self.stored_text("pending.prompt", fields["prompt"], prompt=True)
        self.boolean("pending.optional", fields["optional"])
        self.boolean("pending.secret", fields["secret"])
        return slot, top

    def domain_kinds(self, domain: str) -> tuple[int, ...]:
        """Each component's kind, for the domain of a component type with copies; else ()."""
        name = domain.removeprefix("entity:")
        if name == domain or name not in self.info.type_names:
            return ()
        return self.info.kinds_of(self.info.type_names.index(name))

    def copies_pending(
        self,
        fields: dict[str, object],
        saved: object,
        kinds: tuple[int, ...],
        offset: int,
        top: type[Frame] | None,
    ) -> None:
        """A decision among kinds with copies (runtime/engine.py Decision): its options are kinds,
        `copies` the components offered of each, distinct and of that kind; `need` is -1 for a single
        choice, else how many to choose; a kind is picked at most once per copy offered."""
        options = self.offered(fields, offset, offset + max(kinds), "a kind's action")
        copies = self.items("pending[9]", saved, len(options))
        seen: set[int] = set()
        for i, (a, group) in enumerate(zip(options, copies, strict=True)):
            field = f"pending[9][{i}]"
            if not self.items(field, group):
                self.fail(field, "must list the copies offered of its kind", group)
            for j, e in enumerate(group):
                self.integer(f"{field}[{j}]", e, 0, len(kinds) - 1)
                if kinds[e] != a - offset or e in seen:
                    self.fail(f"{field}[{j}]", "must be a copy of its option's kind, offered once", e)
                seen.add(e)
        slot, top = self.asked(fields, top)
        need = self.integer("pending.need", fields["need"], -1, len(seen))
        if need == 0:
            self.fail("pending.need", "must be -1 (one component) or how many to choose", need)
        picked = self.items("pending.picked", fields["picked"])
        if len(picked) >= max(need, 1):
            self.fail("pending.picked", f"must hold fewer than the {max(need, 1)} actions needed", picked)
        for i, a in enumerate(picked):
            if type(a) is not int or a not in options:
                self.fail(f"pending.picked[{i}]", "must be one of the decision's options", a)
            if picked.count(a) > len(copies[options.index(a)]):
                self.fail("pending.picked", "must not pick a kind more often than its copies", picked)
        slot_type = top.SLOT_TYPES[top.SLOTS.index(slot)]
        if slot_type.startswith("list[") != (need > 0):
            kind = "a list" if need > 0 else "a single value"
            self.fail("pending.slot", f"must be a slot of {kind} (it is {slot_type})", slot)

    def text_fits(self, value: object, prompt: bool = False) -> bool:
        return self.quick.text(value, self.players, prompt)

    def stored_text(self, field: str, value: object, prompt: bool = False) -> None:
        """One of the rules' texts as the engine stores it: [its index, the values of its holes]
        (a prompt is never a private text)."""
        if self.text_fits(value, prompt):
            return
        items = self.items(field, value)
        texts = self.info.texts
        if not items:
            self.fail(field, "must be a list of a text's index and its values", value)
        index = self.integer(f"{field}[0]", items[0], 0, len(texts) - 1)
        t = texts[index]
        if prompt and t.private:
            self.fail(f"{field}[0]", "must be a text of a prompt, not of a private log line", index)
        self.items(field, items, 1 + len(t.kinds))
        for i, (v, vtype) in enumerate(zip(items[1:], t.kinds, strict=True), 1):
            self.expect(f"{field}[{i}]", v, vtype)
        if t.private and not 0 <= items[1] < self.players:
            self.fail(
                f"{field}[1]", f"must be the player who sees the line, from 0 to {self.players - 1}", items[1]
            )

    def log(self, value: object) -> None:
        """The lines of the log: the usual ones are tested quickly, any other is checked item by
        item, so the first wrong one is named."""
        players = self.players
        quick = self.info.saved_lines if self.integer_log else None
        if quick is None:
            quick = self.quick.lines
        lines = self.items("log", value)
        known = min(self.known_lines, len(lines) - 1)  # the last line is always checked
        i = quick(lines, max(0, known), players)
        while i < len(lines):
            line = lines[i]
            self.log_line(f"log[{i}]", line)
            if line[0] == GAME_OVER:
                self.ends.append(i)
            i = quick(lines, i + 1, players)

    def outcome(self, over: bool, winner: int, log: list[Any]) -> None:
        """The game-over line is the last line of a game that is over, and names its winner; a
        game with results has one (its returns are there)."""
        for i in self.ends:
            if not over or i != len(log) - 1:
                self.fail(
                    f"log[{i}]", "is a game-over line: it can only be the last line of a game that is over"
                )
        if over and self.ends and log[-1][1] != winner:
            self.fail("winner", f"must be the winner the game-over line names ({log[-1][1]})", winner)
        if over and not self.ends and self.info.returns is not None:
            self.fail("log", "must end with the game-over line once the game is over (it holds the returns)")

    def log_line(self, field: str, value: object) -> None:
        """A line of the log: a text of the rules, or one of the engine's own (runtime/engine.py)."""
        line = self.items(field, value)
        lowest = REVEALED if self.info.simultaneous else GAME_OVER  # (the lines of simultaneous choices)
        code = self.integer(f"{field}[0]", line[0] if line else None, lowest, len(self.info.texts) - 1)
        if code >= 0:
            self.stored_text(field, line)
        elif code == CHOSE or code == CHOSE_SECRETLY:
            _, player, action, prompt = self.items(field, line, 4)
            self.integer(f"{field}[1]", player, 0, self.players - 1)
            self.integer(f"{field}[2]", action, 0, self.info.num_distinct_actions - 1)
            self.stored_text(f"{field}[3]", prompt, prompt=True)
        elif code == ROLLED:
            _, value, faces = self.items(field, line, 3)
            self.integer(f"{field}[2]", faces, 1)
            self.integer(f"{field}[1]", value, 1, faces)
        elif code == HAS_CHOSEN:
            _, player, prompt = self.items(field, line, 3)
            self.integer(f"{field}[1]", player, 0, self.players - 1)
            self.stored_text(f"{field}[2]", prompt, prompt=True)
        elif code == REVEALED:
            _, prompt, players, actions = self.items(field, line, 4)
            self.stored_text(f"{field}[1]", prompt, prompt=True)
            for i, p in enumerate(self.items(f"{field}[2]", players)):
                self.integer(f"{field}[2][{i}]", p, 0, self.players - 1)
            for i, a in enumerate(self.items(f"{field}[3]", actions, len(players))):
                self.integer(f"{field}[3][{i}]", a, 0, self.info.num_distinct_actions - 1)
        else:  # GAME_OVER
            self.game_over_line(field, line)

    def game_over_line(self, field: str, line: list[Any]) -> None:
        """[GAME_OVER, winner or -1, reason], and after a shared win the winners, or in a game with
        results the winners and the returns (runtime/engine.py)."""
        results = self.info.returns is not None
        if results:
            self.items(field, line, 5)
        elif len(line) not in (3, 4):
            self.fail(field, f"must be a list of 3 or 4 items, not {len(line)}")
        winner = self.integer(f"{field}[1]", line[1], -1, len(self.info.player_names) - 1)
        self.text(f"{field}[2]", line[2])
        if len(line) < 4:
            return
        winners = self.items(f"{field}[3]", line[3])
        for j, p in enumerate(winners):
            self.integer(f"{field}[3][{j}]", p, 0, self.players - 1)
        if any(a >= b for a, b in zip(winners, winners[1:], strict=False)):
            self.fail(f"{field}[3]", "must list the winners in increasing order, each once", winners)
        if not results and len(winners) < 2:
            self.fail(f"{field}[3]", "must list two winners or more (a shared win)", winners)
        if winner != (winners[0] if len(winners) == 1 else -1):
            self.fail(f"{field}[1]", "must be the one winner [3] lists, or -1", winner)
        if results:
            for j, v in enumerate(self.items(f"{field}[4]", line[4], self.players)):
                self.integer(f"{field}[4][{j}]", v)

    def modifier(self, field: str, value: object) -> None:
        index, args, until = self.items(field, value, 3)
        params = self.info.modifier_params
        if not params:
            self.fail(field, f"cannot be: {self.info.name} has no modifiers")
        mod = self.integer(f"{field}[0]", index, 0, len(params) - 1)
        self.items(f"{field}[1]", args, len(params[mod]))
        for i, (arg, vtype) in enumerate(zip(args, params[mod], strict=True)):
            self.expect(f"{field}[1][{i}]", arg, vtype)
        self.integer(f"{field}[2]", until, -1, len(self.info.phases) - 1)

    def zones(self, piles: object, cells: object) -> None:
        """Every component in at most one pile, of its own type, and in one when its type is
        always in a zone (GameInfo.placed_types); the occupied cells of the grids, [zone, cell,
        component] by zone and cell, hold components of the zone's pile. (The engine rebuilds its
        where- and position-indexes from these.)"""
        zones = self.info.zones
        sizes = [len(ids) for ids in self.info.type_ids]
        quick = self.quick.piles(piles, self.setup_in_flight)
        if quick and cells == []:
            return
        holder = [[-1] * n for n in sizes]  # the zone each component is in, from the piles
        for zi, pile in enumerate(self.items("piles", piles, len(zones))):
            if quick:
                t = zones[zi].type_index
                for e in pile:
                    holder[t][e] = zi
                continue
            t = zones[zi].type_index
            for k, e in enumerate(self.items(f"piles[{zi}]", pile)):
                if type(e) is not int or not 0 <= e < sizes[t]:
                    self.integer(f"piles[{zi}][{k}]", e, 0, sizes[t] - 1)
                if holder[t][e] >= 0:
                    first, zone = self.zone_name(holder[t][e]), self.zone_name(zi)
                    where = f"in {zone} twice" if first == zone else f"in two zones, {first} and {zone}"
                    raise SavedStateError(
                        f"saved state: 'piles[{zi}][{k}]': {self.component(t, e)} is {where}"
                    )
                holder[t][e] = zi
        for t in () if self.setup_in_flight else self.info.placed_types:
            if -1 in holder[t]:
                e = holder[t].index(-1)
                raise SavedStateError(
                    f"saved state: 'piles': {self.component(t, e)} is in no zone (every "
                    f"{self.info.type_names[t]} is in one once the game has begun)"
                )
        count = self.quick.cell_count
        if quick and self.quick.cells(cells, holder, count):
            return
        placed = [[False] * n for n in sizes]
        previous = (-1, -1)
        for k, entry in enumerate(self.items("cells", cells)):
            field = f"cells[{k}]"
            zi, c, e = self.items(field, entry, 3)
            zi = self.integer(f"{field}[0]", zi, max(0, previous[0]), len(zones) - 1)
            if zones[zi].kind != "grid":
                self.fail(f"{field}[0]", f"must be a grid zone: zone '{zones[zi].name}' is not a grid")
            t = zones[zi].type_index
            self.integer(f"{field}[1]", c, previous[1] + 1 if zi == previous[0] else 0, count - 1)
            self.integer(f"{field}[2]", e, 0, sizes[t] - 1)
            if holder[t][e] != zi:
                self.fail(f"{field}[2]", f"must be a component in piles[{zi}]", e)
            if placed[t][e]:
                self.fail(f"{field}[2]", "is a component on another cell too", e)
            previous, placed[t][e] = (zi, c), True

    def zone_name(self, zi: int) -> str:
        """A zone as the rules write it: `hand[US]` for a player's own."""
        zone = self.info.zones[zi]
        return zone.key(self.info.player_names)

    def component(self, t: int, e: int) -> str:
        return f"{self.info.type_names[t]} '{self.info.type_labels[t][e]}'"

    def variables(self, value: object, options: dict[str, Any]) -> None:
        if (
            type(value) is dict
            and self.quick.variables(value, self.players)
            and all(
                value[name] == self.option_held(name, held) for name, held in options.items() if name in value
            )
        ):
            return
        if type(value) is not dict:
            self.fail("vars", "must be an object", value)
        types = self.info.var_types
        for name in value:
            if name not in types:
                self.fail(f"vars.{name}", f"is not a variable of {self.info.name}")
        for name, (vtype, indices) in types.items():
            if name not in value:
                self.fail(f"vars.{name}", "is missing")
            if name in options and value[name] != self.option_held(name, options[name]):
                self.fail(f"vars.{name}", f"must be the option's value, {shown(options[name])}", value[name])
            problem = self.indexed_problem(value[name], vtype, indices)
            if problem is not None:
                self.fail(f"vars.{name}{problem[0]}", problem[1], problem[2])
        for name, (low, high) in self.info.var_ranges.items():
            self.in_range(f"vars.{name}", value[name], len(types[name][1]), low, high)

    def option_held(self, name: str, value: Any) -> Any:
        """An option's value as the state holds it: an enum's by its index (`options` is checked)."""
        o = next(o for o in self.info.options if o.name == name)
        return o.values.index(value) if o.values else value

    def in_range(self, field: str, value: Any, depth: int, low: int | None, high: int | None) -> None:
        """A bounded int variable's values (nested `depth` lists deep: one per index) within its
        range; they are integers already."""
        if depth:
            for i, item in enumerate(value):
                self.in_range(f"{field}[{i}]", item, depth - 1, low, high)
        elif (low is not None and value < low) or (high is not None and value > high):
            span = f"{'' if low is None else low}..{'' if high is None else high}"
            raise SavedStateError(f"saved state: '{field}' is {value}, outside its range {span}")

    def indexed_problem(self, value: object, vtype: str, indices: tuple[str, ...]) -> Problem | None:
        """A variable indexed by players, components or enum values is nested lists, one item per
        index (a component index has one more: what `none` reads)."""
        if not indices:
            return None if self.fits(vtype)(value) else self.problem(value, vtype)
        first = indices[0]
        size = self.info.index_size(first, self.players)
        if (
            len(indices) == 1
            and type(value) is list
            and len(value) == size
            and all(map(self.fits(vtype), value))
        ):
            return None  # the usual case, tested quickly
        if type(value) is not list or len(value) != size:
            return "", f"must be a list of {size} items (one per {first.removeprefix('entity:')})", value
        for i, item in enumerate(value):
            problem = self.indexed_problem(item, vtype, indices[1:])
            if problem is not None:
                return f"[{i}]{problem[0]}", problem[1], problem[2]
        return None


def text_problem(value: object) -> Problem | None:
    """None for a str that UTF-8 can hold (a lone surrogate cannot be printed or written)."""
    if type(value) is not str:
        return "", "must be a string", value
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "", "holds a lone surrogate (\\ud800 to \\udfff), which no text can hold", ...
    return None
