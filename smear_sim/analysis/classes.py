"""Hand analysis: what a 9-card hand is worth as bidder, bid tables over hand classes, moon rates.

The conventions are those of RULES.md ("Hand analysis conventions"): seat 0 holds the hand and takes the
kitty as bidder, the other cards are dealt uniformly with no other seat able to call a misdeal, and all four
seats play the chosen policy. Every hand is played once; its bidding team's points then settle every
possible bid at once, so a single simulation gives P(make) and EV for each bid.

The kernels return integer counts per hand class (layout ``CLS_*``): a histogram of the bidding team's
points k, the other team's points summed per k and squared, moon successes, points won per award and trump
chosen. Every estimate and standard error here is computed exactly from those counts, so groups can be
merged by adding counts, and results do not depend on threads or chunking.

Two derived figures need a word:

- ``ev`` of bid b is the expected bidding team's hand score (its points if at least b, else -b) minus the
  other team's points. It can only fall as b rises, so the bid of highest EV is always the lowest legal
  bid; what a player wants is how high to go, ``bid_up_to``: the highest bid whose EV is not negative.
- A moon decides the game instead of scoring. Treating the score difference as a fair random walk between
  -target and +target (the race to the target), a net gain of x points adds x / (2 * target) to the chance of
  winning the game, so a won game is worth +target points and a lost one -target: the moon's EV is
  (2p - 1) * target for success rate p, comparable with the EVs of numeric bids. The moon pays when its EV
  beats the best numeric bid's.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from . import layout as L
from .cards import SUIT_NAMES, card_name, mask_of, parse_cards, parse_suit
from .errors import CardError, SmearError
from .reference import is_misdeal_hand
from .rules import Rules
from .runtime import (
    Progress,
    atomic_write,
    check_count,
    chunk_ranges,
    kernels,
    parse_policies,
    policy_array,
    resolve_threads,
    seed_value,
)
from .stats import Estimate, round_to_se
from .tables import POINT_NAMES, TRUMP_RANK_NAMES

if TYPE_CHECKING:  # pandas is imported where tables are built, so analysing one hand stays quick to start
    import pandas as pd

__all__ = [
    "DEFAULT_FEATURES",
    "FEATURES",
    "ClassTable",
    "HandAnalysis",
    "bid_table",
    "class_table",
    "evaluate_hand",
    "moon_table",
    "parse_features",
    "parse_hand",
]

FEATURES = {name: size for name, size in L.CLASS_DIMS}
FEATURE_HELP = {
    "trumps": "trumps held in the best suit, counting the jick and the jokers",
    "top": "the highest trump held",
    "two": "holds the two of trump",
    "jacks": "jacks of trump held: the jack and the jick",
    "jokers": "jokers held",
    "aces": "aces held outside the best suit",
}
DEFAULT_FEATURES = ("trumps", "top", "two", "jacks", "jokers")
TOP_LABELS = tuple(reversed(TRUMP_RANK_NAMES)) + ("none",)  # top trump, best first
EXAMPLE_HAND = "AH KH 2H JD 10C 5S 9S 4D 3C"
PRECISION_BATCH = 10_000


# -- inputs -------------------------------------------------------------------------------------------


def parse_hand(hand: str | Sequence[int | str]) -> tuple[int, ...]:
    """Nine distinct cards from a string ("AH KH ...") or a sequence of names or codes."""
    if isinstance(hand, str):
        cards = parse_cards(hand, allow_duplicates=True)
    else:
        cards = [parse_cards([c])[0] if isinstance(c, str) else c for c in hand]
        for c in cards:
            card_name(c)  # raises for anything that is not a card code 0-53
    for c in cards:
        if cards.count(c) > 1:
            raise CardError(f"card {card_name(c)} appears twice in the hand; a hand holds 9 different cards")
    if len(cards) != 9:
        raise CardError(
            f"a hand has 9 cards, got {len(cards)}; type nine cards separated by spaces, e.g. \"{EXAMPLE_HAND}\""
        )
    return tuple(cards)


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


def _trump_index(trump: str | int | None) -> int:
    if trump is None:
        return -1
    if isinstance(trump, int):
        if 0 <= trump < 4:
            return trump
        raise SmearError(f"trump must be one of S H D C, got {trump!r}")
    try:
        return parse_suit(trump)
    except CardError:
        raise SmearError(f"--trump must be one of S H D C, got {trump!r}") from None


# -- estimates from class counts ------------------------------------------------------------------------


def summarize(acc: np.ndarray, rules: Rules) -> dict[str, np.ndarray]:
    """Estimates and standard errors for each row of class counts (shape ``[groups, CLS_SIZE]``)."""
    acc = np.atleast_2d(acc).astype(np.float64)
    m = rules.max_points
    n = acc[:, L.CLS_COUNT]
    safe_n = np.where(n > 0, n, np.nan)
    dof = np.where(n > 1, n - 1, np.nan)
    hist = acc[:, L.CLS_HIST: L.CLS_HIST + m + 1]
    other_by_k = acc[:, L.CLS_OTHER_BY_K: L.CLS_OTHER_BY_K + m + 1]
    p_k = hist / safe_n[:, None]
    k = np.arange(m + 1, dtype=np.float64)
    out: dict[str, np.ndarray] = {"count": n}
    mean = p_k @ k
    out["points"] = mean
    out["points_se"] = np.sqrt(np.maximum(p_k @ (k * k) - mean * mean, 0) / dof)
    out["distribution"] = p_k
    out["distribution_se"] = np.sqrt(p_k * (1 - p_k) / safe_n[:, None])
    mean_other = other_by_k.sum(axis=1) / safe_n
    mean_other_sq = acc[:, L.CLS_OTHER_SQ] / safe_n
    for b in range(rules.min_bid, m + 1):
        make = np.clip(p_k[:, b:].sum(axis=1), 0.0, 1.0)  # rounding could step past 1
        out[f"make{b}"] = make
        out[f"make{b}_se"] = np.sqrt(make * (1 - make) / safe_n)
        score = np.where(k >= b, k, -b)  # the bidding team's hand score for each k
        e_score = p_k @ score
        e_score_sq = p_k @ (score * score)
        e_score_other = (other_by_k @ score) / safe_n
        ev = e_score - mean_other
        variance = e_score_sq - 2 * e_score_other + mean_other_sq - ev * ev
        out[f"ev{b}"] = ev
        out[f"ev{b}_se"] = np.sqrt(np.maximum(variance, 0) / dof)
    moon = acc[:, L.CLS_MOON] / safe_n
    out["moon"] = moon
    out["moon_se"] = np.sqrt(moon * (1 - moon) / safe_n)
    out["moon_ev"] = (2 * moon - 1) * rules.target
    out["moon_ev_se"] = 2 * rules.target * out["moon_se"]
    for i, name in enumerate(POINT_NAMES[:m]):
        p = acc[:, L.CLS_AWARDS + i] / safe_n
        out[f"award_{name}"] = p
        out[f"award_{name}_se"] = np.sqrt(p * (1 - p) / safe_n)
    out["trump_share"] = acc[:, L.CLS_TRUMP: L.CLS_TRUMP + 4] / safe_n[:, None]
    evs = np.stack([out[f"ev{b}"] for b in range(rules.min_bid, m + 1)], axis=1)
    bids = np.arange(rules.min_bid, m + 1)
    worth = evs >= 0
    out["bid_up_to"] = np.where(worth.any(axis=1), bids[np.where(worth, np.arange(len(bids)), -1).max(axis=1)], 0)
    out["best_numeric_ev"] = evs.max(axis=1)
    out["moon_gain"] = out["moon_ev"] - out["best_numeric_ev"]
    return out


def _r(value: float, se: float) -> float:
    """A value rounded to the digits its standard error supports (JSON output)."""
    if not math.isfinite(value):
        return None  # type: ignore[return-value]
    return round_to_se(value, se if math.isfinite(se) else 0.0)[0]


def _rse(se: float) -> float:
    if not math.isfinite(se):
        return None  # type: ignore[return-value]
    return round_to_se(se, se)[1]


# -- one hand -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandAnalysis:
    """The value of one 9-card hand as bidder, from ``samples`` simulated deals of the other 45 cards."""

    hand: tuple[int, ...]
    samples: int
    seed: int
    policy: str
    rules: Rules
    trump_fixed: int | None
    counts: np.ndarray  # one row of CLS_* counts
    stopped_by: str = "samples"
    seconds: float = field(default=0.0, compare=False)

    @property
    def summary(self) -> dict[str, np.ndarray]:
        return summarize(self.counts, self.rules)

    @property
    def misdeal_callable(self) -> bool:
        return self.rules.misdeal and is_misdeal_hand(self.hand)

    @property
    def mean_points(self) -> Estimate:
        s = self.summary
        return Estimate(float(s["points"][0]), float(s["points_se"][0]))

    def bid_rows(self) -> list[dict[str, Any]]:
        s = self.summary
        rows: list[dict[str, Any]] = []
        for b in range(self.rules.min_bid, self.rules.max_points + 1):
            make, make_se = float(s[f"make{b}"][0]), float(s[f"make{b}_se"][0])
            ev, ev_se = float(s[f"ev{b}"][0]), float(s[f"ev{b}_se"][0])
            rows.append({"bid": b, "make": _r(make, make_se), "make_se": _rse(make_se),
                         "ev": _r(ev, ev_se), "ev_se": _rse(ev_se)})
        if self.rules.moon:
            moon, moon_se = float(s["moon"][0]), float(s["moon_se"][0])
            ev, ev_se = float(s["moon_ev"][0]), float(s["moon_ev_se"][0])
            rows.append({"bid": "moon", "make": _r(moon, moon_se), "make_se": _rse(moon_se),
                         "ev": _r(ev, ev_se), "ev_se": _rse(ev_se)})
        return rows

    @property
    def recommended_bid(self) -> int:
        """The numeric bid with the highest EV (INTERFACES.md); ties go to the lower bid."""
        s = self.summary
        bids = range(self.rules.min_bid, self.rules.max_points + 1)
        return max(bids, key=lambda b: (float(s[f"ev{b}"][0]), -b))

    @property
    def bid_up_to(self) -> int | None:
        """The highest bid whose EV is not negative; None if none is."""
        value = int(self.summary["bid_up_to"][0])
        return value or None

    def to_json(self) -> dict[str, Any]:
        s = self.summary
        m = self.rules.max_points
        mean, se = float(s["points"][0]), float(s["points_se"][0])
        dist = s["distribution"][0]
        dist_se = s["distribution_se"][0]
        share = s["trump_share"][0]
        awards = {name: float(s[f"award_{name}"][0]) for name in POINT_NAMES[:m]}
        awards_se = {name: float(s[f"award_{name}_se"][0]) for name in POINT_NAMES[:m]}
        moon, moon_se = float(s["moon"][0]), float(s["moon_se"][0])
        out = {
            "hand": [card_name(c) for c in self.hand],
            "samples": self.samples,
            "seed": self.seed,
            "policy": self.policy,
            "rules": self.rules.as_dict(),
            "trump": {
                "fixed": None if self.trump_fixed is None else SUIT_NAMES[self.trump_fixed],
                "chosen": {SUIT_NAMES[t]: _r(float(share[t]), math.sqrt(share[t] * (1 - share[t]) / self.samples))
                           for t in range(4)},
            },
            "points": {
                "mean": _r(mean, se), "se": _rse(se),
                "distribution": [_r(float(p), float(e)) for p, e in zip(dist, dist_se, strict=True)],
                "distribution_se": [_rse(float(e)) for e in dist_se],
            },
            "awards": {name: _r(p, awards_se[name]) for name, p in awards.items()},
            "awards_se": {name: _rse(e) for name, e in awards_se.items()},
            "bids": self.bid_rows(),
            "recommended_bid": self.recommended_bid,
            "bid_up_to": self.bid_up_to,
            "moon": {
                "success": _r(moon, moon_se), "se": _rse(moon_se),
                "ev": _r(float(s["moon_ev"][0]), float(s["moon_ev_se"][0])),
                "ev_se": _rse(float(s["moon_ev_se"][0])),
                "gain_over_best_bid": _r(float(s["moon_gain"][0]), float(s["moon_ev_se"][0])),
                "pays": bool(s["moon_gain"][0] > 0),
            },
            "stopped_by": self.stopped_by,
            "misdeal_callable": self.misdeal_callable,
        }
        return out

    def to_frame(self) -> pd.DataFrame:
        """One row per bid: make probability and EV with their standard errors."""
        import pandas as pd

        return pd.DataFrame(self.bid_rows()).set_index("bid")


def evaluate_hand(
    hand: str | Sequence[int | str],
    *,
    trump: str | int | None = None,
    samples: int | None = None,
    precision: float | None = None,
    seed: int = 1,
    policy: str = "heuristic",
    rules: Rules | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    max_samples: int = 10_000_000,
) -> HandAnalysis:
    """Simulate ``hand`` as bidder; see the module docstring for the conventions.

    With ``precision`` the deals are simulated in batches of 10,000 until the standard error of the mean
    points falls below it (at most ``samples``, default 10,000,000). Without it, ``samples`` deals
    (default 100,000) are simulated.
    """
    cards = parse_hand(hand)
    rules = rules or Rules()
    policies = parse_policies(policy)
    if policies[0] != policies[1]:
        raise SmearError("hand analysis plays one policy at all four seats; give a single --policy")
    trump_index = _trump_index(trump)
    if precision is not None and not (precision > 0 and math.isfinite(precision)):
        raise SmearError(f"--precision must be a positive standard error such as 0.01, got {precision!r}")
    limit = samples if samples is not None else (max_samples if precision is not None else 100_000)
    check_count("--samples", limit)
    key = seed_value(seed)
    threads = resolve_threads(threads)
    drivers = kernels()
    rules_array = rules.to_array()
    codes = policy_array(policies)
    fixed = np.uint64(mask_of(cards))
    counts = np.zeros(L.CLS_SIZE, dtype=np.int64)
    batch = PRECISION_BATCH if precision is not None else 1 << 16
    stopped_by = "samples"
    done = 0
    drivers.analyze_hands(key, 0, 0, 1, rules_array, codes, fixed, trump_index, False)  # compile before timing
    started = time.perf_counter()
    for start, count in chunk_ranges(limit, batch):
        counts += drivers.analyze_hands(key, start, count, threads, rules_array, codes, fixed, trump_index,
                                        False).sum(axis=(0, 1))
        done += count
        if progress:
            progress(count)
        if precision is not None:
            se = float(summarize(counts, rules)["points_se"][0])
            if se < precision:
                stopped_by = "precision"
                break
    return HandAnalysis(cards, done, seed, policies[0], rules, None if trump_index < 0 else trump_index,
                        counts, stopped_by, time.perf_counter() - started)


# -- hand classes and bid tables ------------------------------------------------------------------------


def class_features() -> pd.DataFrame:
    """The feature values of every class index, in ``layout.CLASS_DIMS`` order."""
    import pandas as pd

    index = np.arange(L.N_CLASSES)
    columns = {}
    for name, size in reversed(L.CLASS_DIMS):
        columns[name] = index % size
        index = index // size
    frame = pd.DataFrame({name: columns[name] for name, _ in L.CLASS_DIMS})
    frame["top"] = pd.Categorical.from_codes(15 - frame["top"].where(frame["top"] < 16, -1), TOP_LABELS,
                                             ordered=True)
    frame["two"] = frame["two"].astype(bool)
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
        s = summarize(counts, self.rules)
        table = keys.copy()
        table["hands"] = s["count"].astype(np.int64)
        table["share"] = s["count"] / self.hands
        table["points"] = s["points"]
        table["points_se"] = s["points_se"]
        for b in range(self.rules.min_bid, self.rules.max_points + 1):
            for name in (f"make{b}", f"make{b}_se"):
                table[name] = s[name]
        for b in range(self.rules.min_bid, self.rules.max_points + 1):
            for name in (f"ev{b}", f"ev{b}_se"):
                table[name] = s[name]
        reliable = table["hands"] >= min_count
        table["bid_up_to"] = pd.array(np.where(reliable, s["bid_up_to"], 0), dtype="Int64")
        table.loc[(table["bid_up_to"] == 0) | ~reliable, "bid_up_to"] = pd.NA
        for name in ("moon", "moon_se", "moon_ev", "moon_ev_se", "moon_gain"):
            table[name] = s[name]
        table["moon_pays"] = reliable & (s["moon_gain"] > 0) if self.rules.moon else False
        table["reliable"] = reliable
        table.attrs = self.metadata() | {"by": list(by), "min_count": min_count}
        return table

    def metadata(self) -> dict[str, Any]:
        return {"hands": self.hands, "seed": self.seed, "policy": self.policy, "rules": self.rules.as_dict()}

    def save(self, path: str | Path) -> None:
        """Save the raw counts (``.npz``), so any grouping can be made again without simulating."""
        import json

        with atomic_write(path, "wb") as handle:
            np.savez_compressed(handle, counts=self.counts, meta=np.array(json.dumps(self.metadata())))

    @classmethod
    def load(cls, path: str | Path) -> ClassTable:
        import json

        path = Path(path)
        try:
            with np.load(path) as data:
                counts = data["counts"]
                meta = json.loads(str(data["meta"]))
        except FileNotFoundError:
            raise SmearError(f"{path} does not exist: make it with 'smear-sim bid-table --out ...'") from None
        except (OSError, KeyError, ValueError) as exc:
            raise SmearError(f"{path} is not a smear-sim class-count file (.npz): {exc}") from None
        if counts.shape != (L.N_CLASSES, L.CLS_SIZE):
            raise SmearError(f"{path} was written by another version of smear-sim; make it again")
        return cls(counts, meta["hands"], meta["seed"], meta["policy"], Rules.from_mapping(meta["rules"]))


def class_table(
    hands: int = 1_000_000,
    *,
    seed: int = 1,
    rules: Rules | None = None,
    policy: str = "heuristic",
    threads: int | None = None,
    chunk_size: int = 1 << 18,
    progress: Progress | None = None,
) -> ClassTable:
    """Deal ``hands`` random hands to a bidder at seat 0, play them out and count them by class."""
    check_count("--hands", hands)
    rules = rules or Rules()
    policies = parse_policies(policy)
    if policies[0] != policies[1]:
        raise SmearError("bid tables play one policy at all four seats; give a single --policy")
    key = seed_value(seed)
    threads = resolve_threads(threads)
    drivers = kernels()
    rules_array = rules.to_array()
    codes = policy_array(policies)
    counts = np.zeros((L.N_CLASSES, L.CLS_SIZE), dtype=np.int64)
    drivers.analyze_hands(key, 0, 0, 1, rules_array, codes, np.uint64(0), -1, True)  # compile before timing
    started = time.perf_counter()
    for start, count in chunk_ranges(hands, chunk_size):
        counts += drivers.analyze_hands(key, start, count, threads, rules_array, codes, np.uint64(0), -1,
                                        True).sum(axis=0)
        if progress:
            progress(count)
    return ClassTable(counts, hands, seed, policies[0], rules, time.perf_counter() - started)


def bid_table(
    hands: int = 1_000_000,
    *,
    by: str | Sequence[str] = DEFAULT_FEATURES,
    min_count: int = 200,
    seed: int = 1,
    rules: Rules | None = None,
    policy: str = "heuristic",
    threads: int | None = None,
    progress: Progress | None = None,
) -> pd.DataFrame:
    """A bid table over ``hands`` random hands, grouped by the features ``by`` (a DataFrame).

    Rows with fewer than ``min_count`` hands are kept but flagged (``reliable`` false, no ``bid_up_to``).
    """
    by = parse_features(by)
    table = class_table(hands, seed=seed, rules=rules, policy=policy, threads=threads, progress=progress)
    return table.frame(by, min_count)


def moon_table(table: ClassTable, by: Sequence[str] = DEFAULT_FEATURES, min_count: int = 200) -> pd.DataFrame:
    """Moon success by class, best first, with the EV a moon bid adds over the best numeric bid."""
    frame = table.frame(by, min_count)
    columns = [*parse_features(by), "hands", "moon", "moon_se", "moon_ev", "moon_ev_se", "best_numeric_ev",
               "best_numeric_ev_se", "moon_gain", "moon_pays", "reliable"]
    # EV falls as the bid rises, so the best numeric bid is the lowest.
    frame["best_numeric_ev"] = frame[f"ev{table.rules.min_bid}"]
    frame["best_numeric_ev_se"] = frame[f"ev{table.rules.min_bid}_se"]
    result = frame[columns].sort_values(["moon", "hands"], ascending=[False, False])
    result.attrs = frame.attrs
    return result.reset_index(drop=True)
