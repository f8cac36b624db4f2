# ---- engine.py
# ---- static facts -----------------------------------------------------------------------------
T_player: int = 0
P_ann: int = 0
P_bob: int = 1
PH_rounds: int = 0
PH_turns: int = 1


# setup (tests/lowering/phases/game.yaml:3)
class Setup(Frame):
    __slots__ = ()
    NAME = "Setup"
    ORIGIN = "setup (tests/lowering/phases/game.yaml:3)"
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


# phase rounds (tests/lowering/phases/game.yaml:9)
class Ph_rounds(Frame):
    __slots__ = ()
    NAME = "Ph_rounds"
    ORIGIN = "phase rounds (tests/lowering/phases/game.yaml:9)"
    SLOTS = __slots__
    SLOT_TYPES = ()
    BLOCKS = 1

    def __init__(self) -> None:
        self.pc = 0

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                s.say("round " + str(s.v_round))
                s.pop()
                return
            else:
                raise AssertionError(pc)


# phase turns (tests/lowering/phases/game.yaml:14)
class Ph_turns(Frame):
    __slots__ = ()
    NAME = "Ph_turns"
    ORIGIN = "phase turns (tests/lowering/phases/game.yaml:14)"
    SLOTS = __slots__
    SLOT_TYPES = ()
    BLOCKS = 1

    def __init__(self) -> None:
        self.pc = 0

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                s.say("turn " + str(s.v_turn))
                s.pop()
                return
            else:
                raise AssertionError(pc)


# the game's flow (phases) (tests/lowering/phases/game.yaml:3)
class Flow(Frame):
    __slots__ = ("r_1",)
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/phases/game.yaml:3)"
    SLOTS = __slots__
    SLOT_TYPES = ("int",)
    BLOCKS = 10
    r_1: int

    def __init__(self) -> None:
        self.pc = 0
        self.r_1 = 0

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                self.pc = 1
                s.push(Setup())
                return
            elif pc == 1:
                s.after_setup()
                self.r_1 = 2
                s.v_round = 0
                pc = 2
                continue
            elif pc == 2:
                s.tick("the repeat of phase 'rounds' at tests/lowering/phases/game.yaml:9:11")
                if self.r_1 <= 0:
                    pc = 4
                    continue
                self.r_1 -= 1
                s.v_round += 1
                pc = 3
                continue
            elif pc == 3:
                # phase rounds (tests/lowering/phases/game.yaml:9)
                # cov 0
                self.pc = 5
                s.push(Ph_rounds())
                return
            elif pc == 4:
                s.pop()
                return
            elif pc == 5:
                s.v_turn = 0
                pc = 6
                continue
            elif pc == 6:
                s.tick("the while of phase 'turns' at tests/lowering/phases/game.yaml:14:15")
                if not (s.v_turn < 2):
                    pc = 8
                    continue
                s.v_turn += 1
                pc = 7
                continue
            elif pc == 7:
                # phase turns (tests/lowering/phases/game.yaml:14)
                # cov 1
                self.pc = 9
                s.push(Ph_turns())
                return
            elif pc == 8:
                s.expire(PH_rounds)
                pc = 2
                continue
            elif pc == 9:
                s.expire(PH_turns)
                pc = 6
                continue
            else:
                raise AssertionError(pc)


INVARIANTS: tuple[tuple[str, str, Callable[[State], bool], str], ...] = ()

SCENARIOS: tuple[dict[str, Any], ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("phase", "phase rounds", "tests/lowering/phases/game.yaml:9"),
    ("phase", "phase turns", "tests/lowering/phases/game.yaml:14"),
)
