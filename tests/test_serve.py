"""`rulewright serve` under hostile input: every message and request a client can send that the
server must refuse, each with its code (rulewright/serve/protocol.py) and the match unchanged (the
engine state byte for byte, the stored moves row for row); hidden information kept per seat; the
simultaneous answers of goofspiel; storage, resuming and tampering; the command's usage errors.

Each test runs the server in this process (aiohttp's TestServer on a free port, under
asyncio.run), with bots that do not wait (bot_delay 0) and a data folder of its own.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import socket
import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp")

from aiohttp import WSMsgType, WSServerHandshakeError  # noqa: E402
from aiohttp.test_utils import TestClient, TestServer  # noqa: E402

from rulewright import cli  # noqa: E402
from rulewright.commands.serve import serve_catalog  # noqa: E402
from rulewright.gamelog import final_digest, read_log, replay_log  # noqa: E402
from rulewright.serve import Catalog, Server  # noqa: E402
from rulewright.serve import protocol as P  # noqa: E402
from rulewright.serve.app import MAX_BODY  # noqa: E402
from rulewright.serve.store import FILE, Store  # noqa: E402
from runtime.board import scene  # noqa: E402

TIMEOUT = 10.0  # seconds a message may take on a loaded machine before the test fails


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return serve_catalog(None)


# ---- a server in this process, and websocket clients ----------------------------------------------


@dataclass
class Rig:
    server: Server
    store: Store
    client: TestClient[Any, Any]
    said: list[str]

    async def make(self, game: str, seats: list[str], seed: int = 7, **extra: Any) -> tuple[str, list[str]]:
        """A new match: its id and the tokens of its human seats."""
        response = await self.client.post(
            "/api/matches", json={"game": game, "seats": seats, "seed": seed, **extra}
        )
        assert response.status == 200, await response.text()
        made = await response.json()
        tokens = [s["link"].split("#t=")[1] for s in made["seats"] if s["link"]]
        return made["id"], tokens

    async def join(self, match: str, tokens: list[str], board: bool = False) -> Client:
        ws = await self.client.ws_connect("/ws")
        client = Client(ws)
        await client.send({"type": "hello", "match": match, "tokens": tokens, "board": board})
        await client.state()
        return client

    async def join_each(self, match: str, tokens: list[str]) -> list[Client]:
        """One client per token: each seat a person of its own."""
        return [await self.join(match, [t]) for t in tokens]

    def moves(self, match: str) -> list[tuple[Any, ...]]:
        return self.store.db.execute("SELECT * FROM moves WHERE match = ? ORDER BY n", (match,)).fetchall()

    def snapshot(self, match: str) -> tuple[str, list[tuple[Any, ...]], dict[int, int]]:
        m = self.server.live[match]
        return m.state.to_json(), self.moves(match), dict(m.queued)


@dataclass(eq=False)
class Client:
    """A websocket client that keeps under the server's rate limit (a whole game's moves in a
    second would be a flood), and remembers the latest state message."""

    ws: Any
    last: dict[str, Any] = field(default_factory=dict)
    bucket: P.Bucket = field(default_factory=lambda: P.Bucket(time.monotonic(), P.RATE * 0.8, P.BURST / 2))

    async def send(self, data: object) -> None:
        while not self.bucket.take(time.monotonic()):
            await asyncio.sleep(1 / P.RATE)
        await self.ws.send_str(data if isinstance(data, str) else json.dumps(data))

    async def receive(self) -> dict[str, Any]:
        msg = await self.ws.receive(timeout=TIMEOUT)
        assert msg.type == WSMsgType.TEXT, (msg.type, msg.data)
        data: dict[str, Any] = json.loads(msg.data)
        if data["type"] == "state":
            self.last = data
        return data

    async def state(self) -> dict[str, Any]:
        data = await self.receive()
        assert data["type"] == "state", data
        return data

    async def refused(self, message: object, code: str) -> None:
        if isinstance(message, bytes):
            self.bucket.take(time.monotonic())
            await self.ws.send_bytes(message)
        else:
            await self.send(message)
        data = await self.receive()
        assert data["type"] == "error" and data["code"] == code, (message, data)
        assert data["message"].startswith(P.MEANING[code]), data


@asynccontextmanager
async def rig(folder: Path, catalog: Catalog) -> AsyncIterator[Rig]:
    store = Store(folder)
    said: list[str] = []
    server = Server(catalog, store, bot_delay=0, say=said.append)
    server.resume_all()
    try:
        async with TestClient(TestServer(server.app())) as client:
            yield Rig(server, store, client, said)
    finally:
        for task in list(server.bots.values()):
            task.cancel()
        store.close()


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def option(view: dict[str, Any], rng: random.Random) -> str:
    label: str = rng.choice(view["options"])
    return label


async def play_out(rig: Rig, clients: dict[int, Client], match: str, rng: random.Random) -> None:
    """Play the match to its end with random legal moves, every seat's client in turn."""
    while not rig.server.live[match].state.is_terminal():
        await step(rig, clients, match, rng)


async def step(rig: Rig, clients: dict[int, Client], match: str, rng: random.Random) -> None:
    """One random legal move by the client of the seat asked, and every client told of it."""
    m = rig.server.live[match]
    seat, version = m.asked()[0], m.version
    client = clients[seat]
    view = (await until(client, version))["views"][str(seat)]
    await client.send({"type": "move", "seat": seat, "version": version, "action": option(view, rng)})
    for c in set(clients.values()):
        await until(c, version + 1)


async def until(client: Client, version: int) -> dict[str, Any]:
    """The client's state message at `version` (a bot may have moved on further: at least it)."""
    while client.last.get("version", -1) < version:
        await client.state()
    return client.last


# ---- messages -----------------------------------------------------------------------------------


def test_hostile_messages_are_refused_with_their_code_and_change_nothing(
    tmp_path: Path, catalog: Catalog
) -> None:
    async def body() -> None:
        async with rig(tmp_path, catalog) as r:
            match, (north, south) = await r.make("lost_cities", ["link", "link"])
            other, (other_token, _) = await r.make("lost_cities", ["link", "link"], seed=8)
            fresh = Client(await r.client.ws_connect("/ws"))
            before = r.snapshot(match)
            # before hello
            await fresh.refused({"type": "move", "seat": 0, "version": 0, "action": 0}, P.NOT_JOINED)
            await fresh.refused({"type": "hello", "match": "nope"}, P.NO_MATCH)
            # a bad token, or another match's, holds no seat: still not joined afterwards
            await fresh.refused({"type": "hello", "match": match, "tokens": ["x" * 24]}, P.BAD_TOKEN)
            await fresh.refused({"type": "hello", "match": match, "tokens": [other_token]}, P.BAD_TOKEN)
            await fresh.refused(
                {"type": "hello", "match": match, "tokens": [north, other_token]}, P.BAD_TOKEN
            )
            await fresh.refused({"type": "move", "seat": 0, "version": 0, "action": 0}, P.NOT_JOINED)

            c = await r.join(match, [south])  # seat 1: North (seat 0) plays first
            first = r.server.live[match].state.legal_actions_of(0)[0]
            cases: list[tuple[object, str]] = [
                ("not json", P.BAD_JSON),
                ("", P.BAD_JSON),
                ("[1, 2]", P.BAD_JSON),
                ('"move"', P.BAD_JSON),
                ("null", P.BAD_JSON),
                ("[" * 5000 + "]" * 5000, P.BAD_JSON),
                ('{"type": "move", "seat": 0, "version": ' + "9" * 5000 + ', "action": 0}', P.BAD_JSON),
                ('{"type": "move", "seat": 1, "version": NaN, "action": 0}', P.BAD_MESSAGE),
                ({}, P.BAD_MESSAGE),
                ({"type": "dance"}, P.BAD_MESSAGE),
                ({"type": ["move"]}, P.BAD_MESSAGE),
                ({"type": "move"}, P.BAD_MESSAGE),
                ({"type": "move", "seat": "1", "version": 0, "action": 0}, P.BAD_MESSAGE),
                ({"type": "move", "seat": True, "version": 0, "action": 0}, P.BAD_MESSAGE),
                ({"type": "move", "seat": 1.0, "version": 0, "action": 0}, P.BAD_MESSAGE),
                ({"type": "move", "seat": -1, "version": 0, "action": 0}, P.BAD_MESSAGE),
                ({"type": "move", "seat": 1, "version": -1, "action": 0}, P.BAD_MESSAGE),
                ({"type": "move", "seat": 1, "version": 2**40, "action": 0}, P.BAD_MESSAGE),
                ({"type": "move", "seat": 1, "version": "0", "action": 0}, P.BAD_MESSAGE),
                ({"type": "move", "seat": 1, "version": 0, "action": None}, P.BAD_MESSAGE),
                ({"type": "move", "seat": 1, "version": 0, "action": ["Deck"]}, P.BAD_MESSAGE),
                ({"type": "move", "seat": 1, "version": 0, "action": {"id": 0}}, P.BAD_MESSAGE),
                ({"type": "move", "seat": 1, "version": 0, "action": ""}, P.BAD_MESSAGE),
                ({"type": "move", "seat": 1, "version": 0, "action": -1}, P.BAD_MESSAGE),
                ({"type": "move", "seat": 1, "version": 0, "action": 2.5}, P.BAD_MESSAGE),
                ({"type": "move", "seat": 1, "version": 0, "action": True}, P.BAD_MESSAGE),
                ({"type": "move", "seat": 1, "version": False, "action": 0}, P.BAD_MESSAGE),
                ({"type": "move", "seat": 1, "version": 0, "action": "x" * (P.MAX_LABEL + 1)}, P.BAD_MESSAGE),
                ({"type": "move", "seat": 1, "version": 0, "action": 0, "as": 0}, P.BAD_MESSAGE),
                ({"type": "move", "seat": 1, "version": 0}, P.BAD_MESSAGE),
                ({"type": "hello"}, P.BAD_MESSAGE),
                ({"type": "hello", "match": 5}, P.BAD_MESSAGE),
                ({"type": "hello", "match": "x" * 65}, P.BAD_MESSAGE),
                ({"type": "hello", "match": match, "tokens": south}, P.BAD_MESSAGE),
                ({"type": "hello", "match": match, "tokens": [south] * (P.MAX_TOKENS + 1)}, P.BAD_MESSAGE),
                ({"type": "hello", "match": match, "tokens": [5]}, P.BAD_MESSAGE),
                ({"type": "hello", "match": match, "tokens": [south], "board": "yes"}, P.BAD_MESSAGE),
                # well formed, but not this connection's to make
                ({"type": "move", "seat": 0, "version": 0, "action": first}, P.NOT_YOUR_SEAT),
                ({"type": "move", "seat": 63, "version": 0, "action": 0}, P.NOT_YOUR_SEAT),
                ({"type": "move", "seat": 1, "version": 1, "action": 0}, P.STALE),
                ({"type": "move", "seat": 1, "version": 0, "action": 0}, P.NOT_YOUR_TURN),
                (b"\xff\xfe binary, not UTF-8", P.BAD_JSON),
                (b"[]", P.BAD_JSON),
            ]
            for k, (message, code) in enumerate(cases):
                if k % 30 == 29:  # a new connection now and then, under the rate limit
                    c = await r.join(match, [south])
                await c.refused(message, code)
                assert r.snapshot(match) == before, message
            # the seat to move: an illegal label or id
            n = await r.join(match, [north])
            for action in ("Not A Card", "deck", 99999, 2**31 - 1):
                await n.refused({"type": "move", "seat": 0, "version": 0, "action": action}, P.ILLEGAL)
            assert r.snapshot(match) == before
            # a binary frame holding a well-formed move is a move like a text one
            label = n.last["views"]["0"]["options"][0]
            await n.ws.send_bytes(
                json.dumps({"type": "move", "seat": 0, "version": 0, "action": label}).encode()
            )
            assert (await n.state())["version"] == 1
            await n.refused({"type": "move", "seat": 0, "version": 0, "action": label}, P.STALE)
            assert len(r.moves(match)) == 1
            # a match played to its end: then every move is "over"
            done_id, (first_token, second_token) = await r.make("kuhn_poker", ["link", "link"])
            a, b = await r.join_each(done_id, [first_token, second_token])
            await play_out(r, {0: a, 1: b}, done_id, random.Random(1))
            done = r.snapshot(done_id)
            await a.refused({"type": "move", "seat": 0, "version": len(done[1]), "action": 0}, P.OVER)
            await b.refused({"type": "move", "seat": 1, "version": len(done[1]), "action": "Pass"}, P.OVER)
            assert r.snapshot(done_id) == done
            assert r.server.store.match(done_id).result is not None  # type: ignore[union-attr]

    run(body())


def test_a_frame_over_the_limit_closes_that_connection_only(tmp_path: Path, catalog: Catalog) -> None:
    async def body() -> None:
        async with rig(tmp_path, catalog) as r:
            match, (north, south) = await r.make("lost_cities", ["link", "link"])
            n, s = await r.join_each(match, [north, south])
            before = r.snapshot(match)
            big = {"type": "move", "seat": 0, "version": 0, "action": "x" * P.MAX_MESSAGE_BYTES}
            await n.send(big)
            msg = await n.ws.receive(timeout=TIMEOUT)
            if msg.type == WSMsgType.TEXT:  # refused as too big, or the connection is closed
                assert json.loads(msg.data)["code"] == P.TOO_BIG
            else:
                assert msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED), msg
                assert n.ws.close_code == 1009, n.ws.close_code
            # compressed (permessage-deflate): a small frame that inflates past the limit
            bomb = Client(await r.client.ws_connect("/ws", compress=15))
            await bomb.send({"type": "hello", "match": "x" * (100 * P.MAX_MESSAGE_BYTES)})
            msg = await bomb.ws.receive(timeout=TIMEOUT)
            assert msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED), msg
            assert bomb.ws.close_code == 1009, bomb.ws.close_code
            assert r.snapshot(match) == before
            # the other connection, and a new one, go on
            label = s.last["views"]["1"]  # not asked: South waits
            assert not label["asked"]
            again = await r.join(match, [north])
            await again.send(
                {"type": "move", "seat": 0, "version": 0, "action": again.last["views"]["0"]["options"][0]}
            )
            assert (await again.state())["version"] == 1
            assert (await s.state())["version"] == 1

    run(body())


def test_a_flood_is_refused_then_closed_and_others_go_on(tmp_path: Path, catalog: Catalog) -> None:
    async def body() -> None:
        async with rig(tmp_path, catalog) as r:
            match, (north, south) = await r.make("lost_cities", ["link", "link"])
            n, s = await r.join_each(match, [north, south])
            before = r.snapshot(match)
            stale = json.dumps({"type": "move", "seat": 1, "version": 5, "action": 0})
            for _ in range(400):
                await s.ws.send_str(stale)
            codes: list[str] = []
            while True:
                msg = await s.ws.receive(timeout=TIMEOUT)
                if msg.type != WSMsgType.TEXT:
                    break
                codes.append(json.loads(msg.data)["code"])
            assert s.ws.close_code == 1008
            assert set(codes) == {P.STALE, P.FLOOD}, set(codes)
            assert codes.count(P.FLOOD) == P.CLOSE_AFTER - 1
            assert codes.index(P.FLOOD) >= P.BURST - 1
            assert r.snapshot(match) == before
            label = n.last["views"]["0"]["options"][0]
            await n.send({"type": "move", "seat": 0, "version": 0, "action": label})
            assert (await n.state())["version"] == 1

    run(body())


def test_a_websocket_from_another_origin_is_refused(tmp_path: Path, catalog: Catalog) -> None:
    async def body() -> None:
        async with rig(tmp_path, catalog) as r:
            with pytest.raises(WSServerHandshakeError) as refused:
                await r.client.ws_connect("/ws", headers={"Origin": "http://evil.example"})
            assert refused.value.status == 403
            host = f"{r.client.host}:{r.client.port}"
            ws = await r.client.ws_connect("/ws", headers={"Origin": f"http://{host}"})
            await ws.close()

    run(body())


# ---- HTTP -----------------------------------------------------------------------------------------


def test_making_a_match_refuses_bad_settings(tmp_path: Path, catalog: Catalog) -> None:
    async def body() -> None:
        async with rig(tmp_path, catalog) as r:
            post = r.client.post
            cases: list[tuple[Any, str]] = [
                ("not json", "not JSON"),
                ("[" * 30_000 + "]" * 30_000, "not JSON"),  # nested deeper than the parser goes
                ("[1]", '"game", "options"'),
                ('"x"', '"game", "options"'),
                ({"game": "kuhn_poker", "seats": ["link", "link"], "color": 1}, '"game", "options"'),
                ({"game": "chess", "seats": ["link", "link"]}, "no such game"),
                ({"game": ["kuhn_poker"], "seats": ["link", "link"]}, "no such game"),
                ({"game": "kuhn_poker", "seats": ["link"]}, '"seats" lists the 2 seats'),
                ({"game": "kuhn_poker", "seats": ["link"] * 3}, '"seats" lists the 2 seats'),
                ({"game": "kuhn_poker", "seats": "link,link"}, '"seats" lists'),
                ({"game": "kuhn_poker", "seats": ["link", "god"]}, 'a seat is "here", "link"'),
                ({"game": "kuhn_poker", "seats": ["link", ["random"]]}, 'a seat is "here", "link"'),
                (
                    {"game": "bang", "seats": ["link"] * 4, "options": {"seats": 5}},
                    '"seats" lists the 5 seats',
                ),
                ({"game": "bang", "seats": ["link"] * 4, "options": {"seats": 99}}, "must be one of"),
                ({"game": "bang", "seats": ["link"] * 4, "options": {"seats": "four"}}, "is an integer"),
                ({"game": "bang", "seats": ["link"] * 4, "options": {"colour": 1}}, "has no option"),
                ({"game": "bang", "seats": ["link"] * 4, "options": [4]}, '"options" is an object'),
                ({"game": "kuhn_poker", "seats": ["link", "link"], "seed": -1}, '"seed" is an integer'),
                ({"game": "kuhn_poker", "seats": ["link", "link"], "seed": 2**63}, '"seed" is an integer'),
                ({"game": "kuhn_poker", "seats": ["link", "link"], "seed": "7"}, '"seed" is an integer'),
                ({"game": "kuhn_poker", "seats": ["link", "link"], "seed": 1.5}, '"seed" is an integer'),
                ({"game": "kuhn_poker", "seats": ["link", "link"], "seed": True}, '"seed" is an integer'),
            ]
            for data, expect in cases:
                if isinstance(data, str):
                    response = await post(
                        "/api/matches", data=data, headers={"Content-Type": "application/json"}
                    )
                else:
                    response = await post("/api/matches", json=data)
                text = await response.text()
                assert response.status == 400 and expect in text, (data, response.status, text)
            # another site's page: a "no-cors" fetch may send any text/plain body (no preflight),
            # and a browser names the page's Origin
            forged = '{"game": "kuhn_poker", "seats": ["random", "random"]}'
            response = await post("/api/matches", data=forged, headers={"Content-Type": "text/plain"})
            assert response.status == 415
            response = await post(
                "/api/matches",
                json={"game": "kuhn_poker", "seats": ["random", "random"]},
                headers={"Origin": "http://evil.example"},
            )
            assert response.status == 403
            big = json.dumps({"game": "kuhn_poker", "seats": ["link", "link"], "pad": "x" * MAX_BODY})
            response = await post("/api/matches", data=big, headers={"Content-Type": "application/json"})
            assert response.status == 413
            assert r.store.db.execute("SELECT COUNT(*) FROM matches").fetchone()[0] == 0
            assert (await (await r.client.get("/api/matches")).json()) == {"matches": []}

    run(body())


def test_pages_logs_and_replays_give_only_what_they_may(tmp_path: Path, catalog: Catalog) -> None:
    async def body() -> None:
        async with rig(tmp_path, catalog) as r:
            get, post = r.client.get, r.client.post
            for path in ("/static/nothing.js", "/static/..%2fapp.py", "/static/lobby.html", "/nowhere"):
                assert (await get(path)).status == 404, path
            for path in ("/", "/m/abc", "/static/serve.css"):
                response = await get(path)
                assert response.status == 200
                assert "default-src 'none'" in response.headers["Content-Security-Policy"]
                assert response.headers["X-Content-Type-Options"] == "nosniff"
                assert response.headers["Referrer-Policy"] == "no-referrer"
            match, (north, south) = await r.make("kuhn_poker", ["link", "link"])
            other, (other_token, _) = await r.make("kuhn_poker", ["link", "link"], seed=3)
            assert (await post("/m/nomatch/log", data={"t": north})).status == 404
            for who in ("", north, f"{north},{south}"):
                response = await post(f"/m/{match}/log", data={"t": who})
                assert response.status == 403, who
            assert (await post(f"/m/{match}/replay", data={})).status == 403
            assert (await post(f"/m/{match}/replay", data={"t": other_token})).status == 403
            assert (await post(f"/m/{match}/replay", data={"t": f"{north},junk"})).status == 403
            page = await post(f"/m/{match}/replay", data={"t": north})
            assert page.status == 200
            assert "script-src 'sha256-" in await page.text()  # its policy is in the page
            assert page.headers["X-Content-Type-Options"] == "nosniff"
            assert [v["player"] for v in replay_views(await page.text())] == [0]
            both = await post(f"/m/{match}/replay", data={"t": f"{south},{north}"})
            assert [v["player"] for v in replay_views(await both.text())] == [0, 1]
            n, s = await r.join_each(match, [north, south])
            await play_out(r, {0: n, 1: s}, match, random.Random(2))
            # over: the replay from every perspective, and the log, to anyone
            page = await post(f"/m/{match}/replay", data={})
            assert [v["player"] for v in replay_views(await page.text())] == [None, 0, 1]
            assert (await post(f"/m/{match}/log", data={})).status == 200
            response = await post(f"/m/{match}/log", data={"t": south})
            assert response.status == 200
            assert "attachment" in response.headers["Content-Disposition"]
            saved = tmp_path / "match.json"
            saved.write_text(await response.text(), "utf-8")
            log = read_log(saved)
            m = r.server.live[match]
            replayed = replay_log(m.game, log)
            assert final_digest(replayed.state) == replayed.final_digest == final_digest(m.state)

    run(body())


def replay_views(html: str) -> list[dict[str, Any]]:
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', html, re.S)
    assert found, html[:200]
    views: list[dict[str, Any]] = json.loads(found.group(1))["views"]
    return views


# ---- hidden information -----------------------------------------------------------------------


def hidden_from(state: Any, seat: int | None) -> set[str]:
    """The labels of the cards `seat` (None: a spectator) may not see now: those some seat sees in
    a zone that `seat` sees only as a count, less any that `seat` sees elsewhere or that a public
    log line has named (a card's label may be known without its place being shown)."""
    mine = scene(state, seat, public=seat is None)
    seen = {c.label for z in mine.zones if z.cards is not None for c in z.cards}
    closed = {z.key for z in mine.zones if z.cards is None}
    hidden: set[str] = set()
    for p in range(state.num_players):
        if p == seat:
            continue
        for z in scene(state, p).zones:
            if z.key in closed and z.cards is not None:
                hidden |= {c.label for c in z.cards}
    public = " ".join(text for w, text in state.log_entries(0) if w < 0)
    return {label for label in hidden - seen if not re.search(rf"\b{re.escape(label)}\b", public)}


def test_no_connection_sees_another_seats_hidden_cards(tmp_path: Path, catalog: Catalog) -> None:
    async def body() -> None:
        async with rig(tmp_path, catalog) as r:
            match, (us, ussr) = await r.make("iron_curtain", ["link", "link"], seed=11)
            clients = {0: await r.join(match, [us], board=True), 1: await r.join(match, [ussr], board=True)}
            watcher = await r.join(match, [], board=True)
            rng = random.Random(5)
            checked = 0
            everyone = [(0, clients[0]), (1, clients[1]), (None, watcher)]
            m = r.server.live[match]
            while True:
                for seat, client in everyone:
                    message = await until(client, m.version)
                    assert message["version"] == m.version
                    assert list(message["views"]) == ["spectator" if seat is None else str(seat)]
                    text = json.dumps(message, ensure_ascii=False)
                    hidden = hidden_from(m.state, seat)
                    leaked = [h for h in hidden if re.search(rf"\b{re.escape(h)}\b", text)]
                    assert not leaked, (seat, m.version, leaked)
                    checked += len(hidden)
                if m.state.is_terminal():
                    break
                seat, version = m.asked()[0], m.version
                view = clients[seat].last["views"][str(seat)]
                await clients[seat].send(
                    {"type": "move", "seat": seat, "version": version, "action": option(view, rng)}
                )
                await until(clients[seat], version + 1)
            assert checked > 100  # cards were hidden, and looked for, all game long

    run(body())


# ---- simultaneous moves ----------------------------------------------------------------------


def test_simultaneous_answers_come_in_any_order_and_stay_secret(tmp_path: Path, catalog: Catalog) -> None:
    async def body() -> None:
        async with rig(tmp_path, catalog) as r:
            match, tokens = await r.make("goofspiel", ["link", "link"], seed=4)
            clients = await r.join_each(match, tokens)
            m = r.server.live[match]
            game = m.game
            rng = random.Random(9)
            direct = game.new_initial_state(4)
            rounds = 0
            while not m.state.is_terminal():
                assert sorted(m.asked()) == [0, 1]
                # both answer the state they saw (`version`): the early answer first in even
                # rounds, the engine's order in odd ones
                order = [1, 0] if rounds % 2 == 0 else [0, 1]
                version = m.version
                answers = {seat: option(clients[seat].last["views"][str(seat)], rng) for seat in order}
                first, second = order
                other = clients[second]
                seen_before = other.last["views"][str(second)]
                engine_before = m.state.to_json()
                await clients[first].send(
                    {"type": "move", "seat": first, "version": version, "action": answers[first]}
                )
                if first == 1:
                    # kept, not played: the engine state is the same, and the other seat's view
                    # differs only in whom it waits for
                    mine = (await clients[first].state())["views"][str(first)]
                    assert mine["queued"] and not mine["asked"] and not mine["options"]
                    assert mine["decision"] == version
                    assert m.state.to_json() == engine_before and len(m.queued) == 1
                    assert [m.state.action_to_string(a) for a in m.queued.values()] == [answers[first]]
                    seen = (await other.state())["views"][str(second)]
                    assert {k for k in seen if seen[k] != seen_before.get(k)} <= {"waiting", "log", "log_at"}
                    assert seen["asked"] and seen["decision"] == version  # the same decision
                    again = {"type": "move", "seat": first, "version": version, "action": answers[first]}
                    await clients[first].refused(again, P.NOT_YOUR_TURN)
                elif rounds % 4 == 1:
                    # played in turn: the other seat, still asked the same decision, learns only
                    # that it was answered (in its status and log), not how
                    seen = (await until(other, version + 1))["views"][str(second)]
                    changed = {k for k in seen if seen[k] != seen_before.get(k)}
                    assert changed <= {"waiting", "status", "log", "log_at"}, changed
                    assert seen["asked"] and seen["decision"] == version
                    assert answers[first] not in json.dumps(seen["log"])
                # else (in turn, rounds 3, 7, ...): the other answers at once, unaware of it
                await clients[second].send(
                    {"type": "move", "seat": second, "version": version, "action": answers[second]}
                )
                for c in clients:
                    await until(c, version + 2)
                for seat in (0, 1):  # the engine's order
                    labels = {direct.action_to_string(a): a for a in direct.legal_actions()}
                    assert direct.current_player() == seat
                    direct.apply_action(labels[answers[seat]])
                assert final_digest(direct) == final_digest(m.state)
                rounds += 1
            assert rounds >= 5 and not m.queued

    run(body())


# ---- storage ------------------------------------------------------------------------------------


def test_matches_resume_and_tampered_ones_are_broken(tmp_path: Path, catalog: Catalog) -> None:
    data = tmp_path / "data"

    async def first() -> dict[str, str]:
        async with rig(data, catalog) as r:
            ids = {}
            for name, seed in (
                ("good", 1),
                ("illegal", 2),
                ("digest", 3),
                ("seats", 4),
                ("bot", 5),
                ("text", 6),
            ):
                match, (north, south) = await r.make("lost_cities", ["link", "link"], seed=seed)
                n, s = await r.join_each(match, [north, south])
                clients = {0: n, 1: s}
                rng = random.Random(seed)
                for _ in range(6):
                    await step(r, clients, match, rng)
                ids[name] = match
                ids[name + "-digest"] = final_digest(r.server.live[match].state)
            assert len(r.moves(ids["good"])) == 6
            return ids

    ids = run(first())
    db = sqlite3.connect(data / FILE)
    with db:
        db.execute("UPDATE moves SET action = 123456 WHERE match = ? AND n = 2", (ids["illegal"],))
        db.execute("UPDATE moves SET digest = '0123456789abcdef' WHERE match = ? AND n = 5", (ids["digest"],))
        db.execute("UPDATE matches SET seats = '[]' WHERE id = ?", (ids["seats"],))
        db.execute(
            """UPDATE matches SET seats = '[{"kind": "human", "token": "t"}, {"kind": "oracle", "token": ""}]'
            WHERE id = ?""",
            (ids["bot"],),
        )
        db.execute("UPDATE moves SET action = 'x' WHERE match = ? AND n = 1", (ids["text"],))
    db.close()

    async def second() -> None:
        async with rig(data, catalog) as r:
            good = r.server.live[ids["good"]]
            assert final_digest(good.state) == ids["good-digest"] and good.version == 6
            assert "not legal any more" in r.server.broken[ids["illegal"]]
            assert "differs from the stored one" in r.server.broken[ids["digest"]]
            assert "2 players" in r.server.broken[ids["seats"]]
            assert "no bot named 'oracle'" in r.server.broken[ids["bot"]]
            assert any(ids["text"] in line and "cannot be read back" in line for line in r.said)
            assert not {ids[k] for k in ("illegal", "digest", "seats", "bot", "text")} & set(r.server.live)
            c = Client(await r.client.ws_connect("/ws"))
            for name in ("illegal", "digest", "seats", "bot", "text"):
                await c.refused({"type": "hello", "match": ids[name]}, P.BROKEN)
            summaries = {s["id"]: s for s in (await (await r.client.get("/api/matches")).json())["matches"]}
            assert summaries[ids["illegal"]]["broken"] and not summaries[ids["good"]]["broken"]

    run(second())


def test_the_command_refuses_a_bad_data_folder_port_or_delay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    not_sqlite = tmp_path / "junk"
    not_sqlite.mkdir()
    (not_sqlite / FILE).write_bytes(b"this is not a database" * 100)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        cases = [
            (["--data", str(a_file)], "not a folder"),
            (["--data", str(a_file / "below")], "--data"),
            (["--data", "a\x00b"], "not a folder name"),
            (["--data", str(not_sqlite)], f"cannot use {FILE}"),
            (["--port", "70000"], "ports go from 0 to 65535"),
            (["--port", str(busy)], "try --port 0"),
            (["--bot-delay", "-1"], "--bot-delay"),
            (["--bot-delay", "nan"], "--bot-delay"),
        ]
        for argv, expect in cases:
            full = ["serve", "--port", "0", "--data", str(tmp_path / "d"), *argv]
            code = cli.main(full)
            err = capsys.readouterr().err
            assert code == cli.EXIT_USAGE, (argv, err)
            assert expect in err and err.count("\n") == 1 and "Traceback" not in err, (argv, err)


# ---- the load test ----------------------------------------------------------------------------


def test_a_small_load_run_ends_every_match_without_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    """A bounded run of rulewright/serve/load.py against a server of its own (no figure is judged:
    only that every match ends, every move is taken, and the figures are printed)."""
    from rulewright.serve import load

    # goofspiel: short, and both seats answer each round at once
    code = load.main(["--matches", "6", "--clients", "2", "--game", "goofspiel", "--seconds", "60"])
    out = capsys.readouterr().out
    assert code == 0, out
    figures = dict(re.split(r"\s{2,}", line.strip(), maxsplit=1) for line in out.splitlines()[1:])
    assert figures["matches finished"] == "8 of 8", out
    assert figures["errors"] == "0", out
    assert int(figures["moves (by the clients)"].replace(",", "")) >= 8 * 1, out
    for name in ("moves per second", "latency p50", "latency p99", "latency max"):
        assert re.fullmatch(r"[\d,.]+( ms)?", figures[name]), (name, out)
    assert re.fullmatch(r"[\d.]+ MiB", figures["server peak RSS"]), out
    assert re.fullmatch(r"[\d.]+ s", figures["server CPU"]), out


def test_the_load_test_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    from rulewright.serve import load

    for argv in (["--matches", "-1"], ["--seconds", "0"], ["--seconds", "nan"], ["--url", "ftp://x"]):
        with pytest.raises(SystemExit) as stopped:
            load.main(argv)
        assert stopped.value.code == 2, argv
        assert "Traceback" not in capsys.readouterr().err


def test_idle_matches_leave_memory_and_come_back_when_joined(tmp_path: Path, catalog: Catalog) -> None:
    """A running match nobody has joined or moved in for IDLE_AFTER seconds, with no bot to move,
    is unloaded (so abandoned matches neither fill memory nor block new ones) and read again from
    the store, at the same state, when someone joins."""
    from rulewright.serve.app import IDLE_AFTER

    async def body() -> None:
        async with rig(tmp_path / "data", catalog) as r:
            match, tokens = await r.make("iron_curtain", ["here", "link"])
            client = await r.join(match, tokens)
            seat, view = next((k, v) for k, v in client.last["views"].items() if v["asked"])
            await client.send({"type": "move", "seat": int(seat), "version": 0, "action": view["options"][0]})
            await client.state()
            before = r.server.live[match].state.to_json()
            later = r.server.live[match].touched + IDLE_AFTER + 1
            assert r.server.sweep(later) == 0  # someone is connected
            await client.ws.close()
            await asyncio.sleep(0.05)
            assert r.server.sweep(r.server.live[match].touched + 1) == 0  # not idle long enough
            assert r.server.sweep(later) == 1 and match not in r.server.live
            again = await r.join(match, tokens[1:])
            assert again.last["version"] == 1 and r.server.live[match].state.to_json() == before

    run(body())


def test_a_loopback_server_answers_only_to_this_machines_names(tmp_path: Path, catalog: Catalog) -> None:
    """Listening on 127.0.0.1, the server refuses a request whose Host names another site (a page
    whose site's name was made to point here: DNS rebinding)."""

    async def body() -> None:
        store = Store(tmp_path / "data")
        server = Server(catalog, store, bot_delay=0, say=lambda _: None)
        try:
            async with TestClient(TestServer(server.app(loopback_only=True))) as client:
                assert (await client.get("/api/games")).status == 200
                for host in ("localhost:8000", "[::1]:8000", "127.0.0.1"):
                    assert (await client.get("/api/games", headers={"Host": host})).status == 200
                for host in ("evil.example:8000", "evil.example", "127.0.0.1.evil.example"):
                    assert (await client.get("/api/games", headers={"Host": host})).status == 421
        finally:
            store.close()

    run(body())
