"""OpenSpiel: every compiled game as a pyspiel Python game, `rulewright_<game>`.

    import pyspiel
    import runtime.adapters.openspiel  # registers every compiled game
    game = pyspiel.load_game("rulewright_GAME")  # GAME: a folder of specs/
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)

Chance is explicit by default (game parameter `chance="explicit"`, runtime/chance.py): every die
roll, random pick and draw from a shuffled pile is a chance node with its outcomes and exact
probabilities (EXPLICIT_STOCHASTIC; DETERMINISTIC for rules without chance), and every fresh
state is the same game, so a history replays on any of them. `chance="sampled"` plays as the
engine does at the terminal: the outcomes drawn inside a move from a seeded generator that is part
of the state (SAMPLED_STOCHASTIC); the parameter `seed` (default 0) seeds the first fresh game and
the k-th fresh game a Game object makes uses seed + k. The spec's options are game parameters too. The returns are the engine's: a spec's `results` (its kind
the utility type, its min and max the utilities' bounds), or +1 to the winners, zero-sum. A game with hidden zones, private variables, secret choices or
dice (the generator counts as hidden) is IMPERFECT_INFORMATION. Observation strings and tensors
come from the engine's per-player observation, which hides what the player cannot see. The
information state string adds the player's own log: perfect recall of what they were told.

The `mcts` agent (MCTSAgent) runs OpenSpiel's MCTSBot through this adapter, from a
determinization of the state, so it does not see the cards it should not.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from runtime.adapters import make_room
from runtime.adapters.tensor import Encoder, InformationStateEncoder
from runtime.contract import determinize
from runtime.engine import FULL_VIEW, PLAYER_VIEW, PUBLIC_VIEW, VIEWS, GameState, shown_value
from runtime.game import Game, available_games, load_game
from runtime.resample import Plan, resample

PREFIX = "rulewright_"
MAX_GAME_LENGTH = 10_000  # an upper bound on decisions per game, for every compiled game


def _imperfect(game: Game, chance: str) -> bool:
    """Players cannot see everything: hidden zones, private variables, secret choices, or, with
    sampled chance, the random generator (the future dice) when the rules use chance."""
    info = game.info
    hidden_zone = any(z.visibility != "public" for z in info.zones)
    hidden_dice = info.chance and chance == "sampled"
    return hidden_zone or bool(info.owner_vars) or info.secret_choices or hidden_dice or info.simultaneous


CHANCE_MODES = ("explicit", "sampled")  # the game parameter `chance`, default first


def _chance_mode(game: Game, chance: str) -> pyspiel.GameType.ChanceMode:
    if not game.info.chance:
        return pyspiel.GameType.ChanceMode.DETERMINISTIC
    if chance == "explicit":
        return pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    return pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC


def _player_range(game: Game) -> tuple[int, int]:
    count = game.info.player_count
    if isinstance(count, int):
        return count, count
    choices = [c for c in next(o.choices for o in game.info.options if o.name == count) if isinstance(c, int)]
    return min(choices), max(choices)


UTILITY = {
    "zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
    "constant_sum": pyspiel.GameType.Utility.CONSTANT_SUM,
    "identical": pyspiel.GameType.Utility.IDENTICAL,
    "general_sum": pyspiel.GameType.Utility.GENERAL_SUM,
}


def utility_sum(game: Game) -> float | None:
    """What the returns add up to: for zero_sum and constant_sum games; None for the others."""
    info = game.info
    return float(info.utility_sum) if info.utility in ("zero_sum", "constant_sum") else None


SIMULTANEOUS_MODES = ("joint", "in_turn")  # the game parameter `simultaneous`, default first


PLAYERS = "players"  # the game parameter that sets the player count, where an option sets it


def _players_alias(game: Game) -> str:
    """The option that `players` names: the spec's player-count option (unless an option is
    itself called `players`); '' for a spec with a fixed player count."""
    count = game.info.player_count
    if isinstance(count, int) or count == PLAYERS or any(o.name == PLAYERS for o in game.info.options):
        return ""
    return count


def _players_param(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """The game parameters with `players` given as the player-count option (see _players_alias).
    pyspiel fills in every parameter not given with its default, so the one of the two that is
    not the default is the one given; both given, and different, is an error."""
    if PLAYERS not in params:
        return params
    game = _load(name, None)
    alias = _players_alias(game)
    if not alias:
        return params
    params = dict(params)
    players = params.pop(PLAYERS)
    default = game.options[alias]
    if alias in params and params[alias] != players and default not in (players, params[alias]):
        raise ValueError(
            f"the game parameters 'players' ({players!r}) and '{alias}' ({params[alias]!r}) both set "
            f"the player count, and differ: give one of them"
        )
    if players != default:
        params[alias] = players
    return params


def game_type(
    game: Game, chance: str = CHANCE_MODES[0], simultaneous: str = SIMULTANEOUS_MODES[0]
) -> pyspiel.GameType:
    """The pyspiel GameType of a compiled game (its options become game parameters)."""
    lo, hi = _player_range(game)
    params: dict[str, Any] = {"chance": CHANCE_MODES[0], "seed": 0}
    if game.info.simultaneous:
        params["simultaneous"] = SIMULTANEOUS_MODES[0]
    params.update({o.name: o.default for o in game.info.options})
    joint = game.info.simultaneous and simultaneous == "joint"
    alias = _players_alias(game)
    if alias:  # `players`, another name for the option that sets the player count
        params[PLAYERS] = params[alias]
    return pyspiel.GameType(
        short_name=PREFIX + game.name,
        long_name=f"{game.title} (Rulewright)",
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS if joint else pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=_chance_mode(game, chance),
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if _imperfect(game, chance)
        else pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=UTILITY[game.info.utility],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class _Paths:
    """With explicit chance a game is a function of its history: each history a game reaches gets
    a number (`step`: the number of the history one action longer), and what an observer makes of
    a state is kept by its history's number (`strings`), so that an algorithm that walks the same
    tree again and again (CFR) puts each information state in words once. Both tables are
    emptied when they grow large; numbers are never reused, so a state numbered before that
    simply finds nothing kept."""

    LIMIT = 1 << 18  # histories numbered before the tables are emptied
    STATES = 1 << 12  # states kept (each a copy of a whole game state)
    CHARS = 1 << 26  # characters of kept strings (a large game's run to tens of thousands each)

    __slots__ = ("ids", "next", "strings", "chars", "states")

    def __init__(self) -> None:
        self.ids: dict[tuple[int, object], int] = {}
        self.next = 1  # 0 is the initial state's history
        self.strings: dict[tuple[int, int, int], str] = {}
        self.chars = 0
        # the state a history reached, kept once a move into it is taken a second time: an
        # algorithm that walks the same tree again (CFR) copies it instead of playing the move
        self.states: dict[int, GameState] = {}

    def step(self, path: int, action: object) -> int:
        """The number of the history `path` followed by `action` (-1: not a known history)."""
        if path < 0:
            return -1
        key = (path, action)
        found = self.ids.get(key)
        if found is None:
            if len(self.ids) >= self.LIMIT:
                self.ids.clear()
                self.strings.clear()
                self.states.clear()
                self.chars = 0
            found = self.ids[key] = self.next
            self.next += 1
        return found


class _Engine:
    """Holds the engine state of a pyspiel state, made on first use (with sampled chance, from
    the next fresh seed of the game; a clone never plays a setup or takes a seed of its own).
    pyspiel clones a Python state by making a new initial state and deep-copying the old one's
    attributes into it, and serialises one by pickling them: both go through the engine's own
    clone and JSON, and both make the original's engine state first, so a fresh state, its clones
    and its serialised copies are one game."""

    __slots__ = ("_state", "game", "_make", "plans", "paths", "path", "moves")

    def __init__(
        self,
        game: Game,
        state: GameState | None,
        make: Callable[[], GameState] | None = None,
        paths: _Paths | None = None,
        path: int = -1,
    ) -> None:
        self._state = state
        self.game = game
        self._make = make  # makes the state when there is none yet
        self.paths = paths if paths is not None else _Paths()
        self.path = path  # its history's number in `paths` (explicit chance), or -1
        # the state's count of moves (Chance.moves) when `path` was set: a state moved on by
        # other means (its engine's own apply_action) no longer has that history's number
        self.moves = state.chance.moves if state is not None and state.chance is not None else 0
        # resampling: what a player witnessed of the history (of a length), runtime/resample.py
        self.plans: dict[tuple[int, int], Plan] = {}

    @property
    def state(self) -> GameState:
        if self._state is None:
            assert self._make is not None
            make_room()
            self._state = made = self._make()
            self._make = None
            self.moves = made.chance.moves if made.chance is not None else 0
        return self._state

    def known_path(self) -> int:
        """The number of this state's history, or -1 if it is not known."""
        c = self.state.chance
        if self.path >= 0 and (c is None or c.moves != self.moves):
            self.path = -1
        return self.path

    def play(self, action: int) -> None:
        """The state's move `action`. Taken from this history before, it reaches the same state:
        kept (from the second time on), that state is copied instead of the move played."""
        paths = self.paths
        after = paths.ids.get((self.path, action)) if self.known_path() >= 0 else None
        kept = paths.states.get(after) if after is not None else None
        if kept is not None:
            self.state._become(kept.clone())  # (in place: whoever holds the engine sees the move)
        else:
            self.state.apply_action(action)
        self.moved(action)
        if after is not None and kept is None and len(paths.states) < paths.STATES:
            paths.states[after] = self.state.clone()

    def moved(self, action: object) -> None:
        """After the state's move `action`: its history's number."""
        c = self.state.chance
        self.path = self.paths.step(self.path, action)  # (checked by known_path before the move)
        self.moves = c.moves if c is not None else 0

    def __deepcopy__(self, memo: dict[int, object]) -> _Engine:
        state = self.state
        copy = state.clone()
        if copy.chance is not None and state.chance is not None:
            # pyspiel's child() is a clone and a move: the move goes back to `state`, if it is
            # still as it was, instead of a copy of its own (runtime/chance.py, Chance.twin)
            copy.chance.twin, copy.chance.twin_moves = state, state.chance.moves
        return _Engine(self.game, copy, None, self.paths, self.path)

    def __getstate__(self) -> tuple[str, str, str]:
        return self.game.name, json.dumps(self.game.options), self.state.to_json()

    def __setstate__(self, data: tuple[str, str, str]) -> None:
        name, options, text = data
        self.game = _load(name, json.loads(options))
        self._state = self.game.state_from_json(text)
        self._make = None
        self.paths, self.path = _Paths(), -1


class RulewrightGame(pyspiel.Game):  # type: ignore[misc]
    """A compiled game, for OpenSpiel. `register` makes one subclass per game, naming it in NAME."""

    NAME = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.NAME
        params = _players_param(name, dict(params or {}))
        self.seed = int(params.pop("seed", 0))
        self.chance = _choice(params, "chance", CHANCE_MODES)
        self.simultaneous = _choice(params, "simultaneous", SIMULTANEOUS_MODES)
        self.rw = _load(name, params)
        modes = {"chance": self.chance}
        if self.rw.info.simultaneous:
            modes["simultaneous"] = self.simultaneous
        self.fresh = 0  # fresh games made so far (sampled chance)
        self.initial: GameState | None = None  # the one initial state of explicit chance
        self.paths = _Paths()  # the histories its states reached, with explicit chance
        self.encoder: Encoder | None = None
        alias = _players_alias(self.rw)
        if alias:  # (the parameters pyspiel reports: `players` and its option alike)
            params[PLAYERS] = params[alias] = self.rw.options[alias]
        explicit = self.chance == "explicit"
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rw.num_distinct_actions(),
            max_chance_outcomes=self.rw.info.max_chance_outcomes if explicit else 0,
            num_players=self.rw.num_players,
            min_utility=float(self.rw.info.utility_range[0]),
            max_utility=float(self.rw.info.utility_range[1]),
            utility_sum=utility_sum(self.rw),
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(
            game_type(self.rw, self.chance, self.simultaneous), info, dict(params, seed=self.seed, **modes)
        )

    def __reduce__(self) -> tuple[Callable[[str, dict[str, Any]], pyspiel.Game], tuple[str, dict[str, Any]]]:
        """pickle(game): the game's name and parameters (its class is made at registration, so
        unpickling registers the game first)."""
        return _loaded_game, (self.get_type().short_name, self.get_parameters())

    def new_initial_state(self) -> RulewrightState:
        if self.rw.info.simultaneous and self.simultaneous == "joint":
            return SimultaneousState(self)
        return RulewrightState(self)

    def fresh_state(self) -> GameState:
        """A new game: the one initial state of explicit chance (a copy), or, with sampled chance,
        one dealt from the next seed."""
        if self.chance == "explicit":
            if self.initial is None:
                self.initial = self.rw.new_initial_state(chance="explicit")
            return self.initial.clone()
        self.fresh += 1
        return self.rw.new_initial_state(self.seed + self.fresh - 1)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """An observer of the kind `iig_obs_type` asks (default: the observation of one player):
        private_info NONE sees what every player sees, SINGLE_PLAYER what the observing player
        sees, ALL_PLAYERS everything; perfect_recall adds what the player was told so far."""
        if params:
            raise ValueError(f"observation parameters are not supported; given {params}")
        obs_type = (
            iig_obs_type if iig_obs_type is not None else pyspiel.IIGObservationType(perfect_recall=False)
        )
        if self.encoder is None:
            self.encoder = Encoder(self.rw.new_initial_state(0))
        private = obs_type.private_info
        view = (
            PUBLIC_VIEW
            if private == pyspiel.PrivateInfoType.NONE
            else FULL_VIEW
            if private == pyspiel.PrivateInfoType.ALL_PLAYERS
            else PLAYER_VIEW
        )
        encoder: Encoder | InformationStateEncoder | None = self.encoder
        if not obs_type.public_info:
            encoder = None  # (a string only)
        elif obs_type.perfect_recall:
            encoder = InformationStateEncoder(self.encoder, self.rw.num_distinct_actions())
        return Observer(view, obs_type.perfect_recall, encoder)


class RulewrightState(pyspiel.State):  # type: ignore[misc]
    """A game in progress. The engine state is made on first use (see _Engine), so that
    pyspiel's clone (a new initial state whose attributes are then copied over) never plays a
    setup, and a clone of a fresh state is the same game."""

    def __init__(self, game: RulewrightGame, engine: GameState | None = None) -> None:
        super().__init__(game)
        # (the only attribute: pyspiel deep-copies and pickles every attribute, _Engine its own way)
        fresh = engine is None and game.chance == "explicit"  # (the one initial state: history 0)
        self._e = _Engine(
            game.rw, engine, game.fresh_state if engine is None else None, game.paths, 0 if fresh else -1
        )

    @property
    def engine(self) -> GameState:
        """The Rulewright state behind this pyspiel state."""
        return self._e.state

    # pyspiel's own deepcopy and pickle of a state pickle its game, which needs a random generator
    # state that a Python game cannot give; these go through clone and serialize instead
    def __deepcopy__(self, memo: dict[int, object]) -> RulewrightState:
        return self.clone()  # type: ignore[no-any-return]

    def __reduce__(
        self,
    ) -> tuple[Callable[[str, dict[str, Any], str], RulewrightState], tuple[str, dict[str, Any], str]]:
        game = self.get_game()
        return _deserialized_state, (game.get_type().short_name, game.get_parameters(), self.serialize())

    def current_player(self) -> int:
        return int(self.engine.current_player())

    def _legal_actions(self, player: int) -> list[int]:
        s = self.engine
        return s.legal_actions() if player == s.current_player() else []

    def _apply_action(self, action: int) -> None:
        make_room()
        self._e.play(action)

    def _action_to_string(self, player: int, action: int) -> str:
        s = self.engine
        if player == pyspiel.PlayerId.CHANCE and not s.is_chance_node():
            return f"Chance outcome {action}"
        return s.action_to_string(action)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.engine.chance_outcomes()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RulewrightState:
        """A state `player_id` cannot tell from this one, for ISMCTS. With explicit chance, this
        game's history replayed with every chance outcome and every secret answer of another
        player that `player_id` did not witness drawn afresh (runtime/resample.py); with sampled
        chance, or if that search runs out of budget, what the player cannot see dealt afresh
        (runtime.contract.determinize)."""
        rnd = random.Random(int(probability_sampler() * 2**53))
        game = self.get_game()
        if self.engine.chance is not None:
            history = [(int(x.player), int(x.action)) for x in self.full_history()]
            plans, key = self._e.plans, (player_id, len(history))  # (the state may have moved on since)
            if key not in plans:
                plans.clear()
                plans[key] = Plan.of(game.fresh_state(), history, player_id)
            found = resample(game.fresh_state(), history, player_id, rnd, plans[key])
            if found is not None:
                return type(self)(game, found)
        return type(self)(game, determinize(self.engine, player_id, rnd))

    def is_terminal(self) -> bool:
        return self.engine.is_terminal()

    def returns(self) -> list[float]:
        return self.engine.returns()

    def __str__(self) -> str:
        return str(self.engine)


class SimultaneousState(RulewrightState):
    """A game in progress of a game with simultaneous decisions (SIMULTANEOUS dynamics). At a
    simultaneous decision every player acts at once (current_player() is PlayerId.SIMULTANEOUS):
    each player still to answer chooses among their options, every other player has the single
    action 0 (pass), as OpenSpiel's simultaneous games give a player who does not act; the answers
    are applied in the order of the decision's players. Every other node is sequential."""

    def current_player(self) -> int:
        s = self.engine
        return int(pyspiel.PlayerId.SIMULTANEOUS) if s.simultaneous() else int(s.current_player())

    def _legal_actions(self, player: int) -> list[int]:
        return self.engine.legal_actions_of(player)

    def _apply_actions(self, actions: list[int]) -> None:
        make_room()
        e = self._e
        if e.path >= 0:
            e.known_path()
        e.state.apply_joint(actions)
        e.moved(tuple(actions))


def _choice(params: dict[str, Any], name: str, modes: tuple[str, ...]) -> str:
    """The game parameter `name` (taken out of `params`): one of `modes`, the first by default."""
    value = params.pop(name, modes[0])
    if value not in modes:
        raise ValueError(f"{name} must be one of {', '.join(modes)}, not {shown_value(value)}")
    return str(value)


def _loaded_game(name: str, params: dict[str, Any]) -> pyspiel.Game:
    """A pickled game, back (see RulewrightGame.__reduce__)."""
    register(name.removeprefix(PREFIX))
    return pyspiel.load_game(name, params)


def _deserialized_state(name: str, params: dict[str, Any], text: str) -> RulewrightState:
    """A pickled state, back (see RulewrightState.__reduce__)."""
    register(name.removeprefix(PREFIX))
    state: RulewrightState = pyspiel.load_game(name, params).deserialize_state(text)
    return state


class Observer:
    """pyspiel's PyObserver interface, for one view (engine.PLAYER_VIEW, PUBLIC_VIEW or FULL_VIEW).
    The observation is a string (the engine's observation as JSON) and the tensor of
    runtime/adapters/tensor.py; the information state (perfect recall) adds the log lines the
    view was told to the string, and the actions seen taken to the tensor. Without an encoder
    (public_info=False) only the private part: a string of what the view shows beyond the
    public view, and an empty tensor."""

    def __init__(
        self, view: str, perfect_recall: bool, encoder: Encoder | InformationStateEncoder | None
    ) -> None:
        self.view = view
        self.perfect_recall = perfect_recall
        self.encoder = encoder
        # what kind of string it writes, for _Paths.strings: its view, recall and public part
        self.kind = VIEWS.index(view) * 4 + 2 * perfect_recall + (encoder is None)
        self.tensor = np.zeros(encoder.size if encoder is not None else 0, np.float32)
        self.dict: dict[str, Any] = {}
        if encoder is not None:
            self.dict["info_state" if perfect_recall else "observation"] = self.tensor

    def set_from(self, state: RulewrightState, player: int) -> None:
        if self.encoder is not None:
            self.tensor[:] = self.encoder.encode(state.engine, player, self.view)

    def string_from(self, state: RulewrightState, player: int) -> str:
        e = state._e
        if e.known_path() < 0:
            return self._string(e.state, player)
        paths = e.paths
        key = (e.path, player, self.kind)
        text = paths.strings.get(key)
        if text is None:
            text = self._string(e.state, player)
            if paths.chars + len(text) > paths.CHARS:
                paths.strings.clear()
                paths.chars = 0
            paths.strings[key] = text
            paths.chars += len(text)
        return text

    def _string(self, s: GameState, player: int) -> str:
        seen = s.observation(player, self.view)
        if self.encoder is None:
            return _sorted_json(_private_part(seen, s.observation(player, PUBLIC_VIEW)))
        obs = _sorted_json(seen)
        if not self.perfect_recall:
            return obs
        if self.view == PLAYER_VIEW:
            lines = s.player_log(player)
        elif self.view == FULL_VIEW:
            lines = s.log()  # (private lines marked with the player who saw them)
        else:
            lines = [text for who, text in s.log_entries() if who < 0]
        return obs + "\n" + "\n".join(lines)


def _sorted_json(value: object) -> str:
    """An observation as JSON with sorted keys (orjson's when it is installed: several times as
    fast, which algorithms that read an information state at every node feel)."""
    if _ORJSON is not None:
        return str(_ORJSON.dumps(value, option=_ORJSON.OPT_SORT_KEYS).decode())
    return json.dumps(value, sort_keys=True)


def _orjson() -> Any:
    try:
        import orjson
    except ImportError:  # pragma: no cover - a dependency; without it the standard library's JSON
        return None
    return orjson


_ORJSON = _orjson()


def _private_part(seen: dict[str, object], public: dict[str, object]) -> dict[str, object]:
    """What an observation shows beyond the public one: the zones and variables it shows
    otherwise, and the decisions' options (OpenSpiel's private observation, public_info=False)."""
    out: dict[str, object] = {}
    for key in ("zones", "variables"):
        mine, theirs = seen[key], public[key]
        assert isinstance(mine, dict) and isinstance(theirs, dict)
        out[key] = {k: v for k, v in mine.items() if theirs.get(k) != v}
    for key in ("decision", "decisions", "answers"):
        if key in seen:
            out[key] = seen[key]
    return out


class EngineRollouts(mcts.Evaluator):  # type: ignore[misc]
    """MCTS leaf evaluation by random playouts run on the engine itself (no pyspiel round trip
    per move, several times faster than mcts.RandomRolloutEvaluator); uniform priors."""

    def __init__(self, n_rollouts: int, seed: int) -> None:
        self.n_rollouts = n_rollouts
        self.rng = random.Random(seed)

    def evaluate(self, state: RulewrightState) -> np.ndarray:
        total = np.zeros(state.num_players())
        for _ in range(self.n_rollouts):
            s = state.engine.clone()
            while not s.is_terminal():
                s.apply_action(self.rng.choice(s.legal_actions()))
            total += s.returns()
        return total / self.n_rollouts

    def prior(self, state: RulewrightState) -> list[tuple[int, float]]:
        legal = state.engine.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class MCTSAgent:
    """OpenSpiel's MCTSBot (UCT, random-playout evaluation) as a Rulewright agent: the agent
    `mcts` or `mcts:SIMULATIONS` of `rulewright play` and `simulate`.

    MCTSBot searches a perfect-information tree. So that it does not peek, each search starts
    from a determinization of the real state (runtime.contract.determinize): the cards the agent
    cannot see dealt afresh and the dice reseeded."""

    def __init__(self, seed: int, simulations: int = 100, rollouts: int = 1, uct_c: float = 2.0) -> None:
        self.seed = seed
        self.simulations = simulations
        self.rollouts = rollouts
        self.uct_c = uct_c
        self._bots: dict[str, tuple[RulewrightGame, mcts.MCTSBot]] = {}
        self.rng = random.Random(seed)

    def choose(self, state: GameState) -> int:
        """The bot's action for the player to move, searched on a pyspiel copy of `state`."""
        key = f"{state.INFO.name}{sorted(state.options.items())}"
        if key not in self._bots:
            game = pyspiel.load_game(register(state.INFO.name), dict(state.options, chance="sampled"))
            rs = np.random.RandomState(self.seed % 2**32)
            evaluator = EngineRollouts(self.rollouts, self.seed)
            # UCT adds returns to an exploration term: returns of up to +-S (results.min and max)
            # weigh as +-1 would when the term is S times larger
            scale = max(1, *(abs(v) for v in state.INFO.utility_range))
            bot = mcts.MCTSBot(
                game, self.uct_c * scale, self.simulations, evaluator, random_state=rs, solve=False
            )
            self._bots[key] = (game, bot)
        game, bot = self._bots[key]
        root = determinize(state, state.current_player(), self.rng)
        return int(bot.step(RulewrightState(game, root)))


_CLASSES: dict[str, type[RulewrightGame]] = {}
_OTHERS: dict[str, Game] = {}  # games registered from a Game object (e.g. a spec compiled on the fly)


def _load(name: str, options: dict[str, Any] | None) -> Game:
    other = _OTHERS.get(name)
    return load_game(name, options) if other is None else Game(other.state_cls, other.scenarios, options)


def register(game: str | Game) -> str:
    """Register a compiled game, by name or as a Game (e.g. `rulewright.spec_loader.load_spec(folder)`),
    if not yet registered; returns its OpenSpiel name."""
    if isinstance(game, Game):
        _OTHERS[game.name] = game
    name = game if isinstance(game, str) else game.name
    short = PREFIX + name
    if short not in pyspiel.registered_names():
        gt = game_type(_load(name, None))
        # a class, not a closure: pyspiel keeps the creator until after Python has shut down,
        # and a class (unlike a lambda) is never freed then, which would abort the process
        cls = type(f"RulewrightGame_{name}", (RulewrightGame,), {"NAME": name})
        _CLASSES[name] = cls
        pyspiel.register_game(gt, cls)
    return short


def register_all() -> list[str]:
    """Register every compiled game (importing this module does it once); their OpenSpiel names."""
    return [register(name) for name in available_games()]


def from_engine(state: GameState, game: RulewrightGame | None = None) -> RulewrightState:
    """A pyspiel state around (a clone of) a Rulewright state, e.g. for a bot's search."""
    mode = "sampled" if state.chance is None else "explicit"
    g = (
        game
        if game is not None
        else pyspiel.load_game(register(state.INFO.name), dict(state.options, chance=mode))
    )
    if state.INFO.simultaneous:
        return SimultaneousState(g, state.clone())
    return RulewrightState(g, state.clone())


register_all()
