"""expert throughput and its worlds' fallbacks (run from the repo root).

    python benchmarks/expert.py [--k 16] [--deals 100] [--threads 2] [--seed 1]

- match: `expert:K` and `pimc:K` each against `heuristic` in duplicate deals (each hand has one search team), hands
  per second on `--threads` threads and per CPU-second (on a shared machine the wall-clock rate depends on the
  others' load);
- worlds: on `--deals` hands with `expert:K` against `heuristic`, the worlds its card decisions drew and the share
  that fell back to ignoring the calls (no world fitting them in `worlds.MAX_TRIES` draws);
- decisions: on one thread, the mean time of the bidder's trump-and-keep search and of the opening lead's card
  search (K worlds each), over real deals and auctions (`expert:K` against `heuristic`).

    python benchmarks/expert.py --only worlds,decisions   # skip the matches
    python benchmarks/expert.py --only match --guided 1,2,3 --threads 1   # and guided:K:top-N for each N given
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from smear_sim import duplicate_match
from smear_sim.analysis.session_tables import player_bidder_arrays
from smear_sim.core.players import policy_array
from smear_sim.core.rules import Rules
from smear_sim.kernels.drivers.hands import SEARCH_FALLBACKS, SEARCH_HANDS, SEARCH_WORLDS, search_worlds
from smear_sim.kernels.players import seated_arg


def rate(player: str, deals: int, seed: int, threads: int) -> dict[str, float]:
    duplicate_match(player, "heuristic", deals=2, seed=seed + 1, threads=threads)  # compile first
    wall, cpu = time.perf_counter(), time.process_time()
    duplicate_match(player, "heuristic", deals=deals, seed=seed, threads=threads)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    hands = 2 * deals
    return {"hands_per_s": round(hands / wall, 2), "hands_per_cpu_s": round(hands / cpu, 2)}


def worlds(k: int, deals: int, seed: int) -> dict[str, float]:
    rules = Rules()
    policies = (f"expert:{k}", "heuristic")
    codes = policy_array(policies)
    counts = search_worlds(np.uint64(seed), 0, deals, 1, rules.to_array(), codes, player_bidder_arrays(policies, rules),
                           seated_arg(codes)).sum(axis=0)
    return {"hands": int(counts[SEARCH_HANDS]), "worlds": int(counts[SEARCH_WORLDS]),
            "fallbacks": int(counts[SEARCH_FALLBACKS]),
            "fallback_share": round(counts[SEARCH_FALLBACKS] / max(counts[SEARCH_WORLDS], 1), 4)}


def bid_deals(k: int, deals: int, seed: int):
    """Real deals and auctions, `expert:K`'s team against `heuristic`, dealer 3, at 0-0: for each of deals
    ``0..deals-1`` that someone bid, ``(i, state, hands, known, hs, bidder, bid, calls)``, from ``scratch`` (``state``
    is the deal's random stream, ``hands`` the 4 hands and the kitty). The tables they were played with are
    :func:`expert_tables`'s."""
    from smear_sim.core.layout import REC_BIDS
    from smear_sim.kernels.bits import ZERO
    from smear_sim.kernels.hand import auction, card_pool, deal_playable, scratch
    from smear_sim.kernels.rng import stream_key

    array, codes, bidder_arrays, _, _ = expert_tables(k)
    seated = seated_arg(codes)
    pool, _ = card_pool(ZERO)
    for i in range(deals):
        state, deck, hands, known, rec, hs = scratch()
        state[0] = stream_key(np.uint64(seed), i)
        deal_playable(state, pool, 54, -1, ZERO, deck, hands, True)
        bidder, bid = auction(state, hands, np.int64(3), 0, 0, array, codes, bidder_arrays, seated, rec)
        if bidder >= 0:
            yield i, state, hands, known, hs, bidder, bid, rec[REC_BIDS: REC_BIDS + 4].copy()


def expert_tables(k: int):
    """``(rules array, policy codes, bidder_arrays, give, keep)`` of `expert:K` against `heuristic` under the default
    rules."""
    from smear_sim.kernels.players import policy_tables

    rules = Rules()
    array = rules.to_array()
    policies = (f"expert:{k}", "heuristic")
    give, keep = policy_tables(array)
    return array, policy_array(policies), player_bidder_arrays(policies, rules), give, keep


def decisions(k: int, deals: int, seed: int) -> dict[str, float]:
    from smear_sim.core.layout import ST_CALLS, ST_DEALER, ST_N_CALLS
    from smear_sim.kernels import state as ks
    from smear_sim.kernels.players import expert

    array, codes, bidder_arrays, give, keep = expert_tables(k)
    trump_s, play_s, n = 0.0, 0.0, 0
    for i, state, hands, known, hs, bidder, bid, calls in bid_deals(k, deals + 1, seed):  # deal 0 compiles
        started = time.perf_counter()
        packed = expert.trump_keep(state, hands[bidder], hands[4], bidder, -1, 3, calls, 4, 0, 0, bid, array, keep,
                                   codes, bidder_arrays, k)
        middle = time.perf_counter()
        t = int(packed >> np.uint64(56))
        for seat in range(4):
            known[seat] = hands[seat]
        known[bidder] |= hands[4]
        kept = np.array([expert.heuristic_keep(known[s], t, keep[t]) for s in range(4)], dtype=np.uint64)
        kept[bidder] = packed & np.uint64((1 << 54) - 1)
        ks.start_play(hs, kept, known, t, bidder, bid, 0, 0)
        hs[ST_DEALER], hs[ST_N_CALLS] = 3, 4
        hs[ST_CALLS: ST_CALLS + 4] = calls
        lead_start = time.perf_counter()
        expert.play(state, hs, ks.legal_cards(hs, array), array, give, k, codes, bidder_arrays)
        done = time.perf_counter()
        if i > 0:
            trump_s += middle - started
            play_s += done - lead_start
            n += 1
    return {"bidder_hands": n, "trump_keep_ms": round(trump_s / max(n, 1) * 1e3, 2),
            "opening_lead_ms": round(play_s / max(n, 1) * 1e3, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=16)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="match,worlds,decisions")
    parser.add_argument("--guided", default="", help="comma-separated N: also match guided:K:top-N (the net's N "
                        "best keep candidates searched)")
    args = parser.parse_args()
    parts = args.only.split(",")
    out: dict = {"k": args.k, "deals": args.deals, "threads": args.threads, "seed": args.seed}
    if "match" in parts:
        out["expert"] = rate(f"expert:{args.k}", args.deals, args.seed, args.threads)
        out["pimc"] = rate(f"pimc:{args.k}", args.deals, args.seed, args.threads)
        for top in filter(None, args.guided.split(",")):
            name = f"guided:{args.k}:top-{int(top)}"
            out[name] = rate(name, args.deals, args.seed, args.threads)
    if "worlds" in parts:
        out["worlds"] = worlds(args.k, args.deals, args.seed)
    if "decisions" in parts:
        out["decisions"] = decisions(args.k, args.deals, args.seed)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
