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
    (compiler/reads.py).
    """

    name: str
    arity: int | None  # None: two or more
    chance: bool  # draws on the game's random state
    python: str
    python_two_players: str | None = None
    reads_zones: bool = False
    reuse: bool = False  # costly enough to compute once when an expression repeats it (lower/reuse.py)
    optional: int = 0


_TABLE = (
    Builtin("opponent", 1, False, "s.opponent({0})", python_two_players="(1 - {0})"),
    # seats, clockwise in the order of `players.names` (runtime/engine.py: none is a rule error)
    Builtin("next_player", 1, False, "s.next_player({0})"),
    Builtin("previous_player", 1, False, "s.previous_player({0})"),
    Builtin("left_of", 1, False, "s.left_of({0})"),
    Builtin("right_of", 1, False, "s.right_of({0})"),
    Builtin("next_in", 2, False, "s.next_in({0}, {1})", reuse=True),
    Builtin("previous_in", 2, False, "s.previous_in({0}, {1})", reuse=True),
    Builtin("seat_distance", 2, False, "s.seat_distance({0}, {1})"),
    Builtin("players_from", 1, False, "s.players_from({args})", reuse=True, optional=1),
    Builtin("len", 1, False, "len({0})"),
    Builtin("abs", 1, False, "abs({0})"),
    Builtin("min", None, False, "min({args})"),
    Builtin("max", None, False, "max({args})"),
    Builtin("roll", 1, True, "s.roll({0})"),
    Builtin("random", 1, True, "s.pick({0})"),
    Builtin("empty", 1, False, "(not {0})", reads_zones=True),
    Builtin("top", 1, False, "s.top({zone0})", reads_zones=True),
    Builtin("top_n", 2, False, "s.top_n({zone0}, {1})", reads_zones=True, reuse=True),
    Builtin("range", 2, False, "list(range({0}, {1}))"),
    Builtin("cell", 2, False, "s.cell({0}, {1})"),
    Builtin("cell_of", 1, False, "s.z.pos[{type0}][{0}]", reads_zones=True),
    Builtin("neighbors", 1, False, "s.neighbors({type0}, {0})", reads_zones=True, reuse=True),
    Builtin("open_cells_around", 1, False, "s.open_cells_around({type0}, {0})", reads_zones=True, reuse=True),
    Builtin("adjacent", 2, False, "s.adjacent({type0}, {0}, {1})", reads_zones=True, reuse=True),
    Builtin("label", 1, False, "{label0}"),
)

BUILTINS: Final[Mapping[str, Builtin]] = MappingProxyType({b.name: b for b in _TABLE})
