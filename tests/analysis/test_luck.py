"""Luck (analysis/luck.py): a deal played out by the reference player, against the average deal at that seat,
dealer and score."""

from __future__ import annotations

import numpy as np
import pytest

from smear_sim import match_equity
from smear_sim.analysis.luck import deal_luck
from smear_sim.analysis.plan import RunPlan
from smear_sim.analysis.simulate import trace_records
from smear_sim.core.cards import mask_of
from smear_sim.engine.jobs import deal_outcomes_job
from smear_sim.engine.runner import run
from smear_sim.reference.record import parse_record


@pytest.fixture(scope="module")
def table():
    return match_equity(20_000, seed=3)


@pytest.fixture(scope="module")
def records():
    return [parse_record(r) for r in trace_records(120, seed=5)]


def test_the_reference_player_plays_a_deal_the_same_way_every_time(records):
    plan = RunPlan.of("heuristic")
    record = records[0]
    deal = np.array([mask_of(h) for h in record.hands] + [mask_of(record.kitty)], dtype=np.uint64)
    job = deal_outcomes_job(players=plan.players, seed=9, playouts=16, deal=deal, dealer=record.dealer, scores=(0, 0))
    counts = run(job).counts
    assert counts.sum() == 16 and np.count_nonzero(counts) == 1


def test_the_deals_value_is_the_score_of_the_deal_as_heuristic_played_it(records, table):
    plan = RunPlan.of("heuristic")
    for obj, record in zip(trace_records(120, seed=5)[:20], records[:20], strict=True):
        luck = deal_luck(record, equity=table, plan=plan)
        delta = obj["result"]["score_delta"]
        if obj["result"]["moon"] is None:
            assert luck.value_points == (delta[0] - delta[1], delta[1] - delta[0])
        assert luck.points[0].value == -luck.points[1].value
        assert luck.win[0].value == pytest.approx(-luck.win[1].value)
        assert luck.value_win[0] + luck.value_win[1] == pytest.approx(1)
        assert 0 < luck.points[0].se < 0.1 and 0 < luck.win[0].se < 0.01


def test_luck_averages_zero_over_deals(records, table):
    plan = RunPlan.of("heuristic")
    points = np.array([deal_luck(r, equity=table, plan=plan).points[0].value for r in records])
    win = np.array([deal_luck(r, equity=table, plan=plan).win[0].value for r in records])
    for values in (points, win):
        assert abs(values.mean()) < 3 * values.std(ddof=1) / np.sqrt(len(values))
