# ---- engine.py
# setup (tests/lowering/choose-among-copies/game.yaml:12)
def setup(s: State) -> None:
    # cov 0
    for l_c in range(4):
        s.move(T_card, l_c, Z_pile, True)
    s.shuffle_kinds(Z_pile, KINDS_card)


# phase play (tests/lowering/choose-among-copies/game.yaml:15)
class Phase_play(Frame):
    SLOTS = ("l_one", "l_two")
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/choose-among-copies/game.yaml:15)"
    PARAMS = 0
    SLOT_TYPES = ("entity:card", "list[entity:card]")
    BLOCKS = 3
    l_one: int
    l_two: list[int]

    def __init__(self) -> None:
        self.pc = 0
        self.l_one = -1
        self.l_two = []

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        f.l_one = self.l_one
        f.l_two = self.l_two
        return f

    def to_data(self) -> list[object]:
        return ["Phase_play", self.pc, [self.l_one, self.l_two]]

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                self.pc = 1
                s.decide_kinds(
                    P_ann,
                    s.z.piles[Z_pile],
                    KINDS_card,
                    4,
                    "l_one",
                    (TX_card_to_keep,),
                    at="tests/lowering/choose-among-copies/game.yaml:17",
                )
                return
            elif pc == 1:
                s.move(T_card, self.l_one, Z_kept, True)
                self.pc = 2
                need_ = 2
                if need_ <= 0:
                    self.l_two = []
                    pc = 2
                    continue
                s.decide_kinds(
                    P_bob,
                    s.z.piles[Z_pile],
                    KINDS_card,
                    4,
                    "l_two",
                    (TX_cards_to_keep,),
                    at="tests/lowering/choose-among-copies/game.yaml:19",
                    need=need_,
                )
                return
            else:  # pc == 2
                s.move_all(T_card, self.l_two, Z_kept, True)
                s.stack.pop()
                return


# the game's flow (phases) (tests/lowering/choose-among-copies/game.yaml:2)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/choose-among-copies/game.yaml:2)"
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
            # phase play (tests/lowering/choose-among-copies/game.yaml:15)
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
E_guard: Final[int] = 0
E_king: Final[int] = 3
PH_play: Final[int] = 0
TX_card_to_keep: Final[int] = 0
TX_cards_to_keep: Final[int] = 1
IDS_card: tuple[str, ...] = ("guard", "guard", "guard", "king", "none")
LABELS_card: tuple[str, ...] = ("guard", "guard", "guard", "king")
KINDS_card: tuple[int, ...] = (0, 0, 0, 1)
KINDLABELS_card: tuple[str, ...] = ("guard", "king")
F_card_value: tuple[int, ...] = (1, 1, 1, 6, 0)
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "setup": "setup (tests/lowering/choose-among-copies/game.yaml:12)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_card_to_keep
    Text("card to keep"),
    # TX_cards_to_keep
    Text("cards to keep"),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("setup", "setup", "tests/lowering/choose-among-copies/game.yaml:12"),
    ("phase", "phase play", "tests/lowering/choose-among-copies/game.yaml:15"),
)
