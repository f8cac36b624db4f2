# ---- engine.py
# phase main (tests/lowering/break-continue/game.yaml:6)
class Phase_main(Frame):
    SLOTS = ("l_k", "l_go")
    __slots__ = SLOTS
    NAME = "Phase_main"
    ORIGIN = "phase main (tests/lowering/break-continue/game.yaml:6)"
    PARAMS = 0
    SLOT_TYPES = ("int", "bool")
    BLOCKS = 3
    l_k: int
    l_go: bool

    def __init__(self) -> None:
        self.pc = 0
        self.l_k = 0
        self.l_go = False

    def copy(self) -> Phase_main:
        f = Phase_main()
        f.pc = self.pc
        f.l_k = self.l_k
        f.l_go = self.l_go
        return f

    def to_data(self) -> list[object]:
        return ["Phase_main", self.pc, [self.l_k, self.l_go]]

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                for x_ in range(0, 5):
                    self.l_k = x_
                    if not (self.l_k != 2):
                        continue
                    # cov 1 (implicit else)
                    if self.l_k == 1:
                        # cov 0
                        continue
                    # cov 3 (implicit else)
                    if self.l_k == 4:
                        # cov 2
                        break
                    s.v_n += self.l_k
                pc = 1
                continue
            elif pc == 1:
                s.tick("the while loop at tests/lowering/break-continue/game.yaml:13:7")
                self.pc = 2
                s.decide(
                    P_a, [1, 2], 1, "l_go", (TX_again,), "tests/lowering/break-continue/game.yaml:14", 2, True
                )
                return
            else:  # pc == 2
                # cov 5 (implicit else)
                if not self.l_go:
                    # cov 4
                    s.end_game(-1, "")
                    s.stack.pop()
                    return
                # cov 7 (implicit else)
                if s.v_n > 3:
                    # cov 6
                    pc = 1
                    continue
                s.v_n += 1
                pc = 1
                continue


# the game's flow (phases) (tests/lowering/break-continue/game.yaml:1)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/break-continue/game.yaml:1)"
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
            # phase main (tests/lowering/break-continue/game.yaml:6)
            # cov 8
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
TX_again: Final[int] = 0
PLAYER_LABELS: tuple[str, ...] = ("a", "b")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_again
    Text("again?"),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("branch", "if at line 9: then", "tests/lowering/break-continue/game.yaml:9"),
    ("branch", "if at line 9: else (implicit)", "tests/lowering/break-continue/game.yaml:9"),
    ("branch", "if at line 10: then", "tests/lowering/break-continue/game.yaml:10"),
    ("branch", "if at line 10: else (implicit)", "tests/lowering/break-continue/game.yaml:10"),
    ("branch", "if at line 15: then", "tests/lowering/break-continue/game.yaml:15"),
    ("branch", "if at line 15: else (implicit)", "tests/lowering/break-continue/game.yaml:15"),
    ("branch", "if at line 16: then", "tests/lowering/break-continue/game.yaml:16"),
    ("branch", "if at line 16: else (implicit)", "tests/lowering/break-continue/game.yaml:16"),
    ("phase", "phase main", "tests/lowering/break-continue/game.yaml:6"),
)
