"""The Rulewright runtime: the engine base classes and the API every compiled game exposes.

game = runtime.load_game("my_game")  # a folder of specs/, compiled by `rulewright build`
state = game.new_initial_state(seed=1)
while not state.is_terminal():
    state.apply_action(state.legal_actions()[0])
"""

from runtime.engine import TERMINAL, GameState, IllegalActionError, RuleError
from runtime.game import Game, UnknownGameError, available_games, load_game

State = GameState

__all__ = [
    "TERMINAL",
    "Game",
    "GameState",
    "IllegalActionError",
    "RuleError",
    "State",
    "UnknownGameError",
    "available_games",
    "load_game",
]
