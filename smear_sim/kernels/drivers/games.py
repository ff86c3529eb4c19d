"""Drivers of complete games (:func:`smear_sim.kernels.game.play_game`): counts, and full traces."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.layout import AGG_SIZE, GAME_DEALS, GAME_DEALS_SQ, GAME_SIZE, GAME_UNFINISHED, GAME_WINS, GAMES, REC_SIZE
from ..bits import ZERO
from ..borrow import borrowed, keep_alive
from ..game import play_game
from ..hand import NO_TRACE, TRACE, card_pool, scratch
from ..players import player_set, policy_tables
from ..rng import stream_key
from .blocks import block_bounds

__all__ = ["simulate_games", "trace_games"]


@njit(cache=True, nogil=True)
def simulate_games(seed, start, count, n_blocks, rules, policies, bidder_arrays, score0, score1, dealer, seated):
    """Counts (``[n_blocks, GAME_SIZE]``) over games ``start .. start+count-1``, each from scores
    ``(score0, score1)`` with seat ``dealer`` dealing first: every hand's ``AGG_*`` counts, then per game the
    wins, unfinished games and deals (``GAME_*``)."""
    acc = np.zeros((n_blocks, GAME_SIZE), dtype=np.int64)
    pool_owner, _ = card_pool(ZERO)
    tables = policy_tables(rules)
    no_trace = np.zeros((0, REC_SIZE), dtype=np.int64)
    pool = borrowed(pool_owner)
    for b in range(n_blocks):
        players = borrowed(player_set(rules, policies, bidder_arrays, tables, seated))
        lo, hi = block_bounds(count, n_blocks, b)
        owner = scratch()
        work = borrowed(owner)
        row = acc[b]
        for i in range(lo, hi):
            winner, deals, _, _ = play_game(stream_key(seed, start + i), score0, score1, dealer, players, pool, work,
                                            row, no_trace, NO_TRACE)
            row[GAMES] += 1
            if winner >= 0:
                row[GAME_WINS + winner] += 1
            else:
                row[GAME_UNFINISHED] += 1
            row[GAME_DEALS] += deals
            row[GAME_DEALS_SQ] += deals * deals
        keep_alive(owner)
    keep_alive((pool_owner, tables))
    return acc


@njit(cache=True, nogil=True)
def trace_games(seed, start, count, rules, policies, bidder_arrays, score0, score1, dealer, seated):
    """Full records of every deal of games ``start .. start+count-1`` (as :func:`simulate_games` plays them).

    Returns ``(records, offsets)``: game ``i``'s deals are rows ``offsets[i] .. offsets[i+1]-1`` of
    ``records`` (``[deals, REC_SIZE]``). Each game is played twice: once to count its deals, then traced.
    """
    pool, _ = card_pool(ZERO)
    tables = policy_tables(rules)
    lengths = np.zeros(count, dtype=np.int64)
    no_trace = np.zeros((0, REC_SIZE), dtype=np.int64)
    for i in range(count):
        players = player_set(rules, policies, bidder_arrays, tables, seated)
        agg = np.zeros(AGG_SIZE, dtype=np.int64)
        lengths[i] = play_game(stream_key(seed, start + i), score0, score1, dealer, players, pool, scratch(), agg,
                               no_trace, NO_TRACE)[1]
    offsets = np.zeros(count + 1, dtype=np.int64)
    for i in range(count):
        offsets[i + 1] = offsets[i] + lengths[i]
    out = np.zeros((offsets[count], REC_SIZE), dtype=np.int64)
    for i in range(count):
        players = player_set(rules, policies, bidder_arrays, tables, seated)
        agg = np.zeros(AGG_SIZE, dtype=np.int64)
        play_game(stream_key(seed, start + i), score0, score1, dealer, players, pool, scratch(), agg,
                  out[offsets[i]: offsets[i + 1]], TRACE)
    return out, offsets
