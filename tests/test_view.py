"""The terminal view (runtime/view.py): drawn from one player's scene, so it never shows what
the player may not see; tracks as bars, places grouped in aligned columns with control in words,
a hex layer as a map of staggered cells, a grid as a grid map, zones as rows of names and values,
and a card's text on request."""

from __future__ import annotations

import random
import re
from pathlib import Path

from rulewright.spec_loader import load_spec
from runtime.engine import GameState
from runtime.game import load_game
from runtime.view import card_text, describe

ROOT = Path(__file__).resolve().parents[1]


def played(name: str, steps: int, options: dict[str, object] | None = None, seed: int = 3) -> GameState:
    state = load_game(name, options).new_initial_state(seed)
    rng = random.Random(1)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def zone(state: GameState, name: str) -> list[int]:
    """The pile of zone `name` (one of its per-player piles: `hand[1]`)."""
    base, _, index = name.partition("[")
    found = [
        i
        for i, z in enumerate(state.INFO.zones)
        if z.name == base and (not index or z.owner == int(index.rstrip("]")))
    ]
    return state.z.piles[found[0]]


def test_the_view_depends_only_on_what_the_player_sees() -> None:
    """Swapping a card of the rival's hidden hand with one of the hidden deck leaves the view
    of player 0 as it was (and changes the rival's own)."""
    for name in ("twilight_struggle", "iron_curtain", "guerra_fronteriza"):
        state = played(name, 40)
        hand, deck = (
            zone(state, "hand[1]"),
            zone(state, "deck" if name != "guerra_fronteriza" else "attack_deck"),
        )
        assert hand and deck, name
        before = describe(state, 0), describe(state, 1)
        hand[0], deck[-1] = deck[-1], hand[0]
        assert describe(state, 0) == before[0], name
        assert describe(state, 1) != before[1], name


def test_a_hidden_hand_is_a_count() -> None:
    state = played("twilight_struggle", 30)
    text = describe(state, 0)
    theirs = zone(state, "hand[1]")
    labels = state.INFO.type_labels[state.INFO.type_names.index("card")]
    assert f"hand[USSR]: {len(theirs)} face down" in text.splitlines()
    for c in theirs:
        assert f"{labels[c]} (" not in text
    mine = " ".join(line for line in text.splitlines() if line.startswith("hand[US] "))  # it may go on
    for c in zone(state, "hand[0]"):
        assert f"{labels[c]} (" in mine


def test_places_are_grouped_in_columns_with_control_in_words() -> None:
    state = played("twilight_struggle", 60)
    lines = describe(state, 0).splitlines()
    assert "-- Countries --  (* battleground)" in lines
    head = next(line for line in lines if line.lstrip().startswith("Europe:"))
    assert re.fullmatch(r"  Europe:\s+stab\s+US\s+USSR\s+control", head)
    uk = next(line for line in lines if line.strip().startswith("UK "))
    assert re.fullmatch(r"    UK\s+5\s+\d+\s+\d+\s+(US|USSR|-)", uk)
    assert any(re.fullmatch(r"  \* West Germany\s+4\s+\d+\s+\d+\s+(US|USSR|-)", line) for line in lines)
    columns = {line.index("stab") for line in lines if line.endswith("control")}
    assert len(columns) == 1  # every group's header lines up
    for region in ("Asia:", "Middle East:", "Central America:", "South America:", "Africa:"):
        assert any(line.lstrip().startswith(region) for line in lines)


def test_tracks_are_bars_and_counters_are_words() -> None:
    lines = describe(played("twilight_struggle", 10), 1).splitlines()
    vp = next(line for line in lines if line.startswith("VP "))
    assert re.fullmatch(r"VP\s+-20 ·*●·* 20  \(-?\d+\)", vp) and len(vp.split()[2]) == 41
    assert any(re.fullmatch(r"Space race USSR\s+0 [·●]{9} 8  \(\d\)", line) for line in lines)
    assert any(re.fullmatch(r"China Card face up: (yes|no)", line) for line in lines)


def test_a_hex_layer_is_a_map_of_staggered_cells() -> None:
    for operation in (2, 3, 4):
        state = played("guerra_fronteriza", 120, {"operation": operation})
        lines = describe(state, 0).splitlines()
        start = lines.index(next(line for line in lines if line.startswith("-- The map --")))
        end = lines.index("", start)
        drawn = lines[start + 1 : end]
        assert all(len(line) <= 104 for line in drawn), operation
        tiles = state.INFO.type_labels[state.INFO.type_names.index("tile")]
        ops = [t for t, i in enumerate(tiles) if state.INFO.type_ids[0][t].startswith(f"c{operation}_")]
        for t in ops:
            assert any(f"| {tiles[t][:15]}" in line or f"*{tiles[t][:15]}" in line for line in drawn)
        # staggered rows: some rows' cells start half a cell to the side of others'
        rows = [[i for i, ch in enumerate(line) if ch == "|"] for line in drawn if "|" in line]
        width = min(b - a for row in rows for a, b in zip(row, row[1:], strict=False))
        assert {row[0] % width for row in rows} == {0, width // 2}, operation
        assert not any(line.startswith("-- Tile") for line in lines)  # the map says it all


def test_a_grid_is_a_grid_map_and_a_table() -> None:
    lines = describe(played("iron_curtain", 40), 0).splitlines()
    start = lines.index(next(line for line in lines if line.startswith("-- The map --")))
    assert re.fullmatch(r"\s+-?\d+(\s+-?\d+)+", lines[start + 1])  # the columns' numbers
    assert any(re.match(r"\s+0 .*Berlin", line) for line in lines[start + 2 : start + 10])
    assert any(line.endswith("control") and "value" in line for line in lines)


def test_zones_are_names_and_values() -> None:
    state = played("channel_tunnel", 60, {"agenda": True})
    lines = describe(state, 0).splitlines()
    display = next(line for line in lines if line.startswith("display ("))
    assert re.fullmatch(r"display \(3\): [^,]+ \(\d\), [^,]+ \(\d\), [^,]+ \(\d\)", display)
    assert any(re.fullmatch(r"route_hidden\[France\]: \d+ face down", line) for line in lines)
    assert any(
        re.fullmatch(r"  tunnel\s+\d of 9 spaces bored\s+\d of 9 spaces bored", line) for line in lines
    )
    assert any(line.startswith("Reached the centre: ") for line in lines)


def test_card_text_on_request() -> None:
    state = played("twilight_struggle", 0)
    assert card_text(state, 0, "nato").startswith("NATO (4): ")
    assert card_text(state, 0, "  The   china card ").startswith("The China Card (4): ")
    assert card_text(state, 0, "Vietnam").startswith("Vietnam Revolts (2): ")  # a beginning will do
    assert card_text(state, 0, "De").startswith("which one? De Gaulle Leads France, De-Stalinization, ")
    assert card_text(state, 0, "no such card") == "no card named 'no such card'"
    gf = played("guerra_fronteriza", 0)
    assert card_text(gf, 0, "north city") == "North City"  # no text for tiles: the name alone
    ct = played("channel_tunnel", 0)
    assert card_text(ct, 1, "heavy machinery") == (
        "Heavy Machinery (2): red: after any action, one more Plan, Tunnel, Finance or Technology; "
        "2 VP, 1 million; develop: one debris on it (one use); secondary action: finance"
    )


def test_a_game_without_a_board_is_viewed_from_its_state() -> None:
    """No board.yaml: the plain board's counters, and a layer of each component type with values
    of its own, a row per component that has one set."""
    state = load_spec(ROOT / "tests" / "specs" / "features", rules_only=True).new_initial_state(3)
    rng = random.Random(1)
    for _ in range(10):
        state.apply_action(rng.choice(state.legal_actions()))
    lines = describe(state, 0).splitlines()
    assert lines[0] == "=== Gemfire: what red sees ===" and "-- Counters --" in lines
    assert any(line.startswith("score: red ") for line in lines)
    assert not any(line.startswith("bids") for line in lines)  # owner-only: not on a board
    assert any(re.fullmatch(r"hand\[blue\]: \d face down", line) for line in lines)
