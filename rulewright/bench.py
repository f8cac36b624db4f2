"""`rulewright bench`: the performance figures of games, alone or against another git revision.

Alone (`bench [GAME]`), in this process: games and decisions per second of random play by CPU time
and by wall time, the CPU cost of clone, to_json, from_json and clone + to_json at decision points
of real games (rulewright/bench_child.py measures them), the size of a saved state, and the time
to check and build the spec, in this process and as a whole `rulewright check` process.

Against a revision (`bench --against REF`): the same figures for this tree (A) and for REF (B), in
one run, A and B alternating round by round, each round a fresh process, and their ratios. REF's
tree is unpacked from git into a temporary folder. When this rulewright runs from the repository
being compared and REF's tree is a rulewright checkout too, B is REF's own runtime, engines and
`rulewright check`: a developer sees what a change of the compiler or runtime gains. Otherwise B
is REF's specs, compiled into a temporary folder and run and checked by this rulewright, as A's
are: a designer sees what a change of the spec costs. docs/performance.md says more.
"""

from __future__ import annotations

import json
import math
import re
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import runtime
from rulewright import bench_child
from runtime.game import Game
from runtime.text import quoted

CHILD = Path(bench_child.__file__).resolve()
# The folder holding the `runtime` package in use, with `generated/` (the bundled engines) and,
# in a checkout, `compiler/` and `rulewright/` beside it.
CODE_TREE = Path(runtime.__file__).resolve().parents[1]
# `rulewright ARGS` run from TREE (argv[1]) whatever is installed: TREE goes first on sys.path, and
# the command is TREE's own `rulewright` script as its pyproject.toml names it (an older revision
# had it elsewhere: `runtime.cli:main`), or `rulewright.cli:main` where TREE has no pyproject.toml
# (an installed package)
CLI_FROM_TREE = (
    "import importlib, sys, tomllib; tree = sys.argv[1]; sys.path.insert(0, tree); "
    "entry = 'rulewright.cli:main'\n"
    "try:\n"
    "    with open(tree + '/pyproject.toml', 'rb') as f:\n"
    "        entry = tomllib.load(f)['project']['scripts']['rulewright']\n"
    "except OSError:\n"
    "    pass\n"
    "module, _, name = entry.partition(':'); sys.argv[:] = ['rulewright', *sys.argv[2:]]\n"
    "sys.exit(getattr(importlib.import_module(module), name)())"
)
_TRACEBACK = "Traceback (most recent call last)"
MAX_REF_CHARS = 256  # a revision's name: a branch, a tag, a hash, HEAD~3; no longer


class BenchUsageError(Exception):
    """A revision that is not one, no git repository, an option the game does not take (exit 2)."""


class BenchFailed(Exception):
    """A measurement that could not be made: a spec that does not compile, a round that failed."""


@dataclass(frozen=True)
class Figure:
    """One figure of a table: its key in a round's figures, how it is shown, and which way is
    better (the ratio is always "how many times better A is than B")."""

    key: str
    label: str
    unit: str
    higher_is_better: bool
    better: str  # the ratio's word: 1.5x faster, 2.0x cheaper

    def ratio(self, a: float, b: float) -> float:
        high, low = (a, b) if self.higher_is_better else (b, a)
        return high / low if low > 0 else math.nan


PLAY_FIGURES = (
    Figure("games_per_s_cpu", "games/s (CPU)", "", True, "faster"),
    Figure("games_per_s_wall", "games/s (wall)", "", True, "faster"),
    Figure("decisions_per_s_cpu", "decisions/s (CPU)", "", True, "faster"),
    Figure("decisions_per_s_wall", "decisions/s (wall)", "", True, "faster"),
    Figure("clone_us", "clone", "us", False, "cheaper"),
    Figure("to_json_us", "to_json", "us", False, "cheaper"),
    Figure("from_json_us", "from_json", "us", False, "cheaper"),
    Figure("clone_to_json_us", "clone + to_json", "us", False, "cheaper"),
    Figure("json_bytes", "JSON size", "bytes", False, "smaller"),
)
CHECK_FIGURE = Figure("check_cpu_s", "check", "s", False, "less CPU")
VERSUS_FIGURES = (
    Figure("games_per_s_cpu", "games/s (CPU)", "", True, "faster"),
    Figure("decisions_per_s_cpu", "decisions/s (CPU)", "", True, "faster"),
    Figure("us_per_decision", "per decision", "us", False, "cheaper"),
)
MAX_VERSUS_OUTPUT = 1 << 20  # what an external program's round may print, in characters


def number(x: float) -> str:
    """A figure with as many digits as it needs."""
    if math.isnan(x):
        return "-"
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.1f}" if abs(x) >= 10 else f"{x:.2f}"


# ---- one game, in this process ----------------------------------------------------------------


@dataclass
class BenchResult:
    """The figures of one game (bench_child.measure), and what checking and building its spec costs:
    in this process (the compiler warmed up) and as a whole `rulewright check` process."""

    game: str
    figures: dict[str, float]
    check_ms: float = math.nan
    build_ms: float = math.nan
    check_process_ms: float = math.nan

    def report(self) -> str:
        f = self.figures
        per_game = f["decisions"] / max(1, f["games"])
        lines = [
            f"{self.game}:",
            f"  games/s          {number(f['games_per_s_cpu']):>10} CPU  {number(f['games_per_s_wall']):>10} wall"
            f"   ({f['games']:,.0f} random games in {f['cpu_s']:.2f} s CPU, {f['wall_s']:.2f} s wall)",
            f"  decisions/s      {number(f['decisions_per_s_cpu']):>10} CPU  {number(f['decisions_per_s_wall']):>10} wall"
            f"   ({per_game:,.0f} per game)",
            f"  clone            {number(f['clone_us']):>10} us CPU",
            f"  to_json          {number(f['to_json_us']):>10} us CPU   ({f['json_bytes']:,.0f} bytes)",
            f"  from_json        {number(f['from_json_us']):>10} us CPU",
            f"  clone + to_json  {number(f['clone_to_json_us']):>10} us CPU"
            f"   (at {f['samples']:,.0f} decision points of {bench_child.SAMPLE_GAMES} games)",
        ]
        if not math.isnan(self.check_ms):
            lines += [
                f"  check spec       {number(self.check_ms):>10} ms CPU   (in this process)",
                f"  build spec       {number(self.build_ms):>10} ms CPU   (in this process)",
                f"  check process    {number(self.check_process_ms):>10} ms CPU"
                "   (`rulewright check` of the spec: start, imports, grammar, all)",
            ]
        return "\n".join(lines)

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            **self.figures,
            "check_ms": _json_number(self.check_ms),
            "build_ms": _json_number(self.build_ms),
            "check_process_ms": _json_number(self.check_process_ms),
        }


def bench_game(
    game: Game, seconds: float = 2.0, spec: Path | None = None, cwd: Path | None = None
) -> BenchResult:
    """Play `game` for `seconds` of CPU time and time clone and JSON; check and build `spec` (its
    spec folder) when given, in this process and with `rulewright check` run from `cwd`."""
    result = BenchResult(game.name, bench_child.measure(game, seconds))
    if spec is not None and spec.is_dir():
        from compiler.driver import compile_spec

        compile_spec(spec, render=False)  # warm-up: the one-time grammar construction is not the spec's cost
        t = time.process_time()
        compile_spec(spec, render=False)
        result.check_ms = 1000 * (time.process_time() - t)
        t = time.process_time()
        compile_spec(spec)
        result.build_ms = 1000 * (time.process_time() - t)
        result.check_process_ms = 1000 * check_cpu(CODE_TREE, [spec], cwd or Path.cwd())
    return result


def check_cpu(tree: Path, folders: Sequence[Path], cwd: Path) -> float:
    """The CPU seconds (user + system) of one `rulewright check FOLDERS` process run from `tree`:
    what a user pays, interpreter start and imports included. A spec with errors is timed too;
    a check that could not run (a usage or internal error) is a BenchFailed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-I", "-c", CLI_FROM_TREE, str(tree), "check", *map(str, folders)],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1) or _TRACEBACK in done.stderr:  # a crash exits with 1 too
        raise BenchFailed(
            f"`rulewright check` from {tree} failed (exit {done.returncode}): {_last_line(done.stderr)}"
        )
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


# ---- git: a revision, resolved and unpacked -----------------------------------------------------


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            ["git", "-C", str(repo), *args],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
        )
    except OSError as exc:
        raise BenchUsageError(
            f"--against needs git, which cannot be run here ({exc.strerror or exc})"
        ) from None


def repository_root(folder: Path) -> Path:
    """The top of the git work tree holding `folder`."""
    done = _git(folder, "rev-parse", "--show-toplevel")
    if done.returncode != 0:
        raise BenchUsageError(f"--against: {folder} is not in a git repository")
    return Path(done.stdout.strip()).resolve()


def resolve_revision(repo: Path, ref: str) -> str:
    """The commit `ref` names in the repository `repo`, as a full hash. Refused before git sees it:
    an empty name, one that starts with '-' (git would read an option), a NUL or a line break."""
    if not ref.strip():
        raise BenchUsageError("--against: the revision is empty")
    if ref.startswith("-"):
        raise BenchUsageError(f"--against {quoted(ref)}: a revision does not start with '-'")
    if len(ref) > MAX_REF_CHARS or any(c in ref for c in "\0\n\r"):
        raise BenchUsageError(f"--against {quoted(ref)}: not a revision name")
    done = _git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
    sha = done.stdout.strip()
    if done.returncode != 0 or not re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", sha):
        raise BenchUsageError(f"--against {quoted(ref)}: no such commit in {repo}")
    return sha


def unpack_revision(repo: Path, sha: str, dest: Path) -> None:
    """The tree of commit `sha` written into `dest` (`git archive`, read as a stream by tarfile's
    'data' filter: no member lands outside `dest`, no device or absolute link is made)."""
    with subprocess.Popen(
        ["git", "-C", str(repo), "archive", "--format=tar", sha],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        try:
            with tarfile.open(fileobj=proc.stdout, mode="r|") as tar:
                tar.extractall(dest, filter="data")
        except (tarfile.TarError, OSError) as exc:
            proc.kill()
            raise BenchFailed(f"cannot unpack {sha[:12]} into {dest}: {exc}") from None
        error = proc.stderr.read().decode("utf-8", "replace")
    if proc.returncode != 0:
        raise BenchFailed(f"`git archive {sha[:12]}` failed: {_last_line(error)}")


def describe_work_tree(repo: Path) -> str:
    """This tree as the report names it: its HEAD, and whether tracked files differ from it."""
    head = _git(repo, "rev-parse", "--short", "HEAD").stdout.strip() or "no commit"
    changed = _git(repo, "status", "--porcelain", "--untracked-files=no").stdout.strip()
    return f"this tree (HEAD {head}{', with uncommitted changes' if changed else ''})"


# ---- the two sides --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """What one side of a comparison runs: the tree whose runtime a round imports, the output
    folder its engines load from (None: the tree's bundled ones), and the spec folder of each of
    its games, which `rulewright check` (from the tree, in `cwd`) checks."""

    name: str  # A or B
    label: str
    tree: Path
    search: Path | None
    cwd: Path
    specs: dict[str, Path]
    play_tree: Path | None = None  # where its runtime comes from when not `tree` (a native build)


@contextmanager
def revision_sides(root: Path, specs: dict[str, Path], ref: str) -> Iterator[tuple[Side, Side]]:
    """A (this tree) and B (the revision `ref` of the git repository holding the workspace at
    `root`) for the games of `specs`, their spec folders in the workspace. REF is unpacked into a
    temporary folder, removed on leaving whatever happens (Ctrl-C included)."""
    repo = repository_root(root)
    sha = resolve_revision(repo, ref)
    within = root.relative_to(repo)
    a_label = describe_work_tree(repo)
    b_label = f"{ref} ({sha[:10]})"
    with tempfile.TemporaryDirectory(prefix="rulewright-bench-") as tmp:
        ref_tree = Path(tmp) / "tree"
        ref_tree.mkdir()
        unpack_revision(repo, sha, ref_tree)
        if CODE_TREE == repo and _is_checkout(ref_tree):  # a developer's: REF runs its own code
            a = Side("A", a_label, CODE_TREE, None, root, specs)
            b_specs = {
                g: ref_tree / f.relative_to(repo)
                for g, f in specs.items()
                if f.is_relative_to(repo)
                and (ref_tree / f.relative_to(repo)).is_dir()
                and (ref_tree / "generated" / g / "__init__.py").is_file()
            }
            b_label += ": its own runtime, engines and `rulewright check`"
            b = Side("B", b_label, ref_tree, None, ref_tree / within, b_specs)
        else:  # a designer's: both sides' specs built and checked by this rulewright
            ref_specs = _workspace_at(ref_tree / within, ref)
            b_specs = {g: f for g, f in ref_specs.items() if g in specs}
            b_label += ": its specs, built and checked by this rulewright"
            a = _compiled(Side("A", a_label, CODE_TREE, Path(tmp) / "a", root, specs))
            b = _compiled(Side("B", b_label, CODE_TREE, Path(tmp) / "b", ref_tree / within, b_specs))
        yield a, b


def _is_checkout(tree: Path) -> bool:
    """Whether a tree is rulewright's own: a runtime and a compiler to run."""
    return (tree / "runtime" / "engine.py").is_file() and (tree / "compiler").is_dir()


def _workspace_at(root: Path, ref: str) -> dict[str, Path]:
    """The spec folders, by game, of the workspace at `root` in REF's tree."""
    from rulewright.workspace import WorkspaceError, open_workspace

    try:
        return {f.name: f for f in open_workspace(root).spec_folders()}
    except (WorkspaceError, OSError) as exc:
        raise BenchUsageError(f"--against {quoted(ref)}: no workspace to compare there ({exc})") from None


def _compiled(side: Side) -> Side:
    """The side with its specs built into its output folder (side.search) by this compiler."""
    from rulewright.build import BuildError, build

    assert side.search is not None
    try:
        report = build(list(side.specs.values()), side.search)
    except BuildError as exc:
        raise BenchFailed(f"{side.name}: {exc}") from None
    for r in report.results:
        if not r.ok:
            raise BenchFailed(
                f"{side.name} ({side.label}): the spec {r.name} has errors (`rulewright check` it)"
            )
    return side


# ---- the comparison -----------------------------------------------------------------------------


@dataclass
class Series:
    """One figure over the rounds, for A and for B."""

    figure: Figure
    a: list[float] = field(default_factory=list)
    b: list[float] = field(default_factory=list)

    def ratios(self) -> list[float]:
        return [self.figure.ratio(x, y) for x, y in zip(self.a, self.b, strict=True)]

    def row(self, label: str) -> str:
        r = self.ratios()
        unit = f" {self.figure.unit}" if self.figure.unit else ""
        return (
            f"  {label:<22}{number(statistics.median(self.a)) + unit:>14}{number(statistics.median(self.b)) + unit:>14}"
            f"   {statistics.median(r):5.2f}x {self.figure.better:<9} ({min(r):.2f}-{max(r):.2f})"
        )

    def as_json(self) -> dict[str, Any]:
        r = self.ratios()
        return {
            "a": self.a,
            "b": self.b,
            "a_median": statistics.median(self.a),
            "b_median": statistics.median(self.b),
            "ratio": _json_number(statistics.median(r)),
            "ratio_min": _json_number(min(r)),
            "ratio_max": _json_number(max(r)),
            "ratio_means": f"A {self.figure.better} than B",
        }


@dataclass
class Comparison:
    """Every figure of every game for A and B, round by round."""

    a: Side
    b: Side
    ref: str
    rounds: int
    seconds: float
    play: dict[str, dict[str, Series]] = field(default_factory=dict)
    check: dict[str, Series] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)  # games B does not have

    def report(self) -> str:
        rounds = f"{self.rounds} round{'s' if self.rounds != 1 else ''}"
        lines = [
            f"A: {self.a.label}",
            f"B: {self.b.label}",
            f"{rounds} per game and side of {self.seconds:g} s of CPU of random play, A and B alternating,"
            " each round in a fresh process.",
            "A vs B: how many times better A is than B, the median of the per-round ratios (min-max).",
        ]
        if self.missing:
            lines.append(f"not in B, so not compared: {', '.join(self.missing)}")
        for game, table in self.play.items():
            lines += ["", f"{game:<24}{'A':>14}{'B':>14}   A vs B"]
            lines += [series.row(series.figure.label) for series in table.values()]
        if self.check:
            lines += ["", f"{'check (whole process, CPU)':<24}{'A':>14}{'B':>14}   A vs B"]
            lines += [series.row(what) for what, series in self.check.items()]
        return "\n".join(lines)

    def as_json(self) -> dict[str, Any]:
        return {
            "a": {"label": self.a.label, "tree": str(self.a.tree)},
            "b": {"label": self.b.label, "ref": self.ref},
            "rounds": self.rounds,
            "seconds": self.seconds,
            "games": {g: {k: s.as_json() for k, s in table.items()} for g, table in self.play.items()},
            "check": {what: s.as_json() for what, s in self.check.items()},
            "missing": self.missing,
        }


def compare(
    a: Side,
    b: Side,
    ref: str,
    *,
    seconds: float,
    rounds: int,
    options: Sequence[str] = (),
    check: bool = True,
    tick: Callable[[int, int], None] = lambda done, total: None,
) -> Comparison:
    """Measure A and B: for each game, `rounds` rounds of play for each, A and B alternating, then
    `rulewright check` of each game and (with several) of all together, alternating the same way.
    `tick(done, total)` after each process, for a progress bar."""
    games = [g for g in a.specs if g in b.specs]
    result = Comparison(a, b, ref, rounds, seconds, missing=[g for g in a.specs if g not in b.specs])
    checks: list[tuple[str, list[str]]] = [(g, [g]) for g in games]
    if len(games) > 1:
        checks.append((f"all {len(games)} games", games))
    total = rounds * 2 * (len(games) + (len(checks) if check else 0)) + (2 if check and games else 0)
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        tick(done, total)

    for game in games:
        table = result.play[game] = {f.key: Series(f) for f in PLAY_FIGURES}
        for _ in range(rounds):
            for side, column in ((a, "a"), (b, "b")):
                figures = play_round(side, game, seconds, options)
                for f in PLAY_FIGURES:
                    getattr(table[f.key], column).append(figures[f.key])
                step()
    if check and games:
        for side in (a, b):  # unmeasured: REF's modules compiled to bytecode, its grammar cached
            check_cpu(side.tree, [side.specs[games[0]]], side.cwd)
            step()
        for what, names in checks:
            series = result.check[what] = Series(CHECK_FIGURE)
            for _ in range(rounds):
                for side, column in ((a, "a"), (b, "b")):
                    getattr(series, column).append(
                        check_cpu(side.tree, [side.specs[g] for g in names], side.cwd)
                    )
                    step()
    return result


def play_round(side: Side, game: str, seconds: float, options: Sequence[str] = ()) -> dict[str, float]:
    """One round of one side, in a fresh process (bench_child.py): its figures."""
    tree = side.play_tree or side.tree
    # -B for a native build: its bytecode was made with it, and a file written there would refuse it
    command = [sys.executable, "-I", *(["-B"] if side.play_tree else []), str(CHILD), str(tree), game]
    command += ["--seconds", repr(seconds)]
    if side.search is not None:
        command.append(f"--search={side.search}")
        if side.play_tree is not None:  # a native build, checked by native_folder
            command.append("--checked")
    command += [f"--option={o}" for o in options]
    done = subprocess.run(
        command,
        cwd=side.cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        errors="replace",
    )
    try:
        figures = json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        figures = {"error": _last_line(done.stderr) or f"exit {done.returncode}, no figures"}
    if not isinstance(figures, dict) or "error" in figures or done.returncode != 0:
        why = figures.get("error") if isinstance(figures, dict) else figures
        raise BenchFailed(f"{side.name} ({side.label}): {game}: {why}")
    return figures


# ---- against an external program (--versus) ---------------------------------------------------


def compare_versus(
    a: Side,
    game: str,
    command: Sequence[str],
    *,
    seconds: float,
    rounds: int,
    options: Sequence[str] = (),
    tick: Callable[[int, int], None] = lambda done, total: None,
) -> Comparison:
    """This tree's `game` (A) against an external program playing the same game (B), `rounds`
    rounds each, alternating, each in a fresh process (`versus_round` says what B must print)."""
    b = Side("B", f"the program {quoted(' '.join(command))}", a.tree, None, a.cwd, {game: a.specs[game]})
    result = Comparison(a, b, "", rounds, seconds)
    table = result.play[game] = {f.key: Series(f) for f in VERSUS_FIGURES}
    for i in range(rounds):
        for column in ("a", "b"):
            figures = (
                play_round(a, game, seconds, options)
                if column == "a"
                else versus_round(command, seconds, a.cwd)
            )
            if column == "a":
                figures["us_per_decision"] = 1e6 / figures["decisions_per_s_cpu"]
            for f in VERSUS_FIGURES:
                getattr(table[f.key], column).append(figures[f.key])
            tick(2 * i + (1 if column == "a" else 2), 2 * rounds)
    return result


def versus_round(command: Sequence[str], seconds: float, cwd: Path) -> dict[str, float]:
    """One round of an external program: `command --seconds S`, run in `cwd`, must play random
    games for about S seconds of CPU and print, as its last line, a JSON object with `games` and
    `decisions` (how many it played) and `cpu_s` (the CPU time they took, its set-up left out, as
    bench_child.py measures ours); without `cpu_s`, the CPU time of the whole process counts."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        done = subprocess.run(
            [*command, "--seconds", repr(seconds)],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=60 + 20 * seconds,
        )
    except OSError as exc:
        raise BenchFailed(f"--versus: cannot run {quoted(command[0])}: {exc.strerror or exc}") from None
    except subprocess.TimeoutExpired:
        raise BenchFailed(f"--versus: {quoted(command[0])} ran past {60 + 20 * seconds:g} s") from None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = done.stdout[-MAX_VERSUS_OUTPUT:]
    try:
        report = json.loads(out.strip().splitlines()[-1])
    except (IndexError, ValueError):
        report = None
    if done.returncode != 0 or not isinstance(report, dict):
        why = _last_line(done.stderr[-MAX_VERSUS_OUTPUT:]) or f"exit {done.returncode}"
        raise BenchFailed(
            f"--versus: {quoted(command[0])} printed no line of JSON with games, decisions and cpu_s last ({why})"
        )
    whole = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    games, decisions, cpu = report.get("games"), report.get("decisions"), report.get("cpu_s", whole)
    counts_ok = all(type(x) is int and x > 0 for x in (games, decisions))
    if not counts_ok or type(cpu) not in (int, float) or not 0 < cpu < math.inf:
        raise BenchFailed(
            f"--versus: {quoted(command[0])} must report positive integers games and decisions and a "
            f"positive cpu_s, not {quoted(json.dumps(report)[:200])}"
        )
    assert isinstance(games, int) and isinstance(decisions, int)
    return {
        "games_per_s_cpu": games / cpu,
        "decisions_per_s_cpu": decisions / cpu,
        "us_per_decision": 1e6 * cpu / decisions,
    }


def _json_number(x: float) -> float | None:
    return None if math.isnan(x) else x


def _last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1][:300] if lines else ""
