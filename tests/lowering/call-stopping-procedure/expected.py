# ---- engine.py
# procedure bid (tests/lowering/call-stopping-procedure/game.yaml:8)
class Proc_bid(Frame):
    SLOTS = ("l_p", "d_1")
    __slots__ = SLOTS
    NAME = "Proc_bid"
    ORIGIN = "procedure bid (tests/lowering/call-stopping-procedure/game.yaml:8)"
    PARAMS = 1
    SLOT_TYPES = ("player", "int")
    BLOCKS = 2
    l_p: int
    d_1: int

    def __init__(self, l_p: int) -> None:
        self.pc = 0
        self.l_p = l_p
        self.d_1 = -1

    def copy(self) -> Proc_bid:
        f = Proc_bid(self.l_p)
        f.pc = self.pc
        f.d_1 = self.d_1
        return f

    def to_data(self) -> list[object]:
        return ["Proc_bid", self.pc, [self.l_p, self.d_1]]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            # cov 0
            self.pc = 1
            s.decide(
                self.l_p,
                range(0, 2 + 1),
                2,
                "d_1",
                (TX_your_bid,),
                "tests/lowering/call-stopping-procedure/game.yaml:11",
            )
        else:  # pc == 1
            s.v_score[s.ref(self.l_p)] += self.d_1
            s.stack.pop()


# procedure both_bid (tests/lowering/call-stopping-procedure/game.yaml:12)
class Proc_both_bid(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Proc_both_bid"
    ORIGIN = "procedure both_bid (tests/lowering/call-stopping-procedure/game.yaml:12)"
    PARAMS = 0
    SLOT_TYPES = ()
    BLOCKS = 2

    def __init__(self) -> None:
        self.pc = 0

    def copy(self) -> Proc_both_bid:
        f = Proc_both_bid()
        f.pc = self.pc
        return f

    def to_data(self) -> list[object]:
        return ["Proc_both_bid", self.pc, []]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            # cov 1
            self.pc = 1
            s.stack.append(Proc_bid(P_ann))
        else:  # pc == 1
            s.stack.pop()


# phase play (tests/lowering/call-stopping-procedure/game.yaml:16)
class Phase_play(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/call-stopping-procedure/game.yaml:16)"
    PARAMS = 0
    SLOT_TYPES = ()
    BLOCKS = 2

    def __init__(self) -> None:
        self.pc = 0

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        return f

    def to_data(self) -> list[object]:
        return ["Phase_play", self.pc, []]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            self.pc = 1
            s.stack.append(Proc_both_bid())
        else:  # pc == 1
            s.v_score[P_ann] += 1
            s.stack.pop()


# the game's flow (phases) (tests/lowering/call-stopping-procedure/game.yaml:3)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/call-stopping-procedure/game.yaml:3)"
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
            # phase play (tests/lowering/call-stopping-procedure/game.yaml:16)
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
TX_your_bid: Final[int] = 0
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_your_bid
    Text("your bid"),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("procedure", "procedure bid", "tests/lowering/call-stopping-procedure/game.yaml:8"),
    ("procedure", "procedure both_bid", "tests/lowering/call-stopping-procedure/game.yaml:12"),
    ("phase", "phase play", "tests/lowering/call-stopping-procedure/game.yaml:16"),
)
