"""The bit tricks (smear_sim/kernels/bits.py)."""

from __future__ import annotations

import numpy as np
from numba import njit

from smear_sim.kernels.bits import nonnegative


@njit(cache=True)
def _read(values, i):
    return values[nonnegative(i)]


def test_nonnegative_is_its_value_and_indexes_as_the_plain_value_does():
    values = np.arange(10, 20, dtype=np.int64)
    for i in range(10):
        assert _read(values, i) == values[i]
