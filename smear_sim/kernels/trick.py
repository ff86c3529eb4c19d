"""The rules of one trick in Numba: which cards may be played, and which card takes the lead.

Both the hand kernel and the players read these, so a player's idea of "this card wins" is the rules' own.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.layout import HIGH_JOKER, LOW_JOKER
from ..core.tables import TABLES
from .bits import ZERO, bit

_TRUMP_MASK = TABLES.trump_mask
_SUIT_MASK = TABLES.suit_mask
_EFFECTIVE_SUIT = TABLES.effective_suit
_TRICK_RANK = TABLES.trick_rank


@njit(cache=True, inline="always")
def legal_mask(hand, t, led_suit, trump_anytime):
    """The cards of ``hand`` that may be played to a trick led in ``led_suit`` (-1: leading)."""
    if led_suit < 0:
        return hand
    follow = hand & _SUIT_MASK[t, led_suit]
    if follow == ZERO:
        return hand
    if trump_anytime:
        return follow | (hand & _TRUMP_MASK[t])
    return follow


@njit(cache=True, inline="always")
def card_key(c, t, led_suit):
    """Strength in a trick led in ``led_suit``: trumps 16..31, the led suit 0..12, anything else -1."""
    rank = _TRICK_RANK[t, c]
    if rank >= 16 or _EFFECTIVE_SUIT[t, c] == led_suit:
        return rank
    return np.int64(-1)


@njit(cache=True, inline="always")
def beats(c, t, led_suit, win_key, trick_mask):
    """Whether ``c`` takes the lead from the card now winning (strength ``win_key``).

    The second joker of a trick never does: the first joker ranks above it, and anything that beat the
    first joker outranks both.
    """
    if c >= HIGH_JOKER and trick_mask & (bit(HIGH_JOKER) | bit(LOW_JOKER)) != ZERO:
        return False
    return card_key(c, t, led_suit) > win_key
