"""``pimc:K``: perfect-information Monte Carlo, a search player.

- Card play. At each card decision with more than one legal card (more than one that the solver would not
  treat as the same move in every world), it samples K worlds: deals of the cards
  its seat has not seen, consistent with everything it has seen, voids included
  (:func:`smear_sim.kernels.state.sample_world`). It solves each world double dummy
  (:mod:`smear_sim.kernels.solver`) for the value of every legal card, from its team's side, and plays the
  card with the best total. Among equal totals it plays the card ``heuristic`` would play when that card
  is one of them, else the cheapest of them. The cards that cannot be chosen are not solved to the end
  (:mod:`smear_sim.kernels.players.card_choice`): the same card, with less search.
- The objective is the solver's: the bidding team's score change minus the other team's (+-target on a
  moon hand; in hand analysis, where no bid was made, the bidding team's points minus the other's).
- Bidding, trump and discards are ``heuristic``'s.
- Randomness: the worlds are drawn from the hand's own random stream, so results do not depend on threads
  or chunks.

``oracle`` (:func:`oracle`) is the same card play with one world, the real one: it sees every card.

Known weaknesses of the method: each world is solved as if everyone could see every card, so it cannot
value hiding or discovering information (strategy fusion), and the worlds ignore what the auction and
the other players' earlier choices say about their hands.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.layout import ST_BIDDER, ST_SIZE, ST_TRICK, ST_TRUMP
from ..bits import ONE, ZERO, bit, lowest_card, popcount
from ..borrow import REFCOUNTED
from ..solver import distinct_moves, new_solver, rule_masks, solve
from ..state import played_cards, sample_world, to_play
from . import heuristic
from .card_choice import choice_totals

_DECK = (ONE << np.uint64(54)) - ONE
TT_BITS = 14  # positions met during play are small; a smaller table is cheaper to allocate per decision


@njit(cache=True)
def card_totals(rng, hs, legal, rules, k, solver, world, values, totals):
    """Add, for each legal card, its value over ``k`` sampled worlds from the seat to play's side into
    ``totals`` (indexed by card)."""
    seat = to_play(hs)
    sign = 1 if (seat & 1) == (hs[ST_BIDDER] & 1) else -1
    for _ in range(k):
        sample_world(hs, seat, rng, world)
        solve(solver, world, rules, values)
        m = legal
        while m:
            c = lowest_card(m)
            m &= m - ONE
            totals[c] += sign * values[c]


@njit(cache=True, **REFCOUNTED)
def play(rng, hs, legal, rules, give, k):
    """The card the seat to play plays from ``legal``; ``rng`` is the hand's random stream."""
    if popcount(legal) == 1:
        return lowest_card(legal)
    # Cards the solver would treat as one move in every world (adjacent among all cards not yet played, and
    # worth nothing to the score) need no search: play the heuristic's choice among them.
    t = hs[ST_TRUMP]
    unplayed = _DECK & ~played_cards(hs)
    if popcount(distinct_moves(legal, rule_masks(t, rules)[1], unplayed | np.uint64(hs[ST_TRICK]), t)) == 1:
        return heuristic.play(hs, legal, rules, give)
    totals = np.zeros(54, dtype=np.int64)
    spared_totals(rng, hs, legal, rules, k, heuristic.play(hs, legal, rules, give), totals)
    return best_card(totals, hs, legal, rules, give)


@njit(cache=True, **REFCOUNTED)
def spared_totals(rng, hs, legal, rules, k, favourite, totals):
    """Totals over ``k`` sampled worlds from which :func:`best_card` chooses the card it would choose from
    :func:`card_totals`'s, with less search: exact for every card that could be chosen, an upper bound for the
    others (:func:`smear_sim.kernels.players.card_choice.choice_totals`); ``favourite`` is the heuristic's card."""
    seat = to_play(hs)
    worlds = np.zeros((k, ST_SIZE), dtype=np.int64)
    for w in range(k):
        sample_world(hs, seat, rng, worlds[w])
    choice_totals(new_solver(TT_BITS), worlds, rules, legal, favourite, (seat & 1) == (hs[ST_BIDDER] & 1), False,
                  np.zeros(54, dtype=np.int64), totals)


@njit(cache=True)
def best_card(totals, hs, legal, rules, give):
    """The legal card with the best total; among equal totals the card ``heuristic`` would play when that card is
    one of them, else the cheapest of them."""
    best_total = -(1 << 60)
    tied = ZERO
    m = legal
    while m:
        c = lowest_card(m)
        m &= m - ONE
        if totals[c] > best_total:
            best_total = totals[c]
            tied = bit(c)
        elif totals[c] == best_total:
            tied |= bit(c)
    if popcount(tied) == 1:
        return lowest_card(tied)
    favourite = heuristic.play(hs, legal, rules, give)
    if tied & bit(favourite):
        return favourite
    return heuristic.cheapest(tied, hs[ST_TRUMP], give)


@njit(cache=True, **REFCOUNTED)
def oracle(hs, legal, rules, give):
    """``oracle``'s card: the best card of the deal as it is, every hand seen (``hs`` holds them all), solved double
    dummy once, ties broken as :func:`play` breaks them. It cheats, by design: it is the upper bound on what any
    inference about the hidden cards can gain in the card play."""
    if popcount(legal) == 1:
        return lowest_card(legal)
    seat = to_play(hs)
    sign = 1 if (seat & 1) == (hs[ST_BIDDER] & 1) else -1
    values = np.zeros(54, dtype=np.int64)
    solve(new_solver(TT_BITS), hs.copy(), rules, values)
    return best_card(sign * values, hs, legal, rules, give)


# The decisions this player makes (core.players.PLAYERS), as the dispatch calls them (kernels.players.bids.dispatcher):
# each the function and the dispatch's arguments it takes, in order.
DECISIONS = {"play": (play, ("state", "hs", "legal", "rules", "give", "param"))}
