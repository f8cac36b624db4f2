# ---- engine.py
# ---- static facts -----------------------------------------------------------------------------
T_card: int = 0
T_player: int = 1
Z_hand: int = 0
P_ann: int = 0
P_bob: int = 1
E_ace: int = 0
E_two: int = 1
PH_play: int = 0
IDS_card: tuple[str, ...] = ("ace", "two", "none")
F_card_value: tuple[int, ...] = (1, 2, 0)


# setup (tests/lowering/reveal-show-log/game.yaml:11)
class Setup(Frame):
    __slots__ = ()
    NAME = "Setup"
    ORIGIN = "setup (tests/lowering/reveal-show-log/game.yaml:11)"
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
                s.move_all(T_card, list(range(2)), (Z_hand + P_ann), True)
                s.pop()
                return
            else:
                raise AssertionError(pc)


# phase play (tests/lowering/reveal-show-log/game.yaml:13)
class Ph_play(Frame):
    __slots__ = ()
    NAME = "Ph_play"
    ORIGIN = "phase play (tests/lowering/reveal-show-log/game.yaml:13)"
    SLOTS = __slots__
    SLOT_TYPES = ()
    BLOCKS = 1

    def __init__(self) -> None:
        self.pc = 0

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                s.say("Revealed: " + s.label(T_card, E_ace))
                s.say_to(
                    P_bob, "You see: " + ", ".join(s.label(T_card, x_) for x_ in s.z.piles[(Z_hand + P_ann)])
                )
                s.say_to(P_bob, "You see: " + s.label(T_card, E_two))
                s.say("ann holds " + str(len(s.z.piles[(Z_hand + P_ann)])) + " cards")
                s.pop()
                return
            else:
                raise AssertionError(pc)


# the game's flow (phases) (tests/lowering/reveal-show-log/game.yaml:2)
class Flow(Frame):
    __slots__ = ()
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/reveal-show-log/game.yaml:2)"
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
                # phase play (tests/lowering/reveal-show-log/game.yaml:13)
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
    ("setup", "setup", "tests/lowering/reveal-show-log/game.yaml:11"),
    ("phase", "phase play", "tests/lowering/reveal-show-log/game.yaml:13"),
)
