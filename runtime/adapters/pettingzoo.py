"""PettingZoo: an AEC environment for every compiled game.

    from runtime.adapters.pettingzoo import env
    e = env("GAME")  # a folder of specs/, compiled
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are the spec's player names. An observation is a dict: "observation", the fixed-size
vector of runtime/adapters/tensor.py (it hides what the player cannot see), and "action_mask",
1 for each legal action of the agent to move. Rewards are the game's returns, given at the end.
`reset(seed=S)` starts the game with engine seed S; without a seed, the next of a sequence that
the first seed started (so repeated resets give different deals).

`parallel_env("GAME")` is the same game as a ParallelEnv, for games with simultaneous choices
(`simultaneously ... by each`; any game works): every agent gives an action at each step. At a
simultaneous decision each agent still to answer chooses among its options and every other agent
has only pass (action 0), as in OpenSpiel's simultaneous games; the answers are applied together
in the decision's order. At any other decision only the acting agent's action is used, and every
other agent's mask holds only pass (what it sends is ignored). Observations carry the action
masks as the AEC environment's do; infos name the acting agents ("acting").

`max_cycles=N` (both environments; default None, no limit: every game ends by its rules)
truncates the game: every agent is truncated after N cycles, a cycle being one step of the
parallel environment, and in the AEC environment as many actions as there are agents (a step of
each, when the players take turns). `state()` is the global state, the full view's tensor (what
every player holds, as runtime/adapters/tensor.py encodes it), and `state_space` its space; the
engine's GameState is `game_state`.

`render()` draws the game's board (its spec's board.yaml): in "ansi" mode as text, in "human"
mode printed, in "rgb_array" mode as an (height, width, 3) uint8 array of the SVG picture
(rasterised by resvg: `pip install 'rulewright[view]'`). It shows everything, or with
`view_as=PLAYER` only what that player may see.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from runtime.adapters import make_room
from runtime.adapters.tensor import Encoder
from runtime.board import scene
from runtime.engine import FULL_VIEW, PASS, GameState
from runtime.game import Game, load_game
from runtime.svg import RasterUnavailable, png, svg
from runtime.view import describe


def _spaces(encoder: Encoder, actions: int) -> tuple[spaces.Dict, spaces.Discrete]:
    """Every agent's observation space (the tensor and its action mask) and action space."""
    observation = spaces.Dict(
        {
            "observation": spaces.Box(-np.inf, np.inf, (encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), np.int8),
        }
    )
    return observation, spaces.Discrete(actions)


def _state_space(encoder: Encoder) -> spaces.Box:
    return spaces.Box(-np.inf, np.inf, (encoder.size,), np.float32)


def _max_cycles(value: object) -> int | None:
    if value is None:
        return None
    if type(value) is not int or value < 1:
        raise ValueError(f"max_cycles {value!r}: a whole number of cycles, 1 or more (None: no limit)")
    return value


class RulewrightEnv(AECEnv):  # type: ignore[misc]
    """One compiled game as a PettingZoo AEC environment."""

    RENDER_MODES = ("ansi", "human", "rgb_array")
    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": "rulewright",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: Game | str,
        render_mode: str | None = None,
        *,
        view_as: str | None = None,
        max_cycles: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.max_cycles = _max_cycles(max_cycles)
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r}: choose one of {', '.join(self.RENDER_MODES)}")
        self.game = game if isinstance(game, Game) else load_game(game, options or None)
        self.metadata = dict(self.metadata, name=f"rulewright_{self.game.name}_v0")
        self.render_mode = render_mode
        names = self.game.info.player_names[: self.game.num_players]
        self.possible_agents = list(names)
        if view_as is not None and view_as not in names:
            raise ValueError(f"view_as {view_as!r}: not a player; the players are {', '.join(names)}")
        self.view_as = None if view_as is None else names.index(view_as)
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self._next_seed = 0
        self.steps = 0  # actions taken this game (max_cycles)
        self.game_state: GameState = self.game.new_initial_state(0)
        self.encoder = Encoder(self.game_state)
        self.state_space = _state_space(self.encoder)
        self._obs_space, self._act_space = _spaces(self.encoder, self.game.num_distinct_actions())

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def state(self) -> np.ndarray:
        """The global state: everything, as the full view's tensor (runtime/adapters/tensor.py)."""
        return self.encoder.encode(self.game_state, 0, FULL_VIEW)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        p = self._index.get(agent)
        if p is None:
            raise ValueError(
                f"no agent {agent!r} in {self.game.name} (agents: {', '.join(self.possible_agents)})"
            )
        mask = np.zeros(self.game.num_distinct_actions(), np.int8)
        if self.game_state.current_player() == p:
            mask[self.game_state.legal_actions()] = 1
        return {"observation": self.encoder.encode(self.game_state, p), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._next_seed = seed
        make_room()
        self.game_state = self.game.new_initial_state(self._next_seed)
        self._next_seed += 1
        self.steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        cur = self.game_state.current_player()
        if cur >= 0:
            self.agent_selection = self.possible_agents[cur]
        elif self.agents:
            self.agent_selection = self.agents[0]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: step() needs an action, not None")
        # the engine takes ints and numpy integers, and refuses anything else with the state unchanged
        make_room()
        self.game_state.apply_action(action)
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        if self.game_state.is_terminal():
            ranks = self.game_state.ranking()
            for i, (a, r) in enumerate(zip(self.possible_agents, self.game_state.returns(), strict=True)):
                self.rewards[a] = r  # the real returns: a spec's `results`, or +1 to the winners
                self.terminations[a] = True
                self.infos[a] = {"reason": self.game_state.reason, "rank": ranks[i]}
        elif self.max_cycles is not None and self.steps >= self.max_cycles * len(self.possible_agents):
            for a in self.agents:
                self.truncations[a] = True
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray[Any, np.dtype[np.uint8]] | None:
        if self.render_mode == "rgb_array":
            return rgb_array(svg(scene(self.game_state, self.view_as)))
        text = describe(self.game_state, self.view_as)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def rgb_array(picture: str) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """An SVG picture as an (height, width, 3) array of pixels."""
    try:
        from PIL import Image
    except ImportError:
        raise RasterUnavailable(
            "render_mode 'rgb_array' needs Pillow: pip install 'rulewright[view]'"
        ) from None
    with Image.open(io.BytesIO(png(picture))) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)


class RulewrightParallelEnv(ParallelEnv):  # type: ignore[misc]
    """One compiled game as a PettingZoo parallel environment (see the module's docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "rulewright"}

    def __init__(
        self,
        game: Game | str,
        render_mode: str | None = None,
        *,
        max_cycles: int | None = None,
        **options: Any,
    ) -> None:
        self.max_cycles = _max_cycles(max_cycles)
        if render_mode is not None and render_mode != "ansi":
            raise ValueError(f"render_mode {render_mode!r}: a parallel environment renders 'ansi' only")
        self.game = game if isinstance(game, Game) else load_game(game, options or None)
        self.metadata = dict(self.metadata, name=f"rulewright_{self.game.name}_parallel_v0")
        self.render_mode = render_mode
        self.possible_agents = list(self.game.info.player_names[: self.game.num_players])
        self.agents: list[str] = []
        self._next_seed = 0
        self.steps = 0  # actions taken this game (max_cycles)
        self.game_state: GameState = self.game.new_initial_state(0)
        self.encoder = Encoder(self.game_state)
        self.state_space = _state_space(self.encoder)
        self._obs_space, self._act_space = _spaces(self.encoder, self.game.num_distinct_actions())

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def state(self) -> np.ndarray:
        """The global state: everything, as the full view's tensor (runtime/adapters/tensor.py)."""
        return self.encoder.encode(self.game_state, 0, FULL_VIEW)

    def _acting(self) -> list[int]:
        s = self.game_state
        d = s.simultaneous()
        if d is not None:
            return d.waiting()
        p = s.current_player()
        return [p] if p >= 0 else []

    def _observe(self, p: int) -> dict[str, np.ndarray]:
        mask = np.zeros(self.game.num_distinct_actions(), np.int8)
        mask[self.game_state.legal_actions_of(p) or [PASS]] = 1
        return {"observation": self.encoder.encode(self.game_state, p), "action_mask": mask}

    def _observations(self) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        acting = [self.possible_agents[p] for p in self._acting()]
        obs = {a: self._observe(p) for p, a in enumerate(self.possible_agents)}
        return obs, {a: {"acting": acting} for a in self.possible_agents}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        if seed is not None:
            self._next_seed = seed
        make_room()
        self.game_state = self.game.new_initial_state(self._next_seed)
        self._next_seed += 1
        self.steps = 0
        self.agents = self.possible_agents[:]
        return self._observations()

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, dict[str, np.ndarray]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        s = self.game_state
        if not self.agents:
            raise ValueError("the game is over: reset() before step()")
        acting = self._acting()
        for p in acting:
            if self.possible_agents[p] not in actions:
                raise ValueError(f"{self.possible_agents[p]} is to act: step() needs an action for it")
        make_room()
        if s.simultaneous() is not None:
            s.apply_joint([actions.get(a, PASS) for a in self.possible_agents])
        else:
            s.apply_action(actions[self.possible_agents[acting[0]]])
        obs, infos = self._observations()
        over = s.is_terminal()
        rewards = {a: 0.0 for a in self.possible_agents}
        if over:
            ranks = s.ranking()
            for i, (a, r) in enumerate(zip(self.possible_agents, s.returns(), strict=True)):
                rewards[a] = r
                infos[a] = {"reason": s.reason, "rank": ranks[i], "acting": []}
            self.agents = []
        self.steps += 1
        cut = not over and self.max_cycles is not None and self.steps >= self.max_cycles
        if cut:
            self.agents = []
        terminations = {a: over for a in self.possible_agents}
        truncations = {a: cut for a in self.possible_agents}
        return obs, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return describe(self.game_state, None) if self.render_mode == "ansi" else None

    def close(self) -> None:
        pass


def parallel_env(
    game: Game | str, render_mode: str | None = None, *, max_cycles: int | None = None, **options: Any
) -> RulewrightParallelEnv:
    """A compiled game as a PettingZoo ParallelEnv (see the module's docstring)."""
    return RulewrightParallelEnv(game, render_mode, max_cycles=max_cycles, **options)


def raw_env(
    game: Game | str,
    render_mode: str | None = None,
    *,
    view_as: str | None = None,
    max_cycles: int | None = None,
    **options: Any,
) -> RulewrightEnv:
    """The AEC environment without PettingZoo's wrappers (`env` adds them)."""
    return RulewrightEnv(game, render_mode, view_as=view_as, max_cycles=max_cycles, **options)


def env(
    game: Game | str,
    render_mode: str | None = None,
    *,
    view_as: str | None = None,
    max_cycles: int | None = None,
    **options: Any,
) -> Any:
    """The environment with PettingZoo's standard checks: out-of-bounds and illegal actions are
    caught by the wrappers, and the order of calls is enforced."""
    e: Any = raw_env(game, render_mode, view_as=view_as, max_cycles=max_cycles, **options)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
