"""The game as an absorbing Markov chain over the score grid, for one hand-outcome distribution: the states, where
each outcome leads, and its solve (:mod:`smear_sim.analysis.match_equity` builds the table on it).

**The recursion.** From each state the outcomes lead to the next state (the deal passes to the other team,
thrown-in hands included) or end the game, by the checks of docs/rules.md ("Game") in order: a moon ends the game (a
success from a negative score sets it to 0 and play goes on), then the bidding team goes out first if it
made its bid and reached the target, then the other team. ``win = R + P win`` is a linear system over the
grid of states, solved by Gauss-Seidel sweeps (:func:`smear_sim.kernels.equity.solve_chain`) to a
residual whose error bound is reported (``solve_error``).

**The floor.** Scores have no lower limit, so the grid is cut at a solve floor below the lowest score
shown (``floor``), and a hand that would take a score below the solve floor leaves it at the solve floor.
Until a score first falls below the solve floor the cut game and the true game are the same, so for each
state the error is at most the probability that this ever happens before the game ends. That probability
solves the same kind of system; the solve floor is lowered until its largest value over the states shown
is below ``TRUNCATION_TOLERANCE``, and that largest value is reported as ``truncation_bound``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .hand_outcomes import HandOutcomes

__all__ = [
    "MAX_SWEEPS",
    "SOLVE_TOLERANCE",
    "GameChain",
    "build_chain",
]


SOLVE_TOLERANCE = 1e-13
MAX_SWEEPS = 100_000


@dataclass(frozen=True)
class GameChain:
    """The game over the grid ``[solve_floor, target)`` squared, times the dealing team, for one hand-outcome
    distribution ``p`` (``[K]``, the outcomes of :attr:`HandOutcomes.decoded`).

    State index ``(d * size + us - solve_floor) * size + them - solve_floor``, d = 0 when ``us`` deals.
    """

    solve_floor: int
    size: int
    p: np.ndarray  # [K]
    nxt: np.ndarray  # [states, K] the next state after each outcome, -1 where the game ends
    win: np.ndarray  # [states, K] 1.0 where the outcome ends the game with a win for ``us``
    clamped: np.ndarray  # [states, K] the outcome took a score below the solve floor (and was held there)
    order: np.ndarray  # states, highest score sum first: most hands lead to higher sums

    @property
    def states(self) -> int:
        return len(self.nxt)

    def transposed(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``P^T`` in compressed sparse rows: for each state, the transitions that lead into it."""
        stays = self.nxt >= 0
        source, outcome = np.nonzero(stays)
        target = self.nxt[stays]
        by_target = np.argsort(target, kind="stable")
        indptr = np.zeros(self.states + 1, dtype=np.int64)
        np.cumsum(np.bincount(target, minlength=self.states), out=indptr[1:])
        return indptr, source[by_target].astype(np.int32), self.p[outcome[by_target]]

    def solve(self, rhs: np.ndarray, *, keep: np.ndarray | None = None, transpose: bool = False,
              tolerance: float = SOLVE_TOLERANCE) -> tuple[np.ndarray, float]:
        """Solve ``x = rhs + P x`` (or ``P`` transposed) for each column of ``rhs`` (``[states, m]``); transitions
        outside ``keep`` count as ending the chain."""
        from ..kernels.equity import solve_chain, solve_transposed  # imports Numba: only once there is work

        rhs = np.ascontiguousarray(rhs.T)
        if transpose:  # inflows pass values the other way: sweep from the low score sums
            x, residual, _ = solve_transposed(*self.transposed(), rhs, self.order[::-1].copy(), tolerance, MAX_SWEEPS)
        else:
            nxt = self.nxt if keep is None else np.where(keep, self.nxt, -1)
            x, residual, _ = solve_chain(nxt.astype(np.int32), self.p[None, :], rhs, self.order, tolerance,
                                         MAX_SWEEPS)
        return x.T, residual

    def truncation(self) -> np.ndarray:
        """For each state, the probability that a score falls below the solve floor before the game ends."""
        return self.solve((self.clamped @ self.p)[:, None], keep=~self.clamped)[0][:, 0]


def build_chain(outcomes: HandOutcomes, target: int, solve_floor: int) -> GameChain:
    out = outcomes.decoded
    size = target - solve_floor
    d, us, them = (a.ravel() for a in np.indices((2, size, size)))
    us = us + solve_floor
    them = them + solve_floor
    us, them, d = us[:, None], them[:, None], d[:, None]
    kind, side, delta, other = (out[key][None, :] for key in ("kind", "side", "delta", "other"))
    bidder_is_us = (d == 0) == (side == 0)  # side 0: the dealing team bid
    x = np.where(bidder_is_us, us, them)  # the bidding team's score (any team when thrown in)
    y = np.where(bidder_is_us, them, us)
    # After the hand, before the end-of-game checks.
    x_after = np.where(kind == 1, x + delta, np.where(kind == 2, 0, x))
    y_after = y + other
    bidder_wins = ((kind == 1) & (delta > 0) & (x_after >= target)) | ((kind == 2) & (x >= 0))
    other_wins = (kind == 3) | (~bidder_wins & (y_after >= target))
    ended = bidder_wins | other_wins
    clamped = ~ended & ((x_after < solve_floor) | (y_after < solve_floor))
    x_next = np.maximum(x_after, solve_floor)
    y_next = np.maximum(y_after, solve_floor)
    us_next = np.where(bidder_is_us, x_next, y_next)
    them_next = np.where(bidder_is_us, y_next, x_next)
    index = ((1 - d) * size + us_next - solve_floor) * size + them_next - solve_floor
    nxt = np.where(ended, -1, index)
    win = (np.where(bidder_is_us, bidder_wins, other_wins) & ended).astype(np.float64)
    order = np.argsort(-(us[:, 0] + them[:, 0]), kind="stable")
    return GameChain(solve_floor, size, out["p"], nxt, win, clamped, order)
