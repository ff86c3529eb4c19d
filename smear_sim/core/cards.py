"""Cards as small integers and hands as ``uint64`` bitmasks.

A card is an ``int`` from 0 to 53: ``suit * 13 + rank`` for the 52 suited cards, with suits in the order
``S H D C`` and ranks ``2 3 4 5 6 7 8 9 10 J Q K A`` (0..12), then the high joker (52) and the low joker
(53). A hand is a ``uint64`` with bit ``card`` set for each card held. Both forms are plain numbers, so the
Numba kernels use them directly; the parse and format functions here are for people and files.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Iterator

from .errors import CardError

__all__ = [
    "ACE",
    "CARD_NAMES",
    "DECK_SIZE",
    "HIGH_JOKER",
    "JACK",
    "KING",
    "LOW_JOKER",
    "N_RANKS",
    "N_SUITS",
    "QUEEN",
    "RANK_NAMES",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "SUIT_WORDS",
    "TEN",
    "TWO",
    "CardError",
    "card",
    "card_name",
    "cards_of",
    "format_hand",
    "is_joker",
    "mask_of",
    "parse_card",
    "parse_cards",
    "parse_suit",
    "rank_of",
    "suit_of",
]

N_SUITS = 4
N_RANKS = 13
DECK_SIZE = 54
HIGH_JOKER = 52
LOW_JOKER = 53

SUIT_NAMES = ("S", "H", "D", "C")
SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
TWO, TEN, JACK, QUEEN, KING, ACE = 0, 8, 9, 10, 11, 12

_SUIT_ALIASES = {name: i for i, name in enumerate(SUIT_NAMES)} | {symbol: i for i, symbol in enumerate(SUIT_SYMBOLS)}
_RANK_ALIASES = {name: index for index, name in enumerate(RANK_NAMES)} | {"T": TEN}
_SEPARATORS = re.compile(r"[\s,]+")


def card(rank: int, suit: int) -> int:
    """The code of the suited card with rank index ``rank`` (0 = two .. 12 = ace) in ``suit``."""
    return suit * N_RANKS + rank


def suit_of(code: int) -> int:
    """The printed suit of a suited card (jokers have none: -1)."""
    return -1 if code >= HIGH_JOKER else code // N_RANKS


def rank_of(code: int) -> int:
    """The printed rank index of a suited card (jokers have none: -1)."""
    return -1 if code >= HIGH_JOKER else code % N_RANKS


def is_joker(code: int) -> bool:
    return code >= HIGH_JOKER


CARD_NAMES = tuple(
    [RANK_NAMES[c % N_RANKS] + SUIT_NAMES[c // N_RANKS] for c in range(HIGH_JOKER)] + ["HJ", "LJ"]
)


_CANONICAL = {name: code for code, name in enumerate(CARD_NAMES)}  # the fast path for records we wrote


def card_name(code: int) -> str:
    """The canonical name of a card: ``10H``, ``AS``, ``HJ``."""
    try:
        code = operator.index(code)
    except TypeError:
        raise CardError(f"{code!r} is not a card: give a card code 0-53 or a name such as '10H'") from None
    if not 0 <= code < DECK_SIZE:
        raise CardError(f"no card has code {code}: codes run from 0 to {DECK_SIZE - 1}")
    return CARD_NAMES[code]


def parse_suit(token: str) -> int:
    """Read a suit letter or symbol (case-insensitive)."""
    suit = _SUIT_ALIASES.get(token.strip().upper())
    if suit is None:
        raise CardError(f"unknown suit {token!r}: use one of S H D C (or ♠ ♥ ♦ ♣)")
    return suit


def parse_card(token: str) -> int:
    """Read one card in the notation of docs/rules.md (case-insensitive): ``10H``, ``TH``, ``a♠``, ``hj``."""
    code = _CANONICAL.get(token)
    if code is not None:
        return code
    text = token.strip().upper()
    if text == "HJ":
        return HIGH_JOKER
    if text == "LJ":
        return LOW_JOKER
    rank = _RANK_ALIASES.get(text[:-1])
    suit = _SUIT_ALIASES.get(text[-1:])
    if rank is None or suit is None:
        raise CardError(
            f"unknown card {token!r}: write a rank (2-10, T, J, Q, K, A) then a suit (S H D C), "
            "e.g. 10H, or HJ / LJ for the jokers"
        )
    return card(rank, suit)


def parse_cards(text: str | Iterable[str], *, allow_duplicates: bool = False) -> list[int]:
    """Read cards separated by spaces or commas (or an iterable of card tokens), in order."""
    tokens = [t for t in _SEPARATORS.split(text) if t] if isinstance(text, str) else list(text)
    codes = []
    seen: set[int] = set()
    for token in tokens:
        if not isinstance(token, str):
            raise CardError(f"expected a card name such as '10H', got {token!r}")
        code = parse_card(token)
        if code in seen and not allow_duplicates:
            raise CardError(f"card {card_name(code)} appears twice")
        seen.add(code)
        codes.append(code)
    return codes


def format_hand(cards: Iterable[int], sep: str = " ") -> str:
    """Canonical names joined by ``sep``; the inverse of :func:`parse_cards`."""
    return sep.join(card_name(c) for c in cards)


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask holding ``cards``."""
    mask = 0
    for code in cards:
        mask |= 1 << code
    return mask


def cards_of(mask: int) -> Iterator[int]:
    """The cards in ``mask``, lowest code first."""
    mask = int(mask)
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
