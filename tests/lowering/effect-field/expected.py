# ---- engine.py
# card gift: event (tests/lowering/effect-field/game.yaml:11)
def e_card_event_gift(s: State, l_self: int, l_p: int) -> None:
    # cov 0
    s.v_score[s.ref(l_p)] += 1


# card wager: event (starts) (tests/lowering/effect-field/game.yaml:12)
def e_card_event_wager(s: State, l_self: int, l_p: int) -> Frame:
    return Eff_card_event_wager(l_self, l_p)


# card wager: event (tests/lowering/effect-field/game.yaml:12)
class Eff_card_event_wager(Frame):
    SLOTS = ("l_self", "l_p", "d_1")
    __slots__ = SLOTS
    NAME = "Eff_card_event_wager"
    ORIGIN = "card wager: event (tests/lowering/effect-field/game.yaml:12)"
    PARAMS = 2
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

    def copy(self) -> Eff_card_event_wager:
        f = Eff_card_event_wager(self.l_self, self.l_p)
        f.pc = self.pc
        f.d_1 = self.d_1
        return f

    def to_data(self) -> list[object]:
        return ["Eff_card_event_wager", self.pc, [self.l_self, self.l_p, self.d_1]]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            # cov 1
            self.pc = 1
            s.decide(
                self.l_p, range(0, 2 + 1), 2, "d_1", (TX_wager,), "tests/lowering/effect-field/game.yaml:12"
            )
        else:  # pc == 1
            s.v_score[s.ref(self.l_p)] += self.d_1
            s.stack.pop()


# phase play (tests/lowering/effect-field/game.yaml:17)
class Phase_play(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/effect-field/game.yaml:17)"
    PARAMS = 0
    SLOT_TYPES = ()
    BLOCKS = 2

    def __init__(self) -> None:
        self.pc = 0

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        return f

    def to_data(self) -> list[object]:
        return ["Phase_play", self.pc, []]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            subject_ = E_gift
            effect = EFFECT_card_event[subject_]
            if effect is not None:
                frame = effect(s, subject_, P_ann)
                if frame is not None:
                    self.pc = 1
                    s.stack.append(frame)
                    return
            s.stack.pop()
        else:  # pc == 1
            s.stack.pop()


# the game's flow (phases) (tests/lowering/effect-field/game.yaml:3)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/effect-field/game.yaml:3)"
    PARAMS = 0
    SLOT_TYPES = ()
    BLOCKS = 2

    def __init__(self) -> None:
        self.pc = 0

    def copy(self) -> Flow:
        f = Flow()
        f.pc = self.pc
        return f

    def to_data(self) -> list[object]:
        return ["Flow", self.pc, []]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            s.after_setup()
            # phase play (tests/lowering/effect-field/game.yaml:17)
            # cov 2
            self.pc = 1
            s.stack.append(Phase_play())
        else:  # pc == 1
            s.stack.pop()


# by name (runtime.engine.named: natively, a long tuple written out is megabytes of C)
EFFECT_card_event: Final[tuple[Callable[..., Frame | None] | None, ...]] = named(
    globals(),
    (
        "e_card_event_gift",
        "e_card_event_wager",
        None,
        None,
    ),
)


INVARIANTS: tuple[tuple[str, str, Callable[[State], bool], str], ...] = ()


# ---- scenarios.py
# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {}

# Each scenario and step says only what it needs; rulewright/scenarios.py fills in the rest.
SCENARIOS: tuple[dict[str, Any], ...] = ()


# ---- tables.py
# ---- static facts -----------------------------------------------------------------------------
T_card: Final[int] = 0
T_player: Final[int] = 1
P_ann: Final[int] = 0
P_bob: Final[int] = 1
E_gift: Final[int] = 0
E_wager: Final[int] = 1
E_blank: Final[int] = 2
PH_play: Final[int] = 0
TX_wager: Final[int] = 0
IDS_card: tuple[str, ...] = ("gift", "wager", "blank", "none")
LABELS_card: tuple[str, ...] = ("gift", "wager", "blank")
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "e_card_event_gift": "card gift: event (tests/lowering/effect-field/game.yaml:11)",
    "e_card_event_wager": "card wager: event (starts) (tests/lowering/effect-field/game.yaml:12)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_wager
    Text("wager"),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("effect", "card gift: event", "tests/lowering/effect-field/game.yaml:11"),
    ("effect", "card wager: event", "tests/lowering/effect-field/game.yaml:12"),
    ("phase", "phase play", "tests/lowering/effect-field/game.yaml:17"),
)
