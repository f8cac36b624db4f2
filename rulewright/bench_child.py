"""One measured round of `rulewright bench`: random games played, and clone and JSON costs timed.

`rulewright bench --against REF` runs this file as a script in a fresh interpreter per round:

    python -I rulewright/bench_child.py TREE GAME --seconds S [--search FOLDER] [--option K=V]...

It puts TREE first on sys.path, so that `runtime` (and the bundled engines beside it) are TREE's
own: this checkout's, or another revision's unpacked in a temporary folder. `-I` keeps this file's
folder and PYTHONPATH off sys.path, so nothing else decides which runtime is imported. It prints
one line of JSON: the figures, or `{"error": ...}` with exit 1.

So that it can drive the runtime of any revision, it imports nothing at the top but the standard
library, and uses only the engine API that revisions share: `runtime.game.load_game(name, options)`
(with `search=` only when asked for one), `Game.new_initial_state(seed)`, `Game.state_from_json`,
and a state's `legal_actions`, `apply_action`, `is_terminal`, `clone` and `to_json`.

`rulewright bench` without --against calls `measure` in its own process.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from runtime.engine import GameState
    from runtime.game import Game

# The states whose clone and JSON costs are timed: evenly spaced decision points of games played
# for that purpose alone, with seeds of their own, so every round and both sides time the same
# states and the timed play is not slowed by taking them.
SAMPLE_SEED = 1_000_000
SAMPLE_GAMES = 8
SAMPLES_PER_GAME = 25
MAX_DECISIONS = 100_000  # a game that has not ended after this many decisions never will

Item = TypeVar("Item")


class EndlessGame(RuntimeError):
    """A random game that did not end: there is no rate to report."""


def measure(game: Game, seconds: float) -> dict[str, float]:
    """The figures of one round: play random games for `seconds` of CPU time (game k with seed k
    and its own random agent seeded k, so that any two runs play the same games in the same
    order), then time clone, to_json and from_json at sampled decision points.

    Each operation is timed once per state, on states that no other timing has touched: an engine
    may keep work done for one call (a part of the log already written as JSON) for the next, and
    the figure is the cost at a decision point reached in play, not that of a repeated call. (The
    states of one game share their past, as the states of a game in play do.)"""
    figures = _play(game, seconds)
    points = _sample_points(game)
    figures["clone_us"] = _cpu_us(lambda s: s.clone(), _states(game, points))
    texts: list[str] = []
    figures["to_json_us"] = _cpu_us(lambda s: texts.append(s.to_json()), _states(game, points))
    figures["from_json_us"] = _cpu_us(game.state_from_json, texts)
    figures["clone_to_json_us"] = _cpu_us(_clone_and_save, _states(game, points))
    figures["json_bytes"] = sum(len(t.encode("utf-8")) for t in texts) / len(texts)
    figures["samples"] = len(texts)
    return figures


def _play(game: Game, seconds: float) -> dict[str, float]:
    """Random games until `seconds` of CPU time are spent (at least one game): their number, their
    decisions, and the CPU and wall time they took."""
    games = decisions = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    while games == 0 or time.process_time() - cpu0 < seconds:
        decisions += len(_random_game(game, games))
        games += 1
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return {
        "games": games,
        "decisions": decisions,
        "cpu_s": cpu,
        "wall_s": wall,
        "games_per_s_cpu": games / cpu,
        "games_per_s_wall": games / wall,
        "decisions_per_s_cpu": decisions / cpu,
        "decisions_per_s_wall": decisions / wall,
    }


def _random_game(game: Game, seed: int) -> list[int]:
    """Play the game of `seed` to its end with a random agent seeded `seed`; the actions taken."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    actions: list[int] = []
    while not state.is_terminal():
        if len(actions) >= MAX_DECISIONS:
            raise EndlessGame(f"random game {seed} did not end within {MAX_DECISIONS:,} decisions")
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        actions.append(action)
    return actions


def _sample_points(game: Game) -> list[tuple[int, list[int], set[int]]]:
    """The games the samples come from, each as its seed, its actions and the indices of the
    decisions at which a state is taken: SAMPLES_PER_GAME of them, evenly spaced, whatever the
    game's length."""
    points = []
    for seed in range(SAMPLE_SEED, SAMPLE_SEED + SAMPLE_GAMES):
        actions = _random_game(game, seed)
        wanted = min(SAMPLES_PER_GAME, len(actions))
        points.append((seed, actions, {i * len(actions) // wanted for i in range(wanted)}))
    return points


def _states(game: Game, points: list[tuple[int, list[int], set[int]]]) -> list[GameState]:
    """New states at the sample points: each game replayed, a copy taken at each of its points."""
    states: list[GameState] = []
    for seed, actions, picks in points:
        state = game.new_initial_state(seed)
        for i, action in enumerate(actions):
            if i in picks:
                states.append(state.clone())
            state.apply_action(action)
    return states or [game.new_initial_state(SAMPLE_SEED)]


def _clone_and_save(state: GameState) -> None:
    state.clone()
    state.to_json()


def _cpu_us(operation: Callable[[Item], object], items: Sequence[Item]) -> float:
    """The mean CPU time of `operation` on one of `items`, in microseconds."""
    start = time.process_time()
    for item in items:
        operation(item)
    return 1e6 * (time.process_time() - start) / len(items)


def _arguments() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="bench_child", description=__doc__.splitlines()[0])
    p.add_argument("tree", help="the folder holding the runtime package (and generated/) to measure")
    p.add_argument("game")
    p.add_argument("--seconds", type=float, default=2.0, help="CPU seconds of random play")
    p.add_argument("--search", help="an output folder to load the game from, before the bundled ones")
    p.add_argument(
        "--checked",
        action="store_true",
        help="the --search folder is a native build the parent checked file by file: import it by path",
    )
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--play-only", action="store_true", help="random play alone: no clone or JSON timing")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments().parse_args(argv)
    sys.path.insert(0, str(Path(args.tree).resolve()))
    options = dict(pair.partition("=")[::2] for pair in args.option)
    try:
        from runtime.game import load_game

        if args.search is None:
            game = load_game(args.game, options)
        else:
            if args.checked:
                from runtime.loading import import_checked_folder

                import_checked_folder(Path(args.search))
            game = load_game(args.game, options, search=(Path(args.search),))
        figures = _play(game, args.seconds) if args.play_only else measure(game, args.seconds)
    except Exception as exc:  # one line for the parent to show, whatever went wrong
        print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}))
        return 1
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
