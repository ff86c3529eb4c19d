"""``guided:K:top-N``: ``expert:K`` whose trump-and-keep search tries only the N candidates the learned net values
highest (issue 48, section 3: the net guides the search).

``expert``'s trump and keep search (:func:`smear_sim.kernels.players.expert.value_keeps`) plays every candidate out
double dummy on K worlds, up to 12 candidates for the bidder; it is most of ``expert``'s time. The net's keep head
values a candidate in microseconds on the seat's view (:func:`smear_sim.kernels.players.net.keep_value`, the value
the ``net`` player keeps by). Here the candidates are ``expert``'s own (:func:`~smear_sim.kernels.players.expert.
bidder_candidates`, :func:`~smear_sim.kernels.players.expert.candidate_keeps`); the net values each, and only the N
of highest value (the first among equals) go on to the search, in their own order, so that ties in the search still
go to the earliest (the heuristic's where it is among them). Where N is at least the number of candidates, or no net
is loaded, nothing is dropped and the search is ``expert``'s, draw for draw: ``guided:K:top-12`` plays as
``expert:K``. With N = 1 the net alone chooses and nothing is searched or drawn.

Everything else is ``expert``'s: its calls (``equity``'s), its worlds, its card play (:func:`expert.play
<smear_sim.kernels.players.expert.play>`) and the parts it may leave out (``guided:K:top-N:no-PART``). The net reads
only the seat's view (the kitty only for the bidder), and the candidates come from its own cards.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.layout import SEARCHED_TRUMP_SHIFT
from ..bits import ZERO
from ..borrow import REFCOUNTED
from . import expert
from .bids import EXPERT_NO_KEEP, expert_without, guided_top
from .expert import MAX_CANDIDATES, bidder_candidates, candidate_keeps, value_keeps
from .net import keep_value, net_loaded

__all__ = ["DECISIONS", "keep", "net_top", "trump_keep"]

_TRUMP_SHIFT = np.uint64(SEARCHED_TRUMP_SHIFT)


@njit(cache=True, **REFCOUNTED)
def net_top(seat, kitty, bidder, trumps, keeps, n, top, dealer, calls, n_calls, score0, score1, bid, rules,
            bidder_arrays, net_work):
    """Keep in ``trumps[:n]`` and ``keeps[:n]`` only the ``top`` candidates of highest net value (the first among
    equals), in their order; returns how many are left. Nothing is valued or dropped where ``top >= n`` or no net is
    loaded."""
    if top >= n or not net_loaded(bidder_arrays):
        return n
    values = np.empty(n, dtype=np.float32)
    for a in range(n):
        values[a] = keep_value(seat, kitty, bidder, trumps[a], keeps[a], dealer, calls, n_calls, score0, score1, bid,
                               rules, bidder_arrays, net_work)
    chosen = np.zeros(n, dtype=np.bool_)
    for _ in range(top):
        best = -1
        for a in range(n):
            if not chosen[a] and (best < 0 or values[a] > values[best]):
                best = a
        chosen[best] = True
    m = 0
    for a in range(n):
        if chosen[a]:
            trumps[m] = trumps[a]
            keeps[m] = keeps[a]
            m += 1
    return m


@njit(cache=True, **REFCOUNTED)
def trump_keep(rng, own9, kitty, bidder, fixed_trump, dealer, calls, n_calls, score0, score1, bid, rules, keep_table,
               policies, bidder_arrays, k, net_work):
    """The bidder's trump and keep (module docstring), packed as :func:`expert.trump_keep
    <smear_sim.kernels.players.expert.trump_keep>` packs them; ZERO when ``k`` leaves the keep out."""
    if expert_without(k, EXPERT_NO_KEEP):
        return ZERO
    trumps = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    keeps = np.zeros(MAX_CANDIDATES, dtype=np.uint64)
    n = bidder_candidates(own9 | kitty, fixed_trump, rules, keep_table, trumps, keeps)
    n = net_top(bidder, kitty, bidder, trumps, keeps, n, guided_top(k), dealer, calls, n_calls, score0, score1, bid,
                rules, bidder_arrays, net_work)
    best = 0
    if n > 1:
        best = value_keeps(rng, bidder, own9, kitty, bidder, trumps, keeps, n, dealer, calls, n_calls, score0, score1,
                           bid, rules, keep_table, policies, bidder_arrays, k)
    return keeps[best] | (np.uint64(trumps[best]) << _TRUMP_SHIFT)


@njit(cache=True, **REFCOUNTED)
def keep(rng, own9, seat, bidder, t, dealer, calls, n_calls, score0, score1, bid, rules, keep_table, policies,
         bidder_arrays, k, net_work):
    """A defender's keep (module docstring); ``own9`` is its hand, ``t`` the trump named. ZERO when ``k`` leaves the
    keep out."""
    if expert_without(k, EXPERT_NO_KEEP):
        return ZERO
    keeps = np.zeros(MAX_CANDIDATES, dtype=np.uint64)
    n = candidate_keeps(own9, t, keep_table[t], keeps, 0)
    if n == 1:
        return keeps[0]
    trumps = np.full(MAX_CANDIDATES, t, dtype=np.int64)
    n = net_top(seat, ZERO, bidder, trumps, keeps, n, guided_top(k), dealer, calls, n_calls, score0, score1, bid,
                rules, bidder_arrays, net_work)
    if n == 1:
        return keeps[0]
    best = value_keeps(rng, seat, own9, ZERO, bidder, trumps, keeps, n, dealer, calls, n_calls, score0, score1, bid,
                       rules, keep_table, policies, bidder_arrays, k)
    return keeps[best]


# The decisions this player makes (core.players.PLAYERS), as the dispatch calls them (kernels.players.bids.dispatcher):
# each the function and the dispatch's arguments it takes, in order. Its calls are equity's (calls_as), its cards
# expert's.
_SEARCH = ("dealer", "calls", "n_calls", "score0", "score1", "bid", "rules", "keep", "policies", "bidder_arrays", "param",
           "net_work")
DECISIONS = {
    "search_trump_keep": (trump_keep, ("state", "own9", "kitty", "bidder", "trump") + _SEARCH),
    "search_keep": (keep, ("state", "own9", "seat", "bidder", "t") + _SEARCH),
    "search_play": expert.DECISIONS["search_play"],
}
