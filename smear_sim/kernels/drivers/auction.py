"""Drivers of the auction seen from one seat: every legal call of a seat played out on the same deal and the
same random stream (common random numbers), at a given place in the auction or at every turn."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.layout import (
    AUC_ACCEPTED,
    AUC_DEALS,
    AUC_DECLARED,
    AUC_HIST,
    AUC_MADE,
    AUC_PAIR_EV,
    AUC_PAIR_WIN,
    AUC_SIZE,
    MOON,
    N_BID_CODES,
    N_OUTCOMES,
    OUT_THROWN_IN,
    PASS,
    R_MISDEAL,
    R_POINTS_AT_STAKE,
    REC_BIDDER,
    REC_MADE,
)
from ..bits import ZERO
from ..borrow import borrowed, keep_alive
from ..classes import hand_class
from ..hand import (
    NO_TRACE,
    POLICY_TRUMP,
    SEAT_3,
    auction_from,
    card_pool,
    contract,
    contract_reads_calls,
    deal_playable,
    legal_calls,
    policy_call,
    scratch,
    throw_in,
)
from ..players import check_seated, policy_tables
from ..players.equity import situation
from ..rng import stream_key
from ..state import copy_into
from .blocks import block_bounds
from .outcomes import outcome_code

__all__ = ["auction_deals", "auction_hands", "position_outcomes"]


@njit(cache=True, inline="always")
def _legal_list(low, high, moon_ok, must, out):
    """The legal call codes in order (PASS, the numbers up, MOON) into ``out``; returns how many."""
    n = 0
    if not must:
        out[n] = PASS
        n += 1
    for b in range(low, high + 1):
        out[n] = b
        n += 1
    if moon_ok:
        out[n] = MOON
        n += 1
    return n


@njit(cache=True)
def _accepted(state, pool, n_pool, seat, fixed_hand, deck, hands, misdeal_rule, dealer, score0, score1, rules,
              policies, bidder_arrays, seated, prior, calls, position):
    """Deal the cards around ``fixed_hand`` (held by ``seat``); whether the seats before ``position`` then call
    ``prior`` by their policies (rejection sampling). The calls made are left in ``calls``."""
    deal_playable(state, pool, n_pool, seat, fixed_hand, deck, hands, misdeal_rule)
    for p in range(position):
        calls[p] = policy_call(state, hands[(dealer + 1 + p) % 4], dealer, p, calls, score0, score1, rules, policies,
                               bidder_arrays, seated)
        if calls[p] != prior[p]:
            return False
    return True


@njit(cache=True, inline="always")
def _auction_after(state, hands, work, dealer, score0, score1, rules, policies, bidder_arrays, seated, calls, position, call):
    """The auction's ``(bidder, bid)`` (bidder -1: thrown in) when the seat at ``position`` calls ``call`` after
    ``calls[:position]`` and the later seats call by their policies; ``work`` is left holding the dealt ``hands``
    for the hand after it."""
    for k in range(5):
        work[k] = hands[k]
    calls[position] = call
    return auction_from(state, work, dealer, score0, score1, rules, policies, bidder_arrays, seated, calls, position + 1)


@njit(cache=True)
def _play_call(state, hands, work, known, hs, dealer, score0, score1, rules, policies, bidder_arrays, seated, give, keep, calls,
               position, call, rec, team):
    """Play the dealt ``hands`` (left as they are) with the seat at ``position`` calling ``call`` after
    ``calls[:position]``: the later seats call by their policies, the auction's winner declares and the hand is
    played and scored. Returns the outcome code seen from ``team`` (layout ``OUT_*``); ``rec`` holds the hand."""
    bidder, bid = _auction_after(state, hands, work, dealer, score0, score1, rules, policies, bidder_arrays, seated, calls,
                                 position, call)
    if bidder < 0:
        throw_in(rec)
        return OUT_THROWN_IN
    contract(seated, state, work, known, hs, dealer, calls, score0, score1, rules, policies, bidder_arrays, seated, bidder, bid,
             POLICY_TRUMP, give, keep, rec, NO_TRACE)
    return outcome_code(rec, team)


@njit(cache=True)
def _play_line(state, hands, work, known, hs, dealer, score0, score1, rules, policies, bidder_arrays, seated, give, keep,
               calls, position, call, rec, lines, line_rng, line_codes, n_lines):
    """:func:`_play_call` for both teams at once, ``(team 0's code, team 1's code, n_lines)``, remembering the
    deal's lines: a hand after the auction depends only on who declares what, the random stream where the auction
    leaves it and (where a player that reads the auction sits) the calls, so a line met before (``lines[:n_lines]``:
    bidder, bid and the 4 calls; ``line_rng``, ``line_codes``) is not played again. The real auction is met at
    every turn, and the lines where a later seat outbids the call often end as it does."""
    bidder, bid = _auction_after(state, hands, work, dealer, score0, score1, rules, policies, bidder_arrays, seated, calls,
                                 position, call)
    if bidder < 0:
        return OUT_THROWN_IN, OUT_THROWN_IN, n_lines
    by_calls = contract_reads_calls(seated, 0)
    for m in range(n_lines):
        if line_rng[m] != state[0] or lines[m, 0] != bidder or lines[m, 1] != bid:
            continue
        if by_calls and (lines[m, 2] != calls[0] or lines[m, 3] != calls[1] or lines[m, 4] != calls[2]
                         or lines[m, 5] != calls[3]):
            continue
        return line_codes[m, 0], line_codes[m, 1], n_lines
    line_rng[n_lines] = state[0]
    lines[n_lines, 0] = bidder
    lines[n_lines, 1] = bid
    for k in range(4):
        lines[n_lines, 2 + k] = calls[k]
    contract(seated, state, work, known, hs, dealer, calls, score0, score1, rules, policies, bidder_arrays, seated, bidder, bid,
             POLICY_TRUMP, give, keep, rec, NO_TRACE)
    line_codes[n_lines, 0] = outcome_code(rec, 0)
    line_codes[n_lines, 1] = outcome_code(rec, 1)
    return line_codes[n_lines, 0], line_codes[n_lines, 1], n_lines + 1


@njit(cache=True, nogil=True)
def auction_hands(seed, start, count, n_blocks, rules, policies, bidder_arrays, fixed_hand, position, prior, score0, score1,
                  win_value, ev_value, seated):
    """Seat ``position`` (dealer 3, so 0 is the opener) holds ``fixed_hand``; for deals ``start .. start+count-1``
    of the other cards on which the earlier seats call ``prior`` by their policies, play every legal call of the
    seat on the same deal and the same random stream. Counts ``[n_blocks, AUC_SIZE]`` (layout ``AUC_*``).

    ``win_value`` and ``ev_value`` give each outcome code's game value (fixed point) and points for the analysed
    team at scores ``(score0, score1)`` (team 0's, team 1's); they enter only the sums over pairs of calls.
    """
    acc = np.zeros((n_blocks, AUC_SIZE), dtype=np.int64)
    dealer = SEAT_3
    seat = (dealer + 1 + position) % 4
    team = seat & 1
    pool_owner, n_pool = card_pool(fixed_hand)
    misdeal_rule = rules[R_MISDEAL] == 1
    check_seated(policies, seated)
    tables = policy_tables(rules)
    pool, rules, policies, bidder_arrays, prior, (give, keep) = borrowed((pool_owner, rules, policies, bidder_arrays, prior, tables))
    low, high, moon_ok, must, _ = legal_calls(rules, position, prior)
    legal = np.empty(N_BID_CODES, dtype=np.int64)
    n_legal = _legal_list(low, high, moon_ok, must, legal)
    for b in range(n_blocks):
        lo, hi = block_bounds(count, n_blocks, b)
        owner = (scratch(), np.zeros(4, dtype=np.int64), np.empty(5, dtype=np.uint64))
        (state, deck, hands, known, rec, hs), calls, work = borrowed(owner)
        row = acc[b]
        values = np.empty(N_BID_CODES, dtype=np.int64)
        points = np.empty(N_BID_CODES, dtype=np.int64)
        for i in range(lo, hi):
            state[0] = stream_key(seed, start + i)
            row[AUC_DEALS] += 1
            if not _accepted(state, pool, n_pool, seat, fixed_hand, deck, hands, misdeal_rule, dealer, score0,
                             score1, rules, policies, bidder_arrays, seated, prior, calls, position):
                continue
            row[AUC_ACCEPTED] += 1
            saved = state[0]
            for j in range(n_legal):
                call = legal[j]
                state[0] = saved  # common random numbers: every call meets the same deal and the same stream
                code = _play_call(state, hands, work, known, hs, dealer, score0, score1, rules, policies, bidder_arrays, seated,
                                  give, keep, calls, position, call, rec, team)
                row[AUC_HIST + call * N_OUTCOMES + code] += 1
                if rec[REC_BIDDER] == seat:
                    row[AUC_DECLARED + call] += 1
                    row[AUC_MADE + call] += rec[REC_MADE]
                values[j] = win_value[code]
                points[j] = ev_value[code]
            for j in range(n_legal):
                for k in range(j + 1, n_legal):
                    pair = legal[j] * N_BID_CODES + legal[k]
                    d = values[j] - values[k]
                    row[AUC_PAIR_WIN + pair] += d * d
                    d = points[j] - points[k]
                    row[AUC_PAIR_EV + pair] += d * d
        keep_alive(owner)
    keep_alive((pool_owner, tables))
    return acc


@njit(cache=True)
def auction_deals(seed, count, max_deals, rules, policies, bidder_arrays, fixed_hand, position, prior, score0, score1,
                  seated):
    """The first ``count`` deals that :func:`auction_hands` accepts among deals ``0 .. max_deals-1``: their
    hands (``[n, 5]``: the four seats and the kitty) and how many deals were tried."""
    dealer = SEAT_3
    seat = (dealer + 1 + position) % 4
    pool, n_pool = card_pool(fixed_hand)
    check_seated(policies, seated)
    state, deck, hands, _, _, _ = scratch()
    calls = np.zeros(4, dtype=np.int64)
    out = np.zeros((count, 5), dtype=np.uint64)
    n = 0
    tried = 0
    while n < count and tried < max_deals:
        state[0] = stream_key(seed, tried)
        tried += 1
        if _accepted(state, pool, n_pool, seat, fixed_hand, deck, hands, rules[R_MISDEAL] == 1, dealer, score0,
                     score1, rules, policies, bidder_arrays, seated, prior, calls, position):
            copy_into(out[n], hands)
            n += 1
    return out[:n], tried


@njit(cache=True, nogil=True)
def position_outcomes(seed, start, count, n_blocks, rules, policies, bidder_arrays, bucket_of_class, n_buckets, starts,
                      seated):
    """The value of every call at every turn: counts ``[n_blocks, place, situation, bucket, call slot, outcome]``.

    Deal ``i`` starts from ``starts[i % len(starts)]``: team 0's and team 1's scores and the dealer (-1: seat
    ``i % 4``). It is dealt (misdeals redealt) and bid by the policies. At each seat's turn (after a
    moon there is none), every legal call is played out from there on the same random stream, the later seats
    calling by their policies, and the outcome code from the seat's team (``OUT_*``) is counted under the seat's
    place, its situation (:func:`smear_sim.kernels.players.equity.situation`), the strength bucket of its hand
    class and the call's slot (layout, "The auction seen from one seat"). Then the seat makes its policy's call and
    the auction goes on.
    """
    max_points = rules[R_POINTS_AT_STAKE]
    n_slots = max_points + 2
    acc = np.zeros((n_blocks, 4, 2 * max_points + 1, n_buckets, n_slots, N_OUTCOMES), dtype=np.int64)
    pool_owner, _ = card_pool(ZERO)
    misdeal_rule = rules[R_MISDEAL] == 1
    check_seated(policies, seated)
    tables = policy_tables(rules)
    pool, rules, policies, bidder_arrays, (give, keep) = borrowed((pool_owner, rules, policies, bidder_arrays, tables))
    for b in range(n_blocks):
        lo, hi = block_bounds(count, n_blocks, b)
        owner = (scratch(), np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64), np.empty(5, dtype=np.uint64))
        (state, deck, hands, known, rec, hs), real, calls, work = borrowed(owner)
        legal = np.empty(N_BID_CODES, dtype=np.int64)
        lines = np.empty((4 * N_BID_CODES, 6), dtype=np.int64)  # at most every call at every turn
        line_rng = np.empty(4 * N_BID_CODES, dtype=np.uint64)
        line_codes = np.empty((4 * N_BID_CODES, 2), dtype=np.int64)
        for i in range(lo, hi):
            index = start + i
            n_lines = 0
            row = starts[index % len(starts)]
            score0 = row[0]
            score1 = row[1]
            dealer = row[2] if row[2] >= 0 else index % 4
            state[0] = stream_key(seed, index)
            deal_playable(state, pool, 54, -1, ZERO, deck, hands, misdeal_rule)
            for p in range(4):
                seat = (dealer + 1 + p) % 4
                low, high, moon_ok, must, moon_called = legal_calls(rules, p, real)
                if not moon_called:
                    cell = acc[b, p, situation(real, p), bucket_of_class[hand_class(hands[seat])]]
                    saved = state[0]
                    for j in range(_legal_list(low, high, moon_ok, must, legal)):
                        call = legal[j]
                        state[0] = saved
                        for k in range(p):
                            calls[k] = real[k]
                        code0, code1, n_lines = _play_line(state, hands, work, known, hs, dealer, score0, score1,
                                                           rules, policies, bidder_arrays, seated, give, keep, calls, p, call,
                                                           rec, lines, line_rng, line_codes, n_lines)
                        cell[max_points + 1 if call == MOON else call, code1 if seat & 1 else code0] += 1
                    state[0] = saved
                real[p] = policy_call(state, hands[seat], dealer, p, real, score0, score1, rules, policies, bidder_arrays,
                                      seated)
        keep_alive(owner)
    keep_alive((pool_owner, tables))
    return acc
