"""Seats and counted modifiers, end to end: the seat builtins (next_player, previous_player,
left_of, right_of, next_in, previous_in, seat_distance, players_from) against a model of the seat
order at every player count, `none` as a rule error naming the builtin, and `count active` /
`cancel one` with stacked modifiers (also through a cached function)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from compiler.diagnostics import render_all
from compiler.driver import compile_spec
from rulewright.spec_loader import import_package
from runtime.engine import RuleError
from runtime.game import Game

SEATS = """
game: seats
players: {names: [north, east, south, west], count: seats}
options:
  seats: {type: int, default: 4, choices: [2, 3, 4]}
  probe: {type: int, default: 0, doc: "1..8: call a seat builtin with none"}
state:
  nxt: {type: player, per: player}
  prev: {type: player, per: player}
  left: {type: player, per: player}
  right: {type: player, per: player}
  dist: {type: int, per: [player, player]}
  next_still_in: {type: player, per: player}
  prev_still_in: {type: player, per: player}
  next_nobody: player
  order: {type: "list[player]", per: player}
  order_in: {type: "list[player]", per: player}
  still_in: "list[player]"
  nobody: player
phases:
  - name: main
    do: |
      still_in = filter(p in players where p != north)
      let none_in: list[player] = []
      for p in players {
        nxt[p] = next_player(p)
        prev[p] = previous_player(p)
        left[p] = left_of(p)
        right[p] = right_of(p)
        next_still_in[p] = next_in(p, still_in)
        prev_still_in[p] = previous_in(p, still_in)
        order[p] = players_from(p)
        order_in[p] = players_from(p, still_in)
        for q in players { dist[p, q] = seat_distance(p, q) }
      }
      next_nobody = next_in(north, none_in)
      if probe == 1 { nobody = next_player(nobody) }
      if probe == 2 { nobody = previous_player(nobody) }
      if probe == 3 { nobody = left_of(nobody) }
      if probe == 4 { nobody = right_of(nobody) }
      if probe == 5 { nobody = next_in(nobody, players) }
      if probe == 6 { nobody = previous_in(nobody, players) }
      if probe == 7 { next_nobody = players_from(nobody)[0] }
      if probe == 8 { dist[north, north] = seat_distance(north, nobody) }
      end game draw
"""

STACKED = """
game: stacked
players: {names: [ann, bob]}
modifiers:
  merchant: {params: {p: player}}
  fog:
state:
  coins: {type: int, per: player}
  counts: "list[int]"
functions:
  bonus:
    params: {p: player}
    returns: int
    cached: true
    body: "count active merchant(p) + 10 * count active fog"
phases:
  - name: main
    do: |
      add merchant(ann) until end of main
      add merchant(bob) until cancelled
      add merchant(ann) until cancelled
      add fog until cancelled
      counts = counts + [bonus(ann), bonus(bob), count active merchant(ann)]
      cancel one merchant(ann)      # the first added goes: the one until the end of main
      counts = counts + [bonus(ann), count active merchant(ann)]
      cancel one fog
      cancel one fog                # nothing left to cancel: nothing happens
      counts = counts + [bonus(ann), count active fog]
      add merchant(ann) until cancelled
      add merchant(ann) until cancelled
      cancel merchant(ann)          # every instance goes
      counts = counts + [bonus(ann), count active merchant(ann), bonus(bob)]
      if active merchant(bob) and not active merchant(ann) { coins[bob] += count active merchant(bob) }
      end game draw
"""


def _compile(tmp_path: Path, name: str, text: str) -> ModuleType:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    result = compile_spec(folder)
    assert result.ok and not result.diagnostics, render_all(result.diagnostics)
    return import_package(result.files, f"{name}_{tmp_path.name}")


@pytest.fixture(scope="module")
def seats(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return _compile(tmp_path_factory.mktemp("seats"), "seats", SEATS)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_seat_builtins_follow_the_order_of_the_names(seats: ModuleType, n: int) -> None:
    s = Game(seats.State, seats.scenarios.SCENARIOS, {"seats": n}).new_initial_state(1)
    assert s.is_terminal()
    players = range(n)
    still_in = [p for p in players if p != 0]
    for p in players:
        assert s.v_nxt[p] == s.v_left[p] == (p + 1) % n
        assert s.v_prev[p] == s.v_right[p] == (p - 1) % n
        clockwise = [(p + k) % n for k in range(n)]
        assert s.v_order[p] == clockwise
        assert s.v_order_in[p] == [q for q in clockwise if q in still_in]
        assert s.v_next_still_in[p] == next(q for q in clockwise[1:] + [p] if q in still_in)
        anticlockwise = [(p - k) % n for k in range(1, n + 1)]
        assert s.v_prev_still_in[p] == next(q for q in anticlockwise if q in still_in)
        for q in players:
            assert s.v_dist[p][q] == (q - p) % n
    assert s.v_next_nobody == -1  # next_in of an empty list: none


def test_seats_by_name(seats: ModuleType) -> None:
    """North, east, south, west: east sits on north's left, west on its right."""
    s = Game(seats.State, seats.scenarios.SCENARIOS, {"seats": 4}).new_initial_state(1)
    north, east, south, west = range(4)
    assert seats.INFO.player_names[:4] == ("north", "east", "south", "west")
    assert (s.v_left[north], s.v_right[north]) == (east, west)
    assert s.v_dist[west][north] == 1 and s.v_dist[north][west] == 3
    assert s.v_next_still_in[west] == east  # north is out
    # with three seated, west has no seat: south's next is north
    three = Game(seats.State, seats.scenarios.SCENARIOS, {"seats": 3}).new_initial_state(1)
    assert three.v_nxt[south] == north and three.v_next_still_in[south] == east


BUILTIN_OF_PROBE = {
    1: "next_player",
    2: "previous_player",
    3: "left_of",
    4: "right_of",
    5: "next_in",
    6: "previous_in",
    7: "players_from",
    8: "seat_distance",
}


@pytest.mark.parametrize("probe", sorted(BUILTIN_OF_PROBE))
def test_none_is_a_rule_error_naming_the_builtin(seats: ModuleType, probe: int) -> None:
    game = Game(seats.State, seats.scenarios.SCENARIOS, {"seats": 3, "probe": probe})
    with pytest.raises(RuleError, match=rf"{BUILTIN_OF_PROBE[probe]}\(\) needs a seated player, got none"):
        game.new_initial_state(1)


def test_stacked_modifiers_are_counted_and_cancelled_one_at_a_time(tmp_path: Path) -> None:
    m = _compile(tmp_path, "stacked", STACKED)
    s = Game(m.State, m.scenarios.SCENARIOS, {}).new_initial_state(1)
    assert s.is_terminal()
    assert s.v_counts == [
        12, 11, 2,  # two merchant(ann), one merchant(bob), one fog
        11, 1,  # cancel one: one merchant(ann) left
        1, 0,  # fog cancelled once; a second `cancel one` does nothing
        0, 0, 1,  # `cancel` takes every instance (and bob keeps his)
    ]  # fmt: skip
    assert s.v_coins == [0, 1]
    # what stays in force: merchant(bob), once
    assert [(m_, a) for m_, a, _ in s.mods] == [(0, (1,))]
    assert s.active_mods == frozenset({(0, 1)})


MERCHANT = """
game: merchant
players: {names: [ann, bob]}
types:
  card: {fields: {effect: {type: effect, params: {p: player}}}}
components:
  card:
    - id: merchant
      effect: |
        actions[p] += 1
        add merchant_played(p) until end of turn
    - id: silver
      effect: |
        coins[p] += 2
        if not active silver_played(p) { coins[p] += count active merchant_played(p) }
        add silver_played(p) until end of turn
modifiers:
  merchant_played: {params: {p: player}, doc: one instance per Merchant played this turn}
  silver_played: {params: {p: player}}
state:
  coins: {type: int, per: player}
  actions: {type: int, per: player}
  after_turn: int
phases:
  - name: turn
    do: |
      do merchant.effect(ann)
      do merchant.effect(ann)
      do silver.effect(ann)
      do silver.effect(ann)
      do silver.effect(bob)
  - name: after
    do: |
      after_turn = count active merchant_played(ann) + count active silver_played(ann)
      end game draw
"""


def test_the_merchant_example_of_the_docs(tmp_path: Path) -> None:
    """docs/dsl.md, section 7, stacking modifiers: two Merchants give +2 on the first Silver only."""
    m = _compile(tmp_path, "merchant", MERCHANT)
    s = Game(m.State, m.scenarios.SCENARIOS, {}).new_initial_state(1)
    assert s.v_coins == [2 + 2 + 2, 2]
    assert s.v_actions == [2, 0]
    assert s.v_after_turn == 0  # every instance expired with the turn
