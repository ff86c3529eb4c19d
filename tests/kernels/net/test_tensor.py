"""The view tensor's compiled twin (smear_sim/kernels/net/tensor.py): equal to the readable form byte for byte at
every decision, and blind to what the seat cannot see."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smear_sim.analysis.simulate import trace_records
from smear_sim.core.layout import ST_BIDDER, ST_HANDS, ST_KNOWN, ST_PLAYED, ST_SIZE
from smear_sim.core.rules import Rules
from smear_sim.core.view_layout import DECISION_CARD, VT_SIZE
from smear_sim.kernels.net import new_work, write_view_tensor
from smear_sim.kernels.state import sample_world
from smear_sim.reference.record import parse_record
from smear_sim.reference.view_tensor import view_tensor
from tests.random_hands import random_record
from tests.view_tensor_cases import kernel_decisions, reference_decisions

# The rule sets whose options change the tensor or the hands it is read on: the rules block reads every option, and
# round points, the High/Low variants, low to the taker and trump_anytime change the points and the voids fields.
RULE_SETS = {
    "defaults": Rules(),
    "round_points": Rules(round_points=True),
    "variants": Rules(round_points=True, high="highest", low="lowest", low_to="taker", forced_bid="dealer",
                      moon_requires="in_play", trump_anytime=True, min_bid=1, target=11),
    "trump_anytime": Rules(trump_anytime=True, forced_bid="none", moon=False, misdeal=False, target=50),
}


def _kernel_tensor(hs: np.ndarray, seat: int, kitty, rules_array: np.ndarray) -> tuple[np.ndarray, int]:
    out = np.full(VT_SIZE, np.nan, dtype=np.float32)  # every entry must be written
    decision = write_view_tensor(out, hs, np.int64(seat), np.uint64(kitty), rules_array, new_work())
    return out, int(decision)


def _records(rules: Rules, policies: str, count: int, seed: int) -> list:
    """``count`` kernel-played hand records, with the scores before each hand varied (the views never check the
    calls against them)."""
    rng = random.Random(seed)
    records = []
    for obj in trace_records(count, seed=seed, rules=rules, policies=policies):
        obj["scores_before"] = [rng.randint(-20, rules.target - 1), rng.randint(-20, rules.target - 1)]
        records.append(parse_record(obj))
    return records


def assert_forms_equal(record) -> int:
    """The two forms give the same bytes at every decision of ``record``; returns the decisions compared."""
    rules_array = record.rules.to_array()
    expected = list(reference_decisions(record))
    n = 0
    for (label, view), (k_label, seat, hs, kitty) in zip(expected, kernel_decisions(record, rules_array),
                                                         strict=True):
        assert label == k_label and view.seat == seat
        got, _ = _kernel_tensor(hs, seat, kitty, rules_array)
        want = view_tensor(view)
        assert got.tobytes() == want.tobytes(), (label, seat, np.flatnonzero(got != want))
        n += 1
    return n


@pytest.mark.parametrize("preset", sorted(RULE_SETS))
@pytest.mark.parametrize("policies", ["heuristic", "random", "heuristic,random"])
def test_the_two_forms_are_equal_at_every_decision_of_kernel_played_hands(preset, policies):
    rules = RULE_SETS[preset]
    records = _records(rules, policies, 12, seed=470 + len(preset))
    compared = sum(assert_forms_equal(record) for record in records)
    assert compared >= 12 * 4  # the calls at least; most hands add trump, 4 keeps and 24 cards


@settings(max_examples=15, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), preset=st.sampled_from(sorted(RULE_SETS)))
def test_the_two_forms_are_equal_on_random_legal_hands(seed, preset):
    """Hands whose every choice is uniform among the legal ones (tests/random_hands.py): moons, low bids, odd
    discards and plays a policy would not make."""
    rng = random.Random(seed)
    for _ in range(3):
        assert_forms_equal(parse_record(random_record(RULE_SETS[preset], rng)))


def _hide_differently(hs: np.ndarray, seat: int, rng: np.ndarray, world: np.ndarray, decision: int,
                      draw: random.Random) -> None:
    """Write into ``world`` a state that is the same as ``hs`` to ``seat``: during play a world of the sampler
    (kernels/state.py), the other seats' hands re-dealt from the cards the seat has not seen; before play the other
    seats' hands filled with cards it has not seen. Either way the other seats' ``known`` cards are made up."""
    if decision == DECISION_CARD:
        sample_world(hs, np.int64(seat), rng, world)
    else:
        world[:] = hs
        pool = [c for c in range(54) if not (int(hs[ST_HANDS + seat]) >> c) & 1]
        draw.shuffle(pool)
        for s in range(4):
            if s != seat:
                world[ST_HANDS + s] = sum(1 << c for c in pool[9 * s: 9 * s + 9])
    for s in range(4):
        if s != seat:
            extra = draw.getrandbits(54) & ~int(world[ST_HANDS + seat])
            world[ST_KNOWN + s] = np.int64(int(world[ST_HANDS + s]) | int(world[ST_PLAYED + s]) | (extra & (2**54 - 1)))


@pytest.mark.parametrize("preset", ["defaults", "variants"])
def test_two_states_the_same_to_the_seat_give_the_same_tensor(preset):
    """The view invariance: re-deal every card the seat has not seen (and the kitty, unless it is the bidder) and
    the tensor keeps every byte."""
    rules = RULE_SETS[preset]
    rules_array = rules.to_array()
    draw = random.Random(47)
    rng = np.array([np.uint64(4747)], dtype=np.uint64)
    world = np.zeros(ST_SIZE, dtype=np.int64)
    checked = 0
    for record in _records(rules, "heuristic,random", 8, seed=471):
        for label, seat, hs, kitty in kernel_decisions(record, rules_array):
            before, decision = _kernel_tensor(hs, seat, kitty, rules_array)
            for _ in range(2):
                _hide_differently(hs, seat, rng, world, decision, draw)
                other_kitty = kitty if hs[ST_BIDDER] == seat else np.uint64(draw.getrandbits(54))
                after, _ = _kernel_tensor(world, seat, other_kitty, rules_array)
                assert after.tobytes() == before.tobytes(), (label, seat)
                checked += 1
    assert checked > 100


def test_the_tensor_sees_what_the_seat_sees():
    """The other way round: a change the seat can see changes the tensor (its own hand, the kitty it took)."""
    rules = Rules()
    rules_array = rules.to_array()
    record = next(r for r in _records(rules, "heuristic", 5, seed=472) if r.trump is not None)
    for label, seat, hs, kitty in kernel_decisions(record, rules_array):
        if label == "trump":
            before, _ = _kernel_tensor(hs, seat, kitty, rules_array)
            changed, _ = _kernel_tensor(hs, seat, np.uint64(0), rules_array)
            assert before.tobytes() != changed.tobytes()  # the bidder saw the kitty
            world = hs.copy()
            world[ST_HANDS + seat] = np.int64(int(hs[ST_HANDS + seat]) ^ 1)
            assert _kernel_tensor(world, seat, kitty, rules_array)[0].tobytes() != before.tobytes()
            break


def test_the_twin_is_compiled_without_reference_counting():
    """No allocation in the hot path: Numba refuses to compile one in a NO_REFCOUNT function (kernels/borrow.py). That
    it overwrites every entry of the caller's array is checked above: the arrays it writes start as NaN."""
    assert write_view_tensor.targetoptions.get("_nrt") is False
