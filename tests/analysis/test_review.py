"""The review (analysis/review.py): exactly the decisions with a choice, each the seat's own hint, costs never negative,
marks by the stated thresholds, totals that add up, and the ordering of players: random's records cost more per
decision than heuristic's, and pimc's no more than heuristic's."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from smear_sim import hint, review
from smear_sim.analysis.review import MARKS, check_kinds, mark_of, read_hands
from smear_sim.analysis.simulate import trace_game_records, trace_records
from smear_sim.core.errors import BadValue, RecordError
from smear_sim.reference.decisions import decisions_of
from smear_sim.reference.view import legal_actions

SAMPLES = 24  # worlds a decision: compile time dominates these tests, not the worlds


@pytest.fixture(scope="module")
def record():
    return trace_records(1, seed=4)[0]


@pytest.fixture(scope="module")
def reviewed(record):
    return review(record, samples=SAMPLES, seed=2)


def test_the_decisions_listed_are_exactly_those_with_a_choice(record, reviewed):
    hand = read_hands([record])[0].hand
    expected = [(d.seat, d.kind, d.taken) for d in decisions_of(hand) if len(legal_actions(d.view(hand))) > 1]
    assert [(g.seat, g.decision.kind, g.decision.taken) for g in reviewed.decisions] == expected
    assert {"call", "trump", "keep", "card"} >= {g.decision.kind for g in reviewed.decisions}


def test_each_cost_is_the_seats_own_hint_clipped_at_zero(record, reviewed):
    hand = read_hands([record])[0].hand
    cards = [g for g in reviewed.decisions if g.decision.kind == "card"]
    for g in cards[:3]:
        alone = hint(g.decision.view(hand), samples=SAMPLES, seed=2)
        points, win = alone.cost(g.decision.taken)
        assert g.best == alone.best
        assert g.points.value == max(points.value, 0.0) and g.win.value == max(win.value, 0.0)
    for g in reviewed.decisions:
        assert g.points.value >= 0 and g.win.value >= 0
        assert g.mark == mark_of(g.win.value)
        if g.decision.taken == g.best:
            assert g.win.value == 0 and g.mark is None


def test_marks_follow_the_thresholds():
    assert [name for name, _ in MARKS] == ["very bad", "bad", "doubtful"]
    assert mark_of(0.0099) is None and mark_of(0.01) == "doubtful" and mark_of(0.0199) == "doubtful"
    assert mark_of(0.02) == "bad" and mark_of(0.04) == "very bad" and mark_of(0.5) == "very bad"


def test_totals_add_up_and_the_json_has_the_interface_keys(reviewed):
    data = reviewed.to_json()
    assert {"samples", "seed", "decisions", "seats", "teams", "luck"} <= set(data)
    assert data["samples"] == SAMPLES and data["seed"] == 2
    first = data["decisions"][0]
    assert {"record", "deal", "seat", "decision", "trick", "taken", "best", "cost", "mark"} <= set(first)
    assert {"points", "win"} <= set(first["cost"])
    assert [s["seat"] for s in data["seats"]] == [0, 1, 2, 3] and [t["team"] for t in data["teams"]] == [0, 1]
    seats, teams = reviewed.seat_totals(), reviewed.team_totals()
    assert sum(t.decisions for t in seats) == len(reviewed.decisions) == sum(t.decisions for t in teams)
    for team in range(2):
        assert math.isclose(teams[team].win.value, seats[team].win.value + seats[team + 2].win.value)
        assert teams[team].marks == {m: seats[team].marks[m] + seats[team + 2].marks[m] for m in seats[0].marks}
    luck = data["luck"]
    assert len(luck["deals"]) == 1 and luck["teams"][0]["win"] == -luck["teams"][1]["win"]
    frame = reviewed.frame()
    assert len(frame) == len(reviewed.decisions) and (frame["cost_win"] >= 0).all()


def test_a_game_record_is_reviewed_deal_by_deal():
    game = trace_game_records(1, seed=6)[0]
    game = {**game, "deals": game["deals"][:2]}
    graded = review(game, samples=8, kinds=["card"], luck=False)
    assert {g.deal for g in graded.decisions} == {0, 1} and {g.record for g in graded.decisions} == {0}
    assert all(g.decision.kind == "card" for g in graded.decisions)
    assert graded.luck == ()


def test_bad_input_is_named_before_any_work(record):
    with pytest.raises(RecordError, match="record 2: "):
        review([record, {**record, "plays": record["plays"][::-1]}], samples=4)
    with pytest.raises(BadValue, match="kinds"):
        check_kinds("card,bid")
    with pytest.raises(BadValue, match="inference"):
        review(record, inference="maybe")
    with pytest.raises(RecordError, match="no record"):
        review([])


def test_random_costs_more_per_decision_than_heuristic_and_pimc_no_more():
    """The same deals played by three players, every decision graded: a random player's cost far more per decision
    than the heuristic's (its moon calls above all); the search player's, whose card play looks ahead over sampled
    deals, no more than the heuristic's (within the noise). Measured: 0.91 ± 0.41, 0.100 ± 0.028 and 0.082 ± 0.026
    points a decision."""
    mean = {}
    for policy in ("random", "heuristic", "pimc:16"):
        graded = review(trace_records(3, seed=11, policies=policy), samples=32, luck=False)
        points = np.array([g.points.value for g in graded.decisions])
        mean[policy] = (points.mean(), points.std(ddof=1) / np.sqrt(len(points)))
    (random, random_se), (heuristic, heuristic_se), (pimc, pimc_se) = mean.values()
    assert random > 2 * heuristic and random - heuristic > 1.5 * math.hypot(random_se, heuristic_se)
    assert pimc <= heuristic + 2 * math.hypot(pimc_se, heuristic_se)


def test_the_error_of_a_table_that_many_hints_read_is_made_whole_first(record, reviewed):
    """A review makes the gradient of each equity table that ``GRADIENT_READERS`` hints or more read before them,
    once, rather than each hint solving for the table's error on its own (docs/decisions.md, "Speed"); a table fewer
    hints read is left to them."""
    from smear_sim.analysis.decisions import hint_equity
    from smear_sim.analysis.plan import RunPlan
    from smear_sim.analysis.review import GRADIENT_READERS, _ready_errors

    hand = read_hands([record])[0].hand
    table = hint_equity(decisions_of(hand)[0].view(hand), seed=2, plan=RunPlan.of("heuristic", hand.rules))
    assert len(reviewed.decisions) >= GRADIENT_READERS and "gradient" in table.__dict__

    class Table:
        made = ()

        def make_gradient(self, threads):
            self.made += (threads,)

    often, seldom = Table(), Table()
    _ready_errors([often] * GRADIENT_READERS + [seldom] * (GRADIENT_READERS - 1), 2)
    assert (often.made, seldom.made) == ((2,), ())


def test_a_review_on_a_cluster_is_the_review_here(dask_client):
    """On a cluster each hint after the first of its kind runs whole on one worker: the review is the same."""
    from smear_sim.analysis.plan import RunPlan
    from smear_sim.engine.dask_executor import DaskExecutor

    records = trace_records(2, seed=8)
    here = review(records, samples=8, seed=3)
    heard = []
    there = review(records, samples=8, seed=3, plan=RunPlan.of("heuristic", executor=DaskExecutor(dask_client)),
                   progress=heard.append)
    assert json.dumps(there.to_json(), sort_keys=True) == json.dumps(here.to_json(), sort_keys=True)
    assert sum(heard) == len(here.decisions)
