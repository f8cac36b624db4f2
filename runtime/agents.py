"""Agents that choose actions: random (seeded), first legal, and a human at the terminal."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import Protocol

from runtime.engine import GameState


class Agent(Protocol):
    """Anything that picks one of the state's legal actions."""

    def choose(self, state: GameState) -> int: ...


class RandomAgent:
    """Uniform over legal actions, from its own seeded generator (so games repeat)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState) -> int:
        return self.rng.choice(state.legal_actions())


class FirstAgent:
    """Always the lowest legal action id: deterministic, for smoke tests."""

    def choose(self, state: GameState) -> int:
        return state.legal_actions()[0]


class HumanAgent:
    """Prints the numbered legal actions and reads a choice from the terminal."""

    def __init__(self, read: Callable[[str], str] | None = None) -> None:
        self.read = read if read is not None else (lambda prompt: input(prompt))

    def choose(self, state: GameState) -> int:
        from runtime.view import describe

        legal = state.legal_actions()
        d = state.pending
        who = state.INFO.player_names[state.current_player()]
        print()
        print(describe(state, state.current_player()))
        print(f"\n{who}, {d.prompt if d and d.prompt else 'choose'}:")
        for i, a in enumerate(legal, 1):
            print(f"  {i:>3}. {state.action_to_string(a)}")
        while True:
            try:
                text = self.read("> ").strip()
            except EOFError:
                sys.exit("\nno more input: game abandoned")
            if text.isdigit() and 1 <= int(text) <= len(legal):
                return legal[int(text) - 1]
            for a in legal:
                if state.action_to_string(a).lower() == text.lower():
                    return a
            print(f"  type a number from 1 to {len(legal)}, or an action's name")


AGENTS = ("random", "first", "human")


def make_agent(kind: str, seed: int) -> Agent:
    if kind == "random":
        return RandomAgent(seed)
    if kind == "first":
        return FirstAgent()
    if kind == "human":
        return HumanAgent()
    raise ValueError(f"unknown agent '{kind}' (agents: {', '.join(AGENTS)})")
