# ---- engine.py
# procedure bid (tests/lowering/frame-dispatch/game.yaml:10)
class Proc_bid(Frame):
    SLOTS = ("l_p", "d_1")
    __slots__ = SLOTS
    NAME = "Proc_bid"
    ORIGIN = "procedure bid (tests/lowering/frame-dispatch/game.yaml:10)"
    PARAMS = 1
    SLOT_TYPES = ("player", "int")
    BLOCKS = 2
    l_p: int
    d_1: int

    def __init__(self, l_p: int) -> None:
        self.pc = 0
        self.l_p = l_p
        self.d_1 = -1

    def copy(self) -> Proc_bid:
        f = Proc_bid(self.l_p)
        f.pc = self.pc
        f.d_1 = self.d_1
        return f

    def to_data(self) -> list[object]:
        return ["Proc_bid", self.pc, [self.l_p, self.d_1]]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            # cov 0
            self.pc = 1
            s.decide(
                self.l_p,
                range(0, 2 + 1),
                2,
                "d_1",
                (TX_your_bid,),
                "tests/lowering/frame-dispatch/game.yaml:13",
            )
        else:  # pc == 1
            s.v_score[s.ref(self.l_p)] += self.d_1
            s.stack.pop()


# phase play (tests/lowering/frame-dispatch/game.yaml:15)
class Phase_play(Frame):
    SLOTS = ("l_go", "l_n", "l_more", "l_again", "r_1")
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/frame-dispatch/game.yaml:15)"
    PARAMS = 0
    SLOT_TYPES = ("bool", "int", "bool", "bool", "int")
    BLOCKS = 9
    l_go: bool
    l_n: int
    l_more: bool
    l_again: bool
    r_1: int

    def __init__(self) -> None:
        self.pc = 0
        self.l_go = False
        self.l_n = 0
        self.l_more = False
        self.l_again = False
        self.r_1 = 0

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        f.l_go = self.l_go
        f.l_n = self.l_n
        f.l_more = self.l_more
        f.l_again = self.l_again
        f.r_1 = self.r_1
        return f

    def to_data(self) -> list[object]:
        return ["Phase_play", self.pc, [self.l_go, self.l_n, self.l_more, self.l_again, self.r_1]]

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc < 4:
                if pc < 2:
                    if pc == 0:
                        self.pc = 1
                        s.decide(
                            P_ann,
                            [1, 2],
                            1,
                            "l_go",
                            (TX_play,),
                            "tests/lowering/frame-dispatch/game.yaml:17",
                            2,
                            True,
                        )
                        return
                    else:  # pc == 1
                        # cov 2 (implicit else)
                        if not self.l_go:
                            # cov 1
                            s.stack.pop()
                            return
                        self.pc = 2
                        s.stack.append(Proc_bid(P_ann))
                        return
                elif pc == 2:
                    if s.v_score[P_ann] > 1:
                        # cov 3
                        self.pc = 3
                        s.stack.append(Proc_bid(P_bob))
                        return
                    # cov 4
                    s.v_score[P_bob] += 1
                    pc = 3
                    continue
                else:  # pc == 3
                    self.pc = 4
                    s.decide(
                        P_bob,
                        range(1, 3 + 1),
                        2,
                        "l_n",
                        (TX_rounds,),
                        "tests/lowering/frame-dispatch/game.yaml:21",
                    )
                    return
            elif pc < 6:
                if pc == 4:
                    self.r_1 = self.l_n
                    pc = 5
                    continue
                else:  # pc == 5
                    s.tick("the repeat loop at tests/lowering/frame-dispatch/game.yaml:22:7")
                    if self.r_1 <= 0:
                        self.pc = 7
                        s.decide(
                            P_bob,
                            [1, 2],
                            1,
                            "l_again",
                            (TX_again,),
                            "tests/lowering/frame-dispatch/game.yaml:26",
                            2,
                            True,
                        )
                        return
                    self.r_1 -= 1
                    self.pc = 6
                    s.decide(
                        P_ann,
                        [1, 2],
                        1,
                        "l_more",
                        (TX_more,),
                        "tests/lowering/frame-dispatch/game.yaml:23",
                        2,
                        True,
                    )
                    return
            elif pc == 6:
                # cov 6 (implicit else)
                if self.l_more:
                    # cov 5
                    s.v_score[P_ann] += 1
                pc = 5
                continue
            elif pc == 7:
                if self.l_again:
                    # cov 7
                    self.pc = 8
                    s.stack.append(Proc_bid(P_bob))
                    return
                # cov 8
                pc = 8
                continue
            else:  # pc == 8
                s.v_score[P_bob] += 1
                s.stack.pop()
                return


# the game's flow (phases) (tests/lowering/frame-dispatch/game.yaml:5)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/frame-dispatch/game.yaml:5)"
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
            # phase play (tests/lowering/frame-dispatch/game.yaml:15)
            # cov 9
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
TX_your_bid: Final[int] = 0
TX_play: Final[int] = 1
TX_rounds: Final[int] = 2
TX_more: Final[int] = 3
TX_again: Final[int] = 4
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_your_bid
    Text("your bid"),
    # TX_play
    Text("play?"),
    # TX_rounds
    Text("rounds"),
    # TX_more
    Text("more?"),
    # TX_again
    Text("again?"),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("procedure", "procedure bid", "tests/lowering/frame-dispatch/game.yaml:10"),
    ("branch", "if at line 18: then", "tests/lowering/frame-dispatch/game.yaml:18"),
    ("branch", "if at line 18: else (implicit)", "tests/lowering/frame-dispatch/game.yaml:18"),
    ("branch", "if at line 20: then", "tests/lowering/frame-dispatch/game.yaml:20"),
    ("branch", "if at line 20: else", "tests/lowering/frame-dispatch/game.yaml:20"),
    ("branch", "if at line 24: then", "tests/lowering/frame-dispatch/game.yaml:24"),
    ("branch", "if at line 24: else (implicit)", "tests/lowering/frame-dispatch/game.yaml:24"),
    ("branch", "if at line 27: then", "tests/lowering/frame-dispatch/game.yaml:27"),
    ("branch", "if at line 27: else (implicit)", "tests/lowering/frame-dispatch/game.yaml:27"),
    ("phase", "phase play", "tests/lowering/frame-dispatch/game.yaml:15"),
)
