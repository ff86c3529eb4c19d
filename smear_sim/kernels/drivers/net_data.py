"""The driver of the learned player's training data (issue 47, part 2; docs/learned.md): full hands, and at every
decision of every seat after the auction, the seat's view tensor and the search's value of each action.

Hand ``index`` is dealt and played from its own stream, ``stream_key(seed, index)``, by the table's players, as
:func:`smear_sim.kernels.drivers.hands.trace_hands` plays it (the hand after the auction is
:func:`smear_sim.kernels.hand.search_contract`'s, with the recording between its steps), so the positions recorded
are the ones those players meet. Each decision's values come from a copy of the hand's stream at that decision: they
never change how the hand goes on, and where the seat is ``expert:K`` with the driver's K, its search draws the very
worlds the values were found on.

- **Card** (every card of the six tricks, forced ones included): the view tensor
  (:func:`smear_sim.kernels.net.write_view_tensor`) of the state the seat plays from, and each legal card's total
  over K worlds drawn as ``expert`` draws them (:func:`smear_sim.kernels.players.expert.auction_world`: they fit the
  seat's view and the calls under the table's policies), each card solved double dummy on each world for the game
  (:func:`smear_sim.kernels.players.expert.game_leaves`) exactly, not only the cards ``expert`` could choose.
- **Keep** (the bidder's trump with its keep, each defender's keep): each of ``expert``'s candidates
  (:func:`~smear_sim.kernels.players.expert.bidder_candidates`, :func:`~smear_sim.kernels.players.expert.candidate_keeps`)
  valued over K worlds by :func:`~smear_sim.kernels.players.expert.keep_values`, with the view tensor of the state
  after that keep (:func:`smear_sim.kernels.net.before_play_state` holding the kept cards). A decision with one
  candidate is recorded too: its row is still a position's value.

Values are for the seat's team: P(win the game) (``WIN_SCALE`` fixed point, summed over the worlds) and the points
below it (the seat's team's score change minus the other's, in the line the search found). The caller divides by K.

Hands start from 0-0, or (``random_scores``) from each team's score drawn uniformly from 0 to one short of the
target, from a stream of the hand's own apart from the deal's, so that the net meets positions of the whole game.
A hand all four pass records nothing.

Each hand has fixed room in the outputs (:data:`CARD_ROWS` card rows, :data:`KEEP_ROWS` keep rows) and its counts
say how much it used; the caller compacts them (:mod:`smear_sim.analysis.net_data`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.layout import (
    R_MISDEAL,
    R_TARGET,
    R_TRUMP_ANYTIME,
    REC_BIDS,
    REC_MISDEALS,
    SEARCHED_TRUMP_SHIFT,
    ST_HANDS,
    ST_KITTY,
    ST_LEADER,
    ST_LED_SUIT,
    ST_N_IN_TRICK,
    ST_SIZE,
)
from ...core.view_layout import VT_SIZE
from ..bits import ONE, ZERO, lowest_card
from ..borrow import REFCOUNTED, borrowed, keep_alive
from ..hand import auction, card_pool, deal_playable, scratch
from ..net.tensor import before_play_state, new_work, set_auction, write_view_tensor
from ..players import (
    check_seated,
    choose_keep,
    choose_trump,
    policy_tables,
    search_keep,
    search_play,
    search_trump_keep,
)
from ..players.bids import expert_worlds
from ..players.card_choice import seat_value
from ..players.expert import (
    MAX_CANDIDATES,
    TT_BITS,
    auction_world,
    bidder_candidates,
    candidate_keeps,
    game_leaves,
    keep_values,
)
from ..players.net import new_net_work
from ..rng import below, mix64, stream_key
from ..solver import LEAF_SIZE, new_solver, solve_cards, use_leaf_values
from ..state import play_card, start_play
from ..trick import legal_mask

__all__ = ["CARD_ROWS", "KEEP_DECISIONS", "KEEP_ROWS", "NET_FALLBACKS", "NET_N_CARD", "NET_N_KEEP",
           "NET_N_KEEP_DECISIONS", "NET_SIZE", "net_data"]

CARD_ROWS = 24  # card decisions a hand: every card of the six tricks
KEEP_DECISIONS = 4  # the bidder's trump and keep, and each defender's keep
KEEP_ROWS = KEEP_DECISIONS * MAX_CANDIDATES
# Each hand's counts: card rows, keep rows and keep decisions used, and the card worlds that fell back (none fitted
# the calls; :func:`smear_sim.kernels.worlds.play_world`).
NET_N_CARD, NET_N_KEEP, NET_N_KEEP_DECISIONS, NET_FALLBACKS = range(4)
NET_SIZE = 4
_SCORE_SALT = np.uint64(0x5C0E5C0E5C0E5C0E)  # the starting scores' stream, apart from the deal's
_DECK = (ONE << np.uint64(54)) - ONE
_TRUMP_SHIFT = np.uint64(SEARCHED_TRUMP_SHIFT)  # trump_keep packs the trump above the card bits


@njit(cache=True, **REFCOUNTED)
def _record_keeps(rng, hand_state, seat, own9, kitty, bidder, trumps, keeps, n, dealer, calls, score0, score1, bid,
                  rules, keep_table, policies, bidder_arrays, k, wins, points, work, tensor, win_out, points_out,
                  decision_out, row, decision):
    """Value ``seat``'s ``n`` candidates over K worlds (:func:`keep_values`) and write their rows from ``row``;
    returns the next row."""
    keep_values(rng, seat, own9, kitty, bidder, trumps, keeps, n, dealer, calls, np.int64(4), score0, score1, bid,
                rules, keep_table, policies, bidder_arrays, k, wins, points)
    for a in range(n):
        before_play_state(hand_state, seat, keeps[a], dealer, calls, np.int64(4), score0, score1, bidder, bid,
                          trumps[a])
        write_view_tensor(tensor[row], hand_state, seat, kitty, rules, work)
        total_wins = 0
        total_points = 0
        for w in range(wins.shape[1]):
            total_wins += wins[a, w]
            total_points += points[a, w]
        win_out[row] = total_wins
        points_out[row] = total_points
        decision_out[row] = decision
        row += 1
    return row


@njit(cache=True, nogil=True)
def net_data(seed, start, count, rules, policies, bidder_arrays, k, random_scores, seated):
    """The training data of hands ``start .. start+count-1`` (module docstring), K worlds a decision
    (``expert_worlds(k)``; ``k`` an ``expert`` parameter, so its parts left out apply too).

    Returns ``(card_tensor, card_legal, card_wins, card_points, keep_tensor, keep_wins, keep_points, keep_decision,
    counts)``: hand ``i``'s card rows are ``i*CARD_ROWS ..`` (``counts[i, NET_N_CARD]`` of them), its keep rows
    ``i*KEEP_ROWS ..`` (``counts[i, NET_N_KEEP]``), ``keep_decision`` numbering its keep decisions from 0. Wins and
    points are totals over the K worlds (module docstring)."""
    card_tensor = np.zeros((count * CARD_ROWS, VT_SIZE), dtype=np.float32)
    card_legal = np.zeros((count * CARD_ROWS, 54), dtype=np.bool_)
    card_wins = np.zeros((count * CARD_ROWS, 54), dtype=np.int64)
    card_points = np.zeros((count * CARD_ROWS, 54), dtype=np.int64)
    keep_tensor = np.zeros((count * KEEP_ROWS, VT_SIZE), dtype=np.float32)
    keep_wins = np.zeros(count * KEEP_ROWS, dtype=np.int64)
    keep_points = np.zeros(count * KEEP_ROWS, dtype=np.int64)
    keep_decision = np.zeros(count * KEEP_ROWS, dtype=np.int64)
    counts = np.zeros((count, NET_SIZE), dtype=np.int64)

    check_seated(policies, seated)
    n_worlds = expert_worlds(k)
    pool_owner, _ = card_pool(ZERO)
    tables = policy_tables(rules)
    owner = scratch()
    # every working array, made once
    rec_rng = np.zeros(1, dtype=np.uint64)
    score_rng = np.zeros(1, dtype=np.uint64)
    dealt = np.zeros(4, dtype=np.uint64)
    kept = np.zeros(4, dtype=np.uint64)
    calls = np.zeros(4, dtype=np.int64)
    world_calls = np.zeros(4, dtype=np.int64)
    world_dealt = np.zeros(4, dtype=np.uint64)
    worlds = np.zeros((n_worlds, ST_SIZE), dtype=np.int64)
    before = np.zeros(ST_SIZE, dtype=np.int64)
    values = np.zeros(54, dtype=np.int64)
    leaves = np.zeros(LEAF_SIZE, dtype=np.int64)
    trumps = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    keeps = np.zeros(MAX_CANDIDATES, dtype=np.uint64)
    wins_aw = np.zeros((MAX_CANDIDATES, n_worlds), dtype=np.int64)
    points_aw = np.zeros((MAX_CANDIDATES, n_worlds), dtype=np.int64)
    work = new_work()
    solver = new_solver(TT_BITS)
    net_work = new_net_work(bidder_arrays)
    misdeal_rule = rules[R_MISDEAL] == 1
    anytime = rules[R_TRUMP_ANYTIME] == 1
    target = rules[R_TARGET]
    pool, rules, policies, bidder_arrays, (give, keep) = borrowed((pool_owner, rules, policies, bidder_arrays, tables))
    state, deck, hands, known, rec, hs = borrowed(owner)
    for i in range(count):
        index = start + i
        state[0] = stream_key(seed, index)
        score0 = np.int64(0)
        score1 = np.int64(0)
        if random_scores:
            score_rng[0] = mix64(state[0] ^ _SCORE_SALT)
            score0 = below(score_rng, target)
            score1 = below(score_rng, target)
        dealer = np.int64(index % 4)
        rec[REC_MISDEALS] = deal_playable(state, pool, 54, -1, ZERO, deck, hands, misdeal_rule)
        bidder, bid = auction(state, hands, dealer, score0, score1, rules, policies, bidder_arrays, seated, rec)
        if bidder < 0:
            continue
        for p in range(4):
            calls[p] = rec[REC_BIDS + p]
        kitty = hands[4]
        for s in range(4):
            dealt[s] = hands[s]
            known[s] = hands[s]
        known[bidder] |= kitty
        game_leaves(bidder, bid, score0, score1, dealer, rules, bidder_arrays, leaves)
        use_leaf_values(solver, leaves)
        card_row = i * CARD_ROWS
        keep_row = i * KEEP_ROWS
        row = counts[i]

        # the bidder's trump and keep: its candidates recorded, then its policy's choice (search_contract's steps)
        n = bidder_candidates(known[bidder], np.int64(-1), rules, keep, trumps, keeps)
        rec_rng[0] = state[0]
        keep_row = _record_keeps(rec_rng, before, bidder, dealt[bidder], kitty, bidder, trumps, keeps, n, dealer,
                                 calls, score0, score1, bid, rules, keep, policies, bidder_arrays, k, wins_aw,
                                 points_aw, work, keep_tensor, keep_wins, keep_points, keep_decision, keep_row,
                                 row[NET_N_KEEP_DECISIONS])
        row[NET_N_KEEP_DECISIONS] += 1
        searched = search_trump_keep(policies[bidder & 1], seated, state, hands[bidder], kitty, bidder, np.int64(-1),
                                     dealer, calls, np.int64(4), score0, score1, bid, rules, keep, policies,
                                     bidder_arrays, net_work)
        if searched != ZERO:
            t = np.int64(searched >> _TRUMP_SHIFT)
        else:
            t = choose_trump(policies[bidder & 1], seated, state, known[bidder], rules)
        for s in range(4):
            if s == bidder and searched != ZERO:
                kept[s] = searched & _DECK
                continue
            chosen = ZERO
            if s != bidder:
                n = candidate_keeps(known[s], t, keep[t], keeps, 0)
                for a in range(n):
                    trumps[a] = t
                rec_rng[0] = state[0]
                keep_row = _record_keeps(rec_rng, before, s, dealt[s], ZERO, bidder, trumps, keeps, n, dealer, calls,
                                         score0, score1, bid, rules, keep, policies, bidder_arrays, k, wins_aw,
                                         points_aw, work, keep_tensor, keep_wins, keep_points, keep_decision,
                                         keep_row, row[NET_N_KEEP_DECISIONS])
                row[NET_N_KEEP_DECISIONS] += 1
                chosen = search_keep(policies[s & 1], seated, state, known[s], s, bidder, t, dealer, calls,
                                     np.int64(4), score0, score1, bid, rules, keep, policies, bidder_arrays, net_work)
            if chosen == ZERO:
                chosen = choose_keep(policies[s & 1], seated, state, known[s], t, keep[t])
            kept[s] = chosen
        row[NET_N_KEEP] = keep_row - i * KEEP_ROWS

        start_play(hs, kept, known, t, bidder, bid, score0, score1)
        set_auction(hs, dealer, calls, np.int64(4))
        hs[ST_KITTY] = np.int64(kitty)  # as the hand that keeps the calls writes it: the net player reads it
        for _ in range(24):
            seat = (hs[ST_LEADER] + hs[ST_N_IN_TRICK]) % 4
            legal = legal_mask(np.uint64(hs[ST_HANDS + seat]), t, hs[ST_LED_SUIT], anytime)
            write_view_tensor(card_tensor[card_row], hs, seat, kitty, rules, work)
            bidding = (seat & 1) == (bidder & 1)
            rec_rng[0] = state[0]
            for w in range(n_worlds):
                if auction_world(rec_rng, hs, seat, rules, policies, bidder_arrays, True, world_calls, worlds[w],
                                 world_dealt) < 0:
                    row[NET_FALLBACKS] += 1
                solve_cards(solver, worlds[w], rules, values, legal)
                m = legal
                while m:
                    c = lowest_card(m)
                    m &= m - ONE
                    win, points = seat_value(values[c], True, bidding)
                    card_legal[card_row, c] = True
                    card_wins[card_row, c] += win
                    card_points[card_row, c] += points
            card_row += 1
            c = search_play(policies[seat & 1], seated, state, hs, legal, rules, give, policies, bidder_arrays,
                            net_work)
            play_card(hs, c, anytime)
        row[NET_N_CARD] = card_row - i * CARD_ROWS
    keep_alive((pool_owner, tables, owner))
    return (card_tensor, card_legal, card_wins, card_points, keep_tensor, keep_wins, keep_points, keep_decision,
            counts)
