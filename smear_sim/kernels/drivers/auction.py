"""Parallel drivers: many independent hands per call, spread over threads with ``prange``.

Each driver splits its range of hand indices into ``n_blocks`` contiguous blocks. A block owns its scratch
arrays and its row of integer accumulators, so threads never write to shared memory, and since every hand
draws from its own random stream and the accumulators are integers, the totals do not depend on the
number of threads or blocks.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...core.layout import (
    AGG_DELTA,
    AGG_POINTS,
    AGG_SIZE,
    AUC_ACCEPTED,
    AUC_DEALS,
    AUC_DECLARED,
    AUC_HIST,
    AUC_MADE,
    AUC_PAIR_EV,
    AUC_PAIR_WIN,
    AUC_SIZE,
    CLS_AWARDS,
    CLS_COUNT,
    CLS_HIST,
    CLS_JOINT,
    CLS_MOON,
    CLS_OTHER_BY_K,
    CLS_OTHER_SQ,
    CLS_SIZE,
    CLS_TRUMP,
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
    GAME_DEALS,
    GAME_DEALS_SQ,
    GAME_SIZE,
    GAME_UNFINISHED,
    GAME_WINS,
    GAMES,
    MAX_K,
    MOON,
    N_BID_CODES,
    N_CLASSES,
    N_OUTCOMES,
    OUT_MAX,
    OUT_MOON_FAILED,
    OUT_MOON_MADE,
    OUT_NUMERIC,
    OUT_THROWN_IN,
    PASS,
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
    ST_SIZE,
)
from ..bits import ZERO, has
from ..classes import hand_class
from ..game import play_game
from ..hand import (
    auction_from,
    count_hand,
    deal_playable,
    legal_calls,
    play_contract,
    play_hand,
    policy_call,
    throw_in,
)
from ..players import policy_tables
from ..players.equity import situation
from ..rng import stream_key


@njit(cache=True)
def _scratch():
    """One thread's working arrays: random state, deck, the 4 hands + kitty, seen cards, hand record and
    hand state."""
    return (np.zeros(1, dtype=np.uint64), np.empty(54, dtype=np.int64), np.empty(5, dtype=np.uint64),
            np.empty(4, dtype=np.uint64), np.zeros(REC_SIZE, dtype=np.int64), np.zeros(ST_SIZE, dtype=np.int64))


@njit(cache=True)
def _block_bounds(count, n_blocks, b):
    per = (count + n_blocks - 1) // n_blocks
    lo = min(count, b * per)
    return lo, min(count, lo + per)


@njit(cache=True, parallel=True)
def simulate_hands(seed, start, count, n_blocks, rules, policies, model):
    """Aggregate counts (``[n_blocks, AGG_SIZE]``) over hands ``start .. start+count-1``."""
    agg = np.zeros((n_blocks, AGG_SIZE), dtype=np.int64)
    pool = np.arange(54, dtype=np.int64)
    misdeal_rule = rules[R_MISDEAL] == 1
    give, keep = policy_tables(rules)
    for b in prange(n_blocks):
        lo, hi = _block_bounds(count, n_blocks, b)
        state, deck, hands, known, rec, hs = _scratch()
        for i in range(lo, hi):
            index = start + i
            state[0] = stream_key(seed, index)
            rec[REC_MISDEALS] = deal_playable(state, pool, 54, -1, ZERO, deck, hands, misdeal_rule)
            play_hand(state, hands, known, hs, index % 4, 0, 0, rules, policies, model, -1, -1, give, keep, rec, False)
            count_hand(agg[b], rec)
    return agg


@njit(cache=True, parallel=True)
def trace_hands(seed, start, count, rules, policies, model):
    """Full records (``[count, REC_SIZE]``) of hands ``start .. start+count-1``, deal and play included."""
    out = np.zeros((count, REC_SIZE), dtype=np.int64)
    pool = np.arange(54, dtype=np.int64)
    misdeal_rule = rules[R_MISDEAL] == 1
    give, keep = policy_tables(rules)
    for i in prange(count):
        state, deck, hands, known, _, hs = _scratch()
        index = start + i
        state[0] = stream_key(seed, index)
        rec = out[i]
        rec[REC_MISDEALS] = deal_playable(state, pool, 54, -1, ZERO, deck, hands, misdeal_rule)
        play_hand(state, hands, known, hs, index % 4, 0, 0, rules, policies, model, -1, -1, give, keep, rec, True)
    return out


@njit(cache=True, parallel=True)
def deal_only(seed, start, count, n_blocks, rules):
    """The dealing ceiling: the same streams and deals as :func:`simulate_hands`, with no play."""
    acc = np.zeros((n_blocks, 2), dtype=np.uint64)
    pool = np.arange(54, dtype=np.int64)
    misdeal_rule = rules[R_MISDEAL] == 1
    for b in prange(n_blocks):
        lo, hi = _block_bounds(count, n_blocks, b)
        state, deck, hands, _, _, _ = _scratch()
        mix = ZERO
        redeals = 0
        for i in range(lo, hi):
            state[0] = stream_key(seed, start + i)
            redeals += deal_playable(state, pool, 54, -1, ZERO, deck, hands, misdeal_rule)
            mix ^= hands[0] ^ hands[4]
        acc[b, 0] = mix
        acc[b, 1] = redeals
    return acc


# -- complete games -----------------------------------------------------------------------------------


@njit(cache=True, parallel=True)
def simulate_games(seed, start, count, n_blocks, rules, policies, model, score0, score1, dealer):
    """Counts (``[n_blocks, GAME_SIZE]``) over games ``start .. start+count-1``, each from scores
    ``(score0, score1)`` with seat ``dealer`` dealing first: every hand's ``AGG_*`` counts, then per game the
    wins, unfinished games and deals (``GAME_*``)."""
    acc = np.zeros((n_blocks, GAME_SIZE), dtype=np.int64)
    pool = np.arange(54, dtype=np.int64)
    give, keep = policy_tables(rules)
    no_trace = np.zeros((0, REC_SIZE), dtype=np.int64)
    for b in prange(n_blocks):
        lo, hi = _block_bounds(count, n_blocks, b)
        state, deck, hands, known, rec, hs = _scratch()
        row = acc[b]
        for i in range(lo, hi):
            winner, deals, _, _ = play_game(stream_key(seed, start + i), score0, score1, dealer, rules, policies,
                                            model, give, keep, pool, deck, hands, known, hs, state, rec, row, no_trace,
                                            False)
            row[GAMES] += 1
            if winner >= 0:
                row[GAME_WINS + winner] += 1
            else:
                row[GAME_UNFINISHED] += 1
            row[GAME_DEALS] += deals
            row[GAME_DEALS_SQ] += deals * deals
    return acc


@njit(cache=True, parallel=True)
def trace_games(seed, start, count, rules, policies, model, score0, score1, dealer):
    """Full records of every deal of games ``start .. start+count-1`` (as :func:`simulate_games` plays them).

    Returns ``(records, offsets)``: game ``i``'s deals are rows ``offsets[i] .. offsets[i+1]-1`` of
    ``records`` (``[deals, REC_SIZE]``). Each game is played twice: once to count its deals, then traced.
    """
    pool = np.arange(54, dtype=np.int64)
    give, keep = policy_tables(rules)
    lengths = np.zeros(count, dtype=np.int64)
    no_trace = np.zeros((0, REC_SIZE), dtype=np.int64)
    for i in prange(count):
        state, deck, hands, known, rec, hs = _scratch()
        agg = np.zeros(AGG_SIZE, dtype=np.int64)
        lengths[i] = play_game(stream_key(seed, start + i), score0, score1, dealer, rules, policies, model, give, keep,
                               pool, deck, hands, known, hs, state, rec, agg, no_trace, False)[1]
    offsets = np.zeros(count + 1, dtype=np.int64)
    for i in range(count):
        offsets[i + 1] = offsets[i] + lengths[i]
    out = np.zeros((offsets[count], REC_SIZE), dtype=np.int64)
    for i in prange(count):
        state, deck, hands, known, rec, hs = _scratch()
        agg = np.zeros(AGG_SIZE, dtype=np.int64)
        play_game(stream_key(seed, start + i), score0, score1, dealer, rules, policies, model, give, keep, pool, deck,
                  hands, known, hs, state, rec, agg, out[offsets[i]: offsets[i + 1]], True)
    return out, offsets


# -- match equity: the outcome of one hand --------------------------------------------------------------


@njit(cache=True)
def outcome_code(rec, dealer_team):
    """The hand's outcome code (layout ``OUT_*``), seen from the dealing team."""
    bidder = rec[REC_BIDDER]
    if bidder < 0:
        return OUT_THROWN_IN
    team = bidder & 1
    side = 0 if team == dealer_team else 1
    other_points = rec[REC_POINTS + 1 - team]
    if rec[REC_BID] == MOON:
        if rec[REC_MOON] == 1:
            return OUT_MOON_MADE + side * (OUT_MAX + 1) + other_points
        return OUT_MOON_FAILED + side
    delta = rec[REC_DELTA + team]
    return OUT_NUMERIC + (side * (2 * OUT_MAX + 1) + delta + OUT_MAX) * (OUT_MAX + 1) + other_points


@njit(cache=True, parallel=True)
def hand_outcomes(seed, start, count, n_blocks, rules, policies, model, dealer_score, other_score):
    """Histogram of hand outcomes (``[n_blocks, N_OUTCOMES]``) over hands ``start .. start+count-1``.

    Hand ``i`` is dealt by seat ``i % 4`` (misdeals redealt), with the dealing team at ``dealer_score`` and the
    other team at ``other_score`` before it; its outcome is coded from the dealing team's side
    (:func:`outcome_code`), so hands dealt by either team count alike.
    """
    acc = np.zeros((n_blocks, N_OUTCOMES), dtype=np.int64)
    pool = np.arange(54, dtype=np.int64)
    misdeal_rule = rules[R_MISDEAL] == 1
    give, keep = policy_tables(rules)
    for b in prange(n_blocks):
        lo, hi = _block_bounds(count, n_blocks, b)
        state, deck, hands, known, rec, hs = _scratch()
        for i in range(lo, hi):
            index = start + i
            dealer = index % 4
            state[0] = stream_key(seed, index)
            deal_playable(state, pool, 54, -1, ZERO, deck, hands, misdeal_rule)
            if dealer & 1:
                score0, score1 = other_score, dealer_score
            else:
                score0, score1 = dealer_score, other_score
            play_hand(state, hands, known, hs, dealer, score0, score1, rules, policies, model, -1, -1, give, keep, rec,
                      False)
            acc[b, outcome_code(rec, dealer & 1)] += 1
    return acc


# -- hand analysis ------------------------------------------------------------------------------------


@njit(cache=True, parallel=True)
def analyze_hands(seed, start, count, n_blocks, rules, policies, model, fixed_hand, trump, classify):
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
        state, deck, hands, known, rec, hs = _scratch()
        for i in range(lo, hi):
            state[0] = stream_key(seed, start + i)
            deal_playable(state, pool, n_pool, fixed_seat, fixed_hand, deck, hands, misdeal_rule)
            cls = hand_class(hands[0]) if classify else 0
            play_hand(state, hands, known, hs, 3, 0, 0, rules, policies, model, 0, trump, give, keep, rec, False)
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
    return acc


@njit(cache=True, parallel=True)
def duplicate_hands(seed, start, count, n_blocks, rules, policies, model):
    """Each deal played twice, ``policies`` as given then swapped between the teams.

    Returns per-block sums ``[score margin, its square, points margin, its square, deals won on score, deals
    lost on score, deals won on points, deals lost on points]`` of the first policy's team over the other's,
    each margin totalled over the deal's two hands (a deal is won when that total is positive).
    """
    acc = np.zeros((n_blocks, 8), dtype=np.int64)
    pool = np.arange(54, dtype=np.int64)
    misdeal_rule = rules[R_MISDEAL] == 1
    swapped = np.empty(2, dtype=np.int64)
    swapped[0] = policies[1]
    swapped[1] = policies[0]
    give, keep = policy_tables(rules)
    for b in prange(n_blocks):
        lo, hi = _block_bounds(count, n_blocks, b)
        state, deck, hands, known, rec, hs = _scratch()
        for i in range(lo, hi):
            index = start + i
            score = 0
            points = 0
            for seating in range(2):
                state[0] = stream_key(seed, index)  # the same stream, so the same deal
                deal_playable(state, pool, 54, -1, ZERO, deck, hands, misdeal_rule)
                play_hand(state, hands, known, hs, index % 4, 0, 0, rules, policies if seating == 0 else swapped,
                          model, -1, -1, give, keep, rec, False)
                sign = 1 if seating == 0 else -1
                score += sign * (rec[REC_DELTA] - rec[REC_DELTA + 1])
                points += sign * (rec[REC_POINTS] - rec[REC_POINTS + 1])
            acc[b, 0] += score
            acc[b, 1] += score * score
            acc[b, 2] += points
            acc[b, 3] += points * points
            acc[b, 4] += score > 0
            acc[b, 5] += score < 0
            acc[b, 6] += points > 0
            acc[b, 7] += points < 0
    return acc


# -- the auction seen from one seat -------------------------------------------------------------------------


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
              policies, model, prior, calls, position):
    """Deal the cards around ``fixed_hand`` (held by ``seat``); whether the seats before ``position`` then call
    ``prior`` by their policies (rejection sampling). The calls made are left in ``calls``."""
    deal_playable(state, pool, n_pool, seat, fixed_hand, deck, hands, misdeal_rule)
    for p in range(position):
        calls[p] = policy_call(state, hands[(dealer + 1 + p) % 4], dealer, p, calls, score0, score1, rules, policies,
                               model)
        if calls[p] != prior[p]:
            return False
    return True


@njit(cache=True)
def _play_call(state, hands, work, known, hs, dealer, score0, score1, rules, policies, model, calls, position, call,
               give, keep, rec, team):
    """Play the dealt ``hands`` (left as they are) with the seat at ``position`` calling ``call`` after
    ``calls[:position]``: the later seats call by their policies, the auction's winner declares and the hand is
    played and scored. Returns the outcome code seen from ``team`` (layout ``OUT_*``); ``rec`` holds the hand."""
    for k in range(5):
        work[k] = hands[k]
    calls[position] = call
    bidder, bid = auction_from(state, work, dealer, score0, score1, rules, policies, model, calls, position + 1)
    if bidder < 0:
        throw_in(rec)
        return OUT_THROWN_IN
    play_contract(state, work, known, hs, score0, score1, rules, policies, bidder, bid, -1, give, keep, rec, False)
    return outcome_code(rec, team)


@njit(cache=True, parallel=True)
def auction_hands(seed, start, count, n_blocks, rules, policies, model, fixed_hand, position, prior, score0, score1,
                  win_value, ev_value):
    """Seat ``position`` (dealer 3, so 0 is the opener) holds ``fixed_hand``; for deals ``start .. start+count-1``
    of the other cards on which the earlier seats call ``prior`` by their policies, play every legal call of the
    seat on the same deal and the same random stream. Counts ``[n_blocks, AUC_SIZE]`` (layout ``AUC_*``).

    ``win_value`` and ``ev_value`` give each outcome code's game value (fixed point) and points for the analysed
    team at scores ``(score0, score1)`` (team 0's, team 1's); they enter only the sums over pairs of calls.
    """
    acc = np.zeros((n_blocks, AUC_SIZE), dtype=np.int64)
    dealer = 3
    seat = (dealer + 1 + position) % 4
    team = seat & 1
    pool = np.empty(54, dtype=np.int64)
    n_pool = 0
    for c in range(54):
        if not has(fixed_hand, c):
            pool[n_pool] = c
            n_pool += 1
    misdeal_rule = rules[R_MISDEAL] == 1
    give, keep = policy_tables(rules)
    low, high, moon_ok, must, _ = legal_calls(rules, position, prior)
    legal = np.empty(N_BID_CODES, dtype=np.int64)
    n_legal = _legal_list(low, high, moon_ok, must, legal)
    for b in prange(n_blocks):
        lo, hi = _block_bounds(count, n_blocks, b)
        state, deck, hands, known, rec, hs = _scratch()
        row = acc[b]
        calls = np.zeros(4, dtype=np.int64)
        work = np.empty(5, dtype=np.uint64)
        values = np.empty(N_BID_CODES, dtype=np.int64)
        points = np.empty(N_BID_CODES, dtype=np.int64)
        for i in range(lo, hi):
            state[0] = stream_key(seed, start + i)
            row[AUC_DEALS] += 1
            if not _accepted(state, pool, n_pool, seat, fixed_hand, deck, hands, misdeal_rule, dealer, score0,
                             score1, rules, policies, model, prior, calls, position):
                continue
            row[AUC_ACCEPTED] += 1
            saved = state[0]
            for j in range(n_legal):
                call = legal[j]
                state[0] = saved  # common random numbers: every call meets the same deal and the same stream
                code = _play_call(state, hands, work, known, hs, dealer, score0, score1, rules, policies, model, calls,
                                  position, call, give, keep, rec, team)
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
    return acc


@njit(cache=True)
def auction_deals(seed, count, max_deals, rules, policies, model, fixed_hand, position, prior, score0, score1):
    """The first ``count`` deals that :func:`auction_hands` accepts among deals ``0 .. max_deals-1``: their
    hands (``[n, 5]``: the four seats and the kitty) and how many deals were tried."""
    dealer = 3
    seat = (dealer + 1 + position) % 4
    pool = np.empty(54, dtype=np.int64)
    n_pool = 0
    for c in range(54):
        if not has(fixed_hand, c):
            pool[n_pool] = c
            n_pool += 1
    state, deck, hands, _, _, _ = _scratch()
    calls = np.zeros(4, dtype=np.int64)
    out = np.zeros((count, 5), dtype=np.uint64)
    n = 0
    tried = 0
    while n < count and tried < max_deals:
        state[0] = stream_key(seed, tried)
        tried += 1
        if _accepted(state, pool, n_pool, seat, fixed_hand, deck, hands, rules[R_MISDEAL] == 1, dealer, score0,
                     score1, rules, policies, model, prior, calls, position):
            out[n, :] = hands
            n += 1
    return out[:n], tried


@njit(cache=True, parallel=True)
def position_outcomes(seed, start, count, n_blocks, rules, policies, model, bucket_of_class, n_buckets, starts):
    """The value of every call at every turn: counts ``[n_blocks, place, situation, bucket, call slot, outcome]``.

    Deal ``i`` starts from ``starts[i % len(starts)]``: team 0's and team 1's scores and the dealer (-1: seat
    ``i % 4``). It is dealt (misdeals redealt) and bid by the policies. At each seat's turn (after a
    moon there is none), every legal call is played out from there on the same random stream, the later seats
    calling by their policies, and the outcome code from the seat's team (``OUT_*``) is counted under the seat's
    place, its situation (:func:`smear_sim.kernels.players.equity.situation`), the strength bucket of its hand
    class and the call's slot (layout, "The auction seen from one seat"). Then the seat makes its policy's call and
    the auction goes on.
    """
    max_points = 7 if rules[R_ROUND_POINTS] == 1 else 4
    n_slots = max_points + 2
    acc = np.zeros((n_blocks, 4, 2 * max_points + 1, n_buckets, n_slots, N_OUTCOMES), dtype=np.int64)
    pool = np.arange(54, dtype=np.int64)
    misdeal_rule = rules[R_MISDEAL] == 1
    give, keep = policy_tables(rules)
    for b in prange(n_blocks):
        lo, hi = _block_bounds(count, n_blocks, b)
        state, deck, hands, known, rec, hs = _scratch()
        real = np.zeros(4, dtype=np.int64)
        calls = np.zeros(4, dtype=np.int64)
        work = np.empty(5, dtype=np.uint64)
        legal = np.empty(N_BID_CODES, dtype=np.int64)
        for i in range(lo, hi):
            index = start + i
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
                        code = _play_call(state, hands, work, known, hs, dealer, score0, score1, rules, policies, model,
                                          calls, p, call, give, keep, rec, seat & 1)
                        cell[max_points + 1 if call == MOON else call, code] += 1
                    state[0] = saved
                real[p] = policy_call(state, hands[seat], dealer, p, real, score0, score1, rules, policies, model)
    return acc


# -- duplicate games ----------------------------------------------------------------------------------------


@njit(cache=True, parallel=True)
def duplicate_games(seed, start, count, n_blocks, rules, policies, model):
    """Game pairs ``start .. start+count-1``: game ``g`` is played from 0-0 (seat 3 dealing first) with the first
    policy as team 0, then again on the same deals (:func:`smear_sim.kernels.game.play_game`) with the teams
    swapped. Sums ``[n_blocks, DUP_SIZE]`` over the pairs (layout ``DUP_*``), from the first policy's side."""
    acc = np.zeros((n_blocks, DUP_SIZE), dtype=np.int64)
    pool = np.arange(54, dtype=np.int64)
    swapped = np.empty(2, dtype=np.int64)
    swapped[0] = policies[1]
    swapped[1] = policies[0]
    give, keep = policy_tables(rules)
    no_trace = np.zeros((0, REC_SIZE), dtype=np.int64)
    for b in prange(n_blocks):
        lo, hi = _block_bounds(count, n_blocks, b)
        state, deck, hands, known, rec, hs = _scratch()
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
                winner, deals, _, _ = play_game(key, 0, 0, 3, rules, policies if seating == 0 else swapped, model,
                                                give, keep, pool, deck, hands, known, hs, state, rec, agg, no_trace,
                                                False)
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
    return acc
