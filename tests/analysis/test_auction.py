"""What to call at a place in the auction (analysis/auction.py): legal calls, the rejection sampler, and the
values of calls checked against the declarer analysis where the calls before carry no information.

Tolerances are stated in standard errors (SE).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from smear_sim import evaluate_auction, evaluate_hand
from smear_sim.analysis.auction import legal_calls, parse_auction
from smear_sim.analysis.bidder_tables import player_bidder_arrays
from smear_sim.core import layout as L
from smear_sim.core.cards import mask_of, parse_cards
from smear_sim.core.errors import SmearError
from smear_sim.core.players import policy_array
from smear_sim.core.rules import Rules
from smear_sim.kernels import drivers
from smear_sim.kernels.hand import auction_from

HAND = "AH KH 2H JD 10C 5S 9S 4D 3C"
DEALER_STUCK = Rules(forced_bid="dealer")


def test_after_4_pass_pass_only_pass_and_moon_are_legal():
    assert legal_calls(Rules(), [4, L.PASS, L.PASS]) == [L.PASS, L.MOON]
    analysis = evaluate_auction(HAND, position=4, auction="4,pass,pass", samples=300, equity_hands=20_000)
    assert [row["call"] for row in analysis.to_json()["calls"]] == ["pass", "moon"]
    assert analysis.samples >= 300 and analysis.deals > analysis.samples  # the heuristic opens 4 with a few hands


def test_legal_calls_follow_the_rules():
    assert legal_calls(Rules(), []) == [2, 3, 4, L.MOON]  # the opener must bid
    assert legal_calls(DEALER_STUCK, [L.PASS] * 3) == [2, 3, 4, L.MOON]  # stick the dealer
    assert legal_calls(DEALER_STUCK, [L.PASS, 2, L.PASS]) == [L.PASS, 3, 4, L.MOON]
    assert legal_calls(Rules(moon=False, round_points=True, min_bid=3), [L.PASS]) == [L.PASS, 3, 4, 5, 6, 7]
    assert legal_calls(Rules(), [2, L.MOON]) == [L.PASS]


@pytest.mark.parametrize("position, auction, rules, problem", [
    (3, "pass", Rules(), "needs the 2 call"),
    # the opener must bid; regression: "call 2 (2) is not legal there" read the call's place and value alike
    (2, "pass", Rules(), "the first call, a pass, is not legal at the start of the auction under these rules; the "
                         "legal calls there are 2, 3, 4, moon"),
    (3, "3,2", Rules(), "the second call, a bid of 2, is not legal after a bid of 3 under these rules; the legal "
                        "calls there are pass, 4, moon"),
    (4, "moon,3,pass", Rules(), "the second call, a bid of 3, is not legal after moon under these rules"),
    (4, "2,pass,2", Rules(), "the third call, a bid of 2, is not legal after a bid of 2, a pass under these rules"),
    (2, "five", Rules(), "'five' is not a call"),
    (5, "", Rules(), "--position must be 1"),
])
def test_parse_auction_refuses_what_could_not_have_been_called(position, auction, rules, problem):
    with pytest.raises(SmearError, match=re.escape(problem)):
        parse_auction(auction, position, rules)


def test_parse_auction_reads_calls():
    assert parse_auction("Pass, 3 ,MOON", 4, DEALER_STUCK) == (L.PASS, 3, L.MOON)
    assert parse_auction(None, 1, Rules()) == ()


def test_under_random_bidding_three_passes_tell_nothing():
    """Random calls carry no information about the cards: after three passes the dealer (who must then bid) makes
    each bid as often as the declarer analysis says (docs/rules.md, "Hand analysis")."""
    auction = evaluate_auction(HAND, position=4, auction="pass,pass,pass", samples=6000, policy="random",
                               rules=DEALER_STUCK, equity_hands=20_000, seed=3)
    declarer = evaluate_hand(HAND, samples=40_000, policy="random", rules=DEALER_STUCK, score=None, seed=4)
    assert auction.acceptance.value == pytest.approx(1 / 125, abs=5 * math.sqrt(1 / 125 / auction.deals))
    e = declarer.estimates
    made = {row["call"]: row for row in auction.call_rows()}
    assert "pass" not in made  # the dealer is stuck
    for column, bid in enumerate(e.bids):
        assert made[bid]["declares"] == 1
        est = auction.estimates[bid]["make"]
        assert abs(est.value - e.make.value[0, column]) < 4 * math.hypot(est.se, e.make.se[0, column]), bid
    moon = auction.estimates[L.MOON]["make"]
    assert abs(moon.value - e.moon.value[0]) < 4 * math.hypot(moon.se, e.moon.se[0])


def test_under_the_heuristic_passes_show_weak_hands():
    """The heuristic passes only hands worth little, so after three passes the dealer (stuck, so it declares) makes 3
    more often than the declarer of a random deal: a typical hand, no ace, jacks and queens. (Under min_bid=3, so
    that the heuristic passes often enough to sample three passes. Making 4 gets rarer instead: with three weak
    hands out, more of the scoring cards are among the 14 undealt, and 4 needs them all.)"""
    hand, rules = "10C 9D JC QH KD JH KC 4D QS", Rules(forced_bid="dealer", min_bid=3)
    auction = evaluate_auction(hand, position=4, auction="pass,pass,pass", samples=3000, rules=rules,
                               equity_hands=20_000, seed=5)
    declarer = evaluate_hand(hand, samples=20_000, rules=rules, score=None, seed=6)
    after_passes = auction.estimates[3]["make"]
    alone = declarer.estimates.make[0, declarer.estimates.column(3)]
    assert after_passes.value - alone.value > 3 * math.hypot(after_passes.se, alone.se)
    assert auction.estimates[3]["declares"].value == 1


@pytest.mark.parametrize("policy, score", [("heuristic", (0, 0)), ("equity", (17, 12))])
def test_rejection_sampled_deals_reproduce_the_calls(policy, score):
    """Each kept deal, bid again from the start by the policy, gives the calls it was kept for."""
    rules = Rules()
    prior = parse_auction("2,pass", 3, rules)
    policies = (policy, policy)
    prior_array = np.zeros(4, dtype=np.int64)
    prior_array[:2] = prior
    seat = 2  # the dealer is seat 3: the third to call is seat 2, of team 0
    deals, tried = drivers.auction_deals(np.uint64(9), 200, 10**6, rules.to_array(), policy_array(policies),
                                         player_bidder_arrays(policies, rules), np.uint64(mask_of(parse_cards(HAND))), 2,
                                         prior_array, *score,
                                         drivers.seated_arg(policy_array(policies)))
    assert len(deals) == 200 and tried > 200
    state = np.zeros(1, dtype=np.uint64)
    players = (rules.to_array(), policy_array(policies), player_bidder_arrays(policies, rules),
               drivers.seated_arg(policy_array(policies)))
    for hands in deals:
        assert hands[seat] == mask_of(parse_cards(HAND))
        calls = np.zeros(4, dtype=np.int64)
        auction_from(state, hands.copy(), 3, score[0], score[1], *players, calls, 0)
        assert tuple(calls[:2]) == prior


def test_every_call_meets_the_same_deals():
    """Common random numbers: the difference between two calls has a far smaller standard error than the calls."""
    analysis = evaluate_auction(HAND, position=2, auction="2", samples=3000, equity_hands=20_000)
    best, second = analysis.ranked[:2]
    d_win, d_ev = analysis.difference(best, second)
    a, b = analysis.estimates[best], analysis.estimates[second]
    sampling = [math.sqrt(max(e["ev"].se, 1e-12) ** 2) for e in (a, b)]
    assert d_ev.se < 0.8 * math.hypot(*sampling)
    assert d_win.value > 0 and analysis.recommended_call == analysis.to_json()["advice"]["call"]
    assert d_ev.value == pytest.approx(a["ev"].value - b["ev"].value)
    data = analysis.to_json()
    assert data["recommended_call"] == max(data["calls"], key=lambda row: row["win"])["call"]
    assert data["auction"]["before"] == [2] and data["position"] == 2


def test_calls_too_rare_to_sample_stop_at_once_with_one_line():
    with pytest.raises(SmearError, match=r"fit only .*% of deals under heuristic bidding.*--max-deals 2,000,000"):
        evaluate_auction(HAND, position=4, auction="moon,pass,pass", samples=100_000, max_deals=2_000_000,
                         equity_hands=20_000)


def test_precision_stops_once_every_call_is_precise_enough():
    analysis = evaluate_auction(HAND, position=1, precision=0.05, equity_hands=20_000)
    assert analysis.stopped_by == "precision"
    assert max(e["ev"].se for e in analysis.estimates.values()) < 0.05
    assert analysis.acceptance.value == 1  # the opener: no call before it
