"""What `simulate --plot` charts, gathered while the games are played: win counts, game lengths,
the returns and places of a game with `results` (or shared wins), and how the games' public numbers (the board's tracks and numeric counters: runtime/board.py's
`scores`) move from the setup to the end.

Only `simulate --plot` imports this module. A worker samples each game's numbers (`Sampler`) and
folds them into a `Trajectories` of its chunk: per number and per point of the game (its fraction
0, 1/50, ..., 1), how many games had each value there. Values are whole numbers, so these counts
give the exact mean and quantiles, add up in any order, and stay small (a chunk sends at most
values x points x distinct values, never a game's samples). rulewright/plots.py draws the result.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from runtime.board import scores as _scores
from runtime.engine import GameState

POINTS = 50  # a trajectory is read at the fractions 0, 1/POINTS, ..., 1 of each game
KEEP = POINTS  # a game keeps between KEEP and 2 * KEEP + 1 samples, evenly spaced (about 2 per point)
Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval


class Sampler:
    """One game's numbers, sampled before the first decision and after every decision: every
    `stride`-th decision is kept, and when more than 2 * KEEP are kept every other one is dropped
    and the stride doubles, so a game of any length costs at most about KEEP * log2(its length / KEEP)
    calls of `_scores` beyond its first 2 * KEEP."""

    __slots__ = ("decisions", "samples", "stride")

    def __init__(self) -> None:
        self.decisions = -1  # the decisions made before the state last seen
        self.stride = 1
        self.samples: list[tuple[int, dict[str, int]]] = []  # (decisions made, the numbers then)

    def __call__(self, state: GameState) -> None:
        self.decisions += 1
        if self.decisions % self.stride:
            return
        self.samples.append((self.decisions, _scores(state)))
        if len(self.samples) > 2 * KEEP:
            self.samples = self.samples[::2]
            self.stride *= 2

    def finish(self, state: GameState) -> None:
        """The game is over: its final numbers are always kept."""
        if not self.samples or self.samples[-1][0] != self.decisions:
            self.samples.append((self.decisions, _scores(state)))


@dataclass
class Trajectories:
    """Per number, per point k of a game (after k/POINTS of its decisions): how many games had each
    value there. A game's value at a point is its value after the last sample at or before it."""

    games: int = 0
    counts: dict[str, list[Counter[int]]] = field(default_factory=dict)

    def add_game(self, sampler: Sampler) -> None:
        length = max(sampler.decisions, 0)
        at = [d for d, _ in sampler.samples]
        for k in range(POINTS + 1):
            _, values = sampler.samples[bisect_right(at, k * length // POINTS) - 1]
            for name, value in values.items():
                self._point(name, k)[value] += 1
        self.games += 1

    def merge(self, other: Trajectories) -> None:
        """Add another chunk's counts (the names keep the order they were first seen in)."""
        for name, points in other.counts.items():
            for k, seen in enumerate(points):
                self._point(name, k).update(seen)
        self.games += other.games

    def _point(self, name: str, k: int) -> Counter[int]:
        points = self.counts.get(name)
        if points is None:
            points = self.counts[name] = [Counter() for _ in range(POINTS + 1)]
        return points[k]

    def names(self) -> list[str]:
        return list(self.counts)

    def mean(self, name: str) -> list[float]:
        return [_mean(seen) for seen in self.counts[name]]

    def quantile(self, name: str, q: float) -> list[float]:
        return [_quantile(seen, q) for seen in self.counts[name]]


def _mean(seen: Counter[int]) -> float:
    n = sum(seen.values())
    return sum(v * c for v, c in seen.items()) / n if n else math.nan


def _quantile(seen: Counter[int], q: float) -> float:
    """The smallest value that at least a share `q` of the counted games reach (nearest rank)."""
    n = sum(seen.values())
    if not n:
        return math.nan
    need = max(1, math.ceil(q * n))
    below = 0
    for value in sorted(seen):
        below += seen[value]
        if below >= need:
            return float(value)
    raise AssertionError("unreachable: the counts add up to n")


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share k/n (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    scale = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / scale
    half = z / scale * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # the interval holds p itself: rounding must not put a bound of 0 of n above 0
    return (min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


@dataclass
class Setting:
    """One configuration's games, as the charts need them: its options, the players' labels, who
    won, how long the games were, and the numbers' trajectories; with `ranked` (a game with
    results), each seat's returns and places too."""

    options: dict[str, int | bool | str]
    players: tuple[str, ...]
    games: int = 0
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    shared: int = 0  # games won by several players together
    ranked: bool = False  # the game has `results`: its returns and places are charted
    returns: list[float] = field(default_factory=list)  # each seat's returns, added up
    places: list[list[int]] = field(default_factory=list)  # [seat][place - 1]: how many games
    lengths: Counter[int] = field(default_factory=Counter)
    trajectories: Trajectories = field(default_factory=Trajectories)

    def __post_init__(self) -> None:
        n = len(self.players)
        if not self.wins:
            self.wins = [0] * n
        if not self.returns:
            self.returns = [0.0] * n
            self.places = [[0] * n for _ in range(n)]

    def add(
        self,
        outcomes: Sequence[tuple[int, int]],
        trajectories: Trajectories | None,
        finishes: Sequence[tuple[Sequence[int], Sequence[float]]] = (),
    ) -> None:
        """A chunk's games: (length, winner, -1 for a draw or -2 for a shared win) each, their
        trajectories, and each game's (places, returns) by seat."""
        for length, winner in outcomes:
            self.lengths[length] += 1
            if winner >= 0:
                self.wins[winner] += 1
            elif winner == -2:
                self.shared += 1
            else:
                self.draws += 1
            self.games += 1
        for ranks, returns in finishes:
            for p in range(len(self.players)):
                self.returns[p] += returns[p]
                self.places[p][ranks[p] - 1] += 1
        if trajectories is not None:
            self.trajectories.merge(trajectories)
