# ---- engine.py
# invariant scores_small (tests/lowering/invariant-and-evaluation/game.yaml:7)
def inv_scores_small(s: State) -> bool:
    v_score = s.v_score
    q1_ = True
    for c_p in range(s.num_players):
        if not (v_score[c_p] <= 3):
            q1_ = False
            break
    return q1_


# evaluation (tests/lowering/invariant-and-evaluation/game.yaml:10)
def evaluate(s: State, l_p: int) -> int:
    return s.v_score[l_p] - s.v_score[(1 - l_p)]


# phase play (tests/lowering/invariant-and-evaluation/game.yaml:12)
class Phase_play(Frame):
    SLOTS = ("d_1",)
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/invariant-and-evaluation/game.yaml:12)"
    PARAMS = 0
    SLOT_TYPES = ("int",)
    BLOCKS = 2
    d_1: int

    def __init__(self) -> None:
        self.pc = 0
        self.d_1 = -1

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        f.d_1 = self.d_1
        return f

    def to_data(self) -> list[object]:
        return ["Phase_play", self.pc, [self.d_1]]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            self.pc = 1
            s.decide(
                P_ann,
                range(0, 3 + 1),
                2,
                "d_1",
                (TX_points,),
                "tests/lowering/invariant-and-evaluation/game.yaml:14",
            )
        else:  # pc == 1
            s.v_score[P_ann] += self.d_1
            s.stack.pop()


# the game's flow (phases) (tests/lowering/invariant-and-evaluation/game.yaml:2)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/invariant-and-evaluation/game.yaml:2)"
    PARAMS = 0
    SLOT_TYPES = ()
    BLOCKS = 2

    def __init__(self) -> None:
        self.pc = 0

    def copy(self) -> Flow:
        f = Flow()
        f.pc = self.pc
        return f

    def to_data(self) -> list[object]:
        return ["Flow", self.pc, []]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            s.after_setup()
            # phase play (tests/lowering/invariant-and-evaluation/game.yaml:12)
            # cov 0
            self.pc = 1
            s.stack.append(Phase_play())
        else:  # pc == 1
            s.stack.pop()


INVARIANTS: tuple[tuple[str, str, Callable[[State], bool], str], ...] = (
    ("scores_small", "nobody scores more than 3", inv_scores_small, "all(p in players where score[p] <= 3)"),
)


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
TX_points: Final[int] = 0
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "inv_scores_small": "invariant scores_small (tests/lowering/invariant-and-evaluation/game.yaml:7)",
    "evaluate": "evaluation (tests/lowering/invariant-and-evaluation/game.yaml:10)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_points
    Text("points"),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("phase", "phase play", "tests/lowering/invariant-and-evaluation/game.yaml:12"),
)
