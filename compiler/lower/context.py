"""The state one game's lowering shares: its symbols and annotations, names, ids and coverage points."""

from __future__ import annotations

from dataclasses import dataclass, field

from compiler import ir
from compiler.check import Annotations
from compiler.lower.names import Names
from compiler.reads import Reads
from compiler.resolve import Symbols
from compiler.suspension import Stops
from compiler.typesys import PLAYER, Type
from compiler.viewmodel import CoveragePoint, TextFact


@dataclass(frozen=True, slots=True)
class Hoisted:
    """A loop-invariant value of an expression, in variable `temp`: computed before the statement,
    or (`lazy`) where it is first needed, the variable set to None before the statement."""

    temp: str
    node: ir.Expr
    lazy: bool


@dataclass
class Plan:
    """Where one expression binds a value for reuse (`bind`), where it reads it (`use`) and where it
    reads a lazily computed one (`lazy`), by node id; the values hoisted before it (reuse.py)."""

    bind: dict[int, str] = field(default_factory=dict)
    use: dict[int, str] = field(default_factory=dict)
    lazy: dict[int, str] = field(default_factory=dict)
    hoisted: list[Hoisted] = field(default_factory=list)
    # (type, parameter) -> the variable holding the zone of the component in the parameter, read
    # before the statement (expressions.where_reads)
    where: dict[tuple[str, str], str] = field(default_factory=dict)


@dataclass
class Context:
    """What every lowering module reads, and the few things they add to (coverage points)."""

    sym: Symbols
    ann: Annotations
    stops: Stops
    reads: Reads
    names: Names = field(default_factory=Names)
    type_index: dict[str, int] = field(default_factory=dict)
    domains: dict[str, int] = field(default_factory=dict)  # domain name -> index in GameInfo.domains
    domain_offsets: list[int] = field(default_factory=list)  # by domain index: its first action id
    # while a decision's options are lowered: the id of the comprehension that lists them, and the
    # action id of its domain's first value, added to each item (frames.decision)
    option_ids: tuple[int, int] | None = None
    # the local slots that surely hold no `none` where code is being lowered: the variable of a
    # plain loop over a zone, every component of a type, the players or an enum's values, in its
    # body (which does not assign it; a plain loop never stops, so no saved state comes between)
    sure_slots: set[str] = field(default_factory=set)
    coverage: list[CoveragePoint] = field(default_factory=list)
    covering: bool = True  # False while lowering scenario code, which is not a rule
    local_prefix: str = ""  # "self." inside a frame, where locals are slots
    walrus: int = 0  # temporaries of method calls on a computed subject
    plan: Plan | None = None  # while an expression is lowered: the values it reuses (reuse.py)
    reused: int = 0  # variables of reused values so far in the function being lowered
    looped: int = 0  # variables of comprehensions written as loops so far in the function (loops.py)
    loop_vars: dict[str, str] = field(default_factory=dict)  # their loop variables' Python types
    # while loops.py writes a loop's body: the state variables it reads, each read once before
    state_locals: dict[str, None] | None = None
    slot_locals: dict[str, None] | None = None  # and, in a frame, the frame's slots it reads
    never_fails: dict[str, bool] = field(default_factory=dict)  # functions, `type.field`s (reuse.py)
    call_chain: int = 0  # how deep reuse.function_never_fails is in calls of functions
    # the log lines and prompts so far: (form, kinds, private) -> their text (`text`)
    texts: dict[tuple[str, tuple[str, ...], bool], TextFact] = field(default_factory=dict)
    shared_wins: bool = False  # some `end game winners` was lowered (units.results_facts)
    # the loops around the statement lowered, innermost last: None for a Python loop (`break` and
    # `continue` are Python's), or a frame's loop as its (head, done) blocks (they jump there)
    loop_blocks: list[tuple[int, int] | None] = field(default_factory=list)
    # every value each local slot is given, where order.py may rely on them (order.local_values)
    local_values: dict[str, tuple[ir.Expr, ...]] | None = None
    # inline.py: while a statement's expression is lowered, the markers of the functions written
    # out in it (by the ids of the call's node and of the calls written out around it), None where
    # no call is inlined; the parameters of the function being written out -> the Python of their
    # arguments, and those whose arguments are atoms; the calls being written out
    inline_marks: dict[tuple[int, ...], str] | None = None
    inline_args: dict[str, str] | None = None
    inline_atoms: frozenset[str] = frozenset()
    inline_stack: list[tuple[str, int]] = field(default_factory=list)  # (function, call node id)
    inlinable: dict[str, bool] = field(default_factory=dict)  # function -> whether it may be
    function_points: dict[str, int] = field(default_factory=dict)  # function -> its coverage point
    # emptiness.py: the functions whose `has_` test some code calls, in the order first called;
    # whether each function's test may stop early; the nodes made for the tests (kept alive: the
    # annotations know them by id)
    emptiness: list[str] = field(default_factory=list)
    has_function: dict[str, bool] = field(default_factory=dict)
    made: list[ir.Expr] = field(default_factory=list)
    watching: bool = True  # False while lowering a scenario's setup: it arranges, no zone trigger fires
    # an invariant's `all`/`any` over every component of a type whose test reads the component
    # only as the zone it is in (loops.by_zone): its node id -> the type's constant (T_...)
    by_zone: dict[int, str] = field(default_factory=dict)

    def begin_function(self, local_prefix: str) -> None:
        """Lowering of one generated function (or frame) starts: its locals are `<prefix>l_<name>`."""
        self.local_prefix = local_prefix
        self.reused = 0
        self.looped = 0
        self.loop_vars = {}

    def __post_init__(self) -> None:
        self.type_index = {name: i for i, name in enumerate(self.sym.entity_types)}
        self.type_index["player"] = len(self.type_index)

    @property
    def two_players(self) -> bool:
        return self.sym.game.player_count.data == 2

    def cover(self, kind: str, what: str, span: ir.Span) -> list[str]:
        """A coverage point: the `# cov N` marker line to put before its first statement (none if off).

        The marker is a comment, so it costs nothing; rule coverage maps it to the statement.
        """
        if not self.covering:
            return []
        self.coverage.append(CoveragePoint(kind, what, f"{span.file}:{span.line}"))
        return [f"# cov {len(self.coverage) - 1}"]

    def text(self, form: str, kinds: tuple[str, ...], private: bool, words: list[str]) -> str:
        """The constant of a text of the rules (a log line or a prompt), one per distinct text:
        named by its first words, numbered by order of first use (GameInfo.texts)."""
        key = (form, kinds, private)
        fact = self.texts.get(key)
        if fact is None:
            name = self.names.fresh("text", *(words[:4] or ["blank"]))
            fact = self.texts[key] = TextFact(name, len(self.texts), form, kinds, private)
        return fact.name

    def zone_watch(self, type_name: str | None, dest: ir.Expr, source: ir.Expr | None = None) -> str:
        """The function a move of components of this type calls after each component moves, when
        a trigger may be on entering its destination or leaving its source (None: wherever each
        component is); the empty string for a plain move."""
        if not self.watching or type_name is None:
            return ""
        enters: set[str] = set()
        leaves: set[str] = set()
        for tr in self.sym.game.triggers:
            w = tr.watch
            z = self.sym.zones.get(w.zone) if w is not None else None
            if w is not None and z is not None and z[0].of.text == type_name:
                (enters if w.verb == "enters" else leaves).add(w.zone)
        into, out_of = self._zone_named(dest), self._zone_named(source) if source is not None else None
        if (enters and (into is None or into in enters)) or (leaves and (out_of is None or out_of in leaves)):
            return self.names.claim("zone_watch", type_name)
        return ""

    def _zone_named(self, e: ir.Expr) -> str | None:
        """The declared zone an expression is an instance of (`deck`, `hand[p]`), None if it is
        a zone value only known when the rules run."""
        if isinstance(e, ir.Index):
            e = e.subject
        return e.ident if isinstance(e, ir.Name) and e.ident in self.sym.zones else None

    def local(self, slot: str) -> str:
        return f"{self.local_prefix}l_{slot}"

    def type_constant(self, t: Type) -> str:
        """The `T_` constant of the component type a value (or list, or zone) holds."""
        if t.kind in ("zone", "list") and t.elem is not None:
            t = t.elem
        if t.kind == "entity" and t.name != "player":
            return self.names.claim("type", t.name)
        return self.names.claim("type", "player")

    def param_type(self, p: ir.Param) -> Type:
        return self.sym.type_named(p.type.text) or PLAYER
