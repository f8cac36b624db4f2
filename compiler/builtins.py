"""The builtin functions of the rules language: one table that the checker and the lowerer read.

Each entry says how many arguments a builtin takes, whether it touches the game's random state
(so only a procedure may call it), and how the lowerer writes a call as Python. The checker types
each builtin in its own rule (check.py); a name in this table without a rule there, or a call the
lowerer cannot write, is an error at import or at compile time, never a silent default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final


@dataclass(frozen=True, slots=True)
class Builtin:
    """A builtin function of the rules language.

    `python` is a format string over the call's lowered arguments: `{0}`, `{1}` (positional),
    `{args}` (all, comma-separated), `{type0}` (the component-type constant of the first
    argument), `{zone0}` (the zone id the first argument names) and `{label0}` (the first
    argument as display text). `python_two_players` replaces it in a game of exactly two players.
    `optional`: how many more arguments it may take after its `arity` (`{args}` passes them).
    `reads_zones`: it reads where the components of its first argument's type are (a pile's
    contents or a grid's positions), which the read sets of cached functions must count
    (compiler/reads.py). `signature` and `doc` are what an editor shows on hover (rulewright/lsp).
    """

    name: str
    arity: int | None  # None: two or more
    chance: bool  # draws on the game's random state
    python: str
    python_two_players: str | None = None
    reads_zones: bool = False
    reuse: bool = False  # costly enough to compute once when an expression repeats it (lower/reuse.py)
    ascending: bool = False  # its list is ascending, without repeats (lower/order.py)
    optional: int = 0
    signature: str = ""  # as an editor shows it (`len(xs: list | zone) -> int`)
    doc: str = ""  # one line, from docs/dsl.md §4


_TABLE = (
    Builtin(
        "opponent",
        1,
        False,
        "s.opponent({0})",
        python_two_players="(1 - {0})",
        signature="opponent(p: player) -> player",
        doc="The other player. Two-player games only (a run-time error otherwise).",
    ),
    # seats, clockwise in the order of `players.names` (runtime/engine.py: none is a rule error)
    Builtin(
        "next_player",
        1,
        False,
        "s.next_player({0})",
        signature="next_player(p: player) -> player",
        doc="The next seat clockwise, wrapping around: the player on p's left.",
    ),
    Builtin(
        "previous_player",
        1,
        False,
        "s.previous_player({0})",
        signature="previous_player(p: player) -> player",
        doc="The previous seat, wrapping around: the player on p's right.",
    ),
    Builtin(
        "left_of",
        1,
        False,
        "s.left_of({0})",
        signature="left_of(p: player) -> player",
        doc="The player on p's left: the next seat clockwise, wrapping around.",
    ),
    Builtin(
        "right_of",
        1,
        False,
        "s.right_of({0})",
        signature="right_of(p: player) -> player",
        doc="The player on p's right: the previous seat, wrapping around.",
    ),
    Builtin(
        "next_in",
        2,
        False,
        "s.next_in({0}, {1})",
        reuse=True,
        signature="next_in(p: player, xs: list[player]) -> player",
        doc="The first player of xs after p clockwise, p itself last; none if xs holds no seated player.",
    ),
    Builtin(
        "previous_in",
        2,
        False,
        "s.previous_in({0}, {1})",
        reuse=True,
        signature="previous_in(p: player, xs: list[player]) -> player",
        doc="The first player of xs before p, going anticlockwise (to the right), p itself last.",
    ),
    Builtin(
        "seat_distance",
        2,
        False,
        "s.seat_distance({0}, {1})",
        signature="seat_distance(a: player, b: player) -> int",
        doc="How many seats clockwise from a to b: 0 to num_players - 1.",
    ),
    Builtin(
        "players_from",
        1,
        False,
        "s.players_from({args})",
        reuse=True,
        optional=1,
        signature="players_from(p: player[, xs: list[player]]) -> list[player]",
        doc="Every seated player in seat order, starting with p (with xs: only the players in xs).",
    ),
    Builtin(
        "len",
        1,
        False,
        "len({0})",
        signature="len(xs: list | zone) -> int",
        doc="The length of a list or zone.",
    ),
    Builtin(
        "abs",
        1,
        False,
        "abs({0})",
        signature="abs(n: int) -> int",
        doc="The absolute value.",
    ),
    Builtin(
        "min",
        None,
        False,
        "min({args})",
        signature="min(a: int, b: int, ...) -> int",
        doc="The smallest of two or more ints.",
    ),
    Builtin(
        "max",
        None,
        False,
        "max({args})",
        signature="max(a: int, b: int, ...) -> int",
        doc="The largest of two or more ints.",
    ),
    Builtin(
        "roll",
        1,
        True,
        "s.roll({0})",
        signature="roll(n: int) -> int",
        doc="A die roll from 1 to n, logged; only in statements (see misplaced-chance).",
    ),
    Builtin(
        "random",
        1,
        True,
        "s.pick({0})",
        signature="random(xs: list[T]) -> T",
        doc="A uniformly random element (a run-time error if xs is empty); only in statements.",
    ),
    Builtin(
        "empty",
        1,
        False,
        "(not {0})",
        reads_zones=True,
        signature="empty(z: zone) -> bool",
        doc="Whether a zone (named, or a zone value) holds nothing; a zone value that is none is empty.",
    ),
    Builtin(
        "top",
        1,
        False,
        "s.top({zone0})",
        reads_zones=True,
        signature="top(z: pile) -> component",
        doc="The top component of a pile (named, or a zone value), or none.",
    ),
    Builtin(
        "top_n",
        2,
        False,
        "s.top_n({zone0}, {1})",
        reads_zones=True,
        reuse=True,
        signature="top_n(z: pile, n: int) -> list[component]",
        doc="Up to n components from the top of a pile, topmost first (a copy).",
    ),
    Builtin(
        "range",
        2,
        False,
        "list(range({0}, {1}))",
        signature="range(a: int, b: int) -> list[int]",
        doc="The ints a, a+1, ..., b-1 (b is excluded).",
    ),
    Builtin(
        "cell",
        2,
        False,
        "s.cell({0}, {1})",
        signature="cell(x: int, y: int) -> cell",
        doc="A cell (a run-time error if it lies outside the grid's radius).",
    ),
    Builtin(
        "cell_of",
        1,
        False,
        "s.z.pos[{type0}][{0}]",
        reads_zones=True,
        signature="cell_of(c: component) -> cell",
        doc="The cell of a component on a grid, or none.",
    ),
    Builtin(
        "neighbors",
        1,
        False,
        "s.neighbors({type0}, {0})",
        reads_zones=True,
        reuse=True,
        signature="neighbors(c: component) -> list[component]",
        doc="The components in the 4 orthogonally adjacent cells of c's grid.",
    ),
    Builtin(
        "open_cells_around",
        1,
        False,
        "s.open_cells_around({type0}, {0})",
        reads_zones=True,
        reuse=True,
        ascending=True,
        signature="open_cells_around(xs: list[component]) -> list[cell]",
        doc="The empty cells orthogonally adjacent to any of xs, sorted.",
    ),
    Builtin(
        "adjacent",
        2,
        False,
        "s.adjacent({type0}, {0}, {1})",
        reads_zones=True,
        reuse=True,
        signature="adjacent(a: component, b: component) -> bool",
        doc="Whether a and b are orthogonal neighbours on the same grid.",
    ),
    Builtin(
        "label",
        1,
        False,
        "{label0}",
        signature="label(x) -> str",
        doc="The text that string interpolation would show for x.",
    ),
)

BUILTINS: Final[Mapping[str, Builtin]] = MappingProxyType({b.name: b for b in _TABLE})
