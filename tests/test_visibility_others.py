"""Zones of `visibility: others`: cards held facing the table, seen by every player but their holder.

A small three-player spec, compiled here: each player holds two cards in `hand[p]` (others) and
picks one by its position to lay it on a public table. The holder's observation, board, terminal
view, tensor encoding and determinization treat their own hand as hidden, and the other players'
as seen."""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from compiler.diagnostics import render_all
from compiler.driver import compile_spec
from rulewright.spec_loader import import_package
from runtime.adapters.tensor import Encoder
from runtime.board import scene
from runtime.contract import check_observations, determinize
from runtime.engine import GameState
from runtime.game import Game
from runtime.view import describe

SPEC = """
game: facing
players: {names: [north, east, south]}
types:
  card: {fields: {value: int}}
components:
  card:
    - {id: c1, name: Ace, value: 1}
    - {id: c2, name: Bishop, value: 2}
    - {id: c3, name: Castle, value: 3}
    - {id: c4, name: Dragon, value: 4}
    - {id: c5, name: Eagle, value: 5}
    - {id: c6, name: Falcon, value: 6}
    - {id: c7, name: Griffin, value: 7}
    - {id: c8, name: Heron, value: 8}
zones:
  deck: {of: card, visibility: hidden}
  hand: {of: card, per: player, visibility: others}
  table: {of: card}
setup: |
  for c in card { move c to deck }
  shuffle deck
  for p in players { deal 2 from deck to hand[p] }
phases:
  - name: turns
    repeat: 2
    do: |
      for p in players {
        let i = choose number from 1 to len(hand[p]) by p "position of the card to lay"
        let c = hand[p][i - 1]
        move c to table
        log "{p} lays {c}"
      }
      if len(table) == 6 { end game draw "all laid" }
"""

NORTH, EAST, SOUTH = 0, 1, 2


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    folder = tmp_path_factory.mktemp("others") / "facing"
    folder.mkdir()
    (folder / "game.yaml").write_text(SPEC, encoding="utf-8")
    result = compile_spec(folder)
    assert result.ok, render_all(result.diagnostics)
    return import_package(result.files, "facing_others")


def start(engine: ModuleType, seed: int = 4) -> GameState:
    state: GameState = Game(engine.State, engine.scenarios.SCENARIOS, {}).new_initial_state(seed=seed)
    return state


def pile(state: GameState, name: str, owner: int = -1) -> list[str]:
    info = state.INFO
    (zi,) = [i for i, z in enumerate(info.zones) if z.name == name and z.owner == owner]
    return [info.type_labels[info.zones[zi].type_index][e] for e in state.z.piles[zi]]


def hand(state: GameState, player: int) -> list[str]:
    return pile(state, "hand", player)


def test_the_holder_sees_a_count_and_the_others_the_cards(engine: ModuleType) -> None:
    s = start(engine)
    norths = hand(s, NORTH)
    assert len(norths) == 2
    mine = s.observation(NORTH)["zones"]
    theirs = s.observation(EAST)["zones"]
    assert isinstance(mine, dict) and isinstance(theirs, dict)
    assert mine["hand[north]"] == {"count": 2}
    assert theirs["hand[north]"] == norths
    assert mine["hand[east]"] == hand(s, EAST)
    assert theirs["hand[east]"] == {"count": 2}
    assert mine["deck"] == theirs["deck"] == {"count": 2}


def test_the_holders_view_and_board_show_their_hand_face_down(engine: ModuleType) -> None:
    s = start(engine)
    view = describe(s, NORTH)
    assert "hand[north]: 2 face down" in view
    for label in hand(s, NORTH):
        assert label not in view
    for label in hand(s, EAST):
        assert label in view
    zones = {z.key: z for z in scene(s, NORTH).zones}
    assert zones["hand[north]"].cards is None and zones["hand[north]"].count == 2
    assert zones["hand[south]"].cards is not None
    assert [c.label for c in zones["hand[south]"].cards] == hand(s, SOUTH)
    everything = {z.key: z for z in scene(s).zones}  # no player: the whole state
    assert everything["hand[north]"].cards is not None


def test_the_tensor_encoding_hides_only_the_holders_own_hand(engine: ModuleType) -> None:
    s = start(engine)
    encoder = Encoder(s)
    twin = determinize(s, NORTH, random.Random(3))
    while hand(twin, NORTH) == hand(s, NORTH):  # (a determinization may deal the same hand)
        twin = determinize(s, NORTH, random.Random(random.random()))
    assert np.array_equal(encoder.encode(s, NORTH), encoder.encode(twin, NORTH))
    assert not np.array_equal(encoder.encode(s, EAST), encoder.encode(twin, EAST))


def test_a_determinization_resamples_the_own_hand_and_keeps_the_others(engine: ModuleType) -> None:
    s = start(engine)
    unseen = set(hand(s, NORTH)) | set(pile(s, "deck"))
    deals = set()
    for seed in range(20):
        twin = determinize(s, NORTH, random.Random(seed))
        assert hand(twin, EAST) == hand(s, EAST) and hand(twin, SOUTH) == hand(s, SOUTH)
        assert len(hand(twin, NORTH)) == 2 and set(hand(twin, NORTH)) <= unseen
        deals.add(tuple(hand(twin, NORTH)))
    assert len(deals) > 1, "north's own hand is dealt afresh from what north cannot see"


def test_a_whole_game_keeps_the_observation_contract(engine: ModuleType) -> None:
    s = start(engine, seed=9)
    rnd = random.Random(1)
    while not s.is_terminal():
        check_observations(s, rnd)
        player = s.current_player()
        offered = [s.action_to_string(a) for a in s.legal_actions()]
        assert offered == [str(i) for i in range(1, len(hand(s, player)) + 1)]
        s.apply_action(s.legal_actions()[0])
    assert "all laid" in s.reason


STEER = """
game: steer
players: {names: [north, east, south]}
types:
  card: {fields: {value: int}}
components:
  card:
    - {id: c1, name: Ace, value: 1}
    - {id: c2, name: Bishop, value: 2}
    - {id: c3, name: Castle, value: 3}
zones:
  deck: {of: card, visibility: hidden}
  hand: {of: card, per: player, visibility: others}
  tucked: {of: card, per: player, visibility: others}
setup: |
  for c in card { move c to deck }
  for p in players { deal 1 from deck to hand[p] }
phases:
  - name: main
    do: |
      let p = north
      let yes_please = choose from [true, false] by p "really?"
      if yes_please { MOVE }
      end game draw
"""


@pytest.mark.parametrize(
    ("move", "leaky"),
    [
        # north's hand to its own tucked pile: north sees neither, and learns which card went
        ("move hand[p][0] to tucked[p]", True),
        # north's hand to east's: east saw it in north's hand, north sees it in east's
        ("move hand[p][0] to hand[east]", False),
        # the deck to north's hand: north sees neither
        ("deal 1 from deck to hand[p]", True),
    ],
)
def test_a_choice_steering_cards_between_others_zones(tmp_path: Path, move: str, leaky: bool) -> None:
    folder = tmp_path / "steer"
    folder.mkdir()
    (folder / "game.yaml").write_text(STEER.replace("MOVE", move), encoding="utf-8")
    codes = [d.code for d in compile_spec(folder).diagnostics]
    assert ("leaky-decision" in codes) == leaky, codes
