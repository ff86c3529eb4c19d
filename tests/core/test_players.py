"""The players by name (smear_sim/core/players.py): parsing --policy and the kernels' numbers."""

from __future__ import annotations

import numpy as np
import pytest

from smear_sim.core.errors import SmearError
from smear_sim.core.players import POLICIES, parse_policies, policy_array


def test_parse_policies():
    assert parse_policies("heuristic") == ("heuristic", "heuristic")
    assert parse_policies(" Heuristic , RANDOM ") == ("heuristic", "random")
    assert parse_policies(["random", "heuristic"]) == ("random", "heuristic")
    with pytest.raises(SmearError, match="choose random or heuristic"):
        parse_policies("greedy")
    with pytest.raises(SmearError, match="two separated by a comma"):
        parse_policies("random,random,random")


def test_policy_array_matches_the_kernel_numbers():
    from smear_sim.kernels import players

    assert POLICIES[players.RANDOM] == "random" and POLICIES[players.HEURISTIC] == "heuristic"
    codes = policy_array(("heuristic", "random"))
    assert codes.dtype == np.int64 and list(codes) == [players.HEURISTIC, players.RANDOM]
