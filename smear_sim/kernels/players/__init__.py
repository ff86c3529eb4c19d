"""The players: one module per policy, and the one place that dispatches a decision to a policy.

Each decision (bid, trump, keep, play, and the searched ones) takes the policy code of the seat's team
(:mod:`smear_sim.core.players` names them: ``code = number + PARAM_SCALE * parameter``) and calls that policy's
function. The dispatch is written from the player registry (:data:`smear_sim.core.players.PLAYERS`) by
:func:`smear_sim.kernels.players.bids.dispatcher`: each player's module exports the decisions it makes
(``DECISIONS``), and a player that leaves a decision out makes it as ``heuristic`` does. A new player is a module here
and an entry in the registry; its code is compiled only where it plays (``seated``, SEATED). The hand and game
kernels call only these. The bids, the policy codes and ``seated`` are in :mod:`smear_sim.kernels.players.bids`
(re-exported here), apart so that the search player's worlds can ask for the others' calls without importing this
module, which imports the search player. ``expert`` also searches its trump and keep (:func:`search_trump_keep`,
:func:`search_keep`); ``equity`` and ``count`` make only their calls.

A card decision sees the hand in progress as a hand state (:mod:`smear_sim.kernels.state`). The state holds
every hand, so each player reads only what its seat may know: its own hand, the cards it saw before play
(``ST_KNOWN``) and the public fields; :func:`smear_sim.kernels.state.sample_world` deals it the rest.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.layout import R_LOW_TO, R_ROUND_POINTS
from ...core.tables import P_HIGH_JOKER, P_JACK, P_JICK, P_LOW, P_LOW_JOKER, TABLES
from ..bits import ZERO, has, popcount
from ..borrow import REFCOUNTED
from .bids import (
    COUNT,
    EQUITY,
    EXPERT,
    HEURISTIC,
    HEURISTIC_V1,
    ORACLE,
    PIMC,
    RANDOM,
    SEARCHED,
    SEATED,
    _no_card,
    _no_cards,
    check_seated,
    choose_bid,
    dispatcher,
    policy_kind,
    policy_param,
    seated_arg,
)

_TRUMP_MASK = TABLES.trump_mask
_SCORING_MASK = TABLES.scoring_trump_mask
_TRICK_RANK = TABLES.trick_rank
_CARD_POINTS = TABLES.card_points
_POINT_CARDS = TABLES.point_cards

# Keep scores. Scoring trumps by trump rank (0 = two .. 15 = ace), in the order A 2 J K Q jick 10 HJ LJ (ranks
# 1-7 are not scoring trumps); non-trumps by printed rank (0 = two .. 12 = ace): A, K, 10, Q, J, then rank.
_KEEP_SCORING_TRUMP = np.array([95, 0, 0, 0, 0, 0, 0, 0, 70, 60, 65, 75, 90, 80, 85, 100], dtype=np.int64)
_KEEP_PLAIN = np.array([0, 1, 2, 3, 4, 5, 6, 7, 12, 10, 11, 14, 20], dtype=np.int64)


@njit(cache=True, **REFCOUNTED)
def policy_tables(rules):
    """Per-trump card scores derived from the rules, shared by the heuristics: ``give[t, c]`` (what a card is
    worth to whoever takes it) and ``keep[t, c]`` (how much a heuristic wants to keep it)."""
    give = np.zeros((4, 54), dtype=np.int64)
    keep = np.zeros((4, 54), dtype=np.int64)
    for t in range(4):
        for c in range(54):
            give[t, c] = _CARD_POINTS[c]
            rank = _TRICK_RANK[t, c]
            if rank < 16:
                keep[t, c] = _KEEP_PLAIN[rank]
            elif has(_SCORING_MASK[t], c):
                keep[t, c] = _KEEP_SCORING_TRUMP[rank - 16]
            else:
                keep[t, c] = 30 + rank - 16  # other trumps: high before low, after every scoring trump
        give[t, _POINT_CARDS[t, P_JACK]] += 6  # the jack of trump carries the Jack point
        if rules[R_LOW_TO] == 1:
            give[t, _POINT_CARDS[t, P_LOW]] += 6  # the two carries Low to whoever takes it
        if rules[R_ROUND_POINTS] == 1:
            for point in (P_JICK, P_HIGH_JOKER, P_LOW_JOKER):
                give[t, _POINT_CARDS[t, point]] += 6
    return give, keep



@njit(cache=True)
def player_set(rules, policies, bidder_arrays, tables, seated):
    """Who plays and under which rules, as the hand kernels take it: ``(rules, policies, bidder_arrays, give, keep,
    seated)``, ``tables`` being ``(give, keep)`` of :func:`policy_tables` for the rules and ``seated`` the players
    compiled in (SEATED). It travels as one value, unpacked where used."""
    check_seated(policies, seated)
    give, keep = tables
    return rules, policies, bidder_arrays, give, keep, seated



# The decisions after the auction, each one branch per player that makes it (:func:`dispatcher`). The plain ones run
# in every hand (the fast players' card loop among them); the searched ones only in the hand that keeps the calls.

# The card ``choose_play(policy, seated, state, hs, legal, rules, give)`` the seat to play (``state.to_play(hs)``)
# plays from ``legal``, a non-empty mask of its legal cards. ``state`` is the hand's random stream, ``hs`` the hand
# state, ``give`` the card table of :func:`policy_tables` for the rules; ``seated`` says which players are compiled in
# (SEATED). (The players read ``hs`` by plain indexing: in Numba an array handed to a helper costs a reference count,
# and this runs for every card of every hand.) ``expert`` and ``oracle`` play through :func:`search_play`.
_HERE = {"__name__": __name__}
choose_play = dispatcher("choose_play", "policy, seated, state, hs, legal, rules, give", "play", _no_card,
                         namespace=_HERE)
# The trump ``choose_trump(policy, seated, state, hand, rules)`` the bidder holding ``hand`` names.
choose_trump = dispatcher("choose_trump", "policy, seated, state, hand, rules", "trump", _no_card, namespace=_HERE)
# The ``room`` cards of ``cards`` (the first card class that does not fit whole) that :func:`choose_keep` keeps.
keep_choice = dispatcher("keep_choice", "policy, seated, state, cards, room, keep_score", "keep", _no_cards,
                         namespace=_HERE)
# A searched trump and keep for the bidder (``expert``; ``trump`` -1 to choose it, else the keep only), packed as
# :func:`smear_sim.kernels.players.expert.trump_keep` does; ZERO for a policy that does not search them (then
# :func:`choose_trump` and :func:`choose_keep` decide). ``keep`` is the keep-score table of :func:`policy_tables`,
# ``policies`` and ``bidder_arrays`` model the others' calls.
search_trump_keep = dispatcher(
    "search_trump_keep", "policy, seated, state, own9, kitty, bidder, trump, dealer, calls, n_calls, score0, score1, "
    "bid, rules, keep, policies, bidder_arrays, net_work", "search_trump_keep", _no_cards, default="ZERO",
    namespace=_HERE | {"ZERO": ZERO})
# A defender's searched keep (``expert``), or ZERO for a policy that does not search it (then :func:`choose_keep`
# decides).
search_keep = dispatcher(
    "search_keep", "policy, seated, state, own9, seat, bidder, t, dealer, calls, n_calls, score0, score1, bid, rules, "
    "keep, policies, bidder_arrays, net_work", "search_keep", _no_cards, default="ZERO", namespace=_HERE | {"ZERO": ZERO})
# :func:`choose_play` at a table where ``expert`` or ``oracle`` may sit: ``policies`` (the teams' codes) and ``bidder_arrays``
# are what expert models the others' calls by. Only the hands of such tables run this
# (:func:`smear_sim.kernels.hand.contract`), so that the fast players' card loop stays as it was. ``net_work`` (every
# searched decision's last argument) is the learned player's scratch, made once per hand
# (:func:`smear_sim.kernels.players.net.new_net_work`).
search_play = dispatcher(
    "search_play", "policy, seated, state, hs, legal, rules, give, policies, bidder_arrays, net_work", "search_play", _no_card,
    default="choose_play(policy, seated, state, hs, legal, rules, give)",
    namespace=_HERE | {"choose_play": choose_play})


@njit(cache=True, inline="always")
def choose_keep(policy, seated, state, hand, t, keep_score):
    """The 6 cards kept from ``hand`` with trump ``t``.

    Card classes are kept whole in order (scoring trumps, other trumps, non-trumps) while they fit; the
    policy chooses only within the first class that does not fit, which is exactly the discard rule.
    """
    scoring = hand & _SCORING_MASK[t]
    classes = (scoring, hand & _TRUMP_MASK[t] & ~scoring, hand & ~_TRUMP_MASK[t])
    keep = ZERO
    room = np.int64(6)  # typed int64, not the literal 6: heuristic.choose_cards compiles once, for the leaf's types
    for cards in classes:
        n = popcount(cards)
        if n <= room:
            keep |= cards
            room -= n
        else:
            keep |= keep_choice(policy, seated, state, cards, room, keep_score)
            break
    return keep


__all__ = [
    "COUNT",
    "EQUITY",
    "EXPERT",
    "HEURISTIC",
    "HEURISTIC_V1",
    "ORACLE",
    "PIMC",
    "RANDOM",
    "SEARCHED",
    "SEATED",
    "check_seated",
    "choose_bid",
    "choose_keep",
    "choose_play",
    "choose_trump",
    "player_set",
    "policy_kind",
    "policy_param",
    "policy_tables",
    "search_keep",
    "search_play",
    "search_trump_keep",
    "seated_arg",
]
