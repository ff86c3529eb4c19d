"""Finding a Dask cluster to run on: a new one on this machine (``local[:N]``), or a scheduler's address.

Nothing here imports Dask until a cluster is asked for, so the command line pays nothing without one.
Dask and distributed come with the optional extra ``smear-sim[distributed]``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import signal
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from ..core.errors import ClusterError, SmearError

if TYPE_CHECKING:
    from .dask_executor import DaskExecutor, WarmUp

__all__ = ["DEFAULT_PORT", "TIMEOUT_VARIABLE", "dask_executor", "parse_cluster", "parse_scheduler", "timeout"]

DEFAULT_PORT = 8786  # Dask's
TIMEOUT_VARIABLE = "SMEAR_SIM_SCHEDULER_TIMEOUT"  # seconds to reach a scheduler and find a worker (default 10)
_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")
_ADDRESS = re.compile(
    r"^(?:(?P<scheme>[a-z]+)://)?"
    r"(?P<host>\[[0-9a-fA-F:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)"
    r"(?::(?P<port>\d{1,5}))?/?$"
)


def parse_cluster(spec: str) -> int | None:
    """``local`` (None: one worker per core) or ``local:N`` (N worker processes)."""
    name, _, count = spec.strip().partition(":")
    if name.lower() != "local" or (_ and not count.strip().isdigit()):
        raise SmearError(f"--cluster takes local or local:N (N worker processes on this machine), got {spec!r}; "
                         "for a cluster of several machines use --scheduler ADDRESS")
    if not _:
        return None
    workers = int(count)
    if not 1 <= workers <= 1024:
        raise SmearError(f"--cluster local:N needs N from 1 to 1,024 worker processes, got {workers}")
    return workers


def parse_scheduler(address: str) -> str:
    """A scheduler address as Dask takes it, ``scheme://host:port`` (defaults: tcp, port 8786)."""
    match = _ADDRESS.match(address.strip())
    scheme = (match["scheme"] or "tcp") if match else ""
    port = int(match["port"] or DEFAULT_PORT) if match else 0
    if not match or scheme not in _SCHEMES or not 1 <= port <= 65535:
        raise SmearError(f"--scheduler takes a Dask scheduler's address such as tcp://10.0.0.5:{DEFAULT_PORT} "
                         f"(what 'dask scheduler' prints), got {address!r}")
    return f"{scheme}://{match['host']}:{port}"


def timeout() -> float:
    text = os.environ.get(TIMEOUT_VARIABLE, "10")
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not seconds > 0:
        raise SmearError(f"{TIMEOUT_VARIABLE} must be a positive number of seconds, got {text!r}")
    return seconds


@contextlib.contextmanager
def _interrupts_ignored() -> Iterator[None]:
    """Ctrl-C reaches every process of the terminal's process group: worker processes started inside this
    block ignore it (they inherit the setting), so that only this process stops, saves and shuts them down."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


# Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_ set, which turns off glibc's adaptive mmap threshold:
# every large array a kernel allocates is then mapped and unmapped afresh. The search player allocates one per
# card decision and ran about a quarter slower per thread on such workers.
_WORKER_ENVIRONMENT = {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}


def _local_cluster(workers: int | None):
    import dask
    from distributed import LocalCluster

    from .runner import available_threads

    cores = available_threads()
    workers = workers or cores
    with _interrupts_ignored(), dask.config.set(_WORKER_ENVIRONMENT):
        return LocalCluster(n_workers=workers, threads_per_worker=max(1, cores // workers), processes=True,
                            host="127.0.0.1", scheduler_port=0, dashboard_address="127.0.0.1:0",
                            silence_logs=logging.ERROR)


def _client(address: str, seconds: float):
    from distributed import Client

    try:
        client = Client(address, timeout=seconds, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        reason = "" if isinstance(exc, TimeoutError) or "Timed out" in str(exc) else f" ({exc})"
        raise ClusterError(f"cannot reach a Dask scheduler at {address} within {seconds:g} s{reason}; start one "
                           "with 'dask scheduler' and give the address it prints") from None
    try:
        client.wait_for_workers(1, timeout=seconds)
    except (OSError, TimeoutError):
        client.close()
        raise ClusterError(f"the Dask scheduler at {address} has no workers after {seconds:g} s; start some with "
                           f"'dask worker {address}'") from None
    return client


@contextlib.contextmanager
def dask_executor(scheduler: str | None = None, *, workers: int | None = None,
                  on_ready: Callable[[WarmUp], None] | None = None) -> Iterator[DaskExecutor]:
    """A :class:`DaskExecutor` on the scheduler at ``scheduler``, or, without one, on a new cluster of
    ``workers`` processes on this machine's loopback interface (None: one per core), closed afterwards.

    Giving up on a scheduler that cannot be reached, or that has no worker, takes ``SMEAR_SIM_SCHEDULER_TIMEOUT``
    seconds (default 10) and raises :class:`ClusterError`.
    """
    try:
        from .dask_executor import DaskExecutor, IgnoreInterrupts
    except ImportError:
        raise ClusterError("running on a cluster needs Dask: pip install 'smear-sim[distributed]'") from None
    with contextlib.ExitStack() as stack:
        if scheduler is None:
            cluster = stack.enter_context(_local_cluster(workers))
            client = stack.enter_context(_client(cluster.scheduler_address, timeout()))
            client.register_plugin(IgnoreInterrupts())  # workers that the nanny restarts later, too
        else:
            client = stack.enter_context(_client(parse_scheduler(scheduler), timeout()))
        yield DaskExecutor(client, on_ready=on_ready)
