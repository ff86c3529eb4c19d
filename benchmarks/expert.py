"""expert throughput and its worlds' fallbacks (run from the repo root).

    python benchmarks/expert.py [--k 16] [--deals 100] [--threads 2] [--seed 1]

- match: `expert:K` and `pimc:K` each against `heuristic` in duplicate deals (each hand has one search team), hands
  per second on `--threads` threads and per CPU-second (on a shared machine the wall-clock rate depends on the
  others' load);
- worlds: on `--deals` hands with `expert:K` against `heuristic`, the worlds its card decisions drew and the share
  that fell back to ignoring the calls (no world fitting them in `worlds.MAX_TRIES` draws).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from smear_sim.analysis.match import duplicate_match
from smear_sim.analysis.models import player_model
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
    counts = search_worlds(np.uint64(seed), 0, deals, 1, rules.to_array(), codes, player_model(policies, rules),
                           seated_arg(codes)).sum(axis=0)
    return {"hands": int(counts[SEARCH_HANDS]), "worlds": int(counts[SEARCH_WORLDS]),
            "fallbacks": int(counts[SEARCH_FALLBACKS]),
            "fallback_share": round(counts[SEARCH_FALLBACKS] / max(counts[SEARCH_WORLDS], 1), 4)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=16)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    out = {"k": args.k, "deals": args.deals, "threads": args.threads, "seed": args.seed,
           "expert": rate(f"expert:{args.k}", args.deals, args.seed, args.threads),
           "pimc": rate(f"pimc:{args.k}", args.deals, args.seed, args.threads),
           "worlds": worlds(args.k, args.deals, args.seed)}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
