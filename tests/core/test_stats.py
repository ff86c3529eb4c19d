"""Estimates with standard errors (smear_sim/stats.py): rounding, formatting and the estimators."""

from __future__ import annotations

import math

import numpy as np
import pytest

from smear_sim.core.stats import Estimate, mean_from_sums, proportion, round_to_se


@pytest.mark.parametrize(("value", "se", "expected"), [
    (2.987_61, 0.004_32, (2.9876, 0.0043)),  # two significant digits of the SE, value to the same place
    (0.512_34, 0.012_3, (0.512, 0.012)),
    (123.456, 2.34, (123.5, 2.3)),
    (1234.5, 123.4, (1234.0, 123.0)),  # never fewer than 0 decimals
    (5.555_55, 0.0, (5.5556, 0.0)),  # an exact value keeps 4 decimals
    (-1.234_56, 0.000_001_23, (-1.234_56, 0.000_001)),  # at most 6 decimals
])
def test_round_to_se(value, se, expected):
    assert round_to_se(value, se) == pytest.approx(expected)
    assert round_to_se(value, se) == expected


def test_round_to_se_with_one_significant_digit():
    assert round_to_se(2.987_61, 0.004_32, significant=1) == (2.988, 0.004)


@pytest.mark.parametrize(("estimate", "text"), [
    (Estimate(2.987_61, 0.004_32), "2.988 ± 0.004"),
    (Estimate(2.987_61, 0.012_3), "2.988 ± 0.012"),  # a leading 1 keeps two digits
    (Estimate(12_345.678, 55.0), "12346 ± 55"),
    (Estimate(3.5, 0.0), "3.5"),
    (Estimate(1.0, math.nan), "1"),
])
def test_estimate_str(estimate, text):
    assert str(estimate) == text


@pytest.mark.parametrize(("estimate", "kwargs", "text"), [
    (Estimate(88.123, 0.3), {}, "88.1(3)"),
    (Estimate(0.512_3, 0.012_3), {"scale": 100}, "51.2(12)"),
    (Estimate(0.123_456_789, 1e-9), {}, "0.123457(1)"),  # capped at 6 decimals, the error rounded up
    (Estimate(0.123_456_789, 3.2e-6), {"max_decimals": 4}, "0.1235(1)"),
    (Estimate(2.0, 0.0), {}, "2"),
    (Estimate(math.nan, 1.0), {}, ""),
])
def test_estimate_concise(estimate, kwargs, text):
    assert estimate.concise(**kwargs) == text


def test_estimate_json_and_rounded():
    e = Estimate(2.987_61, 0.004_32)
    assert e.to_json() == {"value": 2.9876, "se": 0.0043}
    assert e.to_json("mean") == {"mean": 2.9876, "mean_se": 0.0043}
    assert e.rounded() == Estimate(2.9876, 0.0043)


def test_mean_from_sums_matches_numpy():
    rng = np.random.default_rng(1)
    for n in (2, 3, 10, 1000):
        x = rng.integers(-7, 8, size=n)
        e = mean_from_sums(n, int(x.sum()), int((x * x).sum()))
        assert e.value == pytest.approx(x.mean(), rel=1e-12)
        assert e.se == pytest.approx(x.std(ddof=1) / math.sqrt(n), rel=1e-9)
    constant = mean_from_sums(5, 15, 45)
    assert constant == Estimate(3.0, 0.0)
    one = mean_from_sums(1, 4, 16)
    assert one.value == 4 and math.isnan(one.se)
    assert all(math.isnan(v) for v in (mean_from_sums(0, 0, 0).value, mean_from_sums(0, 0, 0).se))


def test_proportion():
    e = proportion(30, 120)
    assert e.value == 0.25
    assert e.se == pytest.approx(math.sqrt(0.25 * 0.75 / 120))
    assert proportion(0, 10) == Estimate(0.0, 0.0)
    assert proportion(10, 10) == Estimate(1.0, 0.0)
    assert math.isnan(proportion(0, 0).value)
