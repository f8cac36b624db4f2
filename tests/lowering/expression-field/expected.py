# ---- engine.py
# card ace: strength (tests/lowering/expression-field/game.yaml:13)
def x_card_strength_ace(s: State, l_self: int, l_n: int) -> int:
    # cov 0
    return F_card_value[l_self] + l_n


# card two: strength (tests/lowering/expression-field/game.yaml:14)
def x_card_strength_two(s: State, l_self: int, l_n: int) -> int:
    # cov 1
    return l_n * 2


# card.strength of none (tests/lowering/expression-field/game.yaml:9)
def x_card_strength_default(s: State, l_self: int, l_n: int) -> int:
    return 0


# card ace: playable (tests/lowering/expression-field/game.yaml:13)
def x_card_playable_ace(s: State, l_self: int) -> bool:
    # cov 2
    return True


# default of card.playable (tests/lowering/expression-field/game.yaml:10)
def x_card_playable_default(s: State, l_self: int) -> bool:
    return False


# phase play (tests/lowering/expression-field/game.yaml:18)
def ph_play(s: State) -> None:
    for l_c in range(2):
        if not X_card_playable[l_c](s, l_c):
            continue
        s.v_score += X_card_strength[l_c](s, l_c, 3)
    s.v_score += X_card_strength[E_two](s, E_two, s.v_score)


# the game's flow (phases) (tests/lowering/expression-field/game.yaml:3)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/expression-field/game.yaml:3)"
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
        # phase play (tests/lowering/expression-field/game.yaml:18)
        # cov 3
        ph_play(s)
        s.stack.pop()


# by name (runtime.engine.named: natively, a long tuple written out is megabytes of C)
X_card_strength: Final[tuple[Callable[[State, int, int], int], ...]] = named(
    globals(),
    (
        "x_card_strength_ace",
        "x_card_strength_two",
        "x_card_strength_default",
    ),
)


# by name (runtime.engine.named: natively, a long tuple written out is megabytes of C)
X_card_playable: Final[tuple[Callable[[State, int], bool], ...]] = named(
    globals(),
    (
        "x_card_playable_ace",
        "x_card_playable_default",
        "x_card_playable_default",
    ),
)


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
    "x_card_strength_ace": "card ace: strength (tests/lowering/expression-field/game.yaml:13)",
    "x_card_strength_two": "card two: strength (tests/lowering/expression-field/game.yaml:14)",
    "x_card_strength_default": "card.strength of none (tests/lowering/expression-field/game.yaml:9)",
    "x_card_playable_ace": "card ace: playable (tests/lowering/expression-field/game.yaml:13)",
    "x_card_playable_default": "default of card.playable (tests/lowering/expression-field/game.yaml:10)",
    "ph_play": "phase play (tests/lowering/expression-field/game.yaml:18)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("expression", "card ace: strength", "tests/lowering/expression-field/game.yaml:13"),
    ("expression", "card two: strength", "tests/lowering/expression-field/game.yaml:14"),
    ("expression", "card ace: playable", "tests/lowering/expression-field/game.yaml:13"),
    ("phase", "phase play", "tests/lowering/expression-field/game.yaml:18"),
)
