# ---- engine.py
# procedure gain (tests/lowering/call-procedure/game.yaml:7)
def p_gain(s: State, l_p: int, l_n: int) -> None:
    # cov 0
    # cov 2 (implicit else)
    if l_n <= 0:
        # cov 1
        return
    s.v_score[s.ref(l_p)] += l_n


# phase play (tests/lowering/call-procedure/game.yaml:13)
def ph_play(s: State) -> None:
    p_gain(s, P_ann, 2)
    p_gain(s, P_bob, s.v_score[P_ann])


# the game's flow (phases) (tests/lowering/call-procedure/game.yaml:2)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/call-procedure/game.yaml:2)"
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
        # phase play (tests/lowering/call-procedure/game.yaml:13)
        # cov 3
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
    "p_gain": "procedure gain (tests/lowering/call-procedure/game.yaml:7)",
    "ph_play": "phase play (tests/lowering/call-procedure/game.yaml:13)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("procedure", "procedure gain", "tests/lowering/call-procedure/game.yaml:7"),
    ("branch", "if at line 10: then", "tests/lowering/call-procedure/game.yaml:10"),
    ("branch", "if at line 10: else (implicit)", "tests/lowering/call-procedure/game.yaml:10"),
    ("phase", "phase play", "tests/lowering/call-procedure/game.yaml:13"),
)
