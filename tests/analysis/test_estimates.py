"""Estimates from class counts (analysis/estimates.py) against a direct per-hand computation.

The kernel sums integers per hand; ``estimate`` turns the sums into means and standard errors. Here the same
hands are played one at a time (a run of one hand is a row of counts holding that hand's outcome: the bidding
team's points k, the other team's points and the moon), and every figure is computed again from the per-hand
values with NumPy. A mean's SE is the sample standard deviation (ddof=1) over sqrt(n); a proportion's is the
binomial sqrt(p (1 - p) / n), which is the ddof=0 standard deviation of the 0/1 values over sqrt(n).
"""

from __future__ import annotations

import numpy as np
import pytest

from smear_sim.analysis.estimates import estimate
from smear_sim.core import layout as L
from smear_sim.core.bidder import no_bidder_arrays
from smear_sim.core.players import policy_array
from smear_sim.core.rules import Rules
from smear_sim.kernels import drivers

N = 1500
RULE_SETS = {
    "defaults": Rules(),
    "round_points_in_play": Rules(round_points=True, moon_requires="in_play", target=11, min_bid=3),
}


def per_hand(rules: Rules, seed: int = 5):
    """The per-hand counts of hands 0..N-1, and their sum from one ordinary run."""
    args = (rules.to_array(), policy_array(("heuristic", "heuristic")), no_bidder_arrays(), np.uint64(0), -1, False,
            drivers.seated_arg(policy_array(("heuristic", "heuristic"))))
    hands = drivers.analyze_hands(np.uint64(seed), 0, N, N, *args)[:, 0]  # one block per hand: its own counts
    total = drivers.analyze_hands(np.uint64(seed), 0, N, 3, *args).sum(axis=(0, 1))
    return hands, total


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_estimates_equal_the_per_hand_computation(name):
    rules = RULE_SETS[name]
    hands, total = per_hand(rules)
    assert np.array_equal(hands.sum(axis=0), total)  # one hand at a time plays the same hands
    assert np.all(hands[:, L.CLS_COUNT] == 1)
    hist = hands[:, L.CLS_HIST: L.CLS_HIST + L.MAX_K]
    k = hist.argmax(axis=1)  # the bidding team's points in each hand
    assert np.array_equal(hist.sum(axis=1), np.ones(N))
    other = hands[np.arange(N), L.CLS_OTHER_BY_K + k]
    assert np.array_equal(hands[:, L.CLS_OTHER_SQ], other**2)
    moon = hands[:, L.CLS_MOON]
    assert 0 < moon.sum() < N and len(set(k)) > 2  # the sample exercises what it checks

    e = estimate(total, rules)

    def sample(values):
        return values.mean(), values.std(ddof=1) / np.sqrt(N)

    def binomial(values):
        return values.mean(), values.std(ddof=0) / np.sqrt(N)

    def same(got, expected):
        assert got.value[0] == pytest.approx(expected[0], rel=1e-9, abs=1e-12)
        assert got.se[0] == pytest.approx(expected[1], rel=1e-9)

    same(e.points, sample(k.astype(float)))
    for column, b in enumerate(e.bids):
        score = np.where(k >= b, k, -b)  # the bidding team's hand score with bid b
        # EV: its SE comes from the sums of k, other and other**2, with the covariance of the two teams' points
        same(e.ev[:, column], sample((score - other).astype(float)))
        same(e.make[:, column], binomial((k >= b).astype(float)))
    same(e.moon, binomial(moon.astype(float)))
    # The moon's EV is (2p - 1) * target: the binomial SE, scaled.
    same(e.moon_ev, binomial((2 * moon - 1).astype(float) * rules.target))
    best = e.bids.index(rules.min_bid)
    same(e.moon_gain, (e.moon_ev.value[0] - e.ev.value[0, best], e.moon_ev.se[0]))
    for points in range(rules.max_points + 1):
        same(e.distribution[:, points], binomial((k == points).astype(float)))
