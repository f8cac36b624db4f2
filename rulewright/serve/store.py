"""Where `rulewright serve` keeps its matches: one SQLite file, `matches.sqlite3`, in `--data`.

    matches   one row per match: its game, options, seed, seats (who holds each: a human by
              token, or a bot kind), when it was made, and how it ended (NULL while it runs)
    moves     one row per decision: the match, its number (0, 1, ...), the action id and label,
              and the digest of the state after it (sha256 of the saved state, 16 hex digits)

Every move is committed before anyone is told of it, so a server stopped at any moment (even by
kill -9) has lost nothing that a player saw: started again, it replays each unfinished match's
moves from its seed and checks the last digest (runtime engines are deterministic). The
database is the server's alone: it is opened in WAL mode (readers never wait for the writer),
and nothing in it is trusted more than a log would be: a row that does not read back as a match
is reported and left alone, never run.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FILE = "matches.sqlite3"
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id       TEXT PRIMARY KEY,
    game     TEXT NOT NULL,
    options  TEXT NOT NULL,
    seed     INTEGER NOT NULL,
    seats    TEXT NOT NULL,
    created  REAL NOT NULL,
    result   TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    match    TEXT NOT NULL,
    n        INTEGER NOT NULL,
    action   INTEGER NOT NULL,
    label    TEXT NOT NULL,
    digest   TEXT NOT NULL,
    PRIMARY KEY (match, n)
) WITHOUT ROWID;
"""


class StoreError(Exception):
    """The data folder cannot be used, or a stored match does not read back."""


@dataclass(frozen=True, slots=True)
class Seat:
    """Who holds a seat: `human` (whoever has its token) or a bot kind (`random`, `greedy`, ...)."""

    kind: str
    token: str  # the secret in a human seat's link; "" for a bot

    @property
    def human(self) -> bool:
        return self.kind == "human"

    def data(self) -> dict[str, str]:
        return {"kind": self.kind, "token": self.token}


@dataclass(frozen=True, slots=True)
class Stored:
    """A match as stored: what it is, and the decisions made so far."""

    id: str
    game: str
    options: dict[str, int | bool | str]
    seed: int
    seats: tuple[Seat, ...]
    created: float
    result: str | None
    actions: tuple[int, ...]
    last_digest: str | None


class Store:
    """The matches of one data folder (made if missing, private to its owner)."""

    def __init__(self, folder: Path) -> None:
        try:
            if folder.exists() and not folder.is_dir():  # mkdir would say only "File exists"
                raise StoreError(f"--data {folder}: not a folder")
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            self.path = folder / FILE
            if self.path.is_symlink() or (self.path.exists() and not self.path.is_file()):
                raise StoreError(f"--data {folder}: {FILE} is not a plain file")
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode: a committed move survives the process being killed (only a power
            # cut may lose the last ones); FULL would sync the disk at every move
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(_SCHEMA)
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            elif version != SCHEMA_VERSION:
                raise StoreError(f"{self.path}: written by another version of rulewright (schema {version})")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"--data {folder}: cannot use {FILE} ({exc})") from None
        except OSError as exc:
            raise StoreError(f"--data {folder}: cannot use it ({exc.strerror or exc})") from None
        except ValueError as exc:  # a NUL byte in the name
            raise StoreError(f"--data {str(folder)!r}: not a folder name ({exc})") from None

    def close(self) -> None:
        self.db.close()

    def add_match(
        self, id: str, game: str, options: dict[str, int | bool | str], seed: int, seats: Sequence[Seat]
    ) -> None:
        self.db.execute(
            "INSERT INTO matches (id, game, options, seed, seats, created) VALUES (?, ?, ?, ?, ?, ?)",
            (id, game, json.dumps(options), seed, json.dumps([s.data() for s in seats]), time.time()),
        )

    def add_move(self, match: str, n: int, action: int, label: str, digest: str, result: str | None) -> None:
        """Decision `n` of a match, and its result when it ended the game: one transaction."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "INSERT INTO moves (match, n, action, label, digest) VALUES (?, ?, ?, ?, ?)",
                (match, n, action, label, digest),
            )
            if result is not None:
                self.db.execute("UPDATE matches SET result = ? WHERE id = ?", (result, match))

    def matches(self, *, running_only: bool = False, limit: int = -1) -> Iterator[Stored | StoreError]:
        """Every match (the newest first; at most `limit`), or for one that does not read back, why."""
        where = " WHERE result IS NULL" if running_only else ""
        rows = self.db.execute(
            f"SELECT id, game, options, seed, seats, created, result FROM matches{where} "
            "ORDER BY created DESC LIMIT ?",
            (limit,),
        ).fetchall()
        for row in rows:
            try:
                yield self._stored(row)
            except (ValueError, TypeError, KeyError, RecursionError) as exc:
                yield StoreError(f"match {str(row[0])[:40]!r}: cannot be read back ({exc})")

    def match(self, id: str) -> Stored | None:
        row = self.db.execute(
            "SELECT id, game, options, seed, seats, created, result FROM matches WHERE id = ?", (id,)
        ).fetchone()
        return None if row is None else self._stored(row)

    def _stored(self, row: tuple[Any, ...]) -> Stored:
        id, game, options, seed, seats, created, result = row
        opts = json.loads(options)
        if not isinstance(opts, dict) or not all(
            isinstance(k, str) and isinstance(v, int | bool | str) for k, v in opts.items()
        ):
            raise ValueError("options")
        raw = json.loads(seats)
        if not isinstance(raw, list) or not all(
            isinstance(s, dict) and isinstance(s.get("kind"), str) and isinstance(s.get("token"), str)
            for s in raw
        ):
            raise ValueError("seats")
        if not isinstance(seed, int) or not isinstance(game, str):
            raise ValueError("seed or game")
        moves = self.db.execute(
            "SELECT n, action, digest FROM moves WHERE match = ? ORDER BY n", (id,)
        ).fetchall()
        actions = []
        for k, (n, action, _digest) in enumerate(moves):
            if n != k or not isinstance(action, int):
                raise ValueError(f"move {k}")
            actions.append(action)
        return Stored(
            id=id,
            game=game,
            options=opts,
            seed=seed,
            seats=tuple(Seat(s["kind"], s["token"]) for s in raw),
            created=float(created),
            result=result if isinstance(result, str) else None,
            actions=tuple(actions),
            last_digest=str(moves[-1][2]) if moves else None,
        )
