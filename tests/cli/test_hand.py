"""``smear-sim hand`` from the outside: the table, the JSON, the options, and the call at a place in the
auction."""

from __future__ import annotations

import json

from cli_helpers import ok

HAND = "AH KH 2H JD 10C 5S 9S 4D 3C"


PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_hand_table():
    out = ok("hand", HAND, "--samples", "5000", "--seed", "2").stdout
    assert f"{HAND} as bidder: 5,000 deals, seed 2" in out
    assert "Recommended bid" in out and "P(make)" in out


def test_hand_json_fields(hand_json):
    data = json.loads(hand_json.read_text(encoding="utf-8"))
    assert data["hand"] == HAND.split() and data["samples"] == 5000 and data["policy"] == "heuristic"
    assert {"trump", "points", "awards", "bids", "recommended_bid"} <= set(data)
    assert [row["bid"] for row in data["bids"]] == [2, 3, 4, "moon"]
    assert len(data["points"]["distribution"]) == 5


def test_hand_options_trump_rules_and_plot(tmp_path):
    chart = tmp_path / "dist.svg"
    data = json.loads(ok("hand", "ah,kh,2h,jd,10c,5s,9s,4d,3c", "--trump", "h", "--samples", "3000",
                         "--rule", "round_points=true", "--plot", str(chart), "--json").stdout)
    assert data["trump"]["fixed"] == "H" and data["trump"]["chosen"]["H"] == 1.0
    assert len(data["points"]["distribution"]) == 8
    assert "<svg" in chart.read_text(encoding="utf-8")


def test_hand_precision_is_deterministic():
    args = ["hand", HAND, "--precision", "0.01", "--json"]
    one = json.loads(ok(*args, "--threads", "1").stdout)
    two = json.loads(ok(*args, "--threads", "2").stdout)
    assert one == two
    assert one["samples"] % 10_000 == 0 and one["points"]["se"] < 0.01 and one["stopped_by"] == "precision"


def test_misdeal_callable_hand_warns_on_stderr():
    result = ok("hand", "3S 4S 5D 6D 7C 8C 9H 3H 4H", "--samples", "2000", "--json")
    assert "misdeal" in result.stderr and result.stderr.startswith("warning:")
    assert json.loads(result.stdout)["misdeal_callable"] is True
    quiet = ok("hand", "3S 4S 5D 6D 7C 8C 9H 3H 4H", "--samples", "2000", "--rule", "misdeal=false")
    assert quiet.stderr == ""
    assert ok("hand", HAND, "--samples", "2000").stderr == ""


def test_hand_at_a_place_in_the_auction_advises_a_call():
    args = ("hand", HAND, "--position", "3", "--auction", "2,pass", "--samples", "2000", "--equity-hands", "20000")
    data = json.loads(ok(*args, "--json").stdout)
    assert [row["call"] for row in data["calls"]] == ["pass", 3, 4, "moon"]
    for row in data["calls"]:
        assert {"call", "win", "win_se", "ev", "ev_se", "declares"} <= set(row)
    assert data["recommended_call"] == max(data["calls"], key=lambda row: row["win"])["call"]
    assert data["position"] == 3 and data["auction"]["before"] == [2, "pass"]
    assert 0 < data["auction"]["acceptance"] < 1 and data["auction"]["samples"] >= 2000
    assert data["advice"]["call"] == data["recommended_call"] and data["advice"]["win_gain"] > 0
    assert data["bids"] and data["bid_up_to"]  # the declarer's view is still there
    text = ok(*args).stdout
    assert f"Advice: {'pass' if data['recommended_call'] == 'pass' else 'bid'}" in text or "Advice: shoot" in text
    assert "than " in text and "the next best call" in text and "The declarer's view" in text
