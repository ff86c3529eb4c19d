"""Scoring a played hand in Numba: which team wins each point, the bid result, the moon and the game end.

The hand kernel scores every simulated hand with these, and the solver scores the end of every line it
searches with them, so the two cannot disagree. They mirror ``reference.hand.award_points`` and
``score_hand`` rule for rule (the tests hold them to it).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.layout import (
    MOON,
    PASS,
    R_HIGH,
    R_LOW,
    R_LOW_TO,
    R_MOON_REQUIRES,
    R_POINTS_AT_STAKE,
    R_TARGET,
    REC_AWARDS,
    REC_CARD_POINTS,
    REC_DELTA,
    REC_MADE,
    REC_MOON,
    REC_POINTS,
    REC_WINNER,
    ST_BEFORE,
    ST_BID,
    ST_BIDDER,
    ST_PLAYED,
    ST_TAKEN,
    ST_TRUMP,
)
from ..core.tables import P_GAME, P_HIGH, P_JACK, P_JICK, P_LOW, TABLES
from .bits import has, popcount
from .borrow import NO_REFCOUNT
from .state import mask_at

_TRUMP_CARDS = TABLES.trump_cards
_POINT_CARDS = TABLES.point_cards
_SCORING_RANKS = np.flatnonzero(TABLES.rank_points)  # the ranks that carry card points: 10 J Q K A
_SCORING_RANK_MASKS = TABLES.rank_masks[_SCORING_RANKS]
_SCORING_POINTS = TABLES.rank_points[_SCORING_RANKS]


@njit(cache=True, inline="always")
def _team_holding(c, mask0, mask1):
    if c < 0:
        return -1
    if has(mask0, c):
        return 0
    if has(mask1, c):
        return 1
    return -1


@njit(cache=True, inline="always")
def card_points(mask):
    """The card points (for Game) of the cards in ``mask``."""
    total = 0
    for i in range(len(_SCORING_POINTS)):
        total += _SCORING_POINTS[i] * popcount(mask & _SCORING_RANK_MASKS[i])
    return total


@njit(cache=True)
def award_points(rec, rules, t, played0, played1, taken0, taken1):
    """Write each point's team (-1 nobody) and both teams' card points; return points won per team."""
    played = played0 | played1
    if rules[R_HIGH] == 0:
        high = _team_holding(_POINT_CARDS[t, P_HIGH], played0, played1)
    else:
        high = -1
        for i in range(16):
            c = _TRUMP_CARDS[t, i]
            if has(played, c):
                high = _team_holding(c, played0, played1)
                break
    low_card = -1
    if rules[R_LOW] == 0:
        low_card = _POINT_CARDS[t, P_LOW]
    else:
        for i in range(15, -1, -1):
            if has(played, _TRUMP_CARDS[t, i]):
                low_card = _TRUMP_CARDS[t, i]
                break
    if rules[R_LOW_TO] == 0:
        low = _team_holding(low_card, played0, played1)
    else:
        low = _team_holding(low_card, taken0, taken1)
    points0 = card_points(taken0)
    points1 = card_points(taken1)
    rec[REC_CARD_POINTS] = points0
    rec[REC_CARD_POINTS + 1] = points1
    rec[REC_AWARDS + P_HIGH] = high
    rec[REC_AWARDS + P_LOW] = low
    rec[REC_AWARDS + P_JACK] = _team_holding(_POINT_CARDS[t, P_JACK], taken0, taken1)
    rec[REC_AWARDS + P_GAME] = -1 if points0 == points1 else (0 if points0 > points1 else 1)
    n_points = rules[R_POINTS_AT_STAKE]  # the first n_points of POINT_NAMES (Rules.points)
    for i in range(P_JICK, 7):  # the jick and the jokers, when at stake, go with the tricks that hold them
        rec[REC_AWARDS + i] = _team_holding(_POINT_CARDS[t, i], taken0, taken1) if i < n_points else -1
    won0 = 0
    won1 = 0
    for i in range(n_points):
        if rec[REC_AWARDS + i] == 0:
            won0 += 1
        elif rec[REC_AWARDS + i] == 1:
            won1 += 1
    rec[REC_POINTS] = won0
    rec[REC_POINTS + 1] = won1
    return n_points


@njit(cache=True)
def moon_succeeded(rec, rules, team, n_points):
    """Whether ``team`` won every point the moon requires (all at stake, or all that someone won)."""
    for i in range(n_points):
        winner = rec[REC_AWARDS + i]
        if winner != team and (rules[R_MOON_REQUIRES] == 0 or winner >= 0):
            return False
    return True


@njit(cache=True)
def settle(rec, rules, bidder, bid, n_points, before0, before1):
    """Bid result, moon, score changes and game end, from the awards already written."""
    team = bidder & 1
    other = 1 - team
    before = (before0, before1)
    delta_team = 0
    delta_other = rec[REC_POINTS + other]
    winner = -1
    if bid == MOON:
        made = moon_succeeded(rec, rules, team, n_points)
        rec[REC_MOON] = 1 if made else 0
        if made and before[team] < 0:
            delta_team = -before[team]
        elif made:
            winner = team
        else:
            winner = other
    else:
        rec[REC_MOON] = -1
        made = rec[REC_POINTS + team] >= bid
        delta_team = rec[REC_POINTS + team] if made else -bid
    rec[REC_MADE] = 1 if made else 0
    rec[REC_DELTA + team] = delta_team
    rec[REC_DELTA + other] = delta_other
    if winner < 0:
        if made and before[team] + delta_team >= rules[R_TARGET]:
            winner = team
        elif before[other] + delta_other >= rules[R_TARGET]:
            winner = other
    rec[REC_WINNER] = winner


@njit(cache=True, inline="always")
def hand_value(rec, rules, bidder, bid):
    """What a scored hand (``rec``) is worth to the bidding team: the objective of search.

    The bidding team's score change minus the other team's; on a moon hand +target for a success and
    -target for a failure; in hand analysis (``bid`` PASS: no bid was made) the bidding team's points minus
    the other team's.
    """
    team = bidder & 1
    if bid == MOON:
        return rules[R_TARGET] if rec[REC_MOON] == 1 else -rules[R_TARGET]
    if bid == PASS:
        return rec[REC_POINTS + team] - rec[REC_POINTS + 1 - team]
    return rec[REC_DELTA + team] - rec[REC_DELTA + 1 - team]


@njit(cache=True, **NO_REFCOUNT)
def score_state(hs, rules, rec, base=0):
    """Score a finished hand state (:mod:`smear_sim.kernels.state`, starting at ``base`` in ``hs``) into
    ``rec``: the awards and points, and when a bid was made the settlement with the scores before the hand.
    Returns its :func:`hand_value`."""
    t = hs[base + ST_TRUMP]
    bidder = hs[base + ST_BIDDER]
    bid = hs[base + ST_BID]
    played0 = mask_at(hs, base + ST_PLAYED) | mask_at(hs, base + ST_PLAYED + 2)
    played1 = mask_at(hs, base + ST_PLAYED + 1) | mask_at(hs, base + ST_PLAYED + 3)
    n_points = award_points(rec, rules, t, played0, played1, mask_at(hs, base + ST_TAKEN),
                            mask_at(hs, base + ST_TAKEN + 1))
    if bid == PASS:  # analysis: the caller evaluates every bid from the points
        rec[REC_MOON] = 1 if moon_succeeded(rec, rules, bidder & 1, n_points) else 0
    else:
        settle(rec, rules, bidder, bid, n_points, hs[base + ST_BEFORE], hs[base + ST_BEFORE + 1])
    return hand_value(rec, rules, bidder, bid)
