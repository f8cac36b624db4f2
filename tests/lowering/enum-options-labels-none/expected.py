# ---- engine.py
# phase play (tests/lowering/enum-options-labels-none/game.yaml:15)
class Phase_play(Frame):
    SLOTS = ("l_u",)
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/enum-options-labels-none/game.yaml:15)"
    PARAMS = 0
    SLOT_TYPES = ("enum:use",)
    BLOCKS = 2
    l_u: int

    def __init__(self) -> None:
        self.pc = 0
        self.l_u = 0

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        f.l_u = self.l_u
        return f

    def to_data(self) -> list[object]:
        return ["Phase_play", self.pc, [self.l_u]]

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                self.pc = 1
                if s.decide(
                    P_ann,
                    [0, 1],
                    5,
                    "l_u",
                    (TX_which_first,),
                    "tests/lowering/enum-options-labels-none/game.yaml:17",
                    2,
                    optional=True,
                ):
                    return
                self.l_u = -1
                pc = 1
                continue
            else:  # pc == 1
                # cov 1 (implicit else)
                if (self.l_u != -1) or (s.o_pace == 1):
                    # cov 0
                    s.v_tally[s.ref(self.l_u)] += 1
                s.say(TX_blank, self.l_u, s.enum_label(ENUM_use, self.l_u), s.v_tally[self.l_u])
                s.stack.pop()
                return


# the game's flow (phases) (tests/lowering/enum-options-labels-none/game.yaml:5)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/enum-options-labels-none/game.yaml:5)"
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
            # phase play (tests/lowering/enum-options-labels-none/game.yaml:15)
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
TX_which_first: Final[int] = 0
TX_blank: Final[int] = 1
ENUM_speed: tuple[str, ...] = ("brisk", "slow")
ENUM_use: tuple[str, ...] = ("Operations first", "Event first")
ENUMIDS_use: tuple[str, ...] = ("operations_first", "event_first")
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_which_first
    Text("which first"),
    # TX_blank
    Text("{}: {} {}", ("enum:use", "str", "int")),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("branch", "if at line 18: then", "tests/lowering/enum-options-labels-none/game.yaml:18"),
    ("branch", "if at line 18: else (implicit)", "tests/lowering/enum-options-labels-none/game.yaml:18"),
    ("phase", "phase play", "tests/lowering/enum-options-labels-none/game.yaml:15"),
)
