"""The players: one module per policy, and the one place that dispatches a decision to a policy.

Each decision (bid, trump, keep, play) takes the policy number of the seat's team
(:data:`smear_sim.core.players.POLICIES` names them) and calls that policy's function. A new player is a
module here plus a branch in each function below; the hand and game kernels call only these.
"""

from __future__ import annotations

from numba import njit

from ...core.players import POLICIES
from ...core.tables import TABLES
from ..bits import ZERO, popcount
from . import heuristic, random

RANDOM = POLICIES.index("random")
HEURISTIC = POLICIES.index("heuristic")

_TRUMP_MASK = TABLES.trump_mask
_SCORING_MASK = TABLES.scoring_trump_mask


@njit(cache=True, inline="always")
def choose_bid(policy, state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must, rules,
               max_points):
    """The call of ``seat`` holding ``hand``: a number from ``low..high`` (none when low > high), PASS (unless
    ``must``) or MOON (if ``moon_ok``).

    Every player's ``bid`` takes these arguments after ``policy``, whether it uses them or not:

    - ``seat`` and ``dealer`` are seats 0-3; the seat's place in the auction is ``n_calls``
      (0 = the opener, left of the dealer, .. 3 = the dealer);
    - ``calls[:n_calls]`` are the calls made before it, in auction order (int64 codes: PASS, 1..7 or MOON);
    - ``us`` and ``them`` are the scores before the hand of the seat's own team and of the other team;
    - ``low``, ``high``, ``moon_ok`` and ``must`` are the legal calls, worked out from the calls and the rules
      (``high`` = ``max_points``, the points at stake).
    """
    if policy == RANDOM:
        return random.bid(state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must, rules,
                          max_points)
    return heuristic.bid(state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must, rules,
                         max_points)


@njit(cache=True, inline="always")
def choose_trump(policy, state, hand, rules):
    if policy == RANDOM:
        return random.trump(state)
    return heuristic.trump(hand, rules)


@njit(cache=True, inline="always")
def choose_keep(policy, state, hand, t, keep_score):
    """The 6 cards kept from ``hand`` with trump ``t``.

    Card classes are kept whole in order (scoring trumps, other trumps, non-trumps) while they fit; the
    policy chooses only within the first class that does not fit, which is exactly the discard rule.
    """
    scoring = hand & _SCORING_MASK[t]
    classes = (scoring, hand & _TRUMP_MASK[t] & ~scoring, hand & ~_TRUMP_MASK[t])
    keep = ZERO
    room = 6
    for cards in classes:
        n = popcount(cards)
        if n <= room:
            keep |= cards
            room -= n
        else:
            if policy == RANDOM:
                keep |= random.choose_cards(state, cards, room)
            else:
                keep |= heuristic.choose_cards(cards, room, keep_score)
            break
    return keep


@njit(cache=True, inline="always")
def choose_play(policy, state, hand, legal, seat, t, n_in_trick, led_suit, win_seat, win_card, win_key,
                trick_mask, seen, bidding_team, give):
    """The card ``seat`` plays from ``legal`` (a non-empty mask of its legal cards).

    ``seen`` holds every card the seat knows to be out of the others' hands: its own hand and discards
    and all cards played so far, this trick's included.
    """
    if policy == RANDOM:
        return random.play(state, legal)
    return heuristic.play(legal, seat, t, n_in_trick, led_suit, win_seat, win_card, win_key, trick_mask, seen,
                          bidding_team, give)
