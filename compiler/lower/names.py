"""Names: the one scheme for identifiers in generated code, free of collisions by construction.

Every module-level name is a kind's prefix, an underscore, then the spec's own names joined by
underscores: `E_gift` (a component), `F_card_cost` (a data column), `e_card_effect_gift` (one
card's effect). A prefix is letters only, so a name's kind is what precedes its first underscore,
and only kinds with the same prefix can meet. Names built from several spec names can (type `a_b`
with field `c`, and type `a` with field `b_c`; a row named `default` and the default of its
field): the registry hands the readable name to the first claimant and a numbered one (`F_a_b_c_2`)
to the next, in the fixed order in which lowering claims them.

Locals are `l_<slot>` (declared in the spec), `c_<slot>` (a comprehension's variable), and
temporaries ending in `_`; no module-level name has those forms.
"""

from __future__ import annotations

from typing import Final

# kind -> prefix; a prefix is letters only, and never `l` or `c` (locals)
PREFIXES: Final[dict[str, str]] = {
    "type": "T",
    "zone": "Z",
    "player": "P",
    "entity": "E",
    "modifier": "M",
    "phase": "PH",
    "ids": "IDS",
    "labels": "LABELS",
    "kinds": "KINDS",
    "kind_labels": "KINDLABELS",
    "column": "F",
    "enum": "ENUM",
    "enum_ids": "ENUMIDS",
    "function": "f",
    "nonempty": "has",
    "procedure": "p",
    "procedure_frame": "Proc",
    "trigger_condition": "tc",
    "trigger": "t",
    "trigger_frame": "Trig",
    "zone_watch": "zw",
    "effect": "e",
    "effect_frame": "Eff",
    "effect_table": "EFFECT",
    "expression": "x",
    "expression_default": "x",
    "expression_table": "X",
    "phase_body": "ph",
    "phase_frame": "Phase",
    "invariant": "inv",
    "scenario": "sc",
    "cache": "CACHE",
    "readers": "READ",
    "text": "TX",
    "saved": "sv",
    "saved_table": "SV",
}

# names the engine module defines or imports besides the prefixed ones
FIXED: Final = frozenset(
    {
        "State",
        "Flow",
        "Setup",
        "setup",
        "evaluate",
        "returns_of",
        "PLAYER_LABELS",
        "INFO",
        "INVARIANTS",
        "COVERAGE",
        "SCENARIOS",
        "Callable",
        "Any",
        "Domain",
        "Frame",
        "GameInfo",
        "GameState",
        "OptionInfo",
        "Text",
        "TEXTS",
        "ZoneInfo",
    }
)


class Names:
    """The registry of a module's names: the same request always gets the same, unique name."""

    def __init__(self) -> None:
        self._given: dict[tuple[str, tuple[str, ...]], str] = {}
        self._taken: set[str] = set(FIXED)

    def claim(self, kind: str, *parts: str) -> str:
        """The name of the thing of `kind` that the spec calls `parts` (e.g. type, field, id)."""
        key = (kind, parts)
        name = self._given.get(key)
        if name is not None:
            return name
        base = f"{PREFIXES[kind]}_{'_'.join(parts)}"
        name, n = base, 1
        while name in self._taken:
            n += 1
            name = f"{base}_{n}"
        self._given[key] = name
        self._taken.add(name)
        return name

    def fresh(self, kind: str, *parts: str) -> str:
        """A new name for a thing the spec does not name (a text): `parts` describe it, and a
        second thing they describe gets a numbered name."""
        base = f"{PREFIXES[kind]}_{'_'.join(parts)}"
        name, n = base, 1
        while name in self._taken:
            n += 1
            name = f"{base}_{n}"
        self._taken.add(name)
        return name
