"""The Dask executor (smear_sim/engine/dask_executor.py) on a loopback cluster: exact, warm, fault tolerant.

Every result is compared byte for byte with the same run on this machine's threads.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from smear_sim import class_table, duplicate_match, evaluate_hand, simulate
from smear_sim.core.bidder import no_bidder_arrays
from smear_sim.core.errors import ClusterError
from smear_sim.core.players import policy_array
from smear_sim.core.rules import Rules
from smear_sim.engine.checkpoint import Checkpoint
from smear_sim.engine.dask_executor import MAX_CHUNK, MIN_CHUNK, DaskExecutor, source_digest
from smear_sim.engine.jobs import analyze_hands_job, deal_only_job, simulate_hands_job
from smear_sim.engine.runner import LocalExecutor, run

HAND = "AH KH 2H JD 10C 5S 9S 4D 3C"


def _players(team0: str, team1: str) -> tuple:
    return Rules().to_array(), policy_array((team0, team1)), no_bidder_arrays()


@pytest.fixture
def executor(dask_client):
    return DaskExecutor(dask_client)


def test_every_analysis_gives_the_same_bytes_on_the_cluster(executor):
    rules = Rules(round_points=True)
    local = simulate(20_000, seed=9, rules=rules, policies="heuristic,random", chunk_size=3_000)
    remote = simulate(20_000, seed=9, rules=rules, policies="heuristic,random", chunk_size=3_000, executor=executor)
    assert remote.counts.tobytes() == local.counts.tobytes()
    assert remote.threads == 2  # the cluster's threads

    local = class_table(20_000, seed=9, chunk_size=3_000)
    assert class_table(20_000, seed=9, chunk_size=3_000, executor=executor).counts.tobytes() == local.counts.tobytes()

    local = duplicate_match(deals=5_000, seed=9, chunk_size=1_000)
    remote = duplicate_match(deals=5_000, seed=9, chunk_size=1_000, executor=executor)
    assert (remote.score_margin, remote.points_margin) == (local.score_margin, local.points_margin)


def test_a_run_that_stops_early_stops_at_the_same_hand(executor):
    # --precision stops after the first batch whose standard error is small enough, in batch order, however
    # the tasks finish.
    local = evaluate_hand(HAND, precision=0.02, seed=4)
    remote = evaluate_hand(HAND, precision=0.02, seed=4, executor=executor)
    assert remote.stopped_by == "precision" and remote.samples == local.samples
    assert remote.counts.tobytes() == local.counts.tobytes()


def test_progress_counts_every_finished_task(executor):
    seen = []
    job = simulate_hands_job(players=_players("random", "random"), seed=2, hands=10_000)
    result = run(job, chunk_size=1_500, progress=seen.append, executor=executor)
    assert sorted(seen) == sorted([1_500] * 6 + [1_000]) and result.done == 10_000


def test_workers_warm_up_once_each_from_their_own_numba_cache(executor):
    job = simulate_hands_job(players=_players("heuristic", "heuristic"), seed=1, hands=100)
    seconds = executor.prepare(job)
    warmup = executor.warmups["simulate_hands"]
    assert seconds == warmup.seconds > 0 and len(warmup.workers) == 2
    caches = [Path(report["cache"]) for report in warmup.workers]
    assert len(set(caches)) == 2  # one cache folder per worker: no two processes write one cache
    for report, cache in zip(warmup.workers, caches, strict=True):
        assert report["worker"] in cache.parts  # named after the worker, under SMEAR_SIM_WORKER_CACHE
        assert list(cache.glob("hands.simulate_hands-*.nbi"))
        assert not report["compiled"]  # loaded: this machine's compiled kernel was copied in first
    assert "ready on 2 workers" in warmup.describe()
    assert executor.prepare(job) == 0.0  # once per kernel


def test_default_chunks_give_every_worker_thread_many_tasks(executor):
    assert executor.default_chunk(20_000_000) == 20_000_000 // 32  # 2 threads x 16 tasks
    assert executor.default_chunk(1_000) == MIN_CHUNK
    assert executor.default_chunk(10**12) == MAX_CHUNK


def test_a_worker_killed_mid_run_does_not_change_the_result(dask_client, executor):
    job = analyze_hands_job(players=_players("heuristic", "heuristic"), seed=11, hands=60_000, classify=True)
    expected = run(job, chunk_size=2_000).counts
    pids = dask_client.run(os.getpid)
    victim, pid = next(iter(pids.items()))
    finished = []

    def kill_after_the_first_task(count: int) -> None:
        finished.append(count)
        if len(finished) == 1:
            os.kill(pid, signal.SIGKILL)

    result = run(job, chunk_size=2_000, progress=kill_after_the_first_task, executor=executor)
    assert result.counts.tobytes() == expected.tobytes()
    assert sum(finished) == 60_000
    removed = [event for _, event in dask_client.get_events(victim) if event.get("action") == "remove-worker"]
    assert removed and removed[0]["processing-tasks"]  # the worker died holding tasks, which ran again elsewhere


def test_a_local_run_interrupted_and_resumed_on_the_cluster_matches_an_uninterrupted_run(executor, tmp_path):
    job = simulate_hands_job(players=_players("heuristic", "random"), seed=5, hands=12_000)
    arguments = {"--hands": 12_000}
    finished = []

    def crash(count: int) -> None:  # Ctrl-C as the second chunk comes in: the first one is recorded
        finished.append(count)
        if len(finished) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt), Checkpoint(tmp_path / "c", arguments, interval=3600) as checkpoint:
        run(job, chunk_size=4_000, progress=crash, checkpoint=checkpoint)
    with Checkpoint(tmp_path / "c", arguments, resume=True) as checkpoint:
        resumed = run(job, checkpoint=checkpoint, executor=executor)
    assert resumed.resumed == 4_000
    assert resumed.counts.tobytes() == run(job).counts.tobytes()


def test_workers_running_other_code_are_refused(executor, monkeypatch):
    import smear_sim.engine.dask_executor as module

    monkeypatch.setattr(module, "source_digest", lambda: "another version")
    job = deal_only_job(rules=Rules().to_array(), seed=1, hands=100)
    with pytest.raises(ClusterError, match="runs another version of smear-sim"):
        executor.prepare(job)
    assert len(source_digest()) == 64


def _square_plus_threads(item, threads, common):
    return item * item + common[item % 2], threads


def test_map_calls_runs_whole_items_and_tells_where_each_belongs(executor):
    """A review's decisions travel whole: every item once, its position given with its result, and what they all
    read beside them."""
    items = list(range(40))
    common = {0: 1000, 1: 2000}
    remote = dict(executor.map_calls(_square_plus_threads, items, common=common))
    assert sorted(remote) == items
    assert all(remote[i] == (i * i + common[i % 2], 1) for i in items)  # one thread per worker in the test cluster
    assert dict(LocalExecutor(threads=1).map_calls(_square_plus_threads, items, common=common)) == remote
