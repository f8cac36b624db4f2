"""The commands of `rulewright`, one module each (rulewright/commands/check.py runs `rulewright
check`): its `arguments(sp)` adds its own arguments to its subparser, and its `run(args)` returns
an exit code or raises UsageError or CommandFailed (exits.py). rulewright/cli.py holds the table
of them, the parser and main, and imports a command's module only when that command is parsed or
run, so that `rulewright check` loads neither the engine nor the worker pool.

The modules the commands share, each named for what it holds:
- exits.py: the exit codes, and UsageError and CommandFailed
- arguments.py: what the user typed, checked (numbers, seeds, -o options), and shared options
- outputs.py: the files and folders a command writes, checked before any work
- lookup.py: the workspace, the games it sees, the spec folders a command names
- playing.py: games played by agents, logged games replayed, results as printed
- batch.py: simulate's and verify's worker processes and rule coverage
"""
