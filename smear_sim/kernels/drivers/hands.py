"""Drivers of single hands: aggregate counts, full traces, and the dealing ceiling."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.layout import AGG_SIZE, R_MISDEAL, REC_MISDEALS, REC_SIZE, ST_FALLBACKS, ST_WORLDS
from ..bits import ZERO
from ..borrow import borrowed, keep_alive
from ..hand import (
    AUCTION,
    LOVE,
    NO_TRACE,
    POLICY_TRUMP,
    TRACE,
    card_pool,
    count_hand,
    deal_playable,
    play_hand,
    scratch,
)
from ..players import check_seated, policy_tables
from ..rng import stream_key
from .blocks import block_bounds

__all__ = ["DEAL_MIX", "DEAL_REDEALS", "DEAL_SIZE", "SEARCH_FALLBACKS", "SEARCH_HANDS", "SEARCH_SIZE", "SEARCH_WORLDS",
           "deal_only", "search_worlds", "simulate_hands", "trace_hands"]

SEARCH_HANDS, SEARCH_WORLDS, SEARCH_FALLBACKS = 0, 1, 2  # search_worlds' counts
SEARCH_SIZE = 3


@njit(cache=True, nogil=True)
def simulate_hands(seed, start, count, n_blocks, rules, policies, bidder_arrays, seated):
    """Aggregate counts (``[n_blocks, AGG_SIZE]``) over hands ``start .. start+count-1``.

    ``seated`` says which players are compiled in, as in every driver that plays
    (:func:`smear_sim.kernels.players.seated_arg`)."""
    agg = np.zeros((n_blocks, AGG_SIZE), dtype=np.int64)
    pool_owner, _ = card_pool(ZERO)
    misdeal_rule = rules[R_MISDEAL] == 1
    check_seated(policies, seated)
    tables = policy_tables(rules)
    counts, pool, rules, policies, bidder_arrays, (give, keep) = borrowed((agg, pool_owner, rules, policies, bidder_arrays, tables))
    for b in range(n_blocks):
        lo, hi = block_bounds(count, n_blocks, b)
        owner = scratch()
        state, deck, hands, known, rec, hs = borrowed(owner)
        for i in range(lo, hi):
            index = start + i
            state[0] = stream_key(seed, index)
            rec[REC_MISDEALS] = deal_playable(state, pool, 54, -1, ZERO, deck, hands, misdeal_rule)
            play_hand(state, hands, known, hs, index % 4, LOVE, LOVE, rules, policies, bidder_arrays, seated, AUCTION,
                      POLICY_TRUMP, give, keep, rec, NO_TRACE)
            count_hand(counts[b], rec)
        keep_alive(owner)
    keep_alive((pool_owner, tables))
    return agg


@njit(cache=True, nogil=True)
def search_worlds(seed, start, count, n_blocks, rules, policies, bidder_arrays, seated):
    """The hands of :func:`simulate_hands`, counting the worlds a search player that reads the auction drew for its
    card decisions and how many of them fell back to ignoring the calls (the hand state's ``ST_WORLDS`` and
    ``ST_FALLBACKS``; :mod:`smear_sim.kernels.players.expert`). Per block ``[n_blocks, SEARCH_SIZE]``."""
    acc = np.zeros((n_blocks, SEARCH_SIZE), dtype=np.int64)
    pool_owner, _ = card_pool(ZERO)
    misdeal_rule = rules[R_MISDEAL] == 1
    check_seated(policies, seated)
    tables = policy_tables(rules)
    pool, rules, policies, bidder_arrays, (give, keep) = borrowed((pool_owner, rules, policies, bidder_arrays, tables))
    for b in range(n_blocks):
        lo, hi = block_bounds(count, n_blocks, b)
        owner = scratch()
        state, deck, hands, known, rec, hs = borrowed(owner)
        for i in range(lo, hi):
            index = start + i
            state[0] = stream_key(seed, index)
            rec[REC_MISDEALS] = deal_playable(state, pool, 54, -1, ZERO, deck, hands, misdeal_rule)
            hs[ST_WORLDS] = 0  # a thrown-in hand never starts play
            hs[ST_FALLBACKS] = 0
            play_hand(state, hands, known, hs, index % 4, LOVE, LOVE, rules, policies, bidder_arrays, seated, AUCTION,
                      POLICY_TRUMP, give, keep, rec, NO_TRACE)
            acc[b, SEARCH_HANDS] += 1
            acc[b, SEARCH_WORLDS] += hs[ST_WORLDS]
            acc[b, SEARCH_FALLBACKS] += hs[ST_FALLBACKS]
        keep_alive(owner)
    keep_alive((pool_owner, tables))
    return acc


@njit(cache=True, nogil=True)
def trace_hands(seed, start, count, rules, policies, bidder_arrays, seated):
    """Full records (``[count, REC_SIZE]``) of hands ``start .. start+count-1``, deal and play included."""
    out = np.zeros((count, REC_SIZE), dtype=np.int64)
    pool_owner, _ = card_pool(ZERO)
    misdeal_rule = rules[R_MISDEAL] == 1
    check_seated(policies, seated)
    tables = policy_tables(rules)
    records, pool, rules, policies, bidder_arrays, (give, keep) = borrowed((out, pool_owner, rules, policies, bidder_arrays, tables))
    for i in range(count):
        owner = scratch()
        state, deck, hands, known, _, hs = borrowed(owner)
        index = start + i
        state[0] = stream_key(seed, index)
        rec = records[i]
        rec[REC_MISDEALS] = deal_playable(state, pool, 54, -1, ZERO, deck, hands, misdeal_rule)
        play_hand(state, hands, known, hs, index % 4, LOVE, LOVE, rules, policies, bidder_arrays, seated, AUCTION, POLICY_TRUMP,
                  give, keep, rec, TRACE)
        keep_alive(owner)
    keep_alive((pool_owner, tables))
    return out


DEAL_MIX, DEAL_REDEALS, DEAL_SIZE = 0, 1, 2  # deal_only's counts per block


@njit(cache=True, nogil=True)
def deal_only(seed, start, count, n_blocks, rules):
    """The dealing ceiling: the same streams and deals as :func:`simulate_hands`, with no play. Per block: the
    xor of the hands dealt to seat 0 and the kitty (so the deals cannot be optimised away), and the redeals."""
    acc = np.zeros((n_blocks, DEAL_SIZE), dtype=np.uint64)
    pool_owner, _ = card_pool(ZERO)
    pool = borrowed(pool_owner)
    misdeal_rule = rules[R_MISDEAL] == 1
    for b in range(n_blocks):
        lo, hi = block_bounds(count, n_blocks, b)
        owner = scratch()
        state, deck, hands, _, _, _ = borrowed(owner)
        mix = ZERO
        redeals = 0
        for i in range(lo, hi):
            state[0] = stream_key(seed, start + i)
            redeals += deal_playable(state, pool, 54, -1, ZERO, deck, hands, misdeal_rule)
            mix ^= hands[0] ^ hands[4]
        acc[b, DEAL_MIX] = mix
        acc[b, DEAL_REDEALS] = redeals
        keep_alive(owner)
    keep_alive(pool_owner)
    return acc
