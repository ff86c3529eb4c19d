"""The simulator from Python: the trace check against the reference engine, determinism, summaries.

The trace check is the project's main guard on the Numba kernels (STYLE.md, after OpenSpiel): for every
rule-option preset, thousands of kernel-played hands are fed to the reference engine, which must find
each one legal and score it exactly as the kernel did.
"""

from __future__ import annotations

import json
import math

import numba
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smear_sim import duplicate_match, simulate
from smear_sim.analysis.simulate import SimulationResult, iter_trace_records, trace_records
from smear_sim.core import layout as L
from smear_sim.core.bidder import no_bidder_arrays
from smear_sim.core.errors import SmearError
from smear_sim.core.players import parse_policies, policy_array
from smear_sim.core.rules import Rules
from smear_sim.kernels import drivers
from smear_sim.reference.record import score_record

PRESETS = {
    "defaults": Rules(),
    "round_points": Rules(round_points=True),
    "high_highest_low_lowest": Rules(high="highest", low="lowest"),
    "low_to_taker": Rules(low_to="taker"),
    "forced_bid_dealer": Rules(forced_bid="dealer"),
    "forced_bid_none": Rules(forced_bid="none"),
    "moon_off": Rules(moon=False),
    "moon_requires_in_play": Rules(moon_requires="in_play"),
    "trump_anytime": Rules(trump_anytime=True),
    "misdeal_off": Rules(misdeal=False),
    "min_bid_1": Rules(min_bid=1),
    "target_4": Rules(target=4),
    "combined_round_points": Rules(round_points=True, high="highest", low="lowest", low_to="taker",
                                   forced_bid="dealer", moon_requires="in_play", trump_anytime=True, min_bid=1,
                                   target=5),
}

# Per preset: 1000 heuristic hands, 500 random, 500 heuristic (team 0) against random (team 1).
POLICY_RUNS = [("heuristic", 1000), ("random", 500), ("heuristic,random", 500)]
TRACE_CASES = [
    pytest.param(name, policies, count, id=f"{name}-{policies.replace(',', '_vs_')}")
    for name in PRESETS
    for policies, count in POLICY_RUNS
]


def dumps(obj) -> str:
    """Exact JSON text, so that True and 1 or 2 and 2.0 do not compare equal."""
    return json.dumps(obj, sort_keys=True)


def assert_trace_matches_reference(records: list[dict]) -> None:
    for i, record in enumerate(records):
        expected = score_record(record).to_json()  # raises RecordError if anything is illegal
        assert dumps(record["result"]) == dumps(expected), (i, record)


# -- the trace check ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "policies", "count"), TRACE_CASES)
def test_kernel_traces_are_legal_and_scored_like_the_reference(preset, policies, count):
    rules = PRESETS[preset]
    records = trace_records(count, seed=20240 + len(preset), rules=rules, policies=policies)
    assert len(records) == count
    assert all(r["rules"] == rules.changed() for r in records)
    assert_trace_matches_reference(records)


# Rare hands that a preset exists for, found by scanning raw kernel records and then traced one by one.
RARE = {
    "thrown_in": ("forced_bid_none", "random", lambda recs: recs[:, L.REC_BIDDER] < 0),
    "bid_of_1": ("min_bid_1", "random", lambda recs: recs[:, L.REC_BID] == 1),
    "moon_success": ("defaults", "heuristic,random", lambda recs: recs[:, L.REC_MOON] == 1),
    "moon_failure": ("moon_requires_in_play", "random", lambda recs: recs[:, L.REC_MOON] == 0),
    "game_won_in_a_hand": ("target_4", "heuristic", lambda recs: (recs[:, L.REC_WINNER] >= 0)
                           & (recs[:, L.REC_BID] != L.MOON)),
    "dealer_stuck": ("forced_bid_dealer", "random",
                     lambda recs: np.all(recs[:, L.REC_BIDS: L.REC_BIDS + 3] == L.PASS, axis=1)),
    "round_points_moon": ("combined_round_points", "random", lambda recs: recs[:, L.REC_BID] == L.MOON),
}


@pytest.mark.parametrize("event", list(RARE))
def test_rare_hands_are_traced_and_scored_like_the_reference(event):
    preset, policies, wanted = RARE[event]
    rules = PRESETS[preset]
    codes = policy_array(parse_policies(policies))
    raw = drivers.trace_hands(np.uint64(7), 0, 20_000, rules.to_array(), codes, no_bidder_arrays(), drivers.seated_arg(codes))
    found = np.flatnonzero(wanted(raw))[:25]
    assert len(found) > 0, f"no {event} hand in 20,000"
    records = [trace_records(1, seed=7, rules=rules, policies=policies, start=int(i))[0] for i in found]
    assert_trace_matches_reference(records)
    if event == "thrown_in":
        assert all(r["result"]["bidder"] is None and "plays" not in r for r in records)


@settings(max_examples=30, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), preset=st.sampled_from(sorted(PRESETS)),
       policies=st.sampled_from(["heuristic", "random", "heuristic,random", "random,heuristic"]),
       start=st.integers(0, 2**40))
def test_any_seed_preset_and_start_give_valid_traces(seed, preset, policies, start):
    records = trace_records(20, seed=seed, rules=PRESETS[preset], policies=policies, start=start)
    assert len(records) == 20
    assert_trace_matches_reference(records)


@st.composite
def any_rules(draw) -> Rules:
    """Any legal combination of the rule options."""
    round_points = draw(st.booleans())
    return Rules(
        round_points=round_points,
        high=draw(st.sampled_from(["ace", "highest"])),
        low=draw(st.sampled_from(["two", "lowest"])),
        low_to=draw(st.sampled_from(["player", "taker"])),
        forced_bid=draw(st.sampled_from(["opener", "dealer", "none"])),
        moon=draw(st.booleans()),
        moon_requires=draw(st.sampled_from(["all", "in_play"])),
        trump_anytime=draw(st.booleans()),
        misdeal=draw(st.booleans()),
        target=draw(st.integers(1, 30)),
        min_bid=draw(st.integers(1, 7 if round_points else 4)),
    )


@settings(max_examples=30, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), rules=any_rules(),
       policies=st.sampled_from(["heuristic", "random", "heuristic,random"]))
def test_any_combination_of_rule_options_gives_valid_traces(seed, rules, policies):
    assert_trace_matches_reference(trace_records(20, seed=seed, rules=rules, policies=policies))


# -- determinism ----------------------------------------------------------------------------------------------


def without_timing(result) -> dict:
    data = result.to_json()
    data.pop("timing")
    return data


@pytest.mark.parametrize("preset", ["defaults", "combined_round_points"])
def test_simulate_is_identical_for_any_threads_and_chunks(preset):
    rules = PRESETS[preset]
    runs = [simulate(10_007, seed=5, rules=rules, policies="heuristic,random", threads=threads, chunk_size=chunk)
            for threads, chunk in [(1, 1000), (2, 4096), (2, 1 << 18), (1, 1 << 18), (None, 333)]]
    first = runs[0]
    assert first.counts.dtype == np.int64
    for other in runs[1:]:
        assert other.counts.tobytes() == first.counts.tobytes()
        assert dumps(without_timing(other)) == dumps(without_timing(first))


def test_simulate_differs_across_seeds():
    a = simulate(5000, seed=1)
    b = simulate(5000, seed=2)
    assert not np.array_equal(a.counts, b.counts)
    assert simulate(5000, seed=1).counts.tobytes() == a.counts.tobytes()


@pytest.fixture
def restore_threads():
    yield
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


def test_trace_records_are_identical_for_any_thread_count(restore_threads):
    rules = PRESETS["combined_round_points"]
    traces = []
    for threads in (1, numba.config.NUMBA_NUM_THREADS):
        numba.set_num_threads(threads)
        traces.append(dumps(trace_records(300, seed=11, rules=rules, policies="heuristic,random")))
    assert traces[0] == traces[1]


def test_trace_records_start_gives_the_matching_slice():
    whole = trace_records(400, seed=3)
    assert dumps(trace_records(100, seed=3, start=250)) == dumps(whole[250:350])
    assert dumps(trace_records(50, seed=3)) == dumps(whole[:50])  # a prefix does not depend on the count
    assert dumps(trace_records(50, seed=4)) != dumps(whole[:50])
    assert trace_records(0, seed=3) == []


def test_trace_records_stream_chunk_by_chunk(monkeypatch):
    # A trace of a million hands held about 6 GB; records now come one kernel call at a time, so the
    # kernel is asked for at most chunk_size hands and nothing is traced before it is needed.
    whole = trace_records(25, seed=3, start=7)
    asked = []
    real = drivers.trace_hands

    def spy(seed, start, count, rules, policies, bidder_arrays, search):
        asked.append((start, count))
        return real(seed, start, count, rules, policies, bidder_arrays, search)

    monkeypatch.setattr(drivers, "trace_hands", spy)
    stream = iter_trace_records(25, seed=3, start=7, chunk_size=10)
    assert asked == []
    first = next(stream)
    assert asked == [(7, 1)]  # the calls are sized by time from one hand up (engine.runner.paced), at most 10
    assert dumps([first, *stream]) == dumps(whole)
    assert [s for s, _ in asked] == [7 + sum(n for _, n in asked[:i]) for i in range(len(asked))]
    assert sum(n for _, n in asked) == 25 and max(n for _, n in asked) <= 10
    with pytest.raises(SmearError, match="^trace_hands must be"):
        iter_trace_records(-1)  # checked when called, not when first read


def test_trace_records_play_the_same_hands_as_simulate():
    rules = PRESETS["target_4"]
    records = trace_records(3000, seed=8, rules=rules, policies="heuristic,random")
    result = simulate(3000, seed=8, rules=rules, policies="heuristic,random")
    delta = np.array([r["result"]["score_delta"] for r in records], dtype=float)
    margin = delta[:, 0] - delta[:, 1]
    assert result.margin().value == pytest.approx(margin.mean(), rel=1e-12)
    assert result.margin().se == pytest.approx(margin.std(ddof=1) / math.sqrt(len(margin)), rel=1e-9)
    bids = [r["result"]["bid"] for r in records]
    for row in result.bid_rows():
        assert row["count"] == bids.count(row["bid"])
    winners = [r["result"]["winner"] for r in records]
    assert [t["games_won"] for t in result.team_rows()] == [winners.count(0), winners.count(1)]


def test_duplicate_match_is_identical_for_any_threads_and_chunks():
    runs = [duplicate_match("heuristic", "random", deals=3001, seed=2, threads=threads, chunk_size=chunk)
            for threads, chunk in [(1, 1000), (2, 4096), (2, 1 << 18)]]
    assert len({dumps(r.to_json()) for r in runs}) == 1
    assert dumps(duplicate_match(deals=3001, seed=3).to_json()) != dumps(runs[0].to_json())


def test_duplicate_match_is_antisymmetric_and_zero_against_itself():
    ab = duplicate_match("heuristic", "random", deals=2000, seed=4)
    ba = duplicate_match("random", "heuristic", deals=2000, seed=4)
    assert ba.score_margin.value == -ab.score_margin.value
    assert ba.score_margin.se == ab.score_margin.se
    assert ba.points_margin.value == -ab.points_margin.value
    same = duplicate_match("heuristic", "heuristic", deals=2000, seed=4)
    assert same.score_margin.value == 0 and same.score_margin.se == 0  # each deal played twice the same way
    data = ab.to_json()
    assert data["hands"] == 2 * data["deals"] == 4000
    assert set(data["score_margin"]) == {"mean", "mean_se"}


# -- the summary -------------------------------------------------------------------------------------------------


def test_simulation_json_fields_and_their_consistency():
    result = simulate(20_000, seed=6, rules=PRESETS["round_points"], policies="heuristic,random")
    data = result.to_json()
    assert {"hands", "seed", "policies", "rules", "bids", "teams", "awards", "moon", "margin_team0", "misdeals",
            "thrown_in", "timing"} <= set(data)
    assert data["hands"] == 20_000 and data["seed"] == 6 and data["policies"] == ["heuristic", "random"]
    assert data["rules"] == PRESETS["round_points"].as_dict()
    assert sum(row["count"] for row in data["bids"]) + data["thrown_in"] == 20_000
    for row in data["bids"]:
        assert {"bid", "count", "share", "share_se", "made", "made_se"} <= set(row)
        assert 0 <= row["made"] <= 1
    assert [t["team"] for t in data["teams"]] == [0, 1]
    # Identities on the integer counts behind the JSON (its figures are rounded to their standard errors).
    counts = result.counts
    thrown_in = counts[L.AGG_THROWN_IN]
    assert data["thrown_in"] == thrown_in
    assert counts[L.AGG_BIDDER_TEAM] + counts[L.AGG_BIDDER_TEAM + 1] + thrown_in == 20_000
    assert counts[L.AGG_BIDS: L.AGG_BIDS + L.N_BID_CODES].sum() + thrown_in == 20_000
    assert list(data["awards"]) == ["high", "low", "jack", "game", "jick", "high_joker", "low_joker"]
    for i in range(len(data["awards"])):
        assert (counts[L.AGG_AWARD_BIDDER + i] + counts[L.AGG_AWARD_OTHER + i] + counts[L.AGG_AWARD_NONE + i]
                == 20_000 - thrown_in)
    assert result.margin().value * 20_000 == pytest.approx(counts[L.AGG_DELTA] - counts[L.AGG_DELTA + 1], abs=1e-6)
    assert data["margin_team0"]["mean"] == result.margin().rounded().value
    assert data["moon"]["attempts"] == sum(t["moon_attempts"] for t in data["teams"])
    assert set(data["timing"]) == {"threads", "seconds", "hands_per_s"}
    assert list(simulate(1000).to_json()["awards"]) == ["high", "low", "jack", "game"]


def test_simulation_json_with_no_time_measured():
    # Regression: to_json() raised ValueError (round of NaN) when seconds was 0, as for a result made by hand.
    result = simulate(100, seed=1)
    untimed = SimulationResult(result.hands, result.seed, result.rules, result.policies, result.counts)
    assert untimed.seconds == 0 and untimed.to_json()["timing"] == {"threads": 0, "seconds": 0, "hands_per_s": None}
    assert without_timing(untimed) == without_timing(result)


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"hands": 0}, "^hands must be"),  # the library names its parameters; the command line words them as options
    ({"threads": 0}, "^threads must be"),
    ({"threads": 999}, "^threads must be"),
    ({"chunk_size": 0}, "^chunk_size must be"),
    ({"seed": -1}, "^seed must be"),
    ({"seed": 2**64}, "^seed must be"),
    ({"policies": "clever"}, "choose"),
    ({"policies": "heuristic,random,random"}, "two separated by a comma"),
])
def test_simulate_rejects_bad_arguments(kwargs, words):
    args = {"hands": 10} | kwargs
    with pytest.raises(SmearError, match=words):
        simulate(args.pop("hands"), **args)


def test_trace_and_match_reject_bad_arguments():
    with pytest.raises(SmearError, match="^trace_hands must be"):
        trace_records(-1)
    with pytest.raises(SmearError, match="^deals must be"):
        duplicate_match(deals=0)
    with pytest.raises(SmearError, match="unknown policy"):
        duplicate_match("heuristic", "nobody", deals=10)
