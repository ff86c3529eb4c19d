"""Bid-table hand classes: the class suit of a 9-card hand and the features seen in it.

The rule is one a person applies at the table, looking at the 9 cards before the kitty, and it does not depend
on any player's policy (docs/rules.md, "Hand classes"):

- the class suit is the suit with the most trumps, counting the jick and the jokers as trumps of that suit;
- a tie goes to the suit whose trumps are better compared from the top down (the higher top trump, then the
  higher second trump, and so on); a tie that remains goes to the first suit in the order S H D C.

The features (``layout.CLASS_DIMS``) are then read in the class suit: trumps held, the top trump, the two, the
jack, the jick, the jokers, and the aces of the other suits.
"""

from __future__ import annotations

from numba import njit

from ..core.cards import ACE
from ..core.layout import N_ACES, N_JACK, N_JICK, N_JOKERS, N_TOP, N_TWO
from ..core.tables import P_HIGH_JOKER, P_JACK, P_JICK, P_LOW, P_LOW_JOKER, TABLES
from .bits import ONE, has, lowest_card, popcount

_TRUMP_MASK = TABLES.trump_mask
_TRUMP_RANK = TABLES.trump_rank
_POINT_CARDS = TABLES.point_cards
_ACES = TABLES.rank_masks[ACE]


@njit(cache=True, inline="always")
def _trump_ranks(trumps, t):
    """Bit r set for each trump rank r held: as a number, it orders sets of equal size from the top down."""
    ranks = 0
    m = trumps
    while m:
        c = lowest_card(m)
        m &= m - ONE
        ranks |= 1 << _TRUMP_RANK[t, c]
    return ranks


@njit(cache=True)
def class_suit(hand):
    """The class suit of a hand (see the module docstring)."""
    best = 0
    best_key = -1
    for t in range(4):
        trumps = hand & _TRUMP_MASK[t]
        key = (popcount(trumps) << 16) | _trump_ranks(trumps, t)
        if key > best_key:  # strictly better: an exact tie stays with the earlier suit
            best = t
            best_key = key
    return best


@njit(cache=True)
def hand_class(hand):
    """The bid-table class index of a 9-card hand: its features in the class suit (``layout.CLASS_DIMS``)."""
    t = class_suit(hand)
    trumps = hand & _TRUMP_MASK[t]
    ranks = _trump_ranks(trumps, t)
    top = 0
    while ranks >> (top + 1):
        top += 1
    c = popcount(trumps)
    c = c * N_TOP + top
    c = c * N_TWO + has(hand, _POINT_CARDS[t, P_LOW])
    c = c * N_JACK + has(hand, _POINT_CARDS[t, P_JACK])
    c = c * N_JICK + has(hand, _POINT_CARDS[t, P_JICK])
    c = c * N_JOKERS + has(hand, _POINT_CARDS[t, P_HIGH_JOKER]) + has(hand, _POINT_CARDS[t, P_LOW_JOKER])
    return c * N_ACES + popcount(hand & _ACES & ~_TRUMP_MASK[t])
