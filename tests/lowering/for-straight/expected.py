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


# setup (tests/lowering/for-straight/game.yaml:2)
class Setup(Frame):
    __slots__ = ()
    NAME = "Setup"
    ORIGIN = "setup (tests/lowering/for-straight/game.yaml:2)"
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


# phase play (tests/lowering/for-straight/game.yaml:11)
class Ph_play(Frame):
    __slots__ = ("l_p", "l_c")
    NAME = "Ph_play"
    ORIGIN = "phase play (tests/lowering/for-straight/game.yaml:11)"
    SLOTS = __slots__
    SLOT_TYPES = ("player", "entity:card")
    BLOCKS = 1
    l_p: int
    l_c: int

    def __init__(self) -> None:
        self.pc = 0
        self.l_p = -1
        self.l_c = -1

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                for x_ in list(range(s.num_players)):
                    self.l_p = x_
                    s.v_score[s.ref(self.l_p)] += 1
                for x_ in list(range(2)):
                    self.l_c = x_
                    if not (F_card_value[self.l_c] > s.v_score[P_ann]):
                        continue
                    s.v_score[P_ann] += F_card_value[self.l_c]
                s.pop()
                return
            else:
                raise AssertionError(pc)


# the game's flow (phases) (tests/lowering/for-straight/game.yaml:2)
class Flow(Frame):
    __slots__ = ()
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/for-straight/game.yaml:2)"
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
                # phase play (tests/lowering/for-straight/game.yaml:11)
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
    ("phase", "phase play", "tests/lowering/for-straight/game.yaml:11"),
)
