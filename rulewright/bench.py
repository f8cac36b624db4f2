"""`rulewright bench`: the project's performance figures for one game.

Games and decisions per second with random agents, the cost of clone / to_json / from_json in
microseconds (averaged over states from real games), and the time to check and build the spec.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path

from runtime.engine import GameState
from runtime.game import Game


@dataclass
class BenchResult:
    """The measured figures."""

    game: str
    games: int
    decisions: int
    seconds: float
    clone_us: float
    to_json_us: float
    from_json_us: float
    json_bytes: float
    check_ms: float
    build_ms: float

    def report(self) -> str:
        return "\n".join(
            [
                f"{self.game}:",
                f"  games/s          {self.games / self.seconds:>10,.1f}   ({self.games} random games in {self.seconds:.2f} s)",
                f"  decisions/s      {self.decisions / self.seconds:>10,.0f}   ({self.decisions / max(1, self.games):.0f} per game)",
                f"  clone            {self.clone_us:>10.1f} us",
                f"  to_json          {self.to_json_us:>10.1f} us   ({self.json_bytes:,.0f} bytes)",
                f"  from_json        {self.from_json_us:>10.1f} us",
                f"  check spec       {self.check_ms:>10.1f} ms",
                f"  build spec       {self.build_ms:>10.1f} ms",
            ]
        )


def _timed(fn: object, states: list[GameState], reps: int) -> float:
    assert callable(fn)
    t = time.perf_counter()
    for _ in range(reps):
        for s in states:
            fn(s)
    return 1e6 * (time.perf_counter() - t) / (reps * len(states))


def bench_game(game: Game, seconds: float = 2.0, spec: Path | None = None) -> BenchResult:
    """Play `game` for `seconds`; time clone and JSON, and checking and building `spec` (its spec
    folder) when given."""
    rng = random.Random(0)
    games = decisions = 0
    samples: list[GameState] = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        state = game.new_initial_state(games)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
            if decisions % 97 == 0 and len(samples) < 200:
                samples.append(state.clone())
        games += 1
    elapsed = time.perf_counter() - start
    samples = samples or [game.new_initial_state(0)]
    texts = [s.to_json() for s in samples]
    clone_us = _timed(lambda s: s.clone(), samples, 5)
    to_json_us = _timed(lambda s: s.to_json(), samples, 3)
    t = time.perf_counter()
    for text in texts:
        game.state_from_json(text)
    from_json_us = 1e6 * (time.perf_counter() - t) / len(texts)
    check_ms = build_ms = float("nan")
    folder = spec
    if folder is not None and folder.is_dir():
        from compiler.driver import compile_spec

        compile_spec(
            folder, render=False
        )  # warm-up: the one-time grammar construction is not the spec's cost
        t = time.perf_counter()
        compile_spec(folder, render=False)
        check_ms = 1000 * (time.perf_counter() - t)
        t = time.perf_counter()
        compile_spec(folder)
        build_ms = 1000 * (time.perf_counter() - t)
    return BenchResult(
        game.name,
        games,
        decisions,
        elapsed,
        clone_us,
        to_json_us,
        from_json_us,
        sum(map(len, texts)) / len(texts),
        check_ms,
        build_ms,
    )
