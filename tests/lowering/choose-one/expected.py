# ---- engine.py
# setup (tests/lowering/choose-one/game.yaml:15)
def setup(s: State) -> None:
    # cov 0
    for l_c in range(2):
        s.move(T_card, l_c, Z_pile, True)


# phase play (tests/lowering/choose-one/game.yaml:17)
class Phase_play(Frame):
    SLOTS = ("l_c", "l_how", "d_1")
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/choose-one/game.yaml:17)"
    PARAMS = 0
    SLOT_TYPES = ("entity:card", "enum:use", "player")
    BLOCKS = 4
    l_c: int
    l_how: int
    d_1: int

    def __init__(self) -> None:
        self.pc = 0
        self.l_c = -1
        self.l_how = 0
        self.d_1 = -1

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        f.l_c = self.l_c
        f.l_how = self.l_how
        f.d_1 = self.d_1
        return f

    def to_data(self) -> list[object]:
        return ["Phase_play", self.pc, [self.l_c, self.l_how, self.d_1]]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc < 2:
            if pc == 0:
                self.pc = 1
                s.decide(
                    P_ann,
                    s.z.piles[Z_pile],
                    4,
                    "l_c",
                    (TX_card_to_take,),
                    "tests/lowering/choose-one/game.yaml:19",
                    1,
                )
            else:  # pc == 1
                self.pc = 2
                s.decide(
                    P_bob,
                    list(range(s.num_players)),
                    3,
                    "d_1",
                    (TX_who_goes_first,),
                    "tests/lowering/choose-one/game.yaml:20",
                    2,
                )
        elif pc == 2:
            s.v_first = self.d_1
            self.pc = 3
            s.decide(
                P_ann,
                [0, 1],
                5,
                "l_how",
                (TX_what_to_do_with, self.l_c),
                "tests/lowering/choose-one/game.yaml:21",
                2,
            )
        else:  # pc == 3
            # cov 2 (implicit else)
            if self.l_how == 1:
                # cov 1
                s.move(T_card, self.l_c, Z_pile, True)
            s.stack.pop()


# the game's flow (phases) (tests/lowering/choose-one/game.yaml:2)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/choose-one/game.yaml:2)"
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
            # phase play (tests/lowering/choose-one/game.yaml:17)
            # cov 3
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
TX_card_to_take: Final[int] = 0
TX_who_goes_first: Final[int] = 1
TX_what_to_do_with: Final[int] = 2
IDS_card: tuple[str, ...] = ("ace", "two", "none")
LABELS_card: tuple[str, ...] = ("ace", "two")
F_card_value: tuple[int, ...] = (1, 2, 0)
ENUM_use: tuple[str, ...] = ("keep", "burn")
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "setup": "setup (tests/lowering/choose-one/game.yaml:15)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_card_to_take
    Text("card to take"),
    # TX_who_goes_first
    Text("who goes first"),
    # TX_what_to_do_with
    Text("what to do with {}", ("entity:card",)),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("setup", "setup", "tests/lowering/choose-one/game.yaml:15"),
    ("branch", "if at line 22: then", "tests/lowering/choose-one/game.yaml:22"),
    ("branch", "if at line 22: else (implicit)", "tests/lowering/choose-one/game.yaml:22"),
    ("phase", "phase play", "tests/lowering/choose-one/game.yaml:17"),
)
