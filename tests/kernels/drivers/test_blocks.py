"""The drivers' shared prologue (kernels/drivers/blocks.py, kernels/hand.py): block bounds, the card pool."""

from __future__ import annotations

import numpy as np

from smear_sim.core.cards import mask_of, parse_cards
from smear_sim.kernels.bits import ZERO
from smear_sim.kernels.drivers.blocks import block_bounds
from smear_sim.kernels.hand import card_pool


def test_block_bounds_cover_the_range_once():
    for count in (0, 1, 7, 100, 1001):
        for n_blocks in (1, 2, 3, 8, 16):
            covered = []
            for b in range(n_blocks):
                lo, hi = block_bounds(count, n_blocks, b)
                covered += range(lo, hi)
            assert covered == list(range(count))


def test_card_pool_holds_the_cards_not_fixed_in_order():
    pool, n = card_pool(ZERO)
    assert n == 54 and pool.tolist() == list(range(54))
    fixed = mask_of(parse_cards("AH KH 2H JD 10C 5S 9S 4D 3C"))
    pool, n = card_pool(np.uint64(fixed))
    assert n == 45
    assert pool[:n].tolist() == [c for c in range(54) if not fixed >> c & 1]
