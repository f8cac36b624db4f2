"""`rulewright draw`: a state of a game as the terminal view, an SVG or a PNG, for a player or for
everyone; bad perspectives and file names are usage errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulewright.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


def test_the_terminal_view_of_a_player(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "draw", "iron_curtain", "--steps", "6", "--as", "US")
    assert code == 0, out
    assert "what US sees" in out and "hand[USSR]:" in out and "face down" in out


def test_an_svg_for_everyone_and_a_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    svg = tmp_path / "board.svg"
    code, out = run(capsys, "draw", "twilight_struggle", "--steps", "20", "--out", str(svg))
    assert code == 0, out
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<svg") and "everything (no hidden information)" in text and "Austria" in text
    pytest.importorskip("resvg_py")
    png = tmp_path / "board.png"
    code, out = run(
        capsys, "draw", "guerra_fronteriza", "--steps", "10", "--as", "germany", "--out", str(png)
    )
    assert code == 0, out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_step_of_a_logged_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    assert run(capsys, "play", "iron_curtain", "--seed", "2", "--log", str(log), "-q")[0] == 0
    actions = json.loads(log.read_text(encoding="utf-8"))["actions"]
    code, out = run(capsys, "draw", "--log", str(log), "--steps", "3", "--as", "USSR")
    assert code == 0, out
    assert "what USSR sees" in out
    assert len(actions) > 3


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (("draw", "iron_curtain", "--as", "nobody"), "not a player"),
        (("draw", "iron_curtain", "--out", "board.gif"), "write an .svg, .png or .txt file"),
        (("draw",), "name a GAME"),
        (("draw", "iron_curtain", "--steps", "-1"), "at least 0"),
        (("draw", "no_such_game"), "unknown game"),
    ],
)
def test_bad_input_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    argv: tuple[str, ...],
    says: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = run(capsys, *argv)
    assert code == 2 and says in out, out
