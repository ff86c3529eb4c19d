"""``equity``: a bidder that calls whatever wins the most games, from tables measured beforehand.

It plays cards, names trump and discards exactly like ``heuristic``; only its calls differ. Each call is decided
at kernel speed from two tables it carries (the ``bidder_arrays``, :mod:`smear_sim.core.bidder` says how they are made,
shipped and cached):

- **Outcome tables.** For each place in the auction (opener, second, third, dealer), each situation there (no
  call yet, or a number b standing, called by the partner or by an opponent), each hand-strength bucket and each
  legal call, the distribution of the hand's outcome seen from the caller's team (layout ``OUT_*``: which side
  ended up bidding, the bidding team's score change and the other team's points, or the moon made or failed).
  They were measured by playing every legal call on the same deals (later seats calling by this policy, the hand
  played out), with all four seats playing ``equity``, at 0-0.
- **The match-equity table** of ``equity`` against itself: P(win the game) from every score and dealer.

The decision rule: for each legal call c, ``win(c) = sum over outcomes o of P(o | place, situation, bucket, c) *
W(state after o)``, where W is the equity table read at the score the outcome leaves from the current score
(1 or 0 where the game ends); the bidder makes the call of highest ``win(c)``, the earliest of pass, the numbers
from low to high and moon among equal ones. So it is score-aware through W and auction-aware through the
tables. Where its bucket's cell holds fewer than the tables' minimum count of decisions (rare hands in rare
situations), it calls as ``heuristic`` does. With a margin (header ``BM_MARGIN``;
:data:`smear_sim.core.bidder.MARGIN`; 0 as shipped) it keeps the heuristic's call unless another call's P(win)
beats it by more than the margin, against the tables' noise, which flatters some call in every cell.

**Settled calls** (header ``BM_KEEP_Z``, :mod:`smear_sim.core.bidder`): where the tables name the call each cell
settled on while they were made, the bidder keeps that call unless the best call's P(win) beats it by more than
``keep_z`` standard errors of their difference, each call's SE being the spread of its outcomes' P(win) over the
cell's decisions; a cell with no settled call is left to the heuristic. That is the rule the iteration settled
the cells by, so at 0-0 the bidder makes the tables' own calls.

The hand-strength bucket is the hand's class (:mod:`smear_sim.kernels.classes`) mapped to the points the class
wins on average as an unopposed declarer, in 32 equal steps from the weakest class to the strongest
(:func:`smear_sim.analysis.positions.strength_buckets`).

The tables are measured at 0-0, so at another score the bidder reads the equity table at the real score (exact
for its own call) but takes the others to answer as they would at 0-0; ``benchmarks/equity_bidder.py`` measures
what that costs the equity table.
"""

from __future__ import annotations

import math

from numba import njit

from ...core.layout import (
    BM_BUCKETS,
    BM_KEEP_Z,
    BM_LOADED,
    BM_MARGIN,
    BM_MIN_COUNT,
    BM_SOLVE_FLOOR,
    MOON,
    PASS,
    R_TARGET,
)
from ..borrow import NO_REFCOUNT
from ..classes import hand_class
from ..equity import outcome_win
from . import heuristic


@njit(cache=True, inline="always")
def situation(calls, n_calls):
    """The situation index of the seat after ``calls[:n_calls]`` (layout, "The auction seen from one seat"):
    0 with no number standing, else ``2b - 1`` for a number b called by the partner and ``2b`` by an opponent."""
    highest = 0
    by = -1
    for i in range(n_calls):
        if calls[i] != PASS:
            highest = calls[i]
            by = i
    if highest == 0:
        return 0
    return 2 * highest - 1 + ((n_calls - by) & 1)


@njit(cache=True, inline="always")
def call_win(bidder_arrays, cell, us, them, next_dealer, target):
    """P(win the game) of one call: its outcome distribution (cell ``cell``) weighed by the equity table."""
    _, _, cell_start, _, codes, weights, grid, _ = bidder_arrays[:8]
    floor = bidder_arrays[0][BM_SOLVE_FLOOR]
    win = 0.0
    for k in range(cell_start[cell], cell_start[cell + 1]):
        win += weights[k] * outcome_win(grid, floor, target, us, them, next_dealer, codes[k])
    return win


@njit(cache=True)
def call_spread(bidder_arrays, cell, us, them, next_dealer, target):
    """The variance of one call's P(win the game) over its outcome distribution (cell ``cell``)."""
    _, _, cell_start, _, codes, weights, grid, _ = bidder_arrays[:8]
    floor = bidder_arrays[0][BM_SOLVE_FLOOR]
    win = 0.0
    square = 0.0
    for k in range(cell_start[cell], cell_start[cell + 1]):
        value = outcome_win(grid, floor, target, us, them, next_dealer, codes[k])
        win += weights[k] * value
        square += weights[k] * value * value
    return max(square - win * win, 0.0)


@njit(cache=True)
def slot_of(call, max_points):
    """The call slot of a call: 0 for pass, the number, ``max_points + 1`` for the moon."""
    if call == PASS:
        return 0
    return max_points + 1 if call == MOON else call


@njit(cache=True)
def call_of(slot, max_points):
    """The call of a call slot (the inverse of :func:`slot_of`)."""
    if slot == 0:
        return PASS
    return MOON if slot == max_points + 1 else slot


@njit(cache=True, **NO_REFCOUNT)
def bid(bidder_arrays, state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must, rules, max_points):
    """The call of highest P(win the game) (module docstring); the arguments are those of
    :func:`smear_sim.kernels.players.choose_bid`, with ``bidder_arrays`` the bidder's tables."""
    header, bucket_of_class, _, cell_n, _, _, _, settled = bidder_arrays[:8]
    decision = -1
    if header[BM_LOADED] == 1:
        decision = (n_calls * (2 * max_points + 1) + situation(calls, n_calls)) * header[BM_BUCKETS]
        decision += bucket_of_class[hand_class(hand)]
    if decision < 0 or cell_n[decision] < header[BM_MIN_COUNT] or (header[BM_KEEP_Z] > 0 and settled[decision] < 0):
        return heuristic.bid(state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must, rules,
                             max_points)
    n_slots = max_points + 2
    next_dealer = 1 if n_calls & 1 else 0  # the opener deals the next hand: this seat's team when even
    target = rules[R_TARGET]
    best = -1
    best_win = -1.0
    if not must:
        best = PASS
        best_win = call_win(bidder_arrays, decision * n_slots, us, them, next_dealer, target)
    for b in range(low, high + 1):
        win = call_win(bidder_arrays, decision * n_slots + b, us, them, next_dealer, target)
        if win > best_win:
            best, best_win = b, win
    if moon_ok:
        win = call_win(bidder_arrays, decision * n_slots + max_points + 1, us, them, next_dealer, target)
        if win > best_win:
            best, best_win = MOON, win
    keep = settled[decision]
    if header[BM_KEEP_Z] > 0:  # the settled call stands unless another clearly wins more games
        legal = (keep == 0 and not must) or low <= keep <= high or (keep == max_points + 1 and moon_ok)
        best_slot = slot_of(best, max_points)
        if legal and keep != best_slot:
            keep_cell = decision * n_slots + keep
            best_cell = decision * n_slots + best_slot
            se = math.sqrt((call_spread(bidder_arrays, keep_cell, us, them, next_dealer, target) +
                            call_spread(bidder_arrays, best_cell, us, them, next_dealer, target)) / cell_n[decision])
            if best_win <= call_win(bidder_arrays, keep_cell, us, them, next_dealer, target) + header[BM_KEEP_Z] * 1e-2 * se:
                return call_of(keep, max_points)
    if header[BM_MARGIN] > 0:  # keep the heuristic's call unless the tables clearly prefer another
        usual = heuristic.bid(state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must, rules,
                              max_points)
        slot = slot_of(usual, max_points)
        if best_win < call_win(bidder_arrays, decision * n_slots + slot, us, them, next_dealer, target) + \
                header[BM_MARGIN] * 1e-4:
            return usual
    return best


# The decisions this player makes (core.players.PLAYERS), as the dispatch calls them (kernels.players.bids.dispatcher):
# each the function and the dispatch's arguments it takes, in order.
_BID = ("bidder_arrays", "state", "hand", "seat", "dealer", "calls", "n_calls", "us", "them", "low", "high", "moon_ok", "must",
        "rules", "max_points")
DECISIONS = {"bid": (bid, _BID)}
