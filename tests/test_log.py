"""The log: lines stored as a text's index and values, formatted when read; shared by clones.

A line keeps the values it was logged with (a list is copied), so reading the log later gives
the words the players would have read then; a private line reaches only its player; a clone
shares the log's frozen chunks and plays on without touching the original's; and a state writes
the same JSON whether its log has been written before (its chunks' JSON kept) or not.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import ModuleType

import pytest

import runtime
from compiler.diagnostics import render_all
from compiler.driver import compile_spec
from rulewright.spec_loader import import_package
from runtime.engine import LOG_CHUNK, GameState
from runtime.game import Game

GAMES = runtime.available_games()

SPEC = """\
game: ledger
players: {names: [ann, bob]}
types:
  card: {fields: {value: int}}
components:
  card: [{id: ace, value: 1}, {id: two, value: 2}, {id: three, value: 3}]
zones:
  hand: {of: card, per: player, visibility: owner}
  pile: {of: card}
state:
  kept: "list[card]"
setup: |
  move card to hand[ann]
phases:
  - name: play
    do: |
      kept = hand[ann]
      log "ann holds {hand[ann]}; kept {kept}"
      show hand[ann] to bob
      let c = secretly choose from hand[ann] by ann "a card to give up"
      move c to pile
      kept = []
      log "ann holds {hand[ann]}; kept {kept}; the pile {pile}"
      end game draw "done"
"""


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Game:
    folder = tmp_path_factory.mktemp("ledger")
    (folder / "game.yaml").write_text(SPEC, encoding="utf-8")
    result = compile_spec(Path(folder))
    assert result.ok, render_all(result.diagnostics)
    engine: ModuleType = import_package(result.files, "ledger")
    return Game(engine.State, engine.scenarios.SCENARIOS)


def test_a_line_keeps_the_values_it_was_logged_with(ledger: Game) -> None:
    s = ledger.new_initial_state(1)
    first = s.log()
    assert first == ["ann holds ace, two, three; kept ace, two, three", "[bob only] You see: ace, two, three"]
    s.apply_action(s.string_to_action("two"))
    # the hand, the pile and `kept` changed since: the first lines read as they did
    assert s.log()[:2] == first
    assert s.log()[-2:] == ["ann holds ace, three; kept ; the pile two", "Game over: a draw (done)"]


def test_a_private_line_reaches_only_its_player(ledger: Game) -> None:
    s = ledger.new_initial_state(1)
    s.apply_action(s.string_to_action("three"))
    ann, bob = s.player_log(0), s.player_log(1)
    assert "You see: ace, two, three" in bob and "You see: ace, two, three" not in ann
    assert "ann chooses three (a card to give up)" in ann and not any("chooses" in line for line in bob)
    assert "[ann only] ann chooses three (a card to give up)" in s.log()
    assert [who for who, _ in s.log_entries()] == [-1, 1, 0, -1, -1]


def test_the_prompt_is_read_from_its_text(ledger: Game) -> None:
    s = ledger.new_initial_state(1)
    assert s.prompt() == "a card to give up"
    assert s.observation(0)["decision"] == {"prompt": "a card to give up", "legal": ["ace", "two", "three"]}
    s.apply_action(s.string_to_action("ace"))
    assert s.prompt() == ""


def _random_game(name: str, seed: int) -> tuple[GameState, list[list[str]], list[list[list[str]]]]:
    """A random game of `name`, with the log lines each action added, read as they were added
    (the whole log, and each player's)."""
    state = runtime.load_game(name).new_initial_state(seed)
    rnd = random.Random(seed)
    added, seen = [state.log()], [[state.player_log(p)] for p in range(state.num_players)]
    while not state.is_terminal():
        before = len(state.lines)
        views = [len(state.player_log(p)) for p in range(state.num_players)]
        state.apply_action(rnd.choice(state.legal_actions()))
        added.append(state.log(before))
        for p in range(state.num_players):
            seen[p].append(state.player_log(p)[views[p] :])
            assert state.player_log(p, before) == seen[p][-1]  # the new lines alone, as a replay reads them
    return state, added, seen


@pytest.mark.parametrize("name", GAMES)
def test_the_log_read_at_the_end_is_the_log_read_as_it_grew(name: str) -> None:
    state, added, seen = _random_game(name, seed=5)
    assert state.log() == [line for lines in added for line in lines]
    for p in range(state.num_players):
        assert state.player_log(p) == [line for lines in seen[p] for line in lines]
    assert len(state.history) == len(added) - 1  # one choice line per action


@pytest.mark.parametrize("name", GAMES)
def test_a_clone_shares_the_log_and_plays_on_apart(name: str) -> None:
    g = runtime.load_game(name)
    state, rnd = g.new_initial_state(3), random.Random(3)
    while len(state.lines) < 3 * LOG_CHUNK and not state.is_terminal():
        state.apply_action(rnd.choice(state.legal_actions()))
    if state.is_terminal():
        pytest.skip(f"a game of {name} ended before its log filled {3 * LOG_CHUNK} lines")
    twin = state.clone()
    assert twin.lines.chunks is state.lines.chunks and state.lines.chunks  # shared, not copied
    assert twin.lines.tail == state.lines.tail and twin.lines.tail is not state.lines.tail
    log, text, history = state.log(), state.to_json(), state.history
    for _ in range(2 * LOG_CHUNK):  # well past the chunk being filled
        if twin.is_terminal():
            break
        twin.apply_action(rnd.choice(twin.legal_actions()))
    assert state.log() == log and state.to_json() == text and state.history == history
    # the original plays on as a fresh game given the same actions does
    replay = g.new_initial_state(3)
    for a in history:
        replay.apply_action(a)
    for _ in range(LOG_CHUNK):
        if state.is_terminal():
            break
        a = rnd.choice(state.legal_actions())
        state.apply_action(a)
        replay.apply_action(a)
    assert state.log() == replay.log() and state.to_json() == replay.to_json()


@pytest.mark.parametrize("name", GAMES)
def test_a_state_writes_the_same_json_whether_its_log_was_written_before_or_not(name: str) -> None:
    g = runtime.load_game(name)
    state, rnd = g.new_initial_state(7), random.Random(7)
    steps = 0
    while not state.is_terminal():
        state.apply_action(rnd.choice(state.legal_actions()))
        steps += 1
        if steps % 7 == 0:
            text = state.to_json()  # writes the log's chunks and tail, kept for the next time
            assert state.to_json() == text == state.clone().to_json()
            fresh = g.state_from_json(text)  # nothing of its log written yet
            assert fresh.to_json() == text
    assert json.loads(state.to_json())["format"] == 2
