# ---- engine.py
# phase play (tests/lowering/quantifiers/game.yaml:12)
def ph_play(s: State) -> None:
    s.v_flags = [
        any(True for c_c in range(2) if (F_card_value[c_c] > 1)),
        all(False for c_p in range(s.num_players) if not (s.v_score[c_p] == 0)),
    ]
    q1_ = 0
    for c_c in range(2):
        if F_card_value[c_c] < 2:
            q1_ += 1
    s.v_score[P_ann] = q1_ + s.num_players
    s.v_score[P_bob] = len([c_c for c_c in range(2) if (F_card_value[c_c] != s.v_score[P_ann])])


# the game's flow (phases) (tests/lowering/quantifiers/game.yaml:2)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/quantifiers/game.yaml:2)"
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
        # phase play (tests/lowering/quantifiers/game.yaml:12)
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
P_ann: Final[int] = 0
P_bob: Final[int] = 1
E_ace: Final[int] = 0
E_two: Final[int] = 1
PH_play: Final[int] = 0
IDS_card: tuple[str, ...] = ("ace", "two", "none")
LABELS_card: tuple[str, ...] = ("ace", "two")
F_card_value: tuple[int, ...] = (1, 2, 0)
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "ph_play": "phase play (tests/lowering/quantifiers/game.yaml:12)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("phase", "phase play", "tests/lowering/quantifiers/game.yaml:12"),
)
