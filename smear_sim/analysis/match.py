"""Duplicate matches: two policies on the same deals, each deal played twice with the teams swapped; and
tournaments, every pair of several players in duplicate, with a rating for each.

:func:`duplicate_match` plays single hands; :func:`duplicate_games` plays complete games, each deal sequence twice.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core import layout as L
from ..core.errors import SmearError
from ..core.players import FAST_POLICIES, parse_policy
from ..core.rules import Rules
from ..core.stats import Estimate, mean_from_sums
from ..engine.jobs import duplicate_games_job, duplicate_hands_job
from ..engine.runner import Executor, Progress
from ..engine.settings import RunSettings
from .plan import RunPlan

if TYPE_CHECKING:
    from ..engine.checkpoint import Checkpoint

__all__ = ["DuplicateResult", "GamesResult", "Rating", "TournamentResult", "bradley_terry", "duplicate_games",
           "duplicate_match", "search_chunk", "tournament",
           "tournament_plan"]


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
    score_wins: int = 0  # deals whose two hands together A won on score
    score_losses: int = 0
    points_wins: int = 0  # the same on points won
    points_losses: int = 0

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
            "deals_won": {"score": self.score_wins, "points": self.points_wins},
            "deals_lost": {"score": self.score_losses, "points": self.points_losses},
        }


def duplicate_match(
    *,
    deals: int = 200_000,
    seed: int = 1,
    plan: RunPlan,
) -> DuplicateResult:
    """Play every deal twice, A as team 0 then A as team 1, so the luck of the deal cancels.

    Each deal's two hands give one paired margin; the standard error comes from the spread of those
    pairs over the deals. ``plan`` holds the two policies (A, B), the rules and the run's
    settings (:class:`smear_sim.analysis.plan.RunPlan`).
    """
    (a, b), rules = plan.policies, plan.rules
    result = plan.run(duplicate_hands_job(players=plan.players, seed=seed, deals=deals))
    sums = result.counts
    seconds = result.seconds
    # Each sum is over deals of the pair total (two hands), so halve for a per-hand margin.
    score = mean_from_sums(deals, sums[0], sums[1])
    points = mean_from_sums(deals, sums[2], sums[3])
    wins = [int(x) for x in sums[4:8]]
    return DuplicateResult(
        a, b, deals, seed, rules,
        Estimate(score.value / 2, score.se / 2), Estimate(points.value / 2, points.se / 2), seconds, *wins,
    )


# -- duplicate games -------------------------------------------------------------------------------------


def _ratio(n: int, num: float, num_sq: float, den: float, den_sq: float, cross: float) -> Estimate:
    """The ratio of two sums over n independent units and its standard error (delta method): the spread of
    ``x - r y`` over the units, over the mean of ``y``."""
    if n < 2 or den <= 0:
        return Estimate(math.nan, math.nan)
    r = num / den
    mean_y = den / n
    residual = (num_sq - 2 * r * cross + r * r * den_sq) / n - ((num - r * den) / n) ** 2
    return Estimate(r, math.sqrt(max(residual, 0.0) / (n - 1)) / mean_y)


@dataclass(frozen=True)
class GamesResult:
    """Policy A against policy B in complete games, each game's deals played twice with the teams swapped."""

    policy_a: str
    policy_b: str
    games: int  # game pairs: twice as many games were played
    seed: int
    rules: Rules
    counts: np.ndarray  # sums over the game pairs, layout DUP_*
    seconds: float = field(default=0.0)

    def _sum(self, offset: int) -> int:
        return int(self.counts[offset])

    @property
    def wins(self) -> int:
        """Games A won."""
        return self._sum(L.DUP_WINS)

    @property
    def losses(self) -> int:
        """Games B won."""
        return self._sum(L.DUP_LOSSES)

    @property
    def unfinished(self) -> int:
        """Games stopped after MAX_DEALS deals."""
        return self._sum(L.DUP_UNFINISHED)

    @property
    def deals_per_game(self) -> float:
        return self._sum(L.DUP_HANDS) / (2 * self.games) if self.games else math.nan

    @property
    def win_rate(self) -> Estimate:
        """A's share of the games won (an unfinished game counts half), from the spread of A's wins per pair."""
        halves = 2 * self.wins + self.unfinished
        rate = mean_from_sums(self.games, halves, self._sum(L.DUP_HALVES_SQ))
        return Estimate(rate.value / 4, rate.se / 4)

    @property
    def points_margin(self) -> Estimate:
        """A's points won minus B's, per hand played."""
        c = self._sum
        return _ratio(self.games, c(L.DUP_MARGIN), c(L.DUP_MARGIN_SQ), c(L.DUP_HANDS), c(L.DUP_HANDS_SQ),
                      c(L.DUP_MARGIN_HANDS))

    @property
    def score_margin(self) -> Estimate:
        """A's score change minus B's, per hand played."""
        c = self._sum
        return _ratio(self.games, c(L.DUP_SCORE), c(L.DUP_SCORE_SQ), c(L.DUP_HANDS), c(L.DUP_HANDS_SQ),
                      c(L.DUP_SCORE_HANDS))

    def to_json(self) -> dict[str, Any]:
        return {
            "policy_a": self.policy_a,
            "policy_b": self.policy_b,
            "games": self.games,
            "games_played": 2 * self.games,
            "wins": self.wins,
            "losses": self.losses,
            "unfinished": self.unfinished,
            "hands": self._sum(L.DUP_HANDS),
            "deals_per_game": round(self.deals_per_game, 2),
            "seed": self.seed,
            "rules": self.rules.as_dict(),
            "win_rate": self.win_rate.to_json("mean"),
            "points_margin": self.points_margin.to_json("mean"),
            "score_margin": self.score_margin.to_json("mean"),
        }


def duplicate_games(
    *,
    games: int = 10_000,
    seed: int = 1,
    plan: RunPlan,
) -> GamesResult:
    """Play ``games`` pairs of complete games from 0-0 (seat 3 dealing first): in each pair, game g's deal
    sequence (deal n from ``stream_key(stream_key(seed, g), n)``) is played with A as team 0, then with A as
    team 1, so the luck of the cards cancels. Standard errors come from the spread over the pairs. ``plan``
    holds the two policies, the rules and the run's settings.
    """
    from .simulate import GAME_CHUNK

    (a, b), rules = plan.policies, plan.rules
    job = duplicate_games_job(players=plan.players, seed=seed, games=games)
    result = plan.run(job, default_chunk=GAME_CHUNK // 2)  # two games a pair: progress as often as simulate --games
    return GamesResult(a, b, games, seed, rules, result.counts, result.seconds)


# -- tournaments -----------------------------------------------------------------------------------------


SEARCH_CHUNK = 256  # deals (or games) per chunk for a search player: progress every few seconds
ELO_SCALE = 400 / math.log(10)  # Elo points per unit of Bradley-Terry log-strength
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Rating:
    """A player's Bradley-Terry rating on the Elo scale (the players' mean is 0), with its standard error."""

    player: str
    elo: float
    se: float

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% confidence interval."""
        return self.elo - Z95 * self.se, self.elo + Z95 * self.se

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {"player": self.player, "elo": round(self.elo, 1), "elo_se": round(self.se, 1),
                "ci95": [round(low, 1), round(high, 1)]}


def bradley_terry(players: Sequence[str], results: Sequence[tuple[str, str, float, float, float]]) -> list[Rating]:
    """Ratings from ``(A, B, A's wins, B's wins, draws)`` over the pairs of ``players``; a draw counts half.

    The model: A beats B with probability 1 / (1 + exp(b - a)) for strengths a and b, fitted by maximum
    likelihood (Newton's method) with the strengths' mean fixed at 0; the standard errors come from the
    inverse of the Fisher information. Each pair gets one extra draw, so that a clean sweep still gives a
    finite rating.
    """
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    won = np.zeros((n, n))
    played = np.zeros((n, n))
    for a, b, wins, losses, draws in results:
        i, j = index[a], index[b]
        won[i, j] += wins + (draws + 1) / 2
        won[j, i] += losses + (draws + 1) / 2
        played[i, j] += wins + losses + draws + 1
        played[j, i] += wins + losses + draws + 1
    strength = np.zeros(n)
    for _ in range(100):
        p = 1 / (1 + np.exp(strength[None, :] - strength[:, None]))
        weight = played * p * (1 - p)
        info = np.diag(weight.sum(axis=1)) - weight
        step = np.linalg.pinv(info) @ (won - played * p).sum(axis=1)
        strength += step
        strength -= strength.mean()
        if np.abs(step).max() < 1e-10:
            break
    p = 1 / (1 + np.exp(strength[None, :] - strength[:, None]))
    weight = played * p * (1 - p)
    covariance = np.linalg.pinv(np.diag(weight.sum(axis=1)) - weight)
    return [Rating(player, float(strength[i] * ELO_SCALE), float(math.sqrt(max(covariance[i, i], 0)) * ELO_SCALE))
            for i, player in enumerate(players)]


@dataclass(frozen=True)
class TournamentResult:
    """Every pair of players in duplicate (and in complete games, when asked), and a rating for each."""

    players: tuple[str, ...]
    seed: int
    rules: Rules
    pairs: tuple[DuplicateResult, ...]
    games: tuple[GamesResult, ...]  # one per pair in the order of ``pairs``, or none
    ratings: tuple[Rating, ...]
    seconds: float = 0.0

    @property
    def rating_basis(self) -> str:
        if self.games:
            return "Bradley-Terry on the games each player won (an unfinished game counts half), Elo scale, mean 0"
        return "Bradley-Terry on the duplicate deals each player won on score (a drawn deal counts half), Elo " \
               "scale, mean 0"

    def to_json(self) -> dict[str, Any]:
        pairs = [pair.to_json() for pair in self.pairs]
        for pair, games in zip(pairs, self.games, strict=False):
            pair["games"] = games.to_json()
        return {
            "players": list(self.players),
            "seed": self.seed,
            "rules": self.rules.as_dict(),
            "rating": self.rating_basis,
            "pairs": pairs,
            "ratings": [r.to_json() for r in self.ratings],
        }


def _is_search(player: str) -> bool:
    return parse_policy(player).name not in FAST_POLICIES


def search_chunk(players: Sequence[str], games: bool = False) -> int | None:
    """Deals (or, with ``games``, game pairs of about twenty hands) per chunk of a run where a search player plays,
    so that its progress moves every few seconds; None when every player is fast (the run's own default)."""
    if not any(_is_search(p) for p in players):
        return None
    return max(1, SEARCH_CHUNK // 16) if games else SEARCH_CHUNK


def tournament_plan(players: Sequence[str], deals: int, search_deals: int | None = None, games: int | None = None,
                    search_games: int | None = None) -> list[tuple[str, str, int, int]]:
    """The pairs a tournament plays, ``(A, B, deals, games)``: every pair of ``players`` (canonical names).

    A pair with a search player (``pimc``) plays ``search_deals`` deals and ``search_games`` games when they
    are given; the others ``deals`` and ``games`` (0 when ``games`` is None).
    """
    names = [str(parse_policy(p)) for p in players]
    if len(names) < 2:
        raise SmearError("a tournament needs at least two players, e.g. 'smear-sim tournament heuristic random'")
    if len(set(names)) != len(names):
        twice = next(p for p in names if names.count(p) > 1)
        raise SmearError(f"player {twice!r} is named twice; name each player once")
    plan = []
    for a, b in combinations(names, 2):
        search = _is_search(a) or _is_search(b)
        n_deals = search_deals if search and search_deals is not None else deals
        n_games = search_games if search and search_games is not None else games
        plan.append((a, b, n_deals, n_games or 0))
    return plan


def tournament(
    players: Sequence[str],
    *,
    deals: int = 200_000,
    search_deals: int | None = None,
    games: int | None = None,
    search_games: int | None = None,
    seed: int = 1,
    rules: Rules | None = None,
    threads: int | None = None,
    chunk_size: int | None = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    checkpoint: Checkpoint | None = None,
    settings: RunSettings | None = None,
) -> TournamentResult:
    """Play every pair of ``players`` in duplicate on the same deals (seed), and in complete games when
    ``games`` is given, and rate them (on games when played, else on deals).

    Pairs with a search player play ``search_deals`` deals and ``search_games`` games (default: as the
    others); every pair's deals are the first ones of the same sequence, and so are its games. ``progress``
    is told of every deal and every game played. ``checkpoint`` saves every pair's finished chunks (each pair is
    a job of its own), so a resumed tournament skips the pairs already played. ``settings``, when given, stands
    for the run's settings (threads, chunk size, progress, executor, checkpoint; :mod:`smear_sim.engine.settings`).
    """
    schedule = tournament_plan(players, deals, search_deals, games, search_games)
    if settings is None:
        settings = RunSettings(threads, executor, chunk_size, progress, checkpoint)
    rules = Rules() if rules is None else rules
    pairs, game_results = [], []
    for a, b, n_deals, n_games in schedule:
        chunk = settings.chunk_size
        if _is_search(a) or _is_search(b):
            chunk = SEARCH_CHUNK if chunk is None else min(chunk, SEARCH_CHUNK)
        plan = RunPlan.of([a, b], rules, settings=settings.replace(chunk_size=chunk))
        pairs.append(duplicate_match(deals=n_deals, seed=seed, plan=plan))
        if n_games:
            game_chunk = None if chunk is None else max(1, chunk // 16)
            game_plan = plan.replace(chunk_size=game_chunk)
            game_results.append(duplicate_games(games=n_games, seed=seed, plan=game_plan))
    names = tuple(str(parse_policy(p)) for p in players)
    if game_results:
        outcomes = [(g.policy_a, g.policy_b, g.wins, g.losses, g.unfinished) for g in game_results]
    else:
        outcomes = [(p.policy_a, p.policy_b, p.score_wins, p.score_losses, p.deals - p.score_wins - p.score_losses)
                    for p in pairs]
    seconds = sum(p.seconds for p in pairs) + sum(g.seconds for g in game_results)
    return TournamentResult(names, seed, rules, tuple(pairs), tuple(game_results),
                            tuple(bradley_terry(names, outcomes)), seconds)
