# ---- engine.py
# phase play (tests/lowering/let-and-assign/game.yaml:14)
def ph_play(s: State) -> None:
    l_n: int = 2
    l_best: int = -1
    l_picked: list[int] = []
    l_n += 3
    l_n -= 1
    l_best = E_ace
    l_picked = [l_best]
    s.v_total = l_n
    s.v_score[P_ann] += l_n
    s.v_marks[s.ref(l_best)][P_bob] -= 1


# the game's flow (phases) (tests/lowering/let-and-assign/game.yaml:3)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/let-and-assign/game.yaml:3)"
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
        # phase play (tests/lowering/let-and-assign/game.yaml:14)
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
PH_play: Final[int] = 0
IDS_card: tuple[str, ...] = ("ace", "none")
LABELS_card: tuple[str, ...] = ("ace",)
F_card_value: tuple[int, ...] = (1, 0)
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "ph_play": "phase play (tests/lowering/let-and-assign/game.yaml:14)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("phase", "phase play", "tests/lowering/let-and-assign/game.yaml:14"),
)
