# ---- engine.py
# phase play (tests/lowering/constant-domains/game.yaml:15)
class Phase_play(Frame):
    SLOTS = ("l_c", "l_p", "l_yes", "i_1", "k_2")
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/constant-domains/game.yaml:15)"
    PARAMS = 0
    SLOT_TYPES = ("entity:card", "player", "bool", "list[player]", "int")
    BLOCKS = 3
    l_c: int
    l_p: int
    l_yes: bool
    i_1: list[int]
    k_2: int

    def __init__(self) -> None:
        self.pc = 0
        self.l_c = -1
        self.l_p = -1
        self.l_yes = False
        self.i_1 = []
        self.k_2 = 0

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        f.l_c = self.l_c
        f.l_p = self.l_p
        f.l_yes = self.l_yes
        f.i_1 = self.i_1
        f.k_2 = self.k_2
        return f

    def to_data(self) -> list[object]:
        return ["Phase_play", self.pc, [self.l_c, self.l_p, self.l_yes, self.i_1, self.k_2]]

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                v_n = s.v_n
                q1_: list[int] = []
                for c_c in range(3):
                    if F_card_value[c_c] > v_n:
                        q1_.append(c_c)
                s.v_cards = q1_
                q2_ = 0
                for c_c in range(3):
                    if F_card_value[c_c] > 1:
                        q2_ += 1
                q3_ = 0
                for c_i in range(0, 3):
                    q3_ += c_i
                s.v_n = ((q2_ + 3) + s.num_players) + q3_
                q4_ = E_ace in range(3)
                if q4_:
                    q5_ = False
                    for c_p in range(s.num_players):
                        if c_p == P_ann:
                            q5_ = True
                            break
                    q4_ = q5_
                s.v_ok = q4_ and (s.v_n in range(1, 9))
                s.v_cards = [range(3)[(s.v_n - 1)]]
                for x_ in range(3):
                    self.l_c = x_
                    s.v_n += F_card_value[self.l_c]
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
                self.pc = 2
                s.decide(
                    self.l_p,
                    [1, 2],
                    1,
                    "l_yes",
                    (TX_yes,),
                    "tests/lowering/constant-domains/game.yaml:22",
                    2,
                    True,
                )
                return
            else:  # pc == 2
                # cov 1 (implicit else)
                if self.l_yes:
                    # cov 0
                    s.v_n += 1
                pc = 1
                continue


# the game's flow (phases) (tests/lowering/constant-domains/game.yaml:4)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/constant-domains/game.yaml:4)"
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
            # phase play (tests/lowering/constant-domains/game.yaml:15)
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
T_card: Final[int] = 0
T_player: Final[int] = 1
P_ann: Final[int] = 0
P_bob: Final[int] = 1
E_ace: Final[int] = 0
E_two: Final[int] = 1
E_three: Final[int] = 2
PH_play: Final[int] = 0
TX_yes: Final[int] = 0
IDS_card: tuple[str, ...] = ("ace", "two", "three", "none")
LABELS_card: tuple[str, ...] = ("ace", "two", "three")
F_card_value: tuple[int, ...] = (1, 2, 3, 0)
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_yes
    Text("yes?"),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("branch", "if at line 23: then", "tests/lowering/constant-domains/game.yaml:23"),
    ("branch", "if at line 23: else (implicit)", "tests/lowering/constant-domains/game.yaml:23"),
    ("phase", "phase play", "tests/lowering/constant-domains/game.yaml:15"),
)
