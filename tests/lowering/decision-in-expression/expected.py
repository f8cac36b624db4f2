# ---- engine.py
# phase main (tests/lowering/decision-in-expression/game.yaml:6)
class Phase_main(Frame):
    SLOTS = ("l_a_1", "l_a_2", "l_a_3")
    __slots__ = SLOTS
    NAME = "Phase_main"
    ORIGIN = "phase main (tests/lowering/decision-in-expression/game.yaml:6)"
    PARAMS = 0
    SLOT_TYPES = ("int", "bool", "bool")
    BLOCKS = 5
    l_a_1: int
    l_a_2: bool
    l_a_3: bool

    def __init__(self) -> None:
        self.pc = 0
        self.l_a_1 = 0
        self.l_a_2 = False
        self.l_a_3 = False

    def copy(self) -> Phase_main:
        f = Phase_main()
        f.pc = self.pc
        f.l_a_1 = self.l_a_1
        f.l_a_2 = self.l_a_2
        f.l_a_3 = self.l_a_3
        return f

    def to_data(self) -> list[object]:
        return ["Phase_main", self.pc, [self.l_a_1, self.l_a_2, self.l_a_3]]

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc < 2:
                if pc == 0:
                    self.pc = 1
                    s.decide(
                        P_a,
                        range(0, 2 + 1),
                        2,
                        "l_a_1",
                        (TX_blank,),
                        "tests/lowering/decision-in-expression/game.yaml:8",
                    )
                    return
                else:  # pc == 1
                    s.v_n += 1 + self.l_a_1
                    self.pc = 2
                    s.decide(
                        P_b,
                        [1, 2],
                        1,
                        "l_a_2",
                        (TX_more,),
                        "tests/lowering/decision-in-expression/game.yaml:9",
                        2,
                        True,
                    )
                    return
            elif pc == 2:
                if self.l_a_2:
                    # cov 0
                    s.v_n += 1
                    pc = 3
                    continue
                # cov 1
                self.pc = 4
                s.decide(
                    P_b,
                    [1, 2],
                    1,
                    "l_a_3",
                    (TX_less,),
                    "tests/lowering/decision-in-expression/game.yaml:9",
                    2,
                    True,
                )
                return
            elif pc == 3:
                s.end_game(-1, "")
                s.stack.pop()
                return
            else:  # pc == 4
                # cov 3 (implicit else)
                if self.l_a_3:
                    # cov 2
                    s.v_n -= 1
                pc = 3
                continue


# the game's flow (phases) (tests/lowering/decision-in-expression/game.yaml:1)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/decision-in-expression/game.yaml:1)"
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
            # phase main (tests/lowering/decision-in-expression/game.yaml:6)
            # cov 4
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
TX_more: Final[int] = 1
TX_less: Final[int] = 2
PLAYER_LABELS: tuple[str, ...] = ("a", "b")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_blank
    Text(""),
    # TX_more
    Text("more?"),
    # TX_less
    Text("less?"),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("branch", "if at line 9: then", "tests/lowering/decision-in-expression/game.yaml:9"),
    ("branch", "if at line 9: else", "tests/lowering/decision-in-expression/game.yaml:9"),
    ("branch", "if at line 9: then", "tests/lowering/decision-in-expression/game.yaml:9"),
    ("branch", "if at line 9: else (implicit)", "tests/lowering/decision-in-expression/game.yaml:9"),
    ("phase", "phase main", "tests/lowering/decision-in-expression/game.yaml:6"),
)
