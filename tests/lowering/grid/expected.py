# ---- engine.py
# phase play (tests/lowering/grid/game.yaml:13)
class Phase_play(Frame):
    SLOTS = ("l_spot",)
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/grid/game.yaml:13)"
    PARAMS = 0
    SLOT_TYPES = ("cell",)
    BLOCKS = 2
    l_spot: int

    def __init__(self) -> None:
        self.pc = 0
        self.l_spot = -1

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        f.l_spot = self.l_spot
        return f

    def to_data(self) -> list[object]:
        return ["Phase_play", self.pc, [self.l_spot]]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            s.place(T_tile, E_north, Z_board, s.cell(0, 1))
            self.pc = 1
            s.decide(
                P_ann,
                s.open_cells_around(T_tile, [E_north]),
                3,
                "l_spot",
                (TX_where_to_place_the,),
                "tests/lowering/grid/game.yaml:16",
                2,
            )
        else:  # pc == 1
            s.place(T_tile, E_south, Z_board, self.l_spot)
            s.say(TX_south_at_north_at, self.l_spot, s.z.pos[T_tile][E_north])
            q1_ = 0
            for c_t in s.neighbors(T_tile, E_north):
                q1_ += F_tile_value[c_t]
            s.v_total = q1_
            s.stack.pop()


# the game's flow (phases) (tests/lowering/grid/game.yaml:2)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/grid/game.yaml:2)"
    PARAMS = 0
    SLOT_TYPES = ()
    BLOCKS = 2

    def __init__(self) -> None:
        self.pc = 0

    def copy(self) -> Flow:
        f = Flow()
        f.pc = self.pc
        return f

    def to_data(self) -> list[object]:
        return ["Flow", self.pc, []]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            s.after_setup()
            # phase play (tests/lowering/grid/game.yaml:13)
            # cov 0
            self.pc = 1
            s.stack.append(Phase_play())
        else:  # pc == 1
            s.stack.pop()


INVARIANTS: tuple[tuple[str, str, Callable[[State], bool], str], ...] = ()


# ---- scenarios.py
# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {}

# Each scenario and step says only what it needs; rulewright/scenarios.py fills in the rest.
SCENARIOS: tuple[dict[str, Any], ...] = ()


# ---- tables.py
# ---- static facts -----------------------------------------------------------------------------
T_tile: Final[int] = 0
T_player: Final[int] = 1
Z_board: Final[int] = 0
P_ann: Final[int] = 0
P_bob: Final[int] = 1
E_north: Final[int] = 0
E_south: Final[int] = 1
PH_play: Final[int] = 0
TX_where_to_place_the: Final[int] = 0
TX_south_at_north_at: Final[int] = 1
IDS_tile: tuple[str, ...] = ("north", "south", "none")
LABELS_tile: tuple[str, ...] = ("north", "south")
F_tile_value: tuple[int, ...] = (1, 2, 0)
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_where_to_place_the
    Text("where to place the south tile"),
    # TX_south_at_north_at
    Text("south at {}, north at {}", ("cell", "cell")),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (("phase", "phase play", "tests/lowering/grid/game.yaml:13"),)
