"""`rulewright serve`: every game in the browser, with a lobby, live matches, bots and hot-seat
(docs/serve.md). Installed by the `serve` extra (aiohttp).

    protocol.py   the websocket messages, checked, and the refusals' codes and messages
    store.py      the matches in SQLite under --data: each move stored before it is shown
    match.py      one match: the engine state, the seats, each seat's view (nothing else knows
                  the engine)
    app.py        the aiohttp server: pages, the websocket, bots, replay and log downloads
    static/       the lobby and match pages: HTML, one stylesheet, two scripts

The server imports nothing of rulewright.cli: the command gives it a Catalog of the games (only
load.py, the load test's client, run on its own, takes the command's argument checks).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
from collections.abc import Callable
from pathlib import Path

from rulewright.serve.app import LOOPBACK, Catalog, Server
from rulewright.serve.store import Store

__all__ = ["Catalog", "Server", "run"]


def run(
    catalog: Catalog,
    data: Path,
    host: str,
    port: int,
    *,
    bot_delay: float = 0.5,
    say: Callable[[str], None] = print,
) -> None:
    """Serve until interrupted (Ctrl-C or SIGTERM); the matches in `data` resume first."""
    store = Store(data)
    try:
        asyncio.run(_serve(Server(catalog, store, bot_delay=bot_delay, say=say), host, port, data, say))
    finally:
        store.close()


async def _serve(server: Server, host: str, port: int, data: Path, say: Callable[[str], None]) -> None:
    from aiohttp import web

    resumed = server.resume_all()
    app = server.app(loopback_only=host in LOOPBACK)
    runner = web.AppRunner(app, access_log=None, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    # the port listened on (with --port 0, the one the system chose)
    actual = next((a[1] for a in runner.addresses if isinstance(a, tuple) and len(a) >= 2), port)
    shown_host = f"[{host}]" if ":" in host else host
    games = len(server.catalog.entries)
    say(
        f"rulewright serve: {games} games at http://{shown_host}:{actual}/ (matches kept in {data}; Ctrl-C stops)"
    )
    if resumed:
        say(f"rulewright serve: {resumed} unfinished match{'es' if resumed != 1 else ''} resumed")
    if host not in LOOPBACK:
        say("rulewright serve: anyone who can reach this address can make matches and watch them")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    sweeper = loop.create_task(_sweep(server))
    try:
        await stop.wait()
    finally:
        say("rulewright serve: stopping (every move is stored; start it again to go on)")
        sweeper.cancel()
        for task in list(server.bots.values()):
            task.cancel()
        await runner.cleanup()


async def _sweep(server: Server) -> None:
    """Every minute, unload the matches left idle (Server.sweep)."""
    while True:
        await asyncio.sleep(60)
        server.sweep()


def free_port(host: str, port: int) -> str | None:
    """Why `port` cannot be listened on at `host`, or None if it can (port 0: any free one)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        return f"--host {host}: not an address of this machine ({exc.strerror})"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(address)
        except OSError as exc:
            return f"cannot listen at {host}:{port} ({exc.strerror}; is another server there? try --port 0)"
    return None
