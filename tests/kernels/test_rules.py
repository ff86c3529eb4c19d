"""What the kernels work out from the rules (smear_sim/kernels/rules.py) is what the rules say (core/rules.py)."""

from __future__ import annotations

from smear_sim.core.rules import Rules
from smear_sim.kernels.rules import points_at_stake


def test_the_points_at_stake_are_the_rules():
    for round_points, expected in ((False, 4), (True, 7)):
        rules = Rules(round_points=round_points)
        assert points_at_stake(rules.to_array()) == rules.max_points == expected
