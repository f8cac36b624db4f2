"""Enums at the edges (tests/specs/enums): options typed by an enum, labels for enum values, `none`
for an optional choice among enum values; and a misspelt name reported once, without the type
errors that would follow from it.

The spec's random games and scenarios run in tests/test_spec_zoo.py; here, what each form does
through the runtime: options by name (the CLI, saved states, OpenSpiel, PettingZoo), labels in
actions and logs, none in the state and in writes, and the diagnostics of each misuse.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from compiler.diagnostics import render_all
from compiler.driver import compile_spec
from rulewright.commands.arguments import parse_options
from rulewright.commands.lookup import game_entry
from rulewright.spec_loader import import_package
from runtime.engine import RuleError
from runtime.game import Game
from runtime.saved import SavedStateError
from tests.conftest import ROOT

SPEC = ROOT / "tests" / "specs" / "enums"


@pytest.fixture(scope="module")
def engine() -> ModuleType:
    result = compile_spec(SPEC)
    assert result.ok, render_all(result.diagnostics)
    return import_package(result.files, "enums")


def game(engine: ModuleType, **options: object) -> Game:
    return Game(engine.State, engine.scenarios.SCENARIOS, dict(options))  # type: ignore[arg-type]


def play(g: Game, *labels: str, seed: int = 1) -> object:
    s = g.new_initial_state(seed)
    for label in labels:
        s.apply_action(s.string_to_action(label))
    return s


def errors(tmp_path: Path, text: str) -> list[str]:
    """The diagnostics of a one-file spec, each as `line:col: code: message`."""
    folder = tmp_path / "spec"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    return [f"{d.span.line}:{d.span.col}: {d.code}: {d.message}" for d in compile_spec(folder).diagnostics]


# ---- options typed by an enum -----------------------------------------------------------------


def test_an_enum_option_is_set_by_its_value_name_and_read_as_the_value(engine: ModuleType) -> None:
    info = engine.INFO.options[0]
    assert (info.name, info.type, info.default, info.choices) == (
        "pace",
        "enum:speed",
        "brisk",
        ("brisk", "slow"),
    )
    assert info.values == ("brisk", "slow", "glacial")
    assert game(engine).options == {"pace": "brisk"}
    slow = game(engine, pace="slow")
    s = slow.new_initial_state(1)
    assert s.o_pace == 1  # the rules read the value's index
    assert not play(slow, *["pass"] * 4).is_terminal()  # type: ignore[attr-defined]
    assert play(slow, *["pass"] * 8).is_terminal()  # type: ignore[attr-defined]  # four rounds
    assert play(game(engine), *["pass"] * 4).is_terminal()  # type: ignore[attr-defined]  # two


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("glacial", "option 'pace' must be one of brisk, slow, not 'glacial'"),  # a value, not a choice
        ("fats", "option 'pace' must be one of brisk, slow, not 'fats'"),
        (1, "option 'pace' must be one of brisk, slow, not 1"),  # never by its index
        ("Brisk", "option 'pace' must be one of brisk, slow, not 'Brisk'"),
    ],
)
def test_an_enum_option_refuses_anything_but_a_choice(
    engine: ModuleType, value: object, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        game(engine, pace=value)


def test_the_command_line_sets_an_enum_option_by_name(engine: ModuleType) -> None:
    assert game(engine, **parse_options(["pace=slow"])).options == {"pace": "slow"}


def test_games_lists_an_enum_options_choices(engine: ModuleType) -> None:
    entry = game_entry(game(engine), SimpleNamespace(folder=None), True, False)  # type: ignore[arg-type]
    assert entry["options"] == [
        {
            "name": "pace",
            "type": "enum:speed",
            "default": "brisk",
            "choices": ["brisk", "slow"],
            "doc": "brisk: 2 rounds, slow: 4",
        }
    ]


def test_a_saved_state_holds_an_enum_option_by_name_and_is_checked(engine: ModuleType) -> None:
    g = game(engine, pace="slow")
    s = g.new_initial_state(3)
    text = s.to_json()
    data = json.loads(text)
    assert data["options"] == {"pace": "slow"}
    assert data["vars"]["pace"] == 1
    assert g.state_from_json(text).to_json() == text
    for value, message in [
        ("glacial", "'options.pace' must be one of ['brisk', 'slow'], not \"glacial\""),
        (1, "'options.pace' must be one of ['brisk', 'slow'], not 1"),
        (None, "'options.pace' must be one of"),
    ]:
        bad = json.loads(text)
        bad["options"]["pace"] = value
        with pytest.raises(SavedStateError, match=message.replace("[", r"\[").replace("]", r"\]")):
            g.state_from_json(json.dumps(bad))
    bad = json.loads(text)
    bad["vars"]["pace"] = 0  # the state's value must be the option's
    with pytest.raises(SavedStateError, match="'vars.pace' must be the option's value"):
        g.state_from_json(json.dumps(bad))


def test_openspiel_and_pettingzoo_take_an_enum_option_as_a_string(engine: ModuleType) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    from runtime.adapters import openspiel
    from runtime.adapters.pettingzoo import raw_env

    g = game(engine)
    assert openspiel.game_type(g).parameter_specification["pace"] == "brisk"
    name = openspiel.register(g)
    slow = pyspiel.load_game(name, {"pace": "slow"})
    state = slow.new_initial_state()
    assert state.legal_actions()  # the game plays
    pyspiel.random_sim_test(slow, num_sims=3, serialize=False, verbose=False)
    e = raw_env(game(engine, pace="slow"))
    e.reset(seed=1)
    assert e.game.options == {"pace": "slow"}
    assert e.game_state.o_pace == 1


# ---- labels of enum values --------------------------------------------------------------------


def test_enum_labels_are_the_actions_and_what_logs_show(engine: ModuleType) -> None:
    s = game(engine).new_initial_state(1)
    assert [s.action_to_string(a) for a in s.legal_actions()] == ["pass", "Operations first", "Event first"]
    play_to = play(game(engine), "Operations first", "Event first", "pass", "Event first")
    log = play_to.log()  # type: ignore[attr-defined]
    assert "Red chooses Operations first (which first)" in log
    assert "Blue picks Event first; picked 0 times before" in log
    assert "last pick: Event first; Event first 2 times; none" in log


def test_two_equal_labels_in_one_enum_are_a_duplicate_id(tmp_path: Path) -> None:
    got = errors(
        tmp_path,
        """
game: probe
players: {names: [red, blue]}
enums:
  use: {values: [a, b, c], labels: [First, Second, First]}
  pace: {values: [x, y], labels: [One]}
phases:
  - {name: main, do: "end game draw"}
""",
    )
    assert got == [
        "5:36: duplicate-id: two values of enum 'use' are labelled 'First'; labels name actions, so they must differ",
        "6:34: wrong-value-type: an enum's labels need one label per value",
    ]


# ---- none for enum values ---------------------------------------------------------------------


def test_a_pass_leaves_none_which_reads_defaults_and_shows_none(engine: ModuleType) -> None:
    s = play(game(engine), "pass")
    assert s.v_last == -1  # type: ignore[attr-defined]
    assert "Red picks none; picked 0 times before" in s.log()  # type: ignore[attr-defined]
    # the trailing slot that none reads is an engine detail: observations leave it out
    assert s.observation(0)["variables"]["tally"] == [0, 0]  # type: ignore[attr-defined]
    text = s.to_json()  # type: ignore[attr-defined]
    assert json.loads(text)["vars"]["tally"] == [0, 0, 0]
    assert game(engine).state_from_json(text).to_json() == text


def test_writing_through_a_none_enum_value_is_a_rule_error(tmp_path: Path) -> None:
    folder = tmp_path / "spec"
    folder.mkdir()
    (folder / "game.yaml").write_text(
        """
game: probe
players: {names: [red, blue]}
enums: {use: [a, b]}
state:
  tally: {type: int, per: use}
phases:
  - name: main
    do: |
      let u = optionally choose from [a, b] by red "pick"
      tally[u] += 1
      end game draw
""",
        encoding="utf-8",
    )
    result = compile_spec(folder)
    assert result.ok, render_all(result.diagnostics)
    m = import_package(result.files, "probe")
    s = Game(m.State, m.scenarios.SCENARIOS).new_initial_state(1)
    with pytest.raises(RuleError, match="'none' used where"):
        s.apply_action(0)  # pass


def test_none_is_a_value_of_every_enum_type_and_of_nothing_else(tmp_path: Path) -> None:
    ok = """
game: probe
players: {names: [red, blue]}
enums: {use: [a, b]}
state:
  last: {type: use}
functions:
  pick:
    params: {u: use}
    returns: use
    body: "if u == none then none else u"
phases:
  - name: main
    do: |
      let x: use = none
      last = pick(x)
      let xs = [none, a]
      if last != none or x in xs { log "{x}" }
      end game draw
"""
    assert errors(tmp_path, ok) == []
    got = errors(tmp_path, ok.replace("let x: use = none", "let x = none"))
    assert got == [
        "15:15: type-mismatch: cannot tell the type of 'none' here; give the variable a typed value first"
    ]
    got = errors(tmp_path, ok.replace("let x: use = none", "let x: use = none\n      let n: int = none"))
    assert [g.split(": ")[1] for g in got] == ["type-mismatch"]


# ---- bad options ------------------------------------------------------------------------------


def test_an_option_of_a_type_that_is_no_enum_is_located(tmp_path: Path) -> None:
    got = errors(
        tmp_path,
        """
game: probe
players: {names: [red, blue]}
options:
  speed: {type: enum, default: fast}
  step: {type: paec, default: fast}
  tempo: {type: pace, default: fst, choices: [fast, slwo]}
  mood: {type: pace, default: slow, choices: [fast]}
enums: {pace: [fast, slow]}
phases:
  - {name: main, do: "end game draw"}
""",
    )
    assert got == [
        "5:17: unknown-type: an option is 'int', 'bool' or an enum, not 'enum'",
        "6:16: unknown-type: an option is 'int', 'bool' or an enum, not 'paec'; did you mean 'pace'?",
        "7:32: unknown-name: unknown pace 'fst'; did you mean 'fast'?",
        "7:46: unknown-name: unknown pace 'slwo'; did you mean 'slow'?",
        "8:31: wrong-value-type: the default of option 'mood' must be one of its choices",
    ]


def test_a_scenario_sets_an_enum_option_by_a_value_name(tmp_path: Path) -> None:
    folder = tmp_path / "spec"
    (folder / "scenarios").mkdir(parents=True)
    (folder / "game.yaml").write_text((SPEC / "game.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "scenarios" / "x.yaml").write_text(
        "name: x\noptions: {pace: glacial}\nactions: []\n", encoding="utf-8"
    )
    got = [d.message for d in compile_spec(folder).diagnostics]
    assert got == ["option 'pace' is one of brisk, slow, not 'glacial'"]


# ---- a misspelt name, reported once -----------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "misspelt"),
    [
        ("move ace to dicsard", 1),
        ("for c in hnd[red] { move c to deck }", 1),
        ('log "{len(deck_)}"', 1),
        ("let t = top(dicard)\n      move t to deck", 1),
        ("let ts = top_n(dek, 2)", 1),
        ("shuffle dek", 1),
        ("deal 2 from dek to hand[red]", 1),
        ('let c = choose from hnd[red] by red "a card"', 1),
        ("if ace in dek { move ace to deck }", 1),
        ("do crad.effect()", 1),
        ('log "{crad.value} {crad.worth(1)}"', 2),
        ('log "{[c for c in hnd[red]]} {count(c in dek)} {sum(c.value for c in dek)}"', 3),
    ],
)
def test_a_misspelt_name_is_one_error(tmp_path: Path, code: str, misspelt: int) -> None:
    got = errors(
        tmp_path,
        f"""
game: probe
players: {{names: [red, blue]}}
types:
  card: {{fields: {{value: int, worth: {{type: int, params: {{n: int}}, code: true, optional: true}},
                  effect: {{type: effect, optional: true}}}}}}
components:
  card:
    - {{id: ace, value: 1}}
zones:
  deck: {{of: card}}
  discard: {{of: card}}
  hand: {{of: card, per: player}}
phases:
  - name: main
    do: |
      {code}
      end game draw
""",
    )
    assert len(got) == misspelt, got  # one error where each misspelt name stands, nothing after it
    assert all("unknown-name" in g and "did you mean" in g for g in got), got


def test_a_play_log_keeps_an_enum_option_by_name_and_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Built in a workspace of its own, played with -o pace=slow, logged, replayed."""
    import shutil

    from rulewright.cli import main

    shutil.copytree(SPEC, tmp_path / "specs" / "enums")
    monkeypatch.chdir(tmp_path)
    assert main(["build"]) == 0
    log = tmp_path / "game.json"
    assert main(["play", "enums", "-o", "pace=slow", "--agents", "random,random", "--log", str(log)]) == 0
    assert json.loads(log.read_text(encoding="utf-8"))["options"] == {"pace": "slow"}
    assert main(["replay", str(log)]) == 0
    capsys.readouterr()
    assert main(["games", "--json"]) == 0
    listed = next(g for g in json.loads(capsys.readouterr().out) if g["name"] == "enums")
    assert listed["options"][0]["choices"] == ["brisk", "slow"]
    assert main(["games"]) == 0
    assert "-o pace=brisk  (speed, one of brisk, slow): brisk: 2 rounds, slow: 4" in capsys.readouterr().out
    assert main(["play", "enums", "-o", "pace=glacial", "--agents", "random,random"]) == 2
    assert "option 'pace' must be one of brisk, slow, not 'glacial'" in capsys.readouterr().err


def test_an_enums_name_is_the_list_of_its_values(tmp_path: Path) -> None:
    folder = tmp_path / "spec"
    folder.mkdir()
    (folder / "game.yaml").write_text(
        """
game: probe
players: {names: [red, blue]}
enums:
  colour: {values: [white, green, gold], labels: [White, Green, Gold]}
state:
  seen: int
phases:
  - name: main
    do: |
      for k in colour { seen += 1 }
      let k = choose from filter(x in colour where x != green) by red "colour"
      log "{len(colour)} {colour} {k in colour} {[x for x in colour where x != k]}"
      end game draw
""",
        encoding="utf-8",
    )
    result = compile_spec(folder)
    assert result.ok, render_all(result.diagnostics)
    m = import_package(result.files, "probe")
    s = Game(m.State, m.scenarios.SCENARIOS).new_initial_state(1)
    assert [s.action_to_string(a) for a in s.legal_actions()] == ["White", "Gold"]
    s.apply_action(s.string_to_action("Gold"))
    assert "3 White, Green, Gold yes White, Green" in s.log()
