"""Running a job's chunks on a Dask cluster: one task per chunk, the counts merged on the client.

Each chunk becomes a task keyed by its range of hand indices, ``(name, start, stop)``. A worker runs it with
:func:`smear_sim.engine.runner.run_chunk` and returns the counts; the runner adds them up on the client as
tasks finish. Integer sums do not depend on the order, and each hand's random stream depends only on the
seed and its index, so the result is byte-identical to a local run. When a worker dies, Dask runs its tasks
again elsewhere, and since a task's result depends only on its range, the result does not change.

Numba on workers:

- Each worker process keeps its compiled kernels in its own cache folder (:class:`NumbaCacheDirs`),
  ``$SMEAR_SIM_WORKER_CACHE/<worker name>`` (default ``~/.cache/smear-sim/numba-workers/<worker name>``),
  set before the worker imports Numba, so that workers never write one cache at once (numba issue 10128).
- Before the first task of a job, every worker loads the job's kernel (:meth:`DaskExecutor.prepare`). A
  worker on the same kind of machine as this one (same Python, Numba and CPU) first gets this process's
  cache files for the kernel, so it loads rather than compiles; another compiles once into its own folder.
- A chunk is spread over the worker's threads (:func:`smear_sim.engine.runner.across_threads`), so a worker
  runs one chunk at a time, on as many threads as it has Dask threads, instead of oversubscribing its cores.
"""

from __future__ import annotations

import inspect
import itertools
import math
import os
import re
import signal
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from distributed import Client, WorkerPlugin, as_completed, get_worker
from distributed.scheduler import KilledWorker

from ..core.errors import ClusterError
from ..core.io import atomic_write
from .runner import Job, available_threads, kernels, load_kernel, run_chunk

__all__ = ["CACHE_VARIABLE", "DaskExecutor", "IgnoreInterrupts", "NumbaCacheDirs", "WarmUp", "worker_cache_root"]

CACHE_VARIABLE = "SMEAR_SIM_WORKER_CACHE"
# Default task sizes. A task costs the client and the worker a few milliseconds besides its hands (more for
# the bid table's 3.7 MB of counts), and the last tasks of a run leave some workers idle: about 16 tasks per
# worker thread balances the two for runs of 10 s to minutes (docs/cluster.md). A task never has fewer hands
# than MIN_CHUNK, and never more than MAX_CHUNK, so that progress still moves and a lost task costs little.
TASKS_PER_THREAD = 16
MIN_CHUNK, MAX_CHUNK = 1 << 12, 1 << 22
WINDOW, WINDOW_PER_THREAD = 32, 8  # tasks kept queued: enough to hide the round trips, few to cancel on a stop
_KERNEL_LOCK = threading.Lock()  # one chunk at a time in a worker process, on all its threads


def worker_cache_root() -> Path:
    """The folder under which each worker process keeps its Numba cache, in a subfolder named after it."""
    root = os.environ.get(CACHE_VARIABLE)
    if root:
        return Path(root)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "smear-sim" / "numba-workers"


class NumbaCacheDirs(WorkerPlugin):
    """Points ``NUMBA_CACHE_DIR`` of every worker, present and future, at a folder of its own.

    Dask runs a plugin's ``setup`` on a worker before the worker's first task, and so before smear-sim's
    kernels are imported there; the cache folder is chosen when they are.
    """

    name = "smear-sim-numba-cache"
    idempotent = True

    def setup(self, worker) -> None:
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", str(worker.name)).strip("-.") or "worker"
        path = str(worker_cache_root() / slug)
        os.environ["NUMBA_CACHE_DIR"] = path
        if "numba" in sys.modules:  # imported already (a preload, say): tell Numba too
            sys.modules["numba"].config.CACHE_DIR = path


class IgnoreInterrupts(WorkerPlugin):
    """Workers of a cluster this process started ignore Ctrl-C, which the terminal sends to them too: this
    process stops, saves its checkpoint and shuts them down."""

    name = "smear-sim-ignore-interrupts"
    idempotent = True

    def setup(self, worker) -> None:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)


def source_digest() -> str:
    """A digest of the code that decides the counts (``core``, ``kernels`` and the count player's weights): equal on
    client and workers, or the workers run other code (:func:`smear_sim.kernels.source_stamp.source_digest`, which
    keys the kernels' cache entries too)."""
    from ..kernels.source_stamp import source_digest as kernels_digest  # imports Numba: only once there is work

    return kernels_digest()


def _machine() -> tuple | None:
    """What Numba keys a cached kernel by besides its code: Python, Numba, and the target CPU. None if this
    Numba no longer says (an internal API): then no worker takes this machine's files, and each compiles."""
    import numba

    try:
        from numba.core.registry import cpu_target

        target = tuple(cpu_target.target_context.codegen().magic_tuple())
    except (ImportError, AttributeError):
        return None
    return sys.version_info[:2], numba.__version__, target


def _cache_files(driver: str) -> dict[str, bytes]:
    """This process's cache files (index and data) of one driver, by file name: Numba names them
    ``<module>.<function>-<first line>.py<version>``, so files of older versions of the code are left out."""
    dispatcher = getattr(kernels(), driver)
    if dispatcher.stats.cache_path is None:  # Numba found no writable cache folder here: nothing to send
        return {}
    folder = Path(dispatcher.stats.cache_path)
    module = Path(inspect.getfile(dispatcher.py_func)).stem
    stem = f"{module}.{driver}-{dispatcher.py_func.__code__.co_firstlineno}.py{sys.version_info[0]}{sys.version_info[1]}"
    return {path.name: path.read_bytes() for path in folder.glob(f"{stem}*.nb[ci]")}


def _warm(job: Job, files: dict[str, bytes], machine: tuple, digest: str) -> dict[str, Any]:
    """On a worker: take the client's cache files if they fit this machine, then load (or compile) the kernel."""
    name = str(get_worker().name)
    if digest != source_digest():
        return {"worker": name, "digest": source_digest()}
    dispatcher = getattr(kernels(), job.driver)
    copied = False
    if files and machine is not None and machine == _machine() and dispatcher.stats.cache_path is not None:
        folder = Path(dispatcher.stats.cache_path)
        for file, data in files.items():
            path = folder / file
            if not path.is_file() or path.read_bytes() != data:
                with atomic_write(path, "wb") as handle:
                    handle.write(data)
                copied = True
    misses = sum(dispatcher.stats.cache_misses.values())
    started = time.perf_counter()
    with _KERNEL_LOCK:
        run_chunk(job, 0, 0, 1)
    return {"worker": name, "digest": digest, "seconds": time.perf_counter() - started, "copied": copied,
            "compiled": sum(dispatcher.stats.cache_misses.values()) > misses, "cache": dispatcher.stats.cache_path}


def _run_task(job: Job, start: int, count: int) -> np.ndarray:
    """On a worker: one chunk, on as many threads as the worker has Dask threads."""
    threads = max(1, min(get_worker().state.nthreads, available_threads()))
    with _KERNEL_LOCK:
        return run_chunk(job, start, count, threads)


def _run_call(call: Callable[[Any, int, Any], Any], item: Any, common: Any) -> Any:
    """On a worker: one whole item of :meth:`DaskExecutor.map_calls`, on the worker's threads."""
    threads = max(1, min(get_worker().state.nthreads, available_threads()))
    with _KERNEL_LOCK:
        return call(item, threads, common)


@dataclass(frozen=True)
class WarmUp:
    """Making one kernel ready on every worker: how long it took, and each worker's report."""

    driver: str
    seconds: float
    workers: list[dict[str, Any]]  # worker, seconds, copied (got this machine's cache), compiled, cache

    @property
    def compiled(self) -> int:
        return sum(report["compiled"] for report in self.workers)

    def describe(self) -> str:
        if self.compiled:
            how = f"compiled on {self.compiled} of them"
        elif any(report["copied"] for report in self.workers):
            how = "loaded from this machine's compiled kernels"
        else:
            how = "loaded from each worker's cache"
        return f"{self.driver} ready on {len(self.workers)} workers in {self.seconds:.1f} s ({how})"


class DaskExecutor:
    """Chunks as tasks on the Dask cluster of ``client``; ``on_ready`` hears of each kernel's warm-up."""

    def __init__(self, client: Client, *, on_ready: Callable[[WarmUp], None] | None = None) -> None:
        self.client = client
        self.on_ready = on_ready
        self.warmups: dict[str, WarmUp] = {}  # by driver: each kernel is warmed once per executor
        client.register_plugin(NumbaCacheDirs())

    @property
    def threads(self) -> int:
        return sum(self.client.nthreads().values())

    def default_chunk(self, total: int) -> int:
        return max(MIN_CHUNK, min(MAX_CHUNK, math.ceil(total / (TASKS_PER_THREAD * max(1, self.threads)))))

    def prepare(self, job: Job) -> float:
        """Load or compile ``job``'s kernel on every worker before the first task; the seconds it took."""
        if job.driver in self.warmups:
            return 0.0
        workers = list(self.client.nthreads())
        if not workers:
            raise ClusterError("the Dask cluster has no workers left; start some with 'dask worker ADDRESS'")
        # A driver is compiled once per set of players at the table (its ``seated`` argument), so this machine's
        # cache may hold it for other players: load or compile this job's here first, then send the files.
        load_kernel(job)
        files, machine, digest = _cache_files(job.driver), _machine(), source_digest()
        started = time.perf_counter()
        futures = [self.client.submit(_warm, job, files, machine, digest, workers=[address], pure=False,
                                      allow_other_workers=True) for address in workers]
        reports = self.client.gather(futures)
        for report in reports:
            if report["digest"] != digest:
                raise ClusterError(f"worker {report['worker']} runs another version of smear-sim than this machine; "
                                   "install the same one on every worker")
        warmup = self.warmups[job.driver] = WarmUp(job.driver, time.perf_counter() - started, reports)
        if self.on_ready:
            self.on_ready(warmup)
        return warmup.seconds

    def map_chunks(self, job: Job, ranges: Sequence[tuple[int, int]]) -> Iterator[tuple[int, np.ndarray]]:
        """Keep a few tasks per worker thread queued; yield each one's counts as it finishes."""
        name = f"smear-sim-{job.driver}-{uuid.uuid4().hex[:12]}"
        tasks = ((_run_task, (job, start, count), (name, start, start + count)) for start, count in ranges)
        yield from self._windowed(tasks, "hands")

    def map_calls(self, call: Callable[[Any, int, Any], Any], items: Sequence[Any],
                  common: Any = None) -> Iterator[tuple[int, Any]]:
        """One task per item, a few per worker thread queued; yield each result as it finishes. ``common`` is sent
        to every worker once, before the first task (a list of one, so that Dask sends it whole)."""
        name = f"smear-sim-{call.__name__}-{uuid.uuid4().hex[:12]}"
        [shared] = self.client.scatter([common], broadcast=True, hash=False)
        try:
            tasks = ((_run_call, (call, item, shared), (name, index, index + 1)) for index, item in enumerate(items))
            yield from self._windowed(tasks, "items")
        finally:
            shared.release()

    def _windowed(self, tasks: Iterator[tuple[Callable, tuple, tuple]], unit: str) -> Iterator[tuple[int, Any]]:
        """Submit ``(function, arguments, key)`` tasks, keeping a few per worker thread queued; yield ``(position,
        result)`` as each finishes. A task's key ends with the range of ``unit`` it covers."""
        todo = iter(enumerate(tasks))
        running: dict[Any, tuple[int, Any]] = {}  # key -> (position, future)
        finished = as_completed(loop=self.client.loop)

        def submit(n: int) -> None:
            for index, (function, arguments, key) in itertools.islice(todo, n):
                future = self.client.submit(function, *arguments, key=key)
                running[future.key] = (index, future)
                finished.add(future)

        submit(max(WINDOW, WINDOW_PER_THREAD * self.threads))
        try:
            for batch in finished.batches():  # the tasks finished since the last batch: one fetch for all
                try:
                    results = self.client.gather(batch)
                except KilledWorker as exc:
                    _, start, stop = exc.task
                    raise ClusterError(f"Dask gave up on {unit} {start:,} to {stop - 1:,}: the workers running "
                                       "them died each time; see the workers' logs") from None
                submit(len(batch))
                for future, result in zip(batch, results, strict=True):
                    index, _ = running.pop(future.key)
                    future.release()
                    yield index, result
        finally:
            if running:
                self.client.cancel([future for _, future in running.values()])
