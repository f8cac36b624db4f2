# ---- engine.py
# ---- static facts -----------------------------------------------------------------------------
T_card: int = 0
T_player: int = 1
Z_pile: int = 0
P_ann: int = 0
P_bob: int = 1
E_ace: int = 0
E_two: int = 1
PH_play: int = 0
IDS_card: tuple[str, ...] = ("ace", "two", "none")
LABELS_card: tuple[str, ...] = ("ace", "two")
F_card_value: tuple[int, ...] = (1, 2, 0)
ENUM_use: tuple[str, ...] = ("keep", "burn")
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")


# setup (tests/lowering/choose-one/game.yaml:15)
def setup(s: State) -> None:
    # cov 0
    for l_c in range(2):
        s.move(T_card, l_c, Z_pile, True)


# phase play (tests/lowering/choose-one/game.yaml:17)
class Phase_play(Frame):
    __slots__ = ("l_c", "l_how", "d_1")
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/choose-one/game.yaml:17)"
    SLOTS = __slots__
    SLOT_TYPES = ("entity:card", "enum:use", "player")
    BLOCKS = 4
    l_c: int
    l_how: int
    d_1: int

    def __init__(self) -> None:
        self.pc = 0
        self.l_c = -1
        self.l_how = 0
        self.d_1 = -1

    def step(self, s: State) -> None:
        pc = self.pc
        if pc < 2:
            if pc == 0:
                self.pc = 1
                s.decide(
                    P_ann,
                    s.z.piles[Z_pile],
                    4,
                    "l_c",
                    "card to take",
                    at="tests/lowering/choose-one/game.yaml:19",
                )
            else:  # pc == 1
                self.pc = 2
                s.decide(
                    P_bob,
                    list(range(s.num_players)),
                    3,
                    "d_1",
                    "who goes first",
                    at="tests/lowering/choose-one/game.yaml:20",
                )
        elif pc == 2:
            s.v_first = self.d_1
            self.pc = 3
            s.decide(
                P_ann,
                [0, 1],
                5,
                "l_how",
                "what to do with " + s.label(T_card, self.l_c),
                at="tests/lowering/choose-one/game.yaml:21",
            )
        else:  # pc == 3
            if self.l_how == 1:
                # cov 1
                s.move(T_card, self.l_c, Z_pile, True)
            else:
                # cov 2
                pass
            s.pop()


# the game's flow (phases) (tests/lowering/choose-one/game.yaml:2)
class Flow(Frame):
    __slots__ = ()
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/choose-one/game.yaml:2)"
    SLOTS = __slots__
    SLOT_TYPES = ()
    BLOCKS = 2

    def __init__(self) -> None:
        self.pc = 0

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            setup(s)
            s.after_setup()
            # phase play (tests/lowering/choose-one/game.yaml:17)
            # cov 3
            self.pc = 1
            s.push(Phase_play())
        else:  # pc == 1
            s.expire(PH_play)
            s.pop()


# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "setup": "setup (tests/lowering/choose-one/game.yaml:15)",
}

INVARIANTS: tuple[tuple[str, str, Callable[[State], bool], str], ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("setup", "setup", "tests/lowering/choose-one/game.yaml:15"),
    ("branch", "if at line 22: then", "tests/lowering/choose-one/game.yaml:22"),
    ("branch", "if at line 22: else (implicit)", "tests/lowering/choose-one/game.yaml:22"),
    ("phase", "phase play", "tests/lowering/choose-one/game.yaml:17"),
)


# ---- scenarios.py
# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {}

# Each scenario and step says only what it needs; rulewright/scenarios.py fills in the rest.
SCENARIOS: tuple[dict[str, Any], ...] = ()
