"""The replay page (rulewright/replay_html.py): its frames decode into exactly what
`scene(state, p)`, `draw` and the perspective's log give at every step; a spec's texts reach the
page only as data; the drawing's markup is checked; the commands write it.
(tests/test_browser.py opens the pages in a real browser.)"""

from __future__ import annotations

import copy
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

import runtime
from compiler.driver import compile_spec
from rulewright.cli import main
from rulewright.commands.playing import play_game
from rulewright.gamelog import log_text
from rulewright.replay_html import (
    EVERYONE,
    UnsafeMarkup,
    check_markup,
    page,
    replay_data,
    script_json,
    split_markup,
    write_replay,
)
from rulewright.spec_loader import import_package
from runtime.board import scene
from runtime.game import Game
from runtime.svg import Drawing, draw
from tests.conftest import ROOT
from tests.test_injection import BASE, DSL_FIELDS, YAML_FIELDS, _write

GAMES = (
    "iron_curtain",
    "twilight_struggle",
    "guerra_fronteriza",
    "channel_tunnel",
    "lost_cities",
    "goofspiel",
    "liars_dice",
)

# Texts that would run script or break out of the page if any reached it as markup.
HOSTILE = (
    "</script><script>document.title='PWNED'</script><!--<img src=x onerror=\"document.title='PWNED'\">"
    "<svg onload=\"document.title='PWNED'\"></svg>]]>{{DATA}}{{JS}}&amp;"
)


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the commands find this workspace's games


def decode(data: dict[str, Any], view: dict[str, Any]) -> list[dict[str, Any]]:
    """Every step of a view in full, as viewer.js expands it."""
    strings = data["strings"]

    def markup(ids: list[int]) -> str:
        return "".join(strings[i] for i in ids)

    steps: list[dict[str, Any]] = []
    cur: dict[str, Any] = {"w": 0, "h": 0, "bg": "", "order": [], "groups": {}, "effects": []}
    for f in view["frames"]:
        groups = dict(cur["groups"])
        groups.update((gid, markup(ids)) for gid, ids in f.get("g", {}).items())
        step = {
            "w": f.get("w", cur["w"]),
            "h": f.get("h", cur["h"]),
            "bg": markup(f["bg"]) if "bg" in f else cur["bg"],
            "order": [strings[i] for i in f["o"]] if "o" in f else cur["order"],
            "groups": groups,
            "effects": [strings[i] for i in f["e"]] if "e" in f else cur["effects"],
            "log": [strings[i] for i in view["log"][: f["n"]]],
            "status": strings[f["s"]],
            "asked": f["a"],
            "prompt": strings[f["p"]],
            "options": [strings[i] for i in f.get("x", [])],
            "chosen": f.get("c", -1),
        }
        steps.append(step)
        cur = step
    return steps


def picture(step: dict[str, Any]) -> str:
    groups = tuple((gid, step["groups"][gid]) for gid in step["order"])
    return Drawing(step["w"], step["h"], step["bg"], groups).svg()


@pytest.mark.parametrize("name", GAMES)
def test_every_step_of_every_perspective_is_what_its_scene_and_log_give(name: str) -> None:
    game = runtime.load_game(name)
    actions = play_game(game, 3, ["random"]).history
    cap = min(len(actions), 40)
    data = replay_data(game, 3, actions, max_steps=cap)
    views = data["views"]
    assert [v["player"] for v in views] == [None, *range(game.num_players)]
    assert views[0]["label"] == EVERYONE
    assert data["meta"]["steps"] == cap and data["meta"]["decisions"] == len(actions)
    decoded = [decode(data, v) for v in views]
    state = game.new_initial_state(3)
    for i in range(cap + 1):
        for view, steps in zip(views, decoded, strict=True):
            p = view["player"]
            seen, got = scene(state, p), steps[i]
            assert picture(got) == draw(seen).svg(), (name, i, p)
            assert got["log"] == (state.log() if p is None else state.player_log(p))
            assert (got["status"], got["asked"], got["prompt"]) == (seen.status, seen.to_act, seen.prompt)
            assert tuple(got["options"]) == seen.options and tuple(got["effects"]) == seen.effects
            if i < cap and seen.options:  # the option taken at this step is marked where it is shown
                assert got["options"][got["chosen"]] == state.action_to_string(actions[i])
            else:
                assert got["chosen"] == -1
        if i < cap:
            state.apply_action(actions[i])


def test_a_players_frames_never_hold_an_opponents_hidden_cards() -> None:
    game = runtime.load_game("iron_curtain")
    actions = play_game(game, 1, ["random"]).history
    data = replay_data(game, 1, actions, max_steps=30)
    state = game.new_initial_state(1)
    for a in actions[:30]:
        state.apply_action(a)
    hand = next(z for z in scene(state, None).zones if z.key == "hand[USSR]")
    assert hand.cards, "the USSR holds cards at step 30"
    us = decode(data, data["views"][1])[30]
    everyone = decode(data, data["views"][0])[30]
    assert "Hand (USSR): " in picture(us) and "face down" in picture(us)
    for card in hand.cards:
        assert card.text and card.text in picture(everyone)
        assert card.text not in picture(us)  # the texts are on no other card


def test_markup_is_split_losslessly_and_checked() -> None:
    game = runtime.load_game("twilight_struggle")
    d = draw(scene(game.new_initial_state(1), None))
    for _, markup in (("bg", d.background), *d.groups):
        pieces = split_markup(markup)
        assert "".join(pieces) == markup
        for piece in pieces:
            check_markup(piece)
    assert len(split_markup(dict(d.groups)["panel"])) > 20  # a panel row is a piece of its own
    for bad in (
        "<script>alert(1)</script>",
        '<rect onload="alert(1)"/>',
        '<g onclick="x"><rect/></g>',
        "<foreignObject><div/></foreignObject>",
        '<image href="http://example.com/x.png"/>',
        '<a href="javascript:alert(1)"><text>x</text></a>',
        '<rect fill="url(http://example.com/#p)"/>',
        '<rect style="fill:red"/>',
        '<rect id="slider"/>',  # the page's own ids stay the page's
        "<text>unclosed",
        "<text>&nbsp;</text>",
    ):
        with pytest.raises(UnsafeMarkup):
            check_markup(bad)


def test_the_json_cannot_close_its_script_element() -> None:
    data = {"strings": [HOSTILE, "a</b", "<!-- x -->", "\\</script>", "\u2028", "é"], "n": [1, 2]}
    text = script_json(data)
    assert "</" not in text and "<!" not in text
    assert json.loads(text) == data


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self._in_script = tag == "script"
        if self._in_script:
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts[-1] += data


def _tags(html: str) -> _Tags:
    parser = _Tags()
    parser.feed(html)
    parser.close()
    return parser


def hostile_game(folder: Path) -> Game:
    """The language's feature spec with HOSTILE in every text a page shows: the title, a player's
    label, gem names and texts, log lines, prompts, the reason the game ends."""
    spec = copy.deepcopy(BASE)
    for put in (*YAML_FIELDS.values(), *DSL_FIELDS.values()):
        put(spec, HOSTILE)
    _write(folder, spec)
    result = compile_spec(folder)
    assert result.ok, [str(d) for d in result.diagnostics]
    module = import_package(result.files, result.name)
    return Game(module.State, module.scenarios.SCENARIOS)


def test_a_specs_hostile_texts_reach_the_page_only_as_data(tmp_path: Path) -> None:
    game = hostile_game(tmp_path / "spec")
    state = play_game(game, 2, ["random"])
    data = replay_data(game, 2, state.history)
    text = page(data)
    assert any(HOSTILE in s for s in data["strings"])  # a log line, a prompt, the status, ...
    parsed = _tags(text)
    plain = _tags(page(replay_data(runtime.load_game("iron_curtain"), 1, [])))
    assert parsed.tags == plain.tags  # no element added, none cut short
    assert len(parsed.scripts) == 2
    assert json.loads(parsed.scripts[0]) == json.loads(json.dumps(data))
    title = re.search(r"<title>(.*?)</title>", text, re.S)
    assert title is not None and "<" not in title.group(1)


def test_the_page_is_self_contained() -> None:
    text = page(replay_data(runtime.load_game("iron_curtain"), 1, []))
    assert re.search(r"\b(src|href)=", text) is None
    assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in text
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', text)
    assert policy is not None and "default-src 'none'" in policy.group(1)
    assert "unsafe-inline" not in policy.group(1)


def test_a_long_game_stays_small() -> None:
    game = runtime.load_game("twilight_struggle")
    actions = play_game(game, 20, ["random"]).history
    assert len(actions) > 200
    size = len(page(replay_data(game, 20, actions)).encode())
    assert size < 5_000_000


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


def test_play_replay_and_simulate_write_the_same_page(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log, played, replayed, simulated = (tmp_path / n for n in ("g.json", "p.html", "r.html", "s.html"))
    code, out = run(
        capsys, "play", "iron_curtain", "--seed", "4", "-q", "--log", str(log), "--html", str(played)
    )
    assert code == 0 and f"replay page written to {played}" in out
    code, out = run(capsys, "replay", str(log), "--html", str(replayed), "--html-steps", "10")
    assert code == 0 and "steps 0 to 10 of" in out
    code, out = run(
        capsys,
        "simulate",
        "iron_curtain",
        "-n",
        "2",
        "--seed",
        "3",
        "-j",
        "1",
        "--html",
        str(simulated),
        "--html-game",
        "2",
    )
    assert code == 0 and "game 2 (seed 4" in out
    assert played.read_bytes() == simulated.read_bytes()
    assert played.read_bytes() != replayed.read_bytes()
    code, out = run(capsys, "replay", str(log), "--html", str(tmp_path / "r2.html"))
    assert code == 0 and (tmp_path / "r2.html").read_bytes() == played.read_bytes()


def test_the_commands_refuse_before_playing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out = run(capsys, "play", "iron_curtain", "--html", str(tmp_path))
    assert code == 2 and "is a folder" in out
    code, out = run(
        capsys, "simulate", "iron_curtain", "-n", "2", "--html", str(tmp_path / "x.html"), "--html-game", "3"
    )
    assert code == 2 and "--html-game 3: the run plays 2 game(s)" in out
    code, out = run(capsys, "simulate", "iron_curtain", "-n", "2", "--html-game", "1")
    assert code == 2 and "--html-game: name the page with --html FILE" in out
    code, out = run(
        capsys, "simulate", "iron_curtain", "-n", "1", "--agents", "human", "--html", str(tmp_path / "x.html")
    )
    assert code == 2 and "use `rulewright play --html`" in out
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "iron_curtain", "seed": 1, "actions": ["nope"], "final_state_sha256": "x"}')
    code, out = run(capsys, "replay", str(bad), "--html", str(tmp_path / "r.html"))
    assert code == 1 and not (tmp_path / "r.html").exists()


def test_write_replay_reports_what_it_wrote(tmp_path: Path) -> None:
    game = runtime.load_game("guerra_fronteriza")
    actions = play_game(game, 1, ["random"]).history
    built = write_replay(tmp_path / "g.html", game, 1, actions, max_steps=5, perspectives=[1])
    assert (built.steps, built.perspectives) == (5, 1)
    assert built.size == (tmp_path / "g.html").stat().st_size


def test_an_unfinished_games_log_gets_its_page(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = runtime.load_game("iron_curtain")
    state = game.new_initial_state(5)
    for _ in range(7):
        state.apply_action(state.legal_actions()[0])
    log = tmp_path / "unfinished.json"
    log.write_text(log_text(game, 5, state, unfinished="input ended"), encoding="utf-8")
    page = tmp_path / "u.html"
    code, out = run(capsys, "replay", str(log), "--html", str(page))
    assert code == 0 and "replayed 7 actions of an unfinished game" in out and "steps 0 to 7," in out
    data = json.loads(_tags(page.read_text(encoding="utf-8")).scripts[0])
    assert data["meta"]["result"] == "unfinished (input ended)" and data["meta"]["steps"] == 7
