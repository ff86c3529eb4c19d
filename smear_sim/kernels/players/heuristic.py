"""``heuristic`` (v2): a sensible human-style player built from simple, documented rules.

v2 fixes six errors of the first heuristic (kept as ``heuristic-v1``): it sees ruffs, takes with its most
valuable card in last seat, overtakes by position, defends against the contract, values High by the
``high`` rule and ``trump_anytime``, and bids moon only when it usually succeeds.

Hand value and bidding

- Hand value. For a suit as trump, the points a hand should win are estimated as:
  - High: under ``high=ace``, 1 with the ace and nothing otherwise (without the ace, whether the team gets
    High does not depend on the hand). Under ``high=highest``, the chance that no opponent holds a trump
    above the hand's top trump: with m higher trumps, C(27, m) / C(45, m) (the opponents hold 18 of the 45
    cards a player does not see, and every trump dealt is kept).
  - Low: under ``low=two``, 1 with the two; under ``low=lowest``, the same chance for the trumps below the
    hand's lowest trump. Times 0.75 when Low goes to the taker.
  - Jack: 0.55 with the jack, plus 0.15 / 0.10 / 0.05 for the ace / king / queen that protect it, or 0.10
    per ace or king held to capture it.
  - Game: 0.10 + 0.07 a trump + 0.12 for the ten of trump + 0.05 an off-suit ace (at most 0.9). Under
    ``trump_anytime`` every trump may be played on any trick, so off-suit aces count nothing and each trump
    counts {GAME_TRUMP_ANYTIME}.
  - With round points, 0.7 / 0.6 / 0.55 for the jick / high joker / low joker.
- Bidding: it wants the highest bid b whose threshold the value of its best suit reaches: BASE + STEP (b - 2)
  points, with (BASE, STEP) = {BID_NO_ROUND} without round points and {BID_ROUND} with them. The thresholds
  were measured with ``benchmarks/calibrate_bids.py`` (hand analysis of 3,000 random hands): from them on,
  the bid's EV is no longer negative on average (kitty included). It bids what it wants when that is legal
  (capped at the points at stake), the lowest legal bid when it must bid, and passes otherwise.
- Moon: it bids moon with the ace, the two and the jack of its best suit and a value of at least
  M - {MOON_MARGIN} for M points at stake. The jack is what decides it: in the moon table (``smear-sim moon``,
  2,000,000 hands of v2 play) A-2-J with three trumps succeeds 64% of the time (80% with four), above the
  break-even of about 58%, while A-2 without the jack succeeds at most 43% of the time even with five
  trumps, the jick and a joker. v1 also shot the moon on A-2 hands without the jack; the class "A, 2, a jack,
  three trumps" succeeds about half the time only because it mixes the jack with the jick. (Duplicate
  games against v1: 54.7% won with this rule, 54.3% when it also asked for four trumps.)
- Trump: the suit of highest value over the 13 cards after the kitty.
- Discards: the rule fixes most of the keep; within the class that must be cut it keeps scoring trumps
  in the order A 2 J K Q jick 10 HJ LJ, other trumps high before low, and non-trumps A, K, 10, Q, J,
  then by rank.

Card play. Everything is judged from what the seat has seen: its own hand, its discards (and the kitty
when it bid), the cards played and the voids shown. Definitions:

- A card is *boss* when no unseen card outranks it in its suit. A card is *sure* when no opponent still to
  play to the trick can beat it: it is boss and, unless it is a trump, no such opponent can ruff it. An
  opponent can ruff unless it has shown a trump void or no trump is unseen; under the default rules it
  must also be void in the suit, which a seat can never rule out, because discards are unseen.
- The *catcher* is the seat's lowest trump that outranks the jack of trump while the jack is unseen: the
  card that captures the jack.
- A trick is *worth taking* when it holds a point-carrying card (the jack, the round-point cards, the two
  when Low goes to the taker) or at least {WORTH_GAME} card points.
- "Cheapest" means the fewest card points and points-carrying cards, then the lowest rank; "richest" the
  most, then the lowest rank.
- The contract is *open* while the bidding team has not yet won its bid in decided points and can still
  reach it. Decided points: High once the ace is played (``high=ace``), Low once the two is played (``low=two``
  and ``low_to=player``), the Jack and the round points once taken.

Leading:
- The bidding team draws trump with its highest trump when that trump is boss, or leads its cheapest trump
  when it holds three or more.
- A defender, while the contract is open and trumps are unseen, leads a boss trump (not the catcher), or
  else its cheapest trump that carries no points and is not the catcher when it holds two or more: this
  draws the bidder's protection from its jack and ten.
- Otherwise it leads its highest sure off-suit card; else its highest boss off-suit card, to cash it before
  the voids that would ruff it appear; else its cheapest off-suit card; else its cheapest card.

Following, partner winning: it smears its richest card, never the A, K or Q of trump, when the partner's card
is sure, and plays its cheapest card otherwise.

Following, an opponent winning (a *taker* is a legal card that beats the card winning now; the catcher is a
taker only when the trick is worth taking):
- it takes *well* from a set of cards that each take the trick for sure: with the most valuable one whose
  value is at risk later (it carries points and is not sure against both opponents), else the lowest;
- second hand (low): on a trick worth taking, it takes well with its sure takers, else with its highest
  taker; otherwise it plays its cheapest card;
- third hand (high): it takes well with its sure takers, else, when the trick holds card points, with its
  highest taker; otherwise it plays its cheapest card;
- last hand: it takes well with its takers (in last seat every taker is sure);
- with no taker it plays its cheapest card.

The play reads the hand state into scalars first: in Numba an array handed to a function costs a reference
count, which runs for every card of every hand. So the card helpers that take an array (``_lead``, ``_pick``,
``_take``, ``cheapest``, ``_decided``, ``_contract_open``) are inlined into their callers at the Numba IR level
(``inline="always"``), and the others (the bid, trump and keep, and the card helpers on plain numbers) are plain
calls: inlining those too makes the first compile far longer for a speed-up within the noise (docs/performance.md
has the figures).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.cards import ACE
from ...core.layout import (
    MOON,
    PASS,
    R_HIGH,
    R_LOW,
    R_LOW_TO,
    R_POINTS_AT_STAKE,
    R_ROUND_POINTS,
    R_TRUMP_ANYTIME,
    ST_BID,
    ST_BIDDER,
    ST_KNOWN,
    ST_LEADER,
    ST_LED_SUIT,
    ST_N_IN_TRICK,
    ST_PLAYED,
    ST_TAKEN,
    ST_TRICK,
    ST_TRUMP,
    ST_VOIDS,
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
    TR_JACK,
    TR_KING,
    TR_QUEEN,
    TR_TEN,
    TR_TWO,
)
from ..bits import ONE, ZERO, bit, has, lowest_card, popcount
from ..borrow import NO_REFCOUNT
from ..trick import beats

_TRUMP_MASK = TABLES.trump_mask
_TRUMP_CARDS = TABLES.trump_cards
_EFFECTIVE_SUIT = TABLES.effective_suit
_TRICK_RANK = TABLES.trick_rank
_HIGHER_TRUMPS = TABLES.higher_trumps
_HIGHER_IN_SUIT = TABLES.higher_in_suit
_SUIT_MASK = TABLES.suit_mask
_CARD_POINTS = TABLES.card_points
_ACES = TABLES.rank_masks[ACE]
_POINT_CARDS = TABLES.point_cards
_BY_RANK = TABLES.trump_by_rank
_DECK = (ONE << np.uint64(54)) - ONE
_HIGH_TRUMPS = np.array([np.uint64(sum(1 << int(TABLES.trump_by_rank[t, r]) for r in (TR_ACE, TR_KING, TR_QUEEN)))
                         for t in range(4)], dtype=np.uint64)  # the A, K and Q of each trump suit

# Hand value at which a bid of 2 starts to pay, and the value each further point of bid needs; index by
# round_points (see the module docstring for how they were measured).
BID_BASE = (0.49, -0.06)
BID_STEP = (1.14, 0.89)
MOON_MARGIN = 1.1
GAME_TRUMP = 0.07
GAME_TRUMP_ANYTIME = 0.09
WORTH_GAME = 10  # card points that make a trick worth taking
POINT_CARRIER = 6  # give[] adds this to a card that carries a point to its taker


def _fill_docstring() -> None:
    global __doc__
    __doc__ = __doc__.format(GAME_TRUMP_ANYTIME=GAME_TRUMP_ANYTIME, BID_NO_ROUND=(BID_BASE[0], BID_STEP[0]),
                             BID_ROUND=(BID_BASE[1], BID_STEP[1]), MOON_MARGIN=MOON_MARGIN,
                             WORTH_GAME=WORTH_GAME)


_fill_docstring()


# -- hand value and bidding ---------------------------------------------------------------------------


@njit(cache=True)
def none_above(m):
    """The chance that the two opponents hold none of ``m`` given trumps: C(27, m) / C(45, m)."""
    p = 1.0
    for i in range(m):
        p *= (27.0 - i) / (45.0 - i)
    return p


@njit(cache=True)
def suit_value(hand, t, rules):
    """Estimated points the hand wins with suit ``t`` as trump (see the module docstring)."""
    ace = has(hand, _BY_RANK[t, TR_ACE])
    king = has(hand, _BY_RANK[t, TR_KING])
    queen = has(hand, _BY_RANK[t, TR_QUEEN])
    trumps = hand & _TRUMP_MASK[t]
    value = 0.0
    if rules[R_HIGH] == 0:
        value += 1.0 if ace else 0.0
    elif trumps != ZERO:
        above = 0
        while not has(trumps, _TRUMP_CARDS[t, above]):
            above += 1
        value += none_above(above)
    low = 0.0
    if rules[R_LOW] == 0:
        low = 1.0 if has(hand, _BY_RANK[t, TR_TWO]) else 0.0
    elif trumps != ZERO:
        below = 0
        while not has(trumps, _TRUMP_CARDS[t, 15 - below]):
            below += 1
        low = none_above(below)
    value += 0.75 * low if rules[R_LOW_TO] == 1 else low
    if has(hand, _BY_RANK[t, TR_JACK]):
        value += 0.55 + 0.15 * ace + 0.10 * king + 0.05 * queen
    else:
        value += 0.10 * (ace + king)
    n_trumps = popcount(trumps)
    if rules[R_TRUMP_ANYTIME] == 1:
        game = 0.10 + GAME_TRUMP_ANYTIME * n_trumps + 0.12 * has(hand, _BY_RANK[t, TR_TEN])
    else:
        off_aces = popcount(hand & _ACES & ~_TRUMP_MASK[t])
        game = 0.10 + GAME_TRUMP * n_trumps + 0.12 * has(hand, _BY_RANK[t, TR_TEN]) + 0.05 * off_aces
    value += min(game, 0.9)
    if rules[R_ROUND_POINTS] == 1:
        value += (0.7 * has(hand, _POINT_CARDS[t, P_JICK]) + 0.6 * has(hand, _POINT_CARDS[t, P_HIGH_JOKER])
                  + 0.55 * has(hand, _POINT_CARDS[t, P_LOW_JOKER]))
    return value


@njit(cache=True)
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


@njit(cache=True)
def wants_moon(hand, t, value, max_points):
    """The moon rule of the module docstring, for ``hand`` with its best suit ``t`` of value ``value``."""
    return (has(hand, _BY_RANK[t, TR_ACE]) and has(hand, _BY_RANK[t, TR_TWO]) and has(hand, _BY_RANK[t, TR_JACK])
            and value >= max_points - MOON_MARGIN)


@njit(cache=True, **NO_REFCOUNT)
def bid(state, hand, seat, dealer, calls, n_calls, us, them, low, high, moon_ok, must, rules, max_points):
    """A call from ``low..high`` (empty when low > high), PASS (unless ``must``) or MOON (if ``moon_ok``).

    The arguments are those of :func:`smear_sim.kernels.players.choose_bid`; this player bids on its hand's
    value alone, so it ignores the auction so far, the dealer and the score.
    """
    n_numbers = max(0, high - low + 1)
    t, value = best_suit(hand, rules)
    if moon_ok and wants_moon(hand, t, value, max_points):
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


@njit(cache=True, **NO_REFCOUNT)
def trump(hand, rules):
    return best_suit(hand, rules)[0]


# -- discards -----------------------------------------------------------------------------------------


@njit(cache=True, **NO_REFCOUNT)
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


@njit(cache=True)
def _higher_cards(c, t):
    """The cards that outrank ``c`` in its own effective suit."""
    if _TRICK_RANK[t, c] >= 16:
        return _HIGHER_TRUMPS[t, c]
    return _HIGHER_IN_SUIT[c] & _SUIT_MASK[t, _EFFECTIVE_SUIT[t, c]]


@njit(cache=True)
def _is_boss(c, t, unseen):
    return _higher_cards(c, t) & unseen == ZERO


@njit(cache=True)
def _sure(voids, c, t, unseen, opponents):
    """Whether no seat of the mask ``opponents`` (bit per seat) can beat ``c``: see the module docstring.
    ``voids`` is the state's void bits (``ST_VOIDS``)."""
    if opponents == 0:
        return True
    if not _is_boss(c, t, unseen):
        return False
    if _TRICK_RANK[t, c] >= 16 or unseen & _TRUMP_MASK[t] == ZERO:
        return True
    for seat in range(4):  # noqa: SIM110 (no generators in Numba)
        if (opponents >> seat) & 1 and not (voids >> (4 * seat + t)) & 1:
            return False
    return True


@njit(cache=True)
def _opponents_after(leader, seat, n):
    """Bit mask of the opponents of ``seat`` who play after it in this trick (``seat`` plays ``n``-th, from 0)."""
    opponents = 0
    for position in range(n + 1, 4):
        other = (leader + position) % 4
        if (other & 1) != (seat & 1):
            opponents |= 1 << other
    return opponents


@njit(cache=True)
def _catcher(hand, t, unseen):
    """The lowest trump of ``hand`` that outranks the jack of trump while the jack is unseen, else -1."""
    jack = _BY_RANK[t, TR_JACK]
    if not has(unseen, jack):
        return -1
    for i in range(3, -1, -1):  # trump order: A K Q J ...; the catchers are Q, K, A
        c = _TRUMP_CARDS[t, i]
        if c != jack and has(hand, c):
            return c
    return -1


@njit(cache=True, inline="always")
def _decided(played, taken, t, rules):
    """Points a team that has played ``played`` and taken ``taken`` has already won for certain (see "decided
    points" in the module docstring)."""
    points = 0
    if rules[R_HIGH] == 0 and has(played, _BY_RANK[t, TR_ACE]):
        points += 1
    if rules[R_LOW] == 0 and rules[R_LOW_TO] == 0 and has(played, _BY_RANK[t, TR_TWO]):
        points += 1
    if has(taken, _BY_RANK[t, TR_JACK]):
        points += 1
    if rules[R_ROUND_POINTS] == 1:
        for point in (P_JICK, P_HIGH_JOKER, P_LOW_JOKER):
            points += has(taken, _POINT_CARDS[t, point])
    return points


@njit(cache=True, inline="always")
def _contract_open(bid, ours, theirs, rules):
    """Whether the bidding team (``ours`` points decided; the others ``theirs``) has not yet made ``bid`` in
    decided points and can still make it."""
    max_points = rules[R_POINTS_AT_STAKE]
    if bid == PASS:
        return True
    if bid == MOON:
        return theirs == 0
    return ours < bid and theirs <= max_points - bid


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
def _take(voids, cards, t, give, unseen, seat):
    """The card of ``cards`` (each takes the trick for sure) to take it with: the most valuable one whose value
    is at risk later (it carries points and is not sure against both opponents), else the lowest."""
    both_opponents = (1 << ((seat + 1) % 4)) | (1 << ((seat + 3) % 4))
    at_risk = ZERO
    m = cards
    while m:
        c = lowest_card(m)
        m &= m - ONE
        if give[t, c] > 0 and not _sure(voids, c, t, unseen, both_opponents):
            at_risk |= bit(c)
    if at_risk != ZERO:
        return _pick(at_risk, t, give, RICHEST)
    return _pick(cards, t, give, LOWEST)


@njit(cache=True, inline="always")
def _lead(legal, rules, give, seat, t, unseen, voids, bidding_team, contract_open):
    trumps = _TRUMP_MASK[t]
    held_trumps = legal & trumps
    both_opponents = (1 << ((seat + 1) % 4)) | (1 << ((seat + 3) % 4))
    if held_trumps != ZERO:
        top = _pick(held_trumps, t, give, HIGHEST)
        if (seat & 1) == bidding_team:
            if _is_boss(top, t, unseen):
                return top
            if popcount(held_trumps) >= 3:
                return _pick(held_trumps, t, give, CHEAPEST)
        elif unseen & trumps != ZERO and contract_open:
            catcher = _catcher(legal, t, unseen)
            if _is_boss(top, t, unseen) and top != catcher:
                return top
            spare = ZERO
            m = held_trumps
            while m:
                c = lowest_card(m)
                m &= m - ONE
                if give[t, c] == 0 and c != catcher:
                    spare |= bit(c)
            if spare != ZERO and popcount(held_trumps) >= 2:
                return _pick(spare, t, give, CHEAPEST)
    off = legal & ~trumps
    if off != ZERO:
        best = -1
        boss = -1
        m = off
        while m:
            c = lowest_card(m)
            m &= m - ONE
            if _sure(voids, c, t, unseen, both_opponents) and (best < 0 or _TRICK_RANK[t, c] > _TRICK_RANK[t, best]):
                best = c
            if _is_boss(c, t, unseen) and (boss < 0 or _TRICK_RANK[t, c] > _TRICK_RANK[t, boss]):
                boss = c
        if best >= 0:
            return best
        if boss >= 0:
            return boss
        return _pick(off, t, give, CHEAPEST)
    return _pick(legal, t, give, CHEAPEST)


@njit(cache=True, **NO_REFCOUNT)
def play(hs, legal, rules, give):
    """The card the seat to play plays from ``legal`` (a non-empty mask of its legal cards), by the rules of
    the module docstring."""
    # Everything is read into scalars first: in Numba an array handed to a helper costs a reference count.
    leader = hs[ST_LEADER]
    n = hs[ST_N_IN_TRICK]
    seat = (leader + n) % 4
    t = hs[ST_TRUMP]
    voids = hs[ST_VOIDS]
    played0 = np.uint64(hs[ST_PLAYED]) | np.uint64(hs[ST_PLAYED + 2])
    played1 = np.uint64(hs[ST_PLAYED + 1]) | np.uint64(hs[ST_PLAYED + 3])
    unseen = _DECK & ~(np.uint64(hs[ST_KNOWN + seat]) | played0 | played1)
    if n == 0:
        bidding_team = hs[ST_BIDDER] & 1
        ours = _decided(played1 if bidding_team else played0, np.uint64(hs[ST_TAKEN + bidding_team]), t, rules)
        theirs = _decided(played0 if bidding_team else played1, np.uint64(hs[ST_TAKEN + 1 - bidding_team]), t,
                          rules)
        return _lead(legal, rules, give, seat, t, unseen, voids, bidding_team,
                     _contract_open(hs[ST_BID], ours, theirs, rules))
    opponents = _opponents_after(leader, seat, n)
    win_seat = hs[ST_WIN_SEAT]
    if (win_seat & 1) == (seat & 1):
        if _sure(voids, hs[ST_WIN_CARD], t, unseen, opponents):
            smear = legal & ~_HIGH_TRUMPS[t]
            return _pick(smear if smear != ZERO else legal, t, give, RICHEST)
        return _pick(legal, t, give, CHEAPEST)

    trick_mask = np.uint64(hs[ST_TRICK])
    value = 0
    carrier = False
    m = trick_mask
    while m:
        c = lowest_card(m)
        m &= m - ONE
        value += _CARD_POINTS[c]
        carrier = carrier or give[t, c] - _CARD_POINTS[c] >= POINT_CARRIER
    worth = carrier or value >= WORTH_GAME
    catcher = _catcher(legal, t, unseen)
    led_suit = hs[ST_LED_SUIT]
    win_key = hs[ST_WIN_KEY]
    takers = ZERO
    sure = ZERO
    m = legal
    while m:
        c = lowest_card(m)
        m &= m - ONE
        if c == catcher and not worth:
            continue
        if beats(c, t, led_suit, win_key, trick_mask):
            takers |= bit(c)
            if _sure(voids, c, t, unseen, opponents):
                sure |= bit(c)
    if takers == ZERO:
        return _pick(legal, t, give, CHEAPEST)
    if n == 3:
        return _take(voids, takers, t, give, unseen, seat)
    if n == 1:
        if not worth:
            return _pick(legal, t, give, CHEAPEST)
        if sure != ZERO:
            return _take(voids, sure, t, give, unseen, seat)
        return _pick(takers, t, give, HIGHEST)
    if sure != ZERO:
        return _take(voids, sure, t, give, unseen, seat)
    if value > 0:
        return _pick(takers, t, give, HIGHEST)
    return _pick(legal, t, give, CHEAPEST)


@njit(cache=True, inline="always")
def cheapest(cards, t, give):
    """The card of ``cards`` that gives away least (fewest points, then lowest rank)."""
    return _pick(cards, t, give, CHEAPEST)


# The decisions this player makes (core.players.PLAYERS), as the dispatch calls them (kernels.players.bids.dispatcher):
# each the function and the dispatch's arguments it takes, in order.
DECISIONS = {
    "bid": (bid, ("state", "hand", "seat", "dealer", "calls", "n_calls", "us", "them", "low", "high", "moon_ok", "must",
                  "rules", "max_points")),
    "trump": (trump, ("hand", "rules")),
    "keep": (choose_cards, ("cards", "room", "keep_score")),
    "play": (play, ("hs", "legal", "rules", "give")),
}
