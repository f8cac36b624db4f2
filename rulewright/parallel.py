"""Work cut into independent items, run in this process, in worker processes or on a Ray cluster,
its results handed back in item order.

`simulate` and `verify` cut their work into items that depend on nothing but themselves: a game's
number (its seed follows from it), a part of one game's verify run. So a run gives the same result
for any number of workers and on either backend, as long as the results are merged in item order:
`Backend.run` yields them in that order, however the work was spread.

Items travel in chunks, so that a game of a millisecond does not pay for a message of its own. A
chunk reports its progress in the caller's units (games, examples) through a shared array that
this process reads while it waits.

A worker is never sent an engine. An engine is a module, and a workspace's engines are imported
under private names (runtime/loading.py) that another process does not have: a worker is sent a
GameRecipe (what the command line named, and the options) and loads the game itself, once per
process. A worker forked from this process finds the games loaded here already (`preload`).

A worker never outlives this process, however it ends (SIGKILL included): on Linux the kernel
kills it when this process dies (`_die_with_parent`); elsewhere a thread of the worker waits on
the pipe whose end this process holds, and ends the worker when the pipe closes. A worker that
dies before its work is done is reported as a WorkerDied that says how it died.
"""

from __future__ import annotations

import functools
import importlib
import math
import os
import signal
import sys
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from rulewright.coverage import RuleCoverage
    from runtime.engine import GameState
    from runtime.game import Game

BACKENDS = ("local", "ray")
RAY_MISSING = "Ray is not installed: pip install 'rulewright[ray]'"
CHUNKS_PER_WORKER = 32  # enough that the workers finish close together, each chunk worth a message
MAX_CHUNK = 16  # items: a Ctrl-C loses at most that many per worker
RAY_MAX_CHUNK = 64  # a Ray task costs milliseconds, a local chunk a fraction of one
POLL = 0.1  # seconds between looks at the progress of running chunks, and at the workers' health
PR_SET_PDEATHSIG = 1  # Linux's prctl option: the signal this process gets when its parent dies

ItemT = TypeVar("ItemT")
ResultT = TypeVar("ResultT")
Tick = Callable[[int], None]  # a chunk's progress so far, in the caller's units
# a chunk's items and a tick -> the chunk's result; called in whichever process runs the chunk,
# so it must pickle (a module-level class or function) and may load games only through `game`
Job = Callable[[Sequence[ItemT], Tick], ResultT]


class BackendUnavailable(RuntimeError):
    """The backend asked for cannot run here (Ray not installed)."""


class WorkerDied(RuntimeError):
    """A worker process ended before its work was done: killed by `signal` (the out-of-memory
    killer, `kill -9`, a crash in native code), or gone with `exitcode` and not a word."""

    def __init__(self, number: int, pid: int | None, exitcode: int) -> None:
        self.number, self.pid, self.exitcode = number, pid, exitcode
        self.signal = -exitcode if exitcode < 0 else None
        who = f"worker {number} (pid {pid})"
        if self.signal is None:
            super().__init__(f"{who} ended with exit code {exitcode} before its work was done")
            return
        try:
            name = signal.Signals(self.signal).name
        except ValueError:
            name = "a signal"
        said = f"{who} was killed by {name} ({self.signal})"
        if name == "SIGKILL":
            said += (
                ": out of memory? The system's out-of-memory killer sends SIGKILL (`dmesg` or "
                "`journalctl -k` lists its kills), as does `kill -9`; fewer workers (-j) need less memory"
            )
        elif name in ("SIGSEGV", "SIGBUS", "SIGILL", "SIGABRT", "SIGFPE"):
            said += ": a crash in native code"
        super().__init__(said)


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


# ---- games, loaded once per process -----------------------------------------------------------


@dataclass(frozen=True)
class GameRecipe:
    """How any process loads the game a command named: a compiled game's name, with the output
    folders looked in before the bundled games, or a spec folder, compiled on the fly."""

    target: str  # a game's name, or a spec folder's absolute path
    options: tuple[tuple[str, Any], ...] = ()  # as given on the command line (-o KEY=VALUE)
    search: tuple[str, ...] = ()
    folder: bool = False

    def load(self) -> Game:
        if self.folder:
            from rulewright.spec_loader import load_spec  # the compiler: only for a spec folder

            return load_spec(Path(self.target), dict(self.options), rules_only=True)
        from runtime.game import load_game  # (importing this module does not load the engine)

        return load_game(self.target, dict(self.options), search=tuple(Path(p) for p in self.search))


_games: dict[GameRecipe, Game] = {}
# by engine: the option settings of one game share it; a spec folder compiled again is another engine
_coverage: dict[type[GameState], RuleCoverage] = {}


def preload(recipe: GameRecipe, game: Game) -> None:
    """Record that `recipe` loads `game` in this process, and in the workers forked from it."""
    _games[recipe] = game


def game(recipe: GameRecipe) -> Game:
    """The game of `recipe`, loaded on the first call in this process."""
    found = _games.get(recipe)
    if found is None:
        found = _games[recipe] = recipe.load()
    return found


def coverage(recipe: GameRecipe) -> RuleCoverage:
    """A RuleCoverage of the game of `recipe`, made once per process and engine (it parses the
    engine's source)."""
    from rulewright.coverage import RuleCoverage

    played = game(recipe)
    found = _coverage.get(played.state_cls)
    if found is None:
        found = _coverage[played.state_cls] = RuleCoverage(played)
    return found


# ---- chunks -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Chunk(Generic[ItemT]):
    """Items run together, in order, by one process; `units` is what they are worth in progress."""

    items: tuple[ItemT, ...]
    units: int


def chunked(
    items: Iterable[ItemT], workers: int, units: Callable[[ItemT], int], most: int
) -> list[Chunk[ItemT]]:
    """The items in consecutive chunks: one item each for a single worker (Ctrl-C then loses only
    the item it interrupts), else about CHUNKS_PER_WORKER chunks per worker of at most `most`."""
    listed = list(items)
    size = 1 if workers <= 1 else min(most, math.ceil(len(listed) / (workers * CHUNKS_PER_WORKER)))
    out = []
    for i in range(0, len(listed), size):
        part = tuple(listed[i : i + size])
        out.append(Chunk(part, sum(units(x) for x in part)))
    return out


def _one(item: object) -> int:
    return 1


class _Tally:
    """The progress of a run: the units of the chunks finished, plus those of the chunks running
    so far (each counted up to what it is worth)."""

    def __init__(self, chunks: Sequence[Chunk[Any]], on_progress: Callable[[int], None] | None) -> None:
        self.units = [c.units for c in chunks]
        self.finished = [False] * len(chunks)
        self.done = 0
        self.on_progress = on_progress

    def finish(self, index: int) -> None:
        self.finished[index] = True
        self.done += self.units[index]

    def running(self, index: int, n: int) -> None:
        """Chunk `index`, the only one running, has done `n` units."""
        if self.on_progress is not None:
            self.on_progress(self.done + min(n, self.units[index]))

    def report(self, live: Sequence[int] | None = None) -> None:
        """Report the units done: those of the chunks finished, and what `live` holds for the
        others (their units done so far, 0 for one not started)."""
        if self.on_progress is None:
            return
        running = 0
        if live is not None:
            for n, units, finished in zip(live, self.units, self.finished, strict=True):
                if n and not finished:
                    running += min(n, units)
        self.on_progress(self.done + running)


def _in_order(results: Iterator[tuple[int, ResultT]]) -> Iterator[ResultT]:
    """Results that arrive in any order, yielded in chunk order."""
    waiting: dict[int, ResultT] = {}
    next_index = 0
    for index, result in results:
        waiting[index] = result
        while next_index in waiting:
            yield waiting.pop(next_index)
            next_index += 1


# ---- backends ---------------------------------------------------------------------------------


class Backend:
    """Where chunks run. `run` yields each chunk's result in chunk order; leaving the `with`
    block (Ctrl-C included) stops whatever still runs."""

    workers: int
    most: int  # items in a chunk

    def __init__(self) -> None:
        self._running: list[Generator[Any, None, None]] = []

    def chunked(self, items: Iterable[ItemT], units: Callable[[ItemT], int] = _one) -> list[Chunk[ItemT]]:
        """`items` cut into chunks for this backend's workers; `units(item)` is what an item is
        worth in progress (1 by default)."""
        return chunked(items, self.workers, units, self.most)

    def run(
        self,
        job: Job[ItemT, ResultT],
        chunks: Sequence[Chunk[ItemT]],
        on_progress: Callable[[int], None] | None = None,
    ) -> Iterator[ResultT]:
        results = self._results(job, chunks, _Tally(chunks, on_progress))
        self._running.append(results)
        return _in_order(results)

    def _results(
        self, job: Job[ItemT, ResultT], chunks: Sequence[Chunk[ItemT]], tally: _Tally
    ) -> Generator[tuple[int, ResultT], None, None]:
        """(chunk index, result) for every chunk, in the order they finish."""
        raise NotImplementedError

    def close(self) -> None:
        """Stop what still runs (each generator's `finally` does), and the workers started."""
        for results in self._running:
            results.close()
        self._running.clear()

    def __enter__(self) -> Backend:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def open_backend(kind: str, workers: int | None) -> Backend:
    """The backend `kind` ("local" or "ray") with `workers` workers (None: every usable core of
    this machine, or of the Ray cluster). Raises BackendUnavailable when Ray is not installed."""
    if kind == "ray":
        return RayBackend(workers)
    if kind != "local":
        raise ValueError(f"unknown backend {kind!r} (backends: {', '.join(BACKENDS)})")
    return LocalBackend(workers or usable_cores())


class LocalBackend(Backend):
    """Chunks run in this process (one worker, or one chunk) or in worker processes of this machine."""

    def __init__(self, workers: int) -> None:
        super().__init__()
        self.workers = workers
        self.most = MAX_CHUNK

    def _results(
        self, job: Job[ItemT, ResultT], chunks: Sequence[Chunk[ItemT]], tally: _Tally
    ) -> Generator[tuple[int, ResultT], None, None]:
        if self.workers <= 1 or len(chunks) <= 1:
            return _in_this_process(job, chunks, tally)
        return _in_processes(job, chunks, min(self.workers, len(chunks)), tally)


def _in_this_process(
    job: Job[ItemT, ResultT], chunks: Sequence[Chunk[ItemT]], tally: _Tally
) -> Generator[tuple[int, ResultT], None, None]:
    for index, chunk in enumerate(chunks):
        result = job(chunk.items, functools.partial(tally.running, index))
        tally.finish(index)
        tally.report()
        yield index, result


def _context() -> Any:
    """How worker processes start: forked on Linux (quick, and they inherit the games loaded
    here), spawned elsewhere, where forking a process with threads is not safe. Either way a
    worker is a child of this process, which its death signal (`_die_with_parent`) relies on;
    under forkserver it would be the server's, and watches this process's pipe instead."""
    import multiprocessing  # (here: every command imports this module, few start workers)

    return multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")


def _in_processes(
    job: Job[ItemT, ResultT], chunks: Sequence[Chunk[ItemT]], workers: int, tally: _Tally
) -> Generator[tuple[int, ResultT], None, None]:
    """Run the chunks in `workers` processes, which take the next chunk as they finish one; yield
    (chunk index, result) as they arrive. A worker's exception is raised here; a worker that dies
    without a word is an error, never a wait for ever. Returning stops every worker."""
    import pickle  # (these three here and in the workers: only a run in processes needs them)
    import queue

    ctx = _context()
    next_chunk = ctx.Value("q", 0)
    live = ctx.RawArray("q", len(chunks))  # each running chunk's ticks; a slot has one writer
    results = ctx.Queue()
    _prctl()  # looked up here, once: a forked worker finds it ready
    processes = [
        ctx.Process(target=_worker, args=(job, chunks, next_chunk, live, results, os.getpid()), daemon=True)
        for _ in range(workers)
    ]
    try:
        for p in processes:
            p.start()
        checked = time.monotonic()
        for _ in range(len(chunks)):
            while True:
                try:
                    index, ok, data = results.get(timeout=POLL)
                    break
                except queue.Empty:
                    _check_alive(processes)
                    checked = time.monotonic()
                    tally.report(live)
            value = pickle.loads(data)
            if not ok:
                raise value
            # a worker killed while the others keep the queue busy: found now, not when they are done
            if time.monotonic() - checked >= POLL:
                _check_alive(processes)
                checked = time.monotonic()
            tally.finish(index)
            tally.report(live)
            yield index, value
    finally:
        for p in processes:
            if p.is_alive():
                p.terminate()
        for p in processes:
            p.join()
        results.close()


def _check_alive(processes: Sequence[Any]) -> None:
    """Raise WorkerDied for the first worker that ended otherwise than by finishing its work."""
    for number, p in enumerate(processes, 1):
        if p.exitcode not in (None, 0):
            raise WorkerDied(number, p.pid, p.exitcode)


@functools.cache
def _prctl() -> Callable[..., int] | None:
    """Linux's prctl(2) from its C library, or None where there is none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        found: Any = ctypes.CDLL(None, use_errno=True).prctl
    except (ImportError, OSError, AttributeError):
        return None
    found.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4  # a variadic C function: say the widths
    found.restype = ctypes.c_int
    prctl: Callable[..., int] = found
    return prctl


def _die_with_parent(parent: int) -> None:
    """Make this worker end when `parent` (the process that started it) dies, however it dies.

    On Linux the kernel sends SIGKILL when the parent dies; the parent may have died before that
    was asked, so its pid is checked after (an orphan's parent is another process). The signal
    comes when the parent's thread that started the worker ends, so the pool is run and closed
    by one thread. Elsewhere, or when the worker is not the parent's child (forkserver), a daemon
    thread waits on the pipe whose other end the parent holds: the pipe closes when it dies."""
    prctl = _prctl()
    if prctl is not None and os.getppid() == parent and prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
        if os.getppid() != parent:
            os._exit(1)
        return
    import multiprocessing

    watched = multiprocessing.parent_process()
    if watched is not None:
        import threading

        threading.Thread(target=_exit_when_gone, args=(watched,), daemon=True).start()


def _exit_when_gone(parent: Any) -> None:
    parent.join()
    os._exit(1)


def _worker(
    job: Job[Any, Any], chunks: Sequence[Chunk[Any]], next_chunk: Any, live: Any, results: Any, parent: int
) -> None:
    """A worker process: take the next chunk until none is left, and send each result (or the
    exception it raised) back pickled. Ctrl-C is the parent's to handle: it stops the workers;
    the parent's death ends them."""
    import pickle

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent(parent)
    while True:
        with next_chunk.get_lock():
            index = next_chunk.value
            next_chunk.value = index + 1
        if index >= len(chunks):
            return

        def tick(n: int, index: int = index) -> None:
            live[index] = n

        try:
            results.put((index, True, pickle.dumps(job(chunks[index].items, tick))))
        except BaseException as exc:  # noqa: B036 -- every failure, even KeyboardInterrupt, goes to the parent
            results.put((index, False, _pickled_exception(exc)))
            return


def _pickled_exception(exc: BaseException) -> bytes:
    """The exception pickled, or, if it does not pickle, a RuntimeError that names it."""
    import pickle

    try:
        return pickle.dumps(exc)
    except Exception:
        return pickle.dumps(RuntimeError(f"{type(exc).__name__}: {exc}"))


class RayBackend(Backend):
    """Chunks run as Ray tasks: on the cluster at RAY_ADDRESS, else on a local Ray instance started
    for this run (with `workers` CPUs) and shut down after it. A Ray already started in this
    process is used as it is."""

    def __init__(self, workers: int | None) -> None:
        super().__init__()
        try:
            self.ray: Any = importlib.import_module("ray")
        except ModuleNotFoundError as exc:
            if exc.name is None or exc.name.partition(".")[0] != "ray":
                raise
            raise BackendUnavailable(RAY_MISSING) from None
        self.started = False
        if not self.ray.is_initialized():
            import logging

            quiet = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
            if os.environ.get("RAY_ADDRESS"):
                self.ray.init(**quiet)
            else:
                self.ray.init(num_cpus=workers or usable_cores(), **quiet)
                self.started = True
        self.workers = workers or max(1, int(self.ray.cluster_resources().get("CPU", 1)))
        self.most = RAY_MAX_CHUNK

    def _results(
        self, job: Job[ItemT, ResultT], chunks: Sequence[Chunk[ItemT]], tally: _Tally
    ) -> Generator[tuple[int, ResultT], None, None]:
        """Submit the chunks, at most two per worker at a time (so that `workers` bounds the share
        of a cluster a run takes); yield (chunk index, result) as they finish."""
        ray = self.ray
        task = ray.remote(_ray_chunk)
        job_ref = ray.put(job)
        pending: dict[Any, int] = {}
        submitted = 0
        try:
            while submitted < len(chunks) or pending:
                while submitted < len(chunks) and len(pending) < 2 * self.workers:
                    pending[task.remote(job_ref, chunks[submitted].items)] = submitted
                    submitted += 1
                done, _ = ray.wait(list(pending), num_returns=1, timeout=POLL)
                for ref in done:
                    index = pending.pop(ref)
                    result = ray.get(ref)
                    tally.finish(index)
                    tally.report()
                    yield index, result
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)

    def close(self) -> None:
        super().close()
        if self.started:
            self.ray.shutdown()
            self.started = False


def _ray_chunk(job: Job[ItemT, ResultT], items: Sequence[ItemT]) -> ResultT:
    """A Ray task: one chunk (its progress is seen when it ends)."""
    return job(items, lambda n: None)
