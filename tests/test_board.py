"""The board language (board.yaml) and scenes: a layer of the players (`of: player`), lists
shown with their repeats counted, a card's text written as a list of texts, a layer's `name`
and `mark`; and the bundled games' boards, drawn for every player without a hidden thing.

A tiny spec is written for each case, compiled on the fly and played."""

from __future__ import annotations

import html
import random
import re
from pathlib import Path

import pytest

from compiler.driver import compile_spec
from rulewright.spec_loader import load_spec
from runtime.board import scene
from runtime.game import load_game
from runtime.svg import SMALLEST, svg
from runtime.view import describe

RULES = """\
game: tiny
players: {names: [red, blue], labels: [Red, Blue]}
types:
  card: {fields: {colour: colour, points: int}}
  colour: {fields: {}}
components:
  colour:
    - {id: green, name: green}
    - {id: grey, name: grey}
  card:
    - {id: c1, name: One, colour: green, points: 1}
    - {id: c2, name: Two, colour: green, points: 2}
    - {id: c3, name: Three, colour: grey, points: 3}
    - {id: c4, name: Four, colour: grey, points: 4}
state:
  score: {type: int, per: player}
zones:
  deck: {of: card, visibility: hidden}
  hand: {of: card, per: player, visibility: owner}
  table: {of: card, per: player}
setup: |
  for c in card { move c to table[red] }
  move c3 to hand[blue]
phases:
  - name: main
    do: |
      score[red] += 1
      end game draw
"""

BOARD = """\
board:
  size: [600, 300]
  places:
    - of: player
      name: Player boards
      size: [250, 120]
      at: {red: [150, 80], blue: [450, 80]}
      show:
        score: "score[x]"
        colours: "[c.colour for c in table[x]]"
        hand: "len(hand[x])"
        note: 'if score[x] > 5 then "leads" else ""'
      owner: x
    - of: card
      name: Cards
      mark: high
      size: [80, 40]
      at: {c1: [100, 220], c2: [200, 220], c3: [300, 220], c4: [400, 220]}
      marked: x.points > 2
      show:
        points: x.points
  counters:
    - {name: Colours, each: player, value: "[c.colour for c in table[p]]"}
  cards:
    card:
      value: x.points
      text: '["{x.colour} card", if x.points > 3 then "the best" else "", "worth {x.points}"]'
"""


def _spec(tmp_path: Path, board: str = BOARD) -> Path:
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "game.yaml").write_text(RULES, encoding="utf-8")
    (folder / "board.yaml").write_text(board, encoding="utf-8")
    return folder


def test_a_layer_of_the_players_and_lists_counted(tmp_path: Path) -> None:
    state = load_spec(_spec(tmp_path)).new_initial_state(1)
    sc = scene(state, 0)
    players, cards = sc.layers
    assert (players.of, players.name) == ("player", "Player boards")
    red, blue = players.places
    assert (red.id, red.label, red.owner, red.x) == ("Red", "Red", 0, 150.0)
    assert (blue.label, blue.owner) == ("Blue", 1)
    assert dict(red.values) == {"score": "1", "colours": "2 green, 1 grey", "hand": "0", "note": ""}
    assert dict(blue.values)["hand"] == "1"  # a hand's size is public, its cards are not
    assert [t.text for t in sc.tracks] == ["Red 2 green, 1 grey  Blue "]
    assert (cards.name, cards.mark) == ("Cards", "high")
    assert [p.marked for p in cards.places] == [False, False, True, True]
    table = next(z for z in sc.zones if z.key == "table[Red]")
    assert table.cards is not None
    four = table.cards[-1]
    assert (four.label, four.value, four.text) == ("Four", "4", "grey card; the best; worth 4")
    assert table.cards[0].text == "green card; worth 1"  # an empty text is left out
    picture = svg(sc)
    assert "Player boards" not in picture and "Red" in picture and "2 green, 1 grey" in picture


def test_a_player_layer_names_players(tmp_path: Path) -> None:
    folder = _spec(tmp_path, BOARD.replace("blue: [450, 80]", "bleu: [450, 80]"))
    result = compile_spec(folder)
    found = [d.message for d in result.diagnostics if d.code == "unknown-name"]
    assert "'bleu' is not a player; did you mean 'blue'?" in found
    assert "the board places no position for 1 player(s): blue (not drawn)" in found  # a warning


def test_a_track_too_long_to_draw_is_a_located_error(tmp_path: Path) -> None:
    """A track's boxes are drawn one by one: a careless or hostile range is refused by `check`,
    not met by a picture that never ends."""
    board = BOARD + "  tracks:\n    - {name: Far, value: 'score[red]', min: 0, max: 1000000000000}\n"
    result = compile_spec(_spec(tmp_path, board))
    [error] = [d for d in result.diagnostics if d.code == "limit-exceeded"]
    assert (error.span.file.endswith("board.yaml"), error.span.line) == (True, board.count("\n"))
    assert "a track of 1,000,000,000,001 steps" in error.message


def test_places_spread_too_far_for_a_map_are_listed(tmp_path: Path) -> None:
    """Where places stand comes from the rules, so any numbers: a layer spread wider than the
    terminal can map is listed as a table instead (it was a map a billion columns wide)."""
    board = BOARD.replace(
        "at: {c1: [100, 220], c2: [200, 220], c3: [300, 220], c4: [400, 220]}",
        "hex: {q: 'x.points * 1000000000', r: 0}",
    )
    state = load_spec(_spec(tmp_path, board)).new_initial_state(1)
    view = describe(state, 0)
    assert "-- Cards --" in view and "* Four        4" in view and len(view) < 5_000
    assert "<svg" in svg(scene(state, None))


def test_a_card_text_is_a_text_or_texts(tmp_path: Path) -> None:
    folder = _spec(
        tmp_path,
        BOARD.replace(
            """text: '["{x.colour} card", if x.points > 3 then "the best" else "", "worth {x.points}"]'""",
            "text: x.points",
        ),
    )
    result = compile_spec(folder)
    assert any(
        d.code == "type-mismatch" and "a card's text is a str, or a list[str]" in d.message
        for d in result.diagnostics
    )


GAMES = [
    ("iron_curtain", None),
    ("twilight_struggle", None),
    ("guerra_fronteriza", {"operation": 2}),
    ("guerra_fronteriza", {"operation": 4}),
    ("channel_tunnel", {"agenda": True}),
    ("hanabi", {"seats": 5}),
    ("lost_cities", None),
    ("bang", {"seats": 7}),
    ("goofspiel", {"cards": 5}),
    ("kuhn_poker", None),
    ("leduc_poker", None),
    ("liars_dice", {"dice": 2}),
]


@pytest.mark.parametrize(("name", "options"), GAMES, ids=[f"{n}-{o}" for n, o in GAMES])
def test_every_board_draws_a_played_game(name: str, options: dict[str, object] | None) -> None:
    """Each bundled game's board, through a random game: a scene for each player and for
    everyone, drawn; a hex layer's places have their coordinates; only seated players."""
    game = load_game(name, options)
    state = game.new_initial_state(5)
    rng = random.Random(5)
    for step in range(160):
        if state.is_terminal():
            break
        if step % 40 == 0:
            for player in (*range(state.num_players), None):
                sc = scene(state, player)
                assert svg(sc).startswith("<svg")
                for layer in sc.layers:
                    if layer.layout == "hex":
                        assert all(p.coords is not None for p in layer.places)
                    if layer.of == "player":
                        assert [p.label for p in layer.places] == list(sc.players)
        state.apply_action(rng.choice(state.legal_actions()))


def test_guerra_fronteriza_shows_the_operation_being_played() -> None:
    for operation, tiles in ((2, 11), (3, 16), (4, 17)):
        state = load_game("guerra_fronteriza", {"operation": operation}).new_initial_state(1)
        (tiles_layer, panels) = scene(state, 0).layers
        assert len(tiles_layer.places) == tiles and len(panels.places) == operation
        bases = [p for p in tiles_layer.places if any(v.startswith("GER") for _, v in p.values)]
        assert not bases  # the values are the figures' counts, their names are the keys
        germany = [p for p in tiles_layer.places if dict(p.values)["GER"]]
        assert len(germany) == 1 and germany[0].owner == 0
        assert re.fullmatch(r"2 infantry, 1 tank(, 1 artillery)?", dict(germany[0].values)["GER"])


def test_every_board_is_readable_and_shows_no_id() -> None:
    """Each bundled game's picture, mid-game, from every perspective (a spectator's too), and a
    plain board's (no board.yaml): no text under SMALLEST pixels, and no text a name from the
    rules (`in_effect`, `hand[US]`, `nato_in_effect`): zones, lasting effects, counters and values
    are written in words."""
    plain = load_spec(Path(__file__).parent / "specs" / "features", rules_only=True)
    for name, options in [*GAMES, ("features", None)]:
        game = plain if name == "features" else load_game(name, options)
        state = game.new_initial_state(3)
        rng = random.Random(3)
        for _ in range(40):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        info = game.info
        ids = {z.name for z in info.zones if "_" in z.name} | {m for m in info.modifiers if "_" in m}
        ids |= {v for v in info.var_types if "_" in v}
        scenes = [scene(state, p) for p in (*range(state.num_players), None)]
        for sc in [*scenes, scene(state, None, public=True)]:
            picture = svg(sc)
            sizes = {int(s) for s in re.findall(r'font-size="(\d+)"', picture)}
            assert min(sizes) >= SMALLEST, (name, sc.perspective, sorted(sizes))
            for text in re.findall(r"<text [^>]*>([^<]*)</text>", picture):
                text = html.unescape(text)
                assert "[" not in text and not ids & set(re.findall(r"[a-z0-9_]+", text)), (name, text)


def test_open_cells_a_decision_offers_are_drawn_as_spots() -> None:
    """A "cells" layer draws each open cell the pending decision offers, titled with the option,
    for the player asked only; a cell already taken is no spot."""
    game = load_game("iron_curtain")
    state = game.new_initial_state(6)
    rnd = random.Random(6)
    while not state.prompt().startswith("where to place"):
        state.apply_action(rnd.choice(state.legal_actions()))
    asked = state.current_player()
    sc = scene(state, asked)
    spots = [label for layer in sc.layers for label, _, _ in layer.spots]
    assert spots and spots == [o for o in sc.options if o.startswith("(")]
    taken = {(round(p.x), round(p.y)) for layer in sc.layers for p in layer.places}
    assert not taken & {(round(x), round(y)) for layer in sc.layers for _, x, y in layer.spots}
    picture = svg(sc)
    assert all(f"<title>{label}</title>" in picture for label in spots)
    assert not any(layer.spots for layer in scene(state, 1 - asked).layers)
