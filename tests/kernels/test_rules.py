"""What the kernels read from the rules array is what the rules say (core/rules.py): the facts that follow from the
options (Rules.derived_facts, after the options in Rules.to_array) and the calls a seat may make, under every
combination of the options."""

from __future__ import annotations

import itertools

import numpy as np

from smear_sim.core import layout as L
from smear_sim.core.rules import ForcedBid, Rules, legal_slots
from smear_sim.kernels import scoring as ksc
from smear_sim.kernels.players import equity
from smear_sim.kernels.players.bids import legal_calls
from smear_sim.reference import hand as ref

from ..core.test_rules import all_rule_combinations


def test_every_derived_slot_holds_what_the_rules_give():
    for rules in all_rule_combinations():
        array = rules.to_array()
        assert array[L.R_POINTS_AT_STAKE] == rules.max_points == len(rules.points)
        assert Rules.from_array(array) == rules


def test_the_kernels_score_the_points_at_stake_and_no_other():
    # one team plays and takes every card: it wins every point at stake, and the points not at stake go to nobody
    everything = np.uint64(2**54 - 1)
    none = np.uint64(0)
    for rules in all_rule_combinations(targets=(21,)):
        rec = np.zeros(L.REC_SIZE, dtype=np.int64)
        n_points = ksc.award_points(rec, rules.to_array(), 0, everything, none, everything, none)
        assert n_points == rules.max_points
        stake = len(rules.points)
        assert rec[L.REC_AWARDS: L.REC_AWARDS + stake].tolist() == [0] * stake
        assert rec[L.REC_AWARDS + stake: L.REC_AWARDS + L.N_POINTS].tolist() == [-1] * (L.N_POINTS - stake)
        assert rec[L.REC_POINTS: L.REC_POINTS + 2].tolist() == [rules.max_points, 0]


def _code(call: ref.Bid) -> int:
    return L.PASS if call == ref.PASS else L.MOON if call == ref.MOON else int(call)


def test_the_kernels_legal_calls_are_the_reference_engines():
    checked = 0
    for round_points, forced, moon in itertools.product((False, True), ForcedBid, (False, True)):
        for min_bid in range(1, (7 if round_points else 4) + 1):
            rules = Rules(round_points=round_points, forced_bid=forced, moon=moon, min_bid=min_bid)
            array = rules.to_array()
            stack: list[tuple[ref.Bid, ...]] = [()]
            while stack:
                auction = stack.pop()
                expected = {_code(call) for call in ref.legal_bids(rules, auction)}
                calls = np.array([_code(call) for call in auction] + [0] * (4 - len(auction)), dtype=np.int64)
                low, high, moon_ok, must, moon_called = legal_calls(array, len(auction), calls)
                got = set() if must else {L.PASS}
                if not moon_called:
                    got |= set(range(low, high + 1)) | ({L.MOON} if moon_ok else set())
                assert got == expected, (rules, auction)
                checked += 1
                if len(auction) < 3:
                    stack.extend((*auction, call) for call in ref.legal_bids(rules, auction))
    assert checked > 4_000


def test_the_kernels_call_slots_and_situations_are_those_of_the_rules():
    for round_points in (False, True):
        rules = Rules(round_points=round_points, forced_bid="none", moon=False, min_bid=1)
        stake = rules.to_array()[L.R_POINTS_AT_STAKE]
        calls = [L.PASS, *range(1, rules.max_points + 1), L.MOON]
        assert [equity.slot_of(call, stake) for call in calls] == list(range(rules.n_call_slots))
        assert [equity.call_of(slot, stake) for slot in range(rules.n_call_slots)] == calls
        seen = set()
        stack: list[tuple[ref.Bid, ...]] = [()]
        while stack:
            auction = stack.pop()
            codes = np.array([_code(call) for call in auction] + [0] * (4 - len(auction)), dtype=np.int64)
            situation = equity.situation(codes, len(auction))
            seen.add(situation)
            legal = legal_slots(rules, len(auction), situation)
            assert {calls[slot] for slot in np.flatnonzero(legal)} == {_code(c) for c in ref.legal_bids(rules, auction)}
            if len(auction) < 3:
                stack.extend((*auction, call) for call in ref.legal_bids(rules, auction))
        assert seen == set(range(rules.n_situations))
