# ---- engine.py
# phase play (tests/lowering/scenario/game.yaml:9)
class Phase_play(Frame):
    SLOTS = ("d_1",)
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/scenario/game.yaml:9)"
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
            s.decide(P_ann, range(0, 2 + 1), 2, "d_1", (TX_points,), "tests/lowering/scenario/game.yaml:11")
        else:  # pc == 1
            s.v_score += self.d_1
            s.v_score += s.o_bonus
            s.stack.pop()


# the game's flow (phases) (tests/lowering/scenario/game.yaml:2)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/scenario/game.yaml:2)"
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
            # phase play (tests/lowering/scenario/game.yaml:9)
            # cov 0
            self.pc = 1
            s.stack.append(Phase_play())
        else:  # pc == 1
            s.stack.pop()


INVARIANTS: tuple[tuple[str, str, Callable[[State], bool], str], ...] = ()


# ---- scenarios.py
# scenario Two points and the bonus: setup (tests/lowering/scenario/scenarios/two_points.yaml:4)
def sc0_setup(s: State) -> None:
    s.v_score = 1


# scenario Two points and the bonus: expect (tests/lowering/scenario/scenarios/two_points.yaml:11)
def sc0_expect0(s: State) -> bool:
    return s.v_score == 4


# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "sc0_setup": "scenario Two points and the bonus: setup (tests/lowering/scenario/scenarios/two_points.yaml:4)",
    "sc0_expect0": "scenario Two points and the bonus: expect (tests/lowering/scenario/scenarios/two_points.yaml:11)",
}

# Each scenario and step says only what it needs; rulewright/scenarios.py fills in the rest.
SCENARIOS: tuple[dict[str, Any], ...] = (
    {
        "name": "Two points and the bonus",
        "file": "tests/lowering/scenario/scenarios/two_points.yaml",
        "seed": 2,
        "options": {"bonus": 1},
        "setup": sc0_setup,
        "steps": [
            {
                "line": 6,
                "to_act": "ann",
                "prompt": "points",
                "legal": ["0", "1", "2"],
            },
            {
                "line": 10,
                "actions": ["2"],
                "expect": [("score == 4", 11, sc0_expect0)],
                "winner": "draw",
                "log": ["ann chooses 2"],
            },
        ],
    },
)


# ---- tables.py
# ---- static facts -----------------------------------------------------------------------------
T_player: Final[int] = 0
P_ann: Final[int] = 0
P_bob: Final[int] = 1
PH_play: Final[int] = 0
TX_points: Final[int] = 0
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_points
    Text("points"),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (("phase", "phase play", "tests/lowering/scenario/game.yaml:9"),)
