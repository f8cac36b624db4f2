"""What the lowering's optimisations must not change (compiler/lower/reuse.py, dispatch.py).

The lowering goldens (tests/lowering/common-subexpressions, loop-invariant-calls, constant-domains,
frame-dispatch) show what the code looks like; these run it: a call computed once still fails
where, and only when, it failed before, naming the same rule; two rolls are still two rolls; a
frame whose blocks were merged saves and resumes at every decision.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from types import ModuleType

import pytest

from compiler.diagnostics import render_all
from compiler.driver import compile_spec
from compiler.limits import MAX_CALL_DEPTH
from rulewright.coverage import RuleCoverage
from rulewright.spec_loader import import_package
from runtime.engine import GameState, RuleError
from runtime.game import Game
from tests.conftest import ROOT, compiled

LOWERING = ROOT / "tests" / "lowering"


def _engine(case: str) -> ModuleType:
    """The engine module of lowering case `case`, compiled and imported."""
    result = compile_spec(LOWERING / case)
    assert result.ok, render_all(result.diagnostics)
    package = import_package(result.files, case.replace("-", "_"))
    engine: ModuleType = package.engine
    return engine


@pytest.fixture(scope="module")
def invariants() -> ModuleType:
    return _engine("loop-invariant-calls")


def _game(engine: ModuleType) -> Game:
    return Game(engine.State, (), {})


def _state(engine: ModuleType) -> GameState:
    return _game(engine).new_initial_state(0)


def _rule_error(engine: ModuleType, s: GameState, function: str) -> str:
    """The message of the rule error `function` raises, with the rule `_run` would name."""
    with pytest.raises(RuleError) as caught:
        getattr(engine, function)(s)
    return f"{caught.value}{s._where(caught.value)}"


def test_a_guarded_call_that_may_fail_runs_only_when_its_guard_holds(invariants: ModuleType) -> None:
    s = _state(invariants)
    s.v_n = 0  # ratio() would divide by zero, but `n > 0` guards it
    assert invariants.f_maybe(s) is False
    s.v_n, s.v_score = 1, [2, 0]
    assert invariants.f_maybe(s) is True  # ratio() is 2: the card of value 2


def test_a_lazily_computed_call_fails_where_it_did_naming_its_rule(invariants: ModuleType) -> None:
    s = _state(invariants)
    s.v_n, s.v_picked = 0, []
    assert "division by zero" in _rule_error(invariants, s, "f_above_ratio")
    assert _rule_error(invariants, s, "f_above_ratio").endswith(
        "(in function ratio (tests/lowering/loop-invariant-calls/game.yaml:20))"
    )
    s.v_n = 5  # ratio() is 0 now: every card passes it, and the empty list's first item fails
    with pytest.raises(IndexError) as caught:
        invariants.f_above_ratio(s)
    assert "function first_of" in s._where(caught.value)


def test_a_value_computed_once_is_the_value_computed_every_time(invariants: ModuleType) -> None:
    s = _state(invariants)
    for n, score in ((1, [0, 0]), (2, [1, 3]), (3, [2, 1])):
        s.v_n, s.v_score, s.v_picked = n, score, [invariants.E_two]
        best, ratio = max(score), score[0] // n
        values = {invariants.E_ace: 1, invariants.E_two: 2}
        assert invariants.f_above_best(s) == [c for c, v in values.items() if v > best]
        expected = [c for c, v in values.items() if v > ratio and c != invariants.E_two]
        assert invariants.f_above_ratio(s) == expected


def test_two_rolls_are_two_rolls() -> None:
    engine = _engine("common-subexpressions")
    s = _state(engine)
    assert sum("rolled" in line for line in s.log()) == 2


def test_a_frame_with_merged_blocks_saves_and_resumes_at_every_decision() -> None:
    engine = _engine("frame-dispatch")
    game = _game(engine)
    rng = random.Random(7)
    for seed in range(20):
        s = game.new_initial_state(seed)
        while not s.is_terminal():
            copy = game.state_from_json(s.to_json())
            action = rng.choice(s.legal_actions())
            s.apply_action(action)
            copy.apply_action(action)
            assert copy.to_json() == s.to_json()


def test_comprehensions_written_as_loops_compute_what_the_expressions_say() -> None:
    """compiler/lower/loops.py: each function of the case against the same rule in Python."""
    engine = _engine("comprehension-loops")
    s = _state(engine)
    value = {engine.E_ace: 1, engine.E_two: 2, engine.E_three: 3}
    nexts = {engine.E_ace: [engine.E_two], engine.E_two: [engine.E_ace, engine.E_three], engine.E_three: []}
    for n in range(-1, 5):
        s.v_n, s.v_score = n, [10, 0]
        assert engine.f_linked(s) == [c for c in value if value[c] > n or any(value[d] > n for d in nexts[c])]
        assert engine.f_guarded(s) is (n != 0 and all(value[c] // n < 3 for c in value))
        assert engine.f_total(s) == 10 + sum(v for v in value.values() if v > n)
        expected = sum(v > n for v in value.values()) if n > 1 else sum(value.values())
        assert engine.f_either(s) == expected
        assert engine.f_shadowed(s) is any(
            value[c] > n and any(value[d] == n for d in nexts[c]) for c in value
        )


def test_a_decision_and_a_test_computed_by_loops_ask_and_branch_as_before() -> None:
    engine = _engine("comprehension-loops")
    game = _game(engine)
    s = game.new_initial_state(0)  # n is 0: every card with a next card may be picked
    assert [s.action_to_string(a) for a in s.legal_actions()] == ["ace", "two"]
    s.apply_action(s.legal_actions()[1])
    assert s.is_terminal() or s.v_score[1] == 2


def test_options_the_compiler_knows_distinct_or_ascending_are_offered_as_any_others() -> None:
    """compiler/lower/order.py: `order=1` (distinct) and `order=2` (ascending) skip the engine's
    set and sort; the options are the same ascending ids, and out of range is still refused."""
    engine = _engine("comprehension-loops")
    s = _state(engine)
    asked = s.pending
    assert asked is not None
    offered = []
    for known, values in ((0, [2, 0, 2, 1]), (1, [2, 0, 1]), (2, [0, 1, 2])):
        s.decide(asked.player, values, asked.domain, asked.slot, asked.prompt, order=known)
        assert s.pending is not None
        offered.append(s.pending.options)
    assert offered[0] == offered[1] == offered[2] == sorted(offered[0])
    with pytest.raises(RuleError, match="out of range"):
        s.decide(asked.player, [0, 7], asked.domain, asked.slot, asked.prompt, order=2)
    with pytest.raises(RuleError, match="out of range"):  # (a kept list a loaded state made unordered)
        s.decide(asked.player, [1, -1, 2], asked.domain, asked.slot, asked.prompt, order=2)


CARDS = (
    "players: {names: [ann, bob]}\ntypes:\n  card: {fields: {value: int}}\n"
    "components:\n  card: [{id: ace, value: 1}, {id: two, value: 2}]\n"
)


def _small_game(folder: Path, name: str, state: str, play: str) -> tuple[ModuleType, str]:
    """A game of two cards named `name`, with these state variables and this phase, compiled in
    `folder`: its engine module and the engine's source."""
    spec = folder / name
    spec.mkdir()
    text = f"game: {name}\n{CARDS}state:\n{state}phases:\n  - name: play\n    do: |\n{play}"
    (spec / "game.yaml").write_text(text, encoding="utf-8")
    result = compile_spec(spec)
    assert result.ok, render_all(result.diagnostics)
    source = next(text for path, text in result.files.items() if path.endswith("engine.py"))
    return import_package(result.files, name).engine, source


def test_options_listed_as_action_ids_are_refused_out_of_range_as_values_are(tmp_path: Path) -> None:
    """frames.py: a comprehension listing a decision's options adds its domain's first action id
    to each item (`ids`); an item that is no component (`none`) is refused as before, not taken
    for an action of the domain below, and the options are the same ids either way."""
    engine, source = _small_game(
        tmp_path,
        "ids",
        "  held: card\n",
        '      let c = choose from filter(x in card where x.value > 0) by ann "pick"\n'
        '      let d = choose from [held for x in card] by ann "pick"\n',
    )
    assert len(re.findall(r"\.append\(26 \+ (?:c_x|v_held|s\.v_held)\)", source)) == 2  # (action ids)
    s = _game(engine).new_initial_state(0)
    asked = s.pending
    assert asked is not None
    assert s.legal_actions() == [asked.options[0], asked.options[0] + 1]
    assert [s.action_to_string(a) for a in s.legal_actions()] == ["ace", "two"]
    with pytest.raises(RuleError, match="a entity:card option is out of range"):
        s.apply_action(s.legal_actions()[1])


def test_a_loop_variable_indexes_a_write_untested_only_where_it_cannot_be_none(tmp_path: Path) -> None:
    """statements.py `sure_items`: the variable of a plain loop over the players (or a zone, or
    every component) indexes a write without `s.ref`; over a list that may hold `none`, or where
    the body assigns it, the test stays, and a `none` there is still a rule error."""
    engine, source = _small_game(
        tmp_path,
        "sure",
        "  held: card\n  seen: {type: int, per: card}\n  score: {type: int, per: player}\n",
        "      for p in players { score[p] += 1 }\n"
        "      for c in card { seen[c] += 1 }\n"
        "      for c in card {\n        c = held\n        seen[c] += 2\n      }\n"
        "      for c in [held] { seen[c] += 3 }\n"
        "      end game draw\n",
    )
    assert "s.v_score[l_p] += 1" in source and "s.v_seen[l_c] += 1" in source
    assert re.search(r"s\.v_seen\[s\.ref\(l_c_\d\)\] \+= 2", source)  # (assigned in the body)
    assert re.search(r"s\.v_seen\[s\.ref\(l_c_\d\)\] \+= 3", source)  # (a list that may hold none)
    with pytest.raises(RuleError, match="'none' used where a component"):
        _game(engine).new_initial_state(0)


def test_a_zone_read_once_is_the_zone_tested_each_time() -> None:
    """`c in zone` read from the where-index inline, and a parameter's zone read once before a
    function's body (tests/lowering/zone-membership): the same answers as s.holds, none in no zone."""
    engine = _engine("zone-membership")
    s = _state(engine)
    hand_bob = engine.Z_hand + engine.P_bob
    s.move(engine.T_card, engine.E_two, hand_bob)
    for c in (engine.E_ace, engine.E_two, -1):
        tested = [s.holds(z, engine.T_card, c) for z in (engine.Z_deck, engine.Z_hand, hand_bob)]
        assert engine.f_in_deck(s, c) is tested[0]
        assert engine.f_places(s, c) == sum(tested)
        assert engine.f_beside(s, c) == (1 if tested[0] or tested[1] else 0)  # one card of value > 1
    assert engine.f_held(s) == 1


def _chain(folder: Path, n: int, returns: str, last: str, use: str) -> Path:
    """A spec of n functions f0 ... f{n-1}, each calling the next (the last returns `last`)."""
    functions = "".join(
        f'  f{i}:\n    params: {{k: int}}\n    returns: {returns}\n    body: "{f"f{i + 1}(k)" if i < n - 1 else last}"\n'
        for i in range(n)
    )
    folder.mkdir()
    (folder / "game.yaml").write_text(
        "game: chain\nplayers: {names: [ann, bob]}\nstate:\n  n: int\nfunctions:\n"
        + functions
        + f"phases:\n  - name: play\n    do: |\n{use}",
        encoding="utf-8",
    )
    return folder


def test_a_long_chain_of_small_functions_compiles_its_calls_as_calls(tmp_path: Path) -> None:
    """reuse.function_never_fails and inline.py follow calls only so deep (MAX_CALL_CHAIN,
    INLINE_DEPTH): a spec of as many functions as calls may nest (MAX_CALL_DEPTH), each calling
    the next, compiles, its calls kept."""
    spec = _chain(tmp_path / "chain", MAX_CALL_DEPTH, "int", "k + 1", "      n = f0(n)\n")
    result = compile_spec(spec)
    assert result.ok, render_all(result.diagnostics)
    assert "s.v_n = f_f0(s, s.v_n)" in result.files["engine.py"]


def test_a_chain_of_functions_deeper_than_the_limit_is_an_error_at_the_call_too_deep(tmp_path: Path) -> None:
    """One function more than MAX_CALL_DEPTH, each returning a list (the hidden-information pass
    follows those into the function called): limit-exceeded at the call past the limit, before
    any pass overflows Python's stack."""
    n = MAX_CALL_DEPTH + 1
    use = "      let xs = f0(n)\n      n = len(xs)\n"
    result = compile_spec(_chain(tmp_path / "chain", n, "list[int]", "[k]", use))
    assert [(d.code, d.span.line) for d in result.diagnostics] == [("limit-exceeded", 6 + 4 * (n - 2) + 3)]
    assert f"'f0' nests calls {n} levels deep (f0 -> f1 -> f2 -> ... -> f{n - 2} -> f{n - 1})" in (
        result.diagnostics[0].message
    )


def test_a_long_chain_of_locals_before_a_decision_compiles(tmp_path: Path) -> None:
    """order.py follows locals only so deep (MAX_FOLLOWED): 400 filters, each of the one before,
    offered by a decision, compile (the last is known distinct no more)."""
    lets = "".join(f"      let a{i} = filter(c in a{i - 1} where c.value > 0)\n" for i in range(1, 400))
    spec = tmp_path / "lets"
    spec.mkdir()
    (spec / "game.yaml").write_text(
        "game: lets\nplayers: {names: [ann, bob]}\ntypes:\n  card: {fields: {value: int}}\n"
        "components:\n  card: [{id: ace, value: 1}, {id: two, value: 2}]\nphases:\n  - name: play\n"
        "    do: |\n      let a0 = filter(c in card where c.value > 0)\n"
        + lets
        + '      let d = choose from a399 by ann "pick"\n',
        encoding="utf-8",
    )
    result = compile_spec(spec)
    assert result.ok, render_all(result.diagnostics)


def test_an_invariant_by_zone_holds_where_its_test_of_every_component_does() -> None:
    """An invariant that tests the first component of each zone in use (loops.by_zone) says what
    the test of every component says, for every placement of the cards (nowhere included)."""
    # (compiled once for the run: tests/test_lowering.py and test_layout.py compile the case too)
    engine: ModuleType = import_package(compiled("tests/lowering/invariant-by-zone").files, "by_zone").engine
    s = _state(engine)
    zones = [-1, *range(len(engine.INFO.zones))]
    every = {
        "inv_one_place": lambda s: all(engine.f_places(s, c) == 1 for c in range(3)),
        "inv_some_held": lambda s: any(s.z.where[engine.T_card][c] != engine.Z_deck for c in range(3)),
    }
    seen = set()
    for placed in ((a, b, c) for a in zones for b in zones for c in zones):
        s.z.where[engine.T_card][:] = placed
        for name, brute in every.items():
            held = getattr(engine, name)(s)
            assert held == brute(s), (name, placed)
            seen.add((name, held))
    assert len(seen) == 4  # each invariant both held and failed


def test_an_emptiness_test_answers_what_the_length_of_the_list_would() -> None:
    """compiler/lower/emptiness.py: `has_<function>` is `len(<function>) > 0` wherever the list
    can be built; it stops at the first item, so a rule error in a later item is not raised."""
    engine = _engine("emptiness-tests")
    s = _state(engine)
    for k in (-1, 0, 4, 12):  # (10 // (k - value): no item divides by zero)
        s.v_n = k
        assert engine.has_above(s, k) is (len(engine.f_above(s, k)) > 0)
        assert engine.has_moves(s, engine.P_ann) is True
        s.caches = [{} for _ in s.caches]
        assert engine.has_kept(s) is (len(engine.f_above(s, k)) > 0)
        assert engine.f_kept(s) == engine.f_above(s, k)
        assert engine.has_kept(s) is (len(engine.f_above(s, k)) > 0)  # (from the kept list)
    s.v_n, s.caches = 2, [{} for _ in s.caches]  # ace passes (10 // 1); two would divide by zero
    assert engine.has_above(s, 2) is True
    assert engine.has_kept(s) is True
    assert "division by zero" in _rule_error(engine, s, "f_kept")
    s.v_n = 1  # ace divides by zero first: the test raises what the list raises, naming the function
    with pytest.raises(RuleError) as caught:
        engine.has_above(s, 1)
    assert "division by zero" in str(caught.value)
    assert s._where(caught.value) == " (in function above (tests/lowering/emptiness-tests/game.yaml:23))"


def test_an_emptiness_test_counts_its_function_once() -> None:
    """Rule coverage counts a function once per emptiness test, as a call did, and the calls
    inside the test as they run."""
    engine = _engine("emptiness-tests")
    game = _game(engine)
    cov = RuleCoverage(game)
    with cov:
        game.new_initial_state(0)  # n = 0; the deck is empty
    counts = {p.what: cov.counts()[p.index] for p in cov.points if p.kind == "function"}
    assert counts == {
        "function above": 2,  # in the tests of moves and of kept (the second if stops at held)
        "function moves": 1,
        "function kept": 1,
        "function held": 1,
    }
