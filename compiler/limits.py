"""Every bound the compiler puts on a spec, in one place.

A spec folder may come from anyone, so reading and checking it must end quickly whatever it holds.
Each bound sits far above what the real games use (measured when it was set, in the comment) and
protects the tool, not a game's rules: a designer who truly needs more raises the constant here.
A bound that is exceeded gives a `limit-exceeded` diagnostic at the offending text.
"""

from __future__ import annotations

# One spec or scenario file, in bytes; checked before the file is read. The biggest real file
# holds 52 KB. (Checking reads about 100 KB of rules a second.)
MAX_FILE_BYTES = 1024 * 1024

# All the files of one spec folder together (its scenarios included). The largest real spec, with
# its 8 files and 601 scenarios, holds 0.7 MB.
MAX_SPEC_BYTES = 8 * 1024 * 1024

# How deep YAML lists and mappings may nest. The real specs nest at most 7 deep. Deeper nesting
# crashes libyaml's composer (50,000 levels) or Python's (5,000).
MAX_YAML_DEPTH = 100

# How many nodes the aliases of one file may stand for, counting each alias as the whole node it
# names ("billion laughs": 1.6 KB of nested aliases stand for 10^9 nodes). The real specs use none.
MAX_ALIAS_NODES = 10_000

# Characters in one DSL string. The longest real one has 1,287; parsing slows down more than in
# proportion beyond some thousands of statements in one string.
MAX_DSL_CHARS = 20_000

# How deep one DSL string may nest (operators, brackets, blocks, chained `.field`s). The real
# specs reach 18; the compiler's passes recurse once or more per level.
MAX_DSL_DEPTH = 100

# Digits in one integer, in YAML or in the DSL. Python refuses to read more than 4,300, and no
# rule needs a number of 10^18 or more.
MAX_INT_DIGITS = 18

# How deep calls of functions and expression fields nest: each call is a level, and each expression
# around a call in the body that makes it one more, so a chain of N functions, each calling the
# next, nests N levels (the real specs nest at most 31 levels, 8 functions deep). The passes that
# follow a call into what it calls recurse up to three times per level.
MAX_CALL_DEPTH = 200

# `actions: {max_number: N}`: the biggest number `choose number` may offer. Every number is an
# action of the game, so the engine holds a table of N + 1 entries (the real specs keep the
# default, 20).
MAX_NUMBER = 10_000

# `radius` of a grid zone: the grid has (2r + 1)^2 cells, each an action of the game (the
# largest real map has radius 17).
MAX_GRID_RADIUS = 100

# Nesting of generated Python: one level per block and per loop, parentheses around each
# operation. CPython refuses 100 levels of indentation, 20 nested loops and 200 open parentheses,
# so beyond these the engine could not be built (`too-deep`, compiler/bounds.py). The real specs
# nest at most 4 blocks, 3 loops and 15 operations.
MAX_BLOCK_DEPTH = 40
MAX_LOOP_DEPTH = 12
MAX_EXPRESSION_DEPTH = 64

# `limits: {steps: N}`: the steps the rules may take between two decisions before the engine
# stops them with a rule error (runtime/engine.py spends them). The real games take at most 55.
# A spec may set any budget from 1 to MAX_STEP_BUDGET.
DEFAULT_STEP_BUDGET = 1_000_000
MAX_STEP_BUDGET = 1_000_000_000

# Entries of one state variable: the product of its indices' sizes (a player index counts the
# players, a component index its type's components and `none`, an enum index its values and
# `none`). The engine allocates every entry in every state, and copies them at every step. The
# largest table of the real specs has 180 entries (36 x 5).
MAX_STATE_TABLE = 1_000_000

# A zone's index types (`per: [colour, player]`): one instance per index tuple.
MAX_ZONE_INDICES = 2

# Instances of one zone: the product of its indices' sizes (a player index counts the seats, a
# component index its type's components, an enum index its values). Each is a pile in every state,
# copied at every step. The real specs have at most 4 instances of a zone.
MAX_ZONE_INSTANCES = 10_000

# Entries of one whole state: every state variable's entries, plus what its zones take (an entry
# per component for the zone it is in, one for its place in that zone, one for its cell when a zone
# is a grid, and a pile per zone and per player of a per-player zone). A state is copied at every
# step, so this bounds the time and memory of each. The real specs hold at most 1,366 (823 in
# state variables, 543 in zones for 261 components and 21 piles). A state
# of 2,000,000 entries is some 16 MB, copied in a few milliseconds.
MAX_STATE_ENTRIES = 2_000_000

# `copies: N` of one component row: the row stands for N identical components. A copy is a
# component of its own (an entry of every per-component variable, a place in the zones), so the
# components of all the types together are bounded too, before copies expand the rows (the file
# sizes bound the rows, not what their copies stand for). Real decks of identical cards hold a few
# dozen of one kind and some hundreds in all; the real specs have at most 261 components.
MAX_COPIES = 1_000
MAX_COMPONENTS = 100_000

# The board's size and every position, size and origin on it (board.yaml), in picture units: a
# picture far larger than any screen is a mistake, and would make an enormous SVG.
MAX_BOARD_SIZE = 20_000

# The steps of a board's track, from its min to its max: each is drawn as a box (the real tracks
# have at most 41 steps).
MAX_TRACK_STEPS = 1_000
