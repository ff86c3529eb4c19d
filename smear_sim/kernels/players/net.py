"""``net``: the learned player (issue 47, docs/learned.md). It calls as ``equity`` (its tables) and makes every
decision after the auction with the net's two heads, on the seat's view tensor (:mod:`smear_sim.kernels.net`), the
very tensors the training data recorded (:mod:`smear_sim.kernels.drivers.net_data`):

- **Trump with its keep** (the bidder) and **a defender's keep**: the candidates ``expert`` searches
  (:func:`~smear_sim.kernels.players.expert.bidder_candidates`, :func:`~smear_sim.kernels.players.expert.candidate_keeps`),
  each valued by the ``keep`` head on the view of the hand before the first lead with that keep held
  (:func:`~smear_sim.kernels.net.before_play_state`); the best is kept, ties going to the first (the heuristic's).
- **A card**: the ``card`` head's 54 outputs on the view of the hand as it stands; the legal card of highest output
  (ties: the lowest card code). A single legal card is played without asking the net.

The weights ride in the players' arrays (``bidder_arrays`` from :data:`smear_sim.core.bidder.NET_AT`); the scratch
(:func:`new_net_work`) is made once per hand by the hand that keeps the calls, so no decision allocates and each runs
without reference counting. Where no net is loaded (the placeholders of :func:`smear_sim.core.bidder.no_net_arrays`;
the entry points refuse such a run first) it decides as ``heuristic``.

It reads nothing its seat cannot see: the tensor is the seat's view, the kitty (``ST_KITTY``) only for the bidder's
seat; the candidates come from its own cards.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.bidder import NET_AT, NET_LAYERS
from ...core.layout import SEARCHED_TRUMP_SHIFT, ST_KITTY, ST_SIZE
from ...core.view_layout import VT_SIZE
from ..bits import ONE, ZERO, lowest_card, popcount
from ..borrow import NO_REFCOUNT, REFCOUNTED
from ..net.mlp import forward
from ..net.tensor import VIEW_WORK_SIZE, before_play_state, write_view_tensor
from ..state import to_play
from . import heuristic
from .expert import MAX_CANDIDATES, bidder_candidates, candidate_keeps

__all__ = ["DECISIONS", "card_values", "keep", "keep_value", "net_loaded", "new_net_work", "play", "trump_keep"]

_TRUMP_SHIFT = np.uint64(SEARCHED_TRUMP_SHIFT)
_CARD = NET_AT  # the card head's layers in bidder_arrays
_KEEP = NET_AT + NET_LAYERS  # the keep head's
# Each as its own constant: a tuple of mixed arrays is indexed only by a constant Numba sees, not by a sum.
_CARD_END = _CARD + NET_LAYERS
_KEEP_END = _KEEP + NET_LAYERS
_CARD_B0 = _CARD + 1
_KEEP_B0 = _KEEP + 1
_CARD_B2 = _CARD + 5
_KEEP_B2 = _KEEP + 5


@njit(cache=True, inline="always")
def net_loaded(bidder_arrays):
    """Whether ``bidder_arrays`` carry a net (its card head's first layer has a row per view-tensor entry)."""
    return bidder_arrays[_CARD].shape[0] == VT_SIZE and bidder_arrays[_KEEP].shape[0] == VT_SIZE


@njit(cache=True, **REFCOUNTED)
def new_net_work(bidder_arrays):
    """The scratch of the net's decisions, made once per hand: ``(tensor, card_acc, card_hidden, card_out,
    keep_acc, keep_hidden, keep_out, view_work, hand_state, trumps, keeps)``."""
    card_h = bidder_arrays[_CARD_B0].shape[0]
    keep_h = bidder_arrays[_KEEP_B0].shape[0]
    return (np.zeros(VT_SIZE, dtype=np.float32),
            np.zeros(card_h, dtype=np.float32), np.zeros(card_h, dtype=np.float32),
            np.zeros(bidder_arrays[_CARD_B2].shape[0], dtype=np.float32),
            np.zeros(keep_h, dtype=np.float32), np.zeros(keep_h, dtype=np.float32),
            np.zeros(bidder_arrays[_KEEP_B2].shape[0], dtype=np.float32),
            np.zeros(VIEW_WORK_SIZE, dtype=np.int64), np.zeros(ST_SIZE, dtype=np.int64),
            np.zeros(MAX_CANDIDATES, dtype=np.int64), np.zeros(MAX_CANDIDATES, dtype=np.uint64))


@njit(cache=True, **NO_REFCOUNT)
def keep_value(seat, kitty, bidder, t, kept, dealer, calls, n_calls, score0, score1, bid, rules, bidder_arrays,
               net_work):
    """The keep head's value of ``seat`` keeping ``kept`` with trump ``t``: on its view of the hand before the first
    lead, as the training data writes it (``_record_keeps`` of :mod:`smear_sim.kernels.drivers.net_data`)."""
    tensor = net_work[0]
    hs = net_work[8]
    before_play_state(hs, seat, kept, dealer, calls, n_calls, score0, score1, bidder, bid, t)
    write_view_tensor(tensor, hs, seat, kitty, rules, net_work[7])
    out = net_work[6]
    forward(bidder_arrays[_KEEP:_KEEP_END], tensor, net_work[4], net_work[5], out)
    return out[0]


@njit(cache=True, **NO_REFCOUNT)
def _best_keep(seat, kitty, bidder, n, dealer, calls, n_calls, score0, score1, bid, rules, bidder_arrays, net_work):
    """The candidate (of ``net_work``'s ``trumps`` and ``keeps``) of highest value; the first among equals."""
    trumps = net_work[9]
    keeps = net_work[10]
    best = 0
    best_value = np.float32(0)
    for a in range(n):
        value = keep_value(seat, kitty, bidder, trumps[a], keeps[a], dealer, calls, n_calls, score0, score1, bid,
                           rules, bidder_arrays, net_work)
        if a == 0 or value > best_value:
            best = a
            best_value = value
    return best


@njit(cache=True, **NO_REFCOUNT)
def trump_keep(own9, kitty, bidder, fixed_trump, dealer, calls, n_calls, score0, score1, bid, rules, keep_table,
               bidder_arrays, net_work):
    """The bidder's trump and keep by the net (module docstring), packed as
    :func:`smear_sim.kernels.players.expert.trump_keep` packs them; ``fixed_trump`` -1 lets it choose the trump.
    ZERO without a net (the heuristic's trump and keep stand)."""
    if not net_loaded(bidder_arrays):
        return ZERO
    trumps = net_work[9]
    keeps = net_work[10]
    n = bidder_candidates(own9 | kitty, fixed_trump, rules, keep_table, trumps, keeps)
    best = 0
    if n > 1:
        best = _best_keep(bidder, kitty, bidder, n, dealer, calls, n_calls, score0, score1, bid, rules,
                          bidder_arrays, net_work)
    return keeps[best] | (np.uint64(trumps[best]) << _TRUMP_SHIFT)


@njit(cache=True, **NO_REFCOUNT)
def keep(own9, seat, bidder, t, dealer, calls, n_calls, score0, score1, bid, rules, keep_table, bidder_arrays,
         net_work):
    """A defender's keep by the net (module docstring); ``own9`` is its hand, ``t`` the trump named. ZERO without a
    net (the heuristic's keep stands)."""
    if not net_loaded(bidder_arrays):
        return ZERO
    trumps = net_work[9]
    keeps = net_work[10]
    n = candidate_keeps(own9, t, keep_table[t], keeps, 0)
    if n == 1:
        return keeps[0]
    for a in range(n):
        trumps[a] = t
    return keeps[_best_keep(seat, ZERO, bidder, n, dealer, calls, n_calls, score0, score1, bid, rules, bidder_arrays,
                            net_work)]


@njit(cache=True, **NO_REFCOUNT)
def card_values(hs, seat, rules, bidder_arrays, net_work):
    """The card head's 54 outputs on ``seat``'s view of ``hs`` (the kitty from ``ST_KITTY``, read for the bidder's
    seat only), into ``net_work``'s ``card_out``."""
    tensor = net_work[0]
    write_view_tensor(tensor, hs, seat, np.uint64(hs[ST_KITTY]), rules, net_work[7])
    forward(bidder_arrays[_CARD:_CARD_END], tensor, net_work[1], net_work[2], net_work[3])


@njit(cache=True, **NO_REFCOUNT)
def play(hs, legal, rules, give, bidder_arrays, net_work):
    """The card the seat to play plays from ``legal`` (module docstring)."""
    if popcount(legal) == 1:
        return lowest_card(legal)
    if not net_loaded(bidder_arrays):
        return heuristic.play(hs, legal, rules, give)
    card_values(hs, to_play(hs), rules, bidder_arrays, net_work)
    out = net_work[3]
    best = -1
    m = legal
    while m:
        c = lowest_card(m)
        m &= m - ONE
        if best < 0 or out[c] > out[best]:
            best = c
    return best


# The decisions this player makes (core.players.PLAYERS), as the dispatch calls them (kernels.players.bids.dispatcher):
# each the function and the dispatch's arguments it takes, in order. Its calls are equity's (calls_as).
_AUCTION = ("dealer", "calls", "n_calls", "score0", "score1", "bid", "rules", "keep", "bidder_arrays", "net_work")
DECISIONS = {
    "search_trump_keep": (trump_keep, ("own9", "kitty", "bidder", "trump") + _AUCTION),
    "search_keep": (keep, ("own9", "seat", "bidder", "t") + _AUCTION),
    "search_play": (play, ("hs", "legal", "rules", "give", "bidder_arrays", "net_work")),
}
