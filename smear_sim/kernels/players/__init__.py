"""The players: one module per policy, and the one place that dispatches a decision to a policy.

Each decision (bid, trump, keep, play) takes the policy code of the seat's team (:mod:`smear_sim.core.players`
names them: ``code = number + PARAM_SCALE * parameter``) and calls that policy's function. A new player is
a module here, a member of SEATED and a branch in each function below (through ``_when``, so that its code is
compiled only where it plays); the hand and game kernels call only these.
``equity`` bids from its tables (the ``model``) and otherwise plays as ``heuristic`` does, so it has a branch in
:func:`choose_bid` only; so does ``count``, which bids by the count a person adds up (:mod:`smear_sim.core.count`).

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
from ..bits import ZERO, has, popcount
from ..rng import random_subset
from . import count, equity, heuristic, heuristic_v1, pimc, random

RANDOM = POLICIES.index("random")
HEURISTIC = POLICIES.index("heuristic")
HEURISTIC_V1 = POLICIES.index("heuristic-v1")
PIMC = POLICIES.index("pimc")
EQUITY = POLICIES.index("equity")
COUNT = POLICIES.index("count")

# Which players sit at the table, as a type. ``seated`` has one member per player in SEATED (every player but
# ``heuristic``, which is always compiled: the others fall back on it), True where that player plays and None where
# it does not. Numba compiles a kernel once per argument types, so a player's code is compiled only into the
# kernels of tables where it plays: a command of heuristic players compiles neither the search player (pimc and
# the double-dummy solver) nor the other players. The values are never read; seated_arg() makes the argument.
SEATED = (RANDOM, HEURISTIC_V1, PIMC, EQUITY, COUNT)

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


def seated_arg(policies) -> tuple:
    """The ``seated`` argument of the kernels for a table where the teams play the policy codes ``policies``
    (see SEATED)."""
    kinds = {int(p) % PARAM_SCALE for p in policies}
    return tuple(True if kind in kinds else None for kind in SEATED)


def check_seated(policies, seated):
    """Raise where a policy of ``policies`` plays that ``seated`` leaves out (its code is not compiled in)."""


@overload(check_seated)
def _check_seated_impl(policies, seated):
    absent = 0
    for kind, member in zip(SEATED, seated.types, strict=True):
        if isinstance(member, types.NoneType):
            absent |= 1 << kind

    def check(policies, seated):
        for p in policies:
            if (absent >> (p % PARAM_SCALE)) & 1:
                raise ValueError("a player sits at this table that the kernel was not compiled for: pass "
                                 "seated_arg(policies)")
    return check


@njit(cache=True)
def player_set(rules, policies, model, tables, seated):
    """Who plays and under which rules, as the hand kernels take it: ``(rules, policies, model, give, keep,
    seated)``, ``tables`` being ``(give, keep)`` of :func:`policy_tables` for the rules and ``seated`` the players
    compiled in (SEATED). It travels as one value, unpacked where used."""
    check_seated(policies, seated)
    give, keep = tables
    return rules, policies, model, give, keep, seated


def _when(member, function, absent, arity):
    """A function ``f(seated, a0, .., a{arity-1})`` that is ``function(a0, ..)`` where the player
    ``SEATED[member]`` sits at the table and ``absent(a0, ..)`` (never called: :func:`check_seated`) where it does
    not, chosen by the type of ``seated`` as the kernel compiles, so that an absent player's code is never compiled.
    (Written out for its arity: Numba inlines no call with ``*args``.)"""
    params = ", ".join(f"a{i}" for i in range(arity))
    namespace = {"function": function, "absent": absent}
    exec(f"def dispatch(seated, {params}):\n    raise NotImplementedError('kernels only')\n"
         f"def present(seated, {params}):\n    return function({params})\n"
         f"def missing(seated, {params}):\n    return absent({params})\n", namespace)

    def choose(seated, *args):
        return namespace["missing"] if isinstance(seated.types[member], types.NoneType) else namespace["present"]

    exec(f"def typing(seated, {params}):\n    return choose(seated)\n", namespace | {"choose": choose}, namespace)
    overload(namespace["dispatch"])(namespace["typing"])
    return namespace["dispatch"]


@njit(cache=True)
def _no_card(*args):
    return np.int64(-1)


@njit(cache=True)
def _no_cards(*args):
    return ZERO


@njit(cache=True, inline="always")
def _heuristic_v1_play(hs, legal, give):
    n = hs[ST_N_IN_TRICK]
    seat = (hs[ST_LEADER] + n) % 4
    seen = np.uint64(hs[ST_KNOWN + seat])
    for other in range(4):
        seen |= np.uint64(hs[ST_PLAYED + other])
    return heuristic_v1.play(legal, seat, hs[ST_TRUMP], n, hs[ST_LED_SUIT], hs[ST_WIN_SEAT], hs[ST_WIN_CARD],
                             hs[ST_WIN_KEY], np.uint64(hs[ST_TRICK]), seen, hs[ST_BIDDER] & 1, give)


_RANDOM, _V1, _PIMC, _EQUITY, _COUNT = range(5)  # members of seated
_random_bid = _when(_RANDOM, random.bid, _no_card, 14)
_random_trump = _when(_RANDOM, random.trump, _no_card, 1)
_random_keep = _when(_RANDOM, random_subset, _no_cards, 3)
_random_play = _when(_RANDOM, random.play, _no_card, 2)
_v1_bid = _when(_V1, heuristic_v1.bid, _no_card, 14)
_v1_trump = _when(_V1, heuristic_v1.trump, _no_card, 2)
_v1_keep = _when(_V1, heuristic_v1.choose_cards, _no_cards, 3)
_v1_play = _when(_V1, _heuristic_v1_play, _no_card, 3)
_pimc_play = _when(_PIMC, pimc.play, _no_card, 6)
_equity_bid = _when(_EQUITY, equity.bid, _no_card, 15)
_count_bid = _when(_COUNT, count.bid, _no_card, 14)


@njit(cache=True, inline="always")
def policy_kind(policy):
    """The policy number of a policy code (its index in ``POLICIES``)."""
    return policy % PARAM_SCALE


@njit(cache=True, inline="always")
def policy_param(policy):
    """The parameter of a policy code (0 for policies without one)."""
    return policy // PARAM_SCALE


@njit(cache=True, inline="always")
def choose_bid(policy, model, seated, state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must,
               rules, max_points):
    """The call of ``seat`` holding ``hand``: a number from ``low..high`` (none when low > high), PASS (unless
    ``must``) or MOON (if ``moon_ok``).

    Every player's ``bid`` takes these arguments after ``policy``, whether it uses them or not:

    - ``seat`` and ``dealer`` are seats 0-3; the seat's place in the auction is ``n_calls``
      (0 = the opener, left of the dealer, .. 3 = the dealer);
    - ``calls[:n_calls]`` are the calls made before it, in auction order (int64 codes: PASS, 1..7 or MOON);
    - ``us`` and ``them`` are the scores before the hand of the seat's own team and of the other team;
    - ``low``, ``high``, ``moon_ok`` and ``must`` are the legal calls, worked out from the calls and the rules
      (``high`` = ``max_points``, the points at stake).

    ``pimc`` bids as ``heuristic``; ``count`` bids by the count (:mod:`smear_sim.kernels.players.count`). ``model`` holds the tables the ``equity`` bidder reads
    (:mod:`smear_sim.core.bidder`); the others ignore it. ``seated`` says which players are compiled in (SEATED).
    """
    kind = policy_kind(policy)
    if kind == RANDOM:
        return _random_bid(seated, state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must,
                           rules, max_points)
    if kind == HEURISTIC_V1:
        return _v1_bid(seated, state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must, rules,
                       max_points)
    if kind == EQUITY:
        return _equity_bid(seated, model, state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok,
                           must, rules, max_points)
    if kind == COUNT:
        return _count_bid(seated, state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must, rules,
                          max_points)
    return heuristic.bid(state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must, rules,
                         max_points)


@njit(cache=True, inline="always")
def choose_trump(policy, seated, state, hand, rules):
    kind = policy_kind(policy)
    if kind == RANDOM:
        return _random_trump(seated, state)
    if kind == HEURISTIC_V1:
        return _v1_trump(seated, hand, rules)
    return heuristic.trump(hand, rules)


@njit(cache=True, inline="always")
def choose_keep(policy, seated, state, hand, t, keep_score):
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
                keep |= _random_keep(seated, state, cards, room)
            elif kind == HEURISTIC_V1:
                keep |= _v1_keep(seated, cards, room, keep_score)
            else:
                keep |= heuristic.choose_cards(cards, room, keep_score)
            break
    return keep


@njit(cache=True, inline="always")
def choose_play(policy, seated, state, hs, legal, rules, give):
    """The card the seat to play (``state.to_play(hs)``) plays from ``legal``, a non-empty mask of its legal
    cards. ``state`` is the hand's random stream, ``hs`` the hand state, ``give`` the card table of
    :func:`policy_tables` for the rules; ``seated`` says which players are compiled in (SEATED). (The players read ``hs`` by plain indexing: in Numba an array handed
    to a helper costs a reference count, and this runs for every card of every hand.)"""
    kind = policy_kind(policy)
    if kind == RANDOM:
        return _random_play(seated, state, legal)
    if kind == HEURISTIC_V1:
        return _v1_play(seated, hs, legal, give)
    if kind == PIMC:
        return _pimc_play(seated, state, hs, legal, rules, give, policy_param(policy))
    return heuristic.play(hs, legal, rules, give)


__all__ = [
    "COUNT",
    "EQUITY",
    "HEURISTIC",
    "HEURISTIC_V1",
    "PIMC",
    "RANDOM",
    "SEATED",
    "check_seated",
    "choose_bid",
    "choose_keep",
    "choose_play",
    "choose_trump",
    "player_set",
    "policy_kind",
    "policy_param",
    "policy_tables",
    "seated_arg",
]
