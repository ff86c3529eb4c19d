"""Simulating many hands: streamed summaries, traces and duplicate matches between policies.

This is the Python side of the simulator. It validates the inputs, resolves the seed and the threads,
splits the work into chunks, calls the kernels of :mod:`smear_sim.kernels.drivers` and turns their
integer counts into estimates with standard errors. Memory stays flat however many hands are asked for,
because only the counts are kept between chunks.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from . import layout as L
from .cards import SUIT_NAMES, card_name
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
from .stats import Estimate, mean_from_sums, proportion
from .tables import POINT_NAMES

__all__ = ["DuplicateResult", "SimulationResult", "duplicate_match", "simulate", "trace_records", "write_trace"]

DEFAULT_CHUNK = 1 << 18


def bid_name(code: int) -> int | str:
    """A kernel bid code as it appears in hand records: a number, "pass" or "moon"."""
    if code == L.PASS:
        return "pass"
    if code == L.MOON:
        return "moon"
    return int(code)


@dataclass(frozen=True)
class SimulationResult:
    """Counts from a simulation, and the estimates derived from them."""

    hands: int
    seed: int
    rules: Rules
    policies: tuple[str, str]
    counts: np.ndarray  # the summed AGG_* counts
    threads: int = 0
    seconds: float = 0.0
    compile_seconds: float = 0.0

    def _count(self, offset: int, i: int = 0) -> int:
        return int(self.counts[offset + i])

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else float("nan")

    def bid_rows(self) -> list[dict[str, Any]]:
        """One row per bid that won an auction: how often, how often made, the points it took."""
        rows = []
        codes = [*range(self.rules.min_bid, self.rules.max_points + 1), L.MOON]
        for code in codes:
            n = self._count(L.AGG_BIDS, code)
            if n == 0:
                continue
            row: dict[str, Any] = {"bid": bid_name(code), "count": n}
            row |= proportion(n, self.hands).to_json("share")
            row |= proportion(self._count(L.AGG_MADE, code), n).to_json("made")
            rows.append(row)
        return rows

    def team_rows(self) -> list[dict[str, Any]]:
        rows = []
        n = self.hands
        for team in range(2):
            row: dict[str, Any] = {"team": team, "policy": self.policies[team]}
            row |= mean_from_sums(n, self._count(L.AGG_POINTS, team), self._count(L.AGG_POINTS_SQ, team)).to_json(
                "mean_points")
            row |= mean_from_sums(n, self._count(L.AGG_DELTA, team), self._count(L.AGG_DELTA_SQ, team)).to_json(
                "mean_score")
            row |= proportion(self._count(L.AGG_BIDDER_TEAM, team), n).to_json("bids_won")
            row["moon_attempts"] = self._count(L.AGG_MOON_TRIES, team)
            row["moon_successes"] = self._count(L.AGG_MOON_MADE, team)
            row["games_won"] = self._count(L.AGG_GAME_WINS, team)
            rows.append(row)
        return rows

    def award_rates(self) -> dict[str, dict[str, float | None]]:
        """For each point, how often the bidding team won it, the other team won it, or nobody (hands
        played, thrown-in hands left out), each with its standard error."""
        played = self.hands - self._count(L.AGG_THROWN_IN)
        rates = {}
        for i, name in enumerate(POINT_NAMES[: self.rules.max_points]):
            rates[name] = {}
            for who, offset in (("bidding_team", L.AGG_AWARD_BIDDER), ("other_team", L.AGG_AWARD_OTHER),
                                ("nobody", L.AGG_AWARD_NONE)):
                rates[name] |= proportion(self._count(offset, i), played).to_json(who)
        return rates

    def margin(self) -> Estimate:
        """Team 0's score minus team 1's, per hand."""
        n = self.hands
        total = self._count(L.AGG_DELTA, 0) - self._count(L.AGG_DELTA, 1)
        return mean_from_sums(n, total, self._count(L.AGG_MARGIN_SQ))

    def moon(self) -> dict[str, Any]:
        tries = self._count(L.AGG_MOON_TRIES, 0) + self._count(L.AGG_MOON_TRIES, 1)
        made = self._count(L.AGG_MOON_MADE, 0) + self._count(L.AGG_MOON_MADE, 1)
        out: dict[str, Any] = {"attempts": tries, "successes": made}
        out |= proportion(tries, self.hands).to_json("attempt_rate")
        if tries:
            out |= proportion(made, tries).to_json("success_rate")
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "seed": self.seed,
            "policies": list(self.policies),
            "rules": self.rules.as_dict(),
            "bids": self.bid_rows(),
            "teams": self.team_rows(),
            "awards": self.award_rates(),
            "moon": self.moon(),
            "margin_team0": self.margin().to_json("mean"),
            "misdeals": self._count(L.AGG_MISDEALS),
            "thrown_in": self._count(L.AGG_THROWN_IN),
            "timing": {
                "threads": self.threads,
                "seconds": round(self.seconds, 3),
                "hands_per_s": round(self.hands_per_second),
            },
        }


def simulate(
    hands: int = 1_000_000,
    *,
    seed: int = 1,
    rules: Rules | None = None,
    policies: str | tuple[str, str] = "heuristic",
    threads: int | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    progress: Progress | None = None,
) -> SimulationResult:
    """Simulate ``hands`` independent hands (dealer rotating with the hand index, scores 0-0)."""
    check_count("--hands", hands)
    rules = rules or Rules()
    policies = parse_policies(policies)
    key = seed_value(seed)
    threads = resolve_threads(threads)
    drivers = kernels()
    rules_array = rules.to_array()
    policy_codes = policy_array(policies)
    counts = np.zeros(L.AGG_SIZE, dtype=np.int64)
    compile_start = time.perf_counter()
    drivers.simulate_hands(key, 0, 0, 1, rules_array, policy_codes)  # compile or load before timing
    compile_seconds = time.perf_counter() - compile_start
    start_time = time.perf_counter()
    for start, count in chunk_ranges(hands, chunk_size):
        counts += drivers.simulate_hands(key, start, count, threads, rules_array, policy_codes).sum(axis=0)
        if progress:
            progress(count)
    seconds = time.perf_counter() - start_time
    return SimulationResult(hands, seed, rules, policies, counts, threads, seconds, compile_seconds)


# -- traces -------------------------------------------------------------------------------------------


def trace_records(
    count: int, *, seed: int = 1, rules: Rules | None = None, policies: str | tuple[str, str] = "heuristic",
    start: int = 0,
) -> list[dict[str, Any]]:
    """Hand records (with ``result``) of hands ``start .. start+count-1`` of a simulation."""
    check_count("--trace-hands", count, minimum=0)
    rules = rules or Rules()
    policies = parse_policies(policies)
    if count == 0:
        return []
    out = kernels().trace_hands(seed_value(seed), start, count, rules.to_array(), policy_array(policies))
    return [record_from_kernel(row, rules) for row in out]


def write_trace(path: str | Path, records: list[dict[str, Any]]) -> None:
    """Write one JSON object per line, atomically."""
    with atomic_write(path) as handle:
        for record in records:
            handle.write(json.dumps(record, separators=(",", ":")) + "\n")


def _cards(row: np.ndarray, offset: int, n: int) -> list[str]:
    return [card_name(int(c)) for c in row[offset: offset + n] if c >= 0]


def record_from_kernel(row: np.ndarray, rules: Rules) -> dict[str, Any]:
    """The hand record of INTERFACES.md for one kernel record, with the kernel's own score as ``result``."""
    bids = [bid_name(int(c)) for c in row[L.REC_BIDS: L.REC_BIDS + 4]]
    record: dict[str, Any] = {
        "rules": rules.changed(),
        "dealer": int(row[L.REC_DEALER]),
        "scores_before": [0, 0],
        "hands": [_cards(row, L.REC_HANDS + 9 * seat, 9) for seat in range(4)],
        "kitty": _cards(row, L.REC_KITTY, 4),
        "bids": bids,
    }
    names = POINT_NAMES[: rules.max_points]
    bidder = int(row[L.REC_BIDDER])
    if bidder < 0:
        record["result"] = {
            "bidder": None, "bidding_team": None, "bid": None, "trump": None, "tricks": [],
            "awards": {name: None for name in names}, "card_points": [0, 0], "points": [0, 0],
            "made": None, "score_delta": [0, 0], "scores_after": [0, 0], "moon": None, "winner": None,
        }
        return record
    plays = _cards(row, L.REC_PLAYS, 24)
    record |= {
        "trump": SUIT_NAMES[int(row[L.REC_TRUMP])],
        "discards": [_cards(row, L.REC_DISCARDS + 7 * seat, 7) for seat in range(4)],
        "plays": plays,
    }
    tricks = []
    leader = bidder
    for t in range(6):
        winner = int(row[L.REC_TRICK_WINNERS + t])
        tricks.append({"leader": leader, "cards": plays[4 * t: 4 * t + 4], "winner": winner})
        leader = winner
    moon = int(row[L.REC_MOON])
    winner = int(row[L.REC_WINNER])
    delta = [int(row[L.REC_DELTA]), int(row[L.REC_DELTA + 1])]
    record["result"] = {
        "bidder": bidder,
        "bidding_team": bidder % 2,
        "bid": bid_name(int(row[L.REC_BID])),
        "trump": record["trump"],
        "tricks": tricks,
        "awards": {name: _team(row[L.REC_AWARDS + i]) for i, name in enumerate(names)},
        "card_points": [int(row[L.REC_CARD_POINTS]), int(row[L.REC_CARD_POINTS + 1])],
        "points": [int(row[L.REC_POINTS]), int(row[L.REC_POINTS + 1])],
        "made": bool(row[L.REC_MADE]),
        "score_delta": delta,
        "scores_after": delta,
        "moon": None if moon < 0 else bool(moon),
        "winner": None if winner < 0 else winner,
    }
    return record


def _team(value: int) -> int | None:
    return None if value < 0 else int(value)


# -- duplicate matches --------------------------------------------------------------------------------


@dataclass(frozen=True)
class DuplicateResult:
    """Policy A against policy B on the same deals, each deal played twice with the teams swapped."""

    policy_a: str
    policy_b: str
    deals: int
    seed: int
    rules: Rules
    score_margin: Estimate  # A's hand score minus B's, per hand played
    points_margin: Estimate  # A's points won minus B's, per hand played
    seconds: float = field(default=0.0)

    def to_json(self) -> dict[str, Any]:
        return {
            "policy_a": self.policy_a,
            "policy_b": self.policy_b,
            "deals": self.deals,
            "hands": 2 * self.deals,
            "seed": self.seed,
            "rules": self.rules.as_dict(),
            "score_margin": self.score_margin.to_json("mean"),
            "points_margin": self.points_margin.to_json("mean"),
        }


def duplicate_match(
    policy_a: str = "heuristic",
    policy_b: str = "random",
    *,
    deals: int = 200_000,
    seed: int = 1,
    rules: Rules | None = None,
    threads: int | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    progress: Progress | None = None,
) -> DuplicateResult:
    """Play every deal twice, A as team 0 then A as team 1, so the luck of the deal cancels.

    Each deal's two hands give one paired margin; the standard error comes from the spread of those
    pairs over the deals.
    """
    check_count("--deals", deals)
    rules = rules or Rules()
    a, b = parse_policies([policy_a, policy_b])
    key = seed_value(seed)
    threads = resolve_threads(threads)
    drivers = kernels()
    codes = policy_array((a, b))
    sums = np.zeros(4, dtype=np.int64)
    drivers.duplicate_hands(key, 0, 0, 1, rules.to_array(), codes)  # compile before timing
    started = time.perf_counter()
    for start, count in chunk_ranges(deals, chunk_size):
        sums += drivers.duplicate_hands(key, start, count, threads, rules.to_array(), codes).sum(axis=0)
        if progress:
            progress(count)
    seconds = time.perf_counter() - started
    # Each sum is over deals of the pair total (two hands), so halve for a per-hand margin.
    score = mean_from_sums(deals, sums[0], sums[1])
    points = mean_from_sums(deals, sums[2], sums[3])
    return DuplicateResult(
        a, b, deals, seed, rules,
        Estimate(score.value / 2, score.se / 2), Estimate(points.value / 2, points.se / 2), seconds,
    )
