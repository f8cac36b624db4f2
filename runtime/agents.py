"""Agents that choose actions: random (seeded), greedy (one ply on the spec's evaluation), first
legal, a human at the terminal (runtime/terminal.py), and OpenSpiel's MCTS (`mcts` or
`mcts:SIMULATIONS`, with the rl extra installed)."""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Protocol

from runtime.rng import Rng
from runtime.terminal import HumanAgent
from runtime.text import cut

if TYPE_CHECKING:
    from runtime.engine import GameState

# ASCII digits only: str.isdigit() also accepts '²', which int() refuses; 9 digits bound a budget
_DECIMAL = re.compile(r"[0-9]{1,9}")


class Agent(Protocol):
    """Anything that picks one of the state's legal actions."""

    def choose(self, state: GameState) -> int:
        """One of `state.legal_actions()`, for the player to move; the state is left as it was."""
        ...


class RandomAgent:
    """Uniform over legal actions, from its own seeded generator (so games repeat)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState) -> int:
        return self.rng.choice(state.legal_actions())


class GreedyAgent:
    """One ply ahead: tries each legal action on a clone and keeps the best by the spec's evaluation.

    A clone whose game ended scores `WIN` times its `returns()` for the player to move; any other is
    scored by `INFO.evaluate(clone, player)`. Ties go to the agent's own seeded generator, so games
    repeat. Each clone rolls and shuffles from a fresh seed of that generator, so the agent does not
    learn how the game's own dice will fall (it does see hidden zones if the evaluation reads them),
    nor the answers other players gave to a simultaneous decision (it guesses them at random).
    Without an evaluation it plays like `RandomAgent`.
    """

    WIN = 1_000_000_000

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState) -> int:
        legal = state.legal_actions()
        evaluate = state.INFO.evaluate
        if evaluate is None or len(legal) == 1:
            return self.rng.choice(legal)
        player = state.current_player()
        d = state.simultaneous()
        if d is not None:  # not the answers others gave already: a guess at them
            state = state.clone()
            state.pending = d.guessed(player, self.rng.choice)
        best: list[int] = []
        top = 0
        for action in legal:
            after = state.clone()
            after.rng = Rng(self.rng.getrandbits(64))
            after.apply_action(action)
            if after.is_terminal():
                score = round(self.WIN * after.returns()[player])
            else:
                score = evaluate(after, player)
            if not best or score > top:
                best, top = [action], score
            elif score == top:
                best.append(action)
        return self.rng.choice(best)


class FirstAgent:
    """Always the lowest legal action id: deterministic, for smoke tests."""

    def choose(self, state: GameState) -> int:
        return state.legal_actions()[0]


AGENTS = ("random", "greedy", "mcts", "first", "human")  # the kinds make_agent knows
MCTS_SIMULATIONS = 100  # the default budget of `mcts`


def check_agent(kind: str) -> None:
    """Raise ValueError for an agent kind that make_agent would not know."""
    name, _, budget = kind.partition(":")
    if name not in AGENTS or (
        budget and (name != "mcts" or not _DECIMAL.fullmatch(budget) or int(budget) < 1)
    ):
        raise ValueError(
            f"unknown agent '{cut(kind)}' (agents: {', '.join(AGENTS)}; mcts:N for N simulations)"
        )


def make_agent(kind: str, seed: int) -> Agent:
    """A new agent of one of the AGENTS kinds (`mcts:N` for N simulations), seeded with `seed`;
    ValueError for an unknown kind, or for `mcts` without OpenSpiel."""
    check_agent(kind)
    if kind.startswith("mcts"):
        try:
            from runtime.adapters.openspiel import MCTSAgent
        except ImportError as exc:
            raise ValueError(f"the mcts agent needs OpenSpiel: pip install -e '.[rl]' ({exc})") from None
        _, _, budget = kind.partition(":")
        return MCTSAgent(seed, int(budget) if budget else MCTS_SIMULATIONS)
    if kind == "random":
        return RandomAgent(seed)
    if kind == "greedy":
        return GreedyAgent(seed)
    if kind == "first":
        return FirstAgent()
    if kind == "human":
        return HumanAgent()
    raise ValueError(f"unknown agent '{kind}' (agents: {', '.join(AGENTS)})")
