"""Scaling on a Dask cluster: bid-table hands on this machine's threads against ``--cluster local:N``.

    python benchmarks/cluster.py [--hands 8000000] [--search-hands 1200] [--search-chunk 100] [--k 16]
                                 [--repeats 3] [--workers 2] [--chunks 16384,65536] [--cold]

Prints one JSON object:

- ``start_s``: starting the loopback cluster; ``warmup_s``: the first warm-up of the bid-table kernel on
  every worker (this machine's compiled kernel copied into each worker's own cache, then loaded);
  ``cold_warmup_s`` (with ``--cold``): the same when every worker compiles from an empty cache.
- per policy (the heuristic, and pimc:K on fewer hands in smaller tasks): the seconds of a run on
  ``workers`` local threads and on ``workers`` worker processes (paired runs, medians; compile and warm-up
  excluded), ``throughput_ratio`` = local seconds / cluster seconds (the
  median of the pairs: 1.0 means the cluster keeps up), and ``us_per_hand_per_thread``.
- ``chunk_sweep``: the same ratio for other task sizes than the default.
- ``task_overhead``: many one-hand tasks back to back, for the bid-table kernel (2.9 MB of counts per task)
  and the simulate kernel (under 1 kB): tasks per second and milliseconds per task, the cost the scheduler,
  the transfer and the client's merge add to every task; and the CPU time this process (the client, and
  here the scheduler too) spends per task, the part that does not shrink with more workers.

Each figure is measured within this run; the machine is shared, so only the ratios of paired runs are
compared.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time

from smear_sim.core.bidder import no_bidder_arrays
from smear_sim.core.players import policy_array
from smear_sim.core.rules import Rules
from smear_sim.engine import dask_executor as dask_module
from smear_sim.engine.cluster import dask_executor
from smear_sim.engine.jobs import analyze_hands_job, simulate_hands_job
from smear_sim.engine.runner import Job, LocalExecutor, run


def bid_table_job(policy: str, hands: int) -> Job:
    players = Rules().to_array(), policy_array((policy, policy)), no_bidder_arrays()
    return analyze_hands_job(players=players, seed=1, hands=hands, classify=True)


def paired(job: Job, executor, threads: int, repeats: int, chunk_size: int | None = None) -> dict:
    """Local and cluster runs in turn; medians of each and of the pairs' ratio."""
    local, cluster, ratios = [], [], []
    for _ in range(repeats):
        a = run(job, executor=LocalExecutor(threads), chunk_size=chunk_size).seconds
        b = run(job, executor=executor, chunk_size=chunk_size).seconds
        local.append(a)
        cluster.append(b)
        ratios.append(a / b)
    return {"hands": job.total, "chunk_size": chunk_size or executor.default_chunk(job.total),
            "local_s": round(statistics.median(local), 2), "cluster_s": round(statistics.median(cluster), 2),
            "throughput_ratio": round(statistics.median(ratios), 3),
            "us_per_hand_per_thread": round(1e6 * statistics.median(local) * threads / job.total, 3)}


def task_overhead(executor, driver_job: Job, tasks: int, repeats: int) -> dict:
    """One-hand tasks back to back: wall and client CPU (this process: client and scheduler) per task."""
    ranges = [(i, 1) for i in range(tasks)]
    executor.prepare(driver_job)
    wall, cpu = [], []
    for _ in range(repeats):
        started, cpu_started = time.perf_counter(), time.process_time()
        for _ in executor.map_chunks(driver_job, ranges):
            pass
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
    seconds = statistics.median(wall)
    return {"tasks": tasks, "tasks_per_s": round(tasks / seconds), "ms_per_task": round(1000 * seconds / tasks, 2),
            "client_cpu_ms_per_task": round(1000 * statistics.median(cpu) / tasks, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=8_000_000, help="hands of the heuristic bid-table run")
    parser.add_argument("--search-hands", type=int, default=1200, help="hands of the pimc bid-table run")
    parser.add_argument("--search-chunk", type=int, default=100, help="hands per task of the pimc run")
    parser.add_argument("--k", type=int, default=16, help="pimc's sampled deals per card decision")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunks", default="16384,65536", help="other task sizes to try (comma-separated)")
    parser.add_argument("--tasks", type=int, default=400, help="one-hand tasks for the overhead figure")
    parser.add_argument("--cold", action="store_true", help="also time workers compiling from an empty cache")
    parser.add_argument("--skip-scaling", action="store_true", help="only the start-up, warm-up and overhead figures")
    args = parser.parse_args()
    os.environ.setdefault("SMEAR_SIM_WORKER_CACHE", tempfile.mkdtemp(prefix="smear-worker-caches-"))
    out: dict = {"workers": args.workers, "local_threads": args.workers}
    run(bid_table_job("heuristic", 1), executor=LocalExecutor(1))  # compile or load here first
    started = time.perf_counter()
    with dask_executor(workers=args.workers) as executor:
        out["start_s"] = round(time.perf_counter() - started, 2)
        out["warmup_s"] = round(executor.prepare(bid_table_job("heuristic", 1)), 2)
        out["policies"] = {}
        for policy in [] if args.skip_scaling else ["heuristic", f"pimc:{args.k}"]:
            if policy == "heuristic":
                job, chunk = bid_table_job(policy, args.hands), None
            else:  # the search player: about 20,000 times slower per hand, so fewer hands in smaller tasks
                job, chunk = bid_table_job(policy, args.search_hands), args.search_chunk
            out["policies"][policy] = paired(job, executor, args.workers, args.repeats, chunk)
        job = bid_table_job("heuristic", args.hands)
        out["chunk_sweep"] = [paired(job, executor, args.workers, args.repeats, int(size))
                              for size in ([] if args.skip_scaling else args.chunks.split(","))]
        players = Rules().to_array(), policy_array(("heuristic",) * 2), no_bidder_arrays()
        simulate = simulate_hands_job(players=players, seed=1, hands=args.tasks)
        out["task_overhead"] = {
            "bid_table": task_overhead(executor, bid_table_job("heuristic", args.tasks), args.tasks, args.repeats),
            "simulate": task_overhead(executor, simulate, args.tasks, args.repeats)}
    if args.cold:
        os.environ["SMEAR_SIM_WORKER_CACHE"] = tempfile.mkdtemp(prefix="smear-worker-caches-cold-")
        dask_module._cache_files = lambda driver: {}  # nothing to copy: every worker compiles
        with dask_executor(workers=args.workers) as executor:
            out["cold_warmup_s"] = round(executor.prepare(bid_table_job("heuristic", 1)), 1)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
