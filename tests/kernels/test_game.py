"""The game kernels: one game (kernels/game.py), the game drivers and the hand-outcome histogram behind the
match-equity table (kernels/drivers/), read as raw arrays."""

from __future__ import annotations

import numpy as np
import pytest

from smear_sim.core import layout as L
from smear_sim.core.bidder import no_bidder_arrays
from smear_sim.core.players import parse_policies, policy_array
from smear_sim.core.rules import Rules
from smear_sim.kernels import drivers
from smear_sim.kernels.drivers import seated_arg

NO_MODEL = no_bidder_arrays()  # no equity bidder: the kernels' bidder_arrays argument, empty


def codes(policies: str) -> np.ndarray:
    return policy_array(parse_policies(policies))


def expected_code(rec: np.ndarray) -> int:
    """The outcome code of one hand record, from the dealing team's side, worked out in Python."""
    bidder = rec[L.REC_BIDDER]
    if bidder < 0:
        return L.OUT_THROWN_IN
    team = bidder % 2
    side = 0 if team == rec[L.REC_DEALER] % 2 else 1
    other = rec[L.REC_POINTS + 1 - team]
    width = L.OUT_MAX + 1
    if rec[L.REC_BID] == L.MOON:
        return L.OUT_MOON_MADE + side * width + other if rec[L.REC_MOON] == 1 else L.OUT_MOON_FAILED + side
    return L.OUT_NUMERIC + (side * (2 * L.OUT_MAX + 1) + rec[L.REC_DELTA + team] + L.OUT_MAX) * width + other


@pytest.mark.parametrize(("rules", "policies"), [(Rules(), "heuristic"), (Rules(round_points=True, forced_bid="none"),
                                                                       "random")], ids=["defaults", "rp_none_random"])
def test_hand_outcomes_count_the_hands_simulate_plays(rules, policies):
    """The histogram counts hands i = 0.. dealt by seat i % 4 from the same streams as the traces."""
    n = 6000
    histogram = drivers.hand_outcomes(np.uint64(4), 0, n, 3, rules.to_array(), codes(policies), NO_MODEL, 0, 0,
                                      seated_arg(codes(policies)))
    histogram = histogram.sum(axis=0)
    records = drivers.trace_hands(np.uint64(4), 0, n, rules.to_array(), codes(policies), NO_MODEL,
                                  seated_arg(codes(policies)))
    recount = np.bincount([expected_code(rec) for rec in records], minlength=L.N_OUTCOMES)
    assert histogram.tolist() == recount.tolist()
    assert histogram.sum() == n


def test_outcome_codes_fit_the_histogram():
    assert L.OUT_NUMERIC == 1
    assert L.OUT_MOON_MADE == L.OUT_NUMERIC + 2 * (2 * L.OUT_MAX + 1) * (L.OUT_MAX + 1)
    assert L.N_OUTCOMES == L.OUT_MOON_FAILED + 2


def test_game_records_rotate_the_dealer_and_carry_the_scores():
    rules = Rules(target=9)
    out, offsets = drivers.trace_games(np.uint64(3), 0, 50, rules.to_array(), codes("heuristic,random"), NO_MODEL,
                                       -4, 6, 2, seated_arg(codes("heuristic,random")))
    assert offsets[0] == 0 and offsets[-1] == len(out) and np.all(np.diff(offsets) >= 1)
    for i in range(50):
        deals = out[offsets[i]: offsets[i + 1]]
        assert deals[:, L.REC_DEALER].tolist() == [(2 + k) % 4 for k in range(len(deals))]
        before = deals[:, L.REC_SCORES_BEFORE: L.REC_SCORES_BEFORE + 2]
        delta = deals[:, L.REC_DELTA: L.REC_DELTA + 2]
        assert before[0].tolist() == [-4, 6]
        assert np.array_equal(before[1:], before[:-1] + delta[:-1])
        assert np.all(deals[:-1, L.REC_WINNER] == -1) and deals[-1, L.REC_WINNER] >= 0


def test_game_counts_add_up():
    rules = Rules()
    counts = drivers.simulate_games(np.uint64(9), 0, 500, 2, rules.to_array(), codes("heuristic"), NO_MODEL, 0, 0,
                                    3, seated_arg(codes("heuristic"))).sum(axis=0)
    assert counts[L.GAMES] == 500 == counts[L.GAME_WINS] + counts[L.GAME_WINS + 1] + counts[L.GAME_UNFINISHED]
    assert counts[L.GAME_DEALS] == counts[L.AGG_HANDS]
    assert counts[L.AGG_GAME_WINS] + counts[L.AGG_GAME_WINS + 1] == 500  # the last hand of each game won it
    assert counts.shape == (L.GAME_SIZE,)
