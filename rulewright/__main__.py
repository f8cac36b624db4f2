"""`python -m rulewright ARGS` runs the `rulewright` command (rulewright/cli.py)."""

from rulewright.cli import main

raise SystemExit(main())
