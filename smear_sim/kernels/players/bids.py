"""The bid dispatch, and what the players share with it: the policy codes, which players sit at a table
(``seated``) and the dispatch that compiles a player only where it plays.

It is apart from the other decisions (:mod:`smear_sim.kernels.players`) so that a search player can ask what the
other seats would have called (the worlds that read the auction, :mod:`smear_sim.kernels.worlds`) without importing
the module that dispatches to it: bids here, trump, keep and play there.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from ...core.layout import MOON, PASS, R_FORCED_BID, R_MIN_BID, R_MOON, R_ROUND_POINTS
from ...core.players import EXPERT_PART_BITS, EXPERT_WITHOUT_SCALE, PARAM_SCALE, POLICIES
from ..bits import ZERO
from . import count, equity, heuristic, heuristic_v1, random

__all__ = [
    "COUNT",
    "EQUITY",
    "EXPERT",
    "EXPERT_NO_CALLS",
    "EXPERT_NO_GAME",
    "EXPERT_NO_INFERENCE",
    "EXPERT_NO_KEEP",
    "HEURISTIC",
    "HEURISTIC_V1",
    "ORACLE",
    "PIMC",
    "RANDOM",
    "SEATED",
    "check_seated",
    "choose_bid",
    "expert_without",
    "expert_worlds",
    "group_of",
    "legal_calls",
    "policy_call",
    "policy_kind",
    "policy_param",
    "seated_arg",
    "when",
]

RANDOM = POLICIES.index("random")
HEURISTIC = POLICIES.index("heuristic")
HEURISTIC_V1 = POLICIES.index("heuristic-v1")
PIMC = POLICIES.index("pimc")
EQUITY = POLICIES.index("equity")
COUNT = POLICIES.index("count")
EXPERT = POLICIES.index("expert")
ORACLE = POLICIES.index("oracle")

# Which players sit at the table, as a type. ``seated`` has one member per group of players in SEATED, True where a
# player of that group plays and None where none does. ``heuristic`` is in no group: it is always compiled (the
# others fall back on it). Numba compiles a kernel once per argument types, so a group's code is compiled only into
# the kernels of tables where one of its players plays: a command of heuristic players compiles neither the search
# players (and their double-dummy solver) nor the other players. random, equity and count are one group: each
# differs from heuristic in a few small functions, so one kernel for every table of them compiles once rather than
# once per combination; a table with a search player compiles them too, beside the search code they cost nothing, so
# that one kernel serves a search player against any of them. heuristic-v1 (a whole second heuristic, kept for
# comparison) and each search player are groups of their own. The values are never read; seated_arg() makes the
# argument.
SEATED = ((RANDOM, EQUITY, COUNT), (HEURISTIC_V1,), (PIMC,), (EXPERT,), (ORACLE,))
_FAST_OTHERS, _SEARCHERS = SEATED[0], (PIMC, EXPERT, ORACLE)


def group_of(kind: int) -> int:
    """The member of ``seated`` that stands for the player ``kind``."""
    return next(i for i, group in enumerate(SEATED) if kind in group)


def seated_arg(policies) -> tuple:
    """The ``seated`` argument of the kernels for a table where the teams play the policy codes ``policies``
    (see SEATED)."""
    kinds = {int(p) % PARAM_SCALE for p in policies}
    if kinds & set(_SEARCHERS):
        kinds |= set(_FAST_OTHERS)
    return tuple(True if kinds & set(group) else None for group in SEATED)


def check_seated(policies, seated):
    """Raise where a policy of ``policies`` plays that ``seated`` leaves out (its code is not compiled in)."""


@overload(check_seated)
def _check_seated_impl(policies, seated):
    absent = 0
    for group, member in zip(SEATED, seated.types, strict=True):
        if isinstance(member, types.NoneType):
            for kind in group:
                absent |= 1 << kind

    def check(policies, seated):
        for p in policies:
            if (absent >> (p % PARAM_SCALE)) & 1:
                raise ValueError("a player sits at this table that the kernel was not compiled for: pass "
                                 "seated_arg(policies)")
    return check



def when(players, function, absent, arity, inline="never"):
    """A function ``f(seated, a0, .., a{arity-1})`` that is ``function(a0, ..)`` where the player ``players`` (a
    policy number, or a tuple of them: any of those) sits at the table and ``absent(a0, ..)`` where it does not,
    chosen by the type of ``seated`` as the kernel compiles, so that an absent player's code is never compiled.
    ``absent`` is never called where it stands for a player's decision (:func:`check_seated`); it may also be the
    fast players' own way, as for the hand after the auction (:func:`smear_sim.kernels.hand.contract`,
    ``inline="always"``, so that the choice costs nothing at run time). (Written out for its arity: Numba inlines
    no call with ``*args``.)"""
    params = ", ".join(f"a{i}" for i in range(arity))
    namespace = {"function": function, "absent": absent}
    exec(f"def dispatch(seated, {params}):\n    raise NotImplementedError('kernels only')\n"
         f"def present(seated, {params}):\n    return function({params})\n"
         f"def missing(seated, {params}):\n    return absent({params})\n", namespace)

    members = {group_of(kind) for kind in (players if isinstance(players, tuple) else (players,))}

    def choose(seated, *args):
        present = any(not isinstance(seated.types[m], types.NoneType) for m in members)
        return namespace["present"] if present else namespace["missing"]

    exec(f"def typing(seated, {params}):\n    return choose(seated)\n", namespace | {"choose": choose}, namespace)
    overload(namespace["dispatch"], inline=inline)(namespace["typing"])
    return namespace["dispatch"]


@njit(cache=True)
def _no_card(*args):
    return np.int64(-1)


@njit(cache=True)
def _no_cards(*args):
    return ZERO



_random_bid = when(RANDOM, random.bid, _no_card, 14)
_v1_bid = when(HEURISTIC_V1, heuristic_v1.bid, _no_card, 14)
_equity_bid = when(EQUITY, equity.bid, _no_card, 15)
_count_bid = when(COUNT, count.bid, _no_card, 14)
_expert_bid = when(EXPERT, equity.bid, _no_card, 15)  # expert calls as equity does (equity may be absent)


@njit(cache=True, inline="always")
def policy_kind(policy):
    """The policy number of a policy code (its index in ``POLICIES``)."""
    return policy % PARAM_SCALE


@njit(cache=True, inline="always")
def policy_param(policy):
    """The parameter of a policy code (0 for policies without one)."""
    return policy // PARAM_SCALE


# expert's parts as bits of its parameter above K (core.players.EXPERT_PART_BITS): set = left out
EXPERT_NO_CALLS, EXPERT_NO_INFERENCE, EXPERT_NO_KEEP, EXPERT_NO_GAME = (EXPERT_PART_BITS[part] for part in
                                                                        ("calls", "inference", "keep", "game"))


@njit(cache=True, inline="always")
def expert_worlds(param):
    """K, the worlds a decision, of an ``expert`` parameter."""
    return param % EXPERT_WITHOUT_SCALE


@njit(cache=True, inline="always")
def expert_without(param, part):
    """Whether an ``expert`` parameter leaves out ``part`` (one of the ``EXPERT_NO_*`` bits)."""
    return (param // EXPERT_WITHOUT_SCALE) & part != 0


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

    ``pimc`` and ``oracle`` bid as ``heuristic``, ``expert`` as ``equity`` (as ``heuristic`` with its calls left
    out); ``count`` bids by the count (:mod:`smear_sim.kernels.players.count`). ``model`` holds the tables the ``equity`` bidder reads
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
    if kind == EXPERT and not expert_without(policy_param(policy), EXPERT_NO_CALLS):  # else it calls as heuristic
        return _expert_bid(seated, model, state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok,
                           must, rules, max_points)
    if kind == COUNT:
        return _count_bid(seated, state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must, rules,
                          max_points)
    return heuristic.bid(state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must, rules,
                         max_points)


@njit(cache=True, inline="always")
def legal_calls(rules, position, calls):
    """The calls open to the seat at ``position`` (0 = the opener) after ``calls[:position]``:
    ``(low, high, moon_ok, must, moon_called)``. The numbers run from ``low`` to ``high`` (none when low > high),
    PASS is allowed unless ``must``, MOON when ``moon_ok``; after a moon (``moon_called``) only PASS is."""
    highest = 0
    anyone = False
    moon_called = False
    for i in range(position):
        c = calls[i]
        if c == MOON:
            moon_called = True
        elif c != PASS:
            highest = c
        anyone |= c != PASS
    max_points = 7 if rules[R_ROUND_POINTS] == 1 else 4
    if moon_called:
        return max_points + 1, max_points, False, False, True
    forced = rules[R_FORCED_BID]
    must = (forced == 0 and position == 0) or (forced == 1 and position == 3 and not anyone)
    return max(rules[R_MIN_BID], highest + 1), max_points, rules[R_MOON] == 1, must, False


@njit(cache=True)
def policy_call(state, hand, dealer, position, calls, score0, score1, rules, policies, model, seated):
    """The call the seat at ``position`` makes by its team's policy after ``calls[:position]``."""
    low, high, moon_ok, must, moon_called = legal_calls(rules, position, calls)
    if moon_called:
        return PASS
    seat = (dealer + 1 + position) % 4
    us, them = (score0, score1) if seat & 1 == 0 else (score1, score0)
    max_points = 7 if rules[R_ROUND_POINTS] == 1 else 4
    return choose_bid(policies[seat & 1], model, seated, state, hand, seat, dealer, calls, position, us, them, low,
                      high, moon_ok, must, rules, max_points)
