"""Parallel drivers: many independent hands per call, spread over threads with ``prange``.

One module per family: :mod:`.hands` (single hands: counts, traces, the dealing ceiling), :mod:`.games`
(complete games), :mod:`.outcomes` (hand analysis and the outcome histogram behind the match-equity table),
:mod:`.auction` (every call of a seat played out) and :mod:`.duplicate` (deals and games played twice, the
teams swapped). What each does before its loop is written once: the block bounds (:mod:`.blocks`), the
scratch arrays and the card pool (:mod:`smear_sim.kernels.hand`) and the player set
(:func:`smear_sim.kernels.players.player_set`).

Every driver that plays takes ``search`` last: :data:`smear_sim.kernels.players.FAST` (None) where only fast
players sit at the table, :data:`~smear_sim.kernels.players.SEARCH` where a search player does
(:func:`~smear_sim.kernels.players.search_arg` picks it from the policy codes). Numba compiles a driver once
per argument type, so a command of fast players compiles no search code.

The engine looks drivers up here by name (:class:`smear_sim.engine.runner.Job`).
"""

from __future__ import annotations

from ..players import FAST, SEARCH, search_arg
from .auction import auction_deals, auction_hands, position_outcomes
from .duplicate import duplicate_games, duplicate_hands
from .games import simulate_games, trace_games
from .hands import deal_only, simulate_hands, trace_hands
from .outcomes import analyze_hands, hand_outcomes, outcome_code

__all__ = [
    "FAST",
    "SEARCH",
    "analyze_hands",
    "auction_deals",
    "auction_hands",
    "deal_only",
    "duplicate_games",
    "duplicate_hands",
    "hand_outcomes",
    "outcome_code",
    "position_outcomes",
    "search_arg",
    "simulate_games",
    "simulate_hands",
    "trace_games",
    "trace_hands",
]
