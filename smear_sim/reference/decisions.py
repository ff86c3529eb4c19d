"""The decisions of a played hand, in the order they were made: what a review (``smear-sim review``) grades.

A hand record holds every choice its four players made: each call of the auction, the bidder's trump, every
seat's six cards kept (the bidder's from thirteen) and each card played. :func:`decisions_of` walks a checked
record through the reference engine and lists them as :class:`Decision` values: the seat, the kind of decision
(``call``, ``trump``, ``keep``, ``card``), the trick it belongs to, the action taken (written as in a record,
docs/formats.md) and how many legal actions the seat had. Discards are made face down and at once; they are
listed from the bidder on, clockwise, right after the bidder's trump.

:meth:`Decision.view` cuts the record down to what that seat saw when it chose: a seat's view
(:func:`smear_sim.reference.view.view_of`; docs/formats.md, "A seat's view").
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from ..core.cards import SUIT_NAMES, card_name
from . import hand as ref
from .record import HandRecord, replay, replay_position
from .view import SeatView, view_of

__all__ = ["DECISION_KINDS", "Decision", "DecisionKind", "decisions_of"]

DecisionKind = Literal["call", "trump", "keep", "card"]
DECISION_KINDS: tuple[DecisionKind, ...] = ("call", "trump", "keep", "card")


@dataclass(frozen=True)
class Decision:
    """One decision of a hand record: who made it, of what kind, what they did and how much choice they had.

    ``calls`` and ``plays`` are how many calls and cards of the record came before it (what the seat saw of the
    auction and the play); ``trick`` is the trick (1-6) a card decision belongs to, None for the others.
    """

    seat: int
    kind: DecisionKind
    taken: Any  # as in a record: a call (int, "pass", "moon"), a suit letter, a list of 6 cards, a card
    legal: int  # the number of legal actions the seat had
    calls: int
    plays: int = 0
    trick: int | None = None

    @property
    def has_choice(self) -> bool:
        """Whether the seat had more than one legal action (only those are graded)."""
        return self.legal > 1

    def view(self, record: HandRecord) -> SeatView:
        """The seat's view of ``record`` at this decision (:func:`smear_sim.reference.view.view_of`): only what the
        seat could see, the calls, trump and cards played before it."""
        if self.kind == "call":
            return view_of(record, self.seat, bids=self.calls)
        if self.kind == "trump":
            return view_of(record, self.seat, trump=False)
        if self.kind == "keep":
            return view_of(record, self.seat, discards=False)
        return view_of(record, self.seat, plays=self.plays)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "decision": self.kind, "trick": self.trick, "taken": self.taken,
                "legal": self.legal}


def _bidder(record: HandRecord) -> int | None:
    won = ref.auction_winner(record.bids)
    return None if won is None else ref.seat_of_bid(record.dealer, won[0])


def decisions_of(record: HandRecord) -> list[Decision]:
    """Every decision of a complete hand record, in the order made, those with one legal action included (see
    :attr:`Decision.has_choice`). The record is checked first (:func:`smear_sim.reference.record.replay`): a
    :class:`~smear_sim.core.errors.RecordError` names its first problem."""
    replay(record)
    return list(_walk(record))


def _walk(record: HandRecord) -> Iterator[Decision]:
    rules = record.rules
    for position, call in enumerate(record.bids):
        seat = ref.seat_of_bid(record.dealer, position)
        yield Decision(seat, "call", call, len(ref.legal_bids(rules, record.bids[:position])), position)
    bidder = _bidder(record)
    if bidder is None:
        return  # thrown in: the auction was the whole hand
    assert record.trump is not None and record.discards is not None and record.plays is not None
    yield Decision(bidder, "trump", SUIT_NAMES[record.trump], len(SUIT_NAMES), 4)
    for k in range(4):
        seat = (bidder + k) % 4
        held = list(record.hands[seat]) + (list(record.kitty) if seat == bidder else [])
        kept = sorted(set(held) - set(record.discards[seat]))
        choices = sum(1 for _ in ref.legal_keeps(held, record.trump))
        yield Decision(seat, "keep", [card_name(c) for c in kept], choices, 4)

    position = replay_position(record)
    held = [set(cards) for cards in position.start]
    trick: list[int] = []
    leader = bidder
    for number, c in enumerate(record.plays):
        seat = (leader + len(trick)) % 4
        legal = ref.legal_plays(rules, held[seat], trick, record.trump)
        yield Decision(seat, "card", card_name(c), len(legal), 4, number, number // 4 + 1)
        held[seat].discard(c)
        trick.append(c)
        if len(trick) == 4:
            leader = (leader + ref.trick_winner(trick, record.trump)) % 4
            trick = []
