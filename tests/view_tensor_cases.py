"""Every decision of a hand record, as a seat's view (reference) and as a kernel hand state (kernels).

The view tensor's two forms are held to each other on these: :func:`reference_decisions` cuts a record into the
seats' views at each decision (:func:`smear_sim.reference.view.view_of`), and :func:`kernel_decisions` walks the same
hand with the kernels' own verbs (:func:`~smear_sim.kernels.net.tensor.before_play_state`,
:func:`~smear_sim.kernels.state.start_play`, :func:`~smear_sim.kernels.state.play_card`), yielding the state at the
same decisions in the same order.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from smear_sim.core.calls import parse_call
from smear_sim.core.cards import mask_of
from smear_sim.core.layout import PASS, R_TRUMP_ANYTIME, ST_SIZE
from smear_sim.kernels.net import before_play_state, set_auction
from smear_sim.kernels.state import play_card, start_play, to_play
from smear_sim.reference import hand as ref
from smear_sim.reference.record import HandRecord
from smear_sim.reference.view import SeatView, view_of

__all__ = ["kernel_decisions", "reference_decisions"]


def _bidder(record: HandRecord) -> int | None:
    won = ref.auction_winner(record.bids)
    return None if won is None else ref.seat_of_bid(record.dealer, won[0])


def reference_decisions(record: HandRecord) -> Iterator[tuple[str, SeatView]]:
    """(label, view) at each decision of the record: the 4 calls, trump, the 4 keeps, the 24 cards."""
    for p in range(4):
        yield f"call {p}", view_of(record, ref.seat_of_bid(record.dealer, p), bids=p)
    bidder = _bidder(record)
    if bidder is None:
        return
    yield "trump", view_of(record, bidder, trump=False)
    for seat in range(4):
        yield f"keep {seat}", view_of(record, seat, discards=False)
    assert record.plays is not None
    leader = bidder
    trick: list[int] = []
    for k, c in enumerate(record.plays):
        seat = (leader + len(trick)) % 4
        yield f"card {k}", view_of(record, seat, plays=k)
        trick.append(c)
        if len(trick) == 4:
            leader = (leader + ref.trick_winner(trick, record.trump)) % 4
            trick = []


def kernel_decisions(record: HandRecord, rules_array: np.ndarray) -> Iterator[tuple[str, int, np.ndarray, int]]:
    """(label, seat, hand state, kitty mask) at the decisions of :func:`reference_decisions`, in its order. The
    state is one array, changed in place from one decision to the next: read it before taking the next."""
    hs = np.zeros(ST_SIZE, dtype=np.int64)
    dealer = np.int64(record.dealer)
    s0, s1 = (np.int64(s) for s in record.scores_before)
    calls = np.array([parse_call(b) for b in record.bids], dtype=np.int64)
    hands = [np.uint64(mask_of(h)) for h in record.hands]
    kitty = np.uint64(mask_of(record.kitty))
    none = np.int64(-1)
    for p in range(4):
        seat = ref.seat_of_bid(record.dealer, p)
        before_play_state(hs, np.int64(seat), hands[seat], dealer, calls, np.int64(p), s0, s1, none, np.int64(PASS),
                          none)
        yield f"call {p}", seat, hs, kitty
    bidder = _bidder(record)
    if bidder is None:
        return
    won = ref.auction_winner(record.bids)
    assert won is not None and record.trump is not None and record.discards is not None and record.plays is not None
    bid = np.int64(parse_call(won[1]))
    known = np.array(hands, dtype=np.uint64)
    known[bidder] |= kitty
    b, t = np.int64(bidder), np.int64(record.trump)
    before_play_state(hs, b, known[bidder], dealer, calls, np.int64(4), s0, s1, b, bid, none)
    yield "trump", bidder, hs, kitty
    for seat in range(4):
        before_play_state(hs, np.int64(seat), known[seat], dealer, calls, np.int64(4), s0, s1, b, bid, t)
        yield f"keep {seat}", seat, hs, kitty
    kept = np.array([known[s] & ~np.uint64(mask_of(record.discards[s])) for s in range(4)], dtype=np.uint64)
    start_play(hs, kept, known, t, b, bid, s0, s1)
    set_auction(hs, dealer, calls, np.int64(4))
    anytime = np.bool_(rules_array[R_TRUMP_ANYTIME] == 1)
    for k, c in enumerate(record.plays):
        yield f"card {k}", int(to_play(hs)), hs, kitty
        play_card(hs, np.int64(c), anytime)
