"""The players (kernels/players/): every decision is legal, and the heuristic does what its docstring says.

Legality is judged by the reference engine (``can_discard``, ``can_bid``, ``legal_plays``) on random
situations. The heuristic's hand value is recomputed from the documented formula, and a duplicate match
shows it beats the random player by many standard errors.
"""

from __future__ import annotations

import random
from itertools import pairwise

import numpy as np
import pytest
from random_hands import random_record

from smear_sim.analysis.match import duplicate_match
from smear_sim.core.cards import HIGH_JOKER, LOW_JOKER, card, mask_of, parse_cards
from smear_sim.core.layout import MOON, PASS
from smear_sim.core.rules import Rules
from smear_sim.core.tables import TABLES, jick_of
from smear_sim.kernels import players as kp
from smear_sim.kernels import trick as kt
from smear_sim.kernels.players import heuristic
from smear_sim.kernels.rng import stream_key
from smear_sim.reference import hand as ref
from smear_sim.reference.record import parse_record

POLICIES = {"random": kp.RANDOM, "heuristic": kp.HEURISTIC}
ACE, KING, QUEEN, JACK, TEN, TWO = 12, 11, 10, 9, 8, 0


def new_state(seed: int = 1, index: int = 0) -> np.ndarray:
    return np.array([stream_key(np.uint64(seed), np.uint64(index))], dtype=np.uint64)


def cards_in(mask) -> list[int]:
    mask = int(mask)
    return [c for c in range(54) if mask >> c & 1]


def trumps_of(t: int) -> list[int]:
    return [int(c) for c in TABLES.trump_cards[t]]


def biased_hand(r: random.Random, size: int, t: int) -> list[int]:
    """A hand whose number of trumps is uniform over what fits, so every discard case is common."""
    trumps = trumps_of(t)
    others = [c for c in range(54) if c not in trumps]
    k = r.randint(max(0, size - len(others)), min(size, len(trumps)))
    return r.sample(trumps, k) + r.sample(others, size - k)


def scoring(t: int) -> list[int]:
    return [c for c in trumps_of(t) if int(TABLES.scoring_trump_mask[t]) >> c & 1]


# -- discards ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("policy", list(POLICIES))
@pytest.mark.parametrize("size", [9, 13])
def test_choose_keep_is_always_legal(policy, size):
    _, keep = heuristic.policy_tables(Rules().to_array())
    r = random.Random(f"{policy}{size}")
    state = new_state(4)
    for _ in range(1500):
        t = r.randrange(4)
        hand = biased_hand(r, size, t)
        kept = cards_in(kp.choose_keep(POLICIES[policy], state, np.uint64(mask_of(hand)), t, keep[t]))
        assert len(kept) == 6 and set(kept) <= set(hand)
        discard = sorted(set(hand) - set(kept))
        assert ref.can_discard(hand, discard, t), (hand, discard, t)


def test_random_keep_covers_every_legal_keep():
    """Random discards are uniform over the legal keeps: each of the 3 keeps appears about 1/3 of the time."""
    _, keep = heuristic.policy_tables(Rules().to_array())
    t = 1
    hand = parse_cards("AH KH 2H JH 3S 4S 5D 6C 7C")  # 4 trumps, keep 2 of the 5 non-trumps: C(5,2) = 10 keeps
    legal = {tuple(k) for k in ref.legal_keeps(hand, t)}
    assert len(legal) == 10
    state = new_state(9)
    n = 5000
    counts: dict[tuple, int] = {}
    for _ in range(n):
        kept = tuple(cards_in(kp.choose_keep(kp.RANDOM, state, np.uint64(mask_of(hand)), t, keep[t])))
        counts[kept] = counts.get(kept, 0) + 1
    assert set(counts) == legal
    se = (n * 0.1 * 0.9) ** 0.5  # binomial SE of one keep's count
    assert all(abs(c - n / 10) < 4 * se for c in counts.values()), counts


def _doc_priority(c: int, t: int) -> int:
    """The heuristic's documented keep order within a class (higher = kept first)."""
    order = [card(ACE, t), card(TWO, t), card(JACK, t), card(KING, t), card(QUEEN, t), jick_of(t), card(TEN, t),
             HIGH_JOKER, LOW_JOKER]
    if c in order:
        return 100 - order.index(c)
    if int(TABLES.trump_rank[t, c]) >= 0:
        return 50 + int(TABLES.trump_rank[t, c])  # other trumps, high before low
    rank = c % 13
    return {ACE: 40, KING: 39, TEN: 38, QUEEN: 37, JACK: 36}.get(rank, rank)


def test_heuristic_keep_follows_the_documented_order():
    _, keep = heuristic.policy_tables(Rules().to_array())
    r = random.Random(3)
    state = new_state(2)
    for _ in range(2000):
        t = r.randrange(4)
        hand = biased_hand(r, r.choice([9, 13]), t)
        kept = cards_in(kp.choose_keep(kp.HEURISTIC, state, np.uint64(mask_of(hand)), t, keep[t]))
        held_scoring = [c for c in hand if c in scoring(t)]
        if len(held_scoring) <= 6:  # never a scoring trump discarded when the rule lets it keep them all
            assert set(held_scoring) <= set(kept)
        # Within the class it had to cut, it kept the cards highest in the documented order.
        discarded = set(hand) - set(kept)
        for d in discarded:
            for k in kept:
                if ref._keep_class(k, t) == ref._keep_class(d, t):
                    assert _doc_priority(k, t) >= _doc_priority(d, t), (hand, sorted(kept), t)


def test_heuristic_keep_examples():
    _, keep = heuristic.policy_tables(Rules().to_array())
    state = new_state()
    # 8 scoring hearts: keeps A 2 J K Q jick, buries 10H and the high joker.
    hand = parse_cards("AH 2H JH KH QH JD 10H HJ 5S")
    kept = cards_in(kp.choose_keep(kp.HEURISTIC, state, np.uint64(mask_of(hand)), 1, keep[1]))
    assert kept == sorted(parse_cards("AH 2H JH KH QH JD"))
    # 3 trumps: keeps them and the off-suit ace, king and ten before lower cards.
    hand = parse_cards("AH 5H 9H AS KC 10D 3S 4C 9D")
    kept = cards_in(kp.choose_keep(kp.HEURISTIC, state, np.uint64(mask_of(hand)), 1, keep[1]))
    assert kept == sorted(parse_cards("AH 5H 9H AS KC 10D"))


# -- hand value, bids and trump -------------------------------------------------------------------------------


def doc_suit_value(hand: list[int], t: int, rules: Rules) -> float:
    """The heuristic's hand value exactly as the policies module docstring states it."""
    h = set(hand)
    ace, king, queen = card(ACE, t) in h, card(KING, t) in h, card(QUEEN, t) in h
    value = 1.0 if ace else 0.35 if king else 0.12 if queen else 0.0
    if card(TWO, t) in h:
        value += 0.75 if rules.low_to == "taker" else 1.0
    elif rules.low == "lowest":
        value += 0.5 if card(1, t) in h else 0.25 if card(2, t) in h else 0.0
    if card(JACK, t) in h:
        value += 0.55 + 0.15 * ace + 0.10 * king + 0.05 * queen
    else:
        value += 0.10 * (ace + king)
    n_trumps = len(h & set(trumps_of(t)))
    off_aces = sum(1 for s in range(4) if s != t and card(ACE, s) in h)
    value += min(0.10 + 0.07 * n_trumps + 0.12 * (card(TEN, t) in h) + 0.05 * off_aces, 0.9)
    if rules.round_points:
        value += 0.7 * (jick_of(t) in h) + 0.6 * (HIGH_JOKER in h) + 0.55 * (LOW_JOKER in h)
    return value


VALUE_RULES = [Rules(), Rules(low_to="taker"), Rules(low="lowest"), Rules(round_points=True)]


@pytest.mark.parametrize("rules", VALUE_RULES, ids=["defaults", "low_to_taker", "low_lowest", "round_points"])
def test_suit_value_matches_the_documented_formula(rules):
    r = random.Random(str(rules))
    array = rules.to_array()
    for _ in range(500):
        t = r.randrange(4)
        hand = biased_hand(r, r.choice([9, 13]), t)
        for suit in range(4):
            assert heuristic.suit_value(np.uint64(mask_of(hand)), suit, array) == pytest.approx(
                doc_suit_value(hand, suit, rules), abs=1e-9)
        best, value = heuristic.best_suit(np.uint64(mask_of(hand)), array)
        values = [doc_suit_value(hand, s, rules) for s in range(4)]
        assert value == pytest.approx(max(values))
        assert values[best] == pytest.approx(max(values))
        assert best == min(s for s in range(4) if values[s] > max(values) - 1e-9)  # ties to the lower suit
        assert kp.choose_trump(kp.HEURISTIC, new_state(), np.uint64(mask_of(hand)), array) == best


def test_random_trump_is_uniform():
    state = new_state(6)
    n = 8000
    counts = np.bincount([kp.choose_trump(kp.RANDOM, state, np.uint64(0), Rules().to_array()) for _ in range(n)],
                         minlength=4)
    se = (n * 0.25 * 0.75) ** 0.5
    assert len(counts) == 4 and np.all(np.abs(counts - n / 4) < 4 * se)


BID_RULES = {
    "defaults": Rules(),
    "forced_dealer": Rules(forced_bid="dealer"),
    "forced_none": Rules(forced_bid="none"),
    "no_moon": Rules(moon=False),
    "min_bid_1_round_points": Rules(min_bid=1, round_points=True),
}


def _kernel_call(code: int):
    return "pass" if code == PASS else "moon" if code == MOON else int(code)


def choose_bid(policy, state, hand, low, high, moon_ok, must, array, max_points, *, calls=(), dealer=3,
               scores=(0, 0)):
    """``kp.choose_bid`` for the seat after ``calls`` (opener first), with the team scores (team 0, team 1)."""
    position = len(calls)
    seat = (dealer + 1 + position) % 4
    codes = np.zeros(4, dtype=np.int64)
    codes[:position] = [PASS if c == "pass" else MOON if c == "moon" else c for c in calls]
    us, them = (scores[0], scores[1]) if seat % 2 == 0 else (scores[1], scores[0])
    return kp.choose_bid(policy, state, hand, seat, dealer, codes, position, us, them, low, high, moon_ok, must,
                         array, max_points)


@pytest.mark.parametrize("name", list(BID_RULES))
def test_choose_bid_is_always_legal(name):
    """Walk random auctions; at each turn both policies' calls must be legal for the reference engine."""
    rules = BID_RULES[name]
    array = rules.to_array()
    forced = list(type(rules.forced_bid)).index(rules.forced_bid)
    r = random.Random(name)
    state = new_state(5)
    for _ in range(400):
        deck = list(range(54))
        r.shuffle(deck)
        auction: list = []
        for position in range(4):
            if "moon" in auction:
                auction.append("pass")  # the kernel does not consult the policy after a moon
                continue
            hand = np.uint64(mask_of(deck[9 * position: 9 * position + 9]))
            highest = max((b for b in auction if isinstance(b, int)), default=0)
            bidder_yet = any(b != "pass" for b in auction)
            must = (forced == 0 and position == 0) or (forced == 1 and position == 3 and not bidder_yet)
            low = max(rules.min_bid, highest + 1)
            for policy in (kp.RANDOM, kp.HEURISTIC):
                call = _kernel_call(choose_bid(policy, state, hand, low, rules.max_points, rules.moon, must, array,
                                               rules.max_points, calls=auction, dealer=r.randrange(4),
                                               scores=(r.randint(-30, 20), r.randint(-30, 20))))
                assert ref.can_bid(rules, auction, call), (auction, call, policy)
            auction.append(r.choice(ref.legal_bids(rules, auction)))


BID_ARGUMENTS = ["state", "hand", "seat", "dealer", "calls", "n_calls", "us", "them", "low", "high", "moon_ok", "must",
                 "rules", "max_points"]


def test_every_player_bids_with_the_auction_the_dealer_and_the_score():
    """The one bidding signature (kernels/players/__init__.py): a score-aware player plugs in unchanged."""
    import inspect

    assert list(inspect.signature(kp.choose_bid.py_func).parameters) == ["policy", *BID_ARGUMENTS]
    for player in (heuristic, kp.random):
        assert list(inspect.signature(player.bid.py_func).parameters) == BID_ARGUMENTS, player.__name__


def test_heuristic_bid_ignores_the_auction_the_dealer_and_the_score():
    array = Rules().to_array()
    state = new_state()
    r = random.Random(4)
    for _ in range(300):
        hand = np.uint64(mask_of(r.sample(range(54), 9)))
        first = choose_bid(kp.HEURISTIC, state, hand, 3, 4, True, False, array, 4, calls=("pass", 2), dealer=0)
        other = choose_bid(kp.HEURISTIC, state, hand, 3, 4, True, False, array, 4, calls=(2, "pass"), dealer=2,
                           scores=(r.randint(-30, 20), r.randint(-30, 20)))
        assert first == other


def test_heuristic_bid_follows_its_value():
    """A hand of no value passes (or bids the lowest when it must); the call never falls as the value rises."""
    rules = Rules()
    array = rules.to_array()
    state = new_state()
    weak = np.uint64(mask_of(parse_cards("3S 5H 7D 9C 4S 6H 8D 3C 4D")))  # best suit worth about 0.3
    assert heuristic.best_suit(weak, array)[1] < 0.5
    assert choose_bid(kp.HEURISTIC, state, weak, 2, 4, True, False, array, 4) == PASS
    assert choose_bid(kp.HEURISTIC, state, weak, 2, 4, True, True, array, 4) == 2  # must bid: the lowest
    assert choose_bid(kp.HEURISTIC, state, weak, 3, 4, False, True, array, 4) == 3
    strong = np.uint64(mask_of(parse_cards("AH KH 2H JH 10H QH JD 9S 4D")))  # worth about 3.6 in hearts
    assert choose_bid(kp.HEURISTIC, state, strong, 2, 4, False, False, array, 4) == 4
    r = random.Random(12)
    calls = []
    for _ in range(3000):
        hand = np.uint64(mask_of(biased_hand(r, 9, r.randrange(4))))
        value = heuristic.best_suit(hand, array)[1]
        calls.append((value, int(choose_bid(kp.HEURISTIC, state, hand, 1, 4, False, False, array, 4))))
    calls.sort()
    assert all(a[1] <= b[1] for a, b in pairwise(calls))
    assert {c for _, c in calls} >= {2, 3, 4}


# -- play ------------------------------------------------------------------------------------------------------


def _play_situations(rules: Rules, r: random.Random, n_records: int):
    """Every play of random legal hands: (hand, legal, seat, trump, position, trick, seen, bidding team)."""
    done = 0
    while done < n_records:
        record = random_record(rules, r)
        parsed = parse_record(record)
        won = ref.auction_winner(parsed.bids)
        if won is None:
            continue
        done += 1
        bidder = ref.seat_of_bid(parsed.dealer, won[0])
        t = parsed.trump
        held = [set(parsed.hands[s]) | (set(parsed.kitty) if s == bidder else set()) for s in range(4)]
        kept = [held[s] - set(parsed.discards[s]) for s in range(4)]
        played: set[int] = set()
        leader = bidder
        for trick_no in range(6):
            trick: list[int] = []
            for i in range(4):
                seat = (leader + i) % 4
                seen = held[seat] | played
                yield kept[seat], ref.legal_plays(rules, kept[seat], trick, t), seat, t, i, list(trick), seen, \
                    bidder % 2
                c = parsed.plays[4 * trick_no + i]
                kept[seat].discard(c)
                trick.append(c)
                played.add(c)
            leader = (leader + ref.trick_winner(trick, t)) % 4


def _choose_play(policy, state, hand, legal, seat, t, i, trick, seen, bidding_team, give):
    led_suit = -1 if not trick else int(TABLES.effective_suit[t, trick[0]])
    win_seat = win_card = win_key = -1
    if trick:
        w = ref.trick_winner(trick, t)
        leader = (seat - i) % 4
        win_seat, win_card = (leader + w) % 4, trick[w]
        win_key = kt.card_key(win_card, t, led_suit)
    return kp.choose_play(policy, state, np.uint64(mask_of(hand)), np.uint64(mask_of(legal)), seat, t, i, led_suit,
                          win_seat, win_card, win_key, np.uint64(mask_of(trick)), np.uint64(mask_of(seen)),
                          bidding_team, give)


@pytest.mark.parametrize("rules", [Rules(), Rules(trump_anytime=True, round_points=True, low_to="taker")],
                         ids=["defaults", "trump_anytime_round_points_taker"])
def test_choose_play_is_always_legal(rules):
    give, _ = heuristic.policy_tables(rules.to_array())
    state = new_state(8)
    n = 0
    for hand, legal, seat, t, i, trick, seen, team in _play_situations(rules, random.Random(str(rules)), 80):
        for policy in (kp.RANDOM, kp.HEURISTIC):
            c = _choose_play(policy, state, hand, legal, seat, t, i, trick, seen, team, give)
            assert c in legal, (policy, hand, trick, t)
        n += 1
    assert n == 80 * 24


def test_heuristic_bidder_leads_its_boss_trump():
    give, _ = heuristic.policy_tables(Rules().to_array())
    state = new_state()
    hand = parse_cards("AH 5C 7D")
    assert _choose_play(kp.HEURISTIC, state, hand, hand, 0, 1, 0, [], hand, 0, give) == card(ACE, 1)
    # The king is not the boss while the ace is unseen: with one trump it leads its cheapest non-trump...
    hand = parse_cards("KH 5C 7D")
    assert _choose_play(kp.HEURISTIC, state, hand, hand, 0, 1, 0, [], hand, 0, give) == parse_cards("5C")[0]
    # ...but once the ace has been played the king is the boss, and the bidder draws trump with it.
    seen = hand + parse_cards("AH")
    assert _choose_play(kp.HEURISTIC, state, hand, hand, 0, 1, 0, [], seen, 0, give) == card(KING, 1)
    # A defender leads its boss off-suit ace rather than its trump.
    hand = parse_cards("AH AS 7D")
    assert _choose_play(kp.HEURISTIC, state, hand, hand, 1, 1, 0, [], hand, 0, give) == card(ACE, 0)


def test_heuristic_smears_points_on_its_partners_sure_trick_and_takes_with_a_boss():
    give, _ = heuristic.policy_tables(Rules().to_array())
    state = new_state()
    # Seat 3 plays last; its partner (seat 1) is winning: it drops its ten, the richest card.
    trick = parse_cards("3C KC 4C")  # leader seat 0, so seat 1 played KC
    hand = parse_cards("10C 5C 2S")
    legal = ref.legal_plays(Rules(), hand, trick, 1)
    assert _choose_play(kp.HEURISTIC, state, hand, legal, 3, 1, 3, trick, hand + trick, 0, give) == card(TEN, 3)
    # Seat 1, second to play after an opponent's lead, takes with its boss ace rather than its low card.
    trick = parse_cards("KC")
    hand = parse_cards("AC 5C 2S")
    legal = ref.legal_plays(Rules(), hand, trick, 1)
    assert _choose_play(kp.HEURISTIC, state, hand, legal, 1, 1, 1, trick, hand + trick, 0, give) == card(ACE, 3)


# -- heuristic against random -----------------------------------------------------------------------------------


def test_duplicate_match_heuristic_beats_random_by_many_standard_errors():
    first = duplicate_match("heuristic", "random", deals=4000, seed=3)
    again = duplicate_match("heuristic", "random", deals=4000, seed=3)
    assert first.to_json() == again.to_json()  # deterministic given the seed
    margin = first.score_margin
    assert margin.se > 0
    assert margin.value > 10 * margin.se, margin  # about 2.8 points a hand, SE about 0.03
