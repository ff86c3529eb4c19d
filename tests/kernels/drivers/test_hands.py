"""The drivers of single hands (kernels/drivers/hands.py): exact deal statistics, consistency between drivers
and blocks.

Deal statistics are checked against exact probabilities computed with ``math.comb``. Each check states
its tolerance in standard errors (SE) of the observed quantity, computed under the exact distribution:
a count of successes in N independent hands is Binomial(N, p) with SE sqrt(N p (1 - p)). The traces
are read as raw ``int64`` arrays straight from ``drivers.trace_hands`` (offsets from ``smear_sim.layout``),
which is much faster than building JSON records.
"""

from __future__ import annotations

import math
from math import comb

import numpy as np
import pytest

from smear_sim import simulate
from smear_sim.core import layout as L
from smear_sim.core.bidder import no_bidder_arrays
from smear_sim.core.players import parse_policies, policy_array
from smear_sim.core.rules import Rules
from smear_sim.core.tables import MISDEAL_MASK
from smear_sim.kernels import drivers
from smear_sim.kernels.drivers import seated_arg
from smear_sim.kernels.drivers.hands import DEAL_MIX, DEAL_REDEALS

NO_MODEL = no_bidder_arrays()  # no equity bidder: the kernels' bidder_arrays argument, empty

N_HANDS = 200_000
CHUNK = 50_000  # traces are ~1 KB a hand: read them in chunks
IS_LOW = np.array([bool(MISDEAL_MASK >> c & 1) for c in range(54)])  # ranks 3-9


def trace_raw(count: int, *, seed: int = 1, rules: Rules | None = None, policies: str = "random",
              start: int = 0) -> np.ndarray:
    """Raw kernel records ``[count, REC_SIZE]`` of hands ``start .. start+count-1``."""
    codes = policy_array(parse_policies(policies))
    return drivers.trace_hands(np.uint64(seed), start, count, (rules or Rules()).to_array(), codes, NO_MODEL,
                               seated_arg(codes))


def seats(records: np.ndarray) -> np.ndarray:
    """The dealt hands, ``[hands, 4 seats, 9 cards]``."""
    return records[:, L.REC_HANDS: L.REC_HANDS + 36].reshape(-1, 4, 9)


# -- exact deal statistics (misdeal=false: every deal stands) ---------------------------------------------


@pytest.fixture(scope="module")
def open_deals():
    """Counts over N_HANDS deals with misdeal=false."""
    kitty = np.zeros(54, dtype=np.int64)
    joker = np.zeros(4, dtype=np.int64)
    low = np.zeros(4, dtype=np.int64)
    for start in range(0, N_HANDS, CHUNK):
        recs = trace_raw(CHUNK, seed=2024, rules=Rules(misdeal=False), start=start)
        assert np.all(recs[:, L.REC_MISDEALS] == 0)
        kitty += np.bincount(recs[:, L.REC_KITTY: L.REC_KITTY + 4].ravel(), minlength=54)
        hands = seats(recs)
        joker += (hands >= 52).any(axis=2).sum(axis=0)
        low += IS_LOW[hands].all(axis=2).sum(axis=0)
    return {"kitty": kitty, "joker": joker, "low": low}


def binomial_se(n: int, p: float) -> float:
    return math.sqrt(n * p * (1 - p))


def test_each_card_is_in_the_kitty_with_probability_4_in_54(open_deals):
    p = 4 / 54
    se = binomial_se(N_HANDS, p)  # SE of one card's kitty count
    deviations = (open_deals["kitty"] - N_HANDS * p) / se
    assert open_deals["kitty"].sum() == 4 * N_HANDS
    # 54 cards at once: 5 SE keeps the chance of a false alarm below 54 * 5.7e-7 (Bonferroni).
    assert np.all(np.abs(deviations) < 5), deviations


def test_a_seat_holds_a_joker_with_the_exact_probability(open_deals):
    p = 1 - comb(52, 9) / comb(54, 9)  # about 0.31
    se = binomial_se(N_HANDS, p)
    for seat in range(4):
        assert abs(open_deals["joker"][seat] - N_HANDS * p) < 4 * se, (seat, open_deals["joker"][seat], N_HANDS * p)


def test_a_seat_is_dealt_only_ranks_3_to_9_with_the_exact_probability(open_deals):
    p = comb(28, 9) / comb(54, 9)  # 28 cards of ranks 3-9; about 0.0013
    se = binomial_se(N_HANDS, p)
    for seat in range(4):
        assert abs(open_deals["low"][seat] - N_HANDS * p) < 4 * se, (seat, open_deals["low"][seat], N_HANDS * p)


def p_seats_all_low(k: int) -> float:
    """P(k given seats are all dealt only ranks 3-9): the hands are disjoint, so draw them one after another."""
    p = 1.0
    for i in range(k):
        p *= comb(28 - 9 * i, 9) / comb(54 - 9 * i, 9)
    return p


def test_mean_redeals_with_misdeals_is_q_over_1_minus_q():
    """With misdeal=true a deal is redealt while any seat may call a misdeal.

    q = P(at least one of the 4 seats is all ranks 3-9), by inclusion-exclusion over the seats. The number
    of redeals R is geometric, P(R = r) = q^r (1 - q), so E[R] = q / (1 - q) and Var[R] = q / (1 - q)^2;
    the SE of the mean of N hands is sqrt(Var[R] / N).
    """
    q = sum((-1) ** (k + 1) * comb(4, k) * p_seats_all_low(k) for k in range(1, 5))
    expected = q / (1 - q)
    se = math.sqrt(q / (1 - q) ** 2 / N_HANDS)
    rules = Rules(misdeal=True)
    redeals = 0
    for start in range(0, N_HANDS, CHUNK):
        recs = trace_raw(CHUNK, seed=77, rules=rules, start=start)
        redeals += int(recs[:, L.REC_MISDEALS].sum())
        assert not IS_LOW[seats(recs)].all(axis=2).any(), "a final deal lets a seat call a misdeal"
    assert abs(redeals / N_HANDS - expected) < 4 * se, (redeals / N_HANDS, expected, se)
    # The streamed simulation deals the same hands from the same streams, so it counts the same redeals.
    assert simulate(N_HANDS, seed=77, rules=rules, policies="random").to_json()["misdeals"] == redeals


def test_dealer_rotates_and_the_auction_starts_left_of_the_dealer():
    start = 12_345
    for rules in (Rules(), Rules(forced_bid="dealer"), Rules(forced_bid="none")):
        recs = trace_raw(4000, seed=5, rules=rules, start=start)
        dealer = recs[:, L.REC_DEALER]
        assert np.array_equal(dealer, (start + np.arange(4000)) % 4)
        bids = recs[:, L.REC_BIDS: L.REC_BIDS + 4]
        played = recs[:, L.REC_BIDDER] >= 0
        # The bidder made the last call that was not a pass; calls are in order from seat dealer + 1.
        last = 3 - np.argmax((bids != L.PASS)[:, ::-1], axis=1)
        assert np.array_equal(recs[played, L.REC_BIDDER], ((dealer + 1 + last) % 4)[played])
        assert np.all((bids != L.PASS).any(axis=1) == played)
        if rules.forced_bid == "opener":
            assert np.all(bids[:, 0] != L.PASS)  # the opener, dealer + 1, must bid
        if rules.forced_bid == "dealer":
            stuck = np.all(bids[:, :3] == L.PASS, axis=1)
            assert stuck.any()
            assert np.all(recs[stuck, L.REC_BIDDER] == dealer[stuck])
        if rules.forced_bid == "none":
            assert (~played).any()  # random players all pass now and then


# -- consistency between the drivers ---------------------------------------------------------------------------


def aggregate(recs: np.ndarray) -> np.ndarray:
    """The AGG_* counts of kernels._accumulate, recomputed with NumPy from full records."""
    agg = np.zeros(L.AGG_SIZE, dtype=np.int64)
    agg[L.AGG_HANDS] = len(recs)
    agg[L.AGG_MISDEALS] = recs[:, L.REC_MISDEALS].sum()
    points = recs[:, L.REC_POINTS: L.REC_POINTS + 2]
    delta = recs[:, L.REC_DELTA: L.REC_DELTA + 2]
    for team in range(2):
        agg[L.AGG_POINTS + team] = points[:, team].sum()
        agg[L.AGG_POINTS_SQ + team] = (points[:, team] ** 2).sum()
        agg[L.AGG_DELTA + team] = delta[:, team].sum()
        agg[L.AGG_DELTA_SQ + team] = (delta[:, team] ** 2).sum()
    agg[L.AGG_MARGIN_SQ] = ((delta[:, 0] - delta[:, 1]) ** 2).sum()
    played = recs[:, L.REC_BIDDER] >= 0
    agg[L.AGG_THROWN_IN] = (~played).sum()
    r = recs[played]
    team = r[:, L.REC_BIDDER] & 1
    bid = r[:, L.REC_BID]
    own = np.where(team == 0, r[:, L.REC_POINTS], r[:, L.REC_POINTS + 1])
    agg[L.AGG_BIDS: L.AGG_BIDS + 9] = np.bincount(bid, minlength=9)
    agg[L.AGG_MADE: L.AGG_MADE + 9] = np.bincount(bid, weights=r[:, L.REC_MADE], minlength=9)
    agg[L.AGG_BID_POINTS: L.AGG_BID_POINTS + 9] = np.bincount(bid, weights=own, minlength=9)
    agg[L.AGG_BIDDER_TEAM: L.AGG_BIDDER_TEAM + 2] = np.bincount(team, minlength=2)
    agg[L.AGG_TRUMP: L.AGG_TRUMP + 4] = np.bincount(r[:, L.REC_TRUMP], minlength=4)
    for i in range(L.N_POINTS):
        winner = r[:, L.REC_AWARDS + i]
        agg[L.AGG_AWARD_BIDDER + i] = (winner == team).sum()
        agg[L.AGG_AWARD_OTHER + i] = ((winner >= 0) & (winner != team)).sum()
        agg[L.AGG_AWARD_NONE + i] = (winner < 0).sum()
    moon = bid == L.MOON
    agg[L.AGG_MOON_TRIES: L.AGG_MOON_TRIES + 2] = np.bincount(team[moon], minlength=2)
    agg[L.AGG_MOON_MADE: L.AGG_MOON_MADE + 2] = np.bincount(team[moon], weights=r[moon, L.REC_MOON], minlength=2)
    winner = r[:, L.REC_WINNER]
    agg[L.AGG_GAME_WINS: L.AGG_GAME_WINS + 2] = np.bincount(winner[winner >= 0], minlength=2)
    return agg


CONSISTENCY = {
    "defaults-heuristic": (Rules(), "heuristic"),
    "defaults-random": (Rules(), "random"),
    "combined-mixed": (Rules(round_points=True, forced_bid="none", low_to="taker", moon_requires="in_play",
                             min_bid=1, target=5), "heuristic,random"),
}


@pytest.mark.parametrize("name", list(CONSISTENCY))
def test_simulate_hands_counts_what_trace_hands_plays(name):
    """The streamed counts are exactly the sums over the traced hands, for any number of blocks."""
    rules, policies = CONSISTENCY[name]
    n = 6000
    recs = trace_raw(n, seed=9, rules=rules, policies=policies)
    expected = aggregate(recs)
    codes = policy_array(parse_policies(policies))
    for n_blocks in (1, 3, 8):
        got = drivers.simulate_hands(np.uint64(9), 0, n, n_blocks, rules.to_array(), codes, NO_MODEL,
                                     seated_arg(codes)).sum(axis=0)
        assert np.array_equal(got, expected), n_blocks


def test_simulate_hands_splits_over_start_and_count():
    rules = Rules().to_array()
    codes = policy_array(("heuristic", "heuristic"))
    whole = drivers.simulate_hands(np.uint64(4), 0, 3000, 2, rules, codes, NO_MODEL, seated_arg(codes)).sum(axis=0)
    parts = sum(drivers.simulate_hands(np.uint64(4), s, c, 2, rules, codes, NO_MODEL, seated_arg(codes)).sum(axis=0)
                for s, c in [(0, 1), (1, 999), (1000, 2000)])
    assert np.array_equal(whole, parts)


def test_trace_hands_start_gives_the_same_hands():
    rules = Rules()
    whole = trace_raw(300, seed=3, rules=rules, policies="heuristic")
    assert np.array_equal(trace_raw(100, seed=3, rules=rules, policies="heuristic", start=150), whole[150:250])


def test_deal_only_is_independent_of_blocks_and_counts_the_same_redeals():
    rules = Rules().to_array()
    results = []
    for n_blocks in (1, 2, 5):
        acc = drivers.deal_only(np.uint64(6), 0, 50_000, n_blocks, rules)
        results.append((int(np.bitwise_xor.reduce(acc[:, DEAL_MIX])), int(acc[:, DEAL_REDEALS].sum())))
    assert len(set(results)) == 1
    assert results[0][1] == simulate(50_000, seed=6, policies="random").to_json()["misdeals"]
