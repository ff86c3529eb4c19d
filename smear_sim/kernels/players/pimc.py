"""``pimc:K``: perfect-information Monte Carlo, a search player.

- Card play. At each card decision with more than one legal card (more than one that the solver would not
  treat as the same move in every world), it samples K worlds: deals of the cards
  its seat has not seen, consistent with everything it has seen, voids included
  (:func:`smear_sim.kernels.state.sample_world`). It solves each world double dummy
  (:mod:`smear_sim.kernels.solver`) for the value of every legal card, from its team's side, and plays the
  card with the best total. Among equal totals it plays the card ``heuristic`` would play when that card
  is one of them, else the cheapest of them.
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
from ..solver import INF, card_value, card_value_or_bound, distinct_moves, new_solver, rule_masks, solve, start_cards
from ..state import played_cards, sample_world, to_play
from . import heuristic

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


@njit(cache=True)
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
    choice_totals(rng, hs, legal, rules, k, heuristic.play(hs, legal, rules, give), totals)
    return best_card(totals, hs, legal, rules, give)


@njit(cache=True)
def choice_totals(rng, hs, legal, rules, k, favourite, totals):
    """Totals over ``k`` sampled worlds from which :func:`best_card` chooses the card it would choose from
    :func:`card_totals`'s, with less search: the exact total of every card that could be chosen, and an upper bound
    for the others. ``favourite`` is the heuristic's card, which takes ties.

    The favourite leads first, its value exact on every world. Every other card is asked on each world, with one
    zero-window search, whether it beats the leader's value there (:func:`smear_sim.kernels.solver.
    card_value_or_bound`); where it does not, the search's bound stands. A card whose total at best is below the
    leader's, or equal to it while the favourite leads, cannot be chosen; its bound stays its total. Any other card
    is solved exactly where only its bound is known, and leads when its total is higher. So every card that can tie
    the final best has its exact total, and :func:`best_card` breaks the ties as before."""
    seat = to_play(hs)
    maximize = (seat & 1) == (hs[ST_BIDDER] & 1)
    sign = 1 if maximize else -1
    n = popcount(legal)
    cards = np.zeros(n, dtype=np.int64)
    index = np.full(54, -1, dtype=np.int64)
    m = legal
    for i in range(n):
        cards[i] = lowest_card(m)
        index[cards[i]] = i
        m &= m - ONE
    first = index[favourite]
    worlds = np.zeros((k, ST_SIZE), dtype=np.int64)
    lo = np.full((n, k), -INF, dtype=np.int64)  # bounds on each card's value in each world
    hi = np.full((n, k), INF, dtype=np.int64)
    same_move = np.zeros(54, dtype=np.int64)
    solver = new_solver(TT_BITS)
    for w in range(k):
        world = worlds[w]
        sample_world(hs, seat, rng, world)
        start_cards(solver, world, rules, same_move)
        lead = card_value(solver, world, rules, same_move[favourite], lo[first, w - 1] if w > 0 else 0)
        for a in range(n):  # the cards searched as themselves
            c = cards[a]
            if same_move[c] == same_move[favourite]:
                lo[a, w] = lead
                hi[a, w] = lead
            elif same_move[c] == c:
                better, v = card_value_or_bound(solver, world, rules, c, lead, maximize)
                if better or not maximize:
                    lo[a, w] = v
                if better or maximize:
                    hi[a, w] = v
        for a in range(n):  # the others have their equivalent card's bounds
            e = index[same_move[cards[a]]]
            if e != a and same_move[cards[a]] != same_move[favourite]:
                lo[a, w] = lo[e, w]
                hi[a, w] = hi[e, w]
    lead_total = 0
    for w in range(k):
        lead_total += sign * lo[first, w]
    totals[favourite] = lead_total
    favourite_leads = True
    for a in range(n):
        if a == first:
            continue
        best_case = 0
        for w in range(k):
            best_case += sign * (hi[a, w] if maximize else lo[a, w])
        if best_case < lead_total or (best_case == lead_total and favourite_leads):
            totals[cards[a]] = best_case
            continue
        total = 0
        for w in range(k):
            if lo[a, w] != hi[a, w]:
                start_cards(solver, worlds[w], rules, same_move)
                lo[a, w] = card_value(solver, worlds[w], rules, cards[a], hi[a, w] if maximize else lo[a, w])
            total += sign * lo[a, w]
        totals[cards[a]] = total
        if total > lead_total:
            lead_total = total
            favourite_leads = False


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


@njit(cache=True)
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
