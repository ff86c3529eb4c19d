"""Double-dummy values of hand records: the engine behind ``smear-sim solve``.

A record whose ``plays`` stop anywhere is replayed by the reference engine (which checks every call,
discard and card), then the position is rebuilt as a kernel hand state by playing the same cards from the
first lead (:func:`smear_sim.analysis.bridge.hand_state`, re-exported here), and the solver (:mod:`smear_sim.kernels.solver`) values it with every hand visible.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.cards import card_name
from ..reference.record import Position, parse_record, replay_position
from .bridge import hand_state

__all__ = ["SolveResult", "hand_state", "solve_position", "solve_record"]


@dataclass(frozen=True)
class SolveResult:
    """The value of a position for the bidding team, and of each legal card of the seat to play."""

    to_play: int | None  # None when all 24 cards are played
    value: int
    cards: tuple[tuple[int, int], ...]  # (card, value), cards in code order

    def to_json(self) -> dict[str, Any]:
        return {
            "to_play": self.to_play,
            "value": self.value,
            "cards": [{"card": card_name(c), "value": v} for c, v in self.cards],
        }


def solve_position(position: Position) -> SolveResult:
    """Solve a replayed position double dummy."""
    from ..kernels import solver

    rules = position.record.rules.to_array()
    values = np.zeros(54, dtype=np.int64)
    value = int(solver.solve(solver.new_solver(), hand_state(position), rules, values))
    return SolveResult(position.to_play, value, tuple((c, int(values[c])) for c in position.legal()))


def solve_record(obj: Any, settings: Mapping[str, Any] | None = None) -> SolveResult:
    """Check a hand record whose ``plays`` may stop early, and solve it: ``smear-sim solve``."""
    return solve_position(replay_position(parse_record(obj, settings, partial=True)))
