"""The bid dispatch, and what the players share with it: the policy codes, which players sit at a table
(``seated``), the dispatch that compiles a player only where it plays, and :func:`dispatcher`, which writes each
decision's dispatch from the player registry (:data:`smear_sim.core.players.PLAYERS`).

It is apart from the other decisions (:mod:`smear_sim.kernels.players`) so that a search player can ask what the
other seats would have called (the worlds that read the auction, :mod:`smear_sim.kernels.worlds`) without importing
the module that dispatches to it: bids here, trump, keep and play there. So a player that bids exports its ``bid``
from a module that does not import the search (or calls as another player: ``calls_as``).
"""

from __future__ import annotations

import importlib
import sys

import numpy as np
from numba import njit, types
from numba.extending import overload

from ...core.layout import MOON, PASS, R_FORCED_BID, R_MIN_BID, R_MOON, R_POINTS_AT_STAKE
from ...core.players import EXPERT_PART_BITS, EXPERT_WITHOUT_SCALE, PARAM_SCALE, PLAYERS, POLICIES, TOP_SCALE
from ..bits import ZERO

__all__ = [
    "COUNT",
    "EQUITY",
    "EXPERT",
    "EXPERT_NO_CALLS",
    "EXPERT_NO_GAME",
    "EXPERT_NO_INFERENCE",
    "EXPERT_NO_KEEP",
    "GUIDED",
    "HEURISTIC",
    "HEURISTIC_V1",
    "ORACLE",
    "PIMC",
    "RANDOM",
    "SEARCHED",
    "SEATED",
    "check_seated",
    "choose_bid",
    "decisions_of",
    "dispatcher",
    "expert_without",
    "expert_worlds",
    "group_of",
    "guided_top",
    "legal_calls",
    "policy_call",
    "policy_kind",
    "policy_param",
    "seated_arg",
    "when",
]

# The codes of the players that the kernels name (each its index in POLICIES); the dispatch itself reads the registry.
RANDOM = POLICIES.index("random")
HEURISTIC = POLICIES.index("heuristic")
HEURISTIC_V1 = POLICIES.index("heuristic-v1")
PIMC = POLICIES.index("pimc")
EQUITY = POLICIES.index("equity")
COUNT = POLICIES.index("count")
EXPERT = POLICIES.index("expert")
ORACLE = POLICIES.index("oracle")
GUIDED = POLICIES.index("guided")
DEFAULT = next(kind for kind, p in enumerate(PLAYERS) if p.group is None)  # heuristic: every player falls back on it

# Which players sit at the table, as a type. ``seated`` has one member per group of players in SEATED (the
# registry's ``group``, in the order each first appears), True where a player of that group plays and None where none
# does. The player of no group (``heuristic``) is always compiled: the others fall back on it. Numba compiles a kernel
# once per argument types, so a group's code is compiled only into the kernels of tables where one of its players
# plays: a command of heuristic players compiles neither the search players (and their double-dummy solver) nor the
# other players. random, equity and count are one group, "light": each differs from heuristic in a few small
# functions, so one kernel for every table of them compiles once rather than once per combination; a table with a
# search player compiles them too, beside the search code they cost nothing, so that one kernel serves a search player
# against any of them. heuristic-v1 (a whole second heuristic, kept for comparison) and each search player are groups
# of their own. The values are never read; seated_arg() makes the argument.
_GROUPS = tuple(dict.fromkeys(p.group for p in PLAYERS if p.group is not None))
SEATED = tuple(tuple(kind for kind, p in enumerate(PLAYERS) if p.group == group) for group in _GROUPS)
_FAST_OTHERS = tuple(kind for kind, p in enumerate(PLAYERS) if p.group == "light")
_SEARCHERS = tuple(kind for kind, p in enumerate(PLAYERS) if p.searches)
# The players that make a searched decision: a table where one sits plays the hand that keeps the calls
# (:func:`smear_sim.kernels.hand.contract`).
SEARCHED = tuple(kind for kind, p in enumerate(PLAYERS) if p.searched)


def group_of(kind: int) -> int:
    """The member of ``seated`` that stands for the player ``kind``."""
    return next(i for i, group in enumerate(SEATED) if kind in group)


def seated_arg(policies) -> tuple:
    """The ``seated`` argument of the kernels for a table where the teams play the policy codes ``policies``
    (see SEATED); a ValueError for a code of no registered player."""
    kinds = {int(p) % PARAM_SCALE for p in policies}
    unknown = sorted(kinds - set(range(len(PLAYERS))))
    if unknown:
        raise ValueError(f"policy codes of no registered player: {unknown} (core.players.PLAYERS has "
                         f"{len(PLAYERS)})")
    if kinds & set(_SEARCHERS):
        kinds |= set(_FAST_OTHERS)
    return tuple(True if kinds & set(group) else None for group in SEATED)


def check_seated(policies, seated):
    """Raise where a policy of ``policies`` plays that ``seated`` leaves out (its code is not compiled in), or is no
    registered player (the dispatch trusts the codes it is given: every kernel that seats players checks them here
    first)."""


@overload(check_seated)
def _check_seated_impl(policies, seated):
    absent = 0
    for group, member in zip(SEATED, seated.types, strict=True):
        if isinstance(member, types.NoneType):
            for kind in group:
                absent |= 1 << kind
    n_players = len(PLAYERS)

    def check(policies, seated):
        for p in policies:
            kind = p % PARAM_SCALE
            if kind >= n_players:
                raise ValueError("a policy code of no registered player (core.players.PLAYERS)")
            if (absent >> kind) & 1:
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
def guided_top(param):
    """N, the trump-and-keep candidates searched, of a ``guided`` parameter (its ``top-N``, above the parts)."""
    return param // TOP_SCALE


# -- the dispatch, written from the registry --------------------------------------------------------------------


def decisions_of(kind: int, decision: str):
    """``(function, argument names)`` by which the player ``kind`` makes ``decision`` (its kernel module's
    ``DECISIONS``; ``bid`` from the player it calls as, where it names one); None where it leaves the decision to
    the default. The argument names are the dispatch's own (:func:`dispatcher`), and ``param``, the parameter of
    its code."""
    p = PLAYERS[kind]
    if decision not in p.decisions:
        return None
    owner = p.calls_as if decision == "bid" and p.calls_as else p.name
    module = importlib.import_module(f"{__package__}.{PLAYERS[POLICIES.index(owner)].kernel_module}")
    return module.DECISIONS[decision]


def dispatcher(name: str, params: str, decision: str, absent, default: str | None = None,
               namespace: dict | None = None):
    """The kernels' dispatch of ``decision``: a function ``name(params)`` (``params`` name ``policy`` and ``seated``
    among the decision's arguments) that calls the decision of the player of the code ``policy``, where that player
    makes it, each through :func:`when` (compiled only where the player sits); else the default player's
    (``heuristic``'s), or ``default``, an expression of ``params`` and ``namespace``, for a decision it does not make
    (ZERO for a searched decision: not searched). A part of a player left out (``Part.decisions``) leaves the decision
    to the default too.
    Written out as source, one branch per player, so that Numba inlines it into the hand and the fast players' card
    loop runs the branches it ran when they were written by hand. (``absent`` stands for an absent player's decision:
    :func:`_no_card` or :func:`_no_cards`; it is never called, :func:`check_seated`.)"""
    names = [n.strip() for n in params.split(",")]
    namespace = dict(namespace or {})
    namespace.setdefault("__name__", __name__)
    namespace.update(policy_kind=policy_kind, policy_param=policy_param)
    lines = [f"def {name}({params}):", "    kind = policy_kind(policy)"]
    for kind, p in enumerate(PLAYERS):
        made = decisions_of(kind, decision)
        if made is None or kind == DEFAULT:
            continue
        function, args = made
        missing = set(args) - set(names) - {"param"}
        if missing:
            raise TypeError(f"player {p.name}'s {decision} takes {sorted(missing)}, which the dispatch does not have")
        namespace[f"_player_{kind}"] = when(kind, function, absent, len(args))
        guard = "".join(f" and (policy_param(policy) // {EXPERT_WITHOUT_SCALE}) & {1 << i} == 0"
                        for i, part in enumerate(p.parts) if decision in part.decisions)
        call_args = ", ".join("policy_param(policy)" if a == "param" else a for a in args)
        lines += [f"    if kind == {kind}{guard}:", f"        return _player_{kind}(seated, {call_args})"]
    if default is None:
        function, args = decisions_of(DEFAULT, decision)
        namespace["_default"] = function
        default = f"_default({', '.join(args)})"
    lines.append(f"    return {default}")
    # Compiled as if written in the module that asks for it: Numba caches a function beside its source file, so the
    # dispatch's direct calls (the page's bots, the tests) load from the cache as the hand-written ones did.
    source_file = sys.modules[namespace["__name__"]].__file__
    exec(compile("\n".join(lines) + "\n", source_file, "exec"), namespace)
    return njit(cache=True, inline="always")(namespace[name])


# The call of ``seat`` holding ``hand``: a number from ``low..high`` (none when low > high), PASS (unless ``must``) or
# MOON (if ``moon_ok``). Every player's ``bid`` takes these arguments after ``policy``, whether it uses them or not:
#
# - ``seat`` and ``dealer`` are seats 0-3; the seat's place in the auction is ``n_calls`` (0 = the opener, left of the
#   dealer, .. 3 = the dealer);
# - ``calls[:n_calls]`` are the calls made before it, in auction order (int64 codes: PASS, 1..7 or MOON);
# - ``us`` and ``them`` are the scores before the hand of the seat's own team and of the other team;
# - ``low``, ``high``, ``moon_ok`` and ``must`` are the legal calls, worked out from the calls and the rules (``high``
#   = ``max_points``, the points at stake).
#
# ``pimc`` and ``oracle`` bid as ``heuristic``, ``expert`` as ``equity`` (as ``heuristic`` with its calls left out);
# ``count`` bids by the count (:mod:`smear_sim.kernels.players.count`). ``bidder_arrays`` holds the tables the ``equity``
# bidder reads (:mod:`smear_sim.core.bidder`); the others ignore it. ``seated`` says which players are compiled in
# (SEATED).
choose_bid = dispatcher(
    "choose_bid",
    "policy, bidder_arrays, seated, state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must, rules, "
    "max_points",
    "bid", _no_card)


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
    max_points = rules[R_POINTS_AT_STAKE]
    if moon_called:
        return max_points + 1, max_points, False, False, True
    forced = rules[R_FORCED_BID]
    must = (forced == 0 and position == 0) or (forced == 1 and position == 3 and not anyone)
    return max(rules[R_MIN_BID], highest + 1), max_points, rules[R_MOON] == 1, must, False


@njit(cache=True)
def policy_call(state, hand, dealer, position, calls, score0, score1, rules, policies, bidder_arrays, seated):
    """The call the seat at ``position`` makes by its team's policy after ``calls[:position]``."""
    low, high, moon_ok, must, moon_called = legal_calls(rules, position, calls)
    if moon_called:
        return PASS
    seat = (dealer + 1 + position) % 4
    us, them = (score0, score1) if seat & 1 == 0 else (score1, score0)
    max_points = rules[R_POINTS_AT_STAKE]
    return choose_bid(policies[seat & 1], bidder_arrays, seated, state, hand, seat, dealer, calls, position, us, them, low,
                      high, moon_ok, must, rules, max_points)
