"""Triggers on a component entering or leaving a zone (`on: "c enters hand[p]"`), end to end, on
tiny specs written here: which statements fire them (move, a list or a zone moved whole, deal,
place; never shuffle, nor a move that stays in its instance), the names they bind, that a
scenario's setup and a loaded or cloned state fire nothing, and the depth guard. Then replacement
effects (a procedure's `instead:` entries), which share nothing with them but this file."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

import rulewright.scenarios
from compiler.diagnostics import render_all
from compiler.driver import compile_spec
from rulewright.spec_loader import import_package
from runtime.engine import RuleError
from runtime.game import Game


def compile_inline(tmp_path: Path, game_yaml: str, scenarios: dict[str, str] | None = None) -> ModuleType:
    folder = tmp_path / "spec"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(game_yaml, encoding="utf-8")
    if scenarios:
        (folder / "scenarios").mkdir()
        for name, text in scenarios.items():
            (folder / "scenarios" / f"{name}.yaml").write_text(text, encoding="utf-8")
    result = compile_spec(folder)
    assert result.ok, render_all(result.diagnostics)
    return import_package(result.files, f"zt_{tmp_path.name}")


HEAD = """
game: probe
players: {names: [red, blue]}
enums:
  colour: [green, gold]
types:
  card: {fields: {value: int}}
components:
  card:
    - {id: a, value: 1}
    - {id: b, value: 2}
    - {id: c, value: 3}
zones:
  deck: {of: card}
  hand: {of: card, per: player}
  row: {of: card, per: [colour, player]}
  map: {of: card, kind: grid, radius: 2}
state:
  entered: {type: int, initial: 0}
"""

WATCHING = (
    HEAD
    + """
triggers:
  - name: out_of_deck
    on: "x leaves deck"
    do: 'log "{x} leaves the deck"'
  - name: into_hand
    on: "x enters hand[p]"
    if: "x.value < 3 or p == blue"
    do: |
      entered += 1
      log "{x} enters the hand of {p}"
  - name: out_of_hand
    on: "x leaves hand[p]"
    do: 'log "{x} leaves the hand of {p}"'
  - name: into_row
    on: "x enters row[k, q]"
    do: 'log "{x} enters row {k} of {q}"'
  - name: onto_map
    on: "x enters map"
    do: 'log "{x} on the map"'
setup: |
  for x in card { move x to deck }
  deal 2 from deck to hand[red]
"""
)


def lines(m: ModuleType, seed: int = 1) -> list[str]:
    s = Game(m.State, m.scenarios.SCENARIOS, {}).new_initial_state(seed)
    return [line for line in s.log() if not line.startswith("Game over")]


def test_every_way_of_moving_fires_once_per_component_after_it_arrives(tmp_path: Path) -> None:
    m = compile_inline(
        tmp_path,
        WATCHING
        + """
phases:
  - name: main
    do: |
      log "entered {entered}"
      move c to hand[blue]
      shuffle deck
      move hand[red] to row[gold, blue]
      move [c] to hand[red]
      place a on map at cell(0, 1)
      move b to bottom of row[gold, blue]
      end game draw
""",
    )
    assert lines(m) == [
        # setup: each card into the deck (no trigger on entering it), then a deal of two
        "c leaves the deck",  # c enters red's hand: the `if` (reading the card and the index) is false
        "b leaves the deck",
        "b enters the hand of red",
        "entered 1",
        "c leaves the hand of red",  # a move between two instances of one zone: leaving, then entering
        "c enters the hand of blue",
        # shuffle: nothing enters or leaves; a whole zone moved: each card
        "b leaves the hand of red",
        "b enters row gold of blue",
        "c leaves the hand of blue",  # a list; c enters red's hand, the `if` is false again
        "a leaves the deck",
        "a on the map",
        # b stays in its row: nothing fires
    ]


def test_a_scenario_setup_arranges_the_table_without_firing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario = """
name: arranged
setup: |
  move a to hand[blue]
  move b to row[green, red]
actions: []
expect: ["entered == 1", "a in hand[blue]"]
expect_no_log: ["a leaves the deck", "a enters", "b enters row"]
expect_log: ["c enters the hand of blue"]
"""
    m = compile_inline(
        tmp_path,
        WATCHING.replace("deal 2 from deck to hand[red]", "")
        + """
phases:
  - name: main
    do: |
      move c to hand[blue]
      let go = ask "go?" by red
      end game draw
""",
        {"arranged": scenario},
    )
    game = Game(m.State, m.scenarios.SCENARIOS, {})
    result = rulewright.scenarios.run_scenario("probe", dict(m.scenarios.SCENARIOS[0]), game)
    assert result.ok, result.message


def test_saved_and_cloned_states_fire_nothing_and_go_on_alike(tmp_path: Path) -> None:
    m = compile_inline(
        tmp_path,
        WATCHING
        + """
phases:
  - name: main
    do: |
      let go = ask "go?" by red
      deal 1 from deck to hand[blue]
      end game draw
""",
    )
    game = Game(m.State, m.scenarios.SCENARIOS, {})
    s = game.new_initial_state(1)
    before = s.log()
    restored, clone = game.state_from_json(s.to_json()), s.clone()
    assert restored.log() == clone.log() == before and restored.v_entered == 1  # type: ignore[attr-defined]
    logs = []
    for st in (s, restored, clone):
        st.apply_action(st.string_to_action("yes"))
        logs.append(st.log()[len(before) :])
    assert logs[0] == logs[1] == logs[2]
    assert logs[0][1:3] == ["a leaves the deck", "a enters the hand of blue"]


def test_a_trigger_that_moves_without_end_meets_the_depth_guard(tmp_path: Path) -> None:
    m = compile_inline(
        tmp_path,
        HEAD
        + """
triggers:
  - name: bounce
    on: "x enters hand[p]"
    do: "move x to hand[opponent(p)]"
phases:
  - name: main
    do: |
      move a to hand[red]
      end game draw
""",
    )
    with pytest.raises(RuleError, match="nest calls"):
        Game(m.State, m.scenarios.SCENARIOS, {}).new_initial_state(1)


def test_a_game_without_zone_triggers_moves_plainly(tmp_path: Path) -> None:
    folder = tmp_path / "spec"
    folder.mkdir()
    (folder / "game.yaml").write_text(
        HEAD + "phases:\n  - name: main\n    do: |\n      move a to hand[red]\n      end game draw\n",
        encoding="utf-8",
    )
    result = compile_spec(folder)
    assert result.ok, render_all(result.diagnostics)
    engine = next(text for name, text in result.files.items() if name.endswith("engine.py"))
    assert "_watched" not in engine and "def zw_" not in engine
    assert "s.move(T_card, E_a, (Z_hand + P_red), True)" in engine


def test_only_the_moves_that_may_reach_a_watched_zone_call_the_triggers(tmp_path: Path) -> None:
    folder = tmp_path / "spec"
    folder.mkdir()
    (folder / "game.yaml").write_text(
        HEAD
        + """
procedures:
  to_pile:
    params: {x: card, z: "pile[card]"}
    do: "move x to z"
triggers:
  - name: into_hand
    on: "x enters hand[p]"
    do: "entered += 1"
phases:
  - name: main
    do: |
      move a to deck
      deal 1 from deck to row[green, red]
      move b to hand[red]
      to_pile(c, deck)
      end game draw
""",
        encoding="utf-8",
    )
    result = compile_spec(folder)
    assert result.ok, render_all(result.diagnostics)
    engine = next(text for name, text in result.files.items() if name.endswith("engine.py"))
    assert "s.move(T_card, E_a, Z_deck, True)" in engine  # no trigger on entering the deck, none on leaving
    assert "s.deal(T_card, 1, Z_deck, (Z_row + P_red))" in engine
    assert "s.move_watched(T_card, E_b, (Z_hand + P_red), True, zw_card)" in engine
    assert "s.move_watched(T_card, l_x, s.zone(l_z, " in engine  # a zone value: any zone, so watched


def test_a_trigger_reads_cached_functions_as_the_zones_are_now(tmp_path: Path) -> None:
    m = compile_inline(
        tmp_path,
        HEAD
        + """
functions:
  held:
    params: {p: player}
    returns: int
    cached: true
    body: "len(hand[p])"
triggers:
  - name: count
    on: "x enters hand[p]"
    do: 'log "{p} holds {held(p)}"'
phases:
  - name: main
    do: |
      log "{held(red)} at first"
      move [a, b] to hand[red]
      log "{held(red)} at last"
      end game draw
""",
    )
    assert lines(m) == ["0 at first", "red holds 1", "red holds 2", "2 at last"]


# ---- replacement effects: `instead:` on a procedure -------------------------------------------

REPLACED = """
game: probe
players: {names: [red, blue]}
types:
  card: {fields: {value: int}}
components:
  card:
    - {id: a, value: 1}
    - {id: b, value: 2}
    - {id: c, value: 3}
zones:
  deck: {of: card}
  hand: {of: card, per: player}
  discard: {of: card}
state:
  influence: {type: int, per: player, initial: 5}
modifiers:
  keep_discards: {params: {p: player}}
  shield: {params: {p: player}}
procedures:
  discard_card:
    params: {p: player, c: card}
    instead:
      - if: "active keep_discards(p)"
        doc: instead of discarding, the player may put it on the deck
        do: |
          let keep = ask "put {c} on the deck instead?" by p
          if keep { move c to top of deck } else { move c to discard }
          log "{p} keeps {c}: {keep}"
    do: |
      move c to discard
      log "{p} discards {c}"
  lose_influence:
    params: {p: player, n: int}
    instead:
      - if: "active shield(p)"
        do: |
          cancel one shield(p)
          log "{p} loses nothing this time"
      - if: "n > 3"
        do: "lose_influence(p, 3)"
    do: |
      influence[p] -= n
      log "{p} loses {n}"
setup: |
  move a to hand[red]
  move b to hand[red]
  move c to hand[blue]
"""


def test_the_first_entry_whose_if_holds_replaces_the_body(tmp_path: Path) -> None:
    m = compile_inline(
        tmp_path,
        REPLACED
        + """
phases:
  - name: main
    do: |
      discard_card(red, a)
      add keep_discards(red) until end of game
      discard_card(red, b)
      discard_card(blue, c)
      add shield(blue) until end of game
      add shield(blue) until end of game
      lose_influence(blue, 2)
      lose_influence(blue, 7)
      lose_influence(blue, 7)
      lose_influence(red, 1)
      end game draw
""",
    )
    s = Game(m.State, m.scenarios.SCENARIOS, {}).new_initial_state(1)
    assert s.prompt().startswith("put b on the deck instead?"), s.prompt()  # an entry may ask
    s.apply_action(s.string_to_action("yes"))
    assert [line for line in s.log() if not line.startswith(("red chooses", "Game over"))] == [
        "red discards a",  # no modifier: the procedure's own `do`
        "red keeps b: yes",
        "blue discards c",  # the entry is on red only
        "blue loses nothing this time",  # the first entry cancels one of the two shields
        "blue loses nothing this time",  # and the other: the first entry wins, n > 3 is not looked at
        # no shield left: the call inside the second entry runs the procedure again, with its
        # replacements, and 3 is not > 3
        "blue loses 3",
        "red loses 1",
    ]
    assert list(s.v_influence)[:2] == [4, 2]  # type: ignore[attr-defined]


def test_an_entry_that_stays_true_and_calls_its_procedure_meets_the_depth_guard(tmp_path: Path) -> None:
    m = compile_inline(
        tmp_path,
        REPLACED.replace('if: "n > 3"', 'if: "n >= 3"')
        + """
phases:
  - name: main
    do: |
      lose_influence(red, 4)
      end game draw
""",
    )
    with pytest.raises(RuleError, match="nest calls"):
        Game(m.State, m.scenarios.SCENARIOS, {}).new_initial_state(1)


def test_a_hostile_pattern_is_reported_at_once(tmp_path: Path) -> None:
    folder = tmp_path / "spec"
    folder.mkdir()
    pattern = "c enters hand" + " " * 20000 + "[p" + " " * 20000 + ",!"
    (folder / "game.yaml").write_text(
        HEAD + f'triggers:\n  - name: t\n    on: "{pattern}"\n    do: "entered += 1"\n'
        "phases:\n  - name: main\n    do: end game draw\n",
        encoding="utf-8",
    )
    result = compile_spec(folder)
    assert [str(d.code) for d in result.diagnostics] == ["bad-zone-trigger"]
