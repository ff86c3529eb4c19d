"""Simulating many hands, or complete games: streamed summaries and traces.

The runner (:mod:`smear_sim.engine.runner`) plays the hands (or games) in chunks and sums the kernels'
integer counts; this module turns the counts into estimates with standard errors. Memory stays flat however
many hands are asked for, because only the counts are kept between chunks.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core import layout as L
from ..core.calls import call_name
from ..core.cards import SUIT_NAMES, card_name
from ..core.errors import SmearError
from ..core.rules import Rules
from ..core.stats import Estimate, mean_from_sums, proportion
from ..engine.jobs import simulate_games_job, simulate_hands_job
from ..engine.runner import (
    check_count,
    kernels,
    paced,
    seed_value,
)
from ..reference.game import FIRST_DEALER
from .plan import RunPlan
from .scores import check_scores, parse_score

__all__ = [
    "GAME_CHUNK",
    "GameSimulationResult",
    "SimulationResult",
    "game_record_from_kernel",
    "iter_trace_records",
    "record_from_kernel",
    "simulate",
    "simulate_games",
    "trace_game_records",
    "trace_records",
]


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
        codes = [*self.rules.bids(), L.MOON]
        for code in codes:
            n = self._count(L.AGG_BIDS, code)
            if n == 0:
                continue
            row: dict[str, Any] = {"bid": call_name(code), "count": n}
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
        for i, name in enumerate(self.rules.points):
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
                "hands_per_s": round(self.hands_per_second) if self.seconds > 0 else None,
            },
        }


def simulate(
    hands: int = 1_000_000,
    *,
    seed: int = 1,
    plan: RunPlan,
) -> SimulationResult:
    """Simulate ``hands`` independent hands (dealer rotating with the hand index, scores 0-0).

    ``executor`` runs the chunks elsewhere (a Dask cluster, say); the counts are the same. ``plan`` says who
    plays, under which rules, and how the run goes (:class:`smear_sim.analysis.plan.RunPlan`).
    """
    result = plan.run(simulate_hands_job(players=plan.players, seed=seed, hands=hands))
    return SimulationResult(hands, seed, plan.rules, plan.policies, result.counts, result.threads, result.seconds,
                            result.compile_seconds)


# -- complete games -------------------------------------------------------------------------------------


GAME_CHUNK = 1 << 14


def _game_start(rules: Rules, start_scores: tuple[int, int] | str, dealer: int) -> tuple[int, int]:
    scores = check_scores(parse_score(start_scores, "--start-scores"), rules, "--start-scores")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer <= 3:
        raise SmearError(f"--dealer must be a seat 0-3 (3 deals first in a new game), got {dealer!r}")
    return scores


@dataclass(frozen=True)
class GameSimulationResult:
    """Counts from complete games (layout ``GAME_*``: every hand's ``AGG_*`` counts, then per game)."""

    games: int
    seed: int
    rules: Rules
    policies: tuple[str, str]
    start_scores: tuple[int, int]
    dealer: int
    counts: np.ndarray
    threads: int = 0
    seconds: float = 0.0

    def _count(self, offset: int, i: int = 0) -> int:
        return int(self.counts[offset + i])

    @property
    def hand_summary(self) -> SimulationResult:
        """The hands of every game, summarised as ``simulate --hands`` summarises hands."""
        return SimulationResult(self._count(L.AGG_HANDS), self.seed, self.rules, self.policies,
                                self.counts[: L.AGG_SIZE], self.threads, self.seconds)

    def win_rate(self, team: int) -> Estimate:
        return proportion(self._count(L.GAME_WINS, team), self.games)

    @property
    def hands_per_game(self) -> Estimate:
        return mean_from_sums(self.games, self._count(L.GAME_DEALS), self._count(L.GAME_DEALS_SQ))

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("nan")

    def to_json(self) -> dict[str, Any]:
        hands = self.hand_summary.to_json()
        timing = hands.pop("timing")
        games: dict[str, Any] = {
            "games": self.games,
            "start_scores": list(self.start_scores),
            "dealer": self.dealer,
            "wins": [self._count(L.GAME_WINS, team) for team in range(2)],
            "win_rate": [], "win_rate_se": [],
            "unfinished": self._count(L.GAME_UNFINISHED),
        }
        for team in range(2):
            rate = self.win_rate(team).to_json("win_rate")
            games["win_rate"].append(rate["win_rate"])
            games["win_rate_se"].append(rate["win_rate_se"])
        games |= self.hands_per_game.to_json("hands_per_game")
        return games | hands | {"timing": timing | {"games_per_s": round(self.games_per_second)}}


def simulate_games(
    games: int = 100_000,
    *,
    seed: int = 1,
    start_scores: tuple[int, int] | str = (0, 0),
    dealer: int = FIRST_DEALER,
    plan: RunPlan,
) -> GameSimulationResult:
    """Play ``games`` complete games from ``start_scores`` (team 0, team 1) with seat ``dealer`` dealing first.

    Each game ends when a team wins (docs/rules.md, "Game"), or is counted unfinished after ``MAX_DEALS`` deals.
    Chunks hold ``GAME_CHUNK`` games unless ``chunk_size`` says otherwise (or, on a cluster, the executor).
    ``plan`` says who plays, under which rules, and how the run goes.
    """
    scores = _game_start(plan.rules, start_scores, dealer)
    job = simulate_games_job(players=plan.players, seed=seed, games=games, scores=scores, dealer=dealer)
    # A game is about ten hands: chunks of hands' size would report progress rarely.
    result = plan.run(job, default_chunk=GAME_CHUNK)
    return GameSimulationResult(games, seed, plan.rules, plan.policies, scores, dealer, result.counts, result.threads,
                                result.seconds)


def trace_game_records(
    count: int, *, seed: int = 1, rules: Rules | None = None, policies: str | tuple[str, str] = "heuristic",
    start_scores: tuple[int, int] | str = (0, 0), dealer: int = FIRST_DEALER, start: int = 0,
) -> list[dict[str, Any]]:
    """Game records (each with its ``result``) of games ``start .. start+count-1`` of :func:`simulate_games`."""
    check_count("trace_games", count, minimum=0)
    plan = RunPlan.of(policies, rules)
    scores = _game_start(plan.rules, start_scores, dealer)
    if count == 0:
        return []
    drivers = kernels()
    rules, codes, bidder_arrays = plan.players
    key, seated = seed_value(seed), drivers.seated_arg(codes)

    def trace(first: int, n: int):
        return drivers.trace_games(key, first, n, rules, codes, bidder_arrays, scores[0], scores[1], dealer, seated)

    # Kernel calls sized by time (engine.runner.paced), so that a signal waits for no search player's hundred games.
    return [game_record_from_kernel(records[offsets[i]: offsets[i + 1]], plan.rules, scores, dealer)
            for records, offsets in paced(trace, start, count) for i in range(len(offsets) - 1)]


def game_record_from_kernel(rows: np.ndarray, rules: Rules, start_scores: tuple[int, int],
                            dealer: int) -> dict[str, Any]:
    """The game record of docs/formats.md for one game's kernel records, with the kernel's score as ``result``."""
    deals = []
    results = []
    for row in rows:
        record = record_from_kernel(row, rules)
        del record["rules"]
        results.append(record.pop("result"))
        deals.append(record)
    last = results[-1] if results else {"scores_after": list(start_scores), "winner": None}
    return {
        "rules": rules.changed(),
        "start": {"scores": list(start_scores), "dealer": dealer},
        "deals": deals,
        "result": {"deals": results, "scores_after": last["scores_after"], "winner": last["winner"],
                   "hands_played": len(deals)},
    }


# -- traces -------------------------------------------------------------------------------------------


TRACE_CHUNK = 10_000  # hands traced per kernel call: about 12 MB of kernel records, however many are asked for


def trace_records(
    count: int, *, seed: int = 1, rules: Rules | None = None, policies: str | tuple[str, str] = "heuristic",
    start: int = 0,
) -> list[dict[str, Any]]:
    """Hand records (with ``result``) of hands ``start .. start+count-1`` of a simulation."""
    return list(iter_trace_records(count, seed=seed, rules=rules, policies=policies, start=start))


def iter_trace_records(
    count: int, *, seed: int = 1, rules: Rules | None = None, policies: str | tuple[str, str] = "heuristic",
    start: int = 0, chunk_size: int = TRACE_CHUNK,
) -> Iterator[dict[str, Any]]:
    """The records of :func:`trace_records` one at a time, traced at most ``chunk_size`` hands at a time, so that
    writing a million of them holds one chunk in memory, not the whole trace, and in kernel calls sized by time
    (engine.runner.paced), so that a signal waits for no search player's thousands of hands."""
    check_count("trace_hands", count, minimum=0)
    check_count("chunk_size", chunk_size)
    plan = RunPlan.of(policies, rules)
    return _traced(seed_value(seed), plan.rules, plan.players[1], plan.bidder_arrays, start, count, chunk_size)


def _traced(key: np.uint64, rules: Rules, policies: np.ndarray, bidder_arrays, start: int, count: int,
            chunk_size: int) -> Iterator[dict[str, Any]]:
    drivers = kernels()
    rules_array, seated = rules.to_array(), drivers.seated_arg(policies)

    def trace(first: int, n: int) -> np.ndarray:
        return drivers.trace_hands(key, first, n, rules_array, policies, bidder_arrays, seated)

    for rows in paced(trace, start, count, limit=chunk_size):
        for row in rows:
            yield record_from_kernel(row, rules)


def _cards(row: np.ndarray, offset: int, n: int) -> list[str]:
    return [card_name(int(c)) for c in row[offset: offset + n] if c >= 0]


def record_from_kernel(row: np.ndarray, rules: Rules) -> dict[str, Any]:
    """The hand record (docs/formats.md) of one kernel record, with the kernel's own score as ``result``."""
    bids = [call_name(int(c)) for c in row[L.REC_BIDS: L.REC_BIDS + 4]]
    before = [int(row[L.REC_SCORES_BEFORE]), int(row[L.REC_SCORES_BEFORE + 1])]
    record: dict[str, Any] = {
        "rules": rules.changed(),
        "dealer": int(row[L.REC_DEALER]),
        "scores_before": before,
        "hands": [_cards(row, L.REC_HANDS + 9 * seat, 9) for seat in range(4)],
        "kitty": _cards(row, L.REC_KITTY, 4),
        "bids": bids,
    }
    names = rules.points
    bidder = int(row[L.REC_BIDDER])
    if bidder < 0:
        record["result"] = {
            "bidder": None, "bidding_team": None, "bid": None, "trump": None, "tricks": [],
            "awards": {name: None for name in names}, "card_points": [0, 0], "points": [0, 0],
            "made": None, "score_delta": [0, 0], "scores_after": before, "moon": None, "winner": None,
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
        "bid": call_name(int(row[L.REC_BID])),
        "trump": record["trump"],
        "tricks": tricks,
        "awards": {name: _team(row[L.REC_AWARDS + i]) for i, name in enumerate(names)},
        "card_points": [int(row[L.REC_CARD_POINTS]), int(row[L.REC_CARD_POINTS + 1])],
        "points": [int(row[L.REC_POINTS]), int(row[L.REC_POINTS + 1])],
        "made": bool(row[L.REC_MADE]),
        "score_delta": delta,
        "scores_after": [before[0] + delta[0], before[1] + delta[1]],
        "moon": None if moon < 0 else bool(moon),
        "winner": None if winner < 0 else winner,
    }
    return record


def _team(value: int) -> int | None:
    return None if value < 0 else int(value)


