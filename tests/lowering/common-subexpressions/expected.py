# ---- engine.py
# function points (tests/lowering/common-subexpressions/game.yaml:16)
def f_points(s: State, l_p: int) -> int:
    # cov 0
    return s.v_score[l_p] * 2


# function worth (tests/lowering/common-subexpressions/game.yaml:20)
def f_worth(s: State, l_c: int) -> int:
    # cov 1
    return F_card_value[l_c] * 2


# function lead (tests/lowering/common-subexpressions/game.yaml:24)
def f_lead(s: State, l_p: int) -> int:
    # cov 2
    return ((v1_ := f_points(s, l_p)) - f_points(s, (1 - l_p))) + (v1_ if (v1_ > 3) else 0)


# function guarded (tests/lowering/common-subexpressions/game.yaml:28)
def f_guarded(s: State, l_p: int) -> bool:
    # cov 3
    return (((s.v_score[l_p] > 0) and (f_points(s, l_p) > 2)) or ((v1_ := f_points(s, l_p)) == 1)) or (
        v1_ == 0
    )


# function squares (tests/lowering/common-subexpressions/game.yaml:32)
def f_squares(s: State) -> int:
    # cov 4
    v_n = s.v_n
    q1_ = 0
    for c_c in range(2):
        # cov 1 (worth)
        if (v1_ := (F_card_value[c_c] * 2)) > v_n:
            q1_ += v1_ * v1_
    return q1_


# phase play (tests/lowering/common-subexpressions/game.yaml:36)
def ph_play(s: State) -> None:
    s.v_n = s.roll(6) + s.roll(6)
    s.v_n = (v1_ := f_lead(s, P_ann)) + v1_
    v2_ = any(True for c_c in range(2) if (f_worth(s, c_c) > f_worth(s, E_ace)))
    v_n = s.v_n
    q1_ = 0
    for c_c in range(2):
        # cov 1 (worth)
        q2_ = (F_card_value[c_c] * 2) > v_n
        if q2_:
            q2_ = v2_
        if q2_:
            q1_ += 1
    # cov 1 (worth)
    # cov 6 (implicit else)
    if q1_ > (F_card_value[E_ace] * 2):
        # cov 5
        s.v_n += 1


# the game's flow (phases) (tests/lowering/common-subexpressions/game.yaml:6)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/common-subexpressions/game.yaml:6)"
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
        # phase play (tests/lowering/common-subexpressions/game.yaml:36)
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
    "f_points": "function points (tests/lowering/common-subexpressions/game.yaml:16)",
    "f_worth": "function worth (tests/lowering/common-subexpressions/game.yaml:20)",
    "f_lead": "function lead (tests/lowering/common-subexpressions/game.yaml:24)",
    "f_guarded": "function guarded (tests/lowering/common-subexpressions/game.yaml:28)",
    "f_squares": "function squares (tests/lowering/common-subexpressions/game.yaml:32)",
    "ph_play": "phase play (tests/lowering/common-subexpressions/game.yaml:36)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("function", "function points", "tests/lowering/common-subexpressions/game.yaml:16"),
    ("function", "function worth", "tests/lowering/common-subexpressions/game.yaml:20"),
    ("function", "function lead", "tests/lowering/common-subexpressions/game.yaml:24"),
    ("function", "function guarded", "tests/lowering/common-subexpressions/game.yaml:28"),
    ("function", "function squares", "tests/lowering/common-subexpressions/game.yaml:32"),
    ("branch", "if at line 40: then", "tests/lowering/common-subexpressions/game.yaml:40"),
    ("branch", "if at line 40: else (implicit)", "tests/lowering/common-subexpressions/game.yaml:40"),
    ("phase", "phase play", "tests/lowering/common-subexpressions/game.yaml:36"),
)
