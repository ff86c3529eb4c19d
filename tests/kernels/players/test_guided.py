"""The net-guided expert, ``guided:K:top-N`` (smear_sim/kernels/players/guided.py), with the tiny golden net: with N
at least the candidates it searches as ``expert`` does, draw for draw; with fewer it searches the net's best N as
``expert`` would search those alone; with one it keeps the net's choice and draws nothing; the net reads only the
seat's view."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from smear_sim.analysis.session_tables import player_bidder_arrays
from smear_sim.core.bidder import with_net
from smear_sim.core.layout import REC_BIDS
from smear_sim.core.players import GUIDED_TOP, NET_POLICIES, TOP_SCALE, player, policy_array
from smear_sim.core.rules import Rules
from smear_sim.engine.net_weights import kernel_arrays, load_net
from smear_sim.kernels.bits import ZERO
from smear_sim.kernels.hand import auction, card_pool, deal_playable, scratch
from smear_sim.kernels.players import expert as ke
from smear_sim.kernels.players import guided as kg
from smear_sim.kernels.players import net as netp
from smear_sim.kernels.players import policy_tables, seated_arg
from smear_sim.kernels.rng import stream_key

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "net" / "net.npz"
RULES = Rules()
ARRAY = RULES.to_array()
POLICIES = ("expert:2", "heuristic")
CODES = policy_array(POLICIES)
MODEL = with_net(player_bidder_arrays(POLICIES, RULES), kernel_arrays(load_net(GOLDEN)))
_, KEEP = policy_tables(ARRAY)
K = 2  # worlds a decision


def _deals(seeds=range(10)):
    """Real deals and auctions (the teams playing ``POLICIES``): ``(seed, hands, bidder, bid, calls, trump)`` for each
    seed someone bid on, the trump the heuristic's."""
    seated = seated_arg(CODES)
    pool, _ = card_pool(ZERO)
    for seed in seeds:
        state, deck, hands, known, rec, hs = scratch()
        state[0] = stream_key(np.uint64(seed), 0)
        deal_playable(state, pool, 54, -1, ZERO, deck, hands, True)
        bidder, bid = auction(state, hands, np.int64(3), 0, 0, ARRAY, CODES, MODEL, seated, rec)
        if bidder >= 0:
            trump = int(ke.heuristic.trump(hands[bidder] | hands[4], ARRAY))
            yield seed, hands.copy(), int(bidder), int(bid), rec[REC_BIDS: REC_BIDS + 4].copy(), trump


def _rng(seed):
    return np.array([stream_key(np.uint64(seed), 97)], dtype=np.uint64)


def _bidder(fn, seed, hands, bidder, bid, calls, k, *net_work):
    rng = _rng(seed)
    packed = int(fn(rng, hands[bidder], hands[4], bidder, -1, 3, calls, 4, 0, 0, bid, ARRAY, KEEP, CODES, MODEL, k,
                    *net_work))
    return packed, int(rng[0])


def _defender(fn, seed, hands, seat, bidder, bid, calls, t, k, *net_work):
    rng = _rng(seed)
    kept = int(fn(rng, hands[seat], seat, bidder, t, 3, calls, 4, 0, 0, bid, ARRAY, KEEP, CODES, MODEL, k, *net_work))
    return kept, int(rng[0])


def _top(seat, kitty, bidder, trumps, keeps, n, top, bid, calls, work):
    return kg.net_top(seat, kitty, bidder, trumps, keeps, n, top, 3, calls, 4, 0, 0, bid, ARRAY, MODEL, work)


def test_with_n_at_least_its_candidates_it_searches_as_expert_draw_for_draw():
    """The guidance switched off (``top-12``): the same trump and keep as ``expert:K``, and the random stream left
    where expert leaves it."""
    work = netp.new_net_work(MODEL)
    checked = 0
    for seed, hands, bidder, bid, calls, t in _deals():
        assert (_bidder(kg.trump_keep, seed, hands, bidder, bid, calls, K + TOP_SCALE * 12, work)
                == _bidder(ke.trump_keep, seed, hands, bidder, bid, calls, K))
        for seat in range(4):
            if seat != bidder:
                assert (_defender(kg.keep, seed, hands, seat, bidder, bid, calls, t, K + TOP_SCALE * 12, work)
                        == _defender(ke.keep, seed, hands, seat, bidder, bid, calls, t, K))
                checked += 1
    assert checked >= 15, checked


def test_it_searches_the_nets_best_n_as_expert_searches_them():
    """``top-N`` with fewer than the candidates: the N of highest keep-head value, in their own order, then
    expert's search over those alone (:func:`expert.value_keeps`, the same stream)."""
    work = netp.new_net_work(MODEL)
    trumps = np.zeros(ke.MAX_CANDIDATES, dtype=np.int64)
    keeps = np.zeros(ke.MAX_CANDIDATES, dtype=np.uint64)
    narrowed = 0
    for seed, hands, bidder, bid, calls, _ in _deals():
        n = ke.bidder_candidates(hands[bidder] | hands[4], -1, ARRAY, KEEP, trumps, keeps)
        values = [netp.keep_value(bidder, hands[4], bidder, trumps[a], keeps[a], 3, calls, 4, 0, 0, bid, ARRAY, MODEL,
                                  work) for a in range(n)]
        for top in (1, 2, 3):
            if top >= n:
                continue
            narrowed += 1
            best = sorted(range(n), key=lambda a: (-values[a], a))[:top]
            chosen = sorted(best)
            t_sub = trumps[chosen].copy()
            k_sub = keeps[chosen].copy()
            t_top, k_top = trumps.copy(), keeps.copy()
            assert _top(bidder, hands[4], bidder, t_top, k_top, n, top, bid, calls, work) == top
            assert list(t_top[:top]) == list(t_sub) and list(k_top[:top]) == list(k_sub)
            packed, after = _bidder(kg.trump_keep, seed, hands, bidder, bid, calls, K + TOP_SCALE * top, work)
            if top == 1:  # the net's choice, with nothing drawn
                assert packed == int(k_sub[0]) | (int(t_sub[0]) << 56) and after == int(_rng(seed)[0])
                net_choice = int(netp.trump_keep(hands[bidder], hands[4], bidder, -1, 3, calls, 4, 0, 0, bid, ARRAY,
                                                 KEEP, MODEL, work))
                assert packed == net_choice
                continue
            rng = _rng(seed)
            a = ke.value_keeps(rng, bidder, hands[bidder], hands[4], bidder, t_sub, k_sub, top, 3, calls, 4, 0, 0,
                               bid, ARRAY, KEEP, CODES, MODEL, K)
            assert packed == int(k_sub[a]) | (int(t_sub[a]) << 56) and after == int(rng[0])
    assert narrowed >= 10, narrowed


def test_a_defenders_guidance_does_not_read_the_kitty():
    """The net values a defender's candidates on its view: whatever kitty the call is handed, the same N pass."""
    work = netp.new_net_work(MODEL)
    checked = 0
    for _, hands, bidder, bid, calls, t in _deals():
        for seat in range(4):
            keeps = np.zeros(ke.MAX_CANDIDATES, dtype=np.uint64)
            n = ke.candidate_keeps(hands[seat], t, KEEP[t], keeps, 0)
            if seat == bidder or n < 3:
                continue
            passed = set()
            for kitty in (ZERO, hands[4], np.uint64(0b1111 << 40)):
                trumps = np.full(ke.MAX_CANDIDATES, t, dtype=np.int64)
                k_top = keeps.copy()
                m = _top(seat, kitty, bidder, trumps, k_top, n, 2, bid, calls, work)
                passed.add(tuple(int(x) for x in k_top[:m]))
            assert len(passed) == 1
            checked += 1
    assert checked >= 3, checked


def test_without_a_net_nothing_is_dropped():
    work = netp.new_net_work(MODEL)
    trumps = np.arange(5, dtype=np.int64) % 4
    keeps = np.arange(1, 6, dtype=np.uint64)
    bare = player_bidder_arrays(POLICIES, RULES)
    assert kg.net_top(0, ZERO, 0, trumps, keeps, 5, 1, 3, np.zeros(4, np.int64), 4, 0, 0, 2, ARRAY, bare, work) == 5
    assert list(keeps) == [1, 2, 3, 4, 5]


def test_the_registry_entry():
    p = player("guided")
    assert p.reads_net and p.reads_tables and p.searches and p.calls_as == "equity" and not p.plays_out
    assert "guided" in NET_POLICIES and p.parts == player("expert").parts and p.top.default == GUIDED_TOP
    assert p.decisions == player("expert").decisions
    assert kg.DECISIONS["search_play"] == ke.DECISIONS["search_play"]  # its cards are expert's
    assert set(kg.DECISIONS) == {d for d in p.decisions if d != "bid"}


@pytest.mark.parametrize("k", [2])
def test_whole_hands_with_the_guidance_off_are_experts(monkeypatch, k):
    """Traced hands of ``guided:K:top-12`` against heuristic are ``expert:K``'s, card for card; ``top-1`` plays legal
    hands (the reference engine replays each)."""
    from smear_sim.analysis.simulate import trace_records
    from smear_sim.reference.record import score_record

    monkeypatch.setenv("SMEAR_SIM_NET", str(GOLDEN))

    def cards(records):
        return [{key: r[key] for key in r if key not in ("policies", "policy")} for r in records]

    expert = trace_records(6, seed=11, policies=f"expert:{k},heuristic")
    assert cards(trace_records(6, seed=11, policies=f"guided:{k}:top-12,heuristic")) == cards(expert)
    for record in trace_records(6, seed=11, policies=f"heuristic,guided:{k}:top-1"):
        score_record(record)
