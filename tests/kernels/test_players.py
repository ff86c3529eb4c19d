"""The players (kernels/players/): every decision is legal, and the heuristic does what its docstring says.

Legality is judged by the reference engine (``can_discard``, ``can_bid``, ``legal_plays``) on random
situations. The heuristic's hand value is recomputed from the documented formula, and a duplicate match
shows it beats the random player by many standard errors.
"""

from __future__ import annotations

import inspect
import math
import random
import subprocess
import sys
from itertools import pairwise

import numba
import numpy as np
import pytest
from random_hands import random_record

from smear_sim import duplicate_match
from smear_sim.analysis.solve import hand_state
from smear_sim.core.bidder import no_bidder_arrays
from smear_sim.core.cards import HIGH_JOKER, LOW_JOKER, card, mask_of, parse_cards
from smear_sim.core.layout import MOON, PASS, ST_HANDS, ST_LEADER, ST_PLAYED, ST_SIZE, ST_VOIDS
from smear_sim.core.players import POLICIES as ALL_POLICIES
from smear_sim.core.players import policy_code
from smear_sim.core.rules import Rules
from smear_sim.core.tables import TABLES, jick_of
from smear_sim.kernels import compile_units
from smear_sim.kernels import players as kp
from smear_sim.kernels import state as ks
from smear_sim.kernels.players import heuristic, heuristic_v1, policy_tables
from smear_sim.kernels.players.net import new_net_work
from smear_sim.kernels.rng import stream_key
from smear_sim.reference import hand as ref
from smear_sim.reference.record import parse_record, replay_position

POLICIES = {"random": kp.RANDOM, "heuristic": kp.HEURISTIC, "heuristic-v1": kp.HEURISTIC_V1}
NO_MODEL = no_bidder_arrays()
ACE, KING, QUEEN, JACK, TEN, TWO = 12, 11, 10, 9, 8, 0

EVERYONE = kp.seated_arg(range(len(ALL_POLICIES)))  # every player compiled in (every policy code)


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
    _, keep = policy_tables(Rules().to_array())
    r = random.Random(f"{policy}{size}")
    state = new_state(4)
    for _ in range(1500):
        t = r.randrange(4)
        hand = biased_hand(r, size, t)
        kept = cards_in(kp.choose_keep(POLICIES[policy], EVERYONE, state, np.uint64(mask_of(hand)), t, keep[t]))
        assert len(kept) == 6 and set(kept) <= set(hand)
        discard = sorted(set(hand) - set(kept))
        assert ref.can_discard(hand, discard, t), (hand, discard, t)


def test_random_keep_covers_every_legal_keep():
    """Random discards are uniform over the legal keeps: each of the 3 keeps appears about 1/3 of the time."""
    _, keep = policy_tables(Rules().to_array())
    t = 1
    hand = parse_cards("AH KH 2H JH 3S 4S 5D 6C 7C")  # 4 trumps, keep 2 of the 5 non-trumps: C(5,2) = 10 keeps
    legal = {tuple(k) for k in ref.legal_keeps(hand, t)}
    assert len(legal) == 10
    state = new_state(9)
    n = 5000
    counts: dict[tuple, int] = {}
    for _ in range(n):
        kept = tuple(cards_in(kp.choose_keep(kp.RANDOM, EVERYONE, state, np.uint64(mask_of(hand)), t, keep[t])))
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


@pytest.mark.parametrize("policy", ["heuristic", "heuristic-v1"])
def test_heuristic_keep_follows_the_documented_order(policy):
    _, keep = policy_tables(Rules().to_array())
    r = random.Random(3)
    state = new_state(2)
    for _ in range(2000):
        t = r.randrange(4)
        hand = biased_hand(r, r.choice([9, 13]), t)
        kept = cards_in(kp.choose_keep(POLICIES[policy], EVERYONE, state, np.uint64(mask_of(hand)), t, keep[t]))
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
    _, keep = policy_tables(Rules().to_array())
    state = new_state()
    # 8 scoring hearts: keeps A 2 J K Q jick, buries 10H and the high joker.
    hand = parse_cards("AH 2H JH KH QH JD 10H HJ 5S")
    kept = cards_in(kp.choose_keep(kp.HEURISTIC, EVERYONE, state, np.uint64(mask_of(hand)), 1, keep[1]))
    assert kept == sorted(parse_cards("AH 2H JH KH QH JD"))
    # 3 trumps: keeps them and the off-suit ace, king and ten before lower cards.
    hand = parse_cards("AH 5H 9H AS KC 10D 3S 4C 9D")
    kept = cards_in(kp.choose_keep(kp.HEURISTIC, EVERYONE, state, np.uint64(mask_of(hand)), 1, keep[1]))
    assert kept == sorted(parse_cards("AH 5H 9H AS KC 10D"))


# -- hand value, bids and trump -------------------------------------------------------------------------------


def doc_suit_value_v1(hand: list[int], t: int, rules: Rules) -> float:
    """heuristic-v1's hand value exactly as its module docstring states it."""
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


def doc_suit_value_v2(hand: list[int], t: int, rules: Rules) -> float:
    """heuristic (v2)'s hand value exactly as its module docstring states it."""
    h = set(hand)
    trumps = [c for c in trumps_of(t) if c in h]  # highest first
    ace, king, queen = card(ACE, t) in h, card(KING, t) in h, card(QUEEN, t) in h

    def none_above(m: int) -> float:
        return math.comb(27, m) / math.comb(45, m)

    order = trumps_of(t)
    if rules.high == "ace":
        value = 1.0 if ace else 0.0
    else:
        value = none_above(order.index(trumps[0])) if trumps else 0.0
    if rules.low == "two":
        low = 1.0 if card(TWO, t) in h else 0.0
    else:
        low = none_above(15 - order.index(trumps[-1])) if trumps else 0.0
    value += 0.75 * low if rules.low_to == "taker" else low
    if card(JACK, t) in h:
        value += 0.55 + 0.15 * ace + 0.10 * king + 0.05 * queen
    else:
        value += 0.10 * (ace + king)
    if rules.trump_anytime:
        game = 0.10 + heuristic.GAME_TRUMP_ANYTIME * len(trumps) + 0.12 * (card(TEN, t) in h)
    else:
        off_aces = sum(1 for s in range(4) if s != t and card(ACE, s) in h)
        game = 0.10 + heuristic.GAME_TRUMP * len(trumps) + 0.12 * (card(TEN, t) in h) + 0.05 * off_aces
    value += min(game, 0.9)
    if rules.round_points:
        value += 0.7 * (jick_of(t) in h) + 0.6 * (HIGH_JOKER in h) + 0.55 * (LOW_JOKER in h)
    return value


VALUE_RULES = [Rules(), Rules(low_to="taker"), Rules(low="lowest", high="highest"), Rules(round_points=True),
               Rules(trump_anytime=True)]


@pytest.mark.parametrize("rules", VALUE_RULES, ids=["defaults", "low_to_taker", "lowest_highest", "round_points",
                                                   "trump_anytime"])
@pytest.mark.parametrize("version", ["v1", "v2"])
def test_suit_value_matches_the_documented_formula(rules, version):
    if version == "v1":
        module, doc_value, policy = heuristic_v1, doc_suit_value_v1, kp.HEURISTIC_V1
    else:
        module, doc_value, policy = heuristic, doc_suit_value_v2, kp.HEURISTIC
    r = random.Random(str(rules))
    array = rules.to_array()
    for _ in range(300):
        t = r.randrange(4)
        hand = biased_hand(r, r.choice([9, 13]), t)
        for suit in range(4):
            assert module.suit_value(np.uint64(mask_of(hand)), suit, array) == pytest.approx(
                doc_value(hand, suit, rules), abs=1e-9)
        best, value = module.best_suit(np.uint64(mask_of(hand)), array)
        values = [doc_value(hand, s, rules) for s in range(4)]
        assert value == pytest.approx(max(values))
        assert values[best] == pytest.approx(max(values))
        tied = [s for s in range(4) if values[s] > max(values) - 1e-9]
        assert best in tied
        if len({values[s] for s in tied}) == 1:
            assert best == min(tied)  # exact ties go to the lower suit
        assert kp.choose_trump(policy, EVERYONE, new_state(), np.uint64(mask_of(hand)), array) == best


def test_random_trump_is_uniform():
    state = new_state(6)
    n = 8000
    array = Rules().to_array()
    counts = np.bincount([kp.choose_trump(kp.RANDOM, EVERYONE, state, np.uint64(0), array) for _ in range(n)],
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
               scores=(0, 0), bidder_arrays=NO_MODEL):
    """``kp.choose_bid`` for the seat after ``calls`` (opener first), with the team scores (team 0, team 1)."""
    position = len(calls)
    seat = (dealer + 1 + position) % 4
    codes = np.zeros(4, dtype=np.int64)
    codes[:position] = [PASS if c == "pass" else MOON if c == "moon" else c for c in calls]
    us, them = (scores[0], scores[1]) if seat % 2 == 0 else (scores[1], scores[0])
    return kp.choose_bid(policy, bidder_arrays, EVERYONE, state, hand, seat, dealer, codes, position, us, them, low, high,
                         moon_ok, must, array, max_points)


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
            for policy in (kp.RANDOM, kp.HEURISTIC, kp.HEURISTIC_V1):
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

    assert list(inspect.signature(kp.choose_bid.py_func).parameters) == ["policy", "bidder_arrays", "seated", *BID_ARGUMENTS]
    for player in (heuristic, heuristic_v1, kp.random):
        assert list(inspect.signature(player.bid.py_func).parameters) == BID_ARGUMENTS, player.__name__
    assert list(inspect.signature(kp.equity.bid.py_func).parameters) == ["bidder_arrays", *BID_ARGUMENTS]


@pytest.mark.parametrize("policy", ["heuristic", "heuristic-v1"])
def test_heuristic_bid_ignores_the_auction_the_dealer_and_the_score(policy):
    array = Rules().to_array()
    state = new_state()
    r = random.Random(4)
    for _ in range(300):
        hand = np.uint64(mask_of(r.sample(range(54), 9)))
        first = choose_bid(POLICIES[policy], state, hand, 3, 4, True, False, array, 4, calls=("pass", 2), dealer=0)
        other = choose_bid(POLICIES[policy], state, hand, 3, 4, True, False, array, 4, calls=(2, "pass"), dealer=2,
                           scores=(r.randint(-30, 20), r.randint(-30, 20)))
        assert first == other


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_heuristic_bid_follows_its_value(version):
    """A hand of no value passes (or bids the lowest when it must); the call never falls as the value rises."""
    module, policy = (heuristic_v1, kp.HEURISTIC_V1) if version == "v1" else (heuristic, kp.HEURISTIC)
    rules = Rules()
    array = rules.to_array()
    state = new_state()
    weak = np.uint64(mask_of(parse_cards("3S 5H 7D 9C 4S 6H 8D 3C 4D")))  # best suit worth about 0.3
    assert module.best_suit(weak, array)[1] < 0.5
    assert choose_bid(policy, state, weak, 2, 4, True, False, array, 4) == PASS
    assert choose_bid(policy, state, weak, 2, 4, True, True, array, 4) == 2  # must bid: the lowest
    assert choose_bid(policy, state, weak, 3, 4, False, True, array, 4) == 3
    strong = np.uint64(mask_of(parse_cards("AH KH 2H JH 10H QH JD 9S 4D")))  # worth about 3.6 in hearts
    assert choose_bid(policy, state, strong, 2, 4, False, False, array, 4) == 4
    r = random.Random(12)
    calls = []
    for _ in range(3000):
        hand = np.uint64(mask_of(biased_hand(r, 9, r.randrange(4))))
        value = module.best_suit(hand, array)[1]
        calls.append((value, int(choose_bid(policy, state, hand, 1, 4, False, False, array, 4))))
    calls.sort()
    assert all(a[1] <= b[1] for a, b in pairwise(calls))
    assert {c for _, c in calls} >= {2, 3, 4}


# -- play ------------------------------------------------------------------------------------------------------


def _play_states(rules: Rules, r: random.Random, n_records: int):
    """Every card decision of random legal hands, as (hand state, legal cards by the reference engine)."""
    done = 0
    while done < n_records:
        record = random_record(rules, r)
        if "plays" not in record:
            continue
        done += 1
        plays = record["plays"]
        for k in range(24):
            position = replay_position(parse_record(record | {"plays": plays[:k]}, partial=True))
            yield hand_state(position), position.legal()


def situation(seat: int, hand: str, t: int, *, trick: str = "", seen: str = "", bidder: int = 0, bid: int = 3,
              voids: tuple[tuple[int, int], ...] = (), played_before: str = "") -> np.ndarray:
    """A hand state for a decision of ``seat``, holding ``hand``: ``trick`` is the trick so far (led by the seat
    that many places before ``seat``), ``seen`` more cards the seat saw before play (discards, the kitty),
    ``played_before`` cards played in earlier tricks (by the seat's left-hand opponent, taken by nobody),
    ``voids`` (seat, suit) pairs shown. The other hands get the rest of the deck: the players never read them."""
    own = parse_cards(hand)
    cards = parse_cards(trick) if trick else []
    earlier = parse_cards(played_before) if played_before else []
    leader = (seat - len(cards)) % 4
    rest = [c for c in range(54) if c not in own + cards + earlier + (parse_cards(seen) if seen else [])]
    hands = [0, 0, 0, 0]
    hands[seat] = mask_of(own)
    for k, other in enumerate(s for s in range(4) if s != seat):
        hands[other] = mask_of(rest[6 * k: 6 * k + 6])
    known = [h for h in hands]
    known[seat] |= mask_of(parse_cards(seen)) if seen else 0
    hs = np.zeros(ST_SIZE, dtype=np.int64)
    ks.start_play(hs, np.array(hands, dtype=np.uint64), np.array(known, dtype=np.uint64), t, bidder, bid, 0, 0)
    hs[ST_LEADER] = leader
    hs[ST_PLAYED + (seat + 1) % 4] = mask_of(earlier)
    for seat_void, suit in voids:
        hs[ST_VOIDS] |= 1 << (4 * seat_void + suit)
    rules = Rules().to_array()
    for c in cards:
        hs[ST_HANDS + ks.to_play(hs)] |= 1 << c
        ks.apply_card(hs, c, rules)
    assert ks.to_play(hs) == seat
    return hs


def play(policy: int, hs: np.ndarray, rules: Rules | None = None) -> int:
    rules = rules or Rules()
    array = rules.to_array()
    give, _ = policy_tables(array)
    legal = np.uint64(ks.legal_cards(hs, array))  # a uint64, as the kernels' hands pass it
    return int(kp.search_play(policy, kp.seated_arg([policy]), new_state(), hs, legal, array, give,
                              np.array([policy, policy], dtype=np.int64), NO_MODEL, new_net_work(NO_MODEL)))


@pytest.mark.parametrize("rules", [Rules(), Rules(trump_anytime=True, round_points=True, low_to="taker")],
                         ids=["defaults", "trump_anytime_round_points_taker"])
def test_choose_play_is_always_legal(rules):
    array = rules.to_array()
    give, _ = policy_tables(array)
    state = new_state(8)
    n = 0
    for hs, legal in _play_states(rules, random.Random(str(rules)), 40):
        kernel_legal = np.uint64(ks.legal_cards(hs, array))  # a uint64, as the kernels' hands pass it
        assert cards_in(kernel_legal) == legal
        for policy in (kp.RANDOM, kp.HEURISTIC, kp.HEURISTIC_V1, policy_code("pimc:2"), policy_code("expert:2")):
            c = kp.search_play(policy, kp.seated_arg([policy]), state, hs, kernel_legal, array, give,
                               np.array([policy, policy], dtype=np.int64), NO_MODEL, new_net_work(NO_MODEL))
            assert c in legal, (policy, legal)
        n += 1
    assert n == 40 * 24


def test_heuristic_v1_bidder_leads_its_boss_trump():
    v1 = kp.HEURISTIC_V1
    assert play(v1, situation(0, "AH 5C 7D", 1)) == card(ACE, 1)
    # The king is not the boss while the ace is unseen: with one trump it leads its cheapest non-trump...
    assert play(v1, situation(0, "KH 5C 7D", 1)) == parse_cards("5C")[0]
    # ...but once the ace has been played the king is the boss, and the bidder draws trump with it.
    assert play(v1, situation(0, "KH 5C 7D", 1, seen="AH")) == card(KING, 1)
    # A defender leads its boss off-suit ace rather than its trump.
    assert play(v1, situation(1, "AH AS 7D", 1)) == card(ACE, 0)


def test_heuristic_v1_smears_points_on_its_partners_sure_trick_and_takes_with_a_boss():
    v1 = kp.HEURISTIC_V1
    # Seat 3 plays last; its partner (seat 1) is winning: it drops its ten, the richest card.
    assert play(v1, situation(3, "10C 5C 2S", 1, trick="3C KC 4C")) == card(TEN, 3)
    # Seat 1, second to play after an opponent's lead, takes with its boss ace rather than its low card.
    assert play(v1, situation(1, "AC 5C 2S", 1, trick="KC")) == card(ACE, 3)


# -- heuristic against random -----------------------------------------------------------------------------------


def test_duplicate_match_heuristic_beats_random_by_many_standard_errors():
    first = duplicate_match("heuristic", "random", deals=4000, seed=3)
    again = duplicate_match("heuristic", "random", deals=4000, seed=3)
    assert first.to_json() == again.to_json()  # deterministic given the seed
    margin = first.score_margin
    assert margin.se > 0
    assert margin.value > 10 * margin.se, margin  # about 2.8 points a hand, SE about 0.03


# -- heuristic v2: one example per fix of v1 -------------------------------------------------------------------

HEARTS = 1


def test_v2_fix1_an_off_suit_winner_is_sure_only_when_no_opponent_can_ruff():
    # Seat 2 plays third: its partner (seat 0) led the ace of clubs, seat 3 still to play may ruff.
    hs = situation(2, "10C 3C 5D", HEARTS, trick="AC 4C")
    assert play(kp.HEURISTIC_V1, hs) == parse_cards("10C")[0]  # v1 smears its ten on a trick that may be ruffed
    assert play(kp.HEURISTIC, hs) == parse_cards("3C")[0]
    hs = situation(2, "10C 3C 5D", HEARTS, trick="AC 4C", voids=((3, HEARTS),))  # seat 3 has no trump
    assert play(kp.HEURISTIC, hs) == parse_cards("10C")[0]


def test_v2_fix2_last_seat_takes_with_its_most_valuable_winner():
    hs = situation(3, "10H 8H 5C", HEARTS, trick="4H 6H 7H")  # an opponent's 7H wins; the 10H or 8H take it
    assert play(kp.HEURISTIC_V1, hs) == parse_cards("8H")[0]
    assert play(kp.HEURISTIC, hs) == parse_cards("10H")[0]
    # With the ace (boss: its value is safe later) and a low winner, it takes with the low one.
    hs = situation(3, "AH 8H 5C", HEARTS, trick="4H 6H 7H")
    assert play(kp.HEURISTIC, hs) == parse_cards("8H")[0]


def test_v2_fix3_second_hand_low_and_the_jack_catcher_kept():
    # Second hand, void in clubs, on a worthless club lead: v1 ruffs with its sure ace, v2 plays low.
    hs = situation(1, "AH 3D", HEARTS, trick="5C")
    assert play(kp.HEURISTIC_V1, hs) == card(ACE, HEARTS)
    assert play(kp.HEURISTIC, hs) == parse_cards("3D")[0]
    # Last hand: the ace is the card that captures the unseen jack; a worthless trick is not worth it.
    hs = situation(3, "AH 3D", HEARTS, trick="5C 6C 7C")
    assert play(kp.HEURISTIC_V1, hs) == card(ACE, HEARTS)
    assert play(kp.HEURISTIC, hs) == parse_cards("3D")[0]
    # ... but the trick with the ten of clubs is.
    assert play(kp.HEURISTIC, situation(3, "AH 3D", HEARTS, trick="5C 4C 10C")) == card(ACE, HEARTS)


def test_v2_fix4_defence_leads_trump_while_the_contract_is_open():
    hs = situation(1, "4H 5H 9C", HEARTS, bidder=0, bid=3)  # seat 1 defends against seat 0's 3
    assert play(kp.HEURISTIC_V1, hs) == parse_cards("9C")[0]
    assert play(kp.HEURISTIC, hs) == parse_cards("4H")[0]


def test_v2_fix5_high_is_valued_by_the_high_rule():
    king_top = np.uint64(mask_of(parse_cards("KH 5H 6H 3S 4S 5D 6D 7C 8C")))
    without_king = np.uint64(mask_of(parse_cards("9H 5H 6H 3S 4S 5D 6D 7C 8C")))
    ace = Rules().to_array()
    highest = Rules(high="highest").to_array()
    assert heuristic.suit_value(king_top, HEARTS, ace) == pytest.approx(
        heuristic.suit_value(without_king, HEARTS, ace) + 0.10)  # only the 0.10 a king holds to capture the jack
    assert heuristic_v1.suit_value(king_top, HEARTS, ace) > heuristic_v1.suit_value(without_king, HEARTS, ace) + 0.4
    # under high=highest the king is top unless an opponent holds the ace: 27/45
    assert heuristic.suit_value(king_top, HEARTS, highest) - heuristic.suit_value(king_top, HEARTS, ace) == \
        pytest.approx(27 / 45)


def test_v2_fix6_moon_only_with_the_jack():
    """v1 shoots the moon on A-2 without the jack (such hands succeed under half the time); v2 needs the jack."""
    array = Rules().to_array()
    no_jack = np.uint64(mask_of(parse_cards("AH 2H KH QH 10H AS AC AD 6D")))
    with_jack = np.uint64(mask_of(parse_cards("AH 2H JH AS AC KD 4S 5C 6D")))
    state = new_state()
    calls = np.zeros(4, dtype=np.int64)

    def call(policy, hand):
        return kp.choose_bid(policy, NO_MODEL, EVERYONE, state, hand, 0, 3, calls, 0, 0, 0, 2, 4, True, True, array, 4)

    assert call(kp.HEURISTIC_V1, no_jack) == MOON
    assert call(kp.HEURISTIC, no_jack) != MOON
    assert call(kp.HEURISTIC, with_jack) == MOON


def _search_play_signature(seated):
    """The argument types the hand kernels call :func:`smear_sim.kernels.players.search_play` with, at a table of
    ``seated``."""
    return (numba.int64, numba.typeof(seated), numba.uint64[::1], numba.int64[::1], numba.uint64,
            numba.int64[::1], numba.int64[:, ::1], numba.int64[::1], numba.typeof(no_bidder_arrays()),
            numba.typeof(new_net_work(no_bidder_arrays())))


# The card play of a pimc table, then of an oracle table, compiled by a fresh process: the number of signatures pimc's
# card play, expert's, the oracle's and the solver's card value have after each. The players' functions and the
# solver's entry are kept from the cache, so that they compile and count; the code below them loads from it.
_FRESH_COMPILE = """
import sys
import numba
from numba.core.caching import NullCache
from numba.core.registry import CPUDispatcher
from smear_sim.core.bidder import no_bidder_arrays
from smear_sim.core.players import policy_code
from smear_sim.kernels import players as kp, solver
from smear_sim.kernels.players import expert, pimc
from smear_sim.kernels.players.net import new_net_work
""" + inspect.getsource(_search_play_signature) + """
players = [value for name, module in list(sys.modules.items()) if name.startswith("smear_sim.kernels.players")
           for value in vars(module).values() if isinstance(value, CPUDispatcher)]
for dispatcher in [*players, solver.card_value]:
    dispatcher._cache = NullCache()
for table in ("pimc:2", "oracle"):
    kp.search_play.compile(_search_play_signature(kp.seated_arg([policy_code(table)])))
    print(len(pimc.play.signatures), len(expert.play.signatures), len(pimc.oracle.signatures),
          len(solver.card_value.signatures))
"""


def test_a_kernel_compiles_only_the_search_player_at_its_table():
    """``seated`` decides, by its type, which players' code a kernel compiles: a search player's where it plays
    (pimc's, not the oracle's nor expert's, and the other way round), with their solver. A fresh process, where every
    player's functions and the solver's entry compile rather than load from the cache. (That heuristic players compile
    none of it is tests/engine/test_compiling.py's first ``hand``.)"""
    done = subprocess.run([sys.executable, "-c", _FRESH_COMPILE], capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["1 0 0 1", "1 0 1 1"]


def test_the_search_compile_units_are_compiled_with_the_types_the_kernels_call_them_with():
    """Each search compile unit a second process compiles for a first run (kernels/compile_units.py) has the very
    signature the kernels compile it with: otherwise the helper's work would be lost and the main process compile it
    again. Once the card play of a pimc table and of an expert table is in the suite's cache (compiled there by
    whichever process first needed it), each unit's cache index holds that one signature. (The other units:
    tests/engine/test_compiling.py.)"""
    for table in ("pimc:2", "expert:2"):
        kp.search_play.compile(_search_play_signature(kp.seated_arg([policy_code(table)])))
    for dispatcher, sig in compile_units.WORLDS + compile_units.EXPERT_PLAY + compile_units.PIMC_PLAY:
        compiled = {key[0] for key in dispatcher._cache._cache_file._load_index()}
        assert compiled == {tuple(sig)}, (dispatcher.py_func.__qualname__, compiled)


# -- the dispatch, written from the registry ---------------------------------------------------------------------

DISPATCH = {"bid": kp.choose_bid, "trump": kp.choose_trump, "keep": kp.keep_choice, "play": kp.choose_play,
            "search_trump_keep": kp.search_trump_keep, "search_keep": kp.search_keep, "search_play": kp.search_play}


def test_every_registered_player_is_dispatched_for_each_decision_it_makes():
    """Each decision's dispatch has a branch for every player that makes it (core.players.PLAYERS' ``decisions``), to
    that player's own function (its module's DECISIONS; ``bid`` from the player it calls as), and none for the others,
    which decide as heuristic does."""
    import importlib

    from smear_sim.core.players import DECISIONS, PLAYERS
    from smear_sim.kernels.players import bids

    assert set(DISPATCH) == set(DECISIONS)
    for kind, p in enumerate(PLAYERS):
        for decision, dispatch in DISPATCH.items():
            branch = dispatch.py_func.__globals__.get(f"_player_{kind}")
            if decision not in p.decisions or p.group is None:
                assert branch is None, (p.name, decision)
                continue
            owner = p.calls_as if decision == "bid" and p.calls_as else p.name
            kernel_module = bids.PLAYERS[POLICIES_INDEX[owner]].kernel_module
            module = importlib.import_module(f"smear_sim.kernels.players.{kernel_module}")
            function, _ = module.DECISIONS[decision]
            assert branch.__globals__["function"] is function, (p.name, decision)  # bids.when's namespace
    default = kp.choose_play.py_func.__globals__["_default"]
    assert default is heuristic.play and kp.choose_trump.py_func.__globals__["_default"] is heuristic.trump


POLICIES_INDEX = {name: i for i, name in enumerate(ALL_POLICIES)}


def test_the_fast_players_decide_through_the_dispatch_as_their_own_functions():
    """Called through the generated dispatch, each fast player's trump, keep and card are its module's."""
    from smear_sim.kernels.players import random as random_player

    rules = Rules().to_array()
    give, keep = policy_tables(rules)
    fast = kp.seated_arg([kp.RANDOM, kp.HEURISTIC, kp.HEURISTIC_V1])
    r = random.Random(5)
    for _ in range(30):
        hand = np.uint64(mask_of(r.sample(range(54), 9)))
        assert kp.choose_trump(kp.HEURISTIC_V1, fast, new_state(), hand, rules) == heuristic_v1.trump(hand, rules)
        assert kp.choose_trump(kp.HEURISTIC, fast, new_state(), hand, rules) == heuristic.trump(hand, rules)
        assert kp.choose_trump(kp.RANDOM, fast, new_state(3), hand, rules) == random_player.trump(new_state(3))
        room = np.int64(4)
        assert kp.keep_choice(kp.HEURISTIC_V1, fast, new_state(), hand, room, keep[1]) == \
            heuristic_v1.choose_cards(hand, room, keep[1])


def test_an_unregistered_policy_code_fails_loudly():
    """A code of no registered player is refused where a table is seated, in Python and in the kernels, never
    played as heuristic."""
    from numba import njit

    unknown = len(ALL_POLICIES)
    with pytest.raises(ValueError, match="no registered player"):
        kp.seated_arg([kp.HEURISTIC, unknown])

    @njit
    def seat(policies, seated):
        kp.check_seated(policies, seated)
        return True

    heuristic_only = kp.seated_arg([kp.HEURISTIC])
    assert seat(np.array([kp.HEURISTIC, kp.HEURISTIC]), heuristic_only)
    with pytest.raises(ValueError, match="no registered player"):
        seat(np.array([kp.HEURISTIC, unknown + 256 * 3]), heuristic_only)
