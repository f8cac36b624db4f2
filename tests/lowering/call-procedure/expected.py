# ---- engine.py
# ---- static facts -----------------------------------------------------------------------------
T_player: int = 0
P_ann: int = 0
P_bob: int = 1
PH_play: int = 0


# procedure gain (tests/lowering/call-procedure/game.yaml:7)
def p_gain(s: State, l_p: int, l_n: int) -> None:
    # cov 0
    if l_n <= 0:
        # cov 1
        return
    else:
        # cov 2
        pass
    s.v_score[s.ref(l_p)] += l_n


# setup (tests/lowering/call-procedure/game.yaml:2)
class Setup(Frame):
    __slots__ = ()
    NAME = "Setup"
    ORIGIN = "setup (tests/lowering/call-procedure/game.yaml:2)"
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


# phase play (tests/lowering/call-procedure/game.yaml:13)
class Ph_play(Frame):
    __slots__ = ()
    NAME = "Ph_play"
    ORIGIN = "phase play (tests/lowering/call-procedure/game.yaml:13)"
    SLOTS = __slots__
    SLOT_TYPES = ()
    BLOCKS = 1

    def __init__(self) -> None:
        self.pc = 0

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                p_gain(s, P_ann, 2)
                p_gain(s, P_bob, s.v_score[P_ann])
                s.pop()
                return
            else:
                raise AssertionError(pc)


# the game's flow (phases) (tests/lowering/call-procedure/game.yaml:2)
class Flow(Frame):
    __slots__ = ()
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/call-procedure/game.yaml:2)"
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
                # phase play (tests/lowering/call-procedure/game.yaml:13)
                # cov 3
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
    ("procedure", "procedure gain", "tests/lowering/call-procedure/game.yaml:7"),
    ("branch", "if at line 10: then", "tests/lowering/call-procedure/game.yaml:10"),
    ("branch", "if at line 10: else (implicit)", "tests/lowering/call-procedure/game.yaml:10"),
    ("phase", "phase play", "tests/lowering/call-procedure/game.yaml:13"),
)
