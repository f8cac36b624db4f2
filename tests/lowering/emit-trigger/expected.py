# ---- engine.py
# trigger bonus: if (tests/lowering/emit-trigger/game.yaml:11)
def tc_bonus(s: State, l_p: int, l_n: int) -> bool:
    return l_n >= 2


# trigger bonus (tests/lowering/emit-trigger/game.yaml:11)
def t_bonus(s: State, l_p: int, l_n: int) -> None:
    # cov 0
    s.v_score[s.ref(l_p)] += 1


# trigger reply (tests/lowering/emit-trigger/game.yaml:15)
class Trig_reply(Frame):
    SLOTS = ("l_p", "l_n", "d_1")
    __slots__ = SLOTS
    NAME = "Trig_reply"
    ORIGIN = "trigger reply (tests/lowering/emit-trigger/game.yaml:15)"
    PARAMS = 2
    SLOT_TYPES = ("player", "int", "int")
    BLOCKS = 2
    l_p: int
    l_n: int
    d_1: int

    def __init__(self, l_p: int, l_n: int) -> None:
        self.pc = 0
        self.l_p = l_p
        self.l_n = l_n
        self.d_1 = -1

    def copy(self) -> Trig_reply:
        f = Trig_reply(self.l_p, self.l_n)
        f.pc = self.pc
        f.d_1 = self.d_1
        return f

    def to_data(self) -> list[object]:
        return ["Trig_reply", self.pc, [self.l_p, self.l_n, self.d_1]]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            # cov 1
            self.pc = 1
            s.decide(
                (1 - self.l_p),
                range(0, self.l_n + 1),
                2,
                "d_1",
                (TX_points_to_answer,),
                "tests/lowering/emit-trigger/game.yaml:16",
            )
        else:  # pc == 1
            s.v_score[s.ref((1 - self.l_p))] += self.d_1
            s.stack.pop()


# phase play (tests/lowering/emit-trigger/game.yaml:18)
class Phase_play(Frame):
    SLOTS = ("e_1", "e_2")
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/emit-trigger/game.yaml:18)"
    PARAMS = 0
    SLOT_TYPES = ("player", "int")
    BLOCKS = 2
    e_1: int
    e_2: int

    def __init__(self) -> None:
        self.pc = 0
        self.e_1 = -1
        self.e_2 = 0

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        f.e_1 = self.e_1
        f.e_2 = self.e_2
        return f

    def to_data(self) -> list[object]:
        return ["Phase_play", self.pc, [self.e_1, self.e_2]]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            self.e_1 = P_ann
            self.e_2 = 2
            if tc_bonus(s, self.e_1, self.e_2):
                t_bonus(s, self.e_1, self.e_2)
            self.pc = 1
            s.stack.append(Trig_reply(self.e_1, self.e_2))
        else:  # pc == 1
            s.stack.pop()


# the game's flow (phases) (tests/lowering/emit-trigger/game.yaml:3)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/emit-trigger/game.yaml:3)"
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
            # phase play (tests/lowering/emit-trigger/game.yaml:18)
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
TX_points_to_answer: Final[int] = 0
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "tc_bonus": "trigger bonus: if (tests/lowering/emit-trigger/game.yaml:11)",
    "t_bonus": "trigger bonus (tests/lowering/emit-trigger/game.yaml:11)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_points_to_answer
    Text("points to answer"),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("trigger", "trigger bonus", "tests/lowering/emit-trigger/game.yaml:11"),
    ("trigger", "trigger reply", "tests/lowering/emit-trigger/game.yaml:15"),
    ("phase", "phase play", "tests/lowering/emit-trigger/game.yaml:18"),
)
