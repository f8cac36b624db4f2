"""Shared test set-up: deterministic Hypothesis, the repository root, the compiled games."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]

# CI and local runs repeat exactly: no example database, derandomized generation.
settings.register_profile(
    "rulewright",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "rulewright"))

# The tests build workspaces by the hundred: what their builds record (runtime/trust.py), and the
# bytecode and native builds kept beside it, go to a cache of this run's own, never the user's.
_CACHE = tempfile.TemporaryDirectory(prefix="rulewright-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE.name


# Games whose random playthroughs run to hundreds of decisions: the contract checks, verify and
# OpenSpiel's random_sim_test give them fewer examples so the suite stays within minutes.
LONG_GAMES = ("twilight_struggle", "channel_tunnel", "guerra_fronteriza", "lost_cities", "bang")
