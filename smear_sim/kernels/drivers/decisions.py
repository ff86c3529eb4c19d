"""Drivers of a hint: every legal action of one decision played out on the same worlds (docs/decisions.md).

World ``i`` draws from its own stream, keyed by the seed and ``i``; every action meets that world (and, in a
policy playout, the same stream), so the differences between actions are paired world by world.

Counts per block (layout below, ``n`` actions): the worlds, the worlds that fell back (no world fitting the
calls was found), the worlds drawn in all, each action's histogram of outcome codes (``OUT_*``, from the seat's
team), and for each pair of actions the sums of the squared differences of their game values (fixed point,
``WIN_SCALE``) and of their points.

**Playout.** ``playout`` 0 plays each world out double dummy: the solver's value (the bidding team's score change
minus the other's) decides the outcome whenever only one outcome gives that value, and otherwise the solver's
principal line is played to the end and scored (:func:`smear_sim.kernels.outcome_codes.line_outcome`).
``playout`` 1 plays it out with the players ``policies[2:]`` (team 0's, team 1's); ``policies[:2]`` bidder_arrays the calls
and the others' discards.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.layout import (
    HINT_FALLBACK,
    HINT_HIST,
    HINT_TRIES,
    HINT_WORLDS,
    N_OUTCOMES,
    R_TRUMP_ANYTIME,
    REC_BID,
    REC_BIDDER,
    REC_SIZE,
    ST_BID,
    ST_BIDDER,
    ST_HANDS,
    ST_KNOWN,
    ST_LEADER,
    ST_LED_SUIT,
    ST_N_IN_TRICK,
    ST_PLAYED,
    ST_SIZE,
    ST_TRICKS_DONE,
    ST_TRUMP,
)
from ..bits import ZERO, bit
from ..outcome_codes import line_outcome, outcome_code
from ..players import check_seated, choose_keep, choose_play, policy_tables
from ..rng import stream_key
from ..scoring import score_state
from ..solver import new_solver, solve_cards, solve_value
from ..state import apply_card, copy_into, play_card, start_play
from ..trick import legal_mask
from ..worlds import deal_world, play_world
from .blocks import block_bounds

__all__ = ["card_hint", "deal_hint", "hint_size"]

TT_BITS = 16


@njit(cache=True)
def hint_size(n):
    """The length of a hint's counts for ``n`` actions."""
    return HINT_HIST + n * N_OUTCOMES + 2 * n * n


@njit(cache=True)
def _policy_outcome(rng, st, rules, policies, seated, give, rec, team):
    """Play ``st`` (changed) to the end with the playout players ``policies[2:]``; its outcome code."""
    anytime = rules[R_TRUMP_ANYTIME] == 1
    t = st[ST_TRUMP]
    while st[ST_TRICKS_DONE] < 6:
        seat = (st[ST_LEADER] + st[ST_N_IN_TRICK]) % 4
        legal = legal_mask(np.uint64(st[ST_HANDS + seat]), t, st[ST_LED_SUIT], anytime)
        c = choose_play(policies[2 + (seat & 1)], seated, rng, st, legal, rules, give)
        play_card(st, c, anytime)
    rec[REC_BIDDER] = st[ST_BIDDER]
    rec[REC_BID] = st[ST_BID]
    score_state(st, rules, rec)
    return outcome_code(rec, team)


@njit(cache=True)
def _count(row, codes, n, win_value, ev_value):
    for a in range(n):
        row[HINT_HIST + a * N_OUTCOMES + codes[a]] += 1
    pairs = HINT_HIST + n * N_OUTCOMES
    for a in range(n):
        for b in range(n):
            d = win_value[codes[a]] - win_value[codes[b]]
            row[pairs + a * n + b] += d * d
            d = ev_value[codes[a]] - ev_value[codes[b]]
            row[pairs + n * n + a * n + b] += d * d


@njit(cache=True, nogil=True)
def card_hint(seed, start, count, n_blocks, rules, policies, bidder_arrays, hs, seat, calls, how, actions, win_value,
              ev_value, seated):
    """The card decision of ``observer`` at the hand state ``hs`` (its own cards true, the others' any of the right
    counts): each card of ``actions`` played on worlds ``first+start .. first+start+count-1`` (module docstring).
    ``first`` lets a hint go on from a world with fewer actions (the cards it found clearly worse left out).
    ``seat`` is the seat and its table, ``(observer, own9, dealer, score0, score1)``, and ``how`` how the worlds go,
    ``(inference, playout, first)`` (:func:`smear_sim.engine.jobs.card_hint_job`)."""
    observer, own9, dealer, score0, score1 = seat
    inference, playout, first = how
    n = len(actions)
    acc = np.zeros((n_blocks, hint_size(n)), dtype=np.int64)
    check_seated(policies, seated)
    give, _ = policy_tables(rules)
    team = observer & 1
    wanted = ZERO  # the cards to value: the actions still in the race
    for a in range(n):
        wanted |= bit(actions[a])
    for b in range(n_blocks):
        lo, hi = block_bounds(count, n_blocks, b)
        row = acc[b]
        rng = np.zeros(1, dtype=np.uint64)
        solver = new_solver(TT_BITS)
        world = np.zeros(ST_SIZE, dtype=np.int64)
        st = np.zeros(ST_SIZE, dtype=np.int64)
        dealt = np.zeros(4, dtype=np.uint64)
        rec = np.zeros(REC_SIZE, dtype=np.int64)
        values = np.zeros(54, dtype=np.int64)
        codes = np.zeros(n, dtype=np.int64)
        for i in range(lo, hi):
            rng[0] = stream_key(seed, first + start + i)
            tries = play_world(rng, hs, observer, own9, dealer, calls, 4, score0, score1, rules, policies, bidder_arrays,
                               inference, world, dealt)
            row[HINT_WORLDS] += 1
            row[HINT_TRIES] += abs(tries)
            if tries < 0:
                row[HINT_FALLBACK] += 1
            if playout == 0:
                solve_cards(solver, world, rules, values, wanted)
                for a in range(n):
                    copy_into(st, world)
                    apply_card(st, actions[a], rules)
                    codes[a] = line_outcome(solver, st, values[actions[a]], rules, rec, team)
            else:
                for seat in range(4):  # what each player saw: its dealt cards in this world
                    if seat != observer:
                        known = world[ST_HANDS + seat] | world[ST_PLAYED + seat]
                        if inference:
                            known = np.int64(dealt[seat]) | known
                        world[ST_KNOWN + seat] = known
                saved = rng[0]
                for a in range(n):
                    rng[0] = saved
                    copy_into(st, world)
                    apply_card(st, actions[a], rules)
                    codes[a] = _policy_outcome(rng, st, rules, policies, seated, give, rec, team)
            _count(row, codes, n, win_value, ev_value)
    return acc


@njit(cache=True, nogil=True)
def deal_hint(seed, start, count, n_blocks, rules, policies, bidder_arrays, seat, kitty, calls, contract, how, trumps,
              keeps, win_value, ev_value, seated):
    """A decision before play (trump with its keep, or a keep): action ``a`` names trump ``trumps[a]`` and keeps
    ``keeps[a]`` for ``observer``; the other seats keep by their policy; each world ``start .. start+count-1``
    (:func:`smear_sim.kernels.worlds.deal_world`, offset by ``first`` as in :func:`card_hint`) is played out from the
    first lead (module docstring).
    ``kitty`` is the kitty when the observer saw it (it is the bidder), else ZERO; ``contract`` is ``(bidder, bid)``;
    ``seat`` and ``how`` as in :func:`card_hint`."""
    observer, own9, dealer, score0, score1 = seat
    bidder, bid = contract
    inference, playout, first = how
    n = len(trumps)
    acc = np.zeros((n_blocks, hint_size(n)), dtype=np.int64)
    check_seated(policies, seated)
    give, keep = policy_tables(rules)
    team = observer & 1
    for b in range(n_blocks):
        lo, hi = block_bounds(count, n_blocks, b)
        row = acc[b]
        rng = np.zeros(1, dtype=np.uint64)
        solver = new_solver(TT_BITS)
        hands = np.zeros(5, dtype=np.uint64)
        known = np.zeros(4, dtype=np.uint64)
        kept = np.zeros(4, dtype=np.uint64)
        st = np.zeros(ST_SIZE, dtype=np.int64)
        rec = np.zeros(REC_SIZE, dtype=np.int64)
        codes = np.zeros(n, dtype=np.int64)
        for i in range(lo, hi):
            rng[0] = stream_key(seed, first + start + i)
            tries = deal_world(rng, observer, own9, kitty, dealer, calls, 4, score0, score1, rules, policies, bidder_arrays,
                               inference, hands)
            row[HINT_WORLDS] += 1
            row[HINT_TRIES] += abs(tries)
            if tries < 0:
                row[HINT_FALLBACK] += 1
            saved = rng[0]
            for a in range(n):
                rng[0] = saved
                t = trumps[a]
                for seat in range(4):
                    known[seat] = hands[seat]
                known[bidder] |= hands[4]
                for seat in range(4):
                    if seat == observer:
                        kept[seat] = keeps[a]
                    else:
                        kept[seat] = choose_keep(policies[seat & 1], seated, rng, known[seat], t, keep[t])
                start_play(st, kept, known, t, bidder, bid, score0, score1)
                if playout == 0:
                    v = solve_value(solver, st, rules)
                    codes[a] = line_outcome(solver, st, v, rules, rec, team)
                else:
                    codes[a] = _policy_outcome(rng, st, rules, policies, seated, give, rec, team)
            _count(row, codes, n, win_value, ev_value)
    return acc
