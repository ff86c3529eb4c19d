"""A job: one simulation as the kernels see it (a driver, its fixed arguments, a seed and a number of hands), and
its fingerprint. Apart from the runner that runs it, so that a checkpoint can name a job without the runner.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.errors import BadValue

__all__ = ["MAX_SEED", "Job", "check_count", "job_fingerprint", "seed_value"]

MAX_SEED = 2**64 - 1


def seed_value(seed: int) -> np.uint64:
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise BadValue("seed", f"must be a whole number from 0 to 2**64-1, got {seed!r}")
    return np.uint64(seed)


def check_count(name: str, value: int, minimum: int = 1, maximum: int = 10**12) -> int:
    """``value``, a count of the parameter ``name`` (``hands``), checked: a :class:`BadValue` names ``name``."""
    if not isinstance(value, int) or isinstance(value, bool) or not minimum <= value <= maximum:
        raise BadValue(name, f"must be a whole number from {minimum:,} to {maximum:,}, got {value!r}")
    return value


@dataclass(frozen=True)
class Job:
    """One simulation as the kernels see it.

    The driver is called as ``driver(seed, start, count, n_blocks, *args)``, and with ``seated`` last where it seats
    players, and returns integer counts with the per-block rows on axis 0, which are summed away; each thread's piece
    of a chunk is one call. ``policy_codes`` are the codes of the players at the table (None: a driver that seats
    no one, such as ``deal_only``); the runner makes ``seated`` from them
    (:func:`smear_sim.kernels.players.seated_arg`), so the kernel compiled is the one for these players, with no
    other player's code. A job is built by the builder of its driver (:mod:`smear_sim.engine.jobs`), which checks
    the arguments and puts them in the driver's order.
    """

    driver: str  # a function of smear_sim.kernels.drivers
    seed: int
    total: int  # hands (or deals, or games): indices 0 .. total-1
    args: tuple[Any, ...] = ()
    label: str = "hands"  # the parameter that set ``total``, for error messages
    policy_codes: tuple[int, ...] | None = None  # the players at the table (already among ``args``)

    @property
    def seats_players(self) -> bool:
        """Whether the driver plays, and so takes ``seated`` (made from :attr:`policy_codes`) last."""
        return self.policy_codes is not None

    def __post_init__(self) -> None:
        check_count(self.label, self.total)
        seed_value(self.seed)


def job_fingerprint(job: Job) -> str:
    """A digest of everything that decides a job's counts: its driver, seed, total and arguments (the policy codes
    at the table are among them)."""
    digest = hashlib.sha256(f"{job.driver}|{job.seed}|{job.total}".encode())

    def add(arg: Any) -> None:
        if isinstance(arg, tuple):  # a tuple of arrays, such as the equity bidder's arrays
            digest.update(f"|tuple{len(arg)}".encode())
            for item in arg:
                add(item)
            return
        value = np.asarray(arg)
        digest.update(f"|{value.dtype.str}{value.shape}".encode())
        digest.update(np.ascontiguousarray(value).tobytes())

    for arg in job.args:
        add(arg)
    return digest.hexdigest()
