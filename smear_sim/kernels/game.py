"""One complete game of Smear in Numba: deals in turn, the dealer rotating and the scores carried, until a team
wins (docs/rules.md, "Game").

Deal ``n`` of a game draws from its own stream, ``stream_key(game key, n)``, so the cards of a deal depend on
nothing but the seed, the game's index and the deal's number. Misdeals are redealt by the same dealer inside
the deal (:func:`smear_sim.kernels.hand.deal_playable`); a thrown-in hand passes the deal like any other.
"""

from __future__ import annotations

from numba import njit

from ..core.layout import MAX_DEALS, R_MISDEAL, REC_DELTA, REC_MISDEALS, REC_WINNER
from .bits import ZERO
from .hand import AUCTION, POLICY_TRUMP, count_hand, deal_playable, play_hand
from .rng import stream_key
from .state import copy_into


@njit(cache=True)
def play_game(key, score0, score1, dealer, players, pool, scratch, agg, out, trace):
    """Play one game from scores ``(score0, score1)`` with seat ``dealer`` dealing first.

    ``key`` is the game's stream key; ``players`` the player set (:func:`smear_sim.kernels.players.player_set`).
    Every hand is counted into ``agg`` (``AGG_*`` offsets); with ``trace`` the record of deal ``n`` is also copied
    to ``out[n]``, which needs a row per deal. ``pool`` is the deck to deal from and ``scratch`` the caller's
    working arrays (:func:`smear_sim.kernels.hand.scratch`). The game stops at its end or after ``MAX_DEALS``
    deals.
    Returns ``(winner, deals, score0, score1)``: the winning team (-1 if unfinished), the number of deals
    (thrown-in hands included, misdeals not) and the final scores.
    """
    state, deck, hands, known, rec, hs = scratch
    rules, policies, bidder_arrays, give, keep, seated = players
    misdeal_rule = rules[R_MISDEAL] == 1
    deals = 0
    winner = -1
    while deals < MAX_DEALS:
        state[0] = stream_key(key, deals)
        rec[REC_MISDEALS] = deal_playable(state, pool, 54, -1, ZERO, deck, hands, misdeal_rule)
        play_hand(state, hands, known, hs, dealer, score0, score1, rules, policies, bidder_arrays, seated, AUCTION, POLICY_TRUMP,
                  give, keep, rec, trace)
        count_hand(agg, rec)
        if trace:
            copy_into(out[deals], rec)
        score0 += rec[REC_DELTA]
        score1 += rec[REC_DELTA + 1]
        deals += 1
        winner = rec[REC_WINNER]
        if winner >= 0:
            break
        dealer = (dealer + 1) % 4
    return winner, deals, score0, score1
