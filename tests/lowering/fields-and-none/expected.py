# ---- engine.py
# phase play (tests/lowering/fields-and-none/game.yaml:23)
def ph_play(s: State) -> None:
    l_missing: int = -1
    s.v_n = (F_card_value[E_ace] + len(F_card_tags[E_two])) + F_card_value[l_missing]
    s.v_text = s.label(T_card, E_ace)
    s.v_text = IDS_card[E_two]
    s.v_who = F_card_owner[E_ace]
    # cov 1 (implicit else)
    if F_card_suit[E_ace] == 1:
        # cov 0
        s.v_who = F_card_owner[E_two]


# the game's flow (phases) (tests/lowering/fields-and-none/game.yaml:3)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/fields-and-none/game.yaml:3)"
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
        # phase play (tests/lowering/fields-and-none/game.yaml:23)
        # cov 2
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
P_ann: Final[int] = 0
P_bob: Final[int] = 1
E_ace: Final[int] = 0
E_two: Final[int] = 1
PH_play: Final[int] = 0
IDS_card: tuple[str, ...] = ("ace", "two", "none")
LABELS_card: tuple[str, ...] = ("Ace", "two")
F_card_value: tuple[int, ...] = (1, 2, 0)
F_card_suit: tuple[int, ...] = (1, 0, 0)
F_card_owner: tuple[int, ...] = (1, -1, -1)
F_card_tags: tuple[list[str], ...] = (["royal"], [], [])
ENUM_suit: tuple[str, ...] = ("cups", "coins")
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "ph_play": "phase play (tests/lowering/fields-and-none/game.yaml:23)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("branch", "if at line 30: then", "tests/lowering/fields-and-none/game.yaml:30"),
    ("branch", "if at line 30: else (implicit)", "tests/lowering/fields-and-none/game.yaml:30"),
    ("phase", "phase play", "tests/lowering/fields-and-none/game.yaml:23"),
)
