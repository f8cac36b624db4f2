"""`rulewright play` with a human at the terminal: only what changed in the view, the keys at the
prompt (? v l q), did-you-mean for an answer that is no option, and `q` keeping the log.

The view's diff (`changed_lines`) is tested on the view `describe` draws today and on a richer
view with section headers, banners and a board drawn line by line, as a rewritten `describe`
may draw it; the answers (`read_answer`) on their own; the rest through the command, with the
answers piped in.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulewright import cli
from rulewright.cli import main
from runtime.agents import RandomAgent
from runtime.engine import GameState
from runtime.game import load_game
from runtime.terminal import KEYS, PATIENCE, Answer, HumanAgent, QuitGame, changed_lines, read_answer
from tests.conftest import ROOT

# ---- changed_lines ---------------------------------------------------------------------------

TODAY = """\
--- Duel: what north sees ---
  ideology: 0   round: 1
  cubes: Berlin, north = 1; Berlin, south = 1
  deck: 8 face down
  hand[north]: ace, deuce, trey
  hand[south]: 5 face down
  map:
          0
     0  Berlin"""


def lines(text: str) -> list[str]:
    return text.splitlines()


def test_nothing_changed_shows_nothing() -> None:
    assert changed_lines(lines(TODAY), lines(TODAY)) == []


def test_a_changed_line_comes_with_the_lines_heading_it() -> None:
    after = TODAY.replace("hand[north]: ace, deuce, trey", "hand[north]: ace, trey")
    assert changed_lines(lines(TODAY), lines(after)) == [
        "--- Duel: what north sees ---",
        "  hand[north]: ace, trey",
    ]


def test_lines_are_matched_by_label_not_by_place() -> None:
    """A line that appears above the others does not make them look changed."""
    after = TODAY.replace("  deck: 8 face down\n", "  deck: 8 face down\n  discard: four\n")
    assert changed_lines(lines(TODAY), lines(after)) == ["--- Duel: what north sees ---", "  discard: four"]


def test_a_line_gone_is_said_to_be_gone_where_it_was() -> None:
    after = TODAY.replace("  hand[south]: 5 face down\n", "")
    assert changed_lines(lines(TODAY), lines(after)) == [
        "--- Duel: what north sees ---",
        "  hand[south]: (no longer shown)",
    ]


def test_a_board_row_is_matched_by_its_place_in_the_board() -> None:
    before = TODAY + "\n    -1    .\n    -2    ."
    after = TODAY + "\n    -1  Bonn\n    -2    ."
    assert changed_lines(lines(before), lines(after)) == [
        "--- Duel: what north sees ---",
        "  map:",
        "    -1  Bonn",
    ]


def test_the_first_view_is_all_new() -> None:
    assert changed_lines([], lines(TODAY)) == lines(TODAY)


RICHER = """\
=== Duel, round 3: what north sees ===

Scores:
  north: 3
  south: 5

Board
   a b c
 3 . X .
 2 . . .
 1 O . .

Hands:
  north: ace, deuce
  south: 2 face down
== Log ==
  north: passed
"""
TITLE = "=== Duel, round 3: what north sees ==="


def test_a_view_with_section_headers() -> None:
    """The same label in two sections is two lines; a title that changes keeps its place."""
    after = RICHER.replace("=== Duel, round 3", "=== Duel, round 4").replace(
        "  north: ace, deuce", "  north: ace"
    )
    assert changed_lines(lines(RICHER), lines(after)) == [
        "=== Duel, round 4: what north sees ===",
        "Hands:",
        "  north: ace",
    ]


def test_a_board_drawn_under_a_title_without_a_colon() -> None:
    after = RICHER.replace(" 2 . . .", " 2 . O .")
    assert changed_lines(lines(RICHER), lines(after)) == [TITLE, "Board", " 2 . O ."]


def test_a_line_added_to_one_section_leaves_the_next_alone() -> None:
    after = RICHER.replace("  south: 5\n", "  south: 5\n  east: 0\n")
    assert changed_lines(lines(RICHER), lines(after)) == [TITLE, "Scores:", "  east: 0"]
    after = RICHER.replace(" 1 O . .\n", " 1 O . .\n 0 . . .\n")
    assert changed_lines(lines(RICHER), lines(after)) == [TITLE, "Board", " 0 . . ."]


def test_a_section_gone_is_said_once() -> None:
    after = RICHER.replace("== Log ==\n  north: passed\n", "")
    assert changed_lines(lines(RICHER), lines(after)) == ["(no longer shown: == Log ==)"]


def test_repeated_labels_are_told_apart_by_their_order() -> None:
    before = ["cards:", "  note: a", "  note: b"]
    assert changed_lines(before, ["cards:", "  note: a", "  note: c"]) == ["cards:", "  note: c"]


# ---- read_answer -----------------------------------------------------------------------------

OPTIONS = ["West Germany", "Italy", "East Germany", "Iran", "South Korea"]


@pytest.mark.parametrize(
    ("typed", "option"),
    [
        ("1", 0),
        (" 5 ", 4),
        ("italy", 1),
        ("WEST   germany", 0),
        ("so", 4),  # the start of one option
        ("ir", 3),
    ],
)
def test_an_answer_names_an_option(typed: str, option: int) -> None:
    assert read_answer(typed, OPTIONS).option == option


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("wset germany", "no option 'wset germany'; did you mean 'West Germany'"),
        ("itlay", "no option 'itlay'; did you mean 'Italy'?"),
        ("i", "'i' starts 2 options ('Italy', 'Iran'): type more of one, or its number"),
        ("6", "no option 6: type a number from 1 to 5"),
        ("0", "no option 0: type a number from 1 to 5"),
        ("-1", "no option -1: type a number from 1 to 5"),
        ("99999999999999999999", "no option 99999999999999999999: type a number from 1 to 5"),
        ("", "type a number from 1 to 5 or an option's text (? for help)"),
        ("zzz", "no option 'zzz': type a number from 1 to 5 or an option's text (? for help)"),
        ("a\x1b[2Jb", "no option 'a\\x1b[2Jb'"),  # a control character is not sent to the terminal
        ("x" * 500, "no option 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'"),
    ],
)
def test_an_answer_that_is_no_option_is_told_why(typed: str, message: str) -> None:
    answer = read_answer(typed, OPTIONS)
    assert answer.option is None and answer.key is None
    assert answer.message is not None and message in answer.message


def test_one_option_says_so() -> None:
    assert read_answer("2", ["pass"]).message == "no option 2: type a number 1 (the only option)"


@pytest.mark.parametrize("typed", sorted(KEYS) + ["Q", " HELP "])
def test_keys(typed: str) -> None:
    assert read_answer(typed, OPTIONS).key == KEYS[typed.strip().lower()]


def test_a_key_wins_over_an_option_of_its_text_which_its_number_chooses() -> None:
    options = ["q", "v", "help", "quince"]
    assert read_answer("q", options).key == "quit"
    assert read_answer("HELP", options).key == "help"
    assert [read_answer(str(n), options).option for n in (1, 2, 3)] == [0, 1, 2]
    assert read_answer("he", options).option == 2  # not a key: the start of one option
    assert read_answer("qu", options).option == 3


def test_where_the_options_are_numbers_a_number_is_one_of_them() -> None:
    """`how many cubes`: 1 is one cube, not the first line (which is 0); #1 is the first line."""
    counts = ["0", "1", "2"]
    assert read_answer("1", counts).option == 1 and read_answer("#1", counts).option == 0
    assert read_answer(" # 3", counts).option == 2
    assert read_answer("5", counts).message == "no option 5: the numbers to choose from are 0, 1, 2"
    assert read_answer("#4", counts).message == "no option #4: type a number from #1 to #3"
    mixed = ["pass", "2", "3"]
    assert read_answer("2", mixed).option == 1 and read_answer("p", mixed).option == 0
    assert read_answer("1", mixed).message == "no option 1: the numbers to choose from are 2, 3"
    assert read_answer("#2", OPTIONS).option == 1  # #N works everywhere


# ---- the human agent -------------------------------------------------------------------------


class Terminal:
    """A human agent whose answers come from a list, and what it wrote, decision by decision."""

    def __init__(self, answers: list[str]) -> None:
        self.answers: Iterator[str] = iter(answers)
        self.out: list[str] = []
        self.marks: list[int] = []  # where in `out` each decision's display starts
        terminal = self

        class Marked(HumanAgent):
            def choose(self, state: GameState) -> int:
                terminal.marks.append(len(terminal.out))
                return super().choose(state)

        self.agent = Marked(self.read, self.out.append)

    def read(self, prompt: str) -> str:
        for answer in self.answers:
            return answer
        raise EOFError

    def shown(self, decision: int) -> list[str]:
        """What decision `decision` (0 the first) showed, up to the next."""
        end = self.marks[decision + 1] if decision + 1 < len(self.marks) else len(self.out)
        return self.out[self.marks[decision] : end]


def play_as_human(game: str, seed: int, answers: list[str], decisions: int) -> tuple[Terminal, GameState]:
    """Player 0 at the terminal, the others random, until player 0 has made `decisions` decisions."""
    state = load_game(game).new_initial_state(seed)
    term = Terminal(answers)
    others = RandomAgent(seed)
    made = 0
    while not state.is_terminal():
        if state.current_player() != 0:
            state.apply_action(others.choose(state))
        elif made < decisions:
            state.apply_action(term.agent.choose(state))
            made += 1
        else:
            break
    return term, state


def test_the_second_decision_shows_fewer_lines_and_v_shows_all() -> None:
    term, _ = play_as_human("iron_curtain", 2, ["1", "v", "1", "1"], 3)
    first, second, third = term.shown(0), term.shown(1), term.shown(2)
    assert "=== Iron Curtain: what US sees ===" in first and "hand[USSR]: 5 face down" in first
    assert "The log so far:" in first and "  Round 1: US plays first" in first
    asked = second.index("US, where to place the card:")
    assert "(nothing changed in your view since your last decision; v shows it)" in second[:asked]
    assert "hand[USSR]: 5 face down" not in second[:asked] and len(second[:asked]) < len(first)
    assert "  US chooses West Germany (card to play)" in second[:asked]
    after_v = second[asked + 1 :]
    assert "=== Iron Curtain: what US sees ===" in after_v and "hand[USSR]: 5 face down" in after_v
    assert after_v.count("US, where to place the card:") == 1  # the options again, after the view
    assert "(what changed in your view since your last decision; v shows all of it)" in third
    assert "hand[US] (4): Iran (2), South Korea (2), Italy (2), East Germany (3)" in third
    assert not [line for line in third if "(no longer shown)" in line]  # the row's count is no key
    assert "hand[USSR]: 5 face down" not in third and len(third) < len(first)
    assert "Since your last decision:" in third and "  US places West Germany (Europe) at (-1,0)" in third


def test_the_log_shown_is_the_players_own() -> None:
    """The other player's secret answer is not shown before one's own (it was, once), nor by `l`."""
    term, state = play_as_human("twilight_struggle", 2, ["1"] * 7 + ["l", "1", "1"], 9)
    headline = term.shown(7)
    assert headline.count("US, headline card:") == 2  # asked, then again after the log
    whole_log = headline[headline.index("US, headline card:") :]
    assert "The log so far:" in whole_log and "  Turn 1" in whole_log  # `l`: the whole log
    assert any("[USSR only]" in line for line in state.log())
    assert not [line for line in term.out if "[USSR only]" in line]
    assert any(line.startswith("  [US only] US chooses") for line in term.shown(8))


def test_help_and_did_you_mean_never_count_as_a_decision() -> None:
    term, state = play_as_human("iron_curtain", 2, ["?", "wset germany", "help", "italy"], 1)
    shown = term.shown(0)
    assert (
        shown.count("How to answer:") == 2
        and "  q  or quit        stop the game here; `rulewright play` keeps its log, marked" in shown
    )
    assert "  no option 'wset germany'; did you mean 'West Germany'" in " ".join(shown)
    assert "US chooses Italy (card to play)" in state.log() and len(state.history) == 2


def test_q_raises_quit() -> None:
    state = load_game("iron_curtain").new_initial_state(2)
    while state.current_player() != 0:
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(QuitGame, match="quit"):
        HumanAgent(lambda prompt: "quit", lambda line: None).choose(state)


def test_a_script_that_keeps_answering_no_option_stops_the_game() -> None:
    state = load_game("iron_curtain").new_initial_state(2)
    while state.current_player() != 0:
        state.apply_action(state.legal_actions()[0])
    answers = iter(["zzz", "?"] * 60 + ["zzz"] * PATIENCE)
    written: list[str] = []
    with pytest.raises(QuitGame, match=f"US gave {PATIENCE} answers in a row that were no option"):
        HumanAgent(lambda prompt: next(answers), written.append).choose(state)
    assert next(answers, None) is None  # keys in between start the count afresh
    assert (
        written.count("  no option 'zzz': type a number from 1 to 5 or an option's text (? for help)")
        == 60 + PATIENCE - 1  # the last one stops the game
    )


# ---- the command -----------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, answers: str, *argv: str
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    code = main(["play", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_typo_gets_did_you_mean_then_the_game_goes_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = play(
        capsys,
        monkeypatch,
        "wset germny\n" + "1\n" * 300,
        "iron_curtain",
        "--agents",
        "human,random",
        "--seed",
        "2",
    )
    assert code == cli.EXIT_OK and "Result:" in out and err == ""
    assert "no option 'wset germny'; did you mean 'West Germany'" in out
    assert "Traceback" not in out


def test_question_mark_prints_the_help(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # where the unfinished game's log goes
    code, out, _ = play(capsys, monkeypatch, "?\n", "iron_curtain", "--agents", "human,random", "--seed", "2")
    assert code == cli.EXIT_USAGE  # then the input ended
    assert "How to answer:" in out and "v  or view" in out and "The view is what US sees" in out


def test_q_keeps_the_log_which_replays(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    log = tmp_path / "game.json"
    code, out, err = play(
        capsys,
        monkeypatch,
        "1\n1\n1\nq\n1\n",
        "iron_curtain",
        "--agents",
        "human,random",
        "--seed",
        "2",
        "--log",
        str(log),
    )
    assert code == cli.EXIT_USAGE
    assert (
        f"US quit (q) after 4 decision(s); the unfinished game's log is in {log} (rulewright replay {log})"
        in err
    )
    data = json.loads(log.read_text(encoding="utf-8"))
    assert data["unfinished"] == "US quit (q)" and len(data["actions"]) == 4  # the first is the USSR's
    code = main(["replay", str(log)])
    assert code == 0
    assert "replayed 4 actions of an unfinished game (US quit (q)); state matches" in capsys.readouterr().out


def test_q_without_log_keeps_it_here(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = play(
        capsys, monkeypatch, "2\nquit\n", "iron_curtain", "--agents", "human,random", "--seed", "2"
    )
    assert code == cli.EXIT_USAGE
    (kept,) = tmp_path.glob("rulewright-iron_curtain-seed2-unfinished*.json")
    assert kept.name in err
    assert main(["replay", str(kept)]) == 0


KEYS_SPEC = """\
game: keys
title: Keys
players: {names: [north, south]}
types:
  card: {fields: {value: int}}
components:
  card: [{id: q, value: 1}, {id: v, value: 2}, {id: help, value: 3}, {id: quince, value: 4}]
zones:
  deck: {of: card}
  hand: {of: card, per: player}
setup: |
  for c in card { move c to deck }
phases:
  - name: take
    do: |
      for p in players {
        let c = choose from deck by p "card to take"
        move c to hand[p]
      }
      end game draw "all taken"
"""


def test_an_option_named_like_a_key_is_chosen_by_its_number(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "keys").mkdir()
    (tmp_path / "keys" / "game.yaml").write_text(KEYS_SPEC, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, _ = play(capsys, monkeypatch, "v\n1\n", "./keys", "--agents", "human,random", "--seed", "1")
    assert code == cli.EXIT_OK
    assert "  (type 1 for 'q', 2 for 'v', 3 for 'help': typed as text, they are keys)" in out
    assert "north chooses q (card to take)" in out and out.count("=== Keys: what north sees ===") == 2
    code, out, err = play(capsys, monkeypatch, "q\n", "./keys", "--agents", "human,random", "--seed", "1")
    assert code == cli.EXIT_USAGE and "north quit (q) after 0 decision(s)" in err


def test_q_in_simulate_stops_it(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nq\n"))
    code = main(["simulate", "iron_curtain", "-n", "2", "--agents", "human,random"])
    assert code == cli.EXIT_USAGE and "rulewright simulate: US quit (q)" in capsys.readouterr().err


def test_the_help_epilog_lists_the_exit_codes() -> None:
    text = cli.parser().format_help()
    assert "also a game abandoned at a human's decision: the end of input, or q" in " ".join(text.split())


def test_c_name_shows_a_cards_value_and_text() -> None:
    """`c NAME` (or `card NAME`) asks for a card's value and text, and is no decision; an option
    that starts like it is still chosen by its text."""
    assert read_answer("c nato", ["Italy", "Chile"]) == Answer(key="card", card="nato")
    assert read_answer("card  West Germany", ["Italy"]) == Answer(key="card", card="West Germany")
    assert read_answer("c 2", ["c 2 (north)", "c 3"]).option == 0  # an option's text wins
    term, state = play_as_human("iron_curtain", 2, ["c south kor", "c zzz", "1"], 1)
    shown = " ".join(term.shown(0))
    assert "South Korea (2): " in shown and "no card named 'zzz'" in shown
    assert len(state.history) == 2
