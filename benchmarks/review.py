"""The review's speed: one hand, and a 10-hand game, at the default 256 worlds a decision (run from the repo root).

    python benchmarks/review.py [--samples 256] [--hands 3] [--game] [--cluster local:2]

- hand: the median wall time to review one hand (every decision with a choice, and the luck), warm, over
  ``--hands`` hands, and the time by kind of decision (call, trump, keep, card);
- game (``--game``): the review of a simulated game of 10 hands, on this machine's threads, and with
  ``--cluster`` on a local Dask cluster as well, twice (the first run includes the workers' warm-up), the same
  numbers checked.

The issue's targets on two cores, warm: a hand in at most 30 s, a 10-hand game in at most 5 minutes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict

from smear_sim import review
from smear_sim.analysis.plan import RunPlan
from smear_sim.analysis.simulate import trace_game_records, trace_records


def hands(count: int, samples: int) -> dict:
    review(trace_records(1, seed=99), samples=8)  # compile (or load) every kernel before the clock starts
    times, kinds = [], defaultdict(list)
    for record in trace_records(count, seed=21):
        started = time.perf_counter()
        graded = review(record, samples=samples)
        times.append(time.perf_counter() - started)
        for g in graded.decisions:
            kinds[g.decision.kind].append(g.hint.seconds)
    return {"hands": count, "samples": samples, "median_s": round(statistics.median(times), 1),
            "max_s": round(max(times), 1),
            "per_decision_s": {k: round(statistics.mean(v), 2) for k, v in kinds.items()},
            "decisions_per_hand": {k: round(len(v) / count, 1) for k, v in kinds.items()}}


def game(samples: int, cluster: str | None) -> dict:
    record = trace_game_records(1, seed=2)[0]  # a game of 10 hands
    record = {**record, "deals": record["deals"][:10]}
    started = time.perf_counter()
    local = review(record, samples=samples)
    figures = {"deals": len(record["deals"]), "decisions": len(local.decisions), "samples": samples,
               "local_s": round(time.perf_counter() - started, 1)}
    if cluster:
        from smear_sim.engine.cluster import dask_executor, parse_cluster

        with dask_executor(None, workers=parse_cluster(cluster)) as executor:
            for key in ("cluster_first_s", "cluster_s"):  # the first run includes the workers' warm-up
                started = time.perf_counter()
                remote = review(record, samples=samples, plan=RunPlan.of("heuristic", executor=executor))
                figures[key] = round(time.perf_counter() - started, 1)
        figures["cluster_same"] = remote.to_json() == local.to_json()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=256)
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--game", action="store_true")
    parser.add_argument("--cluster", default=None)
    args = parser.parse_args()
    out = {"hand": hands(args.hands, args.samples)}
    if args.game:
        out["game"] = game(args.samples, args.cluster)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
