"""Counter-based random streams: SplitMix64 keyed by ``(seed, hand index)``.

Each hand draws from its own stream, ``mix(key + k * GOLDEN)`` for k = 1, 2, ..., where the key mixes the
seed with the hand's index. A hand's random numbers therefore depend on nothing but the seed and its index,
so thread count and chunking cannot change any result.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import ZERO, bit, nth_card, popcount

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_STREAM = np.uint64(0xD1B54A32D192ED03)


@njit(cache=True, inline="always")
def mix64(z):
    """The SplitMix64 finaliser: a bijection on uint64 with full avalanche."""
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def stream_key(seed, index):
    """The starting state of hand ``index``'s stream under ``seed``."""
    return mix64(mix64(np.uint64(seed)) ^ (np.uint64(index) * _STREAM + GOLDEN))


@njit(cache=True, inline="always")
def next_u64(state):
    """Advance ``state`` (a 1-element uint64 array) and return 64 random bits."""
    state[0] += GOLDEN
    return mix64(state[0])


@njit(cache=True, inline="always")
def below(state, n):
    """A uniform integer in [0, n), for n < 2**11 (bias below 2**-42)."""
    return np.int64(((next_u64(state) >> np.uint64(11)) * np.uint64(n)) >> np.uint64(53))


@njit(cache=True, inline="always")
def random_subset(state, cards, k):
    """A uniform ``k``-card subset of the mask ``cards`` (the random player's discards, and the sampled worlds'
    deals)."""
    chosen = ZERO
    remaining = cards
    for _ in range(k):
        c = nth_card(remaining, below(state, popcount(remaining)))
        chosen |= bit(c)
        remaining &= ~bit(c)
    return chosen
