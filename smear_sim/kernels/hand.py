"""One complete hand of Smear in Numba: deal, auction, kitty, trump, discards, six tricks and scoring.

:func:`play_hand` fills a per-hand record (layout in :mod:`smear_sim.core.layout`) that the drivers aggregate
(:func:`count_hand`) or copy out as a trace. The card play runs on a hand state (:mod:`smear_sim.kernels.state`)
and the scoring is :mod:`smear_sim.kernels.scoring`. It mirrors the reference engine rule for rule; the trace
check in the tests replays its hands through that engine.
"""

from __future__ import annotations

import numpy as np
from numba import njit

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
    AGG_THROWN_IN,
    AGG_TRUMP,
    MOON,
    N_POINTS,
    PASS,
    R_TRUMP_ANYTIME,
    REC_AWARDS,
    REC_BID,
    REC_BIDDER,
    REC_BIDS,
    REC_CARD_POINTS,
    REC_DEALER,
    REC_DELTA,
    REC_DISCARDS,
    REC_HANDS,
    REC_KITTY,
    REC_MADE,
    REC_MISDEALS,
    REC_MOON,
    REC_PLAYS,
    REC_POINTS,
    REC_SCORES_BEFORE,
    REC_SIZE,
    REC_TRICK_WINNERS,
    REC_TRUMP,
    REC_WINNER,
    SEARCHED_TRUMP_SHIFT,
    ST_CALLS,
    ST_DEALER,
    ST_HANDS,
    ST_KITTY,
    ST_LEADER,
    ST_LED_SUIT,
    ST_N_CALLS,
    ST_N_IN_TRICK,
    ST_SIZE,
)
from ..core.tables import MISDEAL_MASK, TABLES
from .bits import ONE, ZERO, bit, has, lowest_card
from .borrow import NO_REFCOUNT, REFCOUNTED
from .players import (
    SEARCHED,
    choose_keep,
    choose_play,
    choose_trump,
    search_keep,
    search_play,
    search_trump_keep,
)
from .players.bids import legal_calls as legal_calls  # where the tests and older callers find it
from .players.bids import policy_call, when
from .players.net import new_net_work
from .rng import below
from .scoring import score_state
from .state import play_card, start_play
from .trick import legal_mask

_EFFECTIVE_SUIT = TABLES.effective_suit
_TRUMP_CARDS = TABLES.trump_cards
_POINT_CARDS = TABLES.point_cards
_SCORING_RANKS = np.flatnonzero(TABLES.rank_points)  # the ranks that carry card points: 10 J Q K A
_SCORING_RANK_MASKS = TABLES.rank_masks[_SCORING_RANKS]
_SCORING_POINTS = TABLES.rank_points[_SCORING_RANKS]
_NOT_MISDEAL = ~np.uint64(MISDEAL_MASK)
_DECK = (ONE << np.uint64(54)) - ONE
_TRUMP_SHIFT = np.uint64(SEARCHED_TRUMP_SHIFT)  # trump_keep packs the trump above the card bits


# -- plain values for the hand kernels' arguments ---------------------------------------------------------
# Numba compiles a function once per argument types, and a constant written at a call site (0, -1, False) is
# typed as a literal of its value: each such call compiles the whole hand (auction, play, every player) again
# for that value. Callers pass these instead, NumPy scalars that Numba types plainly (int64, bool), so that one
# compiled hand serves every driver.
AUCTION = np.int64(-1)  # bidder: the auction decides
POLICY_TRUMP = np.int64(-1)  # trump: the bidder's policy names it
LOVE = np.int64(0)  # a team's score of 0
SEAT_0 = np.int64(0)
SEAT_3 = np.int64(3)
NO_TRACE = np.bool_(False)
TRACE = np.bool_(True)


# -- working arrays and the cards to deal ---------------------------------------------------------------


@njit(cache=True, **REFCOUNTED)
def scratch():
    """One thread's working arrays, as a tuple ``(state, deck, hands, known, rec, hs)``: the random state, the
    deck, the 4 hands + kitty, the cards each seat has seen, the hand record and the hand state."""
    return (np.zeros(1, dtype=np.uint64), np.empty(54, dtype=np.int64), np.empty(5, dtype=np.uint64),
            np.empty(4, dtype=np.uint64), np.zeros(REC_SIZE, dtype=np.int64), np.zeros(ST_SIZE, dtype=np.int64))


@njit(cache=True, **REFCOUNTED)
def card_pool(fixed_hand):
    """The cards to deal around ``fixed_hand`` (a mask held by one seat; ZERO deals all 54): ``(pool, n)``, the
    first ``n`` entries of ``pool`` in card order."""
    pool = np.empty(54, dtype=np.int64)
    n_pool = 0
    for c in range(54):
        if not has(fixed_hand, c):
            pool[n_pool] = c
            n_pool += 1
    return pool, n_pool


# -- deal ---------------------------------------------------------------------------------------------


@njit(cache=True)
def deal(state, pool, n_pool, fixed_seat, fixed_hand, deck, hands):
    """Deal 9 cards to each seat but ``fixed_seat`` (which holds ``fixed_hand``) and 4 to the kitty.

    ``pool`` holds the ``n_pool`` cards to deal from; a partial Fisher-Yates shuffle of a fresh copy draws
    them uniformly. ``hands[4]`` receives the kitty.
    """
    for i in range(n_pool):
        deck[i] = pool[i]
    pos = 0
    for seat in range(5):
        if seat == fixed_seat:
            hands[seat] = fixed_hand
            continue
        size = 4 if seat == 4 else 9
        mask = ZERO
        for _ in range(size):
            j = pos + below(state, n_pool - pos)
            c = deck[j]
            deck[j] = deck[pos]
            deck[pos] = c
            mask |= bit(c)
            pos += 1
        hands[seat] = mask


@njit(cache=True, **NO_REFCOUNT)
def deal_playable(state, pool, n_pool, fixed_seat, fixed_hand, deck, hands, misdeal_rule):
    """Deal until no seat (other than ``fixed_seat``) may call a misdeal; return the number of redeals."""
    redeals = 0
    while True:
        deal(state, pool, n_pool, fixed_seat, fixed_hand, deck, hands)
        if not misdeal_rule:
            return redeals
        callable_misdeal = False
        for seat in range(4):
            if seat != fixed_seat and hands[seat] & _NOT_MISDEAL == ZERO:
                callable_misdeal = True
        if not callable_misdeal:
            return redeals
        redeals += 1


# -- auction ------------------------------------------------------------------------------------------


@njit(cache=True, **NO_REFCOUNT)
def auction_from(state, hands, dealer, score0, score1, rules, policies, bidder_arrays, seated, calls, first):
    """Finish an auction whose first ``first`` calls are in ``calls``: each later seat calls by its policy, which
    sees the calls so far, the dealer and both teams' scores from its own side
    (:func:`smear_sim.kernels.players.choose_bid`). Returns ``(bidder, bid code)``, bidder -1 if all passed."""
    for position in range(first, 4):
        seat = (dealer + 1 + position) % 4
        calls[position] = policy_call(state, hands[seat], dealer, position, calls, score0, score1, rules, policies,
                                      bidder_arrays, seated)
    bidder = -1
    bid = PASS
    for position in range(4):
        if calls[position] != PASS:
            bidder = (dealer + 1 + position) % 4
            bid = calls[position]
    return bidder, bid


@njit(cache=True)
def auction(state, hands, dealer, score0, score1, rules, policies, bidder_arrays, seated, rec):
    """Run the one-round auction, writing the calls into the record; return ``(bidder, bid code)``."""
    return auction_from(state, hands, dealer, score0, score1, rules, policies, bidder_arrays, seated,
                        rec[REC_BIDS: REC_BIDS + 4], LOVE)


# -- play ---------------------------------------------------------------------------------------------


@njit(cache=True)
def _write_cards(rec, offset, mask, slots):
    i = 0
    m = mask
    while m:
        rec[offset + i] = lowest_card(m)
        m &= m - ONE
        i += 1
    while i < slots:
        rec[offset + i] = -1
        i += 1


@njit(cache=True, **NO_REFCOUNT)
def play_hand(state, hands, known, hs, dealer, score0, score1, rules, policies, bidder_arrays, seated, bidder, trump, give,
              keep, rec, trace):
    """Play one dealt hand to the end and write its record.

    ``hands`` holds the four seats' masks and the kitty (index 4); ``score0`` and ``score1`` are the teams'
    scores before the hand. With ``bidder`` -1 the auction decides the bidder; otherwise that seat takes the
    kitty without an auction (hand analysis), and the bid is left to the caller. With ``trump`` -1 the
    bidder's policy names trump. ``trace`` also writes the deal and the discards. ``known`` is scratch space
    for the cards each seat has seen in its own hand, and ``hs`` for the hand state the card play runs on
    (:mod:`smear_sim.kernels.state`). ``bidder_arrays`` holds the tables a policy may read (the equity bidder's; see
    :mod:`smear_sim.core.bidder`), ``give`` and ``keep`` the heuristics' card tables
    (:func:`smear_sim.kernels.players.policy_tables`) and ``seated`` which players are compiled in
    (:data:`smear_sim.kernels.players.SEATED`). (They travel as separate arguments, not as the player set: an
    array taken out of a tuple costs a reference count, and these run for every hand on every thread.)
    """
    rec[REC_DEALER] = dealer
    rec[REC_SCORES_BEFORE] = score0
    rec[REC_SCORES_BEFORE + 1] = score1
    if trace:
        for seat in range(4):
            _write_cards(rec, REC_HANDS + 9 * seat, hands[seat], 9)
        _write_cards(rec, REC_KITTY, hands[4], 4)
    if bidder < 0:
        bidder, bid = auction(state, hands, dealer, score0, score1, rules, policies, bidder_arrays, seated, rec)
        if bidder < 0:
            throw_in(rec)
            return
    else:
        bid = PASS
    contract(seated, state, hands, known, hs, dealer, rec[REC_BIDS: REC_BIDS + 4], score0, score1, rules, policies,
             bidder_arrays, seated, bidder, bid, trump, give, keep, rec, trace)


@njit(cache=True)
def throw_in(rec):
    """The record of a hand that all four passed (``forced_bid = none``): nobody bids, nothing is scored."""
    rec[REC_BIDDER] = -1
    rec[REC_BID] = PASS
    rec[REC_TRUMP] = -1
    rec[REC_MADE] = -1
    rec[REC_MOON] = -1
    rec[REC_WINNER] = -1
    for i in range(7):
        rec[REC_AWARDS + i] = -1
    for i in range(2):
        rec[REC_CARD_POINTS + i] = 0
        rec[REC_POINTS + i] = 0
        rec[REC_DELTA + i] = 0


@njit(cache=True, **NO_REFCOUNT)
def play_contract(state, hands, known, hs, score0, score1, rules, policies, seated, bidder, bid, trump, give, keep, rec,
                  trace):
    """The hand after the auction: ``bidder`` takes the kitty and names trump (``trump`` -1: by its policy),
    everyone discards, six tricks are played and the hand is scored for ``bid`` (PASS: hand analysis, where
    the caller settles every bid from the points). ``hands`` is played down to nothing. This is the fast players'
    way; a table where ``expert`` sits plays :func:`search_contract` (:func:`contract` chooses as it compiles)."""
    rec[REC_BIDDER] = bidder
    rec[REC_BID] = bid
    for seat in range(4):
        known[seat] = hands[seat]
    known[bidder] |= hands[4]
    if trump < 0:
        trump = choose_trump(policies[bidder & 1], seated, state, known[bidder], rules)
    rec[REC_TRUMP] = trump
    t = trump
    for seat in range(4):
        kept = choose_keep(policies[seat & 1], seated, state, known[seat], t, keep[t])
        if trace:
            _write_cards(rec, REC_DISCARDS + 7 * seat, known[seat] & ~kept, 7)
        hands[seat] = kept

    start_play(hs, hands, known, t, bidder, bid, score0, score1)
    anytime = rules[R_TRUMP_ANYTIME] == 1
    for k in range(24):
        seat = (hs[ST_LEADER] + hs[ST_N_IN_TRICK]) % 4  # state.to_play, and legal_cards below, by hand:
        legal = legal_mask(np.uint64(hs[ST_HANDS + seat]), t, hs[ST_LED_SUIT], anytime)  # no array arguments
        c = choose_play(policies[seat & 1], seated, state, hs, legal, rules, give)
        rec[REC_PLAYS + k] = c
        winner = play_card(hs, c, anytime)
        if winner >= 0:
            rec[REC_TRICK_WINNERS + k // 4] = winner
    score_state(hs, rules, rec)


@njit(cache=True, **REFCOUNTED)  # it makes the learned player's scratch each hand: refcounted, to be freed
def search_contract(state, hands, known, hs, dealer, calls, score0, score1, rules, policies, bidder_arrays, seated, bidder, bid,
                  trump, give, keep, rec, trace):
    """The hand after the auction: ``bidder`` takes the kitty and names trump (``trump`` -1: by its policy),
    everyone discards, six tricks are played and the hand is scored for ``bid`` (PASS: hand analysis, where
    the caller settles every bid from the points). ``hands`` is played down to nothing. ``dealer`` and ``calls``
    (the auction's 4 calls; not read in hand analysis) go into the hand state for the players that read them. The
    way of a table where ``expert`` (which searches its trump, keep and cards) or ``oracle`` sits; the other tables
    play :func:`play_contract`."""
    rec[REC_BIDDER] = bidder
    rec[REC_BID] = bid
    n_calls = 0 if bid == PASS else 4
    for seat in range(4):
        known[seat] = hands[seat]
    known[bidder] |= hands[4]
    # A search player chooses trump and keep together (ZERO: the policy does not search them).
    net_work = new_net_work(bidder_arrays)  # the learned player's scratch, once a hand
    searched = search_trump_keep(policies[bidder & 1], seated, state, hands[bidder], hands[4], bidder, trump, dealer,
                                 calls, n_calls, score0, score1, bid, rules, keep, policies, bidder_arrays, net_work)
    if searched != ZERO:
        trump = np.int64(searched >> _TRUMP_SHIFT)
    elif trump < 0:
        trump = choose_trump(policies[bidder & 1], seated, state, known[bidder], rules)
    rec[REC_TRUMP] = trump
    t = trump
    for seat in range(4):
        if seat == bidder and searched != ZERO:
            kept = searched & _DECK
        else:
            kept = ZERO
            if seat != bidder:
                kept = search_keep(policies[seat & 1], seated, state, known[seat], seat, bidder, t, dealer, calls,
                                   n_calls, score0, score1, bid, rules, keep, policies, bidder_arrays, net_work)
            if kept == ZERO:
                kept = choose_keep(policies[seat & 1], seated, state, known[seat], t, keep[t])
        if trace:
            _write_cards(rec, REC_DISCARDS + 7 * seat, known[seat] & ~kept, 7)
        hands[seat] = kept

    start_play(hs, hands, known, t, bidder, bid, score0, score1)
    hs[ST_DEALER] = dealer
    hs[ST_N_CALLS] = n_calls
    for i in range(n_calls):
        hs[ST_CALLS + i] = calls[i]
    hs[ST_KITTY] = np.int64(hands[4])
    anytime = rules[R_TRUMP_ANYTIME] == 1
    for k in range(24):
        seat = (hs[ST_LEADER] + hs[ST_N_IN_TRICK]) % 4  # state.to_play, and legal_cards below, by hand:
        legal = legal_mask(np.uint64(hs[ST_HANDS + seat]), t, hs[ST_LED_SUIT], anytime)  # no array arguments
        c = search_play(policies[seat & 1], seated, state, hs, legal, rules, give, policies, bidder_arrays, net_work)
        rec[REC_PLAYS + k] = c
        winner = play_card(hs, c, anytime)
        if winner >= 0:
            rec[REC_TRICK_WINNERS + k // 4] = winner
    score_state(hs, rules, rec)


@njit(cache=True, inline="always")
def _fast_contract(state, hands, known, hs, dealer, calls, score0, score1, rules, policies, bidder_arrays, seated, bidder, bid,
                   trump, give, keep, rec, trace):
    return play_contract(state, hands, known, hs, score0, score1, rules, policies, seated, bidder, bid, trump, give,
                         keep, rec, trace)


# The hand after the auction, ``contract(seated, <search_contract's arguments>)``: search_contract where a player that
# makes a searched decision (SEARCHED: expert, oracle) sits, else play_contract, chosen as the kernel compiles and
# inlined, so that the fast players' hands run exactly the code they ran before expert existed: with expert's branches
# in their card loop, heuristic simulation runs a quarter slower (docs/performance.md).
contract = when(SEARCHED, search_contract, _fast_contract, 19, inline="always")


@njit(cache=True, inline="always")
def _reads(_):
    return True


@njit(cache=True, inline="always")
def _reads_not(_):
    return False


# Whether the hand after the auction reads the calls (``contract_reads_calls(seated, 0)``): only where a player of
# SEARCHED sits, as :data:`contract` chooses; play_contract's players see only who declares what.
contract_reads_calls = when(SEARCHED, _reads, _reads_not, 1, inline="always")


@njit(cache=True, **NO_REFCOUNT)
def count_hand(agg, rec):
    """Add one hand record to the streamed summary counts ``agg`` (layout ``AGG_*``)."""
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
