"""The hostile-input corpus: CLI arguments, paths and logs (tests/hostile/README.md)."""

from __future__ import annotations

CASE_COUNT = 0  # how many cases this module holds (tests/test_hostile_specs.py adds them up)
