"""The seat's view as a tensor, compiled twin: :func:`write_view_tensor` over the kernels' hand state.

The layout is :mod:`smear_sim.core.view_layout`, and the readable form
:func:`smear_sim.reference.view_tensor.view_tensor`; the tests hold the two to the same bytes at every decision.

A hand state (:mod:`smear_sim.kernels.state`) holds every seat's cards, so this function reads, for the seat, only
what :mod:`smear_sim.kernels.state` lists as what a seat knows: its own hand (``ST_HANDS + seat``), its own
``ST_KNOWN`` (so its own discards), the public fields (the calls, the dealer, bidder, bid, trump, the cards each seat
played, the trick in progress, the tricks each team took, the voids shown, the scores before the hand), and the
kitty only when the seat is the bidder. Nothing else of the state is read.

The state reaches the function at any decision:

- **the calls, trump and the keeps**: :func:`before_play_state` writes a state of the hand before play from what the
  auction and the deal give (the seat's cards: its 9 for a call, what it holds for trump and its keep);
- **a card**: the hand state the card play runs on, as it stands; where the hand was played by
  :func:`smear_sim.kernels.hand.play_contract` (which leaves the auction out of the state), :func:`set_auction`
  writes the calls in first.

The stage is read from the state: no bidder yet is the auction, no trump is trump to name, a seat holding more than
its six (counting those it played) has its keep to make, and the rest is play.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.cards import DECK_SIZE
from ...core.layout import (
    N_BID_CODES,
    N_POINTS,
    R_FORCED_BID,
    R_HIGH,
    R_LOW,
    R_LOW_TO,
    R_MIN_BID,
    R_MISDEAL,
    R_MOON,
    R_MOON_REQUIRES,
    R_POINTS_AT_STAKE,
    R_ROUND_POINTS,
    R_TARGET,
    R_TRUMP_ANYTIME,
    REC_AWARDS,
    REC_CARD_POINTS,
    REC_DELTA,
    ST_BEFORE,
    ST_BID,
    ST_BIDDER,
    ST_CALLS,
    ST_DEALER,
    ST_HANDS,
    ST_KNOWN,
    ST_LEADER,
    ST_LED_SUIT,
    ST_N_CALLS,
    ST_PLAYED,
    ST_TAKEN,
    ST_TRICK,
    ST_TRUMP,
    ST_VOIDS,
    ST_WIN_CARD,
    ST_WIN_KEY,
    ST_WIN_SEAT,
)
from ...core.view_layout import (
    CARD_POINTS_SCALE,
    DECISION_CALL,
    DECISION_CARD,
    DECISION_KEEP,
    DECISION_TRUMP,
    TARGET_SCALE,
    VR_FORCED_BID,
    VR_HIGH_HIGHEST,
    VR_LOW_LOWEST,
    VR_LOW_TO_TAKER,
    VR_MIN_BID,
    VR_MISDEAL,
    VR_MOON,
    VR_MOON_IN_PLAY,
    VR_POINTS_AT_STAKE,
    VR_ROUND_POINTS,
    VR_TARGET,
    VR_TRUMP_ANYTIME,
    VT_CALLS,
    VT_CARD_POINTS,
    VT_CONTRACT,
    VT_DEALER,
    VT_DECISION,
    VT_DECLARER,
    VT_DISCARDS,
    VT_HAND,
    VT_KITTY,
    VT_LEADER,
    VT_LED_SUIT,
    VT_PLAYED,
    VT_POINTS,
    VT_RULES,
    VT_SCORES,
    VT_TAKEN,
    VT_TRICK,
    VT_TRUMP,
    VT_VOIDS,
)
from ..bits import ONE, ZERO, lowest_card, popcount
from ..borrow import NO_REFCOUNT, REFCOUNTED
from ..scoring import award_points
from ..state import mask_at

__all__ = ["VIEW_WORK_SIZE", "before_play_state", "new_work", "set_auction", "write_view_tensor"]

# The scratch ``work`` of write_view_tensor: the hand record's fields that scoring.award_points writes (awards, card
# points and points), which end where REC_DELTA starts.
VIEW_WORK_SIZE = REC_DELTA


@njit(cache=True, **REFCOUNTED)
def new_work():
    """A scratch array for :func:`write_view_tensor`, made once per thread."""
    return np.zeros(VIEW_WORK_SIZE, dtype=np.int64)


@njit(cache=True, **NO_REFCOUNT)
def set_auction(hs, dealer, calls, n_calls):
    """Write the auction (the dealer and the first ``n_calls`` of ``calls``, opener first) into the hand state."""
    hs[ST_DEALER] = dealer
    hs[ST_N_CALLS] = n_calls
    for i in range(n_calls):
        hs[ST_CALLS + i] = calls[i]


@njit(cache=True, **NO_REFCOUNT)
def before_play_state(hs, seat, held, dealer, calls, n_calls, score0, score1, bidder, bid, trump):
    """Write into ``hs`` the hand before play as ``seat`` sees it: it holds ``held`` (its 9 for a call; for trump and
    its keep, its 9 and the kitty's 4 when it is the bidder), the first ``n_calls`` calls are made, ``bidder`` is -1
    during the auction and ``trump`` -1 until named. The other seats' cards are left empty."""
    for k in range(len(hs)):
        hs[k] = 0
    hs[ST_HANDS + seat] = np.int64(held)
    hs[ST_KNOWN + seat] = np.int64(held)
    hs[ST_LEADER] = bidder
    hs[ST_LED_SUIT] = -1
    hs[ST_WIN_SEAT] = -1
    hs[ST_WIN_CARD] = -1
    hs[ST_WIN_KEY] = -1
    hs[ST_TRUMP] = trump
    hs[ST_BIDDER] = bidder
    hs[ST_BID] = bid
    hs[ST_BEFORE] = score0
    hs[ST_BEFORE + 1] = score1
    set_auction(hs, dealer, calls, n_calls)


@njit(cache=True, inline="always")
def _cards(out, offset, mask):
    """Set ``out[offset + card]`` for each card in ``mask``."""
    m = mask
    while m:
        out[offset + lowest_card(m)] = 1.0
        m &= m - ONE


@njit(cache=True, **NO_REFCOUNT)
def write_view_tensor(out, hs, seat, kitty, rules, work):
    """Write ``seat``'s view tensor (layout :mod:`smear_sim.core.view_layout`) of the hand state ``hs`` into the
    ``float32`` array ``out``. ``kitty`` is the kitty's mask, read only when the seat is the bidder (so a caller may
    pass the kitty whoever is to act, or ZERO); ``work`` is scratch (:func:`new_work`). Returns the decision code."""
    for k in range(len(out)):
        out[k] = 0.0
    team = seat & 1
    bidder = hs[ST_BIDDER]
    t = hs[ST_TRUMP]
    hand = mask_at(hs, ST_HANDS + seat)
    mine_played = mask_at(hs, ST_PLAYED + seat)
    if bidder < 0:
        decision = DECISION_CALL
    elif t < 0:
        decision = DECISION_TRUMP
    elif popcount(hand) + popcount(mine_played) > 6:
        decision = DECISION_KEEP
    else:
        decision = DECISION_CARD
    out[VT_DECISION + decision] = 1.0

    _cards(out, VT_HAND, hand)
    if bidder == seat:
        _cards(out, VT_KITTY, kitty)
    if decision == DECISION_CARD:
        _cards(out, VT_DISCARDS, mask_at(hs, ST_KNOWN + seat) & ~(hand | mine_played))

    dealer = hs[ST_DEALER]
    out[VT_DEALER + (dealer - seat) % 4] = 1.0
    for i in range(hs[ST_N_CALLS]):
        caller = (dealer + 1 + i) % 4
        out[VT_CALLS + ((caller - seat) % 4) * N_BID_CODES + hs[ST_CALLS + i]] = 1.0
    if bidder >= 0:
        out[VT_DECLARER + (bidder - seat) % 4] = 1.0
        out[VT_CONTRACT + hs[ST_BID]] = 1.0
    if t >= 0:
        out[VT_TRUMP + t] = 1.0

    if decision == DECISION_CARD:
        out[VT_LEADER + (hs[ST_LEADER] - seat) % 4] = 1.0
        if hs[ST_LED_SUIT] >= 0:
            out[VT_LED_SUIT + hs[ST_LED_SUIT]] = 1.0
        trick = mask_at(hs, ST_TRICK)
        done0 = ZERO
        done1 = ZERO
        for s in range(4):
            r = (s - seat) % 4
            played = mask_at(hs, ST_PLAYED + s)
            _cards(out, VT_PLAYED + r * DECK_SIZE, played)
            _cards(out, VT_TRICK + r * DECK_SIZE, played & trick)
            for suit in range(4):
                if (hs[ST_VOIDS] >> (4 * s + suit)) & 1 == 1:
                    out[VT_VOIDS + r * 4 + suit] = 1.0
            if s & 1 == 0:
                done0 |= played & ~trick
            else:
                done1 |= played & ~trick
        taken0 = mask_at(hs, ST_TAKEN)
        taken1 = mask_at(hs, ST_TAKEN + 1)
        _cards(out, VT_TAKEN + team * DECK_SIZE, taken0)
        _cards(out, VT_TAKEN + (1 - team) * DECK_SIZE, taken1)
        # The points as the completed tricks alone would score them: the hand's own scoring over those tricks.
        award_points(work, rules, t, done0, done1, taken0, taken1)
        for i in range(N_POINTS):
            winner = work[REC_AWARDS + i]
            if winner >= 0:
                out[VT_POINTS + ((winner - team) % 2) * N_POINTS + i] = 1.0
        for side in range(2):
            out[VT_CARD_POINTS + (side - team) % 2] = np.float32(work[REC_CARD_POINTS + side] / CARD_POINTS_SCALE)

    target = rules[R_TARGET]
    for side in range(2):
        out[VT_SCORES + (side - team) % 2] = np.float32(hs[ST_BEFORE + side] / target)
    out[VT_RULES + VR_ROUND_POINTS] = rules[R_ROUND_POINTS]
    out[VT_RULES + VR_HIGH_HIGHEST] = rules[R_HIGH]
    out[VT_RULES + VR_LOW_LOWEST] = rules[R_LOW]
    out[VT_RULES + VR_LOW_TO_TAKER] = rules[R_LOW_TO]
    out[VT_RULES + VR_FORCED_BID + rules[R_FORCED_BID]] = 1.0
    out[VT_RULES + VR_MOON] = rules[R_MOON]
    out[VT_RULES + VR_MOON_IN_PLAY] = rules[R_MOON_REQUIRES]
    out[VT_RULES + VR_TRUMP_ANYTIME] = rules[R_TRUMP_ANYTIME]
    out[VT_RULES + VR_MISDEAL] = rules[R_MISDEAL]
    out[VT_RULES + VR_TARGET] = np.float32(target / TARGET_SCALE)
    out[VT_RULES + VR_MIN_BID] = np.float32(rules[R_MIN_BID] / 7.0)
    out[VT_RULES + VR_POINTS_AT_STAKE] = np.float32(rules[R_POINTS_AT_STAKE] / 7.0)
    return decision
