"""`rulewright serve` in a real browser, as its users meet it: headless Chromium (the distribution's
/usr/bin/chromium and /usr/bin/chromedriver, driven by Selenium, as tests/test_browser.py does)
on a server started as a user starts it, `python -m rulewright serve --port 0 --data DIR`.

    two players      the lobby makes an Iron Curtain match with a seat invited by a link; two
                     browsers (two drivers: two profiles, two localStorages) play it to the end,
                     and each page shows its own hand and never the other's hidden cards (checked
                     against the engine, replayed from the moves in the server's SQLite file)
    hot-seat         both seats in one browser: the cover names the next player and hides the
                     board, the options and the log until they press Ready
    bots             the lobby makes a match against the random bot, played to the end without
                     clicks for the bot; the Replay button opens the replay page, and the log the
                     download form gives is verified by `rulewright replay`
    readable         Twilight Struggle and Channel Tunnel mid-game at 1400x900: no SVG text under
                     11 px, no id shown (Twilight Struggle's option labels still name ids)
    kill -9          the server killed mid-match and started again on the same port and data: the
                     open page reconnects by itself to the same decision and log, plays on, and a
                     new tab at /m/ID (the token from localStorage) returns to its seat; stopped
                     as by Ctrl-C with the page open, it stops at once

One server serves the module (the kill -9 test, last, kills it and starts it again in place);
moves are clicked by a script in the page (one WebDriver call per move, which also waits for the
page to answer), the first move of a match and every other button by WebDriver's own click.
Pages are read in one script call. The module costs 20-23 s of CPU, Chromium's processes included.
RULEWRIGHT_SCREENSHOTS=DIR saves DIR/serve-*.png (docs/images holds them): the lobby, a match
(Twilight Struggle), the hot-seat cover, Iron Curtain mid-game and finished, Channel Tunnel. Skipped when
Chromium, its driver, selenium or aiohttp is missing (`make test` installs them where it can).
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import runtime
from runtime.board import scene
from runtime.engine import GameState
from runtime.game import Game
from tests import chromium

ROOT = Path(__file__).resolve().parents[1]
WAIT = 10.0  # seconds a page or the server may take to answer before a test fails

# skipped before any server starts
if chromium.why_not() is not None:
    pytest.skip(str(chromium.why_not()), allow_module_level=True)
if importlib.util.find_spec("aiohttp") is None:  # the server's (and _play's) one requirement
    pytest.skip("no aiohttp: pip install -e '.[serve]'", allow_module_level=True)

# ---- the page, read and clicked in one script call each -------------------------------------------

# What a match page shows, as one object; `full` adds the log, the zones' headings and every text
# (innerText leaves out the SVG's tooltips: its textContent is added).
SHOWN = """
const q = (s) => document.querySelector(s);
const all = (s) => [...document.querySelectorAll(s)];
function shown(full) {
  const svg = q('#board svg');
  return {
    version: typeof version === 'number' ? version : -1,
    seat: q('#seatname').textContent,
    waiting: q('#waiting').textContent,
    prompt: q('#prompt').textContent,
    options: all('#options button').filter((b) => !b.disabled).map((b) => b.dataset.label),
    over: !q('#result').hidden,
    result: q('#result').textContent,
    covered: !q('#cover').hidden,
    coverline: q('#coverline').textContent,
    board: q('#board').children.length,
    error: q('#error').textContent,
    connection: q('#connection').textContent,
    download: !q('#download').hidden,
    log: full ? all('#log li').map((li) => li.textContent) : null,
    zones: full ? all('#zones h3').map((h) => h.textContent) : null,
    text: full ? document.body.innerText + '\\n' + (svg ? svg.textContent : '') : null,
  };
}
"""

# Waits (arguments: the least version, whether a decision, the cover or the end must be on screen)
# until the page shows that, then returns what it shows.
READ = (
    SHOWN
    + """
const [least, turn, full, done] = arguments;
const start = Date.now();
function ready() {
  if (typeof views !== 'object' || !Object.keys(views).length || version < least) return false;
  return !turn || !q('#result').hidden || !q('#cover').hidden
    || all('#options button').some((b) => !b.disabled);
}
(function poll() {
  if (ready() || Date.now() - start > WAIT) done(shown(full));
  else setTimeout(poll, 15);
})();
""".replace("WAIT", str(int(WAIT * 1000)))
)

# Waits until the page shows a decision at least at a version (argument), clicks one of its
# options (argument: its index, or a number in [0, 1) that picks it) and waits until the page has
# the server's answer (the options are drawn again); returns the label clicked and what the page
# shows then.
CLICK = (
    SHOWN
    + """
const [least, pick, done] = arguments;
const start = Date.now();
(function go() {
  const buttons = all('#options button').filter((b) => !b.disabled);
  if (version < least || !buttons.length) {
    if (Date.now() - start > WAIT) done({label: null, ...shown(false)});
    else setTimeout(go, 15);
    return;
  }
  const b = buttons[Number.isInteger(pick) ? pick : Math.floor(pick * buttons.length)];
  const label = b.dataset.label;
  const watch = new MutationObserver(() => {
    if (!b.isConnected) { watch.disconnect(); clearTimeout(late); done({label, ...shown(false)}); }
  });
  const late = setTimeout(() => { watch.disconnect(); done({label, late: true, ...shown(false)}); }, WAIT);
  watch.observe(document.getElementById('options'), {childList: true});
  b.click();
})();
""".replace("WAIT", str(int(WAIT * 1000)))
)

# Every SVG text on the board: its rendered font size in CSS pixels (the computed size in the
# SVG's units times the screen's scale of the text) and its text, for those drawn (not empty,
# not hidden).
FONTS = """
return [...document.querySelectorAll('#board svg text')].flatMap((t) => {
  const r = t.getBoundingClientRect();
  if (!t.textContent.trim() || r.width === 0 || r.height === 0) return [];
  const m = t.getScreenCTM();
  const scale = m ? Math.hypot(m.a, m.b) : 1;
  return [[parseFloat(getComputedStyle(t).fontSize) * scale, t.textContent.trim()]];
});
"""


@dataclass
class Page:
    """One browser (a Selenium driver with its own profile) and the server it talks to."""

    driver: Any
    by: Any
    base: str

    def get(self, path: str) -> None:
        self.driver.get(urllib.parse.urljoin(self.base, path))

    def read(self, least: int = 0, *, turn: bool = False, full: bool = False) -> dict[str, Any]:
        got: dict[str, Any] = self.driver.execute_async_script(READ, least, turn, full)
        assert got["version"] >= least and not got["error"], got
        return got

    def click(self, pick: float, least: int = 0) -> dict[str, Any]:
        """Clicks an option (an index, or a number in [0, 1)) once the page is asked at version
        `least` or later; what the page shows then."""
        got: dict[str, Any] = self.driver.execute_async_script(CLICK, least, pick)
        assert got["label"] is not None and not got.get("late") and not got["error"], got
        return got

    def press(self, css: str) -> None:
        """WebDriver's own click (the element must be shown and not covered)."""
        self.driver.find_element(self.by.CSS_SELECTOR, css).click()

    def shot(self, name: str) -> None:
        kept = os.environ.get("RULEWRIGHT_SCREENSHOTS")
        if kept:
            Path(kept).mkdir(parents=True, exist_ok=True)
            self.driver.save_screenshot(str(Path(kept) / f"serve-{name}.png"))


# ---- the server -----------------------------------------------------------------------------------


@dataclass
class Server:
    proc: subprocess.Popen[bytes]
    base: str
    data: Path

    @property
    def port(self) -> int:
        return int(self.base.rsplit(":", 1)[1].strip("/"))

    def restart(self) -> None:
        """Started again in place, on the same port and data (the port may be held a moment)."""
        deadline = time.monotonic() + WAIT
        while True:
            try:
                self.proc, self.base = _launch(self.data, self.port)
                return
            except AssertionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def output(self) -> str:
        return self.data.with_suffix(".out").read_text("utf-8", "replace")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            self.proc.wait(WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def post(self, path: str, body: dict[str, Any]) -> Any:
        req = urllib.request.Request(
            self.base + path.lstrip("/"),
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=WAIT) as response:
            return json.load(response)

    def moves(self, match: str) -> tuple[int, list[int]]:
        """A match's seed and stored moves, read from the server's SQLite file (read-only)."""
        db = sqlite3.connect(f"file:{self.data / 'matches.sqlite3'}?mode=ro", uri=True)
        try:
            (seed,) = db.execute("SELECT seed FROM matches WHERE id = ?", (match,)).fetchone()
            rows = db.execute("SELECT action FROM moves WHERE match = ? ORDER BY n", (match,)).fetchall()
        finally:
            db.close()
        return seed, [a for (a,) in rows]


def _launch(data: Path, port: int) -> tuple[subprocess.Popen[bytes], str]:
    """`rulewright serve` as a user starts it, with bots that do not wait; its address from the
    first line it prints (its output goes to a file: a pipe nobody reads could fill and stop it)."""
    out = data.with_suffix(".out")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-m", "rulewright", "serve", "--port", str(port), "--data", str(data)]
    with out.open("wb") as sink:
        proc = subprocess.Popen([*argv, "--bot-delay", "0"], stdout=sink, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 3 * WAIT
    while time.monotonic() < deadline:
        found = re.search(r"at (http://127\.0\.0\.1:\d+/)", out.read_text("utf-8", "replace"))
        if found:
            return proc, found.group(1)
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    Server(proc, "", data).stop(signal.SIGKILL)
    raise AssertionError(f"the server did not start: {out.read_text('utf-8', 'replace')}")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("serve") / "data"
    s = Server(*_launch(data, 0), data)
    try:
        yield s
    finally:
        s.stop()


# ---- the browsers ---------------------------------------------------------------------------------


def _driver(profile: Path) -> Any:
    driver = chromium.start(profile, 1400, 900)  # the size the issue asks the boards to be readable at
    driver.set_script_timeout(2 * WAIT)
    return driver


# Two drivers, not two windows of one: a match page keeps its seats' tokens in localStorage (so
# that a closed tab returns to its seat), and two windows of one profile share it, so the second
# player's link would take over the first player's stored seat. Two profiles are two people. The
# second starts only for the test that needs it.
def _person(factory: pytest.TempPathFactory, server: Server, profile: str) -> Iterator[Page]:
    from selenium.webdriver.common.by import By

    driver = _driver(factory.mktemp(profile))
    try:
        yield Page(driver, By, server.base)
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def first(tmp_path_factory: pytest.TempPathFactory, server: Server) -> Iterator[Page]:
    yield from _person(tmp_path_factory, server, "profile-1")


@pytest.fixture(scope="module")
def second(tmp_path_factory: pytest.TempPathFactory, server: Server) -> Iterator[Page]:
    yield from _person(tmp_path_factory, server, "profile-2")


# ---- the engine's view, to check the pages against ------------------------------------------------


def replayed(game: Game, seed: int, actions: list[int]) -> GameState:
    state = game.new_initial_state(seed)
    for a in actions:
        state.apply_action(a)
    return state


def check_seat(state: GameState, seat: int, got: dict[str, Any]) -> None:
    """The page of `seat` shows its own cards, its log and its options, and none of the cards it
    may not see (unless the same label is something it does see, e.g. a place of the board)."""
    seen = scene(state, seat)
    text = got["text"]
    own = [c.label for z in seen.zones if z.owner == seat and z.cards is not None for c in z.cards]
    for label in own:
        assert label in text, (seat, label)
    log = state.player_log(seat)
    assert got["log"] == [words(line) for line in log]
    if got["options"]:
        assert got["options"] == [state.action_to_string(a) for a in state.legal_actions_of(seat)]
    shown = chromium.visible_texts(seen, log)
    hidden = chromium.hidden_cards(scene(state, None), seen)
    for label in sorted(hidden - set(own)):
        if label not in shown:
            assert label not in text, (seat, label)


def lobby_create(page: Page, game: str, seats: list[str]) -> tuple[str, list[str]]:
    """Make a match in the lobby's form: the link to open here, and the invite links."""
    from selenium.webdriver.support.ui import Select

    page.get("/")
    page.driver.execute_async_script(  # the lobby fills its form once it has the games
        "const done = arguments[0]; (function p() {"
        " if (document.querySelector('[data-seat]')) done(); else setTimeout(p, 15); })();"
    )
    Select(page.driver.find_element(page.by.ID, "game")).select_by_value(game)
    for i, kind in enumerate(seats):
        Select(page.driver.find_element(page.by.CSS_SELECTOR, f'[data-seat="{i}"]')).select_by_value(kind)
    page.press("#make")
    page.driver.execute_async_script(
        "const done = arguments[0]; (function p() {"
        " if (!document.getElementById('made').hidden) done(); else setTimeout(p, 15); })();"
    )
    here = page.driver.find_element(page.by.ID, "open").get_attribute("href")
    invites = [
        e.get_attribute("value") for e in page.driver.find_elements(page.by.CSS_SELECTOR, "[data-invite]")
    ]
    return here, invites


def match_of(link: str) -> str:
    return urllib.parse.urlsplit(link).path.split("/")[2]


# ---- the tests ------------------------------------------------------------------------------------


def test_two_players_by_link_play_iron_curtain_to_the_end(server: Server, first: Page, second: Page) -> None:
    here, invites = lobby_create(first, "iron_curtain", ["here", "link"])
    assert len(invites) == 1 and "#t=" in here and "#t=" in invites[0] and here != invites[0]
    first.shot("lobby")
    id = match_of(here)
    first.press("#open")
    second.get(invites[0])
    pages = [first, second]
    game = runtime.load_game("iron_curtain")
    print(f"match {id}, seed {server.moves(id)[0]}")  # the lobby chose the seed: shown on failure
    # Each move: the first option (a whole game is then 66 decisions, whatever the seed) of the
    # page that is asked, which answers with what it shows after the server's reply: if it is not
    # asked any more, the other page is (no decision here is simultaneous), and is clicked once it
    # has that version too. Every 10 moves both pages are read in full and checked against the
    # engine.
    at, moves, who = 0, 0, -1
    while True:
        if moves % 10 == 0:
            reads = [p.read(at, full=True) for p in pages]
            seed, actions = server.moves(id)
            state = replayed(game, seed, actions[:at])
            assert [r["version"] for r in reads] == [at, at]
            assert [r["seat"] for r in reads] == ["You are US", "You are USSR"]
            for seat, got in enumerate(reads):
                check_seat(state, seat, got)
            asked = [i for i, r in enumerate(reads) if r["options"]]
            assert len(asked) == 1 or reads[0]["over"], reads
            if moves == 20:
                first.shot("iron-curtain")
            if reads[0]["over"]:
                break
            who = asked[0]
        assert moves < 200
        if moves == 0:  # the first move by WebDriver's click on the button, as a user's
            pages[who].press("#options button")
            got = pages[who].read(1)
        else:
            got = pages[who].click(0, at)
        at = got["version"]
        moves += 1
        if got["over"]:
            break
        if not got["options"]:
            assert got["waiting"].startswith("Waiting for "), got
            who = 1 - who
    ends = [p.read(at, full=True) for p in pages]
    # the address bar keeps no token: it moved to localStorage
    assert "#t=" not in first.driver.current_url and "#t=" not in second.driver.current_url
    seed, actions = server.moves(id)
    state = replayed(game, seed, actions)
    assert state.is_terminal() and len(actions) == at
    for seat, got in enumerate(ends):
        assert got["over"] and got["result"].startswith("Game over: ") and got["download"]
        assert not got["options"] and got["waiting"] == ""
        check_seat(state, seat, got)
        other = game.info.player_names[1 - seat]
        assert any(h.startswith(f"Hand ({other}): ") and h.endswith(" face down") for h in got["zones"])
    assert ends[0]["result"] == ends[1]["result"]
    first.shot("finished")


@pytest.mark.parametrize(("game", "options"), [("kuhn_poker", {}), ("goofspiel", {"cards": 3})])
def test_hot_seat_covers_each_players_view_until_ready(
    server: Server, first: Page, game: str, options: dict[str, Any]
) -> None:
    made = server.post(
        "/api/matches", {"game": game, "options": options, "seats": ["here", "here"], "seed": 4}
    )
    first.get(made["here"])
    names = [s["name"] for s in made["seats"]]
    engine = runtime.load_game(game, options)
    rng = random.Random(4)
    got = first.read(0, turn=True, full=True)
    last, covers = "", 0  # the seat that moved last; how many times the screen was passed
    for moves in range(20):
        if got["over"]:
            break
        seed, actions = server.moves(made["id"])
        state = replayed(engine, seed, actions)
        if got["covered"]:
            # the cover names the next player, and nothing of anyone's view is under it
            assert got["board"] == 0 and not got["options"] and got["log"] == [] and got["prompt"] == "", got
            asked = [names[p] for p in range(2) if p in (state.current_player(), *_waiting(state))]
            assert any(got["coverline"].startswith(f"Pass the screen to {n}.") for n in asked), got
            assert not got["coverline"].startswith(f"Pass the screen to {last}."), got
            for p in range(2):
                for label in _private(state, p):
                    assert label not in got["text"], (label, got["text"])
            if covers == 1 and game == "kuhn_poker":
                first.shot("hotseat")
            covers += 1
            first.press("#ready")
            got = first.read(len(actions), turn=True, full=True)
            assert not got["covered"] and got["board"] and got["options"], got
        else:  # asked again at once (a simultaneous decision's next round): no one to hide from
            assert moves and got["seat"] == f"You are {last}" and got["options"], got
        last = got["seat"].removeprefix("You are ")
        check_seat(state, names.index(last), got)
        got = first.read(first.click(rng.random())["version"], turn=True, full=True)
    assert got["over"] and not got["covered"] and covers >= 2 + (game == "goofspiel"), (got, covers)
    seed, actions = server.moves(made["id"])
    assert replayed(engine, seed, actions).is_terminal()


def _waiting(state: GameState) -> list[int]:
    sim = state.simultaneous()
    return list(sim.waiting()) if sim is not None else []


def _private(state: GameState, seat: int) -> set[str]:
    """The labels of the cards `seat` sees that a spectator does not (and that are no other text
    a spectator sees)."""
    public = scene(state, None, public=True)
    seen = scene(state, seat)
    shown = chromium.visible_texts(public, [text for who, text in state.log_entries() if who < 0])
    return {
        c.label
        for z, pub in zip(seen.zones, public.zones, strict=True)
        if z.cards is not None and pub.cards is None
        for c in z.cards
        if c.label not in shown
    }


def test_a_bot_match_to_the_end_then_its_replay_and_its_log(
    server: Server, first: Page, tmp_path: Path
) -> None:
    here, invites = lobby_create(first, "kuhn_poker", ["here", "random"])
    assert invites == []
    id, token = match_of(here), urllib.parse.urlsplit(here).fragment.removeprefix("t=")
    first.press("#open")
    rng = random.Random(3)
    got = first.read(turn=True)
    clicks = 0
    while not got["over"]:
        assert got["options"] and clicks < 10, got
        got = first.read(first.click(rng.random())["version"], turn=True)
        clicks += 1
    got = first.read(got["version"], full=True)
    seed, actions = server.moves(id)
    state = replayed(runtime.load_game("kuhn_poker"), seed, actions)
    assert state.is_terminal() and len(actions) > clicks  # the bot's moves came without clicks
    check_seat(state, 0, got)
    assert got["download"] and got["result"].startswith("Game over: ")
    # the Replay button posts the token to a new tab: the finished match from every perspective
    main = first.driver.current_window_handle
    first.press("#replay")
    deadline = time.monotonic() + WAIT
    while len(opened := [h for h in first.driver.window_handles if h != main]) != 1:
        assert time.monotonic() < deadline, first.driver.window_handles
        time.sleep(0.05)
    first.driver.switch_to.window(opened[0])
    try:
        shown = first.driver.execute_async_script(
            "const done = arguments[0]; (function p() {"
            " if (document.body && document.body.dataset.step !== undefined)"
            "   done([document.title, document.querySelectorAll('#perspective option').length]);"
            " else setTimeout(p, 15); })();"
        )
        assert shown[0].endswith(f"replay (seed {seed})") and shown[1] == 3, shown
    finally:
        first.driver.close()
        first.driver.switch_to.window(main)
    # the Download log form's request, made here: its log is one that `rulewright replay` verifies
    form = urllib.parse.urlencode({"t": token}).encode()
    with urllib.request.urlopen(f"{server.base}m/{id}/log", data=form, timeout=WAIT) as response:
        log = tmp_path / "kuhn.json"
        log.write_bytes(response.read())
    replay = subprocess.run(
        [sys.executable, "-m", "rulewright", "replay", str(log)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert replay.returncode == 0, replay.stdout + replay.stderr


def _until(page: Page, done: Any) -> dict[str, Any]:
    """Reads the page until `done(reading)` (or WAIT has passed: the last reading)."""
    deadline = time.monotonic() + WAIT
    while True:
        got: dict[str, Any] = page.driver.execute_async_script(READ, 0, False, True)
        if done(got) or time.monotonic() > deadline:
            return got
        time.sleep(0.1)


async def _play(base: str, made: dict[str, Any], moves: int, rng: random.Random) -> int:
    """`moves` random decisions of a hot-seat match through the websocket, without pictures (a
    quick way to mid-game); the version reached."""
    import aiohttp

    tokens = urllib.parse.urlsplit(made["here"]).fragment.removeprefix("t=").split(",")
    async with aiohttp.ClientSession() as session, session.ws_connect(base + "ws") as ws:
        await ws.send_json({"type": "hello", "match": made["id"], "tokens": tokens, "board": False})
        message = await ws.receive_json(timeout=WAIT)
        for _ in range(moves):
            assert message["type"] == "state", message
            asked = [v for v in message["views"].values() if v["asked"]]
            assert asked and not asked[0]["over"], message
            view = asked[0]
            action = rng.choice(view["options"])
            await ws.send_json(
                {"type": "move", "seat": view["seat"], "version": message["version"], "action": action}
            )
            message = await ws.receive_json(timeout=WAIT)
        version: int = message["version"]
        return version


def words(text: str) -> str:
    """A text as the match page shows it: the rules' ids of values (`event_first`) as words."""
    return re.sub(r"(\w)_(?=\w)", r"\1 ", text)


ID_LIKE = re.compile(r"\w_\w|\w\[\w[^\]]*\]")


# Twilight Struggle's option labels (and so its log) still name enum values by their ids
# (`event_first`, `operations_first`, `space_race`): strict=False until they are words.
@pytest.mark.parametrize(
    ("game", "seed"),
    [
        pytest.param(
            "twilight_struggle",
            2,
            marks=(),
        ),
        ("channel_tunnel", 2),
    ],
)
def test_boards_are_readable_at_1400x900(server: Server, first: Page, game: str, seed: int) -> None:
    made = server.post("/api/matches", {"game": game, "seats": ["here", "here"], "seed": seed})
    at = asyncio.run(_play(server.base, made, 30, random.Random(seed)))
    first.get(made["here"])
    got = first.read(at, turn=True)
    if got["covered"]:
        first.press("#ready")
    got = first.read(at, turn=True, full=True)
    assert not got["covered"] and not got["over"] and got["board"], got
    assert first.driver.get_window_size() == {"width": 1400, "height": 900}
    first.shot("match" if game == "twilight_struggle" else game.replace("_", "-"))  # docs/serve.md's
    fonts: list[list[Any]] = first.driver.execute_script(FONTS)
    assert fonts
    small = sorted({(round(size, 1), text) for size, text in fonts if size < 11 - 0.05})
    ids = sorted({word for word in re.split(r"\s+", got["text"]) if ID_LIKE.search(word)})
    problems = [f"{len(small)} SVG texts under 11 px, e.g. {small[:8]}"] if small else []
    problems += [f"{len(ids)} ids shown: {ids[:12]}"] if ids else []
    assert not problems, "\n".join(problems)


# Last in the module: it kills the module's server, starts it again in place (the same port and
# data), and ends by stopping it as Ctrl-C does.
def test_a_server_killed_mid_match_resumes_and_the_page_reconnects(server: Server, first: Page) -> None:
    made = server.post("/api/matches", {"game": "iron_curtain", "seats": ["here", "random"], "seed": 5})
    page = first
    page.get(made["here"])
    rng = random.Random(5)
    got = page.read(turn=True)
    for _ in range(3):
        got = page.click(rng.random())
        got = page.read(got["version"], turn=True)
    before = page.read(got["version"], full=True)
    assert before["options"] and before["log"], before
    base = server.base
    server.stop(signal.SIGKILL)
    lost = _until(page, lambda g: g["connection"].startswith("connection lost"))
    assert lost["connection"].startswith("connection lost"), lost
    # the log and options emptied here, so that what is read next was drawn from a state the new
    # server sent
    page.driver.execute_script(
        "for (const id of ['log', 'options']) document.getElementById(id).replaceChildren();"
    )
    server.restart()
    assert server.base == base and "unfinished match" in server.output()
    # the page reconnects by itself, to the same decision, log and options
    after = _until(page, lambda g: g["connection"] == "" and g["log"] == before["log"])
    for key in ("version", "seat", "options", "log", "zones", "prompt"):
        assert after[key] == before[key], key
    _, stored = server.moves(made["id"])
    assert len(stored) == before["version"]
    # and plays on with the new server, the bot included (its moves: the versions a click did not make)
    clicks, bot = 0, 0
    while clicks < 3 or not (bot or got["over"]):
        assert clicks < 12, got
        clicked = page.click(rng.random())
        got = page.read(clicked["version"], turn=True)
        clicks, bot = clicks + 1, bot + got["version"] - clicked["version"]
    _, stored = server.moves(made["id"])
    assert len(stored) == got["version"] == before["version"] + clicks + bot
    # a new tab at /m/ID, without the link's token: the seat comes back from localStorage
    main = page.driver.current_window_handle
    page.driver.switch_to.new_window("tab")
    try:
        page.get(f"/m/{made['id']}")
        again = page.read(got["version"], turn=True)
        assert again["seat"] == "You are US" and again["options"] == got["options"], again
    finally:
        page.driver.close()
        page.driver.switch_to.window(main)
    # stopped as by Ctrl-C with the page still open: at once (the page is told it goes away)
    start = time.monotonic()
    server.stop()
    assert server.proc.returncode == 0 and time.monotonic() - start < WAIT / 2
    assert _until(page, lambda g: g["connection"].startswith("connection lost"))["connection"]
