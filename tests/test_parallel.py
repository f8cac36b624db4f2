"""`simulate` and `verify` on several workers (rulewright/parallel.py): the same results for any
-j and either backend, bad -j values refused, Ctrl-C stopping the workers with the games so far
printed, the workers dying with the command however it dies, and a worker that dies reported
(how it died) rather than waited for."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from rulewright import parallel
from rulewright.cli import EXIT_INTERRUPTED, EXIT_SIGNALLED, EXIT_USAGE, main
from rulewright.progress import Progress, duration
from tests.conftest import ROOT

PLANTED = ROOT / "tests" / "verify" / "planted_bug"
HAVE_RAY = importlib.util.find_spec("ray") is not None
LINUX_PROC = pytest.mark.skipif(
    not Path(f"/proc/self/task/{os.getpid()}/children").exists(), reason="finds the workers in Linux's /proc"
)
TIMING = re.compile(r"^\s+[0-9,.]+ games/s|^\s+[0-9.]+ s, [0-9.]+ examples/s")


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def untimed(text: str) -> str:
    """Output without the lines (and the part of a line) that give times and rates."""
    text = re.sub(r"(FAILED \([0-9]+ examples run), [0-9.]+ s\)", r"\1)", text)
    return "\n".join(line for line in text.splitlines() if not TIMING.search(line))


def simulate(capsys: pytest.CaptureFixture[str], tmp: Path, *argv: str) -> tuple[str, str]:
    """What `simulate ARGV --coverage-json` prints (timings left out) and the JSON it writes."""
    out = tmp / f"cov{len(list(tmp.iterdir()))}.json"
    assert main(["simulate", *argv, "--coverage-json", str(out)]) == 0
    printed = capsys.readouterr().out.replace(str(out), "COVERAGE")
    return untimed(printed), out.read_text()


def verify(capsys: pytest.CaptureFixture[str], tmp: Path, *argv: str) -> tuple[str, dict[str, str]]:
    """What `verify ARGV` prints (timings left out), with the files it writes: its reproducers and
    its rule coverage."""
    out = tmp / f"run{len(list(tmp.iterdir()))}"
    out.mkdir()
    code = main(["verify", *argv, "--out", str(out), "--coverage-json", str(out / "GAME.json")])
    assert code == 1  # the planted bug is found
    printed = capsys.readouterr().out.replace(str(out), "OUT")
    return untimed(printed), {f.name: f.read_text() for f in sorted(out.iterdir())}


# -j 1's results, which every other worker count and the Ray backend are compared with: each made
# once for the module (by the first test that needs it; the outputs hold no path of a test's own)
_ONE_SIMULATE: dict[tuple[str, ...], tuple[str, str]] = {}
_ONE_VERIFY: dict[tuple[str, ...], tuple[str, dict[str, str]]] = {}


def simulate_alone(capsys: pytest.CaptureFixture[str], tmp: Path, *argv: str) -> tuple[str, str]:
    if argv not in _ONE_SIMULATE:
        _ONE_SIMULATE[argv] = simulate(capsys, tmp, *argv, "-j", "1")
    return _ONE_SIMULATE[argv]


def verify_alone(capsys: pytest.CaptureFixture[str], tmp: Path, *argv: str) -> tuple[str, dict[str, str]]:
    if argv not in _ONE_VERIFY:
        _ONE_VERIFY[argv] = verify(capsys, tmp, *argv, "-j", "1")
    return _ONE_VERIFY[argv]


SIMULATIONS = [
    ("iron_curtain", "-n", "40", "--seed", "5"),
    ("channel_tunnel", "-n", "12", "--agents", "random,first", "--rotate"),
]


@pytest.mark.parametrize("argv", SIMULATIONS, ids=[a[0] for a in SIMULATIONS])
def test_simulate_is_the_same_for_any_number_of_workers(
    argv: Sequence[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    one = simulate_alone(capsys, tmp_path, *argv)
    assert "games, seeds" in one[0] and '"count"' in one[1]
    for jobs in ("2", "3"):
        assert simulate(capsys, tmp_path, *argv, "-j", jobs) == one, f"-j {jobs}"


VERIFY = (str(PLANTED), "iron_curtain", "--examples", "6", "--shards", "2")


def test_verify_is_the_same_for_any_number_of_workers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    printed, files = verify_alone(capsys, tmp_path, *VERIFY)
    assert "verify planted_bug: FAILED" in printed and "verify iron_curtain: ok. 6 examples" in printed
    assert sorted(files) == ["iron_curtain.json", "planted_bug.json", "verify_tokens_conserved.yaml"]
    for jobs in ("2", "3"):
        assert verify(capsys, tmp_path, *VERIFY, "-j", jobs) == (printed, files), f"-j {jobs}"


def test_one_shard_is_the_verify_run_of_before(capsys: pytest.CaptureFixture[str]) -> None:
    """--shards 1 (the default) is one Hypothesis run with --seed, as verify made before -j."""
    from rulewright.verify import describe, verify
    from runtime import load_game

    assert main(["verify", "iron_curtain", "--examples", "5", "--seed", "3", "-j", "2"]) == 0
    alone = verify(load_game("iron_curtain"), examples=5, seed=3)
    assert untimed(capsys.readouterr().out) == untimed(describe(alone, 3, True))


def test_verify_draws_the_same_whatever_modules_the_process_imported() -> None:
    """Hypothesis draws constants from the modules a process imported; verify turns that off, or
    a worker (which imports fewer) would play other examples than the command."""

    def decisions(imports: str) -> str:
        code = (
            f"{imports}import runtime\nfrom rulewright.verify import verify\n"
            "print(verify(runtime.load_game('iron_curtain'), examples=4, seed=2 << 64).decisions)"
        )
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env)
        assert run.returncode == 0, run.stderr
        return run.stdout

    assert decisions("") == decisions("import rulewright.cli, rulewright.gamelog, compiler.driver\n")


@pytest.mark.parametrize("jobs", ["0", "-1", "two", "1.5", "", "9" * 40])
def test_bad_job_counts_are_usage_errors(jobs: str, capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["simulate", "iron_curtain", "-n", "1"], ["verify", "iron_curtain", "--examples", "1"]):
        assert main([*command, "-j", jobs]) == EXIT_USAGE
        err = capsys.readouterr().err
        assert err.startswith(f"rulewright {command[0]}: argument -j/--jobs: ") and "Traceback" not in err


def test_an_unknown_backend_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "iron_curtain", "-n", "1", "--backend", "cluster"]) == EXIT_USAGE
    assert "invalid choice: 'cluster'" in capsys.readouterr().err


@pytest.mark.skipif(HAVE_RAY, reason="Ray is installed: this is about a machine without it")
def test_ray_backend_without_ray_says_how_to_install_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "iron_curtain", "-n", "1", "--backend", "ray"]) == EXIT_USAGE
    assert "Ray is not installed: pip install 'rulewright[ray]'" in capsys.readouterr().err


# ---- stopping -------------------------------------------------------------------------------------


@LINUX_PROC
def test_ctrl_c_stops_the_workers_and_prints_the_games_finished() -> None:
    """SIGINT to the whole process group, as a terminal sends it: exit 130, the games finished
    before it summed up, and no worker left behind."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "rulewright", "simulate", "iron_curtain", "-n", "1000000", "-j", "2"]
    run = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # Ctrl-C as a terminal's foreground command has it, whatever started this test (a shell's
        # background job inherits it ignored, and Python keeps it so)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        workers = _wait_for_children(run.pid, 2)
        time.sleep(1.0)  # some chunks of games finish
        os.killpg(run.pid, signal.SIGINT)
        out, err = run.communicate(timeout=30)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == EXIT_INTERRUPTED, err
    assert "rulewright simulate: interrupted (Ctrl-C)" in err and "Traceback" not in err
    m = re.search(r"Iron Curtain: ([0-9]+) of 1000000 games \(interrupted\), seeds 0\.\.([0-9]+)", out)
    assert m is not None, out
    assert int(m.group(2)) == int(m.group(1)) - 1
    assert not [p for p in workers if Path(f"/proc/{p}").exists() and _state(p) != "Z"]


# a command whose two workers play for ever, until the test kills one of the three: the CLI, or a
# pool run the way a platform without prctl runs it (the workers watch the pipe to their parent)
ENDLESS = {
    "simulate": ["-m", "rulewright", "simulate", "iron_curtain", "-n", "1000000", "-j", "2"],
    "pipe": [
        "-c",
        "import time\nfrom rulewright import parallel\nparallel._prctl = lambda: None\n"
        "def job(items, tick):\n    time.sleep(600)\n"
        "with parallel.LocalBackend(2) as pool:\n    list(pool.run(job, pool.chunked(range(4))))",
    ],
}


@contextlib.contextmanager
def _endless(how: str) -> Iterator[subprocess.Popen[str]]:
    """ENDLESS[how] running in a session of its own; whatever is left of it is killed after."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.Popen(
        [sys.executable, *ENDLESS[how]],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        yield run
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(run.pid, signal.SIGKILL)  # the workers too: they keep the group
        run.communicate()


@LINUX_PROC
@pytest.mark.parametrize("how", sorted(ENDLESS))
def test_the_workers_die_with_their_parent_even_by_sigkill(how: str) -> None:
    """SIGKILL to the command alone, which cannot stop its workers: they end at once anyway (no
    later than 10 s here), instead of playing on for minutes."""
    with _endless(how) as run:
        workers = {p: _started(p) for p in _wait_for_children(run.pid, 2)}
        os.kill(run.pid, signal.SIGKILL)
        killed = time.monotonic()
        run.wait(timeout=10)
        while time.monotonic() - killed < 10:
            left = [p for p, started in workers.items() if _running(p, started)]
            if not left:
                break
            time.sleep(0.05)
        assert not left, f"the workers {left} outlived their parent by 10 s"


@LINUX_PROC
def test_a_worker_killed_is_said_so_with_its_signal() -> None:
    """A worker killed with SIGKILL (as the out-of-memory killer does): the command ends at once,
    in one line that names the worker and the signal, exit code 128 + 9, no traceback."""
    with _endless("simulate") as run:
        victim = _wait_for_children(run.pid, 2)[-1]
        os.kill(victim, signal.SIGKILL)
        out, err = run.communicate(timeout=30)
    assert run.returncode == EXIT_SIGNALLED + signal.SIGKILL, err
    said = (
        rf"^rulewright simulate: worker [12] \(pid {victim}\) was killed by SIGKILL \(9\): out of memory\? "
    )
    assert re.search(said, err, re.MULTILINE), err
    assert "internal error" not in err and "Traceback" not in err


def _started(pid: int) -> str:
    """When process `pid` started (so that a pid used again is not taken for it)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]


def _running(pid: int, started: str) -> bool:
    """Whether process `pid`, started at `started`, still runs (a zombie does not)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z" and fields[19] == started


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


def _wait_for_children(pid: int, n: int) -> list[int]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = _children(pid)
        if len(found) >= n:
            return found
        time.sleep(0.05)
    raise AssertionError(f"no {n} worker processes after 30 s")


def _exit_in_chunk_two(items: Sequence[int], tick: parallel.Tick) -> list[int]:
    if 2 in items:
        os._exit(3)
    return [i * i for i in items]


def _killed_in_chunk_two(items: Sequence[int], tick: parallel.Tick) -> list[int]:
    if 2 in items:
        os.kill(os.getpid(), signal.SIGKILL)
    return list(items)


def _raise_in_chunk_one(items: Sequence[int], tick: parallel.Tick) -> list[int]:
    if 1 in items:
        raise LookupError("no such thing")
    return list(items)


def test_a_worker_that_dies_is_an_error_not_a_wait() -> None:
    with parallel.LocalBackend(2) as backend, pytest.raises(RuntimeError, match="exit code 3"):
        list(backend.run(_exit_in_chunk_two, parallel.chunked(range(4), 1, lambda i: 1, 1)))


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="no SIGKILL on this system")
def test_a_worker_killed_by_a_signal_is_said_so() -> None:
    with parallel.LocalBackend(2) as backend, pytest.raises(parallel.WorkerDied) as died:
        list(backend.run(_killed_in_chunk_two, parallel.chunked(range(4), 1, lambda i: 1, 1)))
    assert died.value.signal == signal.SIGKILL
    assert re.fullmatch(
        r"worker [12] \(pid [0-9]+\) was killed by SIGKILL \(9\): out of memory\? .*", str(died.value)
    )


def test_a_workers_exception_is_raised_here() -> None:
    with parallel.LocalBackend(2) as backend, pytest.raises(LookupError, match="no such thing"):
        list(backend.run(_raise_in_chunk_one, parallel.chunked(range(4), 1, lambda i: 1, 1)))


def test_results_come_in_chunk_order_whatever_the_workers() -> None:
    chunks = parallel.chunked(range(100), 3, lambda i: 1, 4)
    assert [len(c.items) for c in chunks] == [2] * 50
    for workers in (1, 3):
        with parallel.LocalBackend(workers) as backend:
            assert [x for r in backend.run(_exit_in_chunk_two, chunks[2:]) for x in r] == [
                i * i for i in range(4, 100)
            ]


# ---- the progress line --------------------------------------------------------------------------


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_the_rate_and_the_time_left_on_a_terminal_only() -> None:
    bar = Progress(1000, "games", out=Terminal())
    assert bar.line(250, 5.0) == "[#######.......................] 250/1,000 games  50/s  ETA 0:15"
    assert bar.line(0, 1.0, "1 of 2 games done").endswith("ETA ?  1 of 2 games done")
    assert duration(3725) == "1:02:05" and duration(59.6) == "1:00"
    terminal = Terminal()
    with Progress(10, "games", out=terminal) as shown:
        shown.update(3)
    assert "3/10 games" in terminal.getvalue() and terminal.getvalue().endswith("\r\x1b[K")
    piped = io.StringIO()
    with Progress(10, "games", out=piped) as hidden:
        hidden.update(3)
    assert piped.getvalue() == ""


# ---- Ray (last: the module's Ray instance lives until the module ends, and the tests above fork) ----


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """A local Ray instance with 2 workers (whatever the cores: two tasks run apart and their results
    are merged, as with more; each worker is a Python process of its own to start), for this
    module's Ray tests."""
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'rulewright[ray]')")
    os.environ.pop("RAY_ADDRESS", None)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_gives_the_results_of_one_process(
    local_ray: None, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = SIMULATIONS[0]
    assert simulate(capsys, tmp_path, *argv, "--backend", "ray") == simulate_alone(capsys, tmp_path, *argv)
    assert verify(capsys, tmp_path, *VERIFY, "--backend", "ray") == verify_alone(capsys, tmp_path, *VERIFY)
