"""The game as an absorbing Markov chain over the score grid, for one hand-outcome distribution: the states, where
each outcome leads, and its solve (:mod:`smear_sim.analysis.match_equity` builds the table on it).

**The recursion.** From each state the outcomes lead to the next state (the deal passes to the other team,
thrown-in hands included) or end the game, by the checks of docs/rules.md ("Game") in order: a moon ends the game (a
success from a negative score sets it to 0 and play goes on), then the bidding team goes out first if it
made its bid and reached the target, then the other team. The rule is the kernels' own
(:func:`smear_sim.kernels.equity.outcome_after`, which the equity bidder plays by), read for every score pair
(:func:`after_each_outcome`): it is written once. ``win = R + P win`` is a linear system over the
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
from functools import cached_property

import numpy as np

from .hand_outcomes import HandOutcomes

__all__ = [
    "MAX_SWEEPS",
    "SOLVE_TOLERANCE",
    "GameChain",
    "after_each_outcome",
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

    # The sweeps visit the states in ``order``; the solves store them in that order too, so that a sweep reads its
    # rows one after another instead of one memory page apart (ten times faster on a grid 250 points deep). Each
    # row's transitions keep their order, so the sums, and the solutions, are the same to the last bit.

    @cached_property
    def rank(self) -> np.ndarray:
        """Each state's place in ``order``."""
        rank = np.empty_like(self.order)
        rank[self.order] = np.arange(self.states)
        return rank

    @cached_property
    def swept(self) -> np.ndarray:
        """``nxt`` with the states renumbered by ``rank`` and its rows in ``order`` (int32, as the solve takes it)."""
        nxt = self.nxt[self.order]
        return np.where(nxt >= 0, self.rank[np.maximum(nxt, 0)], -1).astype(np.int32)

    @cached_property
    def transposed(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``P^T`` in compressed sparse rows over the states renumbered as in :attr:`swept`: for each state, the
        transitions that lead into it (made once: a review solves with it hundreds of times)."""
        stays = self.nxt >= 0
        source, outcome = np.nonzero(stays)
        target = self.nxt[stays]
        by_target = np.argsort(target, kind="stable")
        inflows = np.bincount(target, minlength=self.states)
        starts = np.concatenate([[0], np.cumsum(inflows)[:-1]])[self.order]
        counts = inflows[self.order]
        indptr = np.zeros(self.states + 1, dtype=np.int64)
        np.cumsum(counts, out=indptr[1:])
        entries = by_target[np.repeat(starts - indptr[:-1], counts) + np.arange(indptr[-1])]  # rows in order
        return indptr, self.rank[source[entries]].astype(np.int32), self.p[outcome[entries]]

    def solve(self, rhs: np.ndarray, *, keep: np.ndarray | None = None, transpose: bool = False,
              tolerance: float = SOLVE_TOLERANCE, threads: int = 1) -> tuple[np.ndarray, float]:
        """Solve ``x = rhs + P x`` (or ``P`` transposed) for each column of ``rhs`` (``[states, m]``); transitions
        outside ``keep`` count as ending the chain. The columns are shared among ``threads`` threads."""
        from ..engine.runner import across_threads
        from ..kernels.equity import solve_chain, solve_transposed  # imports Numba: only once there is work

        rhs = np.ascontiguousarray(rhs[self.order].T)
        sweep = np.arange(self.states)
        if transpose:  # inflows pass values the other way: sweep from the low score sums
            operator, order, kernel = self.transposed, sweep[::-1].copy(), solve_transposed
        else:
            nxt = self.swept if keep is None else np.where(keep[self.order], self.swept, -1).astype(np.int32)
            operator, order, kernel = (nxt, self.p[None, :]), sweep, solve_chain
        # Each right-hand side is solved on its own, so a share of them on each thread gives the same numbers.
        pieces = across_threads(lambda first, n: kernel(*operator, rhs[first:first + n], order, tolerance, MAX_SWEEPS),
                                0, len(rhs), threads)
        x = np.concatenate([piece[0] for piece in pieces])
        residual = max(piece[1] for piece in pieces)
        return x.take(self.rank, axis=1).T, residual  # laid out as x.T: the products after it sum the same way

    def truncation(self) -> np.ndarray:
        """For each state, the probability that a score falls below the solve floor before the game ends."""
        return self.solve((self.clamped @ self.p)[:, None], keep=~self.clamped)[0][:, 0]


def after_each_outcome(target: int, scores: np.ndarray, codes: np.ndarray) -> tuple[np.ndarray, ...]:
    """``(end, a_after, b_after)``, each ``[len(scores), len(scores), len(codes)]``: the game after a hand with each
    outcome code from each pair of scores ``(a, b)``, side 0 being the team at ``a``, by the kernels' own
    end-of-game rule (:func:`smear_sim.kernels.equity.outcome_states`, which the equity bidder plays by), so that
    the rule is written once. ``end`` is 1 when the team at ``a`` has won, -1 when the other has, else 0."""
    from ..kernels.equity import outcome_states  # imports Numba: only once there is work

    n, k = len(scores), len(codes)
    end = np.zeros((n, n, k), dtype=np.int64)
    a_after = np.zeros_like(end)
    b_after = np.zeros_like(end)
    n_codes = int(codes.max()) + 1 if k else 0
    for i, a in enumerate(scores.tolist()):
        for j, b in enumerate(scores.tolist()):
            e, x, y = outcome_states(target, a, b, n_codes)
            end[i, j], a_after[i, j], b_after[i, j] = e[codes], x[codes], y[codes]
    return end, a_after, b_after


def build_chain(outcomes: HandOutcomes, target: int, solve_floor: int) -> GameChain:
    """The chain over the grid from ``solve_floor`` for the outcomes of ``outcomes`` (seen from the dealing team):
    each state's outcomes follow :func:`after_each_outcome`, and a score below the solve floor is held there."""
    out = outcomes.decoded
    size = target - solve_floor
    scores = np.arange(solve_floor, target)
    end, a_after, b_after = after_each_outcome(target, scores, out["code"])
    # Dealer d = 0: the team at ``us`` deals, so it is side 0 (pair (us, them)); d = 1: the team at ``them`` is
    # (pair (them, us), its results swapped back).
    end = np.stack([end, -end.transpose(1, 0, 2)])  # [d, us, them, K], from the team at ``us``
    us_after = np.stack([a_after, b_after.transpose(1, 0, 2)])
    them_after = np.stack([b_after, a_after.transpose(1, 0, 2)])
    end, us_after, them_after = (a.reshape(2 * size * size, -1) for a in (end, us_after, them_after))
    ended = end != 0
    clamped = ~ended & ((us_after < solve_floor) | (them_after < solve_floor))
    d = np.indices((2, size, size))[0].reshape(-1, 1)
    index = ((1 - d) * size + np.maximum(us_after, solve_floor) - solve_floor) * size \
        + np.maximum(them_after, solve_floor) - solve_floor
    nxt = np.where(ended, -1, index)
    win = (end > 0).astype(np.float64)
    _, us, them = (a.ravel() + solve_floor for a in np.indices((2, size, size)))
    order = np.argsort(-(us + them), kind="stable")
    return GameChain(solve_floor, size, out["p"], nxt, win, clamped, order)
