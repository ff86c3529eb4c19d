"""Solving the game's recursion over the score grid: absorbing Markov chains by Gauss-Seidel sweeps.

The match-equity table (:mod:`smear_sim.analysis.match_equity`) is a linear system ``x = r + P x`` over the states
of a game (both scores and the dealing team): from each state a hand leads, with known probabilities, to
another state or to the end of the game. :func:`solve_chain` solves it for many right-hand sides at once,
and :func:`solve_transposed` solves ``y = w + P^T y``, which gives the derivatives of a few combinations of
states at once.

Both sweep the states in a given order (one sweep, :func:`_gauss_seidel`, for both: they differ only in how a
row of the matrix is read) and use each new value at once (Gauss-Seidel), until no value
changes by more than ``tolerance`` (or after ``max_sweeps`` sweeps), one right-hand side after another. Both
return ``(x, residual, sweeps)``: ``x`` is ``[m, states]``, one row per right-hand side; ``residual`` is the
largest ``|rhs + A x - x|``, so the error of ``x`` is at most ``residual`` times the expected number of steps
to the end of the chain; ``sweeps`` is the most sweeps any right-hand side took.

:func:`outcome_after` and :func:`outcome_win` follow one hand's outcome to the next state at a given score, as the
equity bidder does when it weighs its calls (:mod:`smear_sim.kernels.players.equity`).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import overload

from ..core.layout import OUT_MAX, OUT_MOON_FAILED, OUT_MOON_MADE, OUT_NUMERIC, OUT_THROWN_IN
from .borrow import REFCOUNTED


def _row(operator, s, xc, rc):
    """Row ``s`` of ``rhs + A x``, ``A`` read from ``operator`` (as :func:`solve_chain` or
    :func:`solve_transposed` take it)."""


@overload(_row)
def _row_impl(operator, s, xc, rc):
    if len(operator) == 2:  # (nxt, weights): each state's transitions, dense
        def dense_row(operator, s, xc, rc):
            nxt, weights = operator
            w_row = s if weights.shape[0] > 1 else 0
            value = rc[s]
            for j in range(nxt.shape[1]):
                t = nxt[s, j]
                if t >= 0:
                    value += weights[w_row, j] * xc[t]
            return value
        return dense_row

    def sparse_row(operator, s, xc, rc):  # (indptr, indices, data): compressed sparse rows
        indptr, indices, data = operator
        value = rc[s]
        for i in range(indptr[s], indptr[s + 1]):
            value += data[i] * xc[indices[i]]
        return value
    return sparse_row


@njit(cache=True, nogil=True, **REFCOUNTED)
def _gauss_seidel(operator, rhs, order, tolerance, max_sweeps):
    """Solve ``x = rhs + A x`` for each row of ``rhs`` by Gauss-Seidel sweeps in ``order`` (module docstring);
    only :func:`_row` reads ``A``."""
    m, n_states = rhs.shape
    x = np.zeros((m, n_states))
    sweeps = np.zeros(m, dtype=np.int64)
    residual = np.zeros(m)
    for c in range(m):
        xc = x[c]
        rc = rhs[c]
        for sweep in range(max_sweeps):
            change = 0.0
            for s in order:
                value = _row(operator, s, xc, rc)
                change = max(change, abs(value - xc[s]))
                xc[s] = value
            sweeps[c] = sweep + 1
            if change <= tolerance:
                break
        worst = 0.0
        for s in range(n_states):
            worst = max(worst, abs(_row(operator, s, xc, rc) - xc[s]))
        residual[c] = worst
    worst_residual = 0.0
    most_sweeps = 0
    for c in range(m):  # loops, not .max(): Numba compiles them in a fraction of the time
        worst_residual = max(worst_residual, residual[c])
        most_sweeps = max(most_sweeps, sweeps[c])
    return x, worst_residual, most_sweeps


@njit(cache=True, nogil=True)
def solve_chain(nxt, weights, rhs, order, tolerance, max_sweeps):
    """Solve ``x = rhs + P x`` for each row of ``rhs`` (``[m, states]``).

    ``nxt[s, j]`` (``[states, K]`` int32) is the state that transition ``j`` leads to from ``s``, or -1 where the
    chain ends there; its probability is ``weights[s, j]``, or ``weights[0, j]`` for every state when
    ``weights`` has one row (the same distribution everywhere, kept once where the cache holds it).
    """
    n_states = rhs.shape[1]
    if nxt.shape[0] != n_states or order.shape[0] != n_states or weights.shape[1] != nxt.shape[1]:
        raise ValueError("solve_chain: nxt, order and weights must match the states and transitions")
    if weights.shape[0] != 1 and weights.shape[0] != n_states:
        raise ValueError("solve_chain: weights has one row, or one row per state")
    if nxt.size and (nxt.min() < -1 or nxt.max() >= n_states):
        raise ValueError("solve_chain: a transition leads outside the states")
    return _gauss_seidel((nxt, weights), rhs, order, tolerance, max_sweeps)


@njit(cache=True, nogil=True)
def solve_transposed(indptr, indices, data, rhs, order, tolerance, max_sweeps):
    """Solve ``y = rhs + A y`` for each row of ``rhs`` (``[m, states]``), ``A`` in compressed sparse rows.

    Row ``s`` of ``A`` holds ``data[i]`` in column ``indices[i]`` for ``i`` in ``indptr[s] .. indptr[s+1]-1``. With
    ``A = P^T`` (every state's inflows) ``y`` is ``(I - P^T)^-1 rhs``.
    """
    n_states = rhs.shape[1]
    if indptr.shape[0] != n_states + 1 or order.shape[0] != n_states or indices.shape[0] != data.shape[0]:
        raise ValueError("solve_transposed: indptr and order must have one entry per state")
    for i in range(indices.shape[0]):  # a loop, not .min()/.max(): Numba compiles it in a fraction of the time
        if indices[i] < 0 or indices[i] >= n_states:
            raise ValueError("solve_transposed: an entry points outside the states")
    return _gauss_seidel((indptr, indices, data), rhs, order, tolerance, max_sweeps)


# -- one hand's outcome at a score: where the game goes ----------------------------------------------------


@njit(cache=True, inline="always")
def outcome_after(target, us, them, code):
    """The game after a hand with outcome ``code`` (layout ``OUT_*``, side 0 being the team at ``us``), by the
    checks of docs/rules.md ("Game") in order. Returns ``(end, us_after, them_after)``: ``end`` is 1 when the team
    at ``us`` has won, -1 when the other team has, 0 when the game goes on from the scores after the hand."""
    if code == OUT_THROWN_IN:
        return 0, us, them
    if code >= OUT_MOON_FAILED:
        return (-1 if code - OUT_MOON_FAILED == 0 else 1), us, them
    width = OUT_MAX + 1
    if code >= OUT_MOON_MADE:
        side = (code - OUT_MOON_MADE) // width
        other = (code - OUT_MOON_MADE) % width
        delta = 0
    else:
        x = code - OUT_NUMERIC
        other = x % width
        side = (x // width) // (2 * OUT_MAX + 1)
        delta = (x // width) % (2 * OUT_MAX + 1) - OUT_MAX
    bidder, defender = (us, them) if side == 0 else (them, us)
    bidder_wins = False
    if code >= OUT_MOON_MADE:
        bidder_wins = bidder >= 0
        bidder = 0  # a success from a negative score sets it to 0 (and from 0 or more, it wins)
    else:
        bidder += delta
        bidder_wins = delta > 0 and bidder >= target  # made its bid (a set scores minus the bid) and reached it
    defender += other
    end = 0
    if bidder_wins:
        end = 1
    elif defender >= target:
        end = -1
    if side == 1:
        return -end, defender, bidder
    return end, bidder, defender


@njit(cache=True, inline="always")
def outcome_win(grid, solve_floor, target, us, them, next_dealer, code):
    """P(the team at ``us`` wins the game) after a hand with outcome ``code`` (see :func:`outcome_after`), from
    the equity ``grid`` (``[dealer, us, them]`` from ``solve_floor``; ``next_dealer`` 0 when the team at ``us``
    deals the next hand). Scores below the grid count as its floor, as in the solve."""
    end, us_after, them_after = outcome_after(target, us, them, code)
    if end != 0:
        return 1.0 if end > 0 else 0.0
    return grid[next_dealer, max(us_after, solve_floor) - solve_floor, max(them_after, solve_floor) - solve_floor]


@njit(cache=True, **REFCOUNTED)
def outcome_states(target, us, them, n_outcomes):
    """:func:`outcome_after` for every outcome code ``0 .. n_outcomes-1``: arrays ``(end, us_after, them_after)``."""
    end = np.zeros(n_outcomes, dtype=np.int64)
    us_after = np.zeros(n_outcomes, dtype=np.int64)
    them_after = np.zeros(n_outcomes, dtype=np.int64)
    for code in range(n_outcomes):
        end[code], us_after[code], them_after[code] = outcome_after(target, us, them, code)
    return end, us_after, them_after
