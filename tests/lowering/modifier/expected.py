# ---- engine.py
# phase play (tests/lowering/modifier/game.yaml:13)
def ph_play(s: State) -> None:
    # cov 0
    s.add_mod(M_shield, (P_ann,), PH_play)
    # cov 1
    s.add_mod(M_fog, (), -1)
    # cov 2
    s.add_mod(M_shield, (P_bob,), -1)
    # cov 4 (implicit else)
    if ((s.mod_kinds >> M_shield) & 1 == 1 and (M_shield, P_ann) in s.active_mods) and (
        (s.mod_kinds >> M_fog) & 1 == 0
    ):
        # cov 3
        s.v_score += 1
    l_seats: list[int] = [P_ann]
    # cov 6 (implicit else)
    if (M_shield, l_seats[0]) not in s.active_mods:
        # cov 5
        s.v_score += 2
    # cov 7
    s.cancel_mod(M_fog, ())
    # cov 8
    s.cancel_mod(M_shield, (P_bob,))
    # cov 9
    s.add_mod(M_shield, (P_ann,), -1)
    s.v_score = s.count_mod(M_shield, (P_ann,)) + s.count_mod(M_fog, ())
    # cov 10
    s.cancel_one_mod(M_shield, (P_ann,))


# the game's flow (phases) (tests/lowering/modifier/game.yaml:5)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/modifier/game.yaml:5)"
    PARAMS = 0
    SLOT_TYPES = ()
    BLOCKS = 1

    def __init__(self) -> None:
        self.pc = 0

    def copy(self) -> Flow:
        f = Flow()
        f.pc = self.pc
        return f

    def to_data(self) -> list[object]:
        return ["Flow", self.pc, []]

    def step(self, s: State) -> None:
        s.after_setup()
        # phase play (tests/lowering/modifier/game.yaml:13)
        # cov 11
        ph_play(s)
        s.expire(PH_play)
        s.stack.pop()


INVARIANTS: tuple[tuple[str, str, Callable[[State], bool], str], ...] = ()


# ---- scenarios.py
# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {}

# Each scenario and step says only what it needs; rulewright/scenarios.py fills in the rest.
SCENARIOS: tuple[dict[str, Any], ...] = ()


# ---- tables.py
# ---- static facts -----------------------------------------------------------------------------
T_player: Final[int] = 0
P_ann: Final[int] = 0
P_bob: Final[int] = 1
M_shield: Final[int] = 0
M_fog: Final[int] = 1
PH_play: Final[int] = 0
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "ph_play": "phase play (tests/lowering/modifier/game.yaml:13)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("modifier", "add shield", "tests/lowering/modifier/game.yaml:15"),
    ("modifier", "add fog", "tests/lowering/modifier/game.yaml:16"),
    ("modifier", "add shield", "tests/lowering/modifier/game.yaml:17"),
    ("branch", "if at line 18: then", "tests/lowering/modifier/game.yaml:18"),
    ("branch", "if at line 18: else (implicit)", "tests/lowering/modifier/game.yaml:18"),
    ("branch", "if at line 20: then", "tests/lowering/modifier/game.yaml:20"),
    ("branch", "if at line 20: else (implicit)", "tests/lowering/modifier/game.yaml:20"),
    ("modifier", "cancel fog", "tests/lowering/modifier/game.yaml:21"),
    ("modifier", "cancel shield", "tests/lowering/modifier/game.yaml:22"),
    ("modifier", "add shield", "tests/lowering/modifier/game.yaml:23"),
    ("modifier", "cancel one shield", "tests/lowering/modifier/game.yaml:25"),
    ("phase", "phase play", "tests/lowering/modifier/game.yaml:13"),
)
