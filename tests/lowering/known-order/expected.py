# ---- engine.py
# procedure pick_from (tests/lowering/known-order/game.yaml:20)
class Proc_pick_from(Frame):
    SLOTS = ("l_p", "l_given", "l_c")
    __slots__ = SLOTS
    NAME = "Proc_pick_from"
    ORIGIN = "procedure pick_from (tests/lowering/known-order/game.yaml:20)"
    PARAMS = 2
    SLOT_TYPES = ("player", "list[entity:card]", "entity:card")
    BLOCKS = 2
    l_p: int
    l_given: list[int]
    l_c: int

    def __init__(self, l_p: int, l_given: list[int]) -> None:
        self.pc = 0
        self.l_p = l_p
        self.l_given = l_given
        self.l_c = -1

    def copy(self) -> Proc_pick_from:
        f = Proc_pick_from(self.l_p, self.l_given)
        f.pc = self.pc
        f.l_c = self.l_c
        return f

    def to_data(self) -> list[object]:
        return ["Proc_pick_from", self.pc, [self.l_p, self.l_given, self.l_c]]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            # cov 0
            self.pc = 1
            s.decide(
                self.l_p,
                self.l_given,
                4,
                "l_c",
                (TX_from_a_parameter,),
                "tests/lowering/known-order/game.yaml:23",
                2,
            )
        else:  # pc == 1
            s.v_n = F_card_value[self.l_c]
            s.stack.pop()


# procedure pick_among (tests/lowering/known-order/game.yaml:25)
class Proc_pick_among(Frame):
    SLOTS = ("l_p", "l_cards", "l_among", "l_c")
    __slots__ = SLOTS
    NAME = "Proc_pick_among"
    ORIGIN = "procedure pick_among (tests/lowering/known-order/game.yaml:25)"
    PARAMS = 2
    SLOT_TYPES = ("player", "list[entity:card]", "list[entity:card]", "entity:card")
    BLOCKS = 2
    l_p: int
    l_cards: list[int]
    l_among: list[int]
    l_c: int

    def __init__(self, l_p: int, l_cards: list[int]) -> None:
        self.pc = 0
        self.l_p = l_p
        self.l_cards = l_cards
        self.l_among = []
        self.l_c = -1

    def copy(self) -> Proc_pick_among:
        f = Proc_pick_among(self.l_p, self.l_cards)
        f.pc = self.pc
        f.l_among = self.l_among
        f.l_c = self.l_c
        return f

    def to_data(self) -> list[object]:
        return ["Proc_pick_among", self.pc, [self.l_p, self.l_cards, self.l_among, self.l_c]]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc == 0:
            # cov 1
            v_n = s.v_n
            q1_: list[int] = []
            for c_c in self.l_cards:
                if F_card_value[c_c] > v_n:
                    q1_.append(c_c)
            self.l_among = q1_
            self.pc = 1
            s.decide(
                self.l_p,
                self.l_among,
                4,
                "l_c",
                (TX_from_a_list_given,),
                "tests/lowering/known-order/game.yaml:29",
            )
        else:  # pc == 1
            s.v_n = F_card_value[self.l_c]
            s.stack.pop()


# phase play (tests/lowering/known-order/game.yaml:32)
class Phase_play(Frame):
    SLOTS = ("l_held", "l_a", "l_b", "l_grown", "l_g", "l_named", "l_listed")
    __slots__ = SLOTS
    NAME = "Phase_play"
    ORIGIN = "phase play (tests/lowering/known-order/game.yaml:32)"
    PARAMS = 0
    SLOT_TYPES = (
        "list[entity:card]",
        "entity:card",
        "entity:card",
        "list[entity:card]",
        "entity:card",
        "entity:card",
        "entity:card",
    )
    BLOCKS = 8
    l_held: list[int]
    l_a: int
    l_b: int
    l_grown: list[int]
    l_g: int
    l_named: int
    l_listed: int

    def __init__(self) -> None:
        self.pc = 0
        self.l_held = []
        self.l_a = -1
        self.l_b = -1
        self.l_grown = []
        self.l_g = -1
        self.l_named = -1
        self.l_listed = -1

    def copy(self) -> Phase_play:
        f = Phase_play()
        f.pc = self.pc
        f.l_held = self.l_held
        f.l_a = self.l_a
        f.l_b = self.l_b
        f.l_grown = self.l_grown
        f.l_g = self.l_g
        f.l_named = self.l_named
        f.l_listed = self.l_listed
        return f

    def to_data(self) -> list[object]:
        return [
            "Phase_play",
            self.pc,
            [self.l_held, self.l_a, self.l_b, self.l_grown, self.l_g, self.l_named, self.l_listed],
        ]

    def step(self, s: State) -> None:
        pc = self.pc
        if pc < 4:
            if pc < 2:
                if pc == 0:
                    v_n = s.v_n
                    q1_: list[int] = []
                    for c_c in s.z.piles[Z_deck]:
                        if F_card_value[c_c] > v_n:
                            q1_.append(c_c)
                    self.l_held = q1_
                    self.pc = 1
                    s.decide(
                        P_ann,
                        self.l_held,
                        4,
                        "l_a",
                        (TX_from_the_deck,),
                        "tests/lowering/known-order/game.yaml:35",
                        1,
                    )
                else:  # pc == 1
                    l_a = self.l_a
                    q2_: list[int] = []
                    for c_c in range(3):
                        if F_card_value[c_c] != F_card_value[l_a]:
                            q2_.append(c_c)
                    self.l_held = q2_
                    self.pc = 2
                    s.decide(
                        P_bob,
                        self.l_held,
                        4,
                        "l_b",
                        (TX_from_every_card,),
                        "tests/lowering/known-order/game.yaml:37",
                        1,
                    )
            elif pc == 2:
                q3_: list[int] = []
                for c_c in range(3):
                    if F_card_value[c_c] > 1:
                        q3_.append(c_c)
                self.l_grown = q3_
                self.l_grown = self.l_grown + [self.l_a]
                self.pc = 3
                s.decide(
                    P_ann,
                    self.l_grown,
                    4,
                    "l_g",
                    (TX_from_a_list_that,),
                    "tests/lowering/known-order/game.yaml:40",
                )
            else:  # pc == 3
                self.pc = 4
                s.stack.append(Proc_pick_among(P_bob, [self.l_a, self.l_b, self.l_g]))
        elif pc < 6:
            if pc == 4:
                self.pc = 5
                s.stack.append(
                    Proc_pick_from(P_ann, [c_c for c_c in range(3) if (F_card_value[c_c] > s.v_n)])
                )
            else:  # pc == 5
                self.pc = 6
                s.decide(
                    P_bob,
                    [E_three, E_ace],
                    4,
                    "l_named",
                    (TX_from_components_named,),
                    "tests/lowering/known-order/game.yaml:43",
                    1,
                )
        elif pc == 6:
            self.pc = 7
            v_n = s.v_n
            q4_: list[int] = []
            for c_c in [E_ace, E_three]:
                if F_card_value[c_c] > v_n:
                    q4_.append(26 + c_c)
            s.decide(
                P_ann,
                q4_,
                4,
                "l_listed",
                (TX_from_a_filter_of,),
                "tests/lowering/known-order/game.yaml:44",
                2,
                True,
            )
        else:  # pc == 7
            s.stack.pop()


# the game's flow (phases) (tests/lowering/known-order/game.yaml:6)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/known-order/game.yaml:6)"
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
            # phase play (tests/lowering/known-order/game.yaml:32)
            # cov 2
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
Z_deck: Final[int] = 0
P_ann: Final[int] = 0
P_bob: Final[int] = 1
E_ace: Final[int] = 0
E_two: Final[int] = 1
E_three: Final[int] = 2
PH_play: Final[int] = 0
TX_from_a_parameter: Final[int] = 0
TX_from_a_list_given: Final[int] = 1
TX_from_the_deck: Final[int] = 2
TX_from_every_card: Final[int] = 3
TX_from_a_list_that: Final[int] = 4
TX_from_components_named: Final[int] = 5
TX_from_a_filter_of: Final[int] = 6
IDS_card: tuple[str, ...] = ("ace", "two", "three", "none")
LABELS_card: tuple[str, ...] = ("ace", "two", "three")
F_card_value: tuple[int, ...] = (1, 2, 3, 0)
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = (
    # TX_from_a_parameter
    Text("from a parameter"),
    # TX_from_a_list_given
    Text("from a list given"),
    # TX_from_the_deck
    Text("from the deck"),
    # TX_from_every_card
    Text("from every card"),
    # TX_from_a_list_that
    Text("from a list that grew"),
    # TX_from_components_named
    Text("from components named"),
    # TX_from_a_filter_of
    Text("from a filter of them"),
)

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("procedure", "procedure pick_from", "tests/lowering/known-order/game.yaml:20"),
    ("procedure", "procedure pick_among", "tests/lowering/known-order/game.yaml:25"),
    ("phase", "phase play", "tests/lowering/known-order/game.yaml:32"),
)
