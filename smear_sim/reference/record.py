"""Hand and game records (docs/formats.md): reading, checking and replaying them through the reference engine.

:func:`parse_record` turns the JSON object into a typed :class:`HandRecord`, checking its shape and its
cards. :func:`replay` then walks the hand through the rules (auction, discards, every play) with the
reference engine and scores it. Both raise :class:`RecordError` with one line naming the first problem.

A game record (recognised by its ``deals``) is a sequence of hand records; :func:`parse_game_record` and
:func:`replay_game` check each deal the same way and the game around them (:mod:`smear_sim.reference.game`:
the dealer, the scores carried, no hand after the end), naming the deal number in every message.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.cards import SUIT_NAMES, card_name, format_hand, parse_card, parse_suit
from ..core.errors import CardError, IllegalAction, RecordError, RulesError
from ..core.io import read_input
from ..core.rules import Rules, format_value
from . import hand as ref
from .game import FIRST_DEALER, GameResult, GameState, next_dealer
from .hand import MOON, PASS, Bid, HandResult, Trick

__all__ = [
    "GameRecord",
    "HandRecord",
    "Position",
    "is_game_record",
    "load_record",
    "load_records",
    "parse_game_record",
    "parse_record",
    "replay",
    "replay_game",
    "replay_position",
    "score_game_record",
    "score_record",
]


@dataclass(frozen=True)
class HandRecord:
    """One hand, as dealt and played. Cards are codes; ``trump`` is a suit index."""

    rules: Rules
    dealer: int
    scores_before: tuple[int, int]
    hands: tuple[tuple[int, ...], ...]
    kitty: tuple[int, ...]
    bids: tuple[Bid, ...]
    trump: int | None = None
    discards: tuple[tuple[int, ...], ...] | None = None
    plays: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON object of docs/formats.md (only the rule options that differ from the defaults)."""
        record: dict[str, Any] = {
            "rules": self.rules.changed(),
            "dealer": self.dealer,
            "scores_before": list(self.scores_before),
            "hands": [[card_name(c) for c in hand] for hand in self.hands],
            "kitty": [card_name(c) for c in self.kitty],
            "bids": list(self.bids),
        }
        if self.trump is not None:
            record["trump"] = SUIT_NAMES[self.trump]
            record["discards"] = [[card_name(c) for c in d] for d in self.discards or ()]
            record["plays"] = [card_name(c) for c in self.plays or ()]
        return record


def load_record(source: str | Path) -> dict[str, Any]:
    """Read a record's JSON from a path, or from standard input when ``source`` is ``-``."""
    try:
        text = read_input(source)
    except FileNotFoundError:
        raise RecordError(f"record file {source} does not exist: give a JSON file, or - for standard input") from None
    except (OSError, ValueError) as exc:  # a folder, bytes that are not UTF-8, a file far too large
        raise RecordError(f"cannot read record {source}: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"record is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except (ValueError, RecursionError) as exc:  # a number too long to convert, or nesting too deep
        raise RecordError(f"record is not valid JSON for a hand record: {str(exc).splitlines()[0]}") from None


def load_records(source: str | Path) -> list[Any]:
    """Read one record (a JSON object) or a JSONL file of them (one a line, as ``simulate --trace`` writes) from a
    path, or from standard input when ``source`` is ``-``: the objects in order."""
    try:
        text = read_input(source)
    except FileNotFoundError:
        raise RecordError(f"record file {source} does not exist: give a JSON or JSONL file, or - for standard "
                          "input") from None
    except (OSError, ValueError) as exc:
        raise RecordError(f"cannot read record {source}: {exc}") from None
    try:
        return [json.loads(text)]
    except json.JSONDecodeError as exc:
        if exc.msg != "Extra data":
            raise RecordError(f"record is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") \
                from None
    except (ValueError, RecursionError) as exc:
        raise RecordError(f"record is not valid JSON for a hand record: {str(exc).splitlines()[0]}") from None
    records = []
    for number, line in enumerate(text.splitlines(), 1):  # JSONL: one record a line, blank lines skipped
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise RecordError(f"line {number} is not valid JSON: {exc.msg} at column {exc.colno}; a JSONL file holds "
                              "one record a line") from None
        except (ValueError, RecursionError) as exc:
            raise RecordError(f"line {number} is not valid JSON for a record: {str(exc).splitlines()[0]}") from None
    return records


# -- shape and cards ------------------------------------------------------------------------------------


def parse_record(obj: Any, settings: Mapping[str, Any] | None = None, *, partial: bool = False) -> HandRecord:
    """Check the record's shape, rules and cards (not yet the play) and return it typed.

    ``settings`` are rule options set outside the record (``--rules``/``--rule``; see
    :func:`smear_sim.rules.rule_settings`); they apply to the options the record's ``rules`` leave out, and
    an option set differently in both is an error. With ``partial`` the ``plays`` may stop before the 24th
    card: the record is a hand in progress (:func:`replay_position`).
    """
    if not isinstance(obj, Mapping):
        raise RecordError("a hand record is a JSON object with dealer, hands, kitty and bids")
    return _parse_hand(obj, _record_rules(obj.get("rules"), settings or {}), partial)


def _parse_hand(obj: Mapping, rules: Rules, partial: bool = False) -> HandRecord:
    """:func:`parse_record` once the rules are known."""
    dealer = obj.get("dealer")
    if not _is_int(dealer) or not 0 <= dealer <= 3:
        raise RecordError(f"dealer must be a seat 0-3, got {dealer!r}")
    scores = obj.get("scores_before", [0, 0])
    if not (isinstance(scores, list) and len(scores) == 2 and all(_is_int(s) for s in scores)):
        raise RecordError(f"scores_before must be two whole numbers [team 0, team 1], got {scores!r}")

    hands = _card_lists(obj, "hands", 4, lambda seat: 9)
    kitty = _cards(_require(obj, "kitty"), "kitty", 4)
    first_seen: dict[int, str] = {}
    for where, cards in zip([f"hands[{s}]" for s in range(4)] + ["kitty"], [*hands, kitty], strict=True):
        for c in cards:
            if c in first_seen:
                raise RecordError(f"card {card_name(c)} is dealt twice: in {first_seen[c]} and in {where}")
            first_seen[c] = where

    bids = _require(obj, "bids")
    if not isinstance(bids, list) or len(bids) != 4:
        raise RecordError("bids must list the four calls of the auction, opener first, e.g. [2, \"pass\", 3, \"pass\"]")
    parsed_bids: list[Bid] = []
    for i, bid in enumerate(bids):
        if isinstance(bid, str) and bid.lower() in (PASS, MOON):
            parsed_bids.append(bid.lower())  # type: ignore[arg-type]
        elif _is_int(bid):
            parsed_bids.append(bid)
        else:
            raise RecordError(f"bids[{i}] is {bid!r}: each call is a whole number, \"pass\" or \"moon\"")

    # The auction decides who holds the kitty (and so the discard sizes), so check it first: a bad bid is
    # the first problem in a record, not the discard shape that follows from it.
    _check_auction(rules, dealer, parsed_bids)
    record = HandRecord(rules, dealer, (scores[0], scores[1]), hands, kitty, tuple(parsed_bids))
    if ref.thrown_in(parsed_bids):
        for key in ("trump", "discards", "plays"):
            if obj.get(key):
                raise RecordError(f"all four passed, so the hand is thrown in and ends at bids; remove {key!r}")
        return record

    trump = _require(obj, "trump")
    try:
        trump_suit = parse_suit(trump) if isinstance(trump, str) else None
    except CardError:
        trump_suit = None
    if trump_suit is None or len(str(trump).strip()) != 1:
        raise RecordError(f"trump must be one of S H D C, got {trump!r}")
    bidder = _bidder(record)
    discards = _card_lists(obj, "discards", 4, lambda seat: 7 if seat == bidder else 3)
    plays = _cards(_require(obj, "plays"), "plays", 24, allow_duplicates=True, at_most=partial)
    return HandRecord(rules, dealer, record.scores_before, hands, kitty, record.bids, trump_suit, discards, plays)


def _record_rules(rules_obj: Any, settings: Mapping[str, Any]) -> Rules:
    rules_obj = {} if rules_obj is None else rules_obj  # a record may leave its rules out: the defaults
    try:
        own = Rules.from_mapping(rules_obj, source="the record's rules")
        for key, value in settings.items():
            if key in rules_obj and getattr(own, key) != value:
                raise RulesError(
                    f"the record's rules set {key}={format_value(getattr(own, key))} but the command line sets "
                    f"{key}={format_value(value)}; "
                    "drop one of the two"
                )
        return Rules(**(dict(settings) | {key: getattr(own, key) for key in rules_obj}))
    except RulesError as exc:
        raise RecordError(str(exc)) from None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _require(obj: Mapping, key: str) -> Any:
    if key not in obj:
        raise RecordError(f"the record has no {key!r}; see docs/formats.md for the hand record format")
    return obj[key]


def _cards(value: Any, where: str, count: int, *, allow_duplicates: bool = False,
           at_most: bool = False) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise RecordError(f"{where} must be a list of {count} cards such as \"10H\"")
    cards = []
    for i, token in enumerate(value):
        if not isinstance(token, str):
            raise RecordError(f"{where}[{i}] is {token!r}: write cards as strings such as \"10H\"")
        try:
            cards.append(parse_card(token))
        except CardError as exc:
            raise RecordError(f"{where}[{i}]: {exc}") from None
    if len(cards) > count if at_most else len(cards) != count:
        raise RecordError(f"{where} has {len(cards)} cards; it must have {'at most ' if at_most else ''}{count}")
    if not allow_duplicates and len(set(cards)) != len(cards):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise RecordError(f"card {card_name(twice)} appears twice in {where}")
    return tuple(cards)


def _card_lists(obj: Mapping, key: str, n: int, size_of) -> tuple[tuple[int, ...], ...]:
    value = _require(obj, key)
    if not isinstance(value, list) or len(value) != n:
        raise RecordError(f"{key} must hold one list of cards per seat (4 lists)")
    return tuple(_cards(cards, f"{key}[{seat}]", size_of(seat)) for seat, cards in enumerate(value))


def _bidder(record: HandRecord) -> int | None:
    won = ref.auction_winner(record.bids)
    return None if won is None else ref.seat_of_bid(record.dealer, won[0])


# -- replay ---------------------------------------------------------------------------------------------


def _check_auction(rules: Rules, dealer: int, bids) -> None:
    for position, bid in enumerate(bids):
        seat = ref.seat_of_bid(dealer, position)
        try:
            ref.verify_bid(rules, bids[:position], bid)
        except IllegalAction as exc:
            raise RecordError(f"bids[{position}] (seat {seat}) {bid!r} is illegal: {exc}") from None


@dataclass(frozen=True)
class Position:
    """A hand in progress after the plays of a record: who holds what, the tricks so far, whose turn it is."""

    record: HandRecord
    bidder: int
    bid: Bid
    start: tuple[tuple[int, ...], ...]  # each seat's 6 kept cards at the first lead, sorted
    held: tuple[tuple[int, ...], ...]  # each seat's cards now, sorted
    tricks: tuple[Trick, ...]  # the completed tricks
    trick: tuple[int, ...]  # the cards of the trick in progress, in play order
    leader: int  # the seat that led (or leads) the trick in progress

    @property
    def to_play(self) -> int | None:
        """The seat to play next, None when all 24 cards are played."""
        return None if len(self.tricks) == 6 else (self.leader + len(self.trick)) % 4

    def legal(self) -> list[int]:
        """The legal cards of the seat to play (none when the hand is over)."""
        seat = self.to_play
        if seat is None:
            return []
        return ref.legal_plays(self.record.rules, self.held[seat], self.trick, self.record.trump)


def replay_position(record: HandRecord) -> Position:
    """Check the auction, discards and the plays so far (a full or partial ``plays``) against the rules and
    return the hand in progress. A hand thrown in has no card play: it is an error here."""
    rules = record.rules
    _check_auction(rules, record.dealer, record.bids)
    won = ref.auction_winner(record.bids)
    if won is None:
        raise RecordError("all four passed, so the hand was thrown in and has no card play")
    bidder = ref.seat_of_bid(record.dealer, won[0])
    trump = record.trump
    assert trump is not None and record.discards is not None and record.plays is not None

    kept: list[set[int]] = []
    for seat in range(4):
        held = list(record.hands[seat]) + (list(record.kitty) if seat == bidder else [])
        try:
            ref.verify_discard(held, record.discards[seat], trump)
        except IllegalAction as exc:
            role = "the bidder, holding 13 with the kitty" if seat == bidder else f"seat {seat}"
            raise RecordError(f"discards[{seat}] ({role}) with trump {SUIT_NAMES[trump]}: {exc}") from None
        kept.append(set(held) - set(record.discards[seat]))
    start = tuple(tuple(sorted(k)) for k in kept)

    tricks: list[Trick] = []
    cards: list[int] = []
    leader = bidder
    for number, c in enumerate(record.plays):
        t, i = divmod(number, 4)
        seat = (leader + i) % 4
        _check_play(record, kept, seat, cards, c, t, i, leader, bidder)
        kept[seat].discard(c)
        cards.append(c)
        if len(cards) == 4:
            winner = (leader + ref.trick_winner(cards, trump)) % 4
            tricks.append(Trick(leader, tuple(cards), winner))
            leader = winner
            cards = []
    return Position(record, bidder, won[1], start, tuple(tuple(sorted(k)) for k in kept), tuple(tricks),
                    tuple(cards), leader)


def replay(record: HandRecord) -> HandResult:
    """Check the auction, discards and plays against the rules, then score the hand."""
    if ref.auction_winner(record.bids) is None:
        _check_auction(record.rules, record.dealer, record.bids)
        return ref.thrown_in_result(record.rules, record.scores_before)
    position = replay_position(record)
    assert record.trump is not None
    if len(position.tricks) < 6:
        raise RecordError(f"plays stop after {len(record.plays or ())} cards; a hand to score has all 24")
    return ref.score_hand(record.rules, position.bidder, position.bid, record.trump, position.tricks,
                          record.scores_before)


def _check_play(record, kept, seat, trick, c, t, i, leader, bidder) -> None:
    number = 4 * t + i + 1
    where = f"play {number} (trick {t + 1}, seat {seat})"
    if c in kept[seat]:
        try:
            ref.verify_play(record.rules, kept[seat], trick, record.trump, c)
        except IllegalAction as exc:
            raise RecordError(f"{where}: {exc}") from None
        return
    holder = next((s for s in range(4) if c in kept[s]), None)
    if holder is None:
        raise RecordError(
            f"{where}: {card_name(c)} is not in play: it was already played, discarded or never dealt"
        )
    if i == 0:
        why = "the bidder leads the first trick" if t == 0 else f"seat {leader} won trick {t} and leads"
        raise RecordError(f"{where}: {card_name(c)} is seat {holder}'s card, but {why}")
    raise RecordError(
        f"{where}: {card_name(c)} is seat {holder}'s card; seat {seat} plays now and holds "
        f"{format_hand(sorted(kept[seat]))}"
    )


def score_record(obj: Any, settings: Mapping[str, Any] | None = None) -> HandResult:
    """Check a hand record (its JSON object) and score it: the engine behind ``smear-sim score``."""
    return replay(parse_record(obj, settings))


# -- game records ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """A game, or a game in progress: its rules, where it starts and its deals in order."""

    rules: Rules
    start_scores: tuple[int, int]
    start_dealer: int
    deals: tuple[HandRecord, ...]

    def to_json(self) -> dict[str, Any]:
        deals = []
        for deal in self.deals:
            record = deal.to_json()
            del record["rules"]  # a deal's rules are the game's
            deals.append(record)
        return {"rules": self.rules.changed(),
                "start": {"scores": list(self.start_scores), "dealer": self.start_dealer}, "deals": deals}


def is_game_record(obj: Any) -> bool:
    """Whether a record's JSON object is a game record (it has ``deals``) rather than a hand record."""
    return isinstance(obj, Mapping) and "deals" in obj


def parse_game_record(obj: Any, settings: Mapping[str, Any] | None = None) -> GameRecord:
    """Check a game record's shape, its start, the deal passing clockwise and every deal as a hand record;
    ``settings`` as for :func:`parse_record`. A deal's own ``rules`` may be left out, or must give the game's
    rules. The scores and the end of the game are checked by :func:`replay_game`."""
    if not isinstance(obj, Mapping):
        raise RecordError("a game record is a JSON object with deals")
    rules = _record_rules(obj.get("rules"), settings or {})
    start = obj.get("start") or {}
    if not isinstance(start, Mapping):
        raise RecordError(f"start must be an object such as {{\"scores\": [0, 0], \"dealer\": 3}}, got {start!r}")
    scores = start.get("scores", [0, 0])
    if not (isinstance(scores, list) and len(scores) == 2 and all(_is_int(x) for x in scores)):
        raise RecordError(f"start.scores must be two whole numbers [team 0, team 1], got {scores!r}")
    dealer = start.get("dealer", FIRST_DEALER)
    if not _is_int(dealer):
        raise RecordError(f"start.dealer must be a seat 0-3, got {dealer!r}")
    try:
        state = GameState.start(rules, (scores[0], scores[1]), dealer)
    except IllegalAction as exc:
        raise RecordError(f"start: {exc}") from None
    deals = obj["deals"]
    if not isinstance(deals, list):
        raise RecordError("deals must be a list of hand records, one per hand in the order dealt")
    parsed = []
    for number, deal in enumerate(deals, 1):
        if not isinstance(deal, Mapping):
            raise RecordError(f"deal {number}: a deal is a hand record (a JSON object), got {type(deal).__name__}")
        try:
            if _is_int(deal.get("dealer")):  # the deal that follows decides who bids, so check it first
                state.verify_dealer(deal["dealer"])
            if deal.get("rules") is not None:
                own_rules = _record_rules(deal["rules"], settings or {})
                if own_rules != rules:
                    raise RecordError(f"its rules ({own_rules.summary('the defaults')}) differ from the game's "
                                      f"({rules.summary('the defaults')}); leave the deal's rules out")
            record = _parse_hand(deal, rules)
        except (RecordError, IllegalAction) as exc:
            raise RecordError(f"deal {number}: {exc}") from None
        parsed.append(record)
        state = GameState(state.scores, next_dealer(state.dealer), None, number)
    return GameRecord(rules, (scores[0], scores[1]), dealer, tuple(parsed))


def replay_game(record: GameRecord) -> GameResult:
    """Check that each deal follows the last (dealer, scores, not after the end) and replay it."""
    start = GameState.start(record.rules, record.start_scores, record.start_dealer)
    state = start
    results = []
    for number, deal in enumerate(record.deals, 1):
        try:
            state.verify_deal(deal.dealer, deal.scores_before)
        except IllegalAction as exc:
            raise RecordError(f"deal {number}: {exc}") from None
        try:
            result = replay(deal)
        except RecordError as exc:
            raise RecordError(f"deal {number}: {exc}") from None
        results.append(result)
        state = state.after(result)
    return GameResult(start, tuple(results), state)


def score_game_record(obj: Any, settings: Mapping[str, Any] | None = None) -> GameResult:
    """Check a game record (its JSON object) and score every deal: ``smear-sim score`` for games."""
    return replay_game(parse_game_record(obj, settings))
