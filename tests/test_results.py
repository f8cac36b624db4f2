"""Numeric returns, shared wins, ties and rankings, end to end (tests/specs/results and inline specs).

The `results` spec (Chip Raid, 2-4 players) is compiled here, its scenarios run, and random games
of every player count and every way of ending are played with the engine contract checked after
each action (the returns' range and kind among them). Inline specs cover a shared win without
`results`, the contract's returns clause, saved states that lie about the outcome, and the
adapters.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import rulewright.scenarios
from compiler.diagnostics import render_all
from compiler.driver import compile_spec
from rulewright.spec_loader import import_package
from runtime.contract import Checker, Violation, check_returns
from runtime.engine import GameState
from runtime.game import Game
from runtime.saved import SavedStateError
from tests.conftest import ROOT

SPEC = ROOT / "tests" / "specs" / "results"
SCENARIO_FILES = sorted((SPEC / "scenarios").glob("*.yaml"))


@pytest.fixture(scope="module")
def engine() -> ModuleType:
    result = compile_spec(SPEC)
    assert result.ok, render_all(result.diagnostics)
    assert not result.diagnostics, render_all(result.diagnostics)
    return import_package(result.files, "results")


def make_game(engine: ModuleType, **options: Any) -> Game:
    return Game(engine.State, engine.scenarios.SCENARIOS, options)


def play(s: GameState, *labels: str) -> GameState:
    for label in labels:
        s.apply_action(s.string_to_action(label))
    return s


def compile_inline(tmp_path: Path, game_yaml: str) -> Game:
    folder = tmp_path / "spec"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(game_yaml, encoding="utf-8")
    result = compile_spec(folder)
    assert result.ok, render_all(result.diagnostics)
    module = import_package(result.files, f"inline_{tmp_path.name}")
    return Game(module.State, module.scenarios.SCENARIOS, None)


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[p.stem for p in SCENARIO_FILES])
def test_scenario(engine: ModuleType, path: Path) -> None:
    compiled = next(dict(sc) for sc in engine.scenarios.SCENARIOS if Path(sc["file"]).name == path.name)
    result = rulewright.scenarios.run_scenario("results", compiled, make_game(engine))
    log = "\n".join(result.state.log()) if result.state is not None else ""
    assert result.ok, f"{path.name}: {result.message}\n{log}"


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("ending", [0, 1, 2, 3])
def test_random_games_keep_the_contract_and_the_returns(engine: ModuleType, seats: int, ending: int) -> None:
    game = make_game(engine, seats=seats, ending=ending)
    for seed in range(6):
        rnd = random.Random(seed)
        checker = Checker(rnd)
        s = game.new_initial_state(seed)
        while not s.is_terminal():
            s = checker.step(s, rnd.choice(s.legal_actions()))
        chips = s._dump_vars()["chips"]
        assert s.returns() == [float(c) for c in chips[:seats]]
        assert sum(s.returns()) == 0
        ranks = s.ranking()
        assert ranks == [1 + sum(1 for d in chips[:seats] if d > c) for c in chips[:seats]]
        winners = s.winners()
        if ending == 0:
            best = max(chips[:seats])
            top = [p for p in range(seats) if chips[p] == best]
            assert winners == ([] if len(top) == seats else top)
        elif ending == 1:
            assert winners == [p for p in range(seats) if chips[p] >= 0]
        elif ending == 2:
            assert winners == [0] and s.winner == 0
        else:
            assert winners == [] and s.winner == -1 and s.reason == "agreed"
        assert s.winner == (winners[0] if len(winners) == 1 else -1)
        restored = game.state_from_json(s.to_json())
        assert restored.returns() == s.returns() and restored.winners() == winners
        assert restored.log()[-1] == s.log()[-1]
        assert s.log()[-1].endswith(
            "; returns: "
            + ", ".join(f"{n} {c}" for n, c in zip(game.info.player_names[:seats], chips, strict=True))
        )


def test_a_shared_win_without_results(tmp_path: Path) -> None:
    game = compile_inline(
        tmp_path,
        """
game: shared
players: {names: [red, blue, green, yellow], count: seats}
options:
  seats: {type: int, default: 4, choices: [2, 3, 4]}
  how: {type: int, default: 0, choices: [0, 1, 2, 3]}
phases:
  - name: main
    do: |
      let n = choose number from 0 to 1 by red "go on?"
      if how == 0 { end game winners [blue, red, blue] "a pact" }
      if how == 1 { end game winners [blue] "alone" }
      if how == 2 { end game winners [] "nobody" }
      end game winners players "everyone"
""",
    )
    assert game.info.returns is None and game.info.utility == "zero_sum"
    assert game.info.utility_range == (-3, 1)  # three of four share the win: the last gets -3

    def ended(seats: int, how: int) -> GameState:
        g = Game(game.state_cls, game.scenarios, {"seats": seats, "how": how})
        return play(g.new_initial_state(1), "0")

    s = ended(4, 0)
    assert s.winners() == [0, 1] and s.winner == -1
    assert s.returns() == [1.0, 1.0, -1.0, -1.0]
    assert s.ranking() == [1, 1, 3, 3]
    assert s.log()[-1] == "Game over: red and blue share the win (a pact)"
    s = ended(3, 0)
    assert s.returns() == [1.0, 1.0, -2.0]
    # one winner, or none, is the line `end game winner` or `end game draw` writes
    s = ended(4, 1)
    assert s.winners() == [1] and s.winner == 1 and s.log()[-1] == "Game over: blue wins (alone)"
    assert s.returns() == [-1 / 3, 1.0, -1 / 3, -1 / 3]
    s = ended(2, 2)
    assert s.winners() == [] and s.log()[-1] == "Game over: a draw (nobody)" and s.ranking() == [1, 1]
    s = ended(3, 3)
    assert s.log()[-1] == "Game over: red, blue and green share the win (everyone)"
    assert s.returns() == [0.0, 0.0, 0.0] and s.ranking() == [1, 1, 1]
    for seats, how in [(4, 0), (3, 0), (4, 1), (2, 2), (3, 3)]:
        s = ended(seats, how)
        check_returns(s)
        assert game.state_from_json(s.to_json()).to_json() == s.to_json()


RANGE = """
game: ranged
players: {names: [red, blue]}
state:
  points: {type: int, per: player}
results:
  returns: "points[p]"
  min: 0
  max: 5
  kind: KIND
phases:
  - name: main
    do: |
      points[red] = choose number from 0 to 9 by red "red's points"
      points[blue] = choose number from 0 to 9 by blue "blue's points"
      end game "points"
"""


@pytest.mark.parametrize(
    ("kind", "red", "blue", "problem"),
    [
        ("general_sum", 6, 0, "red's return 6 lies outside 0..5"),
        ("identical", 2, 3, "the returns 2, 3 are not all equal (identical)"),
        ("zero_sum", 2, 3, "the returns 2, 3 sum to 5, not 0 (zero_sum)"),
        ("constant_sum\n  sum: 5", 1, 3, "the returns 1, 3 sum to 4, not 5 (constant_sum)"),
        ("constant_sum\n  sum: 5", 2, 3, None),
        ("identical", 4, 4, None),
    ],
)
def test_the_contract_checks_the_returns(
    tmp_path: Path, kind: str, red: int, blue: int, problem: str | None
) -> None:
    game = compile_inline(tmp_path, RANGE.replace("KIND", kind))
    s = play(game.new_initial_state(1), str(red))
    checker = Checker(random.Random(1))
    if problem is None:
        checker.step(s, s.string_to_action(str(blue)))
        return
    with pytest.raises(Violation, match="returns") as caught:
        checker.step(s, s.string_to_action(str(blue)))
    assert problem in str(caught.value)


def test_the_returns_are_read_once_when_the_game_ends(engine: ModuleType) -> None:
    s = play(make_game(engine).new_initial_state(1), "2", "0", "0", "0", "0", "0", "0", "0", "0")
    assert s.returns() == [2.0, -2.0, 0.0]
    s._load_vars({**s._dump_vars(), "chips": [9, 9, 9, 9]})  # later writes do not change them
    assert s.returns() == [2.0, -2.0, 0.0] and s.ranking() == [1, 3, 2]
    assert make_game(engine).new_initial_state(1).returns() == [0.0, 0.0, 0.0]
    assert make_game(engine).new_initial_state(1).ranking() == [1, 1, 1]


def tampered(s: GameState, change: Any) -> str:
    data = json.loads(s.to_json())
    change(data)
    return json.dumps(data)


def test_a_saved_state_must_keep_its_outcome(engine: ModuleType) -> None:
    game = make_game(engine)
    s = play(game.new_initial_state(1), "1", "2", "0", "0", "0", "0", "0", "0", "0")
    assert s.log()[-1].startswith("Game over: red and blue share the win")

    def last(f: Any) -> Any:
        return lambda d: f(d["log"][-1])

    cases = [
        (last(lambda line: line[3].reverse()), "'log[-1][3]' must list the winners in increasing order"),
        (last(lambda line: line[3].append(7)), "must be an integer from 0 to 2, not 7"),
        (last(lambda line: line.__setitem__(1, 0)), "must be the one winner [3] lists, or -1"),
        (last(lambda line: line[4].pop()), "must be a list of 3 items, not 2"),
        (last(lambda line: line[4].__setitem__(0, "9")), "must be an integer"),
        (last(lambda line: line.pop()), "must be a list of 5 items, not 4"),
        (lambda d: d["log"].pop(), "must end with the game-over line"),
        (lambda d: d["log"].append(d["log"][0]), "is a game-over line: it can only be the last line"),
    ]
    n = len(json.loads(s.to_json())["log"]) - 1
    for change, message in cases:
        with pytest.raises(SavedStateError) as caught:
            game.state_from_json(tampered(s, change))
        assert message.replace("[-1]", f"[{n}]") in str(caught.value)


def test_a_saved_shared_win_without_results_is_checked(tmp_path: Path) -> None:
    game = compile_inline(
        tmp_path,
        """
game: pact
players: {names: [red, blue, green]}
phases:
  - name: main
    do: |
      let n = choose number from 0 to 1 by red "go on?"
      end game winners [red, blue] "a pact"
""",
    )
    s = play(game.new_initial_state(1), "0")
    n = len(s.log()) - 1
    for change, message in [
        (lambda d: d["log"][-1].__setitem__(3, [1]), f"'log[{n}][3]' must list two winners or more"),
        (lambda d: d["log"][-1].append([1, 1, -2]), f"'log[{n}]' must be a list of 3 or 4 items, not 5"),
        (lambda d: d.__setitem__("winner", 1), "'winner' must be the winner the game-over line names (-1)"),
    ]:
        with pytest.raises(SavedStateError, match="saved state") as caught:
            game.state_from_json(tampered(s, change))
        assert message in str(caught.value)


def test_end_game_winners_refuses_none(tmp_path: Path) -> None:
    from runtime.engine import RuleError

    game = compile_inline(
        tmp_path,
        """
game: nobody
players: {names: [red, blue]}
state:
  who: player
phases:
  - name: main
    do: |
      let n = choose number from 0 to 1 by red "go on?"
      end game winners [who] "the empty seat"
""",
    )
    with pytest.raises(RuleError, match="the winners must be players, not none"):
        play(game.new_initial_state(1), "0")


POKER = """
game: poker
players: {names: [a, b, c, d]}
constants:
  buy_in: 100
state:
  chips: {type: int, per: player, initial: 100}
procedures:
  play_hand:
    do: |
      let p = choose from players by a "who takes the pot"
      for q in players where q != p { chips[p] += chips[q]; chips[q] = 0 }
"""
TEAM = """
game: team
players: {names: [n, e, s, w]}
enums:
  team: [north_south, east_west]
state:
  score: {type: int, per: team}
functions:
  team_of:
    params: {p: player}
    returns: team
    body: "if p == n or p == s then north_south else east_west"
"""


@pytest.mark.parametrize(("index", "prelude"), [(0, POKER), (1, TEAM)], ids=["poker", "team"])
def test_the_results_examples_of_the_language_reference(tmp_path: Path, index: int, prelude: str) -> None:
    text = (ROOT / "docs" / "dsl.md").read_text(encoding="utf-8")
    section = text[text.index("### results") : text.index("### setup")]
    example = section.split("```yaml\n")[index + 1].split("```")[0]
    if index == 1:  # the team example ends the game as soon as it starts: score a little first
        example = example.replace(
            "    do: |\n", '    do: |\n      score[north_south] += choose number from 0 to 3 by n "points"\n'
        )
    game = compile_inline(tmp_path, prelude + example)
    for seed in range(4):
        rnd = random.Random(seed)
        checker = Checker(rnd)
        s = game.new_initial_state(seed)
        while not s.is_terminal():
            s = checker.step(s, rnd.choice(s.legal_actions()))
        assert s.ranking().count(1) == (len(s.winners()) or s.num_players)  # a draw: all first


def test_simulate_and_play_report_the_returns(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from rulewright.cli import main

    folder = str(SPEC)
    assert main(["simulate", folder, "-n", "30", "-o", "ending=1"]) == 0
    out = capsys.readouterr().out
    assert "shared     wins" in out
    assert "  seat       mean return     1st     2nd     3rd\n" in out
    assert main(["simulate", "iron_curtain", "-n", "3"]) == 0
    out = capsys.readouterr().out
    assert "mean return" not in out and "shared" not in out
    # a cooperative game (kind identical): one team score, no winners, draws or places
    assert main(["simulate", "hanabi", "-n", "4", "--agents", "greedy"]) == 0
    out = capsys.readouterr().out
    assert "  team score  mean " in out and "every player's return" in out and "quartiles" in out
    assert "wins" not in out and "draws" not in out and "1st" not in out
    log = tmp_path / "game.json"
    assert main(["play", folder, "--seed", "2", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "; returns: red " in out and "(1st)" in out and "Result: most chips [red " in out
    data = json.loads(log.read_text(encoding="utf-8"))
    assert data["log"][-1].startswith("Game over: ") and data["returns"] == [
        float(v) for v in data["returns"]
    ]


def test_expect_winners_names_a_shared_win(engine: ModuleType, tmp_path: Path) -> None:
    compiled = next(dict(sc) for sc in engine.scenarios.SCENARIOS if sc["file"].endswith("returns_tie.yaml"))
    for wrong, message in [
        (["red"], "the game ended: red and blue share the win (most chips); expected: red wins"),
        ([], "expected: a draw"),
        (["red", "blue", "green"], "expected: red, blue and green share the win"),
    ]:
        steps = [{**step, "winners": wrong} for step in compiled["steps"]]
        result = rulewright.scenarios.run_scenario("results", {**compiled, "steps": steps}, make_game(engine))
        assert not result.ok and message in result.message
    steps = [
        {**step, "winners": ["red", "blue"], "actions": step["actions"][:2]} for step in compiled["steps"]
    ]
    result = rulewright.scenarios.run_scenario("results", {**compiled, "steps": steps}, make_game(engine))
    assert (
        not result.ok
        and "expected the game over (red and blue share the win), but it goes on" in result.message
    )
    spec = tmp_path / "spec"
    (spec / "scenarios").mkdir(parents=True)
    (spec / "game.yaml").write_text((SPEC / "game.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (spec / "scenarios" / "s.yaml").write_text('name: s\nactions: ["0"]\nexpect_winners: [red, bleu]\n')
    result = compile_spec(spec)
    assert not result.ok
    assert "'bleu'" in render_all(result.diagnostics) and "[bad-scenario]" in render_all(result.diagnostics)


def test_games_lists_the_results_of_a_game(engine: ModuleType) -> None:
    from rulewright.commands.lookup import game_entry
    from runtime.loading import EngineSource

    source = EngineSource("results", "results", SPEC, bundled=False)
    entry = game_entry(make_game(engine), source, own=True, shadows=False)
    assert entry["results"] == {"kind": "zero_sum", "min": -6, "max": 6, "sum": 0}
    iron = Game(runtime_state("iron_curtain"), (), None)
    assert "results" not in game_entry(iron, source, own=True, shadows=False)


def runtime_state(name: str) -> type[GameState]:
    from runtime.game import load_game

    return load_game(name).state_cls
