"""Control flow of the language: procedures that give values (`returns:`, `return VALUE`),
`break` and `continue`, and decisions or valued calls anywhere in a statement's expressions."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from runtime.engine import GameState
from runtime.game import Game
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
