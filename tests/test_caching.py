"""Cached functions: values kept until state they read changes, and the contract that checks them.

A small spec caches functions that read each kind of source (a variable, a pass counter, the
zones of a component type, a lasting effect) and one that reads them all through the others.
Random games keep every kept value current; a write made not to forget (its READ_ tuple emptied,
as a wrong read set would leave it) is caught by the contract, naming the function and its
arguments. Kept values are no part of a saved state, and a clone starts without them.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from compiler.diagnostics import render_all
from compiler.driver import compile_spec
from compiler.fingerprint import fingerprint
from rulewright.spec_loader import import_package
from runtime.contract import Checker, Violation
from runtime.game import Game

SPEC = """\
game: kept
players: {names: [ann, bob]}
types:
  card: {fields: {value: int}}
components:
  card: [{id: ace, value: 1}, {id: two, value: 2}, {id: three, value: 3}]
zones:
  deck: {of: card}
  hand: {of: card, per: player}
modifiers:
  boost: {params: {p: player}}
state:
  score: {type: int, per: player}
  round: int
functions:
  lead:
    params: {p: player}
    returns: int
    cached: true
    body: "score[p] - score[opponent(p)] + (if active boost(p) then 1 else 0)"
  holding:
    params: {p: player}
    returns: "list[card]"
    cached: true
    body: "filter(c in card where c in hand[p])"
  late:
    returns: int
    cached: true
    body: "round"
  worth:
    params: {p: player}
    returns: int
    cached: true
    body: "sum(c.value for c in holding(p)) + lead(p) + late()"
setup: "for c in card { move c to deck }"
phases:
  - name: rounds
    repeat: 3
    counter: round
    do: |
      for p in players {
        let c = choose from deck by p "take (worth {worth(p)})"
        move c to hand[p]
        let more = ask "score (lead {lead(p)})?" by p
        if more { score[p] += 1 }
        let boosted = ask "boost (lead {lead(p)})?" by p
        if boosted { add boost(p) until end of rounds } else { cancel boost(opponent(p)) }
      }
      move hand[ann] to deck
      move hand[bob] to deck
  - name: end
    do: "if worth(ann) > worth(bob) { end game winner ann } else { end game winner bob }"
"""

SOURCES = ("READ_var_score", "READ_var_round", "READ_zones_card", "READ_mod_boost")


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    folder = tmp_path_factory.mktemp("caching") / "kept"
    folder.mkdir()
    (folder / "game.yaml").write_text(SPEC, encoding="utf-8")
    result = compile_spec(folder)
    assert result.ok, render_all(result.diagnostics)
    return import_package(result.files, "kept")


def engine_of(package: ModuleType) -> ModuleType:
    return sys.modules[f"{package.__name__}.engine"]


def play(game: Game, seed: int) -> int:
    """A random game checked after every action; how many values were kept, summed over its
    decisions."""
    rnd = random.Random(seed)
    state = game.new_initial_state(seed)
    checker = Checker(random.Random(seed))
    kept = 0
    while not state.is_terminal():
        state = checker.step(state, rnd.choice(state.legal_actions()))
        kept += sum(len(c) for c in state.caches)
    return kept


def test_each_source_has_its_readers(package: ModuleType) -> None:
    engine = engine_of(package)
    cache = {name: getattr(engine, f"CACHE_{name}") for name in ("lead", "holding", "late", "worth")}
    assert engine.READ_var_score == (cache["lead"], cache["worth"])
    assert engine.READ_mod_boost == (cache["lead"], cache["worth"])
    assert engine.READ_zones_card == (cache["holding"], cache["worth"])
    assert engine.READ_var_round == (cache["late"], cache["worth"])
    assert [c[0] for c in package.State.INFO.cached] == ["lead", "holding", "late", "worth"]


def test_random_games_keep_every_value_current(package: ModuleType) -> None:
    game = Game(package.State, ())
    kept = sum(play(game, seed) for seed in range(20))
    assert kept > 0, "no value was ever kept: the test would check nothing"


@pytest.mark.parametrize("source", SOURCES)
def test_the_contract_catches_a_write_that_does_not_forget(
    package: ModuleType, source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine_of(package), source, ())  # a read set that misses this source
    game = Game(package.State, ())
    with pytest.raises(Violation) as caught:
        for seed in range(20):
            play(game, seed)
    v = caught.value
    assert (v.kind, v.name) == ("contract", "cached value")
    assert "computes" in v.detail and "did not make it forget" in v.detail
    assert v.detail.split("(")[0] in ("lead", "holding", "late", "worth")


def test_kept_values_are_not_saved_and_a_clone_starts_without_them(package: ModuleType) -> None:
    game = Game(package.State, ())
    state = game.new_initial_state(3)
    text = state.to_json()
    engine = engine_of(package)
    assert engine.f_worth(state, 0) == engine.f_worth(state, 0)
    assert state.caches[engine.CACHE_worth] and state.caches[engine.CACHE_holding]
    assert state.to_json() == text
    assert not any(state.clone().caches)
    assert not any(game.state_from_json(text).caches)


def test_marking_a_function_cached_does_not_change_its_fingerprint(tmp_path: Path) -> None:
    prints = []
    for text in (SPEC, SPEC.replace("    cached: true\n", "")):
        folder = tmp_path / str(len(prints)) / "kept"
        folder.mkdir(parents=True)
        (folder / "game.yaml").write_text(text, encoding="utf-8")
        result = compile_spec(folder, render=False)
        assert result.game is not None
        prints.append({k: e.digest for k, e in fingerprint(result.game).items()})
    assert prints[0] == prints[1]
