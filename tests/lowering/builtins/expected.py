# ---- engine.py
# ---- static facts -----------------------------------------------------------------------------
T_card: int = 0
T_player: int = 1
Z_deck: int = 0
Z_table: int = 1
P_ann: int = 0
P_bob: int = 1
E_ace: int = 0
E_two: int = 1
PH_play: int = 0
IDS_card: tuple[str, ...] = ("ace", "two", "none")
F_card_value: tuple[int, ...] = (1, 2, 0)


# setup (tests/lowering/builtins/game.yaml:2)
class Setup(Frame):
    __slots__ = ()
    NAME = "Setup"
    ORIGIN = "setup (tests/lowering/builtins/game.yaml:2)"
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


# phase play (tests/lowering/builtins/game.yaml:19)
class Ph_play(Frame):
    __slots__ = ("l_c",)
    NAME = "Ph_play"
    ORIGIN = "phase play (tests/lowering/builtins/game.yaml:19)"
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
                s.v_who = 1 - P_ann
                s.v_who = (s.v_who + 1) % s.num_players
                s.v_n = ((len(s.z.piles[Z_deck]) + abs((-3))) + min(1, s.v_n)) + max(2, s.v_n, 3)
                s.v_n += s.roll(6)
                s.move_all(T_card, list(range(2)), Z_deck, True)
                self.l_c = s.pick(s.z.piles[Z_deck])
                self.l_c = s.top(Z_deck)
                s.v_cards = s.top_n(Z_deck, 2)
                s.v_n = len(list(range(0, 4)))
                s.place(T_card, E_ace, Z_table, s.cell(0, 0))
                s.place(T_card, E_two, Z_table, s.cell(1, 0))
                s.v_near = (s.z.pos[T_card][E_ace] == s.cell(0, 0)) and s.adjacent(T_card, E_ace, E_two)
                s.v_cards = s.neighbors(T_card, E_ace)
                s.v_spots = s.open_cells_around(T_card, [E_ace, E_two])
                s.v_text = s.player_label(s.v_who)
                s.v_text = s.label(T_card, E_ace)
                s.pop()
                return
            else:
                raise AssertionError(pc)


# the game's flow (phases) (tests/lowering/builtins/game.yaml:2)
class Flow(Frame):
    __slots__ = ()
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/builtins/game.yaml:2)"
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
                # phase play (tests/lowering/builtins/game.yaml:19)
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
    ("phase", "phase play", "tests/lowering/builtins/game.yaml:19"),
)
