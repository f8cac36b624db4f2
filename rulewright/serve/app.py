"""The web server of `rulewright serve` (aiohttp): the lobby, the match page, the websocket that
plays, and the replay and log of a match.

    GET  /                      the lobby (static/lobby.html)
    GET  /api/games             the games, their options and player counts, and the bots
    GET  /api/matches           the latest matches (no secrets: ids, games, seats' kinds, results)
    POST /api/matches           make a match: {"game", "options", "seats": ["here" | "link" | BOT], "seed"?}
    GET  /m/ID                  a match's page (static/match.html); its seats' tokens ride in the
                                link's fragment (#t=...), which browsers never send to a server
    GET  /ws                    the websocket (rulewright/serve/protocol.py)
    POST /m/ID/replay           the replay page (form field t: tokens): a running match from the
                                seats the tokens hold; a finished one from every perspective
    POST /m/ID/log              a finished match's log, for `rulewright replay`

The server is the only authority: a state changes only through Match.move, and each move is
stored (rulewright/serve/store.py) before anyone is told. Bots play in the server, one task per
match, `bot_delay` seconds apart so that people can follow them.
"""

from __future__ import annotations

import asyncio
import functools
import json
import secrets
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from rulewright.gamelog import SEED_LIMIT, log_text
from rulewright.replay_html import page, replay_data
from rulewright.serve import protocol
from rulewright.serve.match import SPECTATOR, Applied, Diverged, Match
from rulewright.serve.protocol import (
    BAD_TOKEN,
    BROKEN,
    CLOSE_AFTER,
    FLOOD,
    NO_MATCH,
    NOT_JOINED,
    NOT_YOUR_SEAT,
    Bucket,
    Hello,
    Message,
    Refusal,
)
from rulewright.serve.store import Seat, Store, Stored, StoreError
from runtime.errors import RuleError
from runtime.game import Game

MAX_BODY = 64 * 1024  # a request's body: a match's settings are a few hundred bytes
MAX_RUNNING = 500  # matches running at once; beyond, making one is refused
LISTED = 50  # matches the lobby lists, the newest first
KEPT_GAMES = 64  # games kept opened, by name and options
KEPT_FINISHED = 32  # finished matches kept in memory (for their pages); others are read again
IDLE_AFTER = 300.0  # seconds: a running match nobody is connected to, with no bot to move, leaves memory
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})  # the names of this machine alone
CREATE_RATE, CREATE_BURST = 5.0, 100.0  # matches a client may make: a burst, then a few a second
# what the engine may raise on a move it failed to make (not a refusal: a rule error, a bug)
ENGINE_FAILURES = (
    RuleError,
    RecursionError,
    ArithmeticError,
    LookupError,
    ValueError,
    TypeError,
    AssertionError,
)
STATIC = {
    "lobby.js": "text/javascript",
    "match.js": "text/javascript",
    "serve.css": "text/css",
}
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)


@dataclass(frozen=True)
class Catalog:
    """What the server may play: each game's lobby entry (`games --json`'s, with the players' names
    for each player count), a way to open a game with options, and the bots."""

    entries: tuple[dict[str, Any], ...]
    open: Callable[[str, dict[str, Any]], Game]
    bots: tuple[str, ...]

    def entry(self, name: object) -> dict[str, Any] | None:
        return next((e for e in self.entries if e["name"] == name), None)


@dataclass(eq=False)
class Conn:
    """One websocket: the match it joined, the seats it holds (none: a spectator), how far each
    seat's log has been sent."""

    ws: web.WebSocketResponse
    bucket: Bucket
    match: str = ""
    seats: tuple[int, ...] = ()
    board: bool = True
    log_at: dict[str, int] = field(default_factory=dict)
    floods: int = 0


class Server:
    def __init__(
        self, catalog: Catalog, store: Store, *, bot_delay: float = 0.5, say: Callable[[str], None] = print
    ) -> None:
        self.catalog = catalog
        self.store = store
        self.bot_delay = bot_delay
        self.say = say
        self.live: dict[str, Match] = {}  # running matches, and the finished ones in `finished`
        self.finished: OrderedDict[str, None] = OrderedDict()
        self.broken: dict[str, str] = {}  # stored matches that cannot be played on, and why
        self.rooms: dict[str, set[Conn]] = {}
        self.sockets: set[web.WebSocketResponse] = set()  # every open websocket, joined or not
        self.bots: dict[str, asyncio.Task[None]] = {}
        self.creators: dict[str, Bucket] = {}
        self.games: dict[str, Game] = {}

    # -- matches ---------------------------------------------------------------------------------

    def game(self, name: str, options: dict[str, Any]) -> Game:
        key = json.dumps([name, options], sort_keys=True)
        found = self.games.get(key)
        if found is None:
            if len(self.games) >= KEPT_GAMES:
                self.games.clear()
            found = self.games[key] = self.catalog.open(name, options)
        return found

    def resume_all(self) -> int:
        """Load every unfinished match and set its bots going; the number resumed."""
        count = 0
        for stored in self.store.matches(running_only=True):
            if isinstance(stored, StoreError):
                self.say(f"rulewright serve: {stored}")
                continue
            if self._load(stored) is not None:
                count += 1
        return count

    def _load(self, stored: Stored) -> Match | None:
        try:
            if self.catalog.entry(stored.game) is None:
                raise Diverged(f"match {stored.id}: no game named {stored.game!r} here")
            unknown = [s.kind for s in stored.seats if not s.human and s.kind not in self.catalog.bots]
            if unknown:
                raise Diverged(f"match {stored.id}: no bot named {unknown[0][:40]!r} here")
            match = Match.resume(stored, self.game(stored.game, stored.options))
        except (Diverged, ValueError, RuleError, RecursionError) as exc:  # (ValueError: an unknown option)
            self.broken[stored.id] = str(exc)
            self.say(f"rulewright serve: {exc}")
            return None
        self.live[match.id] = match
        if match.state.is_terminal():
            self._keep_finished(match.id)
        else:
            self.kick(match)
        return match

    def sweep(self, now: float | None = None) -> int:
        """Unload the running matches that nobody has joined or moved in for IDLE_AFTER seconds
        and that wait on no bot (they are read again from the store when someone joins); the
        number unloaded. Abandoned matches so neither fill memory nor count towards MAX_RUNNING."""
        now = time.monotonic() if now is None else now
        idle = [
            m
            for m in self.live.values()
            if not m.state.is_terminal()
            and not self.rooms.get(m.id)
            and m.id not in self.bots
            and now - m.touched >= IDLE_AFTER
        ]
        for m in idle:
            del self.live[m.id]
        return len(idle)

    def _keep_finished(self, id: str) -> None:
        self.finished[id] = None
        self.finished.move_to_end(id)
        while len(self.finished) > KEPT_FINISHED:
            old, _ = self.finished.popitem(last=False)
            if not self.rooms.get(old):
                self.live.pop(old, None)

    def get(self, id: str) -> Match | None:
        found = self.live.get(id)
        if found is not None:
            return found
        if id in self.broken:
            raise Refusal(BROKEN, self.broken[id])
        try:
            stored = self.store.match(id)
        except (ValueError, TypeError, KeyError, RecursionError) as exc:
            raise Refusal(
                BROKEN, f"it cannot be read back ({type(exc).__name__}: {str(exc)[:200]})"
            ) from None
        return None if stored is None else self._load(stored)

    def create(self, body: object, client: str) -> dict[str, Any]:
        """A new match from the lobby's settings; its seats' links."""
        bucket = self.creators.setdefault(client, Bucket(time.monotonic(), CREATE_RATE, CREATE_BURST))
        if not bucket.take(time.monotonic()):
            raise web.HTTPTooManyRequests(text="too many matches made; wait a moment")
        self.sweep()
        running = sum(1 for m in self.live.values() if not m.state.is_terminal())
        if running >= MAX_RUNNING:
            raise web.HTTPServiceUnavailable(text=f"{MAX_RUNNING} matches are running; finish some first")
        if not isinstance(body, dict) or set(body) - {"game", "options", "seats", "seed"}:
            raise _bad('a match is {"game", "options", "seats", "seed"}')
        entry = self.catalog.entry(body.get("game"))
        if entry is None:
            raise _bad("no such game")
        options = body.get("options", {})
        if not isinstance(options, dict) or len(options) > 32:
            raise _bad('"options" is an object')
        try:
            game = self.game(entry["name"], options)
        except ValueError as exc:
            raise _bad(str(exc)) from None
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbelow(SEED_LIMIT)
        elif type(seed) is not int or not 0 <= seed < SEED_LIMIT:
            raise _bad(f'"seed" is an integer from 0 to {SEED_LIMIT - 1}')
        kinds = body.get("seats")
        n = game.num_players
        if not isinstance(kinds, list) or len(kinds) != n:
            raise _bad(f'"seats" lists the {n} seats: "here", "link" or a bot')
        seats: list[Seat] = []
        for k in kinds:
            if k in ("here", "link"):
                seats.append(Seat("human", secrets.token_urlsafe(18)))
            elif k in self.catalog.bots:
                seats.append(Seat(k, ""))
            else:
                raise _bad(f'a seat is "here", "link" or one of the bots {", ".join(self.catalog.bots)}')
        id = secrets.token_hex(6)
        self.store.add_match(id, game.name, dict(game.options), seed, seats)
        match = Match(id, game, seed, tuple(seats), game.new_initial_state(seed), time.time())
        self.live[id] = match
        self.say(f"rulewright serve: match {id}: {game.info.title} ({', '.join(map(str, kinds))})")
        self.kick(match)
        names = match.names
        here = [s.token for s, k in zip(seats, kinds, strict=True) if k == "here"]
        return {
            "id": id,
            "here": f"/m/{id}#t={','.join(here)}" if here else f"/m/{id}",
            "seats": [
                {
                    "name": names[p],
                    "kind": k,
                    "link": f"/m/{id}#t={s.token}" if s.human else None,
                }
                for p, (s, k) in enumerate(zip(seats, kinds, strict=True))
            ],
        }

    def summaries(self) -> list[dict[str, Any]]:
        out = []
        for stored in self.store.matches(limit=LISTED):
            if isinstance(stored, StoreError):
                continue
            live = self.live.get(stored.id)
            entry = self.catalog.entry(stored.game)
            out.append(
                {
                    "id": stored.id,
                    "game": stored.game,
                    "title": entry["title"] if entry else stored.game,
                    "seats": [s.kind for s in stored.seats],
                    "decisions": live.version if live else len(stored.actions),
                    "result": live.result() if live else stored.result,
                    "broken": self.broken.get(stored.id),
                }
            )
        return out

    # -- playing ---------------------------------------------------------------------------------

    def play(self, match: Match, seat: int, version: int, action: str | int) -> None:
        """A move (Match.move), stored, then shown to everyone in the match; bots go on."""
        self._guarded(match, lambda: match.move(seat, version, action))

    def _guarded(self, match: Match, run: Callable[[], list[Applied]]) -> None:
        """Make a move with `run`; a refusal leaves the match as it was. Should the engine itself
        fail (a rule error, a bug), the match is reloaded from its stored moves."""
        match.touched = time.monotonic()
        try:
            done = run()
        except ENGINE_FAILURES as exc:  # (a Refusal is none of these: it goes to the caller)
            self._unload(match, f"the engine failed ({type(exc).__name__}: {str(exc)[:200]}); it is reloaded")
            raise Refusal(BROKEN, "the engine failed on that move; the match was reloaded") from None
        self._stored(match, done)

    def _stored(self, match: Match, done: list[Applied]) -> None:
        try:
            for a in done:
                self.store.add_move(match.id, a.n, a.action, a.label, a.digest, a.result)
        except sqlite3.Error as exc:
            self._unload(match, f"cannot store a move ({exc})")
            raise Refusal(BROKEN, "the server could not store the move") from None
        if match.state.is_terminal():
            self._keep_finished(match.id)
            self.say(f"rulewright serve: match {match.id} over: {match.result()}")
        self.broadcast(match)
        self.kick(match)

    def _unload(self, match: Match, why: str) -> None:
        self.say(f"rulewright serve: match {match.id}: {why}")
        self.live.pop(match.id, None)
        for conn in self.rooms.pop(match.id, set()):
            asyncio.ensure_future(conn.ws.close(code=1011, message=b"reloaded: join again"))

    def kick(self, match: Match) -> None:
        """Start the match's bot task if a bot is to act and none is running."""
        if match.bot_to_move() is None or match.id in self.bots:
            return
        self.bots[match.id] = asyncio.get_running_loop().create_task(self._bots(match))

    async def _bots(self, match: Match) -> None:
        try:
            while self.live.get(match.id) is match and (seat := match.bot_to_move()) is not None:
                await asyncio.sleep(self.bot_delay)
                if self.live.get(match.id) is not match or match.bot_to_move() != seat:
                    continue
                try:
                    if match.seats[seat].kind.startswith("mcts"):  # a search: off the event loop
                        twin = match.state.clone()
                        chosen = await asyncio.to_thread(match.bot_choice, seat, twin)
                        seen = len(twin.history)
                        self._guarded(match, functools.partial(match.move, seat, seen, chosen))
                    else:
                        self._guarded(match, functools.partial(match.bot_move, seat))
                except (Refusal, *ENGINE_FAILURES) as exc:
                    self.say(f"rulewright serve: match {match.id}: a bot could not move ({exc})")
                    return
        finally:
            self.bots.pop(match.id, None)

    def broadcast(self, match: Match) -> None:
        made: dict[tuple[int | None, bool], dict[str, Any]] = {}
        for conn in list(self.rooms.get(match.id, ())):
            if conn.ws.closed:
                continue
            asyncio.ensure_future(_send(conn.ws, self.state_message(match, conn, made)))

    def state_message(
        self, match: Match, conn: Conn, made: dict[tuple[int | None, bool], dict[str, Any]]
    ) -> dict[str, Any]:
        """The views of the connection's seats (a spectator's: the public one), each made once
        per change however many connections show it; the log lines each has not been sent yet."""
        views: dict[str, Any] = {}
        seats: tuple[int | None, ...] = conn.seats or (None,)
        for seat in seats:
            key = SPECTATOR if seat is None else str(seat)
            base = made.get((seat, conn.board))
            if base is None:
                base = made[(seat, conn.board)] = match.view(seat, conn.board)
            start = conn.log_at.get(key, 0)
            view = dict(base)
            view["log"], view["log_at"] = match.log_lines(seat, start), start
            conn.log_at[key] = match.log_end()
            views[key] = view
        return {"type": "state", "version": match.version, "views": views}

    # -- the websocket -------------------------------------------------------------------------------

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        _same_origin(request)
        ws = web.WebSocketResponse(max_msg_size=protocol.MAX_MESSAGE_BYTES, heartbeat=30.0, compress=True)
        await ws.prepare(request)
        conn = Conn(ws, Bucket(time.monotonic()))
        self.sockets.add(ws)
        try:
            async for msg in ws:
                if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break
                if not conn.bucket.take(time.monotonic()):
                    conn.floods += 1
                    if conn.floods >= CLOSE_AFTER:
                        await ws.close(code=1008, message=b"too many messages")
                        break
                    await _send(ws, Refusal(FLOOD).data())
                    continue
                try:
                    self.handle(conn, protocol.parse(msg.data))
                except Refusal as exc:
                    await _send(ws, exc.data())
        finally:
            self.sockets.discard(ws)
            room = self.rooms.get(conn.match)
            if room is not None:
                room.discard(conn)
        return ws

    def handle(self, conn: Conn, message: Message) -> None:
        if isinstance(message, Hello):
            match = self.get(message.match)
            if match is None:
                raise Refusal(NO_MATCH, message.match[:64])
            seats = []
            for token in message.tokens:
                seat = match.seat_of(token)
                if seat is None:
                    raise Refusal(BAD_TOKEN)
                seats.append(seat)
            if conn.match:
                self.rooms.get(conn.match, set()).discard(conn)
            conn.match, conn.seats, conn.board, conn.log_at = (
                match.id,
                tuple(sorted(set(seats))),
                message.board,
                {},
            )
            self.rooms.setdefault(match.id, set()).add(conn)
            asyncio.ensure_future(_send(conn.ws, self.state_message(match, conn, {})))
            return
        if not conn.match:
            raise Refusal(NOT_JOINED)
        match = self.live.get(conn.match)
        if match is None:
            raise Refusal(BROKEN, "the match was reloaded: join again")
        if message.seat not in conn.seats:
            raise Refusal(NOT_YOUR_SEAT)
        self.play(match, message.seat, message.version, message.action)

    async def close_sockets(self, app: web.Application) -> None:
        """At shutdown, every websocket closed as going away (1001): otherwise the server waits
        for each open page before it stops (aiohttp's shutdown timeout, a minute). A page
        reconnects by itself once the server is back."""
        await asyncio.gather(
            *(ws.close(code=WSCloseCode.GOING_AWAY, message=b"server stopping") for ws in list(self.sockets)),
            return_exceptions=True,
        )

    # -- pages -----------------------------------------------------------------------------------

    def app(self, *, loopback_only: bool = False) -> web.Application:
        """The web application; `loopback_only` (a server listening on this machine alone): a
        request naming another host is refused."""
        app = web.Application(client_max_size=MAX_BODY, middlewares=[_headers])
        app[LOOPBACK_ONLY] = loopback_only
        app.on_shutdown.append(self.close_sockets)
        app.add_routes(
            [
                web.get("/", self.lobby),
                web.get("/api/games", self.api_games),
                web.get("/api/matches", self.api_matches),
                web.post("/api/matches", self.api_create),
                web.get("/m/{id}", self.match_page),
                web.post("/m/{id}/replay", self.replay),
                web.post("/m/{id}/log", self.log),
                web.get("/ws", self.websocket),
                web.get("/static/{name}", self.static),
                web.get("/favicon.ico", self.no_icon),
            ]
        )
        return app

    async def lobby(self, request: web.Request) -> web.StreamResponse:
        return _html("lobby.html")

    async def match_page(self, request: web.Request) -> web.StreamResponse:
        return _html("match.html")

    async def static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        kind = STATIC.get(name)
        if kind is None:
            raise web.HTTPNotFound()
        return web.Response(text=_asset(name), content_type=kind)

    async def no_icon(self, request: web.Request) -> web.StreamResponse:
        return web.Response(status=204)

    async def api_games(self, request: web.Request) -> web.StreamResponse:
        return web.json_response({"games": list(self.catalog.entries), "bots": list(self.catalog.bots)})

    async def api_matches(self, request: web.Request) -> web.StreamResponse:
        return web.json_response({"matches": self.summaries()})

    async def api_create(self, request: web.Request) -> web.StreamResponse:
        # A page of another site may post here too: a "no-cors" fetch sends a text/plain body of
        # its choosing without the browser asking first, while one of application/json needs the
        # browser's leave (never given); and a browser names the page's Origin
        _same_origin(request)
        if request.content_type != "application/json":
            raise web.HTTPUnsupportedMediaType(text="a match's settings are sent as application/json")
        try:
            body = await request.json()
        except (ValueError, RecursionError):  # (UnicodeDecodeError is a ValueError; nesting too deep)
            raise _bad("the body is not JSON") from None
        return web.json_response(self.create(body, request.remote or ""))

    async def _tokens_match(self, request: web.Request) -> tuple[Match, list[int]]:
        try:
            match = self.get(request.match_info["id"])
        except Refusal as exc:
            raise web.HTTPConflict(text=exc.message) from None
        if match is None:
            raise web.HTTPNotFound(text="no such match")
        form = await request.post()
        given = form.get("t", "")
        tokens = [t for t in str(given).split(",") if t][: protocol.MAX_TOKENS]
        seats = [match.seat_of(t) for t in tokens]
        if any(s is None for s in seats):
            raise web.HTTPForbidden(text="a token that holds no seat of this match")
        return match, sorted({s for s in seats if s is not None})

    async def replay(self, request: web.Request) -> web.StreamResponse:
        match, seats = await self._tokens_match(request)
        over = match.state.is_terminal()
        if not over and not seats:
            raise web.HTTPForbidden(text="a running match's replay is shown to its players only")
        perspectives: list[int | None] | None = None if over else list(seats)
        history = list(match.state.history)
        data = await asyncio.to_thread(
            replay_data,
            match.game,
            match.seed,
            history,
            perspectives=perspectives,
            unfinished="still running",
        )
        response = web.Response(text=page(data), content_type="text/html")
        response.headers["X-Replay"] = "1"  # its own policy, in the page (rulewright/replay_html.py)
        return response

    async def log(self, request: web.Request) -> web.StreamResponse:
        match, _ = await self._tokens_match(request)
        if not match.state.is_terminal():
            raise web.HTTPForbidden(
                text="the log holds every seat's decisions: it is given once the match is over"
            )
        text = log_text(match.game, match.seed, match.state)
        return web.Response(
            text=text,
            content_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{match.game.name}-{match.id}.json"'},
        )


@web.middleware
async def _headers(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    if request.app.get(LOOPBACK_ONLY) and _hostname(request.host) not in LOOPBACK:
        # a server on this machine alone answers only to this machine's names: a page whose
        # site's name was made to point here (DNS rebinding) gets nothing
        raise web.HTTPMisdirectedRequest(text="this server answers only to 127.0.0.1 and localhost")
    response = await handler(request)
    if "X-Replay" in response.headers:
        del response.headers["X-Replay"]
    else:
        response.headers.setdefault("Content-Security-Policy", POLICY)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Cache-Control"] = "no-store"
    return response


LOOPBACK_ONLY = web.AppKey("loopback_only", bool)


def _hostname(host: str) -> str:
    """The name in a Host header, without its port (`[::1]:8000` -> `::1`)."""
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def _same_origin(request: web.Request) -> None:
    """A websocket or a new match from another site's page is refused (browsers send its Origin)."""
    origin = request.headers.get("Origin")
    if origin is None:
        return
    host = request.headers.get("Host", "")
    if origin not in (f"http://{host}", f"https://{host}"):
        raise web.HTTPForbidden(text="a request from another site's page")


def _bad(text: str) -> web.HTTPBadRequest:
    return web.HTTPBadRequest(text=text)


async def _send(ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
    if ws.closed:
        return
    try:
        await ws.send_str(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
    except (ConnectionError, RuntimeError):  # the client went away meanwhile
        pass


def _asset(name: str) -> str:
    return resources.files("rulewright.serve").joinpath("static", name).read_text("utf-8")


def _html(name: str) -> web.Response:
    return web.Response(text=_asset(name), content_type="text/html")
