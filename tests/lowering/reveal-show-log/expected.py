# ---- engine.py
# setup (tests/lowering/reveal-show-log/game.yaml:11)
def setup(s: State) -> None:
    # cov 0
    s.move_all(T_card, list(range(2)), (Z_hand + P_ann), True)


# phase play (tests/lowering/reveal-show-log/game.yaml:13)
def ph_play(s: State) -> None:
    s.say(TX_revealed, E_ace)
    s.say(TX_you_see, P_bob, tuple(s.z.piles[(Z_hand + P_ann)]))
    s.say(TX_you_see_2, P_bob, E_two)
    s.say(TX_ann_holds_cards, len(s.z.piles[(Z_hand + P_ann)]))


# the game's flow (phases) (tests/lowering/reveal-show-log/game.yaml:2)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/reveal-show-log/game.yaml:2)"
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
        setup(s)
        s.after_setup()
        # phase play (tests/lowering/reveal-show-log/game.yaml:13)
        # cov 1
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
Z_hand: Final[int] = 0
P_ann: Final[int] = 0
P_bob: Final[int] = 1
E_ace: Final[int] = 0
E_two: Final[int] = 1
PH_play: Final[int] = 0
TX_revealed: Final[int] = 0
TX_you_see: Final[int] = 1
TX_you_see_2: Final[int] = 2
TX_ann_holds_cards: Final[int] = 3
IDS_card: tuple[str, ...] = ("ace", "two", "none")
LABELS_card: tuple[str, ...] = ("ace", "two")
F_card_value: tuple[int, ...] = (1, 2, 0)
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "setup": "setup (tests/lowering/reveal-show-log/game.yaml:11)",
    "ph_play": "phase play (tests/lowering/reveal-show-log/game.yaml:13)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_revealed
    Text("Revealed: {}", ("entity:card",)),
    # TX_you_see
    Text("You see: {}", ("player", "list[entity:card]"), private=True),
    # TX_you_see_2
    Text("You see: {}", ("player", "entity:card"), private=True),
    # TX_ann_holds_cards
    Text("ann holds {} cards", ("int",)),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("setup", "setup", "tests/lowering/reveal-show-log/game.yaml:11"),
    ("phase", "phase play", "tests/lowering/reveal-show-log/game.yaml:13"),
)
