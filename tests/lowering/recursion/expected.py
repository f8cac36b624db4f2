# ---- engine.py
# function steps (tests/lowering/recursion/game.yaml:8)
def f_steps(s: State, l_n: int) -> int:
    # cov 0
    s.enter("function steps (tests/lowering/recursion/game.yaml:8)")
    try:
        return 0 if (l_n <= 0) else (1 + f_steps(s, (l_n - 1)))
    finally:
        s.depth -= 1


# function twice (tests/lowering/recursion/game.yaml:12)
def f_twice(s: State, l_n: int) -> int:
    # cov 1
    return f_steps(s, l_n) * 2


# procedure ping (tests/lowering/recursion/game.yaml:17)
def p_ping(s: State, l_n: int) -> None:
    # cov 2
    s.enter("procedure ping (tests/lowering/recursion/game.yaml:17)")
    try:
        s.v_total += 1
        # cov 4 (implicit else)
        if l_n > 0:
            # cov 3
            p_pong(s, (l_n - 1))
    finally:
        s.depth -= 1


# procedure pong (tests/lowering/recursion/game.yaml:22)
def p_pong(s: State, l_n: int) -> None:
    # cov 5
    # cov 7 (implicit else)
    s.enter("procedure pong (tests/lowering/recursion/game.yaml:22)")
    try:
        if l_n > 0:
            # cov 6
            p_ping(s, (l_n - 1))
    finally:
        s.depth -= 1


# phase play (tests/lowering/recursion/game.yaml:27)
def ph_play(s: State) -> None:
    p_ping(s, f_twice(s, 2))
    s.end_game(-1, "")


# the game's flow (phases) (tests/lowering/recursion/game.yaml:3)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/recursion/game.yaml:3)"
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
        # phase play (tests/lowering/recursion/game.yaml:27)
        # cov 8
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
    "f_steps": "function steps (tests/lowering/recursion/game.yaml:8)",
    "f_twice": "function twice (tests/lowering/recursion/game.yaml:12)",
    "p_ping": "procedure ping (tests/lowering/recursion/game.yaml:17)",
    "p_pong": "procedure pong (tests/lowering/recursion/game.yaml:22)",
    "ph_play": "phase play (tests/lowering/recursion/game.yaml:27)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("function", "function steps", "tests/lowering/recursion/game.yaml:8"),
    ("function", "function twice", "tests/lowering/recursion/game.yaml:12"),
    ("procedure", "procedure ping", "tests/lowering/recursion/game.yaml:17"),
    ("branch", "if at line 21: then", "tests/lowering/recursion/game.yaml:21"),
    ("branch", "if at line 21: else (implicit)", "tests/lowering/recursion/game.yaml:21"),
    ("procedure", "procedure pong", "tests/lowering/recursion/game.yaml:22"),
    ("branch", "if at line 25: then", "tests/lowering/recursion/game.yaml:25"),
    ("branch", "if at line 25: else (implicit)", "tests/lowering/recursion/game.yaml:25"),
    ("phase", "phase play", "tests/lowering/recursion/game.yaml:27"),
)
