"""The load test of `rulewright serve`: many matches played at once through the websocket API.

    python -m rulewright.serve.load [--matches 50] [--clients 5] [--game iron_curtain]
                                    [--seconds 20] [--url URL]

It starts a server of its own (`rulewright serve --port 0 --bot-delay 0` on a temporary --data,
in a subprocess) unless --url names one, then at once:

  - makes --matches matches whose seats are all "link" seats, one websocket client per seat
    (`board: false`), each answering its seat's decisions with random legal options;
  - makes --clients matches of one human seat against the server's random bots, each played by
    one client as the browser's page does: it loads the page and its assets, joins with the
    Origin a browser sends, takes the full views (`board: true`) and answers at random.

Every client keeps under the server's rate limit (rulewright/serve/protocol.py), as a person at a
page always does, so a refusal is an error of the server, never the test's flood. The run stops
at --seconds whatever is left. The report: matches finished, moves, moves per second, the move
latency (from a client's move to its next state message) p50/p99/max, the server's peak resident
memory (VmHWM) and the CPU it used (per decision too: a figure that other work on the machine
changes less than the rates; both "unknown" for a --url server), and errors (refusals, lost
connections: must be 0).
The exit code is 0 when every match ended without an error, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import ClientError, ClientSession, ClientWebSocketResponse, WSMsgType

from rulewright.commands.arguments import nonnegative_int, positive_seconds
from rulewright.progress import Progress, duration
from rulewright.serve import protocol
from runtime.text import quoted

START_TIMEOUT = 60.0  # seconds the server may take to say where it listens


@dataclass
class Tally:
    """What the clients did, as they go."""

    moves: int = 0  # moves the clients sent that the server took
    latencies: list[float] = field(default_factory=list)
    finished: int = 0
    decisions: int = 0  # decisions of the finished matches (bots' included)
    errors: Counter[str] = field(default_factory=Counter)


@dataclass(frozen=True)
class Report:
    matches: int
    finished: int
    moves: int
    decisions: int
    seconds: float
    latencies: tuple[float, ...]
    peak_rss: str
    server_cpu: float | None  # seconds of CPU the server used during the run
    errors: Counter[str]

    @property
    def unfinished(self) -> int:
        return self.matches - self.finished

    def quantile(self, q: float) -> float | None:
        if not self.latencies:
            return None
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def table(self) -> str:
        def ms(value: float | None) -> str:
            return "-" if value is None else f"{value * 1000:.1f} ms"

        rate = self.moves / self.seconds if self.seconds > 0 else 0.0
        per_decision = None  # over whole matches only (the unfinished ones' decisions are not counted)
        if self.server_cpu is not None and self.decisions and not self.unfinished:
            per_decision = f"{self.server_cpu / self.decisions * 1000:.2f} ms"
        rows = [
            ("matches finished", f"{self.finished} of {self.matches}"),
            ("moves (by the clients)", f"{self.moves:,}"),
            ("decisions (bots' too)", f"{self.decisions:,}"),
            ("time", f"{self.seconds:.1f} s"),
            ("moves per second", f"{rate:,.1f}"),
            ("latency p50", ms(self.quantile(0.50))),
            ("latency p99", ms(self.quantile(0.99))),
            ("latency max", ms(max(self.latencies) if self.latencies else None)),
            ("server peak RSS", self.peak_rss),
            ("server CPU", "unknown" if self.server_cpu is None else f"{self.server_cpu:.1f} s"),
            ("server CPU per decision", per_decision or "unknown"),
            ("errors", str(sum(self.errors.values()))),
        ]
        rows += [(f"  {why}", str(n)) for why, n in sorted(self.errors.items())]
        width = max(len(name) for name, _ in rows)
        return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)


class Pace:
    """A client's own token bucket, a little under the server's, so that it never floods."""

    def __init__(self) -> None:
        self.bucket = protocol.Bucket(time.monotonic(), protocol.RATE * 0.8, protocol.BURST / 2)

    async def wait(self) -> None:
        while not self.bucket.take(time.monotonic()):
            await asyncio.sleep(1 / protocol.RATE)


# ---- the server -------------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def own_server() -> AsyncIterator[tuple[str, int]]:
    """A `rulewright serve` of this run: its URL and process id; stopped (SIGTERM) at the end."""
    with tempfile.TemporaryDirectory(prefix="rulewright-load-") as data:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-u",
            "-m",
            "rulewright",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--data",
            str(Path(data) / "matches"),
            "--bot-delay",
            "0",
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        assert process.stdout is not None
        drain: asyncio.Task[None] | None = None
        try:
            url = await asyncio.wait_for(_listening(process.stdout), START_TIMEOUT)
            drain = asyncio.create_task(_drain(process.stdout))  # its lines about each match
            yield url, process.pid
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
                try:
                    await asyncio.wait_for(process.wait(), 10)
                except TimeoutError:
                    process.kill()
                    await process.wait()
            if drain is not None:
                drain.cancel()


async def _listening(out: asyncio.StreamReader) -> str:
    said = []
    while line := (await out.readline()).decode("utf-8", "replace"):
        found = re.search(r"at (http://\S+?)/? \(", line)
        if found:
            return found.group(1)
        said.append(line.strip())
    raise RuntimeError("the server stopped before listening: " + " / ".join(said[-3:]))


async def _drain(out: asyncio.StreamReader) -> None:
    while await out.readline():
        pass


def cpu_seconds(pid: int | None) -> float | None:
    """The CPU time (user and system) the process has used, if this machine says (Linux)."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def peak_rss(pid: int | None) -> str:
    if pid is None:
        return "unknown"
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return "unknown"
    found = re.search(r"^VmHWM:\s*(\d+) kB", status, re.M)
    return f"{int(found.group(1)) / 1024:.1f} MiB" if found else "unknown"


# ---- the clients ------------------------------------------------------------------------------------


async def make_match(http: ClientSession, url: str, game: str, seats: list[str], seed: int) -> dict[str, Any]:
    async with http.post(f"{url}/api/matches", json={"game": game, "seats": seats, "seed": seed}) as response:
        if response.status != 200:
            raise RuntimeError(f"making a match: HTTP {response.status}: {(await response.text())[:200]}")
        made: dict[str, Any] = await response.json()
        return made


def token(link: str) -> str:
    return link.split("#t=", 1)[1]


async def play_seat(
    http: ClientSession,
    url: str,
    match: str,
    seat_token: str,
    *,
    board: bool,
    rng: random.Random,
    tally: Tally,
    headers: dict[str, str] | None = None,
) -> int | None:
    """Play one seat of a match to its end: the match's number of decisions at the end, or None if
    the connection ended before (counted as an error)."""
    ws_url = re.sub(r"^http", "ws", url) + "/ws"
    pace = Pace()
    sent_at: float | None = None
    answered = -1  # the decision this client last answered (a view's "decision")
    async with http.ws_connect(ws_url, headers=headers, max_msg_size=0) as ws:
        await _send(ws, pace, {"type": "hello", "match": match, "tokens": [seat_token], "board": board})
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                break
            data = json.loads(msg.data)
            if data["type"] == "error":
                tally.errors[f"refused: {data['code']}"] += 1
                sent_at = None
                continue
            now = time.perf_counter()
            if sent_at is not None:
                tally.latencies.append(now - sent_at)
                tally.moves += 1
                sent_at = None
            (view,) = data["views"].values()
            if view["over"]:
                return int(data["version"])
            if view["asked"] and view["decision"] > answered and view["options"]:
                answered = view["decision"]
                move = {
                    "type": "move",
                    "seat": view["seat"],
                    "version": data["version"],
                    "action": rng.choice(view["options"]),
                }
                await pace.wait()
                sent_at = time.perf_counter()
                await ws.send_str(json.dumps(move))
    tally.errors[f"connection closed ({ws.close_code})"] += 1
    return None


async def _send(ws: ClientWebSocketResponse, pace: Pace, data: dict[str, Any]) -> None:
    await pace.wait()
    await ws.send_str(json.dumps(data))


async def link_match(http: ClientSession, url: str, game: str, players: int, seed: int, tally: Tally) -> None:
    """A match of link seats only: one client per seat."""
    made = await make_match(http, url, game, ["link"] * players, seed)
    rng = random.Random(seed)
    ends = await asyncio.gather(
        *(
            play_seat(
                http,
                url,
                made["id"],
                token(s["link"]),
                board=False,
                rng=random.Random(rng.random()),
                tally=tally,
            )
            for s in made["seats"]
        )
    )
    if all(end is not None for end in ends):
        tally.finished += 1
        tally.decisions += max(e for e in ends if e is not None)


async def browser_match(
    http: ClientSession, url: str, game: str, players: int, seed: int, tally: Tally
) -> None:
    """A match of one human against the server's random bots, played as the match page does."""
    made = await make_match(http, url, game, ["here"] + ["random"] * (players - 1), seed)
    for path in (made["here"].split("#", 1)[0], "/static/match.js", "/static/serve.css"):
        async with http.get(url + path) as response:
            await response.read()
            if response.status != 200:
                tally.errors[f"GET {path.split('/')[1]}: HTTP {response.status}"] += 1
    parts = urlsplit(url)
    end = await play_seat(
        http,
        url,
        made["id"],
        token(made["here"]),
        board=True,
        rng=random.Random(seed),
        tally=tally,
        headers={"Origin": f"{parts.scheme}://{parts.netloc}"},
    )
    if end is not None:
        tally.finished += 1
        tally.decisions += end


async def players_of(http: ClientSession, url: str, game: str) -> int:
    """How many play `game` with its default options, from the lobby's list."""
    async with http.get(f"{url}/api/games") as response:
        games = (await response.json())["games"]
    entry = next((g for g in games if g["name"] == game), None)
    if entry is None:
        raise RuntimeError(f"no game {game!r} on that server ({', '.join(g['name'] for g in games)})")
    option = entry["players_option"]
    if option is None:
        return len(next(iter(entry["names"].values())))
    default = next(o["default"] for o in entry["options"] if o["name"] == option)
    return len(entry["names"][str(default)])


async def measure(matches: int, clients: int, game: str, seconds: float, url: str | None) -> Report:
    tally = Tally()
    total = matches + clients
    async with contextlib.AsyncExitStack() as stack:
        pid: int | None = None
        if url is None:
            base, pid = await stack.enter_async_context(own_server())
        else:
            base = url.rstrip("/")
        http = await stack.enter_async_context(ClientSession())
        players = await players_of(http, base, game)
        start = time.perf_counter()
        cpu_before = cpu_seconds(pid)
        jobs = [
            asyncio.ensure_future(link_match(http, base, game, players, k, tally)) for k in range(matches)
        ]
        jobs += [
            asyncio.ensure_future(browser_match(http, base, game, players, matches + k, tally))
            for k in range(clients)
        ]
        with Progress(total, "matches") as progress:
            deadline = start + seconds
            pending = set(jobs)
            while pending and time.perf_counter() < deadline:
                done, pending = await asyncio.wait(
                    pending, timeout=min(0.5, max(0.0, deadline - time.perf_counter()))
                )
                for job in done:
                    if not job.cancelled() and job.exception() is not None:
                        exc = job.exception()
                        tally.errors[f"{type(exc).__name__}: {str(exc)[:80]}"] += 1
                left = duration(deadline - time.perf_counter())
                progress.update(tally.finished, f"{tally.moves:,} moves; stops in {left} at the latest")
            for job in pending:
                job.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
        elapsed = time.perf_counter() - start
        rss = peak_rss(pid)  # before the server stops
        cpu_after = cpu_seconds(pid)
    return Report(
        matches=total,
        finished=tally.finished,
        moves=tally.moves,
        decisions=tally.decisions,
        seconds=elapsed,
        latencies=tuple(tally.latencies),
        peak_rss=rss,
        server_cpu=None if cpu_before is None or cpu_after is None else cpu_after - cpu_before,
        errors=tally.errors,
    )


def arguments() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m rulewright.serve.load",
        description="Load-test `rulewright serve`: matches played at once through its websocket API.",
    )
    p.add_argument(
        "--matches", type=_count, default=50, help="matches of link seats, every seat a client (50)"
    )
    p.add_argument("--clients", type=_count, default=5, help="matches played as a browser does, vs bots (5)")
    p.add_argument("--game", default="iron_curtain", help="the game of every match (iron_curtain)")
    p.add_argument("--seconds", type=_seconds, default=20.0, help="stop after this long, done or not (20)")
    p.add_argument("--url", help="a running server's address (default: start one on the loopback)")
    return p


def _count(text: str) -> int:
    n = nonnegative_int(text)
    if n > 500:
        raise argparse.ArgumentTypeError(f"at most 500, not {n}")
    return n


def _seconds(text: str) -> float:
    s = positive_seconds(text)
    if s > 3600:
        raise argparse.ArgumentTypeError(f"at most 3600 seconds, not {quoted(text)}")
    return s


def main(argv: Sequence[str] | None = None) -> int:
    args = arguments().parse_args(argv)
    if args.url is not None and not re.match(r"^https?://[^/\s]+/?$", args.url):
        arguments().error(f"--url {args.url!r}: a server's address, as http://HOST:PORT")
    started = time.perf_counter()
    try:
        report = asyncio.run(measure(args.matches, args.clients, args.game, args.seconds, args.url))
    except (RuntimeError, ClientError, OSError) as exc:
        print(f"load: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    print(f"{args.game}: {args.matches} matches of link seats and {args.clients} played as a browser does")
    print(report.table())
    if report.unfinished:
        print(f"({report.unfinished} matches unfinished after {duration(time.perf_counter() - started)})")
    return 0 if report.errors.total() == 0 and report.unfinished == 0 else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
