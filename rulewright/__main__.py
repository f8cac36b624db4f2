"""`python -m rulewright ARGS` runs the `rulewright` command (rulewright/cli.py)."""

from rulewright.cli import main

if __name__ == "__main__":  # not when a spawned worker process imports this module again
    raise SystemExit(main())
