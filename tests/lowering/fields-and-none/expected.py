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
F_card_suit: tuple[int, ...] = (1, 0, 0)
F_card_owner: tuple[int, ...] = (1, -1, -1)
F_card_tags: tuple[list[str], ...] = (["royal"], [], [])
ENUM_suit: tuple[str, ...] = ("cups", "coins")


# setup (tests/lowering/fields-and-none/game.yaml:3)
class Setup(Frame):
    __slots__ = ()
    NAME = "Setup"
    ORIGIN = "setup (tests/lowering/fields-and-none/game.yaml:3)"
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


# phase play (tests/lowering/fields-and-none/game.yaml:23)
class Ph_play(Frame):
    __slots__ = ("l_missing",)
    NAME = "Ph_play"
    ORIGIN = "phase play (tests/lowering/fields-and-none/game.yaml:23)"
    SLOTS = __slots__
    SLOT_TYPES = ("entity:card",)
    BLOCKS = 1
    l_missing: int

    def __init__(self) -> None:
        self.pc = 0
        self.l_missing = -1

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                self.l_missing = -1
                s.v_n = (F_card_value[E_ace] + len(F_card_tags[E_two])) + F_card_value[self.l_missing]
                s.v_text = s.label(T_card, E_ace)
                s.v_text = IDS_card[E_two]
                s.v_who = F_card_owner[E_ace]
                if F_card_suit[E_ace] == 1:
                    # cov 0
                    s.v_who = F_card_owner[E_two]
                else:
                    # cov 1
                    pass
                s.pop()
                return
            else:
                raise AssertionError(pc)


# the game's flow (phases) (tests/lowering/fields-and-none/game.yaml:3)
class Flow(Frame):
    __slots__ = ()
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/fields-and-none/game.yaml:3)"
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
                # phase play (tests/lowering/fields-and-none/game.yaml:23)
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
    ("branch", "if at line 30: then", "tests/lowering/fields-and-none/game.yaml:30"),
    ("branch", "if at line 30: else (implicit)", "tests/lowering/fields-and-none/game.yaml:30"),
    ("phase", "phase play", "tests/lowering/fields-and-none/game.yaml:23"),
)
