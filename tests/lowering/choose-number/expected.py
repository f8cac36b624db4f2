# ---- engine.py
# phase play (tests/lowering/choose-number/game.yaml:8)
class Phase_play(Frame):
    SLOTS = ("l_n", "d_1")
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/choose-number/game.yaml:8)"
    PARAMS = 0
    SLOT_TYPES = ("int", "int")
    BLOCKS = 3
    l_n: int
    d_1: int

    def __init__(self) -> None:
        self.pc = 0
        self.l_n = 0
        self.d_1 = -1

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        f.l_n = self.l_n
        f.d_1 = self.d_1
        return f

    def to_data(self) -> list[object]:
        return ["Phase_play", self.pc, [self.l_n, self.d_1]]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            self.pc = 1
            s.decide(
                P_ann, range(1, 3 + 1), 2, "l_n", (TX_how_many,), "tests/lowering/choose-number/game.yaml:10"
            )
        elif pc == 1:
            self.pc = 2
            s.decide(
                P_bob,
                range(0, self.l_n + 1),
                2,
                "d_1",
                (TX_how_many_more,),
                "tests/lowering/choose-number/game.yaml:11",
            )
        else:  # pc == 2
            s.v_score[P_bob] += self.d_1
            s.stack.pop()


# the game's flow (phases) (tests/lowering/choose-number/game.yaml:2)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/choose-number/game.yaml:2)"
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
            # phase play (tests/lowering/choose-number/game.yaml:8)
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
T_player: Final[int] = 0
P_ann: Final[int] = 0
P_bob: Final[int] = 1
PH_play: Final[int] = 0
TX_how_many: Final[int] = 0
TX_how_many_more: Final[int] = 1
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_how_many
    Text("how many"),
    # TX_how_many_more
    Text("how many more"),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("phase", "phase play", "tests/lowering/choose-number/game.yaml:8"),
)
