"""How a command ends: the exit codes, and the two errors a command raises to end with one.

A command that ends normally returns EXIT_OK or EXIT_SPEC; main in rulewright/cli.py maps these
errors, and a rule error, Ctrl-C, a worker killed or a bug of ours, to the others."""

from __future__ import annotations

# 0 ok; 1 the spec, a rule or a check failed; 2 bad input (arguments, paths, logs), also a game
# abandoned at a human's decision (the input ended, or `q`); 70 a bug of ours (EX_SOFTWARE); 130
# interrupted by Ctrl-C (128 + SIGINT, as shells report it); 128 + N a worker process (-j) killed
# by signal N (137: SIGKILL, from the out-of-memory killer or kill -9), as the shell would report
# the command had it been the one killed.
EXIT_OK, EXIT_SPEC, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 70, 130
EXIT_SIGNALLED = 128  # + the signal that killed a worker


class UsageError(Exception):
    """Bad command-line input: an argument, a path, a game name, a log (exit code 2)."""


class CommandFailed(Exception):
    """What the command checked does not hold, e.g. a replay that diverges (exit code 1)."""
