"""A hand asked about as ``smear-sim hand`` and ``POST /api/hand`` ask: the hand analysis, with a place in the
auction the auction analysis after it (valued with the hand analysis's equity table), and the count. One
function below both, so that the page answers exactly what the command prints."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.calls import call_name
from ..core.count import count_summary
from ..core.sizes import AUCTION_MAX_DEALS
from .auction import AuctionAnalysis, evaluate_auction
from .hand import HandAnalysis, HandQuery
from .plan import RunPlan

__all__ = ["HandAnswer", "answer_hand"]


@dataclass(frozen=True)
class HandAnswer:
    """The hand analysis, the auction analysis (None without a place in the auction) and the count."""

    analysis: HandAnalysis
    calls: AuctionAnalysis | None
    count: dict[str, Any] | None

    @property
    def seconds(self) -> float:
        """The seconds spent simulating."""
        return self.analysis.seconds + (self.calls.seconds if self.calls is not None else 0.0)

    def to_json(self) -> dict[str, Any]:
        """The object ``smear-sim hand --json`` prints (docs/formats.md)."""
        calls = self.calls.to_json() if self.calls is not None else {}
        return self.analysis.to_json() | calls | {"count": self.count}


def answer_hand(query: HandQuery, plan: RunPlan, *, position: int | None = None, auction: Sequence[int] = (),
                samples: int | None = None, max_deals: int = AUCTION_MAX_DEALS,
                stage: Callable[[str], None] | None = None) -> HandAnswer:
    """Run ``query`` under ``plan``; with ``position`` (1-4) and ``auction`` (the kernel codes of the calls
    before it, :func:`smear_sim.analysis.auction.parse_auction`), the auction analysis after it, on ``samples``
    deals that fit (its own default when None) out of at most ``max_deals``. The plan's progress hears the hand's
    deals only; ``stage`` hears "hand", "equity" and "auction" as each starts."""
    if stage is not None:
        stage("hand")
    analysis = query.run(settings=plan.settings, stage=stage)
    calls = None
    if position is not None:
        if stage is not None:
            stage("auction")
        calls = evaluate_auction(query.cards, position=position, auction=[call_name(c) for c in auction],
                                 score=query.score, samples=samples, precision=query.precision, max_deals=max_deals,
                                 seed=query.job.seed, equity=analysis.equity, plan=plan.replace(progress=None))
    before = tuple(auction) if position is not None else None
    count = count_summary(list(query.cards), plan.rules, before, query.score or (0, 0))
    return HandAnswer(analysis, calls, count)
