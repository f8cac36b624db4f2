# ---- engine.py
# procedure twice (tests/lowering/procedure-returns/game.yaml:6)
def p_twice(s: State, l_n: int) -> int:
    # cov 0
    return l_n * 2


# procedure pick (tests/lowering/procedure-returns/game.yaml:10)
class Proc_pick(Frame):
    SLOTS = ("l_p", "l_k", "l_a_1")
    __slots__ = SLOTS
    NAME = "Proc_pick"
    ORIGIN = "procedure pick (tests/lowering/procedure-returns/game.yaml:10)"
    PARAMS = 1
    SLOT_TYPES = ("player", "int", "int")
    BLOCKS = 2
    l_p: int
    l_k: int
    l_a_1: int

    def __init__(self, l_p: int) -> None:
        self.pc = 0
        self.l_p = l_p
        self.l_k = 0
        self.l_a_1 = 0

    def copy(self) -> Proc_pick:
        f = Proc_pick(self.l_p)
        f.pc = self.pc
        f.l_k = self.l_k
        f.l_a_1 = self.l_a_1
        return f

    def to_data(self) -> list[object]:
        return ["Proc_pick", self.pc, [self.l_p, self.l_k, self.l_a_1]]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            # cov 1
            self.pc = 1
            s.decide(
                self.l_p,
                range(1, 3 + 1),
                2,
                "l_k",
                (TX_blank,),
                "tests/lowering/procedure-returns/game.yaml:14",
            )
        else:  # pc == 1
            self.l_a_1 = p_twice(s, self.l_k)
            s.ret_ = self.l_a_1
            s.stack.pop()


# phase main (tests/lowering/procedure-returns/game.yaml:17)
class Phase_main(Frame):
    SLOTS = ("l_t",)
    __slots__ = SLOTS
    NAME = "Phase_main"
    ORIGIN = "phase main (tests/lowering/procedure-returns/game.yaml:17)"
    PARAMS = 0
    SLOT_TYPES = ("int",)
    BLOCKS = 2
    l_t: int

    def __init__(self) -> None:
        self.pc = 0
        self.l_t = 0

    def copy(self) -> Phase_main:
        f = Phase_main()
        f.pc = self.pc
        f.l_t = self.l_t
        return f

    def to_data(self) -> list[object]:
        return ["Phase_main", self.pc, [self.l_t]]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            self.pc = 1
            s.stack.append(Proc_pick(P_a))
        else:  # pc == 1
            s.v_score[P_a] += s.ret_
            self.l_t = p_twice(s, s.v_score[P_a])
            s.end_game(-1, "")
            s.stack.pop()


# the game's flow (phases) (tests/lowering/procedure-returns/game.yaml:1)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/procedure-returns/game.yaml:1)"
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
            # phase main (tests/lowering/procedure-returns/game.yaml:17)
            # cov 2
            self.pc = 1
            s.stack.append(Phase_main())
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
P_a: Final[int] = 0
P_b: Final[int] = 1
PH_main: Final[int] = 0
TX_blank: Final[int] = 0
PLAYER_LABELS: tuple[str, ...] = ("a", "b")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "p_twice": "procedure twice (tests/lowering/procedure-returns/game.yaml:6)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_blank
    Text(""),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("procedure", "procedure twice", "tests/lowering/procedure-returns/game.yaml:6"),
    ("procedure", "procedure pick", "tests/lowering/procedure-returns/game.yaml:10"),
    ("phase", "phase main", "tests/lowering/procedure-returns/game.yaml:17"),
)
