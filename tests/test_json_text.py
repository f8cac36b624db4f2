"""Saved states are written by orjson when it is installed (runtime/engine.py `json_text`), and the
text must be exactly the standard library's: logs hold the SHA-256 of a final state's JSON, and a
game must replay to the same text on a machine without orjson."""

from __future__ import annotations

import dataclasses
import enum
import random

import pytest

from runtime import engine, load_game
from runtime.engine import JSON, json_text

GAMES = (
    "iron_curtain",
    "twilight_struggle",
    "guerra_fronteriza",
    "channel_tunnel",
    "lost_cities",
    "goofspiel",
    "liars_dice",
)


def _saved_texts(name: str, seed: int) -> list[str]:
    game = load_game(name)
    state, rng, texts = game.new_initial_state(seed), random.Random(seed), []
    while not state.is_terminal():
        if len(texts) < 400 and rng.random() < 0.3:
            texts.append(state.clone().to_json())
        state.apply_action(rng.choice(state.legal_actions()))
    texts.append(state.to_json())
    return texts


@pytest.mark.parametrize("name", GAMES)
def test_saved_states_are_the_same_text_with_or_without_orjson(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if engine._DUMPS is None:
        pytest.skip("orjson is not installed: the standard library writes every text")
    fast = _saved_texts(name, 5)
    monkeypatch.setattr(engine, "_DUMPS", None)
    assert _saved_texts(name, 5) == fast


class Colour(enum.IntEnum):
    RED = 1


@dataclasses.dataclass
class Point:
    x: int


@pytest.mark.parametrize(
    "value",
    [
        [1, -2, True, False, None, "plain", (3, 4), {"k": [5]}],
        ["señal", "\x7f", "\x1f", "\u2028", '"quoted" \\ back'],
        [2**64 - 1, -(2**63), 2**64, -(2**63) - 1, 10**30],
        [Colour.RED, {"a": Colour.RED}],
        [[[[[[[[[[0]]]]]]]]]] * 3,
    ],
)
def test_json_text_is_the_standard_librarys(value: object) -> None:
    assert json_text(value) == JSON.encode(value)


def test_deep_nesting_and_refused_types_as_the_standard_library() -> None:
    deep: list[object] = []
    for _ in range(300):  # deeper than orjson writes
        deep = [deep]
    assert json_text(deep) == JSON.encode(deep)
    with pytest.raises(TypeError):
        json_text([Point(1)])
    assert json_text({1: "an integer key"}) == JSON.encode({1: "an integer key"})
