"""``random``: uniform over the legal actions, independently at each decision.

- Bidding: uniform over the legal calls: pass (when allowed), each legal number and moon (when allowed). A
  seat facing the calls pass, 2, 3, 4, moon picks each with probability 1/5.
- Trump: uniform over the four suits.
- Discards: uniform over the legal 6-card keeps (the free choice is a uniform subset of the first card class
  that does not fit whole; see the discard rule): :func:`smear_sim.kernels.rng.random_subset`.
- Play: uniform over the legal cards.
"""

from __future__ import annotations

from numba import njit

from ...core.layout import MOON, PASS
from ..bits import nth_card, popcount
from ..rng import below, random_subset


@njit(cache=True, inline="always")
def bid(state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must, rules, max_points):
    """A uniform legal call: PASS (unless ``must``), a number from ``low..high`` or MOON (if ``moon_ok``).

    The arguments are those of :func:`smear_sim.kernels.players.choose_bid`; only the legal calls matter here.
    """
    n_numbers = max(0, high - low + 1)
    n = n_numbers + (0 if must else 1) + (1 if moon_ok else 0)
    pick = below(state, n)
    if not must:
        if pick == 0:
            return PASS
        pick -= 1
    if pick < n_numbers:
        return low + pick
    return MOON


@njit(cache=True, inline="always")
def trump(state):
    return below(state, 4)


@njit(cache=True, inline="always")
def play(state, legal):
    return nth_card(legal, below(state, popcount(legal)))


# The decisions this player makes (core.players.PLAYERS), as the dispatch calls them (kernels.players.bids.dispatcher):
# each the function and the dispatch's arguments it takes, in order.
DECISIONS = {
    "bid": (bid, ("state", "hand", "seat", "dealer", "calls", "n_calls", "us", "them", "low", "high", "moon_ok", "must",
                  "rules", "max_points")),
    "trump": (trump, ("state",)),
    "keep": (random_subset, ("state", "cards", "room")),
    "play": (play, ("state", "legal")),
}
