"""The count a person adds up at the table: its arithmetic, its calls and its fit (smear_sim.core.count,
smear_sim.analysis.count)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from smear_sim.analysis.count import _best_steps, count_markdown
from smear_sim.core.cards import mask_of, parse_cards
from smear_sim.core.count import (
    KINDS,
    NEVER,
    CountRule,
    count_rule,
    count_summary,
    hand_count,
    legal_slots,
    load_counts,
    save_counts,
    situation_of,
)
from smear_sim.core.errors import SmearError
from smear_sim.core.layout import MOON, PASS
from smear_sim.core.rules import Rules

SHIPPED = count_rule(Rules())


def simple_rule(weights=(4, 1, 3, 2, 1, 3, 1, 2)) -> CountRule:
    rules = Rules()
    needs = np.full((1, 1, 4, 9, 6), NEVER, dtype=np.int64)
    needs[..., 0] = -NEVER  # pass needs nothing
    needs[:, :, 0, 0, 2] = -NEVER  # the opener must bid: 2 needs nothing
    needs[..., 3] = 12
    needs[..., 5] = 20
    return CountRule("default", rules, weights, needs)


def test_the_count_of_sample_hands_by_hand():
    rule = simple_rule()  # ace 4, king 1, jack 3, jick 2, joker 1, two 3, trump 1, off-suit ace 2
    hand = parse_cards("AH KH 2H JD 10C 5S 9S 4D 3C")
    # hearts: AH 4+1, KH 1+1, 2H 3+1, JD (the jick) 2+1 = 14; no other suit comes close
    assert hand_count(hand, rule) == {"points": 14, "suit": "H",
                                      "by_card": {"AH": 5, "2H": 4, "JD": 3, "KH": 2}}
    # spades: JS 3+1, JC (jick) 2+1, HJ 1+1, LJ 1+1, 5S 1, AD and AC 2 each = 16; but clubs: AC 4+1, JC 3+1,
    # JS (jick) 2+1, HJ 1+1, LJ 1+1, AD 2 = 18
    assert hand_count(parse_cards("JS JC HJ LJ 5S AD AC 3H 4H"), rule) == {
        "points": 18, "suit": "C", "by_card": {"AC": 5, "JC": 4, "JS": 3, "AD": 2, "HJ": 2, "LJ": 2}}
    assert rule.suit_count(mask_of(parse_cards("JS JC HJ LJ 5S AD AC 3H 4H")), 0)[0] == 16
    # a tie between suits goes to the first in the order S H D C
    assert hand_count(parse_cards("3S 4S 5S 3H 4H 5H 6D 7D 8C"), rule) == {
        "points": 3, "suit": "S", "by_card": {"3S": 1, "4S": 1, "5S": 1}}


def test_the_shipped_count_adds_its_weights():
    weight = SHIPPED.weight
    hand = mask_of(parse_cards("AH KH 2H JD 10C 5S 9S 4D 3C"))
    hearts = (weight["ace"] + weight["king"] + weight["two"] + weight["jick"] + 4 * weight["trump"] +
              2 * weight["off_ace"] * 0)
    assert SHIPPED.count(hand) == (hearts, 1)
    assert set(SHIPPED.weight) == set(KINDS) and all(w >= 0 for w in SHIPPED.weights)


def test_a_stronger_count_never_calls_lower():
    for rule in load_counts().values():
        m = rule.rules.max_points
        for bu, bt, place, situation in itertools.product(range(len(rule.bands) + 1), range(len(rule.bands) + 1),
                                                          range(4), range(2 * m + 1)):
            us = rule.bands[bu - 1] if bu else 0
            them = rule.bands[bt - 1] if bt else 0
            calls = [rule.call(k, place, situation, us, them) for k in range(0, 40)]
            assert calls == sorted(calls), (bu, bt, place, situation)
            legal = legal_slots(rule.rules, place, situation)
            assert all(legal[c] for c in calls)


def test_the_call_is_read_by_score_band():
    rule = simple_rule()
    assert rule.call(0, 0, 0) == 2  # the opener must bid
    assert rule.call(0, 1, 4) == 0 and rule.call(12, 1, 4) == 3 and rule.call(25, 1, 4) == 5
    assert rule.call(12, 1, 6) == 0  # 3 standing: a 3 is not legal, so the count passes
    banded = CountRule("default", Rules(), rule.weights, np.repeat(np.repeat(rule.needs, 2, 0), 2, 1), (15,))
    banded.needs[1, :, 1, 4, 3] = 8  # near the target the second seat bids 3 on less
    assert banded.band(14) == 0 and banded.band(15) == 1 and banded.band(-3) == 0
    assert banded.call(10, 1, 4, 0, 0) == 0 and banded.call(10, 1, 4, 16, 0) == 3


def test_situations_as_the_kernels_read_them():
    assert situation_of(()) == 0 and situation_of((PASS,)) == 0
    assert situation_of((2,)) == 4  # 2 by the opener, an opponent of the second seat
    assert situation_of((2, PASS)) == 3  # 2 by the third seat's partner
    assert situation_of((2, 3, PASS)) == 5  # 3 by the dealer's partner
    assert situation_of((2, PASS, 3)) == 6


def test_count_summary_is_the_json_of_smear_sim_hand():
    cards = parse_cards("AH KH 2H JD 10C 5S 9S 4D 3C")
    plain = count_summary(cards, Rules())
    assert set(plain) == {"points", "suit", "by_card", "variant"} and plain["suit"] == "H"
    assert plain["points"] == sum(plain["by_card"].values())
    at_turn = count_summary(cards, Rules(), (2, PASS), (0, 0))
    assert at_turn["call"] in ("pass", 3, 4, "moon")
    assert count_summary(cards, Rules(), (MOON,), (0, 0))["call"] is None


def test_files_round_trip_and_bad_files_are_refused(tmp_path):
    path = tmp_path / "count.json"
    save_counts({"default": simple_rule()}, path)
    loaded = load_counts(path)["default"]
    assert loaded.weights == simple_rule().weights and np.array_equal(loaded.needs, simple_rule().needs)
    path.write_text("{}")
    with pytest.raises(SmearError, match="not a count file"):
        load_counts(path)
    with pytest.raises(SmearError, match="weights"):
        CountRule("default", Rules(), (1, 2), simple_rule().needs)


def test_the_steps_are_the_best_non_decreasing_ones():
    rng = np.random.default_rng(4)
    legal = np.array([True, False, True, True, False, True])
    for _ in range(30):
        score = rng.normal(size=(5, 6))
        steps = _best_steps(score, legal)
        assert np.all(np.diff(steps) >= 0) and legal[steps].all()
        slots = np.flatnonzero(legal)
        best = max(sum(score[i, s] for i, s in enumerate(f))
                   for f in itertools.combinations_with_replacement(slots, 5))
        assert sum(score[i, s] for i, s in enumerate(steps)) == pytest.approx(best)


def test_the_markdown_table_lists_weights_and_needs():
    text = count_markdown(SHIPPED)
    assert "| ace of trump |" in text and "| opener | none |" in text
    assert text.count("Your score") == len(SHIPPED.bands) + 1
    simple = count_markdown(simple_rule())
    assert "What each call needs" in simple and "| second | 2 by opponent | 3: 12, moon: 20 |" in simple
    assert "| opener | none | 3: 12, moon: 20 |" in simple and "| second | 4 by opponent | moon: 20 |" in simple


def test_a_small_fit_gives_a_count_that_calls_like_the_bidder_mostly():
    from pathlib import Path

    from smear_sim.analysis.bidder_tables import bidder_tables
    from smear_sim.analysis.classes import ClassTable
    from smear_sim.analysis.count import fit_count

    table = ClassTable.load(Path(__file__).resolve().parents[2] / "results" / "bid_table.npz")
    rule = fit_count(table, bidder_tables(Rules()), hands=4000, passes=0, bands=(15,))
    assert rule.needs.shape == (2, 2, 4, 9, 6) and rule.weights == tuple(rule.meta["least_squares_weights"])
    accuracy = rule.meta["accuracy_0_0"]
    assert accuracy["agree"] > 0.8 and -0.01 < accuracy["cost"] <= 0
    assert set(accuracy["by_place"]) == {"opener", "second", "third", "dealer"}
