"""Borrowed arrays (smear_sim/kernels/borrow.py)."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import textwrap

import numpy as np
import pytest
from allocations import allocations_during
from numba import njit
from numba.core.errors import TypingError

from smear_sim import kernels
from smear_sim.core.bidder import no_bidder_arrays
from smear_sim.core.players import PLAYERS, parse_policies, policy_array
from smear_sim.core.rules import Rules
from smear_sim.kernels import drivers
from smear_sim.kernels.borrow import borrowed, keep_alive
from smear_sim.kernels.players.bids import decisions_of


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
    args = (Rules().to_array(), codes, no_bidder_arrays())
    seated = drivers.seated_arg(codes)

    def run() -> None:
        drivers.simulate_hands(np.uint64(5), 0, 300, 3, *args, seated)
        drivers.trace_hands(np.uint64(5), 0, 30, *args, seated)
        drivers.simulate_games(np.uint64(5), 0, 4, 2, *args, 0, 0, 3, seated)

    run()  # compiled (or loaded) before counting
    before, after = allocations_during(run)
    allocated = after.alloc - before.alloc
    assert allocated > 0
    assert after.free - before.free == allocated
    assert after.mi_free - before.mi_free == after.mi_alloc - before.mi_alloc


_ALLOCATIONS = {"array", "arange", "copy", "empty", "empty_like", "full", "full_like", "ones", "ones_like", "zeros",
                "zeros_like"}


def _kernels_below_the_drivers():
    """Every compiled function defined in smear_sim.kernels outside the drivers (which only Python calls), but for
    those inlined into their callers (``inline="always"``): they compile as part of each caller, in any order."""
    for info in pkgutil.walk_packages(kernels.__path__, "smear_sim.kernels."):
        if info.name.startswith("smear_sim.kernels.drivers"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (hasattr(value, "targetoptions") and value.py_func.__module__ == info.name
                    and value.targetoptions.get("inline") != "always"):
                yield f"{info.name}.{name}", value


def _allocates(function) -> bool:
    tree = ast.parse(textwrap.dedent(inspect.getsource(function.py_func)))
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _ALLOCATIONS
               for node in ast.walk(tree))


def test_every_kernel_that_allocates_is_compiled_with_reference_counting_whoever_calls_it_first():
    """Numba compiles a function that does not choose with its first caller's reference counting: one that
    allocates, first called from a function compiled with NO_REFCOUNT, failed to compile (CI, a clean cache)."""
    found = dict(_kernels_below_the_drivers())
    assert "smear_sim.kernels.hand.scratch" in found and "smear_sim.kernels.players.expert.trump_keep" in found
    allocating = {name for name, function in found.items() if _allocates(function)}
    assert "smear_sim.kernels.state.sample_world" in allocating
    assert [name for name in sorted(allocating) if found[name].targetoptions.get("_nrt") is not True] == []


def test_every_players_decision_chooses_its_reference_counting():
    """The dispatch calls a player's decision from the hand, which runs without reference counting: a decision
    that is a function of its own (not inlined into the dispatch) says which way it compiles."""
    undecided = []
    for kind, player in enumerate(PLAYERS):
        for decision in player.decisions:
            function, _ = decisions_of(kind, decision)
            if function.targetoptions.get("inline", "never") != "always" and "_nrt" not in function.targetoptions:
                undecided.append(f"{player.name}.{decision}")
    assert undecided == []
