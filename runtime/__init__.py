"""The Rulewright runtime: the engine base classes and the API every compiled game exposes.

What a compiled engine and its users need at run time, and nothing else: the engine (engine.py,
rng.py, chance.py, saved.py), loading built games (game.py), views, the engine contract, agents,
resampling for search (resample.py) and the OpenSpiel/PettingZoo adapters. It imports nothing from compiler/ or rulewright/.

game = runtime.load_game("my_game")  # a bundled game; a workspace's: search=(Path("generated"),)
state = game.new_initial_state(seed=1)
while not state.is_terminal():
    state.apply_action(state.legal_actions()[0])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from runtime.engine import TERMINAL, GameState, IllegalActionError, RuleError
    from runtime.game import Game, UnknownGameError, available_games, load_game

    State = GameState  # the name OpenSpiel's users look for

# The names above are imported when first asked for (`runtime.load_game`, `from runtime import
# Game`), not with the package: a program that imports one module of it (`rulewright check`
# reads runtime.text) does not pay for the engine and its imports.
_LAZY = {
    "TERMINAL": "runtime.engine",
    "GameState": "runtime.engine",
    "State": "runtime.engine",
    "IllegalActionError": "runtime.engine",
    "RuleError": "runtime.engine",
    "Game": "runtime.game",
    "UnknownGameError": "runtime.game",
    "available_games": "runtime.game",
    "load_game": "runtime.game",
}


def __getattr__(name: str) -> Any:
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module 'runtime' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(where), "GameState" if name == "State" else name)
    globals()[name] = value
    return value


# Exactly the names generated modules import from the runtime (from runtime.engine; a board
# module's from runtime.board), as Jinja2's runtime.exported: all of the runtime a compiled game
# may lean on. tests/test_layers.py fails on a generated module importing a name not listed here,
# and on a listed name none imports.
exported = (
    "Domain",
    "Frame",
    "GameInfo",
    "GameState",
    "OptionInfo",
    "Text",
    "ZoneInfo",
    "cell_labels",
    "named",
    "number_labels",
    # runtime.board: what a game's board module declares
    "Board",
    "Cards",
    "Places",
    "Shown",
    "Track",
)

__all__ = [
    "TERMINAL",
    "Game",
    "GameState",
    "IllegalActionError",
    "RuleError",
    "State",
    "UnknownGameError",
    "available_games",
    "exported",
    "load_game",
]
