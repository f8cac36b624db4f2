"""The scenario format's expectations and steps (docs/dsl.md, scenarios), each shown holding and
failing, through `rulewright scenarios --game GAME FILE...` on case files kept outside the spec."""

from __future__ import annotations

from pathlib import Path

import pytest

import runtime
from rulewright.cli import main

pytestmark = pytest.mark.skipif(
    "iron_curtain" not in runtime.available_games(), reason="the cases play Iron Curtain"
)

# The USSR plays Vietnam's event at -7: the marker reaches -8 and the USSR wins at once.
FLAG = """\
name: {name}
setup: |
  ideology = -7
  move vietnam to hand[ussr]
  move east_germany to hand[ussr]
"""


def run(capsys: pytest.CaptureFixture[str], tmp_path: Path, body: str) -> tuple[int, str]:
    case = tmp_path / "case.yaml"
    case.write_text(FLAG.format(name="case") + body, encoding="utf-8")
    code = main(["scenarios", "--game", "iron_curtain", str(case)])
    return code, capsys.readouterr().out


HOLDING = [
    # steps: expectations between the actions, then after the last
    """\
steps:
  - actions: [USSR]
    expect_to_act: USSR
    expect_prompt: card
    expect: ["ideology == -7"]
  - actions: [Vietnam, "(1,0)", event]
    expect: ["ideology == -8"]
    expect_winner: USSR
""",
    # what each player sees: its own hand, not the other's
    """\
actions: [USSR]
expect_seen:
  USSR: [Vietnam, East Germany]
expect_unseen:
  US: [Vietnam, East Germany]
""",
    # a log line that never appeared
    """\
actions: [USSR, Vietnam, "(1,0)", event]
expect_no_log: [US wins, draw]
expect_log: [USSR wins]
""",
]

FAILING = [
    ("actions: [USSR]\nexpect_to_act: US\n", "USSR is to act, expected US"),
    ("actions: [USSR]\nexpect_prompt: order\n", "the pending decision is"),
    ("actions: [USSR]\nexpect_winner: USSR\n", "expected the game over (USSR wins), but it goes on"),
    ('actions: [USSR, Vietnam, "(1,0)", event]\nexpect_winner: draw\n', "the game ended with USSR winning"),
    (
        'actions: [USSR, Vietnam, "(1,0)", event]\nexpect_to_act: US\n',
        "expected US to act, but the game is over",
    ),
    ("actions: [USSR]\nexpect_seen:\n  US: [Vietnam]\n", "US does not see 'Vietnam'"),
    ("actions: [USSR]\nexpect_unseen:\n  USSR: [Vietnam]\n", "USSR sees 'Vietnam', which it should not"),
    ("actions: [USSR]\nexpect_no_log: [plays first]\n", "a log line contains 'plays first'"),
    (
        "steps:\n  - actions: [USSR]\n    expect: ['ideology == -8']\n  - actions: [Vietnam]\n",
        "step 1 (line 7): ",
    ),
    (
        'steps:\n  - actions: [USSR, Vietnam]\n  - actions: ["(1,0)", bogus]\n    expect_error: "zzz"\n',
        "step 2 (line 8): action 4: expected an error containing 'zzz'",
    ),
]


@pytest.mark.parametrize("body", HOLDING)
def test_expectations_hold(capsys: pytest.CaptureFixture[str], tmp_path: Path, body: str) -> None:
    code, out = run(capsys, tmp_path, body)
    assert code == 0 and "1 passed, 0 failed" in out, out


@pytest.mark.parametrize(("body", "message"), FAILING, ids=[m for _, m in FAILING])
def test_expectations_fail_with_a_message(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, body: str, message: str
) -> None:
    code, out = run(capsys, tmp_path, body)
    assert code == 1 and "0 passed, 1 failed" in out, out
    assert message in out, out


def test_forced_draws_and_picks(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`draws` names only the components a shuffle puts on top (drawn first first); the setup deals
    5 cards to the US first, so the two named go to the US."""
    case = tmp_path / "draws.yaml"
    case.write_text(
        "name: draws\ndraws:\n  - [japan, cuba]\nactions: []\nexpect:\n"
        "  - japan in hand[usa] and cuba in hand[usa]\n",
        encoding="utf-8",
    )
    assert main(["scenarios", "--game", "iron_curtain", str(case)]) == 0, capsys.readouterr().out
    case.write_text("name: draws\ndraws:\n  - [start]\nactions: []\n", encoding="utf-8")
    assert main(["scenarios", "--game", "iron_curtain", str(case)]) == 1
    assert "a forced draw must name distinct components of the shuffled pile" in capsys.readouterr().out


def test_start_at_a_phase(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`start_at` skips what the flow reaches before the named phase (here both passes of the
    repeated `round`) and runs the setup there."""
    case = tmp_path / "epilogue.yaml"
    case.write_text(
        "name: epilogue\nstart_at: epilogue\nsetup: |\n  ideology = 3\n  move vietnam to aside[usa]\n"
        "actions: []\nexpect: ['round == 1', 'ideology == 0']\nexpect_winner: US\n"
        "expect_no_log: [plays first]\n",
        encoding="utf-8",
    )
    assert main(["scenarios", "--game", "iron_curtain", str(case)]) == 0, capsys.readouterr().out


def test_case_folders_and_spec_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(FLAG.format(name="a") + "actions: [USSR]\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text(FLAG.format(name="b") + "actions: [US]\n", encoding="utf-8")
    assert main(["scenarios", "--game", "iron_curtain", str(tmp_path)]) == 0
    assert "2 passed, 0 failed" in capsys.readouterr().out
    (tmp_path / "c.yaml").write_text(FLAG.format(name="c") + "actions: [US]\nexpect_to_act: Moscow\n")
    assert main(["scenarios", "--game", "iron_curtain", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "c.yaml:7:16: error: 'Moscow' is not a player of this game" in out, out


def test_case_files_need_their_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    case = tmp_path / "a.yaml"
    case.write_text(FLAG.format(name="a") + "actions: [USSR]\n", encoding="utf-8")
    assert main(["scenarios", str(case)]) == 2
    assert "name the game they test" in capsys.readouterr().err
    assert main(["scenarios", "--game", "iron_curtain", str(tmp_path / "missing.yaml")]) == 2
    assert "no such case file" in capsys.readouterr().err


def test_a_forced_pick_that_cannot_be_used_fails_the_case() -> None:
    """A pick that is not among the components picked from fails the case with its reason."""
    from rulewright.scenarios import run_scenario

    if "twilight_struggle" not in runtime.available_games():
        pytest.skip("no twilight_struggle")
    game = runtime.load_game("twilight_struggle")
    (sc,) = [s for s in game.scenarios if s["file"].endswith("/terrorism_ussr_event.yaml")]
    result = run_scenario("twilight_struggle", {**sc, "picks": [0]})  # not a card of the US hand
    assert not result.ok and "a forced pick must be among the components picked from" in result.message
