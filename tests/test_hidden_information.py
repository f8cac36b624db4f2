"""Looks at hidden cards stay private: what one player is shown never reaches the other player's
information state (observation and log, as the OpenSpiel adapter builds it) or the public log.

The positions are the Twilight Struggle scenarios named below; each case lists the cards that were
looked at and must stay hidden from `other`, and the player who looked."""

from __future__ import annotations

import pytest

import runtime
from runtime.engine import GameState
from runtime.scenarios import run_scenario

# (scenario file, who looked, who must not learn it, text that must stay hidden from that player);
# players by their labels
CASES = [
    # Lone Gunman: the USSR sees the US hand; the US knows its own hand, so only the public log and
    # the US's own log must not carry the look.
    ("lone_gunman_hand_seen_by_ussr_only.yaml", "USSR", "US", ["You see"]),
    # Our Man in Tehran: the four cards returned to the deck are never named to the USSR.
    (
        "our_man_in_tehran_look_is_private.yaml",
        "US",
        "USSR",
        ["You see", "Nuclear Subs", "Arms Race", "Junta", "OPEC"],
    ),
    # Grain Sales returned: the USSR holds the card, but no line tells it which one was drawn.
    ("grain_sales_to_soviets_returned_card_stays_hidden.yaml", "US", "USSR", ["You see"]),
]


def _final_state(file: str) -> GameState:
    game = runtime.load_game("twilight_struggle")
    (scenario,) = [sc for sc in game.scenarios if sc["file"].endswith("/" + file)]
    result = run_scenario("twilight_struggle", scenario)
    assert result.ok and result.state is not None, result.message
    return result.state


def _information_state(state: GameState, player: int) -> str:
    """What the OpenSpiel adapter gives `player`: the observation and the player's log."""
    return state.observation_string(player) + "\n" + "\n".join(state.player_log(player))


@pytest.mark.skipif("twilight_struggle" not in runtime.available_games(), reason="no twilight_struggle")
@pytest.mark.parametrize(("file", "looker", "other", "hidden"), CASES, ids=[c[0] for c in CASES])
def test_a_look_reaches_only_the_player_who_looks(
    file: str, looker: str, other: str, hidden: list[str]
) -> None:
    state = _final_state(file)
    names = list(state.INFO.player_names)
    public = "\n".join(text for who, text in state.lines if who < 0)
    theirs = _information_state(state, names.index(other))
    mine = "\n".join(state.player_log(names.index(looker)))
    assert "You see" in mine, "the player who looks is shown the cards"
    for word in hidden:
        assert word not in public, f"the public log names {word!r}"
        assert word not in theirs, f"{other}'s information state names {word!r}"
