"""The engine contract and the spec's invariants, checked step by step when verification is on.

Normal play evaluates none of this. `rulewright verify`, scenarios and the test suite call
`checked_step` for each action: it applies the action and raises `Violation` naming the broken
clause. The clauses:

* liveness: a state that is not over has a player to act and a legal action;
* clone independence: playing on a clone leaves the original untouched;
* exact JSON round-trip: a restored state serialises identically, offers the same actions and
  plays on to the same state;
* observation: a player's observation is the same in two states that differ only in what that
  player cannot see (the order and make-up of hidden zones, other players' own variables, the
  random generator);
* cached values: every value a cached function keeps equals what it computes afresh (in a clone,
  which keeps none), so no write of state it reads went unnoticed;
* invariants: every invariant the spec declares holds after the action;
* returns: at the end of a game, every return lies within the spec's `results` min..max and the
  returns keep its kind (they sum to 0 for zero_sum, to its `sum` for constant_sum, are equal for
  identical); a game without results keeps its own zero-sum returns.

The clone and the restored copy are played untraced, so rule coverage collected around a checked
game counts each rule as often as the game itself ran it.
"""

from __future__ import annotations

import copy
import random
import sys
from collections import defaultdict

from runtime.engine import GameState, _without_none_slots
from runtime.saved import load_state
from runtime.text import cut


class Violation(Exception):
    """A broken invariant or contract clause: `kind` is "invariant" or "contract". A broken
    invariant also has its expression (`check`) and the values of the names it reads (`values`)."""

    def __init__(self, kind: str, name: str, detail: str, check: str = "", values: str = "") -> None:
        text = f"{kind} {name}: {detail}"
        if check:
            text = f"{kind} {name} failed: {check}" + (f", where {values}" if values else "") + f" ({detail})"
        super().__init__(text)
        self.kind = kind
        self.name = name
        self.detail = detail
        self.check = check
        self.values = values


def invariant_failures(state: GameState) -> list[str]:
    """Names of the declared invariants that do not hold in `state`."""
    return [inv[0] for inv in state.INFO.invariants if not inv[2](state)]


def check_invariants(state: GameState) -> None:
    failed = invariant_failures(state)
    if failed:
        name = failed[0]
        raise broken_invariant(state, name)


def broken_invariant(state: GameState, name: str) -> Violation:
    """The Violation of the invariant `name`, which does not hold in `state`."""
    why, check = next(((inv[1], inv[3]) for inv in state.INFO.invariants if inv[0] == name), ("", ""))
    return Violation("invariant", name, why or "declared in the spec", check, invariant_values(state, name))


MAX_VALUE_CHARS = 200  # a value shown in a failure (a variable per component may have hundreds)
ZONE_IDS_SHOWN = 3  # a zone is shown as its count and its first few components


def invariant_values(state: GameState, name: str) -> str:
    """The values, in `state`, of the names the invariant `name` reads (GameInfo.invariant_reads),
    as a failure shows them: `score = 0, pile = 2 (a1, b7)`. Computed only when it fails."""
    parts = []
    probe: list[GameState] = []  # a clone for the functions to run on (a cached one keeps values)
    for kind, what, value in state.INFO.invariant_reads.get(name, ()):
        try:
            text = _value_text(state, kind, what, value, probe)
        except Exception as exc:  # a function of the rules may fail on a broken state
            text = f"(cannot be computed: {exc})"
        parts.append(f"{what} = {cut(text, MAX_VALUE_CHARS)}")
    return ", ".join(parts)


def _value_text(state: GameState, kind: str, name: str, value: object, probe: list[GameState]) -> str:
    info = state.INFO
    if kind == "state":
        return _shown(_named(state, name, state._dump_vars()[name]))
    if kind == "zone":
        zones = [(zi, z) for zi, z in enumerate(info.zones) if z.name == name]
        shown = {z.key(info.player_names): _zone_text(state, zi) for zi, z in zones}
        if len(zones) == 1 and zones[0][1].owner < 0 and not zones[0][1].label:
            return next(iter(shown.values()))
        return "{" + ", ".join(f"{k}: {v}" for k, v in shown.items()) + "}"
    if kind == "option":
        return _shown(state.options.get(name))
    if kind == "function" and callable(value):
        if not probe:
            probe.append(state.clone())
        return _shown(value(probe[0]))
    return _shown(value)


def _zone_text(state: GameState, zi: int) -> str:
    info = state.INFO
    zone = info.zones[zi]
    ids = info.type_ids[zone.type_index]
    items = list(state.z.cells[zi].values()) if zone.kind == "grid" else list(state.z.piles[zi])
    first = ", ".join(ids[e] for e in items[:ZONE_IDS_SHOWN]) + (
        ", ..." if len(items) > ZONE_IDS_SHOWN else ""
    )
    return f"{len(items)} ({first})" if items else "0"


def _named(state: GameState, name: str, value: object) -> object:
    """A variable's value with its indices as the rules name them (a player by its label, a
    component or enum value by its id) and the components it holds by id."""
    info = state.INFO
    indices = info.var_indices.get(name, ())
    players = len(info.type_names) - 1
    value = _without_none_slots(value, indices, players)
    held = info.var_values.get(name)

    def names_of(t: int) -> tuple[str, ...]:
        return info.player_names if t == players else info.type_ids[t]

    def entry(v: object) -> object:
        if held is not None and isinstance(v, int) and not isinstance(v, bool):
            labels = names_of(held)
            return labels[v] if 0 <= v < len(labels) else "none"
        return [entry(x) for x in v] if isinstance(v, list) else v

    def walk(v: object, depth: int) -> object:
        if depth < len(indices) and isinstance(v, list):
            labels = names_of(indices[depth])
            if len(labels) == len(v):
                return {labels[i]: walk(x, depth + 1) for i, x in enumerate(v)}
        return entry(v)

    return walk(value, 0)


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_shown(v)}" for k, v in value.items()) + "}"
    return str(value)


def check_caches(state: GameState) -> None:
    """Every value a cached function keeps is the value it would compute now: recomputed in a
    clone (which starts with no kept values), untraced, so rule coverage counts only the game."""
    cached = state.INFO.cached
    if not any(state.caches):
        return
    fresh = state.clone()
    tracer = sys.gettrace()
    sys.settrace(None)
    try:
        for (name, params, function), kept in zip(cached, state.caches, strict=True):
            for key, value in list(kept.items()):
                args = (key,) if len(params) == 1 else key
                now = function(fresh, *args)
                if now != value:
                    shown = ", ".join(f"{p}={a!r}" for p, a in zip(params, args, strict=True))
                    raise Violation(
                        "contract",
                        "cached value",
                        f"{name}({shown}) keeps {value!r}, but computes {now!r} now: a write of "
                        "state it reads did not make it forget",
                    )
    finally:
        sys.settrace(tracer)


def check_live(state: GameState) -> None:
    if state.is_terminal():
        if state.legal_actions():
            raise Violation("contract", "terminal", "a finished game still offers actions")
        return
    if state.current_player() < 0:
        raise Violation("contract", "liveness", "the game is not over but no player is to act")
    if not state.legal_actions():
        raise Violation("contract", "liveness", "the game is not over but there is no legal action")


def check_returns(state: GameState) -> None:
    """A finished game's returns keep what GameInfo says of them (its range and its kind)."""
    if not state.is_terminal():
        return
    info = state.INFO
    returns = state.returns()
    low, high = info.utility_range
    for p, v in enumerate(returns):
        if not low <= v <= high:
            raise Violation(
                "contract",
                "returns",
                f"{info.player_names[p]}'s return {v:g} lies outside {low}..{high} (results.min, results.max)",
            )
    shown = ", ".join(f"{v:g}" for v in returns)
    total = info.utility_sum if info.utility in ("zero_sum", "constant_sum") else None
    if total is not None and abs(sum(returns) - total) > 1e-9 * len(returns) * max(1, abs(high), abs(low)):
        raise Violation(
            "contract",
            "returns",
            f"the returns {shown} sum to {sum(returns):g}, not {total} ({info.utility})",
        )
    if info.utility == "identical" and len(set(returns)) > 1:
        raise Violation("contract", "returns", f"the returns {shown} are not all equal (identical)")


def determinize(state: GameState, player: int, rnd: random.Random) -> GameState:
    """A copy of `state` with what `player` cannot see dealt afresh: the components of the
    zones whose contents it cannot see (hidden zones, other players' `owner` zones, its own
    `others` zones) reshuffled among those zones, each keeping its size, the answers other players
    gave to a pending simultaneous decision guessed among their options, and the random generator
    reseeded. For search bots that must not peek, and for the
    observation check. (It does not condition on what the log revealed earlier.)"""
    info = state.INFO
    twin = state.clone()
    twin.rng = twin.rng.copy()  # (a clone of explicit chance shares it)
    twin.rng.state ^= rnd.getrandbits(63) | 1
    by_type: dict[int, list[int]] = defaultdict(list)
    for zi, z in enumerate(info.zones):
        if not z.seen_by(player) and z.kind == "pile":
            by_type[z.type_index].append(zi)
    zones = twin.z
    for t, zis in by_type.items():
        items = [e for zi in zis for e in zones.piles[zi]]
        rnd.shuffle(items)
        for zi in zis:
            n = len(zones.piles[zi])
            zones.piles[zi], items = items[:n], items[n:]
            for e in zones.piles[zi]:
                zones.where[t][e] = zi
    if twin.chance is not None:  # an unsettled part keeps the canonical order (runtime/chance.py)
        for zi, u in twin.chance.unsettled.items():
            zones.piles[zi][:u] = sorted(zones.piles[zi][:u])
    d = twin.simultaneous()
    if d is not None:  # the answers others gave to a simultaneous decision, not yet revealed
        twin.pending = d.guessed(player, rnd.choice)
    return twin


def hidden_twin(state: GameState, player: int, rnd: random.Random) -> GameState:
    """A copy of `state` that differs from it only in what `player` cannot see: determinized,
    other players' own variables changed, and the answers other players gave to a pending
    simultaneous decision changed."""
    info = state.INFO
    twin = determinize(state, player, rnd)
    if info.owner_vars:
        data = dict(twin._dump_vars())  # the twin is a clone: only the perturbed entries are copied
        for name in info.owner_vars:
            values = data[name] = copy.deepcopy(data[name])
            assert isinstance(values, list)
            for q in range(len(values)):
                if q != player:
                    values[q] = _perturbed(values[q], rnd)
        twin._load_vars(data)
    return twin


def _perturbed(value: object, rnd: random.Random) -> object:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rnd.randint(1, 5)
    if isinstance(value, list):
        return [_perturbed(v, rnd) for v in reversed(value)]
    return value


def check_observations(state: GameState, rnd: random.Random) -> None:
    for p in range(state.num_players):
        mine = state.observation(p)
        other = hidden_twin(state, p, rnd).observation(p)
        if other != mine:
            keys = sorted(k for k in set(mine) | set(other) if mine.get(k) != other.get(k))
            raise Violation(
                "contract",
                "observation",
                f"{state.INFO.player_names[p]}'s observation depends on what they cannot see "
                f"(it differs in {', '.join(keys)})",
            )


class Checker:
    """Applies actions with every check on (`full`) or only the invariants and liveness."""

    def __init__(self, rnd: random.Random, full: bool = True) -> None:
        self.rnd = rnd
        self.full = full
        self._json: tuple[GameState, str] | None = None  # the last state checked, serialised
        # the log of the last state loaded (its JSON, from `,"log":[` on) and how many lines it has:
        # a log only grows, so the next state's log starts with it, and those lines are not checked
        # again (saved.load_state's known_lines); the prefix is compared, never assumed
        self._log: tuple[str, int] = ("", 0)

    def step(self, state: GameState, action: int) -> GameState:
        """Apply `action` to `state`, checked; returns the state to go on with."""
        check_live(state)
        if not self.full:
            state.apply_action(action)
            check_invariants(state)
            check_live(state)
            check_returns(state)
            return state
        checked = self._json is not None and self._json[0] is state  # the state the last step left
        before = self._json[1] if self._json is not None and checked else state.to_json()
        legal = state.legal_actions()
        twin = state.clone()
        _untraced(twin, action)
        if state.to_json() != before:
            raise Violation("contract", "clone independence", "playing on a clone changed the original")
        # its invariants held at the end of the last step: loading does not evaluate them again
        restored = load_state(
            type(state), before, invariants=not checked, known_lines=self._known(before), own_text=True
        )
        self._log = (before[before.rfind(',"log":[') :], len(restored.lines))
        if restored.to_json() != before:
            raise Violation("contract", "JSON round-trip", "a restored state serialises differently")
        if restored.legal_actions() != legal:
            raise Violation("contract", "JSON round-trip", "a restored state offers other actions")
        state.apply_action(action)
        check_caches(state)  # first: a stale value also shows as a restored state that differs
        _untraced(restored, action)
        after = state.to_json()
        if restored.to_json() != after:
            raise Violation("contract", "JSON round-trip", "a restored state played on differently")
        if twin.to_json() != after:
            raise Violation("contract", "clone independence", "a clone played on differently")
        self._json = (state, after)
        check_invariants(state)
        check_live(state)
        check_returns(state)
        check_observations(state, self.rnd)
        return state

    def _known(self, text: str) -> int:
        """How many lines of the log of `text` the last load accepted: its log's lines, when
        `text`'s log begins with them, else none. (A JSON string escapes its quotes, so `,"log":[`
        is the log's key, and the log comes last: GameState.to_json.)"""
        old, lines = self._log
        if not lines:
            return 0
        log = text[text.rfind(',"log":[') :]
        head = old[:-2]  # without the closing `]}`
        return lines if log.startswith(head) and log[len(head) : len(head) + 1] in (",", "]") else 0


def _untraced(state: GameState, action: int) -> None:
    """Apply `action` to a copy made for checking, with any tracer (rule coverage) suspended."""
    tracer = sys.gettrace()
    sys.settrace(None)
    try:
        state.apply_action(action)
    finally:
        sys.settrace(tracer)


def checked_step(state: GameState, action: int, rnd: random.Random, full: bool = True) -> GameState:
    """Apply `action` to `state` with every check on (see Checker)."""
    return Checker(rnd, full).step(state, action)
