"""Duplicate games (analysis/match.py, kernels/drivers/duplicate.py duplicate_games): each deal sequence played twice with the
teams swapped, and the paired win rate and margins with their standard errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

from smear_sim import duplicate_games, simulate_games
from smear_sim.analysis.match import _ratio
from smear_sim.core import layout as L


def test_a_policy_against_itself_wins_exactly_half():
    """With the same policy on both sides, the two games of a pair are one game with the teams' names swapped."""
    result = duplicate_games("heuristic", "heuristic", games=500, seed=2)
    assert result.win_rate.value == 0.5 and result.win_rate.se == 0
    assert result.points_margin.value == 0 and result.score_margin.value == 0
    data = result.to_json()
    assert data["wins"] == data["losses"] == 500 and data["games_played"] == 1000


def test_each_game_of_a_pair_is_the_game_simulate_plays():
    """Game g of the pair with A as team 0 is game g of ``simulate --games`` with the same policies and seed."""
    pairs = duplicate_games("heuristic", "random", games=300, seed=5)
    first = simulate_games(300, seed=5, policies=("heuristic", "random"))
    second = simulate_games(300, seed=5, policies=("random", "heuristic"))
    wins = int(first.counts[L.GAME_WINS]) + int(second.counts[L.GAME_WINS + 1])
    assert pairs.wins == wins
    hands = int(first.counts[L.GAME_DEALS]) + int(second.counts[L.GAME_DEALS])
    assert pairs.to_json()["hands"] == hands
    assert pairs.win_rate.value > 0.9


def test_the_counts_do_not_depend_on_threads_or_chunks():
    a = duplicate_games("equity", "heuristic", games=400, seed=3)
    b = duplicate_games("equity", "heuristic", games=400, seed=3, threads=1, chunk_size=37)
    assert np.array_equal(a.counts, b.counts)
    assert a.to_json()["policy_a"] == "equity"


def test_the_ratio_standard_error_is_the_spread_of_the_residuals():
    rng = np.random.default_rng(1)
    x = rng.integers(0, 3, 2000).astype(float)
    y = np.full(2000, 2.0)
    est = _ratio(2000, x.sum(), (x * x).sum(), y.sum(), (y * y).sum(), (x * y).sum())
    assert est.value == pytest.approx(x.mean() / 2)
    assert est.se == pytest.approx(x.std(ddof=1) / math.sqrt(2000) / 2)
