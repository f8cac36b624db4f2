"""Fingerprints of a spec's entries: which procedures, cards, phases... an edit touched.

Each top-level entry of the IR (a procedure, a component's data, one of its code fields, a
phase, a constant...) gets a short hash of its IR with the spans left out, so moving text or
editing comments changes nothing, while any change of meaning changes the hash. `rulewright
diff` compares the fingerprints stored with the playthroughs against the rebuilt spec's.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass

from compiler import ir


@dataclass(frozen=True)
class Entry:
    """One spec entry: its key (e.g. "card 'Name' event"), hash and place."""

    key: str
    digest: str
    file: str
    line: int
    end_line: int

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"

    def to_data(self) -> list[object]:
        return [self.digest, self.file, self.line, self.end_line]

    @classmethod
    def from_data(cls, key: str, d: list[object]) -> Entry:
        digest, file, line, end = d
        assert isinstance(digest, str) and isinstance(file, str)
        assert isinstance(line, int) and isinstance(end, int)
        return cls(key, digest, file, line, end)


@dataclass(frozen=True)
class Change:
    """An entry that differs between two builds of a spec."""

    key: str
    kind: str  # "changed", "added" or "removed"
    where: str  # file:line in the new spec (the old one for "removed")


def _plain(node: object) -> object:
    """The IR without spans, as nested tuples (a stable repr for hashing)."""
    if isinstance(node, ir.Span):
        return None
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        skip = ("span", "text") if isinstance(node, ir.Code) else ("span",)  # Code.text: as written
        if isinstance(node, ir.FunctionDecl):
            skip = ("span", "cached")  # caching a function's values does not change what it means
        # an optional field left at its default None (or False, or empty) is left out too, and so
        # is a span added with a default (e.g. OptionDecl.type_span), so adding such a field to
        # the IR (e.g. Let.type, Choose.public, EnumDecl.labels) keeps every fingerprint recorded
        # before it
        return (type(node).__name__,) + tuple(
            _plain(getattr(node, f.name))
            for f in dataclasses.fields(node)
            if f.name not in skip and not _left_out(f, getattr(node, f.name))
        )
    if isinstance(node, tuple | list):
        return tuple(_plain(x) for x in node)
    return node


def _left_out(f: dataclasses.Field[object], value: object) -> bool:
    """A field a fingerprint leaves out: an optional one at its default, or a span added later."""
    if f.default is None or f.default is False:
        return value is f.default
    if f.default == () or f.default == "":
        return value == f.default
    return isinstance(value, ir.Span) and f.default is not dataclasses.MISSING


def _last_line(node: object, file: str) -> int:
    """The last line of `file` that any span inside `node` reaches."""
    if isinstance(node, ir.Span):
        return node.end_line if node.file == file else 0
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return max((_last_line(getattr(node, f.name), file) for f in dataclasses.fields(node)), default=0)
    if isinstance(node, tuple | list):
        return max((_last_line(x, file) for x in node), default=0)
    return 0


def _zone_shape(z: ir.ZoneDecl) -> tuple[object, ...]:
    """A zone as its fingerprint reads it. A zone with no index or a player index hashes as it did
    when that was a flag (`per_player`), so the fingerprints recorded before zones took other
    indices stay; a zone with other indices hashes its index types."""
    per: object = z.per_player if z.per == () or z.per_player else z.per
    return ("ZoneDecl", z.name, z.of, per, z.kind, z.visibility, z.radius)


def _digest(*parts: object) -> str:
    return hashlib.sha256(repr(_plain(parts)).encode()).hexdigest()[:12]


def _entries(g: ir.Game) -> Iterator[tuple[str, object, ir.Span]]:
    yield "players", (g.player_names, g.player_labels, g.player_count, g.max_number), g.span
    for o in g.options:
        yield f"option {o.name}", o, o.span
    for c in g.constants:
        yield f"constant {c.name}", c, c.span
    for e in g.enums:
        yield f"enum {e.name}", e, e.span
    for t in g.types:
        yield f"type {t.name}", t.fields, t.span
        for ent in t.entities:
            # `copies` only where a row has them: the fingerprints of other rows are as they were
            copies = (ent.copies,) if ent.copies != 1 else ()
            yield f"{t.name} '{ent.label}'", (ent.id, ent.values, ent.span, *copies), ent.span
            for name, code in ent.code:
                yield f"{t.name} '{ent.label}' {name}", code, code.span
    for v in g.state:
        yield f"state {v.name}", v, v.span
    for z in g.zones:
        yield f"zone {z.name}", _zone_shape(z), z.span
    for f in g.functions:
        yield f"function {f.name}", f, f.span
    for p in g.procedures:
        yield f"procedure {p.name}", p, p.span
    for s in g.events:
        yield f"event {s.name}", s, s.span
    for s in g.modifiers:
        yield f"modifier {s.name}", s, s.span
    for tr in g.triggers:
        yield f"trigger {tr.name}", tr, tr.span
    for inv in g.invariants:
        yield f"invariant {inv.name}", inv, inv.span
    if g.evaluation is not None:
        yield "evaluation", g.evaluation, g.evaluation.span
    if g.results is not None:
        yield "results", g.results, g.results.span
    if g.setup is not None:
        yield "setup", g.setup, g.setup.span

    def phases(ps: tuple[ir.PhaseDecl, ...]) -> Iterator[tuple[str, object, ir.Span]]:
        for ph in ps:
            own = (ph.name, ph.body, ph.repeat, ph.while_, ph.counter, tuple(s.name for s in ph.steps))
            yield f"phase {ph.name}", own, ph.span
            yield from phases(ph.steps)

    yield from phases(g.phases)


def fingerprint(g: ir.Game) -> dict[str, Entry]:
    """Every entry of the spec, by key."""
    out: dict[str, Entry] = {}
    for key, node, span in _entries(g):
        end = max(span.line, span.end_line, _last_line(node, span.file))
        out[key] = Entry(key, _digest(node), span.file, span.line, end)
    return out


def compare(old: dict[str, Entry], new: dict[str, Entry]) -> list[Change]:
    """What differs, in the new spec's order (removed entries last)."""
    out = [
        Change(k, "changed" if k in old else "added", e.where)
        for k, e in new.items()
        if k not in old or old[k].digest != e.digest
    ]
    out += [Change(k, "removed", e.where) for k, e in old.items() if k not in new]
    return out


def innermost(entries: dict[str, Entry], file: str, line: int) -> Entry | None:
    """The smallest entry whose lines hold file:line (a card's event rather than the card)."""
    best: Entry | None = None
    for e in entries.values():
        if e.file == file and e.line <= line <= e.end_line:
            if best is None or e.end_line - e.line < best.end_line - best.line:
                best = e
    return best
