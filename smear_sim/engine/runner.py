"""The one chunked runner: how every command that simulates runs its kernels.

A simulation is a :class:`Job`: a driver of :mod:`smear_sim.kernels.drivers`, its fixed arguments, a seed
and a number of hands (or deals, or games). :func:`run` validates it, sets the threads for the duration of
the run, loads or compiles the kernel before the clock starts, calls the driver on consecutive chunks of
hand indices, sums the integer counts it returns, reports progress and times the work. Every hand draws from
its own random stream keyed by ``(seed, hand index)`` and the counts are integers, so the sum does not
depend on the threads, the chunk size or the order in which chunks finish: that is what lets an executor
run the chunks elsewhere.

The executor runs the chunks. :class:`LocalExecutor` calls the driver in this process on Numba's threads;
the chunk function :func:`run_chunk` is a plain module-level function of picklable arguments, so an
executor that ships chunks to other processes or machines can call it there.
"""

from __future__ import annotations

import contextlib
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from ..core.errors import SmearError, SmearWarning

__all__ = [
    "DEFAULT_CHUNK",
    "MAX_SEED",
    "Executor",
    "Job",
    "LocalExecutor",
    "NoCacheWarning",
    "Progress",
    "RunResult",
    "check_count",
    "chunk_ranges",
    "kernels",
    "run",
    "run_chunk",
    "seed_value",
    "thread_count",
    "using_threads",
]

DEFAULT_CHUNK = 1 << 18
MAX_SEED = 2**64 - 1

Progress = Callable[[int], None]  # called with the number of hands just finished


def seed_value(seed: int) -> np.uint64:
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise SmearError(f"--seed must be a whole number from 0 to 2**64-1, got {seed!r}")
    return np.uint64(seed)


def check_count(name: str, value: int, minimum: int = 1, maximum: int = 10**12) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not minimum <= value <= maximum:
        raise SmearError(f"{name} must be a whole number from {minimum:,} to {maximum:,}, got {value!r}")
    return value


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
        raise SmearError(f"--threads must be between 1 and {limit} on this machine, got {threads!r}")
    return threads


@contextlib.contextmanager
def using_threads(threads: int) -> Iterator[int]:
    """Make Numba use ``threads`` threads inside the block, and restore the caller's setting after it."""
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        yield threads
    finally:
        numba.set_num_threads(before)


def chunk_ranges(total: int, chunk_size: int, first: int = 0) -> Iterator[tuple[int, int]]:
    """``(start, count)`` pieces covering ``first .. total-1``."""
    if chunk_size < 1:
        raise SmearError(f"chunk size must be at least 1, got {chunk_size}")
    for start in range(first, total, chunk_size):
        yield start, min(chunk_size, total - start)


@dataclass(frozen=True)
class Job:
    """One simulation as the kernels see it.

    The driver is called as ``driver(seed, start, count, n_blocks, *args)`` and returns integer counts with
    the per-block rows on axis 0, which are summed away.
    """

    driver: str  # a function of smear_sim.kernels.drivers
    seed: int
    total: int  # hands (or deals, or games): indices 0 .. total-1
    args: tuple[Any, ...] = ()
    label: str = "--hands"  # the option that set ``total``, for error messages

    def __post_init__(self) -> None:
        check_count(self.label, self.total)
        seed_value(self.seed)


def run_chunk(job: Job, start: int, count: int, n_blocks: int) -> np.ndarray:
    """The summed counts of hands ``start .. start+count-1`` of ``job``."""
    driver = getattr(kernels(), job.driver)
    return driver(seed_value(job.seed), start, count, n_blocks, *job.args).sum(axis=0)


class Executor(Protocol):
    """Runs a job's chunks and yields their counts in chunk order."""

    def map_chunks(self, job: Job, ranges: Sequence[tuple[int, int]], threads: int) -> Iterator[np.ndarray]: ...


class LocalExecutor:
    """Every chunk in this process, one after another, each on ``threads`` Numba threads."""

    def map_chunks(self, job: Job, ranges: Sequence[tuple[int, int]], threads: int) -> Iterator[np.ndarray]:
        with using_threads(threads):
            for start, count in ranges:
                yield run_chunk(job, start, count, threads)


@dataclass(frozen=True)
class RunResult:
    counts: np.ndarray  # summed over every chunk run
    done: int  # hands run: ``job.total``, or fewer when ``stop`` ended the run early
    threads: int
    seconds: float  # the chunks, without the compile
    compile_seconds: float  # loading the kernel from the cache, or compiling it
    stopped: bool = False  # ``stop`` said enough


def run(
    job: Job,
    *,
    threads: int | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    progress: Progress | None = None,
    stop: Callable[[np.ndarray], bool] | None = None,
    executor: Executor | None = None,
) -> RunResult:
    """Run ``job`` in chunks of ``chunk_size`` hands and sum their counts.

    ``stop`` is asked after each chunk, in order, with the counts so far; True ends the run there, so a
    run that stops early ends at the same hand whatever executes it.
    """
    threads = thread_count(threads)
    ranges = list(chunk_ranges(job.total, chunk_size))
    executor = executor or LocalExecutor()
    started = time.perf_counter()
    with using_threads(1):
        counts = run_chunk(job, 0, 0, 1)  # load or compile before the clock starts; gives the counts' shape
    compile_seconds = time.perf_counter() - started
    started = time.perf_counter()
    done = 0
    stopped = False
    chunks = executor.map_chunks(job, ranges, threads)
    try:
        for (_, count), chunk in zip(ranges, chunks, strict=False):
            counts = counts + chunk
            done += count
            if progress:
                progress(count)
            if stop is not None and stop(counts):
                stopped = True
                break
    finally:
        close = getattr(chunks, "close", None)
        if close:
            close()
    return RunResult(counts, done, threads, time.perf_counter() - started, compile_seconds, stopped)
