"""``count``: a bidder that calls by the count a person adds up at the table (:mod:`smear_sim.core.count`).

It plays cards, names trump and discards exactly like ``heuristic``; only its calls differ. Its call:

- the hand's count: for each suit, the weights of the card kinds held with that suit as trump (the ace, king,
  jack, jick, jokers and two of trump, each trump, each ace of another suit), and the best suit's total;
- its place in the auction (the number of calls before it) and situation there (no number standing, or the
  standing number and whether the partner or an opponent called it, as the ``equity`` bidder reads it), and the
  band of each team's score;
- the highest legal call whose needed count the hand reaches, or else the lowest legal call (a pass where
  passing is allowed).

The weights and the needed counts are those shipped in ``smear_sim/data/count.json`` for the rules' variant
(round points or not), read when this module is imported and compiled in as constants: after the file changes,
delete the kernels' Numba caches. Under a variant with no shipped count it bids as ``heuristic``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.count import KINDS, N_VARIANTS, NEVER, VARIANTS, kind_masks, load_counts
from ...core.layout import MOON, PASS, R_ROUND_POINTS
from ..bits import popcount
from ..borrow import NO_REFCOUNT
from . import heuristic
from .equity import situation

_MAX_POINTS = 7  # the most points at stake under any rules: the arrays below are padded to it
_MAX_BANDS = 6  # the most score bands a count may have


def _arrays() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    weights = np.zeros((N_VARIANTS, len(KINDS)), dtype=np.int64)
    needs = np.full((N_VARIANTS, _MAX_BANDS, _MAX_BANDS, 4, 2 * _MAX_POINTS + 1, _MAX_POINTS + 2), NEVER,
                    dtype=np.int64)
    bands = np.full((N_VARIANTS, _MAX_BANDS - 1), NEVER, dtype=np.int64)  # NEVER: no such band
    have = np.zeros(N_VARIANTS, dtype=np.int64)
    try:
        shipped = load_counts()
    except Exception:  # noqa: BLE001 -- no count shipped: the player bids as heuristic
        shipped = {}
    for v, name in enumerate(VARIANTS):
        if name in shipped:
            rule = shipped[name]
            m = rule.rules.max_points
            n = len(rule.bands) + 1
            if n > _MAX_BANDS:
                continue
            weights[v] = rule.weights
            bands[v, : n - 1] = rule.bands
            needs[v, :n, :n, :, : 2 * m + 1, : m + 1] = rule.needs[..., : m + 1]
            needs[v, :n, :n, :, : 2 * m + 1, _MAX_POINTS + 1] = rule.needs[..., m + 1]  # the moon in the last slot
            have[v] = 1
    return weights, needs, bands, have


WEIGHTS, NEEDS, BANDS, HAVE = _arrays()
KIND_MASKS = np.stack([kind_masks(t) for t in range(4)])  # [suit, kind]


@njit(cache=True)
def hand_count(hand, variant):
    """The count of ``hand`` under the weights of ``variant`` (0 default, 1 round points) and its best suit."""
    best = -NEVER
    best_suit = 0
    for t in range(4):
        points = 0
        for k in range(KIND_MASKS.shape[1]):
            points += popcount(hand & KIND_MASKS[t, k]) * WEIGHTS[variant, k]
        if points > best:
            best = points
            best_suit = t
    return best, best_suit


@njit(cache=True)
def band(variant, score):
    """The score band of a team's score under the count of ``variant``."""
    b = 0
    for i in range(BANDS.shape[1]):
        if score >= BANDS[variant, i]:
            b += 1
    return b


@njit(cache=True, **NO_REFCOUNT)
def bid(state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must, rules, max_points):
    """The count's call (module docstring); the arguments are those of
    :func:`smear_sim.kernels.players.choose_bid`."""
    variant = rules[R_ROUND_POINTS]
    if HAVE[variant] == 0:
        return heuristic.bid(state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must, rules,
                             max_points)
    points = hand_count(hand, variant)[0]
    need = NEEDS[variant, band(variant, us), band(variant, them), n_calls, situation(calls, n_calls)]
    chosen = -1
    lowest = -1
    if not must:
        lowest = PASS
        if need[0] <= points:
            chosen = PASS
    for b in range(low, high + 1):
        if lowest == -1:
            lowest = b
        if need[b] <= points:
            chosen = b
    if moon_ok:
        if lowest == -1:
            lowest = MOON
        if need[_MAX_POINTS + 1] <= points:
            chosen = MOON
    if chosen == -1:
        return PASS if lowest == -1 else lowest
    return chosen


# The decisions this player makes (core.players.PLAYERS), as the dispatch calls them (kernels.players.bids.dispatcher):
# each the function and the dispatch's arguments it takes, in order.
_BID = ("state", "hand", "seat", "dealer", "calls", "n_calls", "us", "them", "low", "high", "moon_ok", "must", "rules",
        "max_points")
DECISIONS = {"bid": (bid, _BID)}
