# ---- engine.py
# phase play (tests/lowering/string-interpolation/game.yaml:15)
class Phase_play(Frame):
    SLOTS = ("l_nobody", "d_1")
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/string-interpolation/game.yaml:15)"
    PARAMS = 0
    SLOT_TYPES = ("player", "bool")
    BLOCKS = 2
    l_nobody: int
    d_1: bool

    def __init__(self) -> None:
        self.pc = 0
        self.l_nobody = -1
        self.d_1 = False

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        f.l_nobody = self.l_nobody
        f.d_1 = self.d_1
        return f

    def to_data(self) -> list[object]:
        return ["Phase_play", self.pc, [self.l_nobody, self.d_1]]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            self.l_nobody = -1
            s.say(TX_holds, P_ann, E_ace, F_card_value[E_ace], 0, s.v_seen, tuple([E_ace]), self.l_nobody)
            s.say(TX_a_quoted_brace)
            s.v_note = s.label(T_card, E_ace) + " seen by " + s.player_label(P_ann)
            self.pc = 1
            s.decide(
                P_ann,
                [1, 2],
                1,
                "d_1",
                (TX_seen, E_ace),
                "tests/lowering/string-interpolation/game.yaml:21",
                2,
                True,
            )
        else:  # pc == 1
            s.v_seen = self.d_1
            s.end_game(P_bob, s.player_label(P_bob) + " saw " + IDS_card[E_ace])
            s.stack.pop()


# the game's flow (phases) (tests/lowering/string-interpolation/game.yaml:3)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/string-interpolation/game.yaml:3)"
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
            # phase play (tests/lowering/string-interpolation/game.yaml:15)
            # cov 0
            self.pc = 1
            s.stack.append(Phase_play())
        else:  # pc == 1
            s.stack.pop()


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
E_ace: Final[int] = 0
PH_play: Final[int] = 0
TX_holds: Final[int] = 0
TX_a_quoted_brace: Final[int] = 1
TX_seen: Final[int] = 2
IDS_card: tuple[str, ...] = ("ace", "none")
LABELS_card: tuple[str, ...] = ("Ace",)
F_card_value: tuple[int, ...] = (1, 0)
ENUM_colour: tuple[str, ...] = ("red", "blue")
PLAYER_LABELS: tuple[str, ...] = ("Ann", "Bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_holds
    Text(
        "{} holds {} ({}), {}, {}, {}, {}",
        ("player", "entity:card", "int", "enum:colour", "bool", "list[entity:card]", "player"),
    ),
    # TX_a_quoted_brace
    Text('a "quoted" {{brace}}'),
    # TX_seen
    Text("seen {}?", ("entity:card",)),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("phase", "phase play", "tests/lowering/string-interpolation/game.yaml:15"),
)
