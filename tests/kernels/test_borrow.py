"""Borrowed arrays (smear_sim/kernels/borrow.py)."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError
from numba.core.runtime import _nrt_python, rtsys

from smear_sim.core.bidder import empty_model
from smear_sim.core.players import parse_policies, policy_array
from smear_sim.core.rules import Rules
from smear_sim.kernels import drivers
from smear_sim.kernels.borrow import borrowed, keep_alive


@njit(cache=True)
def _through_views(a, b, c):
    """Writes through borrowed views of ``a`` and of a tuple holding ``b`` and ``c``, and sums them back."""
    owner = np.zeros(3, dtype=np.int64)  # made here: kept alive by keep_alive, not by the caller
    view = borrowed(a)
    mine, (first, second), n = borrowed((owner, (b, c), 7))
    total = 0
    for i in range(view.shape[0]):
        view[i] += 1
        total += view[i]
    for i in range(3):
        mine[i] = i * n
        first[i, 0] = -mine[i]
        second[i] = 0.5 * i
    row = view[1:]  # a view of a borrowed array is borrowed too
    row[0] = 100
    keep_alive(owner)
    return total, owner.sum()


def test_a_borrowed_view_reads_and_writes_its_owners_memory():
    a = np.arange(5, dtype=np.int64)
    b = np.ones((3, 2), dtype=np.int64)
    c = np.zeros(3)
    total, owned = _through_views(a, b, c)
    assert total == 15
    assert owned == 21  # 0 + 7 + 14, written through the view and read through the owner
    assert a.tolist() == [1, 100, 3, 4, 5]
    assert b[:, 0].tolist() == [0, -7, -14] and b[:, 1].tolist() == [1, 1, 1]
    assert c.tolist() == [0.0, 0.5, 1.0]


def test_only_arrays_and_tuples_of_them_can_be_borrowed():
    @njit
    def borrow_a_list(items):
        return len(borrowed(items))

    with pytest.raises(TypingError, match="borrowed"):
        borrow_a_list([1, 2, 3])


def test_the_drivers_free_every_array_they_allocate():
    """Borrowed views and the functions compiled with NO_REFCOUNT leak nothing: every allocation of a driver call,
    the hands', the games' and the traces', is freed once its result is dropped."""
    codes = policy_array(parse_policies("heuristic"))
    args = (Rules().to_array(), codes, empty_model())
    seated = drivers.seated_arg(codes)

    def run() -> None:
        drivers.simulate_hands(np.uint64(5), 0, 300, 3, *args, seated)
        drivers.trace_hands(np.uint64(5), 0, 30, *args, seated)
        drivers.simulate_games(np.uint64(5), 0, 4, 2, *args, 0, 0, 3, seated)

    run()  # compiled (or loaded) before counting
    was_on = _nrt_python.memsys_stats_enabled()  # as NUMBA_NRT_STATS=1 does
    _nrt_python.memsys_enable_stats()
    try:
        before = rtsys.get_allocation_stats()
        run()
        after = rtsys.get_allocation_stats()
    finally:
        if not was_on:
            _nrt_python.memsys_disable_stats()
    allocated = after.alloc - before.alloc
    assert allocated > 0
    assert after.free - before.free == allocated
    assert after.mi_free - before.mi_free == after.mi_alloc - before.mi_alloc
