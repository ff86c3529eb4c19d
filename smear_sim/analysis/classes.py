"""Bid tables: many random hands dealt to a bidder, played out and counted by hand class.

A hand's class is a few features a player sees at a glance in its class suit: the suit with the most trumps,
by a rule that depends on the 9 cards only, never on a player (layout ``CLASS_DIMS``; docs/rules.md, "Hand
classes"). The kernels count per class (:mod:`smear_sim.analysis.estimates` says what), so a table can be
regrouped by any subset of the features without simulating again, and the counts can be saved and loaded.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core import layout as L
from ..core.errors import SmearError
from ..core.io import atomic_write
from ..core.rules import Rules
from ..core.tables import TRUMP_RANK_NAMES
from ..engine.jobs import analyze_hands_job
from .estimates import estimate
from .plan import RunPlan
from .saved import CountsFileError

if TYPE_CHECKING:  # pandas is imported where tables are built, so analysing one hand stays quick to start
    import pandas as pd

    from .match_equity import EquityTable

__all__ = [
    "DEFAULT_FEATURES",
    "FEATURES",
    "TOP_LABELS",
    "ClassTable",
    "bid_table",
    "class_features",
    "class_table",
    "hand_classes",
    "moon_table",
    "parse_features",
]

FEATURES = dict(L.CLASS_DIMS)  # feature name -> number of values
DEFAULT_FEATURES = ("trumps", "top", "two", "jack", "jick", "jokers")
TOP_LABELS = tuple(reversed(TRUMP_RANK_NAMES))  # top trump, best first
_BOOLEAN_FEATURES = ("two", "jack", "jick")


def parse_features(by: str | Sequence[str]) -> tuple[str, ...]:
    names = [n.strip().lower() for n in (by.split(",") if isinstance(by, str) else by) if n.strip()]
    if not names:
        raise SmearError(f"--by needs at least one feature: choose from {', '.join(FEATURES)}")
    for name in names:
        if name not in FEATURES:
            raise SmearError(f"unknown feature {name!r} for --by: choose from {', '.join(FEATURES)}, "
                             f"e.g. --by {','.join(DEFAULT_FEATURES)}")
    if len(set(names)) != len(names):
        raise SmearError(f"--by lists a feature twice: {','.join(names)}")
    return tuple(names)


def class_features() -> pd.DataFrame:
    """The feature values of every class index, in ``layout.CLASS_DIMS`` order."""
    import pandas as pd

    index = np.arange(L.N_CLASSES)
    columns = {}
    for name, size in reversed(L.CLASS_DIMS):
        columns[name] = index % size
        index = index // size
    frame = pd.DataFrame({name: columns[name] for name, _ in L.CLASS_DIMS})
    frame["top"] = pd.Categorical.from_codes(15 - frame["top"], TOP_LABELS, ordered=True)
    for name in _BOOLEAN_FEATURES:
        frame[name] = frame[name].astype(bool)
    return frame


@dataclass(frozen=True)
class ClassTable:
    """Counts per bid-table class from ``hands`` random deals; :meth:`frame` groups them into a table."""

    counts: np.ndarray  # [N_CLASSES, CLS_SIZE]
    hands: int
    seed: int
    policy: str
    rules: Rules
    seconds: float = field(default=0.0, compare=False)

    def grouped(self, by: Sequence[str]) -> tuple[pd.DataFrame, np.ndarray]:
        """The feature values of each group of ``by`` and the summed counts of each group."""
        import pandas as pd

        by = list(parse_features(by))
        used = np.flatnonzero(self.counts[:, L.CLS_COUNT])
        features = class_features().iloc[used].reset_index(drop=True)
        counts = pd.DataFrame(self.counts[used])
        summed = counts.groupby([features[name] for name in by], observed=True, sort=True).sum()
        keys = summed.index.to_frame(index=False)
        return keys, summed.to_numpy()

    def frame(self, by: Sequence[str] = DEFAULT_FEATURES, min_count: int = 200) -> pd.DataFrame:
        """The bid table grouped by ``by``: one row per group of hands seen at least once."""
        import pandas as pd

        keys, counts = self.grouped(by)
        e = estimate(counts, self.rules)
        table = keys.copy()
        table["hands"] = e.count.astype(np.int64)
        table["share"] = e.count / self.hands
        table["points"] = e.points.value
        table["points_se"] = e.points.se
        for column, b in enumerate(e.bids):
            table[f"make{b}"] = e.make.value[:, column]
            table[f"make{b}_se"] = e.make.se[:, column]
        for column, b in enumerate(e.bids):
            table[f"ev{b}"] = e.ev.value[:, column]
            table[f"ev{b}_se"] = e.ev.se[:, column]
        reliable = table["hands"] >= min_count
        table["bid_up_to"] = pd.array(np.where(reliable, e.bid_up_to, 0), dtype="Int64")
        table.loc[(table["bid_up_to"] == 0) | ~reliable, "bid_up_to"] = pd.NA
        table["moon"] = e.moon.value
        table["moon_se"] = e.moon.se
        table["moon_ev"] = e.moon_ev.value
        table["moon_ev_se"] = e.moon_ev.se
        table["moon_gain"] = e.moon_gain.value
        table["moon_pays"] = reliable & (e.moon_gain.value > 0) if self.rules.moon else False
        table["reliable"] = reliable
        table.attrs = self.metadata() | {"by": list(by), "min_count": min_count}
        return table

    def metadata(self) -> dict[str, Any]:
        return {"hands": self.hands, "seed": self.seed, "policy": self.policy, "rules": self.rules.as_dict()}

    def save(self, path: str | Path) -> None:
        """Save the raw counts (``.npz``), so any grouping can be made again without simulating."""
        with atomic_write(path, "wb") as handle:
            np.savez_compressed(handle, counts=self.counts, meta=np.array(json.dumps(self.metadata())))

    @classmethod
    def load(cls, path: str | Path) -> ClassTable:
        """A table that :meth:`save` wrote, checked (:func:`smear_sim.analysis.saved.load_class_counts`)."""
        from .saved import load_class_counts

        counts, meta = load_class_counts(path)
        return cls(counts, meta["hands"], meta["seed"], meta["policy"], meta["rules"])

    @property
    def has_joint(self) -> bool:
        """Whether the counts hold the joint histogram of both teams' points that values hands in games
        (files from before games do not)."""
        return bool(self.counts[:, L.CLS_JOINT:].any())


def class_table(
    hands: int = 1_000_000,
    *,
    seed: int = 1,
    plan: RunPlan,
) -> ClassTable:
    """Deal ``hands`` random hands to a bidder at seat 0, play them out and count them by class.

    ``executor`` runs the chunks elsewhere (a Dask cluster, say) and ``checkpoint`` saves finished chunks
    for a resumed run (:mod:`smear_sim.engine.checkpoint`); neither changes the counts. ``plan`` says who
    plays, under which rules, and how the run goes (:class:`smear_sim.analysis.plan.RunPlan`).
    """
    policy = plan.one_policy("bid tables play")
    job = analyze_hands_job(players=plan.players, seed=seed, hands=hands, classify=True)
    result = plan.run(job)
    return ClassTable(result.counts, hands, seed, policy, plan.rules, result.seconds)


hand_classes = class_table  # the name that says it gives counts (a ``*_table`` gives a DataFrame)


def bid_table(
    hands: int = 1_000_000,
    *,
    by: str | Sequence[str] = DEFAULT_FEATURES,
    min_count: int = 200,
    seed: int = 1,
    plan: RunPlan,
) -> pd.DataFrame:
    """A bid table over ``hands`` random hands, grouped by the features ``by`` (a DataFrame).

    Rows with fewer than ``min_count`` hands are kept but flagged (``reliable`` false, no ``bid_up_to``).
    """
    by = parse_features(by)
    table = class_table(hands, seed=seed, plan=plan)
    return table.frame(by, min_count)


def moon_table(table: ClassTable, by: Sequence[str] = DEFAULT_FEATURES, min_count: int = 200,
               score: tuple[int, int] | None = None, equity: EquityTable | None = None) -> pd.DataFrame:
    """Moon success by class, best first, with the EV a moon bid adds over the best numeric bid.

    With ``score`` and ``equity`` (a match-equity table of the same rules and policy) the game view is added:
    ``moon_win`` and ``best_bid_win`` (P(win the game) shooting, or with the best numeric bid, at that score),
    ``break_even`` (the moon success rate at which the two are equal) and ``moon_pays_game``.
    """
    frame = table.frame(by, min_count)
    columns = [*parse_features(by), "hands", "moon", "moon_se", "moon_ev", "moon_ev_se", "best_numeric_ev",
               "best_numeric_ev_se", "moon_gain", "moon_pays", "reliable"]
    # EV falls as the bid rises, so the best numeric bid is the lowest.
    frame["best_numeric_ev"] = frame[f"ev{table.rules.min_bid}"]
    frame["best_numeric_ev_se"] = frame[f"ev{table.rules.min_bid}_se"]
    if score is not None:
        if equity is None or equity.rules != table.rules or equity.policy != table.policy:
            raise SmearError("the moon table at a score needs a match-equity table of the same rules and policy")
        if not table.has_joint:
            raise CountsFileError("these class counts were saved before games were simulated and cannot value a moon "
                                  "at a score: make them again with {writer}")
        _, counts = table.grouped(by)
        game = equity.value_bids(counts[:, L.CLS_JOINT: L.CLS_JOINT + L.MAX_K * L.MAX_K], score)
        frame["moon_win"], frame["moon_win_se"] = game.win[:, -1], game.win_se[:, -1]
        frame["best_bid_win"], frame["best_bid_win_se"] = game.best_numeric()
        frame["break_even"], frame["break_even_se"] = game.moon_break_even()
        frame["moon_pays_game"] = frame["reliable"] & (frame["moon_win"] > frame["best_bid_win"])
        columns[-1:-1] = ["moon_win", "moon_win_se", "best_bid_win", "best_bid_win_se", "break_even",
                          "break_even_se", "moon_pays_game"]
        frame.attrs["score"] = list(score)
    result = frame[columns].sort_values(["moon", "hands"], ascending=[False, False])
    result.attrs = frame.attrs
    return result.reset_index(drop=True)
