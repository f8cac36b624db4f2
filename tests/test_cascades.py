"""One error per mistake: what follows from a reported error is not reported again.

Each test writes mistakes into a copy of a bundled spec (or a tiny spec) and checks it without
rendering: exactly one error for each mistake, at its line and column, and no other. A bad entry is
repaired with the type it declared, an unknown name poisons only its own expression, a name declared
twice reads as any type, and the declarations a file that does not parse may hold explain the errors
about undeclared names (docs/dsl.md, section 8). YAML syntax errors are said in our words, where
the mistake is (compiler/yaml_errors.py).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from compiler.diagnostics import Diagnostic
from compiler.driver import compile_spec
from compiler.yaml_errors import explain

SPECS = Path(__file__).resolve().parent.parent / "specs"


def _copy(tmp_path: Path, game: str) -> Path:
    folder = tmp_path / game
    shutil.copytree(SPECS / game, folder)
    return folder


def _edit(folder: Path, file: str, old: str, new: str, needle: str | int) -> tuple[str, int, int]:
    """Replace the first `old` by `new` in `file`; where `needle` starts in `new` (or the position
    `needle` of the edited file after the start of `new`), as (file, line, col)."""
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1, (file, old)
    at = text.index(old)
    text = text[:at] + new + text[at + len(old) :]
    path.write_text(text, encoding="utf-8")
    offset = at + (new.index(needle) if isinstance(needle, str) else needle)
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return str(path), line, col


def _errors(folder: Path) -> list[Diagnostic]:
    return [d for d in compile_spec(folder, render=False).diagnostics if d.severity == "error"]


def _where(d: Diagnostic) -> tuple[str, int, int, str]:
    return (d.span.file, d.span.line, d.span.col, d.code)


# (file, old, new, where the error is: a part of new, its code)
SEVERAL = [
    # a component row's field of the wrong kind
    (
        "cards.yaml",
        "{id: queen, name: Queen, rank: 1}",
        "{id: queen, name: Queen, rank: high}",
        "high",
        "wrong-value-type",
    ),
    # a zone of an unknown type (used below: `top(shown[p])`, `move hand[q] to shown[q]`)
    ("game.yaml", "  shown: {of: card,", "  shown: {of: crad,", "crad", "unknown-type"),
    # a state variable indexed by an unknown type (read as `put_in[q]` in many places)
    (
        "game.yaml",
        "put_in: {type: int, per: player,",
        "put_in: {type: int, per: playr,",
        "playr",
        "unknown-type",
    ),
    # an unknown zone in code
    (
        "game.yaml",
        "for c in card { move c to deck }",
        "for c in card { move c to dekc }",
        "dekc",
        "unknown-name",
    ),
    # a misspelt state variable inside a larger expression
    (
        "game.yaml",
        'body: "first_bettor == none or',
        'body: "first_beter == none or',
        "first_beter",
        "unknown-name",
    ),
    # a call with the wrong number of arguments (its value is used: `{...}` in a log)
    (
        "game.yaml",
        'log "{q} shows {card_of(q)}"',
        'log "{q} shows {card_of(q, q)}"',
        "card_of(q, q)",
        "wrong-arg-count",
    ),
    # an unknown key
    ("game.yaml", "    doc: the chips in the pot", "    dox: the chips in the pot", "dox", "unknown-key"),
    # a bad initial value
    (
        "game.yaml",
        "first_bettor: {type: player, initial: none",
        "first_bettor: {type: player, initial: nobody",
        "nobody",
        "unknown-name",
    ),
    # a YAML syntax error in a scenario: a key without its ':'
    ("scenarios/bet_and_fold.yaml", "expect_winner: Alice", "expect_winner Alice", " Alice", "yaml-syntax"),
]


def test_several_mistakes_give_one_error_each(tmp_path: Path) -> None:
    folder = _copy(tmp_path, "kuhn_poker")
    expected = sorted(
        (*_edit(folder, file, old, new, needle), code) for file, old, new, needle, code in SEVERAL
    )
    assert len({e[0] for e in expected}) == 3  # in three files
    got = sorted(_where(d) for d in _errors(folder))
    assert got == expected


# (game, file, old, new, where the error is: a part of new, its code)
SINGLE = [
    # component data
    (
        "lost_cities",
        "cards.yaml",
        "name: Yellow 2, colour: yellow,",
        "name: Yellow 2, colour: yelow,",
        "yelow",
        "unknown-name",
    ),
    (
        "lost_cities",
        "cards.yaml",
        "colour: yellow, number: 2}",
        "colour: yellow, number: two}",
        "two",
        "wrong-value-type",
    ),
    (
        "lost_cities",
        "cards.yaml",
        "    - {id: yellow_2, name: Yellow 2, colour: yellow, number: 2}",
        "    - yellow_2",
        "yellow_2",
        "wrong-value-type",
    ),
    (
        "lost_cities",
        "cards.yaml",
        "{id: yellow_2, name: Yellow 2,",
        "{ide: yellow_2, name: Yellow 2,",
        "ide",
        "unknown-field",
    ),
    (
        "lost_cities",
        "cards.yaml",
        "{id: yellow_2, name: Yellow 2,",
        "{di: yellow_2, name: Yellow 2,",
        "di",
        "unknown-field",
    ),
    ("lost_cities", "cards.yaml", "{id: yellow_2, name: Yellow 2,", "{name: Yellow 2,", "{", "missing-key"),
    ("lost_cities", "cards.yaml", "components:\n  card:", "components:\n  crad:", "crad", "unknown-type"),
    # (a type renamed: reported where its components name it, with the new name as the hint)
    ("lost_cities", "cards.yaml", "types:\n  card:", "types:\n  crad:", 143, "unknown-type"),
    # declared types
    ("lost_cities", "cards.yaml", "      colour: colour\n", "      colour: color\n", "color", "unknown-type"),
    (
        "lost_cities",
        "game.yaml",
        "expedition: {of: card,",
        "expedition: {of: cards,",
        "cards",
        "unknown-type",
    ),
    (
        "lost_cities",
        "game.yaml",
        "per: [colour, player], doc",
        "per: [color, player], doc",
        "color",
        "unknown-type",
    ),
    (
        "lost_cities",
        "game.yaml",
        "    params: {k: colour, p: player}\n    returns: int\n    body: |",
        "    params: {k: color, p: player}\n    returns: int\n    body: |",
        "color",
        "unknown-type",
    ),
    (
        "kuhn_poker",
        "game.yaml",
        "  hand: {of: card, per: player,",
        "  hand: {of: card, per: playr,",
        "playr",
        "unknown-type",
    ),
    (
        "kuhn_poker",
        "game.yaml",
        "    params: {p: player}\n    returns: card\n",
        "    params: {p: player}\n    returns: crad\n",
        "crad",
        "unknown-type",
    ),
    ("iron_curtain", "game.yaml", "  round: int", "  round: integer", "integer", "unknown-type"),
    (
        "iron_curtain",
        "game.yaml",
        "cubes: {type: int, per: [card, player]}",
        "cubes: {type: int, per: [crd, player]}",
        "crd",
        "unknown-type",
    ),
    # state
    (
        "iron_curtain",
        "game.yaml",
        "reserve: {type: int, per: player, initial: 24}",
        "reserve: {type: int, per: player, initial: many}",
        "many",
        "wrong-value-type",
    ),
    ("lost_cities", "game.yaml", "initial: north,", "initial: nroth,", "nroth", "unknown-name"),
    ("lost_cities", "game.yaml", "  bonus_length: 8 ", "  bonus_length: eight ", "eight", "wrong-value-type"),
    # options (this one sets the player count)
    (
        "guerra_fronteriza",
        "game.yaml",
        "    default: 2\n    choices: [2, 3, 4]",
        "    default: two\n    choices: [2, 3, 4]",
        "two",
        "wrong-value-type",
    ),
    (
        "guerra_fronteriza",
        "game.yaml",
        "    type: int\n    default: 2\n",
        "    type: itn\n    default: 2\n",
        "itn",
        "unknown-type",
    ),
    # names in code
    (
        "lost_cities",
        "game.yaml",
        "for c in card { move c to deck }",
        "for c in card { move c to dekc }",
        "dekc",
        "unknown-name",
    ),
    ("lost_cities", "game.yaml", "({len(deck)} left)", "({len(dekc)} left)", "dekc", "unknown-name"),
    (
        "lost_cities",
        "game.yaml",
        "deal 1 from deck to hand[p]",
        "deal 1 from deck to hnd[p]",
        "hnd",
        "unknown-name",
    ),
    (
        "lost_cities",
        "game.yaml",
        "      c.number > top(expedition[c.colour, p]).number",
        "      c.number > top(expdition[c.colour, p]).number",
        "expdition",
        "unknown-name",
    ),
    (
        "lost_cities",
        "game.yaml",
        "sum(expedition_score(k, p) for k in colour)",
        "sum(expedition_scor(k, p) for k in colour)",
        "expedition_scor",
        "unknown-name",
    ),
    (
        "lost_cities",
        "game.yaml",
        'to the {c.colour} expedition"',
        'to the {c.color} expedition"',
        "c.color",
        "unknown-field",
    ),
    (
        "kuhn_poker",
        "game.yaml",
        "      if len(still_in) == 1 {",
        "      if len(stil_in) == 1 {",
        "stil_in",
        "unknown-name",
    ),
    (
        "kuhn_poker",
        "game.yaml",
        "      for p in players { act(p) }",
        "      for p in players { atc(p) }",
        "atc(p)",
        "undefined-procedure",
    ),
    # arity
    (
        "lost_cities",
        "game.yaml",
        "sum(expedition_score(k, p) for k in colour)",
        "sum(expedition_score(k) for k in colour)",
        "expedition_score(k)",
        "wrong-arg-count",
    ),
    (
        "lost_cities",
        "game.yaml",
        "move c to expedition[c.colour, p]",
        "move c to expedition[c.colour]",
        "expedition[c.colour]",
        "wrong-arg-count",
    ),
    (
        "kuhn_poker",
        "game.yaml",
        "if empty(hand[p]) then",
        "if empty(hand[p], p) then",
        "empty(hand[p], p)",
        "wrong-arg-count",
    ),
    # names declared twice, players, enums
    (
        "kuhn_poker",
        "game.yaml",
        "  shown: {of: card,",
        "  winner: {of: card}\n  shown: {of: card,",
        "winner",
        "duplicate-id",
    ),
    ("kuhn_poker", "game.yaml", "  names: [alice, bob]", "  names: alice", "alice", "wrong-value-type"),
    ("kuhn_poker", "game.yaml", "  labels: [Alice, Bob]", "  labels: [Alice]", "[Alice]", "wrong-value-type"),
    (
        "kuhn_poker",
        "game.yaml",
        "players:\n  names: [alice, bob]\n  labels: [Alice, Bob]",
        "players: [alice, bob]",
        "[alice",
        "wrong-value-type",
    ),
    (
        "lost_cities",
        "game.yaml",
        "  colour: [yellow, blue, white, green, red]",
        "  colour: yellow",
        "yellow",
        "wrong-value-type",
    ),
    # DSL syntax, unknown keys
    (
        "kuhn_poker",
        "game.yaml",
        'body: "sum(put_in[q] for q in players)"',
        'body: "sum(put_in[q] for q in players"',
        len('body: "sum(put_in[q] for q in players'),
        "dsl-syntax",
    ),
    ("kuhn_poker", "game.yaml", "  names: [alice, bob]", "  nmes: [alice, bob]", "nmes", "unknown-key"),
    # YAML syntax in each kind of file
    ("kuhn_poker", "game.yaml", "  winner: {type: player", "  winner {type: player", " {type", "yaml-syntax"),
    (
        "kuhn_poker",
        "cards.yaml",
        "    - {id: queen, name: Queen, rank: 1}",
        "    - {id: queen, name: Queen, rank: 1",
        len("    - {id: queen, name: Queen, rank: 1"),
        "yaml-syntax",
    ),
    ("kuhn_poker", "board.yaml", "  size: [520, 200]", "  size [520, 200]", " [520", "yaml-syntax"),
]


@pytest.mark.parametrize(
    ("game", "file", "old", "new", "needle", "code"),
    SINGLE,
    ids=[f"{c[0]}-{c[1]}-{c[5]}-{i}" for i, c in enumerate(SINGLE)],
)
def test_one_mistake_one_error(
    tmp_path: Path, game: str, file: str, old: str, new: str, needle: str | int, code: str
) -> None:
    folder = _copy(tmp_path, game)
    path, line, col = _edit(folder, file, old, new, needle)
    assert [_where(d) for d in _errors(folder)] == [(path, line, col, code)]


def test_a_bad_card_row_in_twilight_struggle(tmp_path: Path) -> None:
    """The newcomer's case: a bad field in the largest cards.yaml is one error."""
    folder = _copy(tmp_path, "twilight_struggle")
    path, line, col = _edit(
        folder,
        "cards.yaml",
        "      ops: 3\n      side: usa\n",
        "      ops: three\n      side: usa\n",
        "three",
    )
    assert [_where(d) for d in _errors(folder)] == [(path, line, col, "wrong-value-type")]


def test_a_file_that_does_not_parse_explains_its_names(tmp_path: Path) -> None:
    """Kuhn poker's players, zones and state are declared in game.yaml: when it does not parse,
    the scenarios' players, the board's zones and the code's names are not reported, and the
    note says how many errors are left out."""
    folder = _copy(tmp_path, "kuhn_poker")
    path, line, col = _edit(
        folder, "game.yaml", "  winner: {type: player", "  winner {type: player", " {type"
    )
    (error,) = _errors(folder)
    assert _where(error) == (path, line, col, "yaml-syntax")
    assert error.message == "missing ':' after 'winner'"
    assert any("are not shown" in n for n in error.notes)


_TRIGGERS = """game: t
players: {names: [a, b]}
types:
  card: {fields: {value: int}}
components:
  card:
    - {id: k1, value: 1}
zones:
  hand: {of: card, per: player}
events:
  scored: {params: {p: player, n: int}}
state:
  seen: {type: int, initial: 0}
phases:
  - name: main
    do: "end game draw"
triggers:
  - name: drawn
    on: "c enters hands[p]"
    if: "c.value > 0 and len(hand[p]) > 1"
    do: "seen += c.value"
  - name: counted
    on: score
    if: "n > 0"
    do: "seen += n"
"""


def test_a_trigger_on_an_undeclared_zone_or_event(tmp_path: Path) -> None:
    """The names a trigger's pattern or event would bind are not reported unknown as well."""
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "game.yaml").write_text(_TRIGGERS, encoding="utf-8")
    got = [(d.span.line, d.span.col, d.code) for d in _errors(folder)]
    assert got == [(19, 9, "unknown-name"), (23, 9, "unknown-name")]


# ---- YAML syntax errors: message, line and column ------------------------------------------------

_HEAD = 'game: t\nphases:\n  - name: main\n    do: "end game draw"\n'

YAML_CASES = [
    # a key without ':' before a flow mapping, before a value, at the end of a block
    ("players:\n  names [a, b]\n  labels: [A, B]\n", 2, 8, "missing ':' after 'names'"),
    ("players:\n  labels: [A, B]\n  names [a, b]\n", 3, 8, "missing ':' after 'names'"),
    ("players {names: [a, b]}\n", 1, 8, "missing ':' after 'players'"),
    ("title Kuhn Poker\nplayers: {names: [a, b]}\n", 1, 6, "missing ':' after 'title'"),
    # ': ' inside a plain value
    (
        "players: {names: [a, b]}\nconstants:\n  x: a: b\n",
        3,
        7,
        "':' and a space inside the value of 'x': YAML reads them as the start of another key",
    ),
    (
        'players: {names: [a, b]}\ntitle: "Kuhn" Poker\n',
        2,
        15,
        "more text after the closing quote of the value of 'title'",
    ),
    # indentation
    (
        "players:\n  names: [a, b]\n   labels: [A, B]\n",
        3,
        4,
        "this line is indented more than the line before (3 spaces, not 2)",
    ),
    (
        "players:\n  names: [a, b]\n labels: [A, B]\n",
        3,
        2,
        "this line is indented by 1 space: less than the line before (2 spaces) and more than the"
        " mapping at 1:1 (0 spaces)",
    ),
    (
        "players:\n  names: [a, b]\n  - c\n",
        3,
        3,
        "a list item ('- ') among the keys of the mapping at 2:3",
    ),
    (
        "constants:\n  x: 1\n   y: 2\nplayers: {names: [a, b]}\n",
        3,
        4,
        "this line is indented more than 'x' above it (2 spaces), so YAML reads it as the rest of the"
        " value of 'x'",
    ),
    # quotes and brackets
    (
        'players: {names: [a, b]}\ntitle: "Kuhn\n',
        2,
        8,
        "unclosed '\"': no '\"' ends the text that starts here",
    ),
    (
        'title: {x: "Kuhn}\nplayers: {names: ["a", b]}\n',
        1,
        12,
        "unclosed '\"': this text is not closed on its line and runs on to the '\"' at 2:19",
    ),
    ("players: {names: [a, b}\n", 1, 23, "a ',' or ']' is missing before this, in the '[' opened at 1:18"),
    (
        "players: {names: [a, b] labels: [A, B]}\n",
        1,
        25,
        "a ',' or '}' is missing before this, in the '{' opened at 1:10",
    ),
    (
        "players: {names: [a, b]}\nfunctions:\n  f:\n    returns: int\n    body: |\n      1\n     + 2\n",
        7,
        6,
        "this line is indented less than the text of 'body' above it (6 spaces), which ends before it",
    ),
    ("players: {names: [a, b]\nversion: 1\n", 1, 24, "unclosed '{' opened at 1:10: a '}' is missing"),
    ("players:\n  names: [a, b\n  labels: [A, B]\n", 2, 15, "unclosed '[' opened at 2:10: a ']' is missing"),
    # tabs and reserved characters
    ("players:\n\tnames: [a, b]\n", 2, 1, "a tab character in the indentation: YAML indents with spaces"),
    ("players: {names: [a, b]}\ntitle: @t\n", 2, 8, "'@' cannot start a plain value: quote the value"),
]


@pytest.mark.parametrize(("text", "line", "col", "message"), YAML_CASES)
def test_yaml_syntax_in_our_words(tmp_path: Path, text: str, line: int, col: int, message: str) -> None:
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "game.yaml").write_text(_HEAD, encoding="utf-8")
    (folder / "more.yaml").write_text(text, encoding="utf-8")
    got = [(d.span.line, d.span.col, d.message, d.code) for d in _errors(folder)]
    assert got == [(line, col, message, "yaml-syntax")]


def test_a_long_line_in_brackets_is_explained_at_once() -> None:
    """The key before which a ',' is missing is found on a long line without backtracking over
    every earlier word (a regular expression did, which took hours on a 1 MB line)."""
    text = "x: {a: [" + "y" * 200_000 + "], b: 1 c: 2}\n"
    with pytest.raises(yaml.MarkedYAMLError) as exc:
        yaml.compose(text, Loader=yaml.SafeLoader)
    got = explain(text, exc.value)
    assert (got.line, got.col) == (1, text.index(" c:") + 2)
    assert got.message == "a ',' or '}' is missing before this, in the '{' opened at 1:4"
