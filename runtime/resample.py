"""Resampling an information state: a game a player cannot tell from the real one, for search.

With explicit chance a game is its history: the chance outcomes and the players' actions from the
one initial state. `resample` replays that history, drawing afresh what `player` did not witness:
- each die roll and random pick whose outcome the player cannot tell from another (`Plan`: an
  outcome is *witnessed* when every other outcome would have changed what the player was told
  later, or made a later step impossible), drawn again with its probability;
- each secret answer of another player (a secret choice, a simultaneous answer not yet revealed),
  drawn among its options;
- and at the end, the components of the zones the player cannot see, dealt afresh among those
  zones (`runtime.contract.determinize`): draws from a shuffled pile are replayed as they were.
After each completed move the replay must tell `player` exactly what the real game told them (the
same observation, the same new lines of their log); a draw that breaks this is undone and the next
tried, depth first. So the player's own cards and dice, and every public roll, stay; the dice and
answers of others are drawn again.

The search is bounded (`budget` replayed steps): beyond it `resample` gives None and the caller
falls back to determinize alone. What the player learnt of hidden cards from the log (a card shown
then hidden again) is not conditioned on, as with determinize.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from runtime.contract import determinize
from runtime.engine import CHANCE, GameState, IllegalActionError

Told = tuple[str, tuple[str, ...]]  # a player's observation, and the log lines new to them


def told(state: GameState, player: int, since: int) -> Told:
    """What `player` is told in `state`: its observation and its log lines from line `since` on."""
    return state.observation_string(player), tuple(state.player_log(player, since))


@dataclass(frozen=True)
class Plan:
    """What `player` witnessed of a history: what it was told after each step (None while a move
    waits on chance), and which chance steps it witnessed (or that are draws, replayed as they
    were: their components are dealt afresh at the end)."""

    told: tuple[Told | None, ...]
    kept: tuple[bool, ...]

    @classmethod
    def of(cls, initial: GameState, history: Sequence[tuple[int, int]], player: int) -> Plan:
        states: list[GameState] = []
        seen: list[Told | None] = []
        s, since = initial.clone(), 0
        sinces: list[int] = []
        for _, action in history:
            states.append(s.clone())
            sinces.append(since)
            s.apply_action(action)
            if s.is_chance_node():
                seen.append(None)
            else:
                seen.append(told(s, player, since))
                since = len(s.lines)
        kept = []
        for i, (who, action) in enumerate(history):
            c = states[i].chance
            node = c.node if who == CHANCE and c is not None else None
            if node is None or node.kind == "draw":
                kept.append(node is not None)
                continue
            others = [o for o in node.outcomes if o != action]
            kept.append(all(_tells_apart(states[i], o, history, i, seen, sinces[i], player) for o in others))
        return cls(tuple(seen), tuple(kept))


def _tells_apart(
    state: GameState,
    outcome: int,
    history: Sequence[tuple[int, int]],
    i: int,
    seen: Sequence[Told | None],
    since: int,
    player: int,
) -> bool:
    """Would `player` notice if step i's chance outcome had been `outcome` (the rest of the
    history as it was)? Yes at the first step told differently, or that can no longer be taken."""
    s = state.clone()
    for k in range(i, len(history)):
        try:
            s.apply_action(outcome if k == i else history[k][1])
        except IllegalActionError:
            return True
        if not s.is_chance_node():
            if told(s, player, since) != seen[k]:
                return True
            since = len(s.lines)
    return False


def resample(
    initial: GameState,
    history: Sequence[tuple[int, int]],
    player: int,
    rnd: random.Random,
    plan: Plan | None = None,
    budget: int | None = None,
) -> GameState | None:
    """A state `player` cannot tell from the one `history` ((player or CHANCE, action) pairs)
    reaches from `initial` (explicit chance), or None if none was found within `budget` replayed
    steps. `plan` is `Plan.of(initial, history, player)`, if already known."""
    if plan is None:
        plan = Plan.of(initial, history, player)
    end = _replay(initial, history, player, rnd, plan, 200 + 20 * len(history) if budget is None else budget)
    return None if end is None else determinize(end, player, rnd)


def _replay(
    initial: GameState,
    history: Sequence[tuple[int, int]],
    player: int,
    rnd: random.Random,
    plan: Plan,
    budget: int,
) -> GameState | None:
    start = initial.clone()
    if not history:
        return start
    stack: list[tuple[GameState, int, int, Iterator[int]]] = [
        (start, 0, 0, _tries(start, history[0], plan.kept[0], player, rnd))
    ]
    replayed = 0
    while stack:
        s, i, since, tries = stack[-1]
        action = next(tries, None)
        if action is None:
            stack.pop()
            continue
        replayed += 1
        if replayed > budget:
            return None
        after = s.clone()
        after.apply_action(action)
        now = since
        if not after.is_chance_node():
            if told(after, player, since) != plan.told[i]:
                continue
            now = len(after.lines)
        if i + 1 == len(history):
            return after
        stack.append((after, i + 1, now, _tries(after, history[i + 1], plan.kept[i + 1], player, rnd)))
    return None


def _tries(
    state: GameState, step: tuple[int, int], kept: bool, player: int, rnd: random.Random
) -> Iterator[int]:
    """The actions to try at `state` for the real step `step`: an unwitnessed chance outcome in a
    random order weighted by the probabilities, another player's secret answer among its options,
    or the real action itself."""
    who, action = step
    if (who == CHANCE) != state.is_chance_node() or (who != CHANCE and state.current_player() != who):
        return iter(())  # the replay has left the shape of the real game
    legal = state.legal_actions()
    if who == CHANCE and not kept:
        # a weighted order without replacement (Efraimidis and Spirakis): key u ** (1 / p)
        keyed = sorted(
            ((rnd.random() ** (1.0 / p), o) for o, p in state.chance_outcomes() if p > 0), reverse=True
        )
        return iter([o for _, o in keyed])
    d = state.pending
    if who not in (player, CHANCE) and d is not None and d.secret:
        rnd.shuffle(legal)
        return iter(legal)
    return iter([action] if action in legal else [])
