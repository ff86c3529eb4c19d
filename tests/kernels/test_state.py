"""The hand state (kernels/state.py): it follows the reference engine card by card, and its sampler deals
only worlds consistent with what a seat has seen, with the distribution its docstring states."""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest
from random_hands import random_record

from smear_sim.analysis.solve import hand_state
from smear_sim.core.cards import mask_of
from smear_sim.core.layout import (
    ST_BIDDER,
    ST_HANDS,
    ST_KNOWN,
    ST_LEADER,
    ST_PLAYED,
    ST_SIZE,
    ST_TAKEN,
    ST_TRICK,
    ST_TRICKS_DONE,
    ST_TRUMP,
    ST_VOIDS,
)
from smear_sim.core.rules import Rules
from smear_sim.core.tables import TABLES
from smear_sim.kernels import state as ks
from smear_sim.kernels.rng import stream_key
from smear_sim.reference import hand as ref
from smear_sim.reference.record import parse_record, replay_position

RULE_SETS = {"defaults": Rules(), "trump_anytime": Rules(trump_anytime=True)}


def _voids(position, rules: Rules) -> int:
    """The voids shown, as the state's bit set (bit 4 * seat + suit), from the reference tricks."""
    voids = 0
    trump = position.record.trump
    tricks = [(t.leader, t.cards) for t in position.tricks] + [(position.leader, position.trick)]
    for leader, cards in tricks:
        if not cards:
            continue
        led = ref.effective_suit(cards[0], trump)
        for i, c in enumerate(cards[1:], start=1):
            suit = ref.effective_suit(c, trump)
            if suit != led and not (rules.trump_anytime and suit == trump):
                voids |= 1 << (4 * ((leader + i) % 4) + led)
    return voids


def _positions(rules: Rules, r: random.Random, n: int):
    made = 0
    while made < n:
        record = random_record(rules, r)
        if "plays" not in record:
            continue
        made += 1
        for k in (r.randrange(0, 8), r.randrange(8, 16), r.randrange(16, 24)):
            yield replay_position(parse_record(record | {"plays": record["plays"][:k]}, partial=True))


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_state_follows_the_reference_replay(name):
    rules = RULE_SETS[name]
    for position in _positions(rules, random.Random(name), 60):
        hs = hand_state(position)
        assert [int(hs[ST_HANDS + s]) for s in range(4)] == [mask_of(h) for h in position.held]
        assert ks.to_play(hs) == position.to_play
        assert hs[ST_LEADER] == position.leader and hs[ST_TRICKS_DONE] == len(position.tricks)
        assert int(hs[ST_TRICK]) == mask_of(position.trick)
        taken = [0, 0]
        for trick in position.tricks:
            taken[trick.winner % 2] |= mask_of(trick.cards)
        assert [int(hs[ST_TAKEN]), int(hs[ST_TAKEN + 1])] == taken
        assert int(hs[ST_VOIDS]) == _voids(position, rules)
        assert sorted(int(c) for c in range(54) if int(ks.legal_cards(hs, rules.to_array())) >> c & 1) == \
            position.legal()


def _seen(hs: np.ndarray, seat: int) -> int:
    played = 0
    for s in range(4):
        played |= int(hs[ST_PLAYED + s])
    return int(hs[ST_KNOWN + seat]) | played


def _check_world(hs: np.ndarray, world: np.ndarray, observer: int) -> None:
    """``world`` keeps everything ``observer`` knows, and deals the rest consistently with it."""
    unseen = ((1 << 54) - 1) & ~_seen(hs, observer)
    t = int(hs[ST_TRUMP])
    for i in range(ST_SIZE):
        if not ST_HANDS <= i < ST_HANDS + 4:
            assert world[i] == hs[i], i
    assert world[ST_HANDS + observer] == hs[ST_HANDS + observer]
    union = 0
    for seat in range(4):
        if seat == observer:
            continue
        hand = int(world[ST_HANDS + seat])
        assert hand.bit_count() == int(hs[ST_HANDS + seat]).bit_count()
        assert hand & ~unseen == 0 and hand & union == 0
        union |= hand
        for suit in range(4):
            if int(hs[ST_VOIDS]) >> (4 * seat + suit) & 1:
                assert hand & int(TABLES.suit_mask[t, suit]) == 0


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_sampled_worlds_are_consistent_with_what_the_seat_has_seen(name):
    rules = RULE_SETS[name]
    rng = np.array([stream_key(np.uint64(3), np.uint64(1))], dtype=np.uint64)
    world = np.zeros(ST_SIZE, dtype=np.int64)
    for position in _positions(rules, random.Random(f"sample {name}"), 60):
        hs = hand_state(position)
        if position.to_play is None:
            continue
        for observer in range(4):
            _check_world(hs, hs, observer)  # the true deal is one of them
            for _ in range(10):
                ks.sample_world(hs, observer, rng, world)
                _check_world(hs, world, observer)


def test_sampling_is_deterministic_given_the_stream():
    position = next(_positions(Rules(), random.Random(4), 1))
    hs = hand_state(position)
    worlds = []
    for _ in range(2):
        rng = np.array([stream_key(np.uint64(9), np.uint64(2))], dtype=np.uint64)
        world = np.zeros(ST_SIZE, dtype=np.int64)
        draws = []
        for _ in range(5):
            ks.sample_world(hs, 1, rng, world)
            draws.append(tuple(world))
        worlds.append(draws)
    assert worlds[0] == worlds[1] and len(set(worlds[0])) > 1


def _model_draw(r: random.Random, hs: np.ndarray, observer: int) -> tuple[int, ...]:
    """One world drawn by the model of the state module's docstring, in the plainest way: trumps to
    uniformly random unseen places (drawn again until they fit and the plain cards can be dealt), then plain
    cards as a uniformly random assignment, drawn again until it respects the voids."""
    t = int(hs[ST_TRUMP])
    bidder = int(hs[ST_BIDDER])
    unseen = [c for c in range(54) if not _seen(hs, observer) >> c & 1]
    trump_set = {int(c) for c in TABLES.trump_cards[t]}
    void = [[int(hs[ST_VOIDS]) >> (4 * s + suit) & 1 for suit in range(4)] for s in range(4)]
    need = [0 if s == observer else int(hs[ST_HANDS + s]).bit_count() for s in range(4)]
    places: list[int] = [4] * 14  # undealt
    for s in range(4):
        if s != observer and not void[s][t]:
            dealt = 13 if s == bidder and observer != bidder else 9
            places += [s] * (dealt - int(hs[ST_PLAYED + s]).bit_count())
    trumps = [c for c in unseen if c in trump_set]
    plain = [c for c in unseen if c not in trump_set]
    allowed = [{c for c in plain if not void[s][int(TABLES.effective_suit[t, c])]} for s in range(4)]
    while True:
        spots = r.sample(range(len(places)), len(trumps))
        hands: list[list[int]] = [[], [], [], []]
        for c, spot in zip(trumps, spots, strict=True):
            if places[spot] < 4:
                hands[places[spot]].append(c)
        short = [need[s] - len(hands[s]) for s in range(4)]
        if min(short) < 0 or not _hall(short, allowed):
            continue
        while True:
            pool = r.sample(plain, len(plain))
            dealt = [list(h) for h in hands]
            for s in range(4):
                dealt[s] += pool[:short[s]]
                pool = pool[short[s]:]
            if all(set(dealt[s][len(hands[s]):]) <= allowed[s] for s in range(4)):
                return tuple(mask_of(h) for h in dealt)


def _hall(short: list[int], allowed: list[set[int]]) -> bool:
    """Whether the seats can get ``short[s]`` different cards of ``allowed[s]`` each."""
    for subset in range(1, 16):
        seats = [s for s in range(4) if subset >> s & 1]
        if sum(short[s] for s in seats) > len(set().union(*(allowed[s] for s in seats))):
            return False
    return True


def test_sampler_draws_exactly_from_its_model():
    """The kernel's faster draw (plain cards seat by seat with an acceptance ratio) has the same distribution
    as the model drawn naively: each card's chance of each seat agrees within 4.5 standard errors."""
    rules = Rules()
    r = random.Random(11)
    for position in _positions(rules, r, 200):  # a position where two seats have shown different voids
        hs = hand_state(position)
        observer = position.to_play
        if observer is None or len(position.tricks) < 2:
            continue
        voided = {s for s in range(4) if s != observer and int(hs[ST_VOIDS]) >> (4 * s) & 15}
        if len(voided) >= 2:
            break
    n = 6000
    rng = np.array([stream_key(np.uint64(5), np.uint64(5))], dtype=np.uint64)
    world = np.zeros(ST_SIZE, dtype=np.int64)
    kernel, naive = Counter(), Counter()
    for _ in range(n):
        ks.sample_world(hs, observer, rng, world)
        for s in range(4):
            for c in range(54):
                if int(world[ST_HANDS + s]) >> c & 1 and s != observer:
                    kernel[s, c] += 1
        for s, hand in enumerate(_model_draw(r, hs, observer)):
            for c in range(54):
                if hand >> c & 1:
                    naive[s, c] += 1
    for key in kernel.keys() | naive.keys():
        p = (kernel[key] + naive[key]) / (2 * n)
        se = math.sqrt(2 * p * (1 - p) / n) + 1e-9
        assert abs(kernel[key] - naive[key]) / n < 4.5 * se + 1.0 / n, (key, kernel[key], naive[key])


def test_filling_card_by_card_always_completes_the_deal():
    """The sampler's last resort fills tight voids without a dead end."""
    r = random.Random(2)
    for _ in range(300):
        cards = r.sample(range(54), 12)
        need = np.array([0, 3, 3, 3], dtype=np.int64)
        t = r.randrange(4)
        allowed = np.zeros(4, dtype=np.uint64)
        truth = [0, mask_of(cards[0:3]), mask_of(cards[3:6]), mask_of(cards[6:9])]
        for s in range(1, 4):  # each seat may hold the suits it holds, and one other at random
            suits = {int(TABLES.effective_suit[t, c]) for c in range(54) if truth[s] >> c & 1} | {r.randrange(4)}
            allowed[s] = np.uint64(sum(int(TABLES.suit_mask[t, suit]) for suit in suits))
        hands = np.zeros(4, dtype=np.uint64)
        rng = np.array([r.getrandbits(64)], dtype=np.uint64)
        ks._fill_card_by_card(rng, need, allowed, np.uint64(mask_of(cards)), hands)
        assert [int(h).bit_count() for h in hands] == [0, 3, 3, 3]
        assert int(hands[1]) & int(hands[2]) == 0 and (int(hands[1]) | int(hands[2])) & int(hands[3]) == 0
        for s in range(1, 4):
            assert int(hands[s]) & ~int(allowed[s]) & mask_of(cards) == 0
