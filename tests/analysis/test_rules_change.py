"""What changes from one rule set to another (smear_sim/analysis/rules_change.py), read from two class tables."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from smear_sim import class_table
from smear_sim.analysis.classes import moon_table
from smear_sim.analysis.plan import RunPlan
from smear_sim.analysis.rules_change import COMMON_CLASSES, rules_change
from smear_sim.core.errors import SmearError
from smear_sim.core.rules import Rules

BY = ("trumps", "top")


@pytest.fixture(scope="module")
def tables():
    return tuple(class_table(20_000, seed=5, plan=RunPlan.of("heuristic", rules))
                 for rules in (Rules(), Rules(round_points=True)))


def test_bid_levels_and_points_come_from_each_table(tables):
    change = rules_change(*tables, by=BY, min_count=100)
    assert list(change.levels["bid"]) == [2, 3, 4, 5, 6, 7]
    for which, table in zip(("base", "variant"), tables, strict=True):
        frame = table.frame(BY, 100)
        reliable = frame[frame["reliable"]]
        for bid in range(2, 8):
            shown = change.level_share(bid, which)
            if bid > table.rules.max_points:
                assert np.isnan(shown)
            else:
                at_least = reliable.loc[reliable["bid_up_to"].fillna(0) >= bid, "hands"].sum()
                assert shown == pytest.approx(at_least / reliable["hands"].sum(), abs=1e-12)
        mean = (frame["hands"] * frame["points"]).sum() / table.hands
        assert change.mean_points[which == "variant"] == pytest.approx(mean)
    assert change.mean_points[1] > change.mean_points[0] + 1  # 3 more points at stake
    assert len(change.classes) == COMMON_CLASSES
    assert list(change.classes["hands"]) == sorted(change.classes["hands"], reverse=True)


def test_the_moon_pays_exactly_above_its_break_even(tables):
    """A moon's EV is (2p - 1) x target, so it beats the best numeric bid's EV exactly when p > (1 + EV/target)/2."""
    change = rules_change(*tables, by=BY, min_count=100)
    for which, table in zip(("base", "variant"), tables, strict=True):
        moon = moon_table(table, BY, 100)
        reliable = moon[moon["reliable"]]
        assert change.moon_pays[which == "variant"] == int(reliable["moon_pays"].sum())
        assert change.moon_classes[which == "variant"] == len(reliable)
        rows = change.moon
        needed = (1 + rows[f"best_numeric_ev_{which}"] / table.rules.target) / 2
        assert np.allclose(rows[f"break_even_{which}"], np.minimum(needed, 1))
        assert ((rows[f"moon_{which}"] > rows[f"break_even_{which}"]) == rows[f"moon_pays_{which}"]).all()


def test_only_two_rule_sets_of_one_policy_compare(tables):
    with pytest.raises(SmearError, match="same rules"):
        rules_change(tables[0], tables[0])
    with pytest.raises(SmearError, match="different policies"):
        rules_change(tables[0], dataclasses.replace(tables[1], policy="random"))
