"""Adapters to the tools researchers use: OpenSpiel (`openspiel.py`) and PettingZoo
(`pettingzoo.py`). They know no game: every compiled game in generated/ is offered. Install
them with `pip install -e '.[rl]'`.
"""

from __future__ import annotations

import sys

from runtime.engine import RULES_ROOM


def make_room() -> None:
    """Leave the rules RULES_ROOM frames of Python's stack before an adapter runs them: search
    algorithms (external-sampling MCCFR, expectimax) call the adapters from deep inside their own
    recursion, one level per move. The limit is raised only when the caller is that deep (the
    check is one frame lookup)."""
    limit = sys.getrecursionlimit()
    try:
        sys._getframe(limit - RULES_ROOM)
    except ValueError:
        return  # fewer than limit - RULES_ROOM frames: room enough
    sys.setrecursionlimit(limit + RULES_ROOM)
