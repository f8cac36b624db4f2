"""Errata impact: replay the stored playthroughs on the rebuilt engine and say what changed.

`rulewright diff GAME` compares the spec's entries (compiler.fingerprint) with those stored
beside the playthroughs when they were recorded, replays every playthrough, finds where each
first diverges, and names the changed entry that ran at that step (from rule coverage).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from compiler.fingerprint import Change, Entry, compare, fingerprint, innermost
from rulewright.playthrough import (
    Divergence,
    Playthrough,
    PlaythroughError,
    load,
    record,
    replay,
    to_text,
)
from runtime.engine import GameState, IllegalActionError, RuleError
from runtime.game import Game
from runtime.text import clipped

RULES_FILE = "rules.json"

# Given a state and an action, the spec places (file, line) of the rules that ran while applying it.
Tracer = Callable[[Game, Divergence], list[tuple[str, int]]]


def coverage_tracer(game: Game, div: Divergence) -> list[tuple[str, int]]:
    """The spec places of the rules that ran in a divergent step, from rule coverage."""
    from rulewright.coverage import RuleCoverage

    assert div.before is not None
    cov = RuleCoverage(game)
    state = div.before.clone()
    hits = cov.hits_in(lambda: state.apply_action(div.action))
    return [(cov.points[i].file, cov.points[i].line) for i in sorted(hits)]


def playthrough_dir(root: Path, game: str) -> Path:
    return root / "tests" / "playthroughs" / game


def stored_entries(folder: Path) -> dict[str, Entry] | None:
    path = folder / RULES_FILE
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        entries = data["entries"]
        if not isinstance(entries, dict):
            raise TypeError("'entries' is not an object")
        return {k: _entry(k, v) for k, v in entries.items()}
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:
        raise PlaythroughError(
            f"{path}: not a rules file written by `rulewright playthrough` ({exc})"
        ) from None


def _entry(key: str, data: object) -> Entry:
    if not (
        isinstance(data, list)
        and len(data) == 4
        and all(isinstance(x, str) for x in data[:2])
        and all(isinstance(x, int) and not isinstance(x, bool) for x in data[2:])
    ):
        raise ValueError(f"entry '{key}' is not [digest, file, line, end line]")
    return Entry.from_data(key, data)


def write_entries(folder: Path, entries: dict[str, Entry], digest: str) -> None:
    data = {
        "about": "the spec's entries when these playthroughs were recorded (rulewright diff compares them)",
        "spec": digest,
        "entries": {k: e.to_data() for k, e in entries.items()},
    }
    folder.mkdir(parents=True, exist_ok=True)
    (folder / RULES_FILE).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def playthrough_files(folder: Path) -> list[Path]:
    """The traces in `folder`, seed_2 before seed_10."""
    return sorted(
        folder.glob("*.txt"), key=lambda p: [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", p.stem)]
    )


def save(game: Game, pt: Playthrough, folder: Path, entries: dict[str, Entry]) -> Path:
    """Write one playthrough (and the entries it was recorded against)."""
    folder.mkdir(parents=True, exist_ok=True)
    suffix = "" if pt.agents == "random" else "_" + pt.agents.replace(",", "_")
    opts = "".join(f"_{k}-{v}" for k, v in sorted(pt.options.items()) if v != _default(game, k))
    path = folder / f"seed_{pt.seed}{suffix}{opts}.txt"
    path.write_text(to_text(pt, game.title), encoding="utf-8")
    write_entries(folder, entries, game.info.digest)
    return path


def _default(game: Game, key: str) -> object:
    return next((o.default for o in game.info.options if o.name == key), None)


@dataclass
class Outcome:
    """One playthrough's replay."""

    name: str
    steps: int
    divergence: Divergence | None
    culprits: list[Entry] = field(default_factory=list)  # changed entries that ran at the divergence
    change: str | None = None  # the first field of the state that differs there, from the old engine
    recorded_with: str = ""  # the spec digest (16 hex digits) it was recorded with


@dataclass
class Impact:
    game: str
    changes: list[Change]
    outcomes: list[Outcome]
    entries: dict[str, Entry]
    # the spec digests of divergent playthroughs whose engine is not at hand (see describe)
    missing: list[str] = field(default_factory=list)

    def summary(self) -> str:
        diverged = [o for o in self.outcomes if o.divergence is not None]
        n = len(self.outcomes)
        edits = f"{len(self.changes)} spec entr{'y' if len(self.changes) == 1 else 'ies'} changed"
        if not diverged:
            return f"{edits}; all {n} playthroughs replay as recorded"
        first = min(diverged, key=lambda o: o.divergence.step if o.divergence else 0)
        assert first.divergence is not None
        where = f"first at step {first.divergence.step}" if first.divergence.step else "first at the setup"
        blame = f", {first.culprits[0].key}" if first.culprits else ""
        return f"{edits}; {len(diverged)} of {n} playthroughs diverge; {where}{blame}"


def analyse(
    game: Game,
    spec_game: object,
    folder: Path,
    tracer: Tracer | None = None,
    previous: Game | None = None,
) -> Impact:
    """Replay every playthrough in `folder` on `game`; `spec_game` is the rebuilt spec's IR.
    `previous` is the engine the playthroughs were recorded with, when it is at hand: a divergent
    playthrough is replayed on it too, to name the first field of the state that differs."""
    from compiler import ir

    assert isinstance(spec_game, ir.Game)
    new = fingerprint(spec_game)
    old = stored_entries(folder)
    changes = compare(old, new) if old is not None else []
    changed = {c.key for c in changes if c.kind != "removed"}
    outcomes = []
    missing: list[str] = []
    for path in playthrough_files(folder):
        pt = load(path)
        now = _with_options(game, pt.options, path)
        div, _ = replay(now, pt)
        change = None
        if div is not None and previous is not None and _built_from(previous, pt):
            try:
                change = field_change(_with_options(previous, pt.options, path), now, pt, div)
            except Exception as exc:  # an engine of another build of the runtime: report the rest
                change = f"(the states could not be compared: {type(exc).__name__}: {clipped(str(exc), 120)})"
        elif div is not None and not _built_from(game, pt) and pt.spec not in missing:
            missing.append(pt.spec)
        culprits: list[Entry] = []
        if div is not None and tracer is not None and div.before is not None and div.action >= 0:
            for file, line in tracer(game, div):
                e = innermost(new, file, line)
                if e is not None and e.key in changed and e not in culprits:
                    culprits.append(e)
        if div is not None and not culprits and changes:
            culprits = [new[c.key] for c in changes if c.key in new][:1]
        outcomes.append(Outcome(pt.name, len(pt.steps), div, culprits, change, pt.spec))
    return Impact(game.name, changes, outcomes, new, missing)


def _built_from(game: Game, pt: Playthrough) -> bool:
    """Whether `game`'s engine was compiled from the spec `pt` was recorded with."""
    return len(pt.spec) >= 16 and game.info.digest.startswith(pt.spec)


def field_change(old: Game, new: Game, pt: Playthrough, div: Divergence) -> str | None:
    """The first field of the state in which the recorded engine `old` and the rebuilt `new`
    differ, replaying `pt` on both: after the step before the divergence when the states already
    differ there (a field the state digest does not cover), else after the divergent step itself.
    None when a step does not replay on one of them."""
    from rulewright.statediff import first_difference

    k = min(div.step, len(pt.steps))
    a = old.new_initial_state(pt.seed)
    b = new.new_initial_state(pt.seed)
    for s in pt.steps[: max(0, k - 1)]:
        if not (_play(a, s.label) and _play(b, s.label)):
            return None
    if k == 0:
        d = first_difference(a, b)
        return (
            f"state after the setup: {d.describe()}"
            if d
            else "the states after the setup agree in every field"
        )
    d = first_difference(a, b) if k > 1 else None
    if d is not None:
        return f"state after step {k - 1}: {d.describe()}"
    label = pt.steps[k - 1].label
    if not _play(a, label):
        return None
    if not _play(b, label):
        return f"state after step {k - 1}: the same in every field, but '{label}' is not legal now"
    d = first_difference(a, b)
    if d is None:
        return f"state after step {k}: the same in every field (only the log differs)"
    return f"state after step {k}: {d.describe()}"


def _play(state: GameState, label: str) -> bool:
    """Apply the action of that label; whether it was legal and ran."""
    try:
        state.apply_action(state.string_to_action(label))
    except (IllegalActionError, RuleError, ValueError):
        return False
    return True


def describe(impact: Impact) -> str:
    lines = [f"rulewright diff {impact.game}: {len(impact.outcomes)} stored playthrough(s)"]
    if impact.changes:
        lines.append("Spec entries changed since they were recorded:")
        for c in impact.changes:
            lines.append(f"  {c.kind:<8} {c.key:<40} {c.where}")
    else:
        lines.append("No spec entry changed since they were recorded.")
    for o in impact.outcomes:
        d = o.divergence
        if d is None:
            lines.append(f"  same      {o.name} ({o.steps} steps)")
            continue
        lines.append(f"  DIVERGES  {o.name} at {d.describe()}")
        if o.change is not None:
            lines.append(f"      {o.change}")
        for e in o.culprits:
            lines.append(f"      changed rule that ran there: {e.key} ({e.where})")
    for spec in impact.missing:
        lines.append(
            f"(the engine these playthroughs were recorded with, spec {spec}, is not kept, so no changed "
            f"field of the state is named: build the spec they were recorded with, `rulewright build "
            f"{impact.game}`, then the edited one, and diff again)"
        )
    lines.append(impact.summary())
    return "\n".join(lines)


def rerecord(game: Game, spec_game: object, folder: Path) -> list[tuple[Path, str, str]]:
    """Record every stored playthrough again (same seed, agents and options) on `game`;
    returns each file with its old and new result."""
    from compiler import ir

    assert isinstance(spec_game, ir.Game)
    entries = fingerprint(spec_game)
    written = []
    for path in playthrough_files(folder):
        old = load(path)
        pt = record(_with_options(game, old.options, path), old.seed, old.agents)
        path.write_text(to_text(pt, game.title), encoding="utf-8")
        written.append((path, old.result, pt.result))
    write_entries(folder, entries, game.info.digest)
    return written


def _with_options(game: Game, options: dict[str, int | bool | str], path: Path) -> Game:
    if options == game.options:
        return game
    try:
        return Game(game.state_cls, game.scenarios, options)
    except ValueError as exc:
        raise PlaythroughError(f"{path}: options: {exc}") from None
