"""The hostile-input corpus: actions and saved states (tests/hostile/README.md).

Each case hands the engine one wrong thing and names the error it must give instead of a crash,
a traceback from deep inside, or a changed state:

* ACTION_CASES: an action of the wrong type (or an illegal one) given to apply_action: an
  IllegalActionError naming it, and the state byte-identical (its JSON) and equal to a clone
  taken before;
* ENTRY_CASES: a wrong action id, label or player given to the other public entries;
* STATE_CASES: a tampered saved state given to state_from_json: a ValueError naming the field
  (or the spec's range, zone rule or invariant the state breaks).

A Hypothesis property then plays random games of every compiled game, throwing legal, illegal
and ill-typed actions at random points, and checks that only the legal ones change anything.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import runtime
from runtime.engine import GameState, IllegalActionError
from runtime.game import Game, UnknownGameError, load_game
from runtime.saved import MAX_SAVED_STATE_CHARS
from tests.conftest import ROOT

GAME = "iron_curtain"  # the shortest game; it has hidden piles and a grid
GAMES = runtime.available_games()


@cache
def game(name: str = GAME) -> Game:
    return runtime.load_game(name)


def live_state(name: str = GAME, seed: int = 1, steps: int = 6) -> GameState:
    """A game some random decisions in, waiting on a decision."""
    import random

    rnd = random.Random(seed)
    state = game(name).new_initial_state(seed)
    for _ in range(steps):
        state.apply_action(rnd.choice(state.legal_actions()))
    assert not state.is_terminal()
    return state


def finished_state(name: str = GAME) -> GameState:
    state = game(name).new_initial_state(2)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    return state


def unchanged(state: GameState, before: str, twin: GameState) -> None:
    """The state is byte-identical to its JSON before, and equal to a clone taken before."""
    assert state.to_json() == before
    assert twin.to_json() == before
    assert twin.pending == state.pending and twin.history == state.history
    assert all(type(a) is int for a in state.history)


# ---- ill-typed and illegal actions ------------------------------------------------------------

ActionMaker = Callable[[GameState], object]


def _legal(state: GameState) -> int:
    return state.legal_actions()[-1]


def _illegal(state: GameState) -> int:
    return next(a for a in range(game().num_distinct_actions()) if a not in state.legal_actions())


ACTION_CASES: list[tuple[str, ActionMaker, str]] = [
    ("float equal to a legal id", lambda s: float(_legal(s)), "is a float, not an action id"),
    ("True", lambda s: True, "action True is a bool, not an action id"),
    ("False", lambda s: False, "action False is a bool, not an action id"),
    ("numpy bool", lambda s: np.bool_(True), "is a bool, not an action id"),
    ("numpy float", lambda s: np.float64(_legal(s)), "is a float64, not an action id"),
    ("string of a legal id", lambda s: str(_legal(s)), "is a str, not an action id"),
    ("label of a legal action", lambda s: s.action_to_string(_legal(s)), "is a str, not an action id"),
    ("None", lambda s: None, "action None is a NoneType, not an action id"),
    ("list of a legal id", lambda s: [_legal(s)], "is a list, not an action id"),
    ("tuple of a legal id", lambda s: (_legal(s),), "is a tuple, not an action id"),
    ("dict", lambda s: {"action": _legal(s)}, "is a dict, not an action id"),
    ("complex", lambda s: complex(_legal(s), 0), "is a complex, not an action id"),
    ("Decimal", lambda s: Decimal(_legal(s)), "is a Decimal, not an action id"),
    ("Fraction", lambda s: Fraction(_legal(s)), "is a Fraction, not an action id"),
    ("bytes", lambda s: b"\x01", "is a bytes, not an action id"),
    ("a huge string", lambda s: "9" * 1_000_000, "... is a str, not an action id"),
    ("an illegal id", _illegal, "illegal action"),
    ("a negative id", lambda s: -1, "illegal action -1 (<no action -1>)"),
    ("an id past every action", lambda s: 10**30, "(<no action 1000000000000000000000000000000>)"),
    ("numpy int of an illegal id", lambda s: np.int64(_illegal(s)), "illegal action"),
]


@pytest.mark.parametrize(("name", "make", "message"), ACTION_CASES, ids=[c[0] for c in ACTION_CASES])
def test_a_wrong_action_is_refused_and_changes_nothing(name: str, make: ActionMaker, message: str) -> None:
    state = live_state()
    before, twin = state.to_json(), state.clone()
    with pytest.raises(IllegalActionError, match=None) as caught:
        state.apply_action(make(state))  # type: ignore[arg-type]
    assert message in str(caught.value)
    unchanged(state, before, twin)


def test_an_action_after_the_end_is_refused() -> None:
    state = finished_state()
    before, twin = state.to_json(), state.clone()
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_action(0)
    with pytest.raises(IllegalActionError, match="is a float"):
        state.apply_action(0.0)  # type: ignore[arg-type]
    unchanged(state, before, twin)


def test_a_numpy_integer_is_taken_as_a_plain_int() -> None:
    state = live_state()
    twin = state.clone()
    action = _legal(state)
    state.apply_action(np.int64(action))  # type: ignore[arg-type]
    twin.apply_action(action)
    assert type(state.history[-1]) is int
    assert state.to_json() == twin.to_json()  # and the JSON is the same as with a plain int


# ---- the other entries: action ids, labels and players ----------------------------------------

ENTRY_CASES: list[tuple[str, str, object, str]] = [
    (
        "action_to_string",
        "id past every action",
        10**6,
        "no action 1000000: action ids are integers from 0 to",
    ),
    ("action_to_string", "negative id", -1, "no action -1"),
    ("action_to_string", "float", 2.0, "no action 2.0"),
    ("action_to_string", "bool", True, "no action True"),
    ("action_to_string", "string", "3", "no action '3'"),
    ("string_to_action", "int", 3, "an action label is a string, not 3 (int)"),
    ("string_to_action", "None", None, "an action label is a string, not None"),
    ("string_to_action", "bytes", b"pass", "an action label is a string, not b'pass'"),
    ("string_to_action", "unknown label", "castle kingside", "no legal action 'castle kingside'"),
    ("observation", "player 99", 99, "no player 99 in this 2-player game (players are numbered 0 to 1)"),
    ("observation", "player -1", -1, "no player -1 in this 2-player game"),
    ("observation", "bool player", True, "no player True"),
    ("observation", "string player", "0", "no player '0'"),
    ("observation", "float player", 1.0, "no player 1.0"),
    ("observation_string", "player 2", 2, "no player 2"),
    ("player_log", "player 99", 99, "no player 99"),
    ("player_log", "player -4 (the terminal player)", -4, "no player -4"),
    ("player_log", "None", None, "no player None"),
]


@pytest.mark.parametrize(
    ("entry", "name", "argument", "message"), ENTRY_CASES, ids=[f"{c[0]}-{c[1]}" for c in ENTRY_CASES]
)
def test_a_wrong_argument_to_an_entry_is_a_clear_error(
    entry: str, name: str, argument: object, message: str
) -> None:
    state = live_state()
    before, twin = state.to_json(), state.clone()
    with pytest.raises(ValueError) as caught:  # IllegalActionError is a ValueError too
        getattr(state, entry)(argument)
    assert message in str(caught.value)
    unchanged(state, before, twin)


def test_the_entries_take_numpy_integers() -> None:
    state = live_state()
    assert state.observation(np.int64(1)) == state.observation(1)  # type: ignore[arg-type]
    assert state.player_log(np.int32(0)) == state.player_log(0)  # type: ignore[arg-type]
    assert state.action_to_string(np.int16(2)) == state.action_to_string(2)  # type: ignore[arg-type]


# ---- tampered saved states --------------------------------------------------------------------

Tamper = Callable[[dict[str, Any]], object]  # the parsed JSON of a live state -> what is loaded


def edit(change: Callable[[dict[str, Any]], None]) -> Tamper:
    def tamper(d: dict[str, Any]) -> str:
        change(d)
        return json.dumps(d)

    return tamper


def setting(path: str, value: object) -> Tamper:
    """Set one item: `path` is dotted keys and list indices, e.g. 'stack.-1.1'."""

    def change(d: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = d
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return edit(change)


def _private_text(name: str) -> list[object]:
    """A line of a text only one player sees (a `show`), to player 5, its values all 0."""
    i, text = next((i, t) for i, t in enumerate(game(name).info.texts) if t.private)
    return [i, 5, *[0] * (len(text.kinds) - 1)]


def _format_1(d: dict[str, Any]) -> None:
    """The layout of saved states before format 2: no "format", the zones with the engine's
    indexes, the log as text, the history apart."""
    del d["format"]
    d["zones"] = {"piles": d.pop("piles"), "cells": d.pop("cells"), "where": [], "pos": []}
    d["log"], d["history"] = [[-1, "ann chooses ace"]], [7]


def _zone(name: str, zone: str, owner: int = -1) -> int:
    """The index of a zone of a game among a saved state's piles."""
    zones = game(name).info.zones
    return next(i for i, z in enumerate(zones) if z.name == zone and z.owner == owner)


def _top_slot(d: dict[str, Any], type_name: str) -> int:
    """The index of the top frame's first slot of a type."""
    frame = game().info.frames[d["stack"][-1][0]]
    return frame.SLOT_TYPES.index(type_name)


def _enum_slot(d: dict[str, Any]) -> str:
    """The path of the first frame slot holding an enum value."""
    for i, (name, _, _) in enumerate(d["stack"]):
        types = game().info.frames[name].SLOT_TYPES
        for k, vtype in enumerate(types):
            if vtype.startswith("enum:"):
                return f"stack.{i}.2.{k}"
    raise AssertionError("no frame of the state has an enum slot")


def _spare_card(d: dict[str, Any]) -> int:
    """A card on the map: in a pile, with a cell."""
    return int(d["cells"][0][2])


STATE_CASES: list[tuple[str, Tamper, str]] = [
    # the text itself
    ("not JSON", lambda d: "{oops", "saved state: not JSON (Expecting property name"),
    ("JSON that is not an object", lambda d: "[1, 2]", "saved state: must be a JSON object, not [1, 2]"),
    ("bytes", lambda d: json.dumps(d).encode(), "saved state: expected JSON text (a str), not bytes"),
    ("None", lambda d: None, "saved state: expected JSON text (a str), not NoneType"),
    (
        "a 100 MB string",
        lambda d: json.dumps(d | {"reason": "x" * 100_000_000}),
        f"more than the {MAX_SAVED_STATE_CHARS:,} a saved state may have (pass max_chars= to load a larger one)",
    ),
    (
        "NaN",
        lambda d: json.dumps(d).replace('"winner": -1', '"winner": NaN'),
        "saved state: NaN is not a number",
    ),
    (
        "Infinity",
        lambda d: json.dumps(d).replace('"seed": 1', '"seed": Infinity'),
        "Infinity is not a number",
    ),
    (
        "100,000 nested lists",
        lambda d: json.dumps(d).replace('"reason": ""', '"reason": ' + "[" * 100_000 + "]" * 100_000),
        "saved state: nested too deeply",
    ),
    (
        "a repeated key",
        lambda d: json.dumps(d).replace('"over": false', '"over": false, "over": true'),
        'the key "over" appears twice',
    ),
    (
        "an integer of 5,000 digits",
        lambda d: json.dumps(d).replace('"seed": 1', '"seed": ' + "9" * 5000),
        "saved state: not readable JSON (Exceeds the limit",
    ),
    # the fields
    ("an extra field", setting("cheat", True), "saved state: 'cheat' is not a field of a saved state"),
    ("a missing field", edit(lambda d: d.pop("piles")), "saved state: 'piles' is missing"),
    (
        "the format before this one",
        edit(_format_1),
        "saved state: written in format 1 of saved states; this engine reads only format 2",
    ),
    ("a format to come", setting("format", 3), "saved state: written in format 3 of saved states"),
    (
        "a format that is a float",
        setting("format", 2.0),
        "saved state: written in format 2.0 of saved states",
    ),
    ("another game", setting("game", "chess"), "this is a saved \"chess\" game, not 'iron_curtain'"),
    ("another build", setting("digest", "0" * 64), "saved by another build of the rules"),
    ("another rules version", setting("version", "2"), "'version' must be the rules version of this engine"),
    ("a string seed", setting("seed", "1"), "saved state: 'seed' must be an integer, not \"1\""),
    ("a float seed", setting("seed", 1.5), "'seed' must be an integer, not 1.5"),
    ('over: "no"', setting("over", "no"), "saved state: 'over' must be true or false, not \"no\""),
    ("over: 0", setting("over", 0), "'over' must be true or false, not 0"),
    ("99 players", setting("num_players", 99), "'num_players' must be an integer from 1 to 2, not 99"),
    ("a player count that is not the game's", setting("num_players", 1), "'num_players' must be 2, not 1"),
    ("an option the game lacks", setting("options", {"turbo": True}), "'options.turbo' is not an option"),
    ("a winner while not over", setting("winner", 0), "'winner' must be -1 (and 'reason' empty)"),
    ("a winner out of range", setting("winner", 7), "'winner' must be an integer from -1 to 1, not 7"),
    ("a reason that is not text", setting("reason", 5), "'reason' must be a string, not 5"),
    ("rng not a list", setting("rng", {"state": 1}), "'rng' must be a list of 3 or 5 items"),
    ("rng state a string", setting("rng.0", "abc"), "'rng[0]' (the generator's state) must be an integer"),
    (
        "rng state negative",
        setting("rng.0", -1),
        "'rng[0]' (the generator's state) must be an integer from 0",
    ),
    ("rng state past 64 bits", setting("rng.0", 2**64), "must be an integer from 0 to 2**64-1"),
    (
        "a forced roll of 0",
        setting("rng.1", [0]),
        "'rng[1][0]' (forced rolls) must be an integer from 1, not 0",
    ),
    ("empty forced draws written", edit(lambda d: d["rng"].extend([[], []])), "only while one is forced"),
    (
        "a program counter of 9999",
        setting("stack.-1.1", 9999),
        "saved state: 'stack[2][1]' must be an integer from 0 to 6, not 9999",
    ),
    ("a negative program counter", setting("stack.0.1", -1), "'stack[0][1]' must be an integer from 0 to"),
    (
        "a frame name that does not exist",
        setting("stack.1.0", "Nope"),
        "'stack[1][0]' must name a frame of this engine",
    ),
    (
        "a frame that is not a triple",
        setting("stack.1", ["Flow", 0]),
        "'stack[1]' must be a list of 3 items, not 2",
    ),
    (
        "a slot too many",
        edit(lambda d: d["stack"][0][2].append(0)),
        "'stack[0][2]' must be a list of 1 item, not 2",
    ),
    (
        "a string in an int slot",
        edit(lambda d: d["stack"][-1][2].__setitem__(_top_slot(d, "player"), "a,b")),
        "'stack[2].l_p' must be an integer, not \"a,b\"",
    ),
    (
        "a player slot out of range",
        edit(lambda d: d["stack"][-1][2].__setitem__(_top_slot(d, "player"), 7)),
        "'stack[2].l_p' must be an id of player, from -1 to 1, not 7",
    ),
    (
        "an int in a bool slot",
        edit(lambda d: d["stack"][-1][2].__setitem__(_top_slot(d, "bool"), 1)),
        "'stack[2].l_run_it' must be true or false, not 1",
    ),
    ("no frames while not over", setting("stack", []), "'stack' must hold the running frames"),
    ("over with frames left", setting("over", True), "'stack' must be empty once the game is over"),
    (
        "no decision while not over",
        setting("pending", None),
        "'pending' must be the decision the game waits on",
    ),
    (
        "a decision that is not a list",
        setting("pending", "choose"),
        "'pending' must be a list, not \"choose\"",
    ),
    (
        "a decision of 5 items",
        edit(lambda d: d.update(pending=d["pending"][:5])),
        "'pending' must be a list of 9 items",
    ),
    (
        "a decision for player 5",
        setting("pending.0", 5),
        "'pending.player' must be an integer from 0 to 1, not 5",
    ),
    (
        "a decision option out of its domain",
        setting("pending.1", [99999]),
        "'pending.options[0]' must be an action of the domain cell (24 to 1248), not 99999",
    ),
    (
        "a decision with no options",
        setting("pending.1", []),
        "'pending.options' must name at least one action",
    ),
    (
        "a decision repeating an option",
        edit(lambda d: d["pending"][1].append(d["pending"][1][0])),
        "'pending.options' must be ascending, without repeats",
    ),
    (
        "a decision's options out of order",
        edit(lambda d: d["pending"][1].reverse()),
        "'pending.options' must be ascending, without repeats",
    ),
    (
        "a decision prompt that is no text",
        setting("pending.3", [999]),
        "'pending.prompt[0]' must be an integer from 0 to",
    ),
    (
        "a decision into no slot",
        setting("pending.2", "l_nope"),
        "'pending.slot' must be a slot of the top frame",
    ),
    ("a decision of a negative number", setting("pending.5", -1), "'pending.need' must be an integer from 0"),
    (
        "picked while needing none",
        setting("pending.6", [1257]),
        "'pending.picked' must be empty when 'need' is 0",
    ),
    (
        "a decision domain out of range",
        setting("pending.7", 999),
        "'pending.domain' must be an integer from 0 to",
    ),
    ('optional: "yes"', setting("pending.4", "yes"), "'pending.optional' must be true or false"),
    ("a log line that is text", setting("log.0", "hello"), "'log[0]' must be a list, not \"hello\""),
    ("a log line of [str, int]", setting("log.0", ["all", 5]), "'log[0][0]' must be an integer, not \"all\""),
    ("a log line of no text", setting("log.0", [10**6]), "'log[0][0]' must be an integer from -4 to"),
    ("an empty log line", setting("log.0", []), "'log[0][0]' must be an integer, not null"),
    (
        "a choice by player 9",
        setting("log.0", [-1, 9, 1249, [0]]),
        "'log[0][1]' must be an integer from 0 to 1, not 9",
    ),
    (
        "a choice of a string",
        setting("log.0", [-1, 0, "pass", [0]]),
        "'log[0][2]' must be an integer, not \"pass\"",
    ),
    (
        "a choice of a float",
        setting("log.0", [-1, 0, 1250.0, [0]]),
        "'log[0][2]' must be an integer, not 1250.0",
    ),
    (
        "a choice past every action",
        setting("log.0", [-1, 0, 10**6, [0]]),
        "'log[0][2]' must be an integer from 0 to",
    ),
    (
        "a choice without its prompt",
        setting("log.0", [-1, 0, 1249]),
        "'log[0]' must be a list of 4 items, not 3",
    ),
    (
        "a roll of 7 on a d6",
        setting("log.0", [-3, 7, 6]),
        "'log[0][1]' must be an integer from 1 to 6, not 7",
    ),
    (
        "a log line with a lone surrogate",
        setting("log.0", [-4, -1, "\ud800"]),
        "'log[0][2]' holds a lone surrogate (\\ud800 to \\udfff), which no text can hold",
    ),
    ("a text with a value too many", edit(lambda d: d["log"].append([0, *[0] * 30])), "items, not 31"),
    (
        "a modifier in a game without",
        setting("mods", [[0, [], -1]]),
        "'mods[0]' cannot be: iron_curtain has no modifiers",
    ),
    (
        "piles of another zone count",
        edit(lambda d: d["piles"].pop()),
        "'piles' must be a list of 6 items",
    ),
    (
        "a card id out of range",
        edit(lambda d: d["piles"][0].append(99)),
        "must be an integer from 0 to 18, not 99",
    ),
    (
        "a card in two piles",
        edit(lambda d: d["piles"][0].append(_spare_card(d))),
        "saved state: 'piles[5][1]': card 'Chile' is in two zones, deck and map",
    ),
    (
        "a card on a cell of a pile it is not in",
        edit(lambda d: d["cells"].append([5, 1224, d["piles"][0][0]])),
        "'cells[2][2]' must be a component in piles[5]",
    ),
    (
        "a card on two cells",
        edit(lambda d: d["cells"].append([5, 1224, _spare_card(d)])),
        "'cells[2][2]' is a component on another cell too",
    ),
    ("cells out of order", edit(lambda d: d["cells"].reverse()), "'cells[1][1]' must be an integer from"),
    ("a cell off the grid", edit(lambda d: d["cells"].append([5, 10**6, 1])), "must be an integer from"),
    ("a cell of zone -1", setting("cells.0.0", -1), "'cells[0][0]' must be an integer from 0 to 5, not -1"),
    ("a cell not a triple", setting("cells.0", [5, 0]), "'cells[0]' must be a list of 3 items, not 2"),
    (
        "cells in a pile zone",
        edit(lambda d: d["cells"].insert(0, [0, 0, 1])),
        "'cells[0][0]' must be a grid zone: zone 'deck' is not a grid",
    ),
    (
        "a wrongly typed variable",
        setting("vars.ideology", "3"),
        "saved state: 'vars.ideology' must be an integer, not \"3\"",
    ),
    ("a missing variable", edit(lambda d: d["vars"].pop("round")), "'vars.round' is missing"),
    # what the values mean: declared ranges, one zone per component, the spec's invariants
    (
        "a track above its max",
        setting("vars.ideology", 9),
        "saved state: 'vars.ideology' is 9, outside its range -8..8",
    ),
    (
        "a track below its min",
        setting("vars.ideology", -99),
        "saved state: 'vars.ideology' is -99, outside its range -8..8",
    ),
    (
        "an enum value out of range",
        lambda d: setting(_enum_slot(d), 7)(d),
        "saved state: 'stack[2].l_how' must be an id of use, from -1 to 1, not 7",
    ),
    (
        "a card in two players' hands",
        edit(lambda d: d["piles"][2].append(d["piles"][1][0])),
        "saved state: 'piles[2][5]': card 'Italy' is in two zones, hand[US] and hand[USSR]",
    ),
    (
        "a card twice in one pile",
        edit(lambda d: d["piles"][0].append(d["piles"][0][0])),
        "saved state: 'piles[0][8]': card 'Argentina' is in deck twice",
    ),
    (
        "a card in no zone",
        edit(lambda d: d["piles"][0].pop()),
        "saved state: 'piles': card 'Angola' is in no zone (every card is in one once the game has begun)",
    ),
    (
        "a broken invariant",
        setting("vars.reserve.0", 20),
        "saved state: the invariant 'cubes_conserved' does not hold (every cube is on a card, in the "
        "reserve or out of the game)",
    ),
    ("a variable the game lacks", setting("vars.gold", 3), "'vars.gold' is not a variable of iron_curtain"),
    (
        "a per-player variable too short",
        setting("vars.reserve", [24]),
        "'vars.reserve' must be a list of 2 items",
    ),
    (
        "a bool in an int table",
        setting("vars.cubes.0.0", True),
        "'vars.cubes[0][0]' must be an integer, not true",
    ),
    ("an empty skip list", setting("skip", []), "'skip' is written only while a scenario has phases to skip"),
    ("a skip that is not text", setting("skip", [3]), "'skip[0]' must be a string, not 3"),
]


@pytest.mark.parametrize(("name", "tamper", "message"), STATE_CASES, ids=[c[0] for c in STATE_CASES])
def test_a_tampered_state_is_refused_naming_the_field(name: str, tamper: Tamper, message: str) -> None:
    state = live_state()
    before, twin = state.to_json(), state.clone()
    with pytest.raises(ValueError) as caught:
        game().state_from_json(tamper(json.loads(before)))  # type: ignore[arg-type]
    assert message in str(caught.value)
    assert len(str(caught.value)) < 400  # the message never quotes a huge value whole
    unchanged(state, before, twin)


# cases on games with options, entity-valued variables and modifiers
OTHER_STATE_CASES: list[tuple[str, str, Tamper, str]] = [
    (
        "guerra_fronteriza",
        "an option out of its choices",
        setting("options.operation", 9),
        "must be one of [2, 3, 4]",
    ),
    ("guerra_fronteriza", "a missing option", setting("options", {}), "'options.operation' is missing"),
    (
        "guerra_fronteriza",
        "a player count that is not the option's",
        setting("num_players", 3),
        "'num_players' must be the option 'operation' (2), not 3",
    ),
    (
        "guerra_fronteriza",
        "an option variable changed",
        setting("vars.operation", 3),
        "must be the option's value, 2",
    ),
    (
        "guerra_fronteriza",
        "a component variable out of range",
        setting("vars.loc.0", 999),
        "'vars.loc[0]' must be an id of tile, from -1 to",
    ),
    (
        "guerra_fronteriza",
        "a player variable out of range",
        setting("vars.holder.0", 4),
        "'vars.holder[0]' must be an id of player, from -1 to 3, not 4",
    ),
    (
        "guerra_fronteriza",
        "a list of players with a stranger",
        setting("vars.order_of_play", [0, 9]),
        "'vars.order_of_play[1]' must be an id of player",
    ),
    (
        "twilight_struggle",
        "a per-player track above its max",
        setting("vars.milops.1", 6),
        "saved state: 'vars.milops[1]' is 6, outside its range 0..5",
    ),
    (
        "twilight_struggle",
        "a track below its min",
        setting("vars.defcon", 0),
        "saved state: 'vars.defcon' is 0, outside its range 1..5",
    ),
    (
        "twilight_struggle",
        "a card in a hand and the discard",
        edit(
            lambda d: d["piles"][_zone("twilight_struggle", "discard")].append(
                d["piles"][_zone("twilight_struggle", "hand", 0)][0]
            )
        ),
        "card 'Captured Nazi Scientist' is in two zones, hand[US] and discard",
    ),
    (
        "twilight_struggle",
        "a card in no zone",
        edit(lambda d: d["piles"][_zone("twilight_struggle", "hand", 0)].pop()),
        "is in no zone (every card is in one once the game has begun)",
    ),
    (
        "guerra_fronteriza",
        "an order card in no zone",
        edit(lambda d: d["piles"][_zone("guerra_fronteriza", "attack_deck")].pop()),
        "order_card 'Night Attack 1' is in no zone (every order_card is in one once the game has begun)",
    ),
    (
        "guerra_fronteriza",
        "a broken invariant",
        setting("vars.merits.0", -1),
        "saved state: the invariant 'research_within_merits' does not hold (a research pile never holds "
        "more cards than its owner's merits)",
    ),
    (
        "twilight_struggle",
        "a line to player 5",
        edit(lambda d: d["log"].append(_private_text("twilight_struggle"))),
        "must be an id of player, from -1 to 1, not 5",
    ),
    (
        "twilight_struggle",
        "a decision prompt that is a line to one player",
        edit(lambda d: d["pending"].__setitem__(3, _private_text("twilight_struggle")[:1] + [0] * 2)),
        "'pending.prompt[0]' must be a text of a prompt, not of a private log line",
    ),
    (
        "twilight_struggle",
        "a modifier out of range",
        setting("mods", [[999, [0], -1]]),
        "'mods[0][0]' must be an integer",
    ),
    (
        "twilight_struggle",
        "a modifier with too few arguments",
        setting("mods", [[0, [], -1]]),
        "'mods[0][1]' must be a list of 1 item, not 0",
    ),
    (
        "twilight_struggle",
        "a modifier argument of the wrong type",
        setting("mods", [[0, ["USSR"], -1]]),
        "'mods[0][1][0]' must be an integer, not \"USSR\"",
    ),
    (
        "twilight_struggle",
        "a modifier lasting until no phase",
        setting("mods", [[0, [1], 99]]),
        "'mods[0][2]' must be an integer from -1 to",
    ),
]


@pytest.mark.parametrize(
    ("name", "case", "tamper", "message"),
    OTHER_STATE_CASES,
    ids=[f"{c[0]}-{c[1]}" for c in OTHER_STATE_CASES],
)
def test_a_tampered_state_of_another_game_is_refused(
    name: str, case: str, tamper: Tamper, message: str
) -> None:
    if name not in GAMES:
        pytest.skip(f"{name} is not compiled")
    state = live_state(name, seed=3, steps=2)
    before = state.to_json()
    with pytest.raises(ValueError) as caught:
        game(name).state_from_json(tamper(json.loads(before)))  # type: ignore[arg-type]
    assert message in str(caught.value)


def test_rng_checks_hold_under_python_dash_o() -> None:
    """Rng.from_data checks without assert: `python -O` strips asserts."""
    state = live_state()
    d = json.loads(state.to_json())
    d["rng"][0] = "abc"
    code = (
        "import sys, runtime\n"
        "try:\n"
        f"    runtime.load_game({GAME!r}).state_from_json(sys.stdin.read())\n"
        "except ValueError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-O", "-c", code],
        input=json.dumps(d),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
    )
    assert "'rng[0]' (the generator's state) must be an integer" in done.stdout, done.stdout + done.stderr


GAME_NAME_CASES = ["__init__", "../iron_curtain", "iron_curtain.engine", "", "os", 3, None]


@pytest.mark.parametrize("name", GAME_NAME_CASES, ids=[repr(n) for n in GAME_NAME_CASES])
def test_load_game_takes_only_a_compiled_game(name: object) -> None:
    with pytest.raises(UnknownGameError, match="no compiled game"):
        load_game(name)  # type: ignore[arg-type]


CASE_COUNT = (
    len(ACTION_CASES)
    + len(ENTRY_CASES)
    + len(STATE_CASES)
    + len(OTHER_STATE_CASES)
    + 1
    + len(GAME_NAME_CASES)
)


# ---- what loads plays on ----------------------------------------------------------------------


def test_a_state_edited_within_the_rules_loads_plays_on_and_round_trips() -> None:
    state = live_state()
    d = json.loads(state.to_json())
    d["vars"]["ideology"] = 3
    d["reason"] = ""
    text = json.dumps(d, separators=(",", ":"))  # the fields in the order to_json writes them
    loaded = game().state_from_json(text)
    assert loaded.to_json() == text
    assert loaded.legal_actions() == state.legal_actions()
    loaded.apply_action(loaded.legal_actions()[0])
    assert game().state_from_json(loaded.to_json()).to_json() == loaded.to_json()


def test_a_larger_state_loads_when_asked() -> None:
    text = live_state().to_json()
    with pytest.raises(ValueError, match="more than the 100 a saved state may have"):
        game().state_from_json(text, max_chars=100)
    assert game().state_from_json(text, max_chars=len(text)).to_json() == text


def test_new_initial_state_checks_its_arguments() -> None:
    g = game()
    for kwargs, message in [
        ({"seed": "1"}, "seed must be an integer, not '1'"),
        ({"seed": 1.5}, "seed must be an integer, not 1.5"),
        ({"seed": True}, "seed must be an integer, not True"),
        ({"forced_rolls": [0]}, "forced_rolls[0] must be an integer from 1, not 0"),
        ({"forced_rolls": "66"}, "forced_rolls must be a list, not '66'"),
        ({"forced_shuffles": [[1, "x"]]}, "forced_shuffles[0][1] must be an integer from 0"),
        ({"forced_picks": [None]}, "forced_picks[0] must be an integer from 0, not None"),
        ({"skip": "round"}, "skip must be a list, not 'round'"),
        ({"start_at": 3}, "start_at must be a string, not 3"),
        ({"after_setup": "print"}, "after_setup must be a function of the state"),
    ]:
        with pytest.raises(ValueError) as caught:
            g.new_initial_state(**kwargs)
        assert message in str(caught.value), kwargs
    assert g.new_initial_state(np.int64(4)).seed == 4  # type: ignore[arg-type]
    assert type(g.new_initial_state(np.int64(4)).seed) is int  # type: ignore[arg-type]


# ---- the property: only a legal action changes anything ----------------------------------------

ILL_TYPED: list[Callable[[int], object]] = [
    float,
    str,
    lambda a: [a],
    lambda a: None,
    lambda a: bool(a % 2),
    np.float32,
    lambda a: np.bool_(a % 2),
]

step_kinds = st.lists(
    st.tuples(st.sampled_from(["legal", "legal-numpy", "illegal", "ill-typed"]), st.integers(0, 10**6)),
    min_size=5,
    max_size=30,
)


def _played(g: Game, seed: int, ahead: int) -> GameState:
    """A game of `g` from `seed`, `ahead` random decisions in (or over, if it ends before)."""
    import random

    state = g.new_initial_state(seed)
    rnd = random.Random(seed)
    for _ in range(ahead):
        if state.is_terminal():
            break
        state.apply_action(rnd.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=5)
@given(seed=st.integers(0, 2**32), ahead=st.integers(0, 400), steps=step_kinds)
def test_only_legal_actions_change_a_state(
    name: str, seed: int, ahead: int, steps: list[tuple[str, int]]
) -> None:
    """A random game, played `ahead` random decisions in; then legal, illegal and ill-typed actions."""
    g = game(name)
    state = _played(g, seed, ahead)
    n = g.num_distinct_actions()
    for kind, pick in steps:
        if state.is_terminal():
            break
        legal = state.legal_actions()
        if kind.startswith("legal"):
            action = legal[pick % len(legal)]
            state.apply_action(np.int64(action) if kind == "legal-numpy" else action)  # type: ignore[arg-type]
            assert type(state.history[-1]) is int
            continue
        before, twin = state.to_json(), state.clone()
        if kind == "illegal":
            illegal = [a for a in range(n + 1) if a not in legal]  # n itself is past every action
            wrong: object = illegal[pick % len(illegal)]
        else:
            wrong = ILL_TYPED[pick % len(ILL_TYPED)](legal[pick % len(legal)])
        with pytest.raises(IllegalActionError):
            state.apply_action(wrong)  # type: ignore[arg-type]
        unchanged(state, before, twin)
    text = state.to_json()
    assert g.state_from_json(text).to_json() == text


def _leaves(value: object, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """The path to every scalar (and every empty list or object) in a JSON value."""
    if isinstance(value, dict) and value:
        return [p for k, v in value.items() for p in _leaves(v, (*path, k))]
    if isinstance(value, list) and value:
        return [p for i, v in enumerate(value) for p in _leaves(v, (*path, i))]
    return [path]


REPLACEMENTS = st.one_of(
    st.integers(-3, 3),
    st.sampled_from([99, 10**20, 2**64, 1.5, True, False, "", "x", None, [], [0], {}]),
)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=30)
@given(seed=st.integers(0, 2**16), ahead=st.integers(0, 80), where=st.integers(0, 10**6), new=REPLACEMENTS)
def test_a_state_with_one_value_changed_is_refused_or_round_trips(
    name: str, seed: int, ahead: int, where: int, new: object
) -> None:
    """One value of a saved state replaced: either a SavedStateError, or a state whose legal
    actions, observations, clone and JSON work, and whose JSON is the text it was loaded from."""
    from runtime.saved import SavedStateError

    g = game(name)
    d = json.loads(_played(g, seed, ahead).to_json())
    leaves = [p for p in _leaves(d) if p]
    path = leaves[where % len(leaves)]
    target: Any = d
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    text = json.dumps(d, separators=(",", ":"))
    try:
        loaded = g.state_from_json(text)
    except SavedStateError:
        return
    assert loaded.to_json() == text
    assert loaded.clone().to_json() == text
    assert isinstance(loaded.legal_actions(), list) and loaded.current_player() is not None
    for player in range(loaded.num_players):
        loaded.observation_string(player)
