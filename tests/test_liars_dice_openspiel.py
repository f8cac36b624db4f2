"""Our Liar's Dice is OpenSpiel's own `liars_dice`: stepped in lockstep, the two games roll the same
dice, ask the same player for the same calls, show each player the same information and end with
the same returns.

Compared at every node reached:
- the dice: OpenSpiel rolls each die at a chance node, player 0's dice first, each face 1/sides;
  ours, started with explicit chance, picks each die's face at random from the faces in play
  (`random(faces())`), a chance node each, in the same order. Both offer the same outcomes with the
  same probabilities: our outcome is the face's index among the face components, its pips less
  one, which is OpenSpiel's outcome id (its "Roll 5" is our face "5", outcome 4). Both are given
  the same outcomes;
- at each decision, the same player to act and the same legal calls, matched by label (ours "two
  5s" is OpenSpiel's "2-5", "Liar" is "Liar"); a call is applied to both;
- at the end, the same returns (+1 to the winner, -1 to the loser);
- the information states: for each player, ours (the `information_state_string` of our OpenSpiel
  adapter, `rulewright_liars_dice`) are equal exactly when OpenSpiel's are, over every node of the
  walks below, at every decision. At the end ours are finer: once Liar is called every die is shown
  (the rules), which OpenSpiel's string leaves out, so there two equal strings of ours need only
  equal strings of theirs. (At the chance nodes of the roll ours are coarser: our rolls are one
  move, the setup, and a chance node shows the state before the move, so no die shows before the
  last is rolled; OpenSpiel shows player 0 her dice while player 1 rolls. Not compared there.)

The walks: every roll and every bid sequence of the game with one three-sided die each; for the
default game (one six-sided die each), every roll with the same 12 random bid sequences (so that
states differing only in the other player's die are compared); two two-sided dice each under the
other bidding rule, every order of rolls with 6 random bid sequences. Then what a researcher runs:
OpenSpiel's CFR and best response, through our adapter and on OpenSpiel's game.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest

from runtime import load_game
from runtime.engine import GameState

pyspiel = pytest.importorskip("pyspiel")
openspiel = pytest.importorskip("runtime.adapters.openspiel")

WORDS = {w: n for n, w in enumerate("one two three four five six seven eight nine ten".split(), 1)}
RULES = {"reset_face": "reset-face", "reset_quantity": "reset-quantity"}


def their_label(label: str) -> str:
    """Our call's label as OpenSpiel writes it: "two 5s" -> "2-5"; "Liar" stays."""
    if label == "Liar":
        return label
    number, face = label.split()
    return f"{WORDS[number]}-{face.rstrip('s')}"


class Pair:
    """One game of each, our options and OpenSpiel's parameters alike, and the information states
    seen at each node: player -> [(ours, theirs, terminal)]."""

    def __init__(self, dice: int, sides: int, bidding: str) -> None:
        options = {"dice": dice, "sides": sides, "bidding": bidding}
        self.ours = load_game("liars_dice", options)
        self.adapter = pyspiel.load_game("rulewright_liars_dice", options)
        self.theirs = pyspiel.load_game(
            "liars_dice", {"numdice": dice, "dice_sides": sides, "bidding_rule": RULES[bidding]}
        )
        self.sides, self.total = sides, 2 * dice
        self.seen: dict[int, list[tuple[str, str, bool]]] = {0: [], 1: []}

    def rolled(self, faces: tuple[int, ...]) -> tuple[GameState, Any]:
        """Both games after the dice rolled: `faces` (the outcomes: pips less one), player 0's dice
        first, each at a chance node of both that offers every face at 1/sides."""
        ours, theirs = self.ours.new_initial_state(chance="explicit"), self.theirs.new_initial_state()
        uniform = [(v, 1 / self.sides) for v in range(self.sides)]
        for f in faces:
            assert theirs.is_chance_node() and ours.is_chance_node()
            assert ours.current_player() == theirs.current_player() == pyspiel.PlayerId.CHANCE
            assert ours.chance_outcomes() == theirs.chance_outcomes() == uniform
            assert ours.legal_actions() == theirs.legal_actions()
            ours.apply_action(f)
            theirs.apply_action(f)
        assert not ours.is_chance_node() and not theirs.is_chance_node()
        return ours, theirs

    def calls(self, ours: GameState, theirs: Any) -> dict[int, int]:
        """At a node of both: the same information kept, the same player to act and the same calls;
        OpenSpiel's legal action -> ours. At the end: the same returns, and {}."""
        terminal = theirs.is_terminal()
        for p in (0, 1):
            mine = openspiel.from_engine(ours, self.adapter).information_state_string(p)
            self.seen[p].append((mine, theirs.information_state_string(p), terminal))
        assert ours.is_terminal() == terminal, str(theirs)
        if terminal:
            assert ours.returns() == theirs.returns(), str(theirs)
            return {}
        assert ours.current_player() == theirs.current_player(), str(theirs)
        labels = {their_label(ours.action_to_string(a)): a for a in ours.legal_actions()}
        legal = theirs.legal_actions()
        assert sorted(labels) == sorted(theirs.action_to_string(a) for a in legal), str(theirs)
        return {a: labels[theirs.action_to_string(a)] for a in legal}

    def walk(self, ours: GameState, theirs: Any) -> int:
        """Every call sequence from here, both games together; the number of games played out."""
        calls = self.calls(ours, theirs)
        played = 0 if calls else 1
        for a, mine in calls.items():
            o, t = ours.clone(), theirs.clone()
            o.apply_action(mine)
            t.apply_action(a)
            played += self.walk(o, t)
        return played

    def play(self, ours: GameState, theirs: Any, choices: list[int]) -> None:
        """One call sequence: at the k-th decision the call `choices[k]` modulo the calls offered."""
        for k in itertools.count():
            calls = self.calls(ours, theirs)
            if not calls:
                return
            a = sorted(calls)[choices[k] % len(calls)]
            ours.apply_action(calls[a])
            theirs.apply_action(a)

    def rolls(self) -> Iterator[tuple[int, ...]]:
        return itertools.product(range(self.sides), repeat=self.total)

    def check_grouping(self) -> None:
        """For each player: our information states and OpenSpiel's part the nodes alike (before the
        end); at the end ours part them at least as finely (the dice are shown there)."""
        for p, seen in self.seen.items():
            theirs_of: dict[str, str] = {}
            ours_of: dict[str, str] = {}
            for mine, theirs, terminal in seen:
                assert theirs_of.setdefault(mine, theirs) == theirs, f"player {p}: {mine!r}"
                if not terminal:
                    assert ours_of.setdefault(theirs, mine) == mine, f"player {p}: {theirs!r}"
            assert len(ours_of) > 1


def test_every_roll_and_call_sequence_of_one_three_sided_die_each() -> None:
    pair = Pair(1, 3, "reset_face")
    games = sum(pair.walk(*pair.rolled(faces)) for faces in pair.rolls())
    assert games == 9 * (2**6 - 1)  # any rising sequence of the 6 bids, then Liar
    pair.check_grouping()


@pytest.mark.parametrize(
    ("dice", "sides", "bidding", "sequences"), [(1, 6, "reset_face", 12), (2, 2, "reset_quantity", 6)]
)
def test_every_roll_with_random_call_sequences(dice: int, sides: int, bidding: str, sequences: int) -> None:
    pair = Pair(dice, sides, bidding)
    rng = random.Random(dice * 10 + sides)
    choices = [[rng.randrange(1000) for _ in range(pair.total * sides + 1)] for _ in range(sequences)]
    for faces in pair.rolls():
        for c in choices:
            pair.play(*pair.rolled(faces), c)
    pair.check_grouping()


def test_the_adapter_game_declares_what_openspiels_does() -> None:
    ours, theirs = pyspiel.load_game("rulewright_liars_dice"), pyspiel.load_game("liars_dice")
    assert ours.num_players() == theirs.num_players() == 2
    assert (ours.min_utility(), ours.max_utility()) == (theirs.min_utility(), theirs.max_utility()) == (-1, 1)
    kinds = [
        (g.get_type().utility, g.get_type().chance_mode, g.get_type().information) for g in (ours, theirs)
    ]
    assert (
        kinds[0]
        == kinds[1]
        == (
            pyspiel.GameType.Utility.ZERO_SUM,
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        )
    )


def test_openspiels_cfr_finds_the_same_policies() -> None:
    """What a researcher runs, through our adapter: OpenSpiel's CFR keys its tables by information
    state and walks the chance nodes, and its best response groups the states by information state
    too. On the game of one two-sided die each, 5 iterations reach the same average policy on both
    games: the same exploitability and the same value, as does the uniform policy."""
    from open_spiel.python import policy
    from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

    results = []
    for game in (
        pyspiel.load_game("rulewright_liars_dice", {"sides": 2}),
        pyspiel.load_game("liars_dice", {"dice_sides": 2}),
    ):
        uniform = policy.UniformRandomPolicy(game)
        solver = cfr.CFRSolver(game)
        for _ in range(5):
            solver.evaluate_and_update_policy()
        average = solver.average_policy()
        values = [
            expected_game_score.policy_value(game.new_initial_state(), [p, p])[0] for p in (uniform, average)
        ]
        gaps = [exploitability.exploitability(game, p) for p in (uniform, average)]
        results.append([*values, *gaps])
    assert results[0] == pytest.approx(results[1], abs=1e-12)
    assert results[1][0] == pytest.approx(0.125) and results[1][2] == pytest.approx(0.5625)
