"""The game commands from the outside: ``score GAME``, ``simulate --games``, ``equity``, and the game view of
``hand``, ``moon`` and ``plot moon`` (``--score``). Small sizes; bad input ends with exit status 2 and one line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import assert_clean_failure, assert_clean_process_failure, invoke, ok, ok_json, run

from tests.reference.test_game import BAD_GAMES, GAMES

MOON_HAND = "AH KH QH 2H 10H 6S 9S 4D 3C"
SMALL_EQUITY = ("--equity-hands", "20000")


# -- score GAME ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_score_game_json_is_the_interfaces_object(path):
    record = json.loads(path.read_text(encoding="utf-8"))
    assert ok_json("score", str(path)) == record["expected"]
    assert json.loads(ok("score", "-", "--json", input=path.read_text(encoding="utf-8")).stdout) == record["expected"]


def words(text: str) -> str:
    """Output with its line wrapping undone."""
    return " ".join(text.split())


def test_score_game_readable_summary():
    out = words(ok("score", str(Path(GAMES[0]).parent / "moon_ends_game.json")).stdout)
    assert "Game from 4–9, seat 3 dealing first" in out
    assert "moon made" in out and "Team 1 wins the game after 4 hands, 5–14." in out
    out = words(ok("score", str(Path(GAMES[0]).parent / "in_progress_thrown_in.json")).stdout)
    assert "thrown in" in out and "Game in progress after 2 hands: 6–0." in out


@pytest.mark.parametrize("name", ["dealer_not_rotating", "scores_not_carried", "deal_after_the_end",
                                  "illegal_play_in_a_deal", "deal_rules_differ", "start_at_target"])
def test_bad_game_exits_2_with_one_line_naming_the_deal(tmp_path, name):
    record, _ = BAD_GAMES[name]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    line = assert_clean_failure(invoke("score", str(path), "--json"))
    assert line.startswith(("error: deal ", "error: start: "))


def test_bad_game_through_the_console_script(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(BAD_GAMES["scores_not_carried"][0]), encoding="utf-8")
    line = assert_clean_process_failure(run("score", str(path)))
    assert "deal 3: scores_before is [2, 15]" in line


# -- simulate --games ------------------------------------------------------------------------------------------


def test_simulate_games_json_and_negative_start_scores():
    data = ok_json("simulate", "--games", "500", "--start-scores=-5,19", "--dealer", "2")
    assert data["games"] == 500 and data["start_scores"] == [-5, 19] and data["dealer"] == 2
    assert {"wins", "win_rate", "win_rate_se", "hands_per_game", "bids", "teams"} <= set(data)
    spaced = ok_json("simulate", "--games", "500", "--start-scores", "-5,19", "--dealer", "2")
    data.pop("timing"), spaced.pop("timing")
    assert spaced == data


def test_simulate_games_tables():
    out = ok("simulate", "--games", "300", "--seed", "4").stdout
    assert "300 games from 0–0, seat 3 dealing first, seed 4" in out
    assert "Hands per game" in out and "Winning bids" in out


def test_simulate_games_is_identical_for_any_threads_and_chunks():
    args = ["simulate", "--games", "701", "--seed", "9", "--json"]
    runs = [json.loads(ok(*args, *extra).stdout) for extra in (["--threads", "1"], ["--threads", "2"],
                                                                ["--chunk-size", "100"])]
    for data in runs:
        data.pop("timing")
    assert runs[0] == runs[1] == runs[2]


def test_simulate_games_trace_round_trips_through_score(tmp_path):
    trace = tmp_path / "games.jsonl"
    result = ok("simulate", "--games", "50", "--start-scores", "12,15", "--trace", str(trace), "--trace-games", "8",
                "--rule", "round_points=true")
    assert f"Wrote 8 game records to {trace}" in result.stdout
    lines = trace.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 8
    for line in lines:
        record = json.loads(line)
        assert record["rules"] == {"round_points": True} and "deals" in record
        assert json.loads(ok("score", "-", "--json", input=line).stdout) == record["result"]


# -- equity ----------------------------------------------------------------------------------------------------


def test_equity_json_and_files(tmp_path):
    out = tmp_path / "equity"
    chart = tmp_path / "equity.svg"
    data = json.loads(ok("equity", "--hands", "30000", "--floor", "-10", "--rule", "target=11", "--out", str(out),
                         "--plot", str(chart), "--json").stdout)
    assert {"rules", "policy", "target", "floor", "states", "truncation_bound", "hands", "seed"} <= set(data)
    assert data["target"] == 11 and data["floor"] == -10 and data["policy"] == "heuristic"
    assert len(data["states"]) == 2 * 21 * 21
    state = {(s["us"], s["them"], s["dealer"]): s for s in data["states"]}
    assert set(state[(0, 0, "them")]) >= {"us", "them", "dealer", "win", "win_se"}
    for (us, them, dealer), s in state.items():
        mirror = state[(them, us, "us" if dealer == "them" else "them")]
        assert s["win"] + mirror["win"] == pytest.approx(1, abs=2 * (s["win_se"] + 1e-4))
    assert out.with_suffix(".csv").read_text(encoding="utf-8").startswith("us,them,dealer,win,win_se,hands_left")
    assert "# Match equity" in out.with_suffix(".md").read_text(encoding="utf-8")
    assert "<svg" in chart.read_text(encoding="utf-8")


def test_equity_table_for_people():
    out = words(ok("equity", "--hands", "20000", "--rule", "target=7").stdout)
    assert "Match equity" in out and "'them' dealing the next hand" in out and "At 0–0" in out


# -- hand, moon and plot at a score ------------------------------------------------------------------------------


def test_hand_at_a_score_gives_win_for_every_bid():
    data = ok_json("hand", MOON_HAND, "--samples", "3000", "--score=-5,19", *SMALL_EQUITY)
    assert data["score"] == [-5, 19]
    for row in data["bids"]:
        assert {"bid", "make", "ev", "win", "win_se"} <= set(row) and 0 <= row["win"] <= 1
    game = data["game"]
    assert game["score"] == [-5, 19] and game["best_bid"] in (2, 3, 4)
    assert 0 < game["moon_success_win"] < 1  # from -5 a success only resets the score to 0
    assert 0 <= game["moon_break_even"] <= 1
    spaced = ok_json("hand", MOON_HAND, "--samples", "3000", "--score", "-5,19", *SMALL_EQUITY)
    assert spaced["bids"] == data["bids"]
    out = words(ok("hand", MOON_HAND, "--samples", "3000", "--score", "15,19", *SMALL_EQUITY).stdout)
    assert "P(win game)" in out and "At 15–19" in out


def test_moon_for_a_hand_at_a_score_and_its_chart(tmp_path):
    chart = tmp_path / "moon.png"
    out = words(ok("moon", MOON_HAND, "--hands", "3000", "--score", "19,15", "--plot", str(chart),
                   *SMALL_EQUITY).stdout)
    assert "In games at 19–15" in out and "breaks even at a success rate of 100%" in out
    assert chart.read_bytes()[:4] == b"\x89PNG"
    data = ok_json("moon", MOON_HAND, "--hands", "3000", "--score", "0,0", *SMALL_EQUITY)
    assert data["game"]["moon_success_win"] == 1.0


def test_moon_classes_and_plot_at_a_score(tmp_path):
    counts = tmp_path / "bid"
    ok("bid-table", "--hands", "20000", "--out", str(counts), "--show", "1")
    data = ok_json("moon", "--counts", str(counts.with_suffix(".npz")), "--by", "trumps,top", "--score", "15,19",
                   *SMALL_EQUITY)
    assert data["score"] == [15, 19]
    assert {"moon_win", "best_bid_win", "break_even", "moon_pays_game"} <= set(data["rows"][0])
    out = words(ok("moon", "--counts", str(counts.with_suffix(".npz")), "--by", "trumps,top", "--score=-5,19",
                   *SMALL_EQUITY).stdout)
    assert "P(win the game) at -5 to 19" in out
    chart = tmp_path / "moon_classes.png"
    ok("plot", "moon", str(counts.with_suffix(".npz")), "--score", "15,19", "--out", str(chart), *SMALL_EQUITY)
    assert chart.read_bytes()[:4] == b"\x89PNG"


# -- bad input -------------------------------------------------------------------------------------------------

BAD = {
    "hands_and_games": (["simulate", "--hands", "10", "--games", "10"], "--hands cannot apply with --games"),
    "start_without_games": (["simulate", "--start-scores", "1,2"], "--start-scores cannot apply without --games"),
    "trace_games_without_trace": (["simulate", "--games", "5", "--trace-games", "3"],
                                  "--trace-games cannot apply without --trace"),
    "trace_hands_with_games": (["simulate", "--games", "5", "--trace", "t.jsonl", "--trace-hands", "3"],
                               "--trace-hands cannot apply with --games"),
    "moon_equity_hands_without_score": (["moon", "--hands", "10", "--equity-hands", "5"],
                                        "--equity-hands cannot apply without --score"),
    "plot_score_on_make": (["plot", "make", "x.npz", "--score", "1,1"], "--score cannot apply to a make chart"),
    "start_at_target": (["simulate", "--games", "5", "--start-scores", "21,0"], "below the target"),
    "start_not_two": (["simulate", "--games", "5", "--start-scores", "3"], "two whole-number scores"),
    "score_not_two": (["hand", MOON_HAND, "--score", "1,2,3"], "two whole-number scores"),
    "score_at_target": (["hand", MOON_HAND, "--score", "3,25"], "below the target 21"),
    "moon_score_words": (["moon", MOON_HAND, "--score", "us,them"], "two whole-number scores"),
    "equity_floor_high": (["equity", "--floor", "30"], "--floor 30 must be below the target"),
    "equity_two_policies": (["equity", "--hands", "10", "--policy", "heuristic,random"], "single --policy"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_game_options_exit_2_with_one_line(name):
    args, words = BAD[name]
    assert words in assert_clean_failure(invoke(*args))


def test_dealer_out_of_range_is_a_usage_error():
    assert "--dealer" in assert_clean_process_failure(run("simulate", "--games", "5", "--dealer", "4"))


def test_games_and_the_equity_table_give_the_same_numbers_on_the_cluster(dask_scheduler):
    from tests.cli.test_cluster import same_json

    data = same_json("simulate", "--games", "3000", "--seed", "4", "--start-scores=-3,12", "--dealer", "1",
                     scheduler=dask_scheduler, drop=("timing",))
    assert data["games"] == 3000
    same_json("equity", "--hands", "30000", "--rule", "target=11", scheduler=dask_scheduler)
    same_json("hand", MOON_HAND, "--samples", "5000", "--score", "15,19", *SMALL_EQUITY, scheduler=dask_scheduler)
