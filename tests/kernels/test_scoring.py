"""Scoring (kernels/scoring.py) against the reference engine: card points, awards and the settlement of a
hand, including scores before the hand (which simulations never vary, so the moon-from-a-negative-score
and target rules are exercised here), and the search objective of a finished hand state."""

from __future__ import annotations

import random

import numpy as np
import pytest
from random_hands import random_record

from smear_sim.core import layout as L
from smear_sim.core.cards import mask_of
from smear_sim.core.layout import MOON
from smear_sim.core.rules import Rules
from smear_sim.core.tables import CARD_POINTS
from smear_sim.kernels import scoring as ksc
from smear_sim.reference import hand as ref
from smear_sim.reference.record import parse_record, replay

from .test_hand import RULE_SETS


def test_card_points_matches_the_table():
    r = random.Random(2)
    for _ in range(300):
        cards = r.sample(range(54), r.randint(0, 24))
        assert ksc.card_points(np.uint64(mask_of(cards))) == sum(int(CARD_POINTS[c]) for c in cards)


# -- awards and settlement --------------------------------------------------------------------------------


def _masks(result) -> tuple[int, int, int, int]:
    played, taken = [0, 0], [0, 0]
    for trick in result.tricks:
        for i, c in enumerate(trick.cards):
            played[ref.team_of(trick.seat_of(i))] |= 1 << c
            taken[ref.team_of(trick.winner)] |= 1 << c
    return played[0], played[1], taken[0], taken[1]


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_award_points_and_settle_match_reference(name):
    rules = RULE_SETS[name]
    rules_array = rules.to_array()
    names = ref.point_names(rules)
    r = random.Random(name)
    checked = 0
    while checked < 150:
        record = random_record(rules, r)
        result = replay(parse_record(record))
        if result.bidder is None:
            continue
        checked += 1
        rec = np.zeros(L.REC_SIZE, dtype=np.int64)
        p0, p1, t0, t1 = (np.uint64(m) for m in _masks(result))
        n_points = ksc.award_points(rec, rules_array, result.trump, p0, p1, t0, t1)
        assert n_points == len(names) == rules.max_points
        awards = [None if rec[L.REC_AWARDS + i] < 0 else int(rec[L.REC_AWARDS + i]) for i in range(len(names))]
        assert awards == [result.awards[p] for p in names], record
        assert tuple(rec[L.REC_CARD_POINTS: L.REC_CARD_POINTS + 2]) == result.card_points
        assert tuple(rec[L.REC_POINTS: L.REC_POINTS + 2]) == result.points

        bid = MOON if result.bid == "moon" else result.bid
        before = result.scores_before
        ksc.settle(rec, rules_array, result.bidder, bid, n_points, before[0], before[1])
        assert tuple(rec[L.REC_DELTA: L.REC_DELTA + 2]) == result.score_delta, record
        assert bool(rec[L.REC_MADE]) == result.made
        assert (None if rec[L.REC_MOON] < 0 else bool(rec[L.REC_MOON])) == result.moon
        assert (None if rec[L.REC_WINNER] < 0 else int(rec[L.REC_WINNER])) == result.winner, record


def test_settle_moon_from_a_negative_score_resets_it_to_zero():
    rules = Rules().to_array()
    rec = np.zeros(L.REC_SIZE, dtype=np.int64)
    rec[L.REC_AWARDS: L.REC_AWARDS + 4] = 1  # team 1 won every point
    rec[L.REC_AWARDS + 4: L.REC_AWARDS + 7] = -1
    rec[L.REC_POINTS: L.REC_POINTS + 2] = (0, 4)
    ksc.settle(rec, rules, 3, MOON, 4, 5, -7)  # seat 3 (team 1) from -7
    assert list(rec[L.REC_DELTA: L.REC_DELTA + 2]) == [0, 7]
    assert rec[L.REC_MOON] == 1 and rec[L.REC_MADE] == 1 and rec[L.REC_WINNER] == -1
    ksc.settle(rec, rules, 3, MOON, 4, 5, 0)  # from zero the moon wins the game
    assert rec[L.REC_WINNER] == 1 and list(rec[L.REC_DELTA: L.REC_DELTA + 2]) == [0, 0]

