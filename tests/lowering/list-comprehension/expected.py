# ---- engine.py
# ---- static facts -----------------------------------------------------------------------------
T_card: int = 0
T_player: int = 1
P_ann: int = 0
P_bob: int = 1
E_ace: int = 0
E_two: int = 1
PH_play: int = 0
IDS_card: tuple[str, ...] = ("ace", "two", "none")
F_card_value: tuple[int, ...] = (1, 2, 0)


# setup (tests/lowering/list-comprehension/game.yaml:2)
class Setup(Frame):
    __slots__ = ()
    NAME = "Setup"
    ORIGIN = "setup (tests/lowering/list-comprehension/game.yaml:2)"
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


# phase play (tests/lowering/list-comprehension/game.yaml:12)
class Ph_play(Frame):
    __slots__ = ("l_xs",)
    NAME = "Ph_play"
    ORIGIN = "phase play (tests/lowering/list-comprehension/game.yaml:12)"
    SLOTS = __slots__
    SLOT_TYPES = ("list[int]",)
    BLOCKS = 1
    l_xs: list[int]

    def __init__(self) -> None:
        self.pc = 0
        self.l_xs = []

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                self.l_xs = [(F_card_value[c_c] * 10) for c_c in list(range(2)) if (F_card_value[c_c] > 1)]
                self.l_xs = (self.l_xs + [F_card_value[c_c] for c_c in list(range(2))]) + [7]
                s.v_values = self.l_xs
                s.v_found = (20 in self.l_xs) and (self.l_xs[0] not in [1, 2])
                s.pop()
                return
            else:
                raise AssertionError(pc)


# the game's flow (phases) (tests/lowering/list-comprehension/game.yaml:2)
class Flow(Frame):
    __slots__ = ()
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/list-comprehension/game.yaml:2)"
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
                # phase play (tests/lowering/list-comprehension/game.yaml:12)
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
    ("phase", "phase play", "tests/lowering/list-comprehension/game.yaml:12"),
)
