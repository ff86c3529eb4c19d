"""``expert:K``: the strongest player, search at every decision after the auction, on worlds that read the auction,
valued by the game.

- **Calls**: as ``equity`` (its tables; :mod:`smear_sim.kernels.players.bids` dispatches them).
- **Worlds that read the auction.** Every search below samples K worlds per decision from what its seat has seen
  (:mod:`smear_sim.kernels.worlds`, the one sampler the hint uses): each other seat's dealt 9 cards must make that
  seat's call under the policy that seat is modelled by (the table's policy of its team), by rejection. When no
  world fits in ``worlds.MAX_TRIES`` draws the last draw without the calls is used (the fallback); the card
  decisions count their worlds and fallbacks in the hand state (``ST_WORLDS``, ``ST_FALLBACKS``) so that a driver
  can report them (:func:`smear_sim.kernels.drivers.search.search_counts`).
- **Trump and keep by search.** The bidder's candidates are each trump with the heuristic's keep for it, and, for
  the heuristic's trump, that keep with its weakest freely chosen card swapped for each card it would discard. A
  defender with a choice of keep compares the heuristic's keep and the same swaps. Every candidate is played out
  double dummy on the same K worlds (the other seats keeping as ``heuristic`` does), and the best by value is kept;
  ties go to the heuristic's choice. In a world where a candidate must play out as an earlier one (they differ in a
  worthless plain card, with no card that another hand keeps ranked between: :func:`same_outcomes`), it takes that
  one's value instead of being solved again; a candidate that cannot beat the best so far is dropped without being
  solved to the end (:func:`value_keeps`).
- **Card play to win the game.** Each legal card is solved double dummy on each world
  (:mod:`smear_sim.kernels.solver`) for the game: the solver's leaves are each outcome's P(win the game) from the
  score it leaves, read from the match-equity grid the equity tables carry
  (:func:`smear_sim.kernels.equity.outcome_win`), with the points (the bidding team's score change minus the other's)
  below it as the tie-break (:func:`game_leaves`). Both sides play for the game in the search. The card of highest
  total P(win) over the worlds is played, the points breaking ties, then the heuristic's favourite, then the cheapest
  card; the cards that cannot be chosen are not solved to the end (:mod:`smear_sim.kernels.players.card_choice`). In
  hand analysis (no bid, no game) or without the tables, points alone decide, as for ``pimc``. The trump and keep
  searches value their candidates the same way.

Its parameter is K with, above it, the parts left out (``expert:K:no-PART``,
:data:`smear_sim.core.players.EXPERT_PARTS`): without ``calls`` it calls as ``heuristic``, without ``inference``
its worlds ignore the auction, without ``keep`` it names trump and keeps as ``heuristic``, without ``game`` it
values cards by points. With all four out it plays as ``pimc:K``, card for card.

Known limits: each world is solved with every card visible (strategy fusion); the other seats' keeps in the worlds
are the heuristic's; the worlds for a keep ignore what the bidder's trump says.
Randomness comes from the hand's own stream, so results do not depend on threads or chunks.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.layout import (
    BM_LOADED,
    BM_SOLVE_FLOOR,
    MOON,
    OUT_MOON_FAILED,
    OUT_MOON_MADE,
    PASS,
    R_TARGET,
    SEARCHED_TRUMP_SHIFT,
    ST_BEFORE,
    ST_BID,
    ST_BIDDER,
    ST_CALLS,
    ST_DEALER,
    ST_FALLBACKS,
    ST_KNOWN,
    ST_N_CALLS,
    ST_SIZE,
    ST_TRICK,
    ST_TRUMP,
    ST_WORLDS,
)
from ...core.tables import TABLES
from ..bits import ONE, ZERO, bit, lowest_card, popcount
from ..borrow import REFCOUNTED
from ..equity import outcome_win
from ..outcome_codes import numeric_code
from ..solver import (
    INF,
    LEAF_MOON_FAILED,
    LEAF_MOON_MADE,
    LEAF_POINTS,
    LEAF_SIZE,
    distinct_moves,
    new_solver,
    rule_masks,
    solve_value,
    use_leaf_values,
    value_or_bound,
)
from ..state import played_cards, start_play, to_play
from ..worlds import deal_world, play_world
from . import heuristic
from .bids import EXPERT_NO_GAME, EXPERT_NO_INFERENCE, EXPERT_NO_KEEP, expert_without, expert_worlds
from .card_choice import POINTS_BELOW, WIN_SCALE, cannot_lead, choice_totals, game_part, seat_value, total_value

__all__ = ["DECISIONS", "MAX_CANDIDATES", "POINTS_BELOW", "WIN_SCALE", "auction_world", "bidder_candidates",
           "candidate_keeps", "game_leaves", "game_part", "heuristic_keep", "keep", "keep_values", "play",
           "same_outcomes", "trump_keep", "value_keeps"]

_DECK = (ONE << np.uint64(54)) - ONE
_TRUMP_MASK = TABLES.trump_mask
_SCORING_MASK = TABLES.scoring_trump_mask
_SUIT_MASK = TABLES.suit_mask
_EFFECTIVE_SUIT = TABLES.effective_suit
_HIGHER_IN_SUIT = TABLES.higher_in_suit
_CARD_POINTS = TABLES.card_points
TT_BITS = 14  # as pimc: the positions met in one decision are few
MAX_CANDIDATES = 12  # trump-and-keep candidates searched at most (4 trumps + swaps)
_TRUMP_SHIFT = np.uint64(SEARCHED_TRUMP_SHIFT)  # trump_keep packs the trump above the card bits


@njit(cache=True)
def _choosable(hand, t):
    """The discard rule for ``hand`` with trump ``t``: ``(fixed, pool, room)``, the cards kept whole and the class
    from which ``room`` cards are chosen (room 0: no choice)."""
    scoring = hand & _SCORING_MASK[t]
    classes = (scoring, hand & _TRUMP_MASK[t] & ~scoring, hand & ~_TRUMP_MASK[t])
    fixed = ZERO
    room = 6
    for cards in classes:
        n = popcount(cards)
        if n <= room:
            fixed |= cards
            room -= n
        else:
            return fixed, cards, room
    return fixed, ZERO, 0


@njit(cache=True)
def heuristic_keep(hand, t, keep_score):
    """The keep of ``heuristic`` (and of choose_keep for it): the discard rule, the choice by keep score."""
    fixed, pool, room = _choosable(hand, t)
    if room == 0:
        return fixed
    return fixed | heuristic.choose_cards(pool, room, keep_score)


@njit(cache=True)
def candidate_keeps(hand, t, keep_score, out, n):
    """Write into ``out[n:]`` the heuristic's keep of ``hand`` for trump ``t`` and then that keep with its weakest
    freely chosen card swapped for each card it discards from the same class; returns the new count (at most
    ``MAX_CANDIDATES`` in all)."""
    base = heuristic_keep(hand, t, keep_score)
    out[n] = base
    n += 1
    fixed, pool, room = _choosable(hand, t)
    if room == 0:
        return n
    chosen = base & pool
    weakest = -1
    m = chosen
    while m:
        c = lowest_card(m)
        m &= m - ONE
        if weakest < 0 or keep_score[c] < keep_score[weakest]:
            weakest = c
    dropped = pool & ~chosen
    while dropped and n < MAX_CANDIDATES:
        c = lowest_card(dropped)
        dropped &= dropped - ONE
        out[n] = (base & ~bit(weakest)) | bit(c)
        n += 1
    return n


@njit(cache=True)
def same_outcomes(keep_a, keep_b, t, free):
    """Whether keeping ``keep_a`` or ``keep_b`` (with trump ``t``) plays out the same, where ``free`` holds every card
    that no other hand holds (the seat's own cards, and in one world the cards nobody kept): the keeps differ in one
    card each, both plain (not trump) and worth no card points, of one suit, and every card of that suit ranked
    between them is in ``free``. The two cards then stand in the same order against every card of the other hands,
    and the seat never plays both to a trick: every line of play, and its score, is the same with either."""
    only_a = keep_a & ~keep_b
    only_b = keep_b & ~keep_a
    if popcount(only_a) != 1 or popcount(only_b) != 1:
        return False
    x = lowest_card(only_a)
    y = lowest_card(only_b)
    suit = _EFFECTIVE_SUIT[t, x]
    if suit == t or _EFFECTIVE_SUIT[t, y] != suit or _CARD_POINTS[x] != 0 or _CARD_POINTS[y] != 0:
        return False
    low, high = (x, y) if x < y else (y, x)  # plain cards: the codes rise with the rank
    between = _HIGHER_IN_SUIT[low] & ~_HIGHER_IN_SUIT[high] & ~bit(high) & _SUIT_MASK[t, suit]
    return between & ~free == ZERO


@njit(cache=True)
def _loaded(bidder_arrays):
    return bidder_arrays[0][BM_LOADED] == 1


@njit(cache=True)
def game_leaves(bidder, bid, score0, score1, dealer, rules, bidder_arrays, leaves):
    """Fill ``leaves`` (the solver's leaf table, :func:`smear_sim.kernels.solver.use_leaf_values`) with the value to
    the bidding team of each outcome of a hand bid ``bid`` by ``bidder`` from the scores ``score0``, ``score1``,
    ``dealer`` dealing: its P(win the game) in fixed point with the points below it (``POINTS_BELOW``)."""
    team = bidder & 1
    us = score1 if team else score0
    them = score0 if team else score1
    next_dealer = 0 if ((dealer + 1) & 1) == team else 1
    grid = bidder_arrays[6]
    floor = bidder_arrays[0][BM_SOLVE_FLOOR]
    target = rules[R_TARGET]
    for won in range(LEAF_POINTS if bid != MOON else 0):  # a moon has only its two outcomes
        for other in range(LEAF_POINTS - won):
            delta = won if won >= bid else -bid
            win = outcome_win(grid, floor, target, us, them, next_dealer, numeric_code(0, delta, other))
            leaves[won * LEAF_POINTS + other] = _leaf_value(win, delta - other)
    leaves[LEAF_MOON_MADE] = _leaf_value(outcome_win(grid, floor, target, us, them, next_dealer, OUT_MOON_MADE),
                                         target)
    leaves[LEAF_MOON_FAILED] = _leaf_value(outcome_win(grid, floor, target, us, them, next_dealer,
                                                       OUT_MOON_FAILED), -target)


@njit(cache=True, inline="always")
def _leaf_value(win, points):
    return np.int64(win * WIN_SCALE + 0.5) * POINTS_BELOW + points + POINTS_BELOW // 2


@njit(cache=True, **REFCOUNTED)
def _for_the_game(solver, bidder, bid, score0, score1, dealer, rules, bidder_arrays, k):
    """Make ``solver`` search P(win the game) (:func:`game_leaves`) where there is a game to win (a bid made and the
    equity tables at hand) and the parameter ``k`` keeps the game; returns whether it does. Otherwise it values
    points."""
    if not _loaded(bidder_arrays) or bid == PASS or expert_without(k, EXPERT_NO_GAME):
        return False
    leaves = np.zeros(LEAF_SIZE, dtype=np.int64)
    game_leaves(bidder, bid, score0, score1, dealer, rules, bidder_arrays, leaves)
    use_leaf_values(solver, leaves)
    return True


@njit(cache=True)
def _set_auction(st, dealer, calls, n_calls):
    st[ST_DEALER] = dealer
    st[ST_N_CALLS] = n_calls
    for i in range(4):
        st[ST_CALLS + i] = calls[i] if i < n_calls else PASS


@njit(cache=True)
def _start_candidate(st, hands, a, seat, bidder, trumps, keeps, keep_table, dealer, calls, n_calls, score0, score1,
                     bid, known, kept):
    """Start ``st`` at the first lead of the world ``hands`` (the 4 hands and the kitty), ``seat`` keeping candidate
    ``a`` and the others as the heuristic keeps for its trump; ``known`` and ``kept`` are working arrays. Returns the
    cards the other hands keep."""
    t = trumps[a]
    for s in range(4):
        known[s] = hands[s]
    known[bidder] |= hands[4]
    held = ZERO
    for s in range(4):
        kept[s] = keeps[a] if s == seat else heuristic_keep(known[s], t, keep_table[t])
        if s != seat:
            held |= kept[s]
    start_play(st, kept, known, t, bidder, bid, score0, score1)
    _set_auction(st, dealer, calls, n_calls)
    return held


@njit(cache=True)
def _same_as(a, trumps, keeps, held):
    """The first earlier candidate that candidate ``a`` plays out as in a world where the other hands keep ``held``
    (:func:`same_outcomes`), or -1."""
    for e in range(a):
        if trumps[e] == trumps[a] and same_outcomes(keeps[a], keeps[e], trumps[a], _DECK & ~held):
            return e
    return -1


@njit(cache=True, **REFCOUNTED)
def _deal_worlds(rng, seat, own9, kitty, dealer, calls, n_calls, score0, score1, rules, policies, bidder_arrays, k):
    """The worlds of a keep search for ``seat``, as many as the parameter ``k`` says: one row of 5 hands each."""
    worlds = np.zeros((expert_worlds(k), 5), dtype=np.uint64)
    inference = n_calls > 0 and not expert_without(k, EXPERT_NO_INFERENCE)
    for w in range(expert_worlds(k)):
        deal_world(rng, seat, own9, kitty, dealer, calls, n_calls, score0, score1, rules, policies, bidder_arrays, inference,
                   worlds[w])
    return worlds


@njit(cache=True, **REFCOUNTED)
def keep_values(rng, seat, own9, kitty, bidder, trumps, keeps, n, dealer, calls, n_calls, score0, score1, bid, rules,
                keep_table, policies, bidder_arrays, k, wins, points):
    """Each candidate ``a`` (trump ``trumps[a]``, ``seat`` keeping ``keeps[a]``) played out double dummy on the worlds
    of :func:`value_keeps`: its value to the seat's team on world ``w`` into ``wins[a, w]`` (P(win) in fixed point;
    0 when it values points) and ``points[a, w]``. Every value exact: what the search's choice must agree with."""
    worlds = _deal_worlds(rng, seat, own9, kitty, dealer, calls, n_calls, score0, score1, rules, policies, bidder_arrays, k)
    values = np.zeros(n, dtype=np.int64)  # each candidate's value on the last world: the next world's first guess
    known = np.zeros(4, dtype=np.uint64)
    kept = np.zeros(4, dtype=np.uint64)
    st = np.zeros(ST_SIZE, dtype=np.int64)
    solver = new_solver(TT_BITS)
    bidding = (seat & 1) == (bidder & 1)
    game = _for_the_game(solver, bidder, bid, score0, score1, dealer, rules, bidder_arrays, k)
    for w in range(worlds.shape[0]):
        for a in range(n):
            held = _start_candidate(st, worlds[w], a, seat, bidder, trumps, keeps, keep_table, dealer, calls, n_calls,
                                    score0, score1, bid, known, kept)
            same = _same_as(a, trumps, keeps, held)
            values[a] = values[same] if same >= 0 else solve_value(solver, st, rules, values[a])
            wins[a, w], points[a, w] = seat_value(values[a], game, bidding)


@njit(cache=True, **REFCOUNTED)
def value_keeps(rng, seat, own9, kitty, bidder, trumps, keeps, n, dealer, calls, n_calls, score0, score1, bid,
                 rules, keep_table, policies, bidder_arrays, k):
    """The index of the best candidate by the totals of :func:`keep_values` (module docstring), found with less
    search. The candidates are taken in turn against the best so far, the leader, whose values are exact. On each
    world one zero-window search asks whether a candidate beats the leader's value there
    (:func:`smear_sim.kernels.solver.value_or_bound`); only where it does is its value searched to the end, and
    elsewhere the search's bound stands. A candidate whose totals, at best, cannot beat the leader's could not have
    been chosen and is dropped. Else it is solved exactly, world by world, where only a bound is known, until it can
    no longer beat the leader (then it is dropped) or its totals are exact, and leads if they are higher: the first
    among equals keeps the lead, as in the full search."""
    worlds = _deal_worlds(rng, seat, own9, kitty, dealer, calls, n_calls, score0, score1, rules, policies, bidder_arrays, k)
    n_worlds = worlds.shape[0]
    lo = np.full((n, n_worlds), -INF, dtype=np.int64)  # bounds on each candidate's value in each world
    hi = np.full((n, n_worlds), INF, dtype=np.int64)
    known = np.zeros(4, dtype=np.uint64)
    kept = np.zeros(4, dtype=np.uint64)
    st = np.zeros(ST_SIZE, dtype=np.int64)
    solver = new_solver(TT_BITS)
    bidding = (seat & 1) == (bidder & 1)
    game = _for_the_game(solver, bidder, bid, score0, score1, dealer, rules, bidder_arrays, k)
    leader = 0
    lead_wins = 0
    lead_points = 0
    for a in range(n):
        for w in range(n_worlds):
            held = _start_candidate(st, worlds[w], a, seat, bidder, trumps, keeps, keep_table, dealer, calls, n_calls,
                                    score0, score1, bid, known, kept)
            same = _same_as(a, trumps, keeps, held)
            if same >= 0:
                lo[a, w] = lo[same, w]
                hi[a, w] = hi[same, w]
            elif a == leader:  # the first candidate: its bounds are still -INF..INF
                lo[a, w] = solve_value(solver, st, rules, lo[a, w - 1] if w > 0 else 0, lo[a, w], hi[a, w])
                hi[a, w] = lo[a, w]
            else:
                better, v = value_or_bound(solver, st, rules, lo[leader, w], bidding)
                if better:
                    lo[a, w] = v
                    hi[a, w] = v
                elif bidding:
                    hi[a, w] = v
                else:
                    lo[a, w] = v
        if a == leader:
            lead_wins, lead_points = total_value(lo, hi, a, game, bidding, False)
            continue
        wins, points = total_value(lo, hi, a, game, bidding, True)
        for w in range(n_worlds):  # solved to the end world by world, while it could still beat the leader
            if cannot_lead(wins, points, lead_wins, lead_points, True):
                break  # a later candidate takes the lead only with higher totals
            if lo[a, w] != hi[a, w]:
                _start_candidate(st, worlds[w], a, seat, bidder, trumps, keeps, keep_table, dealer, calls, n_calls,
                                 score0, score1, bid, known, kept)
                lo[a, w] = solve_value(solver, st, rules, hi[a, w] if bidding else lo[a, w], lo[a, w], hi[a, w])
                hi[a, w] = lo[a, w]
                wins, points = total_value(lo, hi, a, game, bidding, True)
        if wins > lead_wins or (wins == lead_wins and points > lead_points):
            leader = a
            lead_wins = wins
            lead_points = points
    return leader


@njit(cache=True)
def bidder_candidates(hand, fixed_trump, rules, keep_table, trumps, keeps):
    """Write the bidder's trump-and-keep candidates for its 13 cards ``hand`` into ``trumps`` and ``keeps`` (module
    docstring; ``fixed_trump`` -1 lets it choose the trump, else only the keep is searched); returns how many."""
    first = heuristic.trump(hand, rules) if fixed_trump < 0 else fixed_trump
    n = candidate_keeps(hand, first, keep_table[first], keeps, 0)
    for a in range(n):
        trumps[a] = first
    if fixed_trump < 0:
        for t in range(4):
            if t != first and popcount(hand & _TRUMP_MASK[t]) >= 2 and n < MAX_CANDIDATES:
                keeps[n] = heuristic_keep(hand, t, keep_table[t])
                trumps[n] = t
                n += 1
    return n


@njit(cache=True, **REFCOUNTED)
def trump_keep(rng, own9, kitty, bidder, fixed_trump, dealer, calls, n_calls, score0, score1, bid, rules, keep_table,
               policies, bidder_arrays, k):
    """The bidder's trump and keep by search (module docstring), packed: the kept cards' mask with the trump in the
    bits from 56. ``fixed_trump`` -1 lets it choose the trump, else only the keep is searched. ZERO when ``k`` leaves
    the keep out (then the heuristic's trump and keep stand)."""
    if expert_without(k, EXPERT_NO_KEEP):
        return ZERO
    trumps = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    keeps = np.zeros(MAX_CANDIDATES, dtype=np.uint64)
    n = bidder_candidates(own9 | kitty, fixed_trump, rules, keep_table, trumps, keeps)
    best = 0
    if n > 1:
        best = value_keeps(rng, bidder, own9, kitty, bidder, trumps, keeps, n, dealer, calls, n_calls, score0,
                            score1, bid, rules, keep_table, policies, bidder_arrays, k)
    return keeps[best] | (np.uint64(trumps[best]) << _TRUMP_SHIFT)


@njit(cache=True, **REFCOUNTED)
def keep(rng, own9, seat, bidder, t, dealer, calls, n_calls, score0, score1, bid, rules, keep_table, policies, bidder_arrays,
         k):
    """A defender's keep by search (module docstring); ``own9`` is its hand, ``t`` the trump named. ZERO when ``k``
    leaves the keep out (then the heuristic's keep stands)."""
    if expert_without(k, EXPERT_NO_KEEP):
        return ZERO
    keeps = np.zeros(MAX_CANDIDATES, dtype=np.uint64)
    n = candidate_keeps(own9, t, keep_table[t], keeps, 0)
    if n == 1:
        return keeps[0]
    trumps = np.full(MAX_CANDIDATES, t, dtype=np.int64)
    best = value_keeps(rng, seat, own9, ZERO, bidder, trumps, keeps, n, dealer, calls, n_calls, score0, score1, bid,
                        rules, keep_table, policies, bidder_arrays, k)
    return keeps[best]


@njit(cache=True)
def auction_world(rng, hs, seat, rules, policies, bidder_arrays, inference, calls, world, dealt):
    """Write into ``world`` a world for ``seat`` at the hand state ``hs`` that honours the auction the state holds
    (``ST_CALLS``; none in hand analysis) under ``policies`` when ``inference`` is on, as
    :func:`smear_sim.kernels.worlds.play_world` draws it, and count it in ``hs`` (``ST_WORLDS``, ``ST_FALLBACKS``).
    ``calls`` (4) and ``dealt`` (every seat's dealt 9) are working arrays. Returns the draws, negated when it fell
    back."""
    n_calls = hs[ST_N_CALLS]
    for i in range(4):
        calls[i] = hs[ST_CALLS + i]
    tries = play_world(rng, hs, seat, np.uint64(hs[ST_KNOWN + seat]), hs[ST_DEALER], calls, n_calls, hs[ST_BEFORE],
                       hs[ST_BEFORE + 1], rules, policies, bidder_arrays, inference and n_calls > 0, world, dealt)
    hs[ST_WORLDS] += 1
    if tries < 0:
        hs[ST_FALLBACKS] += 1
    return tries


@njit(cache=True, **REFCOUNTED)
def play(rng, hs, legal, rules, give, k, policies, bidder_arrays):
    """The card the seat to play plays from ``legal`` (module docstring); ``rng`` is the hand's random stream,
    ``policies`` the teams' policy codes that bidder_arrays the others' calls, ``k`` the parameter (K and the parts left
    out)."""
    if popcount(legal) == 1:
        return lowest_card(legal)
    t = hs[ST_TRUMP]
    unplayed = _DECK & ~played_cards(hs)
    moves = distinct_moves(legal, rule_masks(t, rules)[1], unplayed | np.uint64(hs[ST_TRICK]), t)
    if popcount(moves) == 1:
        return heuristic.play(hs, legal, rules, give)
    seat = to_play(hs)
    bidding = (seat & 1) == (hs[ST_BIDDER] & 1)
    calls = np.zeros(4, dtype=np.int64)
    worlds = np.zeros((expert_worlds(k), ST_SIZE), dtype=np.int64)
    dealt = np.zeros(4, dtype=np.uint64)
    wins = np.zeros(54, dtype=np.int64)
    points = np.zeros(54, dtype=np.int64)
    solver = new_solver(TT_BITS)
    game = _for_the_game(solver, hs[ST_BIDDER], hs[ST_BID], hs[ST_BEFORE], hs[ST_BEFORE + 1], hs[ST_DEALER], rules,
                         bidder_arrays, k)
    inference = not expert_without(k, EXPERT_NO_INFERENCE)
    for w in range(expert_worlds(k)):
        auction_world(rng, hs, seat, rules, policies, bidder_arrays, inference, calls, worlds[w], dealt)
    favourite = heuristic.play(hs, legal, rules, give)
    # exact totals for every card that can be chosen, a best case below the choice for the others
    choice_totals(solver, worlds, rules, legal, favourite, bidding, game, wins, points)
    tied = ZERO
    best = -1
    m = legal
    while m:
        c = lowest_card(m)
        m &= m - ONE
        if best < 0 or wins[c] > wins[best] or (wins[c] == wins[best] and points[c] > points[best]):
            best = c
            tied = bit(c)
        elif wins[c] == wins[best] and points[c] == points[best]:
            tied |= bit(c)
    if popcount(tied) == 1:
        return best
    if tied & bit(favourite):
        return favourite
    return heuristic.cheapest(tied, t, give)


# The decisions this player makes (core.players.PLAYERS), as the dispatch calls them (kernels.players.bids.dispatcher):
# each the function and the dispatch's arguments it takes, in order.
_SEARCH = ("dealer", "calls", "n_calls", "score0", "score1", "bid", "rules", "keep", "policies", "bidder_arrays", "param")
DECISIONS = {
    "search_trump_keep": (trump_keep, ("state", "own9", "kitty", "bidder", "trump") + _SEARCH),
    "search_keep": (keep, ("state", "own9", "seat", "bidder", "t") + _SEARCH),
    "search_play": (play, ("state", "hs", "legal", "rules", "give", "param", "policies", "bidder_arrays")),
}
