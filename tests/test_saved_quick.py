"""The quick path of loading a saved state (runtime/saved.py): orjson's reading and the tests of
whole fields at a time. A state they refuse is refused with the message the field-by-field checks
of the strict reading give; a real state passes them (else every load would take the slow way)."""

from __future__ import annotations

import copy
import gc
import json
import math
import random
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

import runtime
from runtime.engine import GAME_OVER, ROLLED, GameState
from runtime.game import Game
from runtime.saved import (
    QuickTests,
    SavedStateCheck,
    SavedStateError,
    integer_log,
    parse_saved_state,
    quick_parse,
    refuse_broken_invariants,
)

GAME = "twilight_struggle"  # the longest log, tables of bounded integers, lasting effects
SEED_GAMES = ("iron_curtain", "twilight_struggle", "guerra_fronteriza", "channel_tunnel")


@cache
def game(name: str = GAME) -> Game:
    return runtime.load_game(name)


@cache
def saved(name: str = GAME, steps: int = 60) -> str:
    """A state some random decisions in, as to_json writes it."""
    rnd = random.Random(1)
    state: GameState = game(name).new_initial_state(1)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rnd.choice(state.legal_actions()))
    return state.to_json()


def compact(d: dict[str, Any]) -> str:
    return json.dumps(d, separators=(",", ":"))


Edit = Callable[[dict[str, Any]], None]
Refused = Callable[[QuickTests, dict[str, Any]], bool]  # the quick test that refuses the edit


def _set(path: str, value: object) -> Edit:
    *head, last = path.split(".")

    def edit(d: dict[str, Any]) -> None:
        target: Any = d
        for key in head:
            target = target[int(key)] if isinstance(target, list) else target[key]
        target[int(last) if isinstance(target, list) else last] = value

    return edit


def _card_twice(d: dict[str, Any]) -> None:
    source = next(p for p in d["piles"] if p)
    next(p for p in d["piles"] if p is not source).append(source[0])


def _card_nowhere(d: dict[str, Any]) -> None:
    next(p for p in d["piles"] if p).pop()


def _roll_too_high(d: dict[str, Any]) -> None:
    roll = next(line for line in d["log"] if line[0] == ROLLED)
    roll[1] = roll[2] + 1


def _lines(q: QuickTests, d: dict[str, Any]) -> bool:
    return q.lines(d["log"], 0, d["num_players"]) < len(d["log"])


def _variables(q: QuickTests, d: dict[str, Any]) -> bool:
    return not q.variables(d["vars"], d["num_players"])


def _piles(q: QuickTests, d: dict[str, Any]) -> bool:
    return not q.piles(d["piles"], False)


def _frames(q: QuickTests, d: dict[str, Any]) -> bool:
    return not all(map(q.frame, d["stack"]))


def _mods(q: QuickTests, d: dict[str, Any]) -> bool:
    return not all(map(q.modifier, d["mods"]))


ACTIONS = 2000  # beyond the game's last action id
CASES: list[tuple[str, Edit, Refused, str]] = [
    ("a choice of no action", _set("log.0.2", ACTIONS), _lines, "'log[0][2]' must be an integer from 0 to"),
    ("a choice by a bool", _set("log.0.1", True), _lines, "'log[0][1]' must be an integer, not true"),
    (
        "a choice by no player",
        _set("log.0.1", 2),
        _lines,
        "'log[0][1]' must be an integer from 0 to 1, not 2",
    ),
    ("a prompt of a float", _set("log.0.3", [135.0]), _lines, "'log[0][3][0]' must be an integer, not 135.0"),
    ("a prompt of no text", _set("log.0.3", [9999]), _lines, "'log[0][3][0]' must be an integer from 0 to"),
    (
        "a prompt that is a private line",
        _set("log.0.3", [73, 0, []]),
        _lines,
        "'log[0][3][0]' must be a text of a prompt, not of a private log line",
    ),
    ("a roll above its die", _roll_too_high, _lines, "must be an integer from 1 to 6, not 7"),
    ("a line of no text", _set("log.1", [9999]), _lines, "'log[1][0]' must be an integer from"),
    ("an empty line", _set("log.1", []), _lines, "'log[1][0]' must be an integer, not null"),
    (
        "a variable out of its range",
        _set("vars.defcon", 6),
        _variables,
        "'vars.defcon' is 6, outside its range 1..5",
    ),
    ("a bool for an int", _set("vars.vp", False), _variables, "'vars.vp' must be an integer, not false"),
    ("a missing variable", lambda d: d["vars"].pop("turn"), _variables, "'vars.turn' is missing"),
    (
        "a bool in a table",
        _set("vars.influence.3.1", True),
        _variables,
        "'vars.influence[3][1]' must be an integer, not true",
    ),
    (
        "a table's row too short",
        _set("vars.influence.3", [0]),
        _variables,
        "'vars.influence[3]' must be a list of 2 items",
    ),
    (
        "a table's value out of its range",
        _set("vars.influence.5.0", 100),
        _variables,
        "'vars.influence[5][0]' is 100, outside its range 0..99",
    ),
    ("a card in two zones", _card_twice, _piles, "is in two zones"),
    ("a card in no zone", _card_nowhere, _piles, "is in no zone"),
    ("a card of no id", _set("piles.0.0", 999), _piles, "'piles[0][0]' must be an integer from 0 to"),
    (
        "a frame's block beyond its last",
        _set("stack.0.1", 10**6),
        _frames,
        "'stack[0][1]' must be an integer from 0",
    ),
    (
        "a frame slot of another type",
        _set("stack.2.2.2", 7),
        _frames,
        "'stack[2].l_owing' must be true or false, not 7",
    ),
    ("a frame of no name", _set("stack.1.0", "Nowhere"), _frames, "'stack[1][0]' must name a frame"),
    (
        "a lasting effect of no modifier",
        _set("mods", [[999, [], -1]]),
        _mods,
        "'mods[0][0]' must be an integer from 0 to",
    ),
]


def _cells(q: QuickTests, d: dict[str, Any]) -> bool:
    if not q.piles(d["piles"], False):
        return True
    holder = [[-1] * len(ids) for ids in q.info.type_ids]
    for zi, pile in enumerate(d["piles"]):
        for e in pile:
            holder[q.info.zones[zi].type_index][e] = zi
    return not q.cells(d["cells"], holder, len(q.info.domain_labels["cell"]))


GRID_GAME = "iron_curtain"  # cards placed on the cells of a grid
GRID_CASES: list[tuple[str, Edit, Refused, str]] = [
    ("cells out of order", lambda d: d["cells"].reverse(), _cells, "'cells[1][1]' must be an integer from"),
    (
        "a cell's card on two cells",
        lambda d: d["cells"].append([d["cells"][-1][0], d["cells"][-1][1] + 1, d["cells"][0][2]]),
        _cells,
        "is a component on another cell too",
    ),
    ("a cell of a pile zone", _set("cells.0.0", 0), _cells, "'cells[0][0]' must be a grid zone"),
    ("a cell off the grid", _set("cells.0.1", 10**6), _cells, "'cells[0][1]' must be an integer from"),
    (
        "a cell's card in another zone",
        lambda d: d["cells"][0].__setitem__(2, next(p for p in d["piles"][: d["cells"][0][0]] if p)[0]),
        _cells,
        "'cells[0][2]' must be a component in piles[",
    ),
]


@pytest.mark.parametrize(
    ("name", "case", "edit", "refused", "message"),
    [(GAME, *c) for c in CASES] + [(GRID_GAME, *c) for c in GRID_CASES],
    ids=[c[0] for c in CASES + GRID_CASES],
)
def test_the_quick_tests_refuse_a_corruption_with_the_strict_message(
    name: str, case: str, edit: Edit, refused: Refused, message: str
) -> None:
    d = json.loads(saved(name))
    edit(d)
    text = compact(d)
    info = game(name).info
    quick = quick_parse(text)
    assert quick is not None  # read by orjson: nothing in it needs the strict reading
    assert refused(QuickTests(info), quick)
    with pytest.raises(SavedStateError) as strict:
        SavedStateCheck(info).check(parse_saved_state(text))
    with pytest.raises(SavedStateError) as fast:
        SavedStateCheck(info).check(quick)
    with pytest.raises(SavedStateError) as loaded:
        game(name).state_from_json(text)
    assert message in str(strict.value)
    assert str(fast.value) == str(strict.value) == str(loaded.value)


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        (
            "a repeated key",
            lambda t: t.replace('"over":false', '"over":false,"over":false'),
            'key "over" appears twice',
        ),
        ("NaN", lambda t: t.replace('"winner":-1', '"winner":NaN'), "saved state: NaN is not a number"),
        ("a lone surrogate", lambda t: t.replace('"reason":""', '"reason":"\\ud800"'), "lone surrogate"),
    ],
)
def test_what_orjson_reads_otherwise_is_read_the_strict_way(
    name: str, text: Callable[[str], str], message: str
) -> None:
    t = text(saved())
    assert t != saved()
    assert quick_parse(t) is None
    with pytest.raises(SavedStateError, match=message.replace("(", r"\(")):
        game().state_from_json(t)


def test_an_integer_beyond_64_bits_is_read_as_that_integer() -> None:
    """orjson reads it as a float, which the checks refuse: the strict reading then loads it."""
    d = json.loads(saved())
    d["seed"] = 2**70
    text = compact(d)
    assert type(quick_parse(text)["seed"]) is float  # type: ignore[index]
    state = game().state_from_json(text)
    assert state.seed == 2**70 and state.to_json() == text


def test_a_pick_of_a_pending_decision_is_an_action_id_not_a_number_equal_to_one() -> None:
    state = game().new_initial_state(3)
    rnd = random.Random(3)
    while state.pending is None or state.pending.need < 2:
        state.apply_action(rnd.choice(state.legal_actions()))
    for wrong in (float(state.pending.options[0]), True):
        d = json.loads(state.to_json())
        d["pending"][6] = [wrong]
        with pytest.raises(
            SavedStateError, match=r"'pending.picked\[0\]' must be one of the decision's options"
        ):
            game().state_from_json(compact(d))


def test_quick_parse_takes_only_the_objects_of_a_saved_state() -> None:
    assert quick_parse('{"vars":{"a":1},"options":{}}') == {"vars": {"a": 1}, "options": {}}
    assert quick_parse('{"a":"b:c"}') == {"a": "b:c"}  # a ':' inside a string
    assert quick_parse('{"a":1,"a":2}') is None  # a repeated key
    assert quick_parse('{"log":[{"a":1}]}') == {"log": [{"a": 1}]}  # an object where a state has none
    assert quick_parse("[1]") is None and quick_parse("{oops") is None


@pytest.mark.parametrize(
    "text",
    [
        '{"a":"b:c","a":"d"}',
        '{"a":"::","a":":"}',
        '{"a":{"b":1,"b":2},"c":":"}',
        '{"log":[{"a":1,"a":1}],"b":"x:y"}',
        '{"a":"\\u003a","a":"::"}',  # an escaped ':' where a repeated key's ':' was
        '{"a":"\\u003A:","a":":::"}',
        '{"k:":1,"k:":2}',
    ],
)
def test_a_repeated_key_is_never_taken_by_the_quick_reading(text: str) -> None:
    assert quick_parse(text) is None
    with pytest.raises(SavedStateError, match="appears twice in one object"):
        parse_saved_state(text)


def test_a_colon_inside_a_string_is_read_quickly() -> None:
    assert quick_parse('{"a":"\\u003a","b":"c:d","e":[{"f:":1}]}') == {"a": ":", "b": "c:d", "e": [{"f:": 1}]}
    assert quick_parse('{"a":"\\\\u003a:"}') is None  # a backslash, then u003a: read the strict way
    assert quick_parse('{"a":' + "[" * 300 + '"b:c"' + "]" * 300 + "}") is None  # deeper than orjson writes


@pytest.mark.parametrize("name", SEED_GAMES)
def test_a_real_state_passes_every_quick_test(name: str) -> None:
    if name not in runtime.available_games():
        pytest.skip(f"{name} is not compiled")
    text = saved(name, 40)
    d = quick_parse(text)
    assert d is not None
    assert json.dumps(d, sort_keys=True) == json.dumps(json.loads(text), sort_keys=True)
    q, players = QuickTests(game(name).info), d["num_players"]
    assert q.lines(d["log"], 0, players) == len(d["log"])
    assert q.variables(d["vars"], players)
    assert q.piles(d["piles"], False)
    assert all(map(q.frame, d["stack"])) and all(map(q.modifier, d["mods"]))
    info = game(name).info  # and the engine's own tests (compiler/lower/saved.py)
    assert integer_log(text) and info.saved_lines is not None and info.saved_variables is not None
    assert info.saved_lines(d["log"], 0, players) == len(d["log"]) and info.saved_variables(
        d["vars"], players
    )
    assert all(info.saved_frames[frame](values) for frame, _, values in d["stack"])
    assert game(name).state_from_json(text).to_json() == text
    again = copy.deepcopy(d)
    SavedStateCheck(game(name).info).check(again)
    assert again == d


class _NoQuickTests(QuickTests):
    """The quick tests of whole fields all saying no: every field checked item by item."""

    def lines(self, lines: list[Any], start: int, players: int) -> int:
        return start

    def variables(self, value: dict[str, Any], players: int) -> bool:
        return False

    def piles(self, piles: object, setup_in_flight: bool) -> bool:
        return False

    def cells(self, cells: object, holder: list[list[int]], count: int) -> bool:
        return False

    def frame(self, entry: object) -> None:
        return None

    def modifier(self, value: object) -> bool:
        return False


def _leaves(value: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """The paths of the numbers, bools and strings inside a parsed state."""
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _leaves(v, (*path, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _leaves(v, (*path, i))]
    return [path]


def _outcome(load: Callable[[str], GameState], text: str) -> str:
    try:
        return "loads: " + load(text).to_json()
    except SavedStateError as exc:
        return f"refused: {exc}"


@pytest.mark.parametrize(("name", "count"), [(GAME, 120), ("iron_curtain", 60)])
def test_a_changed_value_loads_or_is_refused_as_the_item_by_item_checks_say(name: str, count: int) -> None:
    """Values of a real state changed at random: each loads, or is refused with the same message,
    whether the quick tests run or every field is checked item by item on the strict parse."""
    g = game(name)
    info = g.info

    def strict(text: str) -> GameState:
        data = parse_saved_state(text)
        check = SavedStateCheck(info)
        check.quick = _NoQuickTests(info)
        check.check(data)
        state = g.state_cls._restore(data)
        refuse_broken_invariants(state)
        return state

    base = json.loads(saved(name))
    paths = _leaves(base)
    rnd = random.Random(7)
    for _ in range(count):
        d = copy.deepcopy(base)
        *head, last = rnd.choice(paths)
        target: Any = d
        for key in head:
            target = target[key]
        old = target[last]
        choices: list[object] = [-1, 0, 1, True, None, "x", 1.5, [], 2**70]
        if type(old) is int:
            choices += [old + 1, old - 1]
        target[last] = rnd.choice(choices)
        text = compact(d)
        assert _outcome(g.state_from_json, text) == _outcome(strict, text), (head, last, target[last])


def test_a_game_over_is_read_quickly_and_its_last_line_checked_item_by_item() -> None:
    state = game().new_initial_state(5)
    rnd = random.Random(5)
    while not state.is_terminal():
        state.apply_action(rnd.choice(state.legal_actions()))
    text = state.to_json()
    d = json.loads(text)
    assert d["log"][-1][0] == GAME_OVER
    assert ":" in d["reason"] and quick_parse(text) is not None  # (a ':' in a string: read quickly too)
    assert game().state_from_json(text).to_json() == text
    d["log"][-1][1] = 7
    with pytest.raises(SavedStateError, match=r"'log\[\d+\]\[1\]' must be an integer from -1 to 1, not 7"):
        game().state_from_json(compact(d))


def test_a_load_leaves_the_garbage_collector_as_it_found_it() -> None:
    """It waits while a state loads (runtime/saved.py load_state), and is back on after a load,
    refused or not; off, it stays off."""
    text = saved("iron_curtain", 10)
    g = game("iron_curtain")
    for collecting in (True, False):
        gc.enable() if collecting else gc.disable()
        try:
            g.state_from_json(text)
            with pytest.raises(SavedStateError):
                g.state_from_json(text.replace('"over":false', '"over":3'))
            assert gc.isenabled() == collecting
        finally:
            gc.enable()


# -- the engine's own tests of a log of integers (compiler/lower/saved.py, GameInfo.saved_lines) --


def _saved_lines(q: QuickTests, d: dict[str, Any]) -> bool:
    saved_lines = q.info.saved_lines
    assert saved_lines is not None
    return saved_lines(d["log"], 0, d["num_players"]) < len(d["log"])


@pytest.mark.parametrize(
    ("case", "edit", "message"),
    [(c[0], c[1], c[3]) for c in CASES if c[2] is _lines]
    + [
        (
            "a roll of a float's size",
            _set("log.0", [ROLLED, 2**64, 2**64 - 1]),
            "'log[0][1]' must be an integer",
        ),
        (
            "a text value beyond 64 bits",
            _set("log.0.3", [135, 2**70]),
            "'log[0][3]' must be a list of 1 item",
        ),
        ("a choice of a list", _set("log.0.2", [1]), "'log[0][2]' must be an integer, not [1]"),
        ("a prompt of a number", _set("log.0.3", 135), "'log[0][3]' must be a list, not 135"),
        ("a prompt of a list", _set("log.0.3", [[135]]), "'log[0][3][0]' must be an integer, not [135]"),
        ("a line of a number", _set("log.1", 4), "'log[1]' must be a list, not 4"),
        ("a line of a negative code", _set("log.1", [-9, 1]), "'log[1][0]' must be an integer from -4"),
    ],
    ids=lambda x: x if isinstance(x, str) and not x.startswith("'") else "",
)
def test_the_engines_tests_of_a_log_of_integers_refuse_with_the_strict_message(
    case: str, edit: Edit, message: str
) -> None:
    d = json.loads(saved())
    edit(d)
    text = compact(d)
    quick = quick_parse(text)
    info = game().info
    if integer_log(text):  # (a bool or a float in it: the runtime's tables test it)
        assert quick is not None and _saved_lines(QuickTests(info), quick)
    with pytest.raises(SavedStateError) as strict:
        SavedStateCheck(info).check(parse_saved_state(text))
    with pytest.raises(SavedStateError) as loaded:
        game().state_from_json(text)
    assert message in str(strict.value)
    assert str(loaded.value) == str(strict.value)


@pytest.mark.parametrize("name", SEED_GAMES)
def test_the_engines_tests_of_each_text_say_what_the_runtimes_tables_say(name: str) -> None:
    """Every text of the rules, its values at the edges of their ranges and beyond, as a log line
    and as a choice's prompt: the engine's tests pass it exactly when QuickTests does."""
    info = game(name).info
    q = QuickTests(info)
    saved_lines = info.saved_lines
    assert saved_lines is not None
    players = 2
    tried = 0
    for index, t in enumerate(info.texts):
        edges: list[list[object]] = []
        for kind in t.kinds:
            span = q.span(kind) if not kind.startswith("list[") else q.span(kind[5:-1])
            if span is None or span[0] == -math.inf:
                values: list[object] = [0, -(2**40), 2**40, [], [0]]
            else:
                low, high = int(span[0]), int(span[1])
                values = [low - 1, low, high, high + 1, []]
            if kind.startswith("list["):
                values = [[v] for v in values if not isinstance(v, list)] + [[], 0]
            edges.append(values)
        lines = [[index, *(e[0] for e in edges)]]
        for k, values in enumerate(edges):  # each value's edges, the others at their first
            for v in values:
                line: list[object] = [index, *(e[1] if len(e) > 1 else e[0] for e in edges)]
                line[k + 1] = v
                lines.append(line)
        lines += [[index], [index, *(e[1] for e in edges), 0]]
        for line in lines:
            tried += 1
            assert (saved_lines([line], 0, players) == 1) == q.line(line, players), (t, line)
            choice = [-1, 0, 0, line]
            assert (saved_lines([choice], 0, players) == 1) == q.lines([choice], 0, players), (t, choice)
    assert tried > 100
    actions = info.num_distinct_actions
    for action, fits in ((actions - 1, True), (actions, False)):  # the actions' count, as the engine's
        choice = [-1, 0, action, next([i] for i, t in enumerate(info.texts) if not t.kinds and not t.private)]
        assert (saved_lines([choice], 0, players) == 1) == fits


def test_a_log_of_integers_is_seen_only_at_the_end_of_the_text() -> None:
    text = saved()
    assert integer_log(text)
    assert integer_log(text[:-1] + " \n}")
    assert not integer_log(text.replace('"log":[[', '"log":[[true,'))  # a bool
    assert not integer_log(text.replace('"log":[[', '"log":[[1.5,'))  # a fraction
    assert not integer_log(text.replace('"log":[[', '"log":[[1e3,'))  # an exponent
    assert not integer_log(text[:-1] + ',"x":1}')  # another key after the log
    assert not integer_log(text[:-1] + "}}")  # the log of an object inside another
    assert not integer_log('{"a":"x,\\"log\\":[1]}')  # inside a string: escaped
    assert not integer_log('{"log":[1],"a":"\\"log\\":[2]}')
    for field in ("vars", "options"):  # a "log" key of an object inside: two '}' after it
        d = json.loads(text)
        del d["log"]
        d[field]["log"] = [[1]]
        assert not integer_log(compact(d))


@pytest.mark.parametrize("name", SEED_GAMES)
def test_the_engines_test_of_the_variables_says_what_the_runtimes_tables_say(name: str) -> None:
    """Each variable of a real state given the edges of its range and values of other kinds, in
    place of itself and of one of its items: the engine's test passes exactly what QuickTests'
    tables pass."""
    info = game(name).info
    compiled = info.saved_variables
    assert compiled is not None
    q = QuickTests(info)
    d = json.loads(saved(name))
    players, base = d["num_players"], d["vars"]
    assert compiled(base, players) and q.tables_fit(base, players)
    tried = refused = 0
    for var, (vtype, _) in info.var_types.items():
        low, high = q.span(vtype, info.var_ranges.get(var)) or (0, 0)
        edges = [v for v in (low, high) if v not in (-math.inf, math.inf)]
        odd: list[object] = [
            True,
            1.0,
            None,
            "x",
            [],
            [0],
            2**70,
            *edges,
            *(e + 1 for e in edges),
            *(e - 1 for e in edges),
        ]
        paths: list[tuple[int, ...]] = [()]
        value = base[var]
        while type(value) is list and value:  # an item at each depth, the last of each
            paths.append((*paths[-1], len(value) - 1))
            value = value[-1]
        for path in paths:
            for v in odd:
                changed = {**base, var: copy.deepcopy(base[var])}
                target: Any = changed
                keys: list[Any] = [var, *path]
                for key in keys[:-1]:
                    target = target[key]
                target[keys[-1]] = v
                tried += 1
                fits = compiled(changed, players)
                refused += not fits
                assert fits == q.tables_fit(changed, players), (var, path, v)
    for extra in ({**base, "x": 1}, {k: v for k, v in base.items() if k != next(iter(base))}):
        assert not compiled(extra, players) and not q.tables_fit(extra, players)
    assert tried > 50 and 0 < refused < tried


def _edge_values(q: QuickTests, kind: str) -> list[object]:
    """Values of `kind` at the edges of its range and beyond it, and values of other kinds."""
    inner = kind[5:-1] if kind.startswith("list[") else kind
    span = q.span(inner)
    if inner == "bool":
        values: list[object] = [True, False, 0, 1]
    elif inner == "str":
        values = ["é", "x", 0]
    elif span is None or span[0] == -math.inf:
        values = [0, -(2**40), 2**40]
    else:
        values = [int(span[0]) - 1, int(span[0]), int(span[1]), int(span[1]) + 1]
    values += [True, 1.0, None, "x", "é", []]
    if kind.startswith("list["):
        values = [[v] for v in values] + [[], 0, [values[1], values[2]]]
    return values


@pytest.mark.parametrize("name", SEED_GAMES)
def test_the_engines_tests_of_each_frames_slots_pass_only_what_the_runtimes_tables_pass(name: str) -> None:
    """Each frame's slots, one at a time at the edges of its kind's range and beyond: the engine's
    test passes what QuickTests' test of each value passes, and refuses only what it refuses or
    leaves to the checks item by item (a string not all ASCII)."""
    info = game(name).info
    q = QuickTests(info)
    tried = 0
    for frame in info.frames.values():
        compiled = info.saved_frames[frame.NAME]
        tests = [q.of(kind) for kind in frame.SLOT_TYPES]
        base = [_edge_values(q, kind)[1] for kind in frame.SLOT_TYPES]  # (each within its range)
        assert all(t(v) for t, v in zip(tests, base, strict=True)) and compiled(base), frame.NAME
        for k, kind in enumerate(frame.SLOT_TYPES):
            for v in _edge_values(q, kind):
                values = [*base[:k], v, *base[k + 1 :]]
                expected = all(t(x) for t, x in zip(tests, values, strict=True))
                tried += 1
                if compiled(values):
                    assert expected, (frame.NAME, k, kind, v)
                else:
                    assert not expected or "é" in json.dumps(v, ensure_ascii=False), (frame.NAME, k, kind, v)
    assert tried > 100


def test_lists_nested_deep_in_a_log_of_integers_are_refused_not_compared() -> None:
    """Two lists nested a thousand deep where a text holds a list of ids: the engine's test does
    not compare them (that would run out of Python's stack), and the strict reading refuses them
    as it always did."""
    d = json.loads(saved())
    private = next(
        i for i, t in enumerate(game().info.texts) if t.private and t.kinds[1:2] == ("list[entity:card]",)
    )
    deep = "[" * 1015 + "1" + "]" * 1015
    text = compact(d)[:-2] + f",[{private},0,[{deep},{deep}]]]}}"
    assert integer_log(text) and quick_parse(text) is not None
    with pytest.raises(SavedStateError, match="nested too deeply to be a saved state"):
        game().state_from_json(text)
