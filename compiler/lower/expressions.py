"""Expressions: a checked IR expression -> the text of a Python expression.

`s` is the state. Names become their generated constants, state reads `s.v_<name>`, builtins are
written as compiler/builtins.py says, and a node or builtin this module does not know raises
`Unsupported` (the checker lets none through), never a silent default.
"""

from __future__ import annotations

import math
import re
from typing import assert_never

from compiler import ir
from compiler.builtins import BUILTINS
from compiler.layout import py_literal
from compiler.lower import emptiness, inline, reuse
from compiler.lower.context import Context
from compiler.typesys import PLAYER, Type, list_of


class Unsupported(Exception):
    """Lowering met something the checker should have rejected: a compiler bug, not a spec error."""


def expr(cx: Context, e: ir.Expr) -> str:
    """Python for expression `e`; a pure call it repeats is computed once (reuse.py). An expression
    of a zone type is its instance where check.py took it as a zone value (`zone_refs`), else the
    list of what the zone holds."""
    if cx.plan is None:
        return _planned(cx, e, binding=True)
    if cx.inline_marks is not None and not isinstance(e, inline.STRICT):
        with inline.only_sometimes(cx):  # (what runs inside may run only sometimes)
            return _in_plan(cx, e)
    return _in_plan(cx, e)


def _in_plan(cx: Context, e: ir.Expr) -> str:
    assert cx.plan is not None
    if id(e) in cx.ann.zone_refs:
        return zone_id(cx, e)
    if cx.ann.type_of(e).kind == "zone" and not named_zone(cx, e):
        return f"s.pile({zone_id(cx, e)})"  # a zone held as a value, read
    use = cx.plan.use.get(id(e))
    if use is not None:
        return use
    lazy = cx.plan.lazy.get(id(e))
    if lazy is not None:
        with inline.only_sometimes(cx):
            code = _expr(cx, e)
        return f"({lazy} if {lazy} is not None else ({lazy} := {code}))"
    code = _expr(cx, e)
    bind = cx.plan.bind.get(id(e))
    return f"({bind} := {code})" if bind is not None else code


def unbound(cx: Context, e: ir.Expr) -> str:
    """Python for `e` that binds no variable: the code around it may put it where Python allows no
    `:=` (the iterable of a comprehension: a label joining a list's items)."""
    return _planned(cx, e, binding=False) if cx.plan is None else expr(cx, e)


def _planned(cx: Context, e: ir.Expr, binding: bool) -> str:
    cx.plan = reuse.plan(cx, e, binding)
    try:
        return expr(cx, e)
    finally:
        cx.plan = None


def _expr(cx: Context, e: ir.Expr) -> str:
    match e:
        case ir.IntLit():
            return str(e.value)
        case ir.BoolLit():
            return "True" if e.value else "False"
        case ir.NoneLit():
            return "-1"
        case ir.StrLit():
            return string(cx, e)
        case ir.Name():
            return name(cx, e)
        case ir.Field():
            return _field(cx, e)
        case ir.MethodCall():
            return _method_call(cx, e)
        case ir.Index():
            return _index(cx, e)
        case ir.Call():
            return call(cx, e)
        case ir.ListLit():
            return "[" + ", ".join(expr(cx, i) for i in e.items) + "]"
        case ir.ListComp():
            cond = f" if {expr(cx, e.cond)}" if e.cond is not None else ""
            item = option_id(cx, e, expr(cx, e.item))
            return f"[{item} for {comp_var(cx, e)} in {iterable(cx, e.source)}{cond}]"
        case ir.Quantifier():
            return _quantifier(cx, e)
        case ir.Aggregate():
            cond = f" if {expr(cx, e.cond)}" if e.cond is not None else ""
            gen = f"{expr(cx, e.item)} for {comp_var(cx, e)} in {iterable(cx, e.source)}{cond}"
            return f"sum({gen})" if e.kind == "sum" else f"{e.kind}(({gen}), default=0)"
        case ir.Compare() if e.op in ("==", "!=") and isinstance(e.right, ir.BoolLit):
            # `x == true` is `x`, `x == false` is `not x`: Python style wants no comparison with a
            # bool literal
            return f"({expr(cx, e.left) if e.right.value == (e.op == '==') else negation(cx, e.left)})"
        case ir.Compare() if e.op in ("==", "!=") and isinstance(e.left, ir.BoolLit):
            return f"({expr(cx, e.right) if e.left.value == (e.op == '==') else negation(cx, e.right)})"
        case ir.BinOp() if e.op in ("//", "%") and not (
            isinstance(e.right, ir.IntLit) and e.right.value != 0
        ):
            # a divisor that may be zero: the engine raises a rule error instead of Python's
            return f"s.{'div' if e.op == '//' else 'mod'}({expr(cx, e.left)}, {expr(cx, e.right)})"
        case ir.Compare() if (tested := emptiness.emptiness_test(cx, e)) is not None:
            return has_call(cx, *tested)
        case ir.Compare() if e.op in ("in", "not in"):
            held = _held(cx, e)
            if held is not None:
                # (an inline read of the index comes in brackets already: `(x == Z_deck)`)
                wrapped = held if held.startswith("(") else f"({held})"
                return wrapped if e.op == "in" else f"(not {held})"
            return f"({expr(cx, e.left)} {e.op} {iterable(cx, e.right)})"
        case ir.BoolOp():
            left = expr(cx, e.left)
            with inline.only_sometimes(cx):
                right = expr(cx, e.right)
            return f"({left} {e.op} {right})"
        case ir.BinOp() | ir.Compare():
            return f"({expr(cx, e.left)} {e.op} {expr(cx, e.right)})"
        case ir.Not():
            return f"({negation(cx, e.operand)})"
        case ir.Neg():
            return f"(-{expr(cx, e.operand)})"
        case ir.CondExpr():
            with inline.only_sometimes(cx):
                then = expr(cx, e.then)
            cond = expr(cx, e.cond)
            with inline.only_sometimes(cx):
                other = expr(cx, e.other)
            return f"({then} if {cond} else {other})"
        case ir.Active():
            return f"({_active(cx, e, True)})"
        case ir.CountActive():
            # a scan of the effects in force, in the order added (not on the path of `active`)
            return f"s.count_mod({cx.names.claim('modifier', e.name)}, {arg_tuple(cx, e.args)})"
        case ir.Choose() | ir.ChooseNumber() | ir.Ask():
            raise Unsupported("a decision inside an expression (check.py rejects these)")
        case _:
            assert_never(e)


def python_type(t: Type) -> str:
    """The Python annotation of values of type `t` (a zone value is its instance's index)."""
    if t.kind == "bool":
        return "bool"
    if t.kind == "str":
        return "str"
    if t.kind == "list":
        return f"list[{python_type(t.elem) if t.elem else 'int'}]"
    return "int"


def lowered_type(cx: Context, e: ir.Expr) -> Type:
    """The type of the value `e` lowers to: a zone read as a list (not taken as a zone value) is
    the list of what it holds."""
    t = cx.ann.type_of(e)
    if t.kind == "zone" and id(e) not in cx.ann.zone_refs:
        return list_of(t.elem or PLAYER)
    return t


def always_true(e: ir.Expr) -> bool:
    """`true` itself: a loop `while true` needs no test (it ends by `break` or not at all)."""
    return isinstance(e, ir.BoolLit) and e.value


def negation(cx: Context, e: ir.Expr) -> str:
    """`not e`, with membership flipped (`a not in b`) as Python style wants."""
    if isinstance(e, ir.Compare) and e.op in ("in", "not in"):
        held = _held(cx, e)
        if held is not None:
            return f"not {held}" if e.op == "in" else held
        flipped = "not in" if e.op == "in" else "in"
        return f"{expr(cx, e.left)} {flipped} {iterable(cx, e.right)}"
    if isinstance(e, ir.Active):
        return _active(cx, e, False)
    return f"not {expr(cx, e)}"


def _held(cx: Context, e: ir.Compare) -> str | None:
    """`component in zone` as a look-up in the engine's where-index (`s.holds`), not a scan of
    the pile; None when the right side is not a zone named directly (a list, a comprehension)."""
    t = cx.ann.type_of(e.right)
    if t.kind != "zone" or t.elem is None or t.elem.kind != "entity":
        return None
    zone, kind, element = zone_id(cx, e.right), cx.names.claim("type", t.elem.name), expr(cx, e.left)
    if _inline_held(cx, e, element):
        # a component in a variable, read from the index inline (a method call costs more than
        # the look-up: this is what an invariant over every component repeats); none (-1) is in
        # no zone
        where = cx.plan.where.get((kind, element)) if cx.plan is not None else None
        if where is not None:  # read once before the statement (`hoisting`)
            return f"({where} == {zone})"
        return f"({element} >= 0 and s.z.where[{kind}][{element}] == {zone})"
    held = f"{zone}, {kind}, {element}"
    # a zone value may be none (-1), where every component that is in no zone is
    return f"s.holds({held})" if named_zone(cx, e.right) else f"s.holds_value({held})"


def _inline_held(cx: Context, e: ir.Compare, element: str) -> bool:
    """Whether `element in zone` (lowered `element`) reads the where-index inline: a component in
    a local variable, a parameter or a comprehension's variable, and a zone named directly."""
    b = cx.ann.names.get(id(e.left)) if isinstance(e.left, ir.Name) else None
    return (
        b is not None and b.kind in ("local", "comp") and element.isidentifier() and named_zone(cx, e.right)
    )


def where_reads(cx: Context, e: ir.Expr) -> dict[tuple[str, str], str]:
    """The zones of the components in parameters that `e`, a function's whole body, tests twice
    or more (`c in deck or c in hand`), each read once before it into a variable: no zone changes
    while an expression is evaluated (its locals are the function's parameters), and the read
    cannot fail (a component's id is below its type's count; none, -1, is read as in no zone)."""
    if cx.local_prefix:  # a frame's locals are slots, read from `self`
        return {}
    tests: dict[tuple[str, str], int] = {}
    for node in ir.walk(e):
        if not isinstance(node, ir.Compare) or node.op not in ("in", "not in"):
            continue
        t = cx.ann.type_of(node.right)
        b = cx.ann.names.get(id(node.left)) if isinstance(node.left, ir.Name) else None
        if t.kind != "zone" or t.elem is None or t.elem.kind != "entity" or b is None or b.kind != "local":
            continue
        element = expr(cx, node.left)
        if _inline_held(cx, node, element):
            key = (cx.names.claim("type", t.elem.name), element)
            tests[key] = tests.get(key, 0) + 1
    reads: dict[tuple[str, str], str] = {}
    for key, count in tests.items():
        if count > 1:
            cx.reused += 1
            reads[key] = f"v{cx.reused}_"
    return reads


def _active(cx: Context, e: ir.Active, held: bool) -> str:
    """`active name(args)` (`held`) or its negation: first the modifier's bit in `s.mod_kinds`
    (runtime/engine.py), which answers alone when no effect of it is in force or it takes no
    arguments; then the modifier and its arguments looked up in the set of lasting effects in force
    (a set test, not a scan of the list of effects). Arguments that may fail are looked up first,
    as they always were: skipped, their error would be too."""
    mod = cx.names.claim("modifier", e.name)
    if not e.args:
        return f"(s.mod_kinds >> {mod}) & 1 == {1 if held else 0}"
    if not all(reuse.never_fails(cx, a) for a in e.args):
        key = arg_list([mod, *(expr(cx, a) for a in e.args)])
        return f"{key} in s.active_mods" if held else f"{key} not in s.active_mods"
    with inline.only_sometimes(cx):
        key = arg_list([mod, *(expr(cx, a) for a in e.args)])
    if held:
        return f"(s.mod_kinds >> {mod}) & 1 == 1 and {key} in s.active_mods"
    return f"(s.mod_kinds >> {mod}) & 1 == 0 or {key} not in s.active_mods"


def stored(cx: Context, e: ir.Expr, code: str | None = None) -> str:
    """An expression whose value is kept (a local, an argument): a zone is copied, never aliased.
    `code`: `e` already lowered."""
    code = expr(cx, e) if code is None else code
    return f"list({code})" if cx.ann.type_of(e).kind == "zone" and id(e) not in cx.ann.zone_refs else code


def iterable(cx: Context, e: ir.Expr) -> str:
    """Python for a collection that is only iterated, searched or indexed, never kept: a constant
    domain (every component of a type, the players, `range(a, b)`) is a range, not a new list."""
    if isinstance(e, ir.Call) and e.func == "range" and e.func not in cx.sym.functions:
        return f"range({expr(cx, e.args[0])}, {expr(cx, e.args[1])})"
    b = cx.ann.names.get(id(e)) if isinstance(e, ir.Name) else None
    if b is not None and b.kind in ("all", "values", "players"):
        return f"range({size(cx, e)})"
    return expr(cx, e)


def size(cx: Context, e: ir.Expr) -> str | None:
    """The length of a constant domain (`all` of a type: a number; the players), or None."""
    b = cx.ann.names.get(id(e)) if isinstance(e, ir.Name) else None
    if b is not None and b.kind == "all":
        return str(len(cx.sym.entity_types[b.target].ids))
    if b is not None and b.kind == "values":
        return str(len(cx.sym.enums[b.target]))
    if b is not None and b.kind == "players":
        return "s.num_players"
    return None


def arg_tuple(cx: Context, args: tuple[ir.Expr, ...]) -> str:
    return arg_list([expr(cx, a) for a in args])


def arg_list(items: list[str]) -> str:
    """A tuple of these expressions, as Python style writes it."""
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def comp_var(cx: Context, e: ir.ListComp | ir.Quantifier | ir.Aggregate) -> str:
    return f"c_{cx.ann.slots[id(e)]}"


def named_zone(cx: Context, e: ir.Expr) -> bool:
    """Whether `e` names a declared zone instance (`deck`, `hand[p]`, `expedition[c, p]`)."""
    subject = e.subject if isinstance(e, ir.Index) else e
    b = cx.ann.names.get(id(subject)) if isinstance(subject, ir.Name) else None
    return b is not None and b.kind == "zone" and cx.ann.type_of(e).kind == "zone"


def zone_id(cx: Context, e: ir.Expr, used: bool = False) -> str:
    """The zone instance an expression of a zone type is: `Z_pile`, a per-player zone's
    `(Z_hand + p)`, `(Z_expedition + c * 2 + p)`, or a zone value's index. `used`: a zone is
    changed or read from its top there, so a zone value that is none is a rule error."""
    match e:
        case ir.Name() | ir.Index() if named_zone(cx, e):
            return _zone_instance(cx, e)
        case ir.NoneLit():
            return "-1"
        case ir.CondExpr():
            with inline.only_sometimes(cx):
                then, other = zone_id(cx, e.then, used), zone_id(cx, e.other, used)
            return f"({then} if {expr(cx, e.cond)} else {other})"
        case _ if cx.ann.type_of(e).kind == "zone":
            code = _expr(cx, e)  # a local, a parameter, a call, a list's item: the instance itself
            return f"s.zone({code}, {py_literal(_described(e))})" if used else code
        case _:
            raise Unsupported("a zone of an expression that is no zone (check.py rejects these)")


def _zone_instance(cx: Context, e: ir.Expr) -> str:
    """A declared zone's instance: its first, offset by each index times the instances after it."""
    if isinstance(e, ir.Name):
        return cx.names.claim("zone", e.ident)
    assert isinstance(e, ir.Index) and isinstance(e.subject, ir.Name)
    name = e.subject.ident
    per = cx.sym.zone_per.get(name, ())
    terms = [cx.names.claim("zone", name)]
    assert len(e.args) == len(per)  # (check.py counts them)
    for i, a in enumerate(e.args):
        code = expr(cx, a)
        if not code.startswith(("P_", "E_")) and not code.isdigit() and not sure(cx, a):
            # never `none` (an enum's is an optional choice passed); the one index of a zone per
            # player (or per component) tested in place, the indices of a zone of two by s.ref
            code = checked(code) if len(per) == 1 else f"s.ref({code})"
        stride = math.prod(cx.sym.index_size(u) for u in per[i + 1 :])
        if code.isdigit():  # an enum value written in the rules: its offset is a constant
            if int(code) * stride:
                terms.append(str(int(code) * stride))
        else:
            terms.append(code if stride == 1 else f"{code} * {stride}")
    return terms[0] if len(terms) == 1 else f"({' + '.join(terms)})"


def _described(e: ir.Expr) -> str:
    """How a rule error names a zone value: its local or parameter, or what computes it."""
    match e:
        case ir.Name():
            return f"zone '{e.ident}'"
        case ir.Call():
            return f"the zone {e.func}(...)"
        case _:
            return "a zone value"


def label(cx: Context, code: str, t: Type) -> str:
    """Display text of the value `code` of type `t` (a list's is iterated: lower it `unbound`)."""
    match t.kind:
        case "entity" if t.name == "player":
            return f"s.player_label({code})"
        case "entity":
            return f"s.label({cx.names.claim('type', t.name)}, {code})"
        case "enum" if code.isdigit() or code.startswith("F_"):  # a value, or a column's: never none
            return f"{cx.names.claim('enum', t.name)}[{code}]"
        case "enum":
            return f"s.enum_label({cx.names.claim('enum', t.name)}, {code})"
        case "cell":
            return f"s.cell_label({code})"
        case "bool":
            return f'("yes" if {code} else "no")'
        case "str":
            return code
        case "list" | "zone":
            inner = label(cx, "x_", t.elem) if t.elem else "str(x_)"
            return f'", ".join({inner} for x_ in {code})'
        case _:
            return f"str({code})"


def value_type(t: Type) -> str:
    """The runtime's name for the values of type `t` in a saved state: `int`, `bool`, `str`, a
    domain's name (`cell`, `player`, `entity:T`, `enum:E`: an id of that domain) or `list[...]`."""
    if t.kind == "list":
        return f"list[{value_type(t.elem) if t.elem else 'int'}]"
    if t.kind == "zone":
        return "zone"  # a zone value: the index of one of the game's zone instances
    if t == PLAYER:
        return "player"
    if t.kind in ("entity", "enum"):
        return f"{t.kind}:{t.name}"
    return t.kind if t.kind in ("bool", "str", "cell") else "int"


def text(cx: Context, parts: tuple[str | ir.Expr, ...], viewer: ir.Expr | None = None) -> list[str]:
    """A log line or prompt as the rules store it: its text's constant, then the values of its
    holes (a list copied into a tuple: a line never changes after the fact). A line only `viewer`
    sees starts with that player."""
    form, kinds, values = [], [], []
    if viewer is not None:
        kinds.append("player")
        values.append(expr(cx, viewer))
    for p in parts:
        if isinstance(p, str):
            form.append(p.replace("{", "{{").replace("}", "}}"))
            continue
        t = lowered_type(cx, p)
        code = expr(cx, p)
        form.append("{}")
        kinds.append(value_type(t))
        values.append(f"tuple({code})" if t.kind in ("list", "zone") else code)
    words = re.findall(r"[a-z0-9]+", " ".join(p for p in parts if isinstance(p, str)).lower())
    return [cx.text("".join(form), tuple(kinds), viewer is not None, words), *values]


def string(cx: Context, e: ir.StrLit) -> str:
    """A string with `{...}` interpolations: literal parts joined with the values' labels."""
    parts = [
        py_literal(p) if isinstance(p, str) else label(cx, unbound(cx, p), cx.ann.type_of(p)) for p in e.parts
    ]
    return " + ".join(parts) if parts else '""'


def name(cx: Context, e: ir.Name) -> str:
    b = cx.ann.names[id(e)]
    match b.kind:
        case "local" if cx.inline_args is not None:  # a parameter of a function written out
            return cx.inline_args[b.target]
        case "local" if cx.slot_locals is not None and cx.local_prefix:
            cx.slot_locals[b.target] = None  # (a frame's slot, read once before the loops)
            return f"l_{b.target}"
        case "local":
            return cx.local(b.target)
        case "comp":
            return f"c_{b.target}"
        case "const":
            value = cx.sym.constants[b.target][1]
            return py_literal(value)
        case "option":
            return f"s.o_{b.target}"
        case "state":
            return state_read(cx, b.target)
        case "zone":
            return f"s.z.piles[{cx.names.claim('zone', b.target)}]"
        case "entity":
            return cx.names.claim("entity", b.target)
        case "enum":
            return str(cx.sym.enum_values[b.target][1])
        case "player":
            return cx.names.claim("player", b.target)
        case "all":
            return f"list(range({len(cx.sym.entity_types[b.target].ids)}))"
        case "values":
            return f"list(range({len(cx.sym.enums[b.target])}))"
        case "players":
            return "list(range(s.num_players))"
        case "num_players":
            return "s.num_players"
    raise Unsupported(f"a name bound as {b.kind!r}")


def call(cx: Context, e: ir.Call) -> str:
    """A call of a spec function, or of a builtin as compiler/builtins.py writes it."""
    if e.func in cx.sym.functions:
        args, marked = [], []
        for a in e.args:
            before = len(cx.inline_marks or ())
            args.append(expr(cx, a))
            marked.append(len(cx.inline_marks or ()) > before)  # (it inlined a call)
        inlined = inline.inline_call(cx, e, args, marked, expr)
        if inlined is not None:
            return inlined
        return f"{cx.names.claim('function', e.func)}(s{''.join(', ' + a for a in args)})"
    if e.func in cx.sym.procedures:  # a procedure with `returns:` that never stops: a plain call
        args = [stored(cx, a) for a in e.args]
        return f"{cx.names.claim('procedure', e.func)}(s{''.join(', ' + a for a in args)})"
    with inline.only_sometimes(cx):  # (a builtin's Python may evaluate an argument only sometimes)
        return _builtin(cx, e)


def has_call(cx: Context, e: ir.Call, nonempty: bool) -> str:
    """The call of function `e`'s emptiness test (emptiness.py): whether its list is not empty,
    or (`nonempty` False) whether it is."""
    args = "".join(", " + expr(cx, a) for a in e.args)
    code = f"{cx.names.claim('nonempty', e.func)}(s{args})"
    return code if nonempty else f"(not {code})"


def _builtin(cx: Context, e: ir.Call) -> str:
    builtin = BUILTINS.get(e.func)
    if builtin is None:
        raise Unsupported(f"a call of unknown function {e.func!r}")
    known = size(cx, e.args[0]) if e.func == "len" else None
    if known is not None:
        return known
    args = [expr(cx, a) for a in e.args]
    template = builtin.python
    if builtin.python_two_players is not None and cx.two_players:
        template = builtin.python_two_players
    first = cx.ann.type_of(e.args[0]) if e.args else PLAYER
    fills: dict[str, str] = {"args": ", ".join(args)}
    if "{type0}" in template:
        fills["type0"] = cx.type_constant(first)
    if "{zone0}" in template:
        fills["zone0"] = zone_id(cx, e.args[0], used=True)
    if "{label0}" in template:
        fills["label0"] = label(cx, args[0], first)
    if e.func == "random" and copies_table(cx, first):  # a scenario's forced pick names a kind
        return f"s.pick_kinds({args[0]}, {copies_table(cx, first)}, {cx.type_constant(first)})"
    if e.func == "random" and _holds_entities(first):  # (explicit chance names the outcomes)
        return f"s.pick({args[0]}, {cx.type_constant(first)})"
    return template.format(*args, **fills)


def _holds_entities(t: Type) -> bool:
    """A list or zone of components or players."""
    return (t.iterable_elem or t).kind == "entity"


def copies_table(cx: Context, t: Type) -> str:
    """The KINDS_ table of a component type some of whose rows have copies ("" for any other type):
    decisions, forced shuffles and picks of its components go by kind."""
    if t.kind in ("zone", "list") and t.elem is not None:
        t = t.elem
    if t.kind == "entity" and t.name != "player":
        info = cx.sym.entity_types.get(t.name)
        if info is not None and info.copies:
            return cx.names.claim("kinds", t.name)
    return ""


def checked(code: str) -> str:
    """The index of a zone's instance that must not be `none` (-1): tested by `s.ref`, which raises
    on it; a name is tested in place and `s.ref` called only to raise (a call costs more than the
    test). (A write's indices, and a zone's of two indices, keep `s.ref`: tested in place they
    make long lines, which the layout may wrap otherwise than ruff, and read worse.)"""
    return f"({code} if {code} >= 0 else s.ref({code}))" if _simple(code) else f"s.ref({code})"


def sure(cx: Context, e: ir.Expr) -> bool:
    """Whether `e` is a local that surely holds no `none` here (Context.sure_slots)."""
    b = cx.ann.names.get(id(e)) if isinstance(e, ir.Name) else None
    return b is not None and b.kind == "local" and b.target in cx.sure_slots


def option_id(cx: Context, e: ir.ListComp | ir.Quantifier, item: str) -> str:
    """An item of the comprehension listing a decision's options as the action id it stands for
    (the domain's first id added here, not by the engine in a second pass over the list)."""
    if cx.option_ids is None or cx.option_ids[0] != id(e):
        return item
    return f"{cx.option_ids[1]} + {item}"


def domain_of(cx: Context, t: Type) -> int:
    """The action domain (index) of a choosable value type."""
    match t.kind:
        case "entity" if t.name == "player":
            return cx.domains["player"]
        case "entity":
            return cx.domains[f"entity:{t.name}"]
        case "enum":
            return cx.domains[f"enum:{t.name}"]
        case "cell":
            return cx.domains["cell"]
        case "bool":
            return cx.domains["bool"]
    return cx.domains["number"]


def _field(cx: Context, e: ir.Field) -> str:
    subject = expr(cx, e.subject)
    t = cx.ann.type_of(e.subject)
    if e.name == "name":
        return f"s.label({cx.names.claim('type', t.name)}, {subject})"
    if e.name == "id":
        return f"{cx.names.claim('ids', t.name)}[{subject}]"
    return f"{cx.names.claim('column', t.name, e.name)}[{subject}]"


def _method_call(cx: Context, e: ir.MethodCall) -> str:
    t = cx.ann.type_of(e.subject)
    subject = expr(cx, e.subject)
    table = cx.names.claim("expression_table", t.name, e.name)
    args = "".join(f", {expr(cx, a)}" for a in e.args)
    if not _simple(subject):  # evaluate the subject once
        cx.walrus += 1
        tmp = f"w{cx.walrus}_"
        return f"{table}[({tmp} := {subject})](s, {tmp}{args})"
    return f"{table}[{subject}](s, {subject}{args})"


def state_read(cx: Context, name: str) -> str:
    """A read of state variable `name`: `s.v_<name>`, or, in a loop of loops.py, the local it
    read once before the loops (`v_<name>`; an expression writes nothing, so it is the same)."""
    if cx.state_locals is None:
        return f"s.v_{name}"
    cx.state_locals[name] = None
    return f"v_{name}"


def _index(cx: Context, e: ir.Index) -> str:
    b = cx.ann.names.get(id(e.subject))
    if b is not None and b.kind == "state":
        return state_read(cx, b.target) + "".join(f"[{expr(cx, a)}]" for a in e.args)
    if b is not None and b.kind == "zone" and cx.ann.type_of(e).kind != "zone":  # `deck[0]`
        return f"s.nth({expr(cx, e.subject)}, {expr(cx, e.args[0])})"
    if b is not None and b.kind == "zone":
        return f"s.z.piles[{zone_id(cx, e)}]"
    if cx.ann.type_of(e.subject).kind == "zone":  # `hand[p][i]`, `z[i]`: checked, from the bottom
        return f"s.nth({expr(cx, e.subject)}, {expr(cx, e.args[0])})"
    return f"{iterable(cx, e.subject)}[{expr(cx, e.args[0])}]"


def _quantifier(cx: Context, e: ir.Quantifier) -> str:
    v = comp_var(cx, e)
    if e.kind == "count" and e.cond is None:
        return size(cx, e.source) or f"len({iterable(cx, e.source)})"
    source = iterable(cx, e.source)
    cond = expr(cx, e.cond) if e.cond is not None else "True"
    match e.kind:
        case "count":
            return f"sum(1 for {v} in {source} if {cond})"
        case "any" | "all" if e.cond is not None:
            return _search(cx, e.kind, v, source, e.cond)
        case "any" | "all":
            return f"{e.kind}({cond} for {v} in {source})"
        case "filter":
            return f"[{option_id(cx, e, v)} for {v} in {source} if {cond}]"
    raise Unsupported(f"a quantifier {e.kind!r}")


def _search(cx: Context, kind: str, v: str, source: str, cond: ir.Expr) -> str:
    """`any`/`all` with the test as the generator's filter: the generator yields only the element
    that decides, instead of a bool for every element it tests. The same elements are tested, in
    the same order, up to the same one (each test is a truth test, as `any`/`all` make)."""
    if kind == "any":
        return f"any(True for {v} in {source} if {expr(cx, cond)})"
    return f"all(False for {v} in {source} if {negation(cx, cond)})"


def _simple(code: str) -> bool:
    """A name, an attribute of self or a constant: safe to evaluate twice."""
    return code.replace("self.", "", 1).isidentifier() or code.lstrip("-").isdigit()
