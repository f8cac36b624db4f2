"""LALR: tokens (lex.py) -> the value a builder makes of them, rule by rule, with no parse tree.

Lark's LALR(1) tables for grammar.lark (grammar_tables.py) run by a loop of our own: it shifts
each token, and reduces as the tables say, calling the builder method named after each rule
(parse.py's _Build) on the rule's children as lark's tree would hold them (maybe_placeholders'
None, `?rule` inlining, anonymous tokens left out, `_rule` lists spliced into their parent) and
its place as `propagate_positions` would give it. Text that does not parse gives FAILED, with no
message: parse.py has lark parse it again to word the diagnostic.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, final

from compiler.lex import END, Lexer, Meta
from compiler.limits import MAX_DSL_DEPTH

FAILED: Any = object()  # what Automaton.run gives for text that lark would not parse either
_ACCEPT = -1  # what Automaton._reduce gives when the whole text has reduced (a state is >= 0)

# a builder method: (the builder, the rule's place, its children) -> its value
Builder = Callable[[Any, Meta | None, list[Any]], Any]


@final  # (so that mypy narrows `type(action) is not Reduce` to a state or None)
class Reduce:
    """One grammar rule as a reduce action: how many symbols it takes off the stack, and lark's
    shaping of their values into the rule's children, done on the values the builders made."""

    __slots__ = (
        "size",
        "origin",
        "include",
        "nones_after",
        "inline",
        "unit",
        "splice_first",
        "picks",
        "build",
    )

    def __init__(self, rule: dict[str, Any], builders: type) -> None:
        self.size: int = rule["size"]
        self.origin: str = rule["origin"]
        # for each kept symbol: its index, whether it is spliced, how many None go before it
        self.include: list[tuple[int, bool, int]] = [(i, bool(sp), n) for i, sp, n in rule["include"]]
        self.nones_after: int = rule["nones_after"]
        # a `?rule` with one child is that child; a `_rule` (lark's, for `x*`) is a list of children
        self.inline: bool = rule["inline"]
        self.unit = self.inline and self.include == [(0, False, 0)] and not self.nones_after
        self.splice_first = bool(self.include) and self.include[0][1] and self.include[0][2] == 0
        # the children, when they are some of the rule's symbols as they are (no None, no splice)
        plain = not self.nones_after and all(not spliced and not nones for _, spliced, nones in self.include)
        self.picks = tuple(i for i, _, _ in self.include) if plain else None
        name: str = rule["name"]
        self.build: Builder | None = None if self.inline else getattr(builders, name, None)
        if self.build is None and not self.origin.startswith("_") and not (self.inline and self.picks):
            raise AssertionError(f"grammar rule {name} has no builder in parse.py")  # pragma: no cover
        if self.inline and len(self.include) != 1:  # pragma: no cover - see Automaton._reduce
            raise AssertionError(f"grammar rule {name} is a ?rule of more than one child")

    def children(self, values: list[Any]) -> list[Any]:
        """The rule's children as lark's tree would hold them, from the values of its symbols."""
        if self.picks is not None:
            return values if len(self.picks) == self.size else [values[i] for i in self.picks]
        out: list[Any]
        if self.splice_first:  # a left-recursive list grows in place, as in lark
            out = values[self.include[0][0]]
            rest = self.include[1:]
        else:
            out = []
            rest = self.include
        for i, spliced, nones in rest:
            if nones:
                out.extend([None] * nones)
            if spliced:
                out.extend(values[i])
            else:
                out.append(values[i])
        if self.nones_after:
            out.extend([None] * self.nones_after)
        return out


class _Stack:
    """The parser's stack, one list per part of an entry: the parser's state, the value of the
    symbol, where it is in the text, and the levels of lark's tree it holds (MAX_DSL_DEPTH bounds
    them). The bottom entry is the start state's."""

    __slots__ = ("states", "values", "metas", "heights")

    def __init__(self, start: int) -> None:
        self.states = [start]
        self.values: list[Any] = [None]
        self.metas: list[Meta | None] = [None]
        self.heights = [0]

    def shift(self, state: int, value: Any, meta: Meta | None) -> None:
        self.states.append(state)
        self.values.append(value)
        self.metas.append(meta)
        self.heights.append(0)


class LineEnd:
    """Where the parser of one line of an effect, parsed on its own, ends: what joining the line
    to the next (Automaton.joins) checks."""

    __slots__ = ("first", "states", "end_col", "rules", "statements_state")

    def __init__(
        self,
        first: tuple[str, str, int] | None,
        states: tuple[int, ...],
        end_col: int,
        rules: list[Reduce],
        statements_state: int,
    ) -> None:
        self.first = first  # its first token: kind, text, offset (None: a blank or comment line)
        self.states = states  # the parser's states once its last token is read
        self.end_col = end_col  # the column just past its last token
        self.rules = rules  # the rules that build, reduced at its end (see settle)
        self.statements_state = statements_state  # the parser's state once they are reduced


class Automaton:
    """Lark's LALR(1) tables for grammar.lark, with the builder class whose methods the rules call,
    run by a loop of our own (see the module's doc)."""

    def __init__(self, tables: dict[str, Any], builders: type) -> None:
        rules = [Reduce(rule, builders) for rule in tables["rules"]]
        # state -> terminal -> the state to shift to, or the rule to reduce by
        self.actions: list[dict[str, int | Reduce]] = [
            {t: a if a >= 0 else rules[-1 - a] for t, a in row.items()} for row in tables["actions"]
        ]
        # state -> rule name -> the state to go to once that rule is reduced
        self.gotos: list[dict[str, int]] = tables["gotos"]
        self.start_states: dict[str, int] = tables["start"]
        self.end_states: dict[str, int] = tables["end"]
        self.lexer = Lexer(tables["lexers"], tables["lexer_of"])
        self._units: dict[tuple[int, int, str], int] = {}  # see _unit_chain
        self._joined: dict[tuple[tuple[int, ...], str, bool], bool] = {}  # see joins

    def run(self, text: str, start: str, build: Any, trace: list[Any] | None = None) -> Any:
        """The value `text` parses to from `start`, built by `build`, or FAILED. With `trace`,
        the parser's states at the end of the text, and the place of its last token, go in it."""
        actions = self.actions
        end_state = self.end_states[start]
        stack = _Stack(self.start_states[start])
        states, values, metas, heights = stack.states, stack.values, stack.metas, stack.heights
        for kind, value, meta in self.lexer.tokens(text, states):
            if trace is not None and kind == END:
                trace.extend((tuple(states), metas[-1]))
            action = actions[states[-1]].get(kind)
            if type(action) is Reduce:
                action = self._reduce(stack, action, kind, build, end_state)
                if action == _ACCEPT:
                    return values[-1]
            if action is None:  # the token cannot come here (or reducing made the tree too deep)
                return FAILED
            # shift: the token's entry goes on the stack (written out here rather than as a call
            # of _Stack.shift, which would add a call for every token)
            states.append(action)
            values.append(value)
            metas.append(meta)
            heights.append(0)
        raise AssertionError("the lexer ends with END, where the parser accepts or fails")  # pragma: no cover

    def _reduce(self, stack: _Stack, rule: Reduce, kind: str, build: Any, end_state: int) -> int | None:
        """Reduce by `rule`, and then as far as the token `kind` lets: the state the parser then
        shifts the token to, or _ACCEPT (`kind` is END, and the whole text has reduced), or None
        (the token cannot come here, or the tree would be deeper than MAX_DSL_DEPTH). A rule's
        symbols on top of the stack are replaced by the rule: its value built from theirs, its
        place from the first's start to the last's end."""
        actions, gotos, units = self.actions, self.gotos, self._units
        states, values, metas, heights = stack.states, stack.values, stack.metas, stack.heights
        while True:
            if rule.unit:
                # `?a: b` changes only the state on top (see _unit_chain)
                top = units.get((states[-2], states[-1], kind))
                states[-1] = self._unit_chain(states, rule, kind) if top is None else top
            else:
                n = rule.size
                # the rule's entry takes the place of its first symbol's, and the others go
                if n == 1:
                    got = [values[-1]]
                    place = metas[-1]
                    height = heights[-1]
                elif n:
                    got = values[-n:]
                    first, last = metas[-n], metas[-1]
                    if first is not None and last is not None:
                        place = (first[0], first[1], last[2], last[3])
                    else:
                        place = _extent(metas[-n:])
                    height = max(heights[-n:])
                    del states[1 - n :], values[1 - n :], metas[1 - n :], heights[1 - n :]
                else:  # an empty rule: a new entry
                    got, place, height = [], None, 0
                    stack.shift(0, None, None)
                picks = rule.picks  # (Reduce.children, without a call in the most common cases)
                if picks is None:
                    children = rule.children(got)
                else:
                    children = got if len(picks) == n else [got[i] for i in picks]
                if rule.build is None:
                    # a `?rule` with one child is that child; lark's `_rule` (for `x*`) is a list,
                    # spliced into its parent
                    values[-1] = children[0] if rule.inline else children
                else:
                    values[-1] = rule.build(build, place, children)
                    height += 1
                    if height > MAX_DSL_DEPTH:
                        return None
                metas[-1] = place
                heights[-1] = height
                states[-1] = gotos[states[-2]][rule.origin]
                if kind == END and states[-1] == end_state:
                    return _ACCEPT
            action = actions[states[-1]].get(kind)
            if type(action) is not Reduce:
                return action
            rule = action

    def _unit_chain(self, states: list[int], rule: Reduce, kind: str) -> int:
        """The state on top once `rule`, a `?a: b` rule, and the unit rules it leads to are reduced
        with `kind` next. They change only the state on top: the value, its place and its height
        stay. They come in chains (an expression's precedence levels), and where a chain ends
        depends only on the two states on top and the token, so it is found once for them."""
        key = (states[-2], states[-1], kind)
        below = states[-2]
        while True:
            top = self.gotos[below][rule.origin]
            action = self.actions[top].get(kind)
            if not isinstance(action, Reduce) or not action.unit:
                self._units[key] = top
                return top
            rule = action

    # ---- an effect read from its lines (see parse.py's _by_lines)

    def line_end(self, line: str, trace: list[Any]) -> LineEnd | None:
        """Where `run` ended a line of an effect parsed on its own, from the `trace` it left (None:
        its statements do not reduce to one list)."""
        first = self.lexer.token_at(line, 0, self.start_states["effect"])
        if first is None:
            return LineEnd(None, (), 0, [], 0)
        end_states, last = trace
        rules, left, _ = self.settle(list(end_states), END, "effect")
        if len(left) != 2:  # pragma: no cover - statements reduce to one list
            return None
        return LineEnd(first, end_states, last[3], rules, left[1])

    def settle(self, states: list[int], kind: str, start: str) -> tuple[list[Reduce], list[int], Any]:
        """What the parser does with the token `kind` next, with `states` on its stack, before it
        shifts it or reduces the whole text: the rules that build it reduces (not `?a: b` rules,
        nor lark's `_rule` lists, which differ with what came before), the states left, and
        the action it stops at."""
        end_state = self.end_states[start]
        fired: list[Reduce] = []
        while True:
            action = self.actions[states[-1]].get(kind)
            if not isinstance(action, Reduce):
                return fired, states, action
            below = states[-1 - action.size] if action.size else states[-1]
            if self.gotos[below][action.origin] == end_state:
                return fired, states, action
            if not action.unit and not action.origin.startswith("_"):
                fired.append(action)
            if action.size:
                del states[-action.size :]
            states.append(self.gotos[states[-1]][action.origin])

    def joins(
        self,
        text: str,
        offset: int,
        line: LineEnd,
        next_offset: int | None,
        after: LineEnd | None,
        first: bool,
    ) -> bool:
        """Whether the parser of the whole effect `text` reads the end of `line` (at `offset`) as
        it did alone: it lexes the token that starts the next line with tokens, `after` (at
        `next_offset`; None: the text ends), as that line did alone, and reduces the same rules
        before it shifts it (or ends), leaving just the statements so far on its stack."""
        start = self.start_states["effect"]
        kind = END
        if after is not None and after.first is not None and next_offset is not None:
            token = self.lexer.token_at(text, offset + line.end_col - 1, line.states[-1])
            if token != (after.first[0], after.first[1], next_offset + after.first[2]):
                return False
            kind = token[0]
        key = (line.states, kind, first)
        if key not in self._joined:
            # the stack: this line's states, on the statements before it (if any: unless this
            # line has whole statements before its last, they are not on its own stack)
            states = list(line.states)
            if not first and states[1] != line.statements_state:
                states.insert(1, line.statements_state)
            fired, left, action = self.settle(states, kind, "effect")
            self._joined[key] = (
                fired == line.rules
                and len(left) == 2
                and (kind == END or action == self.actions[start].get(kind))
            )
        return self._joined[key]


def _extent(metas: list[Meta | None]) -> Meta | None:
    """From the start of the first symbol that has a place to the end of the last one."""
    first = last = None
    for m in metas:
        if m is not None:
            if first is None:
                first = m
            last = m
    if first is None or last is None:
        return None
    return (first[0], first[1], last[2], last[3])
