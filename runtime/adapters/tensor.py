"""A fixed-size numeric encoding of a player's observation, for learning tools.

It is built from `GameState.observation(player)`, so it hides exactly what that observation
hides. The layout, fixed per game and player count:

* whose turn: one-hot over the players, then 1 if the game is over;
* each zone: for a zone the player sees, 1 per component of the zone's type that is in it (and,
  for a grid, the component's x and y); for a hidden zone, only its size. A type with identical
  copies (`copies: N` rows) has a count per kind instead (how many copies of it are in the zone),
  and on a grid its copies' x and y in the slots of its copies, in cell order;
* each state variable, flattened (booleans as 0/1, `none` as -1), padded or cut to the length it
  has at the start of the game (only list-valued variables change length);
* each modifier: how many are active.

The same layout encodes the public view (what every player sees: every zone but the public ones
as its size, no one's private variables) and the full view (everything), of
`GameState.observation(player, view)`.

The information state (InformationStateEncoder) is that encoding followed by the observing
player, one-hot over the players, and then, for each player in turn, how many times they took
each action id, as far as the observer was told: a secret choice counts only for the player who
made it (and in the full view), a simultaneous answer once it is revealed.
"""

from __future__ import annotations

import numpy as np

from runtime.engine import CHOSE, CHOSE_SECRETLY, FULL_VIEW, PLAYER_VIEW, PUBLIC_VIEW, REVEALED, GameState


def _leaves(value: object) -> list[float]:
    """The numbers of a value, depth first (a dict's in the order of its keys; `none` as -1; a
    text has none)."""
    out: list[float] = []
    _flatten(value, out)
    return out


def _flatten(value: object, out: list[float]) -> None:
    if isinstance(value, list | tuple):
        for v in value:  # (a list of numbers, the common case, without a call per item)
            t = type(v)
            if t is int or t is bool or t is float:
                out.append(float(v))
            elif v is None:
                out.append(-1.0)
            else:
                _flatten(v, out)
    elif isinstance(value, dict):
        for k in sorted(value):
            _flatten(value[k], out)
    elif value is None:
        out.append(-1.0)
    elif isinstance(value, bool | int | float):
        out.append(float(value))


class Encoder:
    """Observation -> float32 vector of a fixed size (`size`) for one game and player count."""

    def __init__(self, start: GameState) -> None:
        info = start.INFO
        self.players = start.num_players
        self.labels = [{label: i for i, label in enumerate(labels)} for labels in info.type_labels]
        # a type with copies: each kind's label -> its index among the kinds, and its first copy
        self.kinds: list[dict[str, int]] = []
        self.firsts: list[dict[str, int]] = []
        for t, labels in enumerate(info.type_labels):
            of_type = info.kinds_of(t) if info.type_kinds else ()
            self.kinds.append({labels[e]: k for e, k in reversed(list(enumerate(of_type)))})
            self.firsts.append({labels[e]: e for e in reversed(range(len(of_type)))})
        self.modifiers = {name: i for i, name in enumerate(info.modifiers)}
        obs = start.observation(0)
        variables = obs["variables"]
        assert isinstance(variables, dict)
        self.var_sizes = {name: len(_leaves(v)) for name, v in sorted(variables.items())}
        self.keys = [z.key(info.player_names) for z in info.zones]
        self.rows = [len(set(k.values())) for k in self.kinds]  # a type's kinds (0: no copies)
        zones = 0
        for z in info.zones:
            n = len(info.type_labels[z.type_index])
            rows = len(set(self.kinds[z.type_index].values()))  # 0: a type without copies
            zones += 3 * n if z.kind == "grid" else (rows or n)
        self.size = self.players + 1 + zones + sum(self.var_sizes.values()) + len(self.modifiers)

    def encode(self, state: GameState, player: int, view: str = PLAYER_VIEW) -> np.ndarray:
        # the few places set are gathered in lists and written to the array at once (setting a
        # numpy array's items one by one costs several times as much)
        out = np.zeros(self.size, np.float32)
        at: list[int] = []  # each place to set, and its value (a place set twice adds up)
        values_at: list[float] = []
        obs = state.observation(player, view)
        info = state.INFO
        sim = state.simultaneous()  # every player still to answer one is to act (who has answered is public)
        for cur in sim.waiting() if sim is not None else (state.current_player(),):
            if 0 <= cur < self.players:
                at.append(cur)
                values_at.append(1.0)
        if state.is_terminal():
            at.append(self.players)
            values_at.append(1.0)
        i = self.players + 1
        zones = obs["zones"]
        assert isinstance(zones, dict)
        for z, key in zip(info.zones, self.keys, strict=True):
            content = zones[key]
            index = self.labels[z.type_index]
            n = len(index)
            kinds = self.kinds[z.type_index]
            grid = z.kind == "grid"
            if isinstance(content, dict) and "count" in content and len(content) == 1:
                at.append(i)  # hidden: only its size
                values_at.append(float(content["count"]))
            elif kinds and isinstance(content, dict):  # a grid the player sees: label -> its copies' [x, y]
                for label, cells in content.items():
                    first = self.firsts[z.type_index][label]
                    for j, (x, y) in enumerate(cells):
                        at += (i + kinds[label], i + n + 2 * (first + j), i + n + 2 * (first + j) + 1)
                        values_at += (1.0, float(x), float(y))
            elif kinds:  # a count per kind
                assert isinstance(content, list)
                at += [i + kinds[label] for label in content]
                values_at += [1.0] * len(content)
            elif isinstance(content, dict):  # a grid the player sees: label -> [x, y]
                for label, (x, y) in content.items():
                    k = index[label]
                    at += (i + k, i + n + 2 * k, i + n + 2 * k + 1)
                    values_at += (1.0, float(x), float(y))
            else:
                assert isinstance(content, list)
                at += [i + index[label] for label in content]
                values_at += [1.0] * len(content)
            i += 3 * n if grid else (self.rows[z.type_index] if kinds else n)
        variables = obs["variables"]
        assert isinstance(variables, dict)
        for name, size in self.var_sizes.items():
            value = variables[name]
            try:  # a number, or a rectangular list of them: numpy flattens it depth first
                values: np.ndarray | list[float] = np.asarray(value, dtype=np.float32).ravel()[:size]
                values[np.isnan(values)] = -1.0  # (`none`)
            except (TypeError, ValueError):  # a dict, a ragged list...
                values = _leaves(value)[:size]
            out[i : i + len(values)] = values
            i += size
        mods = obs["modifiers"]
        assert isinstance(mods, list)
        for name, _ in mods:
            at.append(i + self.modifiers[name])
            values_at.append(1.0)
        np.add.at(out, at, values_at)
        return out


class InformationStateEncoder:
    """A player's information state -> float32 vector of a fixed size (`size`): the observation's
    encoding, the observer one-hot, and each player's count of each action id they were seen to
    take (see the module's docstring)."""

    def __init__(self, encoder: Encoder, actions: int) -> None:
        self.encoder = encoder
        self.actions = actions
        self.size = encoder.size + encoder.players * (1 + actions)

    def encode(self, state: GameState, player: int, view: str = PLAYER_VIEW) -> np.ndarray:
        enc = self.encoder
        out = np.zeros(self.size, np.float32)
        out[: enc.size] = enc.encode(state, player, view)
        out[enc.size + player] = 1.0
        counts = enc.size + enc.players
        n = self.actions
        for line in state.lines.lines():
            code = line[0]
            if (code == CHOSE or code == CHOSE_SECRETLY) and line[1] < 0:
                continue  # (not a player's choice)
            if code == CHOSE or (code == CHOSE_SECRETLY and (view == FULL_VIEW or line[1] == player)):
                out[counts + line[1] * n + line[2]] += 1.0
            elif code == REVEALED and view != FULL_VIEW:  # (the full view counted every answer)
                for q, a in zip(line[2], line[3], strict=True):
                    if view == PUBLIC_VIEW or q != player:  # (the observer counted their own)
                        out[counts + q * n + a] += 1.0
        return out
