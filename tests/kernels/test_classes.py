"""Bid-table hand classes (kernels/classes.py) against the rule of docs/rules.md, "Hand classes".

The rule is written out again here in plain Python, from the cards' names rather than the project's tables:
the class suit is the suit with the most trumps (its 13 cards, the jick and both jokers); a tie goes to the
better trumps compared from the top down in the order A K Q J jick HJ LJ 10 9 ... 2; a tie that remains goes
to the first suit of S H D C. The features are then read in that suit.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from smear_sim.analysis.classes import class_features
from smear_sim.core import layout as L
from smear_sim.core.cards import card_name, mask_of, parse_cards
from smear_sim.kernels import classes

SUITS = "SHDC"
JICK_SUIT = {"S": "C", "C": "S", "H": "D", "D": "H"}  # the other suit of the same colour
ORDER = ["A", "K", "Q", "J", "jick", "HJ", "LJ", "10", "9", "8", "7", "6", "5", "4", "3", "2"]  # high to low


def trump_places(names: list[str], suit: str) -> list[int]:
    """The places in ORDER (0 = the ace) of the trumps the hand holds with ``suit`` as trump, best first."""
    places = []
    for name in names:
        if name in ("HJ", "LJ"):
            places.append(ORDER.index(name))
        elif name == "J" + JICK_SUIT[suit]:
            places.append(ORDER.index("jick"))
        elif name[-1] == suit:
            places.append(ORDER.index(name[:-1]))
    return sorted(places)


def python_class(names: list[str]) -> dict:
    """The class of a hand by the documented rule, from its card names."""
    def strength(i: int):
        places = trump_places(names, SUITS[i])
        # more trumps first; then the better trumps, from the top down (a lower place is a better card);
        # then the earlier suit
        return (len(places), [-p for p in places], -i)

    suit = SUITS[max(range(4), key=strength)]
    places = trump_places(names, suit)
    return {
        "trumps": len(places),
        "top": ORDER[places[0]],
        "two": "2" + suit in names,
        "jack": "J" + suit in names,
        "jick": "J" + JICK_SUIT[suit] in names,
        "jokers": sum(name in ("HJ", "LJ") for name in names),
        "aces": sum(name[0] == "A" and name[-1] != suit for name in names),
    }


@pytest.fixture(scope="module")
def features():
    return class_features()


def kernel_class(features, cards: list[int]) -> dict:
    index = classes.hand_class(np.uint64(mask_of(cards)))
    assert 0 <= index < L.N_CLASSES
    return features.iloc[index].to_dict()


@pytest.mark.parametrize(("hand", "expected"), [
    # hearts: 4 trumps (A K 2 and the jick JD)
    ("AH KH 2H JD 10C 5S 9S 4D 3C", {"trumps": 4, "top": "A", "two": True, "jack": False, "jick": True, "jokers": 0,
                                    "aces": 0}),
    # 3 hearts against two spades, two diamonds and two clubs
    ("3S 4S 5D 6D 7C 8C 9H 3H 4H", {"trumps": 3, "top": "9", "two": False, "jack": False, "jick": False, "jokers": 0,
                                    "aces": 0}),
    # clubs: 5 clubs and 2 jokers
    ("HJ LJ AS AC AD 2C 3C 4C 5C", {"trumps": 7, "top": "A", "two": True, "jack": False, "jick": False, "jokers": 2,
                                    "aces": 2}),
    # spades and clubs both hold J, jick, HJ and a fourth trump: the 10S beats the 9C
    ("JS JC HJ 5D 6D 7H 8H 9C 10S", {"trumps": 4, "top": "J", "two": False, "jack": True, "jick": True, "jokers": 1,
                                     "aces": 0}),
    # equal counts (3 each in S and H): the ace of hearts beats the king of spades
    ("KS 5S 4S AH 3H 2H 6D 7C 8C", {"trumps": 3, "top": "A", "two": True, "jack": False, "jick": False, "jokers": 0,
                                    "aces": 0}),
])
def test_class_examples(features, hand, expected):
    assert kernel_class(features, parse_cards(hand)) == expected
    assert python_class(hand.split()) == expected


def test_an_exact_tie_goes_to_the_first_suit_in_s_h_d_c():
    # spades and clubs hold the same trump ranks (A 5 4 + the high joker); so do hearts and diamonds (6 5)
    hand = parse_cards("AS 5S 4S AC 5C 4C HJ 6H 6D")
    assert classes.class_suit(np.uint64(mask_of(hand))) == 0
    hand = parse_cards("AC 5C 4C KS 5S 4S HJ 6H 6D")  # now clubs are better
    assert classes.class_suit(np.uint64(mask_of(hand))) == 3


def test_the_kernel_applies_the_documented_rule_on_random_hands(features):
    rng = random.Random(7)
    for _ in range(10_000):
        cards = rng.sample(range(54), 9)
        names = [card_name(c) for c in cards]
        assert kernel_class(features, cards) == python_class(names), names


def test_the_class_depends_on_the_cards_only():
    """No rule option and no player enters the classifier: its only argument is the hand."""
    assert classes.hand_class.py_func.__code__.co_argcount == 1
    assert classes.class_suit.py_func.__code__.co_argcount == 1
