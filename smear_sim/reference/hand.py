"""The reference engine: the rules of docs/rules.md in plain, readable Python.

This module is the yardstick of the rules. The fast Numba simulator is checked against it hand by hand, so it
favours clarity over speed. Every action comes in three forms, after pokerkit:

- ``legal_x(...)`` lists the legal choices;
- ``verify_x(...)`` raises :class:`IllegalAction` with the reason when a choice is illegal;
- ``can_x(...)`` answers with a bool.

Cards are the integer codes of :mod:`smear_sim.core.cards`; everything that depends on the trump suit comes from
:data:`smear_sim.core.tables.TABLES`, which the kernels read too. :func:`score_hand` turns a played hand into its
awards, points, score changes and game result.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Literal

from ..core.cards import SUIT_NAMES, SUIT_WORDS, card_name, format_hand, mask_of
from ..core.errors import IllegalAction
from ..core.rules import ForcedBid, High, Low, LowTo, MoonRequires, Rules
from ..core.tables import CARD_POINTS, MISDEAL_MASK, TABLES

__all__ = [
    "MOON",
    "PASS",
    "Bid",
    "HandResult",
    "Trick",
    "auction_winner",
    "can_bid",
    "can_discard",
    "can_play",
    "effective_suit",
    "is_misdeal_hand",
    "is_trump",
    "legal_bids",
    "legal_discards",
    "legal_keeps",
    "legal_plays",
    "score_hand",
    "seat_of_bid",
    "team_of",
    "thrown_in",
    "trick_winner",
    "verify_bid",
    "verify_discard",
    "verify_play",
]

PASS: Literal["pass"] = "pass"
MOON: Literal["moon"] = "moon"
Bid = int | Literal["pass", "moon"]

# The trump tables as plain Python lists: indexing them is several times faster than NumPy scalars.
_TRUMP_RANK = TABLES.trump_rank.tolist()
_TRICK_RANK = TABLES.trick_rank.tolist()
_EFFECTIVE_SUIT = TABLES.effective_suit.tolist()
_SCORING_TRUMP_MASK = [int(m) for m in TABLES.scoring_trump_mask]


def team_of(seat: int) -> int:
    """Seats 0 and 2 are team 0; seats 1 and 3 are team 1."""
    return seat % 2


def seat_of_bid(dealer: int, position: int) -> int:
    """The seat making the ``position``-th call of the auction (0 = the player left of the dealer)."""
    return (dealer + 1 + position) % 4


# -- deal ---------------------------------------------------------------------------------------------


def is_misdeal_hand(hand: Iterable[int]) -> bool:
    """Whether a 9-card hand holds only ranks 3-9, so its player may call a misdeal."""
    return mask_of(hand) & ~MISDEAL_MASK == 0


# -- auction ------------------------------------------------------------------------------------------


def legal_bids(rules: Rules, auction: Sequence[Bid]) -> list[Bid]:
    """The calls open to the next player after ``auction`` (the calls so far, opener first)."""
    position = len(auction)
    if position >= 4:
        return []
    if MOON in auction:
        return [PASS]
    highest = max((b for b in auction if isinstance(b, int)), default=0)
    calls: list[Bid] = []
    if not _must_bid(rules, auction):
        calls.append(PASS)
    calls.extend(rules.bids(highest))
    if rules.moon:
        calls.append(MOON)
    return calls


def _must_bid(rules: Rules, auction: Sequence[Bid]) -> bool:
    return rules.must_bid(len(auction), any(b != PASS for b in auction))


def verify_bid(rules: Rules, auction: Sequence[Bid], bid: Bid) -> None:
    """Raise :class:`IllegalAction` if ``bid`` may not follow ``auction``."""
    position = len(auction)
    if position >= 4:
        raise IllegalAction("the auction is over: each player calls once")
    if bid == MOON:
        if not rules.moon:
            raise IllegalAction("moon bids are off (rule moon=false)")
        if MOON in auction:
            raise IllegalAction("the moon was already bid, so everyone after must pass")
        return
    if bid == PASS:
        if _must_bid(rules, auction):
            who = "the opener" if rules.forced_bid is ForcedBid.OPENER else "the dealer, after three passes,"
            raise IllegalAction(f"{who} must bid and may not pass (rule forced_bid={rules.forced_bid})")
        return
    if MOON in auction:
        raise IllegalAction(f"{bid!r} follows a moon bid; everyone after a moon must pass")
    if not isinstance(bid, int) or isinstance(bid, bool):
        raise IllegalAction(f"a bid is a whole number, 'pass' or 'moon', got {bid!r}")
    if bid not in rules.bids():
        raise IllegalAction(f"bid {bid} is outside {rules.min_bid}..{rules.max_points}")
    highest = max((b for b in auction if isinstance(b, int)), default=0)
    if bid <= highest:
        raise IllegalAction(f"bid {bid} does not raise the highest bid {highest}; bid more or pass")


def can_bid(rules: Rules, auction: Sequence[Bid], bid: Bid) -> bool:
    try:
        verify_bid(rules, auction, bid)
    except IllegalAction:
        return False
    return True


def auction_winner(auction: Sequence[Bid]) -> tuple[int, Bid] | None:
    """``(position, bid)`` of the highest call, or None if everyone passed (the hand is thrown in).

    Each bid must exceed the one before, so the last call that is not a pass is the highest.
    """
    for position in range(len(auction) - 1, -1, -1):
        if auction[position] != PASS:
            return position, auction[position]
    return None


def thrown_in(auction: Sequence[Bid]) -> bool:
    return len(auction) == 4 and auction_winner(auction) is None


# -- trump and discards -------------------------------------------------------------------------------


def is_trump(card: int, trump: int) -> bool:
    return _TRUMP_RANK[trump][card] >= 0


def is_scoring_trump(card: int, trump: int) -> bool:
    return bool(_SCORING_TRUMP_MASK[trump] >> card & 1)


def effective_suit(card: int, trump: int) -> int:
    """The suit a card belongs to for following: trump for the jick and the jokers."""
    return _EFFECTIVE_SUIT[trump][card]


def _keep_class(card: int, trump: int) -> int:
    """0 for scoring trumps, 1 for the other trumps, 2 for non-trumps: cards are kept in this order.

    The three discard cases of the rules come to one rule: no kept card may be of a later class than a
    discarded one. With t <= 6 every trump stays; with s <= 6 < t every scoring trump stays and all
    non-trumps go; with s > 6 only scoring trumps stay.
    """
    if is_scoring_trump(card, trump):
        return 0
    return 1 if is_trump(card, trump) else 2


def verify_discard(hand: Iterable[int], discard: Iterable[int], trump: int) -> None:
    """Raise :class:`IllegalAction` unless discarding ``discard`` from ``hand`` leaves a legal 6."""
    hand = list(hand)
    discard = list(discard)
    held = set(hand)
    if len(hand) - len(discard) != 6:
        raise IllegalAction(
            f"discarded {len(discard)} cards from {len(hand)}; discard exactly {len(hand) - 6} to keep 6"
        )
    seen: set[int] = set()
    for c in discard:
        if c not in held:
            raise IllegalAction(f"discarded {card_name(c)}, which is not in the hand")
        if c in seen:
            raise IllegalAction(f"discarded {card_name(c)} twice")
        seen.add(c)
    kept = [c for c in hand if c not in seen]
    worst_kept = max(kept, key=lambda c: _keep_class(c, trump))
    best_discarded = min(discard, key=lambda c: _keep_class(c, trump), default=None)
    if best_discarded is None or _keep_class(best_discarded, trump) >= _keep_class(worst_kept, trump):
        return
    lost, stayed = card_name(best_discarded), card_name(worst_kept)
    if _keep_class(best_discarded, trump) == 0:
        raise IllegalAction(
            f"a scoring trump discarded: {lost} went while {stayed} was kept; scoring trumps "
            "(A K Q J jick HJ LJ 10 2) may be discarded only by a player holding more than 6 of them"
        )
    raise IllegalAction(
        f"trump {lost} discarded while non-trump {stayed} was kept; every trump must be kept before any "
        "non-trump"
    )


def can_discard(hand: Iterable[int], discard: Iterable[int], trump: int) -> bool:
    try:
        verify_discard(hand, discard, trump)
    except IllegalAction:
        return False
    return True


def legal_keeps(hand: Iterable[int], trump: int) -> Iterator[tuple[int, ...]]:
    """Every legal 6-card hand to keep from ``hand`` (9 or 13 cards), each in sorted card order.

    Whole classes are kept in order (scoring trumps, other trumps, non-trumps) while they fit; the player
    chooses only within the first class that does not fit.
    """
    must: list[int] = []
    for keep_class in range(3):
        group = sorted(c for c in hand if _keep_class(c, trump) == keep_class)
        room = 6 - len(must)
        if len(group) > room:
            for choice in combinations(group, room):
                yield tuple(sorted(must + list(choice)))
            return
        must += group
    yield tuple(sorted(must))


def legal_discards(hand: Iterable[int], trump: int) -> Iterator[tuple[int, ...]]:
    """Every legal discard from ``hand``: the complements of :func:`legal_keeps`."""
    hand = sorted(hand)
    for keep in legal_keeps(hand, trump):
        yield tuple(c for c in hand if c not in keep)


# -- play ---------------------------------------------------------------------------------------------


def legal_plays(rules: Rules, hand: Iterable[int], trick: Sequence[int], trump: int) -> list[int]:
    """The cards of ``hand`` that may be played to ``trick`` (the cards played to it so far)."""
    hand = sorted(hand)
    if not trick:
        return hand
    led = effective_suit(trick[0], trump)
    following = [c for c in hand if effective_suit(c, trump) == led]
    if not following:
        return hand
    if rules.trump_anytime:
        following += [c for c in hand if is_trump(c, trump) and c not in following]
    return sorted(following)


def verify_play(rules: Rules, hand: Iterable[int], trick: Sequence[int], trump: int, card: int) -> None:
    """Raise :class:`IllegalAction` if ``card`` may not be played from ``hand`` to ``trick``."""
    hand = list(hand)
    if card not in hand:
        raise IllegalAction(f"{card_name(card)} is not in the hand ({format_hand(sorted(hand))})")
    if card in legal_plays(rules, hand, trick, trump):
        return
    led = effective_suit(trick[0], trump)
    suit = "trump" if led == trump else SUIT_WORDS[led]
    must = [c for c in hand if effective_suit(c, trump) == led]
    extra = " or a trump" if rules.trump_anytime else ""
    raise IllegalAction(
        f"{card_name(card)} does not follow suit: {card_name(trick[0])} led {suit} and the hand holds "
        f"{format_hand(sorted(must))}; play {suit}{extra} (the jick and the jokers are trumps)"
    )


def can_play(rules: Rules, hand: Iterable[int], trick: Sequence[int], trump: int, card: int) -> bool:
    try:
        verify_play(rules, hand, trick, trump, card)
    except IllegalAction:
        return False
    return True


def trick_winner(trick: Sequence[int], trump: int) -> int:
    """The index in ``trick`` (play order) of the winning card.

    The highest trump wins if any trump was played, otherwise the highest card of the led suit. When both
    jokers are in the trick, the one played first ranks above the other.
    """
    led = effective_suit(trick[0], trump)

    def strength(index: int) -> tuple[int, int]:
        c = trick[index]
        if is_trump(c, trump):
            rank = _TRUMP_RANK[trump][c]
            if c in _JOKERS and set(trick) >= _JOKERS:
                first_joker = min(trick.index(j) for j in _JOKERS)
                rank = _HIGH_JOKER_RANK if index == first_joker else _LOW_JOKER_RANK
            return (2, rank)
        if effective_suit(c, trump) == led:
            return (1, _TRICK_RANK[trump][c])
        return (0, 0)

    return max(range(len(trick)), key=strength)


_JOKERS = {52, 53}
_HIGH_JOKER_RANK = 10
_LOW_JOKER_RANK = 9


# -- scoring ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Trick:
    leader: int
    cards: tuple[int, ...]
    winner: int  # the seat that played the winning card

    def seat_of(self, index: int) -> int:
        return (self.leader + index) % 4

    def to_json(self) -> dict:
        return {"leader": self.leader, "cards": [card_name(c) for c in self.cards], "winner": self.winner}


@dataclass(frozen=True)
class HandResult:
    """The outcome of a hand in the shape of ``smear-sim score --json``."""

    bidder: int | None
    bid: Bid | None
    trump: int | None
    tricks: tuple[Trick, ...]
    awards: dict[str, int | None]
    card_points: tuple[int, int]
    points: tuple[int, int]
    made: bool | None
    score_delta: tuple[int, int]
    scores_after: tuple[int, int]
    moon: bool | None
    winner: int | None
    scores_before: tuple[int, int] = field(default=(0, 0))

    @property
    def bidding_team(self) -> int | None:
        return None if self.bidder is None else team_of(self.bidder)

    def to_json(self) -> dict:
        return {
            "bidder": self.bidder,
            "bidding_team": self.bidding_team,
            "bid": self.bid,
            "trump": None if self.trump is None else SUIT_NAMES[self.trump],
            "tricks": [t.to_json() for t in self.tricks],
            "awards": dict(self.awards),
            "card_points": list(self.card_points),
            "points": list(self.points),
            "made": self.made,
            "score_delta": list(self.score_delta),
            "scores_after": list(self.scores_after),
            "moon": self.moon,
            "winner": self.winner,
        }


def point_names(rules: Rules) -> tuple[str, ...]:
    """The points at stake: High, Low, Jack, Game, and with round points the jick and both jokers."""
    return rules.points


def thrown_in_result(rules: Rules, scores_before: tuple[int, int]) -> HandResult:
    return HandResult(
        bidder=None, bid=None, trump=None, tricks=(), awards={p: None for p in point_names(rules)},
        card_points=(0, 0), points=(0, 0), made=None, score_delta=(0, 0), scores_after=tuple(scores_before),
        moon=None, winner=None, scores_before=tuple(scores_before),
    )


def award_points(rules: Rules, trump: int, tricks: Sequence[Trick]) -> tuple[dict[str, int | None], tuple[int, int]]:
    """Which team wins each point (None for nobody), and each team's card points for Game."""
    played_by: dict[int, int] = {}  # card -> team that played it
    taken_by: dict[int, int] = {}  # card -> team that took the trick holding it
    for trick in tricks:
        for index, c in enumerate(trick.cards):
            played_by[c] = team_of(trick.seat_of(index))
            taken_by[c] = team_of(trick.winner)
    ace, two, jack, _, jick, high_joker, low_joker = (int(c) for c in TABLES.point_cards[trump])
    trumps_played = [c for c in played_by if is_trump(c, trump)]

    def rank(c: int) -> int:
        return _TRUMP_RANK[trump][c]

    if rules.high is High.ACE:
        high = played_by.get(ace)
    else:
        high = played_by[max(trumps_played, key=rank)] if trumps_played else None

    low_card = two if rules.low is Low.TWO else min(trumps_played, key=rank, default=None)
    low_owner = played_by if rules.low_to is LowTo.PLAYER else taken_by
    low = low_owner.get(low_card)

    card_points = [0, 0]
    for c, team in taken_by.items():
        card_points[team] += int(CARD_POINTS[c])
    game = None if card_points[0] == card_points[1] else int(card_points[1] > card_points[0])

    winners = {"high": high, "low": low, "jack": taken_by.get(jack), "game": game, "jick": taken_by.get(jick),
               "high_joker": taken_by.get(high_joker), "low_joker": taken_by.get(low_joker)}
    return {point: winners[point] for point in rules.points}, (card_points[0], card_points[1])


def moon_succeeded(rules: Rules, awards: dict[str, int | None], bidding_team: int) -> bool:
    """Whether the bidding team won every point the moon requires."""
    if rules.moon_requires is MoonRequires.ALL:
        return all(team == bidding_team for team in awards.values())
    return all(team == bidding_team for team in awards.values() if team is not None)


def score_hand(
    rules: Rules,
    bidder: int,
    bid: Bid,
    trump: int,
    tricks: Sequence[Trick],
    scores_before: tuple[int, int] = (0, 0),
) -> HandResult:
    """Score six played tricks: awards, bid result, moon, score changes and the end of the game."""
    awards, card_points = award_points(rules, trump, tricks)
    team = team_of(bidder)
    other = 1 - team
    points = [0, 0]
    for winner in awards.values():
        if winner is not None:
            points[winner] += 1

    delta = [0, 0]
    delta[other] = points[other]  # the other team always scores its own points
    winner = None
    if bid == MOON:
        made = moon = moon_succeeded(rules, awards, team)
        if moon and scores_before[team] < 0:
            delta[team] = -scores_before[team]  # a success from a negative score resets it to 0
        elif moon:
            winner = team
        else:
            winner = other
    else:
        moon = None
        made = points[team] >= bid
        delta[team] = points[team] if made else -bid
    after = (scores_before[0] + delta[0], scores_before[1] + delta[1])
    if winner is None:
        if made and after[team] >= rules.target:
            winner = team  # the bidder goes out first
        elif after[other] >= rules.target:
            winner = other
    return HandResult(
        bidder=bidder, bid=bid, trump=trump, tricks=tuple(tricks), awards=awards, card_points=card_points,
        points=(points[0], points[1]), made=made, score_delta=(delta[0], delta[1]), scores_after=after,
        moon=moon, winner=winner, scores_before=tuple(scores_before),
    )
