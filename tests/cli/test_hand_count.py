"""``smear-sim hand`` shows the hand's count (docs/players.md, "The count"): in the table and as the JSON key
``count``, added beside the keys that were there."""

from __future__ import annotations

import json

from cli_helpers import ok

from smear_sim.core.cards import parse_cards
from smear_sim.core.count import count_summary
from smear_sim.core.rules import Rules

HAND = "AH KH 2H JD 10C 5S 9S 4D 3C"


def test_the_json_has_the_count(hand_json):
    data = json.loads(hand_json.read_text(encoding="utf-8"))
    assert data["count"] == count_summary(parse_cards(HAND), Rules())
    assert data["count"]["suit"] == "H" and data["count"]["points"] == sum(data["count"]["by_card"].values())
    assert "call" not in data["count"]  # a call only with --position
    assert {"hand", "trump", "points", "awards", "bids", "recommended_bid"} <= set(data)


def test_the_table_shows_the_count_and_its_call_at_a_place():
    points = count_summary(parse_cards(HAND), Rules())["points"]
    assert f"Count: {points} in hearts" in ok("hand", HAND, "--samples", "2000").stdout
    args = ("hand", HAND, "--position", "3", "--auction", "2,pass", "--samples", "1000", "--equity-hands", "5000")
    data = json.loads(ok(*args, "--json").stdout)
    assert data["count"]["call"] == count_summary(parse_cards(HAND), Rules(), (2, 0), (0, 0))["call"]
    assert "the count calls" in ok(*args).stdout
