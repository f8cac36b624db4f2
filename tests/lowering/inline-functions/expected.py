# ---- engine.py
# function worth (tests/lowering/inline-functions/game.yaml:18)
def f_worth(s: State, l_c: int) -> int:
    # cov 0
    return F_card_value[l_c] * 2


# function twice (tests/lowering/inline-functions/game.yaml:22)
def f_twice(s: State, l_k: int) -> int:
    # cov 1
    return l_k + l_k


# function ratio (tests/lowering/inline-functions/game.yaml:26)
def f_ratio(s: State, l_k: int) -> int:
    # cov 2
    return s.div(10, l_k)


# function total (tests/lowering/inline-functions/game.yaml:30)
def f_total(s: State) -> int:
    # cov 3
    q1_ = 0
    for c_c in range(2):
        q1_ += F_card_value[c_c]
    return q1_


# function rich (tests/lowering/inline-functions/game.yaml:33)
def f_rich(s: State) -> list[int]:
    # cov 4
    v_n = s.v_n
    q1_: list[int] = []
    for c_c in range(2):
        # cov 0 (worth)
        if ((v1_ := (F_card_value[c_c] * 2)) > v_n) and (v1_ < 4):
            q1_.append(c_c)
    return q1_


# phase play (tests/lowering/inline-functions/game.yaml:37)
def ph_play(s: State) -> None:
    # cov 0 (worth)
    # cov 6 (implicit else)
    if (F_card_value[E_ace] * 2) > s.v_n:
        # cov 5
        s.v_n = (f_twice(s, (s.v_n + 1)) + f_ratio(s, (s.v_n + 1))) + f_total(s)
    q1_: int
    if s.v_n > 3:
        # cov 0 (worth)
        q1_ = F_card_value[E_two] * 2
    else:
        # cov 1 (twice)
        q1_ = s.v_n + (s.v_n + s.v_n)
    s.v_n = q1_


# the game's flow (phases) (tests/lowering/inline-functions/game.yaml:7)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/inline-functions/game.yaml:7)"
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
        # phase play (tests/lowering/inline-functions/game.yaml:37)
        # cov 7
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
    "f_worth": "function worth (tests/lowering/inline-functions/game.yaml:18)",
    "f_twice": "function twice (tests/lowering/inline-functions/game.yaml:22)",
    "f_ratio": "function ratio (tests/lowering/inline-functions/game.yaml:26)",
    "f_total": "function total (tests/lowering/inline-functions/game.yaml:30)",
    "f_rich": "function rich (tests/lowering/inline-functions/game.yaml:33)",
    "ph_play": "phase play (tests/lowering/inline-functions/game.yaml:37)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("function", "function worth", "tests/lowering/inline-functions/game.yaml:18"),
    ("function", "function twice", "tests/lowering/inline-functions/game.yaml:22"),
    ("function", "function ratio", "tests/lowering/inline-functions/game.yaml:26"),
    ("function", "function total", "tests/lowering/inline-functions/game.yaml:30"),
    ("function", "function rich", "tests/lowering/inline-functions/game.yaml:33"),
    ("branch", "if at line 39: then", "tests/lowering/inline-functions/game.yaml:39"),
    ("branch", "if at line 39: else (implicit)", "tests/lowering/inline-functions/game.yaml:39"),
    ("phase", "phase play", "tests/lowering/inline-functions/game.yaml:37"),
)
