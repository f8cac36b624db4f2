# ---- engine.py
# phase play (tests/lowering/while/game.yaml:7)
class Phase_play(Frame):
    SLOTS = ("l_going",)
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/while/game.yaml:7)"
    PARAMS = 0
    SLOT_TYPES = ("bool",)
    BLOCKS = 2
    l_going: bool

    def __init__(self) -> None:
        self.pc = 0
        self.l_going = False

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        f.l_going = self.l_going
        return f

    def to_data(self) -> list[object]:
        return ["Phase_play", self.pc, [self.l_going]]

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                while s.v_total < 3:
                    s.tick("the while loop at tests/lowering/while/game.yaml:9:7")
                    s.v_total += 1
                self.l_going = True
                pc = 1
                continue
            else:  # pc == 1
                s.tick("the while loop at tests/lowering/while/game.yaml:11:7")
                if not self.l_going:
                    s.stack.pop()
                    return
                self.pc = 1
                s.decide(
                    P_bob, [1, 2], 1, "l_going", (TX_go_on,), "tests/lowering/while/game.yaml:11", 2, True
                )
                return


# the game's flow (phases) (tests/lowering/while/game.yaml:2)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/while/game.yaml:2)"
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
            # phase play (tests/lowering/while/game.yaml:7)
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
TX_go_on: Final[int] = 0
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_go_on
    Text("go on?"),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (("phase", "phase play", "tests/lowering/while/game.yaml:7"),)
