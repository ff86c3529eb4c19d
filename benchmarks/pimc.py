"""pimc throughput: hands per second of the search player, and where its time goes (run from the repo root).

    python benchmarks/pimc.py [--k 16] [--deals 400] [--threads 2] [--positions 300]

- match: `pimc:K` against `heuristic` in duplicate (each hand has one pimc team), hands per second on
  `--threads` threads, and per CPU-second (on a shared machine, the wall-clock rate depends on the others'
  load; `--threads` times the CPU rate is what the threads would give alone);
- all pimc: the same with all four seats playing `pimc:K`;
- breakdown: on the card decisions of real hands (heuristic play, every decision with two or more legal
  cards), the mean time per decision spent sampling worlds and solving them, on one thread, and how many
  such decisions a team meets per hand.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from smear_sim import duplicate_match, simulate
from smear_sim.analysis.simulate import trace_records
from smear_sim.analysis.solve import hand_state
from smear_sim.core.layout import ST_SIZE
from smear_sim.core.rules import Rules
from smear_sim.kernels import solver
from smear_sim.kernels import state as ks
from smear_sim.kernels.players import pimc
from smear_sim.reference.record import parse_record, replay_position


def decisions(count: int, seed: int) -> tuple[list[np.ndarray], float]:
    """Hand states at card decisions with a choice, and the mean number of such decisions per team and hand."""
    states, total, hands = [], 0, 0
    for record in trace_records(400, seed=seed):
        if "plays" not in record:
            continue
        record.pop("result")
        hands += 1
        for k in range(24):
            position = replay_position(parse_record(record | {"plays": record["plays"][:k]}, partial=True))
            if len(position.legal()) > 1:
                total += 1
                if len(states) < count:
                    states.append(hand_state(position))
    return states, total / (2 * hands)


def breakdown(states: list[np.ndarray], k: int) -> dict[str, float]:
    rules = Rules().to_array()
    rng = np.zeros(1, dtype=np.uint64)
    world = np.zeros(ST_SIZE, dtype=np.int64)
    values = np.zeros(54, dtype=np.int64)
    sv = solver.new_solver(pimc.TT_BITS)
    ks.sample_world(states[0], ks.to_play(states[0]), rng, world)
    solver.solve(sv, world, rules, values)
    worlds = []
    started = time.perf_counter()
    for hs in states:
        for _ in range(k):
            ks.sample_world(hs, ks.to_play(hs), rng, world)
            worlds.append(world.copy())
    sampling = time.perf_counter() - started
    started = time.perf_counter()
    for w in worlds:
        solver.solve(sv, w, rules, values)
    solving = time.perf_counter() - started
    n = len(states)
    return {"decisions": n, "sample_us_per_decision": round(sampling / n * 1e6, 1),
            "solve_us_per_decision": round(solving / n * 1e6, 1),
            "solve_share": round(solving / (solving + sampling), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=16)
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    policy = f"pimc:{args.k}"
    duplicate_match(policy, "heuristic", deals=8, seed=args.seed)  # compile or load
    cpu = time.process_time()
    match = duplicate_match(policy, "heuristic", deals=args.deals, seed=args.seed, threads=args.threads,
                            chunk_size=args.deals)
    match_cpu = time.process_time() - cpu
    cpu = time.process_time()
    all_pimc = simulate(args.deals, seed=args.seed, policies=policy, threads=args.threads, chunk_size=args.deals)
    all_cpu = time.process_time() - cpu
    states, per_hand = decisions(args.positions, args.seed)
    split = breakdown(states, args.k)
    print(json.dumps({
        "policy": policy,
        "threads": args.threads,
        "match_vs_heuristic_hands_per_s": round(2 * args.deals / match.seconds, 1),
        "match_vs_heuristic_hands_per_cpu_s": round(2 * args.deals / match_cpu, 1),
        "all_pimc_hands_per_s": round(args.deals / all_pimc.seconds, 1),
        "all_pimc_hands_per_cpu_s": round(args.deals / all_cpu, 1),
        "decisions_with_a_choice_per_team_and_hand": round(per_hand, 2),
        "one_thread_breakdown": split,
        "match_points_margin": match.points_margin.to_json("mean"),
    }, indent=2))


if __name__ == "__main__":
    main()
