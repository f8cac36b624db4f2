"""Depth guards for the rules that may call themselves.

A plain generated function that is part of a cycle of calls (a function, a procedure that never
stops, a trigger, a component's code; directly or through a component table) counts how deep the
rules have nested it, and a rule that recurs too deep is a located rule error (`State.enter`).
Interpreted, Python's own recursion limit would stop it too, but later and less clearly; a native
build (`rulewright build --native`) has no such limit, and would crash.

The cycles are found on the lowered functions themselves: the names a function's lines use
(outside string literals), a dispatch table standing for every function in it. Frames are not
guarded here: a procedure that may stop runs on the state's own stack, which `State._run` bounds.
"""

from __future__ import annotations

import re
from dataclasses import replace

from compiler.layout import py_literal
from compiler.lower.units import Units
from compiler.viewmodel import Function

# an identifier, or a string literal (matched so that the identifiers inside it are skipped): the
# lowering writes plain quoted strings only, never f-strings or triple quotes
NAMES_OUTSIDE_STRINGS = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|([A-Za-z_]\w*)""")


def guard_recursion(units: Units) -> None:
    """Give each function in a cycle of calls its depth guard, in place."""
    recursive = _in_cycles(_calls(units))
    for i, f in enumerate(units.functions):
        if f.name in recursive:
            units.functions[i] = _guarded(f)


def _calls(units: Units) -> dict[str, set[str]]:
    """Each function's callees among the functions (a table's name: all of its entries)."""
    functions = {f.name for f in units.functions}
    tables = {t.name: {e for e in t.entries if e is not None} for t in units.tables}
    calls: dict[str, set[str]] = {}
    for f in units.functions:
        callees: set[str] = set()
        for name in NAMES_OUTSIDE_STRINGS.findall("\n".join(f.body)):
            if name in functions:
                callees.add(name)
            elif name in tables:
                callees |= tables[name]
        calls[f.name] = callees
    return calls


def _in_cycles(calls: dict[str, set[str]]) -> set[str]:
    """The functions from which a chain of calls leads back to themselves (Tarjan's strongly
    connected components, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    cyclic: set[str] = set()
    for root in sorted(calls):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(calls[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, todo = work[-1]
            if todo:
                callee = todo.pop()
                if callee not in index:
                    index[callee] = low[callee] = len(index)
                    stack.append(callee)
                    on_stack.add(callee)
                    work.append((callee, sorted(calls.get(callee, ()))))
                elif callee in on_stack:
                    low[node] = min(low[node], index[callee])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in calls.get(node, ()):
                    cyclic.update(component)
    return cyclic


def _guarded(f: Function) -> Function:
    """`f` with its body inside `s.enter(origin)` ... `finally: s.depth -= 1` (the coverage
    marker stays its first line)."""
    marks = 0
    while marks < len(f.body) and f.body[marks].startswith("#"):
        marks += 1
    body = (
        *f.body[:marks],
        f"s.enter({py_literal(f.origin)})",
        "try:",
        *("    " + line if line else line for line in f.body[marks:]),
        "finally:",
        "    s.depth -= 1",
    )
    return replace(f, body=body)
