"""The `rulewright` command: check, build, play, replay, simulate, scenarios, bench, demo."""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from runtime.agents import AGENTS, check_agent, make_agent
from runtime.engine import GameState, IllegalActionError, RuleError
from runtime.game import Game, UnknownGameError, available_games, load_game
from runtime.scenarios import ScenarioResult

EXIT_OK, EXIT_SPEC, EXIT_USAGE = 0, 1, 2


def repo_root() -> Path:
    """The folder holding specs/ and generated/: the current one if it has specs/, else this checkout."""
    cwd = Path.cwd()
    if (cwd / "specs").is_dir():
        return cwd
    return Path(__file__).resolve().parents[1]


class UsageError(Exception):
    """Bad command-line input (exit code 2)."""


def parse_options(pairs: Sequence[str] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"-o takes key=value, not '{pair}'")
        out[key.strip()] = value.strip()
    return out


def open_game(name: str, options: Sequence[str] | None) -> Game:
    """A compiled game by name, or (for a path to a spec folder) one compiled on the fly."""
    try:
        if ("/" in name or name.startswith(".")) and Path(name).is_dir():
            from runtime.game import load_spec

            return load_spec(Path(name), parse_options(options))
        return load_game(name, parse_options(options))
    except (UnknownGameError, ValueError) as exc:
        raise UsageError(str(exc)) from None


def progress(done: int, total: int, start: float, out: TextIO = sys.stderr, unit: str = "games") -> None:
    """A one-line progress bar on a terminal; silent in pipes and CI logs."""
    if not out.isatty():
        return
    width = 30
    filled = width * done // max(1, total)
    rate = done / max(1e-9, time.perf_counter() - start)
    out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}  {rate:,.0f} {unit}/s")
    if done >= total:
        out.write("\n")
    out.flush()


# ---- compiling --------------------------------------------------------------------------------


def _spec_folders(targets: Sequence[str]) -> list[Path]:
    from compiler.driver import spec_folders

    root = repo_root()
    if not targets:
        return spec_folders(root)
    out = []
    for t in targets:
        p = Path(t)
        if p.is_dir():
            out.append(p)
        elif (root / "specs" / t).is_dir():
            out.append(root / "specs" / t)
        else:
            raise UsageError(f"'{t}' is neither a spec folder nor a game in {root / 'specs'}")
    return out


def cmd_check(args: argparse.Namespace) -> int:
    from compiler.diagnostics import render_all
    from compiler.driver import compile_spec

    failed = False
    for folder in _spec_folders(args.targets):
        r = compile_spec(folder, render=False)
        if r.diagnostics:
            print(render_all(r.diagnostics))
        errors = sum(d.severity == "error" for d in r.diagnostics)
        warnings = len(r.diagnostics) - errors
        status = "ok" if not errors else f"{errors} error(s)"
        print(f"{folder}: {status}" + (f", {warnings} warning(s)" if warnings else ""))
        failed |= errors > 0
    return EXIT_SPEC if failed else EXIT_OK


def cmd_build(args: argparse.Namespace) -> int:
    from compiler.diagnostics import render_all
    from compiler.driver import build

    root = repo_root()
    report = build(root, check_only=args.check)
    for r in report.results:
        errors = [d for d in r.diagnostics if d.severity == "error"]
        if errors or (r.diagnostics and args.verbose):
            print(render_all(r.diagnostics))
        elif r.diagnostics:
            print(f"{r.folder}: {len(r.diagnostics)} warning(s) (rulewright check {r.name} shows them)")
    if not report.ok:
        print("build failed: fix the errors above")
        return EXIT_SPEC
    rel = [str(p.relative_to(root)) if p.is_relative_to(root) else str(p) for p in report.changed]
    if args.check:
        if rel:
            print("generated/ is stale; these files would change (run `rulewright build`):")
            for p in rel:
                print(f"  {p}")
            return EXIT_SPEC
        print(f"generated/ is up to date ({len(report.results)} game(s))")
        return EXIT_OK
    for r in report.results:
        print(f"built {r.name} in {1000 * r.seconds.get('build', 0):.0f} ms")
    print(f"{len(rel)} file(s) written" + (": " + ", ".join(rel) if rel else " (already up to date)"))
    return EXIT_OK


# ---- playing ----------------------------------------------------------------------------------


def check_agents(kinds: Sequence[str]) -> None:
    for k in kinds:
        try:
            check_agent(k)
        except ValueError as exc:
            raise UsageError(str(exc)) from None


def final_digest(state: GameState) -> str:
    return hashlib.sha256(state.to_json().encode()).hexdigest()[:16]


def play_game(
    game: Game,
    seed: int,
    agent_kinds: Sequence[str],
    echo: Callable[[str], None] | None = None,
    max_steps: int = 100_000,
) -> GameState:
    agents = [make_agent(agent_kinds[p % len(agent_kinds)], seed * 1000 + p) for p in range(game.num_players)]
    state = game.new_initial_state(seed)
    shown = 0
    steps = 0
    while not state.is_terminal():
        if echo is not None:
            lines = state.log()
            for line in lines[shown:]:
                echo(line)
            shown = len(lines)
        state.apply_action(agents[state.current_player()].choose(state))
        steps += 1
        if steps > max_steps:
            raise RuleError(f"no end after {max_steps} decisions")
    if echo is not None:
        for line in state.log()[shown:]:
            echo(line)
    return state


def cmd_play(args: argparse.Namespace) -> int:
    game = open_game(args.game, args.option)
    kinds = [k.strip() for k in args.agents.split(",")]
    check_agents(kinds)
    interactive = "human" in kinds
    state = play_game(game, args.seed, kinds, echo=print if (interactive or not args.quiet) else None)
    print(result_line(game, state))
    if args.log:
        write_log(Path(args.log), game, args.seed, state)
        print(f"log written to {args.log} (rulewright replay {args.log})")
    return EXIT_OK


def result_line(game: Game, state: GameState) -> str:
    names = game.info.player_names
    ret = state.returns()
    score = ", ".join(f"{names[p]} {ret[p]:+.2f}" for p in range(game.num_players))
    return f"Result: {state.reason or 'over'} [{score}] after {len(state.history)} decisions"


def write_log(path: Path, game: Game, seed: int, state: GameState) -> None:
    data = {
        "game": game.name,
        "rules_version": game.info.version,
        "spec_digest": game.info.digest,
        "options": game.options,
        "seed": seed,
        "actions": [game.info.action_label(a) for a in state.history],
        "action_ids": state.history,
        "result": state.reason,
        "returns": state.returns(),
        "final_state_sha256": final_digest(state),
        "log": state.log(),
    }
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        data = json.loads(Path(args.logfile).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot read {args.logfile}: {exc}") from None
    game = open_game(data["game"], [f"{k}={v}" for k, v in data.get("options", {}).items()])
    if data.get("spec_digest") != game.info.digest:
        print("note: the spec has changed since this log was recorded")
    state = game.new_initial_state(int(data["seed"]))
    for i, label in enumerate(data["actions"], 1):
        try:
            state.apply_action(state.string_to_action(label))
        except IllegalActionError as exc:
            print(f"replay diverges at action {i} ('{label}'): {exc}")
            return EXIT_SPEC
    digest = final_digest(state)
    if digest != data.get("final_state_sha256"):
        print(f"replay finished but the final state differs: {digest} != {data.get('final_state_sha256')}")
        return EXIT_SPEC
    print(
        f"replayed {len(data['actions'])} actions; final state matches ({digest}). {result_line(game, state)}"
    )
    return EXIT_OK


def coverage_kinds_option(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "--coverage-kinds",
        metavar="K[,K...]",
        help="list only rule points of these kinds in the coverage report, e.g. 'effect' for how often "
        "each card's event fired (kinds: setup, phase, procedure, function, trigger, effect, "
        "expression, modifier, branch)",
    )


def coverage_kinds(args: argparse.Namespace) -> frozenset[str] | None:
    """The kinds named by --coverage-kinds (None: all); an unknown kind is a usage error."""
    from runtime.coverage import KINDS

    if not args.coverage_kinds:
        return None
    kinds = frozenset(k.strip() for k in args.coverage_kinds.split(",") if k.strip())
    unknown = sorted(kinds - set(KINDS))
    if unknown:
        raise UsageError(f"unknown coverage kind(s) {', '.join(unknown)}: choose from {', '.join(KINDS)}")
    return kinds


def cmd_simulate(args: argparse.Namespace) -> int:
    only = coverage_kinds(args)
    game = open_game(args.game, args.option)
    names = game.info.player_names
    wins = [0] * game.num_players
    draws = 0
    lengths = 0
    start = time.perf_counter()
    kinds = [k.strip() for k in args.agents.split(",")]
    check_agents(kinds)
    cov = None
    if args.coverage or args.coverage_json:
        from runtime.coverage import RuleCoverage

        try:
            cov = RuleCoverage(game)
        except (OSError, ValueError) as exc:
            raise UsageError(f"no rule coverage for {game.name}: {exc}") from None
    seats = [kinds[p % len(kinds)] for p in range(game.num_players)]
    by_agent: dict[str, int] = {k: 0 for k in seats}
    for i in range(args.n):
        order = seats[i % len(seats) :] + seats[: i % len(seats)] if args.rotate else seats
        if cov is not None:
            with cov:
                state = play_game(game, args.seed + i, order)
        else:
            state = play_game(game, args.seed + i, order)
        lengths += len(state.history)
        if state.winner >= 0:
            wins[state.winner] += 1
            by_agent[order[state.winner]] += 1
        else:
            draws += 1
        if i % max(1, args.n // 100) == 0 or i + 1 == args.n:
            progress(i + 1, args.n, start)
    secs = time.perf_counter() - start
    rotated = ", seats rotated every game" if args.rotate else ""
    print(
        f"{game.title}: {args.n} games, seeds {args.seed}..{args.seed + args.n - 1}, agents {args.agents}{rotated}"
    )
    width = max(10, *(len(names[p]) for p in range(game.num_players)))
    for p in range(game.num_players):
        print(f"  {names[p]:<{width}} wins {wins[p]:>6}  ({100 * wins[p] / args.n:5.1f}%)")
    print(f"  {'draws':<{width}}      {draws:>6}  ({100 * draws / args.n:5.1f}%)")
    if len(by_agent) > 1:
        for kind, n in by_agent.items():
            print(f"  agent {kind:<10} wins {n:>6}  ({100 * n / args.n:5.1f}%)")
    print(f"  mean length {lengths / args.n:.1f} decisions")
    rate = args.n / secs
    print(f"  {rate:,.{0 if rate >= 10 else 2}f} games/s, {lengths / secs:,.0f} decisions/s ({secs:.2f} s)")
    if cov is not None and args.coverage:
        print()
        print(cov.report(only=only))
    if cov is not None and args.coverage_json:
        Path(args.coverage_json).write_text(json.dumps(cov.to_json(), indent=1) + "\n", encoding="utf-8")
        print(f"rule coverage written to {args.coverage_json}")
    return EXIT_OK


def cmd_scenarios(args: argparse.Namespace) -> int:
    from runtime.scenarios import run_all

    if args.game is not None:
        return _run_cases(args.game, args.paths)
    if len(args.paths) > 1 or any(p.endswith((".yaml", ".yml")) for p in args.paths):
        raise UsageError(
            "to run case files, name the game they test: rulewright scenarios --game NAME FILE..."
        )
    names = args.paths or available_games()
    failed = total = 0
    for name in names:
        base = open_game(name, None) if Path(name).is_dir() else None
        try:
            results = run_all(base.name if base else name, base)
        except UnknownGameError as exc:
            raise UsageError(str(exc)) from None
        failed, total = _report(name, results, failed, total)
    print(f"{total - failed} passed, {failed} failed")
    return EXIT_SPEC if failed else EXIT_OK


def _run_cases(game: str, paths: list[str]) -> int:
    """Case files (or folders of them) kept outside the spec, compiled with the game's spec."""
    from runtime.game import load_spec
    from runtime.scenarios import run_all

    if not paths:
        raise UsageError("--game needs case files or folders of them to run")
    folder = Path(game) if Path(game).is_dir() else repo_root() / "specs" / game
    if not (folder.is_dir() and any(folder.glob("*.yaml"))):
        raise UsageError(f"no spec folder for '{game}' (a game of specs/ or a folder of spec files)")
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            files += sorted(p.glob("*.yaml"))
        elif p.is_file():
            files.append(p)
        else:
            raise UsageError(f"{p}: no such case file or folder")
    if not files:
        raise UsageError(f"no case files (*.yaml) in {', '.join(paths)}")
    try:
        loaded = load_spec(folder, None, files)
    except ValueError as exc:  # the located diagnostics of the spec and its cases
        print(exc)
        return EXIT_SPEC
    failed, total = _report(loaded.name, run_all(loaded.name, loaded), 0, 0)
    print(f"{total - failed} passed, {failed} failed")
    return EXIT_SPEC if failed else EXIT_OK


def _report(name: str, results: list[ScenarioResult], failed: int, total: int) -> tuple[int, int]:
    """Print PASS/FAIL lines (with the tail of the log for a failure); the running counts."""
    for r in results:
        total += 1
        failed += not r.ok
        print(f"{'PASS' if r.ok else 'FAIL'}  {name}: {r.name}  ({r.file})")
        if not r.ok:
            print(f"      {r.message}")
            if r.state is not None:
                for line in r.state.log()[-6:]:
                    print(f"      | {line}")
    return failed, total


def cmd_verify(args: argparse.Namespace) -> int:
    from contextlib import nullcontext

    from runtime.coverage import RuleCoverage
    from runtime.verify import DEFAULT_STRATEGIES, describe, verify, write_reproducer

    only = coverage_kinds(args)
    names = args.games or available_games()
    strategies = [x.strip() for x in args.strategy.split(",")] if args.strategy else None
    failed = False
    for name in names:
        game = open_game(name, args.option)
        chosen = strategies or [*DEFAULT_STRATEGIES, *(["prefer"] if args.prefer else [])]
        cov = RuleCoverage(game) if args.coverage or args.coverage_json else None
        start = time.perf_counter()
        try:
            with cov if cov is not None else nullcontext():
                report = verify(
                    game,
                    examples=args.examples,
                    seed=args.seed,
                    max_steps=args.max_steps,
                    strategies=chosen,
                    prefer=args.prefer,
                    contract=not args.no_contract,
                    on_example=functools.partial(progress, total=args.examples, start=start, unit="examples"),
                )
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        print(describe(report, len(game.info.invariants), not args.no_contract))
        if report.failure is not None:
            failed = True
            out = Path(args.out) if args.out else _scenario_dir(name)
            path = write_reproducer(report.failure, out, name)
            print(f"  reproducer written to {path}")
            rerun = (
                f"rulewright scenarios {name}"
                if Path(name).is_dir()
                else f"rulewright build && rulewright scenarios {name}"
            )
            print(f"  run it: {rerun}")
        if cov is not None and args.coverage:
            print()
            print(cov.report(only=only))
        if cov is not None and args.coverage_json:
            target = Path(args.coverage_json.replace("GAME", name))
            target.write_text(json.dumps(cov.to_json(), indent=1) + "\n", encoding="utf-8")
            print(f"rule coverage written to {target}")
    return EXIT_SPEC if failed else EXIT_OK


def _scenario_dir(name: str) -> Path:
    """Where verify writes a reproducer: the spec's own scenarios/ folder."""
    p = Path(name)
    return (p if p.is_dir() else repo_root() / "specs" / name) / "scenarios"


def _spec_ir(name: str) -> Any:
    """The IR of specs/NAME, and a check that generated/ was built from it."""
    from compiler.diagnostics import render_all
    from compiler.driver import compile_spec

    folder = repo_root() / "specs" / name
    if not folder.is_dir():
        raise UsageError(f"no spec folder {folder}")
    r = compile_spec(folder, render=False)
    if not r.ok or r.game is None:
        print(render_all(r.diagnostics))
        raise UsageError(f"specs/{name} has errors; fix them first")
    return r.game


def cmd_playthrough(args: argparse.Namespace) -> int:
    from compiler.fingerprint import fingerprint
    from runtime.impact import playthrough_dir, save
    from runtime.playthrough import record

    game = open_game(args.game, args.option)
    spec = _spec_ir(args.game)
    if spec.digest != game.info.digest:
        raise UsageError(f"generated/{args.game} is stale: run `rulewright build` first")
    folder = Path(args.out) if args.out else playthrough_dir(repo_root(), args.game)
    entries = fingerprint(spec)
    for seed in range(args.seed, args.seed + args.n):
        pt = record(game, seed, args.agents)
        path = save(game, pt, folder, entries)
        print(f"wrote {path} ({len(pt.steps)} steps; {pt.result})")
    return EXIT_OK


def cmd_diff(args: argparse.Namespace) -> int:
    from runtime.impact import (
        analyse,
        coverage_tracer,
        describe,
        playthrough_dir,
        playthrough_files,
        rerecord,
    )

    game = open_game(args.game, None)
    spec = _spec_ir(args.game)
    if spec.digest != game.info.digest:
        raise UsageError(
            f"generated/{args.game} is older than specs/{args.game}: run `rulewright build` first"
        )
    folder = Path(args.dir) if args.dir else playthrough_dir(repo_root(), args.game)
    if not playthrough_files(folder):
        raise UsageError(
            f"no playthroughs in {folder} (record some with `rulewright playthrough {args.game}`)"
        )
    impact = analyse(game, spec, folder, tracer=coverage_tracer)
    print(describe(impact))
    if args.update:
        written = rerecord(game, spec, folder)
        moved = [(p, a, b) for p, a, b in written if a != b]
        print(f"re-recorded {len(written)} playthrough(s) in {folder}; {len(moved)} end differently:")
        for p, a, b in moved:
            print(f"  {p.stem}: {a}  ->  {b}")
        return EXIT_OK
    return EXIT_SPEC if any(o.divergence is not None for o in impact.outcomes) else EXIT_OK


def cmd_demo(args: argparse.Namespace) -> int:
    for name in available_games():
        game = load_game(name)
        state = play_game(game, args.seed, ["random"])
        lines = state.log()
        print(
            f"=== {game.title}: one game, seed {args.seed}, random agents ({len(lines)} log lines, last {args.tail}) ==="
        )
        for line in lines[-args.tail :]:
            print(f"  {line}")
        print(f"  {result_line(game, state)}\n")
    return EXIT_OK


def cmd_bench(args: argparse.Namespace) -> int:
    from runtime.bench import bench_game

    names = [args.game] if args.game else available_games()
    for name in names:
        game = open_game(name, args.option)
        print(bench_game(game, seconds=args.seconds, root=repo_root()).report())
    return EXIT_OK


# ---- argument parsing -------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="rulewright", description="Board-game rules as data, compiled to engines."
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def add(
        name: str, fn: Callable[[argparse.Namespace], int], help: str, epilog: str | None = None
    ) -> argparse.ArgumentParser:
        sp = sub.add_parser(
            name,
            help=help,
            description=help,
            epilog=epilog,
            formatter_class=argparse.RawDescriptionHelpFormatter if epilog else argparse.HelpFormatter,
        )
        sp.set_defaults(fn=fn)
        return sp

    def opts(sp: argparse.ArgumentParser) -> None:
        sp.add_argument(
            "-o", "--option", action="append", metavar="KEY=VALUE", help="a game option (repeatable)"
        )

    sp = add("check", cmd_check, "check specs and print located diagnostics (exit 1 on errors)")
    sp.add_argument(
        "targets", nargs="*", metavar="GAME|PATH", help="game names or spec folders (default: all)"
    )
    sp = add("build", cmd_build, "compile every spec in specs/ into generated/")
    sp.add_argument("--check", action="store_true", help="write nothing; fail if generated/ is stale")
    sp.add_argument("-v", "--verbose", action="store_true", help="also print warnings")
    sp = add("play", cmd_play, "play one game in the terminal")
    sp.add_argument("game")
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument(
        "--agents",
        default="random",
        help=f"comma-separated, one per player, cycled ({', '.join(AGENTS)}; mcts:N = N simulations)",
    )
    sp.add_argument("--log", metavar="FILE", help="write a replayable JSON log")
    sp.add_argument("-q", "--quiet", action="store_true", help="print only the result")
    opts(sp)
    sp = add("replay", cmd_replay, "re-run a logged game and verify its recorded final state")
    sp.add_argument("logfile")
    sp = add("simulate", cmd_simulate, "play many games: win rates, mean length, speed")
    sp.add_argument("game")
    sp.add_argument("-n", type=int, default=100, help="number of games (default 100)")
    sp.add_argument("--seed", type=int, default=0, help="seed of the first game")
    sp.add_argument(
        "--agents",
        default="random",
        help=f"comma-separated, one per player, cycled ({', '.join(AGENTS)}; mcts:N)",
    )
    sp.add_argument(
        "--rotate", action="store_true", help="rotate the agents' seats every game (fair comparisons)"
    )
    sp.add_argument("--coverage", action="store_true", help="report how often each spec rule ran")
    coverage_kinds_option(sp)
    sp.add_argument("--coverage-json", metavar="FILE", help="write the rule coverage as JSON to FILE")
    opts(sp)
    sp = add(
        "scenarios",
        cmd_scenarios,
        "run the designers' scenario files",
        epilog="examples:\n"
        "  rulewright scenarios                             every game's own scenarios\n"
        "  rulewright scenarios GAME                        one game's (or a spec folder's)\n"
        "  rulewright scenarios --game GAME my_case.yaml    one case file, while writing it\n"
        "  rulewright scenarios --game GAME cases/          a folder of cases kept elsewhere",
    )
    sp.add_argument(
        "paths",
        nargs="*",
        metavar="GAME|PATH",
        help="a game or a spec folder (default: all games); with --game, case files or folders of them",
    )
    sp.add_argument(
        "--game",
        metavar="NAME|FOLDER",
        help="the game (name or spec folder) the case files test; they replace its own scenarios",
    )
    sp = add(
        "verify",
        cmd_verify,
        "let Hypothesis play; check invariants and the engine contract; shrink and save a failure",
    )
    sp.add_argument(
        "games", nargs="*", metavar="GAME|PATH", help="games or spec folders to verify (default: all games)"
    )
    sp.add_argument("--examples", type=int, default=100, help="games per game (default 100)")
    sp.add_argument("--seed", type=int, default=0, help="Hypothesis seed (default 0)")
    sp.add_argument(
        "--max-steps", type=int, default=2000, help="stop an example after K decisions (default 2000)"
    )
    sp.add_argument(
        "--strategy",
        metavar="S[,S...]",
        help="random, first, last, novel, prefer (default: random,last,first,novel, +prefer with --prefer)",
    )
    sp.add_argument("--prefer", metavar="REGEX", help="favour actions whose label matches, e.g. 'event'")
    sp.add_argument("--no-contract", action="store_true", help="check only the invariants (faster)")
    sp.add_argument("--coverage", action="store_true", help="then report how often each rule ran")
    coverage_kinds_option(sp)
    sp.add_argument(
        "--coverage-json", metavar="FILE", help="write rule coverage as JSON (GAME in FILE becomes the name)"
    )
    sp.add_argument(
        "--out", metavar="DIR", help="where to write a failure's scenario (default specs/GAME/scenarios)"
    )
    opts(sp)
    sp = add("playthrough", cmd_playthrough, "record golden playthroughs under tests/playthroughs/GAME/")
    sp.add_argument("game")
    sp.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    sp.add_argument("-n", type=int, default=1, help="how many games, seeds SEED.. (default 1)")
    sp.add_argument("--agents", default="random", help="comma-separated, one per player, cycled")
    sp.add_argument("--out", metavar="DIR", help="default tests/playthroughs/GAME")
    opts(sp)
    sp = add(
        "diff",
        cmd_diff,
        "after a spec change and a build: where each stored playthrough diverges, and why",
    )
    sp.add_argument("game")
    sp.add_argument("--update", action="store_true", help="then re-record them on the current rules")
    sp.add_argument("--dir", metavar="DIR", help="default tests/playthroughs/GAME")
    sp = add("bench", cmd_bench, "games/s, decisions/s, clone and JSON cost, check and build time")
    sp.add_argument("game", nargs="?")
    sp.add_argument("--seconds", type=float, default=2.0, help="time spent playing per game (default 2)")
    opts(sp)
    sp = add("demo", cmd_demo, "play one seeded game of every compiled game and show how it ended")
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--tail", type=int, default=15, help="log lines to show per game")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    try:
        code = int(args.fn(args))
    except UsageError as exc:
        print(f"rulewright {args.command}: {exc}", file=sys.stderr)
        code = EXIT_USAGE
    except RuleError as exc:
        print(f"rulewright {args.command}: rule error at run time: {exc}", file=sys.stderr)
        code = EXIT_SPEC
    except BrokenPipeError:
        code = EXIT_OK
    sys.stdout.flush()
    return code


if __name__ == "__main__":
    random.seed(0)
    raise SystemExit(main())
