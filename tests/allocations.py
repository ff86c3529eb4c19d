"""Counting what Numba's runtime allocates and frees while a kernel runs: the drivers must free every array they
allocate (kernels/borrow.py)."""

from __future__ import annotations

from collections.abc import Callable

from numba.core.runtime import _nrt_python, rtsys


def allocations_during(run: Callable[[], object]):
    """Numba's allocation statistics before and after ``run()``, counted as NUMBA_NRT_STATS=1 counts them (switched
    on for the call, and back off if it was off); compile or load ``run``'s kernels first."""
    was_on = _nrt_python.memsys_stats_enabled()
    _nrt_python.memsys_enable_stats()
    try:
        before = rtsys.get_allocation_stats()
        run()
        after = rtsys.get_allocation_stats()
    finally:
        if not was_on:
            _nrt_python.memsys_disable_stats()
    return before, after
