"""The runtime's exceptions, in a module of their own: a native build (`rulewright build --native`)
compiles runtime/engine.py, and a compiled class cannot derive from an exception."""


class IllegalActionError(ValueError):
    """An action that is not legal in this state; the state is unchanged."""


class RuleError(RuntimeError):
    """A spec that asks for something impossible at run time (e.g. a choice with no options)."""


class GameEnded(Exception):
    """Unwinds the running effect when the game ends (caught by the engine loop)."""
