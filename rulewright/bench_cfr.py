"""`rulewright bench GAME --cfr OTHER`: the CPU cost of one iteration of OpenSpiel's CFR on a
compiled game (through the OpenSpiel adapter, explicit chance) against OpenSpiel's game OTHER
(`python_kuhn_poker`, `kuhn_poker`, ...), in one process, the two alternating round by round.

Each round runs a fresh `cfr.CFRSolver` for `iterations` iterations on each side and times them by
CPU time; the report gives each side's median cost per iteration and the per-round ratios (median,
min-max) of ours to theirs."""

from __future__ import annotations

import importlib
import statistics
import time
from dataclasses import dataclass
from typing import Any

from runtime.game import UnknownGameError


class CfrUnavailable(Exception):
    """pyspiel is not installed, OTHER is not one of its games, or GAME is not a compiled game."""


@dataclass(frozen=True)
class CfrComparison:
    game: str
    other: str
    iterations: int
    ours: list[float]  # CPU seconds per iteration, one per round
    theirs: list[float]

    @property
    def ratios(self) -> list[float]:
        return [a / b for a, b in zip(self.ours, self.theirs, strict=True)]

    def report(self) -> str:
        r = self.ratios
        return (
            f"CFR ({self.iterations} iterations a round, {len(r)} rounds, CPU time)\n"
            f"  {'ours: ' + self.game:<36} {statistics.median(self.ours) * 1e3:9.2f} ms/iteration\n"
            f"  {'OpenSpiel: ' + self.other:<36} {statistics.median(self.theirs) * 1e3:9.2f} ms/iteration\n"
            f"  ratio (ours / theirs): {statistics.median(r):.2f}x (min {min(r):.2f}, max {max(r):.2f})"
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "other": self.other,
            "iterations": self.iterations,
            "ours_s_per_iteration": self.ours,
            "theirs_s_per_iteration": self.theirs,
            "ratios": self.ratios,
        }


def compare_cfr(game: str, other: str, rounds: int, iterations: int) -> CfrComparison:
    try:
        pyspiel = importlib.import_module("pyspiel")
        cfr = importlib.import_module("open_spiel.python.algorithms.cfr")
        importlib.import_module("open_spiel.python.games")  # registers OpenSpiel's Python games
        adapter = importlib.import_module("runtime.adapters.openspiel")
    except ImportError as exc:
        raise CfrUnavailable(f"--cfr needs OpenSpiel: pip install 'rulewright[rl]' ({exc})") from None
    if other not in pyspiel.registered_names():
        raise CfrUnavailable(f"OpenSpiel has no game '{other}' (e.g. python_kuhn_poker, kuhn_poker)")
    try:
        ours_game = pyspiel.load_game(adapter.register(game))
    except UnknownGameError as exc:
        raise CfrUnavailable(str(exc)) from None
    theirs_game = pyspiel.load_game(other)

    def per_iteration(g: Any) -> float:
        solver = cfr.CFRSolver(g)
        start = time.process_time()
        for _ in range(iterations):
            solver.evaluate_and_update_policy()
        return (time.process_time() - start) / iterations

    per_iteration(ours_game), per_iteration(theirs_game)  # warm both up: imports, first states
    ours: list[float] = []
    theirs: list[float] = []
    for k in range(rounds):
        if k % 2 == 0:
            ours.append(per_iteration(ours_game))
            theirs.append(per_iteration(theirs_game))
        else:
            theirs.append(per_iteration(theirs_game))
            ours.append(per_iteration(ours_game))
    return CfrComparison(game, other, iterations, ours, theirs)
