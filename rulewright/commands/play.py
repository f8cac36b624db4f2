"""`rulewright play`: one game in the terminal, by agents or humans, with its log and replay page."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rulewright.commands.arguments import game_options, html_arguments, seed_number
from rulewright.commands.exits import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE
from rulewright.commands.lookup import current_workspace, open_game
from rulewright.commands.outputs import file_safe, output_file, write_log
from rulewright.commands.playing import SEEDS, agent_kinds, play_out, result_line, seat_agents, write_html
from rulewright.gamelog import log_text
from runtime.agents import AGENTS
from runtime.errors import RuleError
from runtime.terminal import HumanAgent, QuitGame, visible_log
from runtime.text import escaped

if TYPE_CHECKING:
    from runtime.game import Game


def arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("game", metavar="GAME|PATH", help="a compiled game or a spec folder")
    sp.add_argument("--seed", type=seed_number, default=1, help=f"{SEEDS} (default 1)")
    sp.add_argument(
        "--agents",
        default="random",
        help=f"comma-separated, one per player, cycled ({', '.join(AGENTS)}; mcts:N = N simulations)",
    )
    sp.add_argument(
        "--log", metavar="FILE", help="write a replayable JSON log (checked before the game starts)"
    )
    sp.add_argument("-q", "--quiet", action="store_true", help="print only the result")
    html_arguments(sp, "the game")
    game_options(sp)


def run(args: argparse.Namespace) -> int:
    game = open_game(args.game, args.option, current_workspace(args))
    kinds = agent_kinds(args.agents)
    log_path = output_file(args.log, "--log") if args.log is not None else None
    html_path = output_file(args.html, "--html") if args.html is not None else None
    agents = seat_agents(game, args.seed, kinds)
    humans = [a for a in agents if isinstance(a, HumanAgent)]
    interactive = bool(humans)
    state = game.new_initial_state(args.seed)
    played: list[int] = []
    try:
        # a human is shown the log at their decisions, as their player saw it; with none, it is
        # echoed whole as it is written
        play_out(state, agents, echo=None if interactive or args.quiet else print, played=played)
    except KeyboardInterrupt:
        return _stop(game, args.seed, played, "interrupted (Ctrl-C)", log_path, interactive, EXIT_INTERRUPTED)
    except EOFError:
        why = "input ended (Ctrl-D or the end of piped input)"
        return _stop(game, args.seed, played, why, log_path, interactive, EXIT_USAGE)
    except QuitGame as exc:
        return _stop(game, args.seed, played, str(exc), log_path, interactive, EXIT_USAGE)
    except RuleError as exc:
        if log_path is not None:  # the log up to the failing decision reproduces the rule error
            _keep_unfinished(game, args.seed, played, f"rule error: {exc}", log_path)
        raise
    if interactive:  # the log since the last decision at this terminal, as the humans' players saw it
        seats = [p for p, a in enumerate(agents) if isinstance(a, HumanAgent)]
        for line in visible_log(state, seats, max(h.seen for h in humans)):
            print(line)
    print(result_line(game, state))
    if log_path is not None:
        write_log(log_path, game.name, log_text(game, args.seed, state))
        print(f"log written to {log_path} (rulewright replay {log_path})")
    if html_path is not None:
        write_html(html_path, game, args.seed, state.history, args.html_steps)
    return EXIT_OK


def _stop(
    game: Game, seed: int, played: list[int], why: str, log_path: Path | None, interactive: bool, code: int
) -> int:
    """A game that stopped before its end: keep its log (in --log, or for a human player in a new
    file in the current folder) and say where."""
    if interactive:
        print()  # off the line of the prompt
    said = escaped(why)  # `why` may name a player: spec text
    target = log_path
    if target is None and interactive and played:
        target = _spare_log_path(game.name, seed)
    if target is None:
        print(
            f"rulewright play: {said} after {len(played)} decision(s); no log kept (--log FILE keeps one)",
            file=sys.stderr,
        )
        return code
    _keep_unfinished(game, seed, played, why, target)
    print(
        f"rulewright play: {said} after {len(played)} decision(s); the unfinished game's log is in "
        f"{target} (rulewright replay {target})",
        file=sys.stderr,
    )
    return code


def _keep_unfinished(game: Game, seed: int, played: list[int], why: str, path: Path) -> None:
    # The state is rebuilt from the decisions that completed: one stopped in the middle of an
    # action (Ctrl-C, a rule error) may be half applied.
    state = game.new_initial_state(seed)
    for action in played:
        state.apply_action(action)
    write_log(path, game.name, log_text(game, seed, state, unfinished=why))


def _spare_log_path(name: str, seed: int) -> Path:
    base = f"rulewright-{file_safe(name)}-seed{seed}-unfinished"
    n = 1
    while os.path.lexists(path := Path(f"{base}{'' if n == 1 else f'-{n}'}.json")):
        n += 1
    return path
