# ---- engine.py
# phase play (tests/lowering/repeat/game.yaml:7)
class Phase_play(Frame):
    SLOTS = ("l_more", "r_1")
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/repeat/game.yaml:7)"
    PARAMS = 0
    SLOT_TYPES = ("bool", "int")
    BLOCKS = 3
    l_more: bool
    r_1: int

    def __init__(self) -> None:
        self.pc = 0
        self.l_more = False
        self.r_1 = 0

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        f.l_more = self.l_more
        f.r_1 = self.r_1
        return f

    def to_data(self) -> list[object]:
        return ["Phase_play", self.pc, [self.l_more, self.r_1]]

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                for _ in range((2 + s.v_total)):
                    s.tick("the repeat loop at tests/lowering/repeat/game.yaml:9:7")
                    s.v_total += 1
                self.r_1 = s.v_total
                pc = 1
                continue
            elif pc == 1:
                s.tick("the repeat loop at tests/lowering/repeat/game.yaml:10:7")
                if self.r_1 <= 0:
                    s.stack.pop()
                    return
                self.r_1 -= 1
                self.pc = 2
                s.decide(
                    P_ann, [1, 2], 1, "l_more", (TX_one_more,), "tests/lowering/repeat/game.yaml:11", 2, True
                )
                return
            else:  # pc == 2
                # cov 1 (implicit else)
                if self.l_more:
                    # cov 0
                    s.v_total += 1
                pc = 1
                continue


# the game's flow (phases) (tests/lowering/repeat/game.yaml:2)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/repeat/game.yaml:2)"
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
            # phase play (tests/lowering/repeat/game.yaml:7)
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
TX_one_more: Final[int] = 0
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_one_more
    Text("one more?"),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("branch", "if at line 12: then", "tests/lowering/repeat/game.yaml:12"),
    ("branch", "if at line 12: else (implicit)", "tests/lowering/repeat/game.yaml:12"),
    ("phase", "phase play", "tests/lowering/repeat/game.yaml:7"),
)
