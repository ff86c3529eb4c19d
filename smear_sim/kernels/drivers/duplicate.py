"""Duplicate drivers: every deal (or every game) played twice, the policies swapped between the teams."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.layout import (
    AGG_DELTA,
    AGG_POINTS,
    AGG_SIZE,
    DH_POINTS,
    DH_POINTS_LOST,
    DH_POINTS_SQ,
    DH_POINTS_WON,
    DH_SCORE,
    DH_SCORE_LOST,
    DH_SCORE_SQ,
    DH_SCORE_WON,
    DH_SIZE,
    DUP_HALVES_SQ,
    DUP_HANDS,
    DUP_HANDS_SQ,
    DUP_LOSSES,
    DUP_MARGIN,
    DUP_MARGIN_HANDS,
    DUP_MARGIN_SQ,
    DUP_PAIRS,
    DUP_SCORE,
    DUP_SCORE_HANDS,
    DUP_SCORE_SQ,
    DUP_SIZE,
    DUP_UNFINISHED,
    DUP_WINS,
    R_MISDEAL,
    REC_DELTA,
    REC_POINTS,
    REC_SIZE,
)
from ..bits import ZERO
from ..borrow import borrowed, keep_alive
from ..game import play_game
from ..hand import AUCTION, LOVE, NO_TRACE, POLICY_TRUMP, SEAT_3, card_pool, deal_playable, play_hand, scratch
from ..players import check_seated, player_set, policy_tables
from ..rng import stream_key
from .blocks import block_bounds

__all__ = ["duplicate_games", "duplicate_hands"]


@njit(cache=True)
def _swapped(policies):
    """The teams' policy codes the other way round."""
    swapped = np.empty(2, dtype=np.int64)
    swapped[0] = policies[1]
    swapped[1] = policies[0]
    return swapped


@njit(cache=True, nogil=True)
def duplicate_hands(seed, start, count, n_blocks, rules, policies, bidder_arrays, seated):
    """Each deal played twice, ``policies`` as given then swapped between the teams.

    Returns per-block sums ``[n_blocks, DH_SIZE]`` (layout ``DH_*``) of the first policy's team over the other's:
    the score margin, the points margin and their squares, each totalled over the deal's two hands, and the deals
    won and lost on each (a deal is won when that total is positive).
    """
    acc = np.zeros((n_blocks, DH_SIZE), dtype=np.int64)
    pool_owner, _ = card_pool(ZERO)
    misdeal_rule = rules[R_MISDEAL] == 1
    check_seated(policies, seated)
    tables = policy_tables(rules)
    swapped_owner = _swapped(policies)
    pool, rules, policies, swapped, bidder_arrays, (give, keep) = borrowed((pool_owner, rules, policies, swapped_owner, bidder_arrays,
                                                                    tables))
    for b in range(n_blocks):
        lo, hi = block_bounds(count, n_blocks, b)
        owner = scratch()
        state, deck, hands, known, rec, hs = borrowed(owner)
        row = acc[b]
        for i in range(lo, hi):
            index = start + i
            score = 0
            points = 0
            for seating in range(2):
                state[0] = stream_key(seed, index)  # the same stream, so the same deal
                deal_playable(state, pool, 54, -1, ZERO, deck, hands, misdeal_rule)
                play_hand(state, hands, known, hs, index % 4, LOVE, LOVE, rules, policies if seating == 0 else swapped,
                          bidder_arrays, seated, AUCTION, POLICY_TRUMP, give, keep, rec, NO_TRACE)
                sign = 1 if seating == 0 else -1
                score += sign * (rec[REC_DELTA] - rec[REC_DELTA + 1])
                points += sign * (rec[REC_POINTS] - rec[REC_POINTS + 1])
            row[DH_SCORE] += score
            row[DH_SCORE_SQ] += score * score
            row[DH_POINTS] += points
            row[DH_POINTS_SQ] += points * points
            row[DH_SCORE_WON] += score > 0
            row[DH_SCORE_LOST] += score < 0
            row[DH_POINTS_WON] += points > 0
            row[DH_POINTS_LOST] += points < 0
        keep_alive(owner)
    keep_alive((pool_owner, swapped_owner, tables))
    return acc


@njit(cache=True, nogil=True)
def duplicate_games(seed, start, count, n_blocks, rules, policies, bidder_arrays, seated):
    """Game pairs ``start .. start+count-1``: game ``g`` is played from 0-0 (seat 3 dealing first) with the first
    policy as team 0, then again on the same deals (:func:`smear_sim.kernels.game.play_game`) with the teams
    swapped. Sums ``[n_blocks, DUP_SIZE]`` over the pairs (layout ``DUP_*``), from the first policy's side."""
    acc = np.zeros((n_blocks, DUP_SIZE), dtype=np.int64)
    pool_owner, _ = card_pool(ZERO)
    tables = policy_tables(rules)
    swapped_codes = _swapped(policies)
    no_trace = np.zeros((0, REC_SIZE), dtype=np.int64)
    pool = borrowed(pool_owner)
    for b in range(n_blocks):
        players = borrowed(player_set(rules, policies, bidder_arrays, tables, seated))
        swapped = borrowed(player_set(rules, swapped_codes, bidder_arrays, tables, seated))
        lo, hi = block_bounds(count, n_blocks, b)
        owner = scratch()
        work = borrowed(owner)
        agg = np.zeros(AGG_SIZE, dtype=np.int64)
        row = acc[b]
        for i in range(lo, hi):
            key = stream_key(seed, start + i)
            halves = 0  # the first policy's wins in the pair, in halves (an unfinished game is half a win)
            margin = 0
            score = 0
            played = 0
            for seating in range(2):
                agg[:] = 0
                a = seating  # the first policy's team in this game
                winner, deals, _, _ = play_game(key, LOVE, LOVE, SEAT_3, players if seating == 0 else swapped, pool,
                                                work, agg, no_trace, NO_TRACE)
                if winner < 0:
                    row[DUP_UNFINISHED] += 1
                    halves += 1
                elif winner == a:
                    row[DUP_WINS] += 1
                    halves += 2
                else:
                    row[DUP_LOSSES] += 1
                margin += agg[AGG_POINTS + a] - agg[AGG_POINTS + 1 - a]
                score += agg[AGG_DELTA + a] - agg[AGG_DELTA + 1 - a]
                played += deals
            row[DUP_PAIRS] += 1
            row[DUP_HALVES_SQ] += halves * halves
            row[DUP_MARGIN] += margin
            row[DUP_MARGIN_SQ] += margin * margin
            row[DUP_HANDS] += played
            row[DUP_HANDS_SQ] += played * played
            row[DUP_MARGIN_HANDS] += margin * played
            row[DUP_SCORE] += score
            row[DUP_SCORE_SQ] += score * score
            row[DUP_SCORE_HANDS] += score * played
        keep_alive(owner)
    keep_alive((pool_owner, tables, swapped_codes))
    return acc
