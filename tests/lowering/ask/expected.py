# ---- engine.py
# phase play (tests/lowering/ask/game.yaml:7)
class Phase_play(Frame):
    SLOTS = ("d_1",)
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/ask/game.yaml:7)"
    PARAMS = 0
    SLOT_TYPES = ("bool",)
    BLOCKS = 2
    d_1: bool

    def __init__(self) -> None:
        self.pc = 0
        self.d_1 = False

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        f.d_1 = self.d_1
        return f

    def to_data(self) -> list[object]:
        return ["Phase_play", self.pc, [self.d_1]]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            self.pc = 1
            s.decide(P_ann, [1, 2], 1, "d_1", (TX_do_you_agree,), "tests/lowering/ask/game.yaml:9", 2, True)
        else:  # pc == 1
            s.v_agreed = self.d_1
            # cov 1 (implicit else)
            if s.v_agreed:
                # cov 0
                s.end_game(P_ann, "")
            s.stack.pop()


# the game's flow (phases) (tests/lowering/ask/game.yaml:2)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/ask/game.yaml:2)"
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
            # phase play (tests/lowering/ask/game.yaml:7)
            # cov 2
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
TX_do_you_agree: Final[int] = 0
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_do_you_agree
    Text("do you agree?"),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("branch", "if at line 10: then", "tests/lowering/ask/game.yaml:10"),
    ("branch", "if at line 10: else (implicit)", "tests/lowering/ask/game.yaml:10"),
    ("phase", "phase play", "tests/lowering/ask/game.yaml:7"),
)
