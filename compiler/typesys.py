"""The DSL's types: int, bool, str, cell, entity types (incl. player), enums, lists and zones."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Type:
    """A DSL type. `kind` is one of: int bool str cell entity enum list zone none any."""

    kind: str
    name: str = ""  # entity type or enum name; for zones: "pile" or "grid"
    elem: Type | None = None

    def __str__(self) -> str:
        if self.kind in ("entity", "enum"):
            return self.name
        if self.kind == "list":
            return f"list[{self.elem}]"
        if self.kind == "zone":
            return f"{self.name}[{self.elem}]"
        return self.kind

    @property
    def is_ref(self) -> bool:
        """Values that may be `none` (stored as -1); a zone value is its instance's index."""
        return self.kind in ("entity", "cell", "none", "zone")

    @property
    def nullable(self) -> bool:
        """Values that `none` may stand for: references, and an enum's values (an optional choice
        of one gives none). An enum is not a reference: a local or field of one starts at its
        first value, not at none."""
        return self.is_ref or self.kind == "enum"

    @property
    def iterable_elem(self) -> Type | None:
        """The element type when this can be iterated (lists and zones)."""
        return self.elem if self.kind in ("list", "zone") else None


INT = Type("int")
BOOL = Type("bool")
STR = Type("str")
CELL = Type("cell")
NONE = Type("none")
ANY = Type("any")
PLAYER = Type("entity", "player")


def list_of(t: Type) -> Type:
    return Type("list", elem=t)


def compatible(want: Type, got: Type) -> bool:
    """Can a value of type `got` be used where `want` is expected?"""
    if want == got or ANY in (want, got):
        return True
    if got.kind == "none" and want.nullable:
        return True
    if want.kind == "none" and got.nullable:
        return True
    if want.kind == "list" and got.kind in ("list", "zone"):
        assert want.elem is not None and got.elem is not None
        return compatible(want.elem, got.elem)
    return False


def comparable(a: Type, b: Type) -> bool:
    return compatible(a, b) or compatible(b, a)
