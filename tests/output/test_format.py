"""The one place for labels and number formats (smear_sim/output/format.py)."""

from __future__ import annotations

import math

import pytest

from smear_sim.analysis.classes import DEFAULT_FEATURES
from smear_sim.analysis.classes import FEATURES as DEFINED
from smear_sim.core.rules import Rules
from smear_sim.output import format as F


def test_every_defined_feature_has_one_label_and_no_other():
    assert list(F.FEATURES) == list(DEFINED)
    assert set(DEFAULT_FEATURES) <= set(F.FEATURES)
    shorts = [label.short for label in F.FEATURES.values()]
    assert len(set(shorts)) == len(shorts)  # a narrow column header names one feature
    for name, label in F.FEATURES.items():
        assert label.name == name and label.help


@pytest.mark.parametrize(("name", "value", "cell", "words"), [
    ("trumps", 4, "4", "4 trumps"),
    ("trumps", 1, "1", "1 trump"),
    ("top", "jick", "jick", "jick top"),
    ("two", True, "2", "the 2"),
    ("two", False, "-", "no 2"),
    ("jack", True, "J", "the J"),
    ("jick", False, "-", "no jick"),
    ("jokers", 0, "0", "no jokers"),
    ("jokers", 2, "2", "2 jokers"),
    ("aces", 1, "1", "1 off ace"),
])
def test_feature_cells_and_words(name, value, cell, words):
    assert F.FEATURES[name].cell(value) == cell
    assert F.FEATURES[name].words(value) == words


def test_class_words_and_legend():
    row = {"trumps": 5, "top": "A", "two": True, "jack": False, "jick": True, "jokers": 1}
    assert F.class_words(row, DEFAULT_FEATURES) == "5 trumps, A top, the 2, no J, the jick, 1 joker"
    assert F.feature_legend(DEFAULT_FEATURES) == "tr = trumps, 2 = two, J = jack, jok = jokers"


def test_estimates_in_both_forms():
    assert F.estimate_text(2.98812, 0.00412) == "2.988 ± 0.004"
    assert F.estimate_text(0.9076, 0.0009, percent=True) == "90.76 ± 0.09%"
    assert F.estimate_cell(2.5191, 0.00113) == "2.5191(11)"
    assert F.estimate_cell(0.881, 0.003, percent=True) == "88.1(3)"
    for missing in (math.nan, None, float("inf")):
        assert F.estimate_text(missing, 0.1) == "" and F.estimate_cell(missing, 0.1) == ""


def test_rules_label_names_the_rules_not_a_file():
    assert F.rules_label(Rules()) == "default rules"
    assert F.rules_label(Rules(round_points=True, target=15)) == "rules: round_points=true, target=15"
    assert F.rules_label({"low_to": "taker"}) == "rules: low_to=taker"


def test_suit_label():
    assert F.suit_label(1) == F.suit_label("H") == "hearts ♥"
    assert [F.suit_label(s) for s in "SDC"] == ["spades ♠", "diamonds ♦", "clubs ♣"]


def test_columns_format_a_row():
    rules = Rules(round_points=True, min_bid=3)
    columns = {c.key: c for c in F.bid_table_columns(["trumps", "two"], rules)}
    assert [key for key in columns if key.startswith("make")] == [f"make{b}" for b in range(3, 8)]
    row = {"trumps": 4, "two": False, "hands": 12345, "points": 3.2, "points_se": 0.012, "bid_up_to": None,
           "make3": 0.9, "make3_se": 0.004, "moon": 0.1, "moon_se": 0.01}
    assert columns["hands"].text(row) == "12,345"
    assert columns["two"].text(row) == "-"
    assert columns["points"].text(row) == "3.200 ± 0.012" and columns["points"].text(row, concise=True) == "3.200(12)"
    assert columns["make3"].text(row) == "90.0 ± 0.4%" and columns["make3"].text(row, concise=True) == "90.0(4)"
    assert columns["bid_up_to"].text(row) == "-" and columns["bid_up_to"].text(row | {"bid_up_to": 4}) == "4"
    moon = {c.key: c for c in F.moon_table_columns(["trumps"])}
    assert moon["moon_pays"].text({"moon_pays": True}) == "yes"


def test_rule_sets_are_named_for_people():
    assert F.rules_name(Rules()) == "default rules"
    assert F.rules_name(Rules(round_points=True)) == "round points"
    assert F.rules_name({"round_points": True, "target": 15}) == "round points, target=15"
    assert F.rules_change_name(Rules(), Rules(round_points=True)) == "round points"
    assert F.rules_change_name(Rules(round_points=True), Rules()) == "no round points"
    assert F.rules_change_name(Rules(target=11), Rules(target=11, round_points=True, min_bid=3)) == \
        "round points, min_bid=3"


def test_what_a_moon_needs_follows_the_rules():
    assert F.moon_needs(Rules()).startswith("A moon must win all 4 points at stake (High, Low, Jack and Game);")
    assert F.moon_needs(Rules(round_points=True)).startswith(
        "A moon must win all 7 points at stake (High, Low, Jack, Game, the jick and both jokers);")
    assert F.moon_needs(Rules(moon_requires="in_play")).startswith("A moon must win every point that some team won")


@pytest.mark.parametrize(("share", "text"), [(0.27992, "28.0%"), (0.01, "1.0%"), (0.0054, "0.54%"),
                                             (0.00002, "0.002%"), (0.0, "0.0%"), (float("nan"), "-"), (None, "-")])
def test_shares_of_hands(share, text):
    assert F.share_text(share) == text
