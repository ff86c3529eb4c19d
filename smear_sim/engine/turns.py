"""Many analyses at once in one server process, taking turns on the simulator.

Every chunk of work is spread over all the cores (:func:`smear_sim.engine.runner.across_threads`), so two
analyses running chunks at once would only oversubscribe them. So the server runs one chunk at a time. Each
analysis runs in a worker thread of :class:`Simulator` and holds the simulator's turn (:class:`Turns`) while it
works; every slice (about 50 ms: a few thousand deals of a hand analysis, a few worlds of a hint's) it passes the
turn to the analysis that has waited longest. A long analysis then delays a short one by one slice at most, the
cores are never oversubscribed, and because results are integer counts keyed by hand index, slicing the work
changes no number.

An *urgent* analysis (a hint asked at a practice table, where a person waits for it) goes before every analysis
that is not: it takes the turn at the next slice of the one running and keeps it, passing it only to another
urgent one, until it ends. Urgent analyses are short, and a person asks for them one at a time, so the others
are delayed, never starved.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

import numpy as np

from .runner import Job, LocalExecutor, Progress, run_chunk

__all__ = ["SLICE", "AnalysisCancelled", "ServerBusy", "Simulator", "TurnExecutor", "Turns"]

SLICE = 4096  # deals per turn at most: about 40 ms of a hand analysis on two cores
SLICE_SECONDS = 0.05  # what a slice is sized to take, for work dearer than a hand analysis's (TurnExecutor._learn)
WAIT_POLL = 0.05  # seconds between two looks at whether a waiting analysis was stopped
T = TypeVar("T")


class AnalysisCancelled(Exception):
    """The analysis was stopped between slices: its client went away, or the server is shutting down."""

    http_status = 503  # core.errors.http_status

    def __init__(self, message: str = "the analysis was stopped: the server is shutting down, or its client went "
                                      "away") -> None:
        super().__init__(message)


class ServerBusy(Exception):
    """More analyses are waiting than the server takes."""

    http_status = 503  # core.errors.http_status


class Turns:
    """A first-come, first-served lock: releasing it hands it straight to the longest waiter, an urgent one first.

    Python's own locks make no promise of order, and a thread that releases and at once acquires again
    usually wins; here a waiting thread always goes first.
    """

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._waiting: deque[threading.Event] = deque()
        self._urgent: deque[threading.Event] = deque()
        self._held = False

    def acquire(self, urgent: bool = False) -> None:
        with self._mutex:
            if not self._held:
                self._held = True
                return
            handed = threading.Event()
            (self._urgent if urgent else self._waiting).append(handed)
        handed.wait()  # the holder passes the turn on by setting it; the turn stays held throughout

    def release(self) -> None:
        with self._mutex:
            if self._urgent:
                self._urgent.popleft().set()
            elif self._waiting:
                self._waiting.popleft().set()
            else:
                self._held = False

    def waiting(self) -> int:
        """Threads waiting for the turn."""
        with self._mutex:
            return len(self._urgent) + len(self._waiting)

    def pass_turn(self, urgent: bool = False) -> None:
        """Let every analysis that was waiting before this call have its turn, then take it back; an ``urgent``
        holder lets only the urgent ones go first."""
        with self._mutex:
            if not self._urgent and (urgent or not self._waiting):
                return
        self.release()
        self.acquire(urgent)

    def __enter__(self) -> Turns:
        self.acquire()
        return self

    def __exit__(self, *exc_info) -> None:
        self.release()


class TurnExecutor(LocalExecutor):
    """An executor for :func:`smear_sim.engine.runner.run` that runs the chunks in this thread, in slices of at most
    ``slice_size`` deals, each sized to take about ``SLICE_SECONDS``, passing the turn between slices (``urgent``:
    only to an urgent analysis). Its caller holds the turn.

    ``progress`` hears of every slice; ``stop`` is asked before each one, and True ends the analysis with
    :class:`AnalysisCancelled`. Work that is not in chunks (the match-equity table's solves) calls
    :meth:`pause` between its steps, which does the same.
    """

    def __init__(self, turns: Turns, *, slice_size: int = SLICE, progress: Progress | None = None,
                 stop: Callable[[], bool] | None = None, urgent: bool = False,
                 sizes: dict[str, int] | None = None) -> None:
        super().__init__()  # all of this machine's threads
        self._turns = turns
        self._urgent = urgent
        self._slice = slice_size
        self._progress = progress
        self._stop = stop
        # The slice size each driver's work has settled to: a simulator's analyses share what they learn.
        self._sizes: dict[str, int] = {} if sizes is None else sizes

    def pause(self) -> None:
        """Between two steps of the work: let the analyses waiting have their turn, and stop if asked."""
        self._turns.pass_turn(self._urgent)
        if self._stop is not None and self._stop():
            raise AnalysisCancelled

    def wait_for(self, event: threading.Event) -> None:
        """Wait, off the turn, until ``event`` is set: another analysis is making what this one needs (the
        match-equity table both read), and needs the turn to make it. Stops if asked, as between slices."""
        self._turns.release()
        try:
            while not event.wait(WAIT_POLL):
                if self._stop is not None and self._stop():
                    break
        finally:
            self._turns.acquire(self._urgent)
        if self._stop is not None and self._stop():
            raise AnalysisCancelled

    def map_chunks(self, job: Job, ranges: Sequence[tuple[int, int]]) -> Iterator[tuple[int, np.ndarray]]:
        threads = self.threads
        for index, (start, count) in enumerate(ranges):
            counts = None
            first, end = start, start + count
            while first < end:
                self.pause()
                size = min(self._sizes.get(job.driver, self._slice), end - first)
                began = time.perf_counter()
                part = run_chunk(job, first, size, threads)
                self._learn(job.driver, size, time.perf_counter() - began)
                counts = part if counts is None else counts + part
                first += size
                if self._progress is not None:
                    self._progress(size)
            yield index, counts

    def _learn(self, driver: str, size: int, seconds: float) -> None:
        """Size the next slices of ``driver``'s work to about ``SLICE_SECONDS``: a slice is what a waiting analysis
        may have to wait for, and 4096 deals of one kind of work take as long as 16 worlds of a hint's."""
        if seconds > SLICE_SECONDS:
            self._sizes[driver] = max(1, int(size * SLICE_SECONDS / seconds))
        elif seconds < SLICE_SECONDS / 2 and size >= self._sizes.get(driver, self._slice):
            self._sizes[driver] = min(self._slice, 2 * size)


class Simulator:
    """Runs analyses in ``workers`` threads; the kernels take turns (see the module docstring).

    At most ``max_waiting`` analyses are queued or running at once; past that :meth:`submit` raises
    :class:`ServerBusy`.
    """

    def __init__(self, *, workers: int = 4, max_waiting: int = 32, slice_size: int = SLICE) -> None:
        self.turns = Turns()
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="smear-sim-analysis")
        self._slice = slice_size
        self._sizes: dict[str, int] = {}  # TurnExecutor's slice sizes, learned once for all analyses
        self._max_waiting = max_waiting
        self._pending = 0
        self._lock = threading.Condition()
        self._closing = threading.Event()

    def submit(self, work: Callable[[TurnExecutor], T], *, progress: Progress | None = None,
               cancelled: threading.Event | None = None, urgent: bool = False) -> Future[T]:
        """Run ``work(executor)`` in a worker thread holding the turn; ``executor`` is for the runner. An ``urgent``
        analysis goes before the others (module docstring)."""
        with self._lock:
            if self._closing.is_set():
                raise ServerBusy("the server is shutting down; the analysis was not started")
            if self._pending >= self._max_waiting:
                raise ServerBusy(f"the server is busy with {self._pending} analyses; try again in a moment")
            self._pending += 1

        def stop() -> bool:
            return self._closing.is_set() or (cancelled is not None and cancelled.is_set())

        executor = TurnExecutor(self.turns, slice_size=self._slice, progress=progress, stop=stop, urgent=urgent,
                                sizes=self._sizes)

        def job() -> T:
            try:
                if stop():
                    raise AnalysisCancelled
                self.turns.acquire(urgent)
                try:
                    return work(executor)
                finally:
                    self.turns.release()
            finally:
                with self._lock:
                    self._pending -= 1
                    self._lock.notify_all()

        return self._pool.submit(job)

    @property
    def pending(self) -> int:
        """Analyses queued or running."""
        return self._pending

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until no analysis is queued or running; False if ``timeout`` seconds pass first."""
        with self._lock:
            return self._lock.wait_for(lambda: self._pending == 0, timeout)

    def close(self) -> None:
        """Stop every analysis at its next slice and let the worker threads end.

        Analyses still queued are not cancelled (their callers would see a bare cancellation) but start, find
        the simulator closing, and end with :class:`AnalysisCancelled` at once.
        """
        self._closing.set()
        self._pool.shutdown(wait=False)

