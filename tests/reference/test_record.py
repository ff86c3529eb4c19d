"""Hand records (INTERFACES.md): golden records with hand-derived results, parsing, and replay errors.

Each file in tests/golden/ is a hand record that ``smear-sim score`` accepts as it is, with two extra
top-level keys: ``why`` (what the case shows) and ``expected`` (the full ``score --json`` output, derived by
hand from RULES.md, not by running the code).
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from smear_sim.cli import app
from smear_sim.core.cards import parse_card
from smear_sim.core.errors import RecordError, SmearError
from smear_sim.core.rules import Rules
from smear_sim.reference.record import HandRecord, load_record, parse_record, replay, score_record

GOLDEN_DIR = Path(__file__).parents[1] / "golden"
GOLDEN = sorted(GOLDEN_DIR.glob("*.json"))
GOLDEN_IDS = [p.stem for p in GOLDEN]

REQUIRED_CASES = {
    # one per rule option setting that changes outcomes
    "round_points", "high_highest", "low_lowest", "low_to_taker", "forced_bid_dealer", "forced_bid_none",
    "forced_bid_none_thrown_in", "moon_off", "moon_in_play", "trump_anytime", "target", "min_bid",
    # tricky cases
    "jokers_low_first", "jick_printed_suit", "ace_undealt", "low_to_player", "game_tie", "moon_success_negative",
    "moon_fail_undealt_jack", "bidder_out_first",
}
RESULT_KEYS = ["bidder", "bidding_team", "bid", "trump", "tricks", "awards", "card_points", "points", "made",
               "score_delta", "scores_after", "moon", "winner"]


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def basic() -> dict:
    record = load(GOLDEN_DIR / "basic.json")
    del record["why"], record["expected"]
    return record


# -- golden records ---------------------------------------------------------------------------------------


def test_every_required_golden_case_exists():
    assert set(GOLDEN_IDS) >= REQUIRED_CASES


@pytest.mark.parametrize("path", GOLDEN, ids=GOLDEN_IDS)
def test_golden_record_scores_as_derived_by_hand(path):
    record = load(path)
    assert score_record(record).to_json() == record["expected"]


@pytest.mark.parametrize("path", GOLDEN, ids=GOLDEN_IDS)
def test_golden_record_through_the_cli(path):
    record = load(path)
    result = CliRunner().invoke(app, ["score", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert json.loads(result.stdout) == record["expected"]


@pytest.mark.parametrize("path", GOLDEN, ids=GOLDEN_IDS)
def test_golden_record_is_a_well_formed_hand(path):
    record = load(path)
    assert isinstance(record["why"], str) and len(record["why"]) > 20
    assert list(record["expected"]) == RESULT_KEYS
    hands, kitty = record["hands"], record["kitty"]
    assert [len(h) for h in hands] == [9, 9, 9, 9] and len(kitty) == 4
    dealt = [parse_card(x) for h in hands for x in h] + [parse_card(x) for x in kitty]
    assert len(set(dealt)) == 40  # so 14 cards are undealt
    assert len(record["bids"]) == 4
    expected = record["expected"]
    if expected["bidder"] is None:
        assert "plays" not in record
        return
    bidder = expected["bidder"]
    assert [len(d) for d in record["discards"]] == [7 if s == bidder else 3 for s in range(4)]
    plays = [parse_card(x) for x in record["plays"]]
    assert len(plays) == 24 == len(set(plays))
    assert set(plays) <= set(dealt)
    discarded = {parse_card(x) for d in record["discards"] for x in d}
    assert len(discarded) == 16 and not discarded & set(plays)
    assert [x for t in expected["tricks"] for x in t["cards"]] == record["plays"]
    assert expected["tricks"][0]["leader"] == bidder


@pytest.mark.parametrize("path", [p for p in GOLDEN if load(p)["rules"] and p.stem != "moon_off"],
                         ids=lambda p: p.stem)
def test_option_golden_depends_on_its_option(path):
    """Under the default rules the same record is rejected or scores differently."""
    record = load(path)
    record["rules"] = {}
    try:
        result = score_record(record).to_json()
    except RecordError:
        return
    assert result != load(path)["expected"]


def test_moon_off_golden_rejects_a_moon_bid():
    record = load(GOLDEN_DIR / "moon_off.json")
    record["bids"] = ["moon", "pass", "pass", "pass"]
    with pytest.raises(RecordError, match="moon bids are off"):
        score_record(record)
    record["rules"] = {}
    assert score_record(record).to_json()["winner"] == 0  # with moons allowed this deal wins the game


def test_trump_anytime_golden_is_a_revoke_under_default_rules():
    record = load(GOLDEN_DIR / "trump_anytime.json")
    record["rules"] = {}
    with pytest.raises(RecordError, match=r"^play 4 \(trick 1, seat 3\): KH does not follow suit"):
        score_record(record)


def test_jokers_golden_first_joker_wins_the_trick():
    record = load(GOLDEN_DIR / "jokers_low_first.json")
    first = record["expected"]["tricks"][0]
    assert first["cards"][:2] == ["LJ", "HJ"] and first["winner"] == first["leader"]


def test_golden_records_round_trip_through_hand_record_json():
    for path in GOLDEN:
        record = load(path)
        parsed = parse_record(record)
        again = parse_record(json.loads(json.dumps(parsed.to_json())))
        assert again == parsed
        assert replay(again).to_json() == record["expected"]


def test_no_cards_drawn_play_is_six_tricks_of_the_kept_cards():
    record = basic()
    result = score_record(record)
    assert len(result.tricks) == 6 and all(len(t.cards) == 4 for t in result.tricks)
    # each seat plays exactly the 6 cards it kept after discarding: nothing is drawn
    for seat in range(4):
        held = {parse_card(x) for x in record["hands"][seat]}
        if seat == result.bidder:
            held |= {parse_card(x) for x in record["kitty"]}
        kept = held - {parse_card(x) for x in record["discards"][seat]}
        played = {t.cards[i] for t in result.tricks for i in range(4) if t.seat_of(i) == seat}
        assert played == kept


def test_bidder_leads_the_first_trick():
    record = basic()
    assert score_record(record).tricks[0].leader == 0
    plays = record["plays"]
    plays[0:4] = plays[1:4] + plays[0:1]  # seat 1 leads instead of the bidder
    with pytest.raises(RecordError, match="the bidder leads the first trick"):
        score_record(record)


def test_trick_winner_leads_the_next_trick():
    result = score_record(basic())
    for previous, following in itertools.pairwise(result.tricks):
        assert following.leader == previous.winner
    # trick 2 went to seat 1; a record in which seat 0 leads trick 3 is refused
    record = basic()
    plays = record["plays"]
    plays[8:12] = [plays[11], *plays[8:11]]  # KS (seat 0) first
    with pytest.raises(RecordError, match=r"play 9 \(trick 3, seat 1\): KS is seat 0's card, but seat 1 won trick 2"):
        score_record(record)


# -- parsing ----------------------------------------------------------------------------------------------


def test_unknown_top_level_keys_are_ignored():
    record = basic() | {"result": {"anything": 1}, "comment": "a trace line"}
    assert score_record(record).to_json() == score_record(basic()).to_json()


def test_rules_and_scores_before_are_optional():
    record = basic()
    del record["rules"], record["scores_before"]
    parsed = parse_record(record)
    assert parsed.rules == Rules()
    assert parsed.scores_before == (0, 0)
    assert parse_record(basic() | {"rules": None}).rules == Rules()


def test_command_line_rules_apply_to_a_record_without_rules():
    # Regression: settings from --rule/--rules on a record with no "rules" key raised TypeError.
    record = basic()
    del record["rules"]
    for rules_obj in ({}, None, "absent"):
        if rules_obj != "absent":
            record["rules"] = rules_obj
        assert parse_record(record, {"target": 15}).rules == Rules(target=15)
        assert parse_record(record, {"round_points": True}).rules == Rules(round_points=True)


def test_record_rules_are_applied():
    parsed = parse_record(basic() | {"rules": {"round_points": True, "target": 11}})
    assert parsed.rules == Rules(round_points=True, target=11)
    assert set(replay(parsed).awards) == {"high", "low", "jack", "game", "jick", "high_joker", "low_joker"}


def test_card_names_and_calls_are_case_insensitive_in_records():
    record = basic()
    record["hands"][0] = [x.lower() for x in record["hands"][0]]
    record["bids"] = [3, "PASS", "Pass", "pass"]
    record["trump"] = "h"
    record["plays"][0] = "ah"
    assert score_record(record).to_json() == score_record(basic()).to_json()


def test_parsed_record_is_typed():
    parsed = parse_record(basic())
    assert isinstance(parsed, HandRecord)
    assert parsed.trump == 1
    assert parsed.hands[0][0] == parse_card("AH")
    assert len(parsed.plays) == 24
    assert parsed.bids == (3, "pass", "pass", "pass")


def mutate(**changes) -> dict:
    record = basic()
    for key, value in changes.items():
        record[key] = value
    return record


def with_item(key, index, value) -> dict:
    record = basic()
    record[key] = copy.deepcopy(record[key])
    record[key][index] = value
    return record


def with_card(key, i, j, value) -> dict:
    record = basic()
    record[key][i][j] = value
    return record


def swapped_plays(i, j) -> dict:
    record = basic()
    plays = record["plays"]
    plays[i], plays[j] = plays[j], plays[i]
    return record


# (record, a regular expression the one-line message must match)
BAD_RECORDS = {
    "not_an_object": ([1, 2, 3], "JSON object"),
    "missing_hands": ({k: v for k, v in basic().items() if k != "hands"}, "no 'hands'"),
    "missing_plays": ({k: v for k, v in basic().items() if k != "plays"}, "no 'plays'"),
    "bad_dealer": (mutate(dealer=4), "dealer must be a seat 0-3"),
    "dealer_string": (mutate(dealer="3"), "dealer must be a seat"),
    "bad_scores_before": (mutate(scores_before=[0]), "scores_before"),
    "malformed_card": (with_card("hands", 0, 0, "1H"), r"hands\[0\]\[0\]: unknown card '1H'"),
    "card_not_string": (with_card("hands", 0, 0, 14), r"hands\[0\]\[0\] is 14"),
    "malformed_kitty_card": (with_item("kitty", 0, "KZ"), r"kitty\[0\]: unknown card 'KZ'"),
    "duplicate_across_hands": (with_card("hands", 1, 0, "AH"),
                               r"card AH is dealt twice: in hands\[0\] and in hands\[1\]"),
    "duplicate_in_kitty": (with_item("kitty", 0, "AH"), "card AH is dealt twice"),
    "duplicate_in_hand": (with_card("hands", 2, 1, "8H"), r"card 8H appears twice in hands\[2\]"),
    "short_hand": (mutate(hands=[*basic()["hands"][:2], basic()["hands"][2][:8], basic()["hands"][3]]),
                   r"hands\[2\] has 8 cards; it must have 9"),
    "long_hand": (mutate(hands=[basic()["hands"][0] + ["2C"], *basic()["hands"][1:]]), r"hands\[0\] has 10 cards"),
    "three_hands": (mutate(hands=basic()["hands"][:3]), "one list of cards per seat"),
    "short_kitty": (mutate(kitty=basic()["kitty"][:3]), "kitty has 3 cards; it must have 4"),
    "bid_not_raising": (mutate(bids=[3, 3, "pass", "pass"]), r"bids\[1\] \(seat 1\) 3 is illegal: .*does not raise"),
    "bid_lower": (mutate(bids=[3, "pass", 2, "pass"]), r"bids\[2\] \(seat 2\) 2 is illegal"),
    "pass_by_forced_opener": (mutate(bids=["pass", 3, "pass", "pass"]),
                              r"bids\[0\] \(seat 0\) 'pass' is illegal: the opener must bid"),
    "four_passes_forced_opener": (mutate(bids=["pass"] * 4), r"bids\[0\].*opener must bid"),
    "bid_after_moon": (mutate(bids=["moon", 4, "pass", "pass"]), r"bids\[1\] \(seat 1\) 4 is illegal: .*moon"),
    "moon_after_moon": (mutate(bids=["moon", "moon", "pass", "pass"]), r"bids\[1\].*moon was already bid"),
    "moon_when_off": (mutate(bids=["moon", "pass", "pass", "pass"], rules={"moon": False}), "moon bids are off"),
    "bid_above_points_at_stake": (mutate(bids=[5, "pass", "pass", "pass"]), r"bid 5 is outside 2..4"),
    "bid_below_min_bid": (mutate(bids=[1, "pass", "pass", "pass"]), r"bid 1 is outside 2..4"),
    "bid_word": (mutate(bids=["three", "pass", "pass", "pass"]), r"bids\[0\] is 'three'"),
    "three_bids": (mutate(bids=[3, "pass", "pass"]), "four calls"),
    "bad_trump": (mutate(trump="X"), "trump must be one of S H D C"),
    "trump_word": (mutate(trump="hearts"), "trump must be one of S H D C"),
    "thrown_in_with_plays": (mutate(rules={"forced_bid": "none"}, bids=["pass"] * 4), "thrown in.*remove 'trump'"),
    "scoring_trump_discarded": (with_item("discards", 0, ["AH", "6S", "8S", "JS", "4D", "9D", "QD"]),
                                r"discards\[0\] \(the bidder.*a scoring trump discarded: AH"),
    "trump_discarded_keeping_non_trump": (with_item("discards", 0, ["7H", "6S", "8S", "JS", "4D", "9D", "QD"]),
                                          r"discards\[0\].*trump 7H discarded while non-trump"),
    "discard_wrong_count": (with_item("discards", 1, ["AD", "3C"]), r"discards\[1\] has 2 cards; it must have 3"),
    "bidder_discard_wrong_count": (with_item("discards", 0, ["6S", "8S", "JS", "4D", "9D", "QD"]),
                                   r"discards\[0\] has 6 cards; it must have 7"),
    "discard_not_in_hand": (with_item("discards", 1, ["AD", "3C", "2C"]),
                            r"discards\[1\].*2C, which is not in the hand"),
    "revoke": (swapped_plays(3, 10), r"^play 4 \(trick 1, seat 3\): 2S does not follow suit: AH led trump"),
    "revoke_trumping_a_club": (swapped_plays(17, 21),
                               r"^play 18 \(trick 5, seat 0\): 2H does not follow suit: 10C led clubs"),
    "wrong_seat_trick_4": (swapped_plays(13, 12), r"^play 13 \(trick 4, seat 1\): 7C is seat 2's card"),
    "wrong_leader": (swapped_plays(0, 1),
                     r"^play 1 \(trick 1, seat 0\): 10H is seat 1's card, but the bidder leads"),
    "wrong_leader_later": (swapped_plays(8, 9),
                           r"^play 9 \(trick 3, seat 1\): 4S is seat 2's card, but seat 1 won trick 2"),
    "wrong_seat_mid_trick": (swapped_plays(1, 2),
                             r"^play 2 \(trick 1, seat 1\): 8H is seat 2's card; seat 1 plays now"),
    "card_played_twice": (with_item("plays", 23, "AH"), r"^play 24 .*AH is not in play"),
    "discarded_card_played": (with_item("plays", 23, "3S"), r"^play 24 .*3S is not in play"),
    "undealt_card_played": (with_item("plays", 23, "2C"), r"^play 24 .*2C is not in play"),
    "short_plays": (mutate(plays=basic()["plays"][:23]), "plays has 23 cards; it must have 24"),
    "unknown_rule_key": (mutate(rules={"moon_require": "all"}),
                         "unknown rule option 'moon_require' in the record's rules.*'moon_requires'"),
    "bad_rule_value": (mutate(rules={"high": "king"}), "high must be one of ace, highest"),
    "rule_value_wrong_type": (mutate(rules={"target": "21"}), "target must be a whole number"),
    "impossible_min_bid": (mutate(rules={"min_bid": 5}), "min_bid=5 is impossible"),
    "impossible_target": (mutate(rules={"target": 0}), "target=0 is out of range"),
    "huge_target": (mutate(rules={"target": 10**30}), "is out of range: choose a target from 1 to 1000"),
    "rules_not_object": (mutate(rules=["round_points"]), "rules must be a table"),
}


@pytest.mark.parametrize("name", list(BAD_RECORDS))
def test_bad_record_raises_one_line_naming_the_problem(name):
    record, pattern = BAD_RECORDS[name]
    with pytest.raises(RecordError) as info:
        score_record(record)
    message = str(info.value)
    assert "\n" not in message
    assert re.search(pattern, message), message


def test_revoke_check_on_the_jicks_printed_suit():
    # In jick_printed_suit seat 1 legally plays 7C on the AD lead while holding the jick JD. A player who
    # holds real diamonds must still follow a diamond lead.
    record = load(GOLDEN_DIR / "jick_printed_suit.json")
    del record["why"], record["expected"]
    assert score_record(record).bidder == 0
    # seat 3 holds 4D and 5D; on trick 1 it must play a diamond, not the 7H
    plays = record["plays"]
    i, j = plays.index("4D"), plays.index("7H")
    plays[i], plays[j] = plays[j], plays[i]
    with pytest.raises(RecordError, match=r"play 4 \(trick 1, seat 3\): 7H does not follow suit: AD led diamonds"):
        score_record(record)


def test_record_error_is_a_smear_error():
    assert issubclass(RecordError, SmearError)


# -- loading ----------------------------------------------------------------------------------------------


def test_load_record_from_file(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(basic()), encoding="utf-8")
    assert load_record(path) == basic()
    assert load_record(str(path)) == basic()


def test_load_record_missing_file(tmp_path):
    with pytest.raises(RecordError, match="does not exist"):
        load_record(tmp_path / "nope.json")


def test_load_record_invalid_json(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text('{"dealer": 3,', encoding="utf-8")
    with pytest.raises(RecordError, match="not valid JSON.*line 1") as info:
        load_record(path)
    assert "\n" not in str(info.value)


def test_load_record_directory(tmp_path):
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path)


def test_load_record_from_stdin(monkeypatch):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(basic())))
    assert load_record("-") == basic()
