"""Games played by the agents, logged games replayed, and their results as the commands print
them (play, replay, draw, simulate, demo)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rulewright.commands.exits import CommandFailed, UsageError
from rulewright.commands.lookup import games, search, unknown_game
from rulewright.gamelog import (
    SEED_LIMIT,
    GameLog,
    LogError,
    Replay,
    ReplayDivergence,
    os_reason,
    read_log,
    replay_log,
)
from runtime.agents import Agent, check_agent, make_agent
from runtime.errors import RuleError
from runtime.text import escaped

if TYPE_CHECKING:
    from rulewright.workspace import Workspace
    from runtime.engine import GameState
    from runtime.game import Game


SEEDS = f"0 to {SEED_LIMIT - 1}"  # the range of a seed, as help texts give it
MAX_DECISIONS = 100_000  # a played game that has not ended after this many decisions is a rule error


def agent_kinds(text: str) -> list[str]:
    """The comma-separated agents of --agents, each checked (an unknown one is a usage error)."""
    kinds = [k.strip() for k in text.split(",")]
    for k in kinds:
        try:
            check_agent(k)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    return kinds


def seat_agents(game: Game, seed: int, kinds: Sequence[str]) -> list[Agent]:
    """One agent per player, the kinds cycled; each seeded from the game's seed."""
    chosen = [kinds[p % len(kinds)] for p in range(game.num_players)]
    if game.info.simultaneous and any(k.startswith("mcts") for k in chosen):
        raise UsageError(
            f"the mcts agent cannot play {game.info.name}: OpenSpiel's MCTS searches sequential turns, "
            "and this game has simultaneous choices (agents: random, greedy, first, human)"
        )
    try:
        return [make_agent(kind, seed * 1000 + p) for p, kind in enumerate(chosen)]
    except ValueError as exc:  # e.g. mcts without OpenSpiel installed
        raise UsageError(str(exc)) from None


def play_out(
    state: GameState,
    agents: Sequence[Agent],
    echo: Callable[[str], None] | None = None,
    max_steps: int = MAX_DECISIONS,
    played: list[int] | None = None,
    observe: Callable[[GameState], None] | None = None,
) -> None:
    """Let the agents play `state` to the end; each decision, once applied, goes into `played`
    (so that an interrupted game's log holds exactly the decisions that were made), and `observe`
    sees the state before the first decision and after each one."""
    shown_lines = 0
    steps = 0
    if observe is not None:
        observe(state)
    while not state.is_terminal():
        if echo is not None:
            for line in state.log(shown_lines):
                echo(escaped(line))
            shown_lines = len(state.lines)
        action = agents[state.current_player()].choose(state)
        state.apply_action(action)
        if played is not None:
            played.append(action)
        if observe is not None:
            observe(state)
        steps += 1
        if steps > max_steps:
            raise RuleError(f"no end after {max_steps} decisions")
    if echo is not None:
        for line in state.log(shown_lines):
            echo(escaped(line))


def play_game(
    game: Game,
    seed: int,
    agent_kinds: Sequence[str],
    echo: Callable[[str], None] | None = None,
    max_steps: int = MAX_DECISIONS,
    observe: Callable[[GameState], None] | None = None,
) -> GameState:
    agents = seat_agents(game, seed, agent_kinds)
    state = game.new_initial_state(seed)
    play_out(state, agents, echo, max_steps, observe=observe)
    return state


def result_line(game: Game, state: GameState) -> str:
    names = game.info.player_names
    ret = state.returns()
    if game.info.returns is None:
        score = ", ".join(f"{names[p]} {ret[p]:+.2f}" for p in range(game.num_players))
    else:  # the spec's results: whole numbers, and each player's place
        ranks = state.ranking()
        score = ", ".join(f"{names[p]} {ret[p]:+g} ({ordinal(ranks[p])})" for p in range(game.num_players))
    return escaped(f"Result: {state.reason or 'over'} [{score}] after {len(state.history)} decisions")


def ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def open_logged_game(path: Path, max_bytes: int, ws: Workspace | None) -> tuple[GameLog, Game]:
    """A log, read and checked, and the game it was played with (its options): usage errors that
    name the file and the field."""
    from runtime.game import UnknownGameError, load_game

    try:
        log = read_log(path, max_bytes)
    except LogError as exc:  # one line, which may quote a field's name or value from the log
        raise UsageError(escaped(str(exc))) from None
    if log.game not in games(ws):
        raise UsageError(f"{log.path}: field 'game': {unknown_game(log.game, False, ws)}")
    try:
        return log, load_game(log.game, log.options, search=search(ws))
    except (UnknownGameError, ValueError) as exc:
        raise UsageError(f"{log.path}: field 'options': {exc}") from None


def replayed(game: Game, log: GameLog, steps: int | None = None) -> Replay:
    """A logged game replayed: a divergence fails the command, a damaged log is a usage error."""
    try:
        return replay_log(game, log, steps)
    except ReplayDivergence as exc:
        raise CommandFailed(str(exc)) from None
    except LogError as exc:
        raise UsageError(str(exc)) from None


def write_html(
    path: Path,
    game: Game,
    seed: int,
    actions: Sequence[int],
    max_steps: int | None,
    unfinished: str | None = None,
) -> None:
    """Write the replay page of a game (rulewright/replay_html.py) and say what it holds."""
    from rulewright.replay_html import UnsafeMarkup, write_replay

    try:
        built = write_replay(path, game, seed, actions, max_steps=max_steps, unfinished=unfinished)
    except UnsafeMarkup as exc:
        raise CommandFailed(f"--html {path}: the board cannot be shown safely: {exc}") from None
    except OSError as exc:
        raise UsageError(f"--html {path}: cannot write it ({os_reason(exc)})") from None
    of = f" of {len(actions)}" if built.steps < len(actions) else ""
    print(
        f"replay page written to {path}: steps 0 to {built.steps}{of}, {built.perspectives} perspectives, "
        f"{built.size / 1e6:.2f} MB, {built.seconds:.1f} s (open it in a browser)"
    )
