"""Parallel drivers: many independent hands per call, spread over threads with ``prange``.

Each driver splits its range of hand indices into ``n_blocks`` contiguous blocks. A block owns its scratch
arrays and its row of integer accumulators, so threads never write to shared memory, and since every hand
draws from its own random stream and the accumulators are integers, the totals do not depend on the
number of threads or blocks.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core.layout import (
    AGG_AWARD_BIDDER,
    AGG_AWARD_NONE,
    AGG_AWARD_OTHER,
    AGG_BID_POINTS,
    AGG_BIDDER_TEAM,
    AGG_BIDS,
    AGG_DELTA,
    AGG_DELTA_SQ,
    AGG_GAME_WINS,
    AGG_HANDS,
    AGG_MADE,
    AGG_MARGIN_SQ,
    AGG_MISDEALS,
    AGG_MOON_MADE,
    AGG_MOON_TRIES,
    AGG_POINTS,
    AGG_POINTS_SQ,
    AGG_SIZE,
    AGG_THROWN_IN,
    AGG_TRUMP,
    CLS_AWARDS,
    CLS_COUNT,
    CLS_HIST,
    CLS_MOON,
    CLS_OTHER_BY_K,
    CLS_OTHER_SQ,
    CLS_SIZE,
    CLS_TRUMP,
    MOON,
    N_CLASSES,
    N_POINTS,
    R_MISDEAL,
    R_ROUND_POINTS,
    REC_AWARDS,
    REC_BID,
    REC_BIDDER,
    REC_DELTA,
    REC_MADE,
    REC_MISDEALS,
    REC_MOON,
    REC_POINTS,
    REC_SIZE,
    REC_TRUMP,
    REC_WINNER,
)
from .bits import ZERO, has
from .classes import hand_class
from .hand import deal_playable, play_hand
from .players.heuristic import policy_tables
from .rng import stream_key


@njit(cache=True)
def _scratch():
    """One thread's working arrays: random state, deck, the 4 hands + kitty, seen cards, hand record."""
    return (np.zeros(1, dtype=np.uint64), np.empty(54, dtype=np.int64), np.empty(5, dtype=np.uint64),
            np.empty(4, dtype=np.uint64), np.zeros(REC_SIZE, dtype=np.int64))


@njit(cache=True)
def _block_bounds(count, n_blocks, b):
    per = (count + n_blocks - 1) // n_blocks
    lo = min(count, b * per)
    return lo, min(count, lo + per)


@njit(cache=True)
def _accumulate(agg, rec):
    agg[AGG_HANDS] += 1
    agg[AGG_MISDEALS] += rec[REC_MISDEALS]
    bidder = rec[REC_BIDDER]
    for team in range(2):
        p = rec[REC_POINTS + team]
        d = rec[REC_DELTA + team]
        agg[AGG_POINTS + team] += p
        agg[AGG_POINTS_SQ + team] += p * p
        agg[AGG_DELTA + team] += d
        agg[AGG_DELTA_SQ + team] += d * d
    margin = rec[REC_DELTA] - rec[REC_DELTA + 1]
    agg[AGG_MARGIN_SQ] += margin * margin
    if bidder < 0:
        agg[AGG_THROWN_IN] += 1
        return
    team = bidder & 1
    bid = rec[REC_BID]
    agg[AGG_BIDS + bid] += 1
    agg[AGG_MADE + bid] += rec[REC_MADE]
    agg[AGG_BID_POINTS + bid] += rec[REC_POINTS + team]
    agg[AGG_BIDDER_TEAM + team] += 1
    agg[AGG_TRUMP + rec[REC_TRUMP]] += 1
    for i in range(N_POINTS):
        winner = rec[REC_AWARDS + i]
        if winner == team:
            agg[AGG_AWARD_BIDDER + i] += 1
        elif winner >= 0:
            agg[AGG_AWARD_OTHER + i] += 1
        else:
            agg[AGG_AWARD_NONE + i] += 1
    if bid == MOON:
        agg[AGG_MOON_TRIES + team] += 1
        agg[AGG_MOON_MADE + team] += rec[REC_MOON]
    if rec[REC_WINNER] >= 0:
        agg[AGG_GAME_WINS + rec[REC_WINNER]] += 1


@njit(cache=True, parallel=True)
def simulate_hands(seed, start, count, n_blocks, rules, policies):
    """Aggregate counts (``[n_blocks, AGG_SIZE]``) over hands ``start .. start+count-1``."""
    agg = np.zeros((n_blocks, AGG_SIZE), dtype=np.int64)
    pool = np.arange(54, dtype=np.int64)
    misdeal_rule = rules[R_MISDEAL] == 1
    give, keep = policy_tables(rules)
    for b in prange(n_blocks):
        lo, hi = _block_bounds(count, n_blocks, b)
        state, deck, hands, known, rec = _scratch()
        for i in range(lo, hi):
            index = start + i
            state[0] = stream_key(seed, index)
            rec[REC_MISDEALS] = deal_playable(state, pool, 54, -1, ZERO, deck, hands, misdeal_rule)
            play_hand(state, hands, known, index % 4, rules, policies, -1, -1, give, keep, rec, False)
            _accumulate(agg[b], rec)
    return agg


@njit(cache=True, parallel=True)
def trace_hands(seed, start, count, rules, policies):
    """Full records (``[count, REC_SIZE]``) of hands ``start .. start+count-1``, deal and play included."""
    out = np.zeros((count, REC_SIZE), dtype=np.int64)
    pool = np.arange(54, dtype=np.int64)
    misdeal_rule = rules[R_MISDEAL] == 1
    give, keep = policy_tables(rules)
    for i in prange(count):
        state, deck, hands, known, _ = _scratch()
        index = start + i
        state[0] = stream_key(seed, index)
        rec = out[i]
        rec[REC_MISDEALS] = deal_playable(state, pool, 54, -1, ZERO, deck, hands, misdeal_rule)
        play_hand(state, hands, known, index % 4, rules, policies, -1, -1, give, keep, rec, True)
    return out


@njit(cache=True, parallel=True)
def deal_only(seed, start, count, n_blocks, rules):
    """The dealing ceiling: the same streams and deals as :func:`simulate_hands`, with no play."""
    acc = np.zeros((n_blocks, 2), dtype=np.uint64)
    pool = np.arange(54, dtype=np.int64)
    misdeal_rule = rules[R_MISDEAL] == 1
    for b in prange(n_blocks):
        lo, hi = _block_bounds(count, n_blocks, b)
        state, deck, hands, _, _ = _scratch()
        mix = ZERO
        redeals = 0
        for i in range(lo, hi):
            state[0] = stream_key(seed, start + i)
            redeals += deal_playable(state, pool, 54, -1, ZERO, deck, hands, misdeal_rule)
            mix ^= hands[0] ^ hands[4]
        acc[b, 0] = mix
        acc[b, 1] = redeals
    return acc


# -- hand analysis ------------------------------------------------------------------------------------


@njit(cache=True, parallel=True)
def analyze_hands(seed, start, count, n_blocks, rules, policies, fixed_hand, trump, classify):
    """Seat 0 as bidder (dealer 3, no auction): per-class accumulators ``[n_blocks, classes, CLS_SIZE]``.

    With ``fixed_hand`` non-zero seat 0 holds it and the other 45 cards are dealt with no other seat able
    to call a misdeal; otherwise all 54 are dealt and deals where any seat could call one are redealt.
    ``trump`` -1 lets the policy name trump. With ``classify`` each hand is counted in its bid-table class,
    otherwise all in class 0.
    """
    n_classes = N_CLASSES if classify else 1
    acc = np.zeros((n_blocks, n_classes, CLS_SIZE), dtype=np.int64)
    fixed_seat = 0 if fixed_hand != ZERO else -1
    pool = np.empty(54, dtype=np.int64)
    n_pool = 0
    for c in range(54):
        if not has(fixed_hand, c):
            pool[n_pool] = c
            n_pool += 1
    misdeal_rule = rules[R_MISDEAL] == 1
    n_points = 7 if rules[R_ROUND_POINTS] == 1 else 4
    give, keep = policy_tables(rules)
    for b in prange(n_blocks):
        lo, hi = _block_bounds(count, n_blocks, b)
        state, deck, hands, known, rec = _scratch()
        for i in range(lo, hi):
            state[0] = stream_key(seed, start + i)
            deal_playable(state, pool, n_pool, fixed_seat, fixed_hand, deck, hands, misdeal_rule)
            cls = hand_class(hands[0]) if classify else 0
            play_hand(state, hands, known, 3, rules, policies, 0, trump, give, keep, rec, False)
            row = acc[b, cls]
            k = rec[REC_POINTS]
            other = rec[REC_POINTS + 1]
            row[CLS_COUNT] += 1
            row[CLS_HIST + k] += 1
            row[CLS_OTHER_BY_K + k] += other
            row[CLS_OTHER_SQ] += other * other
            row[CLS_MOON] += rec[REC_MOON]
            row[CLS_TRUMP + rec[REC_TRUMP]] += 1
            for p in range(n_points):
                if rec[REC_AWARDS + p] == 0:
                    row[CLS_AWARDS + p] += 1
    return acc


@njit(cache=True, parallel=True)
def duplicate_hands(seed, start, count, n_blocks, rules, policies):
    """Each deal played twice, ``policies`` as given then swapped between the teams.

    Returns per-block sums ``[score margin, its square, points margin, its square]`` of the first policy's
    team over the other's, each margin totalled over the deal's two hands.
    """
    acc = np.zeros((n_blocks, 4), dtype=np.int64)
    pool = np.arange(54, dtype=np.int64)
    misdeal_rule = rules[R_MISDEAL] == 1
    swapped = np.empty(2, dtype=np.int64)
    swapped[0] = policies[1]
    swapped[1] = policies[0]
    give, keep = policy_tables(rules)
    for b in prange(n_blocks):
        lo, hi = _block_bounds(count, n_blocks, b)
        state, deck, hands, known, rec = _scratch()
        for i in range(lo, hi):
            index = start + i
            score = 0
            points = 0
            for seating in range(2):
                state[0] = stream_key(seed, index)  # the same stream, so the same deal
                deal_playable(state, pool, 54, -1, ZERO, deck, hands, misdeal_rule)
                play_hand(state, hands, known, index % 4, rules, policies if seating == 0 else swapped,
                          -1, -1, give, keep, rec, False)
                sign = 1 if seating == 0 else -1
                score += sign * (rec[REC_DELTA] - rec[REC_DELTA + 1])
                points += sign * (rec[REC_POINTS] - rec[REC_POINTS + 1])
            acc[b, 0] += score
            acc[b, 1] += score * score
            acc[b, 2] += points
            acc[b, 3] += points * points
    return acc
