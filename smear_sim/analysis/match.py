"""Duplicate matches: two policies on the same deals, each deal played twice with the teams swapped."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.players import parse_policies, policy_array
from ..core.rules import Rules
from ..core.stats import Estimate, mean_from_sums
from ..engine.runner import Executor, Job, Progress, run

__all__ = ["DuplicateResult", "duplicate_match"]


@dataclass(frozen=True)
class DuplicateResult:
    """Policy A against policy B on the same deals, each deal played twice with the teams swapped."""

    policy_a: str
    policy_b: str
    deals: int
    seed: int
    rules: Rules
    score_margin: Estimate  # A's hand score minus B's, per hand played
    points_margin: Estimate  # A's points won minus B's, per hand played
    seconds: float = field(default=0.0)

    def to_json(self) -> dict[str, Any]:
        return {
            "policy_a": self.policy_a,
            "policy_b": self.policy_b,
            "deals": self.deals,
            "hands": 2 * self.deals,
            "seed": self.seed,
            "rules": self.rules.as_dict(),
            "score_margin": self.score_margin.to_json("mean"),
            "points_margin": self.points_margin.to_json("mean"),
        }


def duplicate_match(
    policy_a: str = "heuristic",
    policy_b: str = "random",
    *,
    deals: int = 200_000,
    seed: int = 1,
    rules: Rules | None = None,
    threads: int | None = None,
    chunk_size: int | None = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
) -> DuplicateResult:
    """Play every deal twice, A as team 0 then A as team 1, so the luck of the deal cancels.

    Each deal's two hands give one paired margin; the standard error comes from the spread of those
    pairs over the deals.
    """
    rules = rules or Rules()
    a, b = parse_policies([policy_a, policy_b])
    job = Job("duplicate_hands", seed, deals, (rules.to_array(), policy_array((a, b))), label="--deals")
    result = run(job, threads=threads, chunk_size=chunk_size, progress=progress, executor=executor)
    sums = result.counts
    seconds = result.seconds
    # Each sum is over deals of the pair total (two hands), so halve for a per-hand margin.
    score = mean_from_sums(deals, sums[0], sums[1])
    points = mean_from_sums(deals, sums[2], sums[3])
    return DuplicateResult(
        a, b, deals, seed, rules,
        Estimate(score.value / 2, score.se / 2), Estimate(points.value / 2, points.se / 2), seconds,
    )
