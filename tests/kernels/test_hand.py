"""The one-hand kernel (kernels/hand.py) piece by piece, against the reference engine.

The whole hand is checked end to end by the trace check in tests/analysis/test_simulate.py; here each
step is compared with its reference counterpart on random inputs: dealing, legal plays and the trick
winner. Scoring is tested in test_scoring.py and the hand state in test_state.py.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from smear_sim.core.cards import mask_of
from smear_sim.core.rules import Rules
from smear_sim.core.tables import MISDEAL_MASK, TABLES
from smear_sim.kernels import hand as kh
from smear_sim.kernels import trick as kt
from smear_sim.kernels.rng import stream_key
from smear_sim.reference import hand as ref

RULE_SETS = {
    "defaults": Rules(),
    "round_points": Rules(round_points=True),
    "highest_lowest": Rules(high="highest", low="lowest"),
    "low_to_taker": Rules(low_to="taker"),
    "moon_in_play": Rules(moon_requires="in_play"),
    "round_points_in_play_taker": Rules(round_points=True, moon_requires="in_play", low_to="taker", target=11),
    "target_4": Rules(target=4, min_bid=1),
}


def cards_in(mask: int) -> list[int]:
    return [c for c in range(54) if mask >> c & 1]


# -- dealing --------------------------------------------------------------------------------------------


def _deal(seed: int, index: int, pool: list[int], fixed_seat: int = -1, fixed: int = 0, misdeal: bool | None = None):
    state = np.array([stream_key(np.uint64(seed), np.uint64(index))], dtype=np.uint64)
    pool_array = np.zeros(54, dtype=np.int64)
    pool_array[: len(pool)] = pool
    deck = np.empty(54, dtype=np.int64)
    hands = np.empty(5, dtype=np.uint64)
    if misdeal is None:
        kh.deal(state, pool_array, len(pool), fixed_seat, np.uint64(fixed), deck, hands)
        redeals = 0
    else:
        redeals = kh.deal_playable(state, pool_array, len(pool), fixed_seat, np.uint64(fixed), deck, hands, misdeal)
    return [int(h) for h in hands], redeals


def test_deal_gives_disjoint_hands_of_9_and_a_kitty_of_4():
    for index in range(200):
        hands, _ = _deal(7, index, list(range(54)))
        assert [h.bit_count() for h in hands] == [9, 9, 9, 9, 4]
        union = 0
        for h in hands:
            assert union & h == 0
            union |= h
        assert union.bit_count() == 40


def test_deal_keeps_the_fixed_hand_and_deals_only_from_the_pool():
    fixed = mask_of([12, 11, 0, 9, 35, 4, 7, 28, 40])
    pool = [c for c in range(54) if not fixed >> c & 1]
    for index in range(200):
        hands, _ = _deal(3, index, pool, fixed_seat=0, fixed=fixed)
        assert hands[0] == fixed
        others = hands[1] | hands[2] | hands[3] | hands[4]
        assert others & fixed == 0
        assert others.bit_count() == 31


def test_deal_playable_redeals_until_no_seat_may_call_a_misdeal():
    redealt = 0
    for index in range(3000):
        hands, redeals = _deal(1, index, list(range(54)), misdeal=True)
        redealt += redeals
        assert all(h & ~MISDEAL_MASK for h in hands[:4])
    assert redealt > 0  # about 0.5% of deals are redealt
    # Without the rule the first deal stands, so the deal equals deal()'s.
    for index in range(50):
        assert _deal(1, index, list(range(54)), misdeal=False) == _deal(1, index, list(range(54)))


def test_deal_playable_ignores_the_fixed_seat():
    """The analysed hand may itself be all ranks 3-9; only the other seats are redealt."""
    fixed = mask_of([1, 2, 3, 4, 5, 14, 15, 16, 17])  # 3S-7S, 3H-6H: only ranks 3-9
    pool = [c for c in range(54) if not fixed >> c & 1]
    for index in range(100):
        hands, _ = _deal(2, index, pool, fixed_seat=0, fixed=fixed, misdeal=True)
        assert hands[0] == fixed
        assert all(h & ~MISDEAL_MASK for h in hands[1:4])


# -- play -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("trump_anytime", [False, True], ids=["follow", "trump_anytime"])
def test_legal_mask_matches_reference_legal_plays(trump_anytime):
    rules = Rules(trump_anytime=trump_anytime)
    r = random.Random(21)
    for _ in range(3000):
        t = r.randrange(4)
        cards = r.sample(range(54), r.randint(2, 7))
        led, hand = cards[0], cards[1:]
        led_suit = int(TABLES.effective_suit[t, led])
        got = int(kt.legal_mask(np.uint64(mask_of(hand)), t, led_suit, trump_anytime))
        assert got == mask_of(ref.legal_plays(rules, hand, [led], t)), (hand, led, t)
        assert int(kt.legal_mask(np.uint64(mask_of(hand)), t, -1, trump_anytime)) == mask_of(hand)


def kernel_trick_winner(trick: list[int], t: int) -> int:
    """The trick-winner logic of kernels.hand.play_hand, driven from Python."""
    led_suit = int(TABLES.effective_suit[t, trick[0]])
    win, win_key, mask = 0, kt.card_key(trick[0], t, led_suit), np.uint64(1 << trick[0])
    for i, c in enumerate(trick[1:], start=1):
        if kt.beats(c, t, led_suit, win_key, mask):
            win, win_key = i, kt.card_key(c, t, led_suit)
        mask |= np.uint64(1 << c)
    return win


def test_trick_winner_matches_reference():
    r = random.Random(8)
    for n in range(4000):
        t = r.randrange(4)
        if n % 3 == 0:  # both jokers in the trick, at random places, with other trumps or none
            others = r.sample(range(52), 2)
            trick = others + [52, 53]
            r.shuffle(trick)
        else:
            trick = r.sample(range(54), 4)
        assert kernel_trick_winner(trick, t) == ref.trick_winner(trick, t), (trick, t)


# -- what the hand after the auction reads ---------------------------------------------------------------


def test_only_a_table_where_expert_or_oracle_sits_reads_the_calls_after_the_auction():
    """The position table plays a line once per deal where the hand after the auction reads only who declares what
    (kernels/drivers/auction.py): at every table but those of the search players that read the auction."""
    from numba import njit

    from smear_sim.kernels import players as kp

    @njit
    def reads(seated):
        return kh.contract_reads_calls(seated, 0)

    for kinds, expected in (((kp.HEURISTIC,), False), ((kp.RANDOM, kp.HEURISTIC_V1), False), ((kp.PIMC,), False),
                            ((kp.EXPERT, kp.HEURISTIC), True), ((kp.ORACLE,), True)):
        assert reads(kp.seated_arg(kinds)) is expected, kinds
