"""Outcome codes of a hand (layout ``OUT_*``): which side bid, the bidding team's score change and the other team's
points, or the moon made or failed. The drivers count them; :mod:`smear_sim.kernels.equity` turns one into the game
after the hand; the search player (:mod:`smear_sim.kernels.players.expert`) values its solver's lines by them."""

from __future__ import annotations

from numba import njit

from ..core.layout import (
    MOON,
    OUT_MAX,
    OUT_MOON_FAILED,
    OUT_MOON_MADE,
    OUT_NUMERIC,
    OUT_THROWN_IN,
    R_ROUND_POINTS,
    R_TARGET,
    REC_BID,
    REC_BIDDER,
    REC_DELTA,
    REC_MOON,
    REC_POINTS,
)

__all__ = ["outcome_code", "value_outcome"]


@njit(cache=True)
def outcome_code(rec, dealer_team):
    """The hand's outcome code (layout ``OUT_*``), seen from the dealing team."""
    bidder = rec[REC_BIDDER]
    if bidder < 0:
        return OUT_THROWN_IN
    team = bidder & 1
    side = 0 if team == dealer_team else 1
    other_points = rec[REC_POINTS + 1 - team]
    if rec[REC_BID] == MOON:
        if rec[REC_MOON] == 1:
            return OUT_MOON_MADE + side * (OUT_MAX + 1) + other_points
        return OUT_MOON_FAILED + side
    delta = rec[REC_DELTA + team]
    return OUT_NUMERIC + (side * (2 * OUT_MAX + 1) + delta + OUT_MAX) * (OUT_MAX + 1) + other_points


@njit(cache=True)
def value_outcome(v, bidder, bid, team, rules):
    """The outcome code (seen from ``team``) of a hand whose solver value is ``v``, or -1 when more than one
    outcome has that value (then the line must be played out)."""
    side = 0 if (bidder & 1) == team else 1
    if bid == MOON:
        if v == rules[R_TARGET]:
            return OUT_MOON_MADE + side * (OUT_MAX + 1)  # a moon made leaves the other team no point
        return OUT_MOON_FAILED + side
    n_points = 7 if rules[R_ROUND_POINTS] == 1 else 4
    found = -1
    for won in range(n_points + 1):
        for other in range(n_points + 1 - won):
            delta = won if won >= bid else -bid
            if delta - other != v:
                continue
            code = OUT_NUMERIC + (side * (2 * OUT_MAX + 1) + delta + OUT_MAX) * (OUT_MAX + 1) + other
            if found >= 0 and code != found:
                return -1
            found = code
    return found
