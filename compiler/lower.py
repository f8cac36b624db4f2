"""Lower: checked IR + Annotations -> a Module view-model of Python code for the templates.

Code that can stop for a decision becomes a Frame class whose `step` method is a small state
machine of numbered blocks (locals live on the frame, so the state clones and serialises at any
decision). Code that never stops becomes plain functions. Expressions become Python expressions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import assert_never

from compiler import errorcodes, ir
from compiler.check import Annotations
from compiler.diagnostics import Sink
from compiler.escape import comment_text
from compiler.resolve import Symbols
from compiler.typesys import PLAYER, Type

# ---- the view-model ---------------------------------------------------------------------------


@dataclass
class Function:
    """A plain Python function: a spec function, a procedure that never stops, a condition."""

    name: str
    origin: str
    params: list[tuple[str, str]]
    returns: str
    body: list[str]


@dataclass
class FrameClass:
    """A resumable procedure: its locals (slots) and its step method's blocks."""

    name: str
    origin: str
    params: list[tuple[str, str]]
    slots: list[tuple[str, str, str, str]]  # (slot, python type, default expression, value_type)
    blocks: list[list[str]]


@dataclass
class Table:
    """A per-component dispatch table for a code field (events, expression fields)."""

    name: str
    type: str
    items: list[str]


@dataclass
class Var:
    """A state variable (or an option's value) as a typed attribute of the state."""

    attr: str
    pytype: str
    init: str
    copy: str  # expression copying `self.<attr>`
    load: str  # expression reading d[<name>]
    name: str


@dataclass
class Module:
    """Everything the game template renders."""

    game: ir.Game
    constants: list[tuple[str, str, str]] = field(default_factory=list)  # name, type, value
    data: list[tuple[str, str, str]] = field(default_factory=list)
    vars: list[Var] = field(default_factory=list)
    functions: list[Function] = field(default_factory=list)
    frames: list[FrameClass] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    info: dict[str, str] = field(default_factory=dict)
    invariants: list[tuple[str, str, str, str]] = field(default_factory=list)  # name, why, function, check
    evaluate: str = "None"  # the evaluation's function, when the spec has one
    scenarios: list[dict[str, str]] = field(default_factory=list)
    player_count: str = "2"
    coverage: list[tuple[str, str, str]] = field(default_factory=list)  # kind, what, file:line


def pytype(t: Type) -> str:
    if t.kind == "bool":
        return "bool"
    if t.kind == "str":
        return "str"
    if t.kind in ("list", "zone"):
        return f"list[{pytype(t.elem) if t.elem else 'int'}]"
    return "int"


def value_type(t: Type) -> str:
    """The runtime's name for the values of type `t` in a saved state: `int`, `bool`, `str`, a
    domain's name (`cell`, `player`, `entity:T`, `enum:E`: an id of that domain) or `list[...]`."""
    if t.kind in ("list", "zone"):
        return f"list[{value_type(t.elem) if t.elem else 'int'}]"
    if t == PLAYER:
        return "player"
    if t.kind in ("entity", "enum"):
        return f"{t.kind}:{t.name}"
    return t.kind if t.kind in ("bool", "str", "cell") else "int"


def default(t: Type) -> str:
    if t.kind == "bool":
        return "False"
    if t.kind == "str":
        return '""'
    if t.kind in ("list", "zone"):
        return "[]"
    if t.is_ref or t.kind == "enum":
        return "-1" if t.kind != "enum" else "0"
    return "0"


def _simple(code: str) -> bool:
    """A name, an attribute of self or a constant: safe to evaluate twice."""
    return code.replace("self.", "", 1).isidentifier() or code.lstrip("-").isdigit()


def none_value(t: Type) -> object:
    """The value a field of `none` reads: the type's default."""
    if t.kind == "list":
        return []
    if t.kind == "bool":
        return False
    if t.kind == "str":
        return ""
    return -1 if t.is_ref else 0


def fresh_list(code: str) -> str:
    """A copy of a collection to iterate while the body may change it (no copy of a new list)."""
    if code.startswith(("list(", "[")) and code.endswith(("]", ")")):
        return code
    return f"list({code})"


def origin(what: str, span: ir.Span) -> str:
    return f"{what} ({span.file}:{span.line})"


def loop_place(kind: str, span: ir.Span, phase: str = "") -> str:
    """Where a loop is, for the rule error of a loop that never ends."""
    what = f"the {kind} of phase '{phase}'" if phase else f"the {kind} loop"
    return f"{what} at {span.file}:{span.line}:{span.col}"


# ---- expressions ------------------------------------------------------------------------------


class Lowerer:
    """Builds the Module; one instance per game."""

    def __init__(self, sym: Symbols, ann: Annotations, sink: Sink) -> None:
        self.sym = sym
        self.ann = ann
        self.sink = sink
        self.mod = Module(sym.game)
        self.local_prefix = ""
        self.type_index = {name: i for i, name in enumerate(sym.entity_types)}
        self.type_index["player"] = len(self.type_index)
        self.zone_ids: dict[str, int] = {}
        self.phase_ids = {name: i for i, name in enumerate(sym.phases)}
        self.mod_ids = {name: i for i, name in enumerate(sym.modifiers)}
        self.domains: dict[str, int] = {}
        self.suspending: dict[str, bool] = {}
        self.trigger_suspends: dict[str, bool] = {}
        self.effect_suspends: dict[tuple[str, str], bool] = {}  # (component type, effect field)
        self.walrus = 0
        self.two_players = sym.game.player_count.data == 2
        self.covering = True  # False while lowering scenario code, which is not a rule

    def cover(self, kind: str, what: str, span: ir.Span) -> list[str]:
        """A coverage point: the `# cov N` marker line to put before its first statement (none if off).

        The marker is a comment, so it costs nothing; runtime/coverage.py maps it to the statement.
        """
        if not self.covering:
            return []
        self.mod.coverage.append((kind, what, f"{span.file}:{span.line}"))
        return [f"# cov {len(self.mod.coverage) - 1}"]

    # -- names
    def local(self, slot: str) -> str:
        return f"{self.local_prefix}l_{slot}"

    def zone_id(self, e: ir.Expr) -> str:
        match e:
            case ir.Name():
                return f"Z_{e.ident}"
            case ir.Index() if isinstance(e.subject, ir.Name):
                owner = self.ex(e.args[0])
                return f"(Z_{e.subject.ident} + {owner if owner.startswith('P_') else f's.ref({owner})'})"
            case _:
                self.sink.error(errorcodes.TYPE_MISMATCH, e.span, "a zone must be named directly here")
                return "0"

    def neg(self, e: ir.Expr) -> str:
        """`not e`, with membership flipped (`a not in b`) as Python style (and ruff) wants."""
        if isinstance(e, ir.Compare) and e.op in ("in", "not in"):
            flipped = "not in" if e.op == "in" else "in"
            return f"{self.ex(e.left)} {flipped} {self.ex(e.right)}"
        return f"not {self.ex(e)}"

    def tindex(self, t: Type) -> str:
        if t.kind == "zone" and t.elem is not None:
            t = t.elem
        if t.kind == "list" and t.elem is not None:
            t = t.elem
        return f"T_{t.name}" if t.kind == "entity" and t.name != "player" else "T_player"

    def label(self, code: str, t: Type) -> str:
        match t.kind:
            case "entity" if t.name == "player":
                return f"s.player_label({code})"
            case "entity":
                return f"s.label(T_{t.name}, {code})"
            case "enum":
                return f"ENUM_{t.name}[{code}]"
            case "cell":
                return f"s.cell_label({code})"
            case "bool":
                return f'("yes" if {code} else "no")'
            case "str":
                return code
            case "list" | "zone":
                inner = self.label("x_", t.elem) if t.elem else "str(x_)"
                return f'", ".join({inner} for x_ in {code})'
            case _:
                return f"str({code})"

    def string(self, e: ir.StrLit) -> str:
        parts: list[str] = []
        for p in e.parts:
            if isinstance(p, str):
                parts.append(repr(p))
            else:
                parts.append(self.label(self.ex(p), self.ann.type_of(p)))
        return " + ".join(parts) if parts else '""'

    def ex(self, e: ir.Expr) -> str:
        match e:
            case ir.IntLit():
                return str(e.value)
            case ir.BoolLit():
                return "True" if e.value else "False"
            case ir.NoneLit():
                return "-1"
            case ir.StrLit():
                return self.string(e)
            case ir.Name():
                return self.name(e)
            case ir.Field():
                subj = self.ex(e.subject)
                t = self.ann.type_of(e.subject)
                if e.name == "name":
                    return f"s.label(T_{t.name}, {subj})"
                if e.name == "id":
                    return f"IDS_{t.name}[{subj}]"
                return f"F_{t.name}_{e.name}[{subj}]"
            case ir.MethodCall():
                t = self.ann.type_of(e.subject)
                subj = self.ex(e.subject)
                args = "".join(f", {self.ex(a)}" for a in e.args)
                if not _simple(subj):  # evaluate the subject once
                    self.walrus += 1
                    tmp = f"w{self.walrus}_"
                    return f"X_{t.name}_{e.name}[({tmp} := {subj})](s, {tmp}{args})"
                return f"X_{t.name}_{e.name}[{subj}](s, {subj}{args})"
            case ir.Index():
                b = self.ann.names.get(id(e.subject))
                if b is not None and b.kind == "state":
                    return f"s.v_{b.target}" + "".join(f"[{self.ex(a)}]" for a in e.args)
                if b is not None and b.kind == "zone":
                    return f"s.z.piles[{self.zone_id(e)}]"
                return f"{self.ex(e.subject)}[{self.ex(e.args[0])}]"
            case ir.Call():
                return self.call(e)
            case ir.ListLit():
                return "[" + ", ".join(self.ex(i) for i in e.items) + "]"
            case ir.ListComp():
                v = self.comp_var(e)
                cond = f" if {self.ex(e.cond)}" if e.cond is not None else ""
                return f"[{self.ex(e.item)} for {v} in {self.ex(e.source)}{cond}]"
            case ir.Quantifier():
                v = self.comp_var(e)
                src = self.ex(e.source)
                cond = self.ex(e.cond) if e.cond is not None else "True"
                if e.kind == "count":
                    return f"sum(1 for {v} in {src} if {cond})" if e.cond is not None else f"len({src})"
                if e.kind == "any":
                    return f"any({cond} for {v} in {src})"
                if e.kind == "all":
                    return f"all({cond} for {v} in {src})"
                return f"[{v} for {v} in {src} if {cond}]"
            case ir.Aggregate():
                v = self.comp_var(e)
                cond = f" if {self.ex(e.cond)}" if e.cond is not None else ""
                gen = f"{self.ex(e.item)} for {v} in {self.ex(e.source)}{cond}"
                if e.kind == "sum":
                    return f"sum({gen})"
                return f"{e.kind}(({gen}), default=0)"
            case ir.Compare() if e.op in ("==", "!=") and isinstance(e.right, ir.BoolLit):
                # `x == true` is `x`, `x == false` is `not x`: Python style (ruff E712) wants no
                # comparison with a bool literal
                return f"({self.ex(e.left) if e.right.value == (e.op == '==') else self.neg(e.left)})"
            case ir.Compare() if e.op in ("==", "!=") and isinstance(e.left, ir.BoolLit):
                return f"({self.ex(e.right) if e.left.value == (e.op == '==') else self.neg(e.right)})"
            case ir.BinOp() if e.op in ("//", "%") and not (
                isinstance(e.right, ir.IntLit) and e.right.value != 0
            ):
                # a divisor that may be zero: the engine raises a rule error instead of Python's
                return f"s.{'div' if e.op == '//' else 'mod'}({self.ex(e.left)}, {self.ex(e.right)})"
            case ir.BinOp() | ir.Compare() | ir.BoolOp():
                return f"({self.ex(e.left)} {e.op} {self.ex(e.right)})"
            case ir.Not():
                return f"({self.neg(e.operand)})"
            case ir.Neg():
                return f"(-{self.ex(e.operand)})"
            case ir.CondExpr():
                return f"({self.ex(e.then)} if {self.ex(e.cond)} else {self.ex(e.other)})"
            case ir.Active():
                return f"s.active(M_{e.name}, {self.tuple_args(e.args)})"
            case ir.Choose() | ir.ChooseNumber() | ir.Ask():
                raise AssertionError("check.py rejects decisions inside expressions")
            case _:
                assert_never(e)

    def domain_of(self, t: Type) -> int:
        """The action domain (index) of a choosable value type."""
        match t.kind:
            case "entity" if t.name == "player":
                return self.domains["player"]
            case "entity":
                return self.domains[f"entity:{t.name}"]
            case "enum":
                return self.domains[f"enum:{t.name}"]
            case "cell":
                return self.domains["cell"]
            case "bool":
                return self.domains["bool"]
        return self.domains["number"]

    def val(self, e: ir.Expr) -> str:
        """An expression whose value is stored (a local, an argument): zones are copied, never aliased."""
        code = self.ex(e)
        return f"list({code})" if self.ann.type_of(e).kind == "zone" else code

    def tuple_args(self, args: tuple[ir.Expr, ...]) -> str:
        if not args:
            return "()"
        return "(" + ", ".join(self.ex(a) for a in args) + ("," if len(args) == 1 else "") + ")"

    def comp_var(self, e: ir.ListComp | ir.Quantifier | ir.Aggregate) -> str:
        return f"c_{self.ann.slots[id(e)]}"

    def name(self, e: ir.Name) -> str:
        b = self.ann.names[id(e)]
        match b.kind:
            case "local":
                return self.local(b.target)
            case "comp":
                return f"c_{b.target}"
            case "const":
                return repr(self.sym.constants[b.target][1])
            case "option":
                return f"s.o_{b.target}"
            case "state":
                return f"s.v_{b.target}"
            case "zone":
                return f"s.z.piles[Z_{b.target}]"
            case "entity":
                return f"E_{b.target}"
            case "enum":
                return str(self.sym.enum_values[b.target][1])
            case "player":
                return f"P_{b.target}"
            case "all":
                return f"list(range({len(self.sym.entity_types[b.target].ids)}))"
            case "players":
                return "list(range(s.num_players))"
            case "num_players":
                return "s.num_players"
        return "0"

    def call(self, e: ir.Call) -> str:
        a = [self.ex(x) for x in e.args]
        if e.func in self.sym.functions:
            return f"f_{e.func}(s{''.join(', ' + x for x in a)})"
        t0 = self.ann.type_of(e.args[0]) if e.args else PLAYER
        match e.func:
            case "opponent":
                return f"(1 - {a[0]})" if self.two_players else f"s.opponent({a[0]})"
            case "next_player":
                return f"(({a[0]} + 1) % s.num_players)"
            case "len" | "abs":
                return f"{e.func}({a[0]})"
            case "min" | "max":
                return f"{e.func}({', '.join(a)})"
            case "roll":
                return f"s.roll({a[0]})"
            case "random":
                return f"s.pick({a[0]})"
            case "top":
                return f"s.top({self.zone_id(e.args[0])})"
            case "top_n":
                return f"s.top_n({self.zone_id(e.args[0])}, {a[1]})"
            case "range":
                return f"list(range({a[0]}, {a[1]}))"
            case "cell":
                return f"s.cell({a[0]}, {a[1]})"
            case "cell_of":
                return f"s.z.pos[{self.tindex(t0)}][{a[0]}]"
            case "neighbors":
                return f"s.neighbors({self.tindex(t0)}, {a[0]})"
            case "open_cells_around":
                return f"s.open_cells_around({self.tindex(t0)}, {a[0]})"
            case "adjacent":
                return f"s.adjacent({self.tindex(t0)}, {a[0]}, {a[1]})"
            case "label":
                return self.label(a[0], t0)
        return "0"


# ---- statements -------------------------------------------------------------------------------


class Blocks:
    """The numbered blocks of one frame's step method."""

    def __init__(self) -> None:
        self.blocks: list[list[str]] = [[]]
        self.cur = 0
        self.counter = 0

    def new(self) -> int:
        self.blocks.append([])
        return len(self.blocks) - 1

    def at(self, b: int) -> None:
        self.cur = b

    def emit(self, line: str) -> None:
        self.blocks[self.cur].append(line)

    def goto(self, b: int) -> None:
        self.emit(f"pc = {b}")
        self.emit("continue")

    def temp(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"


class StmtLowerer:
    """Lowers the statements of one code unit, straight (Python) or as frame blocks."""

    def __init__(self, lw: Lowerer, in_frame: bool) -> None:
        self.lw = lw
        self.in_frame = in_frame
        self.blocks = Blocks()
        self.extra_slots: list[tuple[str, str, str, str]] = []

    # -- suspension
    def suspends(self, s: ir.Stmt) -> bool:
        lw = self.lw
        match s:
            case ir.Let() | ir.Assign():
                return isinstance(s.value, (ir.Choose, ir.ChooseNumber, ir.Ask))
            case ir.CallStmt():
                return lw.suspending.get(s.proc, False)
            case ir.DoEffect():
                t = lw.ann.type_of(s.subject)
                return lw.effect_suspends.get((t.name, s.field), True)
            case ir.Emit():
                return any(
                    lw.trigger_suspends.get(t.name, False) for t in lw.sym.game.triggers if t.event == s.event
                )
            case ir.If():
                return any(self.suspends(x) for _, b in s.branches for x in b) or any(
                    self.suspends(x) for x in s.orelse
                )
            case ir.For() | ir.Repeat() | ir.While():
                return any(self.suspends(x) for x in s.body)
            case _:
                return False

    # -- straight Python
    def straight(self, body: tuple[ir.Stmt, ...], out: list[str], ind: str) -> None:
        n0 = len(out)
        for s in body:
            self.straight_stmt(s, out, ind)
        if len(out) == n0:
            out.append(ind + "pass")

    def straight_stmt(self, s: ir.Stmt, out: list[str], ind: str) -> None:
        lw = self.lw
        ex = lw.ex
        if self.suspends(s):
            self.lw.sink.error(
                errorcodes.MISPLACED_DECISION,
                s.span,
                "this stops for a decision, which cannot happen here "
                "(inside a function, condition, scenario setup or non-stopping trigger)",
            )
            return
        match s:
            case ir.Let():
                slot = lw.ann.slots[id(s)]
                assert not isinstance(s.value, (ir.Choose, ir.ChooseNumber, ir.Ask))
                py = pytype(lw.ann.type_of(s.value))
                if self.in_frame:
                    out.append(f"{ind}{lw.local(slot)} = {lw.val(s.value)}")
                else:
                    out.append(f"{ind}{lw.local(slot)}: {py} = {lw.val(s.value)}")
            case ir.Assign():
                assert not isinstance(s.value, (ir.Choose, ir.ChooseNumber, ir.Ask))
                self.assign(s, lw.val(s.value), out, ind)
            case ir.If():
                arms = self.arms(s)
                inner = ind + "    "
                for i, (cond, body) in enumerate(s.branches):
                    out.append(f"{ind}{'if' if i == 0 else 'elif'} {ex(cond)}:")
                    out += [inner + m for m in arms[i]]
                    self.straight(body, out, inner)
                if s.orelse or arms[-1]:  # an implicit else is written out to carry its marker
                    out.append(f"{ind}else:")
                    out += [inner + m for m in arms[-1]]
                    self.straight(s.orelse, out, inner)
            case ir.For():
                slot = lw.ann.slots[id(s)]
                inner = ind + "    "
                src = fresh_list(ex(s.source))
                if self.in_frame:
                    out.append(f"{ind}for x_ in {src}:")
                    out.append(f"{inner}{lw.local(slot)} = x_")
                else:
                    out.append(f"{ind}for {lw.local(slot)} in {src}:")
                if s.cond is not None:
                    out.append(f"{inner}if {lw.neg(s.cond)}:")
                    out.append(f"{inner}    continue")
                self.straight(s.body, out, inner)
            case ir.Repeat():
                out.append(f"{ind}for _ in range({ex(s.count)}):")
                out.append(f"{ind}    s.tick({loop_place('repeat', s.span)!r})")
                self.straight(s.body, out, ind + "    ")
            case ir.While():
                out.append(f"{ind}while {ex(s.cond)}:")
                out.append(f"{ind}    s.tick({loop_place('while', s.span)!r})")
                self.straight(s.body, out, ind + "    ")
            case ir.Move():
                t = lw.ann.type_of(s.item)
                top = "True" if s.position == "top" else "False"
                fn = "move_all" if t.kind in ("list", "zone") else "move"
                out.append(f"{ind}s.{fn}({lw.tindex(t)}, {ex(s.item)}, {lw.zone_id(s.dest)}, {top})")
            case ir.Place():
                t = lw.ann.type_of(s.item)
                out.append(f"{ind}s.place({lw.tindex(t)}, {ex(s.item)}, {lw.zone_id(s.grid)}, {ex(s.cell)})")
            case ir.Shuffle():
                out.append(f"{ind}s.shuffle({lw.zone_id(s.zone)})")
            case ir.Deal():
                t = lw.ann.type_of(s.source)
                out.append(
                    f"{ind}s.deal({lw.tindex(t)}, {ex(s.count)}, {lw.zone_id(s.source)}, {lw.zone_id(s.dest)})"
                )
            case ir.Reveal():
                out.append(f"{ind}s.say('Revealed: ' + {lw.label(ex(s.item), lw.ann.type_of(s.item))})")
            case ir.Show():
                out.append(
                    f"{ind}s.say_to({ex(s.player)}, 'You see: ' + {lw.label(ex(s.item), lw.ann.type_of(s.item))})"
                )
            case ir.Log():
                out.append(f"{ind}s.say({lw.string(s.message)})")
            case ir.EndGame():
                winner = ex(s.winner) if s.winner is not None else "-1"
                reason = lw.string(s.reason) if s.reason is not None else "''"
                out.append(f"{ind}s.end_game({winner}, {reason})")
            case ir.Return():
                if self.in_frame:
                    out.append(f"{ind}s.pop()")
                out.append(f"{ind}return")
            case ir.CallStmt():
                args = "".join(f", {lw.val(a)}" for a in s.args)
                out.append(f"{ind}p_{s.proc}(s{args})")
            case ir.DoEffect():
                t = lw.ann.type_of(s.subject)
                args = "".join(f", {lw.val(a)}" for a in s.args)
                out.append(f"{ind}subject_ = {ex(s.subject)}")
                out.append(f"{ind}effect = EFFECT_{t.name}_{s.field}[subject_]")
                out.append(f"{ind}if effect is not None:")
                out.append(f"{ind}    effect(s, subject_{args})")
            case ir.AddModifier():
                out += [ind + m for m in lw.cover("modifier", f"add {s.name}", s.span)]
                until = lw.phase_ids.get(s.until_phase, -1) if s.until_phase else -1
                out.append(f"{ind}s.add_mod(M_{s.name}, {lw.tuple_args(s.args)}, {until})")
            case ir.Cancel():
                out += [ind + m for m in lw.cover("modifier", f"cancel {s.name}", s.span)]
                out.append(f"{ind}s.cancel_mod(M_{s.name}, {lw.tuple_args(s.args)})")
            case ir.Emit():
                names = [f"arg{i}_" for i in range(len(s.args))]
                for n, a in zip(names, s.args, strict=True):  # arguments are evaluated once
                    out.append(f"{ind}{n} = {lw.val(a)}")
                args = ", ".join(names)
                for tr in lw.sym.game.triggers:
                    if tr.event == s.event:
                        test = f"tc_{tr.name}(s{', ' + args if args else ''})"
                        out.append(f"{ind}if {test}:")
                        out.append(f"{ind}    t_{tr.name}(s{', ' + args if args else ''})")
            case _:
                assert_never(s)

    def arms(self, s: ir.If) -> list[list[str]]:
        """The coverage markers of each arm of an `if`: then, each elif, else (implicit when absent)."""
        cover, head = self.lw.cover, f"if at line {s.span.line}"
        out = [cover("branch", f"{head}: then", s.span)]
        for i, (cond, _) in enumerate(s.branches[1:], 1):
            out.append(cover("branch", f"{head}: elif {i}", cond.span))
        if s.orelse:
            out.append(cover("branch", f"{head}: else", s.orelse[0].span))
        else:
            out.append(cover("branch", f"{head}: else (implicit)", s.span))
        return out

    def target(self, s: ir.Assign, indices: list[str] | None = None) -> str:
        b = self.lw.ann.names.get(id(s))
        if b is None:
            return "_"
        if b.kind == "local":
            return self.lw.local(b.target)
        return f"s.v_{s.target}" + "".join(
            f"[{i}]" for i in (indices if indices is not None else self.indices(s))
        )

    def indices(self, s: ir.Assign) -> list[str]:
        """Index expressions of a write; component and player indices are checked (never `none`)."""
        out = []
        for i in s.indices:
            code = self.lw.ex(i)
            t = self.lw.ann.type_of(i)
            out.append(f"s.ref({code})" if t.is_ref and not code.startswith(("E_", "P_")) else code)
        return out

    def assign(self, s: ir.Assign, value: str, out: list[str], ind: str) -> None:
        """`target op value`; a bounded track clamps, with its indices evaluated once."""
        b = self.lw.ann.names.get(id(s))
        sv = self.lw.sym.state[s.target][0] if b is not None and b.kind == "state" else None
        if sv is None or (sv.low is None and sv.high is None):
            out.append(f"{ind}{self.target(s)} {s.op} {value}")
            return
        idx = self.indices(s)
        if any(not i.isidentifier() and not i.isdigit() for i in idx):
            names = [f"i{n}_" for n in range(len(idx))]
            out.append(f"{ind}{', '.join(names)} = {', '.join(idx)}")
            idx = names
        t = self.target(s, idx)
        new = value if s.op == "=" else f"{t} {s.op[0]} {value}"
        if sv.low is not None and sv.high is not None:
            out.append(f"{ind}{t} = min({sv.high}, max({sv.low}, {new}))")
        elif sv.low is not None:
            out.append(f"{ind}{t} = max({sv.low}, {new})")
        else:
            out.append(f"{ind}{t} = min({sv.high}, {new})")

    # -- frame blocks
    def body(self, stmts: tuple[ir.Stmt, ...]) -> None:
        for s in stmts:
            self.stmt(s)

    def stmt(self, s: ir.Stmt) -> None:
        b = self.blocks
        if not self.suspends(s):
            lines: list[str] = []
            self.straight_stmt(s, lines, "")
            for ln in lines:
                b.emit(ln)
            return
        lw, ex = self.lw, self.lw.ex
        match s:
            case ir.Let() | ir.Assign():
                d = s.value
                assert isinstance(d, (ir.Choose, ir.ChooseNumber, ir.Ask))
                if isinstance(s, ir.Let):
                    slot_attr = f"l_{lw.ann.slots[id(s)]}"
                else:
                    bnd = lw.ann.names.get(id(s))
                    if bnd is not None and bnd.kind == "local" and s.op == "=":
                        slot_attr = f"l_{bnd.target}"
                    else:
                        slot_attr = b.temp("d_")
                        dtype = self.decision_type(d)
                        self.extra_slots.append(
                            (
                                slot_attr,
                                dtype,
                                {"bool": "False", "int": "-1"}.get(dtype, "[]"),
                                self.decision_value_type(d),
                            )
                        )
                nxt = b.new()
                self.decision(d, slot_attr, nxt)
                b.at(nxt)
                if isinstance(s, ir.Assign) and slot_attr.startswith("d_"):
                    out: list[str] = []
                    self.assign(s, f"self.{slot_attr}", out, "")
                    for ln in out:
                        b.emit(ln)
            case ir.If():
                arms = self.arms(s)
                join = b.new()
                targets = [b.new() for _ in s.branches]
                else_b = b.new() if s.orelse else join
                for (branch_cond, _), tgt in zip(s.branches, targets, strict=True):
                    b.emit(f"if {ex(branch_cond)}:")
                    b.emit(f"    pc = {tgt}")
                    b.emit("    continue")
                for m in arms[-1]:  # the else arm (explicit or not) is the fall-through
                    b.emit(m)
                b.goto(else_b)
                for (_, branch), tgt, marks in zip(s.branches, targets, arms[:-1], strict=True):
                    b.at(tgt)
                    for m in marks:
                        b.emit(m)
                    self.body(branch)
                    b.goto(join)
                if s.orelse:
                    b.at(else_b)
                    self.body(s.orelse)
                    b.goto(join)
                b.at(join)
            case ir.For():
                slot = lw.ann.slots[id(s)]
                items, idx = b.temp("i_"), b.temp("k_")
                elem = lw.ann.type_of(s.source).elem
                self.extra_slots += [
                    (
                        items,
                        f"list[{pytype(elem) if elem else 'int'}]",
                        "[]",
                        f"list[{value_type(elem) if elem else 'int'}]",
                    ),
                    (idx, "int", "0", "int"),
                ]
                b.emit(f"self.{items} = {fresh_list(ex(s.source))}")
                b.emit(f"self.{idx} = 0")
                head, body, done = b.new(), b.new(), b.new()
                b.goto(head)
                b.at(head)
                b.emit(f"if self.{idx} >= len(self.{items}):")
                b.emit(f"    pc = {done}")
                b.emit("    continue")
                b.emit(f"self.l_{slot} = self.{items}[self.{idx}]")
                b.emit(f"self.{idx} += 1")
                if s.cond is not None:
                    b.emit(f"if {lw.neg(s.cond)}:")
                    b.emit(f"    pc = {head}")
                    b.emit("    continue")
                b.goto(body)
                b.at(body)
                self.body(s.body)
                b.goto(head)
                b.at(done)
            case ir.Repeat() | ir.While():
                head, body, done = b.new(), b.new(), b.new()
                place = loop_place("repeat" if isinstance(s, ir.Repeat) else "while", s.span)
                if isinstance(s, ir.Repeat):
                    left = b.temp("r_")
                    self.extra_slots.append((left, "int", "0", "int"))
                    b.emit(f"self.{left} = {ex(s.count)}")
                    b.goto(head)
                    b.at(head)
                    b.emit(f"s.tick({place!r})")
                    b.emit(f"if self.{left} <= 0:")
                    b.emit(f"    pc = {done}")
                    b.emit("    continue")
                    b.emit(f"self.{left} -= 1")
                else:
                    b.goto(head)
                    b.at(head)
                    b.emit(f"s.tick({place!r})")
                    b.emit(f"if {lw.neg(s.cond)}:")
                    b.emit(f"    pc = {done}")
                    b.emit("    continue")
                b.goto(body)
                b.at(body)
                self.body(s.body)
                b.goto(head)
                b.at(done)
            case ir.CallStmt():
                nxt = b.new()
                args = ", ".join(lw.val(a) for a in s.args)
                b.emit(f"self.pc = {nxt}")
                b.emit(f"s.push(P_{s.proc}({args}))")
                b.emit("return")
                b.at(nxt)
            case ir.DoEffect():
                t = lw.ann.type_of(s.subject)
                nxt = b.new()
                args = "".join(f", {lw.val(a)}" for a in s.args)
                b.emit(f"subject_ = {ex(s.subject)}")
                b.emit(f"effect = EFFECT_{t.name}_{s.field}[subject_]")
                b.emit("if effect is not None:")
                b.emit(f"    self.pc = {nxt}")
                b.emit(f"    s.push(effect(subject_{args}))")
                b.emit("    return")
                b.goto(nxt)
                b.at(nxt)
            case ir.Emit():
                slots = []
                for a in s.args:  # evaluated once, kept on the frame across the triggers' decisions
                    slot = b.temp("e_")
                    t = lw.ann.type_of(a)
                    self.extra_slots.append((slot, pytype(t), default(t), value_type(t)))
                    b.emit(f"self.{slot} = {lw.val(a)}")
                    slots.append(f"self.{slot}")
                args = ", ".join(slots)
                for tr in lw.sym.game.triggers:
                    if tr.event != s.event:
                        continue
                    test = f"tc_{tr.name}(s{', ' + args if args else ''})"
                    nxt = b.new()
                    if lw.trigger_suspends.get(tr.name, False):
                        b.emit(f"if {test}:")
                        b.emit(f"    self.pc = {nxt}")
                        b.emit(f"    s.push(PT_{tr.name}({args}))")
                        b.emit("    return")
                    else:
                        b.emit(f"if {test}:")
                        b.emit(f"    t_{tr.name}(s{', ' + args if args else ''})")
                    b.goto(nxt)
                    b.at(nxt)
            case _:
                raise AssertionError(f"unexpected suspending statement {type(s).__name__}")

    def decision_value_type(self, d: ir.Decision) -> str:
        """What a decision's answer slot holds in a saved state: an id of its domain (or a list)."""
        if isinstance(d, ir.Ask):
            return "bool"
        if isinstance(d, ir.ChooseNumber):
            return "int"
        chosen = self.lw.ann.type_of(d)
        return value_type(chosen)

    def decision_type(self, d: ir.Decision) -> str:
        if isinstance(d, ir.Ask):
            return "bool"
        if isinstance(d, ir.Choose) and d.count is not None:
            return "list[int]"
        return "int"

    def decision(self, d: ir.Decision, slot_attr: str, nxt: int) -> None:
        lw, b, ex = self.lw, self.blocks, self.lw.ex
        player = ex(d.player) if d.player is not None else "0"
        text = d.question if isinstance(d, ir.Ask) else d.prompt
        prompt = lw.string(text) if text is not None else "''"
        at = f", at={f'{d.span.file}:{d.span.line}'!r}"
        b.emit(f"self.pc = {nxt}")
        match d:
            case ir.Choose():
                elem = lw.ann.type_of(d.options).elem or PLAYER
                dom = lw.domain_of(elem)
                need = f", need={ex(d.count)}" if d.count is not None else ""
                secret = ", secret=True" if d.secret else ""
                if d.optional:
                    b.emit(
                        f"if s.decide({player}, {ex(d.options)}, {dom}, {slot_attr!r}, {prompt}, True{secret}{at}):"
                    )
                    b.emit("    return")
                    b.emit(f"self.{slot_attr} = -1")
                    b.goto(nxt)
                    return
                if d.count is not None:
                    b.emit(f"need_ = {ex(d.count)}")
                    b.emit("if need_ <= 0:")
                    b.emit(f"    self.{slot_attr} = []")
                    b.emit(f"    pc = {nxt}")
                    b.emit("    continue")
                    need = ", need=need_"
                b.emit(
                    f"s.decide({player}, {ex(d.options)}, {dom}, {slot_attr!r}, {prompt}{need}{secret}{at})"
                )
            case ir.ChooseNumber():
                dom = lw.domains["number"]
                b.emit(
                    f"s.decide({player}, range({ex(d.low)}, {ex(d.high)} + 1), {dom}, {slot_attr!r}, {prompt}{at})"
                )
            case ir.Ask():
                dom = lw.domains["bool"]
                b.emit(f"s.decide({player}, (0, 1), {dom}, {slot_attr!r}, {prompt}{at})")
            case _:
                assert_never(d)
        b.emit("return")


# ---- units ------------------------------------------------------------------------------------


def lower(sym: Symbols, ann: Annotations, sink: Sink) -> Module:
    """Build the Module view-model of a checked game."""
    lw = Lowerer(sym, ann, sink)
    g, mod = sym.game, lw.mod
    _constants(lw)
    _domains(lw)
    _vars(lw)
    _suspension(lw)
    for f in g.functions:
        lw.local_prefix = ""
        ps = _params(lw, f.params)
        assert f.body.expr is not None
        body = [*lw.cover("function", f"function {f.name}", f.span), f"return {lw.ex(f.body.expr)}"]
        ret = pytype(sym.type_named(f.returns.text) or PLAYER)
        mod.functions.append(
            Function(f"f_{f.name}", origin(f"function {f.name}", f.span), _prefixed(ps), ret, body)
        )
    for pr in g.procedures:
        _code_unit(
            lw,
            f"P_{pr.name}",
            f"p_{pr.name}",
            origin(f"procedure {pr.name}", pr.span),
            pr.body,
            _params(lw, pr.params),
            lw.suspending[pr.name],
            lw.cover("procedure", f"procedure {pr.name}", pr.span),
        )
    for tname, info in sym.entity_types.items():
        for fname, fd in info.code_fields.items():
            params = [("self", f"{'int'}"), *_params(lw, fd.params)]
            items: list[str] = []
            for ent in info.decl.entities:
                code = dict(ent.code).get(fname)
                if code is None:
                    if fd.kind == "effect" and not fd.optional:
                        sink.warning(
                            errorcodes.MISSING_EVENT,
                            ent.span,
                            f"'{ent.id}' has no '{fname}' yet: it does nothing",
                        )
                    items.append("None" if fd.kind == "effect" else f"X_{tname}_{fname}__default")
                    continue
                fname_py = f"{'E' if fd.kind == 'effect' else 'X'}_{tname}_{fname}_{ent.id}"
                items.append(fname_py)
                what = f"{tname} {ent.id}: {fname}"
                if fd.kind == "effect":
                    mark = lw.cover("effect", what, code.span)
                    suspends = lw.effect_suspends[(tname, fname)]
                    _code_unit(lw, fname_py, fname_py, origin(what, code.span), code, params, suspends, mark)
                else:
                    lw.local_prefix = ""
                    assert code.expr is not None
                    ret = pytype(info.field_types[fname])
                    body = [*lw.cover("expression", what, code.span), f"return {lw.ex(code.expr)}"]
                    mod.functions.append(
                        Function(fname_py, origin(what, code.span), _prefixed(params), ret, body)
                    )
            if fd.kind == "effect":
                kind = "Frame" if lw.effect_suspends[(tname, fname)] else "None"
                mod.tables.append(
                    Table(
                        f"EFFECT_{tname}_{fname}",
                        f"tuple[Callable[..., {kind}] | None, ...]",
                        [*items, "None"],
                    )
                )
            else:
                ret = pytype(info.field_types[fname])
                if any(x.endswith("__default") for x in items):
                    mod.functions.append(
                        Function(
                            f"X_{tname}_{fname}__default",
                            origin(f"default of {tname}.{fname}", fd.span),
                            _prefixed(params),
                            ret,
                            [f"return {default(info.field_types[fname])}"],
                        )
                    )
                sig = ", ".join(["State"] + [t for _, t in params])
                if not any(x.endswith("__default") for x in items):
                    mod.functions.append(
                        Function(
                            f"X_{tname}_{fname}__default",
                            origin(f"{tname}.{fname} of none", fd.span),
                            _prefixed(params),
                            ret,
                            [f"return {default(info.field_types[fname])}"],
                        )
                    )
                mod.tables.append(
                    Table(
                        f"X_{tname}_{fname}",
                        f"tuple[Callable[[{sig}], {ret}], ...]",
                        [*items, f"X_{tname}_{fname}__default"],
                    )
                )
    for tr in g.triggers:
        ev = sym.events.get(tr.event)
        ps = _params(lw, ev.params if ev else ())
        lw.local_prefix = ""
        cond = lw.ex(tr.condition.expr) if tr.condition and tr.condition.expr is not None else "True"
        mod.functions.append(
            Function(
                f"tc_{tr.name}",
                origin(f"trigger {tr.name}: if", tr.span),
                _prefixed(ps),
                "bool",
                [f"return {cond}"],
            )
        )
        _code_unit(
            lw,
            f"PT_{tr.name}",
            f"t_{tr.name}",
            origin(f"trigger {tr.name}", tr.span),
            tr.body,
            ps,
            lw.trigger_suspends[tr.name],
            lw.cover("trigger", f"trigger {tr.name}", tr.span),
        )
    _code_unit(
        lw,
        "Setup",
        "setup",
        origin("setup", g.setup.span if g.setup else g.span),
        g.setup or ir.Code((), None, g.span),
        [],
        True,
        lw.cover("setup", "setup", g.setup.span) if g.setup else [],
    )
    for ph in sym.phases.values():
        if ph.body is not None:
            _code_unit(
                lw, f"Ph_{ph.name}", f"ph_{ph.name}", origin(f"phase {ph.name}", ph.span), ph.body, [], True
            )
    _flow(lw)
    for inv in g.invariants:
        lw.local_prefix = ""
        assert inv.expr.expr is not None
        mod.functions.append(
            Function(
                f"inv_{inv.name}",
                origin(f"invariant {inv.name}", inv.span),
                [],
                "bool",
                [f"return {lw.ex(inv.expr.expr)}"],
            )
        )
        mod.invariants.append((inv.name, inv.why, f"inv_{inv.name}", " ".join(inv.expr.text.split())))
    if g.evaluation is not None and g.evaluation.expr is not None:
        # for agents only, not a rule: no coverage point, so play coverage is unchanged
        lw.local_prefix = ""
        mod.functions.append(
            Function(
                "evaluate",
                origin("evaluation", g.evaluation.span),
                [("l_p", "int")],
                "int",
                [f"return {lw.ex(g.evaluation.expr)}"],
            )
        )
        mod.evaluate = "evaluate"
    _scenarios(lw)
    return mod


def _prefixed(params: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(f"l_{n}", t) for n, t in params]


def _params(lw: Lowerer, params: tuple[ir.Param, ...]) -> list[tuple[str, str]]:
    out = []
    for p in params:
        t = lw.sym.type_named(p.type.text) or PLAYER
        out.append((p.name, pytype(t)))
    return out


def _code_unit(
    lw: Lowerer,
    cls: str,
    fn: str,
    what: str,
    code: ir.Code,
    params: list[tuple[str, str]],
    as_frame: bool,
    mark: Sequence[str] = (),
) -> None:
    """A statement body as a Frame class (if it can stop) or a plain function; `mark` opens it."""
    locals_ = lw.ann.locals.get(id(code), {})
    if not as_frame:
        lw.local_prefix = ""
        sl = StmtLowerer(lw, in_frame=False)
        body: list[str] = [*mark]
        sl.straight(code.body, body, "")
        lw.mod.functions.append(Function(fn, what, [(f"l_{n}", t) for n, t in params], "None", body))
        return
    lw.local_prefix = "self."
    sl = StmtLowerer(lw, in_frame=True)
    for m in mark:
        sl.blocks.emit(m)
    sl.body(code.body)
    sl.blocks.emit("s.pop()")
    sl.blocks.emit("return")
    pnames = {n for n, _ in params}
    slots = [(f"l_{n}", t, f"l_{n}", value_type(locals_[n]) if n in locals_ else t) for n, t in params]
    for name, t in locals_.items():
        if name not in pnames:
            slots.append((f"l_{name}", pytype(t), default(t), value_type(t)))
    slots += sl.extra_slots
    lw.mod.frames.append(FrameClass(cls, what, [(f"l_{n}", t) for n, t in params], slots, sl.blocks.blocks))


def _flow(lw: Lowerer) -> None:
    """The game's flow: setup, then the phases in order, each repeated as declared."""
    sl = StmtLowerer(lw, in_frame=True)
    b = sl.blocks
    lw.local_prefix = "self."
    nxt = b.new()
    b.emit(f"self.pc = {nxt}")
    b.emit("s.push(Setup())")
    b.emit("return")
    b.at(nxt)
    b.emit("s.after_setup()")

    skippable = {name for sc in lw.sym.game.scenarios for name in scenario_skips(lw.sym.game, sc)}
    wholly = {name[1:] for name in skippable if name.startswith("*")}  # loops skipped, every pass
    startable = {str(sc.start_at.data) for sc in lw.sym.game.scenarios if sc.start_at is not None}

    def phase(ph: ir.PhaseDecl) -> None:
        head = body = done = -1
        if ph.repeat is not None and ph.repeat.expr is not None:
            left = b.temp("r_")
            sl.extra_slots.append((left, "int", "0", "int"))
            b.emit(f"self.{left} = {lw.ex(ph.repeat.expr)}")
            if ph.counter:
                b.emit(f"s.v_{ph.counter} = 0")
            head, body, done = b.new(), b.new(), b.new()
            b.goto(head)
            b.at(head)
            b.emit(f"s.tick({loop_place('repeat', ph.span, ph.name)!r})")
            b.emit(f"if self.{left} <= 0:")
            b.emit(f"    pc = {done}")
            b.emit("    continue")
            b.emit(f"self.{left} -= 1")
            if ph.counter:
                b.emit(f"s.v_{ph.counter} += 1")
            b.goto(body)
            b.at(body)
        elif ph.while_ is not None and ph.while_.expr is not None:
            head, body, done = b.new(), b.new(), b.new()
            if ph.counter:
                b.emit(f"s.v_{ph.counter} = 0")
            b.goto(head)
            b.at(head)
            b.emit(f"s.tick({loop_place('while', ph.span, ph.name)!r})")
            b.emit(f"if {lw.neg(ph.while_.expr)}:")
            b.emit(f"    pc = {done}")
            b.emit("    continue")
            if ph.counter:
                b.emit(f"s.v_{ph.counter} += 1")
            b.goto(body)
            b.at(body)
        b.emit(f"# phase {ph.name} ({comment_text(ph.span.file)}:{ph.span.line})")
        if head >= 0 and ph.name in wholly:  # a scenario starts after this loop: none of its passes run
            b.emit(f"if s.skips and s.skip_pass({'*' + ph.name!r}):")
            b.emit(f"    pc = {done}")
            b.emit("    continue")
        end_pass = b.new() if ph.name in skippable else -1
        if end_pass >= 0:  # a scenario skips a pass of this phase
            b.emit(f"if s.skips and s.skip_pass({ph.name!r}):")
            b.emit(f"    pc = {end_pass}")
            b.emit("    continue")
        if ph.name in startable:  # a scenario's setup runs here
            b.emit("if s.start_at:")
            b.emit(f"    s.starting({ph.name!r})")
        for m in lw.cover("phase", f"phase {ph.name}", ph.span):  # each pass
            b.emit(m)
        if ph.body is not None:
            after = b.new()
            b.emit(f"self.pc = {after}")
            b.emit(f"s.push(Ph_{ph.name}())")
            b.emit("return")
            b.at(after)
        for step in ph.steps:
            phase(step)
        if end_pass >= 0:
            b.goto(end_pass)
            b.at(end_pass)
        b.emit(f"s.expire(PH_{ph.name})")
        if head >= 0:
            b.goto(head)
            b.at(done)

    for ph in lw.sym.game.phases:
        phase(ph)
    b.emit("s.pop()")
    b.emit("return")
    lw.mod.frames.append(
        FrameClass("Flow", origin("the game's flow (phases)", lw.sym.game.span), [], sl.extra_slots, b.blocks)
    )


def _suspension(lw: Lowerer) -> None:
    """Which procedures and triggers can stop for a decision (a fixpoint over calls)."""
    g = lw.sym.game
    for pr in g.procedures:
        lw.suspending[pr.name] = False
    for tr in g.triggers:
        lw.trigger_suspends[tr.name] = False
    effects: dict[tuple[str, str], list[ir.Code]] = {}
    for tname, info in lw.sym.entity_types.items():
        for fname, fd in info.code_fields.items():
            if fd.kind == "effect":
                lw.effect_suspends[(tname, fname)] = False
                effects[(tname, fname)] = [c for ent in info.decl.entities for f, c in ent.code if f == fname]
    probe = StmtLowerer(lw, in_frame=True)
    changed = True
    while changed:
        changed = False
        for key, codes in effects.items():
            if not lw.effect_suspends[key] and any(probe.suspends(s) for c in codes for s in c.body):
                lw.effect_suspends[key] = changed = True
        for pr in g.procedures:
            if not lw.suspending[pr.name] and any(probe.suspends(s) for s in pr.body.body):
                lw.suspending[pr.name] = changed = True
        for tr in g.triggers:
            if not lw.trigger_suspends[tr.name] and any(probe.suspends(s) for s in tr.body.body):
                lw.trigger_suspends[tr.name] = changed = True


def _constants(lw: Lowerer) -> None:
    sym, mod = lw.sym, lw.mod
    for name, i in lw.type_index.items():
        mod.constants.append((f"T_{name}", "int", str(i)))
    zi = 0
    zones = []
    for zname, (z, t) in sym.zones.items():
        lw.zone_ids[zname] = zi
        mod.constants.append((f"Z_{zname}", "int", str(zi)))
        assert t.elem is not None
        tix = lw.type_index.get(t.elem.name, 0)
        owners = range(sym.max_players) if z.per_player else [-1]
        for o in owners:
            zones.append(f"ZoneInfo({zname!r}, {tix}, {z.kind!r}, {o}, {z.visibility!r})")
            zi += 1
    mod.info["zones"] = "(" + "".join(f"\n        {x}," for x in zones) + "\n    )" if zones else "()"
    for i, p in enumerate(sym.players):
        mod.constants.append((f"P_{p}", "int", str(i)))
    for ent, (_, i) in sym.entities.items():
        mod.constants.append((f"E_{ent}", "int", str(i)))
    for name, i in lw.mod_ids.items():
        mod.constants.append((f"M_{name}", "int", str(i)))
    for name, i in lw.phase_ids.items():
        mod.constants.append((f"PH_{name}", "int", str(i)))
    # Static tables carry one extra entry at the end: what `none` (index -1) reads.
    for tname, info in sym.entity_types.items():
        mod.data.append((f"IDS_{tname}", "tuple[str, ...]", _tuple([*info.ids, "none"])))
        for fname, column in info.data.items():
            t = info.field_types[fname]
            mod.data.append(
                (f"F_{tname}_{fname}", f"tuple[{pytype(t)}, ...]", _tuple([*column, none_value(t)]))
            )
    for ename, values in sym.enums.items():
        mod.data.append((f"ENUM_{ename}", "tuple[str, ...]", _tuple(values)))
    radius = max((z.radius for z, _ in sym.zones.values() if z.kind == "grid"), default=0)
    mod.info["radius"] = str(radius)
    types = list(sym.entity_types)
    mod.info["type_names"] = _tuple([*types, "player"])
    mod.info["type_ids"] = "(" + "".join(f"IDS_{t}[:-1], " for t in types) + _tuple(sym.players) + ",)"
    mod.info["type_labels"] = (
        "("
        + "".join(_tuple(sym.entity_types[t].labels) + ", " for t in types)
        + _tuple(list(sym.game.player_labels))
        + ",)"
    )
    mod.info["phases"] = _tuple(list(sym.phases))
    mod.info["modifiers"] = _tuple(list(sym.modifiers))
    mod.info["owner_vars"] = _tuple([n for n, (sv, _, _) in sym.state.items() if sv.visibility == "owner"])
    chance, secret = _uses_chance_and_secrets(sym.game)
    mod.info["chance"], mod.info["secret_choices"] = str(chance), str(secret)
    type_slots = {**lw.type_index, **{e: len(lw.type_index) + i for i, e in enumerate(sym.enums)}}
    mod.info["var_indices"] = (
        "{"
        + ", ".join(
            f"{n!r}: {tuple(type_slots[pt.name] for pt in per)!r}"
            for n, (_, _, per) in sym.state.items()
            if per
        )
        + "}"
    )
    held_types: dict[str, int] = {}
    for n, (_, t, _) in sym.state.items():
        held = t.elem if t.kind == "list" and t.elem is not None else t
        if held.kind == "entity" and held.name in lw.type_index:
            held_types[n] = lw.type_index[held.name]
    mod.info["var_values"] = repr(held_types)
    # what a saved state's variables and modifier arguments may hold (runtime/saved.py checks it)
    var_types: dict[str, tuple[str, tuple[str, ...]]] = {
        o.name: ("bool" if o.type == "bool" else "int", ()) for o in sym.game.options
    }
    for n, (_, t, per) in sym.state.items():
        var_types[n] = (value_type(t), tuple(value_type(pt) for pt in per))
    mod.info["var_types"] = repr(var_types)
    mod.info["modifier_params"] = repr(
        tuple(
            tuple(value_type(sym.type_named(p.type.text) or PLAYER) for p in m.params)
            for m in sym.modifiers.values()
        )
    )
    count = sym.game.player_count.data
    mod.player_count = repr(count)


def _domains(lw: Lowerer) -> None:
    sym = lw.sym
    doms: list[tuple[str, list[str]]] = [
        ("pass", ["pass"]),
        ("bool", ["no", "yes"]),
        ("number", [str(i) for i in range(sym.game.max_number + 1)]),
    ]
    radius = int(lw.mod.info["radius"])
    if radius:
        w = 2 * radius + 1
        doms.append(("cell", [f"({c // w - radius},{c % w - radius})" for c in range(w * w)]))
    doms.append(("player", list(sym.game.player_labels)))
    for tname, info in sym.entity_types.items():
        doms.append((f"entity:{tname}", info.labels))
    for ename, values in sym.enums.items():
        doms.append((f"enum:{ename}", values))
    offset = 0
    rendered = []
    for i, (name, labels) in enumerate(doms):
        lw.domains[name] = i
        rendered.append(f"Domain({name!r}, {offset}, {_tuple(labels)})")
        offset += len(labels)
    lw.mod.info["domains"] = "(" + "".join(f"\n        {x}," for x in rendered) + "\n    )"


def _tuple(items: list[object] | list[str]) -> str:
    if not items:
        return "()"
    return "(" + ", ".join(repr(x) for x in items) + ("," if len(items) == 1 else "") + ")"


def _vars(lw: Lowerer) -> None:
    sym, mod = lw.sym, lw.mod
    for o in sym.game.options:
        ot = "bool" if o.type == "bool" else "int"
        mod.vars.append(
            Var(
                f"o_{o.name}",
                ot,
                f"{ot}(options[{o.name!r}])",
                f"self.o_{o.name}",
                f"{ot}(d[{o.name!r}])",
                o.name,
            )
        )
    for name, (sv, t, per) in sym.state.items():
        from compiler.resolve import convert_value

        init = default(t)
        if sv.initial is not None:
            init = repr(convert_value(sym, sv.initial, t, lw.sink))
        py = pytype(t)
        for pt in reversed(per):
            # a component index gets one extra slot at the end: what `none` (-1) reads
            size = (
                "self.num_players"
                if pt == PLAYER
                else (
                    str(len(sym.entity_types[pt.name].ids) + 1)
                    if pt.kind == "entity"
                    else str(len(sym.enums[pt.name]))
                )
            )
            init = f"[{init} for _ in range({size})]"
            py = f"list[{py}]"
        depth = len(per)
        attr = f"self.v_{name}"
        copy = {
            0: attr,
            1: f"{attr}[:]",
            2: f"[r[:] for r in {attr}]",
            3: f"[[c[:] for c in r] for r in {attr}]",
        }.get(depth, f"copy.deepcopy({attr})")
        mod.vars.append(Var(f"v_{name}", py, init, copy, f"d[{name!r}]", name))
    mod.info["options"] = (
        "("
        + "".join(
            f"\n        OptionInfo({o.name!r}, {o.type!r}, {o.default!r}, {o.choices!r}, {o.doc!r}),"
            for o in sym.game.options
        )
        + ("\n    )" if sym.game.options else ")")
    )


def _scenarios(lw: Lowerer) -> None:
    sym = lw.sym
    for i, sc in enumerate(sym.game.scenarios):
        entry: dict[str, str] = {
            "name": repr(sc.name),
            "file": repr(sc.file),
            "seed": str(sc.seed),
            "options": repr({k: v.data for k, v in sc.options}),
            "dice": repr(list(sc.dice)),
            "skip": repr(scenario_skips(lw.sym.game, sc)),
            "doc": repr(sc.doc),
        }
        shuffles = [[sym.entities[str(v.data)][1] for v in order] for order in sc.shuffles]
        entry["shuffles"] = repr(shuffles)
        entry["start_at"] = repr("" if sc.start_at is None else str(sc.start_at.data))
        entry["draws"] = repr([[sym.entities[str(v.data)][1] for v in order] for order in sc.draws])
        entry["picks"] = repr([sym.entities[str(v.data)][1] for v in sc.picks])
        if sc.setup is not None:
            lw.covering = False  # a scenario's setup arranges a test, it is not a rule
            _code_unit(
                lw,
                f"Sc{i}Setup",
                f"sc{i}_setup",
                origin(f"scenario {sc.name}: setup", sc.setup.span),
                sc.setup,
                [],
                False,
            )
            lw.covering = True
            entry["setup"] = f"sc{i}_setup"
        else:
            entry["setup"] = "None"
        steps = []
        n = 0
        for st in sc.steps:
            checks = []
            for e in st.expect:
                lw.local_prefix = ""
                assert e.expr is not None
                lw.mod.functions.append(
                    Function(
                        f"sc{i}_expect{n}",
                        origin(f"scenario {sc.name}: expect", e.span),
                        [],
                        "bool",
                        [f"return {lw.ex(e.expr)}"],
                    )
                )
                text = _source_text(e.expr.span)
                checks.append(f"({text!r}, {e.span.line}, sc{i}_expect{n})")
                n += 1
            step = {
                "line": repr(st.span.line),
                "actions": repr([str(a.data) for a in st.actions]),
                "expect": "[" + ", ".join(checks) + "]",
                "error": repr(st.expect_error),
                "log": repr(list(st.expect_log)),
                "no_log": repr(list(st.expect_no_log)),
                "legal": repr(None if st.expect_legal is None else sorted(st.expect_legal)),
                "to_act": repr(None if st.expect_to_act is None else str(st.expect_to_act.data)),
                "prompt": repr(st.expect_prompt),
                "winner": repr(None if st.expect_winner is None else str(st.expect_winner.data)),
                "seen": repr({str(k.data): list(v) for k, v in st.expect_seen}),
                "unseen": repr({str(k.data): list(v) for k, v in st.expect_unseen}),
            }
            steps.append("{" + ", ".join(f"{k!r}: {v}" for k, v in step.items()) + "}")
        entry["steps"] = "[" + ", ".join(steps) + "]"
        lw.mod.scenarios.append(entry)


def scenario_skips(g: ir.Game, sc: ir.ScenarioDecl) -> list[str]:
    """The phases and steps whose next pass a scenario skips: its `skip`, and with `start_at` every
    phase or step the flow reaches before that one (not the phases that hold it); a repeated phase
    before it is skipped whole (`*name`: none of its passes runs)."""
    names = [str(v.data) for v in sc.skip]
    if sc.start_at is None:
        return names

    def before(phases: tuple[ir.PhaseDecl, ...], target: str) -> list[str] | None:
        for i, ph in enumerate(phases):
            earlier = [
                f"*{p.name}" if p.repeat is not None or p.while_ is not None else p.name for p in phases[:i]
            ]
            if ph.name == target:
                return earlier
            inner = before(ph.steps, target)
            if inner is not None:
                return earlier + inner
        return None

    return names + [n for n in before(g.phases, str(sc.start_at.data)) or [] if n not in names]


def _uses_chance_and_secrets(g: ir.Game) -> tuple[bool, bool]:
    """Whether the rules (scenarios aside) roll, pick at random or shuffle; and whether they
    ask secret choices. Adapters use these to say what kind of game it is."""
    chance = secret = False
    seen: set[int] = set()

    def walk(node: object) -> None:
        nonlocal chance, secret
        if id(node) in seen:
            return
        seen.add(id(node))
        if isinstance(node, ir.Shuffle) or (isinstance(node, ir.Call) and node.func in ("roll", "random")):
            chance = True
        if isinstance(node, ir.Choose) and node.secret:
            secret = True
        if isinstance(node, tuple | list):
            for x in node:
                walk(x)
        elif hasattr(node, "__dataclass_fields__") and not isinstance(node, ir.Span):
            for name in node.__dataclass_fields__:
                if name != "scenarios":
                    walk(getattr(node, name))

    walk(g)
    return chance, secret


def _source_text(span: ir.Span) -> str:
    from pathlib import Path

    try:
        line = Path(span.file).read_text(encoding="utf-8").splitlines()[span.line - 1]
    except (OSError, IndexError):
        return "?"
    text = line[span.col - 1 : span.end_col - 1] if span.end_line == span.line else line[span.col - 1 :]
    return text.strip().strip("'\"")
