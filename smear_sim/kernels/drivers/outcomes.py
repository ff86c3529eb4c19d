"""Drivers that analyse hands: the bidder's points with a hand fixed or classified, and the histogram of hand
outcomes behind the match-equity table."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.layout import (
    CLS_AWARDS,
    CLS_COUNT,
    CLS_HIST,
    CLS_JOINT,
    CLS_MOON,
    CLS_OTHER_BY_K,
    CLS_OTHER_SQ,
    CLS_SIZE,
    CLS_TRUMP,
    MAX_K,
    N_CLASSES,
    N_OUTCOMES,
    R_MISDEAL,
    R_POINTS_AT_STAKE,
    REC_AWARDS,
    REC_MOON,
    REC_POINTS,
    REC_TRUMP,
)
from ..bits import ZERO
from ..borrow import borrowed, keep_alive
from ..classes import hand_class
from ..hand import (
    AUCTION,
    LOVE,
    NO_TRACE,
    POLICY_TRUMP,
    SEAT_0,
    SEAT_3,
    card_pool,
    deal_playable,
    play_hand,
    scratch,
)
from ..outcome_codes import outcome_code
from ..players import check_seated, policy_tables
from ..rng import stream_key
from .blocks import block_bounds

__all__ = ["analyze_hands", "deal_outcomes", "hand_outcomes", "outcome_code"]


@njit(cache=True, nogil=True)
def hand_outcomes(seed, start, count, n_blocks, rules, policies, bidder_arrays, dealer_score, other_score, seated):
    """Histogram of hand outcomes (``[n_blocks, N_OUTCOMES]``) over hands ``start .. start+count-1``.

    Hand ``i`` is dealt by seat ``i % 4`` (misdeals redealt), with the dealing team at ``dealer_score`` and the
    other team at ``other_score`` before it; its outcome is coded from the dealing team's side
    (:func:`outcome_code`), so hands dealt by either team count alike.
    """
    acc = np.zeros((n_blocks, N_OUTCOMES), dtype=np.int64)
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
            dealer = index % 4
            state[0] = stream_key(seed, index)
            deal_playable(state, pool, 54, -1, ZERO, deck, hands, misdeal_rule)
            if dealer & 1:
                score0, score1 = other_score, dealer_score
            else:
                score0, score1 = dealer_score, other_score
            play_hand(state, hands, known, hs, dealer, score0, score1, rules, policies, bidder_arrays, seated, AUCTION,
                      POLICY_TRUMP, give, keep, rec, NO_TRACE)
            acc[b, outcome_code(rec, dealer & 1)] += 1
        keep_alive(owner)
    keep_alive((pool_owner, tables))
    return acc


@njit(cache=True, nogil=True)
def analyze_hands(seed, start, count, n_blocks, rules, policies, bidder_arrays, fixed_hand, trump, classify, seated):
    """Seat 0 as bidder (dealer 3, no auction): per-class accumulators ``[n_blocks, classes, CLS_SIZE]``.

    With ``fixed_hand`` non-zero seat 0 holds it and the other 45 cards are dealt with no other seat able
    to call a misdeal; otherwise all 54 are dealt and deals where any seat could call one are redealt.
    ``trump`` -1 lets the policy name trump. With ``classify`` each hand is counted in its bid-table class,
    otherwise all in class 0.
    """
    n_classes = N_CLASSES if classify else 1
    acc = np.zeros((n_blocks, n_classes, CLS_SIZE), dtype=np.int64)
    fixed_seat = 0 if fixed_hand != ZERO else -1
    pool_owner, n_pool = card_pool(fixed_hand)
    misdeal_rule = rules[R_MISDEAL] == 1
    n_points = rules[R_POINTS_AT_STAKE]
    check_seated(policies, seated)
    tables = policy_tables(rules)
    pool, rules, policies, bidder_arrays, (give, keep) = borrowed((pool_owner, rules, policies, bidder_arrays, tables))
    for b in range(n_blocks):
        lo, hi = block_bounds(count, n_blocks, b)
        owner = scratch()
        state, deck, hands, known, rec, hs = borrowed(owner)
        for i in range(lo, hi):
            state[0] = stream_key(seed, start + i)
            deal_playable(state, pool, n_pool, fixed_seat, fixed_hand, deck, hands, misdeal_rule)
            cls = hand_class(hands[0]) if classify else 0
            play_hand(state, hands, known, hs, SEAT_3, LOVE, LOVE, rules, policies, bidder_arrays, seated, SEAT_0, trump, give,
                      keep, rec, NO_TRACE)
            row = acc[b, cls]
            k = rec[REC_POINTS]
            other = rec[REC_POINTS + 1]
            row[CLS_COUNT] += 1
            row[CLS_HIST + k] += 1
            row[CLS_OTHER_BY_K + k] += other
            row[CLS_OTHER_SQ] += other * other
            row[CLS_MOON] += rec[REC_MOON]
            row[CLS_TRUMP + rec[REC_TRUMP]] += 1
            row[CLS_JOINT + k * MAX_K + other] += 1
            for p in range(n_points):
                if rec[REC_AWARDS + p] == 0:
                    row[CLS_AWARDS + p] += 1
        keep_alive(owner)
    keep_alive((pool_owner, tables))
    return acc


@njit(cache=True, nogil=True)
def deal_outcomes(seed, start, count, n_blocks, rules, policies, bidder_arrays, deal, dealer, score0, score1, seated):
    """Histogram of hand outcomes (``[n_blocks, N_OUTCOMES]``) of playouts ``start .. start+count-1`` of one given
    deal: ``deal`` holds the four seats' masks and the kitty (index 4), ``dealer`` deals, the teams are at
    ``score0`` and ``score1`` before it, and every seat plays by its team's policy, playout ``i`` on the random
    stream ``(seed, i)``. Outcomes are coded from the dealing team's side (:func:`outcome_code`), as
    :func:`hand_outcomes` codes random deals: a review's luck is the one against the other."""
    acc = np.zeros((n_blocks, N_OUTCOMES), dtype=np.int64)
    check_seated(policies, seated)
    tables = policy_tables(rules)
    rules, policies, bidder_arrays, (give, keep) = borrowed((rules, policies, bidder_arrays, tables))
    for b in range(n_blocks):
        lo, hi = block_bounds(count, n_blocks, b)
        owner = scratch()
        state, _, hands, known, rec, hs = borrowed(owner)
        for i in range(lo, hi):
            state[0] = stream_key(seed, start + i)
            for k in range(5):
                hands[k] = deal[k]  # play_hand plays the hands down to nothing
            play_hand(state, hands, known, hs, dealer, score0, score1, rules, policies, bidder_arrays, seated, AUCTION,
                      POLICY_TRUMP, give, keep, rec, NO_TRACE)
            acc[b, outcome_code(rec, dealer & 1)] += 1
        keep_alive(owner)
    keep_alive(tables)
    return acc
