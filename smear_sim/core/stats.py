"""Estimates with standard errors, and rounding that shows only the digits a sample supports."""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Estimate", "mean_from_sums", "proportion", "round_to_se"]


@dataclass(frozen=True)
class Estimate:
    """A Monte Carlo estimate and its standard error."""

    value: float
    se: float

    def rounded(self) -> Estimate:
        return Estimate(*round_to_se(self.value, self.se))

    def __str__(self) -> str:
        """For people: one significant digit of the error (two when it starts with 1), e.g. ``2.988 ± 0.004``."""
        significant = 2 if _leading_digit(self.se) == 1 else 1
        value, se = round_to_se(self.value, self.se, significant)
        if se == 0 or not math.isfinite(se):
            return f"{value:g}"
        decimals = _decimals_for(self.se, significant)
        return f"{value:.{decimals}f} ± {se:.{decimals}f}"

    def concise(self, scale: float = 1.0, max_decimals: int = 6) -> str:
        """Compact form for tables: ``88.1(3)`` means 88.1 ± 0.3 (the error in the last digit shown).

        ``max_decimals`` caps the digits shown; the error is then rounded up to that place.
        """
        value, se = self.value * scale, self.se * scale
        if not math.isfinite(value):
            return ""
        if se == 0 or not math.isfinite(se):
            return f"{round(value, 4):g}"
        significant = 2 if _leading_digit(se) == 1 else 1
        decimals = min(_decimals_for(se, significant), max_decimals)
        units = max(1, math.ceil(se * 10**decimals - 1e-9)) if decimals == max_decimals else round(se * 10**decimals)
        return f"{value:.{decimals}f}({units})"

    def to_json(self, name: str = "value") -> dict[str, float | None]:
        """``{name: value, name_se: se}`` rounded to the supported digits; null where not estimable."""
        value, se = round_to_se(self.value, self.se)
        return {name: _finite(value), f"{name}_se" if name != "value" else "se": _finite(se)}


def _leading_digit(x: float) -> int:
    if x <= 0 or not math.isfinite(x):
        return 0
    return int(f"{x:e}"[0])


def _decimals_for(se: float, significant: int = 2) -> int:
    """Decimal places that keep ``significant`` digits of the standard error (at most 6)."""
    if se <= 0 or not math.isfinite(se):
        return 4
    return max(0, min(6, significant - 1 - math.floor(math.log10(se))))


def round_to_se(value: float, se: float, significant: int = 2) -> tuple[float, float]:
    """Round the standard error to ``significant`` digits and the value to the same decimal place.

    An exact value (standard error 0) keeps 4 decimals. Adding 0.0 turns a rounded -0.0 into 0.0.
    """
    decimals = _decimals_for(se, significant)
    return round(float(value), decimals) + 0.0, round(float(se), decimals) + 0.0


def _finite(x: float) -> float | None:
    """JSON has no NaN: a figure the sample cannot estimate (one hand, no bids) becomes null."""
    return x if math.isfinite(x) else None


def mean_from_sums(n: int, total: float, total_sq: float) -> Estimate:
    """Mean and its standard error from the count, sum and sum of squares of a sample."""
    if n <= 0:
        return Estimate(math.nan, math.nan)
    mean = total / n
    if n == 1:
        return Estimate(mean, math.nan)
    variance = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    return Estimate(mean, math.sqrt(variance / n))


def proportion(k: int, n: int) -> Estimate:
    """A frequency ``k / n`` and its binomial standard error."""
    if n <= 0:
        return Estimate(math.nan, math.nan)
    p = k / n
    return Estimate(p, math.sqrt(p * (1 - p) / n))
