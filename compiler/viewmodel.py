"""The view-model: what lowering hands to the templates, as data.

Names, Python type annotations, literal values (written by the `py` filter), and the code of rule
bodies as lines the code writer produced. The templates only loop over these and place them; they
build no string of their own beyond the fixed text around them.
"""

from __future__ import annotations

from dataclasses import dataclass

Value = object  # a value the `py` filter can write: str, int, bool, None, and tuples, lists, dicts of them


@dataclass(frozen=True, slots=True)
class Header:
    """The game a module is compiled from."""

    name: str
    title: str
    version: str
    digest: str
    files: tuple[str, ...]
    step_budget: int


@dataclass(frozen=True, slots=True)
class Constant:
    """`NAME: int = value`: the index of a type, zone, player, component, modifier or phase."""

    name: str
    value: int


@dataclass(frozen=True, slots=True)
class DataTable:
    """`NAME: type = (...)`: a column of component data, ids, labels or an enum's values."""

    name: str
    type: str
    values: tuple[Value, ...]


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type: str


@dataclass(frozen=True, slots=True)
class Function:
    """A plain Python function: a spec function, code that never stops, a condition, a check."""

    name: str
    origin: str
    params: tuple[Param, ...]
    returns: str
    body: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Slot:
    """A local of a resumable frame; it starts as the parameter of the same name or `initial`."""

    name: str
    type: str
    value_type: str  # what a saved state may hold here (runtime/saved.py)
    initial: Value = None
    from_param: bool = False


@dataclass(frozen=True, slots=True)
class FrameClass:
    """Code that may stop for a decision: its locals, and its step method, which runs the block
    its program counter names (one of `blocks`)."""

    name: str
    origin: str
    params: tuple[Param, ...]
    slots: tuple[Slot, ...]
    blocks: int
    step: tuple[str, ...]

    def __post_init__(self) -> None:
        # the runtime's Frame.from_data passes a saved frame's first len(params) slots to the
        # constructor (Frame.PARAMS): the parameters are the first slots, in order
        given = [s.name for s in self.slots if s.from_param]
        leading = [s.name for s in self.slots[: len(self.params)]]
        if given != leading or given != [p.name for p in self.params]:
            raise ValueError(f"frame {self.name}: its parameters are not its first slots")


@dataclass(frozen=True, slots=True)
class DispatchTable:
    """A per-component table of the functions of one code field (`None`: that component has none)."""

    name: str
    type: str
    entries: tuple[str | None, ...]


@dataclass(frozen=True, slots=True)
class CachedFunction:
    """A function whose values the state keeps (in `s.caches[constant]`) until state it reads changes."""

    name: str  # as the spec calls it
    function: str  # the generated function
    constant: str  # CACHE_<name>: the index of its cache
    params: tuple[str, ...]  # as the spec calls them (the contract names the arguments of a value)


@dataclass(frozen=True, slots=True)
class Readers:
    """READ_<source>: the caches (CACHE_ constants) that a change of one source of state clears."""

    name: str
    caches: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StateVar:
    """A state variable, or a game option's value, as a typed attribute of the state."""

    name: str
    attr: str
    type: str
    initial: Value
    dims: tuple[int | None, ...] = ()  # per index, outermost first: a size, or None for the players
    option: str = ""  # "int" or "bool" for an option (read from the options), "" for a variable
    option_values: str = ""  # an enum option's: the table of value names its value is found in

    @property
    def immutable(self) -> bool:
        """The initial value is a number, a bool, a string or none: a table of it may repeat one
        object (`[0] * n`); a list must be a new list in every cell."""
        return not isinstance(self.initial, list | tuple | dict)


@dataclass(frozen=True, slots=True)
class ZoneFact:
    name: str
    type_index: int
    kind: str
    owner: int
    visibility: str
    label: str = ""  # an instance of a zone with indices besides a player: `expedition[red,Alice]`


@dataclass(frozen=True, slots=True)
class DomainFact:
    """One range of action ids. Its labels are written out, or a data table's, or computed."""

    name: str
    offset: int
    labels: tuple[str, ...] = ()
    table: str = ""  # the data table holding the labels
    numbers_up_to: int = -1  # the labels are the numbers 0..numbers_up_to
    cells_radius: int = 0  # the labels are the cells of a grid of this radius


@dataclass(frozen=True, slots=True)
class OptionFact:
    name: str
    type: str  # "int", "bool" or "enum:E"
    default: int | bool | str
    choices: tuple[int | str, ...]
    doc: str
    values: str = ""  # an enum option's: the table of its enum's value names


@dataclass(frozen=True, slots=True)
class Info:
    """The static facts GameInfo carries."""

    player_labels: str  # the data table of the players' labels
    player_ids: tuple[str, ...]
    player_count: Value
    options: tuple[OptionFact, ...]
    type_names: tuple[str, ...]
    id_tables: tuple[str, ...]  # the IDS_ table of each component type
    label_tables: tuple[str, ...]  # the labels of each component type, the players' last
    kind_tables: tuple[str, ...]  # each component type's KINDS_ table (its rows with copies), or ""
    zones: tuple[ZoneFact, ...]
    domains: tuple[DomainFact, ...]
    radius: int
    phases: tuple[str, ...]
    modifiers: tuple[str, ...]
    owner_vars: tuple[str, ...]
    chance: bool
    secret_choices: bool
    die_faces: int  # the most faces of a die rolled with a written number (6 without one)
    var_indices: dict[str, tuple[int, ...]]
    var_values: dict[str, int]
    var_types: dict[str, tuple[str, tuple[str, ...]]]
    var_ranges: dict[str, tuple[int | None, int | None]]  # bounded ints: lowest, highest
    placed_types: tuple[int, ...]  # component types always in a zone
    modifier_params: tuple[tuple[str, ...], ...]
    windows: tuple[str, ...] = ()  # the response windows, by name
    simultaneous: bool = False  # the rules ask `simultaneously ... by each`


@dataclass(frozen=True, slots=True)
class TextFact:
    """`NAME: int = index`, and `Text(form, kinds, private)` at that index of GameInfo.texts: a
    log line or a prompt, stored by the rules as its index and its values (runtime Text)."""

    name: str
    index: int
    form: str
    kinds: tuple[str, ...]
    private: bool


@dataclass(frozen=True, slots=True)
class InvariantRead:
    """A name an invariant reads whose value its report shows: a state variable, a zone, an
    option, a constant (`value` its literal) or a function of no parameters (`value` its Python
    name)."""

    kind: str  # "state", "zone", "option", "const" or "function"
    name: str
    value: str | None


@dataclass(frozen=True, slots=True)
class Invariant:
    name: str
    why: str
    function: str
    check: str
    reads: tuple[InvariantRead, ...] = ()


@dataclass(frozen=True, slots=True)
class CoveragePoint:
    kind: str
    what: str
    where: str


@dataclass(frozen=True, slots=True)
class Expectation:
    text: str
    line: int
    function: str


@dataclass(frozen=True, slots=True)
class ScenarioStep:
    line: int
    actions: tuple[str, ...]
    expect: tuple[Expectation, ...]
    error: str | None
    log: tuple[str, ...]
    no_log: tuple[str, ...]
    legal: tuple[str, ...] | None
    to_act: str | None
    prompt: str | None
    winner: str | None
    seen: dict[str, list[str]]
    unseen: dict[str, list[str]]
    winners: tuple[str, ...] | None = None  # expect_winners: the players who won, as labels
    invariants: tuple[str, ...] = ()  # expect_invariants: the invariants that must hold, by name


@dataclass(frozen=True, slots=True)
class Scenario:
    name: str
    file: str
    seed: int
    options: dict[str, Value]
    dice: tuple[int, ...]
    shuffles: tuple[tuple[int, ...], ...]
    draws: tuple[tuple[int, ...], ...]
    picks: tuple[int, ...]
    skip: tuple[str, ...]
    start_at: str
    setup: str | None  # the function that arranges it
    steps: tuple[ScenarioStep, ...]
    doc: str


@dataclass(frozen=True, slots=True)
class Results:
    """What GameInfo says of the returns: the spec's `results`, or the range a shared win of a
    game without them reaches (`returns` None)."""

    returns: str | None  # the function (state, player) -> int
    kind: str
    low: int
    high: int
    total: int


@dataclass(frozen=True, slots=True)
class SavedChecks:
    """The quick tests of a saved state's log (compiler/lower/saved.py): a test per kind of line,
    the tables of them by text index (for log lines and for prompts) and the function running them."""

    functions: tuple[Function, ...]
    lines_table: str
    prompts_table: str
    lines: tuple[str, ...]  # by text index: the test of its lines
    never: str  # the test no line passes (a private text's, as a prompt)
    main: str
    variables: str  # the test of the variables ("" when the runtime's tables test them)
    names_table: str  # the set of the variables' names it tests the state's against
    names: tuple[str, ...]
    chain: bool  # the test of the variables flattens lists of lists (itertools.chain)
    frames_table: str  # the dict of each frame's test of its slots, by the frame's name
    frames: tuple[tuple[str, str], ...]  # (frame's name, its test)


@dataclass(frozen=True, slots=True)
class EngineModule:
    """generated/<game>/engine.py: the rules."""

    header: Header
    constants: tuple[Constant, ...]
    data: tuple[DataTable, ...]
    state_vars: tuple[StateVar, ...]
    functions: tuple[Function, ...]
    frames: tuple[FrameClass, ...]
    tables: tuple[DispatchTable, ...]
    invariants: tuple[Invariant, ...]
    evaluate: str | None
    coverage: tuple[CoveragePoint, ...]
    info: Info
    texts: tuple[TextFact, ...]
    cached: tuple[CachedFunction, ...] = ()
    readers: tuple[Readers, ...] = ()
    results: Results | None = None  # None: GameInfo's defaults (no results, no shared win)
    saved: SavedChecks | None = None  # None: a saved log is tested by the runtime's tables alone


@dataclass(frozen=True, slots=True)
class ScenarioModule:
    """generated/<game>/scenarios.py: the rulebook examples, apart from the engine."""

    header: Header
    imports: tuple[str, ...]  # the engine's names its code uses
    functions: tuple[Function, ...]
    scenarios: tuple[Scenario, ...]


@dataclass(frozen=True, slots=True)
class BoardPlaces:
    """One `places` entry of the board: its data and the names of its functions ("" when unset)."""

    of: str
    shape: str
    size: tuple[int, int]
    layout: str
    at: tuple[tuple[int, int] | None, ...]  # layout "at": by component index
    coords: tuple[str, str] | None
    zone: str
    origin: tuple[int, int]
    where: str
    group: str
    group_kind: str
    label: str
    show: tuple[tuple[str, str, str], ...]  # name, function, kind
    owner: str
    marked: str
    links: str
    name: str = ""
    mark: str = ""
    markers: tuple[str, str] = ("", "")  # a player's number on a place, and where it is solid


@dataclass(frozen=True, slots=True)
class BoardTrack:
    name: str
    function: str
    kind: str
    low: int
    high: int
    each_player: bool
    counter: bool
    style: str = ""
    start: tuple[int, int] = (0, 0)
    end: tuple[int, int] = (0, 0)


@dataclass(frozen=True, slots=True)
class BoardCards:
    of: str
    value: str
    value_kind: str
    text: str


@dataclass(frozen=True, slots=True)
class BoardModule:
    """generated/<game>/board.py: how the game is drawn (board.yaml), apart from the engine."""

    header: Header
    imports: tuple[str, ...]  # the engine's names its code uses
    functions: tuple[Function, ...]
    width: int
    height: int
    colors: tuple[str | None, ...]  # by player
    labels: tuple[tuple[str, int, int], ...]
    places: tuple[BoardPlaces, ...]
    tracks: tuple[BoardTrack, ...]
    zones: tuple[str, ...]
    cards: tuple[BoardCards, ...]
    names: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Module:
    """Everything the templates render for one game."""

    engine: EngineModule
    scenarios: ScenarioModule
    board: BoardModule | None = None
