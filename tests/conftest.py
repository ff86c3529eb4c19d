import logging
import sys
from pathlib import Path

import pytest

# Test helpers (random_hands) live beside the tests.
sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="session")
def dask_scheduler(tmp_path_factory):
    """The address of one loopback Dask cluster of two worker processes, shared by every cluster test.

    Its workers keep their Numba caches under a temporary folder (they inherit SMEAR_SIM_WORKER_CACHE, as do
    workers the nanny restarts after a test kills one).
    """
    from distributed import LocalCluster

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SMEAR_SIM_WORKER_CACHE", str(tmp_path_factory.mktemp("worker-caches")))
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR) as cluster:
            yield cluster.scheduler_address


@pytest.fixture
def dask_client(dask_scheduler):
    from distributed import Client

    with Client(dask_scheduler, set_as_default=False) as client:
        yield client
