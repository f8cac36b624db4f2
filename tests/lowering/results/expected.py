# ---- engine.py
# phase play (tests/lowering/results/game.yaml:13)
def ph_play(s: State) -> None:
    # cov 1 (implicit else)
    if s.v_score[P_ann] > 5:
        # cov 0
        s.end_game_shared([P_ann, P_bob], "both past five")
    s.end_game_by_returns("the higher score")


# results.returns (tests/lowering/results/game.yaml:8)
def returns_of(s: State, l_p: int) -> int:
    return s.v_score[l_p] - s.v_score[(1 - l_p)]


# the game's flow (phases) (tests/lowering/results/game.yaml:3)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/results/game.yaml:3)"
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
        # phase play (tests/lowering/results/game.yaml:13)
        # cov 2
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
    "ph_play": "phase play (tests/lowering/results/game.yaml:13)",
    "returns_of": "results.returns (tests/lowering/results/game.yaml:8)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("branch", "if at line 15: then", "tests/lowering/results/game.yaml:15"),
    ("branch", "if at line 15: else (implicit)", "tests/lowering/results/game.yaml:15"),
    ("phase", "phase play", "tests/lowering/results/game.yaml:13"),
)
