# ---- engine.py
# ---- static facts -----------------------------------------------------------------------------
T_card: int = 0
T_player: int = 1
P_ann: int = 0
P_bob: int = 1
E_gift: int = 0
E_wager: int = 1
E_blank: int = 2
PH_play: int = 0
IDS_card: tuple[str, ...] = ("gift", "wager", "blank", "none")


# card gift: event (tests/lowering/effect-field/game.yaml:11)
class E_card_event_gift(Frame):
    __slots__ = ("l_self", "l_p")
    NAME = "E_card_event_gift"
    ORIGIN = "card gift: event (tests/lowering/effect-field/game.yaml:11)"
    SLOTS = __slots__
    SLOT_TYPES = ("entity:card", "player")
    BLOCKS = 1
    l_self: int
    l_p: int

    def __init__(self, l_self: int, l_p: int) -> None:
        self.pc = 0
        self.l_self = l_self
        self.l_p = l_p

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                # cov 0
                s.v_score[s.ref(self.l_p)] += 1
                s.pop()
                return
            else:
                raise AssertionError(pc)


# card wager: event (tests/lowering/effect-field/game.yaml:12)
class E_card_event_wager(Frame):
    __slots__ = ("l_self", "l_p", "d_1")
    NAME = "E_card_event_wager"
    ORIGIN = "card wager: event (tests/lowering/effect-field/game.yaml:12)"
    SLOTS = __slots__
    SLOT_TYPES = ("entity:card", "player", "int")
    BLOCKS = 2
    l_self: int
    l_p: int
    d_1: int

    def __init__(self, l_self: int, l_p: int) -> None:
        self.pc = 0
        self.l_self = l_self
        self.l_p = l_p
        self.d_1 = -1

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                # cov 1
                self.pc = 1
                s.decide(
                    self.l_p,
                    range(0, 2 + 1),
                    2,
                    "d_1",
                    "wager",
                    at="tests/lowering/effect-field/game.yaml:12",
                )
                return
            elif pc == 1:
                s.v_score[s.ref(self.l_p)] += self.d_1
                s.pop()
                return
            else:
                raise AssertionError(pc)


# setup (tests/lowering/effect-field/game.yaml:3)
class Setup(Frame):
    __slots__ = ()
    NAME = "Setup"
    ORIGIN = "setup (tests/lowering/effect-field/game.yaml:3)"
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


# phase play (tests/lowering/effect-field/game.yaml:17)
class Ph_play(Frame):
    __slots__ = ()
    NAME = "Ph_play"
    ORIGIN = "phase play (tests/lowering/effect-field/game.yaml:17)"
    SLOTS = __slots__
    SLOT_TYPES = ()
    BLOCKS = 2

    def __init__(self) -> None:
        self.pc = 0

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                subject_ = E_gift
                effect = EFFECT_card_event[subject_]
                if effect is not None:
                    self.pc = 1
                    s.push(effect(subject_, P_ann))
                    return
                pc = 1
                continue
            elif pc == 1:
                s.pop()
                return
            else:
                raise AssertionError(pc)


# the game's flow (phases) (tests/lowering/effect-field/game.yaml:3)
class Flow(Frame):
    __slots__ = ()
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/effect-field/game.yaml:3)"
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
                # phase play (tests/lowering/effect-field/game.yaml:17)
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


EFFECT_card_event: tuple[Callable[..., Frame] | None, ...] = (
    E_card_event_gift,
    E_card_event_wager,
    None,
    None,
)

INVARIANTS: tuple[tuple[str, str, Callable[[State], bool], str], ...] = ()

SCENARIOS: tuple[dict[str, Any], ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("effect", "card gift: event", "tests/lowering/effect-field/game.yaml:11"),
    ("effect", "card wager: event", "tests/lowering/effect-field/game.yaml:12"),
    ("phase", "phase play", "tests/lowering/effect-field/game.yaml:17"),
)
