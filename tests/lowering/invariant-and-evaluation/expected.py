# ---- engine.py
# ---- static facts -----------------------------------------------------------------------------
T_player: int = 0
P_ann: int = 0
P_bob: int = 1
PH_play: int = 0


# invariant scores_small (tests/lowering/invariant-and-evaluation/game.yaml:7)
def inv_scores_small(s: State) -> bool:
    return all((s.v_score[c_p] <= 3) for c_p in list(range(s.num_players)))


# evaluation (tests/lowering/invariant-and-evaluation/game.yaml:10)
def evaluate(s: State, l_p: int) -> int:
    return s.v_score[l_p] - s.v_score[(1 - l_p)]


# setup (tests/lowering/invariant-and-evaluation/game.yaml:2)
class Setup(Frame):
    __slots__ = ()
    NAME = "Setup"
    ORIGIN = "setup (tests/lowering/invariant-and-evaluation/game.yaml:2)"
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


# phase play (tests/lowering/invariant-and-evaluation/game.yaml:12)
class Ph_play(Frame):
    __slots__ = ("d_1",)
    NAME = "Ph_play"
    ORIGIN = "phase play (tests/lowering/invariant-and-evaluation/game.yaml:12)"
    SLOTS = __slots__
    SLOT_TYPES = ("int",)
    BLOCKS = 2
    d_1: int

    def __init__(self) -> None:
        self.pc = 0
        self.d_1 = -1

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                self.pc = 1
                s.decide(
                    P_ann,
                    range(0, 3 + 1),
                    2,
                    "d_1",
                    "points",
                    at="tests/lowering/invariant-and-evaluation/game.yaml:14",
                )
                return
            elif pc == 1:
                s.v_score[P_ann] += self.d_1
                s.pop()
                return
            else:
                raise AssertionError(pc)


# the game's flow (phases) (tests/lowering/invariant-and-evaluation/game.yaml:2)
class Flow(Frame):
    __slots__ = ()
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/invariant-and-evaluation/game.yaml:2)"
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
                # phase play (tests/lowering/invariant-and-evaluation/game.yaml:12)
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


INVARIANTS: tuple[tuple[str, str, Callable[[State], bool], str], ...] = (
    ("scores_small", "nobody scores more than 3", inv_scores_small, "all(p in players where score[p] <= 3)"),
)

SCENARIOS: tuple[dict[str, Any], ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("phase", "phase play", "tests/lowering/invariant-and-evaluation/game.yaml:12"),
)
