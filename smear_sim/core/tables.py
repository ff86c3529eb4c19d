"""Trump-relative card tables, derived once from the card rules of docs/rules.md.

Everything that depends on which suit is trump (a card's effective suit, its rank in a trick, which cards
are trumps and which of those score) is computed here for each of the four trump suits, as NumPy arrays
indexed ``[trump, card]``. The reference engine and the Numba kernels both read these arrays, so the two
cannot disagree about the order of the cards.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .cards import (
    ACE,
    DECK_SIZE,
    HIGH_JOKER,
    JACK,
    KING,
    LOW_JOKER,
    N_RANKS,
    N_SUITS,
    QUEEN,
    TEN,
    TWO,
    card,
    mask_of,
    rank_of,
    suit_of,
)

__all__ = [
    "CARD_POINTS",
    "MISDEAL_MASK",
    "POINT_NAMES",
    "P_GAME",
    "P_HIGH",
    "P_HIGH_JOKER",
    "P_JACK",
    "P_JICK",
    "P_LOW",
    "P_LOW_JOKER",
    "RANK_POINTS",
    "TABLES",
    "TRUMP_RANK_NAMES",
    "TR_ACE",
    "TR_FOUR",
    "TR_JACK",
    "TR_KING",
    "TR_QUEEN",
    "TR_TEN",
    "TR_THREE",
    "TR_TWO",
    "Tables",
    "jick_of",
    "trump_order",
]

# Card points for Game, by printed rank: A 4, K 3, Q 2, every J 1 (the jick too), 10 ten; 2-9 nothing.
_POINTS_OF_RANK = {ACE: 4, KING: 3, QUEEN: 2, JACK: 1, TEN: 10}
RANK_POINTS = np.array([_POINTS_OF_RANK.get(rank, 0) for rank in range(N_RANKS)], dtype=np.int64)
CARD_POINTS = np.array([0 if c >= HIGH_JOKER else RANK_POINTS[rank_of(c)] for c in range(DECK_SIZE)],
                       dtype=np.int64)  # jokers count nothing

# Cards of ranks 3-9: a hand holding only these may call a misdeal.
MISDEAL_MASK = mask_of(c for c in range(HIGH_JOKER) if 1 <= rank_of(c) <= 7)

# The points of a hand in award order; the last three exist only with round points.
POINT_NAMES = ("high", "low", "jack", "game", "jick", "high_joker", "low_joker")
P_HIGH, P_LOW, P_JACK, P_GAME, P_JICK, P_HIGH_JOKER, P_LOW_JOKER = range(len(POINT_NAMES))

# Trump ranks from 0 (the two) to 15 (the ace), the names the rank index stands for.
TRUMP_RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "LJ", "HJ", "jick", "J", "Q", "K", "A")
TR_TWO, TR_THREE, TR_FOUR = 0, 1, 2
TR_TEN, TR_JACK, TR_QUEEN, TR_KING, TR_ACE = (TRUMP_RANK_NAMES.index(name) for name in ("10", "J", "Q", "K", "A"))

_SAME_COLOUR = (3, 2, 1, 0)  # S<->C, H<->D


def jick_of(trump: int) -> int:
    """The jack of the other suit of trump's colour."""
    return card(JACK, _SAME_COLOUR[trump])


def trump_order(trump: int) -> tuple[int, ...]:
    """The 16 trumps from highest to lowest: A K Q J jick HJ LJ 10 9 ... 2."""
    top = [card(r, trump) for r in (ACE, KING, QUEEN, JACK)]
    bottom = [card(r, trump) for r in range(TEN, TWO - 1, -1)]
    return tuple(top + [jick_of(trump), HIGH_JOKER, LOW_JOKER] + bottom)


class Tables(NamedTuple):
    """Arrays indexed ``[trump]`` or ``[trump, card]``; masks are ``uint64``."""

    effective_suit: np.ndarray  # [4, 54] the suit a card belongs to for following (trump for trumps)
    trump_rank: np.ndarray  # [4, 54] 15 (ace) .. 0 (two) for trumps, -1 otherwise
    trick_rank: np.ndarray  # [4, 54] trumps 16..31, other cards their printed rank 0..12
    trump_cards: np.ndarray  # [4, 16] trumps from highest to lowest
    trump_by_rank: np.ndarray  # [4, 16] the trump of each trump rank (TR_TWO = 0 .. TR_ACE = 15)
    trump_mask: np.ndarray  # [4] the 16 trumps
    scoring_trump_mask: np.ndarray  # [4] A K Q J jick HJ LJ 10 2 of trump
    suit_mask: np.ndarray  # [4, 4] cards of each effective suit
    higher_trumps: np.ndarray  # [4, 54] mask of the trumps ranked above a trump (0 for non-trumps)
    point_cards: np.ndarray  # [4, 7] the card behind each point (-1 for Game), in POINT_NAMES order
    card_points: np.ndarray  # [54]
    rank_points: np.ndarray  # [13] card points by printed rank (RANK_POINTS)
    higher_in_suit: np.ndarray  # [54] cards of the same printed suit and higher printed rank
    rank_masks: np.ndarray  # [13] the four cards of each printed rank


def _build() -> Tables:
    effective_suit = np.zeros((N_SUITS, DECK_SIZE), dtype=np.int64)
    trump_rank = np.full((N_SUITS, DECK_SIZE), -1, dtype=np.int64)
    trick_rank = np.zeros((N_SUITS, DECK_SIZE), dtype=np.int64)
    trump_cards = np.zeros((N_SUITS, 16), dtype=np.int64)
    trump_mask = np.zeros(N_SUITS, dtype=np.uint64)
    scoring_trump_mask = np.zeros(N_SUITS, dtype=np.uint64)
    suit_mask = np.zeros((N_SUITS, N_SUITS), dtype=np.uint64)
    higher_trumps = np.zeros((N_SUITS, DECK_SIZE), dtype=np.uint64)
    point_cards = np.zeros((N_SUITS, len(POINT_NAMES)), dtype=np.int64)
    for trump in range(N_SUITS):
        order = trump_order(trump)
        for c in range(DECK_SIZE):
            if c in order:
                effective_suit[trump, c] = trump
                trump_rank[trump, c] = 15 - order.index(c)
                trick_rank[trump, c] = 16 + trump_rank[trump, c]
            else:
                effective_suit[trump, c] = suit_of(c)
                trick_rank[trump, c] = c % N_RANKS
            suit_mask[trump, effective_suit[trump, c]] |= np.uint64(1 << c)
        trump_cards[trump] = order
        trump_mask[trump] = mask_of(order)
        # Scoring trumps: every trump not of rank 3-9.
        scoring_trump_mask[trump] = mask_of(c for c in order if c >= HIGH_JOKER or not 1 <= rank_of(c) <= 7)
        for i, c in enumerate(order):
            higher_trumps[trump, c] = mask_of(order[:i])
        point_cards[trump] = [
            card(ACE, trump), card(TWO, trump), card(JACK, trump), -1, jick_of(trump), HIGH_JOKER, LOW_JOKER
        ]
    higher_in_suit = np.array(
        [0 if c >= HIGH_JOKER else mask_of(card(r, suit_of(c)) for r in range(rank_of(c) + 1, N_RANKS))
         for c in range(DECK_SIZE)],
        dtype=np.uint64,
    )
    rank_masks = np.array([mask_of(card(r, s) for s in range(N_SUITS)) for r in range(N_RANKS)], dtype=np.uint64)
    arrays = Tables(
        effective_suit, trump_rank, trick_rank, trump_cards, trump_cards[:, ::-1].copy(), trump_mask,
        scoring_trump_mask, suit_mask, higher_trumps, point_cards, CARD_POINTS.copy(), RANK_POINTS.copy(),
        higher_in_suit, rank_masks,
    )
    for array in arrays:
        array.setflags(write=False)
    return arrays


TABLES = _build()
