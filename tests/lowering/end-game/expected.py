# ---- engine.py
# ---- static facts -----------------------------------------------------------------------------
T_player: int = 0
P_ann: int = 0
P_bob: int = 1
PH_play: int = 0


# setup (tests/lowering/end-game/game.yaml:2)
class Setup(Frame):
    __slots__ = ()
    NAME = "Setup"
    ORIGIN = "setup (tests/lowering/end-game/game.yaml:2)"
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


# phase play (tests/lowering/end-game/game.yaml:7)
class Ph_play(Frame):
    __slots__ = ()
    NAME = "Ph_play"
    ORIGIN = "phase play (tests/lowering/end-game/game.yaml:7)"
    SLOTS = __slots__
    SLOT_TYPES = ()
    BLOCKS = 1

    def __init__(self) -> None:
        self.pc = 0

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                if s.v_score[P_ann] > s.v_score[P_bob]:
                    # cov 0
                    s.end_game(P_ann, "the higher score")
                else:
                    # cov 1
                    pass
                s.end_game(-1, "")
                s.pop()
                return
            else:
                raise AssertionError(pc)


# the game's flow (phases) (tests/lowering/end-game/game.yaml:2)
class Flow(Frame):
    __slots__ = ()
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/end-game/game.yaml:2)"
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
                # phase play (tests/lowering/end-game/game.yaml:7)
                # cov 2
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
    ("branch", "if at line 9: then", "tests/lowering/end-game/game.yaml:9"),
    ("branch", "if at line 9: else (implicit)", "tests/lowering/end-game/game.yaml:9"),
    ("phase", "phase play", "tests/lowering/end-game/game.yaml:7"),
)
