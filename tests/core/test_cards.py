"""Cards and notation (docs/rules.md "Table, deck, notation"): codes, parsing, formatting, masks."""

from __future__ import annotations

import pytest

from smear_sim.core.cards import (
    ACE,
    CARD_NAMES,
    DECK_SIZE,
    HIGH_JOKER,
    JACK,
    KING,
    LOW_JOKER,
    QUEEN,
    TEN,
    TWO,
    card,
    card_name,
    cards_of,
    format_hand,
    is_joker,
    mask_of,
    parse_card,
    parse_cards,
    parse_suit,
    rank_of,
    suit_of,
)
from smear_sim.core.errors import CardError, SmearError

# The 54 canonical names written out by hand, in code order: S H D C, each 2..A, then the jokers.
ALL_NAMES = [
    r + s for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
] + ["HJ", "LJ"]


# -- the deck -----------------------------------------------------------------------------------------


def test_deck_has_54_cards_52_plus_two_jokers():
    assert DECK_SIZE == 54
    assert len(CARD_NAMES) == 54 == len(set(CARD_NAMES))
    assert list(CARD_NAMES) == ALL_NAMES
    assert [c for c in range(DECK_SIZE) if is_joker(c)] == [HIGH_JOKER, LOW_JOKER] == [52, 53]


def test_card_codes_are_suit_times_13_plus_rank():
    assert card(TWO, 0) == 0  # 2S
    assert card(ACE, 3) == 51  # AC
    for code in range(52):
        assert card(rank_of(code), suit_of(code)) == code
    assert (TWO, TEN, JACK, QUEEN, KING, ACE) == (0, 8, 9, 10, 11, 12)


def test_jokers_have_no_suit_or_rank():
    for joker in (HIGH_JOKER, LOW_JOKER):
        assert suit_of(joker) == -1
        assert rank_of(joker) == -1
        assert is_joker(joker)
    assert not any(is_joker(c) for c in range(52))


# -- notation -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("code", range(DECK_SIZE))
def test_parse_format_round_trip_for_every_card(code):
    name = card_name(code)
    assert name == ALL_NAMES[code]
    assert parse_card(name) == code
    assert parse_card(name.lower()) == code
    assert card_name(parse_card(name)) == name


def test_card_is_rank_followed_by_suit():
    assert parse_card("AS") == card(ACE, 0)
    assert parse_card("10H") == card(TEN, 1)
    assert parse_card("2D") == card(TWO, 2)
    assert parse_card("KC") == card(KING, 3)
    with pytest.raises(CardError):
        parse_card("SA")  # suit first is not the notation
    with pytest.raises(CardError):
        parse_card("H10")


def test_ranks_2_to_ace_and_t_for_ten():
    for index, rank in enumerate(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]):
        assert parse_card(rank + "S") == card(index, 0)
    assert parse_card("TH") == parse_card("10H") == card(TEN, 1)
    assert parse_card("th") == parse_card("tH") == card(TEN, 1)
    assert card_name(parse_card("TH")) == "10H"  # canonical form writes 10


def test_suits_letters_and_symbols():
    assert [parse_suit(s) for s in "SHDC"] == [0, 1, 2, 3]
    assert [parse_suit(s) for s in "shdc"] == [0, 1, 2, 3]
    assert [parse_suit(s) for s in "♠♥♦♣"] == [0, 1, 2, 3]
    assert parse_card("A♠") == parse_card("AS")
    assert parse_card("10♥") == parse_card("10H")
    assert parse_card("t♦") == parse_card("10D")
    assert parse_card("q♣") == parse_card("QC")


def test_jokers_are_hj_and_lj():
    assert parse_card("HJ") == HIGH_JOKER
    assert parse_card("LJ") == LOW_JOKER
    assert parse_card("hj") == parse_card("Hj") == HIGH_JOKER
    assert parse_card("lj") == parse_card("lJ") == LOW_JOKER
    assert card_name(HIGH_JOKER) == "HJ"
    assert card_name(LOW_JOKER) == "LJ"
    # JH is the jack of hearts, not a joker
    assert parse_card("JH") == card(JACK, 1)


def test_notation_is_case_insensitive():
    assert parse_card("ah") == parse_card("Ah") == parse_card("aH") == parse_card("AH")
    assert parse_card(" 10c ") == parse_card("10C")
    assert parse_cards("as kh qd jc") == parse_cards("AS KH QD JC")


def test_canonical_output_form():
    assert card_name(parse_card("th")) == "10H"
    assert card_name(parse_card("a♠")) == "AS"
    assert card_name(parse_card("hj")) == "HJ"
    assert format_hand(parse_cards("th a♠ hj")) == "10H AS HJ"
    assert format_hand(parse_cards("th a♠ hj"), sep=",") == "10H,AS,HJ"


def test_hand_strings_separated_by_spaces_or_commas():
    expected = [card(ACE, 1), card(KING, 1), card(TWO, 1), card(JACK, 2), card(TEN, 3)]
    assert parse_cards("AH KH 2H JD 10C") == expected
    assert parse_cards("AH,KH,2H,JD,10C") == expected
    assert parse_cards("AH, KH ,2H  JD,\t10C") == expected
    assert parse_cards(" ,AH KH,,2H JD 10C, ") == expected
    assert parse_cards(["AH", "KH", "2H", "JD", "10C"]) == expected
    assert parse_cards("") == []


def test_parse_cards_keeps_order():
    assert parse_cards("LJ 2S HJ AC") == [LOW_JOKER, 0, HIGH_JOKER, 51]


# -- errors name the bad token --------------------------------------------------------------------------


@pytest.mark.parametrize("token", ["1H", "11S", "ZZ", "AX", "10", "H", "", "JOKER", "HJJ", "AS!", "0S"])
def test_bad_card_error_names_the_token(token):
    with pytest.raises(CardError) as info:
        parse_card(token)
    message = str(info.value)
    assert repr(token) in message
    assert "\n" not in message


def test_bad_token_in_hand_string_is_named():
    with pytest.raises(CardError, match="'XQ'"):
        parse_cards("AS KH XQ 2D")
    with pytest.raises(CardError, match="'1D'"):
        parse_cards("AS,KH,1D")


def test_duplicate_card_in_hand_string_is_named():
    with pytest.raises(CardError, match="AS appears twice"):
        parse_cards("AS KH as")
    with pytest.raises(CardError, match="10H appears twice"):
        parse_cards("TH 10H")
    assert parse_cards("AS AS", allow_duplicates=True) == [card(ACE, 0)] * 2


def test_non_string_token_rejected():
    with pytest.raises(CardError, match="12"):
        parse_cards(["AS", 12])


def test_bad_suit_error_names_the_token():
    with pytest.raises(CardError, match="'X'"):
        parse_suit("X")
    with pytest.raises(CardError):
        parse_suit("")


@pytest.mark.parametrize("code", [-1, 54, 100])
def test_card_name_rejects_codes_outside_deck(code):
    with pytest.raises(CardError, match=str(code)):
        card_name(code)


def test_card_error_is_a_smear_error():
    assert issubclass(CardError, SmearError)
    assert issubclass(CardError, ValueError)


# -- masks ----------------------------------------------------------------------------------------------


def test_mask_of_and_cards_of_round_trip():
    cards = parse_cards("2S AC HJ LJ 10H")
    mask = mask_of(cards)
    assert mask == (1 << 0) | (1 << 51) | (1 << 52) | (1 << 53) | (1 << card(TEN, 1))
    assert list(cards_of(mask)) == sorted(cards)
    assert mask_of([]) == 0
    assert list(cards_of(0)) == []
    full = mask_of(range(DECK_SIZE))
    assert full == (1 << 54) - 1
    assert list(cards_of(full)) == list(range(DECK_SIZE))


def test_cards_of_accepts_numpy_uint64():
    np = pytest.importorskip("numpy")
    mask = np.uint64(mask_of([0, 53]))
    assert list(cards_of(mask)) == [0, 53]
