"""What follows from the rules, as the kernels read it: each fact worked out from the rules array in one place
(the facts themselves are :mod:`smear_sim.core.rules`'s), so that a rule option changes it here only.
"""

from __future__ import annotations

from numba import njit

from ..core.layout import R_ROUND_POINTS
from ..core.rules import STAKE_PLAIN, STAKE_ROUND_POINTS

__all__ = ["points_at_stake"]


@njit(cache=True, inline="always")
def points_at_stake(rules):
    """M, the points at stake in a hand under the rules array ``rules`` (:attr:`smear_sim.core.rules.Rules.
    max_points`)."""
    return STAKE_ROUND_POINTS if rules[R_ROUND_POINTS] == 1 else STAKE_PLAIN
