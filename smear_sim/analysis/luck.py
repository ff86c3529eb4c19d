"""Luck: what the cards dealt (the kitty included) were worth to each team, against an average deal.

GNU Backgammon measures luck apart from skill: the value of the dice rolled minus the average over all rolls.
Here the roll is the deal. For one dealt hand (docs/formats.md, "Luck"):

- **the deal's value** is the outcome of that deal when all four seats play it by the reference player
  (``heuristic`` unless said otherwise), from the record's dealer and scores: the auction, the kitty, the trump,
  the discards and the six tricks. In points it is the team's hand score minus the other team's points, as the
  hint's ``points`` (a moon counts +target made and -target failed for the team that shot it, as the hand
  analysis counts it); in P(win) it is the match-equity table's P(win) after that outcome (1 or 0 when the
  hand ends the game), the next dealer dealing;
- **the average** is the same over random deals at that seat, dealer and score: the mean points of the
  table's own hands (dealt by each seat, from the dealing team's side), and the table's P(win) before the hand;
- **luck** is the value minus the average. It sums to 0 between the teams (one team's luck is the other's bad
  luck), and it averages 0 over deals, because the table's P(win) before a hand is the mean of its P(win) after.

``heuristic`` plays a deal deterministically, so the value is exact; a player that draws random numbers is
played ``playouts`` times on the random streams ``(seed, playout)``. The standard error adds the playouts' spread
and the table's own (its hands' spread for points, its delta-method error for P(win)), as independent parts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.cards import mask_of
from ..core.stats import Estimate
from ..engine.jobs import deal_outcomes_job
from ..reference.record import HandRecord
from .hand_outcomes import outcome_points
from .match_equity import EquityTable
from .plan import RunPlan

__all__ = ["DealLuck", "deal_luck"]


@dataclass(frozen=True)
class DealLuck:
    """The luck of one deal for each team (team 0's, then team 1's), in points and in P(win the game)."""

    record: int
    deal: int
    dealer: int
    points: tuple[Estimate, Estimate]
    win: tuple[Estimate, Estimate]
    value_points: tuple[float, float]  # the deal played out by the reference player
    value_win: tuple[float, float]
    playouts: int

    def to_json(self) -> dict[str, Any]:
        return {"record": self.record, "deal": self.deal, "dealer": self.dealer,
                "teams": [{"team": t, **self.points[t].to_json("points"), **self.win[t].to_json("win")}
                          for t in range(2)]}


def _pair(value: float, se: float) -> tuple[Estimate, Estimate]:
    return Estimate(value + 0.0, se), Estimate(-value + 0.0, se)


def deal_luck(record: HandRecord, *, equity: EquityTable, plan: RunPlan, seed: int = 1, playouts: int = 1,
              index: tuple[int, int] = (0, 0)) -> DealLuck:
    """The luck of ``record``'s deal (module docstring), valued with ``equity`` (the table of ``plan``'s one policy,
    under the record's rules); ``index`` is the record's place in the input (record, deal)."""
    deal = np.array([mask_of(h) for h in record.hands] + [mask_of(record.kitty)], dtype=np.uint64)
    dealing = record.dealer & 1
    us, them = record.scores_before[dealing], record.scores_before[1 - dealing]
    job = deal_outcomes_job(players=plan.players, seed=seed, playouts=playouts, deal=deal, dealer=record.dealer,
                            scores=record.scores_before)
    counts = plan.replace(progress=None, checkpoint=None).run(job).counts.astype(np.float64)
    q = counts / counts.sum()

    points_of = outcome_points(record.rules.target).astype(np.float64)
    wins_of, flat = equity.outcome_wins((us, them), "them")
    p = equity.outcomes.counts / equity.outcomes.counts.sum()

    value_points = float(q @ points_of)
    value_win = float(q @ wins_of)

    def spread(v: np.ndarray, mean: float) -> float:
        """The standard error of the playouts' mean of ``v`` (0 with one playout of a deterministic player)."""
        return math.sqrt(max(float(q @ v ** 2) - mean ** 2, 0.0) / (playouts - 1)) if playouts > 1 else 0.0

    average_points = float(p @ points_of)
    average_points_var = max(float(p @ points_of ** 2) - average_points ** 2, 0.0) / equity.hands
    average_win = equity.win(us, them, "us")
    table_var = float(equity.outcome_variance(q, flat)[0])

    points_se = math.sqrt(spread(points_of, value_points) ** 2 + average_points_var)
    win_se = math.sqrt(spread(wins_of, value_win) ** 2 + table_var + average_win.se ** 2)
    luck_points = _pair(value_points - average_points, points_se)
    luck_win = _pair(value_win - average_win.value, win_se)
    if dealing == 1:
        luck_points, luck_win = luck_points[::-1], luck_win[::-1]
    values_points = (value_points, -value_points) if dealing == 0 else (-value_points, value_points)
    values_win = (value_win, 1 - value_win) if dealing == 0 else (1 - value_win, value_win)
    return DealLuck(index[0], index[1], record.dealer, luck_points, luck_win, values_points, values_win, playouts)
