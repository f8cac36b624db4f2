"""Scenarios: the rulebook examples of a spec -> their own module, apart from the engine.

A scenario's setup and expectations become functions over the state; the rest (seed, options,
forced dice and shuffles, steps) is data the scenario runner reads. None of it is a rule, so it
has no coverage points, and the engine a game runs does not carry it.
"""

from __future__ import annotations

from collections.abc import Sequence

from compiler import ir
from compiler.lower.context import Context
from compiler.lower.units import Units, code_unit, expression_function, origin
from compiler.viewmodel import Expectation, Scenario, ScenarioStep


def scenario_skips(g: ir.Game, sc: ir.ScenarioDecl) -> list[str]:
    """The phases and steps whose next pass a scenario skips: its `skip`, and with `start_at` every
    phase or step the flow reaches before that one (not the phases that hold it); a repeated phase
    before it is skipped whole (`*name`: none of its passes runs)."""
    names = [str(v.data) for v in sc.skip]
    if sc.start_at is None:
        return names

    def before(phases: tuple[ir.PhaseDecl, ...], target: str) -> list[str] | None:
        for i, ph in enumerate(phases):
            earlier = [
                f"*{p.name}" if p.repeat is not None or p.while_ is not None else p.name for p in phases[:i]
            ]
            if ph.name == target:
                return earlier
            inner = before(ph.steps, target)
            if inner is not None:
                return earlier + inner
        return None

    return names + [n for n in before(g.phases, str(sc.start_at.data)) or [] if n not in names]


def lower_scenarios(cx: Context) -> tuple[Units, tuple[Scenario, ...]]:
    sym, out, scenarios = cx.sym, Units(), []
    cx.covering = False  # a scenario arranges and checks a test; it is not a rule
    cx.watching = False  # and its setup arranges the table: no trigger on a zone fires
    for i, sc in enumerate(sym.game.scenarios):
        setup = None
        if sc.setup is not None:
            setup = f"sc{i}_setup"
            code_unit(
                cx,
                out,
                "",
                setup,
                origin(f"scenario {sc.name}: setup", sc.setup.span),
                sc.setup,
                (),
                False,
                [],
            )
        steps, n = [], 0
        for st in sc.steps:
            expects = []
            for e in st.expect:
                function = f"sc{i}_expect{n}"
                what = f"scenario {sc.name}: expect"
                out.functions.append(expression_function(cx, function, what, e, (), "bool", []))
                expects.append(Expectation(" ".join(e.text.split()), e.span.line, function))
                n += 1
            steps.append(
                ScenarioStep(
                    line=st.span.line,
                    actions=tuple(str(a.data) for a in st.actions),
                    expect=tuple(expects),
                    error=st.expect_error,
                    log=tuple(st.expect_log),
                    no_log=tuple(st.expect_no_log),
                    legal=None if st.expect_legal is None else tuple(sorted(st.expect_legal)),
                    to_act=None if st.expect_to_act is None else str(st.expect_to_act.data),
                    prompt=st.expect_prompt,
                    winner=None if st.expect_winner is None else str(st.expect_winner.data),
                    seen={str(k.data): list(v) for k, v in st.expect_seen},
                    unseen={str(k.data): list(v) for k, v in st.expect_unseen},
                    winners=None
                    if st.expect_winners is None
                    else tuple(str(v.data) for v in st.expect_winners),
                    invariants=tuple(str(v.data) for v in st.expect_invariants),
                )
            )
        entity = sym.entities
        scenarios.append(
            Scenario(
                name=sc.name,
                file=sc.file,
                seed=sc.seed,
                options={k: v.data for k, v in sc.options},
                dice=tuple(sc.dice),
                shuffles=tuple(_copies_named(cx, order) for order in sc.shuffles),
                draws=tuple(_copies_named(cx, order) for order in sc.draws),
                picks=tuple(entity[str(v.data)][1] for v in sc.picks),
                skip=tuple(scenario_skips(sym.game, sc)),
                start_at="" if sc.start_at is None else str(sc.start_at.data),
                setup=setup,
                steps=tuple(steps),
                doc=sc.doc,
            )
        )
    cx.covering = True
    return out, tuple(scenarios)


def _copies_named(cx: Context, order: Sequence[ir.Value]) -> tuple[int, ...]:
    """A forced order's components: a kind with copies is named once per copy, each occurrence the
    next copy (the engine takes the shuffled pile's own copies of each kind, whichever they are)."""
    seen: dict[str, int] = {}
    out = []
    for v in order:
        ident = str(v.data)
        tname, first = cx.sym.entities[ident]
        k = seen.get(ident, 0)
        seen[ident] = k + 1
        out.append(first + k if ident in cx.sym.entity_types[tname].copies else first)
    return tuple(out)
