"""The simulations behind the reference results (``smear-sim report``) and behind ``bid-table --by-position``: built
here, written by :mod:`smear_sim.output.report`."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass

from .classes import ClassTable, class_table
from .hand import EXAMPLE_HAND, EXAMPLE_MOON_HAND, HandAnalysis, evaluate_hand
from .match_equity import EquityTable, match_equity
from .plan import RunPlan
from .positions import PositionTable, position_table

__all__ = ["POSITION_CLASS_HANDS", "Report", "build_position_table", "build_report"]

POSITION_CLASS_HANDS = 2_000_000  # the declarer's-view hands behind the strength buckets of bid-table --by-position

# ``progress(total, description)``: a context giving the callback of a long run's hands (a progress bar)
ProgressBars = Callable[[int, str], AbstractContextManager]


@dataclass(frozen=True)
class Report:
    """What the reference results show: the class table, what to call by place in the auction, the match-equity
    table and the example hands (the moon's only where the rules have a moon)."""

    table: ClassTable
    positions: PositionTable
    equity: EquityTable
    example_hand: HandAnalysis
    moon_hand: HandAnalysis | None


def _bar(progress: ProgressBars | None, total: int, description: str) -> AbstractContextManager:
    return progress(total, description) if progress else contextlib.nullcontext()


def build_report(*, hands: int, seed: int, plan: RunPlan, equity_hands: int, position_deals: int | None,
                 progress: ProgressBars | None = None) -> Report:
    """Simulate the report's tables: the class table of ``hands`` hands, what to call by position over
    ``position_deals`` deals (a fifth of ``hands`` by default), the match-equity table of ``equity_hands`` hands
    and the example hands. ``progress`` shows the hands of the two long runs; ``plan`` says who plays, under which
    rules, and where every simulation runs."""
    with _bar(progress, hands, "dealing and playing") as done:
        table = class_table(hands, seed=seed, plan=plan.replace(progress=done))
    deals = position_deals or max(hands // 5, 1)
    with _bar(progress, deals, "every call at every turn") as done:
        positions = position_table(deals, seed=seed, classes=table, plan=plan.replace(progress=done))
    equity = match_equity(equity_hands, seed=seed, plan=plan)
    example = evaluate_hand(EXAMPLE_HAND, seed=seed, equity=equity, plan=plan)
    moon_hand = evaluate_hand(EXAMPLE_MOON_HAND, seed=seed, equity=equity, plan=plan) if plan.rules.moon else None
    return Report(table, positions, equity, example, moon_hand)


def build_position_table(*, deals: int, seed: int, plan: RunPlan, score: tuple[int, int], equity_hands: int,
                         progress: ProgressBars | None = None) -> tuple[PositionTable, EquityTable]:
    """``bid-table --by-position``: the position table of ``deals`` deals, over strength buckets from
    ``POSITION_CLASS_HANDS`` hands, and the match-equity table of ``equity_hands`` hands that values it at
    ``score``. ``progress`` shows the position run. Only the class table and the position table keep the plan's
    checkpoint, only the position table its chunk size."""
    classes = class_table(POSITION_CLASS_HANDS, seed=seed, plan=plan.replace(chunk_size=None, progress=None))
    with _bar(progress, deals, "every call at every turn") as done:
        table = position_table(deals, seed=seed, classes=classes, plan=plan.replace(progress=done))
    equity = match_equity(equity_hands, seed=seed, floor=min(-40, *score),
                          plan=plan.replace(chunk_size=None, progress=None, checkpoint=None))
    return table, equity
