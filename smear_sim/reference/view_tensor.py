"""The seat's view as a tensor, readable form: :func:`view_tensor` over a :class:`~smear_sim.reference.view.SeatView`.

The layout is :mod:`smear_sim.core.view_layout` (docs/learned.md says what each field holds and why). This form
reads the reference engine's seat view, which holds only what the seat can see, and is written for clarity; the
kernels' twin, :func:`smear_sim.kernels.net.tensor.write_view_tensor`, must give the same bytes (the tests hold
them to each other).
"""

from __future__ import annotations

import numpy as np

from ..core.calls import parse_call
from ..core.cards import DECK_SIZE
from ..core.layout import N_BID_CODES, N_POINTS
from ..core.rules import ForcedBid, High, Low, LowTo, MoonRequires, Rules
from ..core.tables import POINT_NAMES
from ..core.view_layout import (
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
    VR_SIZE,
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
    VT_SIZE,
    VT_TAKEN,
    VT_TRICK,
    VT_TRUMP,
    VT_VOIDS,
)
from .hand import award_points, effective_suit, seat_of_bid, team_of
from .view import SeatView

__all__ = ["rules_block", "view_decision", "view_tensor"]

_POINT_INDEX = {name: i for i, name in enumerate(POINT_NAMES)}


def view_decision(view: SeatView) -> int:
    """The stage of the hand the view is at, as a ``DECISION_*`` code: the auction, trump to name, the keeps, play.
    (Unlike :func:`~smear_sim.reference.view.decision_of` it does not ask whose turn it is.)"""
    if not view.auction_over:
        return DECISION_CALL
    if view.trump is None:
        return DECISION_TRUMP
    if view.discards is None:
        return DECISION_KEEP
    return DECISION_CARD


def rules_block(rules: Rules) -> np.ndarray:
    """The rules field (``VR_*`` entries) of a tensor under ``rules``."""
    block = np.zeros(VR_SIZE, dtype=np.float32)
    block[VR_ROUND_POINTS] = rules.round_points
    block[VR_HIGH_HIGHEST] = rules.high is High.HIGHEST
    block[VR_LOW_LOWEST] = rules.low is Low.LOWEST
    block[VR_LOW_TO_TAKER] = rules.low_to is LowTo.TAKER
    block[VR_FORCED_BID + list(ForcedBid).index(rules.forced_bid)] = 1
    block[VR_MOON] = rules.moon
    block[VR_MOON_IN_PLAY] = rules.moon_requires is MoonRequires.IN_PLAY
    block[VR_TRUMP_ANYTIME] = rules.trump_anytime
    block[VR_MISDEAL] = rules.misdeal
    block[VR_TARGET] = np.float32(rules.target / TARGET_SCALE)
    block[VR_MIN_BID] = np.float32(rules.min_bid / 7.0)
    block[VR_POINTS_AT_STAKE] = np.float32(rules.max_points / 7.0)
    return block


def view_tensor(view: SeatView) -> np.ndarray:
    """The tensor of ``view`` (layout :mod:`smear_sim.core.view_layout`), a new ``float32`` array of ``VT_SIZE``."""
    out = np.zeros(VT_SIZE, dtype=np.float32)
    rules, seat = view.rules, view.seat

    def rel(other: int) -> int:
        return (other - seat) % 4

    def rel_team(team: int) -> int:
        return (team - team_of(seat)) % 2

    decision = view_decision(view)
    out[VT_DECISION + decision] = 1

    play = view.play if decision == DECISION_CARD else None
    if play is not None:
        held = play.held
    elif decision == DECISION_CALL:
        held = view.hand
    else:
        held = view.held_before_play
    for c in held:
        out[VT_HAND + c] = 1
    if view.kitty is not None and view.bidder == seat:
        for c in view.kitty:
            out[VT_KITTY + c] = 1
    if play is not None and view.discards is not None:
        for c in view.discards:
            out[VT_DISCARDS + c] = 1

    out[VT_DEALER + rel(view.dealer)] = 1
    for position, call in enumerate(view.bids):
        caller = seat_of_bid(view.dealer, position)
        out[VT_CALLS + rel(caller) * N_BID_CODES + parse_call(call)] = 1
    if view.bidder is not None and view.bid is not None:
        out[VT_DECLARER + rel(view.bidder)] = 1
        out[VT_CONTRACT + parse_call(view.bid)] = 1
    if view.trump is not None:
        out[VT_TRUMP + view.trump] = 1

    if play is not None:
        trump = view.trump
        assert trump is not None
        out[VT_LEADER + rel(play.leader)] = 1
        if play.trick:
            out[VT_LED_SUIT + effective_suit(play.trick[0], trump)] = 1
        for player, cards in enumerate(play.played):
            for c in cards:
                out[VT_PLAYED + rel(player) * DECK_SIZE + c] = 1
        for index, c in enumerate(play.trick):
            out[VT_TRICK + rel((play.leader + index) % 4) * DECK_SIZE + c] = 1
        for trick in play.tricks:
            for c in trick.cards:
                out[VT_TAKEN + rel_team(team_of(trick.winner)) * DECK_SIZE + c] = 1
        for player, suits in enumerate(play.voids):
            for suit in suits:
                out[VT_VOIDS + rel(player) * 4 + suit] = 1
        awards, card_points = award_points(rules, trump, play.tricks)
        for point, team in awards.items():
            if team is not None:
                out[VT_POINTS + rel_team(team) * N_POINTS + _POINT_INDEX[point]] = 1
        for team in range(2):
            out[VT_CARD_POINTS + rel_team(team)] = np.float32(card_points[team] / CARD_POINTS_SCALE)

    for team in range(2):
        out[VT_SCORES + rel_team(team)] = np.float32(view.scores_before[team] / rules.target)
    out[VT_RULES: VT_RULES + VR_SIZE] = rules_block(rules)
    return out
