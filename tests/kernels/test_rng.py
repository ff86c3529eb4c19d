"""The counter-based random streams (kernels/rng.py) and the bit tricks (kernels/bits.py).

The generator is pinned to the published SplitMix64 test vector, and the kernels are checked against
plain-Python versions: SplitMix64 written out with Python integers, and bit counting with ``int.bit_count``. Uniformity checks state their tolerance in standard errors: a bucket
count of a Binomial(N, p) has SE sqrt(N p (1 - p)).
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from smear_sim.kernels import bits, rng

M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
M1 = 0xBF58476D1CE4E5B9
M2 = 0x94D049BB133111EB
STREAM = 0xD1B54A32D192ED03


# -- plain-Python SplitMix64 ------------------------------------------------------------------------------


def py_mix64(z: int) -> int:
    z = (z ^ (z >> 30)) * M1 & M64
    z = (z ^ (z >> 27)) * M2 & M64
    return z ^ (z >> 31)


def py_stream_key(seed: int, index: int) -> int:
    return py_mix64(py_mix64(seed) ^ ((index * STREAM + GOLDEN) & M64))


def py_stream(seed: int, index: int, n: int) -> list[int]:
    state = py_stream_key(seed, index)
    out = []
    for _ in range(n):
        state = (state + GOLDEN) & M64
        out.append(py_mix64(state))
    return out


def py_below(u64: int, n: int) -> int:
    return ((u64 >> 11) * n) >> 53


def state_for(seed: int, index: int) -> np.ndarray:
    return np.array([rng.stream_key(np.uint64(seed), np.uint64(index))], dtype=np.uint64)


SEEDS = [0, 1, 2, 12345, 2**63 - 1, 2**63, 2**64 - 1]


def test_next_u64_is_splitmix64_by_its_published_test_vector():
    """Vigna's reference splitmix64.c seeded with 0 gives these first outputs. ``next_u64`` is its ``next()``:
    it adds the golden gamma to the state, then mixes (``mix64`` alone is only the finaliser, and maps 0 to 0)."""
    state = np.zeros(1, dtype=np.uint64)
    assert [int(rng.next_u64(state)) for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4,
                                                             0x06C45D188009454F]
    assert int(state[0]) == 3 * GOLDEN & M64


@pytest.mark.parametrize("z", [0, 1, 2, GOLDEN, 2**63, M64, 0x0123456789ABCDEF])
def test_mix64_matches_python(z):
    assert int(rng.mix64(np.uint64(z))) == py_mix64(z)


@pytest.mark.parametrize("seed", SEEDS)
def test_stream_key_and_draws_match_python(seed):
    for index in (0, 1, 7, 1000, 2**40 + 3):
        assert int(rng.stream_key(np.uint64(seed), np.uint64(index))) == py_stream_key(seed, index)
        state = state_for(seed, index)
        expected = py_stream(seed, index, 5)
        assert [int(rng.next_u64(state)) for _ in range(5)] == expected


def test_below_matches_python_formula_and_stays_in_range():
    state = state_for(3, 9)
    shadow = py_stream_key(3, 9)
    for n in [1, 2, 3, 4, 13, 45, 54, 2047] * 25:
        shadow = (shadow + GOLDEN) & M64
        value = int(rng.below(state, n))
        assert value == py_below(py_mix64(shadow), n)
        assert 0 <= value < n


def test_stream_keys_differ_across_indices_and_seeds():
    keys = {int(rng.stream_key(np.uint64(seed), np.uint64(i))) for seed in (0, 1, 2**64 - 1) for i in range(5000)}
    assert len(keys) == 3 * 5000
    # Neighbouring indices give unrelated keys: about half of the 64 bits differ (avalanche).
    flips = [(py_stream_key(1, i) ^ py_stream_key(1, i + 1)).bit_count() for i in range(2000)]
    mean = sum(flips) / len(flips)
    # Each flip count is Binomial(64, 1/2): SE of the mean is sqrt(16 / 2000).
    assert abs(mean - 32) < 4 * math.sqrt(16 / len(flips))


@pytest.mark.parametrize("n", [2, 6, 13])
def test_below_is_uniform_within_one_stream(n):
    draws = 30_000
    state = state_for(11, 5)
    counts = np.bincount([rng.below(state, n) for _ in range(draws)], minlength=n)
    p = 1 / n
    se = math.sqrt(draws * p * (1 - p))  # binomial SE of one bucket's count
    assert counts.sum() == draws
    assert np.all(np.abs(counts - draws * p) < 4 * se), counts


def test_first_draws_of_consecutive_streams_are_uniform():
    """Hands use streams of consecutive indices: their first draws must not be related."""
    n, streams = 10, 20_000
    counts = np.zeros(n, dtype=np.int64)
    for i in range(streams):
        counts[rng.below(state_for(1, i), n)] += 1
    se = math.sqrt(streams * 0.1 * 0.9)
    assert np.all(np.abs(counts - streams / n) < 4 * se), counts


# -- bits ---------------------------------------------------------------------------------------------------


def random_masks(count: int, seed: int = 5) -> list[int]:
    r = random.Random(seed)
    masks = [0, 1, 1 << 53, (1 << 54) - 1]
    masks += [sum(1 << c for c in r.sample(range(54), r.randint(1, 54))) for _ in range(count)]
    return masks


def test_popcount_matches_python():
    for mask in random_masks(300):
        assert bits.popcount(np.uint64(mask)) == mask.bit_count()


def test_lowest_card_matches_python():
    for mask in random_masks(300):
        if mask:
            assert bits.lowest_card(np.uint64(mask)) == (mask & -mask).bit_length() - 1


def test_nth_card_matches_python():
    for mask in random_masks(100):
        cards = [c for c in range(54) if mask >> c & 1]
        for n, c in enumerate(cards):
            assert bits.nth_card(np.uint64(mask), n) == c


def test_bit_and_has():
    for c in range(54):
        assert int(bits.bit(c)) == 1 << c
    for mask in random_masks(30):
        for c in range(54):
            assert bool(bits.has(np.uint64(mask), c)) == bool(mask >> c & 1)
