"""The distribution of one hand's outcome: the input of the match-equity table
(:mod:`smear_sim.analysis.match_equity`).

**Hand outcomes.** Many hands are simulated (:func:`hand_outcomes`), each dealt in turn by every seat, and
each outcome is counted from the dealing team's side (layout ``OUT_*``): thrown in; or which side bid, and
for a number the bidding team's score change and the other team's points, for the moon success (with the
other team's points) or failure. With one policy at all four seats, a hand dealt by either team has the
same distribution seen from the dealer, so every hand counts for both.

**Scores and the policy's bidding.** The hand-outcome distribution is measured once, with the dealing team and
the other team at the scores ``scores`` (0-0 by default) as the policy sees them in its bidding. That is exact
for a policy whose play does not depend on the score, such as ``heuristic`` and ``random``. A score-aware
policy would need the distribution at every state: :func:`smear_sim.kernels.equity.solve_chain` takes one row of probabilities per
state, so only the counting changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from ..core import layout as L
from ..core.rules import Rules
from ..engine.jobs import hand_outcomes_job
from .plan import RunPlan

if TYPE_CHECKING:

    pass

__all__ = [
    "DEFAULT_HANDS",
    "HandOutcomes",
    "decode_outcomes",
    "hand_outcomes",
    "outcome_points",
]


DEFAULT_HANDS = 200_000


@dataclass(frozen=True)
class HandOutcomes:
    """A histogram of one hand's outcome (layout ``OUT_*``, from the dealing team's side)."""

    counts: np.ndarray  # [N_OUTCOMES] int64
    seed: int
    policy: str
    rules: Rules
    scores: tuple[int, int] = (0, 0)  # the dealing team's and the other team's scores the hands were bid at
    seconds: float = field(default=0.0, compare=False)

    @property
    def hands(self) -> int:
        return int(self.counts.sum())

    @cached_property
    def decoded(self) -> dict[str, np.ndarray]:
        """For each code with a count: ``code``, the fields of :func:`decode_outcomes` and ``p``, its frequency."""
        codes = np.flatnonzero(self.counts)
        return {"code": codes, **decode_outcomes(codes), "p": self.counts[codes] / self.counts.sum()}


def decode_outcomes(codes: np.ndarray) -> dict[str, np.ndarray]:
    """The fields of hand outcome codes (layout ``OUT_*``): ``kind`` (0 thrown in, 1 number, 2 moon made, 3 moon
    failed), ``side`` (0: the team the codes are seen from bid), ``delta`` (a number's bidding-team score change)
    and ``other`` (the other team's points)."""
    codes = np.asarray(codes)
    kind = np.zeros(len(codes), dtype=np.int64)
    side = np.zeros_like(kind)
    delta = np.zeros_like(kind)
    other = np.zeros_like(kind)
    width = L.OUT_MAX + 1
    numeric = (codes >= L.OUT_NUMERIC) & (codes < L.OUT_MOON_MADE)
    x = codes[numeric] - L.OUT_NUMERIC
    kind[numeric] = 1
    other[numeric] = x % width
    side[numeric] = (x // width) // (2 * L.OUT_MAX + 1)
    delta[numeric] = (x // width) % (2 * L.OUT_MAX + 1) - L.OUT_MAX
    made = (codes >= L.OUT_MOON_MADE) & (codes < L.OUT_MOON_FAILED)
    kind[made] = 2
    side[made] = (codes[made] - L.OUT_MOON_MADE) // width
    other[made] = (codes[made] - L.OUT_MOON_MADE) % width
    failed = codes >= L.OUT_MOON_FAILED
    kind[failed] = 3
    side[failed] = codes[failed] - L.OUT_MOON_FAILED
    return {"kind": kind, "side": side, "delta": delta, "other": other}


def outcome_points(target: int) -> np.ndarray:
    """Each outcome code's points for the team it is seen from: its hand score minus the other team's, whoever bid.
    A moon counts the game it decides, +target made and -target failed for the team that shot it (as the hand
    analysis counts it)."""
    f = decode_outcomes(np.arange(L.N_OUTCOMES))
    sign = np.where(f["side"] == 0, 1, -1)
    points = np.select([f["kind"] == 1, f["kind"] == 2, f["kind"] == 3],
                       [sign * (f["delta"] - f["other"]), sign * target, -sign * target], 0)
    return points.astype(np.int64)


def hand_outcomes(
    hands: int = DEFAULT_HANDS,
    *,
    seed: int = 1,
    scores: tuple[int, int] = (0, 0),
    plan: RunPlan,
) -> HandOutcomes:
    """Count the outcomes of ``hands`` hands, the dealing team at ``scores[0]`` and the other at ``scores[1]``.

    ``model`` (the Python API's keyword for the plan's ``bidder_arrays``) is the equity bidder's arrays for the policy
    (by default :func:`smear_sim.analysis.session_tables.player_bidder_arrays`'s);
    ``checkpoint`` saves finished chunks for a resumed run (:mod:`smear_sim.engine.checkpoint`). ``plan`` says who
    plays, under which rules, and how the run goes (:class:`smear_sim.analysis.plan.RunPlan`).
    """
    policy = plan.one_policy("the equity table plays")
    job = hand_outcomes_job(players=plan.players, seed=seed, hands=hands, scores=scores)
    result = plan.run(job)
    return HandOutcomes(result.counts, seed, policy, plan.rules, scores, result.seconds)
