"""Complete games from Python: the game trace check against the reference engine, determinism, summaries.

The trace check extends the hands' (tests/analysis/test_simulate.py) to games: for every rule preset, 1,000
kernel-played games are fed to the reference engine as game records, which must find every deal legal, the
deal passing clockwise and the scores carried, and score the game exactly as the kernel did. The games start
from several states, not only 0-0 (negative scores, close to the target, each seat dealing first), so the end
of the game and the moon from a negative score come up often; they are also short, which keeps the check fast.
"""

from __future__ import annotations

import json

import numba
import numpy as np
import pytest

from smear_sim import simulate_games
from smear_sim.analysis.simulate import trace_game_records
from smear_sim.core import layout as L
from smear_sim.core.errors import SmearError
from smear_sim.core.rules import Rules
from smear_sim.reference.record import score_game_record
from tests.analysis.test_simulate import PRESETS, dumps


def runs(rules: Rules) -> list[tuple[str, tuple[int, int], int]]:
    """Four runs of 250 games: (policies, start scores, first dealer)."""
    t = rules.target
    last = "random" if rules.moon else "heuristic"  # random players never finish a game without moons
    return [("heuristic", (0, 0), 3), ("heuristic,random", (-6, t - 3), 0), ("random,heuristic", (t - 2, -9), 1),
            (last, (-15, t - 5), 2)]


def assert_games_match_reference(records: list[dict]) -> None:
    for i, record in enumerate(records):
        expected = score_game_record(record).to_json()  # raises RecordError if anything is illegal
        assert dumps(record["result"]) == dumps(expected), (i, record)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_kernel_games_are_legal_and_scored_like_the_reference(preset):
    rules = PRESETS[preset]
    games = 0
    for k, (policies, start, dealer) in enumerate(runs(rules)):
        records = trace_game_records(250, seed=4100 + k, rules=rules, policies=policies, start_scores=start,
                                     dealer=dealer)
        assert all(r["start"] == {"scores": list(start), "dealer": dealer} for r in records)
        assert all(r["result"]["winner"] is not None for r in records)
        assert_games_match_reference(records)
        games += len(records)
    assert games == 1000


def test_traced_games_cover_the_end_of_game_rules():
    """Among traced games: moons that end the game, moons from a negative score that do not, the bidder going
    out first with both teams at the target, and the other team winning while the bidder is set."""
    records = [r for start in [(-8, 10), (18, 18), (19, 17)]
               for r in trace_game_records(300, seed=4200, start_scores=start)]
    seen = set()
    for record in records:
        for deal, result in zip(record["deals"], record["result"]["deals"], strict=True):
            team, before = result["bidding_team"], deal["scores_before"]
            if result["moon"] and before[team] < 0:
                seen.add("moon reset")
            elif result["moon"] is not None:
                seen.add("moon ends")
            elif result["winner"] is not None and min(result["scores_after"]) >= 21:
                seen.add("both reach")
            elif result["winner"] is not None and result["winner"] != team:
                seen.add("other team out")
    assert seen == {"moon reset", "moon ends", "both reach", "other team out"}


def test_unfinished_games_stop_and_are_counted_apart():
    rules = Rules(moon=False)
    result = simulate_games(3, seed=2, rules=rules, policies="random")  # both teams lose points for ever
    assert result.counts[L.GAME_UNFINISHED] == 3 and result.to_json()["wins"] == [0, 0]
    assert result.hands_per_game.value == L.MAX_DEALS
    record = trace_game_records(1, seed=2, rules=rules, policies="random")[0]
    assert len(record["deals"]) == L.MAX_DEALS and record["result"]["winner"] is None
    assert score_game_record(record).to_json() == record["result"]  # a game in progress


# -- determinism --------------------------------------------------------------------------------------------


def without_timing(result) -> dict:
    data = result.to_json()
    data.pop("timing")
    return data


def test_simulate_games_is_identical_for_any_threads_and_chunks():
    rules = PRESETS["combined_round_points"]
    runs = [simulate_games(3001, seed=5, rules=rules, policies="heuristic,random", start_scores=(-2, 3), dealer=1,
                           threads=threads, chunk_size=chunk)
            for threads, chunk in [(1, 1000), (2, 4096), (2, 97), (None, 333)]]
    for other in runs[1:]:
        assert other.counts.tobytes() == runs[0].counts.tobytes()
        assert dumps(without_timing(other)) == dumps(without_timing(runs[0]))
    assert simulate_games(3001, seed=6, rules=rules).counts.tobytes() != runs[0].counts.tobytes()


@pytest.fixture
def restore_threads():
    yield
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


def test_game_traces_are_identical_for_any_thread_count_and_start(restore_threads):
    traces = []
    for threads in (1, numba.config.NUMBA_NUM_THREADS):
        numba.set_num_threads(threads)
        traces.append(dumps(trace_game_records(60, seed=11, start_scores=(4, -3), dealer=0)))
    assert traces[0] == traces[1]
    whole = json.loads(traces[0])
    assert dumps(trace_game_records(10, seed=11, start_scores=(4, -3), dealer=0, start=25)) == dumps(whole[25:35])


def test_traced_games_are_the_games_simulated():
    rules = PRESETS["target_4"]
    records = trace_game_records(2000, seed=8, rules=rules, policies="heuristic,random", start_scores=(1, -2))
    result = simulate_games(2000, seed=8, rules=rules, policies="heuristic,random", start_scores=(1, -2))
    winners = [r["result"]["winner"] for r in records]
    assert result.to_json()["wins"] == [winners.count(0), winners.count(1)]
    lengths = np.array([len(r["deals"]) for r in records])
    assert result.counts[L.GAME_DEALS] == lengths.sum() == result.counts[L.AGG_HANDS]
    assert result.counts[L.GAME_DEALS_SQ] == (lengths ** 2).sum()
    delta = np.array([d["score_delta"] for r in records for d in r["result"]["deals"]])
    assert result.counts[L.AGG_DELTA: L.AGG_DELTA + 2].tolist() == delta.sum(axis=0).tolist()
    dealers = [(d["dealer"] - r["start"]["dealer"]) % 4 for r in records for d in r["deals"]]
    assert dealers == [i % 4 for r in records for i in range(len(r["deals"]))]


# -- the summary ----------------------------------------------------------------------------------------------


def test_game_simulation_json_fields():
    result = simulate_games(4000, seed=3, start_scores="-5,19", dealer=2)
    data = result.to_json()
    assert {"games", "wins", "win_rate", "win_rate_se", "hands_per_game", "hands_per_game_se", "unfinished",
            "start_scores", "dealer", "hands", "bids", "teams", "awards", "moon", "timing"} <= set(data)
    assert data["games"] == 4000 and sum(data["wins"]) == 4000 and data["start_scores"] == [-5, 19]
    assert data["win_rate"][0] + data["win_rate"][1] == pytest.approx(1, abs=1e-3)
    assert data["win_rate_se"][0] == data["win_rate_se"][1] > 0
    assert data["hands"] == result.counts[L.GAME_DEALS]
    assert data["hands_per_game"] == pytest.approx(data["hands"] / 4000, abs=0.01)
    assert {"games_per_s", "hands_per_s", "seconds", "threads"} == set(data["timing"])


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"games": 0}, "^games must be"),
    ({"start_scores": (21, 0)}, "below the target"),
    ({"start_scores": "1;2"}, "two whole-number scores"),
    ({"dealer": 4}, "--dealer must be a seat 0-3"),
    ({"policies": "clever"}, "choose"),
])
def test_simulate_games_rejects_bad_arguments(kwargs, words):
    args = {"games": 10} | kwargs
    with pytest.raises(SmearError, match=words):
        simulate_games(args.pop("games"), **args)
    if "games" not in kwargs and "policies" not in kwargs:
        with pytest.raises(SmearError, match=words):
            trace_game_records(1, **{k: v for k, v in args.items() if k != "games"})
