# ---- engine.py
# setup (tests/lowering/choose-several/game.yaml:12)
def setup(s: State) -> None:
    # cov 0
    for l_c in range(3):
        s.move(T_card, l_c, Z_pile, True)


# phase play (tests/lowering/choose-several/game.yaml:14)
class Phase_play(Frame):
    SLOTS = ("l_two",)
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/choose-several/game.yaml:14)"
    PARAMS = 0
    SLOT_TYPES = ("list[entity:card]",)
    BLOCKS = 2
    l_two: list[int]

    def __init__(self) -> None:
        self.pc = 0
        self.l_two = []

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        f.l_two = self.l_two
        return f

    def to_data(self) -> list[object]:
        return ["Phase_play", self.pc, [self.l_two]]

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                self.pc = 1
                need_ = 2
                if need_ <= 0:
                    self.l_two = []
                    pc = 1
                    continue
                s.decide(
                    P_ann,
                    s.z.piles[Z_pile],
                    4,
                    "l_two",
                    (TX_cards_to_keep,),
                    "tests/lowering/choose-several/game.yaml:16",
                    1,
                    need=need_,
                )
                return
            else:  # pc == 1
                s.move_all(T_card, self.l_two, Z_kept, True)
                s.stack.pop()
                return


# the game's flow (phases) (tests/lowering/choose-several/game.yaml:2)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/choose-several/game.yaml:2)"
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
            # phase play (tests/lowering/choose-several/game.yaml:14)
            # cov 1
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
Z_kept: Final[int] = 1
P_ann: Final[int] = 0
P_bob: Final[int] = 1
E_ace: Final[int] = 0
E_two: Final[int] = 1
E_three: Final[int] = 2
PH_play: Final[int] = 0
TX_cards_to_keep: Final[int] = 0
IDS_card: tuple[str, ...] = ("ace", "two", "three", "none")
LABELS_card: tuple[str, ...] = ("ace", "two", "three")
F_card_value: tuple[int, ...] = (1, 2, 3, 0)
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "setup": "setup (tests/lowering/choose-several/game.yaml:12)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_cards_to_keep
    Text("cards to keep"),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("setup", "setup", "tests/lowering/choose-several/game.yaml:12"),
    ("phase", "phase play", "tests/lowering/choose-several/game.yaml:14"),
)
