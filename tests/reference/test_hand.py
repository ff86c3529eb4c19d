"""The reference engine against docs/rules.md, one or more tests per rule, then property tests on random legal hands.

Tests are named after the rule they check. Tricks for the scoring tests are written by hand with their
winners, so the awards and scores are checked against hand-derived values rather than the engine's own
trick logic.
"""

from __future__ import annotations

import itertools
import json
import random
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_hands import random_record

from smear_sim.core.cards import card_name, mask_of, parse_card, parse_cards
from smear_sim.core.errors import IllegalAction, SmearError
from smear_sim.core.rules import ForcedBid, High, Low, LowTo, MoonRequires, Rules
from smear_sim.core.tables import CARD_POINTS, TABLES
from smear_sim.reference import hand as ref
from smear_sim.reference.hand import (
    MOON,
    PASS,
    Trick,
    auction_winner,
    can_bid,
    can_discard,
    can_play,
    effective_suit,
    is_misdeal_hand,
    is_trump,
    legal_bids,
    legal_discards,
    legal_keeps,
    legal_plays,
    score_hand,
    seat_of_bid,
    team_of,
    thrown_in,
    trick_winner,
    verify_bid,
    verify_discard,
    verify_play,
)
from smear_sim.reference.record import parse_record, replay, score_record

S, H, D, C = 0, 1, 2, 3
DEFAULT = Rules()


def c(name: str) -> int:
    return parse_card(name)


def cs(text: str) -> list[int]:
    return parse_cards(text)


def T(leader: int, cards: str, winner: int) -> Trick:
    """A trick written by hand: leader, the cards in play order, and the seat that won it."""
    return Trick(leader, tuple(cs(cards)), winner)


def winning_seat(trump: int, leader: int, cards: str) -> int:
    return (leader + trick_winner(cs(cards), trump)) % 4


def legal(rules: Rules, hand: str, trick: str, trump: int) -> set[str]:
    return {card_name(x) for x in legal_plays(rules, cs(hand), cs(trick), trump)}


def keeps(hand: str, trump: int) -> set[frozenset[str]]:
    return {frozenset(card_name(x) for x in k) for k in legal_keeps(cs(hand), trump)}


# =====================================================================================================
# Table, deck, notation (cards themselves are in test_cards.py, the jick in test_tables.py)
# =====================================================================================================


def test_seats_0_and_2_are_team_0_seats_1_and_3_are_team_1():
    assert [team_of(seat) for seat in range(4)] == [0, 1, 0, 1]


def test_hearts_and_diamonds_red_spades_and_clubs_black_jick_pairs():
    # trump H makes JD the jick, D makes it JH, S makes it JC, and C makes it JS
    for trump, jick in [(H, "JD"), (D, "JH"), (S, "JC"), (C, "JS")]:
        assert is_trump(c(jick), trump)
        assert effective_suit(c(jick), trump) == trump


# =====================================================================================================
# Deal
# =====================================================================================================


def test_first_dealer_seat_3_so_seat_0_bids_first():
    assert seat_of_bid(3, 0) == 0


@pytest.mark.parametrize("dealer", range(4))
def test_auction_starts_left_of_dealer_goes_clockwise_and_ends_with_dealer(dealer):
    seats = [seat_of_bid(dealer, position) for position in range(4)]
    assert seats == [(dealer + 1 + i) % 4 for i in range(4)]
    assert seats[-1] == dealer


def test_deal_9_cards_each_kitty_4_and_14_undealt():
    record = random_record(DEFAULT, random.Random(7))
    parsed = parse_record(record)
    assert [len(h) for h in parsed.hands] == [9, 9, 9, 9]
    assert len(parsed.kitty) == 4
    dealt = {x for h in parsed.hands for x in h} | set(parsed.kitty)
    assert len(dealt) == 40 and 54 - len(dealt) == 14
    # a record with another deal shape is refused
    for hands, kitty in [(record["hands"][:3], record["kitty"]), (record["hands"], record["kitty"][:3]),
                         ([record["hands"][0][:8], *record["hands"][1:]], record["kitty"])]:
        with pytest.raises(SmearError):
            parse_record(record | {"hands": hands, "kitty": kitty})


def test_misdeal_hand_only_ranks_3_to_9():
    assert is_misdeal_hand(cs("3S 4S 5H 6H 7D 8D 9C 9S 3C"))
    assert is_misdeal_hand(cs("9S 9H 9D 9C 8S 8H 8D 8C 7S"))


@pytest.mark.parametrize("scoring", ["HJ", "LJ", "2S", "10H", "JD", "QC", "KS", "AH"])
def test_misdeal_jokers_2s_10s_and_court_cards_count_as_scoring(scoring):
    hand = cs("3S 4S 5H 6H 7D 8D 9C 9S") + [c(scoring)]
    assert not is_misdeal_hand(hand)


def test_misdeal_option_default_true_and_can_be_turned_off():
    assert Rules().misdeal is True
    assert Rules().with_overrides(["misdeal=false"]).misdeal is False


# =====================================================================================================
# Auction
# =====================================================================================================


def test_auction_is_one_round_each_player_calls_once():
    auction = [2, PASS, PASS, PASS]
    assert legal_bids(DEFAULT, auction) == []
    with pytest.raises(IllegalAction, match="auction is over"):
        verify_bid(DEFAULT, auction, 3)


def test_numeric_bid_runs_from_min_bid_2_to_4():
    assert legal_bids(DEFAULT, []) == [2, 3, 4, MOON]
    assert not can_bid(DEFAULT, [], 1)
    assert not can_bid(DEFAULT, [], 5)
    assert can_bid(DEFAULT, [], 4)


def test_points_at_stake_are_7_with_round_points():
    rules = Rules(round_points=True)
    assert legal_bids(rules, []) == [2, 3, 4, 5, 6, 7, MOON]
    assert can_bid(rules, [], 7)
    assert not can_bid(rules, [], 8)


@pytest.mark.parametrize("min_bid", [1, 2, 3, 4])
def test_min_bid_option_sets_lowest_numeric_bid(min_bid):
    rules = Rules(min_bid=min_bid)
    assert legal_bids(rules, [])[0] == min_bid
    assert can_bid(rules, [], min_bid)
    assert not can_bid(rules, [], min_bid - 1)
    with pytest.raises(IllegalAction, match=f"outside {min_bid}..4"):
        verify_bid(rules, [], min_bid - 1)


def test_each_bid_must_exceed_the_highest_bid_so_far():
    assert legal_bids(DEFAULT, [2]) == [PASS, 3, 4, MOON]
    assert legal_bids(DEFAULT, [3, PASS]) == [PASS, 4, MOON]
    assert not can_bid(DEFAULT, [3, PASS], 3)
    assert not can_bid(DEFAULT, [3, PASS], 2)
    with pytest.raises(IllegalAction, match="does not raise"):
        verify_bid(DEFAULT, [3], 3)
    assert legal_bids(DEFAULT, [4]) == [PASS, MOON]


def test_bids_must_be_whole_numbers_pass_or_moon():
    for bad in ("three", 2.5, None, True):
        assert not can_bid(Rules(forced_bid="none"), [], bad)


def test_moon_outranks_every_number_and_everyone_after_must_pass():
    assert can_bid(DEFAULT, [4], MOON)
    assert legal_bids(DEFAULT, [MOON]) == [PASS]
    assert legal_bids(DEFAULT, [2, MOON, PASS]) == [PASS]
    for after in (2, 3, 4, MOON):
        assert not can_bid(DEFAULT, [MOON], after)
    with pytest.raises(IllegalAction, match="moon"):
        verify_bid(DEFAULT, [MOON], 4)
    assert auction_winner([2, MOON, PASS, PASS]) == (1, MOON)


def test_moon_off_forbids_the_moon_bid():
    rules = Rules(moon=False)
    assert MOON not in legal_bids(rules, [])
    with pytest.raises(IllegalAction, match="moon=false"):
        verify_bid(rules, [], MOON)


def test_opener_must_bid_under_forced_bid_opener():
    assert PASS not in legal_bids(DEFAULT, [])
    with pytest.raises(IllegalAction, match="opener must bid"):
        verify_bid(DEFAULT, [], PASS)
    # The opener may bid moon.
    assert can_bid(DEFAULT, [], MOON)


def test_others_may_pass_under_forced_bid_opener():
    assert can_bid(DEFAULT, [2], PASS)
    assert can_bid(DEFAULT, [2, PASS], PASS)
    assert can_bid(DEFAULT, [2, PASS, PASS], PASS)


def test_dealer_must_bid_after_three_passes_under_forced_bid_dealer():
    rules = Rules(forced_bid="dealer")
    assert can_bid(rules, [], PASS)  # the opener may pass
    assert legal_bids(rules, [PASS, PASS, PASS]) == [2, 3, 4, MOON]
    with pytest.raises(IllegalAction, match="dealer"):
        verify_bid(rules, [PASS, PASS, PASS], PASS)
    # Once anyone bid, the dealer may pass.
    assert can_bid(rules, [PASS, 2, PASS], PASS)
    assert can_bid(rules, [MOON, PASS, PASS], PASS)


def test_all_four_pass_throws_in_the_hand_under_forced_bid_none():
    rules = Rules(forced_bid="none")
    auction = []
    for _ in range(4):
        assert PASS in legal_bids(rules, auction)
        verify_bid(rules, auction, PASS)
        auction.append(PASS)
    assert thrown_in(auction)
    assert auction_winner(auction) is None


def test_four_passes_are_illegal_unless_forced_bid_none():
    assert not can_bid(DEFAULT, [], PASS)
    assert not can_bid(Rules(forced_bid="dealer"), [PASS, PASS, PASS], PASS)


def test_highest_bidder_is_the_bidder():
    assert auction_winner([2, PASS, 3, PASS]) == (2, 3)
    assert auction_winner([2, 3, 4, PASS]) == (2, 4)
    assert auction_winner([PASS, PASS, PASS, 2]) == (3, 2)
    assert not thrown_in([2, PASS, PASS, PASS])
    # the bidding team is the bidder's team: dealer 0, position 2 is seat 3, team 1
    assert team_of(seat_of_bid(0, 2)) == 1


# =====================================================================================================
# Kitty, trump, discards
# =====================================================================================================


def test_bidder_takes_kitty_into_hand_and_discards_7_of_13():
    hand13 = cs("AH KH 2H 3S 4S 5S 6S 7D 8D 9D 3C 4C 5C")
    verify_discard(hand13, cs("3S 4S 5S 6S 7D 8D 9D"), H)
    with pytest.raises(IllegalAction, match="discard exactly 7"):
        verify_discard(hand13, cs("3S 4S 5S"), H)


def test_trump_suit_has_16_cards_including_jick_and_jokers():
    for trump in range(4):
        trumps = [x for x in range(54) if is_trump(x, trump)]
        assert len(trumps) == 16


def test_jick_is_trump_only_not_its_printed_suit():
    # trump H: JD is a trump, not a diamond
    assert effective_suit(c("JD"), H) == H
    assert effective_suit(c("QD"), H) == D
    assert effective_suit(c("JD"), S) == D  # in another trump it is an ordinary diamond


def test_jokers_are_always_trumps():
    for trump in range(4):
        assert is_trump(c("HJ"), trump) and is_trump(c("LJ"), trump)


def test_trump_rank_a_k_q_j_jick_hj_lj_10_to_2():
    order = cs("AH KH QH JH JD HJ LJ 10H 9H 8H 7H 6H 5H 4H 3H 2H")
    # Each trump beats every lower one in a trick, whatever the play order.
    for i, high in enumerate(order):
        for low in order[i + 1:]:
            if {high, low} == {c("HJ"), c("LJ")}:
                continue  # the joker-order exception, tested below
            assert trick_winner([low, high, c("2S"), c("3S")], H) == 1
            assert trick_winner([high, low, c("2S"), c("3S")], H) == 0


def test_non_trump_rank_a_k_q_j_10_to_2():
    order = cs("AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S")
    for i, high in enumerate(order):
        for low in order[i + 1:]:
            assert trick_winner([low, c("2D"), high, c("3D")], H) == 2


def test_scoring_trumps_are_a_k_q_j_jick_jokers_10_and_2():
    scoring = {x for x in range(54) if ref.is_scoring_trump(x, H)}
    assert scoring == set(cs("AH KH QH JH JD HJ LJ 10H 2H"))


def test_discard_brings_every_hand_to_exactly_6():
    hand9 = cs("AH 3S 4S 5S 6S 7D 8D 9D 3C")
    for discard in legal_discards(hand9, H):
        assert len(discard) == 3
    with pytest.raises(IllegalAction, match="keep 6"):
        verify_discard(hand9, cs("3S 4S"), H)
    with pytest.raises(IllegalAction, match="keep 6"):
        verify_discard(hand9, cs("3S 4S 5S 6S"), H)


def test_discard_t_le_6_keeps_all_trumps():
    # t = 3 (AH 7H JD): keep all three plus any 3 of the six non-trumps
    hand = "AH 7H JD 3S 4S 5S 6D 7D 8C"
    found = keeps(hand, H)
    assert len(found) == 20  # C(6, 3)
    for keep in found:
        assert {"AH", "7H", "JD"} <= keep
    assert can_discard(cs(hand), cs("3S 4S 5S"), H)
    assert can_discard(cs(hand), cs("6D 7D 8C"), H)
    with pytest.raises(IllegalAction, match="trump 7H discarded while non-trump"):
        verify_discard(cs(hand), cs("7H 3S 4S"), H)
    with pytest.raises(IllegalAction, match="scoring trump discarded"):
        verify_discard(cs(hand), cs("AH 3S 4S"), H)


def test_discard_t_exactly_6_keeps_the_6_trumps():
    hand = "AH 3H 4H 5H 6H 7H 2S 3S 4D"
    assert keeps(hand, H) == {frozenset(["AH", "3H", "4H", "5H", "6H", "7H"])}


def test_discard_t_gt_6_s_le_6_keeps_scoring_trumps_and_drops_every_non_trump():
    # t = 8 (AH KH 2H HJ + 3H 4H 5H 6H), s = 4: keep the 4 scoring trumps plus 2 of the 4 low trumps
    hand = "AH KH 2H HJ 3H 4H 5H 6H AS"
    found = keeps(hand, H)
    assert len(found) == 6  # C(4, 2)
    for keep in found:
        assert {"AH", "KH", "2H", "HJ"} <= keep
        assert "AS" not in keep
    with pytest.raises(IllegalAction, match="trump .* discarded while non-trump AS"):
        verify_discard(cs(hand), cs("3H 4H 5H"), H)
    with pytest.raises(IllegalAction, match="scoring trump discarded: KH"):
        verify_discard(cs(hand), cs("KH 3H AS"), H)
    verify_discard(cs(hand), cs("3H 4H AS"), H)


def test_discard_s_gt_6_keeps_6_scoring_trumps_of_choice():
    # s = 8 (AH KH QH JH JD HJ LJ 10H), t = 9 with 3H; bidder with 13 cards
    hand = "AH KH QH JH JD HJ LJ 10H 3H AS KS QS 2C"
    found = keeps(hand, H)
    assert len(found) == 28  # C(8, 6)
    scoring = set(["AH", "KH", "QH", "JH", "JD", "HJ", "LJ", "10H"])
    for keep in found:
        assert keep <= scoring
    verify_discard(cs(hand), cs("AH KH 3H AS KS QS 2C"), H)  # burying the ace is legal here
    with pytest.raises(IllegalAction, match="scoring trump discarded"):
        verify_discard(cs(hand), cs("AH KH QH AS KS QS 2C"), H)  # keeps the 3H over a scoring trump


def test_discard_must_come_from_the_hand_once_each():
    hand = cs("AH 3S 4S 5S 6S 7D 8D 9D 3C")
    with pytest.raises(IllegalAction, match="not in the hand"):
        verify_discard(hand, cs("3S 4S 2C"), H)
    with pytest.raises(IllegalAction, match="twice"):
        verify_discard(hand, [c("3S"), c("3S"), c("4S")], H)


def test_legal_discards_are_complements_of_legal_keeps():
    hand = cs("AH 7H JD 3S 4S 5S 6D 7D 8C")
    for keep, discard in zip(legal_keeps(hand, H), legal_discards(hand, H), strict=True):
        assert sorted(keep + discard) == sorted(hand)


def test_discarded_card_counts_for_nobody():
    # The 10S was discarded: it is in no trick, so Game counts only the cards played.
    tricks = [T(0, "AH 2S 3S 4S", 0), T(0, "KS 5S 6S QS", 0), T(0, "2H JH 7S 8S", 1)]
    result = score_hand(DEFAULT, 0, 2, H, tricks)
    assert result.card_points == (4 + 3 + 2, 1)


def test_discarded_ace_of_trump_gives_no_high():
    tricks = [T(0, "KH 2S 3S 4S", 0), T(0, "2H JH 5S 6S", 1)]
    awards = score_hand(DEFAULT, 0, 2, H, tricks).awards
    assert awards["high"] is None


# =====================================================================================================
# Play
# =====================================================================================================


def test_any_card_may_be_led():
    hand = "AH 3S JD HJ 5C 9D"
    assert legal(DEFAULT, hand, "", H) == set(hand.split())


def test_must_follow_the_led_suit_if_able():
    assert legal(DEFAULT, "AH 3S 5S 5C 9D 2H", "KS", H) == {"3S", "5S"}
    assert not can_play(DEFAULT, cs("AH 3S 5S 5C 9D 2H"), cs("KS"), H, c("AH"))
    with pytest.raises(IllegalAction, match="does not follow suit: KS led spades"):
        verify_play(DEFAULT, cs("AH 3S 5S 5C 9D 2H"), cs("KS"), H, c("5C"))


def test_a_player_who_cannot_follow_may_play_any_card():
    hand = "AH 5C 9D 2H"
    assert legal(DEFAULT, hand, "KS 2S", H) == set(hand.split())


def test_joker_lead_calls_for_trump():
    assert legal(DEFAULT, "AS 3H JD 5C", "HJ", H) == {"3H", "JD"}
    assert legal(DEFAULT, "AS LJ 5C", "HJ", H) == {"LJ"}
    assert legal(DEFAULT, "AS 3H 5C", "LJ", H) == {"3H"}


def test_jick_lead_calls_for_trump():
    assert legal(DEFAULT, "AD 3H 5C QD", "JD", H) == {"3H"}
    # no trump in hand: the jick led trump, so the diamonds need not follow it
    assert legal(DEFAULT, "AD 5C QD", "JD", H) == {"AD", "QD", "5C"}


def test_lead_of_jicks_printed_suit_does_not_call_for_the_jick():
    # diamonds led in hearts: JD is a trump, so a hand whose only diamond is JD may play anything
    assert legal(DEFAULT, "JD 5C 6S", "AD", H) == {"6S", "JD", "5C"}
    # and a hand with a real diamond must play the diamond, not the jick
    assert legal(DEFAULT, "JD 3D 5C", "AD", H) == {"3D"}
    with pytest.raises(IllegalAction, match="does not follow suit"):
        verify_play(DEFAULT, cs("JD 3D 5C"), cs("AD"), H, c("JD"))


def test_trump_anytime_false_forbids_trump_while_able_to_follow():
    assert Rules().trump_anytime is False
    assert not can_play(DEFAULT, cs("3S 2H 5C"), cs("KS"), H, c("2H"))


def test_trump_anytime_true_allows_a_trump_while_able_to_follow():
    rules = Rules(trump_anytime=True)
    assert legal(rules, "3S 2H JD 5C LJ", "KS", H) == {"3S", "2H", "JD", "LJ"}
    assert can_play(rules, cs("3S 2H 5C"), cs("KS"), H, c("2H"))
    # still no off-suit non-trump while able to follow
    assert not can_play(rules, cs("3S 2H 5C"), cs("KS"), H, c("5C"))
    with pytest.raises(IllegalAction, match="or a trump"):
        verify_play(rules, cs("3S 2H 5C"), cs("KS"), H, c("5C"))


def test_a_card_not_in_the_hand_cannot_be_played():
    with pytest.raises(IllegalAction, match="not in the hand"):
        verify_play(DEFAULT, cs("3S 2H"), [], H, c("AS"))


def test_trick_highest_trump_wins():
    assert winning_seat(H, 0, "AS 2H KS QS") == 1
    assert winning_seat(H, 2, "3H 4H 2H 10H") == 1  # 10H played by seat 1
    assert winning_seat(H, 0, "KH JD AH QH") == 2
    assert winning_seat(H, 0, "JD JH 10H HJ") == 1  # J above jick above jokers
    assert winning_seat(H, 0, "HJ JD 9H 2H") == 1  # jick above high joker


def test_trick_without_trump_highest_card_of_the_led_suit_wins():
    assert winning_seat(H, 0, "9S AD KS 10S") == 2
    assert winning_seat(H, 3, "2C AS AD 3C") == 2  # seat 2 played 3C; off-suit aces do not win


def test_jick_does_not_win_as_a_card_of_its_printed_suit():
    # diamonds led, trump spades: JD is an ordinary diamond below QD
    assert winning_seat(S, 0, "JD QD 2D 3D") == 1
    # trump hearts: JD is a trump and beats the led diamonds
    assert winning_seat(H, 0, "AD KD JD QD") == 2


def test_trick_joker_first_played_wins_when_both_jokers():
    assert winning_seat(H, 0, "LJ HJ 10H 2S") == 0
    assert winning_seat(H, 0, "2S LJ HJ 3H") == 1
    assert winning_seat(H, 0, "HJ LJ 3H 2S") == 0
    assert winning_seat(H, 1, "5S 4S LJ HJ") == 3  # played by seat 1+2


def test_joker_order_matters_only_without_higher_trumps():
    assert winning_seat(H, 0, "LJ HJ JD 3H") == 2  # the jick beats both jokers
    assert winning_seat(H, 0, "LJ AH HJ 3H") == 1
    # with one joker in the trick, the order is the usual one: LJ ranks above the 10
    assert winning_seat(H, 0, "10H LJ 9H 3H") == 1
    assert winning_seat(H, 0, "LJ 2S 3S 4S") == 0


def test_team_of_the_winning_card_takes_the_trick():
    # seat 3 wins the trick, so team 1 takes its card points
    tricks = [T(0, "AS KS QS 2H", 3)]
    assert winning_seat(H, 0, "AS KS QS 2H") == 3
    assert score_hand(DEFAULT, 0, 2, H, tricks).card_points == (0, 9)


# =====================================================================================================
# Scoring a hand
# =====================================================================================================

# Team 0 wins High (AH) and Low (2H by seat 0); team 1 takes the JH and wins Game (11 to 4).
SPLIT = [T(0, "AH 2S 3S 4S", 0), T(0, "2H JH 5S 6S", 1), T(1, "10S 7S 8S 9S", 1)]
# Team 0 wins everything: High, Low, Jack and Game (5 to 0).
SWEEP = [T(0, "AH 3H 4H 5H", 0), T(0, "2H 2S 3S 4S", 0), T(0, "JH 5S 6S 7S", 0)]
# Team 0 wins High, Low and Game; the jack of trump is never played.
NO_JACK = [T(0, "AH 3H 4H 5H", 0), T(0, "2H 2S 3S 4S", 0)]
# Team 0 wins High, Low (2H by seat 2) and Jack; Game is tied 5 (AH, JH) to 5 (KS, QS).
TIED_GAME = [T(0, "AH 3S 2H 4S", 0), T(0, "JH 5S 6S 7S", 0), T(0, "QS KS 8S 4D", 1)]


def test_each_point_goes_to_one_team_or_nobody():
    for tricks in (SPLIT, SWEEP, NO_JACK, TIED_GAME):
        result = score_hand(DEFAULT, 0, 2, H, tricks)
        assert set(result.awards) == {"high", "low", "jack", "game"}
        assert set(result.awards.values()) <= {0, 1, None}
        assert sum(result.points) == sum(v is not None for v in result.awards.values())


def test_high_to_the_team_that_played_the_ace_of_trump():
    assert score_hand(DEFAULT, 0, 2, H, SPLIT).awards["high"] == 0
    # seat 1 plays the AH under seat 0's lead
    assert score_hand(DEFAULT, 0, 2, H, [T(0, "3H AH 4H 5H", 1)]).awards["high"] == 1


def test_high_to_nobody_when_the_ace_is_not_played():
    assert score_hand(DEFAULT, 0, 2, H, [T(0, "KH 3H 4H 5H", 0)]).awards["high"] is None


def test_high_highest_option_gives_highest_trump():
    rules = Rules(high="highest")
    tricks = [T(0, "QH KH 4H 5H", 1), T(1, "2H 3H JH 6H", 3)]
    assert score_hand(rules, 0, 2, H, tricks).awards["high"] == 1  # KH, played by seat 1
    assert score_hand(DEFAULT, 0, 2, H, tricks).awards["high"] is None
    assert score_hand(rules, 0, 2, H, SPLIT).awards["high"] == 0  # the ace when it is played
    assert score_hand(rules, 0, 2, H, [T(0, "AS 2S 3S 4S", 0)]).awards["high"] is None  # no trump played


def test_high_highest_ranks_hj_above_lj_whatever_the_play_order():
    rules = Rules(high="highest")
    # LJ was played first and won the trick, but for High the HJ ranks above it
    tricks = [T(0, "LJ HJ 3H 4H", 0)]
    assert score_hand(rules, 0, 2, H, tricks).awards["high"] == 1


def test_low_to_the_team_that_played_the_two_of_trump():
    assert score_hand(DEFAULT, 0, 2, H, SPLIT).awards["low"] == 0
    assert score_hand(DEFAULT, 0, 2, H, [T(0, "AH 2H 3H 4H", 0)]).awards["low"] == 1


def test_low_to_player_even_when_the_other_team_took_the_trick():
    # seat 1 plays the 2H into seat 0's AH: team 0 takes the trick, team 1 gets Low
    tricks = [T(0, "AH 2H 3H 4H", 0)]
    assert Rules().low_to is LowTo.PLAYER
    assert score_hand(DEFAULT, 0, 2, H, tricks).awards["low"] == 1


def test_low_to_nobody_when_the_two_is_not_played():
    assert score_hand(DEFAULT, 0, 2, H, [T(0, "AH 3H 4H 5H", 0)]).awards["low"] is None


def test_low_lowest_option_gives_lowest_trump():
    rules = Rules(low="lowest")
    tricks = [T(0, "AH 3H 5H 4H", 0)]
    assert score_hand(rules, 0, 2, H, tricks).awards["low"] == 1  # 3H, seat 1
    assert score_hand(DEFAULT, 0, 2, H, tricks).awards["low"] is None
    assert score_hand(rules, 0, 2, H, [T(0, "AS 2S 3S 4S", 0)]).awards["low"] is None  # no trump played


def test_low_lowest_ranks_lj_below_hj_whatever_the_play_order():
    rules = Rules(low="lowest")
    # LJ won (played first), HJ was played by seat 1: the lowest trump is still the LJ
    tricks = [T(0, "LJ HJ 2S 3S", 0)]
    assert score_hand(rules, 0, 2, H, tricks).awards["low"] == 0


def test_low_to_taker():
    rules = Rules(low_to="taker")
    tricks = [T(0, "AH 2H 3H 4H", 0)]
    assert score_hand(rules, 0, 2, H, tricks).awards["low"] == 0
    both = Rules(low="lowest", low_to="taker")
    assert score_hand(both, 0, 2, H, [T(0, "AH 3H 5H 4H", 0)]).awards["low"] == 0


def test_jack_to_the_team_that_took_the_trick_containing_it():
    assert score_hand(DEFAULT, 0, 2, H, SPLIT).awards["jack"] == 1
    # seat 0 played the JH but seat 1's AH took it
    assert score_hand(DEFAULT, 0, 2, H, [T(0, "JH AH 3H 4H", 1)]).awards["jack"] == 1


def test_jack_to_nobody_when_not_played():
    assert score_hand(DEFAULT, 0, 2, H, NO_JACK).awards["jack"] is None


def test_game_to_the_team_whose_tricks_hold_more_card_points():
    result = score_hand(DEFAULT, 0, 2, H, SPLIT)
    assert result.card_points == (4, 11)
    assert result.awards["game"] == 1


def test_game_tie_awards_nobody():
    result = score_hand(DEFAULT, 0, 2, H, TIED_GAME)
    assert result.card_points == (5, 5)
    assert result.awards["game"] is None


def test_card_points_a4_k3_q2_j1_ten10_in_every_suit():
    tricks = [T(0, "AS KD QC JS", 0), T(0, "10D 2C 3C 4C", 0), T(0, "JD 5C 6C 7C", 0)]  # JD is the jick in H
    assert score_hand(DEFAULT, 0, 2, H, tricks).card_points == (4 + 3 + 2 + 1 + 10 + 1, 0)


def test_jokers_and_ranks_2_to_9_count_zero_card_points():
    tricks = [T(0, "HJ LJ 2S 9S", 0), T(0, "3D 4D 5D 6D", 0), T(0, "7C 8C 9C 2C", 0)]
    assert score_hand(DEFAULT, 0, 2, H, tricks).card_points == (0, 0)
    assert score_hand(DEFAULT, 0, 2, H, tricks).awards["game"] is None


def test_round_points_off_by_default_four_points():
    result = score_hand(DEFAULT, 0, 2, H, [T(0, "HJ JD LJ 3H", 1)])
    assert set(result.awards) == {"high", "low", "jack", "game"}


def test_round_points_jick_and_jokers_score_to_the_taker():
    rules = Rules(round_points=True)
    # seat 0 plays HJ, seat 1 the jick (wins), seat 2 LJ, seat 3 3H: team 1 takes all three
    result = score_hand(rules, 0, 2, H, [T(0, "HJ JD LJ 3H", 1)])
    assert list(result.awards) == ["high", "low", "jack", "game", "jick", "high_joker", "low_joker"]
    assert (result.awards["jick"], result.awards["high_joker"], result.awards["low_joker"]) == (1, 1, 1)
    assert result.awards["game"] == 1  # the jick's 1 card point
    assert result.points == (0, 4)


def test_round_points_unplayed_cards_score_for_nobody():
    rules = Rules(round_points=True)
    result = score_hand(rules, 0, 2, H, SWEEP)
    assert (result.awards["jick"], result.awards["high_joker"], result.awards["low_joker"]) == (None, None, None)
    assert result.points == (4, 0)


def test_bidding_team_that_makes_its_bid_scores_its_points():
    result = score_hand(DEFAULT, 0, 2, H, SPLIT, (5, 5))
    assert result.points == (2, 2)
    assert result.made is True
    assert result.score_delta == (2, 2)
    assert result.scores_after == (7, 7)


def test_bidding_team_set_scores_minus_its_bid():
    result = score_hand(DEFAULT, 0, 3, H, SPLIT, (5, 5))
    assert result.made is False
    assert result.score_delta == (-3, 2)
    assert result.scores_after == (2, 7)
    # the same from team 1's side: seat 1 bid 4 and took 2
    result = score_hand(DEFAULT, 1, 4, H, SPLIT, (5, 5))
    assert result.made is False
    assert result.score_delta == (2, -4)


def test_going_over_the_bid_costs_nothing():
    result = score_hand(DEFAULT, 0, 2, H, SWEEP)
    assert result.points == (4, 0)
    assert result.made is True
    assert result.score_delta == (4, 0)


def test_other_team_always_scores_its_own_points():
    for bid in (2, 3, 4):
        assert score_hand(DEFAULT, 0, bid, H, SPLIT).score_delta[1] == 2
        assert score_hand(DEFAULT, 1, bid, H, SPLIT).score_delta[0] == 2


def test_moon_requires_all_every_point():
    assert Rules().moon_requires is MoonRequires.ALL
    result = score_hand(DEFAULT, 0, MOON, H, SWEEP, (3, 4))
    assert result.moon is True and result.made is True


def test_moon_requires_all_misses_a_point_the_opponents_won():
    result = score_hand(DEFAULT, 0, MOON, H, SPLIT, (3, 4))
    assert result.moon is False


def test_moon_requires_all_misses_a_tied_point():
    result = score_hand(DEFAULT, 0, MOON, H, TIED_GAME, (3, 4))
    assert result.awards == {"high": 0, "low": 0, "jack": 0, "game": None}
    assert result.moon is False


def test_moon_requires_all_misses_a_point_whose_card_was_never_played():
    result = score_hand(DEFAULT, 0, MOON, H, NO_JACK, (3, 4))
    assert result.moon is False
    assert result.winner == 1


def test_moon_requires_all_with_round_points_needs_jick_and_jokers():
    rules = Rules(round_points=True)
    assert score_hand(rules, 0, MOON, H, SWEEP).moon is False  # jick and jokers never played
    sweep7 = [*SWEEP, T(0, "HJ JD LJ 6H", 0)]
    result = score_hand(rules, 0, MOON, H, sweep7)
    assert result.points == (7, 0)
    assert result.moon is True


def test_moon_requires_in_play_only_the_points_some_team_won():
    rules = Rules(moon_requires="in_play")
    assert score_hand(rules, 0, MOON, H, NO_JACK).moon is True
    assert score_hand(rules, 0, MOON, H, TIED_GAME).moon is True
    assert score_hand(rules, 0, MOON, H, SPLIT).moon is False


def test_moon_success_from_zero_or_more_wins_the_game_at_once():
    for before in ((0, 0), (0, 20), (15, -4)):
        result = score_hand(DEFAULT, 0, MOON, H, SWEEP, before)
        assert result.winner == 0
        assert result.score_delta == (0, 0)
        assert result.scores_after == before
        assert result.bid == MOON and result.made is True


def test_moon_success_from_negative_sets_zero():
    result = score_hand(DEFAULT, 2, MOON, H, SWEEP, (-7, 5))
    assert result.moon is True
    assert result.score_delta == (7, 0)
    assert result.scores_after == (0, 5)
    assert result.winner is None  # the game goes on


def test_moon_success_from_negative_then_game_checks_apply():
    # the other team was already at the target before this hand; after the reset to 0, check 3 applies
    result = score_hand(DEFAULT, 0, MOON, H, SWEEP, (-3, 22))
    assert result.scores_after == (0, 22)
    assert result.winner == 1


def test_moon_failure_loses_the_game_at_once():
    result = score_hand(DEFAULT, 1, MOON, H, SPLIT, (20, -10))
    # team 1 bid the moon; team 0 won High and Low
    assert result.moon is False and result.made is False
    assert result.winner == 0
    assert result.score_delta == (2, 0)  # the other team scores as usual, the bidding team unchanged
    assert result.scores_after == (22, -10)


def test_moon_hand_bidding_team_score_unchanged_other_team_scores_its_points():
    rules = Rules(moon_requires="in_play")
    result = score_hand(rules, 0, MOON, H, SPLIT, (4, 4))
    assert result.moon is False
    assert result.score_delta == (0, 2)


def test_no_moon_bid_means_moon_is_none():
    assert score_hand(DEFAULT, 0, 2, H, SWEEP).moon is None


# =====================================================================================================
# Game
# =====================================================================================================


def test_scores_start_at_0_0_and_target_21():
    assert score_hand(DEFAULT, 0, 2, H, SWEEP).scores_after == (4, 0)
    assert Rules().target == 21


def test_scores_may_go_negative():
    result = score_hand(DEFAULT, 0, 4, H, SPLIT, (1, 0))
    assert result.scores_after == (-3, 2)


def test_moon_result_ends_the_game_before_the_target_checks():
    # a successful moon wins for the bidding team even though the other team is past the target
    result = score_hand(DEFAULT, 0, MOON, H, SWEEP, (0, 25))
    assert result.winner == 0


def test_bidder_goes_out_first():
    # both teams reach 21: the bidding team made its bid, so it wins
    result = score_hand(DEFAULT, 1, 2, H, SPLIT, (19, 19))
    assert result.scores_after == (21, 21)
    assert result.made is True
    assert result.winner == 1


def test_other_team_wins_at_target_when_the_bidding_team_is_set():
    result = score_hand(DEFAULT, 0, 3, H, SPLIT, (25, 19))
    assert result.scores_after == (22, 21)
    assert result.winner == 1


def test_bidding_team_below_target_other_team_at_target_wins():
    result = score_hand(DEFAULT, 0, 2, H, SPLIT, (10, 19))
    assert result.scores_after == (12, 21)
    assert result.winner == 1


def test_otherwise_no_winner_and_the_next_dealer_deals():
    result = score_hand(DEFAULT, 0, 2, H, SPLIT, (10, 10))
    assert result.winner is None


def test_target_option():
    rules = Rules(target=11)
    assert score_hand(rules, 0, 2, H, SWEEP, (7, 0)).winner == 0
    assert score_hand(DEFAULT, 0, 2, H, SWEEP, (7, 0)).winner is None


def test_thrown_in_result_changes_nothing():
    result = ref.thrown_in_result(Rules(forced_bid="none"), (3, -2))
    assert result.to_json() == {
        "bidder": None, "bidding_team": None, "bid": None, "trump": None, "tricks": [],
        "awards": {"high": None, "low": None, "jack": None, "game": None},
        "card_points": [0, 0], "points": [0, 0], "made": None, "score_delta": [0, 0], "scores_after": [3, -2],
        "moon": None, "winner": None,
    }


# =====================================================================================================
# Property tests on random legal hands
# =====================================================================================================


@st.composite
def rules_strategy(draw) -> Rules:
    round_points = draw(st.booleans())
    return Rules(
        round_points=round_points,
        high=draw(st.sampled_from(list(High))),
        low=draw(st.sampled_from(list(Low))),
        low_to=draw(st.sampled_from(list(LowTo))),
        forced_bid=draw(st.sampled_from(list(ForcedBid))),
        moon=draw(st.booleans()),
        moon_requires=draw(st.sampled_from(list(MoonRequires))),
        trump_anytime=draw(st.booleans()),
        misdeal=draw(st.booleans()),
        target=draw(st.integers(1, 30)),
        min_bid=draw(st.integers(1, 7 if round_points else 4)),
    )


# Deterministic (derandomize, no example database) and quick: the whole property suite runs in a few seconds.
PROPERTY = settings(max_examples=400, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _expected_awards(rules: Rules, trump: int, tricks) -> tuple[dict, list[int]]:
    """Awards worked out straight from the docs/rules.md text, as a second reference for the engine."""
    played_by, taken_by = {}, {}
    for trick in tricks:
        for i, x in enumerate(trick.cards):
            played_by[x] = team_of((trick.leader + i) % 4)
            taken_by[x] = team_of(trick.winner)
    order = [int(x) for x in TABLES.trump_cards[trump]]  # highest first
    trumps_played = [x for x in order if x in played_by]
    ace, two, jack = order[0], order[-1], order[3]
    high_card = ace if rules.high is High.ACE else (trumps_played[0] if trumps_played else None)
    low_card = two if rules.low is Low.TWO else (trumps_played[-1] if trumps_played else None)
    low_from = played_by if rules.low_to is LowTo.PLAYER else taken_by
    points = [0, 0]
    for x, team in taken_by.items():
        points[team] += int(CARD_POINTS[x])
    awards = {
        "high": played_by.get(high_card),
        "low": low_from.get(low_card),
        "jack": taken_by.get(jack),
        "game": None if points[0] == points[1] else (0 if points[0] > points[1] else 1),
    }
    if rules.round_points:
        awards |= {"jick": taken_by.get(order[4]), "high_joker": taken_by.get(52), "low_joker": taken_by.get(53)}
    return awards, points


@PROPERTY
@given(rules=rules_strategy(), seed=st.integers(0, 2**32 - 1))
def test_random_legal_hands_score_consistently(rules, seed):
    record = random_record(rules, random.Random(seed))
    parsed = parse_record(record)
    result = replay(parsed)
    out = result.to_json()
    before = tuple(record["scores_before"])
    assert tuple(out["scores_after"]) == (before[0] + out["score_delta"][0], before[1] + out["score_delta"][1])
    if thrown_in(record["bids"]):
        assert rules.forced_bid is ForcedBid.NONE
        assert out["tricks"] == [] and out["points"] == [0, 0] and out["score_delta"] == [0, 0]
        assert all(v is None for v in out["awards"].values())
        return

    # 24 distinct cards are played, six tricks of four, bidder leads, each winner leads the next
    plays = [x for t in result.tricks for x in t.cards]
    assert len(plays) == 24 == len(set(plays))
    assert [card_name(x) for x in plays] == record["plays"]
    assert result.tricks[0].leader == result.bidder
    for previous, following in itertools.pairwise(result.tricks):
        assert following.leader == previous.winner
    for trick in result.tricks:
        assert trick.winner == (trick.leader + trick_winner(trick.cards, result.trump)) % 4

    # card points of the two teams add up to those of the cards played (discards count for nobody)
    assert sum(result.card_points) == sum(int(CARD_POINTS[x]) for x in plays)

    # each point awarded at most once, only to team 0, 1 or nobody, as docs/rules.md says
    awards, card_points = _expected_awards(rules, result.trump, result.tricks)
    assert result.awards == awards
    assert list(result.card_points) == card_points
    assert set(result.awards.values()) <= {0, 1, None}
    assert list(result.points) == [sum(v == team for v in result.awards.values()) for team in (0, 1)]
    assert sum(result.points) <= rules.max_points

    # bid result, moon and game end
    team, other = result.bidding_team, 1 - result.bidding_team
    assert out["score_delta"][other] == result.points[other]
    if result.bid == MOON:
        required = [v for v in result.awards.values()
                    if rules.moon_requires is MoonRequires.ALL or v is not None]
        success = all(v == team for v in required)
        assert result.moon is success and result.made is success
        if success and before[team] < 0:
            assert out["scores_after"][team] == 0
        else:
            assert out["score_delta"][team] == 0
        if not success:
            assert result.winner == other
        elif before[team] >= 0:
            assert result.winner == team
        else:
            assert result.winner == (other if out["scores_after"][other] >= rules.target else None)
    else:
        assert result.moon is None
        assert result.made is (result.points[team] >= result.bid)
        assert out["score_delta"][team] == (result.points[team] if result.made else -result.bid)
        after = out["scores_after"]
        if result.made and after[team] >= rules.target:
            assert result.winner == team
        elif after[other] >= rules.target:
            assert result.winner == other
        else:
            assert result.winner is None


@PROPERTY
@given(rules=rules_strategy(), seed=st.integers(0, 2**32 - 1))
def test_random_records_round_trip_through_json(rules, seed):
    record = random_record(rules, random.Random(seed))
    expected = score_record(record).to_json()
    again = json.loads(json.dumps(record))
    assert score_record(again).to_json() == expected
    parsed = parse_record(again)
    assert parse_record(json.loads(json.dumps(parsed.to_json()))) == parsed
    # a trace line: the record with its result under "result" is accepted and gives the same result
    line = json.loads(json.dumps(record | {"result": expected}))
    assert score_record(line).to_json() == expected


@st.composite
def hand_and_trump(draw):
    trump = draw(st.integers(0, 3))
    size = draw(st.sampled_from([9, 13]))
    trumps = [int(x) for x in TABLES.trump_cards[trump]]
    others = [x for x in range(54) if x not in trumps]
    n_trumps = draw(st.integers(0, min(size, 16)))
    hand = draw(st.lists(st.sampled_from(trumps), min_size=n_trumps, max_size=n_trumps, unique=True))
    hand += draw(st.lists(st.sampled_from(others), min_size=size - n_trumps, max_size=size - n_trumps, unique=True))
    return hand, trump


@settings(PROPERTY, max_examples=150)
@given(hand_and_trump())
def test_legal_keeps_agrees_with_brute_force_can_discard(case):
    hand, trump = case
    produced = list(legal_keeps(hand, trump))
    assert len(produced) == len(set(produced))
    for keep in produced:
        assert len(keep) == 6 and list(keep) == sorted(keep)
    brute = {
        tuple(sorted(keep))
        for keep in combinations(hand, 6)
        if can_discard(hand, [x for x in hand if x not in keep], trump)
    }
    assert set(produced) == brute
    # and the case analysis of docs/rules.md, spelled out
    trumps = {x for x in hand if is_trump(x, trump)}
    scoring = {x for x in trumps if ref.is_scoring_trump(x, trump)}
    by_text = set()
    for keep in combinations(sorted(hand), 6):
        kept = set(keep)
        if len(trumps) <= 6:
            ok = trumps <= kept
        elif len(scoring) <= 6:
            ok = scoring <= kept and kept <= trumps
        else:
            ok = kept <= scoring
        if ok:
            by_text.add(keep)
    assert brute == by_text
    discards = {tuple(d) for d in legal_discards(hand, trump)}
    assert discards == {tuple(x for x in sorted(hand) if x not in keep) for keep in brute}


@st.composite
def play_situation(draw):
    trump = draw(st.integers(0, 3))
    deck = draw(st.permutations(range(54)))
    hand_size = draw(st.integers(1, 6))
    trick_size = draw(st.integers(0, 3))
    return Rules(trump_anytime=draw(st.booleans())), deck[:hand_size], deck[hand_size:hand_size + trick_size], trump


@settings(PROPERTY, max_examples=500)
@given(play_situation())
def test_legal_plays_agrees_with_can_play(case):
    rules, hand, trick, trump = case
    produced = legal_plays(rules, hand, trick, trump)
    assert produced == sorted(x for x in hand if can_play(rules, hand, trick, trump, x))
    assert produced  # a player always has a legal card
    # the text of docs/rules.md: follow the led suit (jick and jokers are trump) if able, else anything
    if trick:
        led = effective_suit(trick[0], trump)
        able = [x for x in hand if effective_suit(x, trump) == led]
        expected = [x for x in hand if not able or effective_suit(x, trump) == led
                    or (rules.trump_anytime and is_trump(x, trump))]
    else:
        expected = list(hand)
    assert produced == sorted(expected)
    for x in hand:
        if x not in produced:
            with pytest.raises(IllegalAction):
                verify_play(rules, hand, trick, trump, x)


@settings(PROPERTY, max_examples=300)
@given(rules=rules_strategy(), seed=st.integers(0, 2**32 - 1), length=st.integers(0, 4))
def test_legal_bids_agrees_with_can_bid(rules, seed, length):
    rng = random.Random(seed)
    auction: list = []
    for _ in range(length):
        calls = legal_bids(rules, auction)
        auction.append(rng.choice(calls))
    candidates = [PASS, MOON, *range(-1, 10)]
    produced = legal_bids(rules, auction)
    assert set(produced) == {b for b in candidates if can_bid(rules, auction, b)}
    if len(auction) < 4:
        assert produced  # someone always has a legal call


def test_illegal_action_is_a_smear_error():
    assert issubclass(IllegalAction, SmearError)


def test_mask_helpers_agree_with_tables():
    for trump in range(4):
        trumps = [x for x in range(54) if is_trump(x, trump)]
        assert mask_of(trumps) == int(TABLES.trump_mask[trump])
