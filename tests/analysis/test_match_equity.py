"""The match-equity table (analysis/match_equity.py, on analysis/hand_outcomes.py and analysis/game_chain.py) checked against direct game simulation, its own symmetry, the
spread of independent tables, the floor's truncation bound and chains with known answers.

Tolerances are stated in standard errors (SE). A table's SE comes from the delta method (module docstring of
smear_sim.analysis.match_equity); a simulated win rate's from the binomial.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from smear_sim import hand_outcomes, match_equity, simulate_games
from smear_sim.analysis import game_chain, scores
from smear_sim.analysis import hand_outcomes as HO
from smear_sim.analysis import match_equity as ME
from smear_sim.analysis.hand_outcomes import DEFAULT_HANDS
from smear_sim.analysis.match_equity import TRUNCATION_TOLERANCE
from smear_sim.analysis.scores import check_scores
from smear_sim.core import layout as L
from smear_sim.core.errors import SmearError
from smear_sim.core.rules import Rules
from smear_sim.kernels.equity import solve_chain, solve_transposed


@pytest.fixture(scope="module")
def default_table():
    """The table at the default precision, the one ``smear-sim equity`` prints."""
    return match_equity(seed=11)


@pytest.fixture(scope="module")
def short_table():
    """Short games in which about one hand in six is thrown in (all may pass, and the heuristic passes below a
    bid of 3), so the deal passing on is exercised."""
    return match_equity(300_000, seed=5, rules=Rules(target=11, forced_bid="none", min_bid=3), floor=-15)


def shown_states(table):
    return [(a, b) for a in range(table.floor, table.target) for b in range(table.floor, table.target)]


# -- symmetry and precision ------------------------------------------------------------------------------


@pytest.mark.parametrize("fixture", ["default_table", "short_table"])
def test_the_two_teams_win_probabilities_add_to_one(fixture, request):
    table = request.getfixturevalue(fixture)
    lo = table.floor - table.solve_floor
    us_deal, them_deal = table.win_grid[0, lo:, lo:], table.win_grid[1, lo:, lo:]
    # win(a, b, them deal) + win(b, a, us deal) = 1 for every state shown
    assert np.abs(them_deal + us_deal.T - 1).max() < 1e-9
    assert table.solve_error < 1e-9
    a, b = 7, -3
    assert table.win(a, b, "them").value + table.win(b, a, "us").value == pytest.approx(1, abs=1e-9)
    assert table.win_se_grid[1, lo:, lo:] == pytest.approx(table.win_se_grid[0, lo:, lo:].T)


def test_default_precision_and_truncation(default_table):
    assert default_table.hands == DEFAULT_HANDS
    assert default_table.win(0, 0, "them").se <= 0.002
    assert default_table.win_se_grid.max() <= 0.002  # every state, not only 0-0
    assert default_table.truncation_bound <= TRUNCATION_TOLERANCE
    assert default_table.floor == -40 and default_table.solve_floor < -40


# -- against direct simulation ---------------------------------------------------------------------------

# (us, them, dealing team): 0-0 both ways, 20-20, negative scores, near the end both ways, and in between.
STATES = [(0, 0, "them"), (0, 0, "us"), (20, 20, "them"), (20, 20, "us"), (-5, 19, "us"), (-12, -7, "them"),
          (15, 19, "them"), (19, 15, "them"), (18, 2, "us"), (3, 17, "them"), (10, 10, "us"), (-30, 5, "them")]
GAMES = 6000


@pytest.mark.parametrize(("us", "them", "dealer"), STATES)
def test_table_agrees_with_playing_games_from_the_state(default_table, us, them, dealer):
    """``simulate --games --start-scores US,THEM --dealer D`` (D = 3 when they deal, 2 when we do): team 0's win
    rate and hands per game agree with the table within 4 SE."""
    games = simulate_games(GAMES, seed=1000 + 100 * (us + 50) + them + 50, start_scores=(us, them),
                           dealer=3 if dealer == "them" else 2)
    rate = games.win_rate(0)
    expected = default_table.win(us, them, dealer)
    assert abs(rate.value - expected.value) <= 4 * math.hypot(rate.se, expected.se), (rate, expected)
    hands = games.hands_per_game
    d = scores.DEALERS.index(dealer)
    left = default_table.hands_left[d, us - default_table.solve_floor, them - default_table.solve_floor]
    assert abs(hands.value - left) <= 4 * hands.se + 0.02 * left, (hands, left)  # plus the table's own error


def test_table_with_thrown_in_hands_agrees_with_playing_games(short_table):
    for us, them, dealer in [(0, 0, "them"), (9, 9, "us"), (-6, 8, "them"), (5, -2, "us")]:
        games = simulate_games(GAMES, seed=7 + us, rules=short_table.rules, start_scores=(us, them),
                               dealer=3 if dealer == "them" else 2)
        assert games.counts[L.AGG_THROWN_IN] > 0
        rate, expected = games.win_rate(0), short_table.win(us, them, dealer)
        assert abs(rate.value - expected.value) <= 4 * math.hypot(rate.se, expected.se), (us, them, rate, expected)


# -- the standard errors -------------------------------------------------------------------------------------


def test_win_se_matches_the_spread_of_tables_from_independent_hands():
    """Tables from 24 independent samples of 20,000 hands: the spread of each state's win probability matches
    the delta-method SE (a sample SD from 24 values is within [0.6, 1.6] of the truth with probability 0.999)."""
    rules = Rules(target=11)
    states = [(0, 0, 1), (8, 9, 1), (-5, 6, 0), (10, 10, 0), (3, -8, 1)]
    values, errors = [], []
    for seed in range(24):
        outcomes = hand_outcomes(20_000, seed=900 + seed, rules=rules)
        table = match_equity(outcomes=outcomes, floor=-10)
        values.append([table.win_grid[d, a - table.solve_floor, b - table.solve_floor] for a, b, d in states])
        if seed < 3:
            errors.append([table.win_se_grid[d, a - table.solve_floor, b - table.solve_floor] for a, b, d in states])
    spread = np.std(values, axis=0, ddof=1)
    predicted = np.mean(errors, axis=0)
    assert np.all((spread > 0.6 * predicted) & (spread < 1.6 * predicted)), (spread, predicted)


def test_table_derivatives_two_ways_agree(short_table):
    """A combination's table-part variance from transposed solves equals the one from the full gradient."""
    joint = np.zeros((2, L.MAX_K, L.MAX_K))
    joint[0, 2, 1], joint[0, 4, 0], joint[0, 0, 3] = 50, 30, 20
    joint[1, 1, 2], joint[1, 3, 1] = 40, 60
    fresh = ME.EquityTable(short_table.outcomes, short_table.floor, short_table.win_grid, short_table.hands_left,
                          short_table.truncation, short_table.truncation_bound, short_table.solve_error,
                          short_table.chain)
    by_transpose = fresh.value_bids(joint, (4, 6))  # 2 rows x 4 calls: fewer than the outcomes
    assert "gradient" not in fresh.__dict__
    by_gradient = short_table.value_bids(joint, (4, 6))
    assert "gradient" in short_table.__dict__
    assert by_transpose.win_se.shape == (2, 3)
    assert by_transpose.win_se == pytest.approx(by_gradient.win_se, rel=1e-4)
    assert by_transpose.win == pytest.approx(by_gradient.win)


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("transpose", [False, True])
def test_the_chain_solves_the_same_on_any_number_of_threads(short_table, threads, transpose):
    """Each right-hand side is solved on its own, its share of them on each thread: the solutions, to the bit, and
    the residual do not depend on how many threads share them."""
    chain = short_table.chain
    rhs = short_table.outcome_values[:, :7]
    one_by_one = [chain.solve(rhs[:, [k]], transpose=transpose) for k in range(rhs.shape[1])]
    x, residual = chain.solve(rhs, transpose=transpose, threads=threads)
    assert np.array_equal(x, np.concatenate([solved for solved, _ in one_by_one], axis=1))
    assert residual == max(r for _, r in one_by_one)


def test_a_gradient_made_on_two_threads_is_the_one_made_on_one(short_table):
    fresh = ME.EquityTable(short_table.outcomes, short_table.floor, short_table.win_grid, short_table.hands_left,
                          short_table.truncation, short_table.truncation_bound, short_table.solve_error,
                          short_table.chain)
    assert np.array_equal(fresh.make_gradient(2), short_table.gradient)
    assert fresh.make_gradient(1) is fresh.gradient  # made once


# -- the floor -----------------------------------------------------------------------------------------------


def test_truncation_bound_covers_the_effect_of_the_floor():
    """Holding scores at a high floor changes each value by no more than its truncation probability."""
    outcomes = hand_outcomes(100_000, seed=3)
    exact = match_equity(outcomes=outcomes, floor=-20)
    for margin in (3, 8):
        chain = game_chain.build_chain(outcomes, 21, -20 - margin)
        cut = chain.solve(np.stack([chain.win @ chain.p], axis=1))[0][:, 0].reshape(2, chain.size, chain.size)
        bound = chain.truncation().reshape(2, chain.size, chain.size)
        shift = -20 - margin - exact.solve_floor
        true = exact.win_grid[:, shift:, shift:]
        assert np.all(np.abs(cut - true) <= bound + 1e-9)
        assert np.abs(cut - true).max() > 1e-5  # the check has teeth: the cut matters this close


# -- the solver ----------------------------------------------------------------------------------------------


def gamblers_ruin(n: int, up: float):
    """States 1..n-1 of a walk that steps up with probability ``up``, down otherwise, absorbed at 0 and n."""
    states = n - 1
    nxt = np.full((states, 2), -1, dtype=np.int32)
    for i in range(states):
        if i + 1 < states:
            nxt[i, 0] = i + 1
        if i > 0:
            nxt[i, 1] = i - 1
    rhs = np.zeros((2, states))
    rhs[0, states - 1] = up  # reaching n from n-1
    rhs[1] = 1.0  # expected steps to the end
    return nxt, np.array([[up, 1 - up]]), rhs


def test_solver_gives_the_gamblers_ruin_probabilities():
    n, up = 30, 0.45
    nxt, weights, rhs = gamblers_ruin(n, up)
    order = np.arange(n - 2, -1, -1)
    x, residual, sweeps = solve_chain(nxt, weights, rhs, order, 1e-14, 100_000)
    ratio = (1 - up) / up
    start = np.arange(1, n)
    assert x[0] == pytest.approx((1 - ratio ** start) / (1 - ratio ** n), abs=1e-10)  # P(reach n)
    steps = start / (1 - 2 * up) - n / (1 - 2 * up) * (1 - ratio ** start) / (1 - ratio ** n)
    assert x[1] == pytest.approx(steps, rel=1e-9)
    assert residual < 1e-12 and sweeps > 1
    per_state = np.repeat(weights, n - 1, axis=0)  # one row per state gives the same answer
    assert solve_chain(nxt, per_state, rhs, order, 1e-14, 100_000)[0] == pytest.approx(x, abs=1e-12)


def test_transposed_solver_is_the_adjoint():
    """u (I - P)^-1 v computed both ways."""
    n, up = 12, 0.6
    nxt, weights, rhs = gamblers_ruin(n, up)
    states = n - 1
    order = np.arange(states)
    rows = [np.flatnonzero(nxt[:, j] >= 0) for j in range(2)]
    targets = np.concatenate([nxt[r, j] for j, r in enumerate(rows)])
    sources = np.concatenate(rows)
    data = np.concatenate([np.full(len(r), weights[0, j]) for j, r in enumerate(rows)])
    by_target = np.argsort(targets, kind="stable")
    indptr = np.concatenate([[0], np.cumsum(np.bincount(targets, minlength=states))])
    rng = np.random.default_rng(1)
    u, v = rng.random(states), rng.random(states)
    x = solve_chain(nxt, weights, v[None, :], order, 1e-14, 100_000)[0][0]
    y = solve_transposed(indptr, sources[by_target].astype(np.int32), data[by_target], u[None, :], order, 1e-14,
                         100_000)[0][0]
    assert u @ x == pytest.approx(y @ v, rel=1e-10)


def test_solver_refuses_arrays_that_do_not_match():
    nxt, weights, rhs = gamblers_ruin(6, 0.5)
    with pytest.raises(ValueError, match="outside the states"):
        solve_chain(nxt + 10, weights, rhs, np.arange(5), 1e-9, 10)
    with pytest.raises(ValueError, match="must match"):
        solve_chain(nxt, weights, rhs, np.arange(4), 1e-9, 10)


# -- outcomes, scores and arguments ----------------------------------------------------------------------


def test_value_bids_follows_each_outcome_to_the_table(short_table):
    t = short_table
    joint = np.zeros((L.MAX_K, L.MAX_K))
    joint[3, 1] = 1  # always 3 points to 1
    wins = t.value_bids(joint, (2, 5))
    assert wins.calls == (3, 4, "moon")  # min_bid 3
    assert wins.win[0, 0] == pytest.approx(t.win(5, 6, "us").value)  # bid 3 made: 2+3, 5+1, we deal next
    assert wins.win[0, 1] == pytest.approx(t.win(-2, 6, "us").value)  # bid 4 set
    assert wins.win[0, 2] == 0  # the moon fails: the game is lost
    out = t.value_bids(joint, (8, 10))
    assert out.win[0, 0] == 1.0  # 8+3 reaches 11: the bidder goes out first though they reach 11 too
    assert out.win[0, 1] == 0  # set on 4, and they reach 11
    joint[:] = 0
    joint[4, 0] = 1  # every point: the moon succeeds
    assert t.value_bids(joint, (3, 9)).win[0, 2] == 1.0
    negative = t.value_bids(joint, (-4, 9))
    assert negative.win[0, 2] == pytest.approx(t.win(0, 9, "us").value)  # reset to 0, the game goes on
    assert negative.moon_success_win.value == pytest.approx(t.win(0, 9, "us").value)


def test_each_outcome_leads_where_the_chain_says(short_table):
    """outcome_wins (the kernels' outcome_after, which the equity bidder reads, from one score) and the chain of the
    solve (build_chain, the same rule over the whole grid) follow every outcome from every state to the same
    value."""
    t = short_table
    codes = t.outcomes.decoded["code"]
    size, floor = t.chain.size, t.solve_floor
    checked = 0
    for d, us, them in [(0, 0, 0), (1, 3, 9), (0, 10, 10), (1, -5, 8), (0, 9, -15), (1, 7, 10)]:
        state = (d * size + us - floor) * size + them - floor
        # the chain sees each outcome from the dealing team (d = 0: the team at ``us``); the next hand goes to the other
        score = (us, them) if d == 0 else (them, us)
        wins, flat = t.outcome_wins(score, "them")
        expected = t.outcome_values[state]
        got = wins[codes] if d == 0 else 1 - wins[codes]
        assert got == pytest.approx(expected, abs=1e-12)
        checked += len(codes)
    assert checked > 100
    points = HO.outcome_points(11)
    fields = HO.decode_outcomes(np.arange(L.N_OUTCOMES))
    numeric = fields["kind"] == 1
    assert (points[numeric] == np.where(fields["side"] == 0, 1, -1)[numeric]
            * (fields["delta"] - fields["other"])[numeric]).all()
    assert points[L.OUT_MOON_MADE] == 11 and points[L.OUT_MOON_FAILED] == -11 and points[L.OUT_THROWN_IN] == 0


def test_scores_of_a_game_in_progress_are_below_the_target():
    with pytest.raises(SmearError, match="below the target 21"):
        check_scores((21, 3), Rules())
    with pytest.raises(SmearError, match="--floor 30 must be below the target"):
        match_equity(10, floor=30)
    with pytest.raises(SmearError, match="single --policy"):
        hand_outcomes(10, policy="heuristic,random")


def test_equity_table_is_a_data_frame_of_every_state():
    import smear_sim as ss

    frame = ss.equity_table(20_000, seed=4, rules=Rules(target=7), floor=-5)
    assert list(frame.columns) == ["us", "them", "dealer", "win", "win_se", "hands_left"]
    assert len(frame) == 2 * 12 * 12 and frame["us"].min() == -5 and frame["them"].max() == 6
    assert frame.attrs["target"] == 7 and frame.attrs["truncation_bound"] <= TRUNCATION_TOLERANCE
    table = ss.match_equity(20_000, seed=4, rules=Rules(target=7), floor=-5)
    row = frame[(frame["us"] == 3) & (frame["them"] == -2) & (frame["dealer"] == "us")].iloc[0]
    assert (row["win"], row["win_se"]) == (table.win(3, -2, "us").value, table.win(3, -2, "us").se)


