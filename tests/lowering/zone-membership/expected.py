# ---- engine.py
# function in_deck (tests/lowering/zone-membership/game.yaml:17)
def f_in_deck(s: State, l_c: int) -> bool:
    # cov 0
    return l_c >= 0 and s.z.where[T_card][l_c] == Z_deck


# function places (tests/lowering/zone-membership/game.yaml:21)
def f_places(s: State, l_c: int) -> int:
    # cov 1
    v1_ = s.z.where[T_card][l_c] if l_c >= 0 else -1
    return ((1 if (v1_ == Z_deck) else 0) + (1 if (v1_ == (Z_hand + P_ann)) else 0)) + (
        1 if (v1_ == (Z_hand + P_bob)) else 0
    )


# function beside (tests/lowering/zone-membership/game.yaml:25)
def f_beside(s: State, l_c: int) -> int:
    # cov 2
    v1_ = s.z.where[T_card][l_c] if l_c >= 0 else -1
    q1_ = 0
    for c_d in range(2):
        if (F_card_value[c_d] > 1) and ((v1_ == Z_deck) or (v1_ == (Z_hand + P_ann))):
            q1_ += 1
    return q1_


# function held (tests/lowering/zone-membership/game.yaml:29)
def f_held(s: State) -> int:
    # cov 3
    q1_ = 0
    for c_c in range(2):
        if (c_c >= 0 and s.z.where[T_card][c_c] == (Z_hand + P_ann)) or (
            c_c >= 0 and s.z.where[T_card][c_c] == (Z_hand + P_bob)
        ):
            q1_ += 1
    return q1_


# phase play (tests/lowering/zone-membership/game.yaml:33)
def ph_play(s: State) -> None:
    s.move_all(T_card, list(range(2)), Z_deck, True)
    # cov 5 (implicit else)
    if s.holds(Z_deck, T_card, E_ace):
        # cov 4
        s.v_n = f_places(s, E_ace)


# the game's flow (phases) (tests/lowering/zone-membership/game.yaml:5)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/zone-membership/game.yaml:5)"
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
        # phase play (tests/lowering/zone-membership/game.yaml:33)
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
Z_deck: Final[int] = 0
Z_hand: Final[int] = 1
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
    "f_in_deck": "function in_deck (tests/lowering/zone-membership/game.yaml:17)",
    "f_places": "function places (tests/lowering/zone-membership/game.yaml:21)",
    "f_beside": "function beside (tests/lowering/zone-membership/game.yaml:25)",
    "f_held": "function held (tests/lowering/zone-membership/game.yaml:29)",
    "ph_play": "phase play (tests/lowering/zone-membership/game.yaml:33)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("function", "function in_deck", "tests/lowering/zone-membership/game.yaml:17"),
    ("function", "function places", "tests/lowering/zone-membership/game.yaml:21"),
    ("function", "function beside", "tests/lowering/zone-membership/game.yaml:25"),
    ("function", "function held", "tests/lowering/zone-membership/game.yaml:29"),
    ("branch", "if at line 36: then", "tests/lowering/zone-membership/game.yaml:36"),
    ("branch", "if at line 36: else (implicit)", "tests/lowering/zone-membership/game.yaml:36"),
    ("phase", "phase play", "tests/lowering/zone-membership/game.yaml:33"),
)
