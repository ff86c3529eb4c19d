"""The players: one module per policy, and the one place that dispatches a decision to a policy.

Each decision (bid, trump, keep, play) takes the policy code of the seat's team (:mod:`smear_sim.core.players`
names them: ``code = number + PARAM_SCALE * parameter``) and calls that policy's function. A new player is
a module here plus a branch in each function below; the hand and game kernels call only these.
``equity`` bids from its tables (the ``model``) and otherwise plays as ``heuristic`` does, so it has a branch in
:func:`choose_bid` only.

A card decision sees the hand in progress as a hand state (:mod:`smear_sim.kernels.state`). The state holds
every hand, so each player reads only what its seat may know: its own hand, the cards it saw before play
(``ST_KNOWN``) and the public fields; :func:`smear_sim.kernels.state.sample_world` deals it the rest.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from ...core.layout import (
    R_LOW_TO,
    R_ROUND_POINTS,
    ST_BIDDER,
    ST_KNOWN,
    ST_LEADER,
    ST_LED_SUIT,
    ST_N_IN_TRICK,
    ST_PLAYED,
    ST_TRICK,
    ST_TRUMP,
    ST_WIN_CARD,
    ST_WIN_KEY,
    ST_WIN_SEAT,
)
from ...core.players import PARAM_SCALE, POLICIES
from ...core.tables import P_HIGH_JOKER, P_JACK, P_JICK, P_LOW, P_LOW_JOKER, TABLES
from ..bits import ZERO, has, lowest_card, popcount
from ..rng import random_subset
from . import equity, heuristic, heuristic_v1, pimc, random

RANDOM = POLICIES.index("random")
HEURISTIC = POLICIES.index("heuristic")
HEURISTIC_V1 = POLICIES.index("heuristic-v1")
PIMC = POLICIES.index("pimc")
EQUITY = POLICIES.index("equity")

# The ``search`` member of a player set (:func:`player_set`): its *type* says whether a search player sits at
# the table. Numba compiles each kernel once per argument type, so with FAST (None) the search player's code
# (``pimc`` and the double-dummy solver) is never compiled or linked in, and fast players' commands start
# quickly; a table with a search player runs the SEARCH specialisation. The value itself is never read.
FAST = None
SEARCH = True

_TRUMP_MASK = TABLES.trump_mask
_SCORING_MASK = TABLES.scoring_trump_mask
_TRICK_RANK = TABLES.trick_rank
_CARD_POINTS = TABLES.card_points
_POINT_CARDS = TABLES.point_cards

# Keep scores. Scoring trumps by trump rank (0 = two .. 15 = ace), in the order A 2 J K Q jick 10 HJ LJ (ranks
# 1-7 are not scoring trumps); non-trumps by printed rank (0 = two .. 12 = ace): A, K, 10, Q, J, then rank.
_KEEP_SCORING_TRUMP = np.array([95, 0, 0, 0, 0, 0, 0, 0, 70, 60, 65, 75, 90, 80, 85, 100], dtype=np.int64)
_KEEP_PLAIN = np.array([0, 1, 2, 3, 4, 5, 6, 7, 12, 10, 11, 14, 20], dtype=np.int64)


@njit(cache=True)
def policy_tables(rules):
    """Per-trump card scores derived from the rules, shared by the heuristics: ``give[t, c]`` (what a card is
    worth to whoever takes it) and ``keep[t, c]`` (how much a heuristic wants to keep it)."""
    give = np.zeros((4, 54), dtype=np.int64)
    keep = np.zeros((4, 54), dtype=np.int64)
    for t in range(4):
        for c in range(54):
            give[t, c] = _CARD_POINTS[c]
            rank = _TRICK_RANK[t, c]
            if rank < 16:
                keep[t, c] = _KEEP_PLAIN[rank]
            elif has(_SCORING_MASK[t], c):
                keep[t, c] = _KEEP_SCORING_TRUMP[rank - 16]
            else:
                keep[t, c] = 30 + rank - 16  # other trumps: high before low, after every scoring trump
        give[t, _POINT_CARDS[t, P_JACK]] += 6  # the jack of trump carries the Jack point
        if rules[R_LOW_TO] == 1:
            give[t, _POINT_CARDS[t, P_LOW]] += 6  # the two carries Low to whoever takes it
        if rules[R_ROUND_POINTS] == 1:
            for point in (P_JICK, P_HIGH_JOKER, P_LOW_JOKER):
                give[t, _POINT_CARDS[t, point]] += 6
    return give, keep


def search_arg(policies):
    """The ``search`` argument for a table where teams play the policy codes ``policies``: :data:`SEARCH` if
    a search player sits at it, else :data:`FAST`."""
    return SEARCH if any(int(p) % PARAM_SCALE == PIMC for p in policies) else FAST


@njit(cache=True)
def player_set(rules, policies, model, tables, search):
    """Who plays and under which rules, as the hand kernels take it: ``(rules, policies, model, give, keep,
    search)``, ``tables`` being ``(give, keep)`` of :func:`policy_tables` for the rules. It travels as one value,
    unpacked where used. (A parallel driver makes it inside its ``prange`` loop: Numba's parallel loops do not
    take tuples holding tuples of arrays from outside.)"""
    give, keep = tables
    return rules, policies, model, give, keep, search


def _search_play(search, state, hs, legal, rules, give, k):
    """The search player's card (``pimc:k``), compiled only where ``search`` is :data:`SEARCH`."""


@overload(_search_play, inline="always")
def _search_play_impl(search, state, hs, legal, rules, give, k):
    if isinstance(search, (types.NoneType, types.Omitted)):
        def no_search(search, state, hs, legal, rules, give, k):
            if k >= 0:  # always: the search player needs the kernel compiled for SEARCH
                raise ValueError("a search player sits at this table: run the kernel with search=SEARCH")
            return lowest_card(legal)
        return no_search

    def search_play(search, state, hs, legal, rules, give, k):
        return pimc.play(state, hs, legal, rules, give, k)
    return search_play


@njit(cache=True, inline="always")
def policy_kind(policy):
    """The policy number of a policy code (its index in ``POLICIES``)."""
    return policy % PARAM_SCALE


@njit(cache=True, inline="always")
def policy_param(policy):
    """The parameter of a policy code (0 for policies without one)."""
    return policy // PARAM_SCALE


@njit(cache=True, inline="always")
def choose_bid(policy, model, state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must, rules,
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

    ``pimc`` bids as ``heuristic``. ``model`` holds the tables the ``equity`` bidder reads
    (:mod:`smear_sim.core.bidder`); the others ignore it.
    """
    kind = policy_kind(policy)
    if kind == RANDOM:
        return random.bid(state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must, rules,
                          max_points)
    if kind == HEURISTIC_V1:
        return heuristic_v1.bid(state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must,
                                rules, max_points)
    if kind == EQUITY:
        return equity.bid(model, state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must, rules,
                          max_points)
    return heuristic.bid(state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must, rules,
                         max_points)


@njit(cache=True, inline="always")
def choose_trump(policy, state, hand, rules):
    kind = policy_kind(policy)
    if kind == RANDOM:
        return random.trump(state)
    if kind == HEURISTIC_V1:
        return heuristic_v1.trump(hand, rules)
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
            kind = policy_kind(policy)
            if kind == RANDOM:
                keep |= random_subset(state, cards, room)
            elif kind == HEURISTIC_V1:
                keep |= heuristic_v1.choose_cards(cards, room, keep_score)
            else:
                keep |= heuristic.choose_cards(cards, room, keep_score)
            break
    return keep


@njit(cache=True, inline="always")
def choose_play(policy, state, hs, legal, rules, give, search):
    """The card the seat to play (``state.to_play(hs)``) plays from ``legal``, a non-empty mask of its legal
    cards. ``state`` is the hand's random stream, ``hs`` the hand state, ``give`` the card table of
    :func:`policy_tables` for the rules and ``search`` :data:`SEARCH` where a search player may play
    (:data:`FAST` compiles no search code). (The players read ``hs`` by plain indexing: in Numba an array handed
    to a helper costs a reference count, and this runs for every card of every hand.)"""
    kind = policy_kind(policy)
    if kind == RANDOM:
        return random.play(state, legal)
    if kind == HEURISTIC_V1:
        n = hs[ST_N_IN_TRICK]
        seat = (hs[ST_LEADER] + n) % 4
        seen = np.uint64(hs[ST_KNOWN + seat])
        for other in range(4):
            seen |= np.uint64(hs[ST_PLAYED + other])
        return heuristic_v1.play(legal, seat, hs[ST_TRUMP], n, hs[ST_LED_SUIT], hs[ST_WIN_SEAT], hs[ST_WIN_CARD],
                                 hs[ST_WIN_KEY], np.uint64(hs[ST_TRICK]), seen, hs[ST_BIDDER] & 1, give)
    if kind == PIMC:
        return _search_play(search, state, hs, legal, rules, give, policy_param(policy))
    return heuristic.play(hs, legal, rules, give)


__all__ = [
    "EQUITY",
    "FAST",
    "HEURISTIC",
    "HEURISTIC_V1",
    "PIMC",
    "RANDOM",
    "SEARCH",
    "choose_bid",
    "choose_keep",
    "choose_play",
    "choose_trump",
    "player_set",
    "policy_kind",
    "policy_param",
    "policy_tables",
    "search_arg",
]
