"""Outcome codes of a hand (layout ``OUT_*``): which side bid, the bidding team's score change and the other team's
points, or the moon made or failed. The drivers count them; :mod:`smear_sim.kernels.equity` turns one into the game
after the hand; the expert player (:mod:`smear_sim.kernels.players.expert`) values the outcomes of its searches by
them, and the hint (:mod:`smear_sim.kernels.drivers.decisions`) the lines of its solver."""

from __future__ import annotations

from numba import njit

from ..core.layout import (
    MOON,
    OUT_MAX,
    OUT_MOON_FAILED,
    OUT_MOON_MADE,
    OUT_NUMERIC,
    OUT_THROWN_IN,
    R_POINTS_AT_STAKE,
    R_TARGET,
    REC_BID,
    REC_BIDDER,
    REC_DELTA,
    REC_MOON,
    REC_POINTS,
    ST_BID,
    ST_BIDDER,
)
from .scoring import score_state
from .solver import play_line

__all__ = ["line_outcome", "numeric_code", "outcome_code", "value_outcome"]


@njit(cache=True, inline="always")
def numeric_code(side, delta, other):
    """The code of a bid made or set: the bidding team (``side`` 0: the team the code is seen from) changed its
    score by ``delta`` and the other team won ``other`` points."""
    return OUT_NUMERIC + (side * (2 * OUT_MAX + 1) + delta + OUT_MAX) * (OUT_MAX + 1) + other


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
    return numeric_code(side, rec[REC_DELTA + team], other_points)


@njit(cache=True)
def value_outcome(v, bidder, bid, team, rules):
    """The outcome code (seen from ``team``) of a hand whose solver value is ``v``, or -1 when more than one
    outcome has that value (then the line must be played out)."""
    side = 0 if (bidder & 1) == team else 1
    if bid == MOON:
        if v == rules[R_TARGET]:
            return OUT_MOON_MADE + side * (OUT_MAX + 1)  # a moon made leaves the other team no point
        return OUT_MOON_FAILED + side
    n_points = rules[R_POINTS_AT_STAKE]
    found = -1
    for won in range(n_points + 1):
        for other in range(n_points + 1 - won):
            delta = won if won >= bid else -bid
            if delta - other != v:
                continue
            code = numeric_code(side, delta, other)
            if found >= 0 and code != found:
                return -1
            found = code
    return found


@njit(cache=True)
def line_outcome(solver, st, v, rules, rec, team):
    """The outcome code (seen from ``team``) of the hand at ``st``, a position of the solver's last solve (valuing
    points) whose value is ``v``: from the value when only one outcome has it, else by playing a line of perfect
    play to the end (``st`` changed) and scoring it into ``rec``."""
    code = value_outcome(v, st[ST_BIDDER], st[ST_BID], team, rules)
    if code < 0:
        play_line(solver, st, rules, v)
        rec[REC_BIDDER] = st[ST_BIDDER]
        rec[REC_BID] = st[ST_BID]
        score_state(st, rules, rec)
        code = outcome_code(rec, team)
    return code
