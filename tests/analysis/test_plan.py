"""One value for a run (smear_sim/analysis/plan.py): its defaults are filled in once, an analysis takes the plan only,
and the public API, which also takes the keywords that make it, counts the same given either."""

from __future__ import annotations

import numpy as np
import pytest

import smear_sim
from smear_sim import class_table, simulate
from smear_sim.analysis.plan import RunPlan
from smear_sim.core.errors import SmearError
from smear_sim.core.rules import Rules
from smear_sim.engine.settings import RunSettings


def test_the_defaults_are_filled_in_once():
    plan = RunPlan.of()
    assert plan.policies == ("heuristic", "heuristic") and plan.rules == Rules() and plan.settings == RunSettings()
    assert plan.bidder_arrays[0][0] == 0  # no equity bidder: the empty arrays
    rules, codes, bidder_arrays = plan.players
    assert np.array_equal(rules, Rules().to_array()) and codes.tolist() == [1, 1] and bidder_arrays is plan.bidder_arrays
    mixed = RunPlan.of("pimc,random", Rules(target=11), threads=1, chunk_size=64)
    assert mixed.policies == ("pimc:16", "random") and mixed.settings == RunSettings(threads=1, chunk_size=64)


def test_but_changes_how_the_run_goes_not_who_plays():
    plan = RunPlan.of("random", chunk_size=128)
    later = plan.replace(progress=print, chunk_size=None)
    assert later.policies == plan.policies and later.bidder_arrays is plan.bidder_arrays and later.rules == plan.rules
    assert later.settings == RunSettings(progress=print) and plan.settings.chunk_size == 128


def test_one_policy_at_all_four_seats():
    assert RunPlan.of("random").one_policy("bid tables play") == "random"
    with pytest.raises(SmearError, match="^bid tables play one policy at all four seats; give a single --policy$"):
        RunPlan.of("heuristic,random").one_policy("bid tables play")


def test_a_plan_counts_what_the_keywords_count():
    by_keywords = class_table(3000, seed=5, policy="random", rules=Rules(target=11), chunk_size=1000)
    by_plan = class_table(3000, seed=5, plan=RunPlan.of("random", Rules(target=11), chunk_size=700))
    assert np.array_equal(by_keywords.counts, by_plan.counts) and by_plan.rules == Rules(target=11)
    a = simulate(2000, seed=2, policies="heuristic,random")
    b = simulate(2000, seed=2, plan=RunPlan.of("heuristic,random", threads=1))
    assert np.array_equal(a.counts, b.counts) and b.policies == ("heuristic", "random")


def test_an_analysis_takes_the_plan_only_and_the_api_also_its_keywords():
    import inspect

    for name, keywords in smear_sim._PLAN_KEYWORDS.items():
        public = inspect.signature(getattr(smear_sim, name)).parameters
        analysis = inspect.signature(inspect.unwrap(getattr(smear_sim, name))).parameters
        assert analysis["plan"].default is inspect.Parameter.empty or name == "match_equity", name
        assert not set(keywords) & set(analysis), name  # no analysis re-derives a plan from its keywords
        assert set(keywords) | {"plan"} <= set(public), name
