import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# Under pytest-xdist each worker keeps its own Numba cache, so that no two processes write one cache at once (numba
# issue 10128), and starts it from the kernels most test files run, compiled once before the workers run a test
# (tests/shared_kernels.py): compiled by each worker, they would be compiled twice. Set before Numba is imported.
KERNEL_CACHES = Path(os.environ.get("NUMBA_CACHE_DIR") or Path(__file__).resolve().parent.parent / ".numba-cache")
SHARED_CACHE = KERNEL_CACHES / "xdist-shared"
SHARED_LOCK = KERNEL_CACHES / "xdist-shared.lock"  # held while the shared kernels compile
WORKER = os.environ.get("PYTEST_XDIST_WORKER")
if WORKER:
    os.environ["NUMBA_CACHE_DIR"] = str(KERNEL_CACHES / f"xdist-{WORKER}")

from smear_sim.kernels.source_stamp import stamp_kernel_caches  # noqa: E402 (imports Numba)

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


def pytest_configure(config):
    """In the controller of pytest-xdist's workers: start compiling the shared kernels, holding their lock till done."""
    if WORKER or not getattr(config.option, "numprocesses", None):
        return
    import fcntl

    SHARED_CACHE.mkdir(parents=True, exist_ok=True)
    with open(SHARED_LOCK, "a+b") as lock, open(KERNEL_CACHES / "xdist-shared.log", "w") as log:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the compile keeps it (pass_fds) and lets it go as it ends
        config.stash[_COMPILE] = subprocess.Popen(
            [sys.executable, str(Path(__file__).parent / "shared_kernels.py")], stdin=subprocess.DEVNULL,
            stdout=log, stderr=log, pass_fds=(lock.fileno(),), env=os.environ | {"NUMBA_CACHE_DIR": str(SHARED_CACHE)})


def pytest_unconfigure(config):
    compile_ = config.stash.get(_COMPILE, None)
    if compile_ is not None and compile_.poll() is None:  # the run ended first (a collection error, Ctrl-C)
        compile_.kill()
        compile_.wait()


_COMPILE = pytest.StashKey[subprocess.Popen]()


@pytest.fixture(scope="session", autouse=True)
def shared_kernels():
    """In a worker, before its first test: wait for the shared kernels (their lock), then add them to this worker's
    cache. A file already there stays unless the shared one is newer (it was compiled again: the source changed)."""
    if not WORKER or not SHARED_LOCK.exists():
        return
    import fcntl

    with open(SHARED_LOCK, "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)
    own = Path(os.environ["NUMBA_CACHE_DIR"])
    for source in SHARED_CACHE.rglob("*"):
        target = own / source.relative_to(SHARED_CACHE)
        if source.is_file() and (not target.exists() or source.stat().st_mtime > target.stat().st_mtime):
            target.parent.mkdir(parents=True, exist_ok=True)
            part = target.with_name(target.name + f".{WORKER}.part")
            shutil.copy2(source, part)
            os.replace(part, target)
