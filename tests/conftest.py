import logging
import os
import sys
from pathlib import Path

import pytest

from smear_sim.kernels.source_stamp import stamp_kernel_caches

# Test helpers (random_hands) live beside the tests.
sys.path.insert(0, str(Path(__file__).parent))

# Every process a test starts (a command, a server, a notebook's kernel, a tool) imports the smear_sim under test,
# from any folder: an installed copy would be other code, and its kernels would compile afresh in a cache of their
# own (in CI, where the project is installed, that was a minute per notebook).
SOURCE = str(Path(__file__).resolve().parent.parent)
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [SOURCE, os.environ.get("PYTHONPATH")]))

# The tests' own cached kernels call the package's: key their cache entries by the package's kernel source too, so that
# none keeps a kernel's old code (smear_sim/kernels/source_stamp.py).
stamp_kernel_caches(Path(__file__).parent)


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



# Test files that compile the same slow kernels, sent to one xdist worker together. The workers share one Numba cache,
# each function compiled under a lock of its own (smear_sim.kernels.shared_cache): a worker that reaches a kernel the
# other is compiling waits for it, idle, where it could have run other files. Other files go one by one, as --dist
# loadfile sends them.
COMPILE_GROUPS = {
    "net": ("tests/kernels/players/test_net.py", "tests/cli/test_net_player.py", "tests/analysis/test_bots_net.py",
            "tests/kernels/drivers/test_net_data_net.py", "tests/kernels/drivers/test_net_data.py",
            "tests/analysis/test_net_data.py", "tests/test_tools.py", "tests/openspiel/test_bots.py"),
    # the search players at the table: their matches (command line, API, signals) and hands
    "search": ("tests/cli/test_simulate.py", "tests/analysis/test_match.py", "tests/cli/test_signals.py",
               "tests/kernels/test_expert.py", "tests/kernels/test_players.py", "tests/web/test_practice_search_bots.py",
               "tests/kernels/players/test_guided.py"),
}
_GROUP_OF = {path: group for group, paths in COMPILE_GROUPS.items() for path in paths}


def pytest_xdist_make_scheduler(config, log):
    """--dist loadfile, with the files of a compile group (COMPILE_GROUPS) as one unit of work."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class ByCompileGroup(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = super()._split_scope(nodeid)
            return _GROUP_OF.get(path, path)

    return ByCompileGroup(config, log)
