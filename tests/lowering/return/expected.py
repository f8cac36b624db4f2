# ---- engine.py
# procedure add_one (tests/lowering/return/game.yaml:7)
def p_add_one(s: State) -> None:
    # cov 0
    # cov 2 (implicit else)
    if s.v_score > 2:
        # cov 1
        return
    s.v_score += 1


# phase play (tests/lowering/return/game.yaml:12)
class Phase_play(Frame):
    SLOTS = ("l_go",)
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/return/game.yaml:12)"
    PARAMS = 0
    SLOT_TYPES = ("bool",)
    BLOCKS = 2
    l_go: bool

    def __init__(self) -> None:
        self.pc = 0
        self.l_go = False

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        f.l_go = self.l_go
        return f

    def to_data(self) -> list[object]:
        return ["Phase_play", self.pc, [self.l_go]]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            p_add_one(s)
            self.pc = 1
            s.decide(P_ann, [1, 2], 1, "l_go", (TX_add,), "tests/lowering/return/game.yaml:15", 2, True)
        else:  # pc == 1
            # cov 4 (implicit else)
            if not self.l_go:
                # cov 3
                s.stack.pop()
                return
            s.v_score = 5
            s.stack.pop()


# the game's flow (phases) (tests/lowering/return/game.yaml:2)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/return/game.yaml:2)"
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
            # phase play (tests/lowering/return/game.yaml:12)
            # cov 5
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
TX_add: Final[int] = 0
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "p_add_one": "procedure add_one (tests/lowering/return/game.yaml:7)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_add
    Text("add?"),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("procedure", "procedure add_one", "tests/lowering/return/game.yaml:7"),
    ("branch", "if at line 9: then", "tests/lowering/return/game.yaml:9"),
    ("branch", "if at line 9: else (implicit)", "tests/lowering/return/game.yaml:9"),
    ("branch", "if at line 16: then", "tests/lowering/return/game.yaml:16"),
    ("branch", "if at line 16: else (implicit)", "tests/lowering/return/game.yaml:16"),
    ("phase", "phase play", "tests/lowering/return/game.yaml:12"),
)
