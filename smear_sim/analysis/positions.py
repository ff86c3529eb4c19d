"""Bid tables by place in the auction: what each call is worth to the seat that makes it, with pass valued honestly.

The bid table (:mod:`smear_sim.analysis.classes`) is the declarer's view: it deals the hand to a seat that wins the
auction unopposed, so passing is worth nothing and the best bid is always the lowest. Here deals are bid by the
policy at all four seats, and at each seat's turn every legal call is played out on the same deal and random
stream: the later seats call by the policy, the auction's winner declares, the hand is played and scored
(:func:`smear_sim.kernels.drivers.position_outcomes`). So a pass is worth what the others then make, an overcall
meets a hand that has shown strength, and the hands around a seat are those the calls before it imply.

Each turn is counted under

- the **place**: opener, second, third or dealer;
- the **situation**: no number standing yet, or the standing number b, called by the partner or by an opponent
  (after a moon every later seat must pass, so there is no decision);
- the hand's **strength bucket**: its hand class (docs/rules.md, "Hand classes") grouped by the points the class
  wins on average as an unopposed declarer (the bid table's ``points``), in 32 equal steps from the weakest class
  to the strongest (:func:`strength_buckets`). The class features would be too many to count per place and
  situation; the declarer's expected points order the classes by strength, which is what the call depends on most;
- the **call**, and the hand's outcome (layout ``OUT_*``) from the caller's team.

From the counts, :meth:`PositionTable.values` gives each call's P(win the game) at a score (the outcome's next
state read in a match-equity table) and its points (the team's hand score minus the other team's, whoever bid),
with standard errors from the multinomial spread of the outcomes; the call to make is the one of highest P(win).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core import layout as L
from ..core.bidder import N_BUCKETS, table_shape
from ..core.errors import SmearError
from ..core.io import atomic_write
from ..core.rules import Rules, legal_slots
from ..engine.jobs import position_outcomes_job
from .hand_outcomes import outcome_points
from .match_equity import EquityTable
from .plan import RunPlan
from .scores import DEALERS

if TYPE_CHECKING:
    import pandas as pd

    from .classes import ClassTable

__all__ = [
    "PLACES",
    "PositionTable",
    "call_slots",
    "class_points",
    "legal_slots",
    "position_counts",
    "position_table",
    "situation_label",
    "strength_buckets",
]

PLACES = ("opener", "second", "third", "dealer")


def call_slots(rules: Rules) -> tuple[int | str, ...]:
    """The call of each slot (layout, "The auction seen from one seat"): pass, 1..M, moon."""
    return ("pass", *range(1, rules.max_points + 1), "moon")


def situation_label(situation: int) -> str:
    """``none``, ``2 by partner``, ``3 by opponent``..."""
    if situation == 0:
        return "none"
    return f"{(situation + 1) // 2} by {'partner' if situation % 2 else 'opponent'}"


def class_points(table: ClassTable, min_count: int = 200) -> np.ndarray:
    """What every hand class wins on average as an unopposed declarer (the bid table); a class with fewer than
    ``min_count`` hands takes those of the coarser group that drops its last features (``layout.CLASS_DIMS``
    order) until the group has enough."""
    counts = table.counts.astype(np.float64)
    hands = counts[:, L.CLS_COUNT]
    k = np.arange(L.MAX_K, dtype=np.float64)
    points_sum = counts[:, L.CLS_HIST: L.CLS_HIST + L.MAX_K] @ k
    points = np.full(L.N_CLASSES, np.nan)
    sizes = [size for _, size in L.CLASS_DIMS]
    group = np.arange(L.N_CLASSES)
    for drop in range(len(sizes) + 1):
        n = np.bincount(group, weights=hands)
        total = np.bincount(group, weights=points_sum)
        enough = (n >= min_count)[group] & np.isnan(points)
        points[enough] = (total / np.where(n > 0, n, 1))[group][enough]
        if drop < len(sizes):
            group = group // sizes[len(sizes) - 1 - drop]
    points[np.isnan(points)] = float(points_sum.sum() / max(hands.sum(), 1))  # no class seen at all
    return points


def strength_buckets(table: ClassTable, min_count: int = 200) -> tuple[np.ndarray, float, float]:
    """The strength bucket of every hand class, and the buckets' lowest points and width.

    A class's points are :func:`class_points`' (rare classes pooled). The ``N_BUCKETS`` buckets split the range from
    the weakest class to the strongest (rounded out to 0.05 and 0.005 points) in equal steps."""
    points = class_points(table, min_count)
    low = np.floor(points.min() / 0.05) * 0.05
    step = max(np.ceil((points.max() - low) / N_BUCKETS / 0.005) * 0.005, 0.005)
    bucket = np.clip(np.floor((points - low) / step), 0, N_BUCKETS - 1)
    return bucket.astype(np.int64), round(float(low), 4), round(float(step), 4)


@dataclass(frozen=True)
class PositionTable:
    """Outcome counts per place, situation, strength bucket and call (module docstring), from ``deals`` deals."""

    counts: np.ndarray  # [place, situation, bucket, call slot, outcome] int64
    bucket_of_class: np.ndarray  # [N_CLASSES]
    strength: tuple[float, float]  # the buckets' lowest points and width (strength_buckets)
    deals: int
    seed: int
    policy: str
    rules: Rules
    seconds: float = field(default=0.0, compare=False)

    @property
    def decisions(self) -> np.ndarray:
        """Turns counted per ``[place, situation, bucket]``."""
        return self.counts.sum(axis=-1).max(axis=-1)

    def values(self, equity: EquityTable, score: tuple[int, int] = (0, 0)) -> dict[str, np.ndarray]:
        """Each call's ``win`` (P(win the game) from ``score``, the caller's team first) and ``ev`` (points), with
        ``win_se`` and ``ev_se``, as ``[place, situation, bucket, call slot]`` arrays (NaN where not counted), and
        ``decisions``. The standard errors are the outcomes' spread over the turns counted; the equity table's own
        error, common to every call of a turn, is left out."""
        if equity.rules != self.rules:
            raise SmearError("the equity table was made under other rules than the position table")
        wins = np.stack([equity.outcome_wins(score, dealer)[0] for dealer in DEALERS])  # [next dealer, outcome]
        points = outcome_points(self.rules.target).astype(np.float64)
        n = self.counts.sum(axis=-1).astype(np.float64)
        safe = np.where(n > 0, n, np.nan)
        out: dict[str, np.ndarray] = {"decisions": self.decisions}
        for name, per_place in (("win", [wins[p % 2] for p in range(L.N_POSITIONS)]),
                                ("ev", [points] * L.N_POSITIONS)):
            mean = np.stack([self.counts[p] @ per_place[p] for p in range(L.N_POSITIONS)]) / safe
            square = np.stack([self.counts[p] @ per_place[p] ** 2 for p in range(L.N_POSITIONS)]) / safe
            out[name] = mean
            out[f"{name}_se"] = np.sqrt(np.maximum(square - mean ** 2, 0) / np.where(n > 1, n - 1, np.nan))
        return out

    def best_calls(self, values: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """The slot of highest P(win) of each ``[place, situation, bucket]`` (-1 where none was counted), and its
        margin over the next best call."""
        win = np.where(np.isnan(values["win"]), -np.inf, values["win"])
        order = np.argsort(-win, axis=-1, kind="stable")  # ties go to the earlier slot: pass, low numbers, moon
        best = np.take_along_axis(win, order[..., :1], -1)[..., 0]
        second = np.take_along_axis(win, order[..., 1:2], -1)[..., 0]
        counted = values["decisions"] > 0
        both = counted & np.isfinite(second)
        margin = np.where(both, np.where(both, best, 0) - np.where(both, second, 0), np.nan)
        return np.where(counted, order[..., 0], -1), margin

    def frame(self, equity: EquityTable, min_count: int = 200, score: tuple[int, int] = (0, 0)) -> pd.DataFrame:
        """One row per place, situation and strength bucket met: each legal call's win and ev with their standard
        errors, the ``call`` to make (highest win; only where at least ``min_count`` turns were counted) and its
        margins over the next best call in win and in points."""
        import pandas as pd

        values = self.values(equity, score)
        best, margin = self.best_calls(values)
        slots = call_slots(self.rules)
        low, step = self.strength
        rows = []
        for place, situation, bucket in zip(*np.nonzero(values["decisions"]), strict=True):
            legal = legal_slots(self.rules, place, situation)
            n = int(values["decisions"][place, situation, bucket])
            row: dict[str, Any] = {"place": PLACES[place], "position": int(place) + 1,
                                   "standing": situation_label(situation), "strength": round(low + bucket * step, 4),
                                   "strength_to": round(low + (bucket + 1) * step, 4), "decisions": n}
            for slot, call in enumerate(slots):
                for key in ("win", "win_se", "ev", "ev_se"):
                    row[f"{key}_{call}"] = values[key][place, situation, bucket, slot] if legal[slot] else np.nan
            chosen = best[place, situation, bucket]
            others = [slot for slot in np.flatnonzero(legal) if slot != chosen]
            ev = values["ev"][place, situation, bucket]
            row["call"] = str(slots[chosen]) if n >= min_count else None
            row["win_margin"] = margin[place, situation, bucket]
            row["ev_margin"] = ev[chosen] - ev[others].max() if others else np.nan
            row["reliable"] = n >= min_count
            rows.append(row)
        frame = pd.DataFrame(rows)
        frame.attrs = self.metadata() | {"min_count": min_count, "score": list(score), "equity_hands": equity.hands}
        return frame

    def metadata(self) -> dict[str, Any]:
        return {"deals": self.deals, "seed": self.seed, "policy": self.policy, "rules": self.rules.as_dict(),
                "strength": list(self.strength)}

    # -- files ----------------------------------------------------------------------------------------------------

    def save(self, path: str | Path) -> None:
        """The raw counts and the class buckets (``.npz``), so values at any score can be made again."""
        with atomic_write(path, "wb") as handle:
            np.savez_compressed(handle, counts=self.counts, bucket_of_class=self.bucket_of_class,
                                meta=np.array(json.dumps(self.metadata())))

    @classmethod
    def load(cls, path: str | Path) -> PositionTable:
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                rules = Rules.from_mapping(meta["rules"])
                table = cls(data["counts"].astype(np.int64), data["bucket_of_class"].astype(np.int64),
                            (float(meta["strength"][0]), float(meta["strength"][1])), int(meta["deals"]),
                            int(meta["seed"]), str(meta["policy"]), rules)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise SmearError(f"{path} is not a position table (a file that PositionTable.save writes): {exc}") \
                from None
        if table.counts.shape != table_shape(rules) or table.bucket_of_class.shape != (L.N_CLASSES,):
            raise SmearError(f"{path} holds arrays of the wrong shape for a position table")
        return table


def position_table(
    deals: int = 1_000_000,
    *,
    seed: int = 1,
    classes: ClassTable | None = None,
    class_hands: int = 1_000_000,
    buckets: tuple[np.ndarray, float, float] | None = None,
    starts: np.ndarray | None = None,
    plan: RunPlan,
) -> PositionTable:
    """Count ``deals`` deals bid by ``policy`` at all four seats, every call played out at every turn.

    The strength buckets are ``buckets`` (as :func:`strength_buckets` gives them), else those of the declarer's view
    ``classes`` (a class table of
    the same rules and policy), else from one made here of ``class_hands`` hands. ``model`` (the Python API's
    keyword for the plan's ``bidder_arrays``) is the equity bidder's arrays for the policies (by default
    :func:`smear_sim.analysis.session_tables.player_bidder_arrays`'s). Deal i starts from
    ``starts[i % len(starts)]``, (team 0's score, team 1's score, dealer seat), by default 0-0 with the dealer
    rotating (a dealer of -1 means seat ``i % 4``). ``plan`` says who plays (the policy and
    its tables), under which rules, and how the run goes (:class:`smear_sim.analysis.plan.RunPlan`).
    """
    from .classes import class_table

    policy = plan.one_policy("position tables play")
    if buckets is None:
        if classes is None:  # the declarer's view, under the same players
            classes = class_table(class_hands, seed=seed, plan=plan.replace(chunk_size=None, progress=None,
                                                                        checkpoint=None))
        elif classes.rules != plan.rules:
            raise SmearError("the class table behind the strength buckets was made under other rules")
        buckets = strength_buckets(classes)
    bucket_of_class = np.asarray(buckets[0], dtype=np.int64)
    starts = np.array([[0, 0, -1]], dtype=np.int64) if starts is None else np.asarray(starts, dtype=np.int64)
    job = position_outcomes_job(players=plan.players, seed=seed, hands=deals, bucket_of_class=bucket_of_class,
                                n_buckets=N_BUCKETS, starts=starts)
    result = plan.run(job)
    return PositionTable(result.counts, bucket_of_class, (buckets[1], buckets[2]), deals, seed, policy, plan.rules,
                         result.seconds)



position_counts = position_table  # the name that says it gives counts (a ``*_table`` gives a DataFrame)
