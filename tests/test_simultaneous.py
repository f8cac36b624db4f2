"""Simultaneous choices (`simultaneously ... by each p in XS`) end to end, in a small invented game
(tests/specs/simultaneous, Sealed Bids: every player plays a card and bids coins at once, then all
vote to play on): the answers in XS's order, each hidden from the others until one line reveals
them all, saved and restored and cloned mid-decision, illegal actions changing nothing, the rule
errors of a bad XS, and the OpenSpiel and PettingZoo adapters' simultaneous moves."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from rulewright.spec_loader import load_spec
from runtime.agents import GreedyAgent
from runtime.engine import GameState, IllegalActionError, RuleError, Simultaneous
from runtime.game import Game
from runtime.saved import SavedStateError
from tests.conftest import ROOT

SPEC = ROOT / "tests" / "specs" / "simultaneous"


@pytest.fixture(scope="module")
def game() -> Game:
    return load_spec(SPEC, {"seats": 2}, rules_only=True)


@pytest.fixture(scope="module")
def game3() -> Game:
    return load_spec(SPEC, {"seats": 3}, rules_only=True)


@pytest.fixture(scope="module")
def sequential() -> Game:
    """Chip Raid (tests/specs/results): a game without simultaneous choices."""
    return load_spec(ROOT / "tests" / "specs" / "results", rules_only=True)


def labels(s: GameState) -> list[str]:
    return [s.action_to_string(a) for a in s.legal_actions()]


def answer(s: GameState, label: str) -> None:
    s.apply_action(s.string_to_action(label))


def test_the_spec_compiles_without_a_leaky_decision(game: Game, sequential: Game) -> None:
    """A simultaneous choice from a hidden hand is revealed to all: it is not leaky."""
    assert game.info.simultaneous
    assert not sequential.info.simultaneous


def test_answers_are_listed_in_the_order_of_xs_and_hidden_until_the_reveal(game: Game) -> None:
    s = game.new_initial_state(1)
    assert isinstance(s.pending, Simultaneous)
    assert s.current_player() == 0 and s.prompt() == "card to play"
    north_card = labels(s)[1]
    obs = s.observation(1)
    south = [s.action_to_string(a) for a in s.legal_actions_of(1)]
    assert obs["decision"] == {"prompt": "card to play", "legal": south}  # South is asked at once too
    assert south[0] == "pass" and south != labels(s)
    assert obs["simultaneous"] == {
        "prompt": "card to play",
        "players": ["North", "South"],
        "waiting": ["North", "South"],
    }
    answer(s, north_card)
    assert s.current_player() == 1
    assert s.observation(0)["simultaneous"]["waiting"] == ["South"]  # type: ignore[index]
    # South sees that North has chosen, never what
    assert s.player_log(1)[-1:] == ["North has chosen (card to play)"]
    assert s.player_log(0)[-2:] == [
        f"North chooses {north_card} (card to play)",
        "North has chosen (card to play)",
    ]
    assert all(north_card not in line for line in s.player_log(1))
    # nothing of North's answer is in South's observation: the same as after another answer
    other = game.new_initial_state(1)
    answer(other, labels(other)[2])
    assert other.observation(1) == s.observation(1)
    assert other.player_log(1) == s.player_log(1)
    south_card = labels(s)[1]
    answer(s, south_card)
    assert s.log()[-1] == f"Revealed (card to play): North: {north_card}, South: {south_card}"
    assert s.player_log(1)[-1] == s.log()[-1]  # one public line reveals all
    # the bids: each player's options and prompt are their own
    assert s.prompt() == "coins to bid for North"
    answer(s, "2")
    assert s.prompt() == "coins to bid for South"
    answer(s, "1")
    assert s.log()[-1] == "Revealed (coins to bid for North): North: 2, South: 1"
    variables = s.observation(0)["variables"]
    assert isinstance(variables, dict)
    assert variables["coins"] == [1, 2]
    north_wins = north_card > south_card  # (c1 to c6: the label's order is the value's)
    assert variables["score"] == [int(north_wins) + 1, int(not north_wins)]  # North's bid was higher
    # an empty list of players is asked nothing: the vote comes next
    assert s.prompt() == "play on?"
    answer(s, "no")
    answer(s, "no")
    assert s.is_terminal()
    assert "Revealed (play on?): North: no, South: no" in s.log()


def test_three_players_vote_and_may_pass(game3: Game) -> None:
    s = game3.new_initial_state(5)
    for _ in range(3):
        answer(s, "pass")
    assert s.log()[-1] == "Revealed (card to play): North: pass, South: pass, East: pass"
    for _ in range(3):
        answer(s, "0")
    for vote in ("yes", "no", "no"):
        assert s.prompt() == "play on?"
        answer(s, vote)
    assert s.log()[-2:] == [
        "Revealed (play on?): North: yes, South: no, East: no",
        "Game over: a draw (highest score); returns: North 0, South 0, East 0",  # (no cards left)
    ]


def test_the_greedy_agent_does_not_peek_at_answers_given(game: Game) -> None:
    """South's one-ply search guesses North's bid: it chooses the same whatever North bid."""
    chosen = set()
    for north_bid in ("0", "3"):
        s = game.new_initial_state(1)
        answer(s, "pass")
        answer(s, "pass")
        answer(s, north_bid)
        chosen.add(GreedyAgent(7).choose(s))
    assert len(chosen) == 1


def test_save_restore_and_clone_mid_decision(game: Game) -> None:
    s = game.new_initial_state(2)
    answer(s, labels(s)[1])
    text = s.to_json()
    back = game.state_from_json(text)
    assert back.to_json() == text
    twin = s.clone()
    assert twin.to_json() == text
    for x in (s, back, twin):
        answer(x, labels(x)[-1])
    assert s.to_json() == back.to_json() == twin.to_json()
    answer(twin, "0")
    assert back.to_json() == s.to_json() != twin.to_json()  # the clone's answer left the others alone


def test_an_illegal_action_changes_nothing(game: Game) -> None:
    s = game.new_initial_state(3)
    answer(s, labels(s)[1])
    before = s.to_json()
    other = next(a for a in range(1, game.num_distinct_actions()) if a not in s.legal_actions())
    with pytest.raises(IllegalActionError):
        s.apply_action(other)
    with pytest.raises(IllegalActionError):
        s.apply_joint([0, other])
    with pytest.raises(IllegalActionError):
        s.apply_joint([0])
    assert s.to_json() == before


def _pending(s: GameState) -> dict[str, object]:
    return json.loads(s.to_json())  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda e: e.update(players=[0, 0]), "must not repeat a player"),
        (lambda e: e.update(players=[0, 5]), r"players\[1\]"),
        (lambda e: e.update(answers=[e["options"][0][0], e["options"][1][0]]), "must hold -1"),
        (lambda e: e.update(answers=[-1, 3]), r"answers\[1\]"),
        (lambda e: e.update(answers=[-1, -1, -1]), "answers"),
        (lambda e: e.update(options=[[1000], [27]]), r"options\[0\]\[0\]"),
        (lambda e: e.update(prompts=[[-1], [0]]), r"prompts\[0\]"),
        (lambda e: e.update(answers=[-1, -1], players=[1, 0]), "first player who has not answered"),
        (lambda e: e.pop("answers"), "players, options, prompts and answers"),
    ],
)
def test_a_saved_simultaneous_decision_is_checked_strictly(game: Game, change: object, message: str) -> None:
    s = game.new_initial_state(4)
    data = _pending(s)
    extra = data["pending"][9]  # type: ignore[index]
    change(extra)  # type: ignore[operator]
    with pytest.raises(SavedStateError, match=message):
        game.state_from_json(json.dumps(data))


def test_a_saved_simultaneous_line_is_checked(game: Game) -> None:
    s = game.new_initial_state(4)
    answer(s, labels(s)[1])
    answer(s, labels(s)[1])
    data = _pending(s)
    log = data["log"]
    assert isinstance(log, list)
    reveal = next(i for i, line in enumerate(log) if line[0] == -6)
    log[reveal][3] = [0]
    with pytest.raises(SavedStateError, match=rf"log\[{reveal}\]\[3\]"):
        game.state_from_json(json.dumps(data))


RULE_ERRORS = """
game: t
players: {names: [a, b]}
options:
  case: {type: int, default: 0, choices: [0, 1, 2, 3]}
phases:
  - name: main
    do: |
      if case == 3 {
        let n = simultaneously choose number from 0 to 1000000000 by each p in players "pick"
      }
      let xs = if case == 0 then [a, a] else if case == 1 then [a, none] else [b]
      let picks = simultaneously choose from filter(q in players where p == a) by each p in xs "pick"
      end game draw
"""


def test_a_bad_list_of_players_is_a_rule_error_naming_the_decision(tmp_path: Path) -> None:
    (tmp_path / "game.yaml").write_text(RULE_ERRORS, encoding="utf-8")
    g = load_spec(tmp_path, rules_only=True)
    for case, message in enumerate(
        [
            "a is listed twice in `by each`",
            r"a player of `by each` \(none\) is not in the game",
            "b must choose but there is no option",
            r"the numbers 0 to 1000000000 go beyond 0 to \d+",
        ]
    ):
        with pytest.raises(RuleError, match=rf"'pick': {message}.* \(the decision at .*game.yaml:"):
            Game(g.state_cls, g.scenarios, {"case": case}).new_initial_state(0)


# ---- the adapters -----------------------------------------------------------------------------


def test_openspiel_simultaneous_dynamics(game: Game, sequential: Game) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from runtime.adapters import openspiel

    name = openspiel.register(game)
    for seats in (2, 3):
        g = pyspiel.load_game(name, {"seats": seats})
        assert g.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
        pyspiel.random_sim_test(g, num_sims=5, serialize=True, verbose=False)
    g = pyspiel.load_game(name, {"seats": 2, "chance": "sampled"})  # no chance node before the bids
    st = g.new_initial_state()
    assert st.is_simultaneous_node() and st.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    legal = [st.legal_actions(p) for p in range(2)]
    assert all(a[0] == 0 for a in legal)  # an optional choice: pass is one of the options
    st.apply_actions([legal[0][1], legal[1][1]])
    assert st.is_simultaneous_node()  # the bids
    st.apply_actions([3, 3])  # "0" each (the numbers come after pass, no and yes)
    assert st.legal_actions(0) == st.legal_actions(1) == [1, 2]  # the vote: no, yes
    back = g.deserialize_state(st.serialize())
    assert back.serialize() == st.serialize()
    # a state of a game without simultaneous choices keeps SEQUENTIAL dynamics
    seq = pyspiel.load_game(openspiel.register(sequential))
    assert seq.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL


def test_openspiel_players_not_asked_have_only_pass(tmp_path: Path) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from runtime.adapters import openspiel

    (tmp_path / "game.yaml").write_text(
        "game: only_b\nplayers: {names: [a, b]}\nphases:\n  - name: main\n    do: |\n"
        '      let n = simultaneously choose number from 1 to 2 by each p in [b] "n"\n'
        "      end game winner a\n",
        encoding="utf-8",
    )
    g = pyspiel.load_game(openspiel.register(load_spec(tmp_path, rules_only=True)))
    st = g.new_initial_state()
    assert st.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    assert st.legal_actions(0) == [0]
    pyspiel.random_sim_test(g, num_sims=3, serialize=False, verbose=False)


def test_pettingzoo_parallel_and_aec_envs(game: Game, game3: Game, sequential: Game) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, parallel_api_test

    from runtime.adapters.pettingzoo import env, parallel_env

    for g in (game, game3):
        parallel_api_test(parallel_env(g), num_cycles=100)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            api_test(env(g), num_cycles=100)
    # a sequential game as a parallel env: only the acting agent's action counts
    parallel_api_test(parallel_env(sequential), num_cycles=100)
    e = parallel_env(game)
    obs, infos = e.reset(seed=1)
    assert infos["North"]["acting"] == ["North", "South"]
    masks = {a: list(obs[a]["action_mask"].nonzero()[0]) for a in e.agents}
    assert masks == {a: e.state.legal_actions_of(p) for p, a in enumerate(e.possible_agents)}
    with pytest.raises(ValueError, match="South is to act"):
        e.step({"North": 0})


def test_a_pyspiel_state_around_an_engine_state_of_a_simultaneous_game_is_simultaneous() -> None:
    pytest.importorskip("pyspiel")
    import pyspiel

    from runtime.adapters.openspiel import SimultaneousState, from_engine
    from runtime.game import load_game

    state = load_game("goofspiel").new_initial_state(1)
    wrapped = from_engine(state)
    assert isinstance(wrapped, SimultaneousState)
    assert wrapped.current_player() == int(pyspiel.PlayerId.SIMULTANEOUS)
    assert wrapped.legal_actions(0) == state.legal_actions_of(0)


def test_the_mcts_agent_is_refused_for_a_game_with_simultaneous_choices(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from rulewright.cli import main

    assert main(["play", "goofspiel", "--agents", "mcts,random", "--seed", "3"]) != 0
    err = capsys.readouterr().err
    assert "the mcts agent cannot play goofspiel" in err and "internal error" not in err
