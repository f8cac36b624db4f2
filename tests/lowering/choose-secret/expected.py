# ---- engine.py
# setup (tests/lowering/choose-secret/game.yaml:13)
def setup(s: State) -> None:
    # cov 0
    s.move_all(T_card, list(range(2)), (Z_hand + P_ann), True)


# phase play (tests/lowering/choose-secret/game.yaml:15)
class Phase_play(Frame):
    SLOTS = ("l_b", "l_c")
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/choose-secret/game.yaml:15)"
    PARAMS = 0
    SLOT_TYPES = ("entity:card", "entity:card")
    BLOCKS = 3
    l_b: int
    l_c: int

    def __init__(self) -> None:
        self.pc = 0
        self.l_b = -1
        self.l_c = -1

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        f.l_b = self.l_b
        f.l_c = self.l_c
        return f

    def to_data(self) -> list[object]:
        return ["Phase_play", self.pc, [self.l_b, self.l_c]]

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                self.pc = 1
                s.decide(
                    P_ann,
                    s.z.piles[(Z_hand + P_ann)],
                    4,
                    "l_b",
                    (TX_your_secret_bid,),
                    "tests/lowering/choose-secret/game.yaml:17",
                    1,
                    secret=True,
                )
                return
            elif pc == 1:
                s.move(T_card, self.l_b, (Z_bid + P_ann), True)
                self.pc = 2
                if s.decide(
                    P_ann,
                    s.z.piles[(Z_hand + P_ann)],
                    4,
                    "l_c",
                    (TX_a_card_to_bid,),
                    "tests/lowering/choose-secret/game.yaml:20",
                    1,
                    optional=True,
                ):
                    return
                self.l_c = -1
                pc = 2
                continue
            else:  # pc == 2
                # cov 2 (implicit else)
                if self.l_c != -1:
                    # cov 1
                    s.move(T_card, self.l_c, (Z_bid + P_ann), True)
                s.stack.pop()
                return


# the game's flow (phases) (tests/lowering/choose-secret/game.yaml:3)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/choose-secret/game.yaml:3)"
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
            # phase play (tests/lowering/choose-secret/game.yaml:15)
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
Z_hand: Final[int] = 0
Z_bid: Final[int] = 2
P_ann: Final[int] = 0
P_bob: Final[int] = 1
E_ace: Final[int] = 0
E_two: Final[int] = 1
PH_play: Final[int] = 0
TX_your_secret_bid: Final[int] = 0
TX_a_card_to_bid: Final[int] = 1
IDS_card: tuple[str, ...] = ("ace", "two", "none")
LABELS_card: tuple[str, ...] = ("ace", "two")
F_card_value: tuple[int, ...] = (1, 2, 0)
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "setup": "setup (tests/lowering/choose-secret/game.yaml:13)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_your_secret_bid
    Text("your secret bid"),
    # TX_a_card_to_bid
    Text("a card to bid too"),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("setup", "setup", "tests/lowering/choose-secret/game.yaml:13"),
    ("branch", "if at line 21: then", "tests/lowering/choose-secret/game.yaml:21"),
    ("branch", "if at line 21: else (implicit)", "tests/lowering/choose-secret/game.yaml:21"),
    ("phase", "phase play", "tests/lowering/choose-secret/game.yaml:15"),
)
