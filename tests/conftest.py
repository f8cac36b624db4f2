"""Shared test set-up: deterministic Hypothesis, the repository root, the compiled games."""

from __future__ import annotations

import dataclasses
import functools
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    from compiler.driver import Result

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


def _no_local_constants() -> None:
    """Hypothesis without the constants it reads from the source of every "local" module the
    process has imported (since 6.131), for the whole run, as `rulewright verify` does for its own.

    In this suite "local" is every module of ours, the engines of thousands of lines and the
    hundreds of packages tests compile and import: Hypothesis parsed each one as it appeared and
    filtered their thousands of strings at every new kind of draw, so a test drew other examples,
    and cost up to 9 times more CPU (tests/test_jsonstream.py: 0.7 s alone, 6 s in the suite),
    depending on what ran before it. Without them a test draws the same examples alone as in the
    whole suite. Should Hypothesis move the function, nothing is replaced.
    """
    import importlib

    providers: Any = importlib.import_module("hypothesis.internal.conjecture.providers")
    if hasattr(providers, "_get_local_constants") and hasattr(providers, "Constants"):
        none = providers.Constants()
        providers._get_local_constants = lambda: none


_no_local_constants()

# The tests build workspaces by the hundred: what their builds record (runtime/trust.py), and the
# bytecode and native builds kept beside it, go to a cache of this run's own, never the user's.
_CACHE = tempfile.TemporaryDirectory(prefix="rulewright-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE.name


# Games whose random playthroughs run to hundreds of decisions: the contract checks, verify and
# OpenSpiel's random_sim_test give them fewer examples so the suite stays within minutes.
LONG_GAMES = ("twilight_struggle", "channel_tunnel", "guerra_fronteriza", "lost_cities", "bang")

# Games of a handful of decisions (a hand of poker, a round of Liar's Dice): a whole game is
# shorter than the tests' usual "more than 10 steps".
SHORT_GAMES = ("kuhn_poker", "leduc_poker", "liars_dice")


@dataclasses.dataclass(frozen=True)
class Bundled:
    """A bundled spec compiled: the result without its IR (a spec's tree of some 100,000 objects,
    which the cycle collector would walk for the rest of the run), and its playthrough fingerprint."""

    result: Result
    fingerprint: dict[str, Any]


@functools.cache
def compiled(folder: str) -> Result:
    """The spec folder FOLDER (a path from the root) compiled once for the whole run, from the root
    as `rulewright build` compiles (spec files named from it), for the tests that only read what it
    compiles to, without its IR (a spec's tree of objects, which the cycle collector would walk for
    the rest of the run): tests/test_lowering.py and tests/test_layout.py read the lowering cases."""
    from compiler.driver import compile_spec

    here = Path.cwd()
    os.chdir(ROOT)
    try:
        result = compile_spec(Path(folder))
    finally:
        os.chdir(here)
    return dataclasses.replace(result, game=None)


@functools.cache
def bundled(name: str) -> Bundled:
    """specs/NAME compiled once for the whole run (as `compiled` does), for the tests that only
    read what it compiles to: its files (tests/test_generated.py), its diagnostics
    (tests/test_scenarios.py), its fingerprint (tests/test_playthroughs.py)."""
    from compiler.driver import compile_spec
    from compiler.fingerprint import fingerprint

    here = Path.cwd()
    os.chdir(ROOT)
    try:
        result = compile_spec(ROOT / "specs" / name)
    finally:
        os.chdir(here)
    assert result.game is not None, f"specs/{name} did not load"
    return Bundled(dataclasses.replace(result, game=None), fingerprint(result.game))
