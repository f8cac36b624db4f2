"""Components with identical copies (`copies: N` on a component row), on tests/specs/copies: a
deck of five Guards, three Coppers, two Estates and a Princess (components 0-4, 5-7, 8-9, 10).

A row is a kind: one action per kind, the answer the first copy offered; `choose N` may take a
kind again while copies of it remain; logs and views count repeats; scenarios name a kind once per
copy; saved states keep what a pending choice among copies needs, and are strictly checked."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import ModuleType

import pytest

import rulewright.scenarios
from compiler.diagnostics import render_all
from compiler.driver import compile_spec
from rulewright.spec_loader import import_package
from runtime.adapters.tensor import Encoder
from runtime.board import scene
from runtime.contract import checked_step
from runtime.engine import GameState, IllegalActionError
from runtime.game import Game
from runtime.saved import SavedStateError
from runtime.view import view_lines
from tests.conftest import ROOT

SPEC = ROOT / "tests" / "specs" / "copies"
GUARDS, COPPERS, ESTATES, PRINCESS = [0, 1, 2, 3, 4], [5, 6, 7], [8, 9], 10
# bottom to top: the deal gives North the five Guards and a Copper, South the rest
DEAL = [PRINCESS, *ESTATES, *COPPERS, *GUARDS]


@pytest.fixture(scope="module")
def engine() -> ModuleType:
    result = compile_spec(SPEC)
    assert result.ok, render_all(result.diagnostics)
    assert not result.diagnostics, render_all(result.diagnostics)
    return import_package(result.files, "copies")


@pytest.fixture(scope="module")
def game(engine: ModuleType) -> Game:
    return Game(engine.State, engine.scenarios.SCENARIOS, {})


def dealt(game: Game) -> GameState:
    return game.new_initial_state(1, forced_shuffles=[DEAL])


def labels(s: GameState) -> list[str]:
    return [s.action_to_string(a) for a in s.legal_actions()]


def play(s: GameState, *names: str) -> GameState:
    for name in names:
        s.apply_action(s.string_to_action(name))
    return s


def hand(s: GameState, player: int) -> list[int]:
    return s.z.piles[
        s.INFO.zones.index(next(z for z in s.INFO.zones if z.name == "hand" and z.owner == player))
    ]


def test_a_row_with_copies_is_consecutive_components_and_one_action(engine: ModuleType) -> None:
    info = engine.INFO
    card = info.type_names.index("card")
    assert info.type_labels[card] == ("Guard",) * 5 + ("Copper",) * 3 + ("Estate",) * 2 + ("Princess",)
    assert info.type_ids[card] == ("guard",) * 5 + ("copper",) * 3 + ("estate",) * 2 + ("princess",)
    assert info.kinds_of(card) == (0,) * 5 + (1,) * 3 + (2,) * 2 + (3,)
    assert info.domains[-1].labels == ("Guard", "Copper", "Estate", "Princess")  # one action per kind
    assert len(engine.State.INFO.domain_labels["entity:card"]) == 11  # the values: every copy


def test_choosing_one_of_five_guards_is_one_action(game: GameState) -> None:
    s = dealt(game)
    assert hand(s, 0) == [4, 3, 2, 1, 0, 7]
    assert labels(s) == ["Guard", "Copper"]
    play(s, "Guard")
    # the first Guard the rules listed (the hand's order) was played; per-copy state is per copy
    assert s.v_played == [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]
    assert hand(s, 0) == [3, 2, 1, 0, 7]


def test_choose_two_takes_a_kind_again_while_copies_remain(game: Game) -> None:
    s = play(dealt(game), "Guard")
    assert labels(s) == ["Guard", "Copper"]
    play(s, "Copper")
    assert labels(s) == ["Guard"]  # the one Copper is taken; Guards remain
    play(s, "Guard")
    assert s.log()[-1] == "North shows Copper, Guard"  # in the order picked
    assert labels(s) == ["pass", "Guard"]  # the Guard North played may come back
    play(s, "pass")
    play(s, "Princess", "Copper", "Copper")
    assert s.log()[-1] == "South shows Copper x2"


def test_choosing_two_of_three_coppers(game: Game) -> None:
    # a forced draw: North is dealt the three Coppers, two Guards and an Estate
    s = game.new_initial_state(1, forced_draws=[[5, 6, 7, 0, 1, 8]])
    assert sorted(hand(s, 0)) == [0, 1, 5, 6, 7, 8]
    play(s, "Estate")
    assert labels(s) == ["Guard", "Copper"]
    play(s, "Copper")
    assert labels(s) == ["Guard", "Copper"]  # two Coppers not yet picked remain
    play(s, "Copper")
    assert s.log()[-1] == "North shows Copper x2"
    assert s.log(len(s.log()) - 3)[:2] == ["[North only] North chooses Copper (two cards to show)"] * 2


def test_the_log_counts_repeated_kinds(engine: ModuleType) -> None:
    info = engine.INFO
    assert info.shown("list[entity:card]", [5, 6, 7, 8, 9]) == "Copper x3, Estate x2"
    assert info.shown("list[entity:card]", [8, 0, 9, 1, 2, 10]) == "Estate x2, Guard x3, Princess"
    assert info.shown("entity:card", 3) == "Guard"


def test_an_illegal_action_leaves_the_state_byte_identical(game: Game) -> None:
    s = play(dealt(game), "Guard", "Copper")
    before = s.to_json()
    for label in ("Copper", "Princess"):  # the one Copper is picked already; no Princess in hand
        with pytest.raises(IllegalActionError):
            s.apply_action(s.INFO.labels.index(label))
        assert s.to_json() == before


def test_save_and_load_keep_a_pending_choice_among_copies(game: Game) -> None:
    s = play(dealt(game), "Guard", "Guard")
    text = s.to_json()
    pending = json.loads(text)["pending"]
    assert pending[5] == 2 and len(pending) == 10  # need 2, and the copies offered of each kind
    assert pending[9] == [[3, 2, 1, 0], [7]]
    restored = game.state_from_json(text)
    assert restored.to_json() == text
    play(restored, "Guard")
    play(s, "Guard")
    assert restored.to_json() == s.to_json()
    assert s.log()[-1] == "North shows Guard x2"


@pytest.mark.parametrize(
    "change",
    [
        lambda p: p.__setitem__(9, [[3, 2, 1, 7], [0]]),  # a copy under another kind
        lambda p: p.__setitem__(9, [[3, 2, 1, 0, 0], [7]]),  # a copy offered twice
        lambda p: p.__setitem__(9, [[3, 2, 1, 0]]),  # not one list per option
        lambda p: p.__setitem__(5, 0),  # need 0
        lambda p: p.__setitem__(6, [p[1][1], p[1][1]]),  # the one Copper picked twice
        lambda p: p.pop(9),  # the copies left out
    ],
)
def test_a_tampered_choice_among_copies_is_refused(game: Game, change: object) -> None:
    s = play(dealt(game), "Guard")
    data = json.loads(s.to_json())
    assert callable(change)
    change(data["pending"])
    with pytest.raises(SavedStateError):
        game.state_from_json(json.dumps(data))


def test_observations_list_copies_and_the_tensor_counts_kinds(game: Game) -> None:
    s = dealt(game)
    obs = s.observation(0)
    zones = obs["zones"]
    assert isinstance(zones, dict)
    assert zones["hand[North]"] == ["Guard"] * 5 + ["Copper"]
    assert zones["hand[South]"] == {"count": 5}
    encoder = Encoder(s)
    vector = encoder.encode(s, 0)
    # whose turn (2) and over (1); a slot per kind (4) in each zone (deck, two hands, table), the
    # hidden ones their size in the first; then `played`, a value per copy, and `score`
    assert encoder.size == 3 + 4 * 4 + 11 + 2
    assert list(vector[3:15]) == [0.0] * 4 + [5.0, 1.0, 0.0, 0.0] + [5.0, 0.0, 0.0, 0.0]


def test_views_count_identical_cards(game: Game) -> None:
    s = dealt(game)
    lines = view_lines(scene(s, 0))
    assert any(line.startswith("hand[North] (6): Guard x5, Copper") for line in lines), lines
    rows = {z.key: z for z in scene(s, 0).zones}
    cards = rows["hand[North]"].cards
    assert cards is not None
    assert [(c.label, c.count) for c in cards] == [("Guard", 5), ("Copper", 1)]


def test_scenarios_name_a_kind_once_per_copy(engine: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        rulewright.scenarios,
        "load_game",
        lambda name, options=None: Game(engine.State, engine.scenarios.SCENARIOS, options),
    )
    for sc in engine.scenarios.SCENARIOS:
        result = rulewright.scenarios.run_scenario("copies", dict(sc))
        assert result.ok, f"{Path(sc['file']).name}: {result.message}"


def test_forced_shuffles_and_picks_take_the_piles_own_copies(game: Game) -> None:
    # a forced order names the first copy of a kind once per copy: the pile's copies are taken
    s = game.new_initial_state(1, forced_shuffles=[[10, 8, 8, 5, 5, 5, 0, 0, 0, 0, 0]])
    assert sorted(hand(s, 0)) == [0, 1, 2, 3, 4, 7]
    s = game.new_initial_state(1)
    info = s.INFO
    kinds = info.kinds_of(info.type_names.index("card"))
    s.rng.forced_picks = [0]
    assert s.pick_kinds([9, 3, 2], kinds) == 3  # a Guard: the first among those picked from


def test_random_games_keep_the_engine_contract(game: Game) -> None:
    for seed in range(12):
        rnd = random.Random(seed)
        s = game.new_initial_state(seed)
        while not s.is_terminal():
            s = checked_step(s, rnd.choice(s.legal_actions()), rnd)
        assert s.reason in ("more points", "even")


def test_games_without_copies_compile_as_before() -> None:
    for name in ("iron_curtain", "channel_tunnel"):
        text = (ROOT / "generated" / name / "engine.py").read_text(encoding="utf-8")
        assert "decide_kinds" not in text and "type_kinds" not in text


def test_the_adapters_play_a_game_with_copies() -> None:
    """OpenSpiel's and PettingZoo's own test suites on the spec: a tensor of counts per kind."""
    import warnings

    pyspiel = pytest.importorskip("pyspiel", reason="install the rl extra: pip install -e '.[rl]'")
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from rulewright.spec_loader import load_spec
    from runtime.adapters import openspiel
    from runtime.adapters.pettingzoo import env

    name = openspiel.register(load_spec(SPEC))
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=5, serialize=False, verbose=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(load_spec(SPEC)), num_cycles=100)


def test_the_replay_page_counts_identical_cards_side_by_side(game: Game) -> None:
    from rulewright.replay_html import page, replay_data

    # seed 2 deals North Copper, Copper, Estate, Guard, Copper, Guard: the two Coppers side by side
    assert game.new_initial_state(2).observation(0)["zones"]["hand[North]"][:2] == ["Copper", "Copper"]  # type: ignore[index]
    assert "Copper x2" in page(replay_data(game, 2, [], perspectives=[0]))
    s = game.new_initial_state(1)  # North holds two Estates, two Coppers, a Guard, the Princess
    assert s.observation(0)["zones"]["hand[North]"] == [
        "Estate",
        "Copper",
        "Guard",
        "Estate",
        "Copper",
        "Princess",
    ]  # type: ignore[index]
    text = page(replay_data(game, 1, [s.string_to_action("Guard")], perspectives=[0]))
    # apart in the hand, they are listed apart: its order still shows
    assert "Estate x2" not in text and "Copper x2" not in text


def test_a_saved_choice_of_a_game_without_copies_has_no_copies() -> None:
    import runtime

    game = runtime.load_game("iron_curtain")
    s = game.new_initial_state(1)
    data = json.loads(s.to_json())
    assert len(data["pending"]) == 9
    data["pending"].append([[0]])
    with pytest.raises(SavedStateError, match="'pending' must be a list of 9 items, not 10"):
        game.state_from_json(json.dumps(data))
