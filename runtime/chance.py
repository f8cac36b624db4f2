"""Explicit chance: every die roll, random pick and draw from a shuffled pile as a chance node.

A game started with `chance="explicit"` has no hidden generator. When a move needs a random
outcome it does not have yet, the rule that asks for it raises `NeedChance` with the node (its
outcomes and their weights); the engine keeps the state as it was before the move and waits on
that chance node. Applying an outcome plays the move again from the start with the outcomes given
so far (the rules are deterministic given them), until it needs none more and completes. So a
move with k chance outcomes runs k + 1 times, and a state is always either at a player's decision
or at a chance node, with nothing half-done.

A shuffle is lazy. It marks the bottom of the pile as *unsettled*: its components are kept in
their canonical order (by index), and which of them lies on top is decided, one chance node per
component, only as components leave from the top (`top`, `top_n`, `deal`, a move from the top).
A 110-card deck is therefore 110 outcomes at its first draw, not 110! at its shuffle. Taking a
named component out of the unsettled part, or counting it, decides nothing. Reading its order
any other way (an index, `move ... to bottom`) settles the whole part first.

Outcome ids (what `chance_outcomes()` lists and `apply_action` takes):
- a roll of a die of `faces` faces: the face minus one (0 .. faces-1), each weighing 1;
- a draw: the drawn component's index among its type's components; for a type with identical
  copies, the index of the kind's first copy, weighing the copies of it left in the unsettled part;
- `random(xs)`: each distinct value of xs itself when all lie in 0 .. bound-1 (a component's
  index, a player, a small number), else its position among the sorted distinct values; a value
  weighs as often as it occurs in xs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

BEGIN = -1  # the move in flight is the game's setup (no player's action)
ROLL, DRAW, PICK = "roll", "draw", "pick"


class ChanceNode:
    """What a chance node offers: outcome ids (ascending, distinct) and their integer weights.
    `what` is the die's faces (a roll), the component type (a draw), or the distinct values
    the outcome ids stand for (a pick); `type` the type of a pick's values (components or
    players), or -1 for numbers."""

    __slots__ = ("kind", "outcomes", "weights", "what", "type")

    def __init__(
        self, kind: str, outcomes: tuple[int, ...], weights: tuple[int, ...], what: object, type: int = -1
    ) -> None:
        self.kind = kind
        self.outcomes = outcomes
        self.weights = weights
        self.what = what
        self.type = type

    def probabilities(self) -> list[tuple[int, float]]:
        total = sum(self.weights)
        return [(o, w / total) for o, w in zip(self.outcomes, self.weights, strict=True)]

    def exact(self) -> list[tuple[int, Fraction]]:
        total = sum(self.weights)
        return [(o, Fraction(w, total)) for o, w in zip(self.outcomes, self.weights, strict=True)]


class NeedChance(BaseException):
    """A rule needs a chance outcome that the move in flight has not been given yet. (A
    BaseException: no handler of the rules' own errors may catch it.)"""

    def __init__(self, node: ChanceNode) -> None:
        super().__init__(node.kind)
        self.node = node


class Chance:
    """The explicit-chance part of a state: the unsettled piles, and the move in flight with the
    outcomes given to it so far (while the state waits on a chance node)."""

    __slots__ = (
        "unsettled",
        "action",
        "decision",
        "given",
        "node",
        "used",
        "replaying",
        "moves",
        "twin",
        "twin_moves",
    )

    def __init__(self) -> None:
        self.unsettled: dict[int, int] = {}  # zone -> how many components at its bottom are unsettled
        self.action: int | None = None  # the move in flight: an action id, or BEGIN; None: none
        # what the move in flight answers: the engine's Decision (None for BEGIN). (Typed `object`:
        # this module may not import the engine, which imports it.)
        self.decision: object = None
        self.given: list[int] = []  # the outcomes given to the move in flight, in order
        self.node: ChanceNode | None = None  # the chance node the state waits on
        self.used = 0  # outcomes of `given` consumed by the move being replayed
        self.replaying = False  # a move is being played
        self.moves = 0  # moves played on this state (completed or waiting on a chance node)
        # a state this one is an untouched copy of, while it has played `twin_moves` moves: what
        # this state goes back to if its next move waits on a chance node, so that the move needs
        # no copy of its own (set by the OpenSpiel adapter's clone, whose next step is a move)
        self.twin: object = None  # (a GameState)
        self.twin_moves = 0

    def copy(self) -> Chance:
        c = Chance()
        c.unsettled = dict(self.unsettled)
        c.action, c.decision, c.given, c.node = self.action, self.decision, self.given[:], self.node
        c.moves = self.moves
        return c

    def outcome(self, node: ChanceNode) -> int:
        """The next outcome given to the move being replayed; NeedChance when there is none yet."""
        if self.used < len(self.given):
            o = self.given[self.used]
            self.used += 1
            if o not in node.outcomes:
                # a saved state's outcomes that do not fit the node they are replayed at
                raise ValueError(f"chance outcome {o} is not one of {list(node.outcomes)}")
            return o
        raise NeedChance(node)

    def to_data(self) -> dict[str, object]:
        data: dict[str, object] = {"unsettled": sorted([z, n] for z, n in self.unsettled.items())}
        if self.action is not None:
            data["move"] = [self.action, self.given]
        return data


def roll_node(faces: int) -> ChanceNode:
    return ChanceNode(ROLL, tuple(range(faces)), (1,) * faces, faces)


def draw_node(
    t: int, unsettled: Sequence[int], kinds: Sequence[int], first_copy: Mapping[int, int]
) -> ChanceNode:
    """The components a draw may take from a pile's unsettled part (canonical order)."""
    if not kinds:
        return ChanceNode(DRAW, tuple(unsettled), (1,) * len(unsettled), t)
    counts: dict[int, int] = {}
    for e in unsettled:
        k = first_copy[kinds[e]]
        counts[k] = counts.get(k, 0) + 1
    ids = tuple(sorted(counts))
    return ChanceNode(DRAW, ids, tuple(counts[k] for k in ids), t)


def pick_node(values: Sequence[int], bound: int, t: int = -1) -> ChanceNode:
    """`random(xs)`: the distinct values of xs, weighted by how often each occurs (of the type
    `t`, or -1 for numbers)."""
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    distinct = tuple(sorted(counts))
    weights = tuple(counts[v] for v in distinct)
    if distinct[0] >= 0 and distinct[-1] < bound:
        return ChanceNode(PICK, distinct, weights, distinct, t)
    return ChanceNode(PICK, tuple(range(len(distinct))), weights, distinct, t)


def picked(node: ChanceNode, outcome: int) -> int:
    """The value a pick's outcome id stands for."""
    values = node.what
    assert isinstance(values, tuple)
    return outcome if node.outcomes == values else int(values[outcome])
