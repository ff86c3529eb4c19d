"""A hand in progress, for play and for search: one ``int64`` array with the operations on it.

The state (layout ``ST_*`` in :mod:`smear_sim.core.layout`) holds everything about the card play of a
hand: every seat's cards, what each seat saw before play, the cards each seat has played, the tricks each
team has taken, the trick in progress (leader, led suit, the card winning it), the voids each seat has
shown, trump, bidder, bid and the scores before the hand. The operations are the verbs a player, a solver
and the hand kernel need: :func:`new_state`, :func:`start_play`, :func:`to_play`, :func:`legal_cards`,
:func:`apply_card` (copying a state is :func:`copy_into`) and :func:`is_over`;
:func:`smear_sim.kernels.scoring.score_state` scores a finished hand with the hand kernel's own scoring and
gives its value to the bidding team (:func:`~smear_sim.kernels.scoring.hand_value`). The verbs take an
optional ``base``: where the state starts in a longer array (the solver keeps one state per depth in one
flat array).

A state holds every hand, so a player must read only what its seat may know: its own hand, its
``ST_KNOWN`` cards and the public fields (plays, tricks, voids, trump, bidder, bid). :func:`sample_world`
is how a player sees the rest: it deals the cards the seat has not seen into the other hands, consistently
with everything the seat has seen.

What a seat knows, exactly (the sampler conditions on all of it and on nothing else):

- its own dealt hand, and the kitty when it is the bidder; its own discards are among these;
- every card played so far and the seat that played it, this trick's cards included;
- the voids shown: a seat that does not follow the led suit holds none of it, except that under
  ``trump_anytime`` a trump played to a plain-suit lead shows nothing;
- trump, the bidder, the bid, and how many cards each seat holds.

It does not see the other seats' discards, the kitty (unless it is the bidder: a non-bidder knows only
that the kitty's four cards went into the bidder's hand) or the 14 undealt cards: a discarded card is out
of play, and to everyone else it looks exactly like a card never dealt. The auction is not used.

The sampler's model of the unseen cards follows the deal and the discard rule. Every other seat was dealt
9 cards (13 for the bidder, with the kitty), of which those it has played are known; the rest of its dealt
cards and the 14 undealt cards are the unseen *places*. Because the discard rule keeps trumps first, every
trump a seat was dealt is in its hand. So a world is drawn in two steps:

1. The unseen trumps are dealt uniformly over the unseen places, leaving out the places of a seat that has
   shown a trump void (it was dealt none). A deal that gives a seat more trumps than it holds cards is
   drawn again (that seat would have buried trumps, which the model leaves out).
   A deal of the trumps after which step 2 is impossible is drawn again too.
2. Each seat's other cards are unseen plain (non-trump) cards, uniformly over the assignments that give
   no seat a card of a suit it has shown void in. They are drawn seat by seat, most constrained first, and
   a draw is kept with the probability that makes every such assignment equally likely (rejection
   sampling).

After ``MAX_DRAWS`` failed tries (only very tight voids do that) the hands are filled card by card, each
card uniform among those that keep the deal completable, so the sampler always returns a world consistent
with what the seat has seen. The model ignores what the bids say about the hands, which plain cards the
others chose to keep, and how the voids shown make long trump holdings likelier.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.layout import (
    R_TRUMP_ANYTIME,
    ST_BEFORE,
    ST_BID,
    ST_BIDDER,
    ST_HANDS,
    ST_KNOWN,
    ST_LEADER,
    ST_LED_SUIT,
    ST_N_IN_TRICK,
    ST_PLAYED,
    ST_SIZE,
    ST_TAKEN,
    ST_TRICK,
    ST_TRICKS_DONE,
    ST_TRUMP,
    ST_VOIDS,
    ST_WIN_CARD,
    ST_WIN_KEY,
    ST_WIN_SEAT,
)
from ..core.tables import TABLES
from .bits import ONE, ZERO, bit, lowest_card, nth_card, popcount
from .borrow import REFCOUNTED
from .rng import below, next_u64, random_subset
from .trick import beats, card_key, legal_mask

_EFFECTIVE_SUIT = TABLES.effective_suit
_TRUMP_MASK = TABLES.trump_mask
_SUIT_MASK = TABLES.suit_mask
_DECK = (ONE << np.uint64(54)) - ONE
MAX_DRAWS = 64
UNDEALT = 14  # cards no one is dealt


@njit(cache=True, inline="always")
def mask_at(state, offset):
    """The card mask stored at ``offset``."""
    return np.uint64(state[offset])


@njit(cache=True, inline="always")
def copy_into(out, source):
    """``out[:] = source`` for two arrays of one length, as a loop: Numba compiles the slice assignment's shape
    check and its error message for seconds at every place it is written."""
    for k in range(len(source)):
        out[k] = source[k]


@njit(cache=True, **REFCOUNTED)
def new_state():
    return np.zeros(ST_SIZE, dtype=np.int64)


@njit(cache=True)
def start_play(state, kept, known, trump, bidder, bid, before0, before1):
    """Set ``state`` to the first lead: ``kept[seat]`` the 6 cards each seat kept, ``known[seat]`` what it saw."""
    state[:] = 0
    for seat in range(4):
        state[ST_HANDS + seat] = np.int64(kept[seat])
        state[ST_KNOWN + seat] = np.int64(known[seat])
    state[ST_LEADER] = bidder
    state[ST_LED_SUIT] = -1
    state[ST_WIN_SEAT] = -1
    state[ST_WIN_CARD] = -1
    state[ST_WIN_KEY] = -1
    state[ST_TRUMP] = trump
    state[ST_BIDDER] = bidder
    state[ST_BID] = bid
    state[ST_BEFORE] = before0
    state[ST_BEFORE + 1] = before1


@njit(cache=True, inline="always")
def to_play(state, base=0):
    """The seat whose turn it is."""
    return (state[base + ST_LEADER] + state[base + ST_N_IN_TRICK]) % 4


@njit(cache=True, inline="always")
def is_over(state, base=0):
    return state[base + ST_TRICKS_DONE] == 6


@njit(cache=True, inline="always")
def played_cards(state):
    """Every card played so far, this trick's included."""
    return (mask_at(state, ST_PLAYED) | mask_at(state, ST_PLAYED + 1) | mask_at(state, ST_PLAYED + 2)
            | mask_at(state, ST_PLAYED + 3))


@njit(cache=True, inline="always")
def seen_by(state, seat):
    """Every card ``seat`` knows to be out of the other hands: what it saw before play, and every play."""
    return mask_at(state, ST_KNOWN + seat) | played_cards(state)


@njit(cache=True, inline="always")
def legal_cards(state, rules, base=0):
    """The cards the seat to play may play."""
    return legal_mask(mask_at(state, base + ST_HANDS + to_play(state, base)), state[base + ST_TRUMP],
                      state[base + ST_LED_SUIT], rules[R_TRUMP_ANYTIME] == 1)


@njit(cache=True, inline="always")
def void_in(state, seat, suit):
    return (state[ST_VOIDS] >> (4 * seat + suit)) & 1 == 1


@njit(cache=True, inline="always")
def apply_card(state, c, rules, base=0):
    """The seat to play plays ``c`` (which must be legal). Returns the trick's winning seat when ``c``
    completes a trick, else -1."""
    return play_card(state, c, rules[R_TRUMP_ANYTIME] == 1, base)


@njit(cache=True, inline="always")
def play_card(state, c, trump_anytime, base=0):
    """:func:`apply_card` with the one rule it reads given as a flag (the solver keeps the rules out of its
    inner loop)."""
    seat = to_play(state, base)
    t = state[base + ST_TRUMP]
    b = bit(c)
    n = state[base + ST_N_IN_TRICK]
    trick = mask_at(state, base + ST_TRICK)
    state[base + ST_HANDS + seat] = np.int64(mask_at(state, base + ST_HANDS + seat) & ~b)
    state[base + ST_PLAYED + seat] = np.int64(mask_at(state, base + ST_PLAYED + seat) | b)
    suit = _EFFECTIVE_SUIT[t, c]
    if n == 0:
        state[base + ST_LED_SUIT] = suit
        state[base + ST_WIN_SEAT] = seat
        state[base + ST_WIN_CARD] = c
        state[base + ST_WIN_KEY] = card_key(c, t, suit)
    else:
        led = state[base + ST_LED_SUIT]
        if suit != led and not (trump_anytime and suit == t):
            state[base + ST_VOIDS] |= np.int64(1) << (4 * seat + led)
        if beats(c, t, led, state[base + ST_WIN_KEY], trick):
            state[base + ST_WIN_SEAT] = seat
            state[base + ST_WIN_CARD] = c
            state[base + ST_WIN_KEY] = card_key(c, t, led)
    trick |= b
    if n < 3:
        state[base + ST_TRICK] = np.int64(trick)
        state[base + ST_N_IN_TRICK] = n + 1
        return -1
    winner = state[base + ST_WIN_SEAT]
    team = winner & 1
    state[base + ST_TAKEN + team] = np.int64(mask_at(state, base + ST_TAKEN + team) | trick)
    state[base + ST_TRICK] = 0
    state[base + ST_N_IN_TRICK] = 0
    state[base + ST_TRICKS_DONE] += 1
    state[base + ST_LEADER] = winner
    state[base + ST_LED_SUIT] = -1
    state[base + ST_WIN_SEAT] = -1
    state[base + ST_WIN_CARD] = -1
    state[base + ST_WIN_KEY] = -1
    return winner


# -- sampling what a seat has not seen ------------------------------------------------------------------


@njit(cache=True, inline="always")
def _choose(n, k):
    """C(n, k) as a float (n <= 54)."""
    if k < 0 or k > n:
        return 0.0
    r = 1.0
    for i in range(k):
        r = r * (n - i) / (i + 1)
    return r


@njit(cache=True, inline="always")
def _uniform(rng):
    return np.float64(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def _allowed(state, seat, t):
    """The cards ``seat`` may hold given the voids it has shown."""
    allowed = _DECK
    for suit in range(4):
        if void_in(state, seat, suit):
            allowed &= ~_SUIT_MASK[t, suit]
    return allowed


@njit(cache=True)
def _completable(need, allowed, pool):
    """Whether the seats can be given ``need[seat]`` cards of ``pool & allowed[seat]``, all different (Hall's
    condition; the allowed sets are unions of suits, so checking each set of seats suffices)."""
    for subset in range(1, 16):
        total = 0
        union = ZERO
        for seat in range(4):
            if (subset >> seat) & 1 and need[seat] > 0:
                total += need[seat]
                union |= allowed[seat]
        if total > popcount(pool & union):
            return False
    return True


@njit(cache=True, **REFCOUNTED)
def _fill_card_by_card(rng, need, allowed, pool, hands):
    """Fill ``hands`` card by card, each card uniform among those that keep the deal completable."""
    need = need.copy()
    for seat in range(4):
        while need[seat] > 0:
            candidates = pool & allowed[seat]
            while True:
                c = nth_card(candidates, below(rng, popcount(candidates)))
                need[seat] -= 1
                if _completable(need, allowed, pool & ~bit(c)):
                    break
                need[seat] += 1
                candidates &= ~bit(c)
            hands[seat] |= bit(c)
            pool &= ~bit(c)


@njit(cache=True, **REFCOUNTED)
def _draw_trumps(rng, unseen_trumps, places, need, hands, got):
    """Step 1 of the model: deal the unseen trumps over the unseen places. False when a seat got more
    trumps than it holds cards."""
    free = places.copy()
    free_undealt = UNDEALT
    m = unseen_trumps
    while m:
        c = lowest_card(m)
        m &= m - ONE
        r = below(rng, free[0] + free[1] + free[2] + free[3] + free_undealt)
        place = 4  # undealt
        for seat in range(4):
            if r < free[seat]:
                place = seat
                break
            r -= free[seat]
        if place == 4:
            free_undealt -= 1
            continue
        free[place] -= 1
        got[place] += 1
        hands[place] |= bit(c)
        if got[place] > need[place]:
            return False
    return True


@njit(cache=True, **REFCOUNTED)
def _draw_plain(rng, plain, allowed, short, order, hands):
    """Step 2 of the model: ``short[seat]`` plain cards for each seat, uniformly over the assignments that
    respect ``allowed``. Seats draw in ``order`` (most constrained first), each uniformly from what is left
    to it, and the draw is kept with probability prod C(available, k) / C(bound, k), which makes every
    valid assignment equally likely. False when the draw was not kept."""
    remaining = plain
    n_left = popcount(plain)
    accept = 1.0
    drawn = np.zeros(4, dtype=np.uint64)
    for i in range(4):
        seat = order[i]
        k = short[seat]
        if k == 0:
            continue
        avail = remaining & allowed[seat]
        n_avail = popcount(avail)
        if n_avail < k:
            return False
        accept *= _choose(n_avail, k) / _choose(min(popcount(allowed[seat] & plain), n_left), k)
        drawn[seat] = random_subset(rng, avail, k)
        remaining &= ~drawn[seat]
        n_left -= k
    if accept < 1.0 and _uniform(rng) >= accept:
        return False
    for seat in range(4):
        hands[seat] |= drawn[seat]
    return True


@njit(cache=True, **REFCOUNTED)
def sample_world(state, observer, rng, out):
    """Write into ``out`` a copy of ``state`` whose other hands are re-dealt from the cards ``observer`` has
    not seen, by the model in the module docstring; return how many trump deals it took (MAX_DRAWS + 1 when
    it filled card by card). ``rng`` is the hand's random stream."""
    copy_into(out, state)
    t = state[ST_TRUMP]
    bidder = state[ST_BIDDER]
    unseen = _DECK & ~seen_by(state, observer)
    plain = unseen & ~_TRUMP_MASK[t]
    need = np.zeros(4, dtype=np.int64)
    places = np.zeros(4, dtype=np.int64)
    allowed = np.zeros(4, dtype=np.uint64)
    hands = np.zeros(4, dtype=np.uint64)
    for seat in range(4):
        if seat == observer:
            continue
        need[seat] = popcount(mask_at(state, ST_HANDS + seat))
        dealt = 13 if seat == bidder and observer != bidder else 9
        if not void_in(state, seat, t):
            places[seat] = dealt - popcount(mask_at(state, ST_PLAYED + seat))
        allowed[seat] = _allowed(state, seat, t) & unseen
    # Seats in order of fewest plain cards they may hold: the most constrained draw first.
    order = np.arange(4)
    for i in range(4):
        for j in range(i + 1, 4):
            if popcount(allowed[order[j]] & plain) < popcount(allowed[order[i]] & plain):
                order[i], order[j] = order[j], order[i]
    for draw in range(MAX_DRAWS):
        got = np.zeros(4, dtype=np.int64)
        trumps = np.zeros(4, dtype=np.uint64)
        if not _draw_trumps(rng, unseen & _TRUMP_MASK[t], places, need, trumps, got):
            continue
        short = need - got
        if not _completable(short, allowed, plain):
            continue
        for _ in range(MAX_DRAWS):
            copy_into(hands, trumps)
            if _draw_plain(rng, plain, allowed, short, order, hands):
                for seat in range(4):
                    if seat != observer:
                        out[ST_HANDS + seat] = np.int64(hands[seat])
                return draw + 1
    hands[:] = ZERO
    _fill_card_by_card(rng, need, allowed, unseen, hands)
    for seat in range(4):
        if seat != observer:
            out[ST_HANDS + seat] = np.int64(hands[seat])
    return MAX_DRAWS + 1
