# ---- engine.py
# function best (tests/lowering/loop-invariant-calls/game.yaml:17)
def f_best(s: State) -> int:
    # cov 0
    return max(s.v_score[P_ann], s.v_score[P_bob])


# function ratio (tests/lowering/loop-invariant-calls/game.yaml:20)
def f_ratio(s: State) -> int:
    # cov 1
    return s.div(s.v_score[P_ann], s.v_n)


# function first_of (tests/lowering/loop-invariant-calls/game.yaml:23)
def f_first_of(s: State, l_xs: list[int]) -> int:
    # cov 2
    return l_xs[0]


# function above_best (tests/lowering/loop-invariant-calls/game.yaml:27)
def f_above_best(s: State) -> list[int]:
    # cov 3
    v1_ = f_best(s)
    q1_: list[int] = []
    for c_c in range(2):
        if F_card_value[c_c] > v1_:
            q1_.append(c_c)
    return q1_


# function above_ratio (tests/lowering/loop-invariant-calls/game.yaml:30)
def f_above_ratio(s: State) -> list[int]:
    # cov 4
    v1_: int | None = None
    v2_: int | None = None
    v_picked = s.v_picked
    q1_: list[int] = []
    for c_c in range(2):
        if (F_card_value[c_c] > (v1_ if v1_ is not None else (v1_ := f_ratio(s)))) and (
            c_c != (v2_ if v2_ is not None else (v2_ := f_first_of(s, v_picked)))
        ):
            q1_.append(c_c)
    return q1_


# function maybe (tests/lowering/loop-invariant-calls/game.yaml:33)
def f_maybe(s: State) -> bool:
    # cov 5
    v1_: int | None = None
    q1_ = s.v_n > 0
    if q1_:
        q2_ = False
        for c_c in range(2):
            if F_card_value[c_c] == (v1_ if v1_ is not None else (v1_ := f_ratio(s))):
                q2_ = True
                break
        q1_ = q2_
    return q1_


# phase play (tests/lowering/loop-invariant-calls/game.yaml:37)
def ph_play(s: State) -> None:
    v1_ = f_best(s)
    q1_: list[int] = []
    for c_c in range(2):
        if F_card_value[c_c] >= v1_:
            q1_.append(c_c)
    l_high: list[int] = q1_
    v2_ = f_best(s)
    q2_ = 0
    for c_c in l_high:
        if (F_card_value[c_c] + v2_) > 2:
            q2_ += 1
    s.v_n = q2_


# the game's flow (phases) (tests/lowering/loop-invariant-calls/game.yaml:6)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/loop-invariant-calls/game.yaml:6)"
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
        # phase play (tests/lowering/loop-invariant-calls/game.yaml:37)
        # cov 6
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
    "f_best": "function best (tests/lowering/loop-invariant-calls/game.yaml:17)",
    "f_ratio": "function ratio (tests/lowering/loop-invariant-calls/game.yaml:20)",
    "f_first_of": "function first_of (tests/lowering/loop-invariant-calls/game.yaml:23)",
    "f_above_best": "function above_best (tests/lowering/loop-invariant-calls/game.yaml:27)",
    "f_above_ratio": "function above_ratio (tests/lowering/loop-invariant-calls/game.yaml:30)",
    "f_maybe": "function maybe (tests/lowering/loop-invariant-calls/game.yaml:33)",
    "ph_play": "phase play (tests/lowering/loop-invariant-calls/game.yaml:37)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("function", "function best", "tests/lowering/loop-invariant-calls/game.yaml:17"),
    ("function", "function ratio", "tests/lowering/loop-invariant-calls/game.yaml:20"),
    ("function", "function first_of", "tests/lowering/loop-invariant-calls/game.yaml:23"),
    ("function", "function above_best", "tests/lowering/loop-invariant-calls/game.yaml:27"),
    ("function", "function above_ratio", "tests/lowering/loop-invariant-calls/game.yaml:30"),
    ("function", "function maybe", "tests/lowering/loop-invariant-calls/game.yaml:33"),
    ("phase", "phase play", "tests/lowering/loop-invariant-calls/game.yaml:37"),
)
