"""Error codes: the registry of every diagnostic code, each a typed constant with what it means.

A stage names a code by its constant (`errorcodes.UNKNOWN_NAME`), so a mistyped code is a type
error, not a failure at run time. docs/dsl.md lists the same codes, and tests/diagnostics/ holds
a failing example of each; a test checks both against `ALL`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class ErrorCode:
    """A diagnostic code: its name as printed (`[unknown-name]`) and what it means."""

    code: str
    meaning: str

    def __str__(self) -> str:
        return self.code


YAML_SYNTAX: Final = ErrorCode("yaml-syntax", "the YAML file does not parse")
UNKNOWN_KEY: Final = ErrorCode("unknown-key", "a mapping has a key the spec format does not know")
MISSING_KEY: Final = ErrorCode("missing-key", "a required key is absent")
WRONG_VALUE_TYPE: Final = ErrorCode(
    "wrong-value-type", "a YAML value has the wrong kind (e.g. a list where a mapping belongs)"
)
DUPLICATE_ID: Final = ErrorCode("duplicate-id", "two declarations share a name")
BAD_NAME: Final = ErrorCode(
    "bad-name", "an id that is not a plain name (a letter or _, then letters, digits or _)"
)
DSL_SYNTAX: Final = ErrorCode("dsl-syntax", "a DSL string does not parse")
UNKNOWN_NAME: Final = ErrorCode("unknown-name", "a name that is not declared anywhere in scope")
UNKNOWN_TYPE: Final = ErrorCode("unknown-type", "a type that is neither built in nor declared")
UNKNOWN_FIELD: Final = ErrorCode("unknown-field", "a component has no such field")
TYPE_MISMATCH: Final = ErrorCode("type-mismatch", "a value of one type where another is needed")
WRONG_ARG_COUNT: Final = ErrorCode("wrong-arg-count", "a call with too many or too few arguments")
AMBIGUOUS_COPY: Final = ErrorCode(
    "ambiguous-copy", "the id of a component row with `copies` > 1 used as a value: it names no one copy"
)
DECISION_WITHOUT_PLAYER: Final = ErrorCode(
    "decision-without-player", "a decision that does not say which player makes it"
)
SIMULTANEOUS_WITHOUT_EACH: Final = ErrorCode(
    "simultaneous-without-each", "a `simultaneously` decision that does not say `by each p in PLAYERS`"
)
EACH_WITHOUT_SIMULTANEOUSLY: Final = ErrorCode(
    "each-without-simultaneously", "`by each p in PLAYERS` on a decision that is not `simultaneously`"
)
SHADOWED_NAME: Final = ErrorCode(
    "shadowed-name", "the player name of `by each` hides a local or a declared name of the same spelling"
)
UNDEFINED_PROCEDURE: Final = ErrorCode("undefined-procedure", "a call to a procedure that is not defined")
UNDEFINED_PHASE: Final = ErrorCode("undefined-phase", "a reference to a phase that is not defined")
MISPLACED_CHANCE: Final = ErrorCode(
    "misplaced-chance",
    "a die roll or random pick where nothing may change (a function, condition, invariant or expectation)",
)
MISPLACED_DECISION: Final = ErrorCode(
    "misplaced-decision",
    "a decision where the game cannot stop and ask (inside a function, condition or invariant)",
)
MISPLACED_CALL: Final = ErrorCode(
    "misplaced-call",
    "a procedure called where nothing may change or stop (a function, condition, invariant or evaluation)",
)
NO_VALUE: Final = ErrorCode("no-value", "a procedure without `returns:` used as a value")
RETURN_WITHOUT_RETURNS: Final = ErrorCode(
    "return-without-returns", "`return VALUE` where nothing takes a value (no `returns:`)"
)
RETURN_WITHOUT_VALUE: Final = ErrorCode(
    "return-without-value", "a bare `return` in a procedure with `returns:`, which must give a value"
)
MISSING_RETURN: Final = ErrorCode(
    "missing-return", "a procedure with `returns:` whose end can be reached without `return VALUE`"
)
OUTSIDE_LOOP: Final = ErrorCode("outside-loop", "`break` or `continue` outside a `for`, `repeat` or `while`")
LEAKY_DECISION: Final = ErrorCode(
    "leaky-decision",
    "a decision whose answer, logged for every player, names or steers cards hidden from some of "
    "them (write `secretly` or `publicly`)",
)
BOARD_SHOWS_HIDDEN: Final = ErrorCode(
    "board-shows-hidden",
    "a board expression that reads a hidden zone's contents or an owner-only variable (the board is public)",
)
BAD_SCENARIO: Final = ErrorCode("bad-scenario", "a scenario that cannot be run as written")
MISSING_EVENT: Final = ErrorCode("missing-event", "a component whose effect is not written yet (a warning)")
ENDLESS_RECURSION: Final = ErrorCode(
    "endless-recursion", "a function, procedure or trigger that calls itself again on every path"
)
TOO_DEEP: Final = ErrorCode(
    "too-deep", "blocks, loops or an expression nested deeper than generated Python may go"
)
UNCACHEABLE: Final = ErrorCode(
    "uncacheable", "a function marked `cached` whose values cannot be kept by their arguments (a list)"
)
UNREADABLE_FILE: Final = ErrorCode(
    "unreadable-file",
    "a spec or scenario path that is not a readable regular file (a folder, a FIFO, a device, a symbolic link)",
)
NOT_TEXT: Final = ErrorCode(
    "not-text", "a file that is not UTF-8 text, or holds a NUL or another control character"
)
LIMIT_EXCEEDED: Final = ErrorCode(
    "limit-exceeded",
    "a file, a nesting, an alias, a number or a declared size beyond a bound of compiler/limits.py",
)
NO_RESULTS: Final = ErrorCode(
    "no-results", '`end game "reason"` (the returns decide the outcome) in a spec without a `results` section'
)
BAD_RESULTS: Final = ErrorCode(
    "bad-results", "a `results` section that no returns could satisfy (min above max, a sum for another kind)"
)
BAD_ZONE_TRIGGER: Final = ErrorCode(
    "bad-zone-trigger",
    "a trigger's `on` that is neither an event nor `c enters|leaves zone[i, j]`, or binds a name twice "
    "or a declared name",
)
UNKNOWN_WINDOW: Final = ErrorCode("unknown-window", "`respond` names no response window")
BAD_WINDOW: Final = ErrorCode(
    "bad-window", "a response window written wrongly, or called as a plain procedure"
)
UNKNOWN_INVARIANT: Final = ErrorCode(
    "unknown-invariant", "a scenario's `expect_invariants` names no invariant of the spec"
)

# Every code, in the order docs/dsl.md lists them.
ALL: Final[tuple[ErrorCode, ...]] = (
    YAML_SYNTAX,
    UNKNOWN_KEY,
    MISSING_KEY,
    WRONG_VALUE_TYPE,
    DUPLICATE_ID,
    BAD_NAME,
    DSL_SYNTAX,
    UNKNOWN_NAME,
    UNKNOWN_TYPE,
    UNKNOWN_FIELD,
    TYPE_MISMATCH,
    WRONG_ARG_COUNT,
    AMBIGUOUS_COPY,
    DECISION_WITHOUT_PLAYER,
    SIMULTANEOUS_WITHOUT_EACH,
    EACH_WITHOUT_SIMULTANEOUSLY,
    SHADOWED_NAME,
    UNDEFINED_PROCEDURE,
    UNDEFINED_PHASE,
    MISPLACED_CHANCE,
    MISPLACED_DECISION,
    MISPLACED_CALL,
    NO_VALUE,
    RETURN_WITHOUT_RETURNS,
    RETURN_WITHOUT_VALUE,
    MISSING_RETURN,
    OUTSIDE_LOOP,
    LEAKY_DECISION,
    BOARD_SHOWS_HIDDEN,
    BAD_SCENARIO,
    MISSING_EVENT,
    ENDLESS_RECURSION,
    TOO_DEEP,
    UNCACHEABLE,
    UNREADABLE_FILE,
    NOT_TEXT,
    LIMIT_EXCEEDED,
    NO_RESULTS,
    BAD_RESULTS,
    BAD_ZONE_TRIGGER,
    UNKNOWN_WINDOW,
    BAD_WINDOW,
    UNKNOWN_INVARIANT,
)

# Codes of errors about a name that is not declared. When a spec file could not be read, the names
# it declares are missing and every use of them would be reported: these codes are left out then.
UNDECLARED_CODES: Final[frozenset[ErrorCode]] = frozenset(
    {UNKNOWN_NAME, UNKNOWN_TYPE, UNDEFINED_PROCEDURE, UNDEFINED_PHASE, UNKNOWN_WINDOW, UNKNOWN_INVARIANT}
)
