"""The layers: which package may import which, no import cycle, and the runtime's exported names.

    rulewright ──▶ compiler, runtime;   generated ──▶ runtime (only runtime.exported)

Imports are read from the source (AST), every one of them: at the top, inside functions, and under
`if TYPE_CHECKING:`, since a lazy or typing-only import ties two modules as surely as any other.
"""

from __future__ import annotations

import ast
import functools
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import runtime
import runtime.board
import runtime.engine

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rulewright", "compiler", "runtime", "generated")


@dataclass(frozen=True)
class Import:
    """One import in a module's source: the module it names (absolute), and for `from X import a`
    the names taken from it."""

    line: int
    module: str
    names: tuple[str, ...] = ()


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def modules() -> dict[str, Path]:
    """Every module of our four packages, by dotted name (found once: no test changes a file)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "__pycache__" not in path.parts:
                found[module_name(path)] = path
    return found


@functools.cache
def imports(name: str, path: Path) -> tuple[Import, ...]:
    """Every import statement of a module, wherever it stands, with relative ones made absolute.
    Parsed once per module for the whole module of tests: the engines are large, and every test
    here reads every module."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [Import(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name if path.name == "__init__.py" else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}" if base else package
            out.append(Import(node.lineno, base, tuple(alias.name for alias in node.names)))
    return tuple(out)


def top(module: str) -> str:
    return module.partition(".")[0]


def targets(imp: Import, known: set[str]) -> set[str]:
    """The modules of ours an import loads: `from pkg import mod` is an edge to pkg.mod when that is
    a module, and to pkg for a name defined in it; `import a.b.c` is an edge to a.b.c."""
    out = {f"{imp.module}.{n}" for n in imp.names if f"{imp.module}.{n}" in known}
    if len(out) < len(imp.names) or not imp.names:
        base = imp.module
        while base and base not in known:
            base = base.rpartition(".")[0]
        if base:
            out.add(base)
    return out


def graph() -> dict[str, set[str]]:
    """module -> the modules of ours it imports."""
    found = modules()
    known = set(found)
    return {
        name: {t for imp in imports(name, path) for t in targets(imp, known)} for name, path in found.items()
    }


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected component that has one (Tarjan's algorithm), each
    as a path that starts and ends at the same module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in edges.get(v, ()):
                components.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return [_cycle_in(c, edges) for c in sorted(components)]


def _cycle_in(component: list[str], edges: dict[str, set[str]]) -> list[str]:
    """The shortest path from the component's first module back to itself (breadth first)."""
    start, members = component[0], set(component)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for v in frontier:
            for w in sorted(edges.get(v, set()) & members):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if w not in came_from:
                    came_from[w] = v
                    following.append(w)
        frontier = following
    raise AssertionError(f"no cycle in the component {component}")


def shown(name: str, imp: Import) -> str:
    what = f"from {imp.module} import {', '.join(imp.names)}" if imp.names else f"import {imp.module}"
    return f"{modules()[name].relative_to(ROOT)}:{imp.line}: {what}"


def layer_breaches(package: str, forbidden: set[str]) -> list[str]:
    return [
        shown(name, imp)
        for name, path in modules().items()
        if top(name) == package
        for imp in imports(name, path)
        if top(imp.module) in forbidden
    ]


# ---- (a) the layers --------------------------------------------------------------------------------


def test_every_package_is_found_and_lazy_imports_count() -> None:
    found = modules()
    for package in PACKAGES:
        assert package in found and any(top(m) == package and m != package for m in found)
    edges = graph()
    # imports inside a function and under `if TYPE_CHECKING:` are edges like any other
    assert "compiler.driver" in edges["rulewright.commands.check"]  # imported inside a function
    assert "runtime.adapters.openspiel" in edges["runtime.agents"]  # inside a function too
    assert "compiler.ir" in edges["compiler.load"]  # `from compiler import ir`: the module


def test_runtime_imports_neither_the_compiler_nor_the_tools() -> None:
    """A compiled engine runs with the runtime alone."""
    breaches = layer_breaches("runtime", {"compiler", "rulewright"})
    assert not breaches, "runtime/ imports from above it:\n" + "\n".join(breaches)


def test_compiler_imports_neither_the_runtime_nor_the_tools() -> None:
    """The compiler writes engines for the runtime but does not import it."""
    breaches = layer_breaches("compiler", {"runtime", "rulewright", "generated"})
    assert not breaches, "compiler/ imports outside itself:\n" + "\n".join(breaches)


def test_generated_engines_import_only_the_runtime_and_the_standard_library() -> None:
    allowed = {"runtime", "generated", *sys.stdlib_module_names}
    breaches = [
        shown(name, imp)
        for name, path in modules().items()
        if top(name) == "generated"
        for imp in imports(name, path)
        if top(imp.module) not in allowed
    ]
    assert not breaches, "generated/ imports beyond the runtime:\n" + "\n".join(breaches)


# ---- (b) no cycles ---------------------------------------------------------------------------------


def test_no_import_cycles() -> None:
    found = cycles(graph())
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_a_cycle_is_found_and_shown() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert cycles(edges) == [["a", "b", "c", "a"], ["e", "e"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


# ---- (c) runtime.exported ----------------------------------------------------------------------------

ENGINE_FILES = sorted((ROOT / "generated").glob("*/*.py"))


@pytest.mark.parametrize(
    "path", ENGINE_FILES, ids=[str(p.relative_to(ROOT / "generated")) for p in ENGINE_FILES]
)
def test_generated_modules_import_only_exported_names(path: Path) -> None:
    name = module_name(path)
    for imp in imports(name, path):
        if top(imp.module) != "runtime":
            continue
        assert imp.names, f"{shown(name, imp)}: an engine imports names from the runtime, not modules"
        unlisted = sorted(set(imp.names) - set(runtime.exported))
        assert not unlisted, f"{shown(name, imp)}: {unlisted} not in runtime.exported"


def test_exported_is_exactly_what_engines_import() -> None:
    used = {
        n
        for path in ENGINE_FILES
        for imp in imports(module_name(path), path)
        if top(imp.module) == "runtime"
        for n in imp.names
    }
    assert ENGINE_FILES and used == set(runtime.exported), (
        f"no engine imports {sorted(set(runtime.exported) - used)}"
    )
    assert len(runtime.exported) == len(set(runtime.exported))
    missing = [
        n for n in runtime.exported if not hasattr(runtime.engine, n) and not hasattr(runtime.board, n)
    ]
    assert not missing, (
        f"runtime.exported names what neither runtime.engine nor runtime.board defines: {missing}"
    )


def test_runtime_all_names_what_it_defines() -> None:
    missing = [n for n in runtime.__all__ if not hasattr(runtime, n)]
    assert not missing and "exported" in runtime.__all__, missing
