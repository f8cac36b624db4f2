"""The hostile-input corpus: text that would act on a terminal (tests/hostile/README.md).

A spec's titles, labels, prompts and texts may hold a line break and format characters such as
the bidi overrides (the compiler refuses the other controls: tests/hostile/specs/
bound-escape-sequence-in-a-label); a log, a saved state or a command line may hold anything.
Whatever a command prints of them goes through runtime/text.py: no escape sequence, CR or bidi
override reaches the terminal, and no text forges a line. (The damaged logs and command lines
with such text are in tests/test_hostile_cli.py, whose every case checks the same.)
"""

from __future__ import annotations

import builtins
import json
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

from compiler.diagnostics import _printable
from rulewright import cli
from runtime.text import clipped, escaped, escaped_lines, quoted
from tests.test_hostile_cli import Run, rulewright


def clean(run: Run) -> str:
    """The output, checked: no traceback, no CR, no character a terminal would act on or that
    reorders a line, and no line that a text forged (`rulewright: forged` at its start: a card's
    text may have lines of its own, but they are indented under its name)."""
    text = run.out + run.err
    assert "Traceback" not in text and "internal error" not in text, text
    assert "\r" not in text, text
    for line in text.split("\n"):
        assert line.isprintable(), ascii(line)
        assert not line.startswith("rulewright: forged"), text
    return text


# ---- the one function -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain text, 'quoted' \\ and back", "plain text, 'quoted' \\ and back"),
        ("Zürich · ●", "Zürich · ●"),
        ("\x1b]0;pwned\x07\x1b[2J", "\\x1b]0;pwned\\x07\\x1b[2J"),
        ("line\r\nrulewright: forged", "line\\r\\nrulewright: forged"),
        ("tab\there", "tab\\there"),
        ("\x00\x7f\x85\x9b", "\\x00\\x7f\\x85\\x9b"),
        ("abc\u202edef\u2066\u2067\u2068\u2069", "abc\\u202edef\\u2066\\u2067\\u2068\\u2069"),
        ("zero\u200bwidth\u2028sep\ufeff", "zero\\u200bwidth\\u2028sep\\ufeff"),
        ("lone \ud800 surrogate, tag \U000e0041", "lone \\ud800 surrogate, tag \\U000e0041"),
    ],
    ids=["plain", "unicode", "osc-and-csi", "crlf", "tab", "c0-del-c1", "bidi", "format", "surrogate"],
)
def test_escaped(text: str, shown: str) -> None:
    assert escaped(text) == shown
    assert escaped(text) is text or not text.isprintable()  # normal text is not copied
    assert _printable(text) == shown  # the compiler's twin (it does not import the runtime)


def test_every_control_and_format_character_is_escaped() -> None:
    bad = [chr(c) for c in range(0x3000) if unicodedata.category(chr(c)) in ("Cc", "Cf", "Zl", "Zp")]
    assert "\x1b" in bad and "\u202e" in bad and "\x9b" in bad
    for ch in bad:
        assert escaped(ch).isascii() and escaped(ch).isprintable() and escaped(ch).startswith("\\"), ascii(ch)
        assert _printable(ch) == escaped(ch)


def test_lines_clipped_and_quoted() -> None:
    assert escaped_lines("one\x1b[2J\ntwo\r\nthree\u202e") == "one\\x1b[2J\ntwo\\r\nthree\\u202e"
    assert escaped_lines("a\nb") == "a\nb"
    assert clipped("\x1b" * 100, 10) == "\\x1b" * 7 + "..."  # cut before escaping: no broken escape
    assert quoted("x\ny") == "'x\\ny'" and quoted("ok") == "'ok'"


def test_normal_text_costs_one_call() -> None:
    texts = ["Italy (3)", "US chooses Marshall Plan (card to play)", "Zürich ●·····"] * 10_000
    start = time.perf_counter()
    for t in texts:
        escaped(t)
    assert time.perf_counter() - start < 0.5  # ~0.1 µs a text; generous for a loaded machine


# ---- a spec whose texts hold line breaks and bidi overrides -----------------------------------

GAME = r"""
game: glyphs
title: "Evil\u202eeltiT\nrulewright: forged title"
version: 1
players:
  names: [alice, bob]
  labels: ["Al\u2066ice\u2069", "Bob\nrulewright: forged player"]
options:
  rounds: {type: int, default: 1, choices: [1, 2], doc: "rounds\u202e to play\nrulewright: forged doc"}
types:
  gem:
    fields:
      value: int
      text: str
components:
  gem:
    - {id: ruby, name: "Ru\u202eby", value: 1, text: "First line\nrulewright: forged card \u2067bidi\u2069"}
    - {id: opal, name: "Opal\nrulewright: forged gem", value: 2, text: plain}
state:
  taken: int
zones:
  hand: {of: gem, per: player}
  pile: {of: gem}
setup: |
  for g in gem { move g to hand[alice] }
phases:
  - name: main
    do: |
      let g = choose from hand[alice] by alice "pick one\nrulewright: forged prompt"
      move g to pile
      taken += 1
      log "{alice} took {g}\nrulewright: forged log line"
      end game winner bob "reason\nrulewright: forged reason"
"""

BOARD = r"""
board:
  size: [400, 300]
  counters:
    - {name: "Count\u202e", value: taken}
  zones: [hand, pile]
  cards:
    gem: {value: x.value, text: "x.text"}
"""

SCENARIO = r"""
name: "Forged\u202e\nrulewright: forged PASS"
steps:
  - actions: ["Ru\u202eby"]
    expect: ["taken == 5"]
"""


@pytest.fixture(scope="module")
def glyphs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A workspace holding the spec above, built."""
    root = tmp_path_factory.mktemp("glyphs")
    (root / "rulewright.toml").write_text("", encoding="utf-8")
    spec = root / "specs" / "glyphs"
    (spec / "scenarios").mkdir(parents=True)
    (spec / "game.yaml").write_text(GAME, encoding="utf-8")
    (spec / "board.yaml").write_text(BOARD, encoding="utf-8")
    (spec / "scenarios" / "forged.yaml").write_text(SCENARIO, encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        assert cli.main(["build"]) == 0
    yield root


@pytest.fixture
def in_glyphs(glyphs: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(glyphs)
    return glyphs


def test_check_accepts_the_spec(in_glyphs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = rulewright(capsys, "check")
    assert run.code == 0 and "specs/glyphs: ok" in clean(run)


def test_games_lists_title_and_option_escaped(in_glyphs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = clean(rulewright(capsys, "games"))
    assert "glyphs: Evil\\u202eeltiT\\nrulewright: forged title (2 players) [workspace]" in text
    assert "-o rounds=1  (int, one of 1, 2): rounds\\u202e to play\\nrulewright: forged doc" in text
    listed = rulewright(capsys, "games", "--json")
    assert "\\u202e" in clean(listed)  # JSON's own escapes, and still JSON
    assert json.loads(listed.out)[0]["title"] == "Evil\u202eeltiT\nrulewright: forged title"


def test_play_echoes_the_log_escaped(
    in_glyphs: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "g.json"
    text = clean(rulewright(capsys, "play", "glyphs", "--seed", "1", "--log", str(log)))
    assert (
        "Al\\u2066ice\\u2069 chooses Opal\\nrulewright: forged gem (pick one\\nrulewright: forged prompt)"
        in text
    )
    assert "Game over: Bob\\nrulewright: forged player wins (reason\\nrulewright: forged reason)" in text
    assert "[Al\\u2066ice\\u2069 -1.00, Bob\\nrulewright: forged player +1.00]" in text
    text = clean(rulewright(capsys, "replay", str(log)))
    assert "final state matches" in text and "Bob\\nrulewright: forged player +1.00" in text
    page = tmp_path / "g.html"  # the replay page escapes by its own means; it is still written
    assert "replay page written to" in clean(rulewright(capsys, "replay", str(log), "--html", str(page)))
    assert page.stat().st_size > 0


def test_a_human_player_sees_every_text_escaped(
    in_glyphs: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = iter(["c ruby", "c opal", "zz\x1b[2J", "?", "l", "v", "1"])
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(answers))
    text = clean(rulewright(capsys, "play", "glyphs", "--agents", "human,random", "--seed", "1"))
    assert "=== Evil\\u202eeltiT\\nrulewright: forged title: what Al\\u2066ice\\u2069 sees ===" in text
    assert "hand[Al\\u2066ice\\u2069] (2): Ru\\u202eby (1), Opal\\nrulewright: forged gem (2)" in text
    assert "Count\\u202e: 0" in text
    assert "Al\\u2066ice\\u2069, pick one\\nrulewright: forged prompt:" in text
    assert "    1. Ru\\u202eby" in text and "    2. Opal\\nrulewright: forged gem" in text
    # a card's text keeps its lines, each escaped and indented under the card's name
    assert "  Ru\\u202eby (1): First line\n    rulewright: forged card \\u2067bidi\\u2069\n" in text
    assert "no option 'zz\\x1b[2J'" in text
    assert "The view is what Al\\u2066ice\\u2069 sees" in text
    assert "Al\\u2066ice\\u2069 took Ru\\u202eby\\nrulewright: forged log line" in text


def test_draw_shows_the_view_escaped(
    in_glyphs: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = clean(rulewright(capsys, "draw", "glyphs"))
    assert "=== Evil\\u202eeltiT\\nrulewright: forged title: what everyone sees ===" in text
    assert "hand[Bob\\nrulewright: forged player]: empty" in text
    text = clean(rulewright(capsys, "draw", "glyphs", "--out", str(tmp_path / "g.svg")))
    assert "Evil\\u202eeltiT\\nrulewright: forged title after 0 decision(s)" in text


def test_simulate_names_the_players_escaped(in_glyphs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = clean(rulewright(capsys, "simulate", "glyphs", "-n", "2"))
    assert "Evil\\u202eeltiT\\nrulewright: forged title: 2 games" in text
    assert "  Bob\\nrulewright: forged player wins      2" in text


def test_a_failing_scenario_is_reported_escaped(in_glyphs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = rulewright(capsys, "scenarios", "glyphs")
    text = clean(run)
    assert run.code == 1, text
    assert "FAIL  glyphs: Forged\\u202e\\nrulewright: forged PASS" in text
    assert "| Al\\u2066ice\\u2069 took Ru\\u202eby\\nrulewright: forged log line" in text


def test_a_rule_error_names_the_player_escaped(in_glyphs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from runtime.engine import IllegalActionError
    from runtime.game import load_game

    state = load_game("glyphs", search=(in_glyphs / "generated",)).new_initial_state(1)
    with pytest.raises(IllegalActionError) as caught:
        state.string_to_action("\x1b[2J\nrulewright: forged")
    message = str(caught.value)
    assert message.isprintable(), ascii(message)
    assert "no legal action '\\x1b[2J\\nrulewright: forged' (Al\\u2066ice\\u2069, pick one" in message
    assert "(Opal\\nrulewright: forged gem)" in message
