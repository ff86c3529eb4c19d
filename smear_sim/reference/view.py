"""A seat's view: a hand record in progress as one seat sees it at its turn (docs/formats.md, "A seat's view").

:func:`parse_view` reads the view's JSON into a :class:`SeatView`, keeping only what the seat can see: its own
9 cards, the kitty when it won the auction, the calls, trump, its own discards and the cards played. The other
seats' ``hands`` and ``discards`` entries are never read, whatever they hold, so that nothing the seat cannot see
can change an answer given from its view. The view is then checked as far as the seat can check it, by the
reference engine: each call is legal where it was made, its own discards keep a legal six, its own plays follow
suit, and every card played by another seat was still unseen by this one, and of a suit that seat had not shown
void in. The seat must be the one whose decision is due (:func:`decision_of`); anything else is a
:class:`RecordError` naming whose turn it is and what is due.

:func:`view_of` cuts a complete :class:`~smear_sim.reference.record.HandRecord` down to one seat's view at a
point of the hand, which is how a review asks for a hint at every decision of a played hand.
:func:`legal_actions` lists the seat's legal actions, written as in a record.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..core.cards import SUIT_NAMES, SUIT_WORDS, card_name, parse_suit
from ..core.errors import CardError, IllegalAction, RecordError
from ..core.rules import Rules
from . import hand as ref
from .hand import MOON, PASS, Bid, Trick
from .record import HandRecord, _cards, _is_int, _record_rules

__all__ = [
    "CALL",
    "CARD",
    "DECISIONS",
    "KEEP",
    "TRUMP",
    "SeatView",
    "ViewPlay",
    "decision_of",
    "legal_actions",
    "parse_view",
    "view_of",
]

CALL, TRUMP, KEEP, CARD = "call", "trump", "keep", "card"
DECISIONS = (CALL, TRUMP, KEEP, CARD)
_DUE = {CALL: "call", TRUMP: "name trump", KEEP: "choose the cards to keep", CARD: "play a card"}


@dataclass(frozen=True)
class ViewPlay:
    """The card play as the seat sees it: the tricks so far, the trick in progress, what each seat played and
    the voids each seat has shown (``voids[seat]`` holds effective suits)."""

    start: tuple[int, ...]  # the seat's own 6 kept cards at the first lead, sorted
    held: tuple[int, ...]  # the seat's own cards now, sorted
    tricks: tuple[Trick, ...]
    trick: tuple[int, ...]  # the trick in progress, in play order
    leader: int  # the seat that led (or leads) the trick in progress
    played: tuple[tuple[int, ...], ...]  # per seat, the cards it played, in order
    voids: tuple[frozenset[int], ...]

    @property
    def to_play(self) -> int | None:
        return None if len(self.tricks) == 6 else (self.leader + len(self.trick)) % 4


@dataclass(frozen=True)
class SeatView:
    """What ``seat`` sees at its turn. Cards are codes, ``trump`` a suit index; ``kitty`` is None unless the seat
    won the auction, ``discards`` (its own) None until given, ``plays`` every card played in order."""

    rules: Rules
    dealer: int
    scores_before: tuple[int, int]
    seat: int
    hand: tuple[int, ...]
    kitty: tuple[int, ...] | None
    bids: tuple[Bid, ...]
    trump: int | None = None
    discards: tuple[int, ...] | None = None
    plays: tuple[int, ...] = ()

    # -- what follows from it --------------------------------------------------------------------------

    @property
    def auction_over(self) -> bool:
        return len(self.bids) == 4

    @property
    def bidder(self) -> int | None:
        """The seat that won the auction, None while it is on (or when all four passed)."""
        won = ref.auction_winner(self.bids) if self.auction_over else None
        return None if won is None else ref.seat_of_bid(self.dealer, won[0])

    @property
    def bid(self) -> Bid | None:
        won = ref.auction_winner(self.bids) if self.auction_over else None
        return None if won is None else won[1]

    @property
    def team(self) -> int:
        return self.seat & 1

    @property
    def position(self) -> int:
        """The seat's place in the auction: 1 the opener (left of the dealer) .. 4 the dealer."""
        return (self.seat - self.dealer - 1) % 4 + 1

    @property
    def held_before_play(self) -> tuple[int, ...]:
        """The cards the seat held before discarding: its 9, and the kitty's 4 when it is the bidder."""
        return tuple(self.hand) + (tuple(self.kitty) if self.kitty is not None else ())

    @property
    def known(self) -> frozenset[int]:
        """Every card the seat has seen in its own hands: its 9, the kitty when it is the bidder."""
        return frozenset(self.held_before_play)

    @cached_property
    def play(self) -> ViewPlay | None:
        """The card play so far, None before the seat's own discards are given."""
        return _replay_plays(self) if self.trump is not None and self.discards is not None else None

    @property
    def decision(self) -> str:
        return decision_of(self)

    def to_json(self) -> dict[str, Any]:
        """The view's JSON (docs/formats.md) with the other seats' hands and discards null."""
        obj: dict[str, Any] = {
            "rules": self.rules.changed(),
            "dealer": self.dealer,
            "scores_before": list(self.scores_before),
            "seat": self.seat,
            "hands": [[card_name(c) for c in self.hand] if s == self.seat else None for s in range(4)],
            "kitty": [card_name(c) for c in self.kitty] if self.kitty is not None else None,
            "bids": list(self.bids),
        }
        if self.trump is not None:
            obj["trump"] = SUIT_NAMES[self.trump]
            own = [card_name(c) for c in self.discards] if self.discards is not None else None
            obj["discards"] = [own if s == self.seat else None for s in range(4)]
            obj["plays"] = [card_name(c) for c in self.plays]
        return obj


# -- reading a view ------------------------------------------------------------------------------------


def _given(obj: Mapping[str, Any], key: str) -> str:
    """What the view gives for ``key``, as its JSON spells it: "but the view has none" where the key is missing,
    "got null" (never Python's None) where it is null."""
    if key not in obj:
        return "but the view has none"
    try:
        return f"got {json.dumps(obj[key], ensure_ascii=False)}"
    except (TypeError, ValueError):
        return f"got {obj[key]!r}"


def parse_view(obj: Any, settings: Mapping[str, Any] | None = None) -> SeatView:
    """Read and check a view's JSON object (module docstring); ``settings`` are rule options set outside it, as
    for :func:`smear_sim.reference.record.parse_record`. Raises :class:`RecordError` with one line."""
    if not isinstance(obj, Mapping):
        raise RecordError("a view is a JSON object with seat, dealer, hands, bids (see docs/formats.md)")
    rules = _record_rules(obj.get("rules"), settings or {})
    seat = obj.get("seat")
    if not _is_int(seat) or not 0 <= seat <= 3:
        raise RecordError(f"seat must be the seat 0-3 whose decision is asked, {_given(obj, 'seat')}")
    dealer = obj.get("dealer")
    if not _is_int(dealer) or not 0 <= dealer <= 3:
        raise RecordError(f"dealer must be a seat 0-3, {_given(obj, 'dealer')}")
    scores = obj.get("scores_before", [0, 0])
    if not (isinstance(scores, list) and len(scores) == 2 and all(_is_int(s) for s in scores)):
        raise RecordError(f"scores_before must be two whole numbers [team 0, team 1], got {scores!r}")
    hands = obj.get("hands")
    if not isinstance(hands, list) or len(hands) != 4:
        raise RecordError("hands must have 4 entries, one per seat: the seat's own 9 cards, null for the others")
    if hands[seat] is None:
        raise RecordError(f"hands[{seat}] is null: the view needs seat {seat}'s own 9 cards")
    hand = _cards(hands[seat], f"hands[{seat}]", 9)

    bids = obj.get("bids", [])
    if bids is None:
        bids = []
    if not isinstance(bids, list) or len(bids) > 4:
        raise RecordError("bids must list the calls so far (at most four), opener first, e.g. [2, \"pass\"]")
    calls: list[Bid] = []
    for i, bid in enumerate(bids):
        if isinstance(bid, str) and bid.lower() in (PASS, MOON):
            call: Bid = bid.lower()  # type: ignore[assignment]
        elif _is_int(bid):
            call = bid
        else:
            raise RecordError(f"bids[{i}] is {bid!r}: each call is a whole number, \"pass\" or \"moon\"")
        try:
            ref.verify_bid(rules, calls, call)
        except IllegalAction as exc:
            raise RecordError(f"bids[{i}] (seat {ref.seat_of_bid(dealer, i)}) {call!r} is illegal: {exc}") from None
        calls.append(call)

    later = [key for key in ("trump", "plays") if obj.get(key) not in (None, [])]
    own_discards = _own_entry(obj, "discards", seat)
    if own_discards is not None:
        later.append(f"discards[{seat}]")
    if (len(calls) < 4 or ref.thrown_in(calls)) and later:
        why = "the auction is still on" if len(calls) < 4 else "all four passed, so the hand was thrown in"
        raise RecordError(f"the view gives {', '.join(later)} but {why}; remove them")
    won = ref.auction_winner(calls) if len(calls) == 4 else None
    bidder = None if won is None else ref.seat_of_bid(dealer, won[0])

    kitty = None
    if bidder == seat:
        if obj.get("kitty") is None:
            raise RecordError(f"seat {seat} won the auction and took the kitty: the view needs its 4 cards")
        kitty = _cards(obj["kitty"], "kitty", 4)
        for c in kitty:
            if c in hand:
                raise RecordError(f"card {card_name(c)} is dealt twice: in hands[{seat}] and in the kitty")

    trump = None
    if obj.get("trump") is not None:
        value = obj["trump"]
        try:
            trump = parse_suit(value) if isinstance(value, str) and len(value.strip()) == 1 else None
        except CardError:
            trump = None
        if trump is None:
            raise RecordError(f"trump must be one of S H D C, got {value!r}")
    plays_obj = obj.get("plays")
    plays = _cards(plays_obj, "plays", 24, allow_duplicates=True, at_most=True) if plays_obj is not None else ()
    if trump is None and (plays or own_discards is not None):
        raise RecordError("the view gives discards or plays but no trump; the bidder names trump first")

    discards = None
    if own_discards is not None:
        assert trump is not None
        size = 7 if seat == bidder else 3
        discards = _cards(own_discards, f"discards[{seat}]", size)
        held = hand + (kitty or ())
        try:
            ref.verify_discard(held, discards, trump)
        except IllegalAction as exc:
            role = "the bidder, holding 13 with the kitty" if seat == bidder else f"seat {seat}"
            raise RecordError(f"discards[{seat}] ({role}) with trump {SUIT_NAMES[trump]}: {exc}") from None
    elif plays:
        raise RecordError(f"play has begun, so the view needs discards[{seat}], seat {seat}'s own discards")

    view = SeatView(rules, dealer, (scores[0], scores[1]), seat, hand, kitty, tuple(calls), trump, discards, plays)
    decision_of(view)  # replays and checks the plays; raises when it is not the seat's turn
    return view


def _own_entry(obj: Mapping, key: str, seat: int) -> Any:
    """The seat's own entry of ``hands``/``discards`` (the others are never read), None if absent."""
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 4:
        raise RecordError(f"{key} must have 4 entries, one per seat (null for the seats you cannot see)")
    return value[seat]


def _replay_plays(view: SeatView) -> ViewPlay:
    """Walk the plays as the seat sees them, checking each as far as the seat can (module docstring)."""
    rules, trump, seat = view.rules, view.trump, view.seat
    assert trump is not None and view.discards is not None and view.bidder is not None
    own = set(view.held_before_play) - set(view.discards)
    start = tuple(sorted(own))
    seen_elsewhere = set(view.held_before_play)  # the seat's own cards, kept or not
    played: list[list[int]] = [[], [], [], []]
    voids: list[set[int]] = [set(), set(), set(), set()]
    done: set[int] = set()
    tricks: list[Trick] = []
    cards: list[int] = []
    leader = view.bidder
    for number, c in enumerate(view.plays):
        t, i = divmod(number, 4)
        who = (leader + i) % 4
        where = f"play {number + 1} (trick {t + 1}, seat {who})"
        if c in done:
            raise RecordError(f"{where}: {card_name(c)} was already played")
        if who == seat:
            try:
                ref.verify_play(rules, own, cards, trump, c)
            except IllegalAction as exc:
                raise RecordError(f"{where}: {exc}") from None
            own.discard(c)
        else:
            if c in seen_elsewhere:
                place = "kept" if c in start else ("discarded" if c in view.discards else "held")
                raise RecordError(f"{where}: {card_name(c)} is seat {seat}'s own card ({place}), so seat {who} "
                                  "cannot play it")
            suit = ref.effective_suit(c, trump)
            if suit in voids[who]:
                word = "trump" if suit == trump else SUIT_WORDS[suit]
                raise RecordError(f"{where}: seat {who} showed it held no {word} earlier, so it cannot play "
                                  f"{card_name(c)}")
            if len(played[who]) >= 6:
                raise RecordError(f"{where}: seat {who} has played its 6 cards")
        if cards:
            led = ref.effective_suit(cards[0], trump)
            suit = ref.effective_suit(c, trump)
            if suit != led and not (rules.trump_anytime and suit == trump):
                voids[who].add(led)
        played[who].append(c)
        done.add(c)
        cards.append(c)
        if len(cards) == 4:
            winner = (leader + ref.trick_winner(cards, trump)) % 4
            tricks.append(Trick(leader, tuple(cards), winner))
            leader = winner
            cards = []
    return ViewPlay(start, tuple(sorted(own)), tuple(tricks), tuple(cards), leader,
                    tuple(tuple(p) for p in played), tuple(frozenset(v) for v in voids))


# -- the decision due ----------------------------------------------------------------------------------


def decision_of(view: SeatView) -> str:
    """The seat's decision: ``"call"``, ``"trump"``, ``"keep"`` or ``"card"``. Raises :class:`RecordError` when
    it is not the seat's turn (naming whose it is and what is due) or when no decision is due."""
    seat = view.seat
    if not view.auction_over:
        return _turn(view, ref.seat_of_bid(view.dealer, len(view.bids)), CALL)
    bidder = view.bidder
    if bidder is None:
        raise RecordError("all four passed, so the hand was thrown in: no decision is due")
    if view.trump is None:
        return _turn(view, bidder, TRUMP)
    if view.discards is None:
        return KEEP  # every seat discards at once, once trump is named
    play = view.play
    assert play is not None
    if play.to_play is None:
        raise RecordError("all 24 cards are played: the hand is over and no decision is due")
    if play.to_play != seat:
        return _turn(view, play.to_play, CARD)
    return CARD


def _turn(view: SeatView, due: int, decision: str) -> str:
    if due != view.seat:
        raise RecordError(f"not seat {view.seat}'s turn: it is seat {due}'s, to {_DUE[decision]}")
    return decision


def legal_actions(view: SeatView) -> list:
    """The seat's legal actions, written as in a record: a call (a number, ``"pass"`` or ``"moon"``); a trump
    suit letter (each paired with its six cards to keep by a hint); a keep (a sorted list of six card names);
    a card name. Sorted as the reference engine lists them."""
    decision = decision_of(view)
    if decision == CALL:
        return list(ref.legal_bids(view.rules, view.bids))
    if decision == TRUMP:
        return list(SUIT_NAMES)
    if decision == KEEP:
        assert view.trump is not None
        return [[card_name(c) for c in keep] for keep in ref.legal_keeps(view.held_before_play, view.trump)]
    play = view.play
    assert play is not None and view.trump is not None
    return [card_name(c) for c in ref.legal_plays(view.rules, play.held, play.trick, view.trump)]


# -- cutting a record down to a view -------------------------------------------------------------------


def view_of(record: HandRecord, seat: int, *, bids: int = 4, trump: bool = True, discards: bool = True,
            plays: int | None = None) -> SeatView:
    """``seat``'s view of a (complete or partial) hand record after its first ``bids`` calls and, once the
    auction is over, with trump named or not (``trump``), the seat's own discards given or not (``discards``)
    and the first ``plays`` cards played (None: all in the record). The other seats' cards are left out, and
    the view is checked like one read by :func:`parse_view` (so it must be ``seat``'s turn).

    The decisions of a hand, as views: the call at place ``p`` (0-3) is ``view_of(r, seat, bids=p)``; trump
    is ``view_of(r, bidder, trump=False)``; a seat's keep is ``view_of(r, seat, discards=False)``; the ``k``-th
    card played (0-23) is ``view_of(r, seat, plays=k)`` with ``seat`` the one that played it.
    """
    obj: dict[str, Any] = {
        "rules": record.rules.changed(),
        "dealer": record.dealer,
        "scores_before": list(record.scores_before),
        "seat": seat,
        "hands": [[card_name(c) for c in record.hands[s]] if s == seat else None for s in range(4)],
        "kitty": [card_name(c) for c in record.kitty],
        "bids": list(record.bids[:bids]),
    }
    if bids >= 4 and trump and record.trump is not None:
        obj["trump"] = SUIT_NAMES[record.trump]
        if discards and record.discards is not None:
            obj["discards"] = [[card_name(c) for c in record.discards[seat]] if s == seat else None
                               for s in range(4)]
            shown = record.plays or ()
            obj["plays"] = [card_name(c) for c in (shown if plays is None else shown[:plays])]
    return parse_view(obj)
