"""Dispatch: a frame's numbered blocks of typed statements (blockcode.py) -> the body of its `step`.

frames.py writes one block per place control can reach: a `Jump` to block N (`pc = N` then
`continue`: the step loop runs block N next), and a `Resume` names the block the frame runs when it
next steps, after a decision or a call (`self.pc = N`). Written naively, `step` is an
`if pc == 0 ... elif pc == 1 ...` chain walked on every jump. Here, before the blocks are placed,
the passes read and rewrite those statements as objects (jump targets are numbers, never text):

- what follows a `return`, a jump or a loop's `continue` in the same suite is dropped (it never
  runs), unless it holds a coverage marker (rule coverage needs every marker, above a statement);
- a jump (or a resume) to a block that only jumps on goes straight to where that block jumps;
- a block reached by one jump only, and never resumed at, is written in place of that jump (it
  ends in a jump or a return of its own, so nothing runs after it), and needs no number;
- a jump to a short block that returns (the frame's end: `s.stack.pop()`, `return`) is a copy of it;
- the blocks left are numbered again in order (block 0 stays the frame's start), and `step` finds
  its block by a binary search on `pc` (`if pc < 8:` ... ), at most about log2(n) + 2 tests,
  instead of walking a chain; the `while True` loop is written only if some block jumps (without
  it, a block's final `return` is left out: the method ends there anyway).

Every block ends in a `return` or a jump, so a block moved into another's suite changes no path.
Only the last step prints lines: one logical line each, four spaces an indentation level.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import assert_never

from compiler.codewriter import INDENT
from compiler.lower.blockcode import (
    Block,
    Comment,
    Continue,
    Jump,
    Line,
    Marker,
    Resume,
    Return,
    Stmt,
    Suite,
    is_code,
)

_SHORT_END = 2  # a block of this many lines or fewer that returns is copied where it is jumped to
_LEAF_GROUP = 3  # this many blocks or fewer are told apart by `pc == N` tests, one after another


@dataclass(frozen=True, slots=True)
class Step:
    """A frame's `step` method: how many blocks a saved program counter may name, and its body."""

    blocks: int
    body: tuple[str, ...]


def step_method(blocks: Sequence[Block]) -> Step:
    """The `step` body for `blocks` (block 0 is where the frame starts)."""
    code = [_live(b) for b in blocks]
    _thread_jumps(code)
    _inline_single_jumps(code)
    _copy_short_ends(code)
    kept = _renumber(code)
    looping = any(_holds(b, Jump) for b in kept)
    if not looping:  # each block ends the method: its last `return` says nothing
        kept = [_without_final_return(b) for b in kept]
    out = [] if len(kept) == 1 else ["pc = self.pc"]
    if looping:
        out.append("while True:")
    depth = 1 if looping else 0
    if len(kept) == 1:  # the one block needs no `pc`: a jump to itself is the loop's `continue`
        _print(kept[0], depth, out, numbered=False)
    else:
        _search(kept, 0, len(kept), depth, out)
    return Step(len(kept), tuple(out))


def _walk(stmts: Block) -> Iterator[Stmt]:
    """Every statement of `stmts`, suites' bodies too, in the order they are printed."""
    for x in stmts:
        yield x
        if isinstance(x, Suite):
            yield from _walk(x.body)


def _holds(stmts: Block, kind: type[Jump | Marker]) -> bool:
    """Whether `stmts` hold a statement of `kind`, in a suite or not."""
    return any(isinstance(x, kind) for x in _walk(stmts))


def _ends_suite(x: Stmt) -> bool:
    """Whether nothing after `x` in its suite runs."""
    return isinstance(x, Return | Jump | Continue)


def _live(stmts: Block) -> Block:
    """`stmts` without what follows a return, a jump or a loop's `continue` in its suite (kept if
    it holds a coverage marker)."""
    out: list[Stmt] = []
    for i, x in enumerate(stmts):
        out.append(Suite(x.header, _live(x.body)) if isinstance(x, Suite) else x)
        if _ends_suite(x) and not _holds(stmts[i + 1 :], Marker):
            break
    return tuple(out)


def _retarget(stmts: Block, where: Mapping[int, int]) -> Block:
    """Jumps and resumes to block k go to `where[k]` instead (blocks not in `where` stay)."""
    out: list[Stmt] = []
    for x in stmts:
        match x:
            case Jump(target) if target in where:
                out.append(Jump(where[target]))
            case Resume(target) if target in where:
                out.append(Resume(where[target]))
            case Suite(header, body):
                out.append(Suite(header, _retarget(body, where)))
            case _:
                out.append(x)
    return tuple(out)


def _spliced(stmts: Block, blocks: Mapping[int, Block]) -> Block:
    """Each jump to a block k of `blocks` replaced by that block's statements."""
    out: list[Stmt] = []
    for x in stmts:
        match x:
            case Jump(target) if target in blocks:
                out.extend(blocks[target])
            case Suite(header, body):
                out.append(Suite(header, _spliced(body, blocks)))
            case _:
                out.append(x)
    return tuple(out)


def _thread_jumps(code: list[Block]) -> None:
    """A jump or a resume to a block that is nothing but a jump goes where that block jumps."""
    onward = {k: b[0].target for k, b in enumerate(code) if k and len(b) == 1 and isinstance(b[0], Jump)}
    where: dict[int, int] = {}
    for k in onward:
        target, seen = k, {k}
        while target in onward and onward[target] not in seen:
            target = onward[target]
            seen.add(target)
        if target != k:
            where[k] = target
    if where:
        code[:] = [_retarget(b, where) for b in code]


def _ends_in_terminator(b: Block) -> bool:
    """Whether block `b`'s last statement of code (not one in a suite) ends it: the block can
    then take the place of a jump."""
    code = [x for x in b if is_code(x)]
    return bool(code) and _ends_suite(code[-1])


def _inline_single_jumps(code: list[Block]) -> None:
    """Write each block that one jump reaches (and no resume) in place of that jump; it is then
    left empty, to be dropped."""
    while (found := _single_jump(code)) is not None:
        k, target = found
        code[k] = _spliced(code[k], {target: code[target]})
        code[target] = ()


def _single_jump(code: Sequence[Block]) -> tuple[int, int] | None:
    """The first (block, target) of a jump to a block that only it reaches, which ends in a
    return or a jump of its own (it can take the jump's place)."""
    sites: dict[int, list[int]] = {}
    entries = {0}
    for k, b in enumerate(code):
        for x in _walk(b):
            if isinstance(x, Jump):
                sites.setdefault(x.target, []).append(k)
            elif isinstance(x, Resume):
                entries.add(x.target)
    for target, found in sites.items():
        if target in entries or len(found) != 1 or found[0] == target:
            continue
        if _ends_in_terminator(code[target]):
            return found[0], target
    return None


def _code_lines(stmts: Block) -> int:
    """How many lines of code `stmts` print as."""
    return sum(2 if isinstance(x, Jump) else is_code(x) for x in _walk(stmts))


def _copy_short_ends(code: list[Block]) -> None:
    """A jump to a short block that returns (`s.stack.pop()`, `return`) is replaced by a copy of it."""
    short = {
        k: b
        for k, b in enumerate(code)
        if 0 < _code_lines(b) <= _SHORT_END
        and isinstance(b[-1], Return)
        and not _holds(b, Jump)
        and not _holds(b, Marker)
    }
    if short:
        code[:] = [_spliced(b, short) for b in code]


def _renumber(code: Sequence[Block]) -> list[Block]:
    """The blocks still reached (block 0 first), numbered again in order, jumps and resumes too."""
    reached = {0}
    for b in code:
        reached.update(x.target for x in _walk(b) if isinstance(x, Jump | Resume))
    kept = [k for k in range(len(code)) if k in reached and code[k]]
    number = {old: new for new, old in enumerate(kept)}
    return [_retarget(code[k], number) for k in kept]


def _ends_in_code(x: Stmt) -> bool:
    """Whether the last line `x` prints is code."""
    if isinstance(x, Suite):
        return _ends_in_code(x.body[-1])
    return is_code(x)


def _without_final_return(b: Block) -> Block:
    """`b` without its last `return`, where a line of code comes before it."""
    if len(b) > 1 and isinstance(b[-1], Return) and _ends_in_code(b[-2]):
        return b[:-1]
    return b


def _search(blocks: Sequence[Block], low: int, high: int, depth: int, out: list[str]) -> None:
    """Print the code that runs block `pc`, for low <= pc < high: halves of the range told apart
    by `pc < mid` tests, then a few blocks by `pc == N` tests."""
    pad = INDENT * depth
    arms = 0
    while high - low > _LEAF_GROUP:
        mid = (low + high) // 2
        out.append(f"{pad}{'elif' if arms else 'if'} pc < {mid}:")
        _search(blocks, low, mid, depth + 1, out)
        low, arms = mid, arms + 1
    for k in range(low, high - 1):
        out.append(f"{pad}{'elif' if arms else 'if'} pc == {k}:")
        _arm(blocks[k], depth + 1, out)
        arms += 1
    if not arms:
        _print(blocks[high - 1], depth, out)
        return
    out.append(f"{pad}else:  # pc == {high - 1}")
    _arm(blocks[high - 1], depth + 1, out)


def _arm(b: Block, depth: int, out: list[str]) -> None:
    _print(b, depth, out)
    if not any(is_code(x) for x in b):
        out.append(INDENT * depth + "pass")


def _print(stmts: Block, depth: int, out: list[str], numbered: bool = True) -> None:
    """Print `stmts` as lines `depth` levels in; a jump without `numbered` is the loop's `continue`."""
    pad = INDENT * depth
    for x in stmts:
        match x:
            case Line(text) | Marker(text):
                out.append(pad + text)
            case Comment(text):
                out.append(pad + text if text else text)
            case Jump(target):
                if numbered:
                    out.append(f"{pad}pc = {target}")
                out.append(pad + "continue")
            case Resume(target):
                out.append(f"{pad}self.pc = {target}")
            case Return():
                out.append(pad + "return")
            case Continue():
                out.append(pad + "continue")
            case Suite(header, body):
                out.append(pad + header)
                _print(body, depth + 1, out, numbered)
            case _:
                assert_never(x)
