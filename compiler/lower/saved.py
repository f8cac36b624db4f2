"""Saved states: the quick tests of a loaded state's bulky fields, as straight-line code per game.

runtime/saved.py checks every field of a saved state: a field passes a quick test first, and only
one that does not is checked item by item, for the message naming what is wrong (so a quick test
may say no to anything, never yes to what the checks item by item refuse). The engine carries
its own quick tests, written out with the game's facts as numbers (GameInfo.saved_lines,
saved_variables, saved_frames), in place of the runtime's tables walked for every value.

The log is most of a state (hundreds of lines: a text of the rules with its values, a choice
with its prompt, a die roll). A test per kind of text (the texts with the same kinds share one),
and `sv_lines` that runs them down the log:

    def sv_line_3(v: list[Any], players: int) -> bool:    # texts of (player, entity:T)
        _, x1, x2 = v
        if -1 <= x1 <= 1 and -1 <= x2 <= 109:
            return True
        return False

They rely on what runtime/saved.py has seen in the saved text before it calls `sv_lines`: that
every number of the log is an integer (no string, bool, null, fraction or exponent is in it; an
integer beyond 64 bits, which orjson reads as a float, fails every range, and a value without a
range is tested for its type). So a value needs only its range: a list where a number belongs
makes the comparison raise TypeError, and a line of another length ValueError where it is
unpacked, which `sv_lines` takes as a line it does not pass. A text with a value of another kind
(a bool, a string) is never passed: a log of integers holds no such value.

The variables (`sv_variables`): every one there, of its type and range, nested lists of one item
per index value, a short list of known length value by value; where a variable holds what it does
not test (strings, lists in a table), the runtime's tables test them all. A frame's slots
(`sv_slots_N`, one per list of slot kinds): each of its kind.
"""

from __future__ import annotations

from compiler.lower.context import Context
from compiler.lower.facts import domain_sizes
from compiler.viewmodel import FrameClass, Function, Info, Param, SavedChecks, TextFact

# the engine's own lines (runtime/engine.py): a choice, a secret one, a roll, a simultaneous
# answer, the simultaneous answers revealed
CHOSE, CHOSE_SECRETLY, ROLLED, HAS_CHOSEN, REVEALED = -1, -2, -3, -5, -6


def saved_checks(cx: Context, info: Info, frames: tuple[FrameClass, ...]) -> SavedChecks:
    """The tests of the log's lines, by the kinds of their texts, and `sv_lines`; of the
    variables; of each frame's slots (frames whose slots hold the same kinds share one)."""
    spans = _spans(cx, info)
    tests: dict[tuple[tuple[str, ...], bool], str] = {}  # (kinds, private) -> its test's name
    functions: list[Function] = []
    texts = sorted(cx.texts.values(), key=lambda t: t.index)
    never = cx.names.claim("saved", "never")
    functions.append(
        Function(
            never,
            "a line no saved log of integers holds rightly (a value of another kind, a private prompt)",
            (Param("v", "list[Any]"), Param("players", "int")),
            "bool",
            ("return False",),
        )
    )
    for t in texts:
        key = (t.kinds, t.private)
        if key in tests:
            continue
        conditions = _conditions(t, spans)
        if conditions is None:
            tests[key] = never
            continue
        name = tests[key] = cx.names.claim("saved", "line", str(len(functions) - 1))
        shown = ", ".join(t.kinds) or "no values"
        test: tuple[str, ...] = ("return len(v) == 1",)
        if t.kinds:  # (a line of another length raises ValueError, which sv_lines takes as a no)
            names = ", ".join(f"x{i}" for i in range(1, len(t.kinds) + 1))
            test = (f"_, {names} = v", f"if {' and '.join(conditions)}:", "    return True", "return False")
        functions.append(
            Function(
                name,
                f"the lines of the {'private ' if t.private else ''}texts of ({shown}), {t.name} first",
                (Param("v", "list[Any]"), Param("players", "int")),
                "bool",
                test,
            )
        )
    lines = cx.names.claim("saved_table", "lines")
    prompts = cx.names.claim("saved_table", "prompts")
    actions = _action_count(cx, info)
    choice = f"0 <= p < players and 0 <= a < {actions} and (k := q[0]) >= 0 and {prompts}[k](q, players)"
    body = [
        "i = start",
        "try:",
        "    for i in range(start, len(lines)):",
        "        v = lines[i]",
        "        c = v[0]",
        f"        if c == {CHOSE} or c == {CHOSE_SECRETLY}:  # a choice, open or secret: player, action, prompt",
        "            _, p, a, q = v",
        f"            if not ({choice}):",
        "                return i",
        "        elif c >= 0:  # a text of the rules",
        f"            if not {lines}[c](v, players):",
        "                return i",
        f"        elif c == {ROLLED}:  # a roll: value, faces",
        "            _, x, f = v",
        "            if not (type(x) is int and type(f) is int and 1 <= x <= f):",
        "                return i",
    ]
    if info.simultaneous:
        body += [
            f"        elif c == {HAS_CHOSEN}:  # a simultaneous answer: player, prompt",
            "            _, p, q = v",
            f"            if not (0 <= p < players and (k := q[0]) >= 0 and {prompts}[k](q, players)):",
            "                return i",
            f"        elif c == {REVEALED}:  # what was revealed: prompt, players, their actions",
            "            _, q, ps, acts = v",
            "            if not ("
            f"(k := q[0]) >= 0 and {prompts}[k](q, players)"
            " and type(ps) is list and type(acts) is list and len(acts) == len(ps)"
            " and set(map(type, ps)) <= SV_INT and set(map(type, acts)) <= SV_INT"
            f" and (not ps or (0 <= min(ps) and max(ps) < players and 0 <= min(acts) and max(acts) < {actions}))"
            "):",
            "                return i",
        ]
    body += [
        "        else:  # the end of the game: checked item by item",
        "            return i",
        "    return len(lines)",
        "# a list where a number belongs, a line too short or too long (to unpack)",
        "except (TypeError, IndexError, ValueError):",
        "    return i",
    ]
    main = Function(
        cx.names.claim("saved", "lines"),
        "a saved log of integers from line start on: the first line not seen at once to be right",
        (Param("lines", "list[Any]"), Param("start", "int"), Param("players", "int")),
        "int",
        tuple(body),
    )
    functions.append(main)
    variables = _variables(cx, info, spans)
    if variables is not None:
        functions.append(variables)
    slot_tests: dict[tuple[str, ...], str] = {}  # the slots' kinds -> their test's name
    for frame in frames:
        kinds = tuple(slot.value_type for slot in frame.slots)
        if kinds in slot_tests:
            continue
        name = slot_tests[kinds] = cx.names.claim("saved", "slots", str(len(slot_tests)))
        each = [_slot_test(f"values[{i}]", kind, spans) for i, kind in enumerate(kinds)]
        functions.append(
            Function(
                name,
                f"the slots of {frame.name} in a saved state (as many as it has): each of its kind",
                (Param("values", "list[Any]"),),
                "bool",
                (f"if {' and '.join(each)}:", "    return True", "return False")
                if each
                else ("return True",),
            )
        )
    by_index = {t.index: tests[(t.kinds, t.private)] for t in texts}
    return SavedChecks(
        functions=tuple(functions),
        lines_table=lines,
        prompts_table=prompts,
        lines=tuple(by_index[i] for i in range(len(texts))),
        never=never,
        main=main.name,
        variables=variables.name if variables is not None else "",
        names_table=cx.names.claim("saved_table", "variables") if variables is not None else "",
        names=tuple(info.var_types),
        chain=variables is not None and any("chain.from_iterable" in line for line in variables.body),
        frames_table=cx.names.claim("saved_table", "frames"),
        frames=tuple((f.name, slot_tests[tuple(s.value_type for s in f.slots)]) for f in frames),
    )


def _variables(cx: Context, info: Info, spans: dict[str, tuple[int, int]]) -> Function | None:
    """`sv_variables`: every variable of a saved state there, nothing else, each of its type,
    within its range, and nested lists as deep as its indices with one item per index value
    (QuickTests.variables says the same); None when a variable holds what it does not test (a
    string, lists in a table) or is indexed by what it does not size: the runtime's tables do."""
    fixed = info.player_count if type(info.player_count) is int else None
    body = [f"if v.keys() != {cx.names.claim('saved_table', 'variables')}:", "    return False"]
    for name, (vtype, indices) in info.var_types.items():
        listed = vtype.startswith("list[") and not indices  # a list of ids, not in a table
        leaf = vtype[5:-1] if listed else vtype
        if leaf in ("int", "bool"):
            span: tuple[int | None, int | None] | None = (None, None) if leaf == "int" else None
        elif leaf in spans:
            span = spans[leaf]
        else:
            return None
        bounded = info.var_ranges.get(name)
        if bounded is not None and span is not None:  # (None: no bound that side)
            low, high = span
            if bounded[0] is not None:
                low = bounded[0] if low is None else max(low, bounded[0])
            if bounded[1] is not None:
                high = bounded[1] if high is None else min(high, bounded[1])
            span = (low, high)
        sizes: list[str] = []
        for index in indices:
            if index == "player":
                sizes.append("players" if fixed is None else str(fixed))
            elif index.startswith(("entity:", "enum:")) and index in spans:
                sizes.append(str(spans[index][1] + 2))  # (and one for none)
            else:
                return None
        body.append(f"x = v[{name!r}]")
        body += _table_test("x", sizes, span, listed)
    body.append("return True")
    return Function(
        cx.names.claim("saved", "variables"),
        "a saved state's variables: each there, of its type and range, one item per index value",
        (Param("v", "dict[str, Any]"), Param("players", "int")),
        "bool",
        tuple(body),
    )


def _table_test(
    x: str, sizes: list[str], span: tuple[int | None, int | None] | None, listed: bool
) -> list[str]:
    """The lines testing a variable's value `x`: nested lists of these `sizes` (a list of any
    length when `listed`), their values ints within `span` (None: bools). A short list of known
    size has each of its values tested in turn; a longer one, or lists in lists, as a whole."""

    def refuse(tests: list[str]) -> list[str]:
        if len(tests) == 1 and tests[0] in (f"type({x}) is int", f"type({x}) is bool"):
            return [f"if {tests[0].replace(' is ', ' is not ')}:", "    return False"]
        return [f"if not ({' and '.join(tests)}):", "    return False"]

    if not sizes and not listed:
        return refuse([_value_test(x, span)])
    if len(sizes) == 1 and sizes[0].isdigit() and int(sizes[0]) <= 4:
        items = [_value_test(f"{x}[{i}]", span) for i in range(int(sizes[0]))]
        return refuse([f"type({x}) is list", f"len({x}) == {sizes[0]}", *items])
    lines: list[str] = []
    tests = [f"type({x}) is list"] + ([f"len({x}) == {sizes[0]}"] if sizes else [])
    level = x
    for size in sizes[1:]:  # each level of lists in lists: lists of one length
        tests += [f"set(map(type, {level})) <= SV_LIST", f"set(map(len, {level})) == {{{size}}}"]
        lines += refuse(tests)
        lines.append(f"y = list(chain.from_iterable({level}))")
        level, tests = "y", []
    if span is None:
        return lines + refuse([*tests, f"set(map(type, {level})) <= SV_BOOL"])
    tests.append(f"set(map(type, {level})) <= SV_INT")
    bounds = []
    if span[0] is not None:
        bounds.append(f"{span[0]} <= min({level})")
    if span[1] is not None:
        bounds.append(f"max({level}) <= {span[1]}")
    if bounds and listed:  # (a list of ids may be empty)
        tests.append(f"(not {level} or ({' and '.join(bounds)}))")
    else:
        tests += bounds
    return lines + refuse(tests)


def _value_test(x: str, span: tuple[int | None, int | None] | None) -> str:
    if span is None:
        return f"type({x}) is bool"
    low = "" if span[0] is None else f"{span[0]} <= "
    high = "" if span[1] is None else f" <= {span[1]}"
    return f"type({x}) is int" + (f" and {low}{x}{high}" if low or high else "")


def _slot_test(x: str, vtype: str, spans: dict[str, tuple[int, int]]) -> str:
    """The test of a slot's value `x` of the kind `vtype`; "False" where it takes every value to
    the checks item by item, which say what is wrong or pass what this does not test (a string
    not all ASCII, lists of lists)."""
    if vtype == "int":
        return f"type({x}) is int"
    if vtype == "bool":
        return f"type({x}) is bool"
    if vtype == "str":
        return f"type({x}) is str and {x}.isascii()"  # (ASCII: no lone surrogate)
    if vtype in spans:
        low, high = spans[vtype]
        return f"type({x}) is int and {low} <= {x} <= {high}"
    inner = vtype[5:-1] if vtype.startswith("list[") else ""
    if inner == "int":
        return f"type({x}) is list and set(map(type, {x})) <= SV_INT"
    if inner == "bool":
        return f"type({x}) is list and set(map(type, {x})) <= SV_BOOL"
    if inner in spans:
        low, high = spans[inner]
        return (
            f"type({x}) is list and set(map(type, {x})) <= SV_INT"
            f" and (not {x} or ({low} <= min({x}) and max({x}) <= {high}))"
        )
    return "False"


def _conditions(t: TextFact, spans: dict[str, tuple[int, int]]) -> list[str] | None:
    """The tests of the values of a line of the text `t` (`x1`, `x2`, ...), or None when no log
    of integers holds such a line."""
    out = []
    for i, kind in enumerate(t.kinds, 1):
        x = f"x{i}"
        if i == 1 and t.private:  # the player who sees the line
            out.append(f"0 <= {x} < players")
        elif kind == "int":
            out.append(f"type({x}) is int")
        elif kind in spans:
            low, high = spans[kind]
            out.append(f"{low} <= {x} <= {high}")
        elif kind == "list[int]":
            out.append(f"type({x}) is list and set(map(type, {x})) <= SV_INT")
        elif kind.startswith("list[") and kind[5:-1] in spans:
            low, high = spans[kind[5:-1]]
            # (integers first: min and max of lists would compare them, however deep they nest)
            out.append(
                f"type({x}) is list and set(map(type, {x})) <= SV_INT"
                f" and (not {x} or ({low} <= min({x}) and max({x}) <= {high}))"
            )
        else:  # a bool, a string, a list of those or of integers of any size
            return None
    return out


def _spans(cx: Context, info: Info) -> dict[str, tuple[int, int]]:
    """The lowest and highest id of each kind of value a text may hold (-1 is none), as
    runtime/saved.py's id_range has them: players, zones, cells, components, enum values."""
    sym = cx.sym
    cells = (2 * info.radius + 1) ** 2 if info.radius else 0
    spans = {
        "player": (-1, len(sym.game.player_labels) - 1),
        "zone": (-1, len(info.zones) - 1),
        "cell": (-1, cells - 1),
    }
    for name, entity in sym.entity_types.items():
        spans[f"entity:{name}"] = (-1, len(entity.ids) - 1)
    for name, values in sym.enums.items():
        spans[f"enum:{name}"] = (-1, len(values) - 1)
    return spans


def _action_count(cx: Context, info: Info) -> int:
    """The number of the game's distinct actions (GameInfo.num_distinct_actions)."""
    last = info.domains[-1]
    return last.offset + domain_sizes(cx)[last.name]
