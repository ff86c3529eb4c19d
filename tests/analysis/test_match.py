"""Duplicate matches, duplicate games and tournaments (analysis/match.py): ratings that recover known
strengths, results independent of threads and chunks (the search player included), the pairs a tournament
plays, and players that rank as they should."""

from __future__ import annotations

import math

import pytest

from smear_sim import duplicate_games, duplicate_match
from smear_sim.analysis.match import ELO_SCALE, bradley_terry, tournament, tournament_plan
from smear_sim.core.errors import SmearError


def test_bradley_terry_recovers_a_known_win_rate():
    """Two players, A winning 75% of 40,000 decisive deals: the ratings differ by 400 log10(3) (about 191)."""
    ratings = bradley_terry(["a", "b"], [("a", "b", 30_000, 10_000, 0)])
    a, b = ratings
    assert a.elo + b.elo == pytest.approx(0, abs=1e-9)  # mean 0
    expected = ELO_SCALE * math.log(30_000.5 / 10_000.5)  # the extra drawn deal per pair
    assert a.elo - b.elo == pytest.approx(expected, rel=1e-6)
    # SE of the log-odds is 1/sqrt(n p (1 - p)); each of the two ratings carries half of the difference
    se = ELO_SCALE / math.sqrt(40_001 * 0.75 * 0.25) / 2
    assert a.se == pytest.approx(se, rel=1e-3) and b.se == pytest.approx(se, rel=1e-3)
    low, high = a.interval
    assert low < a.elo < high


def test_bradley_terry_is_transitive_and_finite_on_a_sweep():
    ratings = {r.player: r for r in bradley_terry(
        ["strong", "middle", "weak"],
        [("strong", "middle", 600, 400, 0), ("middle", "weak", 600, 400, 0), ("strong", "weak", 1000, 0, 0)])}
    assert ratings["strong"].elo > ratings["middle"].elo > ratings["weak"].elo
    assert all(math.isfinite(r.elo) and math.isfinite(r.se) for r in ratings.values())


def test_tournament_plan_pairs_and_sample_sizes():
    plan = tournament_plan(["random", "heuristic", "PIMC:3"], 100, search_deals=7, games=5, search_games=2)
    assert plan == [("random", "heuristic", 100, 5), ("random", "pimc:3", 7, 2), ("heuristic", "pimc:3", 7, 2)]
    assert tournament_plan(["random", "heuristic"], 10)[0][3] == 0
    with pytest.raises(SmearError, match="at least two players"):
        tournament_plan(["random"], 10)
    with pytest.raises(SmearError, match="named twice"):
        tournament_plan(["pimc", "pimc:16"], 10)


def test_search_player_results_do_not_depend_on_threads_or_chunks():
    """pimc draws its sampled deals from each hand's own stream."""
    first = duplicate_match("pimc:2", "heuristic", deals=6, seed=4, threads=1, chunk_size=6)
    again = duplicate_match("pimc:2", "heuristic", deals=6, seed=4, threads=2, chunk_size=2)
    assert first.to_json() == again.to_json()
    games = duplicate_games("pimc:2", "random", games=2, seed=4, threads=1, chunk_size=2)
    assert games.to_json() == duplicate_games("pimc:2", "random", games=2, seed=4, threads=2, chunk_size=1).to_json()
    assert games.wins + games.losses + games.unfinished == 4


def test_expert_without_its_four_parts_plays_as_pimc():
    """``expert:K`` leaving out its calls, inference, searched keep and game value is ``pimc:K``, game for game: the
    base that tools/expert_parts.py measures each part against."""
    bare = duplicate_games("expert:2:no-calls:no-inference:no-keep:no-game", "heuristic", games=3, seed=4)
    pimc = duplicate_games("pimc:2", "heuristic", games=3, seed=4)
    assert bare.counts.tolist() == pimc.counts.tolist() and bare.wins + bare.losses + bare.unfinished == 6
    assert duplicate_games("expert:2", "heuristic", games=3, seed=4).counts.tolist() != pimc.counts.tolist()


def test_tournament_ranks_the_players_and_rates_on_games_when_played():
    # count, random and heuristic are compiled into the kernels together (one ``seated`` type), so the three pairs'
    # matches and games share two compiled drivers rather than compiling six.
    result = tournament(["random", "count", "heuristic"], deals=3000, games=150, seed=2)
    assert [(p.policy_a, p.policy_b) for p in result.pairs] == [
        ("random", "count"), ("random", "heuristic"), ("count", "heuristic")]
    assert len(result.games) == 3 and "games" in result.rating_basis
    ratings = {r.player: r for r in result.ratings}
    assert ratings["heuristic"].elo > ratings["random"].elo + 4 * ratings["random"].se
    random_vs_v2 = result.pairs[1]
    assert random_vs_v2.score_margin.value < -5 * random_vs_v2.score_margin.se
    assert result.games[1].win_rate.value < 0.2
    data = result.to_json()
    assert data["pairs"][0]["games"]["games_played"] == 300
    assert set(data["ratings"][0]) == {"player", "elo", "elo_se", "ci95"}
    on_deals = tournament(["random", "heuristic"], deals=500, seed=2)
    assert on_deals.games == () and "deals" in on_deals.rating_basis
