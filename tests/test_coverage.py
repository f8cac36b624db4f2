"""Rule coverage (rulewright/coverage.py): exact counts on a small spec played by script, the marker
mapping, and on Iron Curtain that random games reach the rules and tracing changes nothing."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from compiler.diagnostics import render_all
from compiler.driver import compile_spec
from rulewright.commands.playing import play_game
from rulewright.coverage import RuleCoverage, marked_statements
from rulewright.gamelog import final_digest
from rulewright.spec_loader import _remove, import_package
from runtime.game import Game, load_game
from tests.conftest import ROOT
from tests.test_properties import play
from tests.test_spec_zoo import SPECS, engine

SPEC = """\
game: covered
title: Covered
players: {names: [ann, bob]}
types:
  token:
    fields:
      points: int
      bonus: {type: int, code: true, optional: true}
      effect: {type: effect, params: {p: player}, optional: true}
components:
  token:
    - {id: small, points: 1, bonus: "1", effect: "add boost(p) until end of game"}
    - {id: big, points: 3, effect: "cancel boost(p)"}
state:
  score: {type: int, per: player}
  turns: int
zones:
  pool: {of: token}
events:
  scored: {params: {p: player, n: int}}
modifiers:
  boost: {params: {p: player}}
triggers:
  - name: big_score
    on: scored
    if: "n >= 3"
    do: 'log "{p} scores big"'
functions:
  doubled:
    params: {n: int}
    returns: int
    body: "n * 2"
procedures:
  note:
    params: {p: player}
    do: |
      if score[p] > 3 { log "{p} leads" }
  take:
    params: {p: player}
    do: |
      let t = choose from pool by p "token"
      score[p] += t.points + t.bonus()
      emit scored(p, t.points)
      if active boost(p) { score[p] += doubled(1) }
      do t.effect(p)
      if t.points == 3 {
        let again = ask "one more point?" by p
        if again { score[p] += 1 }
      } elif t.points == 2 {
        log "never"
      }
      note(p)
setup: |
  for t in token { move t to pool }
phases:
  - name: turn
    repeat: 2
    counter: turns
    steps:
      - name: move
        do: |
          for p in players { take(p) }
  - name: end
    do: |
      if score[ann] > score[bob] { end game winner ann } elif score[bob] > score[ann] { end game winner bob } else { end game draw }
"""
# ann takes small twice (boosted the second time), bob takes big twice (yes, then no): bob wins 7-6
SCRIPT = ["small", "big", "yes", "small", "big", "no"]


def line_of(text: str) -> int:
    return next(i for i, line in enumerate(SPEC.splitlines(), 1) if text in line)


@pytest.fixture(scope="module")
def covered(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    folder = tmp_path_factory.mktemp("cov") / "covered"
    folder.mkdir()
    (folder / "game.yaml").write_text(SPEC, encoding="utf-8")
    result = compile_spec(folder)
    assert result.ok, render_all(result.diagnostics)
    return import_package(result.files, "covered")


def by_name(cov: RuleCoverage) -> dict[tuple[str, str], int]:
    """(kind, what) -> count; every name is unique in this spec."""
    c = cov.counts()
    names = {(p.kind, p.what): c[p.index] for p in cov.points}
    assert len(names) == len(cov.points)
    return names


def test_scripted_game_counts_exactly(covered: ModuleType) -> None:
    game = Game(covered.State, covered.scenarios.SCENARIOS)
    cov = RuleCoverage(game)
    with cov:
        state = game.new_initial_state(1)
        for label in SCRIPT:
            state.apply_action(state.string_to_action(label))
    assert state.is_terminal() and state.winner == 1
    note, boost, points, again = (
        line_of(x) for x in ("score[p] > 3", "active boost", "t.points ==", "if again")
    )
    end = line_of("score[ann] > score[bob]")
    assert by_name(cov) == {
        ("setup", "setup"): 1,
        ("phase", "phase turn"): 2,  # a repeated phase counts each pass
        ("phase", "phase move"): 2,  # and so does its step
        ("phase", "phase end"): 1,
        ("procedure", "procedure take"): 4,  # a Frame: resumed after each decision, counted once per call
        ("procedure", "procedure note"): 4,  # a plain function
        ("function", "function doubled"): 1,
        ("trigger", "trigger big_score"): 2,  # only when its `if` held
        ("effect", "token small: effect"): 2,
        ("effect", "token big: effect"): 2,
        ("expression", "token small: bonus"): 2,
        ("modifier", "add boost"): 2,
        ("modifier", "cancel boost"): 2,
        ("branch", f"if at line {note}: then"): 3,
        ("branch", f"if at line {note}: else (implicit)"): 1,
        ("branch", f"if at line {boost}: then"): 1,
        ("branch", f"if at line {boost}: else (implicit)"): 3,
        ("branch", f"if at line {points}: then"): 2,  # a decision inside: a Frame-level if
        ("branch", f"if at line {points}: elif 1"): 0,
        ("branch", f"if at line {points}: else (implicit)"): 2,
        ("branch", f"if at line {again}: then"): 1,
        ("branch", f"if at line {again}: else (implicit)"): 1,
        ("branch", f"if at line {end}: then"): 0,
        ("branch", f"if at line {end}: elif 1"): 1,
        ("branch", f"if at line {end}: else"): 0,
    }
    take = next(p for p in cov.points if p.what == "procedure take")
    assert take.where.endswith(f"covered/game.yaml:{line_of('  take:')}")
    never = [(p.line, p.what) for p in cov.never_ran()]
    assert never == [
        (points + 3, f"if at line {points}: elif 1"),
        (end, f"if at line {end}: then"),
        (end, f"if at line {end}: else"),
    ]


def test_hits_in_names_the_points_of_one_action(covered: ModuleType) -> None:
    game = Game(covered.State, covered.scenarios.SCENARIOS)
    cov = RuleCoverage(game)
    state = game.new_initial_state(1)
    for label in SCRIPT[:2]:
        state.apply_action(state.string_to_action(label))
    answer = state.string_to_action("yes")
    hits = cov.hits_in(lambda: state.apply_action(answer))
    again, note = line_of("if again"), line_of("score[p] > 3")
    # bob's `yes` ends his turn and the first pass of `turn`; the second pass starts ann's take
    assert {(cov.points[n].what, k) for n, k in hits.items()} == {
        (f"if at line {again}: then", 1),
        ("procedure note", 1),
        (f"if at line {note}: then", 1),
        ("phase turn", 1),
        ("phase move", 1),
        ("procedure take", 1),
    }
    assert sum(cov.counts()) == sum(hits.values()) and not cov.active


def test_report_json_and_merge(covered: ModuleType) -> None:
    game = Game(covered.State, covered.scenarios.SCENARIOS)
    a, b = RuleCoverage(game), RuleCoverage(game)
    for cov in (a, b):
        with cov:
            state = game.new_initial_state(1)
            for label in SCRIPT:
                state.apply_action(state.string_to_action(label))
    a.merge(b)
    assert a.counts() == [2 * x for x in b.counts()]
    text = b.report()
    assert text.splitlines()[0] == "Rule coverage of Covered: 22 of 25 rule points ran (88.0%)"
    assert "  branch         9    12          15" in text
    assert text.index("Never ran (3):") > text.index("procedure take")
    assert len(b.report(top=2).split("Most run (2):")[1].split("Never ran")[0].strip().splitlines()) == 2
    data = b.to_json()
    assert data["ran"] == 22 and data["total"] == 25
    points = data["points"]
    assert isinstance(points, list) and len(points) == 25
    setup = next(p for p in b.points if p.kind == "setup")
    assert points[setup.index] == {"kind": "setup", "what": "setup", "where": setup.where, "count": 1}


def test_previous_tracer_is_restored(covered: ModuleType) -> None:
    def other(frame: Any, event: str, arg: Any) -> None:
        return None

    cov = RuleCoverage(covered.State)
    sys.settrace(other)
    try:
        with cov:
            assert sys.gettrace() is not other
        assert sys.gettrace() is other
    finally:
        sys.settrace(None)


def test_markers_sit_right_above_statements() -> None:
    import ast

    good = "def f(x):\n    # cov 0\n    # a note\n    return (\n        x\n    )\n"
    assert marked_statements(ast.parse(good), good) == {0: (4, 6)}
    for bad in (
        "def f(x):\n    if x:\n        y = 1\n        # cov 0\n    return x\n",  # left at the end of a block
        "y = (\n    # cov 0\n    1\n)\n",  # inside an expression
        "# cov 0\n# cov 0\nx = 1\n",
    ):
        with pytest.raises(ValueError):
            marked_statements(ast.parse(bad), bad)


def test_iron_curtain_random_games_reach_most_rules_and_tracing_changes_nothing() -> None:
    game = load_game("iron_curtain")
    cov = RuleCoverage(game)
    plain = [final_digest(play_game(game, seed, ["random"])) for seed in range(40)]
    with cov:
        traced = [final_digest(play_game(game, seed, ["random"])) for seed in range(40)]
    assert traced == plain
    assert len(cov.never_ran()) <= len(cov.points) // 10, cov.report()
    # counts repeat exactly, and the fast path (straight functions counted on the call) agrees
    # with tracing every line
    slow = RuleCoverage(game, every_line=True)
    with slow:
        for seed in range(40):
            play_game(game, seed, ["random"])
    assert slow.counts() == cov.counts()


@pytest.mark.parametrize("folder", SPECS, ids=[p.name for p in SPECS])
def test_design_specs_trace_the_same_games(folder: Path, tmp_path: Path) -> None:
    m = engine(folder, tmp_path)
    game = Game(m.State, m.scenarios.SCENARIOS)
    cov = RuleCoverage(game)
    for seed in range(5):
        plain = play(game, seed, random.Random(seed), check_every_step=False)
        with cov:
            traced = play(game, seed, random.Random(seed), check_every_step=False)
        assert traced.to_json() == plain.to_json()
    assert sum(1 for c in cov.counts() if c) > len(cov.points) // 2


def test_simulate_coverage_cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from rulewright.cli import main

    out = tmp_path / "cov.json"
    assert main(["simulate", "iron_curtain", "-n", "5", "--coverage", "--coverage-json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "games/s" in text and "rule points ran" in text and "Never ran (" in text
    assert "specs/iron_curtain/game.yaml" in text and f"rule coverage written to {out}" in text
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["game"] == "iron_curtain" and data["total"] == len(data["points"]) > 0


def test_checked_games_count_each_rule_once_per_run() -> None:
    """The contract plays each action on a clone and a restored copy too; those runs are untraced,
    so coverage around checked play counts what the game itself ran."""
    game = load_game("iron_curtain")
    plain, checked = RuleCoverage(game), RuleCoverage(game)
    for seed in range(3):
        with plain:
            play(game, seed, random.Random(seed), check_every_step=False)
        with checked:
            play(game, seed, random.Random(seed), check_every_step=True)
    assert checked.counts() == plain.counts()


def test_coverage_kinds_narrow_the_lists(capsys: pytest.CaptureFixture[str]) -> None:
    from rulewright.cli import main

    assert (
        main(["simulate", "iron_curtain", "-n", "2", "--coverage", "--coverage-kinds", "effect,trigger"]) == 0
    )
    text = capsys.readouterr().out
    listed = re.findall(r"^ +\d+ +[\d,]+ +(\w+) ", text, flags=re.M)
    assert listed and set(listed) <= {"effect", "trigger"}
    assert "procedure" in text  # the summary still counts every kind
    assert main(["verify", "iron_curtain", "--coverage", "--coverage-kinds", "efect"]) == 2
    assert "unknown coverage kind(s) efect" in capsys.readouterr().err


def test_a_temporary_package_is_removed_by_the_process_that_made_it(covered: ModuleType) -> None:
    # the package stays while the process runs (coverage reads its source), and goes at exit:
    # only in the process that made it, not in a forked worker exiting through its atexit handlers
    folder = Path(covered.__file__ or "").parent
    assert folder.name.startswith("rulewright-") and (folder / "engine.py").is_file()
    copy = folder.with_name(folder.name + "-copy")
    shutil.copytree(folder, copy)
    _remove(copy, os.getpid() + 1)
    assert copy.is_dir()
    _remove(copy, os.getpid())
    assert not copy.exists()


def test_functions_written_out_count_as_their_calls_did() -> None:
    """compiler/lower/inline.py writes `worth` out in a test and in a branch: each time the
    statement holding it runs, `# cov N (worth)` counts the function, as its call did."""
    result = compile_spec(ROOT / "tests" / "lowering" / "inline-functions")
    assert result.ok, render_all(result.diagnostics)
    engine = import_package(result.files, "inline_functions").engine
    game = Game(engine.State, ())
    cov = RuleCoverage(game)
    with cov:
        state = game.new_initial_state(0)  # n = 0: worth(ace) > n, then n = 2 + 10 + 3, then worth(two)
    assert state.v_n == 4
    counts = {p.what: cov.counts()[p.index] for p in cov.points if p.kind == "function"}
    assert counts == {
        "function worth": 2,
        "function twice": 1,
        "function ratio": 1,
        "function total": 1,
        "function rich": 0,
    }


def test_functions_written_out_count_only_when_their_bodies_run() -> None:
    """tests/coverage/inline-guards: branches that do not run, a function written out twice in a
    statement, arguments that call a rule: the counts an engine of plain calls gives."""
    result = compile_spec(ROOT / "tests" / "coverage" / "inline-guards")
    assert result.ok, render_all(result.diagnostics)
    engine = import_package(result.files, "inline_guards").engine
    game = Game(engine.State, ())
    cov = RuleCoverage(game)
    with cov:
        state = game.new_initial_state(0)
    assert state.is_terminal()
    counts = {
        p.what.removeprefix("function "): cov.counts()[p.index] for p in cov.points if p.kind == "function"
    }
    assert counts == {
        "worth": 2,  # twice in `rich(ace) == rich(two)`, not in the options of a choice of none
        "rich": 2,
        "total": 3,
        "twice": 2,
        "twice2": 2,
        "pick": 1,
        "ignore": 1,
        "home": 0,  # in a branch that does not run
        "size": 1,
    }


ROLLED = """\
game: rolled
title: Rolled
players: {names: [ann, bob]}
state:
  score: int
phases:
  - name: play
    do: |
      if roll(6) > 4 { score += 1 } elif roll(6) > 3 { score += 2 }
      end game draw
"""


def test_an_implicit_else_counts_the_tests_that_failed(tmp_path: Path) -> None:
    """An implicit else has no statement: it counts each run of its `if`'s last test less each run
    of that test's arm. With explicit chance, a test waiting on a roll is left by an exception (the
    move runs again once the roll is given): that run was neither true nor false."""
    (tmp_path / "rolled").mkdir()
    (tmp_path / "rolled" / "game.yaml").write_text(ROLLED, encoding="utf-8")
    result = compile_spec(tmp_path / "rolled")
    assert result.ok, render_all(result.diagnostics)
    game = Game(import_package(result.files, "rolled").engine.State, ())
    cov = RuleCoverage(game)
    with cov:
        for first in range(6):
            for second in range(6):
                state = game.new_initial_state(0, chance="explicit")
                for outcome in (first, second)[: 1 if first >= 4 else 2]:
                    state.apply_action(state.chance_outcomes()[outcome][0])
                assert state.is_terminal()
    counts = {p.what.removeprefix("if at line 9: "): c for p, c in zip(cov.points, cov.counts(), strict=True)}
    # the first roll is above 4 in 2 of its 6 outcomes; below, the second is above 3 in 3 of 6
    assert counts["then"] == 2 * 6 and counts["elif 1"] == 4 * 3 and counts["else (implicit)"] == 4 * 3


def test_an_implicit_else_marker_stands_above_an_if_without_else() -> None:
    import ast

    good = "def f(x):\n    # cov 0 (implicit else)\n    if (\n        x\n    ):\n        y = 1\n    elif x > 1:\n        y = 2\n"
    assert marked_statements(ast.parse(good), good) == {0: (7, 7)}  # the last test's lines
    for bad in (
        "def f(x):\n    # cov 0 (implicit else)\n    y = 1\n",
        "def f(x):\n    # cov 0 (implicit else)\n    if x:\n        y = 1\n    else:\n        y = 2\n",
    ):
        with pytest.raises(ValueError):
            marked_statements(ast.parse(bad), bad)
