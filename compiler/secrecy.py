"""Secrecy: find decisions whose answer, logged for every player, tells some of them about cards
they may not see.

The runtime logs each answer as `Germany chooses Night Attack 3 (prompt)`, to every player unless
the decision is `secretly`. That line leaks a hidden card in two ways, and both are errors here
(code `leaky-decision`), at the decision:

1. Its options are hidden: they come from a zone some player cannot see (an `owner`, `others` or
   `hidden` zone, or an owner-only variable), directly or through a filter, a comprehension, `top`,
   a local, a function or a procedure parameter, or are components tested to be `in` such a zone; and
   nothing after the decision shows the chosen value to every player anyway (a move to a public
   zone, a place on a public grid, `reveal`, a log line or end-of-game reason naming it, or a
   procedure that does one of these with it).
2. Its answer steers a move of other cards between two zones some player cannot see (a `deal` or
   `move` after it, in the same code, whose item depends on the answer or that runs in a branch
   or loop that does): the answer then says which hidden cards went where.

Either decision must be `secretly` (logged to the chooser only) or `publicly` (the spec says the
answer may be known). Only `choose` decisions are judged; `ask` and `choose number` answer with a
yes/no or a number. The analysis follows each code unit forward (branches merged, loops to a fixed
point), and looks into procedures only for what they do with their parameters; it does not follow
`emit`. Every pass is linear in the size of the code, so a large spec cannot make `check` slow.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from compiler import errorcodes as codes
from compiler import ir, messages
from compiler.builtins import BUILTINS
from compiler.check import Annotations
from compiler.diagnostics import Sink
from compiler.resolve import Symbols


@dataclass(frozen=True, slots=True)
class Hidden:
    """Where values may come from that some player cannot see: a zone, an owner-only variable, or
    (inside a function's summary) one of the function's parameters."""

    kind: str  # "zone", "var" or "param"
    name: str  # the zone or variable; for "param", the parameter's position
    owner: object = None  # the shape of a per-player zone's owner expression, when known


Taint = frozenset[Hidden]
NO_TAINT: Taint = frozenset()
Key = tuple[str, str]  # ("local", slot) or ("state", variable): where a value is held
Ids = frozenset[int]  # sites (see _Site)
NO_IDS: Ids = frozenset()

# builtins whose result is an element (or elements) of their first argument (looked up in the
# table, so a builtin renamed there fails here at import rather than go unwatched)
_ELEMENT_BUILTINS = frozenset(BUILTINS[name].name for name in ("top", "top_n", "random"))


def find_leaks(sym: Symbols, ann: Annotations, sink: Sink) -> None:
    """Report every leaky decision of the game (see the module's doc)."""
    if sym.max_players >= 2:  # alone at the table, nobody can learn what the log says
        Secrecy(sym, ann, sink).run()


def _shape(e: object) -> object:
    """An expression without its spans, for telling whether two owner expressions are the same."""
    if isinstance(e, tuple):
        return tuple(_shape(x) for x in e)
    kind = type(e)
    if not hasattr(kind, "__dataclass_fields__"):
        return e
    return (kind.__name__, *(_shape(getattr(e, f.name)) for f in ir.field_kinds(kind) if f.name != "span"))


def _blocks(s: ir.Stmt) -> Iterator[tuple[ir.Stmt, ...]]:
    """The statement blocks directly inside a statement."""
    match s:
        case ir.If():
            for _, body in s.branches:
                yield body
            yield s.orelse
        case ir.For() | ir.While() | ir.Repeat():
            yield s.body
        case _:
            pass


def _decides(body: Iterable[ir.Stmt]) -> bool:
    """Whether statements take a decision's answer (a site the flow follows), in any block."""
    for s in body:
        if isinstance(s, (ir.Let, ir.Assign)) and isinstance(s.value, ir.Choose):
            return True
        for inner in _blocks(s):
            if _decides(inner):
                return True
    return False


def _calls(body: Iterable[ir.Stmt]) -> Iterator[ir.CallStmt]:
    for s in body:
        if isinstance(s, ir.CallStmt):
            yield s
        for inner in _blocks(s):
            yield from _calls(inner)


@dataclass
class _Site:
    """A decision whose answer the flow follows (or, for a procedure's summary, a parameter)."""

    choose: ir.Choose | None
    came_from: Taint  # the hidden places its options come from
    published: bool = False  # something shows the answer to every player
    steers: tuple[ir.Stmt, Hidden, Hidden] | None = None  # a hidden move that depends on it


@dataclass
class _Facts:
    """What the flow knows at one point: the sites whose answers each local or state variable may
    hold, and the sites its value may depend on."""

    holds: dict[Key, Ids] = field(default_factory=dict)
    deps: dict[Key, Ids] = field(default_factory=dict)

    def copy(self) -> _Facts:
        return _Facts(dict(self.holds), dict(self.deps))

    def merge(self, other: _Facts) -> bool:
        """Add what `other` knows; True when something was new."""
        grew = False
        for mine, theirs in ((self.holds, other.holds), (self.deps, other.deps)):
            for k, v in theirs.items():
                old = mine.get(k, NO_IDS)
                if not v <= old:
                    mine[k] = old | v
                    grew = True
        return grew


class Secrecy:
    """The pass: summaries of functions and procedures, then each code unit's decisions."""

    def __init__(self, sym: Symbols, ann: Annotations, sink: Sink) -> None:
        self.sym = sym
        self.ann = ann
        self.sink = sink
        self.zones = {name: z for name, (z, _) in sym.zones.items()}
        self.owner_vars = {
            name for name, (sv, _, per) in sym.state.items() if sv.visibility == "owner" and per
        }
        self.function_taint: dict[str, Taint] = {}
        self.functions_in_progress: set[str] = set()
        self.param_taint: dict[str, list[Taint]] = {
            name: [NO_TAINT] * len(pr.params) for name, pr in sym.procedures.items()
        }
        self.publishes: dict[str, set[int]] = {name: set() for name in sym.procedures}
        # a code unit -> what its parameters may hold, and so what its locals may (environment):
        # the rounds below ask again and again, and a unit's parameters rarely hold more each time
        self.environments: dict[int, tuple[tuple[Taint, ...], dict[str, Taint]]] = {}
        # id of an expression (or statement) -> keys_in it: flows walk the same code many times
        self.keys_inside: dict[int, tuple[Key, ...]] = {}

    # ---- the code units -----------------------------------------------------------------------
    def units(self) -> Iterator[tuple[ir.Code, str | None]]:
        """Every code unit that may decide, with its procedure's name (None for the others)."""
        g = self.sym.game
        for pr in self.sym.procedures.values():
            yield pr.body, pr.name
        for info in self.sym.entity_types.values():
            for ent in info.decl.entities:
                for _, code in ent.code:
                    yield code, None
        for tr in g.triggers:
            yield tr.body, None
        if g.setup is not None:
            yield g.setup, None
        for ph in self.sym.phases.values():
            if ph.body is not None:
                yield ph.body, None

    def callees_first(self) -> list[str]:
        """The procedures, each after the ones it calls (but for recursion): summaries built in
        this order are complete after one round, and callers' facts reach callees in reverse."""
        procs = self.sym.procedures
        order: list[str] = []
        done: set[str] = set()

        def callees(name: str) -> Iterator[str]:
            return iter(sorted({c.proc for c in _calls(procs[name].body.body) if c.proc in procs}))

        for root in procs:
            if root in done:
                continue
            done.add(root)
            stack = [(root, callees(root))]
            while stack:  # a depth-first walk without recursion: call chains may be long
                name, todo = stack[-1]
                nxt = next((c for c in todo if c not in done), None)
                if nxt is None:
                    order.append(name)
                    stack.pop()
                else:
                    done.add(nxt)
                    stack.append((nxt, callees(nxt)))
        return order

    def run(self) -> None:
        order = self.callees_first()
        others = [(code, proc) for code, proc in self.units() if proc is None]
        # what each procedure's parameters may hold, from every call (taints only grow)
        changed = True
        while changed:
            changed = False
            for code, proc in [*others, *((self.sym.procedures[p].body, p) for p in reversed(order))]:
                env = self.environment(code, proc)
                for call in _calls(code.body):
                    taints = self.param_taint.get(call.proc)
                    for i, arg in enumerate(call.args[: len(taints or ())]):
                        assert taints is not None
                        grown = taints[i] | self.sources(arg, env)
                        if grown != taints[i]:
                            taints[i] = grown
                            changed = True
        # which parameters each procedure shows to every player (they only grow too)
        changed = True
        while changed:
            changed = False
            for name in order:
                pr = self.sym.procedures[name]
                if not pr.params:
                    continue  # it shows no parameter
                flow = _Flow(self, self.environment(pr.body, name))
                start = _Facts()
                for i, param in enumerate(pr.params):
                    flow.sites.append(_Site(None, NO_TAINT))
                    start.holds[("local", param.name)] = frozenset({i})
                flow.run(pr.body.body, start)
                shown = {i for i in range(len(pr.params)) if flow.sites[i].published}
                if not shown <= self.publishes[name]:
                    self.publishes[name] |= shown
                    changed = True
        for code, proc in self.units():
            if not _decides(code.body):
                continue  # no decision to judge
            flow = _Flow(self, self.environment(code, proc))
            flow.run(code.body, _Facts())
            for site in flow.sites:
                self.judge(site)

    # ---- what locals may hold ---------------------------------------------------------------
    def environment(self, code: ir.Code, proc: str | None) -> dict[str, Taint]:
        """Each local slot of a unit -> the hidden places its value may come from. Slots are unique
        within a unit, so flow-insensitive passes are enough (repeated while loops add to them)."""
        taints = tuple(self.param_taint[proc]) if proc is not None else ()
        kept = self.environments.get(id(code))
        if kept is not None and kept[0] == taints:
            return kept[1]  # (worked out again, it would be the same: summaries are kept too)
        env: dict[str, Taint] = {}
        if proc is not None:
            pr = self.sym.procedures[proc]
            for param, taint in zip(pr.params, taints, strict=False):
                env[param.name] = taint
        while True:
            before = dict(env)
            self.assignments(code.body, env)
            if env == before:
                self.environments[id(code)] = (taints, env)
                return env

    def assignments(self, body: Iterable[ir.Stmt], env: dict[str, Taint]) -> None:
        for s in body:
            match s:
                case ir.Let() if not isinstance(s.value, (ir.Choose, ir.ChooseNumber, ir.Ask)):
                    slot = self.ann.slots.get(id(s))
                    if slot is not None:
                        env[slot] = env.get(slot, NO_TAINT) | self.sources(s.value, env)
                case ir.Assign() if not isinstance(s.value, (ir.Choose, ir.ChooseNumber, ir.Ask)):
                    b = self.ann.names.get(id(s))
                    if b is not None and b.kind == "local":
                        env[b.target] = env.get(b.target, NO_TAINT) | self.sources(s.value, env)
                case ir.For():
                    slot = self.ann.slots.get(id(s))
                    if slot is not None:
                        env[slot] = env.get(slot, NO_TAINT) | self.sources(s.source, env)
                case _:
                    pass
            for inner in _blocks(s):
                self.assignments(inner, env)

    def sources(self, e: ir.Expr, env: dict[str, Taint], comp: dict[str, Taint] | None = None) -> Taint:
        """The hidden places the value of `e` (or its elements) may come from."""
        comp = comp or {}
        if isinstance(e, (ir.Name, ir.Index, ir.Call, ir.MethodCall)) and self.zone_name(e) is None:
            t = self.ann.type_of(e)
            if t.kind == "zone":  # a zone value: any zone of its type it may be
                return frozenset().union(*(self.zone_taint(z, None) for z in self.possible_zones(e)))
        match e:
            case ir.Name():
                b = self.ann.names.get(id(e))
                if b is None:
                    return NO_TAINT
                if b.kind == "zone":
                    return self.zone_taint(b.target, None)
                if b.kind == "state" and b.target in self.owner_vars:
                    return frozenset({Hidden("var", b.target)})
                if b.kind == "local":
                    return env.get(b.target, NO_TAINT)
                if b.kind == "comp":
                    return comp.get(b.target, NO_TAINT)
                return NO_TAINT
            case ir.Index():
                b = self.ann.names.get(id(e.subject)) if isinstance(e.subject, ir.Name) else None
                if b is not None and b.kind == "zone":
                    return self.zone_taint(b.target, self.owner_of(b.target, e.args))
                if b is not None and b.kind == "state":
                    return frozenset({Hidden("var", b.target)}) if b.target in self.owner_vars else NO_TAINT
                return self.sources(e.subject, env, comp)
            case ir.Field() | ir.MethodCall():
                return self.sources(e.subject, env, comp)
            case ir.Call():
                if e.func in self.sym.functions:
                    return self.call_taint(e, env, comp)
                if e.func in _ELEMENT_BUILTINS and e.args:
                    return self.sources(e.args[0], env, comp)
                return NO_TAINT
            case ir.ListLit():
                return frozenset().union(*(self.sources(x, env, comp) for x in e.items))
            case ir.ListComp():
                inner = {**comp, e.var: self.sources(e.source, env, comp)}
                return self.sources(e.item, env, inner) | self.members(e.cond, e.var, env, inner)
            case ir.Quantifier() if e.kind == "filter":
                inner = {**comp, e.var: self.sources(e.source, env, comp)}
                return inner[e.var] | self.members(e.cond, e.var, env, inner)
            case ir.BinOp() if e.op == "+":
                return self.sources(e.left, env, comp) | self.sources(e.right, env, comp)
            case ir.CondExpr():
                return self.sources(e.then, env, comp) | self.sources(e.other, env, comp)
            case _:
                return NO_TAINT

    def zone_taint(self, name: str, owner: ir.Expr | None) -> Taint:
        z = self.zones.get(name)
        if z is None or z.visibility == "public":
            return NO_TAINT
        return frozenset({Hidden("zone", name, _shape(owner) if owner is not None else None)})

    def members(self, cond: ir.Expr | None, var: str, env: dict[str, Taint], comp: dict[str, Taint]) -> Taint:
        """Hidden places a comprehension's variable is tested to be `in` (`x in hand[p]`)."""
        if cond is None:
            return NO_TAINT
        found: set[Hidden] = set()
        stack: list[object] = [cond]
        while stack:
            node = stack.pop()
            if (
                isinstance(node, ir.Compare)
                and node.op == "in"
                and isinstance(node.left, ir.Name)
                and node.left.ident == var
            ):
                found |= self.sources(node.right, env, comp)
            stack.extend(ir.children(node))
        return frozenset(found)

    def call_taint(self, e: ir.Call, env: dict[str, Taint], comp: dict[str, Taint]) -> Taint:
        """A function's result: its own hidden places, and those of the arguments it passes on."""
        out: set[Hidden] = set()
        for h in self.function_summary(e.func):
            if h.kind != "param":
                out.add(h)
            elif int(h.name) < len(e.args):
                out |= self.sources(e.args[int(h.name)], env, comp)
        return frozenset(out)

    def function_summary(self, name: str) -> Taint:
        if name in self.function_taint:
            return self.function_taint[name]
        f = self.sym.functions[name]
        if name in self.functions_in_progress or f.body.expr is None:
            return NO_TAINT  # a recursive call adds nothing new
        self.functions_in_progress.add(name)
        env = {p.name: frozenset({Hidden("param", str(i))}) for i, p in enumerate(f.params)}
        taint = self.sources(f.body.expr, env)
        self.functions_in_progress.discard(name)
        self.function_taint[name] = taint
        return taint

    # ---- zones and names ----------------------------------------------------------------------
    def keys_in(self, e: object) -> tuple[Key, ...]:
        """Where the locals and state variables named inside `e` are held (see key_of)."""
        out: list[Key] = []
        stack: list[object] = [e]
        while stack:
            node = stack.pop()
            if isinstance(node, ir.Name):
                key = self.key_of(node)
                if key is not None:
                    out.append(key)
            stack.extend(ir.children(node))
        return tuple(dict.fromkeys(out))

    def key_of(self, e: ir.Expr) -> Key | None:
        """Where a reference to a local or a state variable (indexed or not) is held."""
        if isinstance(e, ir.Index) and isinstance(e.subject, ir.Name):
            e = e.subject
        if not isinstance(e, ir.Name):
            return None
        b = self.ann.names.get(id(e))
        if b is None or b.kind not in ("local", "state"):
            return None
        return (b.kind, b.target)

    def zone_name(self, e: ir.Expr) -> str | None:
        subject = e.subject if isinstance(e, ir.Index) else e
        b = self.ann.names.get(id(subject)) if isinstance(subject, ir.Name) else None
        return b.target if b is not None and b.kind == "zone" else None

    def possible_zones(self, e: ir.Expr) -> list[str]:
        """The declared zones `e` may be: the one it names, or for a zone value (a local, a
        parameter, a call) whose instance is not known here, every zone of its type."""
        name = self.zone_name(e)
        if name is not None:
            return [name]
        t = self.ann.type_of(e)
        if t.kind != "zone":
            return []
        return [n for n, (_, zt) in self.sym.zones.items() if zt == t]

    def owner_of(self, name: str, args: tuple[ir.Expr, ...]) -> ir.Expr | None:
        """The index of a zone instance that is its owner (its player index), if it has one."""
        at = self.sym.zone_owner_index(name)
        return args[at] if at is not None and at < len(args) else None

    def public_zone(self, e: ir.Expr) -> bool:
        names = self.possible_zones(e)
        return bool(names) and all(self.zones[n].visibility == "public" for n in names)

    def zone_taint_of(self, e: ir.Expr) -> Hidden | None:
        name = self.zone_name(e)
        if name is None:  # a zone value: hidden if any zone it may be is hidden
            hidden = (h for n in self.possible_zones(e) for h in self.zone_taint(n, None))
            return next(hidden, None)
        owner = self.owner_of(name, e.args) if isinstance(e, ir.Index) else None
        return next(iter(self.zone_taint(name, owner)), None)

    def owner_zone(self, h: Hidden) -> bool:
        """A per-player zone only its owner sees, with a known owner expression."""
        return h.kind == "zone" and self.zones[h.name].visibility == "owner" and h.owner is not None

    def handed_over(self, came_from: Taint, dest: ir.Expr) -> bool:
        """In a two-player game, a card taken from one player's owner zone into the other's is
        seen by both (`give a card to your opponent`): nobody is left to learn it from the log."""
        to = self.zone_taint_of(dest)
        if self.sym.max_players > 2 or to is None or not came_from:
            return False
        return self.owner_zone(to) and all(self.owner_zone(h) and h.owner != to.owner for h in came_from)

    def hidden_from_someone(self, a: Hidden, b: Hidden) -> bool:
        """Is there a player who sees neither place? A `hidden` zone is seen by nobody, an owner
        zone or variable by its owner only, an `others` zone by all but its owner; two owners may
        be two players."""
        if a.kind == "param" or b.kind == "param":
            return False
        owners = [h for h in (a, b) if self.seen_as(h) != "hidden"]
        if len(owners) < 2:
            return True
        same = owners[0].owner is not None and owners[0].owner == owners[1].owner
        kinds = {self.seen_as(h) for h in owners}
        if kinds == {"others"}:  # its owner alone sees neither, if both are one player's
            return same
        if "others" in kinds:  # the owner of the `others` zone, unless it owns the other place too
            return not same
        return same or self.sym.max_players >= 3

    def seen_as(self, h: Hidden) -> str:
        """A hidden place's visibility (an owner-only variable counts as an `owner` zone)."""
        return self.zones[h.name].visibility if h.kind == "zone" else "owner"

    # ---- the verdict --------------------------------------------------------------------------
    def judge(self, site: _Site) -> None:
        d = site.choose
        if d is None or d.public:
            return
        verb = ("optionally " if d.optional else "") + "choose"
        if d.window:  # a response window's question: said with the window's `disclosure` key
            verb = f"window '{d.window}'"
        chooser = _shape(d.player) if d.player is not None else None
        if d.each is not None:  # each player of `by each p in xs` chooses: `p`
            chooser = _shape(ir.Name(d.each.var, d.each.span))
        own = sorted(h.name for h in site.came_from if self.seen_as(h) == "others" and h.owner == chooser)
        if own:  # the options offered, even secretly, name the cards their chooser may not see
            z = self.zones[own[0]]
            self.sink.error(
                codes.LEAKY_DECISION,
                d.span,
                messages.leaky_own_cards(own[0]),
                messages.zone_hidden(z.name, z.visibility, z.span),
                messages.OWN_CARDS_NOTE,
            )
            return
        if d.secret or d.simultaneous:  # (a simultaneous choice is revealed to all at once)
            return
        public_note = messages.publicly_note(verb)
        hidden = sorted(site.came_from, key=lambda h: (h.kind, h.name))
        if hidden and not site.published:
            places = ", ".join(dict.fromkeys(self.place(h) for h in hidden))
            t = self.ann.type_of(d.options)
            value = t.kind == "zone" and self.zone_name(d.options) is None
            self.sink.error(
                codes.LEAKY_DECISION,
                d.span,
                messages.leaky_options(places, verb),
                *dict.fromkeys(self.visibility_note(h) for h in hidden),
                *((messages.zone_value_may_be_hidden(str(t)),) if value else ()),
                messages.LEAKY_OPTIONS_NOTE,
                public_note,
            )
        elif site.steers is not None:
            stmt, src, dst = site.steers
            self.sink.error(
                codes.LEAKY_DECISION,
                d.span,
                messages.leaky_steer(
                    isinstance(stmt, ir.Deal), self.place(src), self.place(dst), stmt.span.line, verb
                ),
                *dict.fromkeys(self.visibility_note(h) for h in (src, dst)),
                public_note,
            )

    @staticmethod
    def place(h: Hidden) -> str:
        return f"zone '{h.name}'" if h.kind == "zone" else f"variable '{h.name}'"

    def visibility_note(self, h: Hidden) -> str:
        if h.kind == "var":
            sv = self.sym.state[h.name][0]
            return messages.variable_seen_by_owner(h.name, sv.span)
        z = self.zones[h.name]
        return messages.zone_hidden(h.name, z.visibility, z.span)


class _Flow:
    """One code unit, followed forward from its start: which decisions' answers each variable
    holds or depends on, which statements show an answer to all, and which hidden moves an answer
    steers. Branches start from the same facts and merge after; a loop's body is walked again,
    with what its end knows added to its head, until nothing new flows back."""

    def __init__(self, secrecy: Secrecy, env: dict[str, Taint]) -> None:
        self.s = secrecy
        self.env = env
        self.sites: list[_Site] = []
        self.site_of: dict[int, int] = {}  # id(choose) -> its site
        self.loop_heads: dict[int, _Facts] = {}  # id(loop) -> what flows back from its end
        self.again = False

    def run(self, body: tuple[ir.Stmt, ...], start: _Facts) -> None:
        self.again = True
        while self.again:
            self.again = False
            self.block(body, start.copy(), NO_IDS)

    def holds(self, e: ir.Expr, facts: _Facts) -> Ids:
        """The sites whose answers `e` is (itself, its label, or in a list literal)."""
        if isinstance(e, ir.ListLit):
            return frozenset().union(*(self.holds(x, facts) for x in e.items))
        if isinstance(e, ir.Call) and e.func == "label" and e.args:
            return self.holds(e.args[0], facts)
        key = self.s.key_of(e)
        return facts.holds.get(key, NO_IDS) if key is not None else NO_IDS

    def deps(self, e: object, facts: _Facts) -> Ids:
        """The sites whose answers some name inside `e` depends on."""
        keys = self.s.keys_inside.get(id(e))
        if keys is None:
            keys = self.s.keys_inside[id(e)] = self.s.keys_in(e)
        if not keys:
            return NO_IDS
        out: set[int] = set()
        held = facts.deps
        for key in keys:
            out |= held.get(key, NO_IDS)
        return frozenset(out)

    def set(self, facts: _Facts, key: Key | None, holds: Ids, deps: Ids) -> None:
        """A local takes the new value; a state variable (one index of it) may hold either."""
        if key is None:
            return
        if key[0] == "state":
            holds |= facts.holds.get(key, NO_IDS)
            deps |= facts.deps.get(key, NO_IDS)
        facts.holds[key] = holds
        facts.deps[key] = deps

    def site(self, d: ir.Choose) -> int:
        n = self.site_of.get(id(d))
        if n is None:
            came_from = frozenset(h for h in self.s.sources(d.options, self.env) if h.kind != "param")
            n = self.site_of[id(d)] = len(self.sites)
            self.sites.append(_Site(d, came_from))
        return n

    def block(self, body: Iterable[ir.Stmt], facts: _Facts, control: Ids) -> _Facts:
        for s in body:
            facts = self.stmt(s, facts, control)
        return facts

    def loop(self, s: ir.For | ir.While | ir.Repeat, facts: _Facts, control: Ids) -> _Facts:
        head = facts.copy()
        head.merge(self.loop_heads.get(id(s), _Facts()))
        if isinstance(s, ir.For):
            inner = control | self.deps(s.source, head) | self.deps(s.cond, head)
            slot = self.s.ann.slots.get(id(s))
            if slot is not None:
                self.set(
                    head, ("local", slot), self.holds(s.source, head), self.deps(s.source, head) | control
                )
        else:
            inner = control | self.deps(s.cond if isinstance(s, ir.While) else s.count, head)
        end = self.block(s.body, head.copy(), inner)
        back = self.loop_heads.setdefault(id(s), _Facts())
        if back.merge(end):
            self.again = True
        head.merge(end)  # the body may run no time or several
        return head

    def stmt(self, s: ir.Stmt, facts: _Facts, control: Ids) -> _Facts:
        sec = self.s
        match s:
            case ir.Let() | ir.Assign():
                if isinstance(s, ir.Let):
                    slot = sec.ann.slots.get(id(s))
                    key: Key | None = ("local", slot) if slot is not None else None
                else:
                    b = sec.ann.names.get(id(s))
                    key = (b.kind, b.target) if b is not None and b.kind in ("local", "state") else None
                if isinstance(s.value, ir.Choose):
                    answer = frozenset({self.site(s.value)})
                    self.set(facts, key, answer, answer | control)
                else:
                    self.set(facts, key, self.holds(s.value, facts), self.deps(s.value, facts) | control)
            case ir.If():
                merged: _Facts | None = None
                branch_control = control
                for cond, inner in (*s.branches, (None, s.orelse)):
                    if cond is not None:
                        branch_control = branch_control | self.deps(cond, facts)
                    end = self.block(inner, facts.copy(), branch_control)
                    if merged is None:
                        merged = end
                    else:
                        merged.merge(end)
                assert merged is not None
                return merged
            case ir.For() | ir.While() | ir.Repeat():
                return self.loop(s, facts, control)
            case ir.Move():
                chosen = self.holds(s.item, facts)
                for n in chosen:
                    if sec.public_zone(s.dest) or sec.handed_over(self.sites[n].came_from, s.dest):
                        self.sites[n].published = True
                dst = sec.zone_taint_of(s.dest)
                if dst is not None:
                    for src in sec.sources(s.item, self.env):
                        if sec.hidden_from_someone(src, dst):
                            # moving the chosen card itself is judged by where its options came from
                            self.steer((self.deps(s.item, facts) | control) - chosen, s, src, dst)
            case ir.Deal():
                src_t, dst = sec.zone_taint_of(s.source), sec.zone_taint_of(s.dest)
                if src_t is not None and dst is not None and sec.hidden_from_someone(src_t, dst):
                    self.steer(self.deps(s, facts) | control, s, src_t, dst)
            case ir.Place() if sec.public_zone(s.grid):
                self.publish(self.holds(s.item, facts))
            case ir.Reveal():
                self.publish(self.holds(s.item, facts))
            case ir.Log():
                self.publish(self.named(s.message, facts))
            case ir.EndGame() if s.reason is not None:
                self.publish(self.named(s.reason, facts))
            case ir.CallStmt():
                shown = sec.publishes.get(s.proc, set())
                for i, a in enumerate(s.args):
                    if i in shown:
                        self.publish(self.holds(a, facts))
            case _:
                pass
        return facts

    def named(self, text: ir.StrLit, facts: _Facts) -> Ids:
        return frozenset().union(*(self.holds(p, facts) for p in text.parts if not isinstance(p, str)))

    def publish(self, ids: Ids) -> None:
        for n in ids:
            self.sites[n].published = True

    def steer(self, ids: Ids, s: ir.Stmt, src: Hidden, dst: Hidden) -> None:
        for n in ids:
            if self.sites[n].steers is None:
                self.sites[n].steers = (s, src, dst)


def find_board_leaks(sym: Symbols, ann: Annotations, sink: Sink) -> None:
    """Report every expression of the board that reads what some player may not see (code
    `board-shows-hidden`): the contents of an `owner`, `others` or `hidden` zone, or an owner-only
    variable, directly or through the functions and component fields it calls. The board is drawn alike
    for every player, so it shows only public things; a zone's size is public (`len(zone)`), as
    every observation holds it. Player-only zones are drawn from each player's observation."""
    board = sym.game.board
    if board is None:
        return
    hidden = _HiddenReads(sym, ann)
    codes_of = [c for pl in board.places for c in _place_codes(pl)]
    codes_of += [tr.value for tr in board.tracks]
    codes_of += [c for cards in board.cards for c in (cards.value, cards.text) if c is not None]
    for code in codes_of:
        found = hidden.in_code(code)
        if found is not None:
            what, via, span = found
            sink.error(codes.BOARD_SHOWS_HIDDEN, span, messages.board_shows_hidden(what, via))


def _place_codes(pl: ir.BoardPlaces) -> Iterator[ir.Code]:
    for code in (pl.where, pl.group, pl.label, pl.owner, pl.marked, pl.links, *(pl.coords or ())):
        if code is not None:
            yield code
    for _, code, _ in pl.show:
        yield code
    for marker in pl.markers or ():
        if marker is not None:
            yield marker


class _HiddenReads:
    """The first thing a piece of code reads that some player may not see (memoised per function
    and per component field, through any depth of calls; a cycle of calls adds nothing)."""

    def __init__(self, sym: Symbols, ann: Annotations) -> None:
        self.sym, self.ann = sym, ann
        self.units: dict[tuple[str, ...], tuple[str, str] | None] = {}

    def in_code(self, code: ir.Code) -> tuple[str, str, ir.Span] | None:
        """(what is read, through which function or field, where in `code`), or None."""
        stack: list[object] = [code.expr] if code.expr is not None else list(code.body)
        while stack:
            node = stack.pop()
            found = self.direct(node)
            if found is not None:
                return found
            if isinstance(node, ir.Call) and node.func == "len" and len(node.args) == 1:
                arg = node.args[0]
                if self.zone_name(arg) is not None or (
                    isinstance(arg, ir.Name) and self.ann.type_of(arg).kind == "zone"
                ):  # a zone's size is public: look only at its index
                    stack.extend(arg.args if isinstance(arg, ir.Index) else ())
                    continue
            stack.extend(ir.children(node))
        return None

    def direct(self, node: object) -> tuple[str, str, ir.Span] | None:
        match node:
            case ir.Name():
                b = self.ann.names.get(id(node))
                if b is not None and b.kind == "state" and self.sym.state[b.target][0].visibility != "public":
                    return f"the owner-only variable '{b.target}'", "", node.span
                if b is not None and b.kind == "zone" and self.sym.zones[b.target][0].visibility != "public":
                    return f"the contents of zone '{b.target}'", "", node.span
                if b is not None and b.kind in ("local", "comp") and b.type.kind == "zone":
                    # a zone value: hidden if any zone of its type is
                    hidden = [
                        n for n, (z, t) in self.sym.zones.items() if t == b.type and z.visibility != "public"
                    ]
                    if hidden:
                        return messages.zone_value_contents(node.ident, hidden[0]), "", node.span
            case ir.Call() if node.func in self.sym.functions:
                found = self.unit(("function", node.func))
                if found is not None:
                    return found[0], found[1] or f"function {node.func}", node.span
            case ir.MethodCall():
                tname = self.ann.type_of(node.subject).name or ""
                found = self.unit(("field", tname, node.name))
                if found is not None:
                    return found[0], found[1] or f"the field {tname}.{node.name}", node.span
        return None

    def zone_name(self, e: ir.Expr) -> str | None:
        base = e.subject if isinstance(e, ir.Index) else e
        if isinstance(base, ir.Name):
            b = self.ann.names.get(id(base))
            if b is not None and b.kind == "zone":
                return b.target
        return None

    def unit(self, key: tuple[str, ...]) -> tuple[str, str] | None:
        if key in self.units:
            return self.units[key]
        self.units[key] = None  # a cycle of calls reads nothing more
        bodies: list[ir.Code] = []
        if key[0] == "function":
            f = self.sym.functions.get(key[1])
            bodies = [f.body] if f is not None else []
        else:
            info = self.sym.entity_types.get(key[1])
            if info is not None:
                bodies = [c for ent in info.decl.entities for n, c in ent.code if n == key[2]]
        for body in bodies:
            found = self.in_code(body)
            if found is not None:
                self.units[key] = (found[0], found[1])
                return self.units[key]
        return None
