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


# card ace: strength (tests/lowering/expression-field/game.yaml:13)
def X_card_strength_ace(s: State, l_self: int, l_n: int) -> int:
    # cov 0
    return F_card_value[l_self] + l_n


# card two: strength (tests/lowering/expression-field/game.yaml:14)
def X_card_strength_two(s: State, l_self: int, l_n: int) -> int:
    # cov 1
    return l_n * 2


# card.strength of none (tests/lowering/expression-field/game.yaml:9)
def X_card_strength__default(s: State, l_self: int, l_n: int) -> int:
    return 0


# card ace: playable (tests/lowering/expression-field/game.yaml:13)
def X_card_playable_ace(s: State, l_self: int) -> bool:
    # cov 2
    return True


# default of card.playable (tests/lowering/expression-field/game.yaml:10)
def X_card_playable__default(s: State, l_self: int) -> bool:
    return False


# setup (tests/lowering/expression-field/game.yaml:3)
class Setup(Frame):
    __slots__ = ()
    NAME = "Setup"
    ORIGIN = "setup (tests/lowering/expression-field/game.yaml:3)"
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


# phase play (tests/lowering/expression-field/game.yaml:18)
class Ph_play(Frame):
    __slots__ = ("l_c",)
    NAME = "Ph_play"
    ORIGIN = "phase play (tests/lowering/expression-field/game.yaml:18)"
    SLOTS = __slots__
    SLOT_TYPES = ("entity:card",)
    BLOCKS = 1
    l_c: int

    def __init__(self) -> None:
        self.pc = 0
        self.l_c = -1

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                for x_ in list(range(2)):
                    self.l_c = x_
                    if not X_card_playable[self.l_c](s, self.l_c):
                        continue
                    s.v_score += X_card_strength[self.l_c](s, self.l_c, 3)
                s.v_score += X_card_strength[E_two](s, E_two, s.v_score)
                s.pop()
                return
            else:
                raise AssertionError(pc)


# the game's flow (phases) (tests/lowering/expression-field/game.yaml:3)
class Flow(Frame):
    __slots__ = ()
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/expression-field/game.yaml:3)"
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
                # phase play (tests/lowering/expression-field/game.yaml:18)
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


X_card_strength: tuple[Callable[[State, int, int], int], ...] = (
    X_card_strength_ace,
    X_card_strength_two,
    X_card_strength__default,
)


X_card_playable: tuple[Callable[[State, int], bool], ...] = (
    X_card_playable_ace,
    X_card_playable__default,
    X_card_playable__default,
)

INVARIANTS: tuple[tuple[str, str, Callable[[State], bool], str], ...] = ()

SCENARIOS: tuple[dict[str, Any], ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("expression", "card ace: strength", "tests/lowering/expression-field/game.yaml:13"),
    ("expression", "card two: strength", "tests/lowering/expression-field/game.yaml:14"),
    ("expression", "card ace: playable", "tests/lowering/expression-field/game.yaml:13"),
    ("phase", "phase play", "tests/lowering/expression-field/game.yaml:18"),
)
