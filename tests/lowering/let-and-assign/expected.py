# ---- engine.py
# ---- static facts -----------------------------------------------------------------------------
T_card: int = 0
T_player: int = 1
P_ann: int = 0
P_bob: int = 1
E_ace: int = 0
PH_play: int = 0
IDS_card: tuple[str, ...] = ("ace", "none")
F_card_value: tuple[int, ...] = (1, 0)


# setup (tests/lowering/let-and-assign/game.yaml:3)
class Setup(Frame):
    __slots__ = ()
    NAME = "Setup"
    ORIGIN = "setup (tests/lowering/let-and-assign/game.yaml:3)"
    SLOTS = __slots__
    SLOT_TYPES = ()
    BLOCKS = 1

    def __init__(self) -> None:
        self.pc = 0

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                s.pop()
                return
            else:
                raise AssertionError(pc)


# phase play (tests/lowering/let-and-assign/game.yaml:14)
class Ph_play(Frame):
    __slots__ = ("l_n", "l_best", "l_picked")
    NAME = "Ph_play"
    ORIGIN = "phase play (tests/lowering/let-and-assign/game.yaml:14)"
    SLOTS = __slots__
    SLOT_TYPES = ("int", "entity:card", "list[entity:card]")
    BLOCKS = 1
    l_n: int
    l_best: int
    l_picked: list[int]

    def __init__(self) -> None:
        self.pc = 0
        self.l_n = 0
        self.l_best = -1
        self.l_picked = []

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                self.l_n = 2
                self.l_best = -1
                self.l_picked = []
                self.l_n += 3
                self.l_n -= 1
                self.l_best = E_ace
                self.l_picked = [self.l_best]
                s.v_total = self.l_n
                s.v_score[P_ann] += self.l_n
                s.v_marks[s.ref(self.l_best)][P_bob] -= 1
                s.pop()
                return
            else:
                raise AssertionError(pc)


# the game's flow (phases) (tests/lowering/let-and-assign/game.yaml:3)
class Flow(Frame):
    __slots__ = ()
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/let-and-assign/game.yaml:3)"
    SLOTS = __slots__
    SLOT_TYPES = ()
    BLOCKS = 3

    def __init__(self) -> None:
        self.pc = 0

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                self.pc = 1
                s.push(Setup())
                return
            elif pc == 1:
                s.after_setup()
                # phase play (tests/lowering/let-and-assign/game.yaml:14)
                # cov 0
                self.pc = 2
                s.push(Ph_play())
                return
            elif pc == 2:
                s.expire(PH_play)
                s.pop()
                return
            else:
                raise AssertionError(pc)


INVARIANTS: tuple[tuple[str, str, Callable[[State], bool], str], ...] = ()

SCENARIOS: tuple[dict[str, Any], ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("phase", "phase play", "tests/lowering/let-and-assign/game.yaml:14"),
)
