"""The double-dummy solver: the exact value of a hand state when every hand is visible to both sides.

The value is :func:`smear_sim.kernels.scoring.hand_value` of the finished hand (the bidding team's score
change minus the other team's; +-target on a moon hand) under perfect play by both sides from the state:
the bidding team's seats maximise it, the others minimise it. The search is alpha-beta over the remaining
cards with zero-window searches converging on the value (MTD(f)), exact, with savings that never change a
value:

- *Transposition table* at trick boundaries. Within one solve the hands at the root are fixed, so the cards
  still out say who played every other card; with the seat to lead, the tricks' card points taken so far
  (as team 0's minus team 1's) and which team took each card whose taker scores (the jack; the jick and
  the jokers with round points; the two, or under ``low=lowest`` every trump, when Low goes to the taker),
  they decide the value of the rest of the hand. Entries hold a lower and an upper bound and the best card.
- *Equivalent cards*. Two cards of one hand that are adjacent in rank in their suit among the cards still
  out (in any hand or in the trick in progress), and that carry nothing to the score under the rules in
  force (no card points, not the two of trump, and no trump at all under ``high=highest`` or
  ``low=lowest``, where any trump may decide High or Low), are the same move: only the higher is searched.
  The jokers are never equivalent to anything: a joker led ranks above the other joker played after it,
  so its strength is not its rank alone.
- *Move ordering*: the table's best card first; then a leader's high cards, a follower's cheapest winner
  or, on a partner's winning card, its richest card; then the cheapest cards.

*Leaf values.* By default a finished hand is worth its points as above. :func:`use_leaf_values` makes it worth any
value of its outcome instead (a table over the bidding team's points and the other team's, and the moon made or
failed): the expert player searches P(win the game) that way. The bounds below then take the lowest and the highest
value over every way the points still open can fall, so the searches stay exact for any table.

A position is not searched when the points still undecided cannot change its value (:func:`_bounds`). A trump
that no card of the other team can beat counts as taken by its holder's team there (:func:`_sure_takes`): it will
be played, and take its trick or lose it to a partner. That decides the jack, and some of Game's card points, tricks
before they fall, so fewer nodes are searched. A trick boundary with two tricks left is valued in plain loops, with
the last trick played out (:func:`_two_tricks`): the last two tricks hold most of the search's nodes, and a node of
the search copies a state. The last trick, where the search meets it, is played out without branching.

A chooser that needs only the best of several values asks less than :func:`solve`: :func:`value_or_bound`, and one
card at a time :func:`card_value_or_bound`, answer with one zero-window search whether a value beats a bound, and
search it to the end only when it does (:mod:`smear_sim.kernels.players.card_choice`).

:func:`new_solver` allocates a solver's working arrays once (a :class:`Solver`); :func:`solve` reuses them, so a
player can solve many positions without allocating. A solver is used by one thread at a time. The search keeps one
hand state per depth in a flat array and never takes a row of an array: in Numba every array view costs a
reference count. It also tells LLVM that a state's offset is not negative
(:func:`smear_sim.kernels.bits.nonnegative`): Numba checks every signed index for a negative value, and those
checks keep the copy of a state from being done as one block. docs/performance.md has the measurements behind
these choices.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..core.layout import (
    HIGH_JOKER,
    LOW_JOKER,
    MOON,
    PASS,
    R_HIGH,
    R_LOW,
    R_LOW_TO,
    R_MOON_REQUIRES,
    R_POINTS_AT_STAKE,
    R_ROUND_POINTS,
    R_TARGET,
    R_TRUMP_ANYTIME,
    REC_MOON,
    REC_POINTS,
    REC_SIZE,
    ST_BID,
    ST_BIDDER,
    ST_HANDS,
    ST_LEADER,
    ST_LED_SUIT,
    ST_N_IN_TRICK,
    ST_PLAYED,
    ST_SIZE,
    ST_TAKEN,
    ST_TRICK,
    ST_TRICKS_DONE,
    ST_TRUMP,
    ST_WIN_KEY,
    ST_WIN_SEAT,
)
from ..core.tables import TABLES
from .bits import ONE, ZERO, bit, has, lowest_card, nonnegative, popcount
from .borrow import REFCOUNTED
from .rng import mix64
from .scoring import card_points, score_state
from .state import apply_card, legal_cards, mask_at, play_card, to_play
from .trick import beats, card_key, legal_mask

_TRUMP_MASK = TABLES.trump_mask
_TRUMP_CARDS = TABLES.trump_cards
_TRICK_RANK = TABLES.trick_rank
_EFFECTIVE_SUIT = TABLES.effective_suit
_HIGHER_TRUMPS = TABLES.higher_trumps
_HIGHER_IN_SUIT = TABLES.higher_in_suit
_SUIT_MASK = TABLES.suit_mask
_CARD_POINTS = TABLES.card_points
_GAME_CARDS = np.uint64(sum(1 << c for c in range(54) if TABLES.card_points[c] > 0))  # those worth card points
_JOKERS = np.uint64((1 << HIGH_JOKER) | (1 << LOW_JOKER))

INF = 1 << 40  # above any value: points, or a leaf table's (the expert's P(win) in fixed point, points below it)
TT_BITS = 16
MAX_DEPTH = 26
# Columns of the transposition table.
_K1, _K2, _LO, _HI, _MOVE, _GEN = 0, 1, 2, 3, 4, 5
# Fields of the solver's context array.
_GEN_NOW, _NODES, _RELEVANT, _NEUTRAL, _TEAM, _TT_MASK, _OURS, _THEIRS, _NOBODY, _TAKERS, _LEAVES, _SURE = range(12)
_CTX_SIZE = 12
# The leaf table (:func:`use_leaf_values`): LEAF_POINTS * won + other for a bid made or set, where ``won`` is the
# bidding team's points and ``other`` the other team's; then the moon failed and made. After it, the solver keeps
# the table's lowest and highest value over the ways the open points can fall, as
# ``[(ours * LEAF_POINTS + theirs) * LEAF_POINTS + open]`` from ``_LEAF_WORST`` and from ``_LEAF_BEST``.
LEAF_POINTS = 8  # the points of a hand are 0..7
LEAF_MOON_FAILED = LEAF_POINTS * LEAF_POINTS
LEAF_MOON_MADE = LEAF_MOON_FAILED + 1
LEAF_SIZE = LEAF_MOON_MADE + 1
_LEAF_WORST = LEAF_SIZE
_LEAF_BEST = _LEAF_WORST + LEAF_POINTS ** 3
# Fields of a search frame (one row per depth).
_F_ALPHA, _F_BETA, _F_ALPHA0, _F_BETA0, _F_MAX, _F_BEST, _F_BEST_MOVE, _F_NEXT, _F_COUNT, _F_INDEX, _F_K1, _F_K2 = range(12)
_F_CARDS = 12  # the node's moves in search order (up to 6), then their sort keys
_F_KEYS = 20
_FRAME_SIZE = 28


class Solver(NamedTuple):
    """A solver's working arrays (:func:`new_solver`). A named tuple, so Numba passes it as a plain tuple of arrays
    and reads a field as fast as an index."""

    stack: np.ndarray  # one hand state per depth, flat (MAX_DEPTH * ST_SIZE)
    rec: np.ndarray  # a hand record to score a finished hand into
    tt: np.ndarray  # the transposition table: one row per entry, the columns _K1 ... _GEN
    ctx: np.ndarray  # the solve's context: the fields _GEN_NOW ... _SURE
    frames: np.ndarray  # the search frames, one row per depth (the fields _F_*), with each node's moves in order
    leaf_table: np.ndarray  # the leaf values and their bounds over the open points (use_leaf_values)


@njit(cache=True, **REFCOUNTED)
def new_solver(tt_bits=TT_BITS):
    """A :class:`Solver` with a transposition table of ``2 ** tt_bits`` entries. It values points until given a
    leaf table (:func:`use_leaf_values`)."""
    size = 1 << tt_bits
    ctx = np.zeros(_CTX_SIZE, dtype=np.int64)
    ctx[_TT_MASK] = size - 1
    return Solver(np.zeros(MAX_DEPTH * ST_SIZE, dtype=np.int64), np.zeros(REC_SIZE, dtype=np.int64),
                  np.zeros((size, 6), dtype=np.int64), ctx, np.zeros((MAX_DEPTH, _FRAME_SIZE), dtype=np.int64),
                  np.zeros(_LEAF_BEST + LEAF_POINTS ** 3, dtype=np.int64))


@njit(cache=True)
def use_leaf_values(solver, table):
    """From now on, value a finished hand by ``table`` (``LEAF_SIZE`` integers, the layout above) instead of its
    points, from the bidding team's side as always. The table is for hands with a bid: in hand analysis (no bid)
    the solver still values points. Works out, once, the table's bounds over the open points."""
    leaves = solver.leaf_table
    for i in range(LEAF_SIZE):
        leaves[i] = table[i]
    for ours in range(LEAF_POINTS):
        for theirs in range(LEAF_POINTS):
            for n_open in range(LEAF_POINTS):
                worst = INF
                best = -INF
                for won in range(ours, min(ours + n_open, LEAF_POINTS - 1) + 1):
                    for other in range(theirs, min(theirs + n_open - (won - ours), LEAF_POINTS - 1) + 1):
                        v = table[won * LEAF_POINTS + other]
                        worst = min(worst, v)
                        best = max(best, v)
                at = (ours * LEAF_POINTS + theirs) * LEAF_POINTS + n_open
                leaves[_LEAF_WORST + at] = worst
                leaves[_LEAF_BEST + at] = best
    solver.ctx[_LEAVES] = 1


@njit(cache=True)
def use_points(solver):
    """Value a finished hand by its points again (the default)."""
    solver.ctx[_LEAVES] = 0


@njit(cache=True)
def rule_masks(t, rules):
    """``(relevant, neutral)``: the cards whose taker scores, and the cards that carry nothing to the score."""
    trumps = _TRUMP_MASK[t]
    two = bit(t * 13)
    relevant = bit(t * 13 + 9)
    if rules[R_ROUND_POINTS] == 1:
        relevant |= bit((3 - t) * 13 + 9) | bit(HIGH_JOKER) | bit(LOW_JOKER)
    if rules[R_LOW_TO] == 1:
        relevant |= trumps if rules[R_LOW] == 1 else two
    neutral = ZERO
    for c in range(54):
        if _CARD_POINTS[c] == 0:
            neutral |= bit(c)
    neutral &= ~(two | bit(HIGH_JOKER) | bit(LOW_JOKER))
    if rules[R_HIGH] == 1 or rules[R_LOW] == 1:
        neutral &= ~trumps
    return relevant, neutral


@njit(cache=True, inline="always")
def _lowest_ranked(mask, t):
    """The card of the non-empty ``mask`` (all of one effective suit) with the lowest rank in that suit."""
    c = lowest_card(mask)
    if _TRICK_RANK[t, c] < 16:
        return c  # a plain suit: card codes rise with rank
    for i in range(15, -1, -1):
        if has(mask, _TRUMP_CARDS[t, i]):
            return _TRUMP_CARDS[t, i]
    return c


@njit(cache=True, inline="always")
def _higher(c, t):
    if _TRICK_RANK[t, c] >= 16:
        return _HIGHER_TRUMPS[t, c]
    return _HIGHER_IN_SUIT[c] & _SUIT_MASK[t, _EFFECTIVE_SUIT[t, c]]


@njit(cache=True, inline="always")
def _out(s, b):
    """The cards still out in the state at ``s[b:]``: in a hand or in the trick in progress."""
    return (mask_at(s, b + ST_HANDS) | mask_at(s, b + ST_HANDS + 1) | mask_at(s, b + ST_HANDS + 2)
            | mask_at(s, b + ST_HANDS + 3) | mask_at(s, b + ST_TRICK))


@njit(cache=True, inline="always")
def distinct_moves(legal, neutral, out, t):
    """``legal`` less the cards equivalent to a higher legal card (see the module docstring); ``out`` is
    the cards still out."""
    plain = legal & neutral
    if plain & (plain - ONE) == ZERO:  # at most one such card: nothing to prune
        return legal
    moves = legal
    m = plain
    while m:
        c = lowest_card(m)
        m &= m - ONE
        above = _higher(c, t) & out
        if above != ZERO and has(plain, _lowest_ranked(above, t)):
            moves &= ~bit(c)
    return moves


@njit(cache=True, inline="always")
def representative(c, moves, out, t):
    """The searched card that ``c`` (legal, maybe pruned) is equivalent to."""
    while not has(moves, c):
        c = _lowest_ranked(_higher(c, t) & out, t)
    return c


@njit(cache=True, inline="always")
def _move_key(c, tt_move, t, n, partner_winning, led, win_key, trick):
    """The search order of card ``c`` (higher first): the table's best card; then a leader's high cards, a
    follower's cheapest winner or, on a partner's winning card, its richest card; then the cheapest cards."""
    rank = _TRICK_RANK[t, c]
    worth = _CARD_POINTS[c]
    if c == tt_move:
        return 1 << 20
    if n == 0:
        return rank * 4 + worth
    if partner_winning:
        return worth * 64 - rank
    if beats(c, t, led, win_key, trick):
        return 4096 - rank
    return -(worth * 64 + rank)


@njit(cache=True, inline="always")
def _extreme_trump(cards, t, highest):
    """The highest (or lowest) trump of ``cards``, -1 if none."""
    for i in range(16):
        c = _TRUMP_CARDS[t, i if highest else 15 - i]
        if has(cards, c):
            return c
    return -1


@njit(cache=True, inline="always")
def _owner(c, own0, own1):
    if c < 0:
        return -1
    return 0 if has(own0, c) else (1 if has(own1, c) else -1)


@njit(cache=True)
def _fixed_awards(hs, rules, ctx):
    """Record in ``ctx`` what is decided for the whole solve: the points that go to the player of a card
    (every card still held will be played, so the team holding or having played it wins them), the points
    no one can win, and the cards whose taker wins a point."""
    t = hs[ST_TRUMP]
    team = hs[ST_BIDDER] & 1
    held0 = mask_at(hs, ST_HANDS) | mask_at(hs, ST_HANDS + 2) | mask_at(hs, ST_PLAYED) | mask_at(hs, ST_PLAYED + 2)
    held1 = mask_at(hs, ST_HANDS + 1) | mask_at(hs, ST_HANDS + 3) | mask_at(hs, ST_PLAYED + 1) | mask_at(hs, ST_PLAYED + 3)
    in_play = held0 | held1
    high = _owner(t * 13 + 12, held0, held1) if rules[R_HIGH] == 0 else _owner(_extreme_trump(in_play, t, True),
                                                                               held0, held1)
    low = -1  # Low when it goes to the player
    low_card = t * 13 if rules[R_LOW] == 0 else _extreme_trump(in_play, t, False)
    takers = ZERO
    if low_card >= 0 and has(in_play, low_card):
        if rules[R_LOW_TO] == 0:
            low = _owner(low_card, held0, held1)
        else:
            takers |= bit(low_card)
    takers |= bit(t * 13 + 9)
    n_points = rules[R_POINTS_AT_STAKE]
    if rules[R_ROUND_POINTS] == 1:
        takers |= bit((3 - t) * 13 + 9) | bit(HIGH_JOKER) | bit(LOW_JOKER)
    takers &= in_play
    ours = (high == team) + (low == team)
    theirs = (high == 1 - team) + (low == 1 - team)
    ctx[_OURS] = ours
    ctx[_THEIRS] = theirs
    ctx[_NOBODY] = n_points - 1 - ours - theirs - popcount(takers)  # the rest, less Game
    ctx[_TAKERS] = np.int64(takers)
    ctx[_SURE] = np.int64(_TRUMP_MASK[t] & (takers | _GAME_CARDS))


@njit(cache=True, inline="always")
def _sure_takes(team0, team1, candidates, t):
    """``(sure0, sure1)``: the cards of ``candidates`` (trumps) that team 0 (team 1) holds and will take, whatever
    is played: no card of the other team can beat them. Every held card is played, and a trump loses its trick
    only to a higher trump, or a joker to the other joker played before it."""
    sure0 = ZERO
    sure1 = ZERO
    m = candidates & (team0 | team1)
    while m:
        c = lowest_card(m)
        m &= m - ONE
        threats = _HIGHER_TRUMPS[t, c]
        if c >= HIGH_JOKER:
            threats |= _JOKERS
        if has(team0, c):
            if threats & team1 == ZERO:
                sure0 |= bit(c)
        elif threats & team0 == ZERO:
            sure1 |= bit(c)
    return sure0, sure1


@njit(cache=True, inline="always")
def _bounds(taken0, taken1, sure0, sure1, out, p0, p1, team, bid, fixed_ours, fixed_theirs, fixed_nobody, takers,
            target, moon_in_play, leaves, by_table):
    """``(worst, best)``: bounds on the final value that hold whatever is played from a position where the
    teams have taken ``taken0``/``taken1`` (``p0``/``p1`` card points) and ``out`` is still out.

    The points decided for the whole solve are ``fixed_*`` (:func:`_fixed_awards`); a point that goes to a
    trick's taker (its card in ``takers``) is decided once its trick is taken, Game once one team's card
    points cannot be caught. The bounds give every undecided point to one side and then to the other: the
    value never falls as the bidding team wins more points or the other team fewer. A leaf table
    (``by_table``) has its bounds over every way the open points can fall worked out in ``leaves``.
    """
    won0 = taken0 | sure0
    won1 = taken1 | sure1
    ours_won = won1 if team else won0
    theirs_won = won0 if team else won1
    ours = fixed_ours + popcount(takers & ours_won)
    theirs = fixed_theirs + popcount(takers & theirs_won)
    open_points = popcount(takers & ~won0 & ~won1)
    nobody = fixed_nobody
    s0 = card_points(sure0)
    s1 = card_points(sure1)
    p_ours, p_theirs = (p1 + s1, p0 + s0) if team else (p0 + s0, p1 + s1)
    rest = card_points(out) - s0 - s1
    if p_ours > p_theirs + rest:
        ours += 1
    elif p_theirs > p_ours + rest:
        theirs += 1
    elif rest == 0:
        nobody += 1
    else:
        open_points += 1
    if bid == MOON:
        made = theirs == 0 and (nobody == 0 or moon_in_play)  # still possible
        made_value = leaves[LEAF_MOON_MADE] if by_table else target
        failed_value = leaves[LEAF_MOON_FAILED] if by_table else -target
        if not made:
            return failed_value, failed_value
        if open_points == 0:
            return made_value, made_value
        return min(made_value, failed_value), max(made_value, failed_value)
    if bid == PASS:
        return ours - theirs - open_points, ours + open_points - theirs
    if by_table:
        at = (ours * LEAF_POINTS + theirs) * LEAF_POINTS + open_points
        return leaves[_LEAF_WORST + at], leaves[_LEAF_BEST + at]
    worst = (ours if ours >= bid else -bid) - theirs - open_points
    best = (ours + open_points if ours + open_points >= bid else -bid) - theirs
    return worst, best


@njit(cache=True, inline="always")
def _winner(c0, c1, c2, c3, t):
    """The place (0 to 3, from the leader) of the card that takes a trick played ``c0, c1, c2, c3`` in turn."""
    led = _EFFECTIVE_SUIT[t, c0]
    key = card_key(c0, t, led)
    trick = bit(c0)
    place = 0
    if beats(c1, t, led, key, trick):
        place = 1
        key = card_key(c1, t, led)
    trick |= bit(c1)
    if beats(c2, t, led, key, trick):
        place = 2
        key = card_key(c2, t, led)
    trick |= bit(c2)
    if beats(c3, t, led, key, trick):
        place = 3
    return place


@njit(cache=True, inline="always")
def _at(k, x0, x1, x2, x3):
    k &= 3
    return x0 if k == 0 else (x1 if k == 1 else (x2 if k == 2 else x3))


@njit(cache=True, inline="always")
def _two_tricks_line(c0, c1, c2, c3, r0, r1, r2, r3, leader, t, taken0, taken1, p0, p1, all_points, team, bid,
                     fixed_ours, fixed_theirs, fixed_nobody, takers, target, moon_in_play, leaves, by_table):
    """The value of the hand when the next trick is played ``c0..c3`` (from ``leader``) and the last trick then
    ``r0..r3`` (each seat's last card, in the same places): :func:`_bounds` of the finished hand, which is exact
    once nothing is out."""
    trick5 = bit(c0) | bit(c1) | bit(c2) | bit(c3)
    first = _winner(c0, c1, c2, c3, t)
    w5 = (leader + first) & 3
    w6 = (w5 + _winner(_at(first, r0, r1, r2, r3), _at(first + 1, r0, r1, r2, r3), _at(first + 2, r0, r1, r2, r3),
                       _at(first + 3, r0, r1, r2, r3), t)) & 3
    trick6 = bit(r0) | bit(r1) | bit(r2) | bit(r3)
    points5 = card_points(trick5)
    points6 = all_points - points5
    if w5 & 1:
        taken1 |= trick5
        p1 += points5
    else:
        taken0 |= trick5
        p0 += points5
    if w6 & 1:
        taken1 |= trick6
        p1 += points6
    else:
        taken0 |= trick6
        p0 += points6
    return _bounds(taken0, taken1, ZERO, ZERO, ZERO, p0, p1, team, bid, fixed_ours, fixed_theirs, fixed_nobody,
                   takers, target, moon_in_play, leaves, by_table)[0]


@njit(cache=True, inline="always")
def _back_up(maximize, best, alpha, beta, value):
    """A child's ``value`` taken into its node: the node's best value so far and its window, as alpha-beta keeps them
    (the node is searched once ``alpha >= beta``)."""
    if maximize:
        best = max(best, value)
        alpha = max(alpha, best)
    else:
        best = min(best, value)
        beta = min(beta, best)
    return best, alpha, beta


@njit(cache=True)
def _two_tricks(h0, h1, h2, h3, leader, t, bid, alpha, beta, anytime, taken0, taken1, team, fixed_ours, fixed_theirs,
                fixed_nobody, takers, target, moon_in_play, leaves, by_table):
    """The value (fail-soft in the window ``alpha, beta``) of a trick boundary with two tricks left, ``leader`` to
    lead and ``h0..h3`` the hands from the leader on: alpha-beta over the first of them in plain loops, the last
    played out, with no state copied. Not inlined into the search: inlined, it lengthens the solver's compile and
    gains no speed."""
    # The card points taken are worked out here, though the search has them: given as arguments, they make Numba
    # compile this function twice (once with a literal type for them).
    p0 = card_points(taken0)
    p1 = card_points(taken1)
    all_points = card_points(h0 | h1 | h2 | h3)
    max0 = (leader & 1) == team  # the leader's team and the third seat's; the others minimise
    best0 = -INF if max0 else INF
    a0 = alpha
    b0 = beta
    m0 = h0
    while m0:
        c0 = lowest_card(m0)
        m0 &= m0 - ONE
        led = _EFFECTIVE_SUIT[t, c0]
        best1 = INF if max0 else -INF
        a1 = a0
        b1 = b0
        m1 = legal_mask(h1, t, led, anytime)
        while m1:
            c1 = lowest_card(m1)
            m1 &= m1 - ONE
            best2 = -INF if max0 else INF
            a2 = a1
            b2 = b1
            m2 = legal_mask(h2, t, led, anytime)
            while m2:
                c2 = lowest_card(m2)
                m2 &= m2 - ONE
                best3 = INF if max0 else -INF
                a3 = a2
                b3 = b2
                m3 = legal_mask(h3, t, led, anytime)
                while m3:
                    c3 = lowest_card(m3)
                    m3 &= m3 - ONE
                    v = _two_tricks_line(c0, c1, c2, c3, lowest_card(h0 & ~bit(c0)), lowest_card(h1 & ~bit(c1)),
                                         lowest_card(h2 & ~bit(c2)), lowest_card(h3 & ~bit(c3)),
                                         leader, t, taken0, taken1, p0, p1, all_points, team, bid, fixed_ours,
                                         fixed_theirs, fixed_nobody, takers, target, moon_in_play, leaves, by_table)
                    best3, a3, b3 = _back_up(not max0, best3, a3, b3, v)
                    if a3 >= b3:
                        break
                best2, a2, b2 = _back_up(max0, best2, a2, b2, best3)
                if a2 >= b2:
                    break
            best1, a1, b1 = _back_up(not max0, best1, a1, b1, best2)
            if a1 >= b1:
                break
        best0, a0, b0 = _back_up(max0, best0, a0, b0, best1)
        if a0 >= b0:
            break
    return best0


@njit(cache=True, inline="always")
def _leaf(stack, rules, rec, b, leaves, by_table):
    """The value of the finished hand at ``stack[b:]``: its points (:func:`score_state`), or the leaf table's
    value of its outcome."""
    value = score_state(stack, rules, rec, b)
    bid = stack[b + ST_BID]
    if not by_table or bid == PASS:
        return value
    if bid == MOON:
        return leaves[LEAF_MOON_MADE] if rec[REC_MOON] == 1 else leaves[LEAF_MOON_FAILED]
    team = stack[b + ST_BIDDER] & 1
    return leaves[rec[REC_POINTS + team] * LEAF_POINTS + rec[REC_POINTS + 1 - team]]


@njit(cache=True, inline="always")
def _store(tt, index, k1, k2, gen, value, alpha, beta, move):
    """Record in the table what a search of the window ``alpha, beta`` that returned ``value`` proved."""
    if not (tt[index, _GEN] == gen and tt[index, _K1] == k1 and tt[index, _K2] == k2):
        tt[index, _K1] = k1
        tt[index, _K2] = k2
        tt[index, _GEN] = gen
        tt[index, _LO] = -INF
        tt[index, _HI] = INF
    if value <= alpha:
        tt[index, _HI] = min(tt[index, _HI], value)
    elif value >= beta:
        tt[index, _LO] = max(tt[index, _LO], value)
    else:
        tt[index, _LO] = value
        tt[index, _HI] = value
    tt[index, _MOVE] = move


@njit(cache=True)
def _search(solver, rules, root, alpha, beta):
    """Alpha-beta (fail-soft) from the state at depth ``root`` with the window ``alpha, beta``.

    It keeps an explicit stack of frames rather than recursing (Numba cannot cache a recursive function),
    and reads everything it needs from the arrays into scalars first: an array handed to a helper costs a
    reference count in Numba, which made up most of the search's time.
    """
    stack, rec, tt, ctx, frames, leaves = solver
    by_table = ctx[_LEAVES] == 1
    anytime = rules[R_TRUMP_ANYTIME] == 1
    target = rules[R_TARGET]
    moon_in_play = rules[R_MOON_REQUIRES] == 1
    team = ctx[_TEAM]
    gen = ctx[_GEN_NOW]
    tt_mask = np.uint64(ctx[_TT_MASK])
    relevant = np.uint64(ctx[_RELEVANT])
    neutral = np.uint64(ctx[_NEUTRAL])
    fixed_ours = ctx[_OURS]
    fixed_theirs = ctx[_THEIRS]
    fixed_nobody = ctx[_NOBODY]
    takers = np.uint64(ctx[_TAKERS])
    sure_candidates = np.uint64(ctx[_SURE])
    nodes = 0
    d = root
    entering = True  # start node d with the window (alpha, beta); else return ``value`` to its parent
    value = 0
    while True:
        if entering:
            nodes += 1
            b = nonnegative(d * ST_SIZE)
            known = False
            t = stack[b + ST_TRUMP]
            n = stack[b + ST_N_IN_TRICK]
            tricks_done = stack[b + ST_TRICKS_DONE]
            out = _out(stack, b)
            index = -1
            tt_move = -1
            k1 = np.int64(0)
            k2 = np.int64(0)
            if tricks_done == 6:
                known = True
                value = _leaf(stack, rules, rec, b, leaves, by_table)
            elif n == 0:
                taken0 = mask_at(stack, b + ST_TAKEN)
                taken1 = mask_at(stack, b + ST_TAKEN + 1)
                p0 = card_points(taken0)
                p1 = card_points(taken1)
                team0 = mask_at(stack, b + ST_HANDS) | mask_at(stack, b + ST_HANDS + 2)
                team1 = mask_at(stack, b + ST_HANDS + 1) | mask_at(stack, b + ST_HANDS + 3)
                sure0, sure1 = _sure_takes(team0, team1, sure_candidates & out, t)
                worst, best = _bounds(taken0, taken1, sure0, sure1, out, p0, p1, team, stack[b + ST_BID],
                                      fixed_ours, fixed_theirs, fixed_nobody, takers, target, moon_in_play, leaves,
                                      by_table)
                if worst >= beta or worst == best:
                    known = True
                    value = worst
                elif best <= alpha:
                    known = True
                    value = best
                elif tricks_done == 5:  # the last trick: each hand holds one card
                    c1 = b + ST_SIZE
                    for k in range(ST_SIZE):
                        stack[c1 + k] = stack[b + k]
                    for _ in range(4):
                        play_card(stack, lowest_card(mask_at(stack, c1 + ST_HANDS + to_play(stack, c1))), anytime,
                                  c1)
                    known = True
                    value = _leaf(stack, rules, rec, c1, leaves, by_table)
                else:
                    k1 = np.int64(out) | (stack[b + ST_LEADER] << 54)
                    k2 = np.int64(taken0 & relevant) | ((p0 - p1 + 128) << 54)
                    index = np.int64(mix64(np.uint64(k1) ^ mix64(np.uint64(k2))) & tt_mask)
                    if tt[index, _GEN] == gen and tt[index, _K1] == k1 and tt[index, _K2] == k2:
                        lo = tt[index, _LO]
                        hi = tt[index, _HI]
                        if lo >= beta or lo == hi:
                            known = True
                            value = lo
                        elif hi <= alpha:
                            known = True
                            value = hi
                        else:
                            alpha = max(alpha, lo)
                            beta = min(beta, hi)
                            tt_move = tt[index, _MOVE]
                    if tricks_done == 4 and not known:
                        known = True
                        leader = stack[b + ST_LEADER]
                        value = _two_tricks(mask_at(stack, b + ST_HANDS + leader),
                                            mask_at(stack, b + ST_HANDS + ((leader + 1) & 3)),
                                            mask_at(stack, b + ST_HANDS + ((leader + 2) & 3)),
                                            mask_at(stack, b + ST_HANDS + ((leader + 3) & 3)), leader, t,
                                            stack[b + ST_BID], alpha, beta, anytime, taken0, taken1, team, fixed_ours,
                                            fixed_theirs, fixed_nobody, takers, target, moon_in_play, leaves,
                                            by_table)
                        _store(tt, index, k1, k2, gen, value, alpha, beta, -1)
            if known:
                entering = False
                continue
            seat = (stack[b + ST_LEADER] + n) % 4
            maximize = (seat & 1) == team
            hand = mask_at(stack, b + ST_HANDS + seat)
            led = stack[b + ST_LED_SUIT]
            moves = distinct_moves(legal_mask(hand, t, led, anytime), neutral, out, t)
            partner_winning = n > 0 and (stack[b + ST_WIN_SEAT] & 1) == (seat & 1)
            win_key = stack[b + ST_WIN_KEY]
            trick = mask_at(stack, b + ST_TRICK)
            count = 0
            m = moves
            while m:  # insertion sort into the frame, by _move_key
                c = lowest_card(m)
                m &= m - ONE
                key = _move_key(c, tt_move, t, n, partner_winning, led, win_key, trick)
                i = count
                while i > 0 and frames[d, _F_KEYS + i - 1] < key:
                    frames[d, _F_KEYS + i] = frames[d, _F_KEYS + i - 1]
                    frames[d, _F_CARDS + i] = frames[d, _F_CARDS + i - 1]
                    i -= 1
                frames[d, _F_KEYS + i] = key
                frames[d, _F_CARDS + i] = c
                count += 1
            frames[d, _F_INDEX] = index
            frames[d, _F_K1] = k1
            frames[d, _F_K2] = k2
            frames[d, _F_ALPHA] = alpha
            frames[d, _F_BETA] = beta
            frames[d, _F_ALPHA0] = alpha
            frames[d, _F_BETA0] = beta
            frames[d, _F_MAX] = maximize
            frames[d, _F_BEST] = -INF if maximize else INF
            frames[d, _F_BEST_MOVE] = -1
            frames[d, _F_NEXT] = 0
            frames[d, _F_COUNT] = count
        else:
            if d == root:
                ctx[_NODES] += nodes
                return value
            d -= 1
            c = frames[d, _F_CARDS + frames[d, _F_NEXT] - 1]
            if frames[d, _F_MAX]:
                if value > frames[d, _F_BEST]:
                    frames[d, _F_BEST] = value
                    frames[d, _F_BEST_MOVE] = c
                    if value > frames[d, _F_ALPHA]:
                        frames[d, _F_ALPHA] = value
            elif value < frames[d, _F_BEST]:
                frames[d, _F_BEST] = value
                frames[d, _F_BEST_MOVE] = c
                if value < frames[d, _F_BETA]:
                    frames[d, _F_BETA] = value
            if frames[d, _F_ALPHA] >= frames[d, _F_BETA] or frames[d, _F_NEXT] == frames[d, _F_COUNT]:
                value = frames[d, _F_BEST]  # searched: record its bounds in the table
                index = frames[d, _F_INDEX]
                if index >= 0:
                    _store(tt, index, frames[d, _F_K1], frames[d, _F_K2], gen, value, frames[d, _F_ALPHA0],
                           frames[d, _F_BETA0], frames[d, _F_BEST_MOVE])
                continue
        # search the next move of node d
        c = frames[d, _F_CARDS + frames[d, _F_NEXT]]
        frames[d, _F_NEXT] += 1
        b = nonnegative(d * ST_SIZE)
        for k in range(ST_SIZE):
            stack[b + ST_SIZE + k] = stack[b + k]
        play_card(stack, c, anytime, b + ST_SIZE)
        alpha = frames[d, _F_ALPHA]
        beta = frames[d, _F_BETA]
        d += 1
        entering = True


@njit(cache=True)
def _exact(solver, rules, d, guess, lo, hi):
    """The exact value of the state at depth ``d``, known to lie in ``lo..hi``, by zero-window searches converging
    on it (MTD(f)), starting at ``guess``; the table keeps what each search proved."""
    g = guess
    while lo < hi:
        beta = g + 1 if g == lo else g
        g = _search(solver, rules, d, beta - 1, beta)
        if g < beta:
            hi = g
        else:
            lo = g
    return g


@njit(cache=True)
def _start(solver, hs, rules):
    stack, _, _, ctx, _, _ = solver
    ctx[_GEN_NOW] += 1
    ctx[_TEAM] = hs[ST_BIDDER] & 1
    relevant, neutral = rule_masks(hs[ST_TRUMP], rules)
    ctx[_RELEVANT] = np.int64(relevant)
    ctx[_NEUTRAL] = np.int64(neutral)
    _fixed_awards(hs, rules, ctx)
    for k in range(ST_SIZE):
        stack[k] = hs[k]


@njit(cache=True)
def solve_value(solver, hs, rules, guess=0, lo=-INF, hi=INF):
    """The double-dummy value of the hand state ``hs`` (its score when the hand is over). ``guess`` is where the
    search starts (any integer: the value found is exact whatever it is, but a close guess saves searches: a caller
    solving one position on many worlds passes the last world's value). A caller that knows the value lies in
    ``lo..hi`` (a bound :func:`value_or_bound` gave) passes them, and a value at the bound is then proved by one
    search."""
    _start(solver, hs, rules)
    return _exact(solver, rules, 0, guess, lo, hi)


@njit(cache=True)
def _value_or_bound(solver, rules, d, bound, maximize):
    beta = bound + 1 if maximize else bound
    g = _search(solver, rules, d, beta - 1, beta)
    if maximize:
        if g < beta:
            return False, g
        return True, _exact(solver, rules, d, g, g, INF)
    if g >= beta:
        return False, g
    return True, _exact(solver, rules, d, g, -INF, g)


@njit(cache=True)
def value_or_bound(solver, hs, rules, bound, maximize):
    """Whether the double-dummy value of the hand state ``hs`` is better than ``bound`` for the side that maximises it
    (``maximize``) or the side that minimises it, at the least cost: ``(True, value)``, the exact value, when it is;
    ``(False, g)`` when it is not, ``g`` a bound on the value no better than ``bound`` for that side (at most
    ``bound`` when maximising, at least ``bound`` when minimising). One zero-window search answers; only a better
    value is then searched to the end, with the table of that search."""
    _start(solver, hs, rules)
    return _value_or_bound(solver, rules, 0, bound, maximize)


@njit(cache=True)
def start_cards(solver, hs, rules, same_move):
    """Begin valuing the legal cards of the hand state ``hs`` one at a time (:func:`card_value`,
    :func:`card_value_or_bound`), all with one table, as :func:`solve` values them together; ``same_move[c]`` is set,
    for each legal card ``c``, to the card the search treats it as (itself, or a higher equivalent card)."""
    _start(solver, hs, rules)
    out = _out(hs, 0)
    t = hs[ST_TRUMP]
    legal = legal_cards(hs, rules)
    moves = distinct_moves(legal, np.uint64(solver.ctx[_NEUTRAL]), out, t)
    m = legal
    while m:
        c = lowest_card(m)
        m &= m - ONE
        same_move[c] = representative(c, moves, out, t)


@njit(cache=True)
def _after(solver, hs, rules, c):
    """Put the hand state ``hs`` after card ``c`` at depth 1 of the solver's stack (compiled once for both callers:
    inlined in each, it compiled twice)."""
    stack = solver.stack
    for k in range(ST_SIZE):
        stack[ST_SIZE + k] = hs[k]
    apply_card(stack, c, rules, ST_SIZE)


@njit(cache=True)
def card_value(solver, hs, rules, c, guess, lo, hi):
    """The value of the hand state ``hs`` once its seat to play plays ``c``, in the solve :func:`start_cards` began;
    ``guess``, and the bounds ``lo..hi`` known on it, as for :func:`solve_value`."""
    _after(solver, hs, rules, c)
    return _exact(solver, rules, 1, guess, lo, hi)


@njit(cache=True)
def card_value_or_bound(solver, hs, rules, c, bound, maximize):
    """:func:`value_or_bound` for the hand state ``hs`` once its seat to play plays ``c``, in the solve
    :func:`start_cards` began."""
    _after(solver, hs, rules, c)
    return _value_or_bound(solver, rules, 1, bound, maximize)


@njit(cache=True)
def solve(solver, hs, rules, values):
    """The double-dummy value of the hand state ``hs``, and in ``values[c]`` the value of each legal card
    ``c`` of the seat to play (other entries are left as they are); a finished hand has no cards to play
    and its value is its score. What ``values`` holds on entry is the search's first guess at each card's
    value (any integers will do: the values found are exact whatever the guess)."""
    return solve_cards(solver, hs, rules, values, ZERO if hs[ST_TRICKS_DONE] == 6 else legal_cards(hs, rules))


@njit(cache=True)
def solve_cards(solver, hs, rules, values, wanted):
    """As :func:`solve`, but only the cards of ``wanted`` (legal cards of the seat to play) are valued into
    ``values``, and the value returned is the best of theirs: a hint stops valuing the cards it has found clearly
    worse. A finished hand's value is its score."""
    _start(solver, hs, rules)
    stack, rec, _, ctx, _, leaves = solver
    if hs[ST_TRICKS_DONE] == 6:
        return _leaf(stack, rules, rec, 0, leaves, ctx[_LEAVES] == 1)
    maximize = (to_play(hs) & 1) == ctx[_TEAM]
    out = _out(hs, 0)
    t = hs[ST_TRUMP]
    moves = distinct_moves(legal_cards(hs, rules), np.uint64(ctx[_NEUTRAL]), out, t)
    searched = ZERO
    m = wanted
    while m:
        c = lowest_card(m)
        m &= m - ONE
        searched |= bit(representative(c, moves, out, t))
    best = -INF if maximize else INF
    m = searched
    while m:
        c = lowest_card(m)
        m &= m - ONE
        for k in range(ST_SIZE):
            stack[ST_SIZE + k] = hs[k]
        apply_card(stack, c, rules, ST_SIZE)
        # The search starts from the card's value in ``values``: a caller solving one decision on many worlds
        # passes the last world's.
        v = _exact(solver, rules, 1, values[c], -INF, INF)
        values[c] = v
        best = max(best, v) if maximize else min(best, v)
    m = wanted & ~searched
    while m:
        c = lowest_card(m)
        m &= m - ONE
        values[c] = values[representative(c, moves, out, t)]
    return best


@njit(cache=True)
def play_line(solver, hs, rules, value):
    """Play ``hs`` (changed in place) to the end along a line of perfect play for both sides whose value is
    ``value``. ``hs`` must be a position of the last :func:`solve` or :func:`solve_value` on ``solver`` (its
    root, or a position reached from it) and ``value`` its exact value: the search's table stays valid along the
    line, so each card costs one zero-window search, and the first card tried (the table's best) usually holds
    the value. Among the cards that hold it, the first in the search's order is played."""
    stack, _, tt, ctx, frames, _ = solver
    t = hs[ST_TRUMP]
    neutral = np.uint64(ctx[_NEUTRAL])
    while hs[ST_TRICKS_DONE] < 6:
        maximize = (to_play(hs) & 1) == ctx[_TEAM]
        moves = distinct_moves(legal_cards(hs, rules), neutral, _out(hs, 0), t)
        chosen = -1
        tt_move = -1
        if hs[ST_N_IN_TRICK] == 0:  # the table holds positions at trick boundaries: its best card first
            k1 = np.int64(_out(hs, 0)) | (hs[ST_LEADER] << 54)
            taken0 = mask_at(hs, ST_TAKEN)
            k2 = np.int64(taken0 & np.uint64(ctx[_RELEVANT])) | (
                (card_points(taken0) - card_points(mask_at(hs, ST_TAKEN + 1)) + 128) << 54)
            index = np.int64(mix64(np.uint64(k1) ^ mix64(np.uint64(k2))) & np.uint64(ctx[_TT_MASK]))
            if tt[index, _GEN] == ctx[_GEN_NOW] and tt[index, _K1] == k1 and tt[index, _K2] == k2:
                tt_move = tt[index, _MOVE]
        for attempt in range(2):
            m = moves
            while m:
                c = lowest_card(m)
                m &= m - ONE
                if (attempt == 0) != (c == tt_move):
                    continue
                for k in range(ST_SIZE):
                    stack[ST_SIZE + k] = hs[k]
                apply_card(stack, c, rules, ST_SIZE)
                if maximize:
                    holds = _search(solver, rules, 1, value - 1, value) >= value
                else:
                    holds = _search(solver, rules, 1, value, value + 1) <= value
                if holds:
                    chosen = c
                    break
            if chosen >= 0:
                break
        apply_card(hs, chosen, rules)
    return value


@njit(cache=True)
def nodes_searched(solver):
    """Nodes visited by the solver since it was made (for benchmarks)."""
    return solver.ctx[_NODES]
