# ---- engine.py
# setup (tests/lowering/choose-optional/game.yaml:13)
def setup(s: State) -> None:
    # cov 0
    for l_c in range(2):
        s.move(T_card, l_c, Z_pile, True)


# phase play (tests/lowering/choose-optional/game.yaml:15)
class Phase_play(Frame):
    SLOTS = ("l_c", "l_n")
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/choose-optional/game.yaml:15)"
    PARAMS = 0
    SLOT_TYPES = ("entity:card", "int")
    BLOCKS = 3
    l_c: int
    l_n: int

    def __init__(self) -> None:
        self.pc = 0
        self.l_c = -1
        self.l_n = 0

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        f.l_c = self.l_c
        f.l_n = self.l_n
        return f

    def to_data(self) -> list[object]:
        return ["Phase_play", self.pc, [self.l_c, self.l_n]]

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                self.pc = 1
                if s.decide(
                    P_ann,
                    s.z.piles[Z_pile],
                    4,
                    "l_c",
                    (TX_card_to_score_or,),
                    "tests/lowering/choose-optional/game.yaml:17",
                    1,
                    optional=True,
                ):
                    return
                self.l_c = -1
                pc = 1
                continue
            elif pc == 1:
                # cov 2 (implicit else)
                if self.l_c != -1:
                    # cov 1
                    s.v_score += F_card_value[self.l_c]
                self.pc = 2
                if s.decide(
                    P_bob,
                    [1, 2],
                    2,
                    "l_n",
                    (TX_points_to_add_or,),
                    "tests/lowering/choose-optional/game.yaml:19",
                    2,
                    optional=True,
                ):
                    return
                self.l_n = -1
                pc = 2
                continue
            else:  # pc == 2
                # cov 4 (implicit else)
                if self.l_n != (-1):
                    # cov 3
                    s.v_score += self.l_n
                s.stack.pop()
                return


# the game's flow (phases) (tests/lowering/choose-optional/game.yaml:2)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/choose-optional/game.yaml:2)"
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
            setup(s)
            s.after_setup()
            # phase play (tests/lowering/choose-optional/game.yaml:15)
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
T_card: Final[int] = 0
T_player: Final[int] = 1
Z_pile: Final[int] = 0
P_ann: Final[int] = 0
P_bob: Final[int] = 1
E_ace: Final[int] = 0
E_two: Final[int] = 1
PH_play: Final[int] = 0
TX_card_to_score_or: Final[int] = 0
TX_points_to_add_or: Final[int] = 1
IDS_card: tuple[str, ...] = ("ace", "two", "none")
LABELS_card: tuple[str, ...] = ("ace", "two")
F_card_value: tuple[int, ...] = (1, 2, 0)
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "setup": "setup (tests/lowering/choose-optional/game.yaml:13)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_card_to_score_or
    Text("card to score (or pass)"),
    # TX_points_to_add_or
    Text("points to add (or pass)"),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("setup", "setup", "tests/lowering/choose-optional/game.yaml:13"),
    ("branch", "if at line 18: then", "tests/lowering/choose-optional/game.yaml:18"),
    ("branch", "if at line 18: else (implicit)", "tests/lowering/choose-optional/game.yaml:18"),
    ("branch", "if at line 20: then", "tests/lowering/choose-optional/game.yaml:20"),
    ("branch", "if at line 20: else (implicit)", "tests/lowering/choose-optional/game.yaml:20"),
    ("phase", "phase play", "tests/lowering/choose-optional/game.yaml:15"),
)
