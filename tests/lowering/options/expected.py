# ---- engine.py
# ---- static facts -----------------------------------------------------------------------------
T_player: int = 0
P_ann: int = 0
P_bob: int = 1
P_cat: int = 2
PH_play: int = 0


# setup (tests/lowering/options/game.yaml:3)
class Setup(Frame):
    __slots__ = ()
    NAME = "Setup"
    ORIGIN = "setup (tests/lowering/options/game.yaml:3)"
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


# phase play (tests/lowering/options/game.yaml:15)
class Ph_play(Frame):
    __slots__ = ("l_p",)
    NAME = "Ph_play"
    ORIGIN = "phase play (tests/lowering/options/game.yaml:15)"
    SLOTS = __slots__
    SLOT_TYPES = ("player",)
    BLOCKS = 1
    l_p: int

    def __init__(self) -> None:
        self.pc = 0
        self.l_p = -1

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                for x_ in list(range(s.num_players)):
                    self.l_p = x_
                    s.v_score[s.ref(self.l_p)] = 3 if s.o_fast else s.o_seats
                s.v_score[s.ref(s.opponent(P_ann))] += 1
                s.pop()
                return
            else:
                raise AssertionError(pc)


# the game's flow (phases) (tests/lowering/options/game.yaml:3)
class Flow(Frame):
    __slots__ = ()
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/options/game.yaml:3)"
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
                # phase play (tests/lowering/options/game.yaml:15)
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
COVERAGE: tuple[tuple[str, str, str], ...] = (("phase", "phase play", "tests/lowering/options/game.yaml:15"),)
