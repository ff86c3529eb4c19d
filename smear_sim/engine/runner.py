"""The one chunked runner: how every command that simulates runs its kernels.

A simulation is a :class:`Job`: a driver of :mod:`smear_sim.kernels.drivers`, its fixed arguments, a seed
and a number of hands (or deals, or games). :func:`run` validates it, loads or compiles the kernel before
the clock starts, has an executor run consecutive chunks of hand indices, sums the integer counts they
return, reports progress and times the work. Every hand draws from its own random stream keyed by
``(seed, hand index)`` and the counts are integers, so the sum does not depend on the threads, the chunk
size, the machine or the order in which chunks finish: that is what lets an executor run the chunks
elsewhere, and a checkpoint carry them over to another run.

The executor runs the chunks. :class:`LocalExecutor` calls the driver in this process, each chunk spread over
the machine's threads in kernel calls sized by time (:func:`paced_calls`: the drivers release the GIL);
:class:`smear_sim.engine.dask_executor.DaskExecutor` sends each chunk to a Dask cluster as a task. The chunk
function :func:`run_chunk` is a plain module-level function of picklable arguments, so it runs the same
anywhere.

Signals: Python runs a signal's handler (Ctrl-C, SIGTERM) on the main thread only once the kernel call it is in
returns, and a process exits only once its other threads' calls return. So no kernel call of this process lasts
much longer than :data:`PIECE_SECONDS`: each is sized from the time the previous ones took (:class:`Pace`), from
one hand up, whatever the player's speed, and a command stops within about a second of Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from ..core.errors import BadValue, SmearWarning
from .compiling import compile_apart, compiling, will_compile
from .job import MAX_SEED, Job, check_count, job_fingerprint, seed_value

if TYPE_CHECKING:
    from .checkpoint import Checkpoint

__all__ = [
    "DEFAULT_CHUNK",
    "HELPER_NAME",
    "MAX_SEED",
    "PIECE_SECONDS",
    "THREADS_ELSEWHERE",
    "Executor",
    "Job",
    "LocalExecutor",
    "NoCacheWarning",
    "Pace",
    "Progress",
    "RunResult",
    "across_threads",
    "check_count",
    "chunk_ranges",
    "job_fingerprint",
    "kernels",
    "load_kernel",
    "merge_ranges",
    "missing_ranges",
    "paced",
    "paced_calls",
    "run",
    "run_chunk",
    "run_paced",
    "seed_value",
    "thread_count",
]

DEFAULT_CHUNK = 1 << 18

Progress = Callable[[int], None]  # called with the number of hands just finished
# What is wrong with ``threads`` given with another executor (a BadValue for "threads" says it).
THREADS_ELSEWHERE = "is for runs on this machine; on a cluster each worker uses its own threads, so leave it out"


NO_CACHE_WARNING = ("no writable folder for Numba's compile cache (the install and the home folder are read-only); "
                    "compiling without it, so every run compiles again: set NUMBA_CACHE_DIR to a writable folder")


class NoCacheWarning(SmearWarning):
    """The kernels run, but compiled afresh in every process: Numba found nowhere to cache them."""


_warned_no_cache = False


@contextlib.contextmanager
def _cache_if_possible() -> Iterator[None]:
    """Let ``@njit(cache=True)`` define a function even where Numba finds no writable cache folder.

    Numba then raises "cannot cache function ...: no locator available" as the kernels' module is imported.
    Inside this block such a function is defined without the cache instead, with one warning per process.
    """
    from numba.core.dispatcher import Dispatcher

    enable = Dispatcher.enable_caching

    def enable_if_possible(dispatcher) -> None:
        global _warned_no_cache
        try:
            enable(dispatcher)
        except RuntimeError as exc:
            if "no locator available" not in str(exc):
                raise
            if not _warned_no_cache:
                _warned_no_cache = True
                warnings.warn(NO_CACHE_WARNING, NoCacheWarning, stacklevel=2)

    Dispatcher.enable_caching = enable_if_possible
    try:
        yield
    finally:
        Dispatcher.enable_caching = enable


def kernels():
    """The compiled drivers; importing them imports Numba, so callers do it only when work starts."""
    with _cache_if_possible():
        from ..kernels import drivers

    return drivers


def available_threads() -> int:
    import numba

    return int(numba.config.NUMBA_NUM_THREADS)


def thread_count(threads: int | None) -> int:
    """Validate ``threads`` (None: all cores) and return it."""
    limit = available_threads()
    if threads is None:
        return limit
    if not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= limit:
        raise BadValue("threads", f"must be between 1 and {limit} on this machine, got {threads!r}")
    return threads


_pool: concurrent.futures.ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _thread_pool() -> concurrent.futures.ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = concurrent.futures.ThreadPoolExecutor(max(available_threads() - 1, 1), "smear-sim-kernel")
        return _pool


def split_range(start: int, count: int, pieces: int) -> list[tuple[int, int]]:
    """``(start, count)`` of at most ``pieces`` contiguous, non-empty, near-equal pieces of ``start ..
    start+count-1`` (one empty piece for an empty range)."""
    pieces = max(1, min(pieces, count))
    per, extra = divmod(count, pieces)
    out = []
    for i in range(pieces):
        n = per + (i < extra)
        out.append((start, n))
        start += n
    return out


def across_threads(call: Callable[[int, int], Any], start: int, count: int, threads: int) -> list[Any]:
    """``call(start, count)`` on ``threads`` pieces of the range at once (:func:`split_range`), in order.

    ``call`` runs a driver, which releases the GIL, so the pieces run in parallel: the first on this thread and
    the others on a pool of the machine's threads. Running one piece here keeps signals as they were: a Ctrl-C
    reaches Python as the kernel on this thread returns.
    """
    pieces = split_range(start, count, threads)
    if len(pieces) == 1:
        return [call(*pieces[0])]
    pool = _thread_pool()
    others = [pool.submit(call, *piece) for piece in pieces[1:]]
    try:
        first = call(*pieces[0])
        return [first, *(future.result() for future in others)]
    finally:
        for future in others:
            future.cancel()


PIECE_SECONDS = 0.25  # the time a kernel call is sized to take: what a signal may wait for (module docstring)
PIECE_GROWTH = 16  # a call holds at most this many times the hands of the one its size was learnt from


class Pace:
    """How many hands (deals, games, worlds) one kernel call takes so that it lasts about :data:`PIECE_SECONDS`,
    learnt from the calls so far: the first call plays one, and each call sizes the next from its own time.

    A fast player's calls grow to whole chunks in a few steps; a search player's (tens of hands a second) stay a
    fraction of a second long. The sizes never change a result: every hand draws from its own random stream.
    """

    def __init__(self) -> None:
        self._size = 1

    @property
    def size(self) -> int:
        return self._size

    def learn(self, count: int, seconds: float) -> None:
        """A call of ``count`` hands took ``seconds``: size the next ones to last about PIECE_SECONDS."""
        if count < 1:
            return
        fitted = int(count * PIECE_SECONDS / seconds) if seconds > 0 else count * PIECE_GROWTH
        self._size = max(1, min(fitted, count * PIECE_GROWTH))


def paced(call: Callable[[int, int], Any], start: int, count: int, pace: Pace | None = None,
          limit: int | None = None) -> Iterator[Any]:
    """``call(first, n)`` on consecutive pieces of ``start .. start+count-1``, in order, on this thread, each
    piece sized by ``pace`` (at most ``limit``); yields each result. For work whose results keep their order (the
    traces)."""
    pace = pace or Pace()
    end = start + count
    while start < end:
        n = min(pace.size, end - start, limit or end - start)
        began = time.perf_counter()
        result = call(start, n)
        pace.learn(n, time.perf_counter() - began)
        yield result
        start += n


class _Cursor:
    """The next hands of a range, handed out to whichever thread asks, until the range is done or closed."""

    def __init__(self, start: int, count: int) -> None:
        self._next, self._end = start, start + count
        self._lock = threading.Lock()

    def take(self, n: int) -> tuple[int, int] | None:
        with self._lock:
            n = min(n, self._end - self._next)
            if n <= 0:
                return None
            piece = self._next, n
            self._next += n
            return piece

    def close(self) -> None:
        with self._lock:
            self._next = self._end


def paced_calls(call: Callable[[int, int], Any], start: int, count: int, threads: int,
                pace: Pace | None = None) -> list[Any]:
    """``call(first, n)`` over the whole of ``start .. start+count-1`` on ``threads`` threads at once, in pieces
    sized by ``pace``; the results, in no particular order (sum them). Each thread takes the next piece as it
    finishes one, so a slow hand holds up no other thread.

    ``call`` runs a driver, which releases the GIL, so the threads run in parallel: this one and daemon threads. A
    signal's handler runs here as this thread's call returns; its exception closes the range, so the other threads
    stop after their current piece, and the process exits without waiting for it.
    """
    pace = pace or Pace()
    if count <= 0:
        return [call(start, 0)]
    cursor = _Cursor(start, count)

    def work() -> list[Any]:
        done = []
        while (piece := cursor.take(pace.size)) is not None:
            began = time.perf_counter()
            done.append(call(*piece))
            pace.learn(piece[1], time.perf_counter() - began)
        return done

    others = [_Helper(work) for _ in range(min(threads, count) - 1)]
    try:
        mine = work()
        return [*mine, *(result for helper in others for result in helper.result())]
    finally:
        cursor.close()


class _Helper:
    """``work()`` on a thread of its own, a daemon: a process ended by a signal does not wait for its piece."""

    def __init__(self, work: Callable[[], list[Any]]) -> None:
        self._work = work
        self._done: list[Any] = []
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name=HELPER_NAME, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._done = self._work()
        except BaseException as exc:  # handed to the thread that waits for it
            self._error = exc

    def result(self) -> list[Any]:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._done


HELPER_NAME = "smear-sim-kernel"


def chunk_ranges(total: int, chunk_size: int, first: int = 0) -> Iterator[tuple[int, int]]:
    """``(start, count)`` pieces covering ``first .. total-1``."""
    if chunk_size < 1:
        raise BadValue("chunk_size", f"must be at least 1, got {chunk_size}")
    for start in range(first, total, chunk_size):
        yield start, min(chunk_size, total - start)


def merge_ranges(intervals: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """``(start, stop)`` intervals as the fewest sorted intervals that cover the same indices."""
    merged: list[list[int]] = []
    for start, stop in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], stop)
        else:
            merged.append([start, stop])
    return [(start, stop) for start, stop in merged]


def missing_ranges(total: int, done: Sequence[tuple[int, int]], chunk_size: int) -> list[tuple[int, int]]:
    """``(start, count)`` chunks of at most ``chunk_size`` covering the indices below ``total`` that the
    ``(start, stop)`` intervals ``done`` leave out."""
    pieces: list[tuple[int, int]] = []
    position = 0
    for start, stop in [*done, (total, total)]:
        pieces += chunk_ranges(start, chunk_size, position)
        position = max(position, stop)
    return pieces


def _call(job: Job, start: int, count: int, n_blocks: int) -> tuple[Any, tuple[Any, ...]]:
    """The driver of ``job`` and the arguments of its call for hands ``start .. start+count-1``."""
    drivers = kernels()
    driver = getattr(drivers, job.driver)
    args = (seed_value(job.seed), start, count, n_blocks, *job.args)
    if job.seats_players:  # a driver that plays compiles only the players at its table (``seated``)
        args += (drivers.seated_arg(job.policy_codes),)
    return driver, args


def _piece(job: Job) -> Callable[[int, int], np.ndarray]:
    """``piece(first, n)``: the summed counts of ``job``'s hands ``first .. first+n-1``, one kernel call."""

    def piece(first: int, n: int) -> np.ndarray:
        driver, args = _call(job, first, n, 1)
        return driver(*args).sum(axis=0)

    return piece


def run_chunk(job: Job, start: int, count: int, threads: int) -> np.ndarray:
    """The summed counts of hands ``start .. start+count-1`` of ``job``, on ``threads`` threads, one kernel call
    each (the caller sizes the chunk: a worker of a cluster, the server's slices)."""
    return sum(across_threads(_piece(job), start, count, threads))


def run_paced(job: Job, start: int, count: int, threads: int, pace: Pace | None = None) -> np.ndarray:
    """:func:`run_chunk`'s counts, in kernel calls sized by time (:func:`paced_calls`), so that a signal is
    handled within about a second however slow the players."""
    return sum(paced_calls(_piece(job), start, count, threads, pace))


def load_kernel(job: Job) -> np.ndarray:
    """Load ``job``'s kernel from Numba's cache, or compile it (saying so on stderr, :mod:`.compiling`); the
    counts of no hands, which give their shape."""
    driver, args = _call(job, 0, 0, 1)
    expected = will_compile(driver, args)
    with compiling(expected), compile_apart(expected, args[-1] if job.seats_players else None):
        return driver(*args).sum(axis=0)


class Executor(Protocol):
    """Where a job's chunks run."""

    @property
    def threads(self) -> int:
        """The cores the chunks run on, in all."""

    def default_chunk(self, total: int) -> int:
        """Hands per chunk when the caller does not say."""

    def prepare(self, job: Job) -> float:
        """Load or compile ``job``'s kernel wherever chunks will run; the seconds it took."""

    def map_chunks(self, job: Job, ranges: Sequence[tuple[int, int]]) -> Iterator[tuple[int, np.ndarray]]:
        """Run every ``(start, count)`` chunk; yield ``(position in ranges, counts)`` as each finishes, in
        any order. Closing the iterator early abandons the chunks not yet yielded."""

    def map_calls(self, call: Callable[[Any, int, Any], Any], items: Sequence[Any],
                  common: Any = None) -> Iterator[tuple[int, Any]]:
        """Run ``call(item, threads, common)`` for every item, each where this executor runs work, on ``threads``
        threads; yield ``(position in items, result)`` as each finishes, in any order. For work made of many small
        analyses (a review's decisions): whole items travel, not chunks of one, and ``common``, what every item
        reads (a review's equity tables), travels once to each place. ``call`` must be a module-level function, and
        it must not depend on where it runs."""


class LocalExecutor:
    """Every chunk in this process, one after another, each on ``threads`` threads (None: all), in kernel calls
    sized by time (:func:`run_paced`)."""

    def __init__(self, threads: int | None = None) -> None:
        self._threads = threads

    @property
    def threads(self) -> int:
        return thread_count(self._threads)

    def default_chunk(self, total: int) -> int:
        return DEFAULT_CHUNK

    def prepare(self, job: Job) -> float:
        return 0.0  # run() has loaded the kernel in this process already

    def map_chunks(self, job: Job, ranges: Sequence[tuple[int, int]]) -> Iterator[tuple[int, np.ndarray]]:
        threads = self.threads
        pace = Pace()  # learnt over the whole run: one hand first, then calls of about PIECE_SECONDS
        for index, (start, count) in enumerate(ranges):
            yield index, run_paced(job, start, count, threads, pace)

    def map_calls(self, call: Callable[[Any, int, Any], Any], items: Sequence[Any],
                  common: Any = None) -> Iterator[tuple[int, Any]]:
        threads = self.threads
        for index, item in enumerate(items):
            yield index, call(item, threads, common)


@dataclass(frozen=True)
class RunResult:
    counts: np.ndarray  # summed over every chunk run (and those a checkpoint brought in)
    done: int  # hands counted: ``job.total``, or fewer when ``stop`` ended the run early
    threads: int
    seconds: float  # the chunks, without the compile or the warm-up
    compile_seconds: float  # loading the kernel from the cache, or compiling it, in this process
    stopped: bool = False  # ``stop`` said enough
    warmup_seconds: float = 0.0  # the executor making the kernel ready where chunks run (workers)
    resumed: int = 0  # hands whose counts came from a checkpoint


def run(
    job: Job,
    *,
    threads: int | None = None,
    chunk_size: int | None = None,
    progress: Progress | None = None,
    stop: Callable[[np.ndarray], bool] | None = None,
    executor: Executor | None = None,
    checkpoint: Checkpoint | None = None,
) -> RunResult:
    """Run ``job`` in chunks of ``chunk_size`` hands (None: the executor's default) and sum their counts.

    ``threads`` is for the default executor, :class:`LocalExecutor`; another executor decides its own.
    ``progress`` hears of every chunk as it finishes. ``stop`` is asked with the counts so far after each
    chunk, in chunk order whatever order they finish in; True ends the run there, so a run that stops early
    ends at the same hand whatever executes it. A ``checkpoint`` (:mod:`smear_sim.engine.checkpoint`)
    records the finished chunks, saves them from time to time and when the run is interrupted, and gives
    the counts to start from when resuming.
    """
    if executor is None:
        executor = LocalExecutor(threads)
    elif threads is not None:
        raise BadValue("threads", THREADS_ELSEWHERE)
    if stop is not None and checkpoint is not None:
        raise ValueError("a run that may stop early cannot be checkpointed")
    n_threads = executor.threads
    if chunk_size is None:
        chunk_size = executor.default_chunk(job.total)
    started = time.perf_counter()
    counts = load_kernel(job)  # before the clock starts
    compile_seconds = time.perf_counter() - started
    done_ranges: list[tuple[int, int]] = []
    if checkpoint is not None:
        counts, done_ranges = checkpoint.start(job, counts)
    resumed = sum(stop_at - start for start, stop_at in done_ranges)
    ranges = missing_ranges(job.total, done_ranges, chunk_size)
    warmup_seconds = executor.prepare(job) if ranges else 0.0
    started = time.perf_counter()
    done = resumed
    stopped = False
    waiting: dict[int, np.ndarray] = {}  # chunks finished ahead of an earlier one, when ``stop`` needs order
    next_index = 0
    chunks = executor.map_chunks(job, ranges)
    try:
        for index, chunk in chunks:
            start, count = ranges[index]
            if progress:
                progress(count)
            if stop is None:
                counts += chunk
                done += count
                if checkpoint is not None:
                    done_ranges = merge_ranges([*done_ranges, (start, start + count)])
                    checkpoint.record(job, counts, done_ranges)
                continue
            waiting[index] = chunk
            while next_index in waiting and not stopped:
                counts += waiting.pop(next_index)
                done += ranges[next_index][1]
                next_index += 1
                stopped = stop(counts)
            if stopped:
                break
    except BaseException:
        if checkpoint is not None:
            checkpoint.save()
        raise
    finally:
        close = getattr(chunks, "close", None)
        if close:
            close()
    return RunResult(counts, done, n_threads, time.perf_counter() - started, compile_seconds, stopped,
                     warmup_seconds, resumed)
