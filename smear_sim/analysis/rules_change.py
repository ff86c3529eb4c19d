"""What changes from one rule set to another, read from the bid tables of both: how high the bids go, the points
at stake, and where the moon breaks even.

A report made under other rules (``results/round-points``) compares itself with the report of the folder it sits
in (``results/``): both class tables count the same hand classes, so each class is compared with itself. Every
figure comes from the two tables; nothing is simulated here.

The moon's break-even is the success rate ``p`` at which a moon is worth the best numeric bid: a moon moves the
game by the target either way, so its EV is ``(2p - 1) x target``, and it pays when that beats the EV of the
best numeric bid (the lowest: EV falls as the bid rises), which is where ``p > (1 + EV / target) / 2``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.errors import SmearError
from ..core.rules import Rules
from .classes import DEFAULT_FEATURES, ClassTable, parse_features

__all__ = ["COMMON_CLASSES", "MOON_CLASSES", "RulesChange", "rules_change"]

COMMON_CLASSES = 8  # the most common hand classes compared one by one
MOON_CLASSES = 6  # the best moon classes under each rule set compared one by one


@dataclass(frozen=True)
class RulesChange:
    """Two class tables side by side: ``base`` (the report a variant is nested in) and ``variant``.

    Each per-rule figure comes in a pair ``(base, variant)``. ``levels`` has a row per bid level: the share of
    hands whose best bid (``bid up to``) is at least that bid, of the hands in classes with at least
    ``min_count`` hands (the classes given a bid), NaN above a rule set's highest bid. ``classes`` (the
    ``COMMON_CLASSES`` most common classes) and ``moon`` (the ``MOON_CLASSES`` best moon classes under each rule
    set) hold the class's features, ``hands`` and ``share`` (of the variant) and, suffixed ``_base`` and
    ``_variant``: ``points``, ``bid_up_to``, ``moon``, ``best_numeric_ev`` (each estimate with its ``_se``),
    ``break_even`` (the moon success rate needed to beat the best numeric bid) and ``moon_pays``.
    """

    base: ClassTable
    variant: ClassTable
    by: tuple[str, ...]
    min_count: int
    mean_points: tuple[float, float]  # the declaring side's points a hand, over all hands
    covered: tuple[float, float]  # the share of hands in classes with at least min_count hands
    levels: pd.DataFrame
    classes: pd.DataFrame
    moon: pd.DataFrame
    moon_pays: tuple[int, int]  # classes (with at least min_count hands) where the moon pays
    moon_classes: tuple[int, int]  # classes with at least min_count hands
    moon_share: tuple[float, float]  # the share of hands in classes where the moon pays
    break_even: tuple[tuple[float, float] | None, tuple[float, float] | None]  # its range where the moon pays

    @property
    def rules(self) -> tuple[Rules, Rules]:
        return self.base.rules, self.variant.rules

    def level_share(self, bid: int, which: str = "variant") -> float:
        """The share of hands whose best bid is at least ``bid`` (NaN above the rule set's highest bid)."""
        row = self.levels[self.levels["bid"] == bid]
        return float(row[which].iloc[0]) if len(row) else float("nan")


_PER_RULES = ["hands", "points", "points_se", "bid_up_to", "moon", "moon_se", "best_numeric_ev", "best_numeric_ev_se",
              "break_even", "break_even_se", "moon_pays", "reliable"]


def _per_class(table: ClassTable, by: Sequence[str], min_count: int) -> pd.DataFrame:
    frame = table.frame(by, min_count)
    target = table.rules.target
    frame["best_numeric_ev"] = frame[f"ev{table.rules.min_bid}"]
    frame["best_numeric_ev_se"] = frame[f"ev{table.rules.min_bid}_se"]
    frame["break_even"] = np.minimum((1 + frame["best_numeric_ev"] / target) / 2, 1.0)
    frame["break_even_se"] = frame["best_numeric_ev_se"] / (2 * target)
    return frame[[*by, *_PER_RULES]]


def _levels(frame: pd.DataFrame, rules: Rules, bids: range) -> list[float]:
    reliable = frame[frame["reliable"]]
    up_to = reliable["bid_up_to"].astype("Float64").fillna(0).to_numpy(dtype=float)
    hands = reliable["hands"].to_numpy(dtype=float)
    return [float(hands[up_to >= b].sum() / hands.sum()) if b <= rules.max_points else float("nan") for b in bids]


def rules_change(base: ClassTable, variant: ClassTable, by: Sequence[str] = DEFAULT_FEATURES,
                 min_count: int = 200) -> RulesChange:
    """Compare the class tables ``base`` and ``variant``, made by one policy under two rule sets, grouped ``by``."""
    by = parse_features(by)
    if base.rules == variant.rules:
        raise SmearError("both tables were made under the same rules: there is no change to show")
    if base.policy != variant.policy:
        raise SmearError(f"the tables were made by different policies ({base.policy} and {variant.policy}), so "
                         "they do not show what the rules change")
    frames = _per_class(base, by, min_count), _per_class(variant, by, min_count)
    both = frames[1].merge(frames[0], on=list(by), suffixes=("_variant", "_base"))
    both = both[both["reliable_base"] & both["reliable_variant"]].reset_index(drop=True)
    both["hands"] = both["hands_variant"]
    both["share"] = both["hands"] / variant.hands
    both["reliable"] = True
    common = both.sort_values("hands", ascending=False, kind="stable").head(COMMON_CLASSES)
    best = [both.sort_values([f"moon_{w}", "hands"], ascending=False, kind="stable").head(MOON_CLASSES).index
            for w in ("base", "variant")]
    moon = both.loc[best[0].union(best[1])].sort_values(["moon_variant", "moon_base", "hands"], ascending=False,
                                                        kind="stable")
    low = min(base.rules.min_bid, variant.rules.min_bid)
    bids = range(low, max(base.rules.max_points, variant.rules.max_points) + 1)
    levels = pd.DataFrame({"bid": list(bids), "base": _levels(frames[0], base.rules, bids),
                           "variant": _levels(frames[1], variant.rules, bids)})

    def pays(frame: pd.DataFrame) -> tuple[int, int, float, tuple[float, float] | None]:
        reliable = frame[frame["reliable"]]
        paying = reliable[reliable["moon_pays"]]
        span = (float(paying["break_even"].min()), float(paying["break_even"].max())) if len(paying) else None
        return int(len(paying)), int(len(reliable)), float(paying["hands"].sum() / frame["hands"].sum()), span

    (pays_b, classes_b, share_b, span_b), (pays_v, classes_v, share_v, span_v) = map(pays, frames)
    mean = tuple(float((f["hands"] * f["points"]).sum() / f["hands"].sum()) for f in frames)
    covered = tuple(float(f.loc[f["reliable"], "hands"].sum() / f["hands"].sum()) for f in frames)
    columns = [*by, "hands", "share", "reliable", *(f"{name}_{w}" for name in _PER_RULES if name != "reliable"
                                                   for w in ("base", "variant") if name != "hands")]
    return RulesChange(base, variant, by, min_count, mean, covered, levels,
                       common[columns].reset_index(drop=True), moon[columns].reset_index(drop=True),
                       (pays_b, pays_v), (classes_b, classes_v), (share_b, share_v), (span_b, span_v))
