# ---- engine.py
# function places (tests/lowering/invariant-by-zone/game.yaml:14)
def f_places(s: State, l_c: int) -> int:
    # cov 0
    v1_ = s.z.where[T_card][l_c] if l_c >= 0 else -1
    return ((1 if (v1_ == Z_deck) else 0) + (1 if (v1_ == (Z_hand + P_ann)) else 0)) + (
        1 if (v1_ == (Z_hand + P_bob)) else 0
    )


# phase play (tests/lowering/invariant-by-zone/game.yaml:29)
def ph_play(s: State) -> None:
    s.move(T_card, E_ace, (Z_hand + P_ann), True)
    s.move(T_card, E_two, Z_deck, True)
    s.move(T_card, E_three, Z_deck, True)


# invariant one_place (tests/lowering/invariant-by-zone/game.yaml:19)
def inv_one_place(s: State) -> bool:
    q1_ = True
    q2_ = s.z.where[T_card]
    for c_c in sorted(map(q2_.index, set(q2_))):
        if not (f_places(s, c_c) == 1):
            q1_ = False
            break
    return q1_


# invariant some_held (tests/lowering/invariant-by-zone/game.yaml:22)
def inv_some_held(s: State) -> bool:
    q1_ = False
    q2_ = s.z.where[T_card]
    for c_c in sorted(map(q2_.index, set(q2_))):
        if not (c_c >= 0 and s.z.where[T_card][c_c] == Z_deck):
            q1_ = True
            break
    return q1_


# invariant valued (tests/lowering/invariant-by-zone/game.yaml:25)
def inv_valued(s: State) -> bool:
    q1_ = True
    for c_c in range(3):
        if not ((F_card_value[c_c] > 0) or (c_c >= 0 and s.z.where[T_card][c_c] == Z_deck)):
            q1_ = False
            break
    return q1_


# the game's flow (phases) (tests/lowering/invariant-by-zone/game.yaml:4)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/invariant-by-zone/game.yaml:4)"
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
        # phase play (tests/lowering/invariant-by-zone/game.yaml:29)
        # cov 1
        ph_play(s)
        s.stack.pop()


INVARIANTS: tuple[tuple[str, str, Callable[[State], bool], str], ...] = (
    ("one_place", "every card is in one zone", inv_one_place, "all(c in card where places(c) == 1)"),
    ("some_held", "a card is dealt", inv_some_held, "any(c in card where c not in deck)"),
    ("valued", "reads a field", inv_valued, "all(c in card where c.value > 0 or c in deck)"),
)


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
E_three: Final[int] = 2
PH_play: Final[int] = 0
IDS_card: tuple[str, ...] = ("ace", "two", "three", "none")
LABELS_card: tuple[str, ...] = ("ace", "two", "three")
F_card_value: tuple[int, ...] = (1, 2, 3, 0)
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "f_places": "function places (tests/lowering/invariant-by-zone/game.yaml:14)",
    "ph_play": "phase play (tests/lowering/invariant-by-zone/game.yaml:29)",
    "inv_one_place": "invariant one_place (tests/lowering/invariant-by-zone/game.yaml:19)",
    "inv_some_held": "invariant some_held (tests/lowering/invariant-by-zone/game.yaml:22)",
    "inv_valued": "invariant valued (tests/lowering/invariant-by-zone/game.yaml:25)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("function", "function places", "tests/lowering/invariant-by-zone/game.yaml:14"),
    ("phase", "phase play", "tests/lowering/invariant-by-zone/game.yaml:29"),
)
