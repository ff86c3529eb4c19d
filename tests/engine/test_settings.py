"""How a run goes (smear_sim/engine/settings.py): one value, one forward to the runner."""

from __future__ import annotations

import numpy as np
import pytest

from smear_sim.core.bidder import no_bidder_arrays
from smear_sim.core.errors import BadValue
from smear_sim.core.players import policy_array
from smear_sim.core.rules import Rules
from smear_sim.engine.jobs import simulate_hands_job
from smear_sim.engine.runner import Job, LocalExecutor, run
from smear_sim.engine.settings import RunSettings


def _job() -> Job:
    players = Rules().to_array(), policy_array(("heuristic", "random")), no_bidder_arrays()
    return simulate_hands_job(players=players, seed=4, hands=3000)


def test_the_settings_run_the_job_as_the_runner_does():
    heard = []
    settings = RunSettings(threads=1, chunk_size=1000, progress=heard.append)
    result = settings.run(_job())
    assert np.array_equal(result.counts, run(_job()).counts) and heard == [1000, 1000, 1000]


def test_a_jobs_own_chunk_applies_only_where_the_settings_give_none():
    heard = []
    RunSettings(progress=heard.append).run(_job(), default_chunk=1500)
    assert heard == [1500, 1500]
    heard.clear()
    RunSettings(chunk_size=3000, progress=heard.append).run(_job(), default_chunk=1500)
    assert heard == [3000]
    heard.clear()
    RunSettings(chunk_size=3000, progress=heard.append).run(_job(), chunk_size=1000)  # a fixed batch wins
    assert heard == [1000, 1000, 1000]
    assert RunSettings().local and RunSettings(executor=LocalExecutor()).local


def test_threads_with_another_executor_is_refused():
    class Elsewhere(LocalExecutor):
        pass

    with pytest.raises(BadValue, match="^threads is for runs on this machine"):
        RunSettings(threads=1, executor=Elsewhere()).run(_job())
