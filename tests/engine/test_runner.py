"""The chunked runner (smear_sim/engine/runner.py): inputs, threads, chunks and what a run returns."""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

import smear_sim
from smear_sim.core.bidder import no_bidder_arrays
from smear_sim.core.errors import BadValue, SmearError
from smear_sim.core.players import policy_array
from smear_sim.core.rules import Rules
from smear_sim.engine import runner
from smear_sim.engine.jobs import duplicate_hands_job, simulate_games_job, simulate_hands_job
from smear_sim.engine.runner import (
    NO_CACHE_WARNING,
    Job,
    LocalExecutor,
    check_count,
    chunk_ranges,
    job_fingerprint,
    merge_ranges,
    missing_ranges,
    run,
    run_chunk,
    seed_value,
    thread_count,
)
from smear_sim.kernels import rng


def _players(rules: Rules | None = None) -> tuple:
    return (rules or Rules()).to_array(), policy_array(("heuristic", "random")), no_bidder_arrays()


def _job(total: int = 5_000, seed: int = 3) -> Job:
    return simulate_hands_job(players=_players(), seed=seed, hands=total)


def test_seed_value():
    assert seed_value(0) == np.uint64(0)
    assert seed_value(2**64 - 1) == np.uint64(2**64 - 1)
    for bad in (-1, 2**64, 1.5, True, "1"):
        with pytest.raises(BadValue, match="^seed must be a whole number"):
            seed_value(bad)


def test_thread_count():
    limit = numba.config.NUMBA_NUM_THREADS
    assert thread_count(None) == limit
    assert thread_count(1) == 1
    for bad in (0, limit + 1, 999, 1.0, True):
        with pytest.raises(SmearError, match=f"between 1 and {limit}"):
            thread_count(bad)


def test_chunk_ranges_cover_the_total_once():
    for total, size in [(0, 5), (1, 5), (10, 5), (11, 5), (7, 1 << 18)]:
        pieces = list(chunk_ranges(total, size))
        assert [i for s, c in pieces for i in range(s, s + c)] == list(range(total))
        assert all(0 < c <= size for _, c in pieces)
    with pytest.raises(SmearError, match="chunk_size must be at least 1"):
        list(chunk_ranges(10, 0))


def test_check_count():
    assert check_count("hands", 5) == 5
    assert check_count("trace_hands", 0, minimum=0) == 0
    for bad in (0, -1, 10**13, 2.5, True):
        with pytest.raises(BadValue, match="^hands must be a whole number") as caught:
            check_count("hands", bad)
        assert caught.value.parameter == "hands" and caught.value.worded().startswith("--hands must be")
    with pytest.raises(BadValue) as caught:
        check_count("trace_hands", -1, minimum=0)
    assert caught.value.option == "--trace-hands"


def test_the_engine_names_values_not_options():
    """The engine's errors name the parameter (seed, threads); the command line words them as its options."""
    with pytest.raises(BadValue, match="^deals must be a whole number"):
        duplicate_hands_job(players=_players(), seed=1, deals=0)
    with pytest.raises(BadValue, match="^seed must be a whole number") as caught:
        simulate_hands_job(players=_players(), seed=-1, hands=10)
    assert caught.value.worded() == "--seed must be a whole number from 0 to 2**64-1, got -1"
    with pytest.raises(BadValue, match="^threads must be between 1 and"):
        thread_count(10**6)
    source = Path(runner.__file__).read_text(encoding="utf-8")
    assert "--seed" not in source and "--threads" not in source and "--hands" not in source


def test_run_sums_every_chunk_whatever_the_chunking_and_threads():
    # One-hand chunks on a smaller job: each chunk is a parallel call, whose cost on a loaded machine is the
    # wait for both threads to be scheduled, not the hand.
    for job, settings in [(_job(), [(1, 5_000), (1, 777), (2, 1_000), (2, 13)]), (_job(300), [(2, 1)])]:
        whole = run_chunk(job, 0, job.total, 1)
        for threads, chunk_size in settings:
            if threads > numba.config.NUMBA_NUM_THREADS:
                continue
            result = run(job, threads=threads, chunk_size=chunk_size)
            assert result.counts.tobytes() == whole.tobytes()
            assert result.done == job.total and not result.stopped and result.threads == threads


def test_run_reports_progress_per_chunk():
    seen = []
    run(_job(2_500), chunk_size=1_000, progress=seen.append)
    assert seen == [1_000, 1_000, 500]


def test_stop_ends_the_run_after_the_chunk_where_it_says_so():
    calls = []

    def enough(counts):
        calls.append(int(counts[0]))  # AGG_HANDS: the hands so far
        return len(calls) == 2

    result = run(_job(), chunk_size=1_000, stop=enough)
    assert result.stopped and result.done == 2_000 and calls == [1_000, 2_000]
    assert result.counts.tobytes() == run_chunk(_job(), 0, 2_000, 1).tobytes()


def test_kernels_run_without_a_writable_cache_and_warn_once(tmp_path):
    # Regression: with a read-only install and a read-only home, Numba raised "cannot cache function ...: no
    # locator available" on import. Here every place Numba looks for a cache folder lies below a regular
    # file, which fails for root too: the package's __pycache__, NUMBA_CACHE_DIR and the home's cache.
    source = Path(smear_sim.__file__).parent
    copy = tmp_path / "install" / "smear_sim"
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for folder in [copy, *(p for p in copy.rglob("*") if p.is_dir())]:
        (folder / "__pycache__").write_text("")
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    script = (
        "import warnings, numpy as np\n"
        "from smear_sim.cli.app import _show_warning\n"
        "warnings.showwarning = _show_warning\n"  # as the command line prints warnings
        "from smear_sim.engine.runner import kernels\n"
        "kernels(); kernels()\n"
        "from smear_sim.kernels import rng\n"
        "print(int(rng.mix64(np.uint64(12345))))\n"
    )
    env = os.environ | {"PYTHONPATH": str(copy.parent), "NUMBA_CACHE_DIR": str(blocker / "numba"),
                        "HOME": str(blocker), "XDG_CACHE_HOME": str(blocker)}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120,
                          cwd=tmp_path, check=False)
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout) == int(rng.mix64(np.uint64(12345)))
    assert proc.stderr.splitlines() == [f"warning: {NO_CACHE_WARNING}"]
    assert not [p for p in copy.rglob("*") if p.suffix in (".nbi", ".nbc")]


def test_merge_and_missing_ranges():
    assert merge_ranges([(10, 20), (0, 5), (5, 10), (30, 40)]) == [(0, 20), (30, 40)]
    assert merge_ranges([]) == []
    assert missing_ranges(50, [(0, 20), (30, 40)], 7) == [(20, 7), (27, 3), (40, 7), (47, 3)]
    assert missing_ranges(10, [], 4) == [(0, 4), (4, 4), (8, 2)]
    assert missing_ranges(10, [(0, 10)], 4) == []


def test_job_fingerprint_changes_with_anything_that_decides_the_counts():
    job = _job()
    assert job_fingerprint(job) == job_fingerprint(_job())
    others = [_job(seed=4), _job(total=5_001), duplicate_hands_job(players=_players(), seed=3, deals=5_000),
              simulate_hands_job(players=_players(Rules(round_points=True)), seed=3, hands=5_000)]
    assert len({job_fingerprint(j) for j in [job, *others]}) == 5


def test_the_runner_seats_the_players_the_job_states():
    """``seated`` is made from the job's stated policy codes: a job that states none calls its driver without it."""
    job = _job(10)
    assert job.seats_players and job.policy_codes == tuple(int(c) for c in job.args[1])
    assert run_chunk(job, 0, 10, 1).sum() > 0
    with pytest.raises(TypeError, match="not enough arguments"):
        run_chunk(dataclasses.replace(job, policy_codes=None), 0, 10, 1)


class ShuffledExecutor(LocalExecutor):
    """Finishes the chunks in a scrambled order, as a cluster does."""

    def map_chunks(self, job, ranges):
        order = np.random.default_rng(7).permutation(len(ranges))
        for index in order:
            start, count = ranges[index]
            yield int(index), run_chunk(job, start, count, 1)


def test_chunks_finishing_in_any_order_give_the_same_counts_and_stop_at_the_same_hand():
    job = _job()
    shuffled = run(job, chunk_size=300, executor=ShuffledExecutor())
    assert shuffled.counts.tobytes() == run(job, chunk_size=300).counts.tobytes()

    def enough(counts):
        return counts[0] >= 1_500  # AGG_HANDS: stops after the fifth chunk of 300

    stopped = run(job, chunk_size=300, stop=enough, executor=ShuffledExecutor())
    assert stopped.stopped and stopped.done == 1_500
    assert stopped.counts.tobytes() == run(job, chunk_size=300, stop=enough).counts.tobytes()


def test_threads_belong_to_the_local_executor():
    with pytest.raises(SmearError, match="^threads is for"):
        run(_job(), threads=1, executor=LocalExecutor())


@pytest.mark.parametrize(("count", "pieces"), [(0, 3), (1, 4), (10, 3), (7, 7), (5, 1)])
def test_split_range_covers_the_range_in_order(count, pieces):
    from smear_sim.engine.runner import split_range

    parts = split_range(40, count, pieces)
    assert len(parts) == max(1, min(pieces, count))
    assert sum(n for _, n in parts) == count
    assert [s for s, _ in parts] == [40 + sum(n for _, n in parts[:i]) for i in range(len(parts))]
    assert max(n for _, n in parts) - min(n for _, n in parts) <= 1


def test_a_chunk_on_more_threads_gives_the_same_counts():
    job = _job(3_000)
    assert np.array_equal(run_chunk(job, 100, 2_000, 1), run_chunk(job, 100, 2_000, 2))
    assert np.array_equal(run_chunk(job, 100, 2_000, 1), run_chunk(job, 100, 1_000, 1) + run_chunk(job, 1_100, 1_000, 1))


# -- kernel calls sized by time, so that a signal is handled within a second -----------------------------------


def test_pace_starts_at_one_hand_and_sizes_the_next_calls_to_about_a_quarter_second():
    from smear_sim.engine.runner import PIECE_GROWTH, PIECE_SECONDS, Pace

    pace = Pace()
    assert pace.size == 1
    pace.learn(1, 0.0)  # too quick to time: grow, but by a bounded factor
    assert pace.size == PIECE_GROWTH
    pace.learn(16, PIECE_SECONDS / 1000)  # a fast player: grow, still bounded
    assert pace.size == 16 * PIECE_GROWTH
    pace.learn(100, 1.0)  # a search player at 100 hands a second: a quarter of a second's worth
    assert pace.size == int(100 * PIECE_SECONDS)
    pace.learn(1, 30.0)  # one very slow hand: never below one
    assert pace.size == 1
    pace.learn(0, 0.0)  # nothing played: nothing learnt
    assert pace.size == 1


def test_paced_covers_the_range_in_order_within_the_limit():
    from smear_sim.engine.runner import Pace, paced

    pieces = list(paced(lambda first, n: (first, n), 7, 5_000, Pace(), limit=300))
    assert [s for s, _ in pieces] == [7 + sum(n for _, n in pieces[:i]) for i in range(len(pieces))]
    assert sum(n for _, n in pieces) == 5_000 and max(n for _, n in pieces) <= 300
    assert pieces[0] == (7, 1)
    assert list(paced(lambda first, n: n, 3, 0)) == []


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_paced_calls_cover_the_range_once_over_the_threads(threads):
    from smear_sim.engine.runner import paced_calls

    pieces = paced_calls(lambda first, n: (first, n), 100, 20_000, threads)
    assert sorted(i for s, n in pieces for i in range(s, s + n)) == list(range(100, 20_100))
    assert paced_calls(lambda first, n: (first, n), 5, 0, threads) == [(5, 0)]  # the counts' shape


def test_an_exception_on_this_thread_closes_the_range_for_the_others():
    """A signal's exception comes out of this thread's call: the other threads end with their current piece (and
    are daemons, so a process exiting does not wait for it), not at the end of the chunk."""
    import threading

    from smear_sim.engine.runner import HELPER_NAME, paced_calls

    main = threading.get_ident()
    helping, raised = threading.Event(), threading.Event()
    taken = []

    def call(first: int, n: int):
        taken.append(n)
        if threading.get_ident() == main:
            assert helping.wait(60)
            raise KeyboardInterrupt
        helping.set()
        assert raised.wait(60)  # the helper's piece runs on until this thread has raised
        return n

    with pytest.raises(KeyboardInterrupt):
        try:
            paced_calls(call, 0, 1_000_000, 2)
        finally:
            raised.set()
    helpers = [t for t in threading.enumerate() if t.name == HELPER_NAME]
    assert all(t.daemon for t in helpers)
    for t in helpers:
        t.join()
    assert taken == [1, 1]


def test_a_run_in_calls_sized_by_time_gives_the_chunks_counts():
    """The local executor's calls are sized by time, so they differ from run to run; the counts never do."""
    from smear_sim.engine.runner import Pace, run_paced

    job = _job(3_000)
    assert np.array_equal(run_paced(job, 100, 2_000, 2, Pace()), run_chunk(job, 100, 2_000, 1))
    games = simulate_games_job(players=_players(), seed=5, games=40, scores=(0, 0), dealer=3)
    assert np.array_equal(run_paced(games, 0, 40, 2), run_chunk(games, 0, 40, 1))
