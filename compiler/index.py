"""Index: a checked spec (driver.Result) -> its names: each declaration and each use, located.

An editor's language server (rulewright/lsp) asks it where a name is declared, what it is (its
kind, type and doc) and where it is used. It is built after the fact from what the checker keeps
(Symbols, and the binding of every name in Annotations) and the IR, so checking and building pay
nothing for it. Spans of declarations and uses cover the name alone: where the IR keeps the span
of a whole entry or statement, the name is looked for in the source text from there on.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from compiler import ir, yaml_compose
from compiler.builtins import BUILTINS
from compiler.check import Annotations
from compiler.resolve import Symbols, trigger_params
from compiler.typesys import Type

# the text of a spec file as lines, by the name its spans give it (None: unknown)
TextOf = Callable[[str], list[str] | None]

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LOOK_AHEAD = 400  # lines searched for a name after the start of its entry's span
# the sections of a spec whose entries are `name: {..., doc: ...}`, and the kind they declare
_DOC_SECTIONS = (
    "options",
    "constants",
    "enums",
    "types",
    "state",
    "zones",
    "functions",
    "procedures",
    "windows",
    "events",
    "modifiers",
)
# a Binding's kind (check.py) -> the declaration it names is its `target`
_GLOBAL_BINDINGS = frozenset(
    ("const", "option", "state", "zone", "entity", "enum", "player", "all", "values")
)


@dataclass(frozen=True, slots=True)
class Declaration:
    """A declared name: `key` is unique in the spec (global names share one namespace; phases,
    triggers and invariants have their own, and a parameter its unit)."""

    key: str
    name: str
    kind: str  # "state variable", "zone", "function", ...
    span: Span
    type: str  # as the spec writes it, or a signature ("" if it has none)
    doc: str


Span = ir.Span


@dataclass(frozen=True, slots=True)
class Use:
    """A name written in the spec, and the declaration (its key) it resolves to."""

    span: Span
    key: str


@dataclass
class NameIndex:
    """Every declaration and use of a spec, and where its DSL code is."""

    declarations: dict[str, Declaration] = field(default_factory=dict)
    uses: list[Use] = field(default_factory=list)
    code: list[Span] = field(default_factory=list)  # the DSL strings (of more than a name)
    # (file, line) -> the declarations' and uses' spans on that line, with their keys
    _by_line: dict[tuple[str, int], list[tuple[Span, str]]] = field(default_factory=dict)

    def at(self, file: str, line: int, col: int) -> tuple[str, Span] | None:
        """The declaration key of the name at a position (1-based), and the name's span there."""
        for span, key in self._by_line.get((file, line), ()):
            if span.col <= col <= span.end_col:
                return key, span
        return None

    def uses_of(self, key: str) -> list[Use]:
        return [u for u in self.uses if u.key == key]

    def in_file(self, file: str) -> list[Declaration]:
        return sorted(
            (d for d in self.declarations.values() if d.span.file == file),
            key=lambda d: (d.span.line, d.span.col),
        )

    def in_code(self, file: str, line: int, col: int) -> bool:
        """Whether a position is inside a DSL string."""
        for s in self.code:
            if s.file == file and (s.line, s.col) <= (line, col) <= (s.end_line, s.end_col):
                return True
        return False

    def _add(self, span: Span, key: str) -> None:
        self._by_line.setdefault((span.file, span.line), []).append((span, key))


def build_index(sym: Symbols, ann: Annotations, text_of: TextOf) -> NameIndex:
    """The names of a checked spec: `sym` and `ann` from checking its IR `sym.game`."""
    return _Builder(sym, ann, text_of).run()


class _Builder:
    def __init__(self, sym: Symbols, ann: Annotations, text_of: TextOf) -> None:
        self.sym = sym
        self.ann = ann
        self.text_of = text_of
        self.lines: dict[str, list[str] | None] = {}
        self.index = NameIndex()
        self.docs: dict[str, str] = {}
        self.seen: set[tuple[str, int, int, str]] = set()

    def run(self) -> NameIndex:
        self.read_docs()
        self.declarations()
        self.walk_code()
        return self.index

    # ---- source text ----------------------------------------------------------------------------
    def file_lines(self, file: str) -> list[str] | None:
        if file not in self.lines:
            self.lines[file] = self.text_of(file)
        return self.lines[file]

    def locate(self, name: str, near: Span, *, before: int = 0) -> Span | None:
        """The span of `name` as a whole word at or after the start of `near` (or from `before`
        lines above it); None when it is not found there."""
        if not name or near.line < 1:
            return None
        lines = self.file_lines(near.file)
        if lines is None:
            return None
        pattern = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])")
        first = max(1, near.line - before)
        for ln in range(first, min(len(lines), near.line + _LOOK_AHEAD) + 1):
            text = lines[ln - 1]
            start = near.col - 1 if ln == near.line else 0
            m = pattern.search(text, start)
            if m is not None:
                return Span(near.file, ln, m.start() + 1, ln, m.end() + 1)
        return None

    def exact(self, name: str, span: Span) -> Span | None:
        """`span` cut to `name` if the text there starts with it, else the name looked for."""
        lines = self.file_lines(span.file)
        if lines is not None and 1 <= span.line <= len(lines):
            text = lines[span.line - 1]
            if text.startswith(name, span.col - 1):
                return Span(span.file, span.line, span.col, span.line, span.col + len(name))
        return self.locate(name, span)

    # ---- declarations ---------------------------------------------------------------------------
    def declare(
        self, key: str, name: str, kind: str, span: Span | None, type_: str = "", doc: str = ""
    ) -> None:
        if span is None or span.line < 1 or key in self.index.declarations:
            return
        self.index.declarations[key] = Declaration(
            key, name, kind, span, type_, doc or self.docs.get(key, "")
        )
        self.index._add(span, key)

    def declarations(self) -> None:
        sym, game = self.sym, self.sym.game
        for p in sym.players:
            self.declare(p, p, "player", self.locate(p, game.player_count.span, before=12), "player")
        for o in sym.options.values():
            self.declare(o.name, o.name, "option", self.exact(o.name, o.span), o.type, o.doc)
        for en in game.enums:
            if en.name not in sym.enums:
                continue
            self.declare(en.name, en.name, "enum", self.exact(en.name, en.span), "enum")
            values_at = self.locate("values", en.span) or en.span
            for v in en.values:
                self.declare(v, v, "enum value", self.locate(v, values_at), en.name)
        for et in game.types:
            if et.name not in sym.entity_types:
                continue
            info = sym.entity_types[et.name]
            fields = ", ".join(f"{n}: {t}" for n, t in info.field_types.items())
            self.declare(et.name, et.name, "component type", self.exact(et.name, et.span), f"{{{fields}}}")
            for ent in et.entities:
                if sym.entities.get(ent.id, ("",))[0] == et.name:
                    label = f" ({ent.label})" if ent.label and ent.label != ent.id else ""
                    self.declare(ent.id, ent.id, "component", self.locate(ent.id, ent.span), et.name + label)
        for c in game.constants:
            if c.name in sym.constants:
                t, value = sym.constants[c.name]
                self.declare(c.name, c.name, "constant", self.exact(c.name, c.span), f"{t} = {value}")
        for sv, t, per in sym.state.values():
            text = str(t) + (f" per {', '.join(map(str, per))}" if per else "")
            if sv.low is not None or sv.high is not None:
                text += f" ({_bound(sv.low)}..{_bound(sv.high)})"
            self.declare(sv.name, sv.name, "state variable", self.exact(sv.name, sv.span), text)
        for z, _t in sym.zones.values():
            text = f"{z.kind} of {z.of.text}" + (f" per {', '.join(p.text for p in z.per)}" if z.per else "")
            self.declare(z.name, z.name, "zone", self.exact(z.name, z.span), f"{text}, {z.visibility}")
        for f in sym.functions.values():
            sig = f"({_params(f.params)}) -> {f.returns.text}"
            self.declare(f.name, f.name, "function", self.exact(f.name, f.span), sig)
            self.params(f.name, f.params)
        for pr in sym.procedures.values():
            sig = f"({_params(pr.params)})" + (f" -> {pr.returns.text}" if pr.returns else "")
            kind = "window" if pr.window else "procedure"
            self.declare(pr.name, pr.name, kind, self.exact(pr.name, pr.span), sig)
            self.params(pr.name, pr.params)
        for table, kind in ((sym.events, "event"), (sym.modifiers, "modifier")):
            for sd in table.values():
                self.declare(
                    sd.name, sd.name, kind, self.exact(sd.name, sd.span), f"({_params(sd.params)})", sd.doc
                )
                self.params(sd.name, sd.params)
        for name, ph in sym.phases.items():
            if ph.name == name:
                self.declare("phase:" + name, name, "phase", self.exact(name, ph.span))
        for tr in game.triggers:
            if tr.name:
                on = f"on {tr.event}"
                self.declare(
                    "trigger:" + tr.name, tr.name, "trigger", self.locate(tr.name, tr.span, before=12), on
                )
        for inv in game.invariants:
            if inv.name:
                self.declare(
                    "invariant:" + inv.name,
                    inv.name,
                    "invariant",
                    self.locate(inv.name, inv.span),
                    "bool",
                    inv.why,
                )

    def params(self, unit: str, params: tuple[ir.Param, ...]) -> None:
        for p in params:
            self.declare(
                _param_key(unit, p.name), p.name, "parameter", self.exact(p.name, p.span), p.type.text
            )

    # ---- docs (the loader keeps only some: read them from the YAML) -----------------------------
    def read_docs(self) -> None:
        for file in self.sym.game.files:
            lines = self.file_lines(file)
            if not lines:
                continue
            try:
                root = yaml_compose.compose("\n".join(lines))
            except (yaml.YAMLError, yaml_compose.Refused, RecursionError):
                continue
            if not isinstance(root, MappingNode):
                continue
            for k, v in root.value:
                if not isinstance(k, ScalarNode):
                    continue
                if k.value in _DOC_SECTIONS and isinstance(v, MappingNode):
                    for ek, ev in v.value:
                        doc = _doc_of(ev)
                        if isinstance(ek, ScalarNode) and doc:
                            self.docs.setdefault(ek.value, doc)
                elif k.value in ("phases", "triggers") and isinstance(v, SequenceNode):
                    self.list_docs(k.value[:-1] + ":", v.value)

    def list_docs(self, prefix: str, entries: Iterable[Node]) -> None:
        for entry in entries:
            if not isinstance(entry, MappingNode):
                continue
            keys = {k.value: v for k, v in entry.value if isinstance(k, ScalarNode)}
            name, doc = keys.get("name"), _doc_of(entry)
            if isinstance(name, ScalarNode) and doc:
                self.docs.setdefault(prefix + name.value, doc)
            steps = keys.get("steps")
            if isinstance(steps, SequenceNode):
                self.list_docs(prefix, steps.value)

    # ---- uses -----------------------------------------------------------------------------------
    def use(self, span: Span | None, key: str) -> None:
        decl = self.index.declarations.get(key)
        name = (
            decl.name
            if decl is not None
            else key.removeprefix("builtin:")
            if key.startswith("builtin:")
            else ""
        )
        if span is None or span.line < 1 or not name:
            return
        mark = (span.file, span.line, span.col, key)
        if mark in self.seen:  # (a hoisted or desugared node may be reached twice)
            return
        lines = self.file_lines(span.file)
        if lines is None or span.line > len(lines) or not lines[span.line - 1].startswith(name, span.col - 1):
            return  # a name the compiler wrote (a desugared window's locals), not the spec
        self.seen.add(mark)
        self.index.uses.append(Use(span, key))
        self.index._add(span, key)

    def use_types(self, ref: ir.TypeRef) -> None:
        """The component types and enums a written type names (`list[card]`, `pile[card]`)."""
        start = ref.span
        for word in _WORD.findall(ref.text):
            if word in self.sym.entity_types or word in self.sym.enums:
                found = self.locate(word, start)
                self.use(found, word)
                if found is not None:
                    start = Span(found.file, found.line, found.end_col, found.end_line, found.end_col)

    def walk_code(self) -> None:
        sym, ann, game = self.sym, self.ann, self.sym.game
        for sv in game.state:
            for ref in (sv.type, *sv.per):
                self.use_types(ref)
        for z in game.zones:
            for ref in (z.of, *z.per):
                self.use_types(ref)
        for f in game.functions:
            self.use_types(f.returns)
        for pr in game.procedures:
            if pr.returns is not None:
                self.use_types(pr.returns)
        signatures = [u.params for u in game.functions] + [u.params for u in game.procedures]
        for params in signatures + [u.params for u in (*game.events, *game.modifiers)]:
            for p in params:
                self.use_types(p.type)
        for et in game.types:
            for fd in et.fields:
                self.use_types(fd.type)
        for tr in game.triggers:
            if tr.watch is not None:
                self.use(self.locate(tr.watch.zone, tr.watch.span), tr.watch.zone)
            elif tr.event in sym.events:
                self.use(self.locate(tr.event, tr.span), tr.event)
        # which unit's parameters a name may be: the code units in the order they are walked
        owners = self.param_owners()
        unit = ""
        code = 0  # the id of the code unit walked: its locals are keyed by it and their slot
        slots: dict[str, Type] = {}
        locals_: dict[str, str] = {}  # a local's name -> its key, as the unit declares them
        for node in ir.walk(game):
            match node:
                case ir.Code():
                    unit = owners.get(id(node), "")  # a Code is a unit of its own
                    code, slots, locals_ = id(node), ann.locals.get(id(node), {}), {}
                    if node.span.line > 0 and (
                        node.span.end_line > node.span.line or node.span.end_col > node.span.col
                    ):
                        self.index.code.append(node.span)
                case ir.Let() | ir.For():
                    slot = ann.slots.get(id(node))
                    if slot is not None and not node.var.startswith("$"):  # (not an answer hoist.py made)
                        key = f"local:{code}:{slot}"
                        where = self.locate(node.var, node.span)
                        self.declare(key, node.var, "local", where, str(slots.get(slot, "")))
                        locals_[node.var] = key
                case ir.Assign():
                    if node.target in locals_:
                        self.use(self.locate(node.target, node.span), locals_[node.target])
                    elif node.target in sym.state:
                        self.use(self.locate(node.target, node.span), node.target)
                case ir.Name():
                    b = ann.names.get(id(node))
                    if b is None:
                        continue
                    if b.kind in _GLOBAL_BINDINGS:
                        self.use(node.span, b.target)
                    elif b.kind == "local" and f"local:{code}:{b.target}" in self.index.declarations:
                        self.use(node.span, f"local:{code}:{b.target}")
                    elif b.kind == "local" and unit:
                        self.use(node.span, _param_key(unit, node.ident))
                case ir.Call():
                    if node.func in sym.functions or node.func in sym.procedures:
                        self.use(self.exact(node.func, node.span), node.func)
                    elif node.func in BUILTINS:
                        self.use(self.exact(node.func, node.span), "builtin:" + node.func)
                case ir.CallStmt():
                    self.use(self.locate(node.proc, node.span), node.proc)
                case ir.Emit():
                    self.use(self.locate(node.event, node.span), node.event)
                case ir.AddModifier() | ir.Cancel():
                    found = self.locate(node.name, node.span)
                    self.use(found, node.name)
                    if isinstance(node, ir.AddModifier) and node.until_phase and found is not None:
                        self.use(self.locate(node.until_phase, found), "phase:" + node.until_phase)
                case ir.Active() | ir.CountActive():
                    self.use(self.locate(node.name, node.span), node.name)
                case ir.PhaseDecl():
                    if node.counter:
                        self.use(self.locate(node.counter, node.span), node.counter)
                case _:
                    pass

    def param_owners(self) -> dict[int, str]:
        """The bodies of the code units that have parameters, by id -> the unit's name."""
        owners: dict[int, str] = {}
        for f in self.sym.functions.values():
            owners[id(f.body)] = f.name
        for pr in self.sym.procedures.values():
            owners[id(pr.body)] = pr.name
        for tr in self.sym.game.triggers:
            if tr.watch is None and tr.event in self.sym.events and trigger_params(self.sym, tr):
                for code in (tr.condition, tr.body):
                    if code is not None:
                        owners[id(code)] = tr.event
        return owners


def _doc_of(node: Node) -> str:
    if isinstance(node, MappingNode):
        for k, v in node.value:
            if isinstance(k, ScalarNode) and k.value == "doc" and isinstance(v, ScalarNode):
                return str(v.value)
    return ""


def _param_key(unit: str, name: str) -> str:
    return f"param:{unit}:{name}"


def _params(params: tuple[ir.Param, ...]) -> str:
    return ", ".join(f"{p.name}: {p.type.text}" for p in params)


def _bound(value: int | None) -> str:
    return "" if value is None else str(value)
