# ---- engine.py
# phase play (tests/lowering/for-in-frame/game.yaml:8)
class Phase_play(Frame):
    SLOTS = ("l_p", "l_vote", "i_1", "k_2")
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/for-in-frame/game.yaml:8)"
    PARAMS = 0
    SLOT_TYPES = ("player", "bool", "list[player]", "int")
    BLOCKS = 3
    l_p: int
    l_vote: bool
    i_1: list[int]
    k_2: int

    def __init__(self) -> None:
        self.pc = 0
        self.l_p = -1
        self.l_vote = False
        self.i_1 = []
        self.k_2 = 0

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        f.l_p = self.l_p
        f.l_vote = self.l_vote
        f.i_1 = self.i_1
        f.k_2 = self.k_2
        return f

    def to_data(self) -> list[object]:
        return ["Phase_play", self.pc, [self.l_p, self.l_vote, self.i_1, self.k_2]]

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                self.i_1 = list(range(s.num_players))
                self.k_2 = 0
                pc = 1
                continue
            elif pc == 1:
                if self.k_2 >= len(self.i_1):
                    s.stack.pop()
                    return
                self.l_p = self.i_1[self.k_2]
                self.k_2 += 1
                if not (s.v_yes_votes < 2):
                    pc = 1
                    continue
                self.pc = 2
                s.decide(
                    self.l_p,
                    [1, 2],
                    1,
                    "l_vote",
                    (TX_vote_yes,),
                    "tests/lowering/for-in-frame/game.yaml:11",
                    2,
                    True,
                )
                return
            else:  # pc == 2
                # cov 1 (implicit else)
                if self.l_vote:
                    # cov 0
                    s.v_yes_votes += 1
                pc = 1
                continue


# the game's flow (phases) (tests/lowering/for-in-frame/game.yaml:3)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/for-in-frame/game.yaml:3)"
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
            # phase play (tests/lowering/for-in-frame/game.yaml:8)
            # cov 2
            self.pc = 1
            s.stack.append(Phase_play())
        else:  # pc == 1
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
TX_vote_yes: Final[int] = 0
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_vote_yes
    Text("vote yes?"),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("branch", "if at line 12: then", "tests/lowering/for-in-frame/game.yaml:12"),
    ("branch", "if at line 12: else (implicit)", "tests/lowering/for-in-frame/game.yaml:12"),
    ("phase", "phase play", "tests/lowering/for-in-frame/game.yaml:8"),
)
