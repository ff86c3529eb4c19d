"""Games in the reference engine and game records: golden games, the game's own checks, random legal games.

Each file in tests/golden/games/ is a game record that ``smear-sim score`` accepts, with ``why`` and
``expected`` (the full ``score --json`` output). The deals are golden hand records (tests/golden/), some
with every seat moved round the table so the deal passes clockwise; their per-hand results come from those
records' hand-derived results, and the game's (scores carried, the end of the game) from docs/rules.md, "Game".
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import pytest
from random_hands import random_record

from smear_sim.core.errors import IllegalAction, RecordError
from smear_sim.core.rules import Rules
from smear_sim.reference.game import GameResult, GameState, next_dealer
from smear_sim.reference.record import (
    GameRecord,
    is_game_record,
    parse_game_record,
    replay_game,
    score_game_record,
    score_record,
)

GAMES_DIR = Path(__file__).parents[1] / "golden" / "games"
GAMES = sorted(GAMES_DIR.glob("*.json"))
REQUIRED_GAMES = {"moon_ends_game", "moon_from_negative_goes_on", "both_reach_target_bidder_out_first",
                  "set_bidder_loses", "in_progress_thrown_in"}


def load(name: str) -> dict:
    return json.loads((GAMES_DIR / f"{name}.json").read_text(encoding="utf-8"))


def bare(name: str) -> dict:
    record = load(name)
    del record["why"], record["expected"]
    return record


# -- golden games -----------------------------------------------------------------------------------------


def test_every_required_golden_game_exists():
    assert {p.stem for p in GAMES} >= REQUIRED_GAMES


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_golden_game_scores_as_derived(path):
    record = json.loads(path.read_text(encoding="utf-8"))
    assert is_game_record(record)
    result = score_game_record(record)
    assert result.to_json() == record["expected"]
    assert len(record["why"]) > 40


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_golden_game_deals_follow_one_another(path):
    record = json.loads(path.read_text(encoding="utf-8"))
    expected = record["expected"]
    dealer, scores = record["start"]["dealer"], record["start"]["scores"]
    for deal, result in zip(record["deals"], expected["deals"], strict=True):
        assert deal["dealer"] == dealer and deal["scores_before"] == scores
        assert score_record(deal | {"rules": record["rules"]}).to_json() == result  # each deal alone
        dealer, scores = next_dealer(dealer), result["scores_after"]
    assert expected["scores_after"] == scores
    assert expected["hands_played"] == len(record["deals"])
    assert all(r["winner"] is None for r in expected["deals"][:-1])


def test_golden_games_cover_the_end_of_game_rules():
    ends = {name: load(name)["expected"] for name in REQUIRED_GAMES}
    moon = ends["moon_ends_game"]["deals"][-1]
    assert moon["moon"] is True and moon["winner"] == moon["bidding_team"] == 1
    reset = ends["moon_from_negative_goes_on"]["deals"][0]
    assert reset["moon"] is True and reset["winner"] is None and reset["scores_after"][0] == 0
    assert ends["moon_from_negative_goes_on"]["winner"] == 1
    both = ends["both_reach_target_bidder_out_first"]["deals"][-1]
    assert min(both["scores_after"]) >= 21 and both["winner"] == both["bidding_team"] == 1
    set_bid = ends["set_bidder_loses"]["deals"][-1]
    assert set_bid["made"] is False and set_bid["winner"] == 1 - set_bid["bidding_team"]
    assert set_bid["points"][set_bid["bidding_team"]] + 19 >= 21  # its points alone would have reached 21
    in_progress = ends["in_progress_thrown_in"]
    assert in_progress["winner"] is None and in_progress["deals"][0]["bidder"] is None


def test_golden_games_round_trip_through_game_record_json():
    for path in GAMES:
        record = json.loads(path.read_text(encoding="utf-8"))
        parsed = parse_game_record(record)
        assert isinstance(parsed, GameRecord)
        again = parse_game_record(json.loads(json.dumps(parsed.to_json())))
        assert again == parsed
        assert replay_game(again).to_json() == record["expected"]


# -- the game's checks ---------------------------------------------------------------------------------------


def test_game_state_verbs():
    rules = Rules()
    state = GameState.start(rules, (5, -2), 1)
    assert state.can_deal(1, (5, -2)) and not state.can_deal(2, (5, -2)) and not state.can_deal(1, (5, 2))
    with pytest.raises(IllegalAction, match="seat 1 deals this hand"):
        state.verify_deal(0, (5, -2))
    with pytest.raises(IllegalAction, match="scores_before is \\[5, 2\\]"):
        state.verify_deal(1, (5, 2))
    with pytest.raises(IllegalAction, match="already won"):
        GameState.start(rules, (21, 0))
    with pytest.raises(IllegalAction, match="a seat 0-3"):
        GameState.start(rules, (0, 0), 4)
    assert GameState() == GameState.start(rules) == GameState((0, 0), 3, None, 0)
    assert [next_dealer(d) for d in range(4)] == [1, 2, 3, 0]


def with_deal(name: str, number: int, **changes) -> dict:
    record = bare(name)
    record["deals"][number - 1] |= changes
    return record


def extra_deal() -> dict:
    record = bare("moon_ends_game")
    record["deals"].append(copy.deepcopy(record["deals"][0]) | {"scores_before": [5, 14]})  # seat 3 deals again
    return record


def revoke_in_deal_2() -> dict:
    record = bare("moon_from_negative_goes_on")
    plays = record["deals"][1]["plays"]
    plays[1], plays[5] = plays[5], plays[1]
    return record


BAD_GAMES = {
    "not_an_object": ({"deals": 3}, "deals must be a list"),
    "deal_not_an_object": ({"deals": [5]}, r"^deal 1: a deal is a hand record"),
    "wrong_first_dealer": (bare("moon_ends_game") | {"start": {"scores": [4, 9], "dealer": 0}},
                           r"^deal 1: dealer is seat 3, but seat 0 deals this hand \(the game starts"),
    "wrong_start_scores": (bare("moon_ends_game") | {"start": {"scores": [4, 8], "dealer": 3}},
                           r"^deal 1: scores_before is \[4, 9\], but the game's start scores are \[4, 8\]"),
    "start_left_out": (bare("moon_ends_game") | {"start": None}, r"^deal 1: scores_before is \[4, 9\].*\[0, 0\]"),
    "dealer_not_rotating": (with_deal("moon_ends_game", 2, dealer=1),
                            r"^deal 2: dealer is seat 1, but seat 0 deals this hand \(the deal passes clockwise\)"),
    "scores_not_carried": (with_deal("moon_ends_game", 3, scores_before=[2, 15]),
                           r"^deal 3: scores_before is \[2, 15\], but the scores the previous hand left are \[2, 14\]"),
    "deal_after_the_end": (extra_deal(), r"^deal 5: the game is over: team 1 won on hand 4"),
    "deal_after_a_win_on_points": (with_deal("both_reach_target_bidder_out_first", 1, scores_before=[18, 18])
                                   | {"start": {"scores": [18, 18], "dealer": 3}},
                                   r"^deal 2: the game is over: team 0 won on hand 1, so no hand may follow"),
    "illegal_play_in_a_deal": (revoke_in_deal_2(), r"^deal 2: play 2 \(trick 1, seat 0\)"),
    "bad_card_in_a_deal": (with_deal("set_bidder_loses", 2, kitty=["4D", "2C", "9D", "QZ"]),
                           r"^deal 2: kitty\[3\]: unknown card 'QZ'"),
    "deal_rules_differ": (with_deal("in_progress_thrown_in", 2, rules={}),
                          r"^deal 2: its rules \(the defaults\) differ from the game's \(forced_bid=none\)"),
    "start_at_target": (bare("moon_ends_game") | {"start": {"scores": [21, 9], "dealer": 3}},
                        r"^start: scores \[21, 9\]: a team that reached the target 21 has already won"),
    "start_bad_dealer": (bare("moon_ends_game") | {"start": {"scores": [4, 9], "dealer": 7}}, r"^start: the dealer"),
    "start_dealer_string": (bare("moon_ends_game") | {"start": {"dealer": "3"}}, "start.dealer must be a seat"),
    "start_bad_scores": (bare("moon_ends_game") | {"start": {"scores": [4]}}, "start.scores must be two"),
    "start_not_object": (bare("moon_ends_game") | {"start": [0, 0]}, "start must be an object"),
    "game_rules_unknown": (bare("moon_ends_game") | {"rules": {"targett": 5}}, "unknown rule option 'targett'"),
}


@pytest.mark.parametrize("name", list(BAD_GAMES))
def test_bad_game_raises_one_line_naming_the_deal_and_problem(name):
    record, pattern = BAD_GAMES[name]
    with pytest.raises(RecordError) as info:
        score_game_record(record)
    message = str(info.value)
    assert "\n" not in message
    assert re.search(pattern, message), message


def test_deal_rules_equal_to_the_games_are_accepted():
    record = with_deal("in_progress_thrown_in", 2, rules={"forced_bid": "none"})
    assert score_game_record(record).to_json() == load("in_progress_thrown_in")["expected"]


def test_command_line_rules_apply_to_the_game_and_its_deals():
    record = bare("in_progress_thrown_in")
    del record["rules"]
    with pytest.raises(RecordError, match="deal 1: bids\\[0\\].*opener must bid"):
        score_game_record(record)
    assert score_game_record(record, {"forced_bid": "none"}).to_json() == load("in_progress_thrown_in")["expected"]


def test_an_empty_game_is_a_game_in_progress():
    result = score_game_record({"deals": [], "start": {"scores": [3, -4], "dealer": 1}})
    assert result.to_json() == {"deals": [], "scores_after": [3, -4], "winner": None, "hands_played": 0}


# -- random legal games --------------------------------------------------------------------------------------


def random_game(rules: Rules, rng: random.Random, start: tuple[int, int], dealer: int, max_deals: int = 30) -> dict:
    """A random legal game: random legal hands, each dealt by the next seat from the scores the last left."""
    deals = []
    scores = list(start)
    for _ in range(max_deals):
        record = random_record(rules, rng, dealer=dealer, scores_before=tuple(scores))
        del record["rules"]
        result = score_record(record | {"rules": rules.changed()})
        deals.append(record)
        if result.winner is not None:
            break
        scores = list(result.scores_after)
        dealer = next_dealer(dealer)
    return {"rules": rules.changed(), "start": {"scores": list(start), "dealer": deals[0]["dealer"]}, "deals": deals}


@pytest.mark.parametrize("rules", [Rules(), Rules(target=6, forced_bid="none"), Rules(round_points=True, target=9)],
                         ids=["defaults", "short_none", "round_points"])
def test_random_legal_games_replay_consistently(rules):
    rng = random.Random(str(rules))
    for _ in range(40):
        start = (rng.randint(-10, rules.target - 1), rng.randint(-10, rules.target - 1))
        record = random_game(rules, rng, start, rng.randrange(4))
        result = score_game_record(record)
        assert isinstance(result, GameResult)
        scores = list(start)
        for deal in result.deals:
            assert list(deal.scores_before) == scores
            scores = [scores[0] + deal.score_delta[0], scores[1] + deal.score_delta[1]]
        assert list(result.scores_after) == scores
        assert result.winner == result.deals[-1].winner
        if result.winner is None:
            assert max(scores) < rules.target or all(d.bidder is None for d in result.deals[-1:])
