# ---- engine.py
# function ahead (tests/lowering/functions/game.yaml:7)
def f_ahead(s: State, l_p: int) -> bool:
    # cov 0
    return s.v_score[l_p] > s.v_score[(1 - l_p)]


# function leader (tests/lowering/functions/game.yaml:11)
def f_leader(s: State) -> int:
    # cov 1
    return P_ann if f_ahead(s, P_ann) else P_bob


# phase play (tests/lowering/functions/game.yaml:15)
def ph_play(s: State) -> None:
    s.v_score[s.ref(f_leader(s))] += 1


# the game's flow (phases) (tests/lowering/functions/game.yaml:2)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/functions/game.yaml:2)"
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
        # phase play (tests/lowering/functions/game.yaml:15)
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
T_player: Final[int] = 0
P_ann: Final[int] = 0
P_bob: Final[int] = 1
PH_play: Final[int] = 0
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "f_ahead": "function ahead (tests/lowering/functions/game.yaml:7)",
    "f_leader": "function leader (tests/lowering/functions/game.yaml:11)",
    "ph_play": "phase play (tests/lowering/functions/game.yaml:15)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("function", "function ahead", "tests/lowering/functions/game.yaml:7"),
    ("function", "function leader", "tests/lowering/functions/game.yaml:11"),
    ("phase", "phase play", "tests/lowering/functions/game.yaml:15"),
)
