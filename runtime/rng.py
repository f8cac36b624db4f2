"""The state's random number generator: SplitMix64, one integer of state, the same in every process.

Scenarios can force the next die rolls, shuffle results (whole, or only the components drawn
first), and random picks; forced values are consumed first.
"""

from __future__ import annotations

import json
from types import FunctionType
from typing import Final

from runtime.native import i64
from runtime.text import clipped

MASK: Final = (1 << 64) - 1
# SplitMix64's increment and its two mixing multipliers (next64, and shuffle's inline copy of it)
GAMMA: Final = 0x9E3779B97F4A7C15
MIX1: Final = 0xBF58476D1CE4E5B9
MIX2: Final = 0x94D049BB133111EB
# A native build draws on mypyc's i64, which multiplies and adds modulo 2**64 (C's, with -fwrapv),
# where a Python integer above 2**62 is an object, each operation a new one (`_below`).
# Interpreted, i64 is int and never wraps: only a native build takes that path (`_NATIVE`).
TOP: Final = (1 << 63) - 1  # the largest i64
NATIVE_BELOW: Final = 1 << 62  # the ranges below draws natively (any a game has)


class Rng:
    """Seeded, serialisable, hash-order independent."""

    __slots__ = ("state", "forced_rolls", "forced_shuffles", "forced_draws", "forced_picks")

    def __init__(self, seed: int) -> None:
        self.state = (seed * GAMMA + 0x632BE59BD9B4E019) & MASK
        self.forced_rolls: list[int] = []
        self.forced_shuffles: list[list[int]] = []  # whole orders, bottom to top
        self.forced_draws: list[list[int]] = []  # the components a shuffle puts on top, top first
        self.forced_picks: list[int] = []  # the results of the next random picks

    def next64(self) -> int:
        self.state = z = (self.state + GAMMA) & MASK
        z = ((z ^ (z >> 30)) * MIX1) & MASK
        z = ((z ^ (z >> 27)) * MIX2) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform in 0..n-1, without modulo bias."""
        if n <= 0:
            raise ValueError("cannot draw from an empty range")
        if _NATIVE and n < NATIVE_BELOW:
            state, j = _below(_signed(self.state), n)
            self.state = _unsigned(state)
            return j
        limit = MASK - (MASK % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def roll(self, faces: int) -> int:
        if self.forced_rolls:
            v = self.forced_rolls.pop(0)
            if not 1 <= v <= faces:
                raise ValueError(f"forced roll {v} is not on a {faces}-sided die")
            return v
        return 1 + self.below(faces)

    def shuffle(self, items: list[int]) -> None:
        if self.forced_shuffles:
            order = self.forced_shuffles.pop(0)
            if sorted(order) != sorted(items):
                raise ValueError("a forced shuffle must hold exactly the shuffled components")
            items[:] = order
            return
        top: list[int] = []
        if self.forced_draws:
            top = self.forced_draws.pop(0)
            missing = [x for x in top if x not in items]
            if missing or len(set(top)) != len(top):
                raise ValueError("a forced draw must name distinct components of the shuffled pile")
            items[:] = [x for x in items if x not in top]
        if _NATIVE:
            self.state = _unsigned(_shuffled(_signed(self.state), items))
            items.extend(reversed(top))
            return
        # Fisher-Yates with `below(i + 1)` written out: the same draws, without two calls per item
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = MASK - (MASK % n)
            while True:
                state = z = (state + GAMMA) & MASK
                z = ((z ^ (z >> 30)) * MIX1) & MASK
                z = ((z ^ (z >> 27)) * MIX2) & MASK
                x = z ^ (z >> 31)
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        self.state = state
        items.extend(reversed(top))

    def pick(self, items: list[int] | tuple[int, ...]) -> int:
        """One of `items` at random (or the next forced pick, which must be among them)."""
        if self.forced_picks:
            v = self.forced_picks.pop(0)
            if v not in items:
                raise ValueError("a forced pick must be among the components picked from")
            return v
        return items[self.below(len(items))]

    def copy(self) -> Rng:
        r = Rng(0)
        r.state = self.state
        r.forced_rolls = self.forced_rolls[:]
        r.forced_shuffles = [x[:] for x in self.forced_shuffles]
        r.forced_draws = [x[:] for x in self.forced_draws]
        r.forced_picks = self.forced_picks[:]
        return r

    def to_data(self) -> list[object]:
        """[state, rolls, shuffles], and [draws, picks] after them only while any is forced."""
        data: list[object] = [self.state, self.forced_rolls, self.forced_shuffles]
        if self.forced_draws or self.forced_picks:
            data += [self.forced_draws, self.forced_picks]
        return data

    @classmethod
    def from_data(cls, d: object) -> Rng:
        """The generator `to_data` wrote; ValueError (naming the item) for anything else."""
        if type(d) is not list or len(d) not in (3, 5):
            raise ValueError(
                f"'rng' must be a list of 3 or 5 items (state, rolls, shuffles[, draws, picks]), not {_shown(d)}"
            )
        state, rolls, shuffles, *rest = d
        draws, picks = rest if rest else ([], [])
        if type(state) is not int or not 0 <= state <= MASK:
            raise ValueError(
                f"'rng[0]' (the generator's state) must be an integer from 0 to 2**64-1, not {_shown(state)}"
            )
        r = cls(0)
        r.state = state
        r.forced_rolls = _ints("rng[1]", "forced rolls", rolls, 1)
        r.forced_shuffles = [
            _ints(f"rng[2][{i}]", "a forced shuffle", x, 0) for i, x in enumerate(_list("rng[2]", shuffles))
        ]
        r.forced_draws = [
            _ints(f"rng[3][{i}]", "a forced draw", x, 0) for i, x in enumerate(_list("rng[3]", draws))
        ]
        r.forced_picks = _ints("rng[4]", "forced picks", picks, 0)
        if rest and not (r.forced_draws or r.forced_picks):
            raise ValueError("'rng' has forced draws and picks (items 3 and 4) only while one is forced")
        return r


# ---- the native draws: the same numbers as `next64`, `below` and `shuffle`, on i64 ---------------
# A state or a draw x (0 to 2**64-1) is held as its two's complement, x - 2**64 when above TOP.
# `below(n)` rejects the top (2**64 - 1) % n + 1 values of x: as i64, -1 - r <= x <= -1 where r
# is that remainder; otherwise its result is x % n, with x's lowest bit set aside (x >> 1 as i64
# is negative for x above TOP, so the logical shift is an arithmetic one masked).


def _signed(state: int) -> i64:
    return i64(state - (1 << 64)) if state > TOP else i64(state)


def _unsigned(state: i64) -> int:
    return int(state) + (1 << 64) if state < 0 else int(state)


def _below(state: i64, n: i64) -> tuple[i64, i64]:
    """One draw of `below(n)` from `state` (0 < n < 2**62): the state after it and the result."""
    # the constants made of halves: mypyc keeps a literal beyond 2**62 as an integer object, to be
    # converted at each use (a C compiler folds these products)
    half: i64 = 1 << 32
    top = 0x7FFFFFFF * half + 0xFFFFFFFF  # TOP
    gamma = -(0x61C88646 * half + 0x80B583EB)  # GAMMA - 2**64
    mix1 = -(0x40A7B892 * half + 0xE31B1A47)  # MIX1 - 2**64
    mix2 = -(0x6B2FB644 * half + 0xECCEEE15)  # MIX2 - 2**64
    r = (2 * (top % n) + 1) % n  # (2**64 - 1) % n
    while True:
        state = state + gamma
        z = state
        z = (z ^ ((z >> 30) & 0x3FFFFFFFF)) * mix1
        z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * mix2
        x = z ^ ((z >> 31) & 0x1FFFFFFFF)
        if x >= 0 or x < -1 - r:
            return state, (2 * (((x >> 1) & top) % n) + (x & 1)) % n


def _shuffled(state: i64, items: list[int]) -> i64:
    """Fisher-Yates of `items` in place, each draw `_below`'s: the state after it."""
    i: i64 = len(items) - 1
    while i > 0:
        state, j = _below(state, i + 1)
        items[i], items[j] = items[j], items[i]
        i -= 1
    return state


# Whether this module runs compiled (a native build): mypyc makes its functions builtins
_NATIVE: Final = not isinstance(_signed, FunctionType)


def _shown(value: object) -> str:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):  # not JSON at all (a value handed in from Python)
        text = repr(value)
    return clipped(text)


def _list(field: str, value: object) -> list[object]:
    if type(value) is not list:
        raise ValueError(f"'{field}' must be a list, not {_shown(value)}")
    return value


def _ints(field: str, what: str, value: object, lowest: int) -> list[int]:
    """A copy of a list of integers no lower than `lowest`."""
    out: list[int] = []
    for i, v in enumerate(_list(field, value)):
        if type(v) is not int or v < lowest:
            raise ValueError(f"'{field}[{i}]' ({what}) must be an integer from {lowest}, not {_shown(v)}")
        out.append(v)
    return out
