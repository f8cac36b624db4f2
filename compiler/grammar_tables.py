"""Grammar tables: grammar.lark -> lark's parser for it, and the tables lex.py and lalr.py run on.

The tables are taken from lark's own LALR(1) analysis and contextual lexer, as JSON data that
grammar_cache.py keeps, so that a spec that parses is parsed without importing lark. This is the
one module that reads lark's private attributes (the parse table, each scanner's regular
expression): pyproject.toml pins lark below its next major version, and
tests/test_parse_differential.py compares the parser these tables make with lark's own.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from compiler import grammar_cache

if TYPE_CHECKING:
    from lark import Lark

GRAMMAR = Path(__file__).with_name("grammar.lark")
STARTS = ["effect", "expression"]


@cache
def lark_parser() -> Lark:
    """Lark's LALR parser for grammar.lark (read from the cache, else built and cached)."""
    return grammar_cache.load(GRAMMAR.read_text(encoding="utf-8"), build_lark_parser)


def build_lark_parser(grammar: str) -> Lark:
    from lark import Lark

    # no `cache=True`: lark keeps that cache as a pickle at a name anyone can guess in the shared
    # temporary folder, where another user could plant one that runs code (see grammar_cache.py)
    return Lark(grammar, start=STARTS, parser="lalr", propagate_positions=True, maybe_placeholders=True)


def load() -> dict[str, Any]:
    """The tables, from the cache, or taken from lark's parser (and then cached)."""
    tables: dict[str, Any] = grammar_cache.load_data(
        "automaton", GRAMMAR.read_text(encoding="utf-8"), _tables
    )
    return tables


def _tables() -> dict[str, Any]:
    """Lark's tables for grammar.lark and its contextual lexer, and lark's shaping of the parse
    tree for each rule, as JSON data:

    - rules: each rule reduced by some action, its shape (see _rule_shape);
    - actions: state -> terminal -> the state to shift to (>= 0), or -1 - the rule to reduce by;
    - gotos: state -> rule name -> the state to go to once that rule is reduced;
    - start, end: start rule -> the state the parser starts in, the state it accepts in;
    - lexers, lexer_of: the distinct scanners (see lex.Scanner), and each state's."""
    from lark.parsers.lalr_analysis import Shift

    lark = lark_parser()
    frontend: Any = lark.parser
    table = frontend.parser._parse_table
    terminals = {t.name for t in lark.terminals} | {"$END"}
    rules: list[dict[str, Any]] = []
    numbers: dict[int, int] = {}  # id of a lark rule -> its index in `rules`
    actions: list[dict[str, int]] = []
    gotos: list[dict[str, int]] = []
    if sorted(table.states) != list(range(len(table.states))):  # pragma: no cover - lark numbers them so
        raise AssertionError("lark's parser states are not numbered 0..n-1")
    for state in range(len(table.states)):
        actions.append({})
        gotos.append({})
        for symbol, (action, arg) in table.states[state].items():
            if action is not Shift:
                if id(arg) not in numbers:
                    numbers[id(arg)] = len(rules)
                    rules.append(_rule_shape(arg))
                actions[-1][symbol] = -1 - numbers[id(arg)]
            elif symbol in terminals:
                actions[-1][symbol] = arg
            else:
                gotos[-1][symbol] = arg
    lexers, lexer_of = _lexers([frontend.lexer.lexers[state] for state in range(len(table.states))])
    return {
        "rules": rules,
        "actions": actions,
        "gotos": gotos,
        "start": dict(table.start_states),
        "end": dict(table.end_states),
        "lexers": lexers,
        "lexer_of": lexer_of,
    }


def _lexers(of_state: list[Any]) -> tuple[list[dict[str, Any]], list[int]]:
    """The distinct scanners of lark's contextual lexer, as data, and the index of each state's."""
    from lark.lexer import UnlessCallback

    lexers: list[dict[str, Any]] = []
    numbers: dict[int, int] = {}  # id of a lark lexer -> its index in `lexers`
    lexer_of: list[int] = []
    for lexer in of_state:
        if id(lexer) not in numbers:
            numbers[id(lexer)] = len(lexers)
            pattern, flags = _regex(lexer.scanner)  # lark makes the scanner, and its callbacks, on first use
            keywords = {}
            for name, callback in lexer.callback.items():
                assert isinstance(callback, UnlessCallback)
                keywords[name] = _regex(callback.scanner)
            lexers.append(
                {
                    "pattern": pattern,
                    "flags": flags,
                    "ignore": sorted(lexer.ignore_types),
                    "newlines": sorted(lexer.newline_types),
                    "keywords": keywords,
                }
            )
        lexer_of.append(numbers[id(lexer)])
    return lexers, lexer_of


def _rule_shape(rule: Any) -> dict[str, Any]:
    """How lark shapes the tree node of a rule (see lalr.Reduce), from its Rule."""
    size = len(rule.expansion)
    # before each symbol, and after the last: how many None placeholders (maybe_placeholders)
    empty = rule.options.empty_indices
    before = (
        [len(ones) for ones in "".join(str(int(b)) for b in empty).split("0")] if empty else [0] * (size + 1)
    )
    include = []
    pending = 0
    for i, sym in enumerate(rule.expansion):
        pending += before[i]
        if not (sym.is_term and sym.filter_out):  # anonymous tokens ("let", "{") are left out
            include.append([i, not sym.is_term and sym.name.startswith("_"), pending])
            pending = 0
    return {
        "origin": rule.origin.name,
        "name": rule.alias or rule.origin.name,
        "size": size,
        "include": include,
        "nones_after": pending + before[size],
        "inline": bool(rule.options.expand1) and not rule.alias,
    }


def _regex(scanner: Any) -> tuple[str, int]:
    """The one regular expression of a lark scanner (lark splits one only past 100 terminals)."""
    if len(scanner._mres) != 1:  # pragma: no cover - grammar.lark has 70 terminals
        raise AssertionError("a lark scanner with more than one regular expression")
    pattern: re.Pattern[str] = scanner._mres[0]
    return pattern.pattern, pattern.flags
