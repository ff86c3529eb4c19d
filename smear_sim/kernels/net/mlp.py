"""The net's forward pass: one head, ``VT_SIZE -> H -> H -> n_out`` with ReLU between, in float32.

A head is the tuple ``(w0, b0, w1, b1, w2, b2)`` of C-contiguous float32 arrays that
:func:`smear_sim.engine.net_weights.load_net` gives (``w0`` input-major, ``y = x @ w + b`` per layer). Nothing here
allocates: the caller owns the scratch arrays (``acc`` and ``hidden`` of H entries, ``out`` of n_out), so a player's
decision makes no garbage and every function runs without reference counting (:data:`~..borrow.NO_REFCOUNT`).

The first layer is an **accumulator**, as NNUE keeps it: its pre-activation starts from the bias
(:func:`acc_start`), and each input that is not zero adds its weight row times its value (:func:`acc_add`); a view
tensor has about 40 of its 819 entries set, so this is about 20 times less work than the dense product
(:func:`acc_fill_dense`, kept as the reference and the benchmark's baseline). A player that keeps the accumulator of
a position can follow a card played by removing and adding the few inputs that changed (:func:`acc_remove`), rather
than summing every row again. The layers above it (:func:`head_from_acc`) skip the units that ReLU zeroes.

Float32 sums depend on their order: the accumulator's order (bias, then rows by input) differs from a BLAS product's,
and an updated accumulator from a fresh one, by a few units in the last place; tests allow for it.
"""

from __future__ import annotations

from numba import njit

from ..borrow import NO_REFCOUNT

__all__ = ["acc_add", "acc_fill", "acc_fill_dense", "acc_remove", "acc_start", "forward", "forward_dense",
           "head_from_acc"]


@njit(cache=True, **NO_REFCOUNT)
def acc_start(acc, b0):
    """The accumulator of no input: the first layer's bias."""
    for j in range(acc.shape[0]):
        acc[j] = b0[j]


@njit(cache=True, **NO_REFCOUNT)
def acc_add(acc, w0, i, value):
    """Add input ``i`` at ``value``: its weight row times the value."""
    for j in range(acc.shape[0]):
        acc[j] += value * w0[i, j]


@njit(cache=True, **NO_REFCOUNT)
def acc_remove(acc, w0, i, value):
    """Take back what :func:`acc_add` of input ``i`` at ``value`` added."""
    for j in range(acc.shape[0]):
        acc[j] -= value * w0[i, j]


@njit(cache=True, **NO_REFCOUNT)
def acc_fill(acc, w0, b0, x):
    """The accumulator of the inputs ``x``: the bias plus the rows of the inputs that are not zero."""
    acc_start(acc, b0)
    for i in range(x.shape[0]):
        value = x[i]
        if value != 0:
            acc_add(acc, w0, i, value)


@njit(cache=True, **NO_REFCOUNT)
def acc_fill_dense(acc, w0, b0, x):
    """The same as :func:`acc_fill`, adding every row, zeros included: the dense product, for comparison."""
    acc_start(acc, b0)
    for i in range(x.shape[0]):
        acc_add(acc, w0, i, x[i])


@njit(cache=True, **NO_REFCOUNT)
def head_from_acc(acc, w1, b1, w2, b2, hidden, out):
    """The head's outputs into ``out`` from the first layer's accumulator (ReLU applied here, ``acc`` unchanged);
    ``hidden`` is scratch of H entries."""
    for j in range(hidden.shape[0]):
        hidden[j] = b1[j]
    for i in range(acc.shape[0]):
        value = acc[i]
        if value > 0:  # ReLU: a unit at or below zero adds nothing
            for j in range(hidden.shape[0]):
                hidden[j] += value * w1[i, j]
    for k in range(out.shape[0]):
        out[k] = b2[k]
    for i in range(hidden.shape[0]):
        value = hidden[i]
        if value > 0:
            for k in range(out.shape[0]):
                out[k] += value * w2[i, k]


@njit(cache=True, **NO_REFCOUNT)
def forward(head, x, acc, hidden, out):
    """The outputs of ``head`` (``(w0, b0, w1, b1, w2, b2)``) on the inputs ``x`` into ``out``, with the sparse
    first layer; ``acc`` is left holding that layer's accumulator, for incremental updates."""
    w0, b0, w1, b1, w2, b2 = head
    acc_fill(acc, w0, b0, x)
    head_from_acc(acc, w1, b1, w2, b2, hidden, out)


@njit(cache=True, **NO_REFCOUNT)
def forward_dense(head, x, acc, hidden, out):
    """:func:`forward` with the dense first layer."""
    w0, b0, w1, b1, w2, b2 = head
    acc_fill_dense(acc, w0, b0, x)
    head_from_acc(acc, w1, b1, w2, b2, hidden, out)
