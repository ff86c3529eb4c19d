"""Bit tricks on ``uint64`` hand masks, compiled to single LLVM instructions."""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

ONE = np.uint64(1)
ZERO = np.uint64(0)


@intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@intrinsic
def _cttz(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, True))

    return types.uint64(types.uint64), codegen


@njit(cache=True, inline="always")
def popcount(mask):
    """The number of cards in ``mask``."""
    return np.int64(_ctpop(np.uint64(mask)))


@njit(cache=True, inline="always")
def lowest_card(mask):
    """The lowest card code in a non-empty ``mask``."""
    return np.int64(_cttz(np.uint64(mask)))


@njit(cache=True, inline="always")
def bit(card):
    """The mask holding just ``card``."""
    return ONE << np.uint64(card)


@njit(cache=True, inline="always")
def has(mask, card):
    return (np.uint64(mask) >> np.uint64(card)) & ONE != ZERO


@njit(cache=True, inline="always")
def nth_card(mask, n):
    """The ``n``-th lowest card of ``mask`` (0-based)."""
    m = np.uint64(mask)
    for _ in range(n):
        m &= m - ONE
    return lowest_card(m)
