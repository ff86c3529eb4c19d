"""The ``count`` player: it bids as the count says (smear_sim.core.count) and plays exactly like ``heuristic``."""

from __future__ import annotations

import numpy as np
import pytest

from smear_sim import duplicate_games
from smear_sim.core.bidder import no_bidder_arrays
from smear_sim.core.count import count_rule, situation_of
from smear_sim.core.layout import MOON, PASS
from smear_sim.core.players import FAST_POLICIES, POLICIES, policy_array, policy_code
from smear_sim.core.rules import Rules
from smear_sim.kernels import drivers
from smear_sim.kernels import players as kp
from smear_sim.kernels.players import count as kc
from smear_sim.kernels.rng import stream_key

RULES = Rules()


def test_count_is_a_player_compiled_only_where_it_plays():
    assert POLICIES[kp.COUNT] == "count" and "count" in FAST_POLICIES and policy_code("count") == kp.COUNT
    member = next(i for i, group in enumerate(kp.SEATED) if kp.COUNT in group)
    assert kp.seated_arg([kp.COUNT])[member] is True and kp.seated_arg([kp.HEURISTIC])[member] is None


@pytest.mark.parametrize("rules", [Rules(), Rules(round_points=True)], ids=["default", "round_points"])
def test_the_kernel_counts_and_calls_as_the_count_says(rules):
    rule = count_rule(rules)
    assert rule is not None  # a count ships for both rule sets
    m, variant = rules.max_points, int(rules.round_points)
    rng = np.random.default_rng(11)
    state = np.array([stream_key(np.uint64(1), np.uint64(0))], dtype=np.uint64)
    array = rules.to_array()
    bands = [0, *rule.bands]
    for _ in range(3000):
        cards = rng.choice(54, 9, replace=False)
        hand = sum(1 << int(c) for c in cards)
        points, suit = rule.count(hand)
        assert tuple(kc.hand_count(np.uint64(hand), variant)) == (points, suit)
        place = int(rng.integers(0, 4))
        calls, standing = [], 0
        for p in range(place):
            call = int(rng.integers(2, 4)) if p == 0 else int(rng.choice([PASS, min(standing + 1, m), MOON]))
            if MOON in calls or (call not in (PASS, MOON) and call <= standing):
                call = PASS
            calls.append(call)
            standing = max(standing, call if call != MOON else 0)
        if MOON in calls:
            continue
        us, them = (int(rng.choice(bands)) + int(rng.integers(0, 2)) for _ in range(2))
        codes = np.zeros(4, dtype=np.int64)
        codes[:place] = calls
        got = kc.bid(state, np.uint64(hand), 0, 3, codes, place, us, them, max(2, standing + 1), m, True, place == 0,
                     array, m)
        slot = rule.call(points, place, situation_of(calls), us, them)
        assert got == (PASS if slot == 0 else MOON if slot == m + 1 else slot)


def test_it_plays_exactly_like_heuristic():
    """As declarer with no auction (the bid tables' view) the two players win the same points on the same deals:
    the same trump, discards and cards."""
    counts = {}
    for name in ("count", "heuristic"):
        codes = policy_array((name, name))
        counts[name] = drivers.analyze_hands(np.uint64(5), 0, 3000, 2, RULES.to_array(), codes, no_bidder_arrays(),
                                             np.uint64(0), -1, False, drivers.seated_arg(codes)).sum(axis=0)
    assert counts["count"].any() and np.array_equal(counts["count"], counts["heuristic"])


def test_matches_are_deterministic():
    one = duplicate_games("count", "heuristic", games=60, seed=3, threads=1)
    two = duplicate_games("count", "heuristic", games=60, seed=3, threads=2)
    assert np.array_equal(one.counts, two.counts) and one.wins > 0


def test_its_bid_takes_the_arguments_of_every_player():
    import inspect

    from smear_sim.kernels.players import heuristic

    assert list(inspect.signature(kc.bid.py_func).parameters) == \
        list(inspect.signature(heuristic.bid.py_func).parameters)
