"""Cached functions: the cache lookup in each, and the line after each write that makes them forget.

A cached function keeps its values in one dict of `s.caches` (index `CACHE_<function>`), keyed by
its arguments. Every write of a source that cached functions read (compiler/reads.py) is followed
by `s.forget(READ_<source>)`, which clears their caches, so a value found in a cache is always
the value the function would compute now. Writes of sources that no cached function reads stay
as they were. The caches are not part of a saved state, and a clone starts without them.
"""

from __future__ import annotations

from compiler.codewriter import CodeWriter
from compiler.lower.context import Context
from compiler.reads import Source
from compiler.viewmodel import CachedFunction, Param, Readers


def cache_constant(cx: Context, function: str) -> str:
    """`CACHE_<function>`: the index of a cached function's cache in `s.caches`."""
    return cx.names.claim("cache", function)


def readers_constant(cx: Context, source: Source) -> str:
    """`READ_var_<name>`, `READ_zones_<type>`, `READ_mod_<name>`: the caches a change of `source`
    clears."""
    return cx.names.claim("readers", *source)


def forget(cx: Context, source: Source) -> list[str]:
    """The line to write after a change of `source` (none when no cached function reads it)."""
    if not cx.reads.readers_of(source):
        return []
    return [f"s.forget({readers_constant(cx, source)})"]


def cache_key(params: tuple[Param, ...]) -> str:
    """The key of a cached function's values: its one argument, or a tuple of them."""
    names = [p.name for p in params]
    return names[0] if len(names) == 1 else "(" + ", ".join(names) + ")"


def lookup(
    cx: Context, function: str, params: tuple[Param, ...], returns: str, before: list[str], value: str
) -> list[str]:
    """The body of a cached function whose value is the expression `value`: the value kept for
    these arguments, else `value`, computed (after the lines `before`, lower/reuse.py's) and kept. A kept value is never None (functions return
    numbers, truth values, text or lists), so None means "not kept"."""
    key = cache_key(params)
    w = CodeWriter()
    w.line(f"cache_ = s.caches[{cache_constant(cx, function)}]")
    w.line(f"value_: {returns} | None = cache_.get({key})")
    with w.block("if value_ is None:"):
        for line in before:
            w.line(line)
        w.line(f"value_ = cache_[{key}] = {value}")
    w.line("return value_")
    return w.lines()


def cache_facts(cx: Context) -> tuple[tuple[CachedFunction, ...], tuple[Readers, ...]]:
    """What the engine module declares: each cached function's cache, and each source's readers."""
    declared = {f.name: f for f in cx.sym.game.functions}
    cached = tuple(
        CachedFunction(
            name,
            cx.names.claim("function", name),
            cache_constant(cx, name),
            tuple(p.name for p in declared[name].params),
        )
        for name in cx.reads.cached
    )
    readers = tuple(
        Readers(readers_constant(cx, source), tuple(cache_constant(cx, f) for f in functions))
        for source, functions in sorted(cx.reads.readers.items())
    )
    return cached, readers
