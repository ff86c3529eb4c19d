"""The hand-analysis driver (kernels/drivers/outcomes.py): blocks and classes add up."""

from __future__ import annotations

import numpy as np

from smear_sim.core import layout as L
from smear_sim.core.bidder import no_bidder_arrays
from smear_sim.core.cards import mask_of, parse_cards
from smear_sim.core.players import policy_array
from smear_sim.core.rules import Rules
from smear_sim.kernels import drivers
from smear_sim.kernels.drivers import seated_arg

NO_MODEL = no_bidder_arrays()


def test_analyze_hands_is_independent_of_blocks_and_classes_sum_to_the_total():
    rules = Rules().to_array()
    codes = policy_array(("heuristic", "heuristic"))
    fixed = np.uint64(mask_of(parse_cards("AH KH 2H JD 10C 5S 9S 4D 3C")))
    args = (rules, codes, NO_MODEL, fixed, -1, False, seated_arg(codes))
    one = drivers.analyze_hands(np.uint64(2), 0, 5000, 1, *args).sum(axis=(0, 1))
    many = drivers.analyze_hands(np.uint64(2), 0, 5000, 6, *args).sum(axis=(0, 1))
    assert np.array_equal(one, many)
    assert one[L.CLS_COUNT] == 5000
    assert one[L.CLS_HIST: L.CLS_HIST + L.MAX_K].sum() == 5000
    assert one[L.CLS_TRUMP: L.CLS_TRUMP + 4].sum() == 5000
    args = (rules, codes, NO_MODEL, np.uint64(0), -1)
    classed = drivers.analyze_hands(np.uint64(2), 0, 5000, 3, *args, True, seated_arg(codes)).sum(axis=0)
    total = drivers.analyze_hands(np.uint64(2), 0, 5000, 3, *args, False, seated_arg(codes)).sum(axis=(0, 1))
    assert classed.shape == (L.N_CLASSES, L.CLS_SIZE)
    assert np.array_equal(classed.sum(axis=0), total)
