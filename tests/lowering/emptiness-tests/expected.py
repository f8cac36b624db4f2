# ---- engine.py
# function above (tests/lowering/emptiness-tests/game.yaml:23)
def f_above(s: State, l_k: int) -> list[int]:
    # cov 0
    q1_: list[int] = []
    for c_c in range(3):
        if s.div(10, (l_k - F_card_value[c_c])) > 0:
            q1_.append(c_c)
    return q1_


# function moves (tests/lowering/emptiness-tests/game.yaml:27)
def f_moves(s: State, l_p: int) -> list[int]:
    # cov 1
    return (([0] if (len(s.z.piles[Z_deck]) > 0) else []) + ([1] if has_above(s, s.v_n) else [])) + [2]


# function kept (tests/lowering/emptiness-tests/game.yaml:33)
def f_kept(s: State) -> list[int]:
    # cov 2
    cache_ = s.caches[CACHE_kept]
    value_: list[int] | None = cache_.get(())
    if value_ is None:
        value_ = cache_[()] = f_above(s, s.v_n)
    return value_


# function held (tests/lowering/emptiness-tests/game.yaml:37)
def f_held(s: State) -> list[int]:
    # cov 3
    q1_: list[int] = []
    for c_c in s.z.piles[Z_deck]:
        q1_.append(c_c)
    return q1_


# phase play (tests/lowering/emptiness-tests/game.yaml:41)
def ph_play(s: State) -> None:
    # cov 5 (implicit else)
    if (not has_moves(s, P_ann)) or has_kept(s):
        # cov 4
        s.v_n += 1
        s.forget(READ_var_n)
    # cov 7 (implicit else)
    if (has_held(s) and (len((v1_ := f_above(s, s.v_n))) > 0)) and (len(v1_) < 3):
        # cov 6
        s.v_n -= 1
        s.forget(READ_var_n)


# function above (tests/lowering/emptiness-tests/game.yaml:23)
def has_above(s: State, l_k: int) -> bool:
    # cov 0 (above)
    q1_ = False
    for c_c in range(3):
        if s.div(10, (l_k - F_card_value[c_c])) > 0:
            q1_ = True
            break
    return q1_


# function moves (tests/lowering/emptiness-tests/game.yaml:27)
def has_moves(s: State, l_p: int) -> bool:
    # cov 1 (moves)
    if len(s.z.piles[Z_deck]) > 0:
        return True
    if has_above(s, s.v_n):
        return True
    return True


# function kept (tests/lowering/emptiness-tests/game.yaml:33)
def has_kept(s: State) -> bool:
    # cov 2 (kept)
    kept_ = s.caches[CACHE_kept].get(())
    if kept_ is not None:
        return len(kept_) > 0
    return has_above(s, s.v_n)


# function held (tests/lowering/emptiness-tests/game.yaml:37)
def has_held(s: State) -> bool:
    # cov 3 (held)
    return len(s.z.piles[Z_deck]) > 0


# the game's flow (phases) (tests/lowering/emptiness-tests/game.yaml:7)
class Flow(Frame):
    SLOTS = ()
    __slots__ = SLOTS
    NAME = "Flow"
    ORIGIN = "the game's flow (phases) (tests/lowering/emptiness-tests/game.yaml:7)"
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
        # phase play (tests/lowering/emptiness-tests/game.yaml:41)
        # cov 8
        ph_play(s)
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
IDS_card: tuple[str, ...] = ("ace", "two", "three", "none")
LABELS_card: tuple[str, ...] = ("ace", "two", "three")
F_card_value: tuple[int, ...] = (1, 2, 3, 0)
ENUM_move: tuple[str, ...] = ("draw", "play", "pass_turn")
PLAYER_LABELS: tuple[str, ...] = ("ann", "bob")

# Cached functions keep their values in s.caches[CACHE_<function>] until state they read changes:
# a change of a variable, of a component type's zones or of a lasting effect clears the caches
# its READ_ tuple names.
CACHE_kept: Final[int] = 0
READ_var_n: tuple[int, ...] = (CACHE_kept,)

# Where each function comes from, for a rule error raised inside it.
ORIGINS: dict[str, str] = {
    "f_above": "function above (tests/lowering/emptiness-tests/game.yaml:23)",
    "f_moves": "function moves (tests/lowering/emptiness-tests/game.yaml:27)",
    "f_kept": "function kept (tests/lowering/emptiness-tests/game.yaml:33)",
    "f_held": "function held (tests/lowering/emptiness-tests/game.yaml:37)",
    "ph_play": "phase play (tests/lowering/emptiness-tests/game.yaml:41)",
    "has_above": "function above (tests/lowering/emptiness-tests/game.yaml:23)",
    "has_moves": "function moves (tests/lowering/emptiness-tests/game.yaml:27)",
    "has_kept": "function kept (tests/lowering/emptiness-tests/game.yaml:33)",
    "has_held": "function held (tests/lowering/emptiness-tests/game.yaml:37)",
}


# The log lines and prompts of the rules: the rules store a text's index (its TX_ constant) and
# the values of its holes; the words are made when the log is read.
TEXTS: tuple[Text, ...] = ()

# Rule coverage points (kind, what, spec file:line); `# cov N` above a statement marks point N.
COVERAGE: tuple[tuple[str, str, str], ...] = (
    ("function", "function above", "tests/lowering/emptiness-tests/game.yaml:23"),
    ("function", "function moves", "tests/lowering/emptiness-tests/game.yaml:27"),
    ("function", "function kept", "tests/lowering/emptiness-tests/game.yaml:33"),
    ("function", "function held", "tests/lowering/emptiness-tests/game.yaml:37"),
    ("branch", "if at line 43: then", "tests/lowering/emptiness-tests/game.yaml:43"),
    ("branch", "if at line 43: else (implicit)", "tests/lowering/emptiness-tests/game.yaml:43"),
    ("branch", "if at line 46: then", "tests/lowering/emptiness-tests/game.yaml:46"),
    ("branch", "if at line 46: else (implicit)", "tests/lowering/emptiness-tests/game.yaml:46"),
    ("phase", "phase play", "tests/lowering/emptiness-tests/game.yaml:41"),
)
