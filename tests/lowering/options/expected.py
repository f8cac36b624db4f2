# ---- engine.py
# phase play (tests/lowering/options/game.yaml:15)
def ph_play(s: State) -> None:
    for l_p in range(s.num_players):
        s.v_score[l_p] = 3 if s.o_fast else s.o_seats
    s.v_score[s.ref(s.opponent(P_ann))] += 1


# the game's flow (phases) (tests/lowering/options/game.yaml:3)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/options/game.yaml:3)"
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
        # phase play (tests/lowering/options/game.yaml:15)
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
T_player: Final[int] = 0
P_ann: Final[int] = 0
P_bob: Final[int] = 1
P_cat: Final[int] = 2
PH_play: Final[int] = 0
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob", "cat")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "ph_play": "phase play (tests/lowering/options/game.yaml:15)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (("phase", "phase play", "tests/lowering/options/game.yaml:15"),)
