"""One hand's outcome distribution (smear_sim/analysis/hand_outcomes.py): the outcome codes decode to their parts."""

from __future__ import annotations

import numpy as np
import pytest

from smear_sim.analysis import hand_outcomes as HO
from smear_sim.core import layout as L
from smear_sim.core.rules import Rules


def test_outcome_codes_decode_to_their_parts():
    counts = np.zeros(L.N_OUTCOMES, dtype=np.int64)
    width = L.OUT_MAX + 1
    counts[L.OUT_THROWN_IN] = 1
    counts[L.OUT_NUMERIC + (1 * (2 * L.OUT_MAX + 1) + (-3) + L.OUT_MAX) * width + 2] = 2  # other team set on 3
    counts[L.OUT_MOON_MADE + 0 * width + 0] = 3
    counts[L.OUT_MOON_FAILED + 1] = 4
    decoded = HO.HandOutcomes(counts, 1, "heuristic", Rules()).decoded
    assert decoded["kind"].tolist() == [0, 1, 2, 3]
    assert decoded["side"].tolist() == [0, 1, 0, 1]
    assert decoded["delta"].tolist() == [0, -3, 0, 0]
    assert decoded["other"].tolist() == [0, 2, 0, 0]
    assert decoded["p"] == pytest.approx([0.1, 0.2, 0.3, 0.4])
