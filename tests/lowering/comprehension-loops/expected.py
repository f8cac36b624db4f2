# ---- engine.py
# function linked (tests/lowering/comprehension-loops/game.yaml:21)
def f_linked(s: State) -> list[int]:
    # cov 0
    v_n = s.v_n
    q1_: list[int] = []
    for c_c in range(3):
        q2_ = F_card_value[c_c] > v_n
        if not q2_:
            q3_ = False
            for c_d in F_card_next[c_c]:
                if F_card_value[c_d] > v_n:
                    q3_ = True
                    break
            q2_ = q3_
        if q2_:
            q1_.append(c_c)
    return q1_


# function guarded (tests/lowering/comprehension-loops/game.yaml:25)
def f_guarded(s: State) -> bool:
    # cov 1
    v_n = s.v_n
    q1_ = s.v_n != 0
    if q1_:
        q2_ = True
        for c_c in range(3):
            if not (s.div(F_card_value[c_c], v_n) < 3):
                q2_ = False
                break
        q1_ = q2_
    return q1_


# function total (tests/lowering/comprehension-loops/game.yaml:29)
def f_total(s: State) -> int:
    # cov 2
    v_n = s.v_n
    q1_ = 0
    for c_c in range(3):
        if F_card_value[c_c] > v_n:
            q1_ += F_card_value[c_c]
    return s.v_score[P_ann] + q1_


# function either (tests/lowering/comprehension-loops/game.yaml:32)
def f_either(s: State) -> int:
    # cov 3
    v_n = s.v_n
    q1_: int
    if s.v_n > 1:
        q2_ = 0
        for c_c in range(3):
            if F_card_value[c_c] > v_n:
                q2_ += 1
        q1_ = q2_
    else:
        q3_ = 0
        for c_c in range(3):
            q3_ += F_card_value[c_c]
        q1_ = q3_
    return q1_


# function shadowed (tests/lowering/comprehension-loops/game.yaml:35)
def f_shadowed(s: State) -> bool:
    # cov 4
    v_n = s.v_n
    q1_ = False
    for c_c in range(3):
        q2_ = F_card_value[c_c] > v_n
        if q2_:
            q2_ = any(True for c_c in F_card_next[c_c] if (F_card_value[c_c] == v_n))
        if q2_:
            q1_ = True
            break
    return q1_


# procedure settle (tests/lowering/comprehension-loops/game.yaml:40)
def p_settle(s: State) -> None:
    # cov 5
    while True:
        v_n = s.v_n
        q1_ = 0
        for c_c in range(3):
            if F_card_value[c_c] > v_n:
                q1_ += 1
        if not (q1_ > 1):
            break
        s.tick("the while loop at tests/lowering/comprehension-loops/game.yaml:42:7")
        s.v_n += 1


# phase play (tests/lowering/comprehension-loops/game.yaml:46)
class Phase_play(Frame):
    SLOTS = ("l_pick", "l_limit", "l_again")
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/comprehension-loops/game.yaml:46)"
    PARAMS = 0
    SLOT_TYPES = ("entity:card", "int", "entity:card")
    BLOCKS = 4
    l_pick: int
    l_limit: int
    l_again: int

    def __init__(self) -> None:
        self.pc = 0
        self.l_pick = -1
        self.l_limit = 0
        self.l_again = -1

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        f.l_pick = self.l_pick
        f.l_limit = self.l_limit
        f.l_again = self.l_again
        return f

    def to_data(self) -> list[object]:
        return ["Phase_play", self.pc, [self.l_pick, self.l_limit, self.l_again]]

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc < 2:
                if pc == 0:
                    v_n = s.v_n
                    q1_ = False
                    for c_c in range(3):
                        if F_card_value[c_c] == v_n:
                            q1_ = True
                            break
                    # cov 7 (implicit else)
                    if q1_:
                        # cov 6
                        s.v_score[P_ann] = f_total(s)
                    self.pc = 1
                    v_n = s.v_n
                    q2_: list[int] = []
                    for c_c in range(3):
                        q3_ = False
                        for c_d in F_card_next[c_c]:
                            if F_card_value[c_d] >= v_n:
                                q3_ = True
                                break
                        if q3_:
                            q2_.append(26 + c_c)
                    s.decide(
                        P_ann,
                        q2_,
                        4,
                        "l_pick",
                        (TX_pick,),
                        "tests/lowering/comprehension-loops/game.yaml:51",
                        2,
                        True,
                    )
                    return
                else:  # pc == 1
                    s.v_score[P_bob] = F_card_value[self.l_pick]
                    self.l_limit = F_card_value[self.l_pick]
                    l_limit = self.l_limit
                    q4_ = 0
                    for c_c in range(3):
                        q5_ = F_card_value[c_c] >= l_limit
                        if q5_:
                            q6_ = False
                            for c_d in F_card_next[c_c]:
                                if F_card_value[c_d] > l_limit:
                                    q6_ = True
                                    break
                            q5_ = q6_
                        if q5_:
                            q4_ += 1
                    s.v_n = q4_
                    pc = 2
                    continue
            elif pc == 2:
                s.tick("the while loop at tests/lowering/comprehension-loops/game.yaml:55:7")
                v_n = s.v_n
                q7_ = False
                for c_c in range(3):
                    if F_card_value[c_c] == v_n:
                        q7_ = True
                        break
                if not q7_:
                    p_settle(s)
                    s.stack.pop()
                    return
                self.pc = 3
                v_n = s.v_n
                q8_: list[int] = []
                for c_c in range(3):
                    if F_card_value[c_c] > v_n:
                        q8_.append(26 + c_c)
                if s.decide(
                    P_bob,
                    q8_,
                    4,
                    "l_again",
                    (TX_again,),
                    "tests/lowering/comprehension-loops/game.yaml:56",
                    2,
                    True,
                    optional=True,
                ):
                    return
                self.l_again = -1
                pc = 3
                continue
            else:  # pc == 3
                s.v_n = 0 if (self.l_again == -1) else F_card_value[self.l_again]
                pc = 2
                continue


# the game's flow (phases) (tests/lowering/comprehension-loops/game.yaml:8)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/comprehension-loops/game.yaml:8)"
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
            # phase play (tests/lowering/comprehension-loops/game.yaml:46)
            # cov 8
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
TX_pick: Final[int] = 0
TX_again: Final[int] = 1
IDS_card: tuple[str, ...] = ("ace", "two", "three", "none")
LABELS_card: tuple[str, ...] = ("ace", "two", "three")
F_card_value: tuple[int, ...] = (1, 2, 3, 0)
F_card_next: tuple[list[int], ...] = ([1], [0, 2], [], [])
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "f_linked": "function linked (tests/lowering/comprehension-loops/game.yaml:21)",
    "f_guarded": "function guarded (tests/lowering/comprehension-loops/game.yaml:25)",
    "f_total": "function total (tests/lowering/comprehension-loops/game.yaml:29)",
    "f_either": "function either (tests/lowering/comprehension-loops/game.yaml:32)",
    "f_shadowed": "function shadowed (tests/lowering/comprehension-loops/game.yaml:35)",
    "p_settle": "procedure settle (tests/lowering/comprehension-loops/game.yaml:40)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_pick
    Text("pick"),
    # TX_again
    Text("again"),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("function", "function linked", "tests/lowering/comprehension-loops/game.yaml:21"),
    ("function", "function guarded", "tests/lowering/comprehension-loops/game.yaml:25"),
    ("function", "function total", "tests/lowering/comprehension-loops/game.yaml:29"),
    ("function", "function either", "tests/lowering/comprehension-loops/game.yaml:32"),
    ("function", "function shadowed", "tests/lowering/comprehension-loops/game.yaml:35"),
    ("procedure", "procedure settle", "tests/lowering/comprehension-loops/game.yaml:40"),
    ("branch", "if at line 48: then", "tests/lowering/comprehension-loops/game.yaml:48"),
    ("branch", "if at line 48: else (implicit)", "tests/lowering/comprehension-loops/game.yaml:48"),
    ("phase", "phase play", "tests/lowering/comprehension-loops/game.yaml:46"),
)
