# ---- engine.py
# phase play (tests/lowering/builtins/game.yaml:20)
def ph_play(s: State) -> None:
    s.v_who = 1 - P_ann
    s.v_who = s.next_player(s.v_who)
    s.v_who = s.previous_player(s.left_of(s.right_of(s.v_who)))
    s.v_who = s.next_in(s.v_who, [P_ann])
    s.v_who = s.previous_in(s.v_who, list(range(s.num_players)))
    s.v_n = s.seat_distance(P_ann, s.v_who)
    s.v_seats = s.players_from(s.v_who)
    s.v_seats = s.players_from(P_bob, [P_ann])
    s.v_n = ((len(s.z.piles[Z_deck]) + abs((-3))) + min(1, s.v_n)) + max(2, s.v_n, 3)
    s.v_n += s.roll(6)
    s.move_all(T_card, list(range(2)), Z_deck, True)
    l_c: int = s.pick(s.z.piles[Z_deck], T_card)
    l_c = s.top(Z_deck)
    s.v_cards = s.top_n(Z_deck, 2)
    s.v_n = len(list(range(0, 4)))
    s.place(T_card, E_ace, Z_table, s.cell(0, 0))
    s.place(T_card, E_two, Z_table, s.cell(1, 0))
    s.v_near = (s.z.pos[T_card][E_ace] == s.cell(0, 0)) and s.adjacent(T_card, E_ace, E_two)
    s.v_cards = s.neighbors(T_card, E_ace)
    s.v_spots = s.open_cells_around(T_card, [E_ace, E_two])
    s.v_text = s.player_label(s.v_who)
    s.v_text = s.label(T_card, E_ace)
    s.v_near = not s.z.piles[Z_deck]


# the game's flow (phases) (tests/lowering/builtins/game.yaml:2)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/builtins/game.yaml:2)"
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
        # phase play (tests/lowering/builtins/game.yaml:20)
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
Z_deck: Final[int] = 0
Z_table: Final[int] = 1
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
    "ph_play": "phase play (tests/lowering/builtins/game.yaml:20)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("phase", "phase play", "tests/lowering/builtins/game.yaml:20"),
)
