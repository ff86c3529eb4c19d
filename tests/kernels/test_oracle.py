"""``oracle``, the all-seeing player (kernels/players/pimc.py): its card is one of the best of the real deal, by a
pure-Python minimax over the reference engine, and in whole hands it beats ``heuristic``, whose calls, trump and
discards it shares, by far."""

from __future__ import annotations

import random

import numpy as np
import pytest

from smear_sim import duplicate_match
from smear_sim.analysis.solve import hand_state
from smear_sim.core.bidder import no_bidder_arrays
from smear_sim.core.errors import SmearError
from smear_sim.core.players import POLICIES, parse_policies, policy_code
from smear_sim.core.rules import Rules
from smear_sim.kernels import players as kp
from smear_sim.kernels import state as ks
from smear_sim.kernels.players import policy_tables
from smear_sim.kernels.players.net import new_net_work
from smear_sim.kernels.rng import stream_key

from .test_solver import _positions, reference_minimax

ORACLE = policy_code("oracle")


@pytest.mark.parametrize("rules", [Rules(), Rules(round_points=True, low_to="taker")], ids=["defaults", "round_points"])
def test_the_oracle_plays_a_best_card_of_the_real_deal(rules):
    array = rules.to_array()
    give, _ = policy_tables(array)
    seated = kp.seated_arg([ORACLE])
    policies = np.array([ORACLE, ORACLE], dtype=np.int64)
    rng = np.array([stream_key(np.uint64(3), np.uint64(0))], dtype=np.uint64)
    n = 0
    for position in _positions(rules, random.Random(f"oracle {rules}"), 120, (1, 2)):
        best, values = reference_minimax(position)
        hs = hand_state(position)
        c = int(kp.search_play(ORACLE, seated, rng, hs, np.uint64(ks.legal_cards(hs, array)), array, give, policies,
                               no_bidder_arrays(), new_net_work(no_bidder_arrays())))
        assert values[c] == best, (position, c, values)
        n += len(values) > 1
    assert n >= 30  # enough positions offered a real choice


def test_the_oracle_keeps_its_code_and_no_hint_plays_out_with_it():
    # its code (the players after it are appended, so that no existing code changes)
    assert POLICIES[7] == "oracle" and parse_policies("oracle,heuristic") == ("oracle", "heuristic")
    with pytest.raises(SmearError, match="takes no parameter"):
        parse_policies("oracle:4")
    from smear_sim import hint
    from smear_sim.reference.view import parse_view

    view = parse_view({"seat": 0, "dealer": 3, "bids": [],
                       "hands": [["AH", "KH", "2H", "JD", "10C", "5S", "9S", "4D", "3C"], None, None, None]})
    with pytest.raises(SmearError, match="cannot play out"):
        hint(view, samples=4, playout="oracle")


def test_the_oracle_beats_heuristic_by_far_in_duplicate():
    """Seeing every card is worth much more than any inference can be: the upper bound is far above 0."""
    result = duplicate_match("oracle", "heuristic", deals=300, seed=4)
    margin = result.points_margin
    assert margin.value > 5 * margin.se, margin
