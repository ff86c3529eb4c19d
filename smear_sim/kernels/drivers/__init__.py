"""The drivers: many independent hands per call, in compiled loops that release the GIL (``nogil``).

A driver runs hands ``start .. start+count-1`` on the thread that calls it. The engine spreads a chunk over
threads itself (:func:`smear_sim.engine.runner.across_threads`): each thread calls the driver on a piece of the
range at once, and the pieces' integer counts are summed. That compiles in about half the time of Numba's
``parallel=True`` loops, whose transform (the ``prange`` gufunc and its copy of every inlined callee) costs more to
compile than the hand itself. It is as fast only because each
driver hands its arrays down borrowed (:mod:`smear_sim.kernels.borrow`), as a ``prange`` body receives them: with no
reference count to update at every call of a hand's play.

One module per family: :mod:`.hands` (single hands: counts, traces, the dealing ceiling), :mod:`.games`
(complete games), :mod:`.outcomes` (hand analysis, the outcome histogram behind the match-equity table, and one
given deal's outcomes, a review's luck), :mod:`.auction` (every call of a seat played out), :mod:`.decisions`
(every action of one decision played out on the worlds of a seat's view), :mod:`.net_data` (the learned
player's training data: every decision of full hands with the search's values) and :mod:`.duplicate` (deals and games
played twice, the teams swapped). What each does before its loop is written once: the block bounds (:mod:`.blocks`), the
scratch arrays and the card pool (:mod:`smear_sim.kernels.hand`), the heuristics' card tables
(:func:`smear_sim.kernels.players.policy_tables`) and, for games, the player set
(:func:`smear_sim.kernels.players.player_set`).

Every driver that plays takes ``seated`` last: which players are compiled in, as a type
(:data:`smear_sim.kernels.players.SEATED`; :func:`~smear_sim.kernels.players.seated_arg` makes it from the
policy codes). Numba compiles a driver once per argument types, so a command compiles the code of the players it
runs and no other: with heuristic players, no search code.

The engine looks drivers up here by name (:class:`smear_sim.engine.runner.Job`).
"""

from __future__ import annotations

from ..players import SEATED, seated_arg
from .auction import auction_deals, auction_hands, position_outcomes
from .decisions import card_hint, deal_hint
from .duplicate import duplicate_games, duplicate_hands
from .games import simulate_games, trace_games
from .hands import deal_only, search_worlds, simulate_hands, trace_hands
from .net_data import net_data
from .outcomes import analyze_hands, deal_outcomes, hand_outcomes, outcome_code

__all__ = [
    "SEATED",
    "analyze_hands",
    "auction_deals",
    "auction_hands",
    "card_hint",
    "deal_hint",
    "deal_only",
    "deal_outcomes",
    "duplicate_games",
    "duplicate_hands",
    "hand_outcomes",
    "net_data",
    "outcome_code",
    "position_outcomes",
    "search_worlds",
    "seated_arg",
    "simulate_games",
    "simulate_hands",
    "trace_games",
    "trace_hands",
]
