"""TABLES against docs/rules.md written out by hand ("Kitty, trump, discards" and "Scoring a hand")."""

from __future__ import annotations

import numpy as np
import pytest

from smear_sim.core import tables as T
from smear_sim.core.cards import DECK_SIZE, HIGH_JOKER, LOW_JOKER, card_name, cards_of, mask_of, parse_card, parse_cards
from smear_sim.core.tables import (
    CARD_POINTS,
    MISDEAL_MASK,
    POINT_NAMES,
    TABLES,
    TRUMP_RANK_NAMES,
    jick_of,
    trump_order,
)

S, H, D, C = 0, 1, 2, 3

# docs/rules.md: trump rank, high to low: A K Q J jick HJ LJ 10 9 8 7 6 5 4 3 2 — written out for each suit.
TRUMP_ORDER_BY_HAND = {
    S: "AS KS QS JS JC HJ LJ 10S 9S 8S 7S 6S 5S 4S 3S 2S",
    H: "AH KH QH JH JD HJ LJ 10H 9H 8H 7H 6H 5H 4H 3H 2H",
    D: "AD KD QD JD JH HJ LJ 10D 9D 8D 7D 6D 5D 4D 3D 2D",
    C: "AC KC QC JC JS HJ LJ 10C 9C 8C 7C 6C 5C 4C 3C 2C",
}
# Scoring trumps: A K Q J jick HJ LJ 10 2 of trump.
SCORING_TRUMPS_BY_HAND = {
    S: "AS KS QS JS JC HJ LJ 10S 2S",
    H: "AH KH QH JH JD HJ LJ 10H 2H",
    D: "AD KD QD JD JH HJ LJ 10D 2D",
    C: "AC KC QC JC JS HJ LJ 10C 2C",
}
JICK_BY_HAND = {S: "JC", H: "JD", D: "JH", C: "JS"}
# Card points: A 4, K 3, Q 2, J 1, 10 ten, in every suit; jokers and 2-9 nothing.
POINTS_BY_HAND = {"A": 4, "K": 3, "Q": 2, "J": 1, "10": 10}


def names(cards) -> str:
    return " ".join(card_name(int(c)) for c in cards)


# -- jick, trump suit, trump order ----------------------------------------------------------------------


def test_jick_is_same_colour_jack():
    # Hearts and diamonds are red; spades and clubs are black.
    for trump, jick in JICK_BY_HAND.items():
        assert jick_of(trump) == parse_card(jick)
        assert card_name(int(TABLES.point_cards[trump, POINT_NAMES.index("jick")])) == jick


@pytest.mark.parametrize("trump", [S, H, D, C])
def test_trump_order_written_out_by_hand(trump):
    assert names(trump_order(trump)) == TRUMP_ORDER_BY_HAND[trump]
    assert names(TABLES.trump_cards[trump]) == TRUMP_ORDER_BY_HAND[trump]


@pytest.mark.parametrize("trump", [S, H, D, C])
def test_trump_suit_has_16_cards(trump):
    trumps = list(cards_of(int(TABLES.trump_mask[trump])))
    assert len(trumps) == 16
    assert set(trumps) == set(parse_cards(TRUMP_ORDER_BY_HAND[trump]))
    assert int(TABLES.suit_mask[trump, trump]) == int(TABLES.trump_mask[trump])


@pytest.mark.parametrize("trump", [S, H, D, C])
def test_trump_rank_is_15_for_ace_down_to_0_for_two(trump):
    order = parse_cards(TRUMP_ORDER_BY_HAND[trump])
    assert [int(TABLES.trump_rank[trump, c]) for c in order] == list(range(15, -1, -1))
    for c in range(DECK_SIZE):
        if c not in order:
            assert TABLES.trump_rank[trump, c] == -1
    # The names of the rank indices
    assert [TRUMP_RANK_NAMES[int(TABLES.trump_rank[trump, c])] for c in order] == [
        "A", "K", "Q", "J", "jick", "HJ", "LJ", "10", "9", "8", "7", "6", "5", "4", "3", "2"
    ]


def test_jokers_are_always_trumps():
    for trump in (S, H, D, C):
        for joker in (HIGH_JOKER, LOW_JOKER):
            assert TABLES.trump_rank[trump, joker] >= 0
            assert TABLES.effective_suit[trump, joker] == trump
        assert TABLES.trump_rank[trump, HIGH_JOKER] > TABLES.trump_rank[trump, LOW_JOKER]


@pytest.mark.parametrize("trump", [S, H, D, C])
def test_effective_suit_of_the_jick_is_trump(trump):
    jick = parse_card(JICK_BY_HAND[trump])
    assert TABLES.effective_suit[trump, jick] == trump
    # Every other suited card keeps its printed suit.
    for c in range(52):
        if c != jick:
            expected = trump if c // 13 == trump else c // 13
            assert TABLES.effective_suit[trump, c] == expected


@pytest.mark.parametrize("trump", [S, H, D, C])
def test_jicks_printed_suit_is_one_card_short(trump):
    jick = parse_card(JICK_BY_HAND[trump])
    printed = jick // 13
    sizes = {suit: len(list(cards_of(int(TABLES.suit_mask[trump, suit])))) for suit in range(4)}
    assert sizes[trump] == 16
    assert sizes[printed] == 12
    for suit in range(4):
        if suit not in (trump, printed):
            assert sizes[suit] == 13
    assert not int(TABLES.suit_mask[trump, printed]) >> jick & 1
    # The four effective suits partition the deck.
    assert sum(sizes.values()) == DECK_SIZE
    union = 0
    for suit in range(4):
        assert union & int(TABLES.suit_mask[trump, suit]) == 0
        union |= int(TABLES.suit_mask[trump, suit])
    assert union == (1 << DECK_SIZE) - 1


@pytest.mark.parametrize("trump", [S, H, D, C])
def test_non_trump_rank_a_k_q_j_10_down_to_2(trump):
    for suit in range(4):
        if suit == trump:
            continue
        ranked = sorted((c for c in range(52) if TABLES.effective_suit[trump, c] == suit),
                        key=lambda c: -int(TABLES.trick_rank[trump, c]))
        expected = [r + "SHDC"[suit] for r in ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]]
        if suit == jick_of(trump) // 13:
            expected.remove("J" + "SHDC"[suit])
        assert names(ranked) == " ".join(expected)


@pytest.mark.parametrize("trump", [S, H, D, C])
def test_every_trump_outranks_every_non_trump_in_a_trick(trump):
    trumps = set(parse_cards(TRUMP_ORDER_BY_HAND[trump]))
    lowest_trump = min(int(TABLES.trick_rank[trump, c]) for c in trumps)
    highest_other = max(int(TABLES.trick_rank[trump, c]) for c in range(DECK_SIZE) if c not in trumps)
    assert lowest_trump > highest_other
    order = parse_cards(TRUMP_ORDER_BY_HAND[trump])
    assert [int(TABLES.trick_rank[trump, c]) for c in order] == list(range(31, 15, -1))


@pytest.mark.parametrize("trump", [S, H, D, C])
def test_higher_trumps_masks(trump):
    order = parse_cards(TRUMP_ORDER_BY_HAND[trump])
    for i, c in enumerate(order):
        assert int(TABLES.higher_trumps[trump, c]) == mask_of(order[:i])
    for c in range(DECK_SIZE):
        if c not in order:
            assert TABLES.higher_trumps[trump, c] == 0


# -- scoring trumps and points ----------------------------------------------------------------------------


@pytest.mark.parametrize("trump", [S, H, D, C])
def test_scoring_trumps_are_exactly_the_nine(trump):
    scoring = list(cards_of(int(TABLES.scoring_trump_mask[trump])))
    assert len(scoring) == 9
    assert set(scoring) == set(parse_cards(SCORING_TRUMPS_BY_HAND[trump]))
    # The trumps 3-9 are non-scoring.
    non_scoring = int(TABLES.trump_mask[trump]) & ~int(TABLES.scoring_trump_mask[trump])
    assert names(sorted(cards_of(non_scoring))) == " ".join(f"{r}{'SHDC'[trump]}" for r in range(3, 10))


def test_card_points_written_out_by_hand():
    for c in range(DECK_SIZE):
        name = card_name(c)
        expected = 0 if name in ("HJ", "LJ") else POINTS_BY_HAND.get(name[:-1], 0)
        assert CARD_POINTS[c] == expected, name
        assert TABLES.card_points[c] == expected
    assert int(CARD_POINTS.sum()) == 4 * (4 + 3 + 2 + 1 + 10) == 80


def test_jick_counts_one_card_point():
    for trump in (S, H, D, C):
        assert CARD_POINTS[jick_of(trump)] == 1


def test_point_cards_in_point_name_order():
    assert POINT_NAMES == ("high", "low", "jack", "game", "jick", "high_joker", "low_joker")
    assert [names([c]) if c >= 0 else "-" for c in TABLES.point_cards[H]] == ["AH", "2H", "JH", "-", "JD", "HJ", "LJ"]
    assert [names([c]) if c >= 0 else "-" for c in TABLES.point_cards[C]] == ["AC", "2C", "JC", "-", "JS", "HJ", "LJ"]


def test_misdeal_mask_is_ranks_3_to_9():
    cards = list(cards_of(MISDEAL_MASK))
    assert len(cards) == 28
    assert {card_name(c)[:-1] for c in cards} == {"3", "4", "5", "6", "7", "8", "9"}


def test_tables_are_read_only():
    for name, array in TABLES._asdict().items():
        assert isinstance(array, np.ndarray), name
        assert not array.flags.writeable, name
    with pytest.raises(ValueError):
        TABLES.trump_rank[0, 0] = 3


def test_mask_dtypes_are_uint64():
    assert TABLES.trump_mask.dtype == np.uint64
    assert TABLES.scoring_trump_mask.dtype == np.uint64
    assert TABLES.suit_mask.dtype == np.uint64
    assert TABLES.higher_trumps.dtype == np.uint64


def test_point_and_trump_rank_indices_name_what_they_index():
    assert [getattr(T, f"P_{name.upper()}") for name in POINT_NAMES] == list(range(len(POINT_NAMES)))
    for name, rank in [("TWO", "2"), ("THREE", "3"), ("FOUR", "4"), ("TEN", "10"), ("JACK", "J"), ("QUEEN", "Q"),
                       ("KING", "K"), ("ACE", "A")]:
        assert TRUMP_RANK_NAMES[getattr(T, f"TR_{name}")] == rank


@pytest.mark.parametrize("trump", [S, H, D, C])
def test_trump_by_rank_is_the_trump_order_from_the_bottom(trump):
    assert names(TABLES.trump_by_rank[trump]) == " ".join(reversed(TRUMP_ORDER_BY_HAND[trump].split()))
    for c in TABLES.trump_by_rank[trump]:
        assert TRUMP_RANK_NAMES[TABLES.trump_rank[trump, c]] in card_name(int(c)) or c == jick_of(trump)


def test_rank_points_give_the_card_points():
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    assert {name: int(TABLES.rank_points[i]) for i, name in enumerate(ranks) if TABLES.rank_points[i]} == POINTS_BY_HAND
    assert [int(TABLES.rank_points[c % 13]) if c < HIGH_JOKER else 0 for c in range(DECK_SIZE)] == list(CARD_POINTS)
