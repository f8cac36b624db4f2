"""The IR: frozen, slotted dataclasses for a whole game spec, every node carrying its Span.

Produced by load.py (declarations) and parse.py (DSL code); read by resolve, check, lower.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import MISSING, FrozenInstanceError, dataclass, field
from operator import attrgetter
from types import UnionType
from typing import Any, TypeVar, dataclass_transform, get_args

_Node = TypeVar("_Node")


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def node(cls: type[_Node]) -> type[_Node]:
    """`@dataclass(frozen=True, slots=True)`, made in a tenth of the time. The dataclass module
    writes and compiles six methods for each class it makes frozen and comparable, which made
    importing this module take 0.1 s of every `rulewright check`; here dataclass makes the slotted
    class and its fields, and the methods are closures over them, with the same behaviour: the
    same hash (of the tuple of the fields), equality, repr, copying and FrozenInstanceError. Only
    __init__ is written and compiled, once per class, so that making a node costs what it did."""
    made: Any = dataclass(slots=True, init=False, repr=False, eq=False)(cls)
    fields = tuple(made.__dataclass_fields__.values())
    names = tuple(f.name for f in fields)
    # hash() and == of the same tuple the dataclass module's methods build
    key: Callable[[Any], tuple[Any, ...]]
    if len(names) > 1:
        key = attrgetter(*names)
    else:
        (only,) = names
        get = attrgetter(only)

        def key(self: Any) -> tuple[Any, ...]:
            return (get(self),)

    def __eq__(self: Any, other: object) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(key(self))

    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{n}={v!r}" for n, v in zip(names, key(self), strict=True))
        return f"{made.__qualname__}({shown})"

    def __setattr__(self: Any, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self: Any, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __getstate__(self: Any) -> list[Any]:
        return list(key(self))

    def __setstate__(self: Any, state: list[Any]) -> None:
        for n, v in zip(names, state, strict=True):
            object.__setattr__(self, n, v)

    env: dict[str, Any] = {f"_set_{n}": made.__dict__[n].__set__ for n in names}
    params = []
    for f in fields:
        if f.default is not MISSING:
            env[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not MISSING:  # pragma: no cover - no IR field has one
            raise TypeError(f"{made.__name__}.{f.name}: a node's field has no default_factory")
        else:
            params.append(f.name)
    body = "".join(f"\n    _set_{n}(self, {n})" for n in names) or "\n    pass"
    # (the text is made of this module's own field names, never of spec text)
    exec(f"def __init__(self, {', '.join(params)}) -> None:{body}", env)
    closures = (__eq__, __hash__, __repr__, __setattr__, __delattr__, __getstate__, __setstate__)
    for method in (*closures, env["__init__"]):
        method.__qualname__ = f"{made.__qualname__}.{method.__name__}"
        setattr(made, method.__name__, method)
    return made  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True, init=False)
class Span:
    """A 1-based source range in a spec file."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __init__(self, file: str, line: int, col: int, end_line: int, end_col: int) -> None:
        # what a frozen dataclass's own __init__ does, setting each field through
        # object.__setattr__, in half the time: the compiler makes a span for each node it reads
        _set_file(self, file)
        _set_line(self, line)
        _set_col(self, col)
        _set_end_line(self, end_line)
        _set_end_col(self, end_col)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


_set_file, _set_line, _set_col, _set_end_line, _set_end_col = (
    Span.__dict__[name].__set__ for name in ("file", "line", "col", "end_line", "end_col")
)


NO_SPAN = Span("<builtin>", 0, 0, 0, 0)


# ---- expressions ------------------------------------------------------------------------------


@node
class IntLit:
    """An integer literal."""

    value: int
    span: Span


@node
class BoolLit:
    """`true` or `false`."""

    value: bool
    span: Span


@node
class NoneLit:
    """`none`: the absent entity, player or cell."""

    span: Span


@node
class StrLit:
    """A string; `{expr}` parts are interpolated (text parts are str, the others Expr)."""

    parts: tuple[str | Expr, ...]
    span: Span


@node
class Name:
    """A reference to a local, parameter, state variable, zone, constant, entity or enum value."""

    ident: str
    span: Span


@node
class Field:
    """`entity.field`: a static property from a component table."""

    subject: Expr
    name: str
    span: Span


@node
class MethodCall:
    """`entity.field(args)`: evaluates an expression-valued field of a component."""

    subject: Expr
    name: str
    args: tuple[Expr, ...]
    span: Span


@node
class Index:
    """`var[a, b]`: an indexed state variable or a per-player zone."""

    subject: Expr
    args: tuple[Expr, ...]
    span: Span


@node
class Call:
    """`f(args)`: a builtin or a spec-defined function."""

    func: str
    args: tuple[Expr, ...]
    span: Span
    respond: bool = False  # `respond W(args)` as a value: who responded in a response window


@node
class ListLit:
    """`[a, b, c]`."""

    items: tuple[Expr, ...]
    span: Span


@node
class ListComp:
    """`[expr for x in xs where cond]`."""

    item: Expr
    var: str
    source: Expr
    cond: Expr | None
    span: Span


@node
class Quantifier:
    """`count|any|all|filter(x in xs where cond)`."""

    kind: str
    var: str
    source: Expr
    cond: Expr | None
    span: Span


@node
class Aggregate:
    """`sum|min|max(expr for x in xs where cond)`."""

    kind: str
    item: Expr
    var: str
    source: Expr
    cond: Expr | None
    span: Span


@node
class BinOp:
    """Arithmetic: + - * // %."""

    op: str
    left: Expr
    right: Expr
    span: Span


@node
class Compare:
    """Comparison: == != < <= > >= and `in` / `not in`."""

    op: str
    left: Expr
    right: Expr
    span: Span


@node
class BoolOp:
    """`and` / `or` (short-circuit)."""

    op: str
    left: Expr
    right: Expr
    span: Span


@node
class Not:
    """`not x`."""

    operand: Expr
    span: Span


@node
class Neg:
    """`-x`."""

    operand: Expr
    span: Span


@node
class CondExpr:
    """`if c then a else b`."""

    cond: Expr
    then: Expr
    other: Expr
    span: Span


@node
class Active:
    """`active name(args)`: is a lasting modifier with these arguments in effect?"""

    name: str
    args: tuple[Expr, ...]
    span: Span


@node
class CountActive:
    """`count active name(args)`: how many instances of a lasting modifier with these arguments are
    in effect (adding one twice keeps two). `quant` is the word written before `active`: only
    `count` is a form (check.py reports another)."""

    quant: str
    name: str
    args: tuple[Expr, ...]
    span: Span


# ---- decisions (only the whole value of a let or an assignment; check.py enforces it) --------


@node
class Each:
    """`by each p in xs` of a simultaneous decision: every player of xs answers, and `p` names
    that player in the options and the prompt."""

    var: str
    players: Expr
    span: Span


@node
class Choose:
    """`[secretly|publicly] [optionally] choose [n] from xs by p ["prompt"]`.

    An optional choice may be passed (giving none); a secret one is logged only to its player. A
    public one is logged to all, as a plain one is; the word says that its answer may be known
    even though its options or its effect touch hidden cards (secrecy.py asks for one of the two).
    """

    count: Expr | None
    options: Expr
    player: Expr | None
    prompt: StrLit | None
    optional: bool
    secret: bool
    span: Span
    public: bool = False
    window: str = ""  # the response window this question belongs to (a window's desugared body)
    each: Each | None = None  # `by each p in xs` (with `simultaneously`: one answer per player)
    simultaneous: bool = False


@node
class ChooseNumber:
    """`choose number from lo to hi by p`."""

    low: Expr
    high: Expr
    player: Expr | None
    prompt: StrLit | None
    span: Span
    each: Each | None = None
    simultaneous: bool = False


@node
class Ask:
    """`ask "question" by p`: a yes/no decision."""

    question: StrLit
    player: Expr | None
    span: Span
    window: str = ""  # the response window this question belongs to (a window's desugared body)
    each: Each | None = None
    simultaneous: bool = False


Decision = Choose | ChooseNumber | Ask
Expr = (
    IntLit
    | BoolLit
    | NoneLit
    | StrLit
    | Name
    | Field
    | MethodCall
    | Index
    | Call
    | ListLit
    | ListComp
    | Quantifier
    | Aggregate
    | BinOp
    | Compare
    | BoolOp
    | Not
    | Neg
    | CondExpr
    | Active
    | CountActive
    | Choose
    | ChooseNumber
    | Ask
)
Rhs = Expr


# ---- statements -------------------------------------------------------------------------------


@node
class Let:
    """`let x = value` or `let x: T = value` declares a local (of type T, when written)."""

    var: str
    value: Rhs
    span: Span
    type: TypeRef | None = None


@node
class Assign:
    """`target = value`, `+=`, `-=` on a local or a state variable (optionally indexed)."""

    target: str
    indices: tuple[Expr, ...]
    op: str
    value: Rhs
    span: Span


@node
class If:
    """`if c {..} elif c {..} else {..}`."""

    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    orelse: tuple[Stmt, ...]
    span: Span


@node
class For:
    """`for x in xs where cond {..}`; the source is evaluated once, before the first pass."""

    var: str
    source: Expr
    cond: Expr | None
    body: tuple[Stmt, ...]
    span: Span


@node
class Repeat:
    """`repeat n {..}`."""

    count: Expr
    body: tuple[Stmt, ...]
    span: Span


@node
class While:
    """`while c {..}`."""

    cond: Expr
    body: tuple[Stmt, ...]
    span: Span


@node
class Move:
    """`move x to [top|bottom of] zone`; a list moves each item."""

    item: Expr
    dest: Expr
    position: str
    span: Span


@node
class Place:
    """`place x on grid at cell`."""

    item: Expr
    grid: Expr
    cell: Expr
    span: Span


@node
class Shuffle:
    """`shuffle zone` (chance)."""

    zone: Expr
    span: Span


@node
class Deal:
    """`deal n from zone to zone`: moves the top n (or fewer, if the source runs out)."""

    count: Expr
    source: Expr
    dest: Expr
    span: Span


@node
class Reveal:
    """`reveal x`: shows it to every player (in the log)."""

    item: Expr
    span: Span


@node
class Show:
    """`show x to p`: only p sees it (a private log line)."""

    item: Expr
    player: Expr
    span: Span


@node
class Log:
    """`log "text {expr}"`."""

    message: StrLit
    span: Span


@node
class EndGame:
    """`end game winner p ["why"]`, `end game winners ps ["why"]` (a shared win),
    `end game draw ["why"]`, or `end game "why"` (the results' returns decide)."""

    winner: Expr | None  # the winner (a player), or the winners (a list of players)
    reason: StrLit | None
    span: Span
    # "winners" (a shared win) or "returns" (the results decide); None: `winner` names the winner,
    # or, None too, it is a draw (None, so that the fingerprints of older forms stay as they were)
    how: str | None = None


@node
class Return:
    """`return`: leave the current procedure; `return v` gives v (a procedure with `returns:`)."""

    span: Span
    value: Expr | None = None


@node
class Break:
    """`break`: leave the innermost `for`, `repeat` or `while` loop."""

    span: Span


@node
class Continue:
    """`continue`: go on with the next pass of the innermost loop."""

    span: Span


@node
class CallStmt:
    """`proc(args)`: runs a procedure (or a statement builtin)."""

    proc: str
    args: tuple[Expr, ...]
    span: Span
    respond: bool = False  # `respond W(args)`: a call of a response window


@node
class DoEffect:
    """`do x.field(args)`: runs an effect-valued field of a component (a card's event)."""

    subject: Expr
    field: str
    args: tuple[Expr, ...]
    span: Span


@node
class AddModifier:
    """`add name(args) until end of PHASE | cancelled`."""

    name: str
    args: tuple[Expr, ...]
    until_phase: str | None
    span: Span


@node
class Cancel:
    """`cancel name(args)`: removes every instance; `cancel one name(args)` (`one`) only the
    earliest added."""

    name: str
    args: tuple[Expr, ...]
    span: Span
    one: bool = False


@node
class Emit:
    """`emit event(args)`: runs every trigger on that event whose condition holds."""

    event: str
    args: tuple[Expr, ...]
    span: Span


Stmt = (
    Let
    | Assign
    | If
    | For
    | Repeat
    | While
    | Move
    | Place
    | Shuffle
    | Deal
    | Reveal
    | Show
    | Log
    | EndGame
    | Return
    | Break
    | Continue
    | CallStmt
    | DoEffect
    | AddModifier
    | Cancel
    | Emit
)


# ---- declarations (from YAML) -----------------------------------------------------------------


@node
class TypeRef:
    """A type as written in YAML (`int`, `card`, `list[card]`), resolved by check.py."""

    text: str
    span: Span


@node
class Param:
    """A typed parameter of a procedure, function, event, modifier or code field."""

    name: str
    type: TypeRef
    span: Span


@node
class Code:
    """A parsed DSL body: statements (an effect) or one expression."""

    body: tuple[Stmt, ...]
    expr: Expr | None
    span: Span
    text: str = ""  # the DSL source, as written (for messages and reproducers)


@node
class FieldDecl:
    """A column of a component table; code-valued columns have params (and a return type)."""

    name: str
    type: TypeRef
    kind: str  # "data", "effect" or "expr"
    params: tuple[Param, ...]
    optional: bool
    span: Span


@node
class Value:
    """A literal data value from YAML, kept with its span for error reports."""

    data: object
    span: Span


@node
class Entity:
    """One row of a component table (one card, one space, one piece), or N identical ones: a kind."""

    id: str
    label: str
    values: tuple[tuple[str, Value], ...]
    code: tuple[tuple[str, Code], ...]
    span: Span
    copies: int = 1  # `copies: N`: the row stands for N identical components (one kind)


@node
class EntityType:
    """A component table: its columns and its rows."""

    name: str
    fields: tuple[FieldDecl, ...]
    entities: tuple[Entity, ...]
    span: Span


@node
class EnumDecl:
    """A named set of symbolic values (e.g. order/event), each with the label players read (its
    name unless `labels` gives one per value)."""

    name: str
    values: tuple[str, ...]
    span: Span
    labels: tuple[str, ...] = ()  # () when the values are their own labels
    labels_span: Span = NO_SPAN


@node
class OptionDecl:
    """A game parameter set at load time (`-o name=value`). An enum option's default and choices
    are value names (checked by resolve, where the enum is known)."""

    name: str
    type: str  # "int", "bool" or the name of an enum
    default: int | bool | str
    choices: tuple[int | str, ...]
    doc: str
    span: Span
    type_span: Span = NO_SPAN  # where the type, the default and the choices are written
    default_span: Span = NO_SPAN
    choices_span: Span = NO_SPAN


@node
class ConstDecl:
    """A named integer or boolean constant."""

    name: str
    value: Value
    span: Span


@node
class StateVar:
    """A mutable variable of the game state, optionally indexed (`per`) and bounded (a track)."""

    name: str
    type: TypeRef
    per: tuple[TypeRef, ...]
    initial: Value | None
    low: int | None
    high: int | None
    visibility: str  # "public" or "owner" (per-player variables only)
    span: Span


@node
class ZoneDecl:
    """A place components live: a deck, hand, discard, board, bag or grid."""

    name: str
    of: TypeRef
    per: tuple[TypeRef, ...]  # its index types: one instance per index tuple (`hand[p]`)
    kind: str  # "pile" or "grid"
    visibility: str  # "public", "owner", "others" (all but the owner) or "hidden"
    radius: int
    span: Span

    @property
    def per_player(self) -> bool:
        """Indexed by a player alone (`per: player`): one instance per seat, owned by it."""
        return tuple(t.text for t in self.per) == ("player",)


@node
class FunctionDecl:
    """A pure, named function with typed parameters and an expression body; a `cached` one keeps
    its values in the state until state it reads changes (compiler/reads.py)."""

    name: str
    params: tuple[Param, ...]
    returns: TypeRef
    body: Code
    span: Span
    cached: bool = False


@node
class ProcedureDecl:
    """A named procedure: statements that may make decisions, called from many places; one
    with `returns:` gives a value (`return v`), and a call of it may stand as a value."""

    name: str
    params: tuple[Param, ...]
    body: Code
    span: Span
    returns: TypeRef | None = None
    window: str = ""  # the response window this procedure was desugared from (Game.windows)


@node
class WindowDecl:
    """A response window (`windows:`), as written: load.py desugars it into a procedure of the
    same name, whose body holds these very expressions (so that check.py's types of them can be
    judged here, and every diagnostic is placed in the window)."""

    name: str
    who: Expr | None
    options: Expr | None  # `with`: each responder's options; None: a yes/no question
    opens: CallStmt | None  # the window a response opens, if any
    span: Span


@node
class SignatureDecl:
    """A declared event or modifier: a name and typed parameters."""

    name: str
    params: tuple[Param, ...]
    doc: str
    span: Span


@node
class ZoneWatch:
    """A trigger's `on: "c enters hand[p]"` (or `leaves`): the component's name, the verb, the zone
    and the names its indices bind."""

    item: str
    verb: str  # "enters" or "leaves"
    zone: str
    indices: tuple[str, ...]
    span: Span


@node
class TriggerDecl:
    """`when EVENT [if cond] do effect`, or (`watch`) when a component enters or leaves a zone."""

    name: str
    event: str
    condition: Code | None
    body: Code
    span: Span
    watch: ZoneWatch | None = None


@node
class InvariantDecl:
    """A named boolean that must hold after every action."""

    name: str
    expr: Code
    why: str
    span: Span


@node
class PhaseDecl:
    """A step of the game's flow; repeated phases may count their passes in a state variable."""

    name: str
    body: Code | None
    steps: tuple[PhaseDecl, ...]
    repeat: Code | None
    while_: Code | None
    counter: str | None
    span: Span


@node
class ScenarioStep:
    """One step of a scenario: actions to play, then what must hold after them."""

    actions: tuple[Value, ...]
    expect: tuple[Code, ...]
    expect_error: str | None  # the last action must be illegal with this text (last step only)
    expect_log: tuple[str, ...]
    expect_no_log: tuple[str, ...]  # no log line may contain these
    expect_legal: tuple[str, ...] | None
    expect_to_act: Value | None  # a player's label: who must answer the pending decision
    expect_prompt: str | None  # text the pending decision's prompt must contain
    expect_winner: Value | None  # a player's label, or "draw": the game must be over so
    expect_seen: tuple[tuple[Value, tuple[str, ...]], ...]  # player label -> texts in its view
    expect_unseen: tuple[tuple[Value, tuple[str, ...]], ...]  # player label -> texts absent from it
    span: Span
    expect_winners: tuple[Value, ...] | None = None  # players' labels: the game is over, they won
    expect_invariants: tuple[Value, ...] = ()  # invariants' names: each holds (as the spec says it now)


@node
class ScenarioDecl:
    """A designer's test case: setup overrides, forced chance, then steps of actions and expectations
    (a scenario written without `steps` is one step)."""

    name: str
    doc: str
    file: str
    seed: int
    options: tuple[tuple[str, Value], ...]
    setup: Code | None
    dice: tuple[int, ...]
    shuffles: tuple[tuple[Value, ...], ...]
    draws: tuple[tuple[Value, ...], ...]  # per shuffle: the components put on top, drawn first first
    picks: tuple[Value, ...]  # the results of the next random picks
    skip: tuple[Value, ...]  # phases whose next pass is skipped once
    start_at: Value | None  # a phase or step: what comes before it is skipped, and the setup runs there
    steps: tuple[ScenarioStep, ...]
    span: Span


@node
class BoardPlaces:
    """Components of one type (or the players: `of: player`) drawn as places on the board (a
    `board.places` entry). The expressions read the component (or player) as `x`; where it
    stands comes from exactly one of `at` (a
    position per id), `hex` or `grid` (two expressions: axial q and r, or column and row) or
    `cells` (the cells of a grid zone)."""

    of: TypeRef
    shape: str  # "box", "hex" or "circle"
    size: tuple[int, int]
    layout: str  # "at", "hex", "grid" or "cells"
    at: tuple[tuple[str, int, int, Span], ...]  # layout "at": id, x, y
    coords: tuple[Code, Code] | None  # layout "hex" or "grid"
    zone: str  # layout "cells": the grid zone
    origin: tuple[int, int]  # where coordinates (0, 0) are drawn (layouts other than "at")
    where: Code | None  # bool: the place is drawn
    group: Code | None  # the heading a place is listed under in the terminal
    label: Code | None  # str: its name (default: the component's name)
    show: tuple[tuple[str, Code, Span], ...]  # named values written on it
    owner: Code | None  # player: whose colour fills it (none: no one's)
    marked: Code | None  # bool: drawn with a heavy border
    links: Code | None  # list of the same type: lines drawn to these places
    span: Span
    name: str = ""  # the layer's heading in the terminal (default: the type's name)
    mark: str = ""  # what `marked` means, in a word or two (the terminal's legend)
    # `markers`: each player's number on the place, read with `x` and `p` (a badge in the player's
    # colour, none at 0), and where it is drawn solid (else as an outline)
    markers: tuple[Code, Code | None] | None = None


@node
class BoardTrack:
    """A numbered track with a marker (`each: player`: one marker per player, the value read
    with `p`); `counter` says it is drawn as a plain named value, not a track."""

    name: str
    value: Code
    low: int
    high: int
    each_player: bool
    counter: bool
    span: Span
    # `style: bore`: drawn on the board from `start` to `end`, two players boring from opposite
    # ends towards the middle; "" for a row of numbered steps along the top
    style: str = ""
    start: tuple[int, int] = (0, 0)
    end: tuple[int, int] = (0, 0)


@node
class BoardCards:
    """How components of a type are shown in zone rows: a short value and a text, read with `x`."""

    of: TypeRef
    value: Code | None
    text: Code | None
    span: Span


@node
class BoardDecl:
    """How a game is drawn (board.yaml): not a rule; its own module and digest."""

    width: int
    height: int
    colors: tuple[tuple[str, str, Span], ...]  # player name -> colour
    labels: tuple[tuple[str, int, int, Span], ...]  # texts written on the board: text, x, y
    places: tuple[BoardPlaces, ...]
    tracks: tuple[BoardTrack, ...]  # tracks and counters, in the order written
    zones: tuple[tuple[str, Span], ...]
    cards: tuple[BoardCards, ...]
    digest: str  # of the rule files and board.yaml: what the board module was compiled from
    span: Span
    names: tuple[tuple[str, str, Span], ...] = ()  # a zone's or a modifier's name -> the words shown


@node
class Results:
    """`results:`: each player's return when the game is over, and what is known of them."""

    returns: Code | None  # int, for the implicit local `p`
    low: int  # `min`: the lowest return a player can get
    high: int  # `max`: the highest
    kind: str  # zero_sum, constant_sum, identical or general_sum
    total: int  # `sum`: what the returns add up to (constant_sum; 0 for zero_sum)
    span: Span


@node
class Game:
    """A whole game spec."""

    name: str
    title: str
    version: str
    files: tuple[str, ...]
    digest: str  # of the rule files: what a saved state or a log was made with
    scenarios_digest: str  # of the rule files and the scenario files: what the scenarios module was
    player_names: tuple[str, ...]
    player_labels: tuple[str, ...]
    player_count: Value
    max_number: int
    options: tuple[OptionDecl, ...]
    constants: tuple[ConstDecl, ...]
    enums: tuple[EnumDecl, ...]
    types: tuple[EntityType, ...]
    state: tuple[StateVar, ...]
    zones: tuple[ZoneDecl, ...]
    functions: tuple[FunctionDecl, ...]
    procedures: tuple[ProcedureDecl, ...]
    events: tuple[SignatureDecl, ...]
    modifiers: tuple[SignatureDecl, ...]
    triggers: tuple[TriggerDecl, ...]
    invariants: tuple[InvariantDecl, ...]
    setup: Code | None
    phases: tuple[PhaseDecl, ...]
    scenarios: tuple[ScenarioDecl, ...] = field(default=())
    span: Span = NO_SPAN
    evaluation: Code | None = None  # int: how good a position is for the implicit local `p`
    step_budget: int = 1_000_000  # `limits.steps`: steps the rules may take between two decisions
    board: BoardDecl | None = None  # how the game is drawn (board.yaml)
    results: Results | None = None  # each player's return at the end (`results:`)
    windows: tuple[WindowDecl, ...] = ()  # response windows, each desugared into a procedure too
    # names declared by a declaration already reported as wrong (components listed under a type that
    # is not declared, and that type): they read as any type, and nothing is reported about them again
    unchecked: tuple[str, ...] = ()


# ---- what the fields of an IR class hold ---------------------------------------------------------


class FieldKind:
    """One field of an IR class, and what its annotation says it may hold: read once per class
    from the dataclass's fields, so that a new class or field needs no list kept by hand."""

    __slots__ = ("name", "span", "spans", "nodes")

    def __init__(self, name: str, annotation: object) -> None:
        # (this module's annotations are text; any other is taken to hold anything)
        named = _named_classes(annotation) if isinstance(annotation, str) else None
        self.name = name
        self.span = isinstance(annotation, str) and globals().get(annotation) is Span  # the node's Span
        # it may hold a Span, its own or a node's (a TypeRef's too): a copy that places spans
        # anew goes through it
        self.spans = named is None or bool(named)
        # it may hold an IR node (a Span or a TypeRef is none): children() goes through it
        self.nodes = named is None or bool(named - {Span, TypeRef})


def field_kinds(kind: type) -> tuple[FieldKind, ...]:
    """The fields of the IR class `kind`, in the order its constructor takes them."""
    kinds = _FIELD_KINDS.get(kind)
    if kinds is None:
        fields = getattr(kind, "__dataclass_fields__", {})
        kinds = _FIELD_KINDS[kind] = tuple(FieldKind(n, f.type) for n, f in fields.items())
    return kinds


def _named_classes(annotation: str) -> frozenset[type] | None:
    """The IR classes an annotation names, through the unions it names (`Expr`, `Stmt`), or None
    for `object`: anything. A builtin (`str`, `tuple`) is no name of this module."""
    named = _NAMED.get(annotation)
    if named is None and annotation not in _NAMED:
        words = re.findall(r"[A-Za-z_]\w*", annotation)
        named = _NAMED[annotation] = None if "object" in words else _classes(words)
    return named


def _classes(words: list[str]) -> frozenset[type]:
    found: set[type] = set()
    pending = [globals().get(word) for word in words]
    while pending:
        x = pending.pop()
        if isinstance(x, UnionType):
            pending.extend(get_args(x))
        elif isinstance(x, type) and hasattr(x, "__dataclass_fields__"):
            found.add(x)
    return frozenset(found)


# what field_kinds and _named_classes find out once per class and annotation
_FIELD_KINDS: dict[type, tuple[FieldKind, ...]] = {}
_NAMED: dict[str, frozenset[type] | None] = {}


def children(node: object) -> list[object]:
    """The IR nodes directly inside `node` (through tuples, such as an If's branches), in order."""
    kind = type(node)
    names = _NODE_FIELDS.get(kind)
    if names is None:
        names = _NODE_FIELDS[kind] = tuple(f.name for f in field_kinds(kind) if f.nodes)
    out: list[object] = []
    for name in names:
        value = getattr(node, name)
        if value is None:
            continue
        if isinstance(value, tuple):
            _gather(value, out)
            continue
        is_node = _IS_NODE.get(type(value))
        if is_node is None:
            is_node = _is_node(type(value))
        if is_node:
            out.append(value)
    return out


def _gather(values: tuple[object, ...], out: list[object]) -> None:
    for value in values:
        if isinstance(value, tuple):
            _gather(value, out)
            continue
        is_node = _IS_NODE.get(type(value))
        if is_node is None:
            is_node = _is_node(type(value))
        if is_node:
            out.append(value)


def _is_node(kind: type) -> bool:
    is_node = _IS_NODE[kind] = hasattr(kind, "__dataclass_fields__") and not issubclass(kind, (Span, TypeRef))
    return is_node


# what `children` finds out once per class: the fields that may hold nodes, and whether a value's
# class is a node's
_NODE_FIELDS: dict[type, tuple[str, ...]] = {}
_IS_NODE: dict[type, bool] = {}


def walk(node: object) -> Iterator[object]:
    """`node` and every IR node inside it, depth first, in order (without recursion)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(children(n)))
