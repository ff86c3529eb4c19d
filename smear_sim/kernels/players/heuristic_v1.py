"""``heuristic-v1``: the first heuristic, kept exactly as it was so that old tables can be reproduced.

It was the default player until ``heuristic`` (v2) fixed its known errors (see that module). Nothing here
may change: a test replays its results from before v2, byte for byte. Its card tables (``give``, ``keep``)
are :func:`smear_sim.kernels.players.policy_tables`, shared with v2.

- Hand value. For a suit as trump, the points a hand should win are estimated as: High 1 with the ace
  (0.35 with the king, 0.12 with the queen as top); Low 1 with the two (0.75 when Low goes to the
  taker; under ``low=lowest`` also 0.5 with the three, 0.25 with the four); Jack 0.55 with the jack,
  plus 0.15 / 0.10 / 0.05 for the ace / king / queen that protect it, or 0.10 per ace or king held to
  capture it; Game 0.10 + 0.07 a trump + 0.12 for the ten of trump + 0.05 an off-suit ace (at most
  0.9); with round points, 0.7 / 0.6 / 0.55 for the jick / high joker / low joker.
- Bidding: on the hand alone (it ignores the calls before it, its seat and the score), it wants the
  highest bid b whose threshold the value of its best suit reaches: 0.6 + 1.1 (b - 2) points, or
  0.2 + 0.85 (b - 2) with round points. These thresholds were measured with ``smear-sim hand`` on 3,000
  random hands: from them on, the bid's EV is no longer negative on average (kitty included). It bids
  what it wants when that is legal (capped at the points at stake), the lowest legal bid when it must
  bid, and passes otherwise. It bids moon with the ace and the two of its best suit and a value
  of at least M - 1.1 for M points at stake (2.9 without round points, where such hands succeed about
  three times in four).
- Trump: the suit of highest value over the 13 cards after the kitty.
- Discards: the rule fixes most of the keep; within the class that must be cut it keeps scoring trumps
  in the order A 2 J K Q jick 10 HJ LJ, other trumps high before low, and non-trumps A, K, 10, Q, J,
  then by rank.
- Leading: the bidding team draws trump with its highest trump when that trump is the best still out,
  or leads its cheapest trump when it holds three or more; otherwise it leads an off-suit card that is
  the best still out in its suit (the highest such), else its cheapest non-trump.
- Following: when the partner's card is winning and is sure to hold (the seat plays last, or the card
  is the best still out), it "smears" its most valuable card onto the trick (tens and the jack of
  trump first). When an opponent is winning, it takes the trick with its cheapest card that is sure to
  hold, or, when the trick already holds points, with its highest winning card; otherwise it plays
  its cheapest card. "Cheapest" means the fewest card points and points-carrying cards (jack of trump,
  the two when Low goes to the taker, round-point cards), then the lowest rank, so it saves its
  trumps, its two and its jack and does not feed points to the opponents.

"Best still out" is judged from what the seat has seen: its own hand and discards, and the cards played.

The decision functions are inlined into their callers at the Numba IR level (``inline="always"``): each
is called once per card or per seat, and a real call would pass its arrays with reference counting,
which cost about a quarter of the time of a hand.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.cards import ACE
from ...core.layout import (
    MOON,
    PASS,
    R_LOW,
    R_LOW_TO,
    R_ROUND_POINTS,
    ST_BIDDER,
    ST_KNOWN,
    ST_LEADER,
    ST_LED_SUIT,
    ST_N_IN_TRICK,
    ST_PLAYED,
    ST_TRICK,
    ST_TRUMP,
    ST_WIN_CARD,
    ST_WIN_KEY,
    ST_WIN_SEAT,
)
from ...core.tables import (
    P_HIGH_JOKER,
    P_JICK,
    P_LOW_JOKER,
    TABLES,
    TR_ACE,
    TR_FOUR,
    TR_JACK,
    TR_KING,
    TR_QUEEN,
    TR_TEN,
    TR_THREE,
    TR_TWO,
)
from ..bits import ONE, ZERO, bit, has, lowest_card, popcount
from ..trick import beats

_TRUMP_MASK = TABLES.trump_mask
_SCORING_MASK = TABLES.scoring_trump_mask
_EFFECTIVE_SUIT = TABLES.effective_suit
_TRICK_RANK = TABLES.trick_rank
_HIGHER_TRUMPS = TABLES.higher_trumps
_HIGHER_IN_SUIT = TABLES.higher_in_suit
_SUIT_MASK = TABLES.suit_mask
_CARD_POINTS = TABLES.card_points
_POINT_CARDS = TABLES.point_cards
_BY_RANK = TABLES.trump_by_rank
_ACES = TABLES.rank_masks[ACE]

# Hand value at which a bid of 2 starts to pay, and the value each further point of bid needs; index by
# round_points (see the module docstring for how they were measured).
BID_BASE = (0.6, 0.2)
BID_STEP = (1.1, 0.85)
MOON_MARGIN = 1.1


# -- hand value and bidding ---------------------------------------------------------------------------


@njit(cache=True, inline="always")
def suit_value(hand, t, rules):
    """Estimated points the hand wins with suit ``t`` as trump (see the module docstring)."""
    ace = has(hand, _BY_RANK[t, TR_ACE])
    king = has(hand, _BY_RANK[t, TR_KING])
    queen = has(hand, _BY_RANK[t, TR_QUEEN])
    value = 0.0
    if ace:
        value += 1.0
    elif king:
        value += 0.35
    elif queen:
        value += 0.12
    if has(hand, _BY_RANK[t, TR_TWO]):
        value += 0.75 if rules[R_LOW_TO] == 1 else 1.0
    elif rules[R_LOW] == 1:
        if has(hand, _BY_RANK[t, TR_THREE]):
            value += 0.5
        elif has(hand, _BY_RANK[t, TR_FOUR]):
            value += 0.25
    if has(hand, _BY_RANK[t, TR_JACK]):
        value += 0.55 + 0.15 * ace + 0.10 * king + 0.05 * queen
    else:
        value += 0.10 * (ace + king)
    n_trumps = popcount(hand & _TRUMP_MASK[t])
    off_aces = popcount(hand & _ACES & ~_TRUMP_MASK[t])
    game = 0.10 + 0.07 * n_trumps + 0.12 * has(hand, _BY_RANK[t, TR_TEN]) + 0.05 * off_aces
    value += min(game, 0.9)
    if rules[R_ROUND_POINTS] == 1:
        value += (0.7 * has(hand, _POINT_CARDS[t, P_JICK]) + 0.6 * has(hand, _POINT_CARDS[t, P_HIGH_JOKER])
                  + 0.55 * has(hand, _POINT_CARDS[t, P_LOW_JOKER]))
    return value


@njit(cache=True, inline="always")
def best_suit(hand, rules):
    """The suit of highest value (ties to the lower suit index) and that value."""
    best = 0
    best_value = -1.0
    for t in range(4):
        v = suit_value(hand, t, rules)
        if v > best_value:
            best = t
            best_value = v
    return best, best_value


@njit(cache=True, inline="always")
def bid(state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must, rules, max_points):
    """A call from ``low..high`` (empty when low > high), PASS (unless ``must``) or MOON (if ``moon_ok``).

    The arguments are those of :func:`smear_sim.kernels.players.choose_bid`; this player bids on its hand's
    value alone, so it ignores the auction so far, the dealer and the score.
    """
    n_numbers = max(0, high - low + 1)
    t, value = best_suit(hand, rules)
    if (moon_ok and value >= max_points - MOON_MARGIN and has(hand, _BY_RANK[t, TR_ACE])
            and has(hand, _BY_RANK[t, TR_TWO])):
        return MOON
    round_points = rules[R_ROUND_POINTS]
    want = 2 + np.int64(np.floor((value - BID_BASE[round_points]) / BID_STEP[round_points]))
    if n_numbers > 0:
        if want >= low:
            return min(want, high)
        if must:
            return low
    elif must and moon_ok:
        return MOON
    return PASS


@njit(cache=True, inline="always")
def trump(hand, rules):
    return best_suit(hand, rules)[0]


# -- discards -----------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def choose_cards(cards, k, keep_score):
    """The ``k`` cards of the mask ``cards`` with the highest keep score (the lowest code among equals)."""
    chosen = ZERO
    remaining = cards
    for _ in range(k):
        c = -1
        best = -1
        m = remaining
        while m:
            card = lowest_card(m)
            m &= m - ONE
            if keep_score[card] > best:
                best = keep_score[card]
                c = card
        chosen |= bit(c)
        remaining &= ~bit(c)
    return chosen


# -- play ---------------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _higher_cards(c, t):
    """The cards that outrank ``c`` in its own effective suit."""
    if _TRICK_RANK[t, c] >= 16:
        return _HIGHER_TRUMPS[t, c]
    return _HIGHER_IN_SUIT[c] & _SUIT_MASK[t, _EFFECTIVE_SUIT[t, c]]


@njit(cache=True, inline="always")
def _is_boss(c, t, unseen):
    return _higher_cards(c, t) & unseen == ZERO


CHEAPEST, RICHEST, HIGHEST, LOWEST = 0, 1, 2, 3


@njit(cache=True, inline="always")
def _pick(cards, t, give, how):
    """The card of ``cards`` that ``how`` prefers, the lowest card code among equals.

    CHEAPEST gives away least (fewest points, then lowest rank); RICHEST is worth most to the trick's taker
    (most points, then lowest rank); HIGHEST and LOWEST go by trick rank. Every call passes ``how`` as a
    constant, so the compiler drops the other branches.
    """
    best = -1
    best_score = -(1 << 30)
    m = cards
    while m:
        c = lowest_card(m)
        m &= m - ONE
        rank = _TRICK_RANK[t, c]
        if how == CHEAPEST:
            score = -(give[t, c] * 64 + rank)
        elif how == RICHEST:
            score = give[t, c] * 64 + 31 - rank
        elif how == HIGHEST:
            score = rank
        else:
            score = -rank
        if score > best_score:
            best_score = score
            best = c
    return best


@njit(cache=True, inline="always")
def play(legal, seat, t, n_in_trick, led_suit, win_seat, win_card, win_key, trick_mask, seen, bidding_team,
         give):
    """The card ``seat`` plays from ``legal`` (a non-empty mask of its legal cards).

    ``seen`` holds every card the seat knows to be out of the others' hands: its own hand and discards
    and all cards played so far, this trick's included.
    """
    unseen = ~seen & ((ONE << np.uint64(54)) - ONE)
    trumps = _TRUMP_MASK[t]
    if n_in_trick == 0:
        held_trumps = legal & trumps
        if (seat & 1) == bidding_team and held_trumps != ZERO:
            top = _pick(held_trumps, t, give, HIGHEST)
            if _is_boss(top, t, unseen):
                return top
            if popcount(held_trumps) >= 3:
                return _pick(held_trumps, t, give, CHEAPEST)
        off = legal & ~trumps
        if off != ZERO:
            best = -1
            m = off
            while m:
                c = lowest_card(m)
                m &= m - ONE
                if _is_boss(c, t, unseen) and (best < 0 or _TRICK_RANK[t, c] > _TRICK_RANK[t, best]):
                    best = c
            if best >= 0:
                return best
            return _pick(off, t, give, CHEAPEST)
        return _pick(legal, t, give, CHEAPEST)

    if (win_seat & 1) == (seat & 1):
        if n_in_trick == 3 or _is_boss(win_card, t, unseen):
            return _pick(legal, t, give, RICHEST)
        return _pick(legal, t, give, CHEAPEST)

    winners = ZERO  # cards that take the lead now
    sure = ZERO  # winners no unseen card can beat
    m = legal
    while m:
        c = lowest_card(m)
        m &= m - ONE
        if beats(c, t, led_suit, win_key, trick_mask):
            winners |= bit(c)
            if _is_boss(c, t, unseen):
                sure |= bit(c)
    if winners == ZERO:
        return _pick(legal, t, give, CHEAPEST)
    if n_in_trick == 3:
        return _pick(winners, t, give, LOWEST)
    if sure != ZERO:
        return _pick(sure, t, give, LOWEST)
    trick_value = 0
    m = trick_mask
    while m:
        c = lowest_card(m)
        m &= m - ONE
        trick_value += give[t, c]
    if trick_value > 0:
        return _pick(winners, t, give, HIGHEST)
    return _pick(legal, t, give, CHEAPEST)


# The decisions this player makes (core.players.PLAYERS), as the dispatch calls them (kernels.players.bids.dispatcher):
# each the function and the dispatch's arguments it takes, in order.
@njit(cache=True, inline="always")
def play_state(hs, legal, give):
    """:func:`play` of the seat to play in the hand state ``hs``."""
    n = hs[ST_N_IN_TRICK]
    seat = (hs[ST_LEADER] + n) % 4
    seen = np.uint64(hs[ST_KNOWN + seat])
    for other in range(4):
        seen |= np.uint64(hs[ST_PLAYED + other])
    return play(legal, seat, hs[ST_TRUMP], n, hs[ST_LED_SUIT], hs[ST_WIN_SEAT], hs[ST_WIN_CARD], hs[ST_WIN_KEY],
                np.uint64(hs[ST_TRICK]), seen, hs[ST_BIDDER] & 1, give)


# The decisions this player makes (core.players.PLAYERS), as the dispatch calls them (kernels.players.bids.dispatcher):
# each the function and the dispatch's arguments it takes, in order.
DECISIONS = {
    "bid": (bid, ("state", "hand", "seat", "dealer", "calls", "n_calls", "us", "them", "low", "high", "moon_ok", "must",
                  "rules", "max_points")),
    "trump": (trump, ("hand", "rules")),
    "keep": (choose_cards, ("cards", "room", "keep_score")),
    "play": (play_state, ("hs", "legal", "give")),
}
