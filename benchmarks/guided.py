"""Hands a second of `expert:K` and the net-guided `guided:K:top-N`, each against `heuristic`, on one thread (run from
the repo root).

    python benchmarks/guided.py [--k 16] [--tops 1,2,3] [--hands 100] [--repeats 2] [--seed 7]

Each player plays `--hands` traced hands (the hand that keeps the calls, the searcher's team against `heuristic`),
the players taken in turn within each repeat so that a shared machine's load falls on all of them alike; each rate
is hands over wall-clock seconds, one per repeat. The shipped net (or `SMEAR_SIM_NET`) guides.
"""

from __future__ import annotations

import argparse
import json
import time

from smear_sim.analysis.simulate import trace_records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=16)
    parser.add_argument("--tops", default="1,2,3")
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    players = [f"expert:{args.k}"] + [f"guided:{args.k}:top-{int(n)}" for n in args.tops.split(",") if n]
    for player in players:
        trace_records(2, seed=1, policies=f"{player},heuristic")  # compile or load the kernels first
    rates: dict[str, list[float]] = {player: [] for player in players}
    for repeat in range(args.repeats):
        for player in players:
            started = time.perf_counter()
            trace_records(args.hands, seed=args.seed + repeat, policies=f"{player},heuristic")
            rates[player].append(round(args.hands / (time.perf_counter() - started), 1))
    print(json.dumps({"k": args.k, "hands": args.hands, "threads": 1, "hands_per_s": rates}, indent=2))


if __name__ == "__main__":
    main()
