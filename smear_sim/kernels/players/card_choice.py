"""The card choice both search players share: each legal card's total value over the sampled worlds, with the
search spared for the cards that cannot be chosen.

A player chooses the card of highest total, by P(win the game) and then points (``expert``) or by points alone
(``pimc``), and among equal totals its heuristic favourite, else the cheapest. Only the cards that could be chosen
need their exact totals. The favourite leads first, its value exact on every world. Every other card is asked on each
world, with one zero-window search, whether it beats the leader's value there
(:func:`smear_sim.kernels.solver.card_value_or_bound`); where it does not, the search's bound stands. A card whose
total at best is below the leader's, or equal to it while the favourite leads, cannot be chosen, and its best case
stays its total. Any other card is solved exactly, world by world, where only its bound is known, until its best case
falls short of the leader's (then it is dropped as above) or its total is exact; it leads when its total is higher.
Every card that can tie the best then has its exact total, and the choice is the one every card's exact total gives.

A best case bounds a total in the order of the choice: its P(win) total is an upper bound, and where the true total
reaches it, every world's P(win) is at its bound, so its points total bounds the true one too.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bits import ONE, lowest_card, popcount
from ..borrow import REFCOUNTED
from ..solver import INF, card_value, card_value_or_bound, start_cards

__all__ = ["POINTS_BELOW", "WIN_SCALE", "cannot_lead", "choice_totals", "game_part", "seat_value", "total_value"]

WIN_SCALE = 1 << 24  # P(win) in fixed point, so that totals over worlds are exact integers (no order dependence)
# A game value is P(win) * POINTS_BELOW + points + POINTS_BELOW // 2: the game first, then the points (a moon moves
# the score by at most the largest target, 1,000).
POINTS_BELOW = 1 << 12


@njit(cache=True, inline="always")
def game_part(v, bidding):
    """``(P(win) in fixed point, points)`` of a game value the solver found, for the bidding team (``bidding``) or
    the other."""
    win = v // POINTS_BELOW
    points = v % POINTS_BELOW - POINTS_BELOW // 2
    return (win, points) if bidding else (WIN_SCALE - win, -points)


@njit(cache=True, inline="always")
def seat_value(v, game, bidding):
    """``(P(win) in fixed point, points)`` for a seat's team of a value the solver found, searching the game
    (``game``) or points (then P(win) is 0); ``bidding`` when the seat's team bid."""
    if game:
        return game_part(v, bidding)
    return 0, (v if bidding else -v)


@njit(cache=True, **REFCOUNTED)
def choice_totals(solver, worlds, rules, legal, favourite, bidding, game, wins, points):
    """Fill ``wins[c]`` and ``points[c]`` for each card ``c`` of ``legal``: its total value over ``worlds`` (hand
    states, one a row) for the team of the seat to play (:func:`seat_value`), exact for every card that can be
    chosen and a best case for the others (module docstring). ``favourite`` is the card that takes ties, ``bidding``
    whether the seat's team bid, ``game`` whether the solver values the game."""
    n = popcount(legal)
    cards = np.zeros(n, dtype=np.int64)
    index = np.full(54, -1, dtype=np.int64)
    m = legal
    for i in range(n):
        cards[i] = lowest_card(m)
        index[cards[i]] = i
        m &= m - ONE
    first = index[favourite]
    k = worlds.shape[0]
    lo = np.full((n, k), -INF, dtype=np.int64)  # bounds on each card's value in each world
    hi = np.full((n, k), INF, dtype=np.int64)
    same_move = np.zeros(54, dtype=np.int64)
    for w in range(k):
        world = worlds[w]
        start_cards(solver, world, rules, same_move)
        # lo[first, w]..hi[first, w] is still -INF..INF: passed from the arrays, it compiles card_value once
        lead = card_value(solver, world, rules, same_move[favourite], lo[first, w - 1] if w > 0 else 0, lo[first, w],
                          hi[first, w])
        for a in range(n):  # the cards searched as themselves
            c = cards[a]
            if same_move[c] == same_move[favourite]:
                lo[a, w] = lead
                hi[a, w] = lead
            elif same_move[c] == c:
                better, v = card_value_or_bound(solver, world, rules, c, lead, bidding)
                if better or not bidding:
                    lo[a, w] = v
                if better or bidding:
                    hi[a, w] = v
        for a in range(n):  # the others have the bounds of the card they are the same move as
            e = index[same_move[cards[a]]]
            if e != a and same_move[cards[a]] != same_move[favourite]:
                lo[a, w] = lo[e, w]
                hi[a, w] = hi[e, w]
    lead_wins, lead_points = total_value(lo, hi, first, game, bidding, False)
    wins[favourite] = lead_wins
    points[favourite] = lead_points
    favourite_leads = True
    for a in range(n):
        if a == first:
            continue
        c = cards[a]
        wins[c], points[c] = total_value(lo, hi, a, game, bidding, True)
        for w in range(k):  # solved to the end world by world, while it could still be chosen
            if cannot_lead(wins[c], points[c], lead_wins, lead_points, favourite_leads):
                break
            if lo[a, w] != hi[a, w]:
                start_cards(solver, worlds[w], rules, same_move)
                lo[a, w] = card_value(solver, worlds[w], rules, c, hi[a, w] if bidding else lo[a, w], lo[a, w],
                                      hi[a, w])
                hi[a, w] = lo[a, w]
                wins[c], points[c] = total_value(lo, hi, a, game, bidding, True)
        if wins[c] > lead_wins or (wins[c] == lead_wins and points[c] > lead_points):
            lead_wins = wins[c]
            lead_points = points[c]
            favourite_leads = False


@njit(cache=True, inline="always")
def cannot_lead(wins, points, lead_wins, lead_points, tie_loses):
    """Whether totals (or best cases) ``wins``, ``points`` fall short of the leader's, a tie falling short when
    ``tie_loses`` (the leader keeps the lead among equals)."""
    return wins < lead_wins or (wins == lead_wins and (points < lead_points or (points == lead_points and tie_loses)))


@njit(cache=True)
def total_value(lo, hi, a, game, bidding, best_case):
    """Card (or keep) ``a``'s total :func:`seat_value` over the worlds, from the bounds ``lo[a, w]``, ``hi[a, w]`` on
    its value in each world ``w``: exact where they meet, else (``best_case``) the best case for the seat's team."""
    wins = 0
    points = 0
    for w in range(lo.shape[1]):
        win, p = seat_value(hi[a, w] if best_case and bidding else lo[a, w], game, bidding)
        wins += win
        points += p
    return wins, points
