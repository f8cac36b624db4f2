"""The agents, chiefly `greedy`: one ply ahead on the spec's `evaluation`.

A tiny duel spec (written here, around the `evaluation` example of docs/dsl.md, so the example is
checked too) gives scripted positions: greedy takes a win when there is one, never resigns, and
otherwise takes the move its evaluation likes best. Then: games repeat for a seed, a game without
an evaluation is played exactly as the random agent plays it, and the command line accepts greedy.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulewright.cli import main
from rulewright.spec_loader import load_spec
from runtime.agents import AGENTS, Agent, GreedyAgent, RandomAgent, make_agent
from runtime.engine import GameState
from runtime.game import Game, load_game
from tests.conftest import ROOT


def doc_evaluation() -> str:
    """The `evaluation:` example of docs/dsl.md, section 2."""
    text = (ROOT / "docs" / "dsl.md").read_text(encoding="utf-8")
    section = text.split("### evaluation", 1)[1]
    found = re.search(r"```yaml\n(evaluation: \|\n(?:  .*\n)+)```", section)
    assert found is not None, "docs/dsl.md has no evaluation example"
    return found.group(1)


# A claim wins once the marker is 5 steps toward you (else it does nothing); a push moves the marker
# a step toward you; a cube is one more cube on the map; resigning loses.
DUEL = """
game: duel
players: {names: [usa, ussr]}
enums: {move: [claim, push, cube, wait, resign]}
types: {card: {fields: {value: int}}}
components: {card: [{id: a, value: 1}, {id: b, value: 2}]}
state:
  ideology: {type: int, min: -8, max: 8}
  cubes: {type: int, per: [card, player]}
zones: {map: {of: card, kind: grid, radius: 2}}
procedures:
  turn:
    params: {p: player}
    do: |
      let toward = if p == usa then 1 else -1
      let m = choose from [claim, push, cube, wait, resign] by p "move"
      if m == claim and toward * ideology >= 5 { end game winner p "claimed" }
      if m == push { ideology += toward }
      if m == cube { cubes[a, p] += 1 }
      if m == resign { end game winner opponent(p) "resigned" }
setup: |
  place a on map at cell(0, 0)
  place b on map at cell(1, 0)
phases:
  - name: turns
    repeat: 10
    do: |
      turn(usa)
      turn(ussr)
  - name: end
    do: 'end game draw "out of turns"'
"""


def compile_inline(tmp_path: Path, name: str, game_yaml: str) -> Game:
    """Compile a one-file spec written in a test and wrap its engine as a Game."""
    folder = tmp_path / name
    folder.mkdir()
    (folder / "game.yaml").write_text(game_yaml, encoding="utf-8")
    return load_spec(folder)


@pytest.fixture
def duel(tmp_path: Path) -> Game:
    return compile_inline(tmp_path, "duel", DUEL + doc_evaluation())


def play(state: GameState, *labels: str) -> GameState:
    for label in labels:
        state.apply_action(state.string_to_action(label))
    return state


def pick(agent: Agent, state: GameState) -> str:
    before = state.to_json()
    action = agent.choose(state)
    assert state.to_json() == before, "choosing changed the state"
    return state.action_to_string(action)


def test_the_evaluation_is_published(duel: Game) -> None:
    s = play(duel.new_initial_state(1), "push", "cube", "push")
    evaluate = duel.info.evaluate
    assert evaluate is not None
    # usa: the marker 2 steps its way (10 each), one ussr cube on the map (-1); ussr the opposite
    assert (evaluate(s, 0), evaluate(s, 1)) == (19, -19)


def test_greedy_takes_the_move_its_evaluation_likes_best(duel: Game) -> None:
    s = duel.new_initial_state(1)
    for seed in range(5):
        assert pick(GreedyAgent(seed), s) == "push"  # +10, where a cube is +1 and a claim does nothing


def test_greedy_takes_a_win_when_there_is_one(duel: Game) -> None:
    s = play(duel.new_initial_state(1), *["push", "wait"] * 4)
    assert pick(GreedyAgent(1), s) == "push"  # 4 steps: a claim would not win yet
    play(s, "push", "wait")
    assert pick(GreedyAgent(1), s) == "claim"  # 5 steps: the claim wins, over a push to 6
    # and the other side, 5 steps behind, pushes back rather than resign or claim
    play(s, "wait")
    assert pick(GreedyAgent(1), s) == "push"


def test_greedy_never_takes_a_loss_and_games_repeat_for_a_seed(duel: Game) -> None:
    def game(seed: int) -> GameState:
        s = duel.new_initial_state(seed)
        agents = [GreedyAgent(seed), GreedyAgent(seed + 1)]
        while not s.is_terminal():
            s.apply_action(agents[s.current_player()].choose(s))
        return s

    s = game(3)
    assert s.reason == "out of turns"  # both push every turn: the marker never gets 5 steps away
    assert "resign" not in [s.action_to_string(a) for a in s.history]
    assert game(3).to_json() == s.to_json()


def test_greedy_does_not_see_the_real_dice(tmp_path: Path) -> None:
    """A gamble wins or loses on a die: greedy's clones roll their own, so the game's seed is no tip."""
    gamble = DUEL.replace("resign]", "gamble]").replace(
        'if m == resign { end game winner opponent(p) "resigned" }',
        'if m == gamble { if roll(2) == 1 { end game winner p "lucky" } else { end game winner opponent(p) "unlucky" } }',
    )
    game = compile_inline(tmp_path, "gamble", gamble + doc_evaluation())
    for agent_seed in range(10):
        picks = {pick(GreedyAgent(agent_seed), game.new_initial_state(seed)) for seed in range(20)}
        assert len(picks) == 1, "the choice depends on the game's own dice"
    assert {pick(GreedyAgent(seed), game.new_initial_state(1)) for seed in range(20)} == {"push", "gamble"}


def full_game(game: Game, seed: int, kinds: tuple[str, ...]) -> GameState:
    agents = [make_agent(kinds[p % len(kinds)], seed * 1000 + p) for p in range(game.num_players)]
    s = game.new_initial_state(seed)
    while not s.is_terminal():
        s.apply_action(agents[s.current_player()].choose(s))
    return s


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_greedy_plays_games_with_dice_and_more_players(seats: int, tmp_path: Path) -> None:
    """tests/specs/features has dice (each clone rolls its own) and 2-4 players."""
    game = load_spec(ROOT / "tests" / "specs" / "features", {"seats": seats})
    for seed in range(4):
        first = full_game(game, seed, ("greedy", "random"))
        assert full_game(game, seed, ("greedy", "random")).to_json() == first.to_json()


def test_greedy_is_deterministic_for_a_seed_and_varies_with_it() -> None:
    game = load_game("iron_curtain")
    runs = {seed: full_game(game, seed, ("greedy", "random")).history for seed in (1, 2)}
    assert full_game(game, 1, ("greedy", "random")).history == runs[1]
    assert runs[1] != runs[2]
    # who plays first leaves the evaluation as it was: a tie, broken by the agent's own seed
    s = game.new_initial_state(1)
    assert {s.action_to_string(GreedyAgent(seed).choose(s)) for seed in range(20)} == {"US", "USSR"}


def test_without_an_evaluation_greedy_plays_like_random(tmp_path: Path) -> None:
    game = compile_inline(tmp_path, "tiny", (ROOT / "tests" / "golden" / "tiny" / "game.yaml").read_text())
    assert game.info.evaluate is None
    for seed in range(5):
        greedy, rand = GreedyAgent(seed), RandomAgent(seed)
        s, t = game.new_initial_state(seed), game.new_initial_state(seed)
        while not s.is_terminal():
            s.apply_action(greedy.choose(s))
            t.apply_action(rand.choose(t))
        assert s.to_json() == t.to_json()


def test_greedy_from_the_command_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    assert "greedy" in AGENTS
    assert main(["play", "iron_curtain", "--seed", "3", "--agents", "greedy,random", "--quiet"]) == 0
    assert "Result:" in capsys.readouterr().out
    assert main(["simulate", "iron_curtain", "-n", "4", "--agents", "random,greedy"]) == 0
    out = capsys.readouterr().out
    assert "agents random,greedy" in out and "games/s" in out
