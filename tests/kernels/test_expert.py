"""The strongest player, ``expert:K`` (smear_sim/kernels/players/expert.py): its worlds honour the auction, its
trump and keep candidates obey the discard rule, the solver's leaves hold each outcome's P(win the game) with its
points below, its hands carry the auction and the world counts, and its results do not depend on threads or chunks.
Also the outcome of a solver line (``outcome_codes.line_outcome``, the hint's double-dummy playout)."""

from __future__ import annotations

import numpy as np
import pytest

from smear_sim.analysis.session_tables import player_bidder_arrays
from smear_sim.core.layout import (
    BM_SOLVE_FLOOR,
    MOON,
    OUT_MAX,
    OUT_MOON_FAILED,
    OUT_MOON_MADE,
    OUT_NUMERIC,
    PASS,
    REC_BIDS,
    REC_SIZE,
    ST_BID,
    ST_BIDDER,
    ST_CALLS,
    ST_DEALER,
    ST_FALLBACKS,
    ST_HANDS,
    ST_N_CALLS,
    ST_PLAYED,
    ST_SIZE,
    ST_WORLDS,
)
from smear_sim.core.players import EXPERT_WITHOUT_SCALE, policy_array, policy_code
from smear_sim.core.rules import Rules
from smear_sim.core.tables import TABLES
from smear_sim.kernels import state as ks
from smear_sim.kernels.bits import ZERO
from smear_sim.kernels.equity import outcome_win
from smear_sim.kernels.hand import auction, card_pool, deal_playable, play_hand, scratch
from smear_sim.kernels.outcome_codes import line_outcome, numeric_code
from smear_sim.kernels.players import expert as ke
from smear_sim.kernels.players import policy_tables, seated_arg
from smear_sim.kernels.players.bids import EXPERT_NO_CALLS, EXPERT_NO_GAME, EXPERT_NO_KEEP, policy_call
from smear_sim.kernels.rng import stream_key
from smear_sim.kernels.solver import (
    LEAF_MOON_FAILED,
    LEAF_MOON_MADE,
    LEAF_POINTS,
    LEAF_SIZE,
    new_solver,
    solve,
    solve_value,
)

RULES = Rules()
ARRAY = RULES.to_array()
POLICIES = ("expert:2", "heuristic")
CODES = policy_array(POLICIES)
SEATED = seated_arg(CODES)
MODEL = player_bidder_arrays(POLICIES, RULES)
GIVE, KEEP = policy_tables(ARRAY)


def popcount(mask) -> int:
    return bin(int(mask)).count("1")


def first_lead(seed: int, dealer: int = 3):
    """A real deal and auction (the teams playing ``POLICIES``), everyone keeping as the heuristic does, at the
    first lead: ``(hs, calls, hands)``, or None when everyone passed."""
    state, deck, hands, known, rec, hs = scratch()
    pool, _ = card_pool(ZERO)
    state[0] = stream_key(np.uint64(seed), 0)
    deal_playable(state, pool, 54, -1, ZERO, deck, hands, True)
    bidder, bid = auction(state, hands, np.int64(dealer), 0, 0, ARRAY, CODES, MODEL, SEATED, rec)
    if bidder < 0:
        return None
    for seat in range(4):
        known[seat] = hands[seat]
    known[bidder] |= hands[4]
    t = int(ke.heuristic.trump(known[bidder], ARRAY))
    kept = np.array([ke.heuristic_keep(known[s], t, KEEP[t]) for s in range(4)], dtype=np.uint64)
    ks.start_play(hs, kept, known, t, bidder, bid, 0, 0)
    hs[ST_DEALER] = dealer
    hs[ST_N_CALLS] = 4
    hs[ST_CALLS: ST_CALLS + 4] = rec[REC_BIDS: REC_BIDS + 4]
    return hs, rec[REC_BIDS: REC_BIDS + 4].copy(), hands.copy()


def test_the_worlds_it_plays_on_replay_the_auction():
    """A world the card player samples (worlds that fitted, not the fallback) gives every other seat a dealt hand
    that makes its call under its team's policy, and holds the observer's own cards; the state counts every world
    and every fallback."""
    checked = 0
    fell_back = 0
    for seed in range(12):
        found = first_lead(seed)
        if found is None:
            continue
        hs, calls, _ = found
        dealer = int(hs[ST_DEALER])
        for observer in range(4):
            world = np.zeros(ST_SIZE, dtype=np.int64)
            dealt = np.zeros(4, dtype=np.uint64)
            work = np.zeros(4, dtype=np.int64)
            rng = np.zeros(1, dtype=np.uint64)
            for i in range(3):
                rng[0] = stream_key(np.uint64(100 + seed), 4 * observer + i)
                before = (hs[ST_WORLDS], hs[ST_FALLBACKS])
                tries = ke.auction_world(rng, hs, observer, ARRAY, CODES, MODEL, True, work, world, dealt)
                assert hs[ST_WORLDS] == before[0] + 1 and hs[ST_FALLBACKS] == before[1] + (tries < 0)
                assert world[ST_HANDS + observer] == hs[ST_HANDS + observer]
                if tries < 0:
                    fell_back += 1
                    continue
                for position in range(4):
                    seat = (dealer + 1 + position) % 4
                    if seat == observer:
                        continue
                    held = np.uint64(world[ST_HANDS + seat]) | np.uint64(world[ST_PLAYED + seat])
                    assert held & ~dealt[seat] == 0 or seat == hs[ST_BIDDER]  # the bidder's 6 may come from the kitty
                    call = policy_call(rng, dealt[seat], dealer, position, calls, 0, 0, ARRAY, CODES, MODEL, SEATED)
                    assert call == calls[position], (seed, observer, position)
                checked += 1
    assert checked >= 60 and fell_back <= checked // 4, (checked, fell_back)


def test_without_an_auction_the_worlds_ignore_the_calls():
    """Hand analysis (no auction: ST_N_CALLS 0) draws one world a time, never falling back."""
    found = first_lead(3)
    assert found is not None
    hs = found[0]
    hs[ST_N_CALLS] = 0
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = stream_key(np.uint64(7), 0)
    world = np.zeros(ST_SIZE, dtype=np.int64)
    for _ in range(5):
        assert ke.auction_world(rng, hs, 1, ARRAY, CODES, MODEL, True, np.zeros(4, dtype=np.int64), world,
                                np.zeros(4, dtype=np.uint64)) == 1


def _obeys_the_discard_rule(hand: int, t: int, kept: int) -> bool:
    scoring = hand & int(TABLES.scoring_trump_mask[t])
    trumps = hand & int(TABLES.trump_mask[t])
    if popcount(kept) != 6 or kept & ~hand:
        return False
    if popcount(trumps) <= 6:
        return kept & trumps == trumps
    if popcount(scoring) <= 6:
        return kept & scoring == scoring and kept & ~trumps == 0
    return kept & ~scoring == 0


def test_candidate_keeps_obey_the_discard_rule_and_start_with_the_heuristic():
    rng = np.random.default_rng(5)
    for _ in range(300):
        cards = rng.choice(54, size=13, replace=False)
        hand = np.uint64(sum(1 << int(c) for c in cards))
        for t in range(4):
            out = np.zeros(ke.MAX_CANDIDATES, dtype=np.uint64)
            n = ke.candidate_keeps(hand, t, KEEP[t], out, 0)
            assert 1 <= n <= ke.MAX_CANDIDATES
            assert out[0] == ke.heuristic_keep(hand, t, KEEP[t])
            assert len(set(out[:n].tolist())) == n
            for a in range(n):
                assert _obeys_the_discard_rule(int(hand), t, int(out[a])), (t, a)


_DECK = np.uint64((1 << 54) - 1)


def _mask(cards) -> np.uint64:
    return np.uint64(sum(1 << c for c in cards))


def test_keeps_that_differ_in_a_worthless_card_with_nothing_of_another_hand_between_play_out_the_same():
    from smear_sim.core.cards import parse_card

    own = [parse_card(c) for c in ("4S", "5S", "6S", "10S", "AH", "KH", "2H", "3D", "9D", "QC")]
    keep = [parse_card(c) for c in ("AH", "KH", "2H", "3D", "9D")]
    t = parse_card("AH") // 13  # hearts are trump, spades plain

    def with_(card: str) -> np.uint64:
        return _mask(keep + [parse_card(card)])

    assert ke.same_outcomes(with_("4S"), with_("6S"), t, _mask(own))  # 5S is the seat's own
    assert not ke.same_outcomes(with_("4S"), with_("6S"), t, _mask(own) & ~_mask([parse_card("5S")]))
    assert not ke.same_outcomes(with_("6S"), with_("10S"), t, _mask(own))  # the ten is worth 10 card points
    assert not ke.same_outcomes(with_("4S"), with_("3D"), t, _mask(own))  # two suits
    assert not ke.same_outcomes(with_("4S"), with_("4S"), t, _mask(own))  # the same keep


@pytest.mark.parametrize("rules", [Rules(), Rules(round_points=True, low="lowest", low_to="taker")],
                         ids=["defaults", "round_points"])
def test_keeps_with_the_same_outcomes_are_worth_the_same_on_every_world(rules):
    """What lets the expert skip a candidate's solve in a world: two keeps that same_outcomes pairs, given the cards
    no other hand holds in that world, have the same double-dummy value there, and some pairs it refuses differ.
    A pair found from the seat's own cards alone is found in every world."""
    array = rules.to_array()
    rng = np.random.default_rng(8)
    solver = new_solver()
    kept = np.zeros(4, dtype=np.uint64)
    st = np.zeros(ST_SIZE, dtype=np.int64)
    pairs = refused_differ = 0
    for _ in range(400):
        deck = rng.permutation(54 if rules.round_points else 52)
        own, rest = [int(c) for c in deck[:10]], [int(c) for c in deck[10:28]]
        t = int(rng.integers(4))
        out = np.zeros(ke.MAX_CANDIDATES, dtype=np.uint64)
        n = ke.candidate_keeps(_mask(own), t, KEEP[t], out, 0)
        for a in range(n):
            for e in range(a):
                same = ke.same_outcomes(out[a], out[e], t, _DECK & ~_mask(rest))
                assert same or not ke.same_outcomes(out[a], out[e], t, _mask(own))
                values = []
                for keep_ in (out[a], out[e]):
                    kept[:] = [keep_, _mask(rest[:6]), _mask(rest[6:12]), _mask(rest[12:])]
                    ks.start_play(st, kept, kept, t, 0, 2, 0, 0)
                    values.append(solve_value(solver, st, array))
                if same:
                    pairs += 1
                    assert values[0] == values[1]
                else:
                    refused_differ += values[0] != values[1]
        if pairs >= 40 and refused_differ >= 5:
            break
    assert pairs >= 40 and refused_differ >= 5, (pairs, refused_differ)


def test_searched_trump_and_keep_are_legal_and_reproducible():
    checked = 0
    for seed in range(6):
        found = first_lead(seed)
        if found is None:
            continue
        checked += 1
        hs, calls, hands = found
        bidder = int(hs[ST_BIDDER])
        bid = int(hs[ST_BID])
        results = []
        for _ in range(2):
            rng = np.zeros(1, dtype=np.uint64)
            rng[0] = stream_key(np.uint64(seed), 99)
            packed = ke.trump_keep(rng, hands[bidder], hands[4], bidder, -1, 3, calls, 4, 0, 0, bid, ARRAY, KEEP,
                                   CODES, MODEL, 2)
            results.append(int(packed))
        assert results[0] == results[1]
        t = results[0] >> 56
        kept = results[0] & ((1 << 54) - 1)
        assert 0 <= t < 4 and _obeys_the_discard_rule(int(hands[bidder] | hands[4]), t, kept)
        defender = (bidder + 1) % 4
        rng = np.zeros(1, dtype=np.uint64)
        rng[0] = stream_key(np.uint64(seed), 98)
        kept = int(ke.keep(rng, hands[defender], defender, bidder, t, 3, calls, 4, 0, 0, bid, ARRAY, KEEP, CODES,
                           MODEL, 2))
        assert _obeys_the_discard_rule(int(hands[defender]), t, kept)
    assert checked >= 3, checked  # most seeds' first hands reach a first lead


def _best_by_totals(seed, seat, own9, kitty, bidder, bid, calls, trumps, keeps, k) -> int:
    """The candidate of highest total ``(P(win), points)`` over ``keep_values``'s worlds, the first among equals."""
    n = len(trumps)
    worlds = k % EXPERT_WITHOUT_SCALE
    wins = np.zeros((n, worlds), dtype=np.int64)
    points = np.zeros((n, worlds), dtype=np.int64)
    rng = np.array([stream_key(np.uint64(seed), 97)], dtype=np.uint64)
    ke.keep_values(rng, seat, own9, kitty, bidder, trumps, keeps, n, 3, calls, 4, 0, 0, bid, ARRAY, KEEP, CODES, MODEL,
                   k, wins, points)
    total = [(int(wins[a].sum()), int(points[a].sum())) for a in range(n)]
    return max(range(n), key=lambda a: (total[a], -a))


@pytest.mark.parametrize("k", [6, 6 + EXPERT_WITHOUT_SCALE * EXPERT_NO_GAME], ids=["game", "points"])
def test_the_searched_trump_and_keep_is_the_candidate_of_best_total_over_its_worlds(k):
    """trump_keep and keep choose among their candidates (bidder_candidates, candidate_keeps) what solving every
    candidate on every world would (keep_values, on the same stream): the highest total P(win), then points, the
    first among equals, though they drop the candidates that cannot win without solving them. The bidder's first
    candidate is the heuristic's trump and keep."""
    checked = 0
    for seed in range(8):
        found = first_lead(seed)
        if found is None:
            continue
        hs, calls, hands = found
        bidder, bid = int(hs[ST_BIDDER]), int(hs[ST_BID])
        own = hands[bidder] | hands[4]
        trumps = np.zeros(ke.MAX_CANDIDATES, dtype=np.int64)
        keeps = np.zeros(ke.MAX_CANDIDATES, dtype=np.uint64)
        n = ke.bidder_candidates(own, -1, ARRAY, KEEP, trumps, keeps)
        first = int(trumps[0])
        assert (first, keeps[0]) == (ke.heuristic.trump(own, ARRAY), ke.heuristic_keep(own, first, KEEP[first]))
        if n > 1:
            checked += 1
            best = _best_by_totals(seed, bidder, hands[bidder], hands[4], bidder, bid, calls, trumps[:n], keeps[:n], k)
            rng = np.array([stream_key(np.uint64(seed), 97)], dtype=np.uint64)
            packed = int(ke.trump_keep(rng, hands[bidder], hands[4], bidder, -1, 3, calls, 4, 0, 0, bid, ARRAY, KEEP,
                                       CODES, MODEL, k))
            assert (packed >> 56, packed & ((1 << 54) - 1)) == (trumps[best], keeps[best])
        for seat in range(4):
            n = ke.candidate_keeps(hands[seat], first, KEEP[first], keeps, 0)
            if seat == bidder or n < 2:
                continue
            checked += 1
            trumps[:] = first
            best = _best_by_totals(seed, seat, hands[seat], ZERO, bidder, bid, calls, trumps[:n], keeps[:n], k)
            rng = np.array([stream_key(np.uint64(seed), 97)], dtype=np.uint64)
            assert ke.keep(rng, hands[seat], seat, bidder, first, 3, calls, 4, 0, 0, bid, ARRAY, KEEP, CODES, MODEL,
                           k) == keeps[best]
    assert checked >= 10, checked


def test_without_its_keep_it_leaves_trump_and_keep_to_the_heuristic():
    """``expert:K:no-keep`` searches neither: ZERO tells the hand to take the heuristic's trump and keep."""
    k = 2 + EXPERT_WITHOUT_SCALE * EXPERT_NO_KEEP
    rng = np.zeros(1, dtype=np.uint64)
    checked = 0
    for seed in range(6):
        found = first_lead(seed)
        if found is None:
            continue
        hs, calls, hands = found
        bidder, bid = int(hs[ST_BIDDER]), int(hs[ST_BID])
        rng[0] = stream_key(np.uint64(seed), 99)
        assert ke.trump_keep(rng, hands[bidder], hands[4], bidder, -1, 3, calls, 4, 0, 0, bid, ARRAY, KEEP, CODES,
                             MODEL, k) == ZERO
        defender = (bidder + 1) % 4
        assert ke.keep(rng, hands[defender], defender, bidder, 0, 3, calls, 4, 0, 0, bid, ARRAY, KEEP, CODES, MODEL,
                       k) == ZERO
        assert rng[0] == stream_key(np.uint64(seed), 99)  # nothing drawn: the stream stays as pimc's would
        checked += 1
    assert checked >= 3, checked


def test_without_its_calls_it_calls_as_the_heuristic():
    """``expert:K:no-calls`` calls as ``heuristic``, at every place of the auction and at any score."""
    no_calls = np.array([policy_code("expert:2:no-calls")] * 2, dtype=np.int64)
    assert no_calls[0] == CODES[0] + 256 * EXPERT_WITHOUT_SCALE * EXPERT_NO_CALLS
    heuristic = policy_array(("heuristic", "heuristic"))
    state = np.zeros(1, dtype=np.uint64)
    differ_from_equity = 0
    for n in range(300):
        hand = np.uint64(0)
        draw = np.random.default_rng(n).choice(54, 9, replace=False)
        for c in draw:
            hand |= np.uint64(1) << np.uint64(c)
        position, score0, score1 = n % 4, (7 * n) % 21, (11 * n) % 21
        calls = np.array([PASS, 2, PASS, PASS], dtype=np.int64) if n % 3 else np.full(4, PASS, dtype=np.int64)
        made = []
        for policies in (no_calls, heuristic, CODES[[0, 0]]):
            state[0] = stream_key(np.uint64(n), 1)
            made.append(policy_call(state, hand, 3, position, calls, score0, score1, ARRAY, policies, MODEL, SEATED))
        assert made[0] == made[1], n
        differ_from_equity += made[0] != made[2]
    assert differ_from_equity > 0  # the equity tables call otherwise on some hands


def _decode(code: int) -> tuple[int, int, int] | None:
    """``(side, delta, other)`` of a numeric outcome code (layout OUT_*), None for the others."""
    if code < OUT_NUMERIC or code >= OUT_MOON_MADE:
        return None
    x = code - OUT_NUMERIC
    width = OUT_MAX + 1
    return (x // width) // (2 * OUT_MAX + 1), (x // width) % (2 * OUT_MAX + 1) - OUT_MAX, x % width


def test_the_outcome_a_card_is_valued_by_has_the_solvers_value():
    """For every legal card of positions in play, the outcome that card leads to under the solver's line (the one
    its game value is read from) gives the bidding team exactly the solver's value (score change minus the other
    team's points)."""
    rng = np.random.default_rng(11)
    solver = new_solver(14)
    values = np.zeros(54, dtype=np.int64)
    rec = np.zeros(REC_SIZE, dtype=np.int64)
    checked = 0
    for seed in range(40):
        found = first_lead(seed)
        if found is None:
            continue
        hs = found[0]
        if hs[ST_BID] == MOON:
            continue
        for _ in range(int(rng.integers(0, 12))):  # some cards into the hand
            legal = ks.legal_cards(hs, ARRAY)
            cards = [c for c in range(54) if legal >> np.uint64(c) & np.uint64(1)]
            ks.apply_card(hs, int(rng.choice(cards)), ARRAY)
        solve(solver, hs, ARRAY, values)
        legal = ks.legal_cards(hs, ARRAY)
        team = ks.to_play(hs) & 1
        for c in [c for c in range(54) if legal >> np.uint64(c) & np.uint64(1)]:
            st = hs.copy()
            ks.apply_card(st, c, ARRAY)
            code = line_outcome(solver, st, values[c], ARRAY, rec, team)
            decoded = _decode(int(code))
            assert decoded is not None
            side, delta, other = decoded
            bidder_side = 0 if (hs[ST_BIDDER] & 1) == team else 1
            assert side == bidder_side
            assert delta - other == values[c], (seed, c)
            checked += 1
    assert checked > 50


@pytest.mark.parametrize(("bidder", "bid", "scores", "dealer"), [(0, 2, (0, 0), 3), (1, 3, (19, 19), 2),
                                                                (2, 4, (-5, 18), 1), (3, MOON, (10, 20), 0)])
def test_the_solvers_leaves_hold_each_outcomes_p_win_with_its_points_below(bidder, bid, scores, dealer):
    """``game_leaves`` gives the bidding team, for each way the points can fall, P(win the game) after that outcome
    (``outcome_win``) in fixed point and the points (score change minus the other team's) below it; the other
    team reads the same leaf as 1 - P(win) and minus the points."""
    grid, floor = MODEL[6], MODEL[0][BM_SOLVE_FLOOR]
    leaves = np.zeros(LEAF_SIZE, dtype=np.int64)
    ke.game_leaves(bidder, bid, scores[0], scores[1], dealer, ARRAY, MODEL, leaves)
    team = bidder & 1
    us, them = scores[team], scores[1 - team]
    next_dealer = 0 if (dealer + 1) % 2 == team else 1
    deltas = {won: won if won >= bid else -bid for won in range(5)} if bid != MOON else {}
    outcomes = [(won * LEAF_POINTS + other, numeric_code(0, delta, other), delta - other)
                for won, delta in deltas.items() for other in range(5 - won)]
    outcomes += [(LEAF_MOON_MADE, OUT_MOON_MADE, RULES.target), (LEAF_MOON_FAILED, OUT_MOON_FAILED, -RULES.target)]
    for at, code, points in outcomes:
        win = outcome_win(grid, floor, RULES.target, us, them, next_dealer, code)
        assert ke.game_part(leaves[at], True) == (round(win * ke.WIN_SCALE), points)
        assert ke.game_part(leaves[at], False) == (ke.WIN_SCALE - round(win * ke.WIN_SCALE), -points)


@pytest.mark.parametrize("policies", [("expert:2", "heuristic"), ("heuristic", "expert:2")])
def test_its_hands_carry_the_auction_and_the_world_counts(policies):
    codes = policy_array(policies)
    seated = seated_arg(codes)
    bidder_arrays = player_bidder_arrays(policies, RULES)
    state, deck, hands, known, rec, hs = scratch()
    pool, _ = card_pool(ZERO)
    give, keep = policy_tables(ARRAY)
    worlds = 0
    for i in range(4):
        state[0] = stream_key(np.uint64(3), i)
        deal_playable(state, pool, 54, -1, ZERO, deck, hands, True)
        play_hand(state, hands, known, hs, np.int64(i % 4), np.int64(0), np.int64(0), ARRAY, codes, bidder_arrays, seated,
                  np.int64(-1), np.int64(-1), give, keep, rec, np.bool_(False))
        if rec[REC_BIDS: REC_BIDS + 4].max() == PASS:
            continue
        assert hs[ST_DEALER] == i % 4 and hs[ST_N_CALLS] == 4
        assert list(hs[ST_CALLS: ST_CALLS + 4]) == list(rec[REC_BIDS: REC_BIDS + 4])
        assert 0 <= hs[ST_FALLBACKS] <= hs[ST_WORLDS]
        worlds += hs[ST_WORLDS]
    assert worlds > 0  # the expert searched, two worlds a decision


def test_results_do_not_depend_on_threads_or_chunks():
    from smear_sim import duplicate_games

    first = duplicate_games("expert:2", "heuristic", games=2, seed=4, threads=1, chunk_size=2)
    again = duplicate_games("expert:2", "heuristic", games=2, seed=4, threads=2, chunk_size=1)
    assert first.to_json() == again.to_json()


def test_the_fallbacks_can_be_counted():
    """The driver that reports them: every hand counted, fallbacks no more than worlds, none for heuristic players."""
    from smear_sim.kernels.drivers.hands import SEARCH_FALLBACKS, SEARCH_HANDS, SEARCH_WORLDS, search_worlds

    counts = search_worlds(np.uint64(2), 0, 4, 1, ARRAY, CODES, MODEL, SEATED).sum(axis=0)
    assert counts[SEARCH_HANDS] == 4 and counts[SEARCH_WORLDS] > 0 and counts[SEARCH_FALLBACKS] >= 0
    assert counts[SEARCH_FALLBACKS] <= counts[SEARCH_WORLDS]
    plain = policy_array(("heuristic", "heuristic"))
    counts = search_worlds(np.uint64(2), 0, 4, 1, ARRAY, plain, MODEL, seated_arg(plain)).sum(axis=0)
    assert counts[SEARCH_WORLDS] == 0
