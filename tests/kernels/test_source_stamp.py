"""A cached kernel runs the code of the functions it calls as they are now, not as they were when it was cached."""

from __future__ import annotations

import ctypes
import ctypes.util
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from numba import njit
from numba.core.errors import NumbaWarning

import smear_sim
from smear_sim.kernels import solver, source_stamp

# The card points of the whole deck through ``card_points`` (scoring.py), which calls ``popcount`` (bits.py); and
# whether the call compiled or loaded from the cache.
_CALL = """
import numpy as np
from smear_sim.kernels.scoring import card_points
print(card_points(np.uint64((1 << 54) - 1)), sum(card_points.stats.cache_hits.values()))
"""
_BROKEN_POPCOUNT = "\n\n@njit(cache=True, inline='always')\ndef popcount(mask):\n    return 0\n"


def _run(root: Path, cache: Path) -> tuple[int, int]:
    env = os.environ | {"PYTHONPATH": str(root), "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", _CALL], cwd=root, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    points, hits = done.stdout.split()
    return int(points), int(hits)


def test_a_kernel_cached_before_a_function_it_calls_changed_runs_the_new_code(tmp_path):
    package = Path(smear_sim.__file__).resolve().parent
    shutil.copytree(package, tmp_path / "smear_sim", ignore=shutil.ignore_patterns("__pycache__"))
    cache = tmp_path / "cache"
    points, hits = _run(tmp_path, cache)
    assert points > 0 and hits == 0  # compiled, and cached
    assert _run(tmp_path, cache) == (points, 1)  # loaded from the cache
    with open(tmp_path / "smear_sim" / "kernels" / "bits.py", "a") as bits:  # only the callee's file changes
        bits.write(_BROKEN_POPCOUNT)
    assert _run(tmp_path, cache) == (0, 0)  # compiled again, with the new popcount


@njit(cache=True)
def _in_the_tests(x):
    return x + 1


def test_the_package_and_the_tests_functions_are_keyed_by_the_kernels_source_and_no_others(tmp_path):
    stamp = solver._search._cache._impl.locator.get_source_stamp()
    assert stamp[1] == source_stamp.source_digest() and len(stamp[1]) == 64
    assert isinstance(_in_the_tests._cache._impl.locator, source_stamp.PackageStampLocator)  # tests/conftest.py
    (tmp_path / "elsewhere.py").write_text("from numba import njit\n\n\n@njit(cache=True)\ndef f(x):\n    return x\n")
    spec = importlib.util.spec_from_file_location("elsewhere", tmp_path / "elsewhere.py")
    elsewhere = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(elsewhere)
    assert not isinstance(elsewhere.f._cache._impl.locator, source_stamp.PackageStampLocator)


# Numba imported in one thread while another imports the kernels (as a server's warm-up does beside its requests).
_BESIDE = """
import threading
errors = []
def run(target):
    try:
        target()
    except Exception as exc:
        errors.append(repr(exc))
def numba():
    from numba.core.dispatcher import Dispatcher
def kernels():
    from smear_sim.kernels import rng
threads = [threading.Thread(target=run, args=(target,)) for target in (numba, kernels)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(errors)
"""


def test_the_kernels_import_while_another_thread_imports_numba():
    """Installing the locator imports Numba in full first: importing ``numba.core.caching`` alone raced a thread
    importing Numba (an ImportError in 12 of 12 runs before)."""
    for _ in range(3):
        done = subprocess.run([sys.executable, "-c", _BESIDE], capture_output=True, text=True, timeout=120)
        assert (done.returncode, done.stdout.strip()) == (0, "[]"), done.stderr


_LIBC = ctypes.CDLL(ctypes.util.find_library("c"))
_c_abs = _LIBC.abs
_c_abs.argtypes, _c_abs.restype = [ctypes.c_int], ctypes.c_int


@njit(cache=True)
def _through_ctypes(x):
    return _c_abs(x)


def test_a_kernel_that_cannot_be_cached_warns_and_runs():
    """Numba warns, naming the function's file, when a function cannot be cached (here it calls C through ctypes,
    as code compiled with NUMBA_OPT=0 may); the stamped locator gave it no file and the command failed with
    "internal error: AttributeError: ... '_py_file'"."""
    with pytest.warns(NumbaWarning, match="Cannot cache compiled function"):
        assert _through_ctypes(-3) == 3
