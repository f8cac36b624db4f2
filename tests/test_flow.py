"""Control flow of the language: procedures that give values (`returns:`, `return VALUE`),
`break` and `continue`, and decisions or valued calls anywhere in a statement's expressions."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

import rulewright.scenarios
from compiler.diagnostics import Sink, render_all
from compiler.driver import compile_spec
from compiler.hoist import hoist
from compiler.load import load_game
from rulewright.spec_loader import import_package
from runtime.engine import GameState
from runtime.game import Game
from tests.conftest import ROOT
from tests.test_language import compile_inline

HEAD = """
game: probe
players: {names: [red, blue]}
state:
  score: {type: int, per: player}
"""


def start(m: ModuleType, seed: int = 1) -> tuple[Game, GameState]:
    game = Game(m.State, m.scenarios.SCENARIOS, {})
    return game, game.new_initial_state(seed)


def answer(game: Game, s: GameState, *labels: str) -> GameState:
    """Answer each decision, saving and restoring the state (and cloning it) in between."""
    for label in labels:
        s.apply_action(s.string_to_action(label))
        s = game.state_from_json(s.to_json()).clone()
    return s


def said(s: GameState) -> list[str]:
    return [line for line in s.log() if not line.startswith(("red chooses", "blue chooses", "Game over"))]


RETURNS = (
    HEAD
    + """
procedures:
  twice:
    params: {n: int}
    returns: int
    do: "return n * 2"
  pick:
    params: {p: player}
    returns: int
    do: |
      let k = choose number from 1 to 3 by p
      if k == 3 {
        return 30
      }
      return k
  total:
    params: {p: player}
    returns: int
    do: |
      let a = pick(p)
      let b = twice(a)
      score[p] += pick(p)
      pick(p)
      return a + b
phases:
  - name: main
    do: |
      let t = total(red)
      score[blue] = twice(t)
      log "total {t}, red {score[red]}, blue {score[blue]}"
      end game draw
"""
)


def test_procedures_give_values_plain_and_across_decisions(tmp_path: Path) -> None:
    m = compile_inline(tmp_path, RETURNS)
    game, s = start(m)
    s = answer(game, s, "2", "3", "1")
    assert said(s) == ["total 6, red 30, blue 12"]
    assert s.is_terminal()


LOOPS = (
    HEAD
    + """
procedures:
  plain_loops:
    do: |
      let n = 0
      for k in range(0, 9) where k != 3 {
        if k == 1 { continue }
        if k == 6 { break }
        n += k
      }
      repeat 5 { n += 100; break }
      while true { n += 1000; if n > 3000 { break } }
      log "plain {n}"
phases:
  - name: main
    do: |
      plain_loops()
      let seen = 0
      for k in range(0, 9) where k != 2 {
        if k == 1 { continue }
        let go = ask "go on?" by red
        if not go { break }
        seen += k
      }
      let passes = 0
      while true {
        passes += 1
        if passes == 2 { continue }
        let more = ask "more?" by blue
        if not more { break }
      }
      log "seen {seen}, passes {passes}"
      end game draw
"""
)


def test_break_and_continue_in_plain_code_and_in_frames(tmp_path: Path) -> None:
    m = compile_inline(tmp_path, LOOPS)
    game, s = start(m)
    s = answer(game, s, "yes", "yes", "no", "yes", "yes", "no")
    # plain: 0 + 2 + 4 + 5 (k = 1 and 3 skipped, stop at 6), then 100, then 1000s up to 3111
    # frame: k = 0 and 3 counted (1 skipped by continue, 2 by where), then stop at k = 4
    assert said(s) == ["plain 3111", "seen 3, passes 4"]
    assert s.is_terminal()


ANYWHERE = (
    HEAD
    + """
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
procedures:
  gain:
    params: {p: player, n: int}
    do: "score[p] += n"
  best:
    params: {p: player}
    returns: int
    do: 'return 10 * choose number from 1 to 2 by p "tens"'
setup: |
  for x in card { move x to deck }
  deal 2 from deck to hand[red]
phases:
  - name: main
    do: |
      let x = 1 + choose number from 0 to 3 by red "first"
      gain(red, choose number from 1 to 2 by red "second")
      if ask "move?" by red {
        move (choose from hand[red] by red "which") to discard
      } elif ask "double?" by blue {
        score[blue] += best(blue) * 2
      }
      score[blue] += best(blue) + x
      log "x {x}, red {score[red]}, blue {score[blue]}, discard {len(discard)}"
      end game draw
"""
)


def test_decisions_and_valued_calls_anywhere_in_a_statement_run_first_in_order(tmp_path: Path) -> None:
    m = compile_inline(tmp_path, ANYWHERE)
    game, s = start(m)
    s = answer(game, s, "2", "1", "yes", "b", "2")
    assert said(s) == ["x 3, red 1, blue 23, discard 1"]
    game, s = start(m)
    s = answer(game, s, "2", "1", "no", "yes", "1", "2")  # the elif's question comes after the if's
    assert said(s) == ["x 3, red 1, blue 43, discard 0"]
    game, s = start(m)
    s = answer(game, s, "0", "2", "no", "no", "1")
    assert said(s) == ["x 1, red 2, blue 11, discard 0"]


def diagnostics(tmp_path: Path, game_yaml: str) -> list[tuple[str, int]]:
    folder = tmp_path / "spec"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(game_yaml, encoding="utf-8")
    return [(d.code, d.span.line) for d in compile_spec(folder).diagnostics]


def test_a_spec_without_these_forms_is_not_rebuilt() -> None:
    game = load_game(ROOT / "tests" / "specs" / "features", Sink())
    assert game is not None
    assert hoist(game) == (game, {})
    assert hoist(game)[0] is game


def test_a_procedure_whose_value_always_calls_itself_is_endless(tmp_path: Path) -> None:
    found = diagnostics(
        tmp_path,
        HEAD
        + """
procedures:
  deeper:
    params: {n: int}
    returns: int
    do: |
      let m = 1 + deeper(n + 1)
      return m
phases:
  - name: main
    do: "end game draw"
""",
    )
    assert [code for code, _ in found] == ["endless-recursion"]


def test_an_elif_that_asks_is_asked_only_when_the_conditions_before_fail(tmp_path: Path) -> None:
    m = compile_inline(
        tmp_path,
        HEAD
        + """
phases:
  - name: main
    do: |
      if score[red] == 0 {
        log "first"
      } elif ask "never asked?" by red {
        log "second"
      }
      if score[red] == 1 {
        log "not this"
      } elif ask "asked?" by blue {
        log "yes"
      } elif 1 + (choose number from 1 to 2 by red) > 2 {
        log "two"
      } else {
        log "else"
      }
      end game draw
""",
    )
    game, s = start(m)
    assert [s.action_to_string(a) for a in s.legal_actions()] == ["no", "yes"]
    s = answer(game, s, "no", "2")
    assert said(s) == ["first", "two"]


def test_a_scenario_setup_may_use_a_plain_procedures_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "spec"
    (folder / "scenarios").mkdir(parents=True)
    (folder / "game.yaml").write_text(
        HEAD
        + """
procedures:
  twice:
    params: {n: int}
    returns: int
    do: "return n * 2"
phases:
  - name: main
    do: |
      let go = ask "go?" by red
      end game draw
""",
        encoding="utf-8",
    )
    (folder / "scenarios" / "s.yaml").write_text(
        'name: s\nsetup: "score[red] = twice(2) + twice(1)"\nactions: [yes]\nexpect: ["score[red] == 6"]\n',
        encoding="utf-8",
    )
    result = compile_spec(folder)
    assert result.ok, render_all(result.diagnostics)
    m = import_package(result.files, f"inline_{tmp_path.name}")
    monkeypatch.setattr(
        rulewright.scenarios,
        "load_game",
        lambda name, options=None: Game(m.State, m.scenarios.SCENARIOS, options),
    )
    ran = rulewright.scenarios.run_scenario("probe", m.scenarios.SCENARIOS[0])
    assert ran.ok, ran.message


REPLACED = (
    HEAD
    + """
modifiers:
  doubled:
procedures:
  worth:
    params: {n: int}
    returns: int
    instead:
      - if: "active doubled"
        do: |
          cancel doubled
          return worth(n) * 2
    do: |
      return choose number from n to n + 1 by red "worth"
phases:
  - name: main
    do: |
      add doubled until cancelled
      score[red] = worth(3)
      score[blue] = worth(3)
      end game "over"
results: {returns: "score[p]", min: 0, max: 10}
"""
)


def test_a_replacement_of_a_procedure_with_a_value_gives_one_too(tmp_path: Path) -> None:
    game, s = start(compile_inline(tmp_path, REPLACED))
    s = answer(game, s, "4", "3")
    assert s.is_terminal() and s.returns() == [8.0, 3.0]


def test_a_replacement_entry_without_a_value_is_missing_a_return(tmp_path: Path) -> None:
    spec = REPLACED.replace("return worth(n) * 2", 'log "none"')
    folder = tmp_path / "spec"
    folder.mkdir()
    (folder / "game.yaml").write_text(spec, encoding="utf-8")
    result = compile_spec(folder)
    assert [d.code for d in result.diagnostics] == ["missing-return"]


STEPS = (
    HEAD
    + """
phases:
  - name: round
    steps:
      - name: asking
        do: |
          if ask "score?" by red { score[red] += 1 }
          end game draw
"""
)


def test_a_decision_inside_a_condition_of_a_phase_step_is_asked_first(tmp_path: Path) -> None:
    game, s = start(compile_inline(tmp_path, STEPS))
    s = answer(game, s, "yes")
    assert s.is_terminal() and '"score":[1,0]' in s.to_json()


NESTED_IN_A_REPLACEMENT = (
    HEAD
    + """
modifiers:
  boost:
procedures:
  gain:
    params: {p: player}
    instead:
      - if: "active boost"
        do: "score[p] += 1 + (choose number from 1 to 2 by p)"
    do: "score[p] += 1"
phases:
  - name: main
    do: |
      add boost until cancelled
      gain(red)
      end game draw
"""
)


def test_a_decision_nested_in_a_replacement_entry_is_asked_first(tmp_path: Path) -> None:
    game, s = start(compile_inline(tmp_path, NESTED_IN_A_REPLACEMENT))
    s = answer(game, s, "2")
    assert s.is_terminal() and '"score":[3,0]' in s.to_json()
