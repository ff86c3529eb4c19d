"""Numba kernels: the compiled hand simulator.

Everything here is ``@njit(cache=True)`` and works on integer card codes and ``uint64`` hand masks. The
Python code that validates inputs, allocates arrays and calls these kernels lives in
:mod:`smear_sim.engine` and :mod:`smear_sim.analysis`; importing this package imports Numba.

Importing it also has CPython keep its spare frame-stack chunks from the first compile on
(:mod:`smear_sim._frame_stack`): compiling the kernels otherwise spends up to a third of its time mapping and
unmapping them (a third for ``heuristic-v1``'s simulation, a few per cent for most).
"""

from .._frame_stack import keep_frame_chunks_when_compiling

keep_frame_chunks_when_compiling()
