"""Response windows (`windows:`, `respond W(args)`): tiny specs compiled here, then played.

Who is asked and in what order (`until: first` and `all`), a responder with no options not asked,
`otherwise`, a window opening another one, the window shown in the status, the observation and
`str(state)`, a saved state taken inside a window, a window that opens itself stopped by the
engine's depth guard, and the worked example of docs/dsl.md compiled and played.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import ModuleType

import pytest

from compiler.diagnostics import render_all
from compiler.driver import compile_spec
from rulewright.spec_loader import import_package
from runtime.board import scene
from runtime.engine import GameState
from runtime.errors import RuleError
from runtime.game import Game
from runtime.saved import SavedStateError
from tests.conftest import ROOT

# b holds two dodge cards, c one, a none; c's dodge may be cheered by the two others (until: all)
SHOTS = """
game: shots
players: {names: [a, b, c]}
enums:
  kind: [shot_card, dodge_card]
types:
  card: {fields: {kind: kind}}
components:
  card:
    - {id: s1, kind: shot_card}
    - {id: d1, kind: dodge_card}
    - {id: d2, kind: dodge_card}
    - {id: d3, kind: dodge_card}
zones:
  hand: {of: card, per: player, visibility: owner}
  discard: {of: card}
state:
  life: {type: int, per: player, initial: 3}
windows:
  dodge:
    params: {attacker: player, target: player}
    to: "a shot from {attacker}"
    who: "[target]"
    with: "filter(x in hand[responder] where x.kind == dodge_card)"
    does: |
      move response to discard
      log "{responder} dodges with {response}"
    otherwise: "life[target] -= 1"
    opens: "cheer(responder)"
  cheer:
    params: {p: player}
    to: "the dodge of {p}"
    who: "[q for q in players where q != p]"
    until: all
    does: 'log "{responder} cheers {p}"'
  objection:
    params: {p: player}
    to: "{p}'s turn"
    who: "[q for q in players_from(left_of(p)) where q != p]"
    does: 'log "{responder} objects"'
    otherwise: 'log "nobody objects"'
setup: |
  move d1 to hand[b]
  move d2 to hand[b]
  move d3 to hand[c]
phases:
  - name: main
    do: |
      respond objection(a)
      respond dodge(a, b)
      respond dodge(b, a)
      respond objection(c)
      end game draw
"""

# a window that opens itself while the answer is yes: only the engine's depth guard stops it
ECHO = """
game: echo
players: {names: [a, b]}
windows:
  echo:
    params: {p: player}
    to: "the echo of {p}"
    who: "[opponent(p)]"
    opens: "echo(responder)"
phases:
  - name: main
    do: "respond echo(a); end game draw"
"""


def compile_text(tmp_path: Path, name: str, text: str) -> Game:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    result = compile_spec(folder)
    assert result.ok, render_all(result.diagnostics)
    module: ModuleType = import_package(result.files, f"windows_{name}_{tmp_path.name}")
    return Game(module.State, module.scenarios.SCENARIOS, {})


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Game:
    return compile_text(tmp_path_factory.mktemp("shots"), "shots", SHOTS)


def asked(s: GameState) -> tuple[str, str, list[str]]:
    """Who is asked, the prompt, the options."""
    player = s.INFO.player_names[s.current_player()]
    return player, s.prompt(), [s.action_to_string(a) for a in s.legal_actions()]


def answer(s: GameState, label: str) -> None:
    s.apply_action(s.string_to_action(label))


def test_until_first_asks_in_order_and_closes_at_the_first_response(shots: Game) -> None:
    s = shots.new_initial_state(seed=1)
    # objection(a): b, then c (seat order from a's left); b says no, c yes: closed
    assert asked(s) == ("b", "respond to a's turn?", ["no", "yes"])
    answer(s, "no")
    assert asked(s)[0] == "c"
    answer(s, "yes")
    # the next question is the shot's: nobody else was asked about a's turn
    assert asked(s) == ("b", "respond to a shot from a", ["pass", "d1", "d2"])
    assert "c objects" in s.log() and "nobody objects" not in s.log()


def test_a_response_runs_does_then_the_window_it_opens_asking_everyone(shots: Game) -> None:
    s = shots.new_initial_state(seed=1)
    for label in ("no", "no"):
        answer(s, label)
    assert "nobody objects" in s.log()  # `otherwise`, when the window closed with no response
    answer(s, "d2")
    assert "b dodges with d2" in s.log()
    # cheer(b), until: all: a, then c, each asked whatever the other said
    assert asked(s) == ("a", "respond to the dodge of b?", ["no", "yes"])
    answer(s, "yes")
    assert asked(s) == ("c", "respond to the dodge of b?", ["no", "yes"])
    answer(s, "yes")
    assert s.log()[-4:] == [
        "a chooses yes (respond to the dodge of b?)",
        "a cheers b",
        "c chooses yes (respond to the dodge of b?)",
        "c cheers b",
    ]
    # dodge(b, a): a holds no dodge card, so a is not asked and `otherwise` runs at once;
    # then objection(c) asks a first
    assert asked(s) == ("a", "respond to c's turn?", ["no", "yes"])
    assert json.loads(s.to_json())["vars"]["life"] == [2, 3, 3]


def test_a_pass_is_no_response(shots: Game) -> None:
    s = shots.new_initial_state(seed=1)
    for label in ("no", "no", "pass"):
        answer(s, label)
    assert "b chooses pass (respond to a shot from a)" in s.log()
    assert json.loads(s.to_json())["vars"]["life"] == [2, 2, 3]  # b's shot, then a's


def test_the_window_is_shown_in_the_status_the_observation_and_the_state(shots: Game) -> None:
    s = shots.new_initial_state(seed=1)
    for label in ("no", "no", "d1"):
        answer(s, label)
    waiting = "waiting for a to respond to the dodge of b"
    assert s.window_status() == {"window": "cheer", "responder": "a", "to": "the dodge of b", "text": waiting}
    for p in range(3):  # every player sees whom the game waits on, and what for
        assert s.observation(p)["window"] == s.window_status()
    assert s.observation(0)["decision"] == {"prompt": "respond to the dodge of b?", "legal": ["no", "yes"]}
    assert "decision" not in s.observation(2)
    assert scene(s, 2).status == waiting
    assert str(s).splitlines()[0] == f"shots ({waiting})"


def test_a_decision_outside_a_window_carries_none(shots: Game) -> None:
    s = shots.new_initial_state(seed=1)
    for label in ("no", "no", "pass"):
        answer(s, label)
    answer(s, "no")
    answer(s, "no")
    assert s.is_terminal()
    assert s.window_status() == {} and "window" not in s.observation(0)
    assert "window" not in json.loads(s.to_json())


def test_a_saved_state_inside_a_window_restores_and_is_checked(shots: Game) -> None:
    s = shots.new_initial_state(seed=1)
    for label in ("no", "no", "d1", "yes"):
        answer(s, label)
    text = s.to_json()
    data = json.loads(text)
    assert data["window"] == "cheer"
    t = shots.state_from_json(text)
    assert t.to_json() == text and t.window_status() == s.window_status()
    answer(t, "yes")
    answer(s, "yes")
    assert t.to_json() == s.to_json()
    for bad, words in (("dodger", "must name a response window"), (7, "window")):
        with pytest.raises(SavedStateError, match=words):
            shots.state_from_json(json.dumps({**data, "window": bad}))
    over = json.loads(shots.new_initial_state(seed=1).to_json())
    assert "window" in over  # the first question is a window's
    clone = s.clone()
    assert clone.window_status() == s.window_status()


def test_a_window_that_opens_itself_is_stopped_by_the_depth_guard(tmp_path: Path) -> None:
    game = compile_text(tmp_path, "echo", ECHO)
    s = game.new_initial_state(seed=1)
    with pytest.raises(RuleError, match="nested"):
        for _ in range(1000):
            answer(s, "yes")
    s = game.new_initial_state(seed=1)
    for _ in range(3):
        answer(s, "yes")
    answer(s, "no")
    assert s.is_terminal()


def test_the_worked_example_of_the_language_reference_compiles_and_plays(tmp_path: Path) -> None:
    docs = (ROOT / "docs" / "dsl.md").read_text(encoding="utf-8")
    found = re.search(r"```yaml\n(game: bluff\n.*?)```", docs, re.S)
    assert found is not None
    game = compile_text(tmp_path, "bluff", found.group(1))
    s = game.new_initial_state(seed=3)
    answer(s, "bob")  # ann steals from bob, claiming a thief
    assert asked(s)[:2] == ("bob", "respond to ann's claim to be a thief?")
    answer(s, "no")
    answer(s, "no")
    assert asked(s) == ("bob", "respond to ann stealing from bob", ["pass", "guard"])
    answer(s, "guard")  # bob blocks, claiming a guard: ann, then cat, may challenge that
    assert asked(s)[:2] == ("cat", "respond to bob's claim to be a guard?")
    assert s.window_status()["window"] == "challenge"
    answer(s, "no")
    answer(s, "no")
    assert "ann steals a coin from bob" not in s.log()
    assert asked(s)[:2] == ("bob", "steal from")
    # a decision outside any window carries none
    assert s.window_status() == {} and "window" not in s.observation(1)
    assert "window" not in json.loads(s.to_json())


# `respond W(args)` as a value: who responded (until: first), or the list of them (until: all)
VALUES = """
game: values
players: {names: [a, b, c]}
windows:
  claim:
    params: {p: player}
    to: "{p}'s claim"
    who: "[q for q in players_from(left_of(p)) where q != p]"
  vote:
    params: {p: player}
    to: "{p}'s motion"
    who: "players"
    until: all
phases:
  - name: main
    do: |
      let who = respond claim(a)
      if who == none { log "unchallenged" } else { log "challenged by {who}" }
      let ayes = respond vote(b)
      log "{len(ayes)} in favour"
      if len(respond vote(c)) == 3 { end game winner c }
      end game draw
"""


def test_respond_as_a_value_gives_who_responded(tmp_path: Path) -> None:
    game = compile_text(tmp_path, "values", VALUES)
    s = game.new_initial_state(seed=1)
    for label in ("no", "yes"):  # b passes, c challenges a's claim
        answer(s, label)
    assert "challenged by c" in s.log()
    for label in ("yes", "no", "yes"):
        answer(s, label)
    assert "2 in favour" in s.log()
    for label in ("yes", "yes", "yes"):
        answer(s, label)
    assert s.is_terminal() and s.winners() == [2]
    s = game.new_initial_state(seed=1)
    for label in ("no", "no"):
        answer(s, label)
    assert "unchallenged" in s.log()


SECRET = """
game: secret
players: {names: [a, b]}
types:
  card: {fields: {value: int}}
components:
  card:
    - {id: x, value: 1}
    - {id: y, value: 2}
zones:
  hand: {of: card, per: player, visibility: owner}
  kept: {of: card, per: player, visibility: owner}
windows:
  keep:
    params: {p: player}
    to: "{p}'s offer"
    who: "[opponent(p)]"
    with: "hand[responder]"
    disclosure: secretly
    does: "move response to kept[responder]"
setup: "move [x, y] to hand[b]"
phases:
  - name: main
    do: "respond keep(a); end game draw"
"""


def test_a_secret_window_logs_the_response_to_the_responder_alone(tmp_path: Path) -> None:
    game = compile_text(tmp_path, "secret", SECRET)
    s = game.new_initial_state(seed=1)
    assert asked(s) == ("b", "respond to a's offer", ["pass", "x", "y"])
    answer(s, "y")
    assert any("y" in line.split() for line in s.player_log(1))
    assert not any("chooses y" in line for line in s.player_log(0))


DECLINED = """
game: declined
players: {names: [a, b, c]}
state:
  life: {type: int, per: player, initial: 2}
windows:
  raid:
    params: {p: player}
    to: "{p}'s raid"
    who: "[q for q in players_from(left_of(p)) where q != p]"
    until: all
    does: 'log "{responder} hides"'
    declined: |
      life[responder] -= 1
      log "{responder} is hit ({life[responder]} left)"
phases:
  - name: main
    do: |
      let hidden = respond raid(a)
      log "{len(hidden)} hid"
      end game draw
"""


def test_declined_runs_for_each_responder_who_does_not_respond_before_the_next_is_asked(
    tmp_path: Path,
) -> None:
    game = compile_text(tmp_path, "declined", DECLINED)
    s = game.new_initial_state(seed=1)
    answer(s, "no")  # b declines: hit at once, before c is asked
    assert s.log()[-1] == "b is hit (1 left)"
    answer(s, "yes")
    assert s.log()[-3:] == ["c hides", "1 hid", "Game over: a draw"]


def test_a_break_in_declined_closes_the_window_at_once(tmp_path: Path) -> None:
    spec = DECLINED.replace('log "{responder} is hit ({life[responder]} left)"', "break")
    game = compile_text(tmp_path, "declined_break", spec)
    s = game.new_initial_state(seed=1)
    answer(s, "no")  # b declines and the window closes: c is never asked
    assert s.is_terminal() and "0 hid" in s.log()
