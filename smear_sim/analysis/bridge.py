"""The one place where the reference engine meets the kernels: a position the reference engine replayed, or a seat's
view of one, as the kernels' hand state (``ST_*`` layout, :mod:`smear_sim.kernels.state`).

Both are built the same way (:func:`start_state`): the hands as they stood at the first lead, started by the kernel's
own :func:`~smear_sim.kernels.state.start_play`, then each card of the record played by its
:func:`~smear_sim.kernels.state.apply_card`, so that the state is the one a simulated hand reaches with those cards.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core.calls import parse_call
from ..core.cards import mask_of
from ..core.layout import ST_SIZE
from ..core.rules import Rules
from ..reference.record import Position
from ..reference.view import SeatView

__all__ = ["hand_state", "start_state", "view_state"]


def start_state(kept: Sequence[int], known: Sequence[int], trump: int, bidder: int, bid: int | str,
                scores_before: tuple[int, int], plays: Sequence[int], rules: Rules) -> np.ndarray:
    """The kernel hand state of a hand whose seats held ``kept`` (card masks) at the first lead, each having seen
    ``known`` before play, with trump, bidder and bid (a call as a record writes it), after ``plays``."""
    from ..kernels import state as ks

    hs = np.zeros(ST_SIZE, dtype=np.int64)
    ks.start_play(hs, np.array(kept, dtype=np.uint64), np.array(known, dtype=np.uint64), trump, bidder,
                  parse_call(bid), scores_before[0], scores_before[1])
    array = rules.to_array()
    for c in plays:
        ks.apply_card(hs, c, array)
    return hs


def hand_state(position: Position) -> np.ndarray:
    """The kernel hand state of a replayed position: the kept hands at the first lead, every seat having seen its own
    hand (and the bidder the kitty), then each card of the record played."""
    record = position.record
    known = [mask_of(record.hands[s]) | (mask_of(record.kitty) if s == position.bidder else 0) for s in range(4)]
    return start_state([mask_of(h) for h in position.start], known, record.trump, position.bidder, position.bid,
                       record.scores_before, record.plays or (), record.rules)


def view_state(view: SeatView) -> np.ndarray:
    """The kernel hand state of a seat's view during play: the seat's own cards true, each other seat holding the
    cards it played and the lowest of the cards this seat has not seen (any do: the worlds re-deal them)."""
    play = view.play
    assert play is not None and view.trump is not None and view.bidder is not None
    seen = set(view.held_before_play) | set(view.plays)
    spare = [c for c in range(54) if c not in seen]
    kept, known = [], []
    for s in range(4):
        if s == view.seat:
            kept.append(mask_of(play.start))
            known.append(mask_of(view.held_before_play))
            continue
        fill = spare[: 6 - len(play.played[s])]
        spare = spare[len(fill):]
        kept.append(mask_of(list(play.played[s]) + fill))
        known.append(0)
    return start_state(kept, known, view.trump, view.bidder, view.bid, view.scores_before, view.plays, view.rules)
