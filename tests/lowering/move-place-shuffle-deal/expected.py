# ---- engine.py
# phase play (tests/lowering/move-place-shuffle-deal/game.yaml:14)
def ph_play(s: State) -> None:
    s.move(T_card, E_ace, Z_deck, True)
    s.move(T_card, E_two, Z_deck, True)
    s.move(T_card, E_three, Z_deck, False)
    s.shuffle(Z_deck)
    s.deal(T_card, 2, Z_deck, (Z_hand + P_ann))
    s.move_all(T_card, s.z.piles[(Z_hand + P_ann)], Z_deck, True)
    s.place(T_card, E_ace, Z_table, s.cell(0, 1))


# the game's flow (phases) (tests/lowering/move-place-shuffle-deal/game.yaml:3)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/move-place-shuffle-deal/game.yaml:3)"
    PARAMS = 0
    SLOT_TYPES = ()
    BLOCKS = 1

    def __init__(self) -> None:
        self.pc = 0

    def copy(self) -> Flow:
        f = Flow()
        f.pc = self.pc
        return f

    def to_data(self) -> list[object]:
        return ["Flow", self.pc, []]

    def step(self, s: State) -> None:
        s.after_setup()
        # phase play (tests/lowering/move-place-shuffle-deal/game.yaml:14)
        # cov 0
        ph_play(s)
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
Z_deck: Final[int] = 0
Z_hand: Final[int] = 1
Z_table: Final[int] = 3
P_ann: Final[int] = 0
P_bob: Final[int] = 1
E_ace: Final[int] = 0
E_two: Final[int] = 1
E_three: Final[int] = 2
PH_play: Final[int] = 0
IDS_card: tuple[str, ...] = ("ace", "two", "three", "none")
LABELS_card: tuple[str, ...] = ("ace", "two", "three")
F_card_value: tuple[int, ...] = (1, 2, 3, 0)
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "ph_play": "phase play (tests/lowering/move-place-shuffle-deal/game.yaml:14)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("phase", "phase play", "tests/lowering/move-place-shuffle-deal/game.yaml:14"),
)
