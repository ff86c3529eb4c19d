"""Worlds: deals of the cards one seat has not seen, consistent with everything it has seen, calls included.

A decision is valued over worlds (docs/decisions.md). The seat has seen its own 9 cards, the kitty when it won
the auction, the calls, trump, and once play has begun every card played and the voids shown. A world deals the
rest so that all of it holds:

- **During play** (:func:`play_world`): the other seats' cards now are drawn by
  :func:`smear_sim.kernels.state.sample_world` (the cards seen, the voids shown, and the discard rule's
  "trumps are kept first"). With inference on, each other seat's dealt 9 cards are then completed: what it
  holds now, what it has played, and its discards (3, or the bidder's 7), drawn from the unseen non-trumps
  nobody holds; the bidder's 9 dealt cards are 9 of its 13 at random (the other 4 were the kitty). The world is
  kept only when no other seat could call a misdeal and every other seat's call is the one its policy makes
  with that 9-card hand after the calls before it (rejection sampling).
- **Before play** (:func:`deal_world`): the unseen cards are dealt into the other seats' 9-card hands (and the
  kitty, unless the seat won the auction and saw it), with no other seat able to call a misdeal, and with
  inference on, kept only when the other seats' calls are their policy's.

A world that fits the calls is usually found in a few tries. After ``MAX_TRIES`` the last world drawn without
the calls is used instead (the fallback), and the caller counts it: calls the policy almost never makes with any
hand consistent with the cards seen (a bid the calling policy finds absurd) would otherwise stop the analysis. Under a
policy whose calls do not depend on its cards (``random``), the calls fit by chance and inference changes
nothing but the tries.

The random numbers come from the caller's stream (one per world, keyed by the seed and the world's index), so
a world depends on nothing but those.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.layout import R_MISDEAL, ST_BIDDER, ST_HANDS, ST_PLAYED, ST_TRUMP
from ..core.tables import MISDEAL_MASK, TABLES
from .bits import ONE, ZERO, bit, nth_card, popcount
from .players.bids import SEATED, policy_call
from .rng import below, random_subset
from .state import mask_at, sample_world, seen_by

__all__ = ["CALLERS", "MAX_TRIES", "calls_fit", "deal_world", "play_world"]

MAX_TRIES = 400  # worlds drawn for one that fits the calls, before the fallback
_DECK = (ONE << np.uint64(54)) - ONE
_TRUMP_MASK = TABLES.trump_mask
_NOT_MISDEAL = ~np.uint64(MISDEAL_MASK)
# The players a world's calls are modelled by: every bidder compiled in (a search player models any seat's calls,
# and bids are cheap to compile), so that the worlds, and the search players and hints built on them, compile once
# whoever sits at the table (``seated`` is a type: one per table would compile all of them again).
CALLERS = (True,) * len(SEATED)


@njit(cache=True)
def calls_fit(rng, dealt, observer, dealer, calls, n_calls, score0, score1, rules, policies, bidder_arrays):
    """Whether no seat but ``observer`` could call a misdeal with its ``dealt`` 9 cards (under the rule) and each of
    them makes its call of ``calls[:n_calls]`` by its team's policy (``policies[team]``)."""
    if rules[R_MISDEAL] == 1:
        for seat in range(4):
            if seat != observer and dealt[seat] & _NOT_MISDEAL == ZERO:
                return False
    for p in range(n_calls):
        seat = (dealer + 1 + p) % 4
        if seat == observer:
            continue
        if policy_call(rng, dealt[seat], dealer, p, calls, score0, score1, rules, policies, bidder_arrays, CALLERS) != calls[p]:
            return False
    return True


@njit(cache=True)
def play_world(rng, hs, observer, own9, dealer, calls, n_calls, score0, score1, rules, policies, bidder_arrays, inference,
               out, dealt):
    """Write into ``out`` a world for ``observer`` during play: ``hs`` with the other seats' cards re-dealt
    (module docstring). ``own9`` is the observer's dealt 9 cards; ``dealt`` receives every seat's dealt 9 (the
    observer's included) when inference is on. Returns the worlds drawn, negated when it fell back."""
    t = hs[ST_TRUMP]
    bidder = hs[ST_BIDDER]
    for k in range(MAX_TRIES):
        sample_world(hs, observer, rng, out)
        if not inference:
            return 1
        held = ZERO
        for seat in range(4):
            held |= mask_at(out, ST_HANDS + seat) | mask_at(out, ST_PLAYED + seat)
        free = _DECK & ~seen_by(hs, observer) & ~held & ~_TRUMP_MASK[t]
        ok = True
        for seat in range(4):
            if seat == observer:
                dealt[seat] = own9
                continue
            n_discards = 7 if seat == bidder else 3
            if popcount(free) < n_discards:
                ok = False
                break
            discards = random_subset(rng, free, n_discards)
            free &= ~discards
            cards = mask_at(out, ST_HANDS + seat) | mask_at(out, ST_PLAYED + seat) | discards
            if seat == bidder:
                cards = random_subset(rng, cards, 9)  # the other 4 of its 13 were the kitty
            dealt[seat] = cards
        if ok and calls_fit(rng, dealt, observer, dealer, calls, n_calls, score0, score1, rules, policies, bidder_arrays):
            return k + 1
    return -MAX_TRIES


@njit(cache=True)
def _deal(rng, unseen, observer, own9, kitty, hands):
    """Deal ``unseen`` into the other seats' 9 cards and, when ``kitty`` is ZERO (not seen), the kitty's 4."""
    pool = unseen
    for seat in range(4):
        if seat == observer:
            hands[seat] = own9
            continue
        hand = ZERO
        for _ in range(9):
            c = nth_card(pool, below(rng, popcount(pool)))
            hand |= bit(c)
            pool &= ~bit(c)
        hands[seat] = hand
    if kitty == ZERO:
        hands[4] = random_subset(rng, pool, 4)
    else:
        hands[4] = kitty


@njit(cache=True)
def deal_world(rng, observer, own9, kitty, dealer, calls, n_calls, score0, score1, rules, policies, bidder_arrays, inference,
               hands):
    """Write into ``hands`` (the four seats' dealt 9 and the kitty) a world for ``observer`` before play (module
    docstring). ``kitty`` is the kitty when the observer saw it, else ZERO. Returns the worlds drawn, negated
    when it fell back (the last deal with no misdeal callable is used then)."""
    unseen = _DECK & ~own9 & ~kitty
    for k in range(MAX_TRIES):
        _deal(rng, unseen, observer, own9, kitty, hands)
        if calls_fit(rng, hands, observer, dealer, calls, n_calls if inference else 0, score0, score1, rules,
                     policies, bidder_arrays):
            return k + 1
    # Nothing fitted the calls: deal until no misdeal is callable, leaving the calls out.
    k = MAX_TRIES
    while True:
        k += 1
        _deal(rng, unseen, observer, own9, kitty, hands)
        if calls_fit(rng, hands, observer, dealer, calls, 0, score0, score1, rules, policies, bidder_arrays):
            return -k
