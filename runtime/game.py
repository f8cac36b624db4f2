"""Games: `load_game(name, options)` imports a compiled engine (runtime/loading.py) and wraps it."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from runtime.chance import BEGIN, Chance
from runtime.engine import GameInfo, GameState, integer_id, shown_value
from runtime.loading import EngineLoadError, find_game, find_games, import_engine
from runtime.saved import MAX_SAVED_STATE_CHARS, load_state
from runtime.text import clipped

CHANCE_MODES = ("sampled", "explicit")  # Game.new_initial_state's `chance`


class UnknownGameError(LookupError):
    """No compiled engine of that name (run `rulewright build`)."""


class Game:
    """A compiled game with its options fixed (OpenSpiel's Game)."""

    def __init__(
        self,
        state_cls: type[GameState],
        scenarios: Sequence[dict[str, Any]] | Callable[[], Sequence[dict[str, Any]]] = (),
        options: dict[str, int | bool | str] | None = None,
    ) -> None:
        self.state_cls = state_cls
        self.info: GameInfo = state_cls.INFO
        # the scenarios live in their own module, imported only when asked for
        self._scenarios = scenarios
        self.options = self._options(options or {})
        count = self.info.player_count
        self.num_players = int(self.options[count]) if isinstance(count, str) else count

    @property
    def scenarios(self) -> list[dict[str, Any]]:
        """The scenarios compiled with the game (its `scenarios` module), loaded on first use."""
        if callable(self._scenarios):
            self._scenarios = self._scenarios()
        return list(self._scenarios)

    @property
    def name(self) -> str:
        """The game's name, as `load_game` takes it (the spec folder's name)."""
        return self.info.name

    @property
    def title(self) -> str:
        """The game's title for people, as its spec gives it."""
        return self.info.title

    def num_distinct_actions(self) -> int:
        """How many action ids the game has: every legal action of every state is below this."""
        return self.info.num_distinct_actions

    def _options(self, given: dict[str, Any]) -> dict[str, int | bool | str]:
        known = {o.name: o for o in self.info.options}
        out: dict[str, int | bool | str] = {o.name: o.default for o in self.info.options}
        for key, value in given.items():
            if key not in known:
                names = ", ".join(known) or "none"
                raise ValueError(f"{self.info.name} has no option '{clipped(key)}' (options: {names})")
            o = known[key]
            if o.values:  # an enum's value, by name
                if not isinstance(value, str) or value not in o.allowed():
                    shown = f"'{clipped(value)}'" if isinstance(value, str) else shown_value(value)
                    raise ValueError(
                        f"option '{key}' must be one of {', '.join(map(str, o.allowed()))}, not {shown}"
                    )
                out[key] = value
                continue
            if isinstance(value, str):
                value = _parse_option(key, value, o.type)
            if o.type == "bool" and not isinstance(value, bool):
                raise ValueError(f"option '{key}' is true or false, not {value!r}")
            if o.type == "int" and (isinstance(value, bool) or not isinstance(value, int)):
                raise ValueError(f"option '{key}' is an integer, not {value!r}")
            if o.choices and value not in o.choices:
                raise ValueError(f"option '{key}' must be one of {list(o.choices)}, not {value!r}")
            out[key] = value
        return out

    def new_initial_state(
        self,
        seed: int = 0,
        *,
        chance: str = "sampled",
        forced_rolls: Sequence[int] = (),
        forced_shuffles: Sequence[Sequence[int]] = (),
        forced_draws: Sequence[Sequence[int]] = (),
        forced_picks: Sequence[int] = (),
        after_setup: Callable[[Any], None] | None = None,
        skip: Sequence[str] = (),
        start_at: str = "",
    ) -> GameState:
        """A new game; it runs until the first decision. Forced chance, `after_setup` (run after the
        game's setup, or at the start of the phase or step `start_at`) and `skip` serve scenarios.
        A wrong argument (a seed that is not an integer, a forced roll below 1...) is a ValueError.

        `chance="sampled"` draws every die roll, pick and shuffle from a generator seeded with
        `seed`. `chance="explicit"` makes each a chance node instead (runtime/chance.py): the game
        then waits on a chance node wherever the rules need a random outcome, starting with the
        setup's, and the seed plays no part."""
        s = self.state_cls()
        s._start(_integer("seed", seed), dict(self.options), self.num_players)
        if chance not in CHANCE_MODES:
            raise ValueError(f"chance must be one of {', '.join(CHANCE_MODES)}, not {shown_value(chance)}")
        if chance == "explicit":
            forced = forced_rolls or forced_shuffles or forced_draws or forced_picks
            if forced or after_setup is not None or skip or start_at:
                raise ValueError("forced chance and scenario set-ups play with sampled chance, not explicit")
            s.chance = Chance()
            s.setup_hook = None
            s._play(BEGIN, None, [])
            return s
        s.rng.forced_rolls = _integers("forced_rolls", forced_rolls, 1)
        s.rng.forced_shuffles = [
            _integers(f"forced_shuffles[{i}]", x, 0)
            for i, x in enumerate(_sequence("forced_shuffles", forced_shuffles))
        ]
        s.rng.forced_draws = [
            _integers(f"forced_draws[{i}]", x, 0)
            for i, x in enumerate(_sequence("forced_draws", forced_draws))
        ]
        s.rng.forced_picks = _integers("forced_picks", forced_picks, 0)
        if after_setup is not None and not callable(after_setup):
            raise ValueError(f"after_setup must be a function of the state, not {shown_value(after_setup)}")
        s.setup_hook = after_setup
        s.start_at = _text("start_at", start_at)
        s.skips = [_text(f"skip[{i}]", x) for i, x in enumerate(_sequence("skip", skip))]
        s._begin()
        if s.start_at:
            raise ValueError(
                f"the flow asked for a decision before reaching '{start_at}', where the setup runs"
            )
        return s

    def state_from_json(self, text: str, *, max_chars: int = MAX_SAVED_STATE_CHARS) -> GameState:
        """A state `GameState.to_json` saved; ValueError naming the field if it is not one
        (runtime/saved.py). `max_chars` bounds its size."""
        return load_state(self.state_cls, text, max_chars)


def _integer(name: str, value: object, lowest: int | None = None) -> int:
    """An argument that must be an integer (a numpy one too; a bool is not)."""
    v = integer_id(value)
    if v is None or (lowest is not None and v < lowest):
        least = "" if lowest is None else f" from {lowest}"
        raise ValueError(f"{name} must be an integer{least}, not {shown_value(value)}")
    return v


def _sequence(name: str, value: object) -> Sequence[object]:
    if type(value) is tuple or type(value) is list:  # (the common case, without the ABC's test)
        return value
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise ValueError(f"{name} must be a list, not {shown_value(value)}")
    return value


def _integers(name: str, value: object, lowest: int) -> list[int]:
    return [_integer(f"{name}[{i}]", v, lowest) for i, v in enumerate(_sequence(name, value))]


def _text(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a string, not {shown_value(value)}")
    return value


def _parse_option(key: str, text: str, typ: str) -> int | bool:
    if typ == "bool":
        if text.lower() in ("1", "true", "yes", "on"):
            return True
        if text.lower() in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"option '{key}' is true or false, not '{text}'")
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"option '{key}' is an integer, not '{text}'") from None


def available_games(search: Sequence[Path] = ()) -> list[str]:
    """The names of the compiled games in the output folders `search` and the bundled ones."""
    return sorted({source.name for source in find_games(search)})


def load_game(name: str, options: dict[str, Any] | None = None, *, search: Sequence[Path] = ()) -> Game:
    """The compiled engine of `name` with the given game options: from the first of the output
    folders `search` that lists it, else from the bundled games (runtime/loading.py)."""
    source = find_game(name, search) if isinstance(name, str) else None
    if source is None:
        # only the names an output folder lists: never a path, a dunder or another module
        known = ", ".join(available_games(search)) or "none built"
        raise UnknownGameError(
            f"no compiled game {shown_value(name)} (games: {known}; run `rulewright build`)"
        )
    try:
        module = import_engine(source)
    except EngineLoadError as exc:
        hint = "" if "rulewright build" in str(exc) else f" (run `rulewright build {name}`)"
        raise UnknownGameError(f"{exc}{hint}") from None
    except ModuleNotFoundError as exc:
        if exc.name and (exc.name == source.package or source.package.startswith(exc.name + ".")):
            known = ", ".join(available_games(search)) or "none built"
            raise UnknownGameError(
                f"no compiled game '{name}' (games: {known}; run `rulewright build`)"
            ) from None
        raise
    return Game(module.State, scenarios_of(module), options)


def scenarios_of(package: ModuleType) -> Callable[[], Sequence[dict[str, Any]]]:
    """A compiled game package's scenarios (its `scenarios` module), to import when first asked."""

    def scenarios() -> Sequence[dict[str, Any]]:
        found: Sequence[dict[str, Any]] = importlib.import_module(f"{package.__name__}.scenarios").SCENARIOS
        return found

    return scenarios
