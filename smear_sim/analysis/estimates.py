"""Estimates from a bidder's class counts, computed once and typed.

The kernels count, per hand class, a histogram of the bidding team's points k, the other team's points
summed per k and squared, moon successes, points won per award and trump chosen (layout ``CLS_*``). From
those integers :func:`estimate` computes every figure with its standard error, exactly: rows of counts can
be merged by adding them, and nothing depends on the threads or the chunking.

Two figures need a word:

- ``ev`` of bid b is the expected bidding team's hand score (its points if at least b, else -b) minus the
  other team's points. It can only fall as b rises, so the bid of highest EV is always the lowest legal
  bid; what a player wants is how high to go, ``bid_up_to``: the highest bid whose EV is not negative. Its
  standard error includes the covariance of the two teams' points.
- A moon decides the game instead of scoring. Treating the score difference as a fair random walk between
  -target and +target (the race to the target), a net gain of x points adds x / (2 * target) to the chance of
  winning the game, so a won game is worth +target points and a lost one -target: the moon's EV is
  (2p - 1) * target for success rate p, comparable with the EVs of numeric bids. The moon pays when its EV
  beats the best numeric bid's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core import layout as L
from ..core.rules import Rules
from ..core.stats import Estimate

__all__ = ["BidEstimates", "EstimateArray", "estimate"]


@dataclass(frozen=True)
class EstimateArray:
    """Estimates and their standard errors as two arrays of one shape; indexing down to one gives an
    :class:`~smear_sim.core.stats.Estimate`."""

    value: np.ndarray
    se: np.ndarray

    def __getitem__(self, index) -> EstimateArray | Estimate:
        value, se = self.value[index], self.se[index]
        if np.ndim(value) == 0:
            return Estimate(float(value), float(se))
        return EstimateArray(value, se)

    def __len__(self) -> int:
        return len(self.value)


def _proportion(p: np.ndarray, n: np.ndarray) -> EstimateArray:
    return EstimateArray(p, np.sqrt(p * (1 - p) / n))


@dataclass(frozen=True)
class BidEstimates:
    """Every estimate for G rows of class counts: arrays with the rows on axis 0.

    Rows with no hands hold NaN. ``bids`` are the numeric bids ``min_bid .. M``; ``make`` and ``ev`` have
    one column per bid, in that order.
    """

    rules: Rules
    bids: tuple[int, ...]
    count: np.ndarray  # [G] hands
    points: EstimateArray  # [G] mean points won by the bidding team
    distribution: EstimateArray  # [G, M + 1] P(the bidding team wins exactly k points)
    make: EstimateArray  # [G, bids] P(points >= bid)
    ev: EstimateArray  # [G, bids] the bidding team's hand score minus the other team's points
    moon: EstimateArray  # [G] P(the moon succeeds)
    moon_ev: EstimateArray  # [G] (2p - 1) * target
    awards: EstimateArray  # [G, points at stake] P(the bidding team wins each point), POINT_NAMES order
    trump_share: np.ndarray  # [G, 4] how often each suit was named trump
    bid_up_to: np.ndarray  # [G] the highest bid with EV >= 0; 0 when none is
    best_numeric_ev: EstimateArray  # [G] the EV of the lowest bid, which is the highest
    moon_gain: EstimateArray  # [G] moon EV minus the best numeric bid's EV (SE of the moon EV)

    def column(self, bid: int) -> int:
        """The column of ``make`` and ``ev`` that holds ``bid``."""
        return self.bids.index(bid)


def estimate(acc: np.ndarray, rules: Rules) -> BidEstimates:
    """Estimates and standard errors for each row of class counts (shape ``[G, CLS_SIZE]`` or ``[CLS_SIZE]``)."""
    acc = np.atleast_2d(acc).astype(np.float64)
    m = rules.max_points
    n = acc[:, L.CLS_COUNT]
    safe_n = np.where(n > 0, n, np.nan)
    dof = np.where(n > 1, n - 1, np.nan)
    hist = acc[:, L.CLS_HIST: L.CLS_HIST + m + 1]
    other_by_k = acc[:, L.CLS_OTHER_BY_K: L.CLS_OTHER_BY_K + m + 1]
    p_k = hist / safe_n[:, None]
    k = np.arange(m + 1, dtype=np.float64)
    mean = p_k @ k
    points = EstimateArray(mean, np.sqrt(np.maximum(p_k @ (k * k) - mean * mean, 0) / dof))
    mean_other = other_by_k.sum(axis=1) / safe_n
    mean_other_sq = acc[:, L.CLS_OTHER_SQ] / safe_n

    bids = tuple(rules.bids())
    make = np.empty((len(n), len(bids)))
    ev = np.empty_like(make)
    ev_se = np.empty_like(make)
    for column, b in enumerate(bids):
        make[:, column] = np.clip(p_k[:, b:].sum(axis=1), 0.0, 1.0)  # rounding could step past 1
        score = np.where(k >= b, k, -b)  # the bidding team's hand score for each k
        e_score = p_k @ score
        e_score_sq = p_k @ (score * score)
        e_score_other = (other_by_k @ score) / safe_n
        ev[:, column] = e_score - mean_other
        variance = e_score_sq - 2 * e_score_other + mean_other_sq - ev[:, column] ** 2
        ev_se[:, column] = np.sqrt(np.maximum(variance, 0) / dof)

    moon = _proportion(acc[:, L.CLS_MOON] / safe_n, safe_n)
    moon_ev = EstimateArray((2 * moon.value - 1) * rules.target, 2 * rules.target * moon.se)
    awards = _proportion(acc[:, L.CLS_AWARDS: L.CLS_AWARDS + m] / safe_n[:, None], safe_n[:, None])
    worth = ev >= 0
    bid_up_to = np.where(worth.any(axis=1), np.array(bids)[np.where(worth, np.arange(len(bids)), -1).max(axis=1)], 0)
    # EV falls as the bid rises, so the best numeric bid is the lowest.
    best = EstimateArray(ev[:, 0], ev_se[:, 0])
    return BidEstimates(
        rules=rules,
        bids=bids,
        count=n,
        points=points,
        distribution=_proportion(p_k, safe_n[:, None]),
        make=_proportion(make, safe_n[:, None]),
        ev=EstimateArray(ev, ev_se),
        moon=moon,
        moon_ev=moon_ev,
        awards=awards,
        trump_share=acc[:, L.CLS_TRUMP: L.CLS_TRUMP + 4] / safe_n[:, None],
        bid_up_to=bid_up_to,
        best_numeric_ev=best,
        moon_gain=EstimateArray(moon_ev.value - best.value, moon_ev.se),
    )
