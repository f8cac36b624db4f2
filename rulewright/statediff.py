"""Two states of a game (of two builds of its engine) -> the first field that differs: its path,
named as the rules name it (`defcon`, `milops[US]`, `hand[US]`), and both values, short.

A state is read as its fields, in this order: the state variables (per player and per component
entries by the player's or the component's name, a component held by a variable by its name),
the zones (by instance, `hand[US]`, their contents by name), the lasting effects, who is to act,
how the game ended, the legal actions, and the random generator. Two engines compiled from
different specs may name different things; a field only one of them has differs too.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from runtime.engine import FULL_VIEW, GameState
from runtime.text import cut

MAX_SHOWN = 60  # a value longer than this is followed down to its first differing entry, or cut


@dataclass(frozen=True)
class FieldDifference:
    """The first field that differs between two states, and how many top-level fields do."""

    path: str
    old: str
    new: str
    fields: list[str]  # every top-level field that differs, the first one first
    note: str = ""  # for two long lists: the items only one of them holds

    def describe(self, old: str = "recorded", new: str = "now") -> str:
        text = f"{self.path}: {old} {self.old}, {new} {self.new}"
        if self.note:
            text += f" ({self.note})"
        if len(self.fields) > 1:
            others = ", ".join(self.fields[1:4]) + (", ..." if len(self.fields) > 4 else "")
            text += f"; {len(self.fields) - 1} more field(s) differ: {others}"
        return text


def fields(state: GameState) -> dict[str, object]:
    """The state as named fields (see the module's docstring), for comparison only."""
    info = state.INFO
    obs = state.observation(0, FULL_VIEW)
    out: dict[str, object] = {}
    variables = obs["variables"]
    assert isinstance(variables, dict)
    for name, value in variables.items():
        out[name] = _named_var(state, name, value)
    zones = obs["zones"]
    assert isinstance(zones, dict)
    out.update(zones)
    out["lasting effects"] = [f"{m}({', '.join(map(str, args))})" for m, args in obs["modifiers"]]  # type: ignore[attr-defined]
    player = state.current_player()
    names = info.player_names
    out["to act"] = names[player] if 0 <= player < len(names) else ("nobody" if player < 0 else str(player))
    out["result"] = (
        f"{state.reason or 'over'}, winner {names[state.winner] if 0 <= state.winner < len(names) else 'none'}"
        if state.over
        else "not over"
    )
    out["legal actions"] = [state.action_to_string(a) for a in state.legal_actions()]
    out["random generator"] = state.rng.state
    return out


def _named_var(state: GameState, name: str, value: object) -> object:
    """A variable's value with its indices and the components it holds by name."""
    info = state.INFO
    indices = info.var_indices.get(name, ())
    held = info.var_values.get(name)

    def entry(v: object) -> object:
        if held is not None and isinstance(v, int) and not isinstance(v, bool):
            labels = info.type_labels[held]
            return labels[v] if 0 <= v < len(labels) else "none"
        if isinstance(v, list):
            return [entry(x) for x in v]
        return v

    def walk(v: object, depth: int) -> object:
        if depth < len(indices) and isinstance(v, list):
            labels = info.type_labels[indices[depth]]
            if len(labels) == len(v):
                return {str(labels[i]): walk(x, depth + 1) for i, x in enumerate(v)}
            return [walk(x, depth + 1) for x in v]
        return entry(v)

    return walk(value, 0)


def first_difference(old: GameState, new: GameState) -> FieldDifference | None:
    """The first field in which the two states differ, or None when they agree in every field."""
    a, b = fields(old), fields(new)
    names = list(a) + [k for k in b if k not in a]
    differing = [k for k in names if a.get(k, _MISSING) != b.get(k, _MISSING)]
    if not differing:
        return None
    first = differing[0]
    path, x, y = _descend(first, a.get(first, _MISSING), b.get(first, _MISSING))
    if isinstance(x, list) and isinstance(y, list) and len(_text(x)) + len(_text(y)) > MAX_SHOWN:
        return FieldDifference(path, _count(x), _count(y), differing, _only(x, y))
    return FieldDifference(path, _shown(x), _shown(y), differing)


def _count(items: list[Any]) -> str:
    return f"{len(items)} item{'' if len(items) == 1 else 's'}"


def _only(x: list[Any], y: list[Any]) -> str:
    """What only one of two lists holds (as many times as it holds it more often), or that they
    hold the same in another order."""
    a, b = Counter(map(_text, x)), Counter(map(_text, y))
    parts = [
        f"only {which}: {_cut(', '.join((c - d).elements()))}"
        for which, c, d in (("recorded", a, b), ("now", b, a))
        if c - d
    ]
    return "; ".join(parts) or "the same items in another order"


def _cut(text: str) -> str:
    return cut(text, MAX_SHOWN, "…")


class _Missing:
    def __repr__(self) -> str:
        return "(no such field)"


_MISSING: Any = _Missing()


def _descend(path: str, x: object, y: object) -> tuple[str, object, object]:
    """The path and values to show: short values whole; long ones followed down to their first
    differing entry (a key of a mapping, an index of lists of one length)."""
    if len(_shown(x, cut=False)) <= MAX_SHOWN and len(_shown(y, cut=False)) <= MAX_SHOWN:
        return path, x, y
    if isinstance(x, dict) and isinstance(y, dict):
        for k in list(x) + [k for k in y if k not in x]:
            if x.get(k, _MISSING) != y.get(k, _MISSING):
                return _descend(f"{path}[{k}]", x.get(k, _MISSING), y.get(k, _MISSING))
    if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for i, (p, q) in enumerate(zip(x, y, strict=True)):
            if p != q:
                return _descend(f"{path}[{i}]", p, q)
    return path, x, y


def _shown(value: object, cut: bool = True) -> str:
    """A value as the rules write it, cut with an ellipsis when long."""
    text = _text(value)
    return text if not cut else _cut(text)


def _text(value: object) -> str:
    if value is _MISSING:
        return "(no such field)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_text(v)}" for k, v in value.items()) + "}"
    return str(value)
