"""What every driver does before its loop: split the hand indices into blocks.

A driver splits its range of hand indices into ``n_blocks`` contiguous blocks, run one after another; the
engine calls it with one block per thread's piece (:func:`smear_sim.engine.runner.across_threads`), and a test
with one block per hand gets each hand's own counts. A block owns its scratch arrays
(:func:`smear_sim.kernels.hand.scratch`) and its row of integer accumulators, and since every hand draws from
its own random stream and the accumulators are integers, the totals do not depend on how the range is split
into blocks, pieces or threads.
"""

from __future__ import annotations

from numba import njit

__all__ = ["block_bounds"]


@njit(cache=True)
def block_bounds(count, n_blocks, b):
    """Block ``b``'s hands ``lo .. hi-1`` of ``0 .. count-1`` split into ``n_blocks`` blocks."""
    per = (count + n_blocks - 1) // n_blocks
    lo = min(count, b * per)
    return lo, min(count, lo + per)
