# ---- engine.py
# function row_of (tests/lowering/zone-values/game.yaml:22)
def f_row_of(s: State, l_x: int, l_p: int) -> int:
    # cov 0
    return Z_row + s.ref(F_card_suit[l_x]) * 2 + s.ref(l_p)


# procedure play_to (tests/lowering/zone-values/game.yaml:27)
def p_play_to(s: State, l_x: int, l_z: int) -> None:
    # cov 1
    if (not s.pile(l_z)) or (F_card_value[s.top(s.zone(l_z, "zone 'z'"))] < F_card_value[l_x]):
        # cov 2
        s.move(T_card, l_x, s.zone(l_z, "zone 'z'"), True)
    else:
        # cov 3
        s.move(T_card, l_x, (Z_stash + E_north), True)


# phase play (tests/lowering/zone-values/game.yaml:32)
def ph_play(s: State) -> None:
    s.move_all(T_card, list(range(2)), Z_deck, True)
    l_z: int = f_row_of(s, E_ace, P_ann)
    p_play_to(s, E_ace, l_z)
    l_rows: list[int] = [(Z_row + P_ann), (Z_row + 2 + P_ann)]
    l_copy: list[int] = list(s.z.piles[(Z_hand + P_ann)])
    s.v_n = (len(s.pile(l_z)) + len(l_copy)) + len(s.pile(l_rows[1]))
    # cov 5 (implicit else)
    if (s.holds_value(l_z, T_card, E_ace)) and (l_z == (Z_row + P_ann)):
        # cov 4
        s.v_c = s.nth(s.pile(l_z), 0)
    s.v_c = s.nth(s.z.piles[(Z_hand + P_bob)], 0)
    s.v_c = s.nth(s.z.piles[Z_deck], 0)
    l_nothing: int = -1
    s.deal(T_card, 1, Z_deck, s.zone(l_nothing, "zone 'nothing'"))


# the game's flow (phases) (tests/lowering/zone-values/game.yaml:3)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/zone-values/game.yaml:3)"
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
        # phase play (tests/lowering/zone-values/game.yaml:32)
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
T_site: Final[int] = 1
T_player: Final[int] = 2
Z_deck: Final[int] = 0
Z_hand: Final[int] = 1
Z_row: Final[int] = 3
Z_stash: Final[int] = 7
P_ann: Final[int] = 0
P_bob: Final[int] = 1
E_ace: Final[int] = 0
E_two: Final[int] = 1
E_north: Final[int] = 0
PH_play: Final[int] = 0
IDS_card: tuple[str, ...] = ("ace", "two", "none")
LABELS_card: tuple[str, ...] = ("ace", "two")
F_card_suit: tuple[int, ...] = (0, 1, 0)
F_card_value: tuple[int, ...] = (1, 2, 0)
IDS_site: tuple[str, ...] = ("north", "none")
LABELS_site: tuple[str, ...] = ("north",)
ENUM_suit: tuple[str, ...] = ("cups", "coins")
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "f_row_of": "function row_of (tests/lowering/zone-values/game.yaml:22)",
    "p_play_to": "procedure play_to (tests/lowering/zone-values/game.yaml:27)",
    "ph_play": "phase play (tests/lowering/zone-values/game.yaml:32)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("function", "function row_of", "tests/lowering/zone-values/game.yaml:22"),
    ("procedure", "procedure play_to", "tests/lowering/zone-values/game.yaml:27"),
    ("branch", "if at line 30: then", "tests/lowering/zone-values/game.yaml:30"),
    ("branch", "if at line 30: else", "tests/lowering/zone-values/game.yaml:30"),
    ("branch", "if at line 40: then", "tests/lowering/zone-values/game.yaml:40"),
    ("branch", "if at line 40: else (implicit)", "tests/lowering/zone-values/game.yaml:40"),
    ("phase", "phase play", "tests/lowering/zone-values/game.yaml:32"),
)
