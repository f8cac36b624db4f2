# ---- engine.py
# function lead (tests/lowering/cached-function/game.yaml:20)
def f_lead(s: State, l_p: int) -> int:
    # cov 0
    cache_ = s.caches[CACHE_lead]
    value_: int | None = cache_.get(l_p)
    if value_ is None:
        value_ = cache_[l_p] = (s.v_score[l_p] - s.v_score[(1 - l_p)]) + (
            1 if ((s.mod_kinds >> M_boost) & 1 == 1 and (M_boost, l_p) in s.active_mods) else 0
        )
    return value_


# function stock (tests/lowering/cached-function/game.yaml:25)
def f_stock(s: State) -> int:
    # cov 1
    cache_ = s.caches[CACHE_stock]
    value_: int | None = cache_.get(())
    if value_ is None:
        q1_ = 0
        for c_c in s.z.piles[Z_deck]:
            q1_ += F_card_value[c_c]
        value_ = cache_[()] = q1_ + s.v_round
    return value_


# phase play (tests/lowering/cached-function/game.yaml:30)
def ph_play(s: State) -> None:
    s.v_score[P_ann] += f_lead(s, P_ann) + f_stock(s)
    s.forget(READ_var_score)
    s.v_spent += 1
    s.move(T_card, E_ace, Z_deck, True)
    s.forget(READ_zones_card)
    # cov 2
    s.add_mod(M_boost, (P_bob,), PH_play)
    s.forget(READ_mod_boost)
    # cov 3
    s.cancel_mod(M_boost, (P_ann,))
    s.forget(READ_mod_boost)


# the game's flow (phases) (tests/lowering/cached-function/game.yaml:5)
class Flow(Frame):
    SLOTS = ("r_1",)
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/cached-function/game.yaml:5)"
    PARAMS = 0
    SLOT_TYPES = ("int",)
    BLOCKS = 2
    r_1: int

    def __init__(self) -> None:
        self.pc = 0
        self.r_1 = 0

    def copy(self) -> Flow:
        f = Flow()
        f.pc = self.pc
        f.r_1 = self.r_1
        return f

    def to_data(self) -> list[object]:
        return ["Flow", self.pc, [self.r_1]]

    def step(self, s: State) -> None:
        pc = self.pc
        while True:
            if pc == 0:
                s.after_setup()
                self.r_1 = 2
                s.v_round = 0
                s.forget(READ_var_round)
                pc = 1
                continue
            else:  # pc == 1
                s.tick("the repeat of phase 'play' at tests/lowering/cached-function/game.yaml:30:11")
                if self.r_1 <= 0:
                    s.stack.pop()
                    return
                self.r_1 -= 1
                s.v_round += 1
                s.forget(READ_var_round)
                # phase play (tests/lowering/cached-function/game.yaml:30)
                # cov 4
                ph_play(s)
                s.expire(PH_play)
                s.forget(READ_mod_boost)
                pc = 1
                continue


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
M_boost: Final[int] = 0
PH_play: Final[int] = 0
IDS_card: tuple[str, ...] = ("ace", "two", "none")
LABELS_card: tuple[str, ...] = ("ace", "two")
F_card_value: tuple[int, ...] = (1, 2, 0)
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Cached functions keep their values in s.caches[CACHE_<function>] until state they read changes:
# a change of a variable, of a component type's zones or of a lasting effect clears the caches
# its READ_ tuple names.
CACHE_lead: Final[int] = 0
CACHE_stock: Final[int] = 1
READ_mod_boost: tuple[int, ...] = (CACHE_lead,)
READ_var_round: tuple[int, ...] = (CACHE_stock,)
READ_var_score: tuple[int, ...] = (CACHE_lead,)
READ_zones_card: tuple[int, ...] = (CACHE_stock,)

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "f_lead": "function lead (tests/lowering/cached-function/game.yaml:20)",
    "f_stock": "function stock (tests/lowering/cached-function/game.yaml:25)",
    "ph_play": "phase play (tests/lowering/cached-function/game.yaml:30)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("function", "function lead", "tests/lowering/cached-function/game.yaml:20"),
    ("function", "function stock", "tests/lowering/cached-function/game.yaml:25"),
    ("modifier", "add boost", "tests/lowering/cached-function/game.yaml:37"),
    ("modifier", "cancel boost", "tests/lowering/cached-function/game.yaml:38"),
    ("phase", "phase play", "tests/lowering/cached-function/game.yaml:30"),
)
