"""smear-sim: a Monte Carlo strategy analyzer for the card game Smear.

The cards, rules and reference engine import at once; the simulator, analyzer and charts (which need
Numba, pandas and matplotlib) load on first use, so importing the package stays cheap.
"""

from __future__ import annotations

import functools
import importlib
import inspect
from typing import TYPE_CHECKING, Any

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
from .reference.view import SeatView, parse_view, view_of

if TYPE_CHECKING:  # the lazy names below, for type checkers and editors
    from .analysis.auction import AuctionAnalysis, evaluate_auction
    from .analysis.bidder_tables import bidder_tables, build_bidder_tables, ready_tables
    from .analysis.classes import ClassTable, bid_table, class_table, hand_classes, moon_table
    from .analysis.decisions import Hint, hint
    from .analysis.hand import HandAnalysis, HandQuery, evaluate_hand, hand_query
    from .analysis.hand_outcomes import hand_outcomes
    from .analysis.match import (
        DuplicateResult,
        GamesResult,
        TournamentResult,
        duplicate_games,
        duplicate_match,
        tournament,
    )
    from .analysis.match_equity import EquityTable, equity_table, match_equity
    from .analysis.positions import PositionTable, position_counts, position_table
    from .analysis.review import Review, review
    from .analysis.simulate import (
        GameSimulationResult,
        SimulationResult,
        iter_trace_records,
        simulate,
        simulate_games,
        trace_game_records,
        trace_records,
    )
    from .analysis.solve import SolveResult, solve_record
    from .core.stats import Estimate
    from .engine.bench import run_bench
    from .engine.checkpoint import Checkpoint
    from .engine.cluster import dask_executor
    from .engine.dask_executor import DaskExecutor
    from .engine.runner import LocalExecutor
    from .output.charts import (
        equity_heatmap,
        heatmap,
        make_curves,
        moon_break_even_chart,
        moon_chart,
        points_distribution,
        save_figure,
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
    "equity_table": ".analysis.match_equity",
    "match_equity": ".analysis.match_equity",
    "hand_outcomes": ".analysis.hand_outcomes",
    "EquityTable": ".analysis.match_equity",
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
    "hint": ".analysis.decisions",
    "Hint": ".analysis.decisions",
    "position_table": ".analysis.positions",
    "PositionTable": ".analysis.positions",
    "bidder_tables": ".analysis.bidder_tables",
    "build_bidder_tables": ".analysis.bidder_tables",
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
    "Estimate": ".core.stats",
    "hand_classes": ".analysis.classes",
    "position_counts": ".analysis.positions",
    "ready_tables": ".analysis.bidder_tables",
    "review": ".analysis.review",
    "Review": ".analysis.review",
}

__all__ = [  # the names below, then those that load on first use (_LAZY)
    "AuctionAnalysis",
    "CardError",
    "Checkpoint",
    "ClassTable",
    "DaskExecutor",
    "DuplicateResult",
    "EquityTable",
    "Estimate",
    "GameRecord",
    "GameResult",
    "GameSimulationResult",
    "GameState",
    "GamesResult",
    "HandAnalysis",
    "HandQuery",
    "HandRecord",
    "Hint",
    "IllegalAction",
    "LocalExecutor",
    "PositionTable",
    "RecordError",
    "Review",
    "Rules",
    "RulesError",
    "SeatView",
    "SimulationResult",
    "SmearError",
    "SolveResult",
    "TournamentResult",
    "bid_table",
    "bidder_tables",
    "build_bidder_tables",
    "card_name",
    "class_table",
    "dask_executor",
    "duplicate_games",
    "duplicate_match",
    "equity_heatmap",
    "equity_table",
    "evaluate_auction",
    "evaluate_hand",
    "format_hand",
    "hand_classes",
    "hand_outcomes",
    "hand_query",
    "heatmap",
    "hint",
    "iter_trace_records",
    "load_rules",
    "make_curves",
    "match_equity",
    "moon_break_even_chart",
    "moon_chart",
    "moon_table",
    "parse_card",
    "parse_cards",
    "parse_game_record",
    "parse_record",
    "parse_view",
    "points_distribution",
    "position_counts",
    "position_table",
    "ready_tables",
    "replay",
    "replay_game",
    "review",
    "run_bench",
    "save_figure",
    "score_game_record",
    "score_record",
    "simulate",
    "simulate_games",
    "solve_record",
    "tournament",
    "trace_game_records",
    "trace_records",
    "view_of",
]


# The analyses run under one value for the run (smear_sim.analysis.plan.RunPlan); the API also takes the keywords
# that make it, here and nowhere else. For each analysis: the keywords it takes in place of ``plan``.
_PLAN_KEYWORDS: dict[str, tuple[str, ...]] = {
    "simulate": ("policies", "rules", "threads", "chunk_size", "progress", "executor"),
    "simulate_games": ("policies", "rules", "threads", "chunk_size", "progress", "executor"),
    "class_table": ("policy", "rules", "threads", "chunk_size", "progress", "executor", "checkpoint"),
    "hand_classes": ("policy", "rules", "threads", "chunk_size", "progress", "executor", "checkpoint"),
    "bid_table": ("policy", "rules", "threads", "progress", "executor"),
    "evaluate_auction": ("policy", "rules", "threads", "progress", "executor"),
    "hint": ("policy", "progress"),  # the rules are the view's
    "hand_query": ("policy", "rules"),
    "evaluate_hand": ("policy", "rules", "threads", "progress", "executor"),
    "hand_outcomes": ("policy", "rules", "model", "threads", "chunk_size", "progress", "executor", "checkpoint"),
    "duplicate_match": ("policy_a", "policy_b", "rules", "threads", "chunk_size", "progress", "executor", "checkpoint"),
    "duplicate_games": ("policy_a", "policy_b", "rules", "threads", "chunk_size", "progress", "executor", "checkpoint"),
    "match_equity": ("policy", "rules", "model", "threads", "chunk_size", "progress", "executor", "checkpoint"),
    "equity_table": ("policy", "rules", "threads", "progress", "executor"),
    "position_table": ("policy", "rules", "model", "threads", "chunk_size", "progress", "executor", "checkpoint"),
    "position_counts": ("policy", "rules", "model", "threads", "chunk_size", "progress", "executor", "checkpoint"),
    "review": ("policy",),  # the rules are the records'
}
_TEAMS = {"duplicate_match": ("heuristic", "random"),  # A's and B's policies come first, by position
          "duplicate_games": (inspect.Parameter.empty, inspect.Parameter.empty)}
_KEYWORD = inspect.Parameter.KEYWORD_ONLY
_PLAN_PARAMETERS = {  # RunPlan.of's keywords, as the API takes them
    "policy": inspect.Parameter("policy", _KEYWORD, default="heuristic", annotation="str"),
    "policies": inspect.Parameter("policies", _KEYWORD, default="heuristic", annotation="str | tuple[str, str]"),
    "rules": inspect.Parameter("rules", _KEYWORD, default=None, annotation="Rules | None"),
    # the equity bidder's arrays (RunPlan.bidder_arrays); the public name stays ``model``
    "model": inspect.Parameter("model", _KEYWORD, default=None, annotation="tuple[np.ndarray, ...] | None"),
    "threads": inspect.Parameter("threads", _KEYWORD, default=None, annotation="int | None"),
    "chunk_size": inspect.Parameter("chunk_size", _KEYWORD, default=None, annotation="int | None"),
    "progress": inspect.Parameter("progress", _KEYWORD, default=None, annotation="Progress | None"),
    "executor": inspect.Parameter("executor", _KEYWORD, default=None, annotation="Executor | None"),
    "checkpoint": inspect.Parameter("checkpoint", _KEYWORD, default=None, annotation="Checkpoint | None"),
}


def _planned(name: str, function: Any) -> Any:
    """The analysis ``function`` as the API offers it: taking the keywords of :meth:`RunPlan.of
    <smear_sim.analysis.plan.RunPlan.of>` (``policy``, ``rules``, ``threads`` ...), or a ``plan``, which then
    stands for them."""
    keywords = _PLAN_KEYWORDS[name]
    own = [p for p in inspect.signature(function).parameters.values() if p.name != "plan"]
    teams = [inspect.Parameter(team, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default, annotation="str")
             for team, default in zip(("policy_a", "policy_b"), _TEAMS.get(name, ()), strict=False)]
    plan_keywords = [_PLAN_PARAMETERS[k] for k in keywords if k in _PLAN_PARAMETERS and k not in {p.name for p in own}]
    plan = inspect.Parameter("plan", _KEYWORD, default=None, annotation="RunPlan | None")
    positional = [p for p in own if p.kind is not _KEYWORD]
    signature = inspect.signature(function).replace(
        parameters=[*teams, *positional, *[p for p in own if p.kind is _KEYWORD], *plan_keywords, plan])

    @functools.wraps(function)
    def with_plan(*args: Any, **kwargs: Any) -> Any:
        from .analysis.plan import RunPlan

        arguments = signature.bind(*args, **kwargs)
        arguments.apply_defaults()
        given = dict(arguments.arguments)
        made = {k: given.pop(k) for k in keywords if k in given and k not in {p.name for p in own}}
        made |= {team: given.pop(team) for team in ("policy_a", "policy_b") if team in given}
        plan = given.pop("plan")
        if plan is None:
            if "policy_a" in made:
                policies: Any = [made.pop("policy_a"), made.pop("policy_b")]
            else:
                policies = made.pop("policy") if "policy" in made else made.pop("policies", "heuristic")
            rules = made.pop("rules", None)
            if name == "hint":
                rules = _view_rules(given["view"])
            if "model" in made:  # the public keyword keeps its name; the plan calls them the bidder's arrays
                made["bidder_arrays"] = made.pop("model")
            plan = RunPlan.of(policies, rules, **made)
        return function(**given, plan=plan)

    with_plan.__signature__ = signature  # type: ignore[attr-defined]
    return with_plan


def _view_rules(view: Any) -> Rules | None:
    """The rules of a hint's view (a SeatView or its JSON object); None where the hint itself says what is wrong."""
    if isinstance(view, SeatView):
        return view.rules
    try:
        return parse_view(view).rules
    except Exception:  # not a view: hint() says so, in its own words
        return None


# The names of players an API function takes, by parameter; a function with any of them gets the players' tables
# ready before it runs (the modules below only look them up: smear_sim.analysis.session_tables).
_PLAYER_PARAMETERS = ("policy", "policies", "policy_a", "policy_b", "players")


def _ready_first(function: Any) -> Any:
    """``function`` made to get the equity bidder's tables ready first (made on first use, with a warning), as the
    command line does: the public API is an entry point."""
    signature = inspect.signature(function)
    if not any(name in signature.parameters for name in _PLAYER_PARAMETERS):
        return function

    @functools.wraps(function)
    def ready_then_run(*args: Any, **kwargs: Any) -> Any:
        from .analysis.bidder_tables import ready_tables
        from .core.players import reads_tables

        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:
            return function(*args, **kwargs)  # the function itself says what is wrong with the call
        bound.apply_defaults()
        rules = bound.arguments.get("rules") or Rules()
        for name in _PLAYER_PARAMETERS:
            value = bound.arguments.get(name)
            names = [value] if isinstance(value, str) else list(value or ())
            for policies in names:
                if isinstance(policies, str) and isinstance(rules, Rules) and reads_tables(policies):
                    ready_tables(policies, rules)
        return function(*args, **kwargs)

    return ready_then_run


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        if name in _PLAN_KEYWORDS:
            value = _planned(name, value)
        if inspect.isfunction(value):
            value = _ready_first(value)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'smear_sim' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
