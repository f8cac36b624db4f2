"""The DSL features Iron Curtain does not use, end to end, in an invented game (tests/specs/features).

The spec is compiled here (it is not under specs/, so `rulewright build` never sees it), its
engine is imported from a temporary file, and then: many seeded random games per player count and
option value, with the engine contract checked after every action; every scenario of the spec;
and a few targeted tests (hidden information, a decision several calls deep, illegal actions).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import rulewright.scenarios
from compiler.diagnostics import render_all
from compiler.driver import compile_spec
from rulewright.spec_loader import import_package
from runtime.engine import TERMINAL, GameState, IllegalActionError
from runtime.game import Game
from tests.conftest import ROOT

SPEC = ROOT / "tests" / "specs" / "features"
SCENARIO_FILES = sorted((SPEC / "scenarios").glob("*.yaml"))
GAMES_PER_CONFIG = 40


# ---- the compiled engine ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """Compile tests/specs/features and import its engine.py as a standalone module."""
    result = compile_spec(SPEC)
    assert result.ok, "the features spec does not compile:\n" + render_all(result.diagnostics)
    errors_or_warnings = [d for d in result.diagnostics if d.severity in ("error", "warning")]
    assert not errors_or_warnings, render_all(errors_or_warnings)
    return import_package(result.files, "features")


def make_game(engine: ModuleType, **options: Any) -> Game:
    return Game(engine.State, engine.scenarios.SCENARIOS, options)


def label_actions(s: GameState) -> dict[str, int]:
    return {s.action_to_string(a): a for a in s.legal_actions()}


def play(s: GameState, *labels: str) -> GameState:
    for label in labels:
        s.apply_action(s.string_to_action(label))
    return s


def zone_index(engine: ModuleType, name: str, owner: int = -1) -> int:
    for i, z in enumerate(engine.INFO.zones):
        if z.name == name and z.owner == owner:
            return i
    raise KeyError((name, owner))


# ---- the engine contract, after every action of many random games -----------------------------


def check_hidden_information(engine: ModuleType, s: GameState) -> None:
    """A player's observation never shows another player's hand or bid, nor the deck."""
    info = engine.INFO
    names = info.player_names
    for p in range(s.num_players):
        obs = s.observation(p)
        json.dumps(obs)  # observations are plain data
        zones = obs["zones"]
        assert isinstance(zones, dict)
        assert zones["deck"] == {"count": len(s.z.piles[zone_index(engine, "deck")])}
        for q in range(s.num_players):
            for zname in ("hand", "bid"):
                pile = s.z.piles[zone_index(engine, zname, q)]
                seen = zones[f"{zname}[{names[q]}]"]
                if q == p:
                    assert seen == [info.type_labels[0][g] for g in pile]
                else:
                    assert seen == {"count": len(pile)}, f"{names[p]} sees {names[q]}'s {zname}"
            seen_vault = zones[f"vault[{names[q]}]"]
            assert seen_vault == [info.type_labels[0][g] for g in s.z.piles[zone_index(engine, "vault", q)]]
        variables = obs["variables"]
        assert isinstance(variables, dict)
        assert [v is not None for v in variables["bids"]] == [q == p for q in range(s.num_players)]
        if "decision" in obs:
            assert s.current_player() == p


def check_contract(engine: ModuleType, game: Game, s: GameState) -> None:
    text = s.to_json()
    for name, why, check, _ in engine.INFO.invariants:
        assert check(s), f"invariant {name} broken ({why})\n" + "\n".join(s.log()[-15:])
    assert engine.INFO.invariants and s.to_json() == text, "checking the invariants changed the state"
    for p in range(s.num_players):
        assert isinstance(engine.INFO.evaluate(s, p), int)
    assert s.to_json() == text, "evaluating the position changed the state"
    restored = game.state_from_json(text)
    assert restored.to_json() == text
    check_hidden_information(engine, s)
    if s.is_terminal():
        assert s.legal_actions() == []
        assert s.current_player() == TERMINAL
    else:
        assert s.legal_actions(), "a live state with no legal action"
        assert 0 <= s.current_player() < s.num_players


def random_game(engine: ModuleType, game: Game, seed: int) -> GameState:
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    check_contract(engine, game, s)
    steps = 0
    while not s.is_terminal():
        action = rng.choice(s.legal_actions())
        before = s.to_json()
        clone = s.clone()
        restored = game.state_from_json(before)
        clone.apply_action(action)
        assert s.to_json() == before, "applying an action to a clone changed the original"
        s.apply_action(action)
        restored.apply_action(action)
        after = s.to_json()
        assert clone.to_json() == after, "the clone continued differently"
        assert restored.to_json() == after, "the state restored from JSON continued differently"
        check_contract(engine, game, s)
        steps += 1
        assert steps < 500, "the game does not end"
    returns = s.returns()
    assert len(returns) == s.num_players == game.num_players
    if s.winner >= 0:
        assert returns[s.winner] == 1.0 and abs(sum(returns)) < 1e-9
    else:
        assert returns == [0.0] * s.num_players
    return s


@pytest.mark.parametrize("sudden_death", [False, True])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_keep_the_engine_contract(engine: ModuleType, seats: int, sudden_death: bool) -> None:
    endings: dict[str, int] = {}
    for i in range(GAMES_PER_CONFIG):
        rounds = (1, 2, 3)[i % 3]
        game = make_game(engine, seats=seats, sudden_death=sudden_death, rounds=rounds)
        assert game.num_players == seats
        s = random_game(engine, game, seed=1000 * seats + 10 * i + int(sudden_death))
        endings[s.reason] = endings.get(s.reason, 0) + 1
    # the random games reach both kinds of ending (a winner and a draw) ...
    assert endings.get("the highest score", 0) > 0
    assert endings.get("a shared highest score", 0) > 0
    # ... and sudden death happens only with the option on
    assert (endings.get("sudden death", 0) > 0) == sudden_death, endings


def test_player_count_comes_from_the_option(engine: ModuleType) -> None:
    for seats in (2, 3, 4):
        s = make_game(engine, seats=seats).new_initial_state(7)
        assert s.num_players == seats
        assert len(s.returns()) == seats
        assert sum(len(s.z.piles[zone_index(engine, "hand", p)]) for p in range(4)) == 3 * seats
        assert any(f"{seats} players; {16 - 3 * seats} gems left in the deck" in line for line in s.log())
    with pytest.raises(ValueError, match="seats"):
        make_game(engine, seats=5)


# ---- scenarios --------------------------------------------------------------------------------


def scenario_named(engine: ModuleType, path: Path) -> dict[str, Any]:
    for sc in engine.scenarios.SCENARIOS:
        if Path(sc["file"]).name == path.name:
            return dict(sc)
    raise AssertionError(f"{path} was not compiled into the engine")


def run(
    engine: ModuleType, monkeypatch: pytest.MonkeyPatch, path: Path
) -> rulewright.scenarios.ScenarioResult:
    """rulewright.scenarios.run_scenario, with load_game pointed at the engine compiled here."""
    monkeypatch.setattr(
        rulewright.scenarios,
        "load_game",
        lambda name, options=None: Game(engine.State, engine.scenarios.SCENARIOS, options),
    )
    return rulewright.scenarios.run_scenario("features", scenario_named(engine, path))


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[p.stem for p in SCENARIO_FILES])
def test_scenario(engine: ModuleType, monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    result = run(engine, monkeypatch, path)
    log = "\n".join(result.state.log()) if result.state is not None else ""
    assert result.ok, f"{path.name}: {result.message}\n{log}"


def test_every_scenario_file_is_compiled(engine: ModuleType) -> None:
    assert len(SCENARIO_FILES) >= 20
    assert sorted(Path(sc["file"]).name for sc in engine.scenarios.SCENARIOS) == [
        p.name for p in SCENARIO_FILES
    ]


def test_secret_bid_is_logged_only_to_the_bidder(engine: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(engine, monkeypatch, SPEC / "scenarios" / "secret_bid.yaml")
    assert result.ok, result.message
    s = result.state
    assert s is not None
    red, blue = 0, 1

    def secret(line: str, who: str, gem: str) -> bool:
        return gem in line and "secret bid" in line and line.startswith(f"[{who} only]")

    assert [ln for ln in s.log() if secret(ln, "red", "Mica")], s.log()
    assert [ln for ln in s.log() if secret(ln, "blue", "Nacre")], s.log()
    assert any("Mica" in ln and "secret bid" in ln for ln in s.player_log(red))
    assert not any("Mica" in ln and "secret bid" in ln for ln in s.player_log(blue))
    assert not any("Nacre" in ln and "secret bid" in ln for ln in s.player_log(red))
    # after the reveal everyone knows both bids
    for p in (red, blue):
        assert "Revealed: Mica" in s.player_log(p) and "Revealed: Nacre" in s.player_log(p)


def test_a_secret_bid_is_hidden_until_revealed(engine: ModuleType) -> None:
    game = make_game(engine)
    sc = scenario_named(engine, SPEC / "scenarios" / "secret_bid.yaml")
    s = game.new_initial_state(sc["seed"], after_setup=sc["setup"])
    play(s, "Mica")
    bid_red = s.z.piles[zone_index(engine, "bid", 0)]
    assert [engine.INFO.type_labels[0][g] for g in bid_red] == ["Mica"]
    assert s.observation(1)["zones"]["bid[red]"] == {"count": 1}  # type: ignore[index]
    assert s.observation(0)["zones"]["bid[red]"] == ["Mica"]  # type: ignore[index]
    assert "Mica" not in json.dumps(s.observation(1))
    assert not any("Mica" in line for line in s.player_log(1))
    assert s.observation(1)["variables"]["bids"] == [None, 0]  # type: ignore[index]


def test_a_decision_three_calls_deep_clones_and_round_trips(engine: ModuleType) -> None:
    """effect -> raid -> plunder -> ask: the whole call stack is state."""
    game = make_game(engine, seats=3)
    sc = scenario_named(engine, SPEC / "scenarios" / "deep_decision.yaml")
    s = game.new_initial_state(sc["seed"], after_setup=sc["setup"])
    play(s, "Mica", "Nacre", "Jade", "Beryl", "invoke")
    names = [type(f).__name__ for f in s.stack]
    assert names[-4:] == ["Proc_play_turn", "Eff_gem_effect_beryl", "Proc_raid", "Proc_plunder"], names
    assert s.pending is not None and s.prompt() == "take a random gem from this player?"
    restored = game.state_from_json(s.to_json())
    assert [type(f).__name__ for f in restored.stack] == names
    other = s.clone()
    play(s, "yes")
    play(other, "no")
    hematite = engine.engine.E_hematite
    assert hematite in s.z.piles[zone_index(engine, "hand", 0)]
    assert hematite in other.z.piles[zone_index(engine, "hand", 1)]
    # both continue to the second plunder (green), the raid's next loop pass
    for st in (s, other, play(restored, "yes")):
        assert [type(f).__name__ for f in st.stack][-1] == "Proc_plunder"
    assert restored.to_json() == s.to_json()


def test_choose_two_returns_a_list_of_distinct_gems(engine: ModuleType) -> None:
    game = make_game(engine)
    sc = scenario_named(engine, SPEC / "scenarios" / "choose_two_list.yaml")
    s = game.new_initial_state(sc["seed"], after_setup=sc["setup"])
    play(s, "Mica", "Nacre", "Citrine", "invoke", "Jade")
    assert "Jade" not in label_actions(s)
    frame = s.stack[-1]
    assert type(frame).__name__ == "Eff_gem_effect_citrine"
    play(s, "Lapis")
    assert frame.l_picks == [engine.engine.E_jade, engine.engine.E_lapis]  # type: ignore[attr-defined]


# ---- illegal actions --------------------------------------------------------------------------


def test_an_illegal_action_raises_and_changes_nothing(engine: ModuleType) -> None:
    game = make_game(engine, seats=3)
    s = game.new_initial_state(5)
    before = s.to_json()
    legal = set(s.legal_actions())
    illegal = next(
        a
        for a in range(game.num_distinct_actions())
        if a not in legal and s.action_to_string(a) not in ("pass",)
    )
    label = s.action_to_string(illegal)
    with pytest.raises(IllegalActionError, match=re.escape(f"{illegal} ({label})")):
        s.apply_action(illegal)
    assert s.to_json() == before
    with pytest.raises(IllegalActionError, match="no legal action 'nonsense'"):
        s.string_to_action("nonsense")
    assert s.to_json() == before
    # an action id beyond every domain
    with pytest.raises(IllegalActionError):
        s.apply_action(game.num_distinct_actions() + 3)
    assert s.to_json() == before
    # and a finished game takes no action at all
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    done = s.to_json()
    with pytest.raises(IllegalActionError, match="over"):
        s.apply_action(illegal)
    assert s.to_json() == done


# ---- the spec really uses every feature -------------------------------------------------------

FEATURES = {
    "int option": r"seats: \{type: int",
    "bool option": r"\{type: bool, default: false",
    "player count from an option": r"count: seats",
    "per-player zone, owner visibility": r"per: player, visibility: owner",
    "hidden deck": r"deck: \{of: gem, visibility: hidden\}",
    "deal": r"\bdeal \d+ from deck to hand\[p\]",
    "shuffle": r"\bshuffle deck\b",
    "move to bottom": r"\bto bottom of deck\b",
    "dice": r"\broll\(6\)",
    "random": r"\brandom\(hand\[q\]\)",
    "top": r"\btop\(deck\)",
    "choose 2": r"\bchoose 2 from\b",
    "choose number": r"\bchoose number from\b",
    "ask": r'\bask "',
    "optionally choose": r"\boptionally choose from\b",
    "secretly choose": r"\bsecretly choose from\b",
    "reveal": r"\breveal top\(bid\[p\]\)",
    "show": r"\bshow \w+(\(deck\))? to p\b",
    "next_player": r"\bnext_player\(",
    "typed let of an empty list": r"\blet bidders: list\[player\] = \[\]",
    "while statement": r"^\s*while n > 0 \{",
    "repeat statement": r"\brepeat num_players \{",
    "for where": r"\bfor q in players where\b",
    "effect field with params": r"effect: \{type: effect, params: \{p: player\}",
    "do effect": r"\bdo g\.effect\(p\)",
    "expression field with params": r"power: \{type: int, params: \{n: int\}, code: true",
    "expression field call": r"\bg\.power\(num_players\)",
    "events": r"^events:",
    "trigger with if": r"^\s+if: \"n >= 4\"",
    "emit": r"\bemit scored\(p, amount\)",
    "add until end of phase": r"\badd doubled\(lead\) until end of round\b",
    "add until cancelled": r"\badd shielded\(p\) until cancelled\b",
    "cancel": r"\bcancel shielded\(",
    "active": r"\bactive shielded\(p\)",
    "nested phases": r"^\s+steps:",
    "repeat phase with counter": r"repeat: rounds\n\s+counter: round",
    "while phase with counter": r"while: \"turn < num_players\"\n\s+counter: turn",
    "end game winner": r"\bend game winner\b",
    "end game draw": r"\bend game draw\b",
    "invariants": r"^invariants:",
    "evaluation": r"^evaluation: \|\n\s+10 \* score\[p\]",
    "bounded variable": r"heat: \{type: int, min: 0, max: 5",
    "string interpolation": r'log "\{p\} gains \{amount\}',
    "list comprehension": r"\[p for p in bidders where",
    "count": r"\bcount\(p in players where",
    "any": r"\bany\(p in players where",
    "all": r"\ball\(q in players where",
    "filter": r"\bfilter\(p in players where",
    "sum": r"\bsum\(score\[p\] for p in players\)",
    "min": r"\bmin\(score\[p\] for p in players\)",
    "max": r"\bmax\(score\[p\] for p in players\)",
}


def test_the_spec_uses_every_feature() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(SPEC.glob("*.yaml")))
    missing = [name for name, pattern in FEATURES.items() if not re.search(pattern, text, re.M)]
    assert not missing, f"the features spec no longer uses: {missing}"


# ---- known compiler/runtime bugs (strict xfails: delete the marker when the bug is fixed) ------


def compile_inline(tmp_path: Path, game_yaml: str) -> ModuleType:
    """Compile a one-file spec written in a test, and import its engine."""
    folder = tmp_path / "spec"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(game_yaml, encoding="utf-8")
    result = compile_spec(folder)
    assert result.ok, render_all(result.diagnostics)
    return import_package(result.files, f"inline_{tmp_path.name}")


CARDS = """
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
"""


def test_bug_let_of_a_zone_survives_clone_and_json(tmp_path: Path) -> None:
    m = compile_inline(
        tmp_path,
        CARDS
        + """
setup: |
  for x in card { move x to deck }
  deal 1 from deck to hand[red]
phases:
  - name: main
    do: |
      let h = hand[red]
      let go = ask "go?" by red
      deal 1 from deck to hand[red]
      log "h holds {len(h)}"
      end game draw
""",
    )
    game = Game(m.State, m.scenarios.SCENARIOS, {})
    s = game.new_initial_state(1)
    restored = game.state_from_json(s.to_json())
    clone = s.clone()
    results = []
    for st in (clone, s, restored):  # the clone first: its `h` is the original's pile
        st.apply_action(st.string_to_action("yes"))
        results.append([line for line in st.log() if "holds" in line])
    assert results[0] == results[1] == results[2], results


def test_bug_chance_in_a_subject_or_event_argument_runs_once(tmp_path: Path) -> None:
    m = compile_inline(
        tmp_path,
        """
game: probe
players: {names: [red, blue]}
types:
  card:
    fields:
      effect: {type: effect, params: {p: player}}
components:
  card:
    - {id: a, effect: 'log "effect of a on {self}"'}
    - {id: b, effect: 'log "effect of b on {self}"'}
    - {id: c, effect: 'log "effect of c on {self}"'}
zones:
  deck: {of: card}
events:
  rolled: {params: {n: int}}
triggers:
  - {name: first, on: rolled, do: 'log "first sees {n}"'}
  - {name: second, on: rolled, do: 'log "second sees {n}"'}
setup: "for x in card { move x to deck }"
phases:
  - name: main
    do: |
      do random(deck).effect(red)
      emit rolled(roll(6))
      end game draw
""",
    )
    for seed in range(1, 8):
        s = Game(m.State, m.scenarios.SCENARIOS, {}).new_initial_state(seed)
        log = s.log()
        effect = next(line for line in log if line.startswith("effect of"))
        assert effect in ("effect of a on a", "effect of b on b", "effect of c on c"), log
        assert sum(1 for line in log if line.startswith("(rolled")) == 1, log
        seen = [line.split()[-1] for line in log if " sees " in line]
        assert seen[0] == seen[1], log


def test_bug_player_count_option_beyond_the_names_is_rejected(tmp_path: Path) -> None:
    folder = tmp_path / "spec"
    folder.mkdir()
    (folder / "game.yaml").write_text(
        CARDS.replace("players: {names: [red, blue]}", "players: {names: [red, blue], count: seats}")
        + """
options:
  seats: {type: int, default: 2, choices: [2, 3]}
setup: |
  for x in card { move x to deck }
  for p in players { deal 1 from deck to hand[p] }
phases:
  - name: main
    do: "end game draw"
""",
        encoding="utf-8",
    )
    result = compile_spec(folder)
    assert not result.ok, "3 seats but 2 player names: player 3's hand[p] is silently another zone"


def test_bug_checking_an_invariant_cannot_roll_dice(tmp_path: Path) -> None:
    folder = tmp_path / "spec"
    folder.mkdir()
    (folder / "game.yaml").write_text(
        """
game: probe
players: {names: [red, blue]}
invariants:
  - {name: dice, check: "roll(6) > 0", why: evaluating it rolls a die and logs it}
phases:
  - name: main
    do: "end game draw"
""",
        encoding="utf-8",
    )
    assert not compile_spec(folder).ok


def test_bug_a_phase_with_repeat_and_while_is_rejected_or_honours_both(tmp_path: Path) -> None:
    game_yaml = """
game: probe
players: {names: [red, blue]}
phases:
  - name: loop
    repeat: 3
    while: "false"
    do: 'log "a pass of loop"'
  - name: final
    do: "end game draw"
"""
    folder = tmp_path / "check"
    folder.mkdir()
    (folder / "game.yaml").write_text(game_yaml, encoding="utf-8")
    result = compile_spec(folder)
    if result.ok:  # no diagnostic: then the phase must honour `while: "false"` and never run
        m = compile_inline(tmp_path / "run", game_yaml)
        s = Game(m.State, m.scenarios.SCENARIOS, {}).new_initial_state(1)
        assert "a pass of loop" not in s.log(), s.log()


def test_saved_states_are_checked_against_the_declared_ranges_and_zones(engine: ModuleType) -> None:
    """The facts a loaded state is checked against (runtime/saved.py): each bounded variable's
    range, and the component types the setup places whole (`for g in gem { move g to deck }`)."""
    info = engine.INFO
    assert info.var_ranges == {"score": (0, None), "heat": (0, 5)}
    assert [info.type_names[t] for t in info.placed_types] == ["gem"]
    game = make_game(engine)
    s = game.new_initial_state(1)
    data = json.loads(s.to_json())
    data["vars"]["heat"] = 6
    with pytest.raises(ValueError, match=r"'vars.heat' is 6, outside its range 0..5"):
        game.state_from_json(json.dumps(data))
    data["vars"]["heat"], data["vars"]["score"][1] = 0, -1
    with pytest.raises(ValueError, match=r"'vars.score\[1\]' is -1, outside its range 0.."):
        game.state_from_json(json.dumps(data))
