"""The hand analyzer and the bid tables (smear_sim/analysis.py): exact checks, formats and determinism.

Statistical checks compare an estimate with a probability computed exactly in the test, within 4
standard errors, where the SE of a proportion over N samples is sqrt(p (1 - p) / N) with p the exact value.
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import pairwise
from math import comb, sqrt

import numpy as np
import pandas as pd
import pytest

from smear_sim import bid_table, class_table, evaluate_hand, hand_query
from smear_sim.analysis.classes import DEFAULT_FEATURES, ClassTable, moon_table, parse_features
from smear_sim.analysis.hand import PRECISION_BATCH, json_value, parse_hand
from smear_sim.core import layout as L
from smear_sim.core.cards import parse_cards
from smear_sim.core.errors import CardError, SmearError
from smear_sim.core.rules import Rules
from smear_sim.core.tables import MISDEAL_MASK, POINT_NAMES

EXAMPLE = "AH KH 2H JD 10C 5S 9S 4D 3C"


# -- inputs ---------------------------------------------------------------------------------------------------


def test_parse_hand_accepts_strings_names_and_codes():
    codes = tuple(parse_cards(EXAMPLE))
    assert parse_hand(EXAMPLE) == codes
    assert parse_hand("ah,kh, 2h jd,10c 5s 9s 4d 3c") == codes
    assert parse_hand(EXAMPLE.split()) == codes
    assert parse_hand(list(codes)) == codes


@pytest.mark.parametrize(("hand", "words"), [
    ("AH KH 2H JD 10C 5S 9S 4D", "9 cards"),
    ("AH KH 2H JD 10C 5S 9S 4D 3C 3D", "9 cards"),
    ("AH KH 2H JD 10C 5S 9S 4D AH", "appears twice"),
    ("10H KH 2H JD 10C 5S 9S 4D TH", "appears twice"),
    ("AH KH 2H JD 10C 5S 9S 4D ZZ", "unknown card"),
])
def test_parse_hand_rejects_bad_hands(hand, words):
    with pytest.raises(CardError, match=words):
        parse_hand(hand)


def test_parse_hand_rejects_card_codes_outside_the_deck():
    # Regression: an int outside 0-53 used to reach the kernels, which read their tables out of bounds.
    with pytest.raises(CardError):
        parse_hand([0, 1, 2, 3, 4, 5, 6, 7, 60])
    with pytest.raises(CardError):
        parse_hand([0, 1, 2, 3, 4, 5, 6, 7, -1])


def test_parse_features():
    assert parse_features("trumps, TOP") == ("trumps", "top")
    assert parse_features(["jokers"]) == ("jokers",)
    for bad, words in [("trumps,colour", "choose from"), ("", "at least one"), ("top,top", "twice")]:
        with pytest.raises(SmearError, match=words):
            parse_features(bad)


# -- exact checks -------------------------------------------------------------------------------------------------


def test_holding_the_ace_and_two_of_trump_makes_2_for_certain():
    """High and Low go to whoever plays the ace and the two; the heuristic always keeps and plays both."""
    analysis = evaluate_hand("AH 2H 5C 6C 7D 8D 9S 4S 3C", trump="H", samples=20_000, seed=3)
    e = analysis.estimates
    assert e.make.value[0, e.column(2)] == 1.0 and e.make.se[0, e.column(2)] == 0.0
    assert e.awards.value[0, 0] == 1.0 and e.awards.value[0, 1] == 1.0  # high, low
    assert e.distribution.value[0, 0] == 0 and e.distribution.value[0, 1] == 0
    # With the bid always made, EV of 2 = E[own points] - E[other team's points].
    n = analysis.counts[L.CLS_COUNT]
    mean_other = analysis.counts[L.CLS_OTHER_BY_K: L.CLS_OTHER_BY_K + L.MAX_K].sum() / n
    assert e.ev.value[0, e.column(2)] == pytest.approx(e.points.value[0] - mean_other, abs=1e-12)
    row = analysis.to_json()["bids"][0]
    assert row["bid"] == 2 and row["make"] == 1.0 and row["make_se"] == 0.0
    assert row["ev"] == pytest.approx(e.points.value[0] - mean_other, abs=2 * row["ev_se"] + 1e-9)
    assert analysis.to_json()["trump"] == {"fixed": "H", "chosen": {"S": 0.0, "H": 1.0, "D": 0.0, "C": 0.0}}


def exact_point_card_share(hand: str, misdeal: bool = True) -> Fraction:
    """P(the bidding team plays a given trump the hand lacks and which is not of rank 3-9), e.g. the ace.

    The card lies uniformly in one of the 45 unseen places: the kitty (4, taken by the bidder), seat 2
    (partner, 9), seats 1 and 3 (opponents, 18) or the 14 undealt. The deal is conditioned on none of
    seats 1, 2, 3 holding only ranks 3-9. Given where the card lies, the other 44 cards are uniform, so by
    inclusion-exclusion over the seats that could be all-low (a seat holding the card cannot be):
    P(no seat of n is all-low) = sum_k (-1)^k C(n, k) g(k), g(k) = prod_{i<k} C(L - 9i, 9) / C(44 - 9i, 9),
    where L is the number of ranks-3-9 cards among the 45 unseen cards. The heuristic always keeps a
    scoring trump it holds first in its keep order (the ace is first), so the card is played by whoever
    holds it.
    """
    low_in_hand = sum(1 for c in parse_cards(hand) if MISDEAL_MASK >> c & 1)
    n_low = 28 - low_in_hand

    def g(k: int) -> Fraction:
        p = Fraction(1)
        for i in range(k):
            p *= Fraction(comb(n_low - 9 * i, 9), comb(44 - 9 * i, 9))
        return p

    def none_all_low(n: int) -> Fraction:
        return sum((-1) ** k * comb(n, k) * g(k) for k in range(n + 1))

    kitty, partner, opponents, undealt = Fraction(4, 45), Fraction(9, 45), Fraction(18, 45), Fraction(14, 45)
    if not misdeal:
        return kitty + partner  # no conditioning: 13/45
    ours = kitty * none_all_low(3) + partner * none_all_low(2)
    total = (kitty + undealt) * none_all_low(3) + (partner + opponents) * none_all_low(2)
    return ours / total


@pytest.mark.parametrize(("hand", "misdeal"), [
    ("KH QH JH 10C JC QD KD 10S AS", True),
    ("KH QH 5C 6C 7D 8D 9S 4S 3C", True),
    ("KH QH JH 10C JC QD KD 10S AS", False),
], ids=["no_low_cards", "seven_low_cards", "misdeal_off"])
def test_high_and_low_without_the_ace_and_two_match_the_exact_probability(hand, misdeal):
    p = exact_point_card_share(hand, misdeal)
    assert abs(p - Fraction(13, 45)) < Fraction(1, 100)  # close to 13/45, moved by the misdeal conditioning
    samples = 200_000
    analysis = evaluate_hand(hand, trump="H", samples=samples, seed=11, policy="heuristic",
                             rules=Rules(misdeal=misdeal))
    se = sqrt(float(p) * (1 - float(p)) / samples)  # binomial SE of a proportion over the samples
    high, low = analysis.estimates.awards.value[0, :2]
    assert abs(high - float(p)) < 4 * se, (high, float(p), se)
    assert abs(low - float(p)) < 4 * se, (low, float(p), se)


# -- the hand analysis JSON ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [Rules(), Rules(round_points=True, min_bid=3)], ids=["defaults", "round_points"])
def test_hand_analysis_json_fields(rules):
    analysis = evaluate_hand(EXAMPLE, samples=20_000, seed=5, rules=rules)
    data = json.loads(json.dumps(analysis.to_json()))
    m = rules.max_points
    assert {"hand", "samples", "seed", "policy", "trump", "points", "awards", "bids", "recommended_bid"} <= set(data)
    assert data["hand"] == EXAMPLE.split()
    assert (data["samples"], data["seed"], data["policy"]) == (20_000, 5, "heuristic")
    assert data["trump"]["fixed"] is None
    assert set(data["trump"]["chosen"]) == {"S", "H", "D", "C"}
    counts = analysis.counts  # identities on the integer counts; the JSON rounds each figure to its SE
    assert counts[L.CLS_COUNT] == 20_000
    assert counts[L.CLS_TRUMP: L.CLS_TRUMP + 4].sum() == 20_000
    assert counts[L.CLS_HIST: L.CLS_HIST + m + 1].sum() == 20_000
    points = data["points"]
    assert points["se"] > 0 and len(points["distribution"]) == m + 1 == len(points["distribution_se"])
    assert list(data["awards"]) == list(POINT_NAMES[:m]) == list(data["awards_se"])
    numeric = [row for row in data["bids"] if row["bid"] != "moon"]
    assert [row["bid"] for row in numeric] == list(range(rules.min_bid, m + 1))
    for row in numeric:
        assert set(row) >= {"bid", "make", "make_se", "ev", "ev_se"}
        assert row["make_se"] >= 0 and row["ev_se"] > 0
    moon = [row for row in data["bids"] if row["bid"] == "moon"]
    assert len(moon) == 1 and {"make", "make_se"} <= set(moon[0])
    assert data["recommended_bid"] == max(numeric, key=lambda r: (r["ev"], -r["bid"]))["bid"]

    e = analysis.estimates
    dist = e.distribution.value[0]
    assert dist.sum() == pytest.approx(1, abs=1e-12)
    assert float(e.points.value[0]) == pytest.approx(float(dist @ np.arange(m + 1)), abs=1e-12)
    makes = list(e.make.value[0])
    evs = list(e.ev.value[0])
    assert all(a >= b for a, b in pairwise(makes))
    assert all(a >= b for a, b in pairwise(evs))
    hist = counts[L.CLS_HIST: L.CLS_HIST + m + 1]
    for column, (b, make, row) in enumerate(zip(range(rules.min_bid, m + 1), makes, numeric, strict=True)):
        assert make == pytest.approx(hist[b:].sum() / 20_000, rel=1e-12)
        assert row["make"] == json_value(make, e.make.se[0, column])
    best = max(range(rules.min_bid, m + 1), key=lambda b: (evs[b - rules.min_bid], -b))
    assert analysis.recommended_bid == data["recommended_bid"] == best


def test_hand_analysis_is_identical_for_any_threads():
    runs = [evaluate_hand(EXAMPLE, samples=30_001, seed=2, threads=threads) for threads in (1, 2, None)]
    for other in runs[1:]:
        assert other.counts.tobytes() == runs[0].counts.tobytes()
        assert json.dumps(other.to_json()) == json.dumps(runs[0].to_json())
    assert not np.array_equal(evaluate_hand(EXAMPLE, samples=30_001, seed=3).counts, runs[0].counts)


def test_precision_stops_at_the_first_batch_boundary_below_it():
    precision = 0.006
    analysis = evaluate_hand(EXAMPLE, precision=precision, seed=4)
    assert analysis.stopped_by == "precision"
    assert analysis.samples % PRECISION_BATCH == 0 and analysis.samples >= 2 * PRECISION_BATCH
    assert analysis.mean_points.se < precision
    # One batch fewer was not yet precise enough: the first n deals do not depend on the batch size.
    before = evaluate_hand(EXAMPLE, samples=analysis.samples - PRECISION_BATCH, seed=4)
    assert before.mean_points.se >= precision
    assert evaluate_hand(EXAMPLE, samples=analysis.samples, seed=4).counts.tobytes() == analysis.counts.tobytes()
    again = evaluate_hand(EXAMPLE, precision=precision, seed=4, threads=1)
    assert again.samples == analysis.samples and again.counts.tobytes() == analysis.counts.tobytes()
    capped = evaluate_hand(EXAMPLE, precision=1e-6, samples=20_000, seed=4)
    assert capped.stopped_by == "samples" and capped.samples == 20_000


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"precision": 0}, "--precision"),
    ({"precision": -1.0}, "--precision"),
    ({"precision": float("nan")}, "--precision"),
    ({"trump": "X"}, "S H D C"),
    ({"policy": "heuristic,random"}, "single --policy"),
    ({"policy": "psychic"}, "unknown policy"),
    ({"samples": 0}, "^samples must be"),
    ({"threads": 999}, "^threads must be"),
])
def test_evaluate_hand_rejects_bad_arguments(kwargs, words):
    with pytest.raises(SmearError, match=words):
        evaluate_hand(EXAMPLE, **({"samples": 100} | kwargs))


def test_hand_query_checks_everything_before_any_deal():
    query = hand_query(EXAMPLE, precision=0.01, max_samples=50_000, seed=3, trump="C")
    assert (query.job.total, query.job.seed, query.precision, query.trump) == (50_000, 3, 0.01, 3)
    assert hand_query(EXAMPLE).job.total == 100_000
    with pytest.raises(SmearError, match="^seed must be"):
        hand_query(EXAMPLE, seed=-1)


def test_misdeal_callable_hand_is_flagged():
    hand = "3S 4S 5D 6D 7C 8C 9H 3H 4H"
    analysis = evaluate_hand(hand, samples=2000)
    assert analysis.misdeal_callable and analysis.to_json()["misdeal_callable"] is True
    assert not evaluate_hand(hand, samples=2000, rules=Rules(misdeal=False)).misdeal_callable
    assert not evaluate_hand(EXAMPLE, samples=2000).misdeal_callable


# -- bid tables -------------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def table() -> ClassTable:
    return class_table(30_000, seed=3)


def test_class_counts_sum_to_the_hands(table):
    counts = table.counts
    assert counts.shape == (L.N_CLASSES, L.CLS_SIZE)
    assert counts[:, L.CLS_COUNT].sum() == 30_000
    assert counts[:, L.CLS_HIST: L.CLS_HIST + L.MAX_K].sum() == 30_000
    assert counts[:, L.CLS_TRUMP: L.CLS_TRUMP + 4].sum() == 30_000
    frame = table.frame()
    assert frame["hands"].sum() == 30_000
    assert frame["share"].sum() == pytest.approx(1)
    assert list(frame.columns[: len(DEFAULT_FEATURES)]) == list(DEFAULT_FEATURES)


def test_coarser_groups_are_sums_of_finer_groups(table):
    fine = table.frame(DEFAULT_FEATURES)
    coarse = table.frame(("trumps",)).set_index("trumps")
    summed = fine.groupby("trumps")["hands"].sum()
    assert coarse["hands"].to_dict() == summed.to_dict()
    # Means merge as hand-weighted averages of the finer groups.
    weighted = (fine["points"] * fine["hands"]).groupby(fine["trumps"]).sum() / summed
    assert np.allclose(coarse["points"], weighted.loc[coarse.index])
    for by in [("top", "two"), ("jokers", "aces")]:
        assert table.frame(by)["hands"].sum() == 30_000


def test_small_groups_are_flagged_and_get_no_bid(table):
    frame = table.frame(DEFAULT_FEATURES, min_count=200)
    small = frame["hands"] < 200
    assert small.any() and (~small).any()
    assert not frame.loc[small, "reliable"].any()
    assert frame.loc[~small, "reliable"].all()
    assert frame.loc[small, "bid_up_to"].isna().all()
    assert not frame.loc[small, "moon_pays"].any()
    reliable_bids = frame.loc[~small, "bid_up_to"].dropna()
    assert reliable_bids.between(2, 4).all()
    assert frame.attrs["min_count"] == 200 and frame.attrs["hands"] == 30_000


def test_class_table_save_and_load_round_trip(table, tmp_path):
    path = tmp_path / "counts.npz"
    table.save(path)
    loaded = ClassTable.load(path)
    assert np.array_equal(loaded.counts, table.counts)
    assert (loaded.hands, loaded.seed, loaded.policy, loaded.rules) == (table.hands, table.seed, table.policy,
                                                                        table.rules)
    pd.testing.assert_frame_equal(loaded.frame(), table.frame())
    with pytest.raises(SmearError, match="does not exist"):
        ClassTable.load(tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_text("not a zip file")
    with pytest.raises(SmearError, match="not a class-count file from smear_sim.class_table"):
        ClassTable.load(tmp_path / "junk.npz")


def test_class_counts_from_before_games_still_load(table, tmp_path):
    """Files saved before the joint points histogram load with it empty, and refuse only the game view."""
    path = tmp_path / "old.npz"
    meta = {"hands": table.hands, "seed": table.seed, "policy": table.policy, "rules": table.rules.as_dict()}
    np.savez_compressed(path, counts=table.counts[:, :L.CLS_JOINT], meta=np.array(json.dumps(meta)))
    old = ClassTable.load(path)
    assert table.has_joint and not old.has_joint
    pd.testing.assert_frame_equal(old.frame(), table.frame())
    joint = table.counts[:, L.CLS_JOINT:].reshape(-1, L.MAX_K, L.MAX_K)
    assert np.array_equal(joint.sum(axis=2), table.counts[:, L.CLS_HIST: L.CLS_HIST + L.MAX_K])
    from smear_sim import match_equity

    equity = match_equity(20_000, seed=1, floor=-10)
    with pytest.raises(SmearError, match="saved before games"):
        moon_table(old, ("trumps",), score=(3, 4), equity=equity)
    assert len(moon_table(table, ("trumps",), score=(3, 4), equity=equity))


def test_moon_table_is_sorted_and_values_the_moon_at_the_target():
    rules = Rules(target=11)
    small = class_table(20_000, seed=4, rules=rules)
    moon = moon_table(small, ("trumps", "top"), min_count=100)
    assert list(moon["moon"]) == sorted(moon["moon"], reverse=True)
    assert np.allclose(moon["moon_ev"], (2 * moon["moon"] - 1) * 11)
    assert np.allclose(moon["moon_gain"], moon["moon_ev"] - moon["best_numeric_ev"])
    frame = small.frame(("trumps", "top"), 100).set_index(["trumps", "top"])
    indexed = moon.set_index(["trumps", "top"])
    assert np.allclose(indexed["best_numeric_ev"], frame.loc[indexed.index, "ev2"])
    assert (indexed["moon_pays"] == (indexed["reliable"] & (indexed["moon_gain"] > 0))).all()


def test_class_table_is_identical_for_any_threads_and_chunks():
    runs = [class_table(20_011, seed=8, threads=threads, chunk_size=chunk)
            for threads, chunk in [(1, 1000), (2, 4096), (2, 1 << 18)]]
    for other in runs[1:]:
        assert other.counts.tobytes() == runs[0].counts.tobytes()
        pd.testing.assert_frame_equal(other.frame(), runs[0].frame())
    assert not np.array_equal(class_table(20_011, seed=9).counts, runs[0].counts)


def test_bid_table_is_the_class_table_grouped():
    frame = bid_table(10_000, by="trumps,jokers", min_count=50, seed=2)
    pd.testing.assert_frame_equal(frame, class_table(10_000, seed=2).frame(("trumps", "jokers"), 50))


def test_tables_reject_mixed_policies():
    with pytest.raises(SmearError, match="single --policy"):
        class_table(100, policy="heuristic,random")
