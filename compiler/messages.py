"""Messages: the text of every diagnostic the compiler gives, in one place.

A stage names the code (compiler/errorcodes.py) and takes the words from here: a constant for a
fixed message, a small function for one with names or numbers in it. Grouped by the stage that
reports them. A `hint` is a ' did you mean ...?' suffix from diagnostics.did_you_mean, or "".
A `what` or `where` names the thing the message is about ("zone 'hand'", "a condition"): the
stage that knows the thing words it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from compiler.ir import Span


# ---- shared by several stages ----------------------------------------------------------------------


def protects_the_tool(bound: str) -> str:
    """The note on every limit-exceeded error: which bound of compiler/limits.py was reached."""
    return f"the limit protects the tool (compiler/limits.py, {bound})"


def first_defined_at(where: Span | str) -> str:
    return f"first defined at {where}"


def number_too_large(digits: int) -> str:
    return f"this number is too large: numbers in a spec have at most {digits} digits"


def did_you_mean_suffix(close: str | None) -> str:
    return f"; did you mean '{close}'?" if close else ""


def undeclared_not_shown(count: int) -> str:
    """The note on an unreadable file's error: the errors it may explain are left out."""
    return f"{count} error(s) about undeclared names are not shown: the names may be declared in this file"


# ---- reading a file (source.py) ----------------------------------------------------------------


def cannot_read(why: str) -> str:
    return f"cannot read this file: {why}"


def not_a_file(kind: str) -> str:
    return f"this is {kind}, not a file"


IS_A_LINK: Final = (
    "this is a symbolic link, which is not followed: a spec's files must be regular files inside its folder"
)
LINK_ON_THE_WAY: Final = "cannot read this file: it, or a folder on its way, became a symbolic link"


def file_too_big(size: int, limit: int) -> str:
    return f"this file holds {size:,} bytes; the limit is {limit:,}"


def spec_too_big(limit: int) -> str:
    return f"with this file the spec's files hold more than {limit:,} bytes"


def not_utf8(byte: int) -> str:
    return f"this file is not UTF-8 text: the byte 0x{byte:02x} here is not UTF-8"


def control_character(what: str) -> str:
    return f"this file holds {what} here; spec files are plain text"


# ---- composing YAML (yaml_compose.py; load.py reports PyYAML's own words after "YAML syntax: ")


def yaml_syntax(problem: object) -> str:
    return f"YAML syntax: {problem}"


# ---- YAML syntax errors in a designer's words (yaml_errors.py) -----------------------------------


def yaml_missing_colon(key: str) -> str:
    return f"missing ':' after '{key}'"


YAML_MISSING_COLON_NOTE: Final = "a key is followed by ':' and a space: `key: value`"


def yaml_colon_in_value(key: str) -> str:
    return f"':' and a space inside the value of '{key}': YAML reads them as the start of another key"


def quote_the_value(key: str, value: str) -> str:
    """A note: the line's value, quoted whole (with the quotes it does not hold)."""
    if len(value) > 60:
        return "quote the whole value"
    quoted = "'" + value.replace("'", "''") + "'" if '"' in value else f'"{value}"'
    return f"quote the whole value: `{key}: {quoted}`"


def yaml_text_after_quote(key: str) -> str:
    return f"more text after the closing quote of the value of '{key}'"


YAML_TEXT_AFTER_QUOTE_NOTE: Final = "a quoted value ends at its closing quote: put the rest inside the quotes"


def yaml_more_of_value(key: str, spaces: int) -> str:
    return (
        f"this line is indented more than '{key}' above it ({spaces} spaces), so YAML reads it as the"
        f" rest of the value of '{key}'"
    )


def yaml_indent_keys_alike(key: str, spaces: int) -> str:
    return f"to make it a key beside '{key}', indent it by {spaces} spaces, as '{key}' is"


def yaml_indented_more(spaces: int, before: int) -> str:
    return f"this line is indented more than the line before ({_spaces(spaces)}, not {before})"


def yaml_indented_between(spaces: int, before: int, outer: int, what: str, where: str) -> str:
    return (
        f"this line is indented by {_spaces(spaces)}: less than the line before ({_spaces(before)})"
        f" and more than the {what} at {where} ({_spaces(outer)})"
    )


def yaml_less_than_text(key: str, spaces: int) -> str:
    return f"this line is indented less than the text of '{key}' above it ({_spaces(spaces)}), which ends before it"


YAML_TEXT_INDENT_NOTE: Final = (
    "every line of a `|` or `>` text is indented at least as much as its first line"
)
YAML_INDENT_NOTE: Final = "the lines of one mapping or list line up: indent this line like one of them"


def yaml_item_among_keys(where: str) -> str:
    return f"a list item ('- ') among the keys of the mapping at {where}"


YAML_ITEM_AMONG_KEYS_NOTE: Final = "a list that is the value of a key goes under it, after `key:`"


def _spaces(n: int) -> str:
    return f"{n} space" + ("" if n == 1 else "s")


def _quoted(char: str) -> str:
    return f"'{char}'" if char != "'" else f'"{char}"'


def yaml_unclosed_quote(quote: str) -> str:
    return f"unclosed {_quoted(quote)}: no {_quoted(quote)} ends the text that starts here"


def yaml_quote_runs_on(quote: str, where: str) -> str:
    return (
        f"unclosed {_quoted(quote)}: this text is not closed on its line and runs on to the"
        f" {_quoted(quote)} at {where}"
    )


YAML_QUOTE_NOTE: Final = "close the quote on this line (a quote inside the text is written \\\" or '')"


def yaml_unclosed_bracket(opened: str, where: str, closing: str) -> str:
    return f"unclosed '{opened}' opened at {where}: a '{closing}' is missing"


def yaml_bracket_separator(opened: str, where: str, closing: str) -> str:
    return f"a ',' or '{closing}' is missing before this, in the '{opened}' opened at {where}"


YAML_TAB_INDENT: Final = "a tab character in the indentation: YAML indents with spaces"
YAML_TAB: Final = "a tab character here: YAML separates with spaces"


def yaml_cannot_start(char: str) -> str:
    return f"'{char}' cannot start a plain value: quote the value"


def yaml_context(context: str, where: str) -> str:
    return f"{context} at {where}"


SECOND_DOCUMENT: Final = "a second YAML document ('---'): a spec file holds one"


def unexpected_event(kind: str) -> str:
    return f"unexpected {kind}"


def unshowable_text(what: str, shown: str) -> str:
    return f"this text holds {what} ({shown}) once its escapes are read"


UNSHOWABLE_TEXT_NOTE: Final = "spec text is shown in terminals and logs: write it without that character"


def yaml_too_deep(levels: int) -> str:
    return f"lists and mappings nest more than {levels} levels deep here"


def anchor_first_defined(name: str) -> str:
    return f"the anchor '&{name}' was first defined"


def anchor_defined_twice(name: str) -> str:
    return f"the anchor '&{name}' is defined twice"


def alias_inside_itself(name: str) -> str:
    return f"the alias '*{name}' is inside the node it names: a structure that contains itself"


def anchor_is_at(name: str, where: str) -> str:
    return f"'&{name}' is at {where}"


def alias_without_anchor(name: str | None) -> str:
    return f"the alias '*{name}' names no anchor defined before it"


def aliases_too_many(limit: int) -> str:
    return f"the aliases of this file stand for more than {limit:,} values in all"


ALIASES_TOO_MANY_NOTE: Final = (
    "each alias counts as a copy of the whole value it names; " + protects_the_tool("MAX_ALIAS_NODES")
)


def alias_too_deep(name: str, levels: int) -> str:
    return f"with the value of '*{name}', lists and mappings nest more than {levels} levels deep here"


# ---- reading the spec's YAML (load.py: the Reader) ----------------------------------------------


def must_be_mapping(what: str) -> str:
    return f"{what} must be a mapping"


def keys_must_be_names(what: str) -> str:
    return f"keys of {what} must be plain names"


def duplicate_key(key: str, what: str) -> str:
    return f"duplicate key '{key}' in {what}"


def merge_key(what: str) -> str:
    return f"'<<' (a YAML merge key) in {what}: spec files do not merge mappings"


MERGE_KEY_NOTE: Final = "write the keys out"


def unknown_key(key: str, what: str, close: str | None) -> str:
    return f"unknown key '{key}' in {what}" + did_you_mean_suffix(close)


def allowed_keys(allowed: tuple[str, ...]) -> str:
    return f"allowed keys: {', '.join(allowed)}"


def needs_key(what: str, key: str) -> str:
    return f"{what} needs the key '{key}'"


def must_be_list(what: str) -> str:
    return f"{what} must be a list"


def must_be_single_value(what: str) -> str:
    return f"{what} must be a single value"


def must_be_integer(what: str) -> str:
    return f"{what} must be an integer"


def must_be_true_or_false(what: str) -> str:
    return f"{what} must be true or false"


def needs_a_type(what: str) -> str:
    return f"{what} needs a type"


# ---- the size of a state (bounds.py) -----------------------------------------------------------


def _figure(n: int) -> str:
    """A count with thousands separators (one too long to print, which no limit nears, in short)."""
    return f"{n:,}" if n < 10**30 else "more than 10^30"


def state_table_too_big(name: str, entries: int, sizes: list[int], limit: int) -> str:
    shown = " x ".join(f"{n:,}" for n in sizes[:8]) + (" x ..." if len(sizes) > 8 else "")
    return f"state variable '{name}' has {_figure(entries)} entries ({shown}); at most {limit:,}"


def state_table_indices(indices: list[tuple[str, str]]) -> str:
    shown = ", ".join(f"{t} ({what})" for t, what in indices[:8]) + (", ..." if len(indices) > 8 else "")
    return f"an entry for every combination of its indices: {shown}"


def state_too_big(total: int, tables: int, zones: int, components: int, piles: int, limit: int) -> str:
    held = f"{components:,} component{'s' * (components != 1)}, {piles:,} pile{'s' * (piles != 1)}"
    where = f" and {zones:,} in its zones ({held})" if zones else ""
    return (
        f"a state of this game has {_figure(total)} entries: {_figure(tables)} in its state "
        f"variables{where}; at most {limit:,}"
    )


def biggest_tables(tables: list[tuple[str, int]]) -> str:
    return "the biggest: " + ", ".join(f"'{name}' has {_figure(n)}" for name, n in tables)


STATE_COPIED_NOTE: Final = "every state holds them all, and the engine copies a state at every step"


# ---- assembling the spec (load.py: sections, declarations, scenarios) ---------------------------

NO_SPEC_FILES: Final = "no *.yaml spec files in this folder"
SCENARIOS_NOT_A_FOLDER: Final = "'scenarios' here is not a folder, so no scenario was read"
SCENARIOS_IS_A_LINK: Final = (
    "'scenarios' here is a symbolic link, which is not followed, so no scenario was read: "
    "a spec's files must be inside its folder"
)


def unknown_top_level_key(key: str, close: str | None) -> str:
    return f"unknown top-level key '{key}'" + did_you_mean_suffix(close)


def set_in_two_files(key: str) -> str:
    return f"'{key}' is set in two files"


def first_set_at(where: Span) -> str:
    return f"first set at {where}"


GAME_NAME_EMPTY: Final = "'game' needs a name (the spec folder's name, in lower case with _)"
NO_GAME_NAME: Final = "the spec needs a top-level 'game' name"
NO_PLAYERS: Final = "the spec needs a top-level 'players' section"
ONE_LABEL_PER_NAME: Final = "players.labels needs one label per name"
ONE_LABEL_PER_ENUM_VALUE: Final = "an enum's labels need one label per value"
MAX_NUMBER_NEGATIVE: Final = "actions.max_number must be 0 or more"


def max_number_too_large(number: int, limit: int) -> str:
    return f"actions.max_number is {number:,}; the limit is {limit:,}"


MAX_NUMBER_NOTE: Final = (
    "every number up to it is an action of the game, listed in the engine; " + protects_the_tool("MAX_NUMBER")
)


def step_budget_out_of_range(limit: int) -> str:
    return f"limits.steps is a number of steps from 1 to {limit:,}"


def components_without_type(tname: str, hint: str) -> str:
    return f"components of '{tname}' but no type '{tname}' is declared" + hint


def option_type(typ: str, hint: str = "") -> str:
    return f"an option is 'int', 'bool' or an enum, not '{typ}'" + hint


def name_the_enum(typ: str, enums: list[str]) -> str:
    example = enums[0] if enums else "pace"
    return f"an enum option names its enum: `type: {example}`" + (
        f" (the enums: {', '.join(enums[:8])})" if enums else " (declared under `enums:`)"
    )


def default_not_a_choice(option: str) -> str:
    return f"the default of option '{option}' must be one of its choices"


def same_enum_label(enum: str, label: str) -> str:
    return f"two values of enum '{enum}' are labelled '{label}'; labels name actions, so they must differ"


BOOL_OPTION_DEFAULT: Final = "the default of a bool option must be true or false"
INT_OPTION_DEFAULT: Final = "the default of an int option must be an integer"


def unknown_component_field(tname: str, field: str, close: str | None) -> str:
    return f"type '{tname}' has no field '{field}'" + did_you_mean_suffix(close)


def component_without_id(tname: str) -> str:
    return f"every '{tname}' component needs an 'id'"


VARIABLE_VISIBILITY: Final = "visibility of a variable is 'public' or 'owner'"


def zone_per_count(count: int) -> str:
    return (
        f"a zone's 'per' names at most two index types (a player, a component type or an enum), not {count}"
    )


def bad_zone_index(t: object) -> str:
    return f"a zone can be indexed by players, components or enums, not {t}"


def zone_instances_too_many(name: str, count: int, limit: int) -> str:
    return f"zone '{name}' has {count:,} instances (one per index tuple); at most {limit:,}"


def zone_value_stored(what: str, t: object) -> str:
    return f"{what} cannot hold a zone ({t}): a zone value lives only in code (parameters, locals, results)"


def zone_kind(kind: str) -> str:
    return f"a zone kind is 'pile' or 'grid', not '{kind}'"


def zone_visibility(vis: str) -> str:
    return f"zone visibility is 'public', 'owner', 'others' or 'hidden', not '{vis}'"


def results_kind(kind: str, hint: str) -> str:
    return f"results.kind is 'zero_sum', 'constant_sum', 'identical' or 'general_sum', not '{kind}'{hint}"


def results_min_above_max(low: int, high: int) -> str:
    return f"results.min ({low}) is above results.max ({high}): no return could lie between them"


RESULTS_SUM_NOT_CONSTANT: Final = (
    "results.sum is the sum of a constant_sum game's returns: write it with kind: constant_sum"
)
RESULTS_SUM_NOTE: Final = "a zero_sum game's returns sum to 0; other kinds have no fixed sum"


def grid_radius(limit: int, radius: int) -> str:
    return f"a grid's radius is from 1 to {limit}, not {radius:,}"


GRID_RADIUS_NOTE: Final = "the grid has (2r + 1)^2 cells, each an action of the game; " + protects_the_tool(
    "MAX_GRID_RADIUS"
)


def not_a_plain_name(what: str, name: str, plain: str) -> str:
    """`what` is "trigger name", "component id" and the like."""
    return f"{what} '{name}' is not a plain name; use letters, digits and _ (e.g. '{plain}')"


def already_defined(what: str, name: str) -> str:
    return f"{what} '{name}' is already defined"


EMPTY_SCENARIO_FILE: Final = "this scenario file is empty; it needs 'name' and 'actions'"
DICE_NOT_INTEGERS: Final = "dice must be a list of integers"
SHUFFLES_AND_DRAWS: Final = (
    "a scenario forces shuffles either whole ('shuffles') or by what is drawn first ('draws'), not both"
)


def key_outside_step(key: str) -> str:
    return f"a scenario with 'steps' keeps '{key}' inside a step"


KEY_OUTSIDE_STEP_NOTE: Final = "each step is a mapping of 'actions' and the expectations that hold after them"
NO_STEPS: Final = "'steps' needs at least one step"
NO_ACTIONS: Final = "a scenario needs the key 'actions' (or 'steps')"
ERROR_BEFORE_LAST_STEP: Final = "only the last step may expect an error: an illegal action ends the scenario"


# ---- parsing DSL strings (parse.py) --------------------------------------------------------------


def code_too_long(chars: int, limit: int) -> str:
    return f"this code has {chars:,} characters; the limit is {limit:,}"


CODE_TOO_LONG_NOTE: Final = "split it into procedures or functions; " + protects_the_tool("MAX_DSL_CHARS")


def code_too_deep(levels: int) -> str:
    return f"this code nests more than {levels} levels deep (operators, brackets and blocks)"


CODE_TOO_DEEP_NOTE: Final = "split it with `let` or a function; " + protects_the_tool("MAX_DSL_DEPTH")


def unexpected_token(got: str, expected: str) -> str:
    """`got` is a quoted token or END_OF_TEXT; `expected` lists what could have stood there."""
    return f"unexpected {got}; expected {expected}"


END_OF_TEXT: Final = "end of the text"
UNEXPECTED_END: Final = "unexpected end of the text"
UNCLOSED_STRING: Final = "this string has no closing '\"' on its line"


def unexpected_character(char: str) -> str:
    return f"unexpected character '{char}'"


def never_closed(bracket: str, line: int, col: int) -> str:
    return f"the '{bracket}' at {line}:{col} is never closed"


def reserved_word(word: str) -> str:
    return f"'{word}' is a reserved word of the language, so it cannot be a name: rename it"


ACTIVE_NEEDS_MODIFIER: Final = (
    "'active' is followed by a modifier: `active name(args)`, or `active name` for one without parameters"
)
ACTIVE_WITHOUT_PARENTHESES: Final = (
    "no brackets around the modifier: `active shield(p)`, not `active(shield(p))`"
)
ACTIVE_IS_RESERVED: Final = "'active' is a reserved word: no variable, function or modifier can be named so"


def active_in_comprehension(quant: str) -> str:
    """`count(active m(x))`, `any(active m(x) for ...)`: the word after the bracket is its variable."""
    if quant == "count":
        return "`count active name(args)` counts a modifier's instances (no brackets); `count(x in xs where ...)` counts elements"
    return f"'{quant}(' names its variable first: `{quant}(x in xs where active name(x))`"


ACTIVE_AFTER_ADD: Final = "`add` names the modifier itself, without `active`: add name(args) until ..."
CANCEL_ONE: Final = (
    "`cancel one name(args)` removes the earliest added instance of a modifier"
    " (a modifier named 'one': `cancel one one`)"
)
IF_STATEMENT_BLOCK: Final = (
    "an `if` statement takes a block: `if cond { ... }`; `if c then a else b` is an expression"
)


UNCLOSED_INTERPOLATION: Final = "a '{' in a string has no closing '}'"


# ---- bounds (bounds.py) ----------------------------------------------------------------------------


def blocks_too_deep(depth: int, limit: int) -> str:
    return f"blocks nest {depth} deep here; at most {limit} are allowed"


BLOCKS_TOO_DEEP_NOTE: Final = "move the inner part into a procedure or a function"


def loops_too_deep(depth: int, limit: int) -> str:
    return f"loops nest {depth} deep here; at most {limit} are allowed"


LOOPS_TOO_DEEP_NOTE: Final = "move the inner loops into a procedure or a function"


def expression_too_deep(depth: int, limit: int) -> str:
    return f"this expression nests {depth} deep; at most {limit} are allowed"


EXPRESSION_TOO_DEEP_NOTE: Final = "name parts of it with `let`, or sum a list: sum(x for x in [a, b, c])"


def calls_too_deep(what: str, name: str, depth: int, chain: str, limit: int) -> str:
    return f"{what} '{name}' nests calls {depth:,} levels deep ({chain}); this call goes past {limit}"


CALLS_TOO_DEEP_NOTE: Final = (
    "a call of a function or an expression field nests the body it calls: each call counts a level, "
    "and each expression around a call one more"
)


def trigger_loop(event: str, chain: str) -> str:
    return f"the triggers on event '{event}' always emit it again ({chain}), so they never end"


def calls_itself(kind: str, name: str, chain: str) -> str:
    return f"{kind} '{name}' always calls itself again ({chain}), so it never ends"


ENDLESS_RECURSION_NOTE: Final = "make the call depend on a condition that eventually fails"


# ---- resolving declarations (resolve.py) -----------------------------------------------------------

PLAYER_COUNT_BELOW_ONE: Final = "players.count must be at least 1"
PLAYER_COUNT_KIND: Final = "players.count is a number or an option name"


def more_players_than_names(count: int, names: int) -> str:
    return f"{count} players but only {names} player names"


def player_count_not_an_option(name: str, hint: str) -> str:
    return f"player count '{name}' is not a declared option" + hint


def player_count_option_kind(name: str) -> str:
    return (
        f"option '{name}' sets the player count: it must be an int "
        "option with 'choices' (e.g. choices: [2, 3, 4])"
    )


def player_count_choices(name: str, choices: list[int], default: object, names: int) -> str:
    return f"option '{name}' allows {choices} players (default {default}); there are {names} player names"


def built_in_type(name: str) -> str:
    return f"'{name}' is a built-in type"


def copies_out_of_range(copies: int, limit: int) -> str:
    return f"copies is a whole number from 1 to {limit}, not {copies:,}"


COPIES_NOTE: Final = (
    "a copy is a component of its own, in every per-component variable and zone; "
    + protects_the_tool("MAX_COPIES")
)


def components_too_many(limit: int) -> str:
    return f"the component rows stand for more than {limit:,} components with their copies"


COMPONENTS_NOTE: Final = "the rows from here on count one copy each; " + protects_the_tool("MAX_COMPONENTS")


def ambiguous_copy(ident: str, copies: int) -> str:
    return f"'{ident}' names a row of {copies} identical copies, not one component"


def ambiguous_copy_note(ident: str) -> str:
    return (
        f'compare kinds with `c.id == "{ident}"`, or take copies from where they are: '
        f'`filter(x in ZONE where x.id == "{ident}")`, `[x for x in TYPE where x.id == "{ident}"]`'
    )


AMBIGUOUS_COPY_IN_DATA_NOTE: Final = (
    "a value in YAML names one component: name a row without copies, or hold the kind's id in a "
    "`str` field and compare it with `c.id` in code"
)


def scenario_too_many_copies(ident: str, copies: int, what: str) -> str:
    return f"'{ident}' has {copies} copies, and {what} names it more often"


def same_component_label(tname: str, label: str) -> str:
    return f"two {tname} components are named '{label}'; names label actions, so they must differ"


def the_other_is_at(where: Span) -> str:
    return f"the other is at {where}"


CONSTANT_KIND: Final = "a constant is an integer or true/false"


def bad_variable_index(t: object) -> str:
    return f"a variable can be indexed by players, components or enums, not {t}"


OWNER_VARIABLE_NOT_PER_PLAYER: Final = "an 'owner'-visible variable must be indexed first by player"


def initial_out_of_range(value: object, low: object, high: object) -> str:
    return f"initial value {value} is outside {low}..{high}"


def zone_holds(t: object) -> str:
    return f"a zone holds components, not {t}"


def zone_not_per_player(vis: str) -> str:
    return (
        f"an '{vis}'-visible zone needs a player index ('per: player' or 'per: [T, player]'): "
        "the player is its owner"
    )


def bad_game_name(name: str) -> str:
    return (
        f"the game name '{name}' is not a plain lower-case name (it names a Python package): "
        "start with a letter, then letters, digits or _, and not a Python keyword"
    )


def bad_phase_counter(counter: str, phase: str, hint: str) -> str:
    return f"counter '{counter}' of phase '{phase}' must be a declared int state variable" + hint


def trigger_on_unknown_event(trigger: str, event: str, hint: str) -> str:
    return f"trigger '{trigger}' is on an undeclared event '{event}'" + hint


def bad_zone_pattern(trigger: str, text: str) -> str:
    return (
        f"trigger '{trigger}' is on '{text}', neither an event nor a zone pattern; write an event's "
        "name, or 'c enters hand[p]', 'c leaves deck', 'c enters expedition[k, q]'"
    )


def zone_pattern_unknown_zone(zone: str, hint: str) -> str:
    return f"the trigger's pattern names an undeclared zone '{zone}'" + hint


def zone_pattern_shadows(name: str, what: str) -> str:
    return f"'{name}' would hide {what}; bind another name"


def zone_pattern_indices(zone: str, per: int, given: int) -> str:
    if per == 0:
        return f"zone '{zone}' has no index, but the pattern binds {given}; write '... {zone}'"
    return f"zone '{zone}' has {per} ind{'ex' if per == 1 else 'ices'}, but the pattern binds {given}"


ZONE_TRIGGER_ASKS: Final = (
    "a trigger on a zone runs in the middle of a move and cannot ask; emit an event and ask there"
)


NO_PHASES: Final = "the spec needs 'phases': the game's flow"


def repeat_and_while(phase: str) -> str:
    return (
        f"phase '{phase}' has both 'repeat' and 'while'; "
        "a phase repeats a number of times or while a condition holds"
    )


def counter_without_loop(phase: str) -> str:
    return f"phase '{phase}' has a 'counter' but neither 'repeat' nor 'while'"


def phase_without_body(phase: str) -> str:
    return f"phase '{phase}' needs 'do' or 'steps'"


def unknown_type(name: str, hint: str) -> str:
    return f"unknown type '{name}'" + hint


def component_lacks(ent: str, field: str) -> str:
    return f"'{ent}' has no '{field}'"


OPTIONAL_DATA_NOTE: Final = "declare the field with 'optional: true' to allow a default"
OPTIONAL_CODE_NOTE: Final = "declare the field with 'optional: true' to use its type's default"


def not_a_code_field(field: str) -> str:
    return f"'{field}' is not a code field"


def expected_integer(value: object) -> str:
    return f"expected an integer, got {value!r}"


def expected_bool(value: object) -> str:
    return f"expected true or false, got {value!r}"


def expected_list(value: object) -> str:
    return f"expected a list, got {value!r}"


def unknown_value(kind: str, value: object, hint: str) -> str:
    """A YAML value naming no `kind` ("player", a type or an enum)."""
    return f"unknown {kind} '{value}'" + hint


def not_writable_in_yaml(t: object) -> str:
    return f"a value of type {t} cannot be written in YAML"


# ---- checking code: scenarios (check.py) -----------------------------------------------------------


def scenario_unknown_option(scenario: str, option: str, hint: str) -> str:
    return f"scenario '{scenario}' sets an undeclared option '{option}'" + hint


def scenario_enum_option(option: str, value: object, allowed: list[str], hint: str) -> str:
    return f"option '{option}' is one of {', '.join(allowed[:12])}, not '{value}'" + hint


def scenario_option_type(option: str, typ: str, value: object) -> str:
    return f"option '{option}' is {typ}, not {value!r}"


def scenario_unknown_component(value: object, what: str, hint: str) -> str:
    return f"unknown component '{value}' in {what}" + hint


def scenario_unknown_phase(scenario: str, verb: str, value: object, hint: str) -> str:
    return f"scenario '{scenario}' {verb} '{value}', which is not a phase" + hint


ACTION_NOT_A_LABEL: Final = 'an action is written as its label, e.g. a card\'s name, "(1,0)" or "yes"'


def not_a_player(value: object, draw_too: bool, hint: str) -> str:
    return f"'{value}' is not a player of this game" + (" nor 'draw'" if draw_too else "") + hint


def players_are_labels(labels: list[str]) -> str:
    return "players are named by their labels: " + ", ".join(labels)


def unknown_invariant(name: object, hint: str) -> str:
    return f"no invariant is named '{name}'{hint}"


def invariants_are(names: list[str]) -> str:
    if not names:
        return "the spec declares no invariants (an `invariants` section lists them, each with its name)"
    shown = ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")
    return f"the invariants are: {shown}"


# ---- checking code: decisions and statements (check.py) -------------------------------------------


def expected_type(want: object, got: object) -> str:
    return f"expected {want}, got {got}"


def must_be_type(what: str, want: object, got: object) -> str:
    return f"{what} must be {want}, got {got}"


END_GAME_WITHOUT_RESULTS: Final = (
    '`end game "..."` names no winner, so the returns decide, and this spec has no `results` section'
)
END_GAME_WITHOUT_RESULTS_NOTE: Final = (
    "add `results: {returns: ...}` (docs/dsl.md, Results), or name the outcome: "
    "`end game winner P`, `end game winners [P, Q]` or `end game draw`"
)


DECISION_IN_SETUP: Final = "a scenario's setup cannot stop to ask a player"
DECISION_WITHOUT_PLAYER: Final = "this decision does not say who makes it; add 'by PLAYER'"
SIMULTANEOUS_WITHOUT_EACH: Final = (
    "a simultaneous decision is made by each player of a list; "
    "write `by each p in PLAYERS` (e.g. `simultaneously choose from hand[p] by each p in players`)"
)


def each_without_simultaneously(form: str) -> str:
    return (
        f"`by each` asks every player of a list at once; write `simultaneously {form} ... by each p in PLAYERS`, "
        "or `by PLAYER` for one player"
    )


def simultaneous_copies(t: object) -> str:
    return f"a simultaneous choice cannot be made among {t}s: the type has identical copies"


def shadowed_name(name: str, what: str) -> str:
    return f"'{name}' already names {what}; choose another name for the player of `by each`"


DECISION_WHERE_NOTHING_WAITS: Final = (
    "a decision cannot be made inside a function, "
    "condition, invariant, evaluation or expectation; make it in a procedure"
)
DECISION_INSIDE_EXPRESSION: Final = (
    "this decision cannot be asked before its statement runs; ask it first: `let x = choose from xs by p`"
)


def choose_from(t: object) -> str:
    return f"choose needs a list or zone to choose from, got {t}"


def cannot_choose_among(t: object) -> str:
    return f"cannot choose among values of type {t}"


def let_declared(var: str, declared: object, got: object) -> str:
    return f"'{var}' is declared {declared}, got {got}"


LET_NONE: Final = "cannot tell the type of 'none' here; give the variable a typed value first"
LET_EMPTY_LIST: Final = "cannot tell what '[]' will hold; declare the type, e.g. `let xs: list[card] = []`"


def for_source(t: object) -> str:
    return f"for needs a list or zone, got {t}"


def cannot_move(item: object, dest: object) -> str:
    return f"cannot move {item} into a zone of {dest}"


def cannot_place(item: object, dest: object) -> str:
    return f"cannot place {item} on a grid of {dest}"


def cannot_deal(source: object, dest: object) -> str:
    return f"cannot deal {source} into a zone of {dest}"


def no_procedure(name: str, hint: str) -> str:
    return f"no procedure '{name}'" + hint


# ---- response windows (load.py desugars them; check.py checks their calls and fields)
def no_window(name: str, hint: str) -> str:
    return f"no response window '{name}'" + hint


def window_as_procedure(name: str) -> str:
    return f"'{name}' is a response window: run it with `respond {name}(...)`"


def window_until(until: str) -> str:
    return f"'until' is first or all, not '{until}'"


def window_disclosure(word: str) -> str:
    return f"'disclosure' is secretly or publicly (plain when left out), not '{word}'"


def window_who(t: object) -> str:
    return f"'who' must be a list of players, got {t}"


def window_with(t: object) -> str:
    return f"'with' must be a list of each responder's options, got {t}"


WINDOW_OPENS: Final = "'opens' is one call of a response window: `opens: \"name(args)\"`"
WINDOW_RESPONSE_WITHOUT_WITH: Final = "'response' is known only in a window with 'with'"
WINDOW_RETURN: Final = "a window's code cannot `return`: the window's value is who responded"
WINDOW_RETURN_NOTE: Final = (
    "`break` in 'does' or 'declined' closes the window at once; `end game` ends the game"
)
WINDOW_RESPONSE_NOTE: Final = (
    "without 'with' each responder answers a yes/no question, and a response is the answer yes"
)


def do_needs_component(t: object) -> str:
    return f"'do' needs a component, got {t}"


def no_effect_field(tname: str, field: str, hint: str) -> str:
    return f"type '{tname}' has no effect field '{field}'" + hint


def no_phase(name: str, hint: str) -> str:
    return f"no phase '{name}'" + hint


def no_event(name: str, hint: str) -> str:
    return f"no event '{name}'" + hint


def no_modifier(name: str, hint: str) -> str:
    return f"no modifier '{name}'" + hint


def modifiers_declared(names: list[str]) -> str:
    """A note under `no modifier 'x'` when no declared name is close."""
    if not names:
        return "the spec declares no modifiers: declare each under `modifiers:`"
    shown = ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
    return f"the modifiers are: {shown}"


def not_a_modifier(name: str, kind: str) -> str:
    """A note under `no modifier 'x'` when x is declared as something else (`kind`: "a function")."""
    return f"'{name}' is {kind}, not a modifier (one declared under `modifiers:`)"


CANCEL_ACTIVE: Final = "`cancel` names the modifier itself, without `active`: cancel name(args)"


def modifier_as_value(name: str, has_params: bool) -> str:
    """A modifier written as a name or a call: `fog`, `shield(p)`."""
    call = f"{name}(...)" if has_params else name
    return f"'{name}' is a modifier: test it with `active {call}` (or count it with `count active {call}`)"


def modifier_as_procedure(name: str, has_params: bool) -> str:
    call = f"{name}(...)" if has_params else name
    return f"'{name}' is a modifier, not a procedure: switch it on with `add {call} until ...`, off with `cancel {call}`"


def only_count_active(quant: str) -> str:
    return f"'{quant} active' is not a form: `count active name(args)` counts a modifier's instances, `active name(args)` tests one"


def assign_to_comprehension_variable(name: str) -> str:
    return f"'{name}' is a comprehension variable; it cannot be assigned"


def index_count(name: str, wanted: int, got: int) -> str:
    return f"'{name}' takes {wanted} indices, got {got}"


def cannot_assign_to(name: str, hint: str) -> str:
    return f"cannot assign to '{name}': not a local or a state variable" + hint


def update_needs_int(op: str, name: str, t: object) -> str:
    return f"'{op}' needs an int variable, '{name}' is {t}"


def cannot_assign(name: str, target: object, t: object) -> str:
    return f"'{name}' is {target}, cannot assign {t}"


def expected_zone(t: object) -> str:
    return f"expected a zone, got {t}"


def expected_zone_kind(kind: str, t: object, is_kind: str) -> str:
    return f"expected a {kind} zone, '{t}' is a {is_kind}"


LIST_IS_NO_ZONE_NOTE: Final = (
    "a list is no zone: a `let` without a type holds a copy of a zone's components; write the type "
    "to hold the zone itself (`let z: pile[card] = hand[p]`)"
)


def empty_needs_zone(t: object) -> str:
    return f"empty() needs a zone, got {t} (for a list, write len(xs) == 0)"


def between(low: int, high: int) -> int | str:
    """How many arguments a call takes: `low`, or "1 or 2", "2 to 4"."""
    if low == high:
        return low
    return f"{low} or {high}" if high == low + 1 else f"{low} to {high}"


def argument_count(what: str, wanted: int | str, got: int) -> str:
    """`what` is "function 'f'", "'field'" and the like."""
    return f"{what} takes {wanted} argument(s), got {got}"


def missing_effect(ent: str, field: str) -> str:
    """A warning: the component's effect is not written yet."""
    return f"'{ent}' has no '{field}' yet: it does nothing"


# ---- checking code: expressions and builtins (check.py) -------------------------------------------


def no_expression_field(t: object, name: str) -> str:
    return f"{t} has no expression field '{name}'"


def list_cannot_hold(elem: object, t: object) -> str:
    return f"a list of {elem} cannot hold {t}"


def cannot_join(left: object, right: object) -> str:
    return f"cannot join {left} and {right}"


def needs_int_operands(op: str, t: object) -> str:
    return f"'{op}' needs int operands, got {t}"


def membership_needs_list(op: str, t: object) -> str:
    return f"'{op}' needs a list or zone, got {t}"


def never_in(item: object, container: object) -> str:
    return f"{item} is never in a {container}"


def cannot_compare(left: object, right: object) -> str:
    return f"cannot compare {left} with {right}"


def branches_differ(then: object, other: object) -> str:
    return f"the branches differ: {then} and {other}"


def expected_list_or_zone(t: object) -> str:
    return f"expected a list or zone, got {t}"


def state_needs_indices(name: str, per: str) -> str:
    return f"'{name}' is indexed by {per}; write {name}[...]"


def zone_needs_owner(name: str) -> str:
    return f"zone '{name}' is per player; write {name}[player]"


def unknown_name(name: str, hint: str) -> str:
    return f"unknown name '{name}'" + hint


def field_needs_component(field: str, t: object) -> str:
    return f"'.{field}' needs a component, got {t}"


def no_field(tname: str, field: str, hint: str) -> str:
    return f"type '{tname}' has no field '{field}'" + hint


def zone_index_count(name: str, per: list[str], got: int) -> str:
    if not per:
        return f"zone '{name}' takes no index but a position (deck[0]), got {got}"
    wanted = f"{len(per)} ind{'ex' if len(per) == 1 else 'ices'}"
    return f"zone '{name}' takes {wanted}, got {got}; write {name}[{', '.join(per)}]"


def cannot_index(t: object) -> str:
    return f"cannot index {t}"


def procedure_as_value(name: str) -> str:
    return (
        f"procedure '{name}' gives no value (it has no `returns:`); call it as a statement, "
        "or declare `returns: T` and end it with `return VALUE`"
    )


def procedure_call_misplaced(name: str) -> str:
    return (
        f"procedure '{name}' cannot be called inside a function, condition, invariant, evaluation "
        "or expression field: a procedure may change the game and ask players; call it in a "
        "procedure, trigger, effect or phase"
    )


CALL_INSIDE_EXPRESSION: Final = (
    "a procedure call here cannot run before the statement; call it first: `let x = name(args)`"
)
# why a decision or a procedure call cannot run before its statement (hoist.py); `{what}` names it
WHILE_ASKS_EACH_TIME: Final = (
    "{what} cannot stand in a `while` condition, which is evaluated before each pass; "
    "ask in the loop instead: `while true { let go = ask ... by p; if not go { break } ... }`"
)
WHERE_ASKS_EACH_TIME: Final = (
    "{what} cannot stand in the `where` of a `for`, which is evaluated for each element; "
    "ask in the loop instead, and `continue` to skip an element"
)
ONE_BRANCH_EVALUATED: Final = (
    "{what} cannot stand in a branch of `if ... then ... else`, of which only one is evaluated; "
    "use an `if` statement, or run it first: `let x = ...`"
)
EVALUATED_PER_ELEMENT: Final = (
    "{what} cannot stand in the item or condition of a comprehension, quantifier or aggregate, "
    "evaluated once per element; use a `for` loop"
)


def not_always_evaluated(op: str) -> str:
    return (
        "{what} cannot stand on the right of "
        f"`{op}`, which is evaluated only when the left side "
        "does not decide; run it first: `let x = ...` before the statement"
    )


RETURN_TAKES_WHAT_FOLLOWS: Final = (
    "`return` reads what follows it, even on the next line, as its value: "
    "end the block after a bare `return` (`if done { return }`)"
)
RETURN_WITHOUT_RETURNS: Final = (
    "this procedure has no `returns:`; declare `returns: T` to give a value, or write a bare `return`"
)
RETURN_VALUE_OUTSIDE_PROCEDURE: Final = (
    "`return VALUE` gives a value only in a procedure with `returns:`; here write a bare `return`"
)


def return_without_value(name: str, t: str) -> str:
    return f"procedure '{name}' returns {t}: `return` needs a value (`return VALUE`)"


def missing_return(name: str) -> str:
    return (
        f"procedure '{name}' has `returns:`, but its end can be reached without `return VALUE`; "
        "end it with `return VALUE` or `end game ...` (or an if/elif/else whose every branch ends so)"
    )


def return_value_type(name: str, want: object, got: object) -> str:
    return f"procedure '{name}' returns {want}, but this value is {got}"


OUTSIDE_LOOP: Final = "`{}` is allowed only inside a `for`, `repeat` or `while` loop"


def unknown_function(name: str, hint: str) -> str:
    return f"unknown function '{name}'" + hint


def needs_grid_component(builtin: str, t: object) -> str:
    return f"'{builtin}' needs a component on a grid, got {t}"


def misplaced_chance(builtin: str) -> str:
    return (
        f"'{builtin}' changes the game's random state, so it cannot be "
        "used in a function, condition, invariant, evaluation or expectation; use it in a procedure"
    )


def two_or_more_numbers(builtin: str) -> str:
    return f"'{builtin}' takes 2 or more numbers (or '{builtin}(x for x in xs)')"


CELLS_NEED_GRID: Final = "cells need a grid zone (a zone with 'kind: grid')"


# ---- what may stop for a decision (suspension.py) ------------------------------------------------

STOPS_WHERE_IT_CANNOT: Final = (
    "this stops for a decision, which cannot happen here "
    "(inside a function, condition, scenario setup or non-stopping trigger)"
)


# ---- what cached functions read (reads.py) -----------------------------------------------------


def cached_list_parameter(function: str, param: str) -> str:
    return (
        f"function '{function}' is cached, but its parameter '{param}' is a list: a cache keeps "
        "values by single arguments (numbers, components, players, ...); pass the items one at a "
        "time, or leave the function uncached"
    )


# ---- hidden information (secrecy.py) ---------------------------------------------------------------


def leaky_options(places: str, verb: str) -> str:
    return (
        "the answer to this decision is logged for every player, but its options are hidden "
        f"from some of them (from {places}); write {_disclosed('secretly', verb)}"
    )


def _disclosed(word: str, verb: str) -> str:
    """How to say that a decision is secret or public: in code, or as a response window's key
    (`verb` is then "window NAME")."""
    if verb.startswith("window "):
        return f"`disclosure: {word}` in {verb}"
    return f"`{word} {verb}`"


def leaky_own_cards(zone: str) -> str:
    return (
        f"the options of this decision are cards of the chooser's own zone '{zone}', which they "
        "may not see: the options offered to them would name the cards"
    )


OWN_CARDS_NOTE: Final = (
    "let them choose a position instead (`choose number from 1 to len(...)`), and show the card "
    "when it leaves the zone"
)


LEAKY_OPTIONS_NOTE: Final = (
    "nothing after the decision shows the chosen value to every player (a move to a public "
    "zone, `reveal`, or a log line naming it)"
)


def leaky_steer(dealt: bool, source: str, dest: str, line: int, verb: str) -> str:
    what = "are dealt" if dealt else "move"
    return (
        "the answer to this decision is logged for every player, and it steers which hidden "
        f"cards {what} from {source} to {dest} (line {line}); write {_disclosed('secretly', verb)}"
    )


def publicly_note(verb: str) -> str:
    return f"if every player may know the answer anyway, write {_disclosed('publicly', verb)} and say why in a comment"


def variable_seen_by_owner(name: str, where: Span) -> str:
    return f"variable '{name}' is seen only by its owner (visibility: owner, declared at {where})"


def zone_value_may_be_hidden(t: str) -> str:
    return (
        f"the options are a zone value ({t}): which zone it is is not known here, so it counts as "
        "hidden if any zone of its type is"
    )


def zone_hidden(name: str, visibility: str, where: Span) -> str:
    who = {
        "hidden": "nobody sees its cards",
        "others": "its owner does not see its cards",
    }.get(visibility, "only its owner sees its cards")
    return f"zone '{name}': {who} (visibility: {visibility}, declared at {where})"


# ---- the board (board.yaml) --------------------------------------------------------------------
BOARD_IN_ITS_FILE: Final = (
    "the board is declared in board.yaml, beside the rules: it is not a rule, so editing it leaves "
    "saved games and logs valid"
)


def only_board(key: str) -> str:
    return f"board.yaml holds only the key 'board', not '{key}' (rules go in the other files)"


def must_be_pair(what: str) -> str:
    return f"{what} must be two numbers, [x, y]"


def board_number(what: str, low: int, high: int) -> str:
    return f"{what} must be whole numbers from {low} to {high}"


def bad_color(what: str, text: str) -> str:
    return f"{what} must be a colour such as '#1f5fbf' or 'navy', not {text!r}"


def one_layout(layouts: tuple[str, ...], written: list[str]) -> str:
    said = f" (it has {', '.join(written)})" if written else ""
    return f"a place of the board needs exactly one of {', '.join(layouts)}: where its components stand{said}"


def each_player(text: str) -> str:
    return f"'each' can only be 'player' (a marker per player, read as p), not {text!r}"


def track_too_long(steps: int, most: int) -> str:
    return f"a track of {steps:,} steps, each drawn as a box; at most {most:,}"


def bore_each_player() -> str:
    return "a track with 'style: bore' needs 'each: player': two players boring from its opposite ends"


def bore_ends(missing: list[str]) -> str:
    return f"a track with 'style: bore' is drawn on the board from [x, y] to [x, y]: it needs {' and '.join(repr(k) for k in missing)}"


def bore_only(key: str) -> str:
    return f"'{key}' places a bore on the board: it needs 'style: bore' (a track of steps is drawn along the top)"


def bore_players(count: int) -> str:
    return f"a track with 'style: bore' is bored by two players, from its two ends; this game has {count}"


def board_name(key: str, most: int) -> str:
    return f"the name shown for '{key}' must be a text of 1 to {most} characters on one line"


def board_unknown_named(name: str, close: str | None) -> str:
    return f"'{name}' is neither a zone nor a modifier: 'names' gives words to those" + did_you_mean_suffix(
        close
    )


def track_range(low: int, high: int) -> str:
    return f"a track's max must be above its min ({low} to {high})"


def board_unknown_zone(name: str, close: str | None) -> str:
    return f"the board shows zone '{name}', which is not declared" + did_you_mean_suffix(close)


def board_not_a_grid(name: str) -> str:
    return f"'cells' needs a grid zone; '{name}' is not one (kind: grid)"


def board_zone_holds(name: str, holds: str, of: str) -> str:
    return f"zone '{name}' holds {holds}, not {of}"


def board_unknown_place(ident: str, of: str, close: str | None) -> str:
    return f"'{ident}' is not a {of}" + did_you_mean_suffix(close)


def board_text(got: object) -> str:
    return f"a card's text is a str, or a list[str] written one after another; got {got}"


def board_unplaced(of: str, missing: list[str]) -> str:
    shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
    return f"the board places no position for {len(missing)} {of}(s): {shown} (not drawn)"


def board_not_a_player(name: str, close: str | None) -> str:
    return f"'{name}' is not a player" + did_you_mean_suffix(close)


def zone_value_contents(name: str, hidden: str) -> str:
    return f"the contents of '{name}', a zone value that may be zone '{hidden}'"


def board_shows_hidden(what: str, via: str) -> str:
    through = f" (through {via})" if via else ""
    return (
        f"the board would show {what}, which some player may not see{through}: "
        "a board is drawn for every player; show a count with len(...) instead"
    )
