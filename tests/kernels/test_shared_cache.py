"""Processes that share one Numba cache compile each function's signature once, and load the right code for each."""

import json
import subprocess
import sys
import textwrap

import numba

from smear_sim.kernels import shared_cache

# Six signatures of one cached function, each giving a result of its own.
_MODULE = textwrap.dedent("""
    from numba import njit

    @njit(cache=True)
    def scaled(x):
        return x * 3 + 1
""")
_ARGS = "[1, 2.5, 1j, np.int32(4), np.float32(0.5), np.uint16(7)]"
_CALLER = textwrap.dedent(f"""
    import json, sys
    import numpy as np
    import smear_sim.kernels  # the cache's locks
    sys.path.insert(0, sys.argv[1])
    from shared_kernel import scaled

    args = {_ARGS}
    order = args if sys.argv[2] == "forward" else args[::-1]
    sys.stdin.readline()  # start together
    values = {{repr(arg): repr(scaled(arg)) for arg in order}}
    stats = scaled.stats
    print(json.dumps({{"values": values, "hits": sum(stats.cache_hits.values()),
                      "misses": sum(stats.cache_misses.values())}}))
""")


def _callers(folder, orders):
    caller = [sys.executable, "-c", _CALLER, str(folder)]
    procs = [subprocess.Popen(caller + [order], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
             for order in orders]
    for proc in procs:
        proc.stdin.write("go\n")
        proc.stdin.flush()
    outs = [proc.communicate(timeout=300)[0] for proc in procs]
    assert all(proc.returncode == 0 for proc in procs)
    return [json.loads(out) for out in outs]


def test_two_processes_compile_each_signature_once_and_a_third_loads_every_one_right(tmp_path):
    (tmp_path / "shared_kernel.py").write_text(_MODULE)
    first, second = _callers(tmp_path, ["forward", "backward"])
    assert first["misses"] + second["misses"] == 6  # each signature compiled by one of them, the other loaded it
    assert first["hits"] + second["hits"] == 6
    expected = first["values"]
    assert second["values"] == expected
    (third,) = _callers(tmp_path, ["forward"])
    assert (third["hits"], third["misses"]) == (6, 0)
    assert third["values"] == expected


def _import_scaled(folder):
    (folder / "shared_kernel.py").write_text(_MODULE)
    sys.path.insert(0, str(folder))
    try:
        from shared_kernel import scaled
    finally:
        sys.path.remove(str(folder))
        sys.modules.pop("shared_kernel")
    return scaled


_CALL = "import sys, smear_sim.kernels; sys.path.insert(0, sys.argv[1]); from shared_kernel import scaled; scaled({})"


def _ends_while_held(lock, folder, arg, seconds):
    """Whether a process calling ``scaled(arg)`` ends within ``seconds`` while this one holds ``lock``; it ends well
    once the lock is let go, either way."""
    assert shared_cache._acquire(lock)
    try:
        process = subprocess.Popen([sys.executable, "-c", _CALL.format(arg), str(folder)])
        try:
            process.wait(timeout=seconds)
            ended = True
        except subprocess.TimeoutExpired:
            ended = False
    finally:
        shared_cache._release(lock)
    assert process.wait(timeout=120) == 0
    return ended


def test_a_signature_being_compiled_holds_up_that_signature_only(tmp_path):
    scaled = _import_scaled(tmp_path)
    held = shared_cache._signature_lock_path(scaled, (numba.int64,))
    assert held.startswith(shared_cache._index_path(scaled) + ".")
    assert held != shared_cache._signature_lock_path(scaled, (numba.float64,))
    assert _ends_while_held(held, tmp_path, "2.5", 120)  # another signature compiles and saves meanwhile
    assert not _ends_while_held(held, tmp_path, "1", 5)


def test_saving_an_entry_waits_for_the_index_lock(tmp_path):
    scaled = _import_scaled(tmp_path)
    assert not _ends_while_held(shared_cache._index_path(scaled) + shared_cache.LOCK_SUFFIX, tmp_path, "1", 5)


def test_the_locks_are_beside_the_cache_index_reentrant_and_released():
    from smear_sim.kernels import bits

    dispatcher = next(value for value in vars(bits).values() if hasattr(value, "_cache"))
    lock = shared_cache._signature_lock_path(dispatcher, (numba.uint64,))
    assert lock is not None and lock.endswith(shared_cache.LOCK_SUFFIX) and ".nbi." in lock
    assert shared_cache._acquire(lock) and shared_cache._acquire(lock)
    shared_cache._release(lock)
    assert lock in shared_cache._held
    shared_cache._release(lock)
    assert lock not in shared_cache._held
