# ---- engine.py
# phase rounds (tests/lowering/phases/game.yaml:9)
def ph_rounds(s: State) -> None:
    s.say(TX_round, s.v_round)


# phase turns (tests/lowering/phases/game.yaml:14)
def ph_turns(s: State) -> None:
    s.say(TX_turn, s.v_turn)


# the game's flow (phases) (tests/lowering/phases/game.yaml:3)
class Flow(Frame):
    SLOTS = ("r_1",)
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/phases/game.yaml:3)"
    PARAMS = 0
    SLOT_TYPES = ("int",)
    BLOCKS = 3
    r_1: int

    def __init__(self) -> None:
        self.pc = 0
        self.r_1 = 0

    def copy(self) -> Flow:
        f = Flow()
        f.pc = self.pc
        f.r_1 = self.r_1
        return f

    def to_data(self) -> list[object]:
        return ["Flow", self.pc, [self.r_1]]

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                s.after_setup()
                self.r_1 = 2
                s.v_round = 0
                pc = 1
                continue
            elif pc == 1:
                s.tick("the repeat of phase 'rounds' at tests/lowering/phases/game.yaml:9:11")
                if self.r_1 <= 0:
                    s.stack.pop()
                    return
                self.r_1 -= 1
                s.v_round += 1
                # phase rounds (tests/lowering/phases/game.yaml:9)
                # cov 0
                ph_rounds(s)
                s.v_turn = 0
                pc = 2
                continue
            else:  # pc == 2
                s.tick("the while of phase 'turns' at tests/lowering/phases/game.yaml:14:15")
                if not (s.v_turn < 2):
                    pc = 1
                    continue
                s.v_turn += 1
                # phase turns (tests/lowering/phases/game.yaml:14)
                # cov 1
                ph_turns(s)
                pc = 2
                continue


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
PH_rounds: Final[int] = 0
PH_turns: Final[int] = 1
TX_round: Final[int] = 0
TX_turn: Final[int] = 1
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "ph_rounds": "phase rounds (tests/lowering/phases/game.yaml:9)",
    "ph_turns": "phase turns (tests/lowering/phases/game.yaml:14)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_round
    Text("round {}", ("int",)),
    # TX_turn
    Text("turn {}", ("int",)),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("phase", "phase rounds", "tests/lowering/phases/game.yaml:9"),
    ("phase", "phase turns", "tests/lowering/phases/game.yaml:14"),
)
