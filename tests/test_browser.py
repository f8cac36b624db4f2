"""The replay page in a real browser: headless Chromium (the distribution's /usr/bin/chromium and
/usr/bin/chromedriver, driven by Selenium) opens the page of a seeded game of every game, steps
through it with the keys, the buttons' keys, the perspective select and the slider, and checks
what it shows against the states: the board's places and zones, the decision, the lasting
effects, the log; a player's perspective never shows an opponent's hidden cards; a spec's
hostile texts show as text and run nothing.

Screenshots go to the test's temporary folder; RULEWRIGHT_SCREENSHOTS=DIR keeps them in DIR.
Skipped when Chromium, its driver or the selenium package is missing (`make test` installs
Chromium where it can).
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import runtime
from rulewright.commands.playing import play_game
from rulewright.replay_html import EVERYONE, write_replay
from runtime.board import scene
from runtime.engine import GameState
from runtime.game import Game
from tests import chromium
from tests.test_replay_html import HOSTILE, hostile_game

CAP = 60  # steps shown of a long game

# the games, each with a seed whose random game is long enough to step through
GAMES = {
    "iron_curtain": 1,
    "twilight_struggle": 20,
    "guerra_fronteriza": 1,
    "channel_tunnel": 1,
    "lost_cities": 1,
}

# Everything the page shows, read in one call.
READ_PAGE = """
const all = (s) => [...document.querySelectorAll(s)];
const q = (s) => document.querySelector(s);
const box = q('#loglines').getBoundingClientRect();
const latest = q('#loglines li.latest:last-child');
const r = latest ? latest.getBoundingClientRect() : null;
return {
  step: Number(document.body.dataset.step),
  view: Number(document.body.dataset.view),
  slider: Number(q('#slider').value),
  select: Number(q('#perspective').value),
  whose: q('#whose').textContent,
  status: q('#status').textContent,
  asked: q('#asked').textContent,
  prompt: q('#prompt').textContent,
  options: all('#options li').map((li) => li.textContent),
  chosen: all('#options li.chosen').map((li) => li.textContent),
  effects: all('#effectlist li').map((li) => li.textContent),
  log: all('#loglines li').map((li) => li.textContent),
  latestShown: r !== null && r.top >= box.top - 1 && r.bottom <= box.bottom + 1,
  groups: all('#groups > g').map((g) => g.dataset.group),
  titles: Object.fromEntries(
    all('#groups > g[data-group^="place"]').map((g) => [g.dataset.group, g.querySelector('title').textContent])),
  tracks: all('#groups > g[data-group^="track"]').map((g) => g.textContent).join('\\n'),
  panel: (q('#groups > g[data-group="panel"]') || {textContent: ''}).textContent,
  picture: q('#picture').textContent,
  side: q('#side').textContent,
  width: Number(q('#picture').getAttribute('width')),
  title: document.title,
  // the page itself never scrolls at this size: only the board and the lists do
  shifted: document.documentElement.scrollLeft + document.documentElement.scrollTop
    + document.body.scrollLeft + document.body.scrollTop,
  scripts: document.scripts.length,
  foreign: all('img, iframe, object, embed, foreignObject, #picture svg, [onload], [onerror], [onclick]').length,
};
"""


@dataclass
class Browser:
    driver: Any  # selenium's WebDriver
    shots: Path
    by: Any
    keys: Any
    actions: Any  # ActionChains
    select: Any  # Select

    def open(self, page: Path) -> None:
        self.driver.get(page.resolve().as_uri())

    def press(self, *keys: str) -> None:
        chain = self.actions(self.driver)
        for k in keys:
            chain.send_keys(k)
        chain.perform()

    def read(self) -> dict[str, Any]:
        result: dict[str, Any] = self.driver.execute_script(READ_PAGE)
        return result

    def shot(self, name: str) -> None:
        self.driver.save_screenshot(str(self.shots / f"{name}.png"))


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    why = chromium.why_not()
    if why is not None:
        pytest.skip(why)
    try:
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By
        from selenium.webdriver.common.keys import Keys
        from selenium.webdriver.support.ui import Select
    except ImportError:
        pytest.skip(chromium.NO_SELENIUM)
    kept = os.environ.get("RULEWRIGHT_SCREENSHOTS")
    shots = Path(kept) if kept else tmp_path_factory.mktemp("screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    driver = chromium.start(tmp_path_factory.mktemp("chromium-profile"), 1500, 900)
    try:
        yield Browser(driver, shots, By, Keys, ActionChains, Select)
    finally:
        driver.quit()
        if not kept:
            shutil.rmtree(shots, ignore_errors=True)


@dataclass
class Replay:
    game: Game
    actions: list[int]
    states: list[GameState]  # step i: the state after i decisions
    views: list[int | None]  # the page's perspectives, in order

    @property
    def last(self) -> int:
        return len(self.states) - 1


def replay(name: str, seed: int, folder: Path) -> tuple[Replay, Path]:
    game = runtime.load_game(name)
    actions = play_game(game, seed, ["random"]).history
    shown = min(len(actions), CAP)
    state = game.new_initial_state(seed)
    states = [state.clone()]
    for a in actions[:shown]:
        state.apply_action(a)
        states.append(state.clone())
    page = folder / f"{name}.html"
    write_replay(page, game, seed, actions, max_steps=CAP)
    return Replay(game, actions, states, [None, *range(game.num_players)]), page


def check(b: Browser, r: Replay, step: int, view: int) -> dict[str, Any]:
    """The page shows step `step` from perspective `view` as the states say."""
    got = b.read()
    assert (got["step"], got["view"], got["slider"], got["select"]) == (step, view, step, view)
    assert got["scripts"] == 2 and got["foreign"] == 0 and got["shifted"] == 0
    state, player = r.states[step], r.views[view]
    seen = scene(state, player)
    names = r.game.info.player_names
    # whose view
    if player is None:
        assert "Omniscient" in got["whose"]
    else:
        assert got["whose"].startswith(f"What {names[player]} sees")
    # the decision
    assert got["status"] == seen.status
    assert got["prompt"] == seen.prompt
    assert got["options"] == list(seen.options)
    if seen.to_act >= 0:
        assert got["asked"].startswith(f"{names[seen.to_act]} is asked")
    if seen.options and step < r.last:
        assert got["chosen"] == [state.action_to_string(r.actions[step])]
    else:
        assert got["chosen"] == []
    # the lasting effects
    assert got["effects"] == (list(seen.effects) or ["none"])
    # the log: the perspective's lines up to this step, the latest highlighted and scrolled to
    lines = state.log() if player is None else state.player_log(player)
    assert got["log"] == lines
    if lines:
        assert got["latestShown"]
    # the board: every place with its values, the tracks' markers, every zone's count
    for li, layer in enumerate(seen.layers):
        for p in layer.places:
            gid = f"place{li}-{re.sub(r'[^A-Za-z0-9_-]', '_', p.id)}"
            marks = [f"{seen.players[q]} {n}" for q, n, _ in p.markers]  # each player's marker
            assert got["titles"][gid] == " · ".join([p.label, *(f"{k} {v}" for k, v in p.values), *marks]), (
                gid
            )
    for t in seen.tracks:
        if not t.counter:
            for who, value in t.markers:
                whose = f"{seen.players[who]} " if who >= 0 else ""
                assert f"{t.name}: {whose}{value}" in got["tracks"]
        elif len(f"{t.name}: {t.text}") < 50:  # longer ones are cut short in the picture
            assert f"{t.name}: {t.text}" in got["panel"]
    for z in seen.zones:
        head = f"{z.label} ({z.count})" if z.cards is not None else f"{z.label}: {z.count} face down"
        assert head in got["panel"], head
    # what this player may not see is nowhere on the page
    if player is not None:
        shown = chromium.visible_texts(seen, lines)
        hidden = chromium.hidden_cards(scene(state, None), seen)
        for label in sorted(hidden):
            if label not in shown:
                assert label not in got["picture"] and label not in got["side"], (step, player, label)
    return got


def step_to(b: Browser, r: Replay, step: int, view: int, name: str) -> None:
    check(b, r, step, view)
    b.shot(f"{name}-step{step:03d}-{'everyone' if r.views[view] is None else f'player{r.views[view] + 1}'}")


@pytest.mark.parametrize("name", GAMES)
def test_step_through_a_game(browser: Browser, name: str, tmp_path: Path) -> None:
    b = browser
    r, page = replay(name, GAMES[name], tmp_path)
    start = time.perf_counter()
    b.open(page)
    k = b.keys
    step_to(b, r, 0, 0, name)
    b.press(k.ARROW_RIGHT, k.ARROW_RIGHT, k.ARROW_RIGHT)
    step_to(b, r, 3, 0, name)
    b.press(k.ARROW_LEFT)
    check(b, r, 2, 0)
    b.press("1")  # the first player's perspective
    step_to(b, r, 2, 1, name)
    b.press(k.PAGE_DOWN)
    step_to(b, r, 12, 1, name)
    b.press(k.END)
    step_to(b, r, r.last, 1, name)
    b.press(k.ARROW_RIGHT)  # nothing after the last step
    check(b, r, r.last, 1)
    b.press(k.HOME)
    check(b, r, 0, 1)
    # the second player's perspective from the select, then the slider
    b.select(b.driver.find_element(b.by.ID, "perspective")).select_by_index(2)
    check(b, r, 0, 2)
    slider = b.driver.find_element(b.by.ID, "slider")
    b.actions(b.driver).move_to_element_with_offset(slider, slider.size["width"] // 4, 0).click().perform()
    at = b.read()["step"]
    assert r.last // 2 < at < r.last  # about three quarters along
    step_to(b, r, at, 2, name)
    b.press(k.ARROW_LEFT)  # the keys still step with the slider focused
    check(b, r, at - 1, 2)
    b.press("0")
    step_to(b, r, at - 1, 0, name)
    b.press(k.ARROW_RIGHT, k.ARROW_RIGHT)
    check(b, r, at + 1, 0)
    b.press("9")  # no ninth player: nothing changes
    check(b, r, at + 1, 0)
    assert time.perf_counter() - start < 20


def test_the_omniscient_view_is_labelled_and_shows_the_hands(browser: Browser, tmp_path: Path) -> None:
    b = browser
    r, page = replay("iron_curtain", GAMES["iron_curtain"], tmp_path)
    b.open(page)
    b.press(b.keys.PAGE_DOWN)
    got = check(b, r, 10, 0)
    everyone = scene(r.states[10], None)
    hand = next(z for z in everyone.zones if z.key == "hand[USSR]")
    assert hand.cards and all(c.label in got["picture"] for c in hand.cards)
    assert b.driver.find_element(b.by.ID, "perspective").text.splitlines()[0].startswith(f"0: {EVERYONE}")
    b.press("1")
    got = check(b, r, 10, 1)
    assert "Hand (USSR): " in got["panel"]


def test_hostile_texts_show_as_text_and_run_nothing(browser: Browser, tmp_path: Path) -> None:
    b = browser
    game = hostile_game(tmp_path / "spec")
    state = play_game(game, 2, ["random"])
    page = tmp_path / "hostile.html"
    write_replay(page, game, 2, state.history)
    b.open(page)
    lines: list[str] = []
    for keys in ((), (b.keys.END,), ("1",), ("2",), (b.keys.HOME,)):
        if keys:
            b.press(*keys)
        got = b.read()
        assert got["title"] == f"{HOSTILE}: replay (seed 2)"  # the text itself: nothing ran to change it
        assert got["scripts"] == 2 and got["foreign"] == 0 and got["shifted"] == 0
        lines += got["log"]
    assert any(HOSTILE in line for line in lines)
    assert HOSTILE in b.driver.find_element(b.by.ID, "title").text
    assert HOSTILE in b.driver.find_element(b.by.ID, "perspective").text
    b.press(b.keys.END)
    b.shot("hostile-texts")
