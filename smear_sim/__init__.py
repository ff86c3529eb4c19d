"""smear-sim: a Monte Carlo strategy analyzer for the card game Smear.

The cards, rules and reference engine import at once; the simulator, analyzer and charts (which need
Numba, pandas and matplotlib) load on first use, so importing the package stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

from ._version import __version__ as __version__  # written once, in _version.py; pyproject.toml reads it there
from .core.cards import card_name, format_hand, parse_card, parse_cards
from .core.errors import CardError, IllegalAction, RecordError, RulesError, SmearError
from .core.rules import Rules, load_rules
from .reference.game import GameResult, GameState
from .reference.record import (
    GameRecord,
    HandRecord,
    parse_game_record,
    parse_record,
    replay,
    replay_game,
    score_game_record,
    score_record,
)

# Public names that live in modules importing Numba, pandas or matplotlib, loaded on first access.
_LAZY = {
    "simulate": ".analysis.simulate",
    "trace_records": ".analysis.simulate",
    "iter_trace_records": ".analysis.simulate",
    "SimulationResult": ".analysis.simulate",
    "simulate_games": ".analysis.simulate",
    "trace_game_records": ".analysis.simulate",
    "GameSimulationResult": ".analysis.simulate",
    "equity_table": ".analysis.equity",
    "match_equity": ".analysis.equity",
    "hand_outcomes": ".analysis.equity",
    "EquityTable": ".analysis.equity",
    "duplicate_match": ".analysis.match",
    "DuplicateResult": ".analysis.match",
    "tournament": ".analysis.match",
    "TournamentResult": ".analysis.match",
    "solve_record": ".analysis.solve",
    "SolveResult": ".analysis.solve",
    "duplicate_games": ".analysis.match",
    "GamesResult": ".analysis.match",
    "evaluate_auction": ".analysis.auction",
    "AuctionAnalysis": ".analysis.auction",
    "position_table": ".analysis.positions",
    "PositionTable": ".analysis.positions",
    "bidder_tables": ".analysis.bidder",
    "build_bidder_tables": ".analysis.bidder",
    "evaluate_hand": ".analysis.hand",
    "HandAnalysis": ".analysis.hand",
    "hand_query": ".analysis.hand",
    "HandQuery": ".analysis.hand",
    "bid_table": ".analysis.classes",
    "class_table": ".analysis.classes",
    "moon_table": ".analysis.classes",
    "ClassTable": ".analysis.classes",
    "heatmap": ".output.charts",
    "make_curves": ".output.charts",
    "moon_chart": ".output.charts",
    "points_distribution": ".output.charts",
    "equity_heatmap": ".output.charts",
    "moon_break_even_chart": ".output.charts",
    "save_figure": ".output.charts",
    "run_bench": ".engine.bench",
    "LocalExecutor": ".engine.runner",
    "Checkpoint": ".engine.checkpoint",
    "dask_executor": ".engine.cluster",
    "DaskExecutor": ".engine.dask_executor",
}

__all__ = [
    "CardError",
    "GameRecord",
    "GameResult",
    "GameState",
    "HandRecord",
    "IllegalAction",
    "RecordError",
    "Rules",
    "RulesError",
    "SmearError",
    "card_name",
    "format_hand",
    "load_rules",
    "parse_card",
    "parse_cards",
    "parse_game_record",
    "parse_record",
    "replay",
    "replay_game",
    "score_game_record",
    "score_record",
]
__all__ += list(_LAZY)  # the names that load on first use


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'smear_sim' has no attribute {name!r}")
