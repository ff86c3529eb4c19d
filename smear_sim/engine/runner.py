"""Running kernels from Python: threads, seeds, policies, chunks, progress and atomic output files."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from .errors import SmearError

__all__ = [
    "POLICIES",
    "atomic_write",
    "chunk_ranges",
    "kernels",
    "parse_policies",
    "policy_array",
    "resolve_threads",
    "seed_value",
]

POLICIES = ("random", "heuristic")  # index = the kernels' policy number (kernels.policies.RANDOM, HEURISTIC)
MAX_SEED = 2**64 - 1

Progress = Callable[[int], None]  # called with the number of hands just finished


def parse_policies(text: str | tuple[str, str] | list[str]) -> tuple[str, str]:
    """``"heuristic"`` for both teams, or ``"heuristic,random"`` for team 0 and team 1."""
    names = [n.strip().lower() for n in (text.split(",") if isinstance(text, str) else text)]
    if len(names) == 1:
        names *= 2
    if len(names) != 2:
        raise SmearError(f"--policy {text!r}: give one policy, or two separated by a comma (team 0,team 1)")
    for name in names:
        if name not in POLICIES:
            raise SmearError(f"unknown policy {name!r}: choose {' or '.join(POLICIES)}")
    return names[0], names[1]


def policy_array(policies: tuple[str, str]) -> np.ndarray:
    return np.array([POLICIES.index(p) for p in policies], dtype=np.int64)


def seed_value(seed: int) -> np.uint64:
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise SmearError(f"--seed must be a whole number from 0 to 2**64-1, got {seed!r}")
    return np.uint64(seed)


def kernels():
    """The compiled drivers; importing them imports Numba, so callers do it only when work starts."""
    from .kernels import drivers

    return drivers


def available_threads() -> int:
    import numba

    return int(numba.config.NUMBA_NUM_THREADS)


def resolve_threads(threads: int | None) -> int:
    """Validate ``threads`` (None: all cores) and make Numba use that many."""
    import numba

    limit = available_threads()
    if threads is None:
        threads = limit
    if not isinstance(threads, int) or not 1 <= threads <= limit:
        raise SmearError(f"--threads must be between 1 and {limit} on this machine, got {threads!r}")
    numba.set_num_threads(threads)
    return threads


def chunk_ranges(total: int, chunk_size: int) -> Iterator[tuple[int, int]]:
    """``(start, count)`` pieces covering ``0 .. total-1``."""
    if chunk_size < 1:
        raise SmearError(f"chunk size must be at least 1, got {chunk_size}")
    for start in range(0, total, chunk_size):
        yield start, min(chunk_size, total - start)


def check_count(name: str, value: int, minimum: int = 1, maximum: int = 10**12) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not minimum <= value <= maximum:
        raise SmearError(f"{name} must be a whole number from {minimum:,} to {maximum:,}, got {value!r}")
    return value


@contextlib.contextmanager
def atomic_write(path: str | Path, mode: str = "w") -> Iterator:
    """Write to a temporary file beside ``path`` and rename it into place only when done.

    An interrupted run (Ctrl-C, an error) leaves the old file, or none, never half a file.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the file the mode open() would
    try:
        with os.fdopen(fd, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as handle:
            yield handle
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def progress_bar(total: int, description: str, enabled: bool = True) -> Iterator[Progress | None]:
    """A rich progress bar on standard error, fed with the hands done; None when disabled."""
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda done: bar.advance(task, done)
