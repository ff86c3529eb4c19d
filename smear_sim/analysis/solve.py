"""Double-dummy values of hand records: the engine behind ``smear-sim solve``.

A record whose ``plays`` stop anywhere is replayed by the reference engine (which checks every call,
discard and card), then the position is rebuilt as a kernel hand state by playing the same cards from the
first lead, and the solver (:mod:`smear_sim.kernels.solver`) values it with every hand visible.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.calls import parse_call
from ..core.cards import card_name, mask_of
from ..core.layout import ST_SIZE
from ..reference.record import Position, parse_record, replay_position

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


def hand_state(position: Position) -> np.ndarray:
    """The kernel hand state (``ST_*`` layout) of a replayed position: the kept hands at the first lead, then
    each card of the record played by the kernel's own :func:`~smear_sim.kernels.state.apply_card`."""
    from ..kernels import state as ks

    record = position.record
    known = [mask_of(record.hands[s]) | (mask_of(record.kitty) if s == position.bidder else 0) for s in range(4)]
    hs = np.zeros(ST_SIZE, dtype=np.int64)
    ks.start_play(hs, np.array([mask_of(h) for h in position.start], dtype=np.uint64),
                  np.array(known, dtype=np.uint64), record.trump, position.bidder, parse_call(position.bid),
                  record.scores_before[0], record.scores_before[1])
    rules = record.rules.to_array()
    for c in record.plays or ():
        ks.apply_card(hs, c, rules)
    return hs


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
