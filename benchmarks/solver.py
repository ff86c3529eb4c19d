"""Double-dummy solver speed: time to solve a full hand from the first lead, on one core (run from the repo root).

    python benchmarks/solver.py [--hands 2000] [--seed 1]

The positions are real: the first hands of `smear-sim simulate` (heuristic players: deal, auction, kitty,
trump and discards), each taken at the bidder's first lead with all 24 cards to play. Two figures per hand:
the value alone (`solve_value`) and the value with each legal card's own value (`solve`, what
`smear-sim solve` and the pimc player need). Reports the median and 99th percentile in milliseconds, and
the nodes searched.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from smear_sim.analysis.simulate import trace_records
from smear_sim.analysis.solve import hand_state
from smear_sim.kernels import solver
from smear_sim.reference.record import parse_record, replay_position


def first_leads(hands: int, seed: int) -> list[np.ndarray]:
    states = []
    start = 0
    while len(states) < hands:
        for record in trace_records(min(10_000, 2 * hands), seed=seed, start=start):
            if "plays" in record and len(states) < hands:
                record.pop("result")
                states.append(hand_state(replay_position(parse_record(record | {"plays": []}, partial=True))))
        start += 10_000
    return states


def timings(states: list[np.ndarray], rules: np.ndarray, per_card: bool) -> dict[str, float]:
    sv = solver.new_solver()
    values = np.zeros(54, dtype=np.int64)
    run = (lambda hs: solver.solve(sv, hs, rules, values)) if per_card else (lambda hs: solver.solve_value(sv, hs, rules))
    run(states[0])  # compile or load
    seconds, nodes = [], []
    for hs in states:
        before = solver.nodes_searched(sv)
        started = time.perf_counter()
        run(hs)
        seconds.append(time.perf_counter() - started)
        nodes.append(solver.nodes_searched(sv) - before)
    ms = np.array(seconds) * 1e3
    return {"median_ms": round(float(np.median(ms)), 3), "p99_ms": round(float(np.percentile(ms, 99)), 3),
            "mean_ms": round(float(ms.mean()), 3), "median_nodes": int(np.median(nodes)),
            "p99_nodes": int(np.percentile(nodes, 99))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    from smear_sim.core.rules import Rules

    rules = Rules().to_array()
    states = first_leads(args.hands, args.seed)
    report = {"hands": len(states), "seed": args.seed, "value": timings(states, rules, False),
              "value_and_cards": timings(states, rules, True)}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
