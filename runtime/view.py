"""A text view of what one player sees: variables, zones, and grid zones drawn as a map.

Built only from `observation(player)` and the game's static info, so it never shows hidden things.
"""

from __future__ import annotations

from runtime.engine import GameState, cell_xy


def _label_of_index(state: GameState, type_index: int, i: int) -> str:
    info = state.INFO
    if type_index < len(info.type_labels):
        labels = info.type_labels[type_index]
        return labels[i] if i < len(labels) else str(i)
    return str(i)


def _shown(state: GameState, value: object, held: int | None) -> object:
    """A value as a player reads it: an entity (or a list of them) by its label, not its index."""
    if held is None:
        return value
    if isinstance(value, list):
        return "[" + ", ".join(str(_shown(state, v, held)) for v in value) + "]"
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return _label_of_index(state, held, value)
    return value


def _flatten(
    state: GameState,
    name: str,
    value: object,
    indices: tuple[int, ...],
    prefix: str = "",
    held: int | None = None,
) -> list[str]:
    """`<row>, <player> = 1` style entries for the set entries of an indexed variable (an entity
    value is set unless it is none: the first entity is index 0)."""
    if not indices:
        unset = value is None or value is False or value == [] or (isinstance(value, int) and value == -1)
        if unset or (value == 0 and held is None):
            return []
        return [f"{prefix} = {_shown(state, value, held)}"]
    if not isinstance(value, list):
        return []
    out: list[str] = []
    for i, v in enumerate(value):
        label = _label_of_index(state, indices[0], i)
        out += _flatten(state, name, v, indices[1:], f"{prefix}{', ' if prefix else ''}{label}", held)
    return out


def describe(state: GameState, player: int) -> str:
    info = state.INFO
    obs = state.observation(player)
    lines = [f"--- {info.title}: what {info.player_names[player]} sees ---"]
    variables = obs["variables"]
    assert isinstance(variables, dict)
    scalars = [
        f"{k}: {_shown(state, v, info.var_values.get(k))}"
        for k, v in variables.items()
        if k not in info.var_indices
    ]
    if scalars:
        lines.append("  " + "   ".join(scalars))
    for name, idx in info.var_indices.items():
        entries = _flatten(state, name, variables.get(name), idx, held=info.var_values.get(name))
        if entries:
            shown = "; ".join(e.strip() for e in entries)
            lines.append(f"  {name}: {shown}")
    zones = obs["zones"]
    assert isinstance(zones, dict)
    for key, content in zones.items():
        if isinstance(content, dict) and "count" in content:
            if content["count"]:
                lines.append(f"  {key}: {content['count']} face down")
        elif isinstance(content, dict):
            lines += _grid(key, {str(k): tuple(v) for k, v in content.items()})
        elif content:
            lines.append(f"  {key}: {', '.join(map(str, content))}")
    return "\n".join(lines)


def _grid(name: str, placed: dict[str, tuple[int, int]]) -> list[str]:
    if not placed:
        return [f"  {name}: empty"]
    xs = [x for x, _ in placed.values()]
    ys = [y for _, y in placed.values()]
    at = {xy: label for label, xy in placed.items()}
    width = max(8, min(14, max(len(k) for k in placed) + 1))
    head = "  " + " " * 5 + "".join(f"{x:^{width}}" for x in range(min(xs), max(xs) + 1))
    out = [f"  {name}:", head]
    for y in range(max(ys), min(ys) - 1, -1):
        row = "".join(f"{at.get((x, y), '.')[: width - 1]:^{width}}" for x in range(min(xs), max(xs) + 1))
        out.append(f"  {y:>4} {row}")
    return out


__all__ = ["cell_xy", "describe"]
