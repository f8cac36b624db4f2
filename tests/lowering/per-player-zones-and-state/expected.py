# ---- engine.py
# ---- static facts -----------------------------------------------------------------------------
T_card: int = 0
T_player: int = 1
Z_hand: int = 0
Z_shown: int = 2
P_ann: int = 0
P_bob: int = 1
E_ace: int = 0
E_two: int = 1
PH_play: int = 0
IDS_card: tuple[str, ...] = ("ace", "two", "none")
F_card_value: tuple[int, ...] = (1, 2, 0)


# setup (tests/lowering/per-player-zones-and-state/game.yaml:15)
class Setup(Frame):
    __slots__ = ()
    NAME = "Setup"
    ORIGIN = "setup (tests/lowering/per-player-zones-and-state/game.yaml:15)"
    SLOTS = __slots__
    SLOT_TYPES = ()
    BLOCKS = 1

    def __init__(self) -> None:
        self.pc = 0

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                # cov 0
                s.move(T_card, E_ace, (Z_hand + P_ann), True)
                s.move(T_card, E_two, (Z_hand + P_bob), True)
                s.pop()
                return
            else:
                raise AssertionError(pc)


# phase play (tests/lowering/per-player-zones-and-state/game.yaml:18)
class Ph_play(Frame):
    __slots__ = ("l_p",)
    NAME = "Ph_play"
    ORIGIN = "phase play (tests/lowering/per-player-zones-and-state/game.yaml:18)"
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
                    s.v_secret[s.ref(self.l_p)] = len(s.z.piles[(Z_hand + s.ref(self.l_p))])
                    s.move_all(
                        T_card, s.z.piles[(Z_hand + s.ref(self.l_p))], (Z_shown + s.ref(self.l_p)), True
                    )
                    s.v_score[s.ref(self.l_p)] += s.v_secret[self.l_p]
                s.pop()
                return
            else:
                raise AssertionError(pc)


# the game's flow (phases) (tests/lowering/per-player-zones-and-state/game.yaml:2)
class Flow(Frame):
    __slots__ = ()
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/per-player-zones-and-state/game.yaml:2)"
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
                # phase play (tests/lowering/per-player-zones-and-state/game.yaml:18)
                # cov 1
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
    ("setup", "setup", "tests/lowering/per-player-zones-and-state/game.yaml:15"),
    ("phase", "phase play", "tests/lowering/per-player-zones-and-state/game.yaml:18"),
)
