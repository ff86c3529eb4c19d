"""Bit tricks on ``uint64`` hand masks, compiled to single LLVM instructions."""

from __future__ import annotations

import numpy as np
from llvmlite import ir
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


@intrinsic
def nonnegative(typingctx, x):
    """``x`` (an ``int64``), with LLVM told that it is not negative (``llvm.assume``). Numba checks every signed
    array index for a negative value (and then counts from the end); an index LLVM knows to be non-negative loses
    that check. The caller must be sure: a negative ``x`` is undefined behaviour."""
    def codegen(context, builder, signature, args):
        value = args[0]
        assume = builder.module.declare_intrinsic("llvm.assume", fnty=ir.FunctionType(ir.VoidType(), [ir.IntType(1)]))
        builder.call(assume, [builder.icmp_signed(">=", value, ir.Constant(value.type, 0))])
        return value

    return types.int64(types.int64), codegen


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
