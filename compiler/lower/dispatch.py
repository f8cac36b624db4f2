"""Dispatch: a frame's numbered blocks (frames.py) -> the body of its `step` method.

frames.py writes one block per place control can reach: a jump is `pc = N` then `continue` (the
step loop runs block N next), and a block the frame resumes at after a decision or a call is named
by `self.pc = N`. Written naively, `step` is an `if pc == 0 ... elif pc == 1 ...` chain walked on
every jump. Here, before the blocks are placed:

- code after a `return` or `continue` in the same suite is dropped (it never runs), unless it holds
  a coverage marker (rule coverage needs every marker, above a statement);
- a jump (or a resume) to a block that only jumps on goes straight to where that block jumps;
- a block reached by one jump only, and never resumed at, is written in place of that jump (it
  ends in a jump or a return of its own, so nothing runs after it), and needs no number;
- a jump to a short block that returns (the frame's end: `s.stack.pop()`, `return`) is a copy of it;
- the blocks left are numbered again in order (block 0 stays the frame's start), and `step` finds
  its block by a binary search on `pc` (`if pc < 8:` ... ), at most about log2(n) + 2 tests,
  instead of walking a chain; the `while True` loop is written only if some block jumps (without
  it, a block's final `return` is left out: the method ends there anyway).

Every block ends in a `return` or a jump, so a block moved into another's suite changes no path.
The lines are the code writer's: one logical line each, four spaces an indentation level.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from compiler.codewriter import INDENT

_JUMP = re.compile(r"( *)pc = (\d+)")
_RESUME = re.compile(r"( *)self\.pc = (\d+)")
_TERMINATORS = ("return", "continue")
# a coverage marker (with the name of a function written out, or `implicit else`)
_MARKER = re.compile(r" *# cov \d+(?: \((?:\w+|implicit else)\))?")
_SHORT_END = 2  # a block of this many lines or fewer that returns is copied where it is jumped to
_LEAF_GROUP = 3  # this many blocks or fewer are told apart by `pc == N` tests, one after another


@dataclass(frozen=True, slots=True)
class Step:
    """A frame's `step` method: how many blocks a saved program counter may name, and its body."""

    blocks: int
    body: tuple[str, ...]


def step_method(blocks: Sequence[Sequence[str]]) -> Step:
    """The `step` body for `blocks` (block 0 is where the frame starts)."""
    code = [_without_dead_code(list(b)) for b in blocks]
    _thread_jumps(code)
    _inline_single_jumps(code)
    _copy_short_ends(code)
    kept = _renumber(code)
    looping = any(_jumps(b) for b in kept)
    if not looping:  # each block ends the method: its last `return` says nothing
        kept = [b[:-1] if b[-1:] == ["return"] and b[-2:-1] and _is_code(b[-2]) else b for b in kept]
    if len(kept) == 1:  # the one block needs no `pc`: a jump to itself is the loop's `continue`
        body = [line for line in kept[0] if not _JUMP.fullmatch(line)]
        return Step(1, tuple(["while True:", *_nested(body)] if looping else body))
    out = ["pc = self.pc"]
    if looping:
        out.append("while True:")
        out.extend(_nested(_search(kept, 0, len(kept))))
    else:
        out.extend(_search(kept, 0, len(kept)))
    return Step(len(kept), tuple(out))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _is_code(line: str) -> bool:
    text = line.strip()
    return bool(text) and not text.startswith("#")


def _without_dead_code(lines: list[str]) -> list[str]:
    """`lines` without what follows a `return` or `continue` in its suite (kept if it holds a
    coverage marker)."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        if line.strip() not in _TERMINATORS:
            continue
        depth, end = _indent(line), i
        while end < len(lines) and (not _is_code(lines[end]) or _indent(lines[end]) >= depth):
            end += 1
        # a comment below the suite (at a lower indentation) belongs to what follows it
        while end > i and not _is_code(lines[end - 1]) and _indent(lines[end - 1]) < depth:
            end -= 1
        if not any(_MARKER.fullmatch(x) for x in lines[i:end]):
            i = end
    return out


def _jumps(lines: Sequence[str]) -> list[tuple[int, int]]:
    """Each jump in `lines`: (index of its `pc = N` line, N)."""
    out = []
    for i, line in enumerate(lines[:-1]):
        m = _JUMP.fullmatch(line)
        if m and lines[i + 1] == m.group(1) + "continue":
            out.append((i, int(m.group(2))))
    return out


def _resumes(lines: Sequence[str]) -> list[int]:
    return [int(m.group(2)) for line in lines if (m := _RESUME.fullmatch(line))]


def _retarget(lines: list[str], where: dict[int, int]) -> None:
    """Jumps and resumes to block k go to `where[k]` instead (blocks not in `where` stay)."""
    for i, line in enumerate(lines):
        m = _JUMP.fullmatch(line) or _RESUME.fullmatch(line)
        if m and int(m.group(2)) in where:
            lines[i] = line[: m.start(2)] + str(where[int(m.group(2))])


def _thread_jumps(code: list[list[str]]) -> None:
    """A jump or a resume to a block that is nothing but a jump goes where that block jumps."""
    onward = {k: _jumps(b)[0][1] for k, b in enumerate(code) if k and len(b) == 2 and _jumps(b)}
    where: dict[int, int] = {}
    for k in onward:
        target, seen = k, {k}
        while target in onward and onward[target] not in seen:
            target = onward[target]
            seen.add(target)
        if target != k:
            where[k] = target
    for b in code:
        _retarget(b, where)


def _ends_in_terminator(lines: Sequence[str]) -> bool:
    code = [x for x in lines if _is_code(x)]
    return bool(code) and code[-1] in _TERMINATORS


def _inline_single_jumps(code: list[list[str]]) -> None:
    """Write each block that one jump reaches (and no resume) in place of that jump; it is then
    left empty, to be dropped."""
    changed = True
    while changed:
        changed = False
        sites: dict[int, list[tuple[int, int]]] = {}
        entries = {0}
        for k, b in enumerate(code):
            for i, target in _jumps(b):
                sites.setdefault(target, []).append((k, i))
            entries.update(_resumes(b))
        for target, found in sites.items():
            if target in entries or len(found) != 1 or not _ends_in_terminator(code[target]):
                continue
            k, i = found[0]
            if k == target:
                continue
            pad = code[k][i][: _indent(code[k][i])]
            code[k][i : i + 2] = [pad + line if line else line for line in code[target]]
            code[target] = []
            changed = True
            break


def _copy_short_ends(code: list[list[str]]) -> None:
    """A jump to a short block that returns (`s.stack.pop()`, `return`) is replaced by a copy of it."""
    short = {
        k: b
        for k, b in enumerate(code)
        if 0 < sum(map(_is_code, b)) <= _SHORT_END
        and b[-1] == "return"
        and not _jumps(b)
        and not any(_MARKER.fullmatch(x) for x in b)
    }
    for b in code:
        for i, target in reversed(_jumps(b)):
            if target in short:
                pad = b[i][: _indent(b[i])]
                b[i : i + 2] = [pad + line if line else line for line in short[target]]


def _renumber(code: list[list[str]]) -> list[list[str]]:
    """The blocks still reached (block 0 first), numbered again in order, jumps and resumes too."""
    reached = {0}
    for b in code:
        reached.update(target for _, target in _jumps(b))
        reached.update(_resumes(b))
    kept = [k for k in range(len(code)) if k in reached and code[k]]
    number = {old: new for new, old in enumerate(kept)}
    out = [list(code[k]) for k in kept]
    for b in out:
        _retarget(b, number)
    return out


def _search(blocks: Sequence[Sequence[str]], low: int, high: int) -> list[str]:
    """The code that runs block `pc`, for low <= pc < high: halves of the range told apart by
    `pc < mid` tests, then a few blocks by `pc == N` tests."""
    arms: list[tuple[str, list[str]]] = []  # (test, body); the last arm has no test
    while high - low > _LEAF_GROUP:
        mid = (low + high) // 2
        arms.append((f"pc < {mid}", _search(blocks, low, mid)))
        low = mid
    for k in range(low, high - 1):
        arms.append((f"pc == {k}", list(blocks[k])))
    last = list(blocks[high - 1])
    if not arms:
        return last
    out: list[str] = []
    for n, (test, body) in enumerate(arms):
        out.append(f"{'if' if n == 0 else 'elif'} {test}:")
        out.extend(_nested(body))
    out.append(f"else:  # pc == {high - 1}")
    out.extend(_nested(last))
    return out


def _nested(lines: Sequence[str]) -> list[str]:
    body = [INDENT + line if line else line for line in lines]
    return body if any(_is_code(x) for x in lines) else [*body, INDENT + "pass"]
