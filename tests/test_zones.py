"""Zones with indices (`per: [colour, player]`, `per: colour`, `per: site`) and zones as values
(`pile[card]` parameters, locals and results), end to end: the instances and their names, what a
zone value does at run time (reads, moves, `none`, positions), saved states holding one, and the
passes that reason about zones (secrecy, caching). The game is tests/specs/zones (its random
games and scenarios run in tests/test_spec_zoo.py); small specs written here probe the rest.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compiler.diagnostics import render_all
from compiler.driver import compile_spec
from rulewright.spec_loader import load_spec
from runtime.board import scene
from runtime.engine import GameState, RuleError
from runtime.game import Game
from tests.conftest import ROOT

SPEC = ROOT / "tests" / "specs" / "zones"


@pytest.fixture(scope="module")
def game() -> Game:
    return load_spec(SPEC, rules_only=True)


def answer(s: GameState, *labels: str) -> GameState:
    for label in labels:
        s.apply_action(s.string_to_action(label))
    return s


def test_instances_are_laid_out_per_index_tuple_and_named_by_labels(game: Game) -> None:
    info = game.new_initial_state(1).INFO
    keys = [z.key(info.player_names) for z in info.zones]
    assert keys == [
        "deck",
        "hand[Alice]",
        "hand[Bob]",
        "expedition[red,Alice]",
        "expedition[red,Bob]",
        "expedition[blue,Alice]",
        "expedition[blue,Bob]",
        "expedition[green,Alice]",
        "expedition[green,Bob]",
        "discard[red]",
        "discard[blue]",
        "discard[green]",
        "stash[North]",
        "stash[South]",
    ]
    # the owner of an instance is its player index, wherever it stands
    assert [z.owner for z in info.zones if z.name == "expedition"] == [0, 1, 0, 1, 0, 1]
    assert all(z.owner == -1 for z in info.zones if z.name in ("discard", "stash"))


def test_observations_and_the_board_show_every_instance(game: Game) -> None:
    s = answer(game.new_initial_state(3), *_lay_first_card_on_its_expedition(game))
    obs = s.observation(0)
    zones = obs["zones"]
    assert isinstance(zones, dict)
    laid = [k for k, v in zones.items() if k.startswith("expedition[") and v]
    assert len(laid) == 1 and laid[0].endswith(",Alice]")
    assert zones["hand[Bob]"] == {"count": 3}  # an owner zone of the other player: a count
    shown = [z.key for z in scene(s, 0).zones]
    # board.yaml lists `zones: [expedition, discard, hand]`: every instance of each, in that order
    assert shown[:6] == [k for k in zones if k.startswith("expedition[")]
    assert shown[6:9] == ["discard[red]", "discard[blue]", "discard[green]"]
    assert shown[9:] == ["hand[Alice]", "hand[Bob]"]


def _lay_first_card_on_its_expedition(game: Game) -> list[str]:
    s = game.new_initial_state(3)
    return [s.action_to_string(s.legal_actions()[0]), "yes"]


def test_a_zone_value_held_across_a_decision_survives_clone_and_json(game: Game) -> None:
    s = answer(game.new_initial_state(3), *_lay_first_card_on_its_expedition(game))
    # waiting on "draw from the biggest discard?": the frame holds `src`, the deck, as a zone value
    frame = s.stack[-1]
    src = frame.SLOTS.index("l_src")
    assert frame.SLOT_TYPES[src] == "zone"
    data = json.loads(s.to_json())
    assert data["stack"][-1][2][src] == 0  # the deck is zone instance 0
    for twin in (s.clone(), game.state_from_json(s.to_json())):
        answer(twin, "no")
        assert twin.to_json() == answer(s.clone(), "no").to_json()
    for bad in (len(s.INFO.zones), -2, "deck"):
        data["stack"][-1][2][src] = bad
        with pytest.raises(ValueError, match="l_src"):
            game.state_from_json(json.dumps(data))


def compile_inline(tmp_path: Path, rules: str) -> Game:
    folder = tmp_path / "spec"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(BASE + rules, encoding="utf-8")
    result = compile_spec(folder)
    assert result.ok, render_all(result.diagnostics)
    return load_spec(folder, rules_only=True)


def diagnostics(tmp_path: Path, rules: str) -> str:
    folder = tmp_path / "spec"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(BASE + rules, encoding="utf-8")
    return render_all(compile_spec(folder).diagnostics)


BASE = """
game: probe
players: {names: [red, blue]}
enums:
  colour: [light, dark]
types:
  card: {fields: {value: int, colour: colour}}
components:
  card:
    - {id: a, value: 1, colour: light}
    - {id: b, value: 2, colour: dark}
    - {id: c, value: 3, colour: dark}
zones:
  deck: {of: card}
  hand: {of: card, per: player}
  row: {of: card, per: [colour, player]}
"""


def test_reading_writing_and_positions_of_zone_values(tmp_path: Path) -> None:
    g = compile_inline(
        tmp_path,
        """
state:
  n: int
  bottom: card
  second: card
  copied: int
functions:
  first_row:
    params: {p: player}
    returns: "pile[card]"
    body: "row[light, p]"
setup: |
  move [a, b, c] to deck
  let z: pile[card] = first_row(red)
  let copy = deck
  move deck to z
  n = len(z) + (if empty(row[dark, red]) then 10 else 0) + (if b in z then 100 else 0)
  bottom = z[0]
  second = row[light, red][1]
  copied = len(copy) + len(deck)
  let none_zone: pile[card] = none
  if not (a in none_zone) and empty(none_zone) and len(none_zone) == 0 { n += 1000 }
  if z == row[light, red] and z != row[dark, red] and none_zone == none { n += 10000 }
phases:
  - name: main
    do: "end game draw"
""",
    )
    v = game_vars(g)
    assert v["n"] == 3 + 10 + 100 + 1000 + 10000
    labels = g.new_initial_state(1).INFO.type_labels[0]
    assert labels[v["bottom"]] == "a" and labels[v["second"]] == "b"
    assert v["copied"] == 3  # `let copy = deck` copied the deck's 3 cards; the deck is empty now


def game_vars(g: Game) -> dict[str, object]:
    return g.new_initial_state(1)._dump_vars()


@pytest.mark.parametrize(
    ("statement", "error"),
    [
        ("move a to z", "zone 'z' is none"),
        ("shuffle z", "zone 'z' is none"),
        ("let t = top(z)", "zone 'z' is none"),
        ("let t = deck[3]", "position 3 of a zone of 3 component"),
        ("let t = hand[red][0]", "position 0 of a zone of 0 component"),
        ("let t = deck[-1]", "position -1"),
    ],
)
def test_zone_rule_errors_name_the_mistake(tmp_path: Path, statement: str, error: str) -> None:
    g = compile_inline(
        tmp_path,
        f"""
setup: |
  move [a, b, c] to deck
phases:
  - name: main
    do: |
      let z: pile[card] = none
      {statement}
      end game draw
""",
    )
    with pytest.raises(RuleError, match=error):
        g.new_initial_state(1)


def test_a_let_without_a_type_still_copies_a_zone(tmp_path: Path) -> None:
    g = compile_inline(
        tmp_path,
        """
state:
  held: int
setup: |
  move [a, b] to hand[red]
  let h = hand[red]
  move hand[red] to deck
  held = len(h)
phases:
  - name: main
    do: "end game draw"
""",
    )
    assert game_vars(g)["held"] == 2


def test_a_choice_from_a_zone_value_is_hidden_if_a_zone_of_its_type_is(tmp_path: Path) -> None:
    rules = """
procedures:
  pick:
    params: {p: player, z: "pile[card]"}
    do: |
      let x = choose from z by p "card"
      move x to bottom of z
phases:
  - name: main
    do: |
      pick(red, deck)
      end game draw
"""
    assert diagnostics(tmp_path / "public", rules) == ""
    hidden = rules.replace("procedures:", "  secret: {of: card, visibility: hidden}\nprocedures:")
    out = diagnostics(tmp_path / "hidden", hidden)
    assert "[leaky-decision]" in out and "zone 'secret'" in out


def test_a_cached_function_of_a_zone_value_forgets_when_its_zone_changes(tmp_path: Path) -> None:
    g = compile_inline(
        tmp_path,
        """
state:
  before: int
  after: int
functions:
  total:
    params: {z: "pile[card]"}
    returns: int
    cached: true
    body: "sum(x.value for x in z)"
setup: |
  move a to row[dark, blue]
  before = total(row[dark, blue])
  move [b, c] to row[dark, blue]
  after = total(row[dark, blue])
phases:
  - name: main
    do: "end game draw"
""",
    )
    assert game_vars(g) == {"before": 1, "after": 6}


def test_the_worked_example_of_the_docs_compiles_and_plays(tmp_path: Path) -> None:
    """docs/dsl.md, zones: "an expedition per colour per player", in a spec around it."""
    text = (ROOT / "docs" / "dsl.md").read_text(encoding="utf-8")
    start = text.index("**Worked example: an expedition per colour per player.**")
    block = text[text.index("```yaml\n", start) + len("```yaml\n") : text.index("```\n", start + 60)]
    folder = tmp_path / "spec"
    folder.mkdir()
    around = """
game: example
players: {names: [alice, bob]}
types:
  card: {fields: {colour: colour, value: int}}
components:
  card:
    - {id: r1, colour: red, value: 1}
    - {id: r2, colour: red, value: 2}
    - {id: b1, colour: blue, value: 1}
    - {id: g1, colour: green, value: 1}
state:
  score: {type: int, per: player}
setup: |
  for c in card { move c to hand[if c.value == 1 then alice else bob] }
"""
    (folder / "game.yaml").write_text(around + block, encoding="utf-8")
    g = load_spec(folder, rules_only=True)
    s = answer(g.new_initial_state(1), "r1", "r2")
    assert s.is_terminal()
    assert s._dump_vars()["score"] == [1, 2]


def test_a_grid_zone_value_in_a_procedure_that_asks(tmp_path: Path) -> None:
    """A procedure that stops for a decision keeps its zone parameters as frame slots of kind
    `zone`; placing on a `grid[card]` value places on the grid it is."""
    g = compile_inline(
        tmp_path,
        """
  table: {of: card, kind: grid, per: player, radius: 2}
procedures:
  lay:
    params: {p: player, g: "grid[card]", src: "pile[card]"}
    do: |
      let x = choose from src by p "card"
      place x on g at cell(0, len(g))
phases:
  - name: main
    do: |
      move [a, b] to deck
      lay(red, table[red], deck)
      lay(blue, table[blue], deck)
      if len(table[red]) == 1 and len(table[blue]) == 1 and empty(deck) { end game winner red }
      end game draw
""",
    )
    s = g.new_initial_state(1)
    frame = s.stack[-1]
    assert dict(zip(frame.SLOTS, frame.SLOT_TYPES, strict=True))["l_g"] == "zone"
    for twin in (s, s.clone(), g.state_from_json(s.to_json())):
        answer(twin, "a", "b")
        assert twin.returns() == [1.0, -1.0]
        assert twin.observation(0)["zones"]["table[red]"] == {"a": [0, 0]}


def test_an_owner_zone_with_its_player_index_second(tmp_path: Path) -> None:
    """`visibility: owner` on `per: [colour, player]`: the player index is the owner."""
    g = compile_inline(
        tmp_path,
        """
  secret: {of: card, per: [colour, player], visibility: owner}
setup: |
  move a to secret[light, red]
  move b to secret[dark, blue]
phases:
  - name: main
    do: |
      let x = ask "go?" by red
      end game draw
""",
    )
    s = g.new_initial_state(1)
    zones = s.observation(0)["zones"]
    assert isinstance(zones, dict)
    assert zones["secret[light,red]"] == ["a"]
    assert zones["secret[dark,blue]"] == {"count": 1}
    assert [z.owner for z in s.INFO.zones if z.name == "secret"] == [0, 1, 0, 1]
