"""smear-sim: a Monte Carlo strategy analyzer for the card game Smear.

The cards, rules and reference engine import at once; the simulator, analyzer and charts (which need
Numba, pandas and matplotlib) load on first use, so importing the package stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

from .cards import card_name, format_hand, parse_card, parse_cards
from .errors import CardError, IllegalAction, RecordError, RulesError, SmearError
from .record import HandRecord, parse_record, replay, score_record
from .rules import Rules, load_rules

__version__ = "0.1.0"

# Public names that live in modules importing Numba, pandas or matplotlib, loaded on first access.
_LAZY = {
    "simulate": ".simulate",
    "trace_records": ".simulate",
    "duplicate_match": ".simulate",
    "SimulationResult": ".simulate",
    "evaluate_hand": ".analysis",
    "HandAnalysis": ".analysis",
    "bid_table": ".analysis",
    "class_table": ".analysis",
    "moon_table": ".analysis",
    "ClassTable": ".analysis",
    "heatmap": ".plotting",
    "make_curves": ".plotting",
    "moon_chart": ".plotting",
    "points_distribution": ".plotting",
    "save_figure": ".plotting",
    "run_bench": ".bench",
}

__all__ = [
    "CardError",
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
    "parse_record",
    "replay",
    "score_record",
    *_LAZY,
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'smear_sim' has no attribute {name!r}")
